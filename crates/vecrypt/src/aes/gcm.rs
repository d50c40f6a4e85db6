//! AES-GCM (NIST SP 800-38D): nonces of 1 to 2^61 - 1 bytes, tags of 12 to 16 bytes, the
//! `aead` traits.
//!
//! Nonce rule: a nonce must never repeat under one key. A 12-byte nonce (the recommended
//! length, [`Aes128Gcm`] and its siblings through the `aead` traits) is the counter block
//! directly; any other length is hashed with GHASH into the counter block, as SP 800-38D,
//! 7.1 defines. An empty nonce, or one longer than GHASH can count, is refused with
//! [`Error::NonceLength`].
//!
//! On VAES machines CTR and GHASH run in one pass over the data, 16 (ymm) or 32 (zmm) blocks
//! per GHASH reduction; on the `vaes512` backend short messages (up to 256 bytes, with up to
//! 64 bytes of associated data) take one kernel call instead, that encrypts every counter
//! block and the tag mask together and hashes the whole message with one reduction.
//! Decryption checks the tag in constant time and, when it does not match, restores the
//! ciphertext so that no unauthenticated plaintext is released.
//!
//! ```
//! use vecrypt::aes::Aes128Gcm;
//!
//! let gcm = Aes128Gcm::from_key(&[0u8; 16]).unwrap();
//! let mut data = *b"attack at dawn";
//! let tag = gcm.encrypt_detached(&[0u8; 12], b"header", &mut data).unwrap();
//! gcm.decrypt_detached(&[0u8; 12], b"header", &mut data, &tag).unwrap();
//! assert_eq!(&data, b"attack at dawn");
//! ```

use core::fmt;
use core::marker::PhantomData;

use aead::array::ArraySize;
use aead::consts::{U12, U16};
use cipher::{Key, KeyInit, KeySizeUser};
use zeroize::ZeroizeOnDrop;

use super::common::CounterWidth;
use super::dispatch::Kernels;
use super::{Aes, K128, K192, K256, KeySize, advance};
use crate::Error;
use crate::cpu::{self, Backend};
use crate::ghash::{Ghash, check_lengths};
use crate::modes::xor_in_place;

/// AES-GCM with key size `K`, nonce length `N` and tag length `T` for the `aead` traits
/// (the inherent methods take nonces of 1 to 2^61 - 1 bytes, see the module's nonce rule, and
/// tags of 12 to 16 bytes).
pub struct AesGcm<K: KeySize, N = U12, T = U16> {
    cipher: Aes<K>,
    hash: Ghash,
    _sizes: PhantomData<(N, T)>,
}

/// AES-128-GCM with a 12-byte nonce and a 16-byte tag.
pub type Aes128Gcm = AesGcm<K128>;
/// AES-192-GCM with a 12-byte nonce and a 16-byte tag.
pub type Aes192Gcm = AesGcm<K192>;
/// AES-256-GCM with a 12-byte nonce and a 16-byte tag.
pub type Aes256Gcm = AesGcm<K256>;

impl<K: KeySize, N, T> Clone for AesGcm<K, N, T> {
    fn clone(&self) -> Self {
        Self {
            cipher: self.cipher.clone(),
            hash: self.hash.clone(),
            _sizes: PhantomData,
        }
    }
}

impl<K: KeySize, N, T> fmt::Debug for AesGcm<K, N, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}-gcm {{ backend: {}, .. }}",
            K::NAME,
            self.cipher.backend
        )
    }
}

impl<K: KeySize, N, T> ZeroizeOnDrop for AesGcm<K, N, T> {}

impl<K: KeySize, N, T> AesGcm<K, N, T> {
    /// Keys AES-GCM on the best backend for this CPU.
    pub fn from_key(key: &[u8]) -> Result<Self, Error> {
        Self::keyed_on(key, cpu::choose(super::CANDIDATES))
    }

    /// Keys AES-GCM on `backend`, or fails if this CPU cannot run it.
    pub fn with_backend(key: &[u8], backend: Backend) -> Result<Self, Error> {
        Self::keyed_on(key, cpu::require(super::CANDIDATES, backend)?)
    }

    /// The backend the key runs on.
    pub fn backend(&self) -> Backend {
        self.cipher.backend
    }

    /// Keys a key on `backend`, the cipher and the hash key filled in place: the key object
    /// is kilobytes (round keys and powers of H), and moving it through constructors cost
    /// more than the key schedule.
    fn keyed_on(key: &[u8], backend: Backend) -> Result<Self, Error> {
        Aes::<K>::check_length(key)?;
        let mut gcm = Self {
            cipher: Aes::unkeyed(backend),
            hash: Ghash::empty(),
            _sizes: PhantomData,
        };
        gcm.cipher.set_key(key);
        gcm.set_hash_key();
        Ok(gcm)
    }

