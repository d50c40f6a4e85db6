//! The AVX-512 backend: the AVX2 polynomial kernels, and eight-way Keccak (512-bit lanes,
//! three-input logic for theta and chi, native rotations) for the matrix and the noise,
//! which is where the wider registers pay: one permutation advances 8 streams.

use super::arith::{Arith, Matrix};
use super::avx2::{self, lane_sampling, matrix_jobs, row_jobs};
use super::cbd::{cbd, noise_bytes};
use super::hash::{HashMode, SHAKE128_RATE, SHAKE256_RATE};
use super::kem;
use super::params::{MAX_K, Params, SEED_BYTES};
use super::poly::Poly;
use super::sampling::{FIRST_SQUEEZE_MAX, parse_exact, parse_fast};
use super::soft::Soft;
use super::x86_keccak::ShakeLanes;
use crate::cpu;

lane_sampling!(8, "avx2,avx512f");

/// The AVX-512 backend.
pub struct Avx512;

impl Arith for Avx512 {
    #[inline(always)]
    fn ntt(p: &mut Poly) {
        // SAFETY: `Avx512` is only used inside the entry points below, after the CPU check
        // (which includes AVX2).
        unsafe { avx2::ntt(p) }
    }

    #[inline(always)]
    fn invntt(p: &mut Poly) {
        // SAFETY: as for `ntt`.
        unsafe { avx2::invntt(p) }
    }

    #[inline(always)]
    fn mul_acc(r: &mut Poly, a: &[Poly], b: &[Poly]) {
        // SAFETY: as for `ntt`.
        unsafe { avx2::mul_acc(r, a, b) }
    }

    #[inline(always)]
    fn gen_matrix(
        mode: HashMode,
        rho: &[u8; SEED_BYTES],
        k: usize,
        transposed: bool,
        a: &mut Matrix,
    ) {
        let (jobs, n) = matrix_jobs(k, transposed);
        if mode == HashMode::Sm3 {
            // SAFETY: as for `ntt`.
            return unsafe { avx2::gen_entries_sm3(rho, &jobs[..n], a.as_flattened_mut()) };
        }
        // A remainder of at most four entries goes through the four-lane Keccak rather
        // than a mostly idle eight-lane one (k = 3: 8 + 1 entries).
        let split = if n % 8 <= 4 { n - n % 8 } else { n };
        let flat = a.as_flattened_mut();
        // SAFETY: as for `ntt`.
        unsafe {
            gen_entries(rho, &jobs[..split], flat);
            avx2::gen_entries(rho, &jobs[split..n], flat);
        }
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
        if mode == HashMode::Sm3 {
            return Soft::gen_row(mode, rho, k, i, transposed, row);
        }
        // SAFETY: as for `ntt`.
        unsafe { avx2::gen_entries(rho, &row_jobs(k, i, transposed)[..k], row) }
    }

    #[inline(always)]
    fn noise(mode: HashMode, seed: &[u8; SEED_BYTES], etas: &[usize], out: &mut [Poly]) {
        match mode {
            // SAFETY: as for `ntt`.
            HashMode::Shake => unsafe { noise_shake(seed, etas, out) },
            // SAFETY: as for `ntt`.
            HashMode::Sm3 => unsafe { avx2::noise_sm3(seed, etas, out) },
        }
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

fn runs() -> bool {
    let f = cpu::features();
    f.avx2 && f.avx512_bw_vl()
}

#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl")]
fn keypair_tf<P: Params>(mode: HashMode, coins: &[u8; 64], pk: &mut [u8], sk: &mut [u8]) {
    kem::keypair::<P, Avx512>(mode, coins, pk, sk)
}

#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl")]
fn encapsulate_tf<P: Params>(
    mode: HashMode,
    pk: &[u8],
    coins: &[u8; 32],
    ct: &mut [u8],
) -> [u8; 32] {
    kem::encapsulate::<P, Avx512>(mode, pk, coins, ct)
}

#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl")]
fn decapsulate_tf<P: Params>(mode: HashMode, sk: &[u8], ct: &[u8]) -> [u8; 32] {
    kem::decapsulate::<P, Avx512>(mode, sk, ct)
}

/// Key generation on AVX-512; `false` if the CPU cannot run it.
pub fn keypair<P: Params>(mode: HashMode, coins: &[u8; 64], pk: &mut [u8], sk: &mut [u8]) -> bool {
    if !runs() {
        return false;
    }
    // SAFETY: the features were checked just above.
    unsafe { keypair_tf::<P>(mode, coins, pk, sk) };
    true
}

/// Encapsulation on AVX-512; `None` if the CPU cannot run it.
pub fn encapsulate<P: Params>(
    mode: HashMode,
    pk: &[u8],
    coins: &[u8; 32],
    ct: &mut [u8],
) -> Option<[u8; 32]> {
    // SAFETY: the features are checked first.
    runs().then(|| unsafe { encapsulate_tf::<P>(mode, pk, coins, ct) })
}

/// Decapsulation on AVX-512; `None` if the CPU cannot run it.
pub fn decapsulate<P: Params>(mode: HashMode, sk: &[u8], ct: &[u8]) -> Option<[u8; 32]> {
    // SAFETY: the features are checked first.
    runs().then(|| unsafe { decapsulate_tf::<P>(mode, sk, ct) })
}
