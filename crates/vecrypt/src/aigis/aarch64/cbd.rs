//! Centred binomial sampling on 16 bytes per register: the bit sums are byte popcounts
//! (`CNT`) of masked fields, the differences are taken in 8 bits and widened, and the
//! coefficients of one input byte (or byte pair or triple) are interleaved back into order
//! with `ZIP` (or read apart with `LD2`/`LD3`).

use core::arch::aarch64::*;

use super::super::cbd::noise_bytes;
use super::super::params::N;
use super::super::poly::Poly;
use crate::cpu::kernel;

/// Writes the 16 differences `d` (each in [-8, 8]) as coefficients `at .. at + 16`.
#[kernel(AIGIS_NEON)]
#[inline]
fn put16(p: &mut Poly, at: usize, d: int8x16_t) {
    assert!(at + 16 <= N);
    // SAFETY: at + 16 <= 256: both 16-byte stores lie inside `p`.
    unsafe {
        vst1q_s16(p.0.as_mut_ptr().add(at), vmovl_s8(vget_low_s8(d)));
        vst1q_s16(p.0.as_mut_ptr().add(at + 8), vmovl_high_s8(d));
    }
}

/// The i8 difference `a - b` of two byte vectors of small counts.
#[kernel(AIGIS_NEON)]
#[inline]
fn diff(a: uint8x16_t, b: uint8x16_t) -> int8x16_t {
    vreinterpretq_s8_u8(vsubq_u8(a, b))
}

/// Four vectors of per-byte values, interleaved byte by byte, as coefficients `at .. at + 64`.
#[kernel(AIGIS_NEON)]
#[inline]
fn put64_interleaved(p: &mut Poly, at: usize, d: [int8x16_t; 4]) {
    let lo = [vzip1q_s8(d[0], d[1]), vzip2q_s8(d[0], d[1])];
    let hi = [vzip1q_s8(d[2], d[3]), vzip2q_s8(d[2], d[3])];
    for h in 0..2 {
        let (l, u) = (vreinterpretq_s16_s8(lo[h]), vreinterpretq_s16_s8(hi[h]));
        put16(p, at + 32 * h, vreinterpretq_s8_s16(vzip1q_s16(l, u)));
        put16(p, at + 32 * h + 16, vreinterpretq_s8_s16(vzip2q_s16(l, u)));
    }
}

/// CBD_eta of `buf` (at least `noise_bytes(eta)` bytes) into `p`, as the portable `cbd`.
#[kernel(AIGIS_NEON)]
pub fn cbd_vec(p: &mut Poly, buf: &[u8], eta: usize) {
    let buf = &buf[..noise_bytes(eta)];
    let ld = |b: &[u8]| {
        assert!(b.len() >= 16);
        // SAFETY: 16 readable bytes, checked just above.
        unsafe { vld1q_u8(b.as_ptr()) }
    };
    let one = vdupq_n_u8(1);
    match eta {
        1 => {
            // Four coefficients per byte: bit 2j minus bit 2j + 1.
            for (c, b) in buf.chunks_exact(16).enumerate() {
                let x = ld(b);
                let y = vshrq_n_u8::<1>(x);
                let d = [0i8, 2, 4, 6].map(|s| {
                    let sh = vdupq_n_s8(-s);
                    diff(
                        vandq_u8(vshlq_u8(x, sh), one),
                        vandq_u8(vshlq_u8(y, sh), one),
                    )
                });
                put64_interleaved(p, 64 * c, d);
            }
        }
        2 => {
            // Two coefficients per byte, one per nibble: popcount of bits 0-1 minus 2-3.
            for (c, b) in buf.chunks_exact(16).enumerate() {
                let x = ld(b);
                let m = vdupq_n_u8(0x55);
                let t = vaddq_u8(vandq_u8(x, m), vandq_u8(vshrq_n_u8::<1>(x), m));
                let three = vdupq_n_u8(3);
                let lo = diff(vandq_u8(t, three), vandq_u8(vshrq_n_u8::<2>(t), three));
                let hi = diff(vandq_u8(vshrq_n_u8::<4>(t), three), vshrq_n_u8::<6>(t));
                put16(p, 32 * c, vzip1q_s8(lo, hi));
                put16(p, 32 * c + 16, vzip2q_s8(lo, hi));
            }
        }
        3 => {
            // Four 6-bit fields per 3 bytes, each popcount(low 3) minus popcount(high 3).
            for (c, b) in buf.chunks_exact(48).enumerate() {
                // SAFETY: 48 readable bytes (a whole chunk).
                let v = unsafe { vld3q_u8(b.as_ptr()) };
                let (b0, b1, b2) = (v.0, v.1, v.2);
                let f = [
                    b0,
                    vorrq_u8(vshrq_n_u8::<6>(b0), vshlq_n_u8::<2>(b1)),
                    vorrq_u8(vshrq_n_u8::<4>(b1), vshlq_n_u8::<4>(b2)),
                    vshrq_n_u8::<2>(b2),
                ];
                let seven = vdupq_n_u8(7);
                let d = f.map(|x| {
                    diff(
                        vcntq_u8(vandq_u8(x, seven)),
                        vcntq_u8(vandq_u8(vshrq_n_u8::<3>(x), seven)),
                    )
                });
                put64_interleaved(p, 64 * c, d);
            }
        }
        4 => {
            // One coefficient per byte: popcount(low nibble) minus popcount(high nibble).
            for (c, b) in buf.chunks_exact(16).enumerate() {
                let x = ld(b);
                let d = diff(
                    vcntq_u8(vandq_u8(x, vdupq_n_u8(0x0f))),
                    vcntq_u8(vshrq_n_u8::<4>(x)),
                );
                put16(p, 16 * c, d);
            }
        }
        _ => {
            // One coefficient per byte pair: popcount(first) minus popcount(second).
            for (c, b) in buf.chunks_exact(32).enumerate() {
                // SAFETY: 32 readable bytes (a whole chunk).
                let v = unsafe { vld2q_u8(b.as_ptr()) };
                put16(p, 16 * c, diff(vcntq_u8(v.0), vcntq_u8(v.1)));
            }
        }
    }
}
