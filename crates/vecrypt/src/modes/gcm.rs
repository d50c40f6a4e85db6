//! GCM (NIST SP 800-38D) over any 128-bit block cipher of the crate: [`Gcm`], with the
//! aliases [`KuznyechikGcm`](crate::kuznyechik::KuznyechikGcm),
//! [`Ublock128Gcm`](crate::ublock::Ublock128Gcm) and
//! [`Ublock128_256Gcm`](crate::ublock::Ublock128_256Gcm). It is exactly SP 800-38D with the
//! block cipher replaced: H = E(0^128), the `inc32` counter, GHASH over the associated data,
//! the ciphertext and their bit lengths, the tag E(J0) XOR GHASH. AES-GCM is
//! [`crate::aes::AesGcm`], fused for AES.
//!
//! Nonce rule: a nonce must never repeat under one key. A 12-byte nonce (the recommended
//! length, and the one of the `aead` traits by default) is the counter block directly; any
//! other length from 1 byte up is hashed with GHASH into the counter block (SP 800-38D, 7.1).
//! An empty nonce is refused with [`Error::NonceLength`]. Plaintext is at most 2^36 - 32
//! bytes and associated data at most 2^61 - 1 bytes, else [`Error::InvalidLength`]. Tags are
//! 16 bytes; [`Gcm::decrypt_detached`] also takes tags truncated to 12 to 15 bytes.
//!
//! Only ciphers with 16-byte blocks implement [`GcmCipher`]: uBlock-256/256 (32-byte blocks)
//! does not, so GCM over it does not compile.
//!
//! ```compile_fail
//! let _ = vecrypt::modes::Gcm::<vecrypt::ublock::Ublock256_256>::from_key(&[0u8; 32]);
//! ```
//!
//! AES-GCM is only [`crate::aes::AesGcm`]:
//!
//! ```compile_fail
//! let _ = vecrypt::modes::Gcm::<vecrypt::aes::Aes128>::from_key(&[0u8; 16]);
//! ```
//!
//! Speed: the data goes through in chunks of 8 KiB, small enough to stay in L1: each chunk
//! is encrypted by the cipher's wide CTR kernel and then hashed (decryption hashes first),
//! with the carry-less GHASH kernels when the cipher runs on a SIMD backend and the CPU has
//! them (a key on the portable backend hashes with portable code too). The CTR kernels count
//! over the whole block, GCM only in its last 32 bits: with a 12-byte nonce the last word
//! starts at 2 and cannot wrap within the length limit, and each kernel call is still cut
//! where it would. With any other nonce length the counter block is GHASH output, which
//! depends on the key, so where it wraps must not show in the timing: those counters are
//! made with `inc32` in constant time and encrypted in batches (ECB), a little slower.
//!
//! Decryption checks the tag in constant time and, when it does not match, restores the
//! ciphertext, so no unauthenticated plaintext is released.
//!
//! ```
//! use vecrypt::kuznyechik::KuznyechikGcm;
//!
//! let gcm = KuznyechikGcm::from_key(&[0x42u8; 32]).unwrap();
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

use super::{BlockKernel, ctr_apply_counting, xor_in_place};
use crate::Error;
use crate::cpu::Backend;
use crate::ghash::{Ghash, check_lengths};

/// Bytes per chunk: CTR then GHASH over the same 8 KiB while it is in L1. One whole batch
/// of the widest CTR kernel of uBlock-128 (512 blocks), eight of Kuznyechik's.
const CHUNK: usize = 16 * 512;
/// Longest text whose keystream and tag mask one CTR call can make together (15 blocks and
/// the mask: 16 blocks, inside Kuznyechik's per-block AVX-512 path), for the ciphers whose
/// [`GcmCipher::FUSED_TAG_MASK`] says so.
pub(crate) const FUSED_TEXT: usize = 15 * 16;

/// The seal of [`GcmCipher`]: each cipher's module implements both.
pub(crate) mod private {
    pub trait Sealed {}
}

/// A block cipher of this crate with 16-byte blocks, which [`Gcm`] runs on: Kuznyechik,
/// uBlock-128/128 and uBlock-128/256. Sealed. AES has its own fused GCM,
/// [`AesGcm`](crate::aes::AesGcm), and is not one of them.
pub trait GcmCipher: BlockKernel + KeyInit + Clone + ZeroizeOnDrop + private::Sealed {
    /// The cipher's name, as in `kuznyechik-gcm`.
    const NAME: &'static str;

