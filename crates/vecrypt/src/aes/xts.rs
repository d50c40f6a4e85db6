//! XTS-AES (IEEE 1619, NIST SP 800-38E) for disk sectors, with ciphertext stealing for data
//! units that are not whole blocks. The key is the data key followed by the tweak key; the
//! two halves must differ (IEEE 1619-2018, 5.1), else keying fails with
//! [`Error::EqualKeyHalves`].

use core::fmt;

use super::common::next_tweak;
use super::dispatch::Kernels;
use super::{Aes, KeySize};
use crate::Error;
use crate::cpu::{self, Backend};
use crate::modes::xor_in_place;

/// Blocks whose tweaks are prepared and encrypted together.
const BATCH: usize = 64;

/// XTS-AES with two keys of size `K` (32, 48 or 64 bytes in all).
#[derive(Clone)]
pub struct AesXts<K: KeySize> {
    data: Aes<K>,
    tweak: Aes<K>,
}

impl<K: KeySize> AesXts<K> {
    /// Keys XTS from the data key followed by the tweak key. Fails with
    /// [`Error::EqualKeyHalves`] when the two keys are equal.
    pub fn from_key(key: &[u8]) -> Result<Self, Error> {
        Self::keyed(key, None)
    }

    /// Keys XTS on `backend`, or fails if this CPU cannot run it.
    pub fn with_backend(key: &[u8], backend: Backend) -> Result<Self, Error> {
        Self::keyed(key, Some(backend))
    }

    fn keyed(key: &[u8], backend: Option<Backend>) -> Result<Self, Error> {
        if key.len() != 2 * K::KEY {
            return Err(Error::KeyLength {
                expected: 2 * K::KEY,
                got: key.len(),
            });
        }
        let (k1, k2) = key.split_at(K::KEY);
        if bool::from(crate::ct::bytes_eq(k1, k2)) {
            return Err(Error::EqualKeyHalves);
        }
        let backend = match backend {
            Some(b) => cpu::require(super::CANDIDATES, b)?,
            None => cpu::choose(super::CANDIDATES),
        };
        // Both keys filled in place: the two ciphers are kilobytes, not worth moving.
        let mut xts = Self {
            data: Aes::unkeyed(backend),
            tweak: Aes::unkeyed(backend),
        };
        xts.data.set_key(k1);
        xts.tweak.set_key(k2);
        Ok(xts)
    }

    /// Encrypts one data unit (at least 16 bytes) under the tweak `iv`: a little-endian
    /// number of 1 to 16 bytes, zero-extended to a block.
    pub fn encrypt_unit(&self, iv: &[u8], buf: &mut [u8]) -> Result<(), Error> {
        self.run(iv, buf, false)
    }

    /// Decrypts one data unit (at least 16 bytes) under the tweak `iv` (1 to 16 bytes).
    pub fn decrypt_unit(&self, iv: &[u8], buf: &mut [u8]) -> Result<(), Error> {
        self.run(iv, buf, true)
    }

    /// Encrypts sector `sector`: the tweak is the sector number, little-endian.
    pub fn encrypt_sector(&self, sector: u128, buf: &mut [u8]) -> Result<(), Error> {
        self.run(&sector.to_le_bytes(), buf, false)
    }

    /// Decrypts sector `sector`.
    pub fn decrypt_sector(&self, sector: u128, buf: &mut [u8]) -> Result<(), Error> {
        self.run(&sector.to_le_bytes(), buf, true)
    }

    /// Whole blocks under consecutive tweaks starting at `t`; returns the next tweak.
    fn blocks(&self, t: u128, buf: &mut [u8], decrypt: bool) -> u128 {
        let fused = self.data.kernels.xts(&self.data.rk, None, decrypt, t, buf);
        match fused {
            Some(next) => next,
            None => batched(&self.data, decrypt, t, buf),
        }
    }

    /// The data unit's first whole blocks, from the tweak block `iv` still to be encrypted
    /// under the tweak key (inside the backend's kernel when it has one); returns the next
    /// tweak.
    fn first_blocks(&self, iv: &[u8; 16], buf: &mut [u8], decrypt: bool) -> u128 {
        let raw = u128::from_le_bytes(*iv);
        let fused = self
            .data
            .kernels
            .xts(&self.data.rk, Some(&self.tweak.rk), decrypt, raw, buf);
        if let Some(next) = fused {
            return next;
        }
        let mut t0 = *iv;
        self.tweak.ecb_encrypt(&mut t0);
        let t = u128::from_le_bytes(t0);
        crate::wipe::array(&mut t0);
        batched(&self.data, decrypt, t, buf)
    }

    fn run(&self, iv: &[u8], buf: &mut [u8], decrypt: bool) -> Result<(), Error> {
        if iv.is_empty() || iv.len() > 16 {
            return Err(Error::IvLength {
                expected: 16,
                got: iv.len(),
            });
        }
        let mut t0 = [0u8; 16];
        t0[..iv.len()].copy_from_slice(iv);
        if buf.len() < 16 || buf.len() as u128 > 16 << 20 {
            return Err(Error::InvalidLength);
        }
        let partial = buf.len() % 16;
        if partial == 0 {
            self.first_blocks(&t0, buf, decrypt);
            return Ok(());
        }
        // Ciphertext stealing: the last whole block and the partial one trade bytes.
        let full = buf.len() / 16 * 16;
        let (head, tail) = buf.split_at_mut(full - 16);
        let t = self.first_blocks(&t0, head, decrypt);
        let (t_first, t_second) = if decrypt {
            (next_tweak(t), t)
        } else {
            (t, next_tweak(t))
        };
        let mut last = [0u8; 16];
        last.copy_from_slice(&tail[..16]);
        self.blocks(t_first, &mut last, decrypt);
        let mut stolen = [0u8; 16];
        stolen[..partial].copy_from_slice(&tail[16..]);
        stolen[partial..].copy_from_slice(&last[partial..]);
        tail[16..].copy_from_slice(&last[..partial]);
        self.blocks(t_second, &mut stolen, decrypt);
        tail[..16].copy_from_slice(&stolen);
        crate::wipe::array(&mut last);
        crate::wipe::array(&mut stolen);
        Ok(())
    }
}

/// XTS over whole blocks on the ECB kernels: a batch of tweaks is prepared, XORed in before
/// and after one ECB call. Returns the next tweak.
fn batched<K: KeySize>(cipher: &Aes<K>, decrypt: bool, mut t: u128, buf: &mut [u8]) -> u128 {
    let mut tweaks = [0u8; 16 * BATCH];
    for chunk in buf.chunks_mut(16 * BATCH) {
        let tw = &mut tweaks[..chunk.len()];
        for block in tw.chunks_exact_mut(16) {
            block.copy_from_slice(&t.to_le_bytes());
            t = next_tweak(t);
        }
        xor_in_place(chunk, tw);
        if decrypt {
            cipher.ecb_decrypt(chunk);
        } else {
            cipher.ecb_encrypt(chunk);
        }
        xor_in_place(chunk, tw);
    }
    crate::wipe::array(&mut tweaks);
    t
}

impl<K: KeySize> fmt::Debug for AesXts<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}-xts {{ backend: {}, .. }}",
            K::NAME,
            self.data.backend
        )
    }
}
