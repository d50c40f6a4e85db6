//! The Cortex-M4 kernels of Aigis-enc: the NTT, its inverse and the pointwise products on
//! the DSP instructions of ARMv7E-M (`dsp.rs`), and Keccak-f\[1600\] in Thumb-2 assembly on
//! bit-interleaved lanes (`keccak.rs`), which every SHAKE and SHA-3 sponge of the library
//! uses on Thumb-2 cores, whatever the backend; everything else (sampling, compression) is
//! the portable code. Both the normal and the compact KEM run on them.
//!
//! Measured on QEMU's MPS2-AN386 board (instructions, not cycles; `embedded/m4`), for
//! Aigis-enc-2 in SHAKE mode:
//!
//! | function | portable | DSP kernels and assembly Keccak |
//! |---|---|---|
//! | Keccak-f\[1600\] | 14,528 | 7,708 |
//! | NTT | 36,692 | 9,056 |
//! | inverse NTT | 37,996 | 10,408 |
//! | one row of products (k = 3) | 11,808 | 5,400 |
//!
//! Whole compact operations through the public API, the `soft` backend (whose sponges use
//! the assembly Keccak too, on every Thumb-2 core) against `arm-dsp`: key generation
//! 786,000 → 620,280, encapsulation 1,518,680 → 955,520, decapsulation 1,646,320 →
//! 971,960. The rest of each operation is mostly Keccak (the matrix and the noise).
//!
//! [`Native`] is what the front makes for each operation: [`Kernels::keyed`] checks the CPU
//! once for the `arm-dsp` backend. On another backend its entries decline
//! ([`Ran::Declined`], `None`), and the front then runs the portable code.

mod dsp;
#[cfg(vecrypt_arm_thumb2)]
pub(super) mod keccak;

// The portable code the kernels build on, under the names they use.
use super::{arith, compact, compress, hash, kem, ntt, params, poly, reduce, soft};

use arith::{Arith, Matrix};
use hash::HashMode;
use params::{MAX_K, Params, SEED_BYTES};
use poly::Poly;
use soft::Soft;

use super::dispatch::Kernels;
use crate::cpu::{Backend, Ran, kernels};

/// The DSP backend. Made only by [`Native::keyed`], after the kernel table's check of the
/// CPU.
#[derive(Clone, Copy)]
pub(super) struct Dsp(());

impl Arith for Dsp {
    type Keccak = <Soft as Arith>::Keccak;

    #[inline(always)]
    fn keccak(self) -> Self::Keccak {
        Soft.keccak()
    }

    #[inline(always)]
    fn ntt(self, p: &mut Poly) {
        dsp::ntt(p);
    }

    #[inline(always)]
    fn invntt(self, p: &mut Poly) {
        dsp::invntt(p);
    }

    #[inline(always)]
    fn mul_acc(self, r: &mut Poly, a: &[Poly], b: &[Poly]) {
        dsp::mul_acc(r, a, b);
    }

    #[inline(always)]
    fn mul_add(self, acc: &mut Poly, a: &Poly, b: &Poly) {
        dsp::mul_add(acc, a, b);
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
        Soft.gen_matrix(mode, rho, k, transposed, a);
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
        Soft.gen_row(mode, rho, k, i, transposed, row);
    }

    #[inline(always)]
    fn noise(self, mode: HashMode, seed: &[u8; SEED_BYTES], etas: &[usize], out: &mut [Poly]) {
        Soft.noise(mode, seed, etas, out);
    }

    #[inline(always)]
    fn compress(self, out: &mut [u8], p: &Poly, d: usize) {
        compress::compress_poly(out, p, d);
    }

    #[inline(always)]
    fn decompress(self, p: &mut Poly, bytes: &[u8], d: usize) {
        compress::decompress_poly(p, bytes, d);
    }
}

/// The kernels an operation runs, decided by [`Native::keyed`].
#[derive(Clone, Copy, Default)]
enum Engine {
    /// None: the portable code.
    #[default]
    Portable,
    /// The DSP kernels ([`kernels::AIGIS_DSP`]), with the value that proves the CPU runs
    /// them.
    Dsp(Dsp),
}

/// The Cortex-M4 kernels of one operation. Only [`Kernels::keyed`] makes an engine other
/// than [`Engine::Portable`], and only when this CPU runs the DSP kernels.
#[derive(Clone, Default)]
pub(super) struct Native {
    engine: Engine,
}

impl Kernels for Native {
    fn keyed(backend: Backend) -> Self {
        let engine = match backend {
            Backend::ArmDsp if kernels::AIGIS_DSP.runs() => Engine::Dsp(Dsp(())),
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
        match self.engine {
            Engine::Dsp(a) => {
                kem::keypair::<P, Dsp>(a, mode, coins, pk, sk);
                Ran::Done
            }
            Engine::Portable => Ran::Declined,
        }
    }

    fn encapsulate<P: Params>(
        &self,
        mode: HashMode,
        pk: &[u8],
        coins: &[u8; 32],
        ct: &mut [u8],
    ) -> Option<[u8; 32]> {
        match self.engine {
            Engine::Dsp(a) => Some(kem::encapsulate::<P, Dsp>(a, mode, pk, coins, ct)),
            Engine::Portable => None,
        }
    }

    fn decapsulate<P: Params>(&self, mode: HashMode, sk: &[u8], ct: &[u8]) -> Option<[u8; 32]> {
        match self.engine {
            Engine::Dsp(a) => Some(kem::decapsulate::<P, Dsp>(a, mode, sk, ct)),
            Engine::Portable => None,
        }
    }

    #[inline(never)]
    fn compact_keypair<P: Params>(
        &self,
        mode: HashMode,
        coins: &[u8; 64],
        pk: &mut [u8],
        sk: &mut [u8],
    ) -> Ran {
        match self.engine {
            Engine::Dsp(a) => {
                compact::keypair::<P, Dsp>(a, mode, coins, pk, sk);
                Ran::Done
            }
            Engine::Portable => Ran::Declined,
        }
    }

    #[inline(never)]
    fn compact_encapsulate<P: Params>(
        &self,
        mode: HashMode,
        pk: &[u8],
        coins: &[u8; 32],
        ct: &mut [u8],
    ) -> Option<[u8; 32]> {
        match self.engine {
            Engine::Dsp(a) => Some(compact::encapsulate::<P, Dsp>(a, mode, pk, coins, ct)),
            Engine::Portable => None,
        }
    }

    #[inline(never)]
    fn compact_decapsulate<P: Params>(
        &self,
        mode: HashMode,
        sk: &[u8],
        ct: &[u8],
    ) -> Option<[u8; 32]> {
        match self.engine {
            Engine::Dsp(a) => Some(compact::decapsulate::<P, Dsp>(a, mode, sk, ct)),
            Engine::Portable => None,
        }
    }

    #[cfg(feature = "kernel-parts")]
    fn kernel_part<P: Params>(
        &self,
        mode: HashMode,
        part: super::parts::KernelPart,
        iterations: u32,
    ) -> Option<u32> {
        match self.engine {
            Engine::Dsp(a) => Some(super::parts::run::<P, Dsp>(a, mode, part, iterations)),
            Engine::Portable => None,
        }
    }
}
