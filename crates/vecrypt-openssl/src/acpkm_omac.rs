//! `kuznyechik-ctr-acpkm-omac` (OID 1.2.643.7.1.1.5.2.2) as gost-engine builds it: the
//! 32-byte key and an 8-byte seed give, through KDF_TREE_GOSTR3411_2012_256 with the label
//! "kdf tree", a cipher key and a MAC key. The data runs through CTR-ACPKM (section 4096
//! bytes) under the cipher key and OMAC (Kuznyechik CMAC, 16 bytes) under the MAC key runs
//! over the plaintext. At the end the OMAC value is encrypted by the same keystream, which
//! simply goes on after the data: that is the tag.
//!
//! Encryption draws a fresh seed at each keying unless one was set through the `kdf-seed`
//! parameter; decryption uses the seed last set, all zero if none was (as gost-engine,
//! which keeps the seed in the context and has nothing that sets it outside CMS).

use hmac::{Hmac, KeyInit, Mac};
use streebog::Streebog256;
use vecrypt::kuznyechik::Kuznyechik;
use vecrypt::modes::gost::Omac;
use zeroize::{Zeroize, Zeroizing};

/// Bytes of the KDF seed.
pub(crate) const SEED: usize = 8;
/// Bytes of the tag (the whole OMAC block; gost-engine neither truncates nor takes less).
pub(crate) const TAG: usize = 16;
const KEY: usize = 32;
/// The KDF's label for this cipher.
const LABEL: &[u8] = b"kdf tree";

/// KDF_TREE_GOSTR3411_2012_256 (R 1323565.1.022-2018) with a one-byte counter (R = 1):
/// block i of the output (32 bytes each, i from 1) is
/// `HMAC-Streebog-256(key, i || label || 0x00 || seed || L)`, L the output length in bits,
/// big-endian without leading zero bytes. `out` is 32 to 8160 bytes, a multiple of 32;
/// false for any other length.
pub(crate) fn kdf_tree(key: &[u8], label: &[u8], seed: &[u8], out: &mut [u8]) -> bool {
    let blocks = out.len() / 32;
    if out.is_empty() || !out.len().is_multiple_of(32) || blocks > 255 {
        return false;
    }
    let bits = ((out.len() * 8) as u32).to_be_bytes();
    let skip = bits.iter().take_while(|&&b| b == 0).count();
    for (i, chunk) in out.chunks_mut(32).enumerate() {
        let Ok(mut mac) = <Hmac<Streebog256> as KeyInit>::new_from_slice(key) else {
            return false;
        };
        mac.update(&[(i + 1) as u8]);
        mac.update(label);
        mac.update(&[0]);
        mac.update(seed);
        mac.update(&bits[skip..]);
        let mut block = mac.finalize().into_bytes();
        chunk.copy_from_slice(&block);
        block.as_mut_slice().zeroize();
    }
    true
}

/// The MAC side of a `kuznyechik-ctr-acpkm-omac` context; the CTR-ACPKM side is the
/// context's own stream, keyed with the cipher key [`OmacState::derive`] returns.
#[derive(Clone)]
pub(crate) struct OmacState {
    /// The key OpenSSL gave, kept to derive again when the seed changes.
    master: Option<Zeroizing<[u8; KEY]>>,
    seed: [u8; SEED],
    /// Set through `kdf-seed`: encryption then uses it instead of drawing one.
    seed_set: bool,
    mac_key: Option<Kuznyechik>,
    /// The MAC of the message in progress.
    running: Option<Omac<'static, Kuznyechik>>,
    /// The encrypted tag of the last message (encryption), valid after `final`.
    tag: [u8; TAG],
    tag_ready: bool,
    /// The encrypted tag to check (decryption).
    expected: Option<[u8; TAG]>,
}

impl OmacState {
    pub fn new() -> Self {
        OmacState {
            master: None,
            seed: [0; SEED],
            seed_set: false,
            mac_key: None,
            running: None,
            tag: [0; TAG],
            tag_ready: false,
            expected: None,
        }
    }

    /// Takes a new key: encryption draws a new seed unless one was set. The cipher key to
    /// run CTR-ACPKM under comes from [`OmacState::derive`] afterwards.
    pub fn set_key(&mut self, key: &[u8], encrypt: bool) -> bool {
        let Ok(k) = <[u8; KEY]>::try_from(key) else {
            return false;
        };
        if encrypt && !self.seed_set && getrandom::fill(&mut self.seed).is_err() {
            return false;
        }
        self.master = Some(Zeroizing::new(k));
        self.expected = None;
        true
    }

    /// Sets the seed for every later keying; false unless it is 8 bytes.
    pub fn set_seed(&mut self, seed: &[u8]) -> bool {
        match <[u8; SEED]>::try_from(seed) {
            Ok(s) => {
                self.seed = s;
                self.seed_set = true;
                true
            }
            Err(_) => false,
        }
    }

    pub fn seed(&self) -> &[u8] {
        &self.seed
    }

    pub fn is_keyed(&self) -> bool {
        self.master.is_some()
    }

    /// Derives the MAC key (kept here) and the cipher key (returned) from the key and
    /// seed; `None` before a key is set.
    pub fn derive(&mut self) -> Option<Kuznyechik> {
        let master = self.master.as_ref()?;
        let mut keys = Zeroizing::new([0u8; 2 * KEY]);
        if !kdf_tree(&master[..], LABEL, &self.seed, &mut keys[..]) {
            return None;
        }
        let cipher = Kuznyechik::from_key(&keys[..KEY]).ok()?;
        self.mac_key = Some(Kuznyechik::from_key(&keys[KEY..]).ok()?);
        Some(cipher)
    }

