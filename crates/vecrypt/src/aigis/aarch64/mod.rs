//! The AArch64 backend of Aigis-enc, `neon`: the NTT, its inverse, the products and the
//! reductions on eight 16-bit coefficients per NEON register (`ntt.rs`); the SHAKE mode's
//! matrix and noise on a two-state Keccak-f\[1600\] (`keccak.rs`), which uses the SHA3
//! extension (EOR3, RAX1, XAR, BCAX) when the CPU has it; centred binomial sampling on byte
//! popcounts (`cbd.rs`); compression with packing (`compress.rs`); the SM3 mode's matrix
//! and noise on a four-lane SM3 (`sm3.rs`). Decompression, parsing and the SM3 mode's
//! other hashes (of keys and ciphertexts) are the portable code. Both the normal and the
//! compact KEM run on it.
//!
//! [`Native`] is what the front makes for each operation: [`Kernels::keyed`] checks the CPU
//! once, and the operation then runs inside one function compiled for the kernel
//! `AIGIS_KECCAK_SHA3` ("neon,sha3") when the CPU has SHA3, else for `AIGIS_NEON` ("neon"):
//! the two differ only in the Keccak word operations.
//!
//! Bounds in instructions: a Keccak-f\[1600\] round on two states is 191 vector instructions
//! on the plain build (which also spills part of the state) and 87 with the SHA3 extension
//! (64 of them EOR3, RAX1, XAR or BCAX). Aigis-enc-2 (k = 3) runs 6 / 10 / 14 transforms
//! (either direction) per keygen / encaps / decaps, k = 3 row products, 15 two-state
//! permutations for the nine matrix entries and about five more for the noise. The llvm-mca
//! estimates per loop and per operation are in `docs/perf/aigis.md`; nothing here has been
//! timed on ARM hardware.
//!
//! On another backend [`Native`]'s entries decline ([`Ran::Declined`], `None`), and the
//! front then runs the portable code.

mod cbd;
mod compress;
mod keccak;
mod ntt;
mod sm3;

use super::arith::{Arith, Matrix};
use super::dispatch::Kernels;
use super::hash::HashMode;
use super::params::{MAX_K, Params, SEED_BYTES};
use super::poly::Poly;
use super::soft::Soft;
use super::{compact, kem};
use crate::cpu::{Backend, Ran, kernel, kernels};

/// The NEON backend; `SHA3` says whether its Keccak uses the SHA3 extension. A value is the
/// proof that the CPU runs it: the only ways to make one are the constructors below, each
/// compiled for its kernel's features.
#[derive(Clone, Copy)]
pub(super) struct Neon<const SHA3: bool>(());

impl Neon<false> {
    /// The backend, inside code compiled for NEON.
    #[kernel(AIGIS_NEON)]
    #[inline]
    fn new() -> Self {
        Neon(())
    }
}

impl Neon<true> {
    /// The backend, inside code compiled for NEON and SHA3.
    #[kernel(AIGIS_KECCAK_SHA3)]
    #[inline]
    fn new() -> Self {
        Neon(())
    }
}

impl<const SHA3: bool> Arith for Neon<SHA3> {
    type Keccak = super::hash::ScalarKeccak;

    #[inline(always)]
    fn keccak(self) -> Self::Keccak {
        super::hash::ScalarKeccak
    }

    #[inline(always)]
    fn ntt(self, p: &mut Poly) {
        // SAFETY: `self` exists, so the CPU runs NEON (see the type).
        unsafe { ntt::ntt(p) }
    }

    #[inline(always)]
    fn invntt(self, p: &mut Poly) {
        // SAFETY: `self` proves NEON, as for `ntt`.
        unsafe { ntt::invntt(p) }
    }

    #[inline(always)]
    fn mul_acc(self, r: &mut Poly, a: &[Poly], b: &[Poly]) {
        // SAFETY: `self` proves NEON, as for `ntt`.
        unsafe { ntt::mul_acc(r, a, b) }
    }

    #[inline(always)]
    fn mul_add(self, acc: &mut Poly, a: &Poly, b: &Poly) {
        // SAFETY: `self` proves NEON, as for `ntt`.
        unsafe { ntt::mul_add(acc, a, b) }
    }

