//! The per-function timing runs ([`super::super::parts`]) on the vector backends: each
//! checks the CPU, then repeats the function inside one function compiled for the
//! backend's features.

use super::avx2::Avx2;
use super::avx512::Avx512;
use super::hash::HashMode;
use super::params::Params;
use crate::aigis::parts::{KernelPart, run};
use crate::cpu::{kernel, kernels};

/// The part on the AVX2 backend; `None` if the CPU cannot run it.
pub(super) fn on_avx2<P: Params>(mode: HashMode, part: KernelPart, iterations: u32) -> Option<u32> {
    #[kernel(AIGIS_AVX2)]
    fn inner<P: Params>(mode: HashMode, part: KernelPart, iterations: u32) -> u32 {
        run::<P, Avx2>(Avx2::new(), mode, part, iterations)
    }
    // SAFETY: the features are checked first.
    kernels::AIGIS_AVX2
        .runs()
        .then(|| unsafe { inner::<P>(mode, part, iterations) })
}

/// The part on the AVX-512 backend; `None` if the CPU cannot run it.
pub(super) fn on_avx512<P: Params>(
    mode: HashMode,
    part: KernelPart,
    iterations: u32,
) -> Option<u32> {
    #[kernel(AIGIS_AVX512)]
    fn inner<P: Params>(mode: HashMode, part: KernelPart, iterations: u32) -> u32 {
        run::<P, Avx512>(Avx512::new(), mode, part, iterations)
    }
    // SAFETY: the features are checked first.
    kernels::AIGIS_AVX512
        .runs()
        .then(|| unsafe { inner::<P>(mode, part, iterations) })
}
