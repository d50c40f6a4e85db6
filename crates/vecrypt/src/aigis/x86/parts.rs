//! The per-function timing runs ([`super::super::parts`]) on the vector backends: each
//! repeats the function inside one function compiled for the backend's features, to be
//! called only on a CPU that runs them (`super::Native` decides).

use super::avx2::Avx2;
use super::avx512::Avx512;
use super::hash::HashMode;
use super::params::Params;
use crate::aigis::parts::{KernelPart, run};
use crate::cpu::{Ran, checked, kernel, kernels};

/// The part on the AVX2 backend.
#[kernel(AIGIS_AVX2)]
pub(super) fn on_avx2<P: Params>(mode: HashMode, part: KernelPart, iterations: u32) -> u32 {
    run::<P, Avx2>(Avx2::new(), mode, part, iterations)
}

/// The part on the AVX-512 backend.
#[kernel(AIGIS_AVX512)]
pub(super) fn on_avx512<P: Params>(mode: HashMode, part: KernelPart, iterations: u32) -> u32 {
    run::<P, Avx512>(Avx512::new(), mode, part, iterations)
}

/// Keccak-f\[1600\] on eight states at once (AVX-512, the SHAKE lanes' permutation)
/// `iterations` times on `states`; declined, doing nothing, if the CPU cannot run it.
pub(super) fn keccak_x8(states: &mut [[u64; 25]; 8], iterations: u32) -> Ran {
    use core::arch::x86_64::{__m512i, _mm512_loadu_si512, _mm512_storeu_si512};
    #[kernel(AIGIS_KECCAK_AVX512F)]
    fn inner(states: &mut [[u64; 25]; 8], iterations: u32) {
        // Lane `i` of register `w` is word `w` of state `i`.
        let mut v: [__m512i; 25] = core::array::from_fn(|w| {
            let words: [u64; 8] = core::array::from_fn(|i| states[i][w]);
            // SAFETY: `words` is 64 bytes; no alignment needed.
            unsafe { _mm512_loadu_si512(words.as_ptr().cast()) }
        });
        for _ in 0..iterations {
            super::keccak::f1600_x8(core::hint::black_box(&mut v));
        }
        for (w, r) in v.iter().enumerate() {
            let mut words = [0u64; 8];
            // SAFETY: `words` is 64 bytes; no alignment needed.
            unsafe { _mm512_storeu_si512(words.as_mut_ptr().cast(), *r) };
            for (i, s) in states.iter_mut().enumerate() {
                s[w] = words[i];
            }
        }
    }
    checked!(kernels::AIGIS_KECCAK_AVX512F => {
        // SAFETY: `checked!` runs this only on a CPU that runs AIGIS_KECCAK_AVX512F, the
        // kernel's features.
        unsafe { inner(states, iterations) }
    })
}

/// Keccak-f\[1600\] on four states at once (AVX2, the SHAKE lanes' four-lane permutation)
/// `iterations` times on `states`; declined, doing nothing, if the CPU cannot run it.
pub(super) fn keccak_x4(states: &mut [[u64; 25]; 4], iterations: u32) -> Ran {
    use core::arch::x86_64::{__m256i, _mm256_loadu_si256, _mm256_storeu_si256};
    #[kernel(AIGIS_KECCAK_AVX2)]
    fn inner(states: &mut [[u64; 25]; 4], iterations: u32) {
        // Lane `i` of register `w` is word `w` of state `i`.
        let mut v: [__m256i; 25] = core::array::from_fn(|w| {
            let words: [u64; 4] = core::array::from_fn(|i| states[i][w]);
            // SAFETY: `words` is 32 bytes; no alignment needed.
            unsafe { _mm256_loadu_si256(words.as_ptr().cast()) }
        });
        for _ in 0..iterations {
            super::keccak::f1600_x4(core::hint::black_box(&mut v));
        }
        for (w, r) in v.iter().enumerate() {
            let mut words = [0u64; 4];
            // SAFETY: `words` is 32 bytes; no alignment needed.
            unsafe { _mm256_storeu_si256(words.as_mut_ptr().cast(), *r) };
            for (i, s) in states.iter_mut().enumerate() {
                s[w] = words[i];
            }
        }
    }
    checked!(kernels::AIGIS_KECCAK_AVX2 => {
        // SAFETY: `checked!` runs this only on a CPU that runs AIGIS_KECCAK_AVX2, the
        // kernel's features.
        unsafe { inner(states, iterations) }
    })
}
