//! The NTT, inverse NTT, products and reductions on eight 16-bit coefficients per register.
//!
//! Montgomery products use the doubling high multiply: for a = x * z and the low half
//! l = x * (z q^-1) mod 2^16, `SQDMULH(x, z)` and `SQDMULH(l, q)` are the high halves of 2a
//! and 2lq, whose low 17 bits agree, so one halving subtract (`SHSUB`) of the two gives
//! (a - l q) / 2^16 exactly: the portable `montgomery_reduce`, in five instructions (four
//! with the twiddle's two halves precomputed).
//!
//! A transform runs in two passes over the polynomial, each on few enough registers that
//! nothing is spilled:
//! - the three layers at distances 128, 64 and 32 act inside the set of eight registers
//!   j, j + 4, ..., j + 28 (four such sets);
//! - the five layers at distances 16, 8, 4, 2 and 1 act inside each block of 32
//!   coefficients (four registers). The last three pair lanes of one register: two registers
//!   are transposed with `TRN1`/`TRN2` (64-, 32-, then 16-bit elements) so that every
//!   butterfly again pairs lane i of one register with lane i of another, with per-lane
//!   twiddles; `ZIP1`/`ZIP2` (forward) or `TRN` on 64 bits (inverse) restore the order.

use core::arch::aarch64::*;

use super::super::ntt::{INV_N_MONT, ZETAS};
use super::super::params::{N, Q};
use super::super::poly::Poly;
use super::super::reduce::{QINV, R2_MOD_Q};
use crate::cpu::kernel;

/// For the in-register layers at distances 4, 2 and 1: the offsets, within 16
/// coefficients, of the "a" lanes after the transposition of that layer (the "b" lanes are
/// `d` further on).
const OFFSETS: [[usize; 8]; 3] = [
    [0, 1, 2, 3, 8, 9, 10, 11],
    [0, 1, 4, 5, 8, 9, 12, 13],
    [0, 2, 4, 6, 8, 10, 12, 14],
];

/// `t[l][p][lane]`: the twiddle of lane `lane` of register pair `p` (coefficients 16 p ..
/// 16 p + 16) at the in-register layer `l` (distance 4 >> l), forward or inverse.
const fn lane_table(inverse: bool, times_qinv: bool) -> [[[i16; 8]; 16]; 3] {
    let mut t = [[[0i16; 8]; 16]; 3];
    let mut l = 0;
    while l < 3 {
        let d = 4 >> l;
        let mut p = 0;
        while p < 16 {
            let mut lane = 0;
            while lane < 8 {
                let g = (16 * p + OFFSETS[l][lane]) / (2 * d);
                let z = if inverse {
                    ZETAS[N / d - 1 - g]
                } else {
                    ZETAS[N / 2 / d + g]
                };
                t[l][p][lane] = if times_qinv { z.wrapping_mul(QINV) } else { z };
                lane += 1;
            }
            p += 1;
        }
        l += 1;
    }
    t
}

const LANE_ZETAS: [[[i16; 8]; 16]; 3] = lane_table(false, false);
const LANE_ZETAS_QINV: [[[i16; 8]; 16]; 3] = lane_table(false, true);
const LANE_ZETAS_INV: [[[i16; 8]; 16]; 3] = lane_table(true, false);
const LANE_ZETAS_INV_QINV: [[[i16; 8]; 16]; 3] = lane_table(true, true);

#[kernel(AIGIS_NEON)]
#[inline]
fn lanes(t: &[i16; 8]) -> int16x8_t {
    // SAFETY: 16 readable bytes.
    unsafe { vld1q_s16(t.as_ptr()) }
}

/// Register `i` (coefficients 8 i .. 8 i + 8) of `p`.
#[kernel(AIGIS_NEON)]
#[inline]
fn load(p: &Poly, i: usize) -> int16x8_t {
    assert!(i < N / 8);
    // SAFETY: i < 32, so the 16 bytes read lie inside the 512 of `p`.
    unsafe { vld1q_s16(p.0.as_ptr().add(8 * i)) }
}

#[kernel(AIGIS_NEON)]
#[inline]
fn store(p: &mut Poly, i: usize, x: int16x8_t) {
    assert!(i < N / 8);
    // SAFETY: as for `load`, 16 bytes inside `p`.
    unsafe { vst1q_s16(p.0.as_mut_ptr().add(8 * i), x) }
}

