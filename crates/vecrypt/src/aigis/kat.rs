//! The NIST-style known-answer file of Aigis-enc (the PQCgenKAT_kem flow of the submission
//! kits), without allocation, so that a microcontroller can make it as a server does.
//!
//! A master AES-256 CTR-DRBG (no derivation function) seeded with the bytes 0..47 draws 100
//! seeds of 48 bytes; each record reseeds the DRBG with its seed, then key generation draws
//! 64 bytes of coins and encapsulation 32. The file is `# <set name>`, a blank line, then
//! per record `count`, `seed`, `pk`, `sk`, `ct` and `ss` lines (upper-case hex) and a blank
//! line.

use zeroize::Zeroizing;

use super::{Aigis, ENCAPS_COINS_BYTES, KEYPAIR_COINS_BYTES, ParamSet};
use crate::Error;
use crate::aes::Aes256;
use crate::modes::BlockModes;

/// Records in a file.
pub const RECORDS: usize = 100;

/// The largest key and ciphertext sizes of the four sets.
const MAX_PK: usize = largest([
    ParamSet::Aigis1.public_key_bytes(),
    ParamSet::Aigis2.public_key_bytes(),
    ParamSet::Aigis3.public_key_bytes(),
    ParamSet::Aigis4.public_key_bytes(),
]);
const MAX_SK: usize = largest([
    ParamSet::Aigis1.secret_key_bytes(),
    ParamSet::Aigis2.secret_key_bytes(),
    ParamSet::Aigis3.secret_key_bytes(),
    ParamSet::Aigis4.secret_key_bytes(),
]);
const MAX_CT: usize = largest([
    ParamSet::Aigis1.ciphertext_bytes(),
    ParamSet::Aigis2.ciphertext_bytes(),
    ParamSet::Aigis3.ciphertext_bytes(),
    ParamSet::Aigis4.ciphertext_bytes(),
]);

const fn largest(sizes: [usize; 4]) -> usize {
    let mut m = 0;
    let mut i = 0;
    while i < sizes.len() {
        if sizes[i] > m {
            m = sizes[i];
        }
        i += 1;
    }
    m
}

/// The AES-256 CTR-DRBG without derivation function of the NIST submission kits.
pub(crate) struct CtrDrbg {
    /// AES-256 under the DRBG's current key, made once per key.
    cipher: Aes256,
    v: Zeroizing<[u8; 16]>,
}

impl CtrDrbg {
    pub(crate) fn new(entropy: &[u8; 48]) -> Self {
        let mut d = CtrDrbg {
            cipher: Self::keyed(&[0; 32]),
            v: Zeroizing::new([0; 16]),
        };
        d.update(Some(entropy));
        d
    }

    fn keyed(key: &[u8]) -> Aes256 {
        match Aes256::from_key(key) {
            Ok(c) => c,
            // A 32-byte key is always accepted.
            Err(_) => unreachable!(),
        }
    }

    fn block(&mut self) -> Zeroizing<[u8; 16]> {
        for b in self.v.iter_mut().rev() {
            let (next, carry) = b.overflowing_add(1);
            *b = next;
            if !carry {
                break;
            }
        }
        let mut out = Zeroizing::new(*self.v);
        // One whole block: cannot fail.
        let _ = self.cipher.encrypt_ecb(&mut out[..]);
        out
    }

    fn update(&mut self, provided: Option<&[u8; 48]>) {
        let mut temp = Zeroizing::new([0u8; 48]);
        for chunk in temp.chunks_mut(16) {
            chunk.copy_from_slice(&self.block()[..]);
        }
        if let Some(p) = provided {
            for (t, x) in temp.iter_mut().zip(p.iter()) {
                *t ^= x;
            }
        }
        self.cipher = Self::keyed(&temp[..32]);
        self.v.copy_from_slice(&temp[32..]);
    }

    pub(crate) fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(16) {
            let b = self.block();
            chunk.copy_from_slice(&b[..chunk.len()]);
        }
        self.update(None);
    }
}

/// `label = HEX\n`, written in pieces.
fn line(out: &mut impl FnMut(&[u8]), label: &str, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    out(label.as_bytes());
    out(b" = ");
    let mut hex = [0u8; 64];
    for chunk in bytes.chunks(32) {
        for (pair, b) in hex.chunks_exact_mut(2).zip(chunk) {
            pair[0] = DIGITS[usize::from(b >> 4)];
            pair[1] = DIGITS[usize::from(b & 15)];
        }
        out(&hex[..2 * chunk.len()]);
    }
    out(b"\n");
}

/// Writes the known-answer file of `kem`'s set and hash mode through `out`, piece by piece.
/// Fails only if a decapsulation disagrees with its encapsulation
/// ([`Error::AuthenticationFailed`]).
pub fn write_kat(kem: &Aigis, mut out: impl FnMut(&[u8])) -> Result<(), Error> {
    let set = kem.set();
    let (pk_len, sk_len, ct_len) = (
        set.public_key_bytes(),
        set.secret_key_bytes(),
        set.ciphertext_bytes(),
    );
    let mut pk = [0u8; MAX_PK];
    let mut sk = Zeroizing::new([0u8; MAX_SK]);
    let mut ct = [0u8; MAX_CT];
    let (pk, sk, ct) = (&mut pk[..pk_len], &mut sk[..sk_len], &mut ct[..ct_len]);
    out(b"# ");
    out(set.name().as_bytes());
    out(b"\n\n");
    let mut master = CtrDrbg::new(&core::array::from_fn(|i| i as u8));
    for count in 0..RECORDS {
        let mut seed = [0u8; 48];
        master.fill(&mut seed);
        let mut drbg = CtrDrbg::new(&seed);
        let mut kc = Zeroizing::new([0u8; KEYPAIR_COINS_BYTES]);
        drbg.fill(&mut kc[..]);
        kem.keypair_into(&kc[..], pk, sk)?;
        let mut ec = Zeroizing::new([0u8; ENCAPS_COINS_BYTES]);
        drbg.fill(&mut ec[..]);
        let ss = kem.encapsulate_into(pk, &ec[..], ct)?;
        if kem.decapsulate(sk, ct)? != ss {
            return Err(Error::AuthenticationFailed);
        }
        out(b"count = ");
        let digits = [b'0' + (count / 10) as u8, b'0' + (count % 10) as u8];
        out(if count < 10 {
            &digits[1..]
        } else {
            &digits[..]
        });
        out(b"\n");
        line(&mut out, "seed", &seed);
        line(&mut out, "pk", pk);
        line(&mut out, "sk", sk);
        line(&mut out, "ct", ct);
        line(&mut out, "ss", &ss[..]);
        out(b"\n");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first seed of every NIST KAT file (entropy 0..47).
    #[test]
    fn drbg_gives_the_well_known_first_seed() {
        let entropy: [u8; 48] = core::array::from_fn(|i| i as u8);
        let mut d = CtrDrbg::new(&entropy);
        let mut seed = [0u8; 48];
        d.fill(&mut seed);
        let want = "061550234D158C5EC95595FE04EF7A25767F2E24CC2BC479D09D86DC9ABCFDE7056A8C266F9EF97ED08541DBD2E1FFA1";
        let mut got = [0u8; 96];
        for (pair, b) in got.chunks_exact_mut(2).zip(seed) {
            pair.copy_from_slice(format!("{b:02X}").as_bytes());
        }
        assert_eq!(core::str::from_utf8(&got).unwrap(), want);
    }
}
