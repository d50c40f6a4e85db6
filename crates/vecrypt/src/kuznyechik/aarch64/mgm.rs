//! The multiplication half of MGM on AArch64: sums of products in GF(2^128) by the 64-bit
//! polynomial multiply PMULL of the ARMv8 cryptography extension, four per block (the
//! schoolbook halves), summed unreduced over the call and reduced once by the front.
//! Carry-less multiplication takes the same time for every operand: constant time. Where
//! the CPU lacks PMULL the front's portable products run.

use core::arch::aarch64::*;

use crate::cpu::{checked, kernel, kernels};

/// A big-endian block as a little-endian 128-bit integer in two 64-bit lanes (low half
/// first).
#[kernel(KUZNYECHIK_MGM_PMULL)]
#[inline]
fn load_reversed(block: &[u8]) -> uint64x2_t {
    assert!(block.len() >= 16);
    // SAFETY: the assertion keeps the 16 bytes read inside `block`; LD1 needs no alignment.
    let v = unsafe { vld1q_u8(block.as_ptr()) };
    let r = vrev64q_u8(v);
    vreinterpretq_u64_u8(vextq_u8::<8>(r, r))
}

#[kernel(KUZNYECHIK_MGM_PMULL)]
#[inline]
fn clmul(a: u64, b: u64) -> uint64x2_t {
    vreinterpretq_u64_p128(vmull_p64(a, b))
}

#[kernel(KUZNYECHIK_MGM_PMULL)]
#[inline]
fn to_u128(x: uint64x2_t) -> u128 {
    u128::from(vgetq_lane_u64::<0>(x)) | (u128::from(vgetq_lane_u64::<1>(x)) << 64)
}

/// # Safety
/// The CPU runs [`KUZNYECHIK_MGM_PMULL`](crate::cpu::kernels::KUZNYECHIK_MGM_PMULL).
#[kernel(KUZNYECHIK_MGM_PMULL)]
unsafe fn mul_sum_impl(hs: &[u8], xs: &[u8]) -> (u128, u128) {
    let zero = vdupq_n_u64(0);
    let (mut low, mut middle, mut high) = (zero, zero, zero);
    for (h, x) in hs.chunks_exact(16).zip(xs.chunks_exact(16)) {
        let a = load_reversed(h);
        let b = load_reversed(x);
        let (a0, a1) = (vgetq_lane_u64::<0>(a), vgetq_lane_u64::<1>(a));
        let (b0, b1) = (vgetq_lane_u64::<0>(b), vgetq_lane_u64::<1>(b));
        low = veorq_u64(low, clmul(a0, b0));
        high = veorq_u64(high, clmul(a1, b1));
        middle = veorq_u64(middle, veorq_u64(clmul(a0, b1), clmul(a1, b0)));
    }
    let (low, middle, high) = (to_u128(low), to_u128(middle), to_u128(high));
    (low ^ (middle << 64), high ^ (middle >> 64))
}

/// The unreduced sum of `H_i * X_i` over the blocks of `hs` and `xs` as (low, high) halves
/// of a 256-bit polynomial; `None` if the CPU lacks PMULL.
pub(super) fn mul_sum(hs: &[u8], xs: &[u8]) -> Option<(u128, u128)> {
    checked!(kernels::KUZNYECHIK_MGM_PMULL => Some {
        // SAFETY: `checked!` runs this only on a CPU that runs KUZNYECHIK_MGM_PMULL, the
        // kernel's features.
        unsafe { mul_sum_impl(hs, xs) }
    })
}