    /// Starts a new message's MAC.
    pub fn restart(&mut self) {
        self.running = self.mac_key.clone().map(Omac::owning);
        self.tag_ready = false;
    }

    /// Adds plaintext to the MAC; false when no message is in progress.
    pub fn absorb(&mut self, plaintext: &[u8]) -> bool {
        match self.running.as_mut() {
            Some(m) => {
                m.update(plaintext);
                true
            }
            None => false,
        }
    }

    /// Ends the MAC: its value, to be encrypted by the caller's keystream.
    pub fn take_mac(&mut self) -> Option<[u8; TAG]> {
        let mut full = self.running.take()?.finalize();
        let mut mac = [0u8; TAG];
        mac.copy_from_slice(&full[..TAG]);
        full.zeroize();
        Some(mac)
    }

    /// Keeps the encrypted tag of a finished encryption.
    pub fn set_made_tag(&mut self, tag: [u8; TAG]) {
        self.tag = tag;
        self.tag_ready = true;
    }

    /// The first `len` bytes of the tag, once encryption is final.
    pub fn tag(&self, len: usize) -> Option<&[u8]> {
        (self.tag_ready && (1..=TAG).contains(&len)).then(|| &self.tag[..len])
    }

    /// The tag to check when decrypting: 16 bytes.
    pub fn set_expected(&mut self, tag: &[u8]) -> bool {
        match <[u8; TAG]>::try_from(tag) {
            Ok(t) => {
                self.expected = Some(t);
                true
            }
            Err(_) => false,
        }
    }

    /// Whether `tag` (the encrypted MAC just computed) is the one set, compared without a
    /// data-dependent branch or early exit. False when none was set.
    pub fn check(&self, tag: &[u8; TAG]) -> bool {
        let Some(want) = &self.expected else {
            return false;
        };
        bool::from(subtle::ConstantTimeEq::ct_eq(&want[..], &tag[..]))
    }
}

impl Drop for OmacState {
    fn drop(&mut self) {
        self.seed.zeroize();
        self.tag.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unhex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    /// The example of R 1323565.1.022-2018 (also in gost-engine's tests).
    #[test]
    fn kdf_tree_vector() {
        let key: Vec<u8> = (0u8..32).collect();
        let mut out = [0u8; 64];
        assert!(kdf_tree(
            &key,
            &unhex("26bdb878"),
            &unhex("af21434145656378"),
            &mut out
        ));
        assert_eq!(
            out.to_vec(),
            unhex(
                "22b6837845c6bef65ea71672b265831086d3c76aebe6dae91cad51d83f79d16b\
                 074c9330599d7f8d712fca54392f4ddde93751206b3584c8f43f9e6dc51531f9"
            )
        );
        // The first half alone is the first block: the length is part of the input.
        let mut half = [0u8; 32];
        assert!(kdf_tree(
            &key,
            &unhex("26bdb878"),
            &unhex("af21434145656378"),
            &mut half
        ));
        assert_ne!(half[..], out[..32]);
    }

    #[test]
    fn kdf_tree_lengths() {
        let mut b = [0u8; 48];
        assert!(!kdf_tree(&[0; 32], LABEL, &[0; 8], &mut b));
        assert!(!kdf_tree(&[0; 32], LABEL, &[0; 8], &mut []));
        let mut big = vec![0u8; 256 * 32];
        assert!(!kdf_tree(&[0; 32], LABEL, &[0; 8], &mut big));
        assert!(kdf_tree(&[0; 32], LABEL, &[0; 8], &mut big[..255 * 32]));
    }

    /// GOST R 34.13-2015's OMAC example for Kuznyechik (A.1.6) through the MAC side of a
    /// context (the library's OMAC owning its cipher): the 8-byte MAC is the first half of
    /// the block.
    #[test]
    fn omac_standard_example() {
        let key = unhex("8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef");
        let msg = unhex(
            "1122334455667700ffeeddccbbaa998800112233445566778899aabbcceeff0a\
             112233445566778899aabbcceeff0a002233445566778899aabbcceeff0a0011",
        );
        let mut s = OmacState::new();
        s.mac_key = Some(Kuznyechik::from_key(&key).unwrap());
        s.restart();
        for piece in msg.chunks(5) {
            assert!(s.absorb(piece));
        }
        assert_eq!(s.take_mac().unwrap()[..8], unhex("336f4d296059fbe3")[..]);
        assert!(s.take_mac().is_none());
    }

    #[test]
    fn seed_and_tag_lengths() {
        let mut s = OmacState::new();
        assert!(!s.set_seed(&[0; 7]));
        assert!(s.set_seed(&[1; 8]));
        assert_eq!(s.seed(), &[1; 8]);
        assert!(!s.set_key(&[0; 31], true));
        assert!(s.set_key(&[0; 32], true));
        // A set seed is kept when encryption keys.
        assert_eq!(s.seed(), &[1; 8]);
        assert!(!s.set_expected(&[0; 15]));
        assert!(!s.check(&[0; 16]));
        assert!(s.set_expected(&[3; 16]));
        assert!(s.check(&[3; 16]));
        let mut other = [3u8; 16];
        other[15] = 2;
        assert!(!s.check(&other));
    }

    #[test]
    fn fresh_seed_per_encryption() {
        let mut s = OmacState::new();
        assert!(s.set_key(&[0; 32], false));
        assert_eq!(s.seed(), &[0; 8]);
        assert!(s.set_key(&[0; 32], true));
        let a = s.seed().to_vec();
        assert!(s.set_key(&[0; 32], true));
        assert_ne!(a, s.seed());
    }
}