/// a z 2^-16 mod q with `zq` = z q^-1 mod 2^16, in (-q, q) when |a z| < q 2^15.
#[kernel(AIGIS_NEON)]
#[inline]
pub(super) fn fqmul(a: int16x8_t, z: int16x8_t, zq: int16x8_t) -> int16x8_t {
    let hi = vqdmulhq_s16(a, z);
    let lo = vmulq_s16(a, zq);
    vhsubq_s16(hi, vqdmulhq_n_s16(lo, Q))
}

/// [`fqmul`] by one twiddle for every lane.
#[kernel(AIGIS_NEON)]
#[inline]
fn fqmul_n(a: int16x8_t, z: i16) -> int16x8_t {
    let hi = vqdmulhq_n_s16(a, z);
    let lo = vmulq_n_s16(a, z.wrapping_mul(QINV));
    vhsubq_s16(hi, vqdmulhq_n_s16(lo, Q))
}

/// a b 2^-16 mod q for two variable operands.
#[kernel(AIGIS_NEON)]
#[inline]
pub(super) fn fqmul_vv(a: int16x8_t, b: int16x8_t) -> int16x8_t {
    let hi = vqdmulhq_s16(a, b);
    let lo = vmulq_n_s16(vmulq_s16(a, b), QINV);
    vhsubq_s16(hi, vqdmulhq_n_s16(lo, Q))
}

/// Any 16-bit value to a representative of absolute value at most (q + 3) / 2: t =
/// round(floor(a 8737 / 2^15) / 2^11) ≈ a / q, then a - t q.
#[kernel(AIGIS_NEON)]
#[inline]
pub(super) fn barrett(a: int16x8_t) -> int16x8_t {
    let t = vrshrq_n_s16::<11>(vqdmulhq_n_s16(a, 8737));
    vmlsq_n_s16(a, t, Q)
}

/// Any 16-bit value to its representative in [0, q).
#[kernel(AIGIS_NEON)]
#[inline]
pub(super) fn freeze_vec(a: int16x8_t) -> int16x8_t {
    let x = barrett(a);
    vaddq_s16(x, vandq_s16(vshrq_n_s16::<15>(x), vdupq_n_s16(Q)))
}

/// Cooley-Tukey butterfly: (a + b z, a - b z).
#[kernel(AIGIS_NEON)]
#[inline]
fn ct(a: &mut int16x8_t, b: &mut int16x8_t, z: int16x8_t, zq: int16x8_t) {
    let t = fqmul(*b, z, zq);
    *b = vsubq_s16(*a, t);
    *a = vaddq_s16(*a, t);
}

#[kernel(AIGIS_NEON)]
#[inline]
fn ct_n(a: &mut int16x8_t, b: &mut int16x8_t, z: i16) {
    let t = fqmul_n(*b, z);
    *b = vsubq_s16(*a, t);
    *a = vaddq_s16(*a, t);
}

/// Gentleman-Sande butterfly: (a + b, (b - a) z).
#[kernel(AIGIS_NEON)]
#[inline]
fn gs(a: &mut int16x8_t, b: &mut int16x8_t, z: int16x8_t, zq: int16x8_t) {
    let d = vsubq_s16(*b, *a);
    *a = vaddq_s16(*a, *b);
    *b = fqmul(d, z, zq);
}

#[kernel(AIGIS_NEON)]
#[inline]
fn gs_n(a: &mut int16x8_t, b: &mut int16x8_t, z: i16) {
    let d = vsubq_s16(*b, *a);
    *a = vaddq_s16(*a, *b);
    *b = fqmul_n(d, z);
}

#[kernel(AIGIS_NEON)]
#[inline]
fn trn64(x: int16x8_t, y: int16x8_t) -> (int16x8_t, int16x8_t) {
    let (x, y) = (vreinterpretq_s64_s16(x), vreinterpretq_s64_s16(y));
    (
        vreinterpretq_s16_s64(vtrn1q_s64(x, y)),
        vreinterpretq_s16_s64(vtrn2q_s64(x, y)),
    )
}

#[kernel(AIGIS_NEON)]
#[inline]
fn trn32(x: int16x8_t, y: int16x8_t) -> (int16x8_t, int16x8_t) {
    let (x, y) = (vreinterpretq_s32_s16(x), vreinterpretq_s32_s16(y));
    (
        vreinterpretq_s16_s32(vtrn1q_s32(x, y)),
        vreinterpretq_s16_s32(vtrn2q_s32(x, y)),
    )
}