    #[inline(always)]
    fn gen_matrix(
        self,
        mode: HashMode,
        rho: &[u8; SEED_BYTES],
        k: usize,
        transposed: bool,
        a: &mut Matrix,
    ) {
        let (jobs, n) = keccak::matrix_jobs(k, transposed);
        if mode == HashMode::Sm3 {
            // SAFETY: `self` proves NEON, as for `ntt`.
            return unsafe { sm3::gen_entries_sm3(rho, &jobs[..n], a.as_flattened_mut()) };
        }
        // SAFETY: `self` proves NEON, and SHA3 when `SHA3` (see the type).
        unsafe { keccak::gen_entries::<SHA3>(rho, &jobs[..n], a.as_flattened_mut()) }
    }

    #[inline(always)]
    fn gen_row(
        self,
        mode: HashMode,
        rho: &[u8; SEED_BYTES],
        k: usize,
        i: usize,
        transposed: bool,
        row: &mut [Poly; MAX_K],
    ) {
        if mode == HashMode::Sm3 {
            // SAFETY: `self` proves NEON, as for `ntt`.
            return unsafe {
                sm3::gen_entries_sm3(rho, &keccak::row_jobs(i, transposed)[..k], row)
            };
        }
        // SAFETY: as for `gen_matrix`.
        unsafe { keccak::gen_entries::<SHA3>(rho, &keccak::row_jobs(i, transposed)[..k], row) }
    }

    #[inline(always)]
    fn noise(self, mode: HashMode, seed: &[u8; SEED_BYTES], etas: &[usize], out: &mut [Poly]) {
        match mode {
            // SAFETY: as for `gen_matrix`.
            HashMode::Shake => unsafe { keccak::noise_shake::<SHA3>(seed, etas, out) },
            // SAFETY: `self` proves NEON, as for `ntt`.
            HashMode::Sm3 => unsafe { sm3::noise_sm3(seed, etas, out) },
        }
    }

    #[inline(always)]
    fn freeze(self, p: &mut Poly) {
        // SAFETY: `self` proves NEON, as for `ntt`.
        unsafe { ntt::freeze(p) }
    }

    #[inline(always)]
    fn compress(self, out: &mut [u8], p: &Poly, d: usize) {
        // SAFETY: `self` proves NEON, as for `ntt`.
        unsafe { compress::compress(out, p, d) }
    }

    #[inline(always)]
    fn decompress(self, p: &mut Poly, bytes: &[u8], d: usize) {
        Soft.decompress(p, bytes, d)
    }
}

/// A build of the backend an operation runs, decided by [`Native::keyed`].
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Engine {
    /// None: the portable code.
    #[default]
    Portable,
    /// NEON with the plain Keccak ([`kernels::AIGIS_NEON`]).
    Neon,
    /// NEON with the SHA3 extension's Keccak ([`kernels::AIGIS_KECCAK_SHA3`]).
    NeonSha3,
}

/// The AArch64 kernels of one operation. Only [`Kernels::keyed`] makes an engine other than
/// [`Engine::Portable`], and only for a kernel this CPU runs.
#[derive(Clone, Default)]
pub(super) struct Native {
    engine: Engine,
}

/// The entry points over `$scheme` (`kem` or `compact`) in the module `$name`: each runs
/// the whole operation inside one function compiled for `$kernel`, the NEON build whose
/// Keccak uses SHA3 when `$sha3`, to be called only on a CPU that runs it.
macro_rules! entry_points {
    ($name:ident, $scheme:ident, $kernel:ident, $sha3:literal) => {
        mod $name {
            use super::{HashMode, Neon, Params, $scheme};
            use crate::cpu::kernel;

            /// Key generation.
            #[kernel($kernel)]
            pub(super) fn keypair<P: Params>(
                mode: HashMode,
                coins: &[u8; 64],
                pk: &mut [u8],
                sk: &mut [u8],
            ) {
                $scheme::keypair::<P, Neon<$sha3>>(Neon::<$sha3>::new(), mode, coins, pk, sk)
            }

            /// Encapsulation.
            #[kernel($kernel)]
            pub(super) fn encapsulate<P: Params>(
                mode: HashMode,
                pk: &[u8],
                coins: &[u8; 32],
                ct: &mut [u8],
            ) -> [u8; 32] {
                $scheme::encapsulate::<P, Neon<$sha3>>(Neon::<$sha3>::new(), mode, pk, coins, ct)
            }

            /// Decapsulation.
            #[kernel($kernel)]
            pub(super) fn decapsulate<P: Params>(mode: HashMode, sk: &[u8], ct: &[u8]) -> [u8; 32] {
                $scheme::decapsulate::<P, Neon<$sha3>>(Neon::<$sha3>::new(), mode, sk, ct)
            }
        }
    };
}

