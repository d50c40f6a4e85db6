//! The AArch64 backend of Aigis-enc, `neon`: the NTT, its inverse, the products and the
//! reductions on eight 16-bit coefficients per NEON register (`ntt.rs`); the SHAKE mode's
//! matrix and noise on a two-state Keccak-f\[1600\] (`keccak.rs`), which uses the SHA3
//! extension (EOR3, RAX1, XAR, BCAX) when the CPU has it; centred binomial sampling on byte
//! popcounts (`cbd.rs`); compression with packing (`compress.rs`); the SM3 mode's matrix
//! and noise on a four-lane SM3 (`sm3.rs`). Decompression, parsing and the SM3 mode's
//! other hashes (of keys and ciphertexts) are the portable code. Both the normal and the
//! compact KEM run on it.
//!
//! Each operation checks the CPU once and runs inside one function compiled for the kernel
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
//! Every function here returns `false` (or `None`) on another backend, and the front then
//! runs the portable code.

mod cbd;
mod compress;
mod keccak;
mod ntt;
mod sm3;

use super::arith::{Arith, Matrix};
use super::hash::HashMode;
use super::params::{MAX_K, Params, SEED_BYTES};
use super::poly::Poly;
use super::soft::Soft;
use super::{compact, kem};
use crate::cpu::{Backend, kernel, kernels};

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

/// Which build of the backend runs: `None` when `b` is not `neon` or the CPU lacks NEON,
/// else whether the CPU has SHA3.
fn sha3_for(b: Backend) -> Option<bool> {
    (b == Backend::Neon && kernels::AIGIS_NEON.runs()).then(|| kernels::AIGIS_KECCAK_SHA3.runs())
}

/// The safe entry points over `$scheme` (`kem` or `compact`): each checks the CPU once,
/// then runs the whole operation inside one function compiled for NEON, or for NEON and
/// SHA3.
macro_rules! entry_points {
    ($scheme:ident, $keypair:ident, $encapsulate:ident, $decapsulate:ident) => {
        /// Key generation on NEON; `false` on another backend.
        pub(super) fn $keypair<P: Params>(
            b: Backend,
            mode: HashMode,
            coins: &[u8; 64],
            pk: &mut [u8],
            sk: &mut [u8],
        ) -> bool {
            #[kernel(AIGIS_NEON)]
            fn plain<P: Params>(mode: HashMode, coins: &[u8; 64], pk: &mut [u8], sk: &mut [u8]) {
                $scheme::keypair::<P, Neon<false>>(Neon::<false>::new(), mode, coins, pk, sk)
            }
            #[kernel(AIGIS_KECCAK_SHA3)]
            fn sha3<P: Params>(mode: HashMode, coins: &[u8; 64], pk: &mut [u8], sk: &mut [u8]) {
                $scheme::keypair::<P, Neon<true>>(Neon::<true>::new(), mode, coins, pk, sk)
            }
            match sha3_for(b) {
                None => return false,
                // SAFETY: `sha3_for` checked NEON and SHA3.
                Some(true) => unsafe { sha3::<P>(mode, coins, pk, sk) },
                // SAFETY: `sha3_for` checked NEON.
                Some(false) => unsafe { plain::<P>(mode, coins, pk, sk) },
            }
            true
        }

        /// Encapsulation on NEON; `None` on another backend.
        pub(super) fn $encapsulate<P: Params>(
            b: Backend,
            mode: HashMode,
            pk: &[u8],
            coins: &[u8; 32],
            ct: &mut [u8],
        ) -> Option<[u8; 32]> {
            #[kernel(AIGIS_NEON)]
            fn plain<P: Params>(
                mode: HashMode,
                pk: &[u8],
                coins: &[u8; 32],
                ct: &mut [u8],
            ) -> [u8; 32] {
                $scheme::encapsulate::<P, Neon<false>>(Neon::<false>::new(), mode, pk, coins, ct)
            }
            #[kernel(AIGIS_KECCAK_SHA3)]
            fn sha3<P: Params>(
                mode: HashMode,
                pk: &[u8],
                coins: &[u8; 32],
                ct: &mut [u8],
            ) -> [u8; 32] {
                $scheme::encapsulate::<P, Neon<true>>(Neon::<true>::new(), mode, pk, coins, ct)
            }
            Some(match sha3_for(b)? {
                // SAFETY: `sha3_for` checked NEON and SHA3.
                true => unsafe { sha3::<P>(mode, pk, coins, ct) },
                // SAFETY: `sha3_for` checked NEON.
                false => unsafe { plain::<P>(mode, pk, coins, ct) },
            })
        }

        /// Decapsulation on NEON; `None` on another backend.
        pub(super) fn $decapsulate<P: Params>(
            b: Backend,
            mode: HashMode,
            sk: &[u8],
            ct: &[u8],
        ) -> Option<[u8; 32]> {
            #[kernel(AIGIS_NEON)]
            fn plain<P: Params>(mode: HashMode, sk: &[u8], ct: &[u8]) -> [u8; 32] {
                $scheme::decapsulate::<P, Neon<false>>(Neon::<false>::new(), mode, sk, ct)
            }
            #[kernel(AIGIS_KECCAK_SHA3)]
            fn sha3<P: Params>(mode: HashMode, sk: &[u8], ct: &[u8]) -> [u8; 32] {
                $scheme::decapsulate::<P, Neon<true>>(Neon::<true>::new(), mode, sk, ct)
            }
            Some(match sha3_for(b)? {
                // SAFETY: `sha3_for` checked NEON and SHA3.
                true => unsafe { sha3::<P>(mode, sk, ct) },
                // SAFETY: `sha3_for` checked NEON.
                false => unsafe { plain::<P>(mode, sk, ct) },
            })
        }
    };
}

entry_points!(kem, keypair, encapsulate, decapsulate);
entry_points!(
    compact,
    compact_keypair,
    compact_encapsulate,
    compact_decapsulate
);

/// One function of the scheme on NEON, repeated; `None` on other backends.
#[cfg(feature = "kernel-parts")]
pub(super) fn kernel_part<P: Params>(
    b: Backend,
    mode: HashMode,
    part: super::parts::KernelPart,
    iterations: u32,
) -> Option<u32> {
    use super::parts::{KernelPart, run};
    #[kernel(AIGIS_NEON)]
    fn plain<P: Params>(mode: HashMode, part: KernelPart, iterations: u32) -> u32 {
        run::<P, Neon<false>>(Neon::<false>::new(), mode, part, iterations)
    }
    #[kernel(AIGIS_KECCAK_SHA3)]
    fn sha3<P: Params>(mode: HashMode, part: KernelPart, iterations: u32) -> u32 {
        run::<P, Neon<true>>(Neon::<true>::new(), mode, part, iterations)
    }
    Some(match sha3_for(b)? {
        // SAFETY: `sha3_for` checked NEON and SHA3.
        true => unsafe { sha3::<P>(mode, part, iterations) },
        // SAFETY: `sha3_for` checked NEON.
        false => unsafe { plain::<P>(mode, part, iterations) },
    })
}

#[cfg(test)]
mod tests;
