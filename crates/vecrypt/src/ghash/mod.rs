//! GHASH (SP 800-38D, 6.4) in portable constant-time Rust: the bit-serial multiplication of
//! the specification with masks instead of branches. The SIMD backends use carry-less
//! multiplication instead (PCLMULQDQ on x86, PMULL on AArch64); this is the reference they
//! are tested against. [`Ghash`] is the keyed object every GCM of the crate (AES-GCM and the
//! generic [`crate::modes::Gcm`]) hashes through, with the pre-counter block and the length
//! limits they share.

use zeroize::ZeroizeOnDrop;

use super::common::HashPowers;
use super::native;
use crate::Error;
use crate::cpu::Backend;

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
    /// The GHASH of hash key `h`; `simd` names the cipher's SIMD backend, whose registers
    /// make the powers of H, and allows the carry-less kernels (a key on a portable cipher
    /// backend passes `None`, so that everything it runs is portable code).
    pub(crate) fn new(h: &[u8; 16], simd: Option<Backend>) -> Self {
        let mut g = Self::empty();
        g.set_key(h, simd);
        g
    }

    /// A GHASH of the zero key, for [`Self::set_key`] (which the key objects call in place).
    pub(crate) fn empty() -> Self {
        Self {
            h: [0u8; 16],
            clmul: false,
            powers: [[0u8; 16]; POWERS],
        }
    }

    /// Keys an [`Self::empty`] GHASH as [`Self::new`] does.
    pub(crate) fn set_key(&mut self, h: &[u8; 16], simd: Option<Backend>) {
        self.h = *h;
        self.clmul = simd.is_some_and(|b| native::ghash_powers(b, h, &mut self.powers));
    }

    /// The powers of H the carry-less kernels take (zeros when they do not run this key).
    pub(crate) fn powers(&self) -> &HashPowers {
        &self.powers
    }

    /// Absorbs whole blocks of `data` into the state `acc`.
    #[inline]
    pub(crate) fn update(&self, acc: &mut [u8; 16], data: &[u8]) {
        if !(self.clmul && native::ghash_blocks(&self.powers, acc, data)) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aes::Aes128;

    /// The table of powers (and Karatsuba keys) is the same whichever registers made it:
    /// every AES backend's against the one-power-at-a-time kernel that every other cipher's
    /// backend takes (xmm on x86-64, PMULL on AArch64), whose Karatsuba keys are checked
    /// here byte by byte. Wrong powers would show in GCM tags too, but only for the lengths
    /// that reach them.
    #[test]
    fn powers_agree_across_register_widths() {
        for seed in 0u8..16 {
            let h: [u8; 16] = core::array::from_fn(|i| seed.wrapping_mul(37) ^ (i as u8 * 11));
            let reference = Ghash::new(&h, Some(Backend::Soft));
            if reference.clmul {
                assert_eq!(reference.powers[MAX_BATCH - 1], polyval_key(&h));
                assert_ne!(reference.powers[0], [0u8; 16]);
                let (powers, keys) = reference.powers.split_at(KARATSUBA);
                for (i, (p, k)) in powers.iter().zip(keys).enumerate() {
                    let x: [u8; 8] = core::array::from_fn(|j| p[j] ^ p[8 + j]);
                    assert_eq!(k[..8], x, "key {i}");
                    assert_eq!(k[8..], x, "key {i}");
                    assert_eq!(i >= MAX_BATCH, *p == [0u8; 16], "power {i}");
                }
            }
            for b in Aes128::backends() {
                let g = Ghash::new(&h, Some(b));
                assert_eq!(g.clmul, reference.clmul, "{b}");
                assert_eq!(g.powers, reference.powers, "{b}");
            }
        }
    }
}