    fn from_cipher(cipher: Aes<K>) -> Self {
        let mut gcm = Self {
            cipher,
            hash: Ghash::empty(),
            _sizes: PhantomData,
        };
        gcm.set_hash_key();
        gcm
    }

    /// Fills the hash key from the cipher: H = E(0).
    fn set_hash_key(&mut self) {
        let mut h = [0u8; 16];
        self.cipher.ecb_encrypt(&mut h);
        // The carry-less GHASH goes with the SIMD backends; the portable one stays portable.
        // The VAES backends make the powers of H on their own registers.
        let simd = super::on_kernels(self.cipher.backend);
        let kernels = &self.cipher.kernels;
        self.hash
            .set_key_with(&h, simd, |h, out| kernels.ghash_powers(h, out));
        crate::wipe::array(&mut h);
    }

    /// GCM over whole blocks: the backend's one-pass kernel, else two passes (CTR, then
    /// GHASH of the ciphertext) a few KiB at a time, so that the second pass reads from
    /// cache.
    fn blocks(&self, decrypt: bool, counter: &[u8; 16], acc: &mut [u8; 16], buf: &mut [u8]) {
        let (rk, powers) = (&self.cipher.rk, self.hash.powers());
        if self
            .cipher
            .kernels
            .gcm(rk, powers, decrypt, counter, acc, buf)
            .done()
        {
            return;
        }
        let mut c = *counter;
        for chunk in buf.chunks_mut(16 * 256) {
            if decrypt {
                self.hash.update(acc, chunk);
                self.cipher.ctr_whole(CounterWidth::Low32, &c, chunk);
            } else {
                self.cipher.ctr_whole(CounterWidth::Low32, &c, chunk);
                self.hash.update(acc, chunk);
            }
            advance(CounterWidth::Low32, &mut c, (chunk.len() / 16) as u128);
        }
    }

    /// Encrypts or decrypts `buf` in place and returns the full 16-byte tag.
    fn run(&self, decrypt: bool, j0: &[u8; 16], aad: &[u8], buf: &mut [u8]) -> [u8; 16] {
        let whole = self.cipher.kernels.gcm_message(
            &self.cipher.rk,
            self.hash.powers(),
            decrypt,
            j0,
            aad,
            buf,
        );
        if let Some(tag) = whole {
            return tag;
        }
        let mut acc = [0u8; 16];
        self.hash.update_padded(&mut acc, aad);
        let mut counter = *j0;
        advance(CounterWidth::Low32, &mut counter, 1);
        let whole = buf.len() / 16 * 16;
        let (body, tail) = buf.split_at_mut(whole);
        self.blocks(decrypt, &counter, &mut acc, body);
        advance(CounterWidth::Low32, &mut counter, (whole / 16) as u128);
        if !tail.is_empty() {
            let mut last = [0u8; 16];
            last[..tail.len()].copy_from_slice(tail);
            if decrypt {
                self.hash.update(&mut acc, &last);
            }
            let mut ks = counter;
            self.cipher.ecb_encrypt(&mut ks);
            xor_in_place(tail, &ks);
            if !decrypt {
                last = [0u8; 16];
                last[..tail.len()].copy_from_slice(tail);
                self.hash.update(&mut acc, &last);
            }
            crate::wipe::array(&mut ks);
            crate::wipe::array(&mut last);
        }
        self.hash
            .update_lengths(&mut acc, aad.len() as u64, buf.len() as u64);
        let mut mask = *j0;
        self.cipher.ecb_encrypt(&mut mask);
        xor_in_place(&mut acc, &mask);
        acc
    }

    /// Encrypts `buf` in place and returns the 16-byte tag (truncate it for shorter tags).
    /// `nonce` is 1 to 2^61 - 1 bytes, 12 recommended, and must never repeat under this key
    /// (see the module's nonce rule); other lengths fail with [`Error::NonceLength`].
    pub fn encrypt_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<[u8; 16], Error> {
        check_lengths(aad, buf)?;
        let j0 = self.hash.pre_counter(nonce)?;
        Ok(self.run(false, &j0, aad, buf))
    }

