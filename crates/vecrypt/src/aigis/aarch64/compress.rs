//! Compression of canonical coefficients, packed at d bits: eight coefficients per
//! register, the division by q as the portable multiply-add-shift in 32-bit lanes
//! (`UMULL`), then the eight d-bit values joined pairwise with shift-and-insert (`SLI`) on
//! 32- and 64-bit lanes, so that one 128-bit value holds the group's d bytes.

use core::arch::aarch64::*;

use super::super::compress::{compress_poly, magic};
use super::super::params::N;
use super::super::poly::Poly;
use crate::cpu::kernel;

/// Compress_D of the eight canonical coefficients `x`, packed little-endian into 8 D bits
/// (`D2` = 2 D).
#[kernel(AIGIS_NEON)]
#[inline]
fn compress8<const D: i32, const D2: i32>(x: uint16x8_t) -> u128 {
    let (m, a, s) = magic(D as usize);
    let add = vdupq_n_u32(a);
    let shift = vdupq_n_s32(-(s as i32));
    let lo = vshlq_u32(vmlal_n_u16(add, vget_low_u16(x), m as u16), shift);
    let hi = vshlq_u32(vmlal_high_n_u16(add, x, m as u16), shift);
    let v = vandq_u16(
        vcombine_u16(vmovn_u32(lo), vmovn_u32(hi)),
        vdupq_n_u16(((1u32 << D) - 1) as u16),
    );
    let t = vreinterpretq_u32_u16(v);
    let t = vsliq_n_u32::<D>(t, vshrq_n_u32::<16>(t));
    let t = vreinterpretq_u64_u32(t);
    let t = vsliq_n_u64::<D2>(t, vshrq_n_u64::<32>(t));
    u128::from(vgetq_lane_u64::<0>(t)) | (u128::from(vgetq_lane_u64::<1>(t)) << (4 * D))
}

#[kernel(AIGIS_NEON)]
#[inline]
fn compress_groups<const D: i32, const D2: i32>(out: &mut [u8], p: &Poly) {
    let d = D as usize;
    assert_eq!(out.len(), N * d / 8);
    for (i, o) in out.chunks_exact_mut(d).enumerate() {
        // SAFETY: i < 32 (N / 8 groups of d bytes), so the 16 bytes read lie inside `p`.
        let x = unsafe { vld1q_u16(p.0.as_ptr().add(8 * i).cast()) };
        o.copy_from_slice(&compress8::<D, D2>(x).to_le_bytes()[..d]);
    }
}

/// Compress_d of canonical coefficients, packed at d bits, as the portable
/// `compress_poly`.
#[kernel(AIGIS_NEON)]
pub fn compress(out: &mut [u8], p: &Poly, d: usize) {
    match d {
        3 => compress_groups::<3, 6>(out, p),
        4 => compress_groups::<4, 8>(out, p),
        5 => compress_groups::<5, 10>(out, p),
        9 => compress_groups::<9, 18>(out, p),
        10 => compress_groups::<10, 20>(out, p),
        11 => compress_groups::<11, 22>(out, p),
        _ => compress_poly(out, p, d),
    }
}
