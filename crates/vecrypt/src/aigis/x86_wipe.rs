//! Volatile whole-register zeroing for [`super::wipe`]: 32 bytes per store with AVX2.

use core::arch::x86_64::*;
use core::sync::atomic::{Ordering, compiler_fence};

use zeroize::Zeroize;

use super::poly::Poly;
use crate::cpu;

/// `false` if the CPU lacks AVX2 (the caller then falls back to `zeroize`).
pub fn polys(ps: &mut [Poly]) -> bool {
    if !cpu::features().avx2 {
        return false;
    }
    // SAFETY: AVX2 was checked just above.
    unsafe { polys_avx2(ps) };
    true
}

/// `false` if the CPU lacks AVX2.
pub fn bytes(b: &mut [u8]) -> bool {
    if !cpu::features().avx2 {
        return false;
    }
    // SAFETY: AVX2 was checked just above.
    unsafe { bytes_avx2(b) };
    true
}

#[target_feature(enable = "avx2")]
fn polys_avx2(ps: &mut [Poly]) {
    for p in ps.iter_mut() {
        let base = p.0.as_mut_ptr().cast::<__m256i>();
        for i in 0..p.0.len() / 16 {
            // SAFETY: a `Poly` is 512 bytes aligned to 64, so each of its 16 aligned 32-byte
            // pieces is writable.
            unsafe { core::ptr::write_volatile(base.add(i), _mm256_setzero_si256()) };
        }
    }
    compiler_fence(Ordering::SeqCst);
}

#[target_feature(enable = "avx2")]
fn bytes_avx2(b: &mut [u8]) {
    // SAFETY: every bit pattern is a valid `__m256i`, and `align_to_mut` puts only whole,
    // aligned elements in the middle.
    let (head, middle, tail) = unsafe { b.align_to_mut::<__m256i>() };
    head.zeroize();
    for v in middle.iter_mut() {
        // SAFETY: `v` is an aligned, writable 32-byte element of the slice.
        unsafe { core::ptr::write_volatile(v, _mm256_setzero_si256()) };
    }
    tail.zeroize();
    compiler_fence(Ordering::SeqCst);
}