    /// Checks `tag` (12 to 16 bytes) and decrypts `buf` in place. On a mismatch `buf` is left
    /// holding the unchanged ciphertext (no plaintext) and [`Error::AuthenticationFailed`] is
    /// returned. `nonce` follows the same rule as in [`Self::encrypt_detached`].
    pub fn decrypt_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        if !(12..=16).contains(&tag.len()) {
            return Err(Error::InvalidLength);
        }
        check_lengths(aad, buf)?;
        let j0 = self.hash.pre_counter(nonce)?;
        let expected = self.run(true, &j0, aad, buf);
        if bool::from(crate::ct::bytes_eq(&expected[..tag.len()], tag)) {
            return Ok(());
        }
        // Undo the decryption: apply the same keystream again.
        let mut counter = j0;
        advance(CounterWidth::Low32, &mut counter, 1);
        self.cipher.ctr(CounterWidth::Low32, &mut counter, buf);
        Err(Error::AuthenticationFailed)
    }

    /// Encrypts `plaintext` and returns the ciphertext followed by the 16-byte tag.
    #[cfg(feature = "alloc")]
    pub fn seal(
        &self,
        nonce: &[u8],
        aad: &[u8],
        plaintext: &[u8],
    ) -> Result<alloc::vec::Vec<u8>, Error> {
        crate::modes::seal_to_vec(plaintext, |buf| self.encrypt_detached(nonce, aad, buf))
    }

    /// Checks and decrypts ciphertext followed by a 16-byte tag.
    #[cfg(feature = "alloc")]
    pub fn open(
        &self,
        nonce: &[u8],
        aad: &[u8],
        sealed: &[u8],
    ) -> Result<alloc::vec::Vec<u8>, Error> {
        crate::modes::open_to_vec(sealed, |buf, tag| {
            self.decrypt_detached(nonce, aad, buf, tag)
        })
    }
}

#[cfg(feature = "release-unverified")]
impl<K: KeySize, N, T> crate::modes::stream::StreamCore for AesGcm<K, N, T> {
    const MAX_AAD: u64 = crate::ghash::MAX_AAD;
    const MAX_TEXT: u64 = crate::ghash::MAX_TEXT;
    const MIN_TAG: usize = 12;

    fn start_inner(&self, nonce: &[u8]) -> Result<crate::modes::stream::Inner, Error> {
        crate::modes::stream::gcm_start(&self.hash, nonce)
    }

    fn aad_blocks(&self, s: &mut crate::modes::stream::Inner, data: &[u8]) -> Result<(), Error> {
        crate::modes::stream::gcm_absorb(&self.hash, s, data)
    }

    fn mac_block(
        &self,
        s: &mut crate::modes::stream::Inner,
        block: &[u8; 16],
    ) -> Result<(), Error> {
        self.aad_blocks(s, block)
    }

    fn text_blocks(
        &self,
        s: &mut crate::modes::stream::Inner,
        decrypt: bool,
        buf: &mut [u8],
    ) -> Result<(), Error> {
        let crate::modes::stream::Inner::Gcm { j0, low, acc, .. } = s else {
            return Err(Error::InvalidParameter);
        };
        let mut counter = *j0;
        counter[12..].copy_from_slice(&low.wrapping_add(1).to_be_bytes());
        self.blocks(decrypt, &counter, acc, buf);
        *low = low.wrapping_add((buf.len() / 16) as u32);
        crate::wipe::array(&mut counter);
        Ok(())
    }

    fn next_keystream(&self, s: &mut crate::modes::stream::Inner) -> Result<[u8; 16], Error> {
        let crate::modes::stream::Inner::Gcm { j0, low, .. } = s else {
            return Err(Error::InvalidParameter);
        };
        *low = low.wrapping_add(1);
        let mut block = *j0;
        block[12..].copy_from_slice(&low.to_be_bytes());
        self.cipher.ecb_encrypt(&mut block);
        Ok(block)
    }

    fn tag(
        &self,
        s: &mut crate::modes::stream::Inner,
        aad: u64,
        text: u64,
    ) -> Result<[u8; 16], Error> {
        crate::modes::stream::gcm_tag(&self.hash, s, aad, text, |b| self.cipher.ecb_encrypt(b))
    }
}

impl<K: KeySize, N, T> KeySizeUser for AesGcm<K, N, T> {
    type KeySize = K::Size;
}

impl<K: KeySize, N, T> KeyInit for AesGcm<K, N, T> {
    fn new(key: &Key<Self>) -> Self {
        Self::from_cipher(<Aes<K> as KeyInit>::new(key))
    }
}

