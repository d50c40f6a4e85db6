//! GHASH (SP 800-38D, 6.4), the hash of every GCM of the crate: AES-GCM and the generic
//! [`crate::modes::Gcm`] over Kuznyechik and uBlock hash through the keyed [`Ghash`], which
//! also holds the pre-counter block and the length limits they share.
//!
//! Portable: the bit-serial multiplication of the specification with masks instead of
//! branches, the reference the other kernels are tested against. Carry-less: eight blocks
//! per reduction on PCLMULQDQ (`x86`) or PMULL (`aarch64`), each block multiplied by
//! the power of H that brings it to the end of the batch, with a table of powers made once
//! per key. AES's VAES kernels fold GHASH into their one-pass GCM and make the powers on
//! their own wider registers; they take the constants of the table from here.

use zeroize::ZeroizeOnDrop;

use crate::Error;

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86;

#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)]
pub(crate) mod aarch64;

/// The carry-less kernels of the architecture this library is built for.
mod native {
    #[cfg(target_arch = "aarch64")]
    pub(super) use super::aarch64::{ghash as blocks, powers};
    #[cfg(target_arch = "x86_64")]
    pub(super) use super::x86::{ghash as blocks, powers};

    /// No carry-less kernels here: every key hashes with the portable multiplication.
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    pub(super) fn powers(_: &[u8; 16], _: &mut super::HashPowers) -> crate::cpu::Ran {
        crate::cpu::Ran::Declined
    }

    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    pub(super) fn blocks(_: &super::HashPowers, _: &mut [u8; 16], _: &[u8]) -> crate::cpu::Ran {
        crate::cpu::Ran::Declined
    }
}

/// Most blocks the carry-less kernels fold into one GHASH reduction (the VAES-512 kernel's
/// two batches of 32).
pub(crate) const MAX_BATCH: usize = 64;
/// Index of the first Karatsuba key in the table of powers: H^64 down to H^1 come first, then
/// zeros so that a register loaded past H^1 multiplies padding lanes by zero.
pub(crate) const KARATSUBA: usize = MAX_BATCH + 4;
/// Blocks of GHASH powers the carry-less kernels keep: the [`KARATSUBA`] blocks of powers,
/// then, for each of them in the same order, its Karatsuba key (the XOR of its two 64-bit
/// halves, in both halves), so that one product of a block by a power takes three 64-bit
/// carry-less multiplications instead of four. The kernel that makes the powers writes their
/// keys too, from the registers it made them in.
pub(crate) const POWERS: usize = 2 * KARATSUBA;

/// The powers of a GHASH key the carry-less kernels use (see [`POWERS`]).
pub(crate) type HashPowers = [[u8; 16]; POWERS];

/// `x * h` in GF(2^128) with GCM's bit order (the first bit of a block is the constant term).
fn mul(x: u128, h: u128) -> u128 {
    let mut z = 0u128;
    let mut v = h;
    for i in 0..128 {
        let bit = (x >> (127 - i)) & 1;
        z ^= v & 0u128.wrapping_sub(bit);
        let lsb = v & 1;
        v = (v >> 1) ^ ((0xe1u128 << 120) & 0u128.wrapping_sub(lsb));
    }
    z
}

/// Absorbs whole blocks of `data` into the GHASH state `acc` under the hash key `h`. Kept
/// out of line: inlined into GCM's two-pass loop, the bit-serial product compiled slower.
#[inline(never)]
pub(crate) fn update(h: &[u8; 16], acc: &mut [u8; 16], data: &[u8]) {
    let h = u128::from_be_bytes(*h);
    let mut y = u128::from_be_bytes(*acc);
    for block in data.chunks_exact(16) {
        let mut x = [0u8; 16];
        x.copy_from_slice(block);
        y = mul(y ^ u128::from_be_bytes(x), h);
    }
    *acc = y.to_be_bytes();
}

/// The hash key in the carry-less kernels' domain (RFC 8452, Appendix A): the bytes
/// reversed, then multiplied by x modulo x^128 + x^127 + x^126 + x^121 + 1. Every
/// architecture's carry-less kernels start from it.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
pub(crate) fn polyval_key(h: &[u8; 16]) -> [u8; 16] {
    let v = u128::from_be_bytes(*h);
    let carry = v >> 127;
    let reduced = (v << 1) ^ (((0xc2u128 << 120) | 1) & 0u128.wrapping_sub(carry));
    reduced.to_le_bytes()
}

/// Longest plaintext GCM allows: 2^32 - 2 blocks.
pub(crate) const MAX_TEXT: u64 = (1 << 36) - 32;
/// Longest associated data GCM allows (2^64 - 1 bits, rounded down to bytes).
pub(crate) const MAX_AAD: u64 = (1 << 61) - 1;
/// Longest nonce: GHASH counts its bits in 64 bits, as for associated data (and no longer
/// than a slice can be on this target).
pub(crate) const MAX_NONCE: usize = if MAX_AAD > usize::MAX as u64 {
    usize::MAX
} else {
    MAX_AAD as usize
};

