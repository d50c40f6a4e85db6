//! Compress_d(x) = round(2^d x / q) mod 2^d and Decompress_d(y) = round(q y / 2^d).
//!
//! The division by q is replaced by one multiply, one add and one shift in 32 bits:
//! `(x * M + A) >> S`. The constants were chosen so that the result equals the division for
//! every one of the q possible inputs; the tests check all of them.

use super::params::{Q, SEED_BYTES};
use super::poly::{Poly, pack_bits, unpack_bits};

/// (M, A, S) for each width d in 1..=13 that the scheme uses; `None` for the others.
pub const fn magic(d: usize) -> (u32, u32, u32) {
    match d {
        1 => (273, 524_399, 20),
        3 => (4369, 2_093_263, 22),
        4 => (4369, 1_044_703, 21),
        5 => (4369, 520_423, 20),
        9 => (273, 2167, 12),
        10 => (8737, 32_747, 16),
        11 => (8737, 16_365, 15),
        _ => (0, 0, 0),
    }
}

/// Compress_d of a canonical coefficient (in [0, q)), constant time.
#[inline(always)]
pub fn compress(x: i16, d: usize) -> u16 {
    let (m, a, s) = magic(d);
    (((x as u32) * m + a) >> s) as u16 & ((1u16 << d) - 1)
}

/// The reference definition with a division, for tests.
/// Decode: the bit nearest to 2x/q for canonical coefficients x.
pub fn to_msg(msg: &mut [u8; SEED_BYTES], p: &Poly) {
    for (i, byte) in msg.iter_mut().enumerate() {
        let mut b = 0u8;
        for j in 0..8 {
            b |= (compress(p.0[8 * i + j], 1) as u8) << j;
        }
        *byte = b;
    }
}

#[cfg(test)]
pub fn compress_by_division(x: i16, d: usize) -> u16 {
    ((((x as u32) << d) + (Q as u32) / 2) / (Q as u32)) as u16 & ((1u16 << d) - 1)
}

/// Decompress_d of a d-bit value.
#[inline(always)]
pub fn decompress(y: u16, d: usize) -> i16 {
    ((u32::from(y) * Q as u32 + (1 << (d - 1))) >> d) as i16
}

/// Compresses canonical coefficients and packs them at d bits each, eight at a time (no
/// temporary polynomial: the compact variant counts every byte of stack).
#[inline(always)]
pub fn compress_poly(out: &mut [u8], p: &Poly, d: usize) {
    match d {
        1 => compress_groups::<1>(out, p),
        3 => compress_groups::<3>(out, p),
        4 => compress_groups::<4>(out, p),
        5 => compress_groups::<5>(out, p),
        9 => compress_groups::<9>(out, p),
        10 => compress_groups::<10>(out, p),
        _ => compress_groups::<11>(out, p),
    }
}

#[inline(always)]
fn compress_groups<const D: usize>(out: &mut [u8], p: &Poly) {
    for (o, g) in out.chunks_exact_mut(D).zip(p.0.chunks_exact(8)) {
        let mut t = [0i16; 8];
        for (t, &x) in t.iter_mut().zip(g.iter()) {
            *t = compress(x, D) as i16;
        }
        pack_bits(o, &t, D);
    }
}

/// Unpacks d-bit values and decompresses them (results are in [0, q)).
#[inline(always)]
pub fn decompress_poly(p: &mut Poly, bytes: &[u8], d: usize) {
    unpack_bits(&mut p.0, bytes, d);
    for x in p.0.iter_mut() {
        *x = decompress(*x as u16, d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aigis::poly::from_msg;

    #[test]
    fn message_round_trips() {
        let msg: [u8; 32] = core::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ 0x5a);
        let mut p = Poly::default();
        from_msg(&mut p, &msg);
        let mut back = [0u8; 32];
        to_msg(&mut back, &p);
        assert_eq!(msg, back);
    }

    #[test]
    fn multiply_shift_equals_division_for_all_inputs() {
        for d in [1usize, 3, 4, 5, 9, 10, 11] {
            for x in 0..Q {
                assert_eq!(compress(x, d), compress_by_division(x, d), "d={d} x={x}");
            }
        }
    }

    #[test]
    fn decompress_then_compress_is_identity() {
        for d in [1usize, 3, 4, 5, 9, 10, 11] {
            for y in 0..(1u16 << d) {
                let x = decompress(y, d);
                assert!((0..Q).contains(&x));
                assert_eq!(compress(x, d), y);
            }
        }
    }
}
