//! The multiplication half of MGM on x86: sums of products in GF(2^128) by PCLMULQDQ.
//!
//! Carry-less multiplication takes the same time for every operand, so this is constant
//! time. The 256-bit products of a whole batch are summed unreduced and reduced once.

use core::arch::x86_64::*;

use crate::cpu::Features;

/// Whether this CPU can run [`mul_sum`].
pub(super) fn available(f: &Features) -> bool {
    f.pclmulqdq && f.sse2
}

#[inline(always)]
unsafe fn load(block: &[u8]) -> __m128i {
    let v = u128::from_be_bytes(block[..16].try_into().expect("16-byte block"));
    // SAFETY: register-only SSE2 operation.
    unsafe { _mm_set_epi64x((v >> 64) as i64, v as i64) }
}

#[inline(always)]
unsafe fn to_u128(x: __m128i) -> u128 {
    // SAFETY: register-only SSE2/SSE4.1-free extraction through a stack copy.
    unsafe {
        let mut out = [0u64; 2];
        _mm_storeu_si128(out.as_mut_ptr().cast(), x);
        u128::from(out[0]) | (u128::from(out[1]) << 64)
    }
}

#[target_feature(enable = "pclmulqdq,sse2")]
unsafe fn mul_sum_impl(hs: &[u8], xs: &[u8]) -> (u128, u128) {
    // SAFETY: the features are enabled on this function; loads go through checked slices.
    unsafe {
        let mut lo = _mm_setzero_si128();
        let mut mid = _mm_setzero_si128();
        let mut hi = _mm_setzero_si128();
        for (h, x) in hs.chunks_exact(16).zip(xs.chunks_exact(16)) {
            let a = load(h);
            let b = load(x);
            lo = _mm_xor_si128(lo, _mm_clmulepi64_si128::<0x00>(a, b));
            hi = _mm_xor_si128(hi, _mm_clmulepi64_si128::<0x11>(a, b));
            mid = _mm_xor_si128(mid, _mm_clmulepi64_si128::<0x01>(a, b));
            mid = _mm_xor_si128(mid, _mm_clmulepi64_si128::<0x10>(a, b));
        }
        let (lo, mid, hi) = (to_u128(lo), to_u128(mid), to_u128(hi));
        (lo ^ (mid << 64), hi ^ (mid >> 64))
    }
}

/// The unreduced sum of `H_i * X_i` over the blocks of `hs` and `xs` as (low, high) halves
/// of a 256-bit polynomial; `None` if the CPU lacks PCLMULQDQ.
pub(super) fn mul_sum(hs: &[u8], xs: &[u8]) -> Option<(u128, u128)> {
    if !available(crate::cpu::features()) {
        return None;
    }
    // SAFETY: the required features were just checked.
    Some(unsafe { mul_sum_impl(hs, xs) })
}
