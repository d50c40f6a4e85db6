//! The multiplication half of MGM on x86: sums of products in GF(2^128) by PCLMULQDQ.
//!
//! Carry-less multiplication takes the same time for every operand, so this is constant
//! time. The 256-bit products of a whole batch are summed unreduced and reduced once. With
//! VPCLMULQDQ on ZMM registers four blocks are multiplied per instruction; the four lanes'
//! partial sums are added at the end of the batch.

use core::arch::x86_64::*;

use crate::cpu::{Ran, checked, kernel, kernels};

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn load(block: &[u8]) -> __m128i {
    let v = u128::from_be_bytes(block[..16].try_into().expect("16-byte block"));
    // SAFETY: register-only SSE2 operation.
    unsafe { _mm_set_epi64x((v >> 64) as i64, v as i64) }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn to_u128(x: __m128i) -> u128 {
    // SAFETY: register-only SSE2/SSE4.1-free extraction through a stack copy.
    unsafe {
        let mut out = [0u64; 2];
        _mm_storeu_si128(out.as_mut_ptr().cast(), x);
        u128::from(out[0]) | (u128::from(out[1]) << 64)
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[kernel(KUZNYECHIK_MGM_CLMUL)]
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

/// Within each 128-bit lane, byte `i` takes byte `15 - i`: big-endian blocks become
/// little-endian 128-bit integers.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn reverse_lanes(x: __m512i) -> __m512i {
    // SAFETY: register-only AVX-512BW operation, enabled by the caller.
    unsafe {
        let order = _mm512_broadcast_i32x4(_mm_set_epi8(
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
        ));
        _mm512_shuffle_epi8(x, order)
    }
}

/// The sum of the four 128-bit lanes of `x`.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn sum_lanes(x: __m512i) -> __m128i {
    // SAFETY: register-only AVX-512F operations, enabled by the caller.
    unsafe {
        let half = _mm256_xor_si256(_mm512_castsi512_si256(x), _mm512_extracti64x4_epi64::<1>(x));
        _mm_xor_si128(
            _mm256_castsi256_si128(half),
            _mm256_extracti128_si256::<1>(half),
        )
    }
}

/// Unreduced products of four blocks at a time, summed per 128-bit lane: the coefficients
/// of x^0..x^127, of x^64..x^191 and of x^128..x^255. Callers enable AVX-512F/BW and
/// VPCLMULQDQ.
pub(super) struct WideProducts {
    low: __m512i,
    middle: __m512i,
    high: __m512i,
}

impl WideProducts {
    /// # Safety
    /// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
    /// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
    /// those features themselves.
    #[inline(always)]
    pub(super) unsafe fn new() -> Self {
        // SAFETY: register-only AVX-512F operations, enabled by the caller.
        unsafe {
            Self {
                low: _mm512_setzero_si512(),
                middle: _mm512_setzero_si512(),
                high: _mm512_setzero_si512(),
            }
        }
    }

    /// Adds the products of the four lanes of `a` and `b`, each lane a little-endian
    /// 128-bit integer (see [`reverse_lanes`]).
    ///
    /// # Safety
    /// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
    /// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
    /// those features themselves.
    #[inline(always)]
    pub(super) unsafe fn add(&mut self, a: __m512i, b: __m512i) {
        // SAFETY: register-only AVX-512F/VPCLMULQDQ operations, enabled by the caller.
        unsafe {
            self.low = _mm512_xor_si512(self.low, _mm512_clmulepi64_epi128::<0x00>(a, b));
            self.high = _mm512_xor_si512(self.high, _mm512_clmulepi64_epi128::<0x11>(a, b));
            self.middle = _mm512_ternarylogic_epi64::<0x96>(
                self.middle,
                _mm512_clmulepi64_epi128::<0x01>(a, b),
                _mm512_clmulepi64_epi128::<0x10>(a, b),
            );
        }
    }

    /// The sum as the (low, high) halves of a 256-bit polynomial.
    ///
    /// # Safety
    /// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
    /// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
    /// those features themselves.
    #[inline(always)]
    pub(super) unsafe fn total(&self) -> (u128, u128) {
        // SAFETY: register-only operations, enabled by the caller.
        unsafe {
            let (low, middle, high) = (
                to_u128(sum_lanes(self.low)),
                to_u128(sum_lanes(self.middle)),
                to_u128(sum_lanes(self.high)),
            );
            (low ^ (middle << 64), high ^ (middle >> 64))
        }
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[kernel(KUZNYECHIK_MGM_VPCLMUL)]
unsafe fn mul_sum_wide_impl(hs: &[u8], xs: &[u8]) -> (u128, u128) {
    // SAFETY: the features are enabled on this function; every 64-byte load reads a whole
    // chunk of a checked slice.
    unsafe {
        let mut sum = WideProducts::new();
        let mut hs4 = hs.chunks_exact(64);
        let mut xs4 = xs.chunks_exact(64);
        for (h, x) in (&mut hs4).zip(&mut xs4) {
            let a = reverse_lanes(_mm512_loadu_si512(h.as_ptr().cast()));
            let b = reverse_lanes(_mm512_loadu_si512(x.as_ptr().cast()));
            sum.add(a, b);
        }
        let (mut low, mut high) = sum.total();
        let (l, h) = mul_sum_impl(hs4.remainder(), xs4.remainder());
        low ^= l;
        high ^= h;
        (low, high)
    }
}

/// Writes `blocks` successive counter values (big-endian blocks) into `out` and advances
/// `counter`: the high 64-bit half is incremented when `left`, else the low half, each
/// modulo 2^64. Declined, writing nothing, if the CPU lacks AVX-512BW (the caller then
/// fills block by block).
pub(super) fn fill_counters(out: &mut [u8], blocks: usize, counter: &mut u128, left: bool) -> Ran {
    checked!(kernels::KUZNYECHIK_MGM_COUNTERS_AVX512 => {
        assert!(out.len() >= 16 * blocks);
        // SAFETY: `checked!` runs this only on a CPU that runs KUZNYECHIK_MGM_COUNTERS_AVX512,
        // the kernel's features; `out` holds `blocks` blocks.
        unsafe { fill_counters_impl(out, blocks, counter, left) }
    })
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[kernel(KUZNYECHIK_MGM_COUNTERS_AVX512)]
unsafe fn fill_counters_impl(out: &mut [u8], blocks: usize, counter: &mut u128, left: bool) {
    let (lo, hi) = (*counter as u64 as i64, (*counter >> 64) as u64 as i64);
    // Four blocks per register, each a little-endian 128-bit lane (low half first); only
    // one half of each lane moves, and 64-bit lane additions wrap exactly as the spec's
    // counters do.
    let (step, four) = if left {
        (
            _mm512_set_epi64(3, 0, 2, 0, 1, 0, 0, 0),
            _mm512_set_epi64(4, 0, 4, 0, 4, 0, 4, 0),
        )
    } else {
        (
            _mm512_set_epi64(0, 3, 0, 2, 0, 1, 0, 0),
            _mm512_set_epi64(0, 4, 0, 4, 0, 4, 0, 4),
        )
    };
    let mut v = _mm512_add_epi64(_mm512_set_epi64(hi, lo, hi, lo, hi, lo, hi, lo), step);
    for group in out[..16 * blocks].chunks_mut(64) {
        // SAFETY: register-only AVX-512BW operation; the masked store writes the group's
        // bytes only.
        unsafe {
            let bytes = reverse_lanes(v);
            let mask = if group.len() == 64 {
                u64::MAX
            } else {
                (1u64 << group.len()) - 1
            };
            _mm512_mask_storeu_epi8(group.as_mut_ptr().cast(), mask, bytes);
        }
        v = _mm512_add_epi64(v, four);
    }
    let n = blocks as u64;
    *counter = if left {
        (u128::from(((*counter >> 64) as u64).wrapping_add(n)) << 64)
            | (*counter & u128::from(u64::MAX))
    } else {
        (*counter >> 64 << 64) | u128::from((*counter as u64).wrapping_add(n))
    };
}

/// The unreduced sum of `H_i * X_i` over the blocks of `hs` and `xs` as (low, high) halves
/// of a 256-bit polynomial, four blocks per product where the CPU has VPCLMULQDQ; `None`
/// if it lacks PCLMULQDQ.
pub(super) fn mul_sum(hs: &[u8], xs: &[u8]) -> Option<(u128, u128)> {
    let wide = checked!(kernels::KUZNYECHIK_MGM_VPCLMUL => Some {
        // SAFETY: `checked!` runs this only on a CPU that runs KUZNYECHIK_MGM_VPCLMUL, the
        // kernel's features.
        unsafe { mul_sum_wide_impl(hs, xs) }
    });
    if wide.is_some() {
        return wide;
    }
    checked!(kernels::KUZNYECHIK_MGM_CLMUL => Some {
        // SAFETY: `checked!` runs this only on a CPU that runs KUZNYECHIK_MGM_CLMUL, the
        // kernel's features.
        unsafe { mul_sum_impl(hs, xs) }
    })
}
