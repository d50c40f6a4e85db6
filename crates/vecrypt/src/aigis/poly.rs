//! Polynomials of R_q = `Z_q[X]/(X^256 + 1)` and their byte formats.

use super::params::{N, POLY_BYTES, Q, SEED_BYTES};
use super::reduce::freeze;

/// 256 signed coefficients. Aligned for the vector backends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Poly(pub [i16; N]);

impl Default for Poly {
    fn default() -> Self {
        Poly([0; N])
    }
}

impl Poly {
    /// Coefficient-wise sum (no reduction; callers keep the range small).
    #[inline(always)]
    pub fn add_assign(&mut self, other: &Poly) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a = a.wrapping_add(*b);
        }
    }

    /// Coefficient-wise difference (no reduction).
    #[inline(always)]
    pub fn sub_assign(&mut self, other: &Poly) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a = a.wrapping_sub(*b);
        }
    }

    /// Every coefficient to its representative in [0, q).
    #[inline(always)]
    pub fn freeze(&mut self) {
        for a in self.0.iter_mut() {
            *a = freeze(*a);
        }
    }
}

/// Packs canonical coefficients at 13 bits each, little-endian (the secret key format).
#[inline(always)]
pub fn pack13(out: &mut [u8], p: &Poly) {
    pack_bits(out, &p.0, 13);
}

/// Inverse of [`pack13`]. Values are 13-bit and may exceed q for a malformed key; callers
/// reduce before use.
#[inline(always)]
pub fn unpack13(p: &mut Poly, bytes: &[u8]) {
    debug_assert_eq!(bytes.len(), POLY_BYTES);
    unpack_bits(&mut p.0, bytes, 13);
}

/// Writes `vals` (each below 2^bits, a multiple of 8 of them) as one little-endian bit
/// string. Eight values fill exactly `bits` bytes, so each group goes through one u128.
#[inline(always)]
pub fn pack_bits(out: &mut [u8], vals: &[i16], bits: usize) {
    debug_assert_eq!(out.len(), vals.len() * bits / 8);
    match bits {
        1 => pack_groups::<1>(out, vals),
        3 => pack_groups::<3>(out, vals),
        4 => pack_groups::<4>(out, vals),
        5 => pack_groups::<5>(out, vals),
        9 => pack_groups::<9>(out, vals),
        10 => pack_groups::<10>(out, vals),
        11 => pack_groups::<11>(out, vals),
        _ => pack_groups::<13>(out, vals),
    }
}

#[inline(always)]
fn pack_groups<const D: usize>(out: &mut [u8], vals: &[i16]) {
    for (o, v) in out.chunks_exact_mut(D).zip(vals.chunks_exact(8)) {
        let mut acc: u128 = 0;
        for (i, &x) in v.iter().enumerate() {
            acc |= u128::from(x as u16) << (D * i);
        }
        o.copy_from_slice(&acc.to_le_bytes()[..D]);
    }
}

/// Reads `vals.len()` values of `bits` bits from a little-endian bit string.
#[inline(always)]
pub fn unpack_bits(vals: &mut [i16], bytes: &[u8], bits: usize) {
    debug_assert_eq!(bytes.len(), vals.len() * bits / 8);
    match bits {
        1 => unpack_groups::<1>(vals, bytes),
        3 => unpack_groups::<3>(vals, bytes),
        4 => unpack_groups::<4>(vals, bytes),
        5 => unpack_groups::<5>(vals, bytes),
        9 => unpack_groups::<9>(vals, bytes),
        10 => unpack_groups::<10>(vals, bytes),
        11 => unpack_groups::<11>(vals, bytes),
        _ => unpack_groups::<13>(vals, bytes),
    }
}

#[inline(always)]
fn unpack_groups<const D: usize>(vals: &mut [i16], bytes: &[u8]) {
    let mask = (1u128 << D) - 1;
    for (v, b) in vals.chunks_exact_mut(8).zip(bytes.chunks_exact(D)) {
        let mut w = [0u8; 16];
        w[..D].copy_from_slice(b);
        let acc = u128::from_le_bytes(w);
        for (i, x) in v.iter_mut().enumerate() {
            *x = ((acc >> (D * i)) & mask) as i16;
        }
    }
}

/// Encode(m): bit 1 becomes (q + 1) / 2, bit 0 becomes 0, without branching on the bits.
pub fn from_msg(p: &mut Poly, msg: &[u8; SEED_BYTES]) {
    for (c, x) in p.0.iter_mut().enumerate() {
        *x = msg_coeff(msg, c);
    }
}

/// p -= Decompress_1(msg), coefficient-wise (no reduction).
#[inline(always)]
pub fn sub_msg(p: &mut Poly, msg: &[u8; SEED_BYTES]) {
    for (c, x) in p.0.iter_mut().enumerate() {
        *x = x.wrapping_sub(msg_coeff(msg, c));
    }
}

/// Coefficient c of Decompress_1(msg): (q+1)/2 where bit c is set, 0 elsewhere, without a
/// branch.
#[inline(always)]
fn msg_coeff(msg: &[u8; SEED_BYTES], c: usize) -> i16 {
    let mask = -(((msg[c / 8] >> (c % 8)) & 1) as i16);
    mask & ((Q + 1) / 2)
}

/// Zeroes every coefficient of `ps` (secret polynomials), through [`crate::wipe`].
#[inline(always)]
pub(crate) fn wipe_polys(ps: &mut [Poly]) {
    for p in ps.iter_mut() {
        crate::wipe::i16s(&mut p.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_packing_round_trips_for_every_width() {
        for bits in [1usize, 3, 4, 5, 9, 10, 11, 13] {
            let mut vals = [0i16; N];
            for (i, v) in vals.iter_mut().enumerate() {
                *v = ((i * 2654435761usize) >> 7) as i16 & ((1 << bits) - 1) as i16;
            }
            let mut bytes = vec![0u8; N * bits / 8];
            pack_bits(&mut bytes, &vals, bits);
            let mut back = [0i16; N];
            unpack_bits(&mut back, &bytes, bits);
            assert_eq!(vals, back, "width {bits}");
        }
    }
}
