//! Volatile whole-register zeroing for [`crate::wipe`]: 32 bytes per store with AVX2.

use core::arch::x86_64::*;
use core::sync::atomic::{Ordering, compiler_fence};

use zeroize::{DefaultIsZeroes, Zeroize};

use crate::cpu::{Ran, checked, kernel, kernels};

/// Integer elements only: every bit pattern of their bytes is a valid `__m256i`. Declined
/// if the CPU lacks AVX2 (the caller then falls back to `zeroize`).
pub(crate) fn integers<T: DefaultIsZeroes>(s: &mut [T]) -> Ran
where
    [T]: Zeroize,
{
    checked!(kernels::WIPE_AVX2 => {
        // SAFETY: `checked!` runs this only on a CPU that runs WIPE_AVX2, the kernel's features.
        unsafe { slice_avx2(s) }
    })
}

#[kernel(WIPE_AVX2)]
fn slice_avx2<T: DefaultIsZeroes>(s: &mut [T])
where
    [T]: Zeroize,
{
    // SAFETY: the callers pass integer slices, whose bytes may be any pattern, as may a
    // `__m256i`'s; `align_to_mut` puts only whole, aligned elements in the middle.
    let (head, middle, tail) = unsafe { s.align_to_mut::<__m256i>() };
    head.zeroize();
    for v in middle.iter_mut() {
        // SAFETY: `v` is an aligned, writable 32-byte element of the slice.
        unsafe { core::ptr::write_volatile(v, _mm256_setzero_si256()) };
    }
    tail.zeroize();
    compiler_fence(Ordering::SeqCst);
}
