//! The AVX512 backend: entry points compiled for AVX512.

use super::arith::{Arith, Matrix};
use super::hash::HashMode;
use super::kem;
use super::params::{MAX_K, Params, SEED_BYTES};
use super::poly::Poly;
use super::soft::Soft;
use crate::cpu;

fn runs() -> bool {
    cpu::features().avx512_bw_vl()
}

/// The AVX512 backend.
pub struct Backend;

impl Arith for Backend {
    #[inline(always)]
    fn ntt(p: &mut Poly) {
        Soft::ntt(p)
    }
    #[inline(always)]
    fn invntt(p: &mut Poly) {
        Soft::invntt(p)
    }
    #[inline(always)]
    fn mul_acc(r: &mut Poly, a: &[Poly], b: &[Poly]) {
        Soft::mul_acc(r, a, b)
    }
    #[inline(always)]
    fn gen_matrix(
        mode: HashMode,
        rho: &[u8; SEED_BYTES],
        k: usize,
        transposed: bool,
        a: &mut Matrix,
    ) {
        Soft::gen_matrix(mode, rho, k, transposed, a)
    }
    #[inline(always)]
    fn gen_row(
        mode: HashMode,
        rho: &[u8; SEED_BYTES],
        k: usize,
        i: usize,
        transposed: bool,
        row: &mut [Poly; MAX_K],
    ) {
        Soft::gen_row(mode, rho, k, i, transposed, row)
    }
    #[inline(always)]
    fn noise(mode: HashMode, seed: &[u8; SEED_BYTES], etas: &[usize], out: &mut [Poly]) {
        Soft::noise(mode, seed, etas, out)
    }
    #[inline(always)]
    fn compress(out: &mut [u8], p: &Poly, d: usize) {
        Soft::compress(out, p, d)
    }
    #[inline(always)]
    fn decompress(p: &mut Poly, bytes: &[u8], d: usize) {
        Soft::decompress(p, bytes, d)
    }
}

#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl")]
fn keypair_tf<P: Params>(mode: HashMode, coins: &[u8; 64], pk: &mut [u8], sk: &mut [u8]) {
    kem::keypair::<P, Backend>(mode, coins, pk, sk)
}

#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl")]
fn encapsulate_tf<P: Params>(
    mode: HashMode,
    pk: &[u8],
    coins: &[u8; 32],
    ct: &mut [u8],
) -> [u8; 32] {
    kem::encapsulate::<P, Backend>(mode, pk, coins, ct)
}

#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl")]
fn decapsulate_tf<P: Params>(mode: HashMode, sk: &[u8], ct: &[u8]) -> [u8; 32] {
    kem::decapsulate::<P, Backend>(mode, sk, ct)
}

/// Key generation on this backend; `false` if the CPU cannot run it.
pub fn keypair<P: Params>(mode: HashMode, coins: &[u8; 64], pk: &mut [u8], sk: &mut [u8]) -> bool {
    if !runs() {
        return false;
    }
    // SAFETY: the CPU features the function is compiled for were checked just above.
    unsafe { keypair_tf::<P>(mode, coins, pk, sk) };
    true
}

/// Encapsulation on this backend; `None` if the CPU cannot run it.
pub fn encapsulate<P: Params>(
    mode: HashMode,
    pk: &[u8],
    coins: &[u8; 32],
    ct: &mut [u8],
) -> Option<[u8; 32]> {
    // SAFETY: the CPU features the function is compiled for are checked first.
    runs().then(|| unsafe { encapsulate_tf::<P>(mode, pk, coins, ct) })
}

/// Decapsulation on this backend; `None` if the CPU cannot run it.
pub fn decapsulate<P: Params>(mode: HashMode, sk: &[u8], ct: &[u8]) -> Option<[u8; 32]> {
    // SAFETY: the CPU features the function is compiled for are checked first.
    runs().then(|| unsafe { decapsulate_tf::<P>(mode, sk, ct) })
}