crate::modes::aead_traits!([K: KeySize, N: ArraySize, T: ArraySize] AesGcm<K, N, T>, nonce = N, tag = T, tags = 12..=16);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ghash::{KARATSUBA, MAX_BATCH, polyval_key};

    /// The table of powers (and Karatsuba keys) is the same whichever registers made it:
    /// every AES backend's (the VAES ones make it on ymm or zmm) against the one-power-at-a-
    /// time kernel of `crate::ghash` that every other cipher's backend takes, whose
    /// Karatsuba keys are checked here byte by byte. Wrong powers would show in GCM tags
    /// too, but only for the lengths that reach them.
    #[test]
    fn powers_agree_across_register_widths() {
        for seed in 0u8..16 {
            let h: [u8; 16] = core::array::from_fn(|i| seed.wrapping_mul(37) ^ (i as u8 * 11));
            let reference = Ghash::new(&h, true);
            let simd = reference.powers()[MAX_BATCH - 1] != [0u8; 16];
            if simd {
                assert_eq!(reference.powers()[MAX_BATCH - 1], polyval_key(&h));
                assert_ne!(reference.powers()[0], [0u8; 16]);
                let (powers, keys) = reference.powers().split_at(KARATSUBA);
                for (i, (p, k)) in powers.iter().zip(keys).enumerate() {
                    let x: [u8; 8] = core::array::from_fn(|j| p[j] ^ p[8 + j]);
                    assert_eq!(k[..8], x, "key {i}");
                    assert_eq!(k[8..], x, "key {i}");
                    assert_eq!(i >= MAX_BATCH, *p == [0u8; 16], "power {i}");
                }
            }
            for b in crate::aes::Aes128::backends() {
                if b == Backend::Soft {
                    continue;
                }
                let mut g = Ghash::empty();
                let kernels = super::super::native::Native::keyed(b);
                g.set_key_with(&h, true, |h, out| kernels.ghash_powers(h, out));
                assert_eq!(g.powers(), reference.powers(), "{b}");
            }
        }
    }

    /// The pre-counter block whose text starts at the counter block `first`: `first` minus
    /// one in its last 32 bits.
    fn pre_counter_of(first: [u8; 16]) -> [u8; 16] {
        let mut j0 = first;
        // 2^32 - 1 steps in 32 bits: one step back.
        advance(CounterWidth::Low32, &mut j0, u32::MAX.into());
        j0
    }

    /// The fused kernels add to the counter in 32 bits; start just before the wrap, which no
    /// 12-byte nonce reaches, and compare every backend with the portable one, on whole
    /// messages as the API runs them (the whole-message kernels, or the whole-block ones
    /// with the tail and the tag around them).
    #[test]
    fn kernels_wrap_the_32_bit_counter() {
        let key = [0x5cu8; 16];
        let mut counter = [0xa7u8; 16];
        counter[12..].copy_from_slice(&0xffff_fff3u32.to_be_bytes());
        let j0 = pre_counter_of(counter);
        let data: Vec<u8> = (0..16 * 77 + 5).map(|i| (i * 7 + 3) as u8).collect();
        let run = |backend: Backend, decrypt: bool| {
            let gcm = AesGcm::<K128>::with_backend(&key, backend).unwrap();
            let mut buf = data.clone();
            let tag = gcm.run(decrypt, &j0, b"ad", &mut buf);
            (tag, buf)
        };
        for decrypt in [false, true] {
            let want = run(Backend::Soft, decrypt);
            for b in Aes::<K128>::backends() {
                assert!(run(b, decrypt) == want, "{b} decrypt={decrypt}");
            }
        }
    }

    /// The one-pass kernels take the counters' last byte from a table while no counter of a
    /// batch carries out of that byte, and add in 32 bits otherwise: start on both sides of
    /// every batch size's limit (low bytes 0xe0 for 32 blocks, 0xf0 for 16) and of the 32-bit wrap,
    /// over several batches and a tail, and compare every backend with the portable one, on
    /// whole messages as the API runs them.
    fn low_byte_carries<K: KeySize>() {
        let key: Vec<u8> = (0..K::KEY).map(|i| (i * 29 + 1) as u8).collect();
        let data: Vec<u8> = (0..16 * (32 * 9 + 7)).map(|i| (i * 13 + 5) as u8).collect();
        let starts = [
            0x0000_0000u32,
            0x0000_0001,
            0x0000_00c0,
            0x0000_00df,
            0x0000_00e0,
            0x0000_00e1,
            0x0000_00ef,
            0x0000_00f0,
            0x0000_00f1,
            0x0000_00fe,
            0x0000_00ff,
            0x1234_56f7,
            0x00ff_ffe1,
            0xffff_fedf,
            0xffff_ffe0,
            0xffff_ffff,
        ];
        for start in starts {
            let mut counter = [0x3cu8; 16];
            counter[12..].copy_from_slice(&start.to_be_bytes());
            let j0 = pre_counter_of(counter);
            for len in [16 * 32 * 9, data.len() - 9, data.len()] {
                let run = |backend: Backend, decrypt: bool| {
                    let gcm = AesGcm::<K>::with_backend(&key, backend).unwrap();
                    let mut buf = data[..len].to_vec();
                    let tag = gcm.run(decrypt, &j0, &[], &mut buf);
                    (tag, buf)
                };
                for decrypt in [false, true] {
                    let want = run(Backend::Soft, decrypt);
                    for b in Aes::<K>::backends() {
                        assert!(
                            run(b, decrypt) == want,
                            "{} {b} start={start:#x} len={len} decrypt={decrypt}",
                            K::NAME
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn kernels_carry_out_of_the_low_counter_byte() {
        low_byte_carries::<K128>();
        low_byte_carries::<K256>();
    }
}