#[kernel(AIGIS_NEON)]
#[inline]
fn trn16(x: int16x8_t, y: int16x8_t) -> (int16x8_t, int16x8_t) {
    (vtrn1q_s16(x, y), vtrn2q_s16(x, y))
}

/// The forward layers at distances 4, 2 and 1 on the registers (x0, x1) of pair `p`.
#[kernel(AIGIS_NEON)]
#[inline]
fn forward_pair(x0: &mut int16x8_t, x1: &mut int16x8_t, p: usize) {
    let z = |l: usize| (lanes(&LANE_ZETAS[l][p]), lanes(&LANE_ZETAS_QINV[l][p]));
    let (mut a, mut b) = trn64(*x0, *x1);
    let (zl, zh) = z(0);
    ct(&mut a, &mut b, zl, zh);
    let (a, b) = (barrett(a), barrett(b));
    let (mut c, mut d) = trn32(a, b);
    let (zl, zh) = z(1);
    ct(&mut c, &mut d, zl, zh);
    let (mut e, mut f) = trn16(c, d);
    let (zl, zh) = z(2);
    ct(&mut e, &mut f, zl, zh);
    let (e, f) = (barrett(e), barrett(f));
    *x0 = vzip1q_s16(e, f);
    *x1 = vzip2q_s16(e, f);
}

/// The inverse layers at distances 1, 2 and 4 on the registers (x0, x1) of pair `p`.
#[kernel(AIGIS_NEON)]
#[inline]
fn inverse_pair(x0: &mut int16x8_t, x1: &mut int16x8_t, p: usize) {
    let z = |l: usize| {
        (
            lanes(&LANE_ZETAS_INV[l][p]),
            lanes(&LANE_ZETAS_INV_QINV[l][p]),
        )
    };
    let mut e = vuzp1q_s16(*x0, *x1);
    let mut f = vuzp2q_s16(*x0, *x1);
    let (zl, zh) = z(2);
    gs(&mut e, &mut f, zl, zh);
    let (mut c, mut d) = trn16(e, f);
    let (zl, zh) = z(1);
    gs(&mut c, &mut d, zl, zh);
    let (c, d) = (barrett(c), barrett(d));
    let (mut a, mut b) = trn32(c, d);
    let (zl, zh) = z(0);
    gs(&mut a, &mut b, zl, zh);
    (*x0, *x1) = trn64(a, b);
}

/// Forward NTT. Three layers fit in 16 bits between reductions (each adds less than q to
/// the bound, and 4q < 2^15).
#[kernel(AIGIS_NEON)]
pub fn ntt(p: &mut Poly) {
    // Distances 128, 64, 32: position i of `v` is register j + 4 i.
    for j in 0..4 {
        let mut v: [int16x8_t; 8] = core::array::from_fn(|i| load(p, j + 4 * i));
        let [v0, v1, v2, v3, v4, v5, v6, v7] = &mut v;
        ct_n(v0, v4, ZETAS[1]);
        ct_n(v1, v5, ZETAS[1]);
        ct_n(v2, v6, ZETAS[1]);
        ct_n(v3, v7, ZETAS[1]);
        ct_n(v0, v2, ZETAS[2]);
        ct_n(v1, v3, ZETAS[2]);
        ct_n(v4, v6, ZETAS[3]);
        ct_n(v5, v7, ZETAS[3]);
        ct_n(v0, v1, ZETAS[4]);
        ct_n(v2, v3, ZETAS[5]);
        ct_n(v4, v5, ZETAS[6]);
        ct_n(v6, v7, ZETAS[7]);
        for (i, x) in v.iter().enumerate() {
            store(p, j + 4 * i, barrett(*x));
        }
    }
    // Distances 16 .. 1 in each block of 32 coefficients.
    for b in 0..8 {
        let [mut v0, mut v1, mut v2, mut v3] = core::array::from_fn(|i| load(p, 4 * b + i));
        ct_n(&mut v0, &mut v2, ZETAS[8 + b]);
        ct_n(&mut v1, &mut v3, ZETAS[8 + b]);
        ct_n(&mut v0, &mut v1, ZETAS[16 + 2 * b]);
        ct_n(&mut v2, &mut v3, ZETAS[17 + 2 * b]);
        forward_pair(&mut v0, &mut v1, 2 * b);
        forward_pair(&mut v2, &mut v3, 2 * b + 1);
        for (i, x) in [v0, v1, v2, v3].into_iter().enumerate() {
            store(p, 4 * b + i, x);
        }
    }
}