entry_points!(kem_plain, kem, AIGIS_NEON, false);
entry_points!(kem_sha3, kem, AIGIS_KECCAK_SHA3, true);
entry_points!(compact_plain, compact, AIGIS_NEON, false);
entry_points!(compact_sha3, compact, AIGIS_KECCAK_SHA3, true);

/// One function of the scheme ([`super::parts::run`]) on the plain NEON build.
#[cfg(feature = "kernel-parts")]
#[kernel(AIGIS_NEON)]
fn part_plain<P: Params>(mode: HashMode, part: super::parts::KernelPart, iterations: u32) -> u32 {
    super::parts::run::<P, Neon<false>>(Neon::<false>::new(), mode, part, iterations)
}

/// One function of the scheme on the SHA3 build.
#[cfg(feature = "kernel-parts")]
#[kernel(AIGIS_KECCAK_SHA3)]
fn part_sha3<P: Params>(mode: HashMode, part: super::parts::KernelPart, iterations: u32) -> u32 {
    super::parts::run::<P, Neon<true>>(Neon::<true>::new(), mode, part, iterations)
}

impl Kernels for Native {
    fn keyed(backend: Backend) -> Self {
        let engine = match backend {
            Backend::Neon if kernels::AIGIS_NEON.runs() => {
                if kernels::AIGIS_KECCAK_SHA3.runs() {
                    Engine::NeonSha3
                } else {
                    Engine::Neon
                }
            }
            _ => Engine::Portable,
        };
        Self { engine }
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
                Engine::NeonSha3 => kem_sha3::keypair::<P>(mode, coins, pk, sk),
                Engine::Neon => kem_plain::keypair::<P>(mode, coins, pk, sk),
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
                Engine::NeonSha3 => Some(kem_sha3::encapsulate::<P>(mode, pk, coins, ct)),
                Engine::Neon => Some(kem_plain::encapsulate::<P>(mode, pk, coins, ct)),
                Engine::Portable => None,
            }
        }
    }

    fn decapsulate<P: Params>(&self, mode: HashMode, sk: &[u8], ct: &[u8]) -> Option<[u8; 32]> {
        // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
        unsafe {
            match self.engine {
                Engine::NeonSha3 => Some(kem_sha3::decapsulate::<P>(mode, sk, ct)),
                Engine::Neon => Some(kem_plain::decapsulate::<P>(mode, sk, ct)),
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
        // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
        unsafe {
            match self.engine {
                Engine::NeonSha3 => compact_sha3::keypair::<P>(mode, coins, pk, sk),
                Engine::Neon => compact_plain::keypair::<P>(mode, coins, pk, sk),
                Engine::Portable => return Ran::Declined,
            }
        }
        Ran::Done
    }

    fn compact_encapsulate<P: Params>(
        &self,
        mode: HashMode,
        pk: &[u8],
        coins: &[u8; 32],
        ct: &mut [u8],
    ) -> Option<[u8; 32]> {
        // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
        unsafe {
            match self.engine {
                Engine::NeonSha3 => Some(compact_sha3::encapsulate::<P>(mode, pk, coins, ct)),
                Engine::Neon => Some(compact_plain::encapsulate::<P>(mode, pk, coins, ct)),
                Engine::Portable => None,
            }
        }
    }

    fn compact_decapsulate<P: Params>(
        &self,
        mode: HashMode,
        sk: &[u8],
        ct: &[u8],
    ) -> Option<[u8; 32]> {
        // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
        unsafe {
            match self.engine {
                Engine::NeonSha3 => Some(compact_sha3::decapsulate::<P>(mode, sk, ct)),
                Engine::Neon => Some(compact_plain::decapsulate::<P>(mode, sk, ct)),
                Engine::Portable => None,
            }
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
                Engine::NeonSha3 => Some(part_sha3::<P>(mode, part, iterations)),
                Engine::Neon => Some(part_plain::<P>(mode, part, iterations)),
                Engine::Portable => None,
            }
        }
    }
}

#[cfg(test)]
mod tests;