    /// Keys the cipher on `backend`, or on the best backend for this CPU with `None`.
    fn gcm_keyed(key: &[u8], backend: Option<Backend>) -> Result<Self, Error>;

    /// Longest text (at most 240 bytes) whose keystream and tag mask one CTR call
    /// makes together, where that measured faster than the text's CTR call and a block
    /// encryption for the mask; 0 for never.
    const FUSED_TAG_MASK: usize = 0;
}

/// GCM over the block cipher `C`, with nonce length `N` and tag length `T` for the `aead`
/// traits (the inherent methods take nonces of any length from 1 byte, see the module's
/// nonce rule, and tags of 12 to 16 bytes). The cipher's round keys and the hash key are
/// zeroized on drop; `Debug` shows only the names.
pub struct Gcm<C: GcmCipher, N = U12, T = U16> {
    cipher: C,
    hash: Ghash,
    _sizes: PhantomData<(N, T)>,
}

impl<C: GcmCipher, N, T> Clone for Gcm<C, N, T> {
    fn clone(&self) -> Self {
        Self {
            cipher: self.cipher.clone(),
            hash: self.hash.clone(),
            _sizes: PhantomData,
        }
    }
}

impl<C: GcmCipher, N, T> fmt::Debug for Gcm<C, N, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}-gcm {{ backend: {}, .. }}",
            C::NAME,
            self.cipher.kernel_backend()
        )
    }
}

impl<C: GcmCipher, N, T> ZeroizeOnDrop for Gcm<C, N, T> {}

impl<C: GcmCipher, N, T> Gcm<C, N, T> {
    /// Keys GCM on the best backend for this CPU.
    pub fn from_key(key: &[u8]) -> Result<Self, Error> {
        Ok(Self::from_cipher(C::gcm_keyed(key, None)?))
    }

    /// Keys GCM on `backend`, or fails if this CPU cannot run it for the cipher.
    pub fn with_backend(key: &[u8], backend: Backend) -> Result<Self, Error> {
        Ok(Self::from_cipher(C::gcm_keyed(key, Some(backend))?))
    }

    /// GCM over an already keyed cipher (on whatever backend it runs).
    pub fn from_cipher(cipher: C) -> Self {
        let mut h = [0u8; 16];
        cipher.kernel_encrypt(&mut h);
        let backend = cipher.kernel_backend();
        let hash = Ghash::new(&h, backend != Backend::Soft);
        crate::wipe::array(&mut h);
        Self {
            cipher,
            hash,
            _sizes: PhantomData,
        }
    }

    /// The backend the cipher runs on.
    pub fn backend(&self) -> Backend {
        self.cipher.kernel_backend()
    }

    /// XORs the keystream of the counter blocks `J0[..12] || low`, `low + 1`, ... (`inc32`,
    /// wrapping in 32 bits) into `buf` (any length) and leaves `low` at the next unused value.
    /// `public` says the counter block may show in the timing (a 12-byte nonce): then the
    /// cipher's CTR kernel runs it, cut where the last word wraps, since that kernel counts
    /// over the whole block. Otherwise the counters are made in constant time and encrypted
    /// in batches.
    fn keystream(&self, j0: &[u8; 16], public: bool, low: &mut u32, buf: &mut [u8]) {
        let mut counter = *j0;
        if !public {
            counter[12..].copy_from_slice(&low.to_be_bytes());
            ctr_apply_counting(&self.cipher, &mut counter, 4, buf);
            *low = u32::from_be_bytes([counter[12], counter[13], counter[14], counter[15]]);
            crate::wipe::array(&mut counter);
            return;
        }
        let mut rest = buf;
        while !rest.is_empty() {
            let blocks = rest.len().div_ceil(16) as u64;
            let before_wrap = u64::from(u32::MAX - *low) + 1;
            let n = blocks.min(before_wrap);
            let bytes = rest.len().min(16 * n as usize);
            let (now, later) = core::mem::take(&mut rest).split_at_mut(bytes);
            counter[..12].copy_from_slice(&j0[..12]);
            counter[12..].copy_from_slice(&low.to_be_bytes());
            self.cipher.kernel_ctr(&mut counter, now);
            *low = low.wrapping_add(n as u32);
            rest = later;
        }
    }