/// Inverse NTT with the division by 256. Inputs to every layer are below 2q (a reduction
/// every two layers), so the differences stay below 4q.
#[kernel(AIGIS_NEON)]
pub fn invntt(p: &mut Poly) {
    for b in 0..8 {
        let [mut v0, mut v1, mut v2, mut v3] = core::array::from_fn(|i| load(p, 4 * b + i));
        inverse_pair(&mut v0, &mut v1, 2 * b);
        inverse_pair(&mut v2, &mut v3, 2 * b + 1);
        gs_n(&mut v0, &mut v1, ZETAS[31 - 2 * b]);
        gs_n(&mut v2, &mut v3, ZETAS[30 - 2 * b]);
        let [mut v0, mut v1, mut v2, mut v3] = [v0, v1, v2, v3].map(|x| barrett(x));
        gs_n(&mut v0, &mut v2, ZETAS[15 - b]);
        gs_n(&mut v1, &mut v3, ZETAS[15 - b]);
        for (i, x) in [v0, v1, v2, v3].into_iter().enumerate() {
            store(p, 4 * b + i, x);
        }
    }
    for j in 0..4 {
        let mut v: [int16x8_t; 8] = core::array::from_fn(|i| load(p, j + 4 * i));
        {
            let [v0, v1, v2, v3, v4, v5, v6, v7] = &mut v;
            gs_n(v0, v1, ZETAS[7]);
            gs_n(v2, v3, ZETAS[6]);
            gs_n(v4, v5, ZETAS[5]);
            gs_n(v6, v7, ZETAS[4]);
        }
        let mut v = v.map(|x| barrett(x));
        let [v0, v1, v2, v3, v4, v5, v6, v7] = &mut v;
        gs_n(v0, v2, ZETAS[3]);
        gs_n(v1, v3, ZETAS[3]);
        gs_n(v4, v6, ZETAS[2]);
        gs_n(v5, v7, ZETAS[2]);
        gs_n(v0, v4, ZETAS[1]);
        gs_n(v1, v5, ZETAS[1]);
        gs_n(v2, v6, ZETAS[1]);
        gs_n(v3, v7, ZETAS[1]);
        for (i, x) in v.iter().enumerate() {
            store(p, j + 4 * i, fqmul_n(*x, INV_N_MONT));
        }
    }
}

/// r = sum_i a_i b_i coefficient-wise: one Montgomery product per term (each below q, at
/// most four terms, so the sum stays below 4q), then one by 2^32 mod q to undo the 2^-16.
#[kernel(AIGIS_NEON)]
pub fn mul_acc(r: &mut Poly, a: &[Poly], b: &[Poly]) {
    for c in 0..N / 8 {
        let mut acc = vdupq_n_s16(0);
        for (x, y) in a.iter().zip(b.iter()) {
            acc = vaddq_s16(acc, fqmul_vv(load(x, c), load(y, c)));
        }
        store(r, c, fqmul_n(acc, R2_MOD_Q));
    }
}

/// acc = acc + a b mod q, below q in absolute value before and after.
#[kernel(AIGIS_NEON)]
pub fn mul_add(acc: &mut Poly, a: &Poly, b: &Poly) {
    for c in 0..N / 8 {
        let t = fqmul_n(fqmul_vv(load(a, c), load(b, c)), R2_MOD_Q);
        store(acc, c, barrett(vaddq_s16(load(acc, c), t)));
    }
}

/// Every coefficient to its representative in [0, q).
#[kernel(AIGIS_NEON)]
pub fn freeze(p: &mut Poly) {
    for c in 0..N / 8 {
        store(p, c, freeze_vec(load(p, c)));
    }
}

/// [`barrett`] (or [`freeze_vec`] with `canonical`) of every value of `out`, a multiple of
/// eight long, for tests.
#[cfg(test)]
#[kernel(AIGIS_NEON)]
pub(super) fn reduce_all_i16(out: &mut [i16], canonical: bool) {
    for chunk in out.chunks_exact_mut(8) {
        // SAFETY: 8 values = 16 bytes, read and written inside `chunk`.
        unsafe {
            let x = vld1q_s16(chunk.as_ptr());
            let y = if canonical { freeze_vec(x) } else { barrett(x) };
            vst1q_s16(chunk.as_mut_ptr(), y);
        }
    }
}