/// GCM's length limits: plaintext at most [`MAX_TEXT`] bytes, associated data at most
/// [`MAX_AAD`]; [`Error::InvalidLength`] otherwise.
pub(crate) fn check_lengths(aad: &[u8], text: &[u8]) -> Result<(), Error> {
    if text.len() as u64 > MAX_TEXT || aad.len() as u64 > MAX_AAD {
        Err(Error::InvalidLength)
    } else {
        Ok(())
    }
}

/// A GHASH key, with the way its products run chosen once, when it is made: the carry-less
/// kernels of this architecture (with their powers of H) when the caller allows SIMD and the
/// CPU runs them, else the portable multiplication above. Every GCM of the crate hashes
/// through this one object. Zeroized on drop.
#[derive(Clone)]
pub(crate) struct Ghash {
    h: [u8; 16],
    powers: HashPowers,
    /// Whether the carry-less kernels run this key (`powers` is then filled).
    clmul: bool,
}

impl Drop for Ghash {
    fn drop(&mut self) {
        crate::wipe::array(&mut self.h);
        crate::wipe::bytes(self.powers.as_flattened_mut());
    }
}

impl ZeroizeOnDrop for Ghash {}

impl Ghash {
    /// The GHASH of hash key `h`; `simd` allows the carry-less kernels (a key on a portable
    /// cipher backend passes false, so that everything it runs is portable code).
    pub(crate) fn new(h: &[u8; 16], simd: bool) -> Self {
        let mut g = Self::empty();
        g.set_key_with(h, simd, |_, _| crate::cpu::Ran::Declined);
        g
    }

    /// A GHASH of the zero key, for [`Self::set_key_with`] (which the key objects call in place).
    pub(crate) fn empty() -> Self {
        Self {
            h: [0u8; 16],
            clmul: false,
            powers: [[0u8; 16]; POWERS],
        }
    }

    /// Keys an [`Self::empty`] GHASH as [`Self::new`] does; `wide` may make the powers of H
    /// on the cipher's own wider registers ([`crate::cpu::Ran::Done`] when it did), else this
    /// module's kernel makes them.
    pub(crate) fn set_key_with(
        &mut self,
        h: &[u8; 16],
        simd: bool,
        wide: impl FnOnce(&[u8; 16], &mut HashPowers) -> crate::cpu::Ran,
    ) {
        self.h = *h;
        self.clmul = simd
            && (wide(h, &mut self.powers).done() || native::powers(h, &mut self.powers).done());
    }

    /// The powers of H the carry-less kernels take (zeros when they do not run this key).
    pub(crate) fn powers(&self) -> &HashPowers {
        &self.powers
    }

    /// Absorbs whole blocks of `data` into the state `acc`.
    #[inline]
    pub(crate) fn update(&self, acc: &mut [u8; 16], data: &[u8]) {
        if !(self.clmul && native::blocks(&self.powers, acc, data).done()) {
            update(&self.h, acc, data);
        }
    }

    /// Absorbs `data` zero-padded to whole blocks.
    pub(crate) fn update_padded(&self, acc: &mut [u8; 16], data: &[u8]) {
        let whole = data.len() / 16 * 16;
        self.update(acc, &data[..whole]);
        if whole < data.len() {
            let mut last = [0u8; 16];
            last[..data.len() - whole].copy_from_slice(&data[whole..]);
            self.update(acc, &last);
            crate::wipe::array(&mut last);
        }
    }

    /// Absorbs GCM's closing block: the bit lengths of the associated data and the text.
    pub(crate) fn update_lengths(&self, acc: &mut [u8; 16], aad: u64, text: u64) {
        let mut lengths = [0u8; 16];
        lengths[..8].copy_from_slice(&(8 * aad).to_be_bytes());
        lengths[8..].copy_from_slice(&(8 * text).to_be_bytes());
        self.update(acc, &lengths);
    }

    /// The pre-counter block J0 of SP 800-38D, 7.1: `nonce || 0^31 || 1` for a 12-byte
    /// nonce, else GHASH of the zero-padded nonce and its bit length. A nonce of 1 to
    /// [`MAX_NONCE`] bytes; [`Error::NonceLength`] otherwise.
    pub(crate) fn pre_counter(&self, nonce: &[u8]) -> Result<[u8; 16], Error> {
        if nonce.is_empty() || nonce.len() as u64 > MAX_AAD {
            return Err(Error::NonceLength {
                min: 1,
                max: MAX_NONCE,
                got: nonce.len(),
            });
        }
        let mut j0 = [0u8; 16];
        if nonce.len() == 12 {
            j0[..12].copy_from_slice(nonce);
            j0[15] = 1;
        } else {
            self.update_padded(&mut j0, nonce);
            self.update_lengths(&mut j0, 0, nonce.len() as u64);
        }
        Ok(j0)
    }
}