    /// CTR and GHASH of the ciphertext over `buf`, a chunk at a time, from the counter word
    /// `low` on; the tail may be partial and is hashed zero-padded.
    fn crypt(
        &self,
        decrypt: bool,
        j0: &[u8; 16],
        public: bool,
        acc: &mut [u8; 16],
        buf: &mut [u8],
    ) {
        let mut low = u32::from_be_bytes([j0[12], j0[13], j0[14], j0[15]]).wrapping_add(1);
        for chunk in buf.chunks_mut(CHUNK) {
            if decrypt {
                self.hash.update_padded(acc, chunk);
            }
            self.keystream(j0, public, &mut low, chunk);
            if !decrypt {
                self.hash.update_padded(acc, chunk);
            }
        }
    }

    /// Encrypts or decrypts `buf` in place and returns the full 16-byte tag.
    fn run(
        &self,
        decrypt: bool,
        j0: &[u8; 16],
        public: bool,
        aad: &[u8],
        buf: &mut [u8],
    ) -> [u8; 16] {
        let mut acc = [0u8; 16];
        self.hash.update_padded(&mut acc, aad);
        let mut mask = *j0;
        if public && buf.len() <= C::FUSED_TAG_MASK.min(FUSED_TEXT) {
            // The tag mask E(J0) and the keystream E(J0 + 1), ... are one run of counters
            // (a 12-byte nonce starts the last word at 1, so it cannot wrap here): one CTR
            // call makes both, its blocks side by side instead of the mask's block alone
            // after the text's.
            let mut ks = [0u8; 16 + FUSED_TEXT];
            let n = 16 + buf.len();
            self.cipher.kernel_ctr(&mut mask, &mut ks[..n]);
            if decrypt {
                self.hash.update_padded(&mut acc, buf);
            }
            xor_in_place(buf, &ks[16..n]);
            if !decrypt {
                self.hash.update_padded(&mut acc, buf);
            }
            mask.copy_from_slice(&ks[..16]);
            crate::wipe::bytes(&mut ks[..n]);
        } else {
            self.crypt(decrypt, j0, public, &mut acc, buf);
            self.cipher.kernel_encrypt(&mut mask);
        }
        self.hash
            .update_lengths(&mut acc, aad.len() as u64, buf.len() as u64);
        xor_in_place(&mut acc, &mask);
        crate::wipe::array(&mut mask);
        acc
    }

