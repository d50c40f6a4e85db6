//! The x86-64 kernels of Aigis-enc and the choice among them.
//!
//! - `avx2/`: the NTT, products, noise, compression and lane sampling on 256-bit
//!   registers (`ntt.rs`, `cbd.rs`, `compress.rs`, `lanes.rs`), and the entry points
//!   of the AVX2 backend in its `mod.rs` (the whole KEM and the compact one);
//! - `avx512.rs`, `avx512_ntt.rs`: the AVX-512 backend's NTT and products on 512-bit
//!   registers, VBMI and VBMI2 parsing and unpacking, over the AVX2 code for the rest;
//! - `keccak.rs`: Keccak-f\[1600\] on four and eight lanes; `sm3.rs`: SM3 on eight lanes,
//!   `sm3_x16.rs` on sixteen;
//! - `stack.rs`: the compact mode's stack measurement, for its tests.
//!
//! [`Native`] is what the front makes for each operation: the kernels its backend runs on
//! this CPU, decided once in [`Kernels::keyed`] with the kernel table's `runs()`. Its entries
//! decline ([`Ran::Declined`], `None`) on the portable engine, and the front then runs the
//! portable code; every unsafe call below relies on that decision.

mod avx2;
mod avx512;
mod avx512_ntt;
mod keccak;
#[cfg(feature = "kernel-parts")]
mod parts;
mod sm3;
mod sm3_x16;
#[cfg(test)]
pub(super) mod stack;

// The portable code the kernels build on, under the names they use.
use super::{arith, cbd, compact, compress, hash, kem, ntt, params, poly, reduce, sampling, soft};

use super::dispatch::Kernels;
use super::hash::HashMode;
use super::params::Params;
use crate::cpu::{Backend, Ran, kernels};

/// A kernel an operation runs, decided by [`Native::keyed`].
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Engine {
    /// None: the portable code.
    #[default]
    Portable,
    /// The AVX2 backend ([`kernels::AIGIS_AVX2`]).
    Avx2,
    /// The AVX-512 backend ([`kernels::AIGIS_AVX512`]).
    Avx512,
}

/// The x86 kernels of one operation. Only [`Kernels::keyed`] makes an engine other than
/// [`Engine::Portable`], and only for a kernel this CPU runs.
#[derive(Clone, Default)]
pub(super) struct Native {
    /// The kernels of the normal KEM (and of the per-function runs).
    engine: Engine,
    /// The kernels of the compact KEM: the vector NTT and products of AVX2 on both vector
    /// backends (it generates one matrix entry at a time, so wide Keccak has nothing to
    /// batch); never [`Engine::Avx512`].
    compact: Engine,
}

impl Kernels for Native {
    fn keyed(backend: Backend) -> Self {
        let engine = match backend {
            Backend::Avx512 if kernels::AIGIS_AVX512.runs() => Engine::Avx512,
            Backend::Avx2 if kernels::AIGIS_AVX2.runs() => Engine::Avx2,
            _ => Engine::Portable,
        };
        let compact = match backend {
            Backend::Avx2 | Backend::Avx512 if kernels::AIGIS_AVX2.runs() => Engine::Avx2,
            _ => Engine::Portable,
        };
        Self { engine, compact }
    }

    fn keypair<P: Params>(
        &self,
        mode: HashMode,
        coins: &[u8; 64],
        pk: &mut [u8],
        sk: &mut [u8],
    ) -> Ran {
        // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
        unsafe {
            match self.engine {
                Engine::Avx512 => avx512::keypair::<P>(mode, coins, pk, sk),
                Engine::Avx2 => avx2::keypair::<P>(mode, coins, pk, sk),
                Engine::Portable => return Ran::Declined,
            }
        }
        Ran::Done
    }

    fn encapsulate<P: Params>(
        &self,
        mode: HashMode,
        pk: &[u8],
        coins: &[u8; 32],
        ct: &mut [u8],
    ) -> Option<[u8; 32]> {
        // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
        unsafe {
            match self.engine {
                Engine::Avx512 => Some(avx512::encapsulate::<P>(mode, pk, coins, ct)),
                Engine::Avx2 => Some(avx2::encapsulate::<P>(mode, pk, coins, ct)),
                Engine::Portable => None,
            }
        }
    }

    fn decapsulate<P: Params>(&self, mode: HashMode, sk: &[u8], ct: &[u8]) -> Option<[u8; 32]> {
        // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
        unsafe {
            match self.engine {
                Engine::Avx512 => Some(avx512::decapsulate::<P>(mode, sk, ct)),
                Engine::Avx2 => Some(avx2::decapsulate::<P>(mode, sk, ct)),
                Engine::Portable => None,
            }
        }
    }

    fn compact_keypair<P: Params>(
        &self,
        mode: HashMode,
        coins: &[u8; 64],
        pk: &mut [u8],
        sk: &mut [u8],
    ) -> Ran {
        match self.compact {
            Engine::Avx2 => {
                // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
                unsafe { avx2::compact_keypair::<P>(mode, coins, pk, sk) };
                Ran::Done
            }
            Engine::Avx512 | Engine::Portable => Ran::Declined,
        }
    }

    fn compact_encapsulate<P: Params>(
        &self,
        mode: HashMode,
        pk: &[u8],
        coins: &[u8; 32],
        ct: &mut [u8],
    ) -> Option<[u8; 32]> {
        match self.compact {
            // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
            Engine::Avx2 => Some(unsafe { avx2::compact_encapsulate::<P>(mode, pk, coins, ct) }),
            Engine::Avx512 | Engine::Portable => None,
        }
    }

    fn compact_decapsulate<P: Params>(
        &self,
        mode: HashMode,
        sk: &[u8],
        ct: &[u8],
    ) -> Option<[u8; 32]> {
        match self.compact {
            // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
            Engine::Avx2 => Some(unsafe { avx2::compact_decapsulate::<P>(mode, sk, ct) }),
            Engine::Avx512 | Engine::Portable => None,
        }
    }

    #[cfg(feature = "kernel-parts")]
    fn kernel_part<P: Params>(
        &self,
        mode: HashMode,
        part: super::parts::KernelPart,
        iterations: u32,
    ) -> Option<u32> {
        // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
        unsafe {
            match self.engine {
                Engine::Avx512 => Some(parts::on_avx512::<P>(mode, part, iterations)),
                Engine::Avx2 => Some(parts::on_avx2::<P>(mode, part, iterations)),
                Engine::Portable => None,
            }
        }
    }

    #[cfg(feature = "kernel-parts")]
    fn keccak_x8(states: &mut [[u64; 25]; 8], iterations: u32) -> Ran {
        parts::keccak_x8(states, iterations)
    }

    #[cfg(feature = "kernel-parts")]
    fn keccak_x4(states: &mut [[u64; 25]; 4], iterations: u32) -> Ran {
        parts::keccak_x4(states, iterations)
    }
}

/// Sorts `v` by `key`, largest first, keeping equal keys in their order (insertion sort: the
/// lists here are a few jobs long, and the order of equal jobs decides how evenly the lanes
/// of a multi-lane permutation are loaded).
pub(crate) fn sort_widest_first<T: Copy>(v: &mut [T], key: impl Fn(&T) -> usize) {
    for i in 1..v.len() {
        let x = v[i];
        let mut j = i;
        while j > 0 && key(&v[j - 1]) < key(&x) {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = x;
    }
}