    /// Encrypts `buf` in place and returns the 16-byte tag (truncate it for shorter tags).
    /// `nonce` is at least 1 byte, 12 recommended, and must never repeat under this key (see
    /// the module's nonce rule); an empty one fails with [`Error::NonceLength`].
    pub fn encrypt_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<[u8; 16], Error> {
        check_lengths(aad, buf)?;
        let mut j0 = self.hash.pre_counter(nonce)?;
        let tag = self.run(false, &j0, nonce.len() == 12, aad, buf);
        crate::wipe::array(&mut j0);
        Ok(tag)
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
        let mut j0 = self.hash.pre_counter(nonce)?;
        let public = nonce.len() == 12;
        let mut expected = self.run(true, &j0, public, aad, buf);
        let ok = bool::from(crate::ct::bytes_eq(&expected[..tag.len()], tag));
        crate::wipe::array(&mut expected);
        if !ok {
            // Undo the decryption: apply the same keystream again.
            let mut low = u32::from_be_bytes([j0[12], j0[13], j0[14], j0[15]]).wrapping_add(1);
            self.keystream(&j0, public, &mut low, buf);
        }
        crate::wipe::array(&mut j0);
        if ok {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
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
impl<C: GcmCipher, N, T> super::stream::StreamCore for Gcm<C, N, T> {
    const MAX_AAD: u64 = crate::ghash::MAX_AAD;
    const MAX_TEXT: u64 = crate::ghash::MAX_TEXT;
    const MIN_TAG: usize = 12;

    fn start_inner(&self, nonce: &[u8]) -> Result<super::stream::Inner, Error> {
        super::stream::gcm_start(&self.hash, nonce)
    }

    fn aad_blocks(&self, s: &mut super::stream::Inner, data: &[u8]) -> Result<(), Error> {
        super::stream::gcm_absorb(&self.hash, s, data)
    }

    fn mac_block(&self, s: &mut super::stream::Inner, block: &[u8; 16]) -> Result<(), Error> {
        self.aad_blocks(s, block)
    }

    fn text_blocks(
        &self,
        s: &mut super::stream::Inner,
        decrypt: bool,
        buf: &mut [u8],
    ) -> Result<(), Error> {
        let super::stream::Inner::Gcm {
            j0,
            low,
            public,
            acc,
        } = s
        else {
            return Err(Error::InvalidParameter);
        };
        for chunk in buf.chunks_mut(CHUNK) {
            if decrypt {
                self.hash.update(acc, chunk);
            }
            // `low` is the last counter word used; the keystream starts at the next.
            let mut next = low.wrapping_add(1);
            self.keystream(j0, *public, &mut next, chunk);
            *low = next.wrapping_sub(1);
            if !decrypt {
                self.hash.update(acc, chunk);
            }
        }
        Ok(())
    }

    fn next_keystream(&self, s: &mut super::stream::Inner) -> Result<[u8; 16], Error> {
        let super::stream::Inner::Gcm {
            j0, low, public, ..
        } = s
        else {
            return Err(Error::InvalidParameter);
        };
        // Zeros in, the keystream of the next counter out; `low` moves past it.
        let mut block = [0u8; 16];
        let mut next = low.wrapping_add(1);
        self.keystream(j0, *public, &mut next, &mut block);
        *low = next.wrapping_sub(1);
        Ok(block)
    }

    fn tag(&self, s: &mut super::stream::Inner, aad: u64, text: u64) -> Result<[u8; 16], Error> {
        super::stream::gcm_tag(&self.hash, s, aad, text, |b| self.cipher.kernel_encrypt(b))
    }
}

impl<C: GcmCipher, N, T> KeySizeUser for Gcm<C, N, T> {
    type KeySize = C::KeySize;
}

impl<C: GcmCipher, N, T> KeyInit for Gcm<C, N, T> {
    fn new(key: &Key<Self>) -> Self {
        Self::from_cipher(C::new(key))
    }
}

super::aead_traits!([C: GcmCipher, N: ArraySize, T: ArraySize] Gcm<C, N, T>, nonce = N, tag = T, tags = 12..=16);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kuznyechik::Kuznyechik;
    use crate::ublock::Ublock128_128;
    use alloc::vec::Vec;

    /// GCM's counter blocks one at a time, as SP 800-38D writes them: `inc32` of the last
    /// word, each block encrypted alone.
    fn slow_keystream<C: GcmCipher>(c: &C, j0: &[u8; 16], len: usize) -> Vec<u8> {
        let mut out = Vec::new();
        let mut low = u32::from_be_bytes([j0[12], j0[13], j0[14], j0[15]]);
        while out.len() < len {
            low = low.wrapping_add(1);
            let mut block = *j0;
            block[12..].copy_from_slice(&low.to_be_bytes());
            c.kernel_encrypt(&mut block);
            out.extend_from_slice(&block);
        }
        out.truncate(len);
        out
    }

    /// Counter words just before the wrap, which no 12-byte nonce reaches: both keystream
    /// paths (the split CTR kernel calls and the constant-time counters) on every backend
    /// against one block at a time; the top 96 bits must not change across the wrap.
    fn wraps<C: GcmCipher>(key: &[u8], backends: Vec<Backend>) {
        let len = 16 * 700 + 9;
        for start in [0xffff_fff0u32, 0xffff_fffe, 0xffff_ffff, 0xffff_fe00] {
            let mut j0 = [0xa7u8; 16];
            j0[12..].copy_from_slice(&start.to_be_bytes());
            for &b in &backends {
                let gcm = Gcm::<C>::with_backend(key, b).unwrap();
                let want = slow_keystream(&gcm.cipher, &j0, len);
                for public in [true, false] {
                    let mut buf = vec![0u8; len];
                    let mut low = start.wrapping_add(1);
                    gcm.keystream(&j0, public, &mut low, &mut buf);
                    assert!(buf == want, "{b} public={public} start={start:x}");
                    assert_eq!(low, start.wrapping_add(1).wrapping_add(701), "{b}");
                    // The same through the chunked CTR-and-GHASH pass, against the portable
                    // backend's.
                    let mut acc = [0u8; 16];
                    let mut data: Vec<u8> = (0..len).map(|i| i as u8).collect();
                    gcm.crypt(false, &j0, public, &mut acc, &mut data);
                    let soft = Gcm::<C>::with_backend(key, Backend::Soft).unwrap();
                    let mut acc_soft = [0u8; 16];
                    let mut data_soft: Vec<u8> = (0..len).map(|i| i as u8).collect();
                    soft.crypt(false, &j0, public, &mut acc_soft, &mut data_soft);
                    assert!(data == data_soft && acc == acc_soft, "{b} public={public}");
                }
            }
        }
    }

    #[test]
    fn counter_wraps_in_32_bits() {
        wraps::<Kuznyechik>(&[0x5cu8; 32], Kuznyechik::backends());
        wraps::<Ublock128_128>(&[0x3au8; 16], Ublock128_128::backends());
    }
}
