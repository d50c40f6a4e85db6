//! The AVX2 backend: NTT, inverse NTT, products and reductions on 16 coefficients per
//! register, and four-way Keccak for the matrix and the noise.
//!
//! The NTT layers with butterflies 16 or more coefficients apart pair whole registers. The
//! last four layers (distances 8, 4, 2, 1) pair lanes inside one register: the register and
//! a lane-swapped copy are blended into "a" and "b" operands, so one Montgomery product
//! serves both halves of every butterfly; the twiddles come from per-lane tables.
//!
//! One file per stage, named as in the portable and AArch64 code: `ntt.rs`, `cbd.rs`,
//! `compress.rs`, `lanes.rs` (matrix and noise sampling over Keccak and SM3 lanes); this
//! file holds the backend and its entry points. Every function is compiled for AVX2 and only
//! reached from those entry points, which the x86 `Native` calls only on a CPU that runs
//! them.

use core::arch::x86_64::*;

use super::arith::{Arith, Matrix};
use super::cbd::{cbd, noise_bytes};
use super::compress::magic;
use super::hash::{HashMode, SHAKE128_RATE, SHAKE256_RATE, SM3_RATE};
use super::keccak::ShakeLanes;
use super::ntt::{INV_N_MONT, ZETAS};
use super::params::{MAX_K, N, Params, Q, SEED_BYTES};
use super::poly::Poly;
use super::reduce::{QINV, R2_MOD_Q};
use super::sampling::{FIRST_SQUEEZE_MAX, parse_exact, parse_fast};
use super::sm3;
use super::soft::Soft;
use super::{compact, kem};
use crate::cpu::kernel;

mod cbd;
mod compress;
mod lanes;
mod ntt;

pub(crate) use cbd::*;
pub(crate) use compress::*;
pub(crate) use lanes::*;
pub(crate) use ntt::*;

/// The AVX2 backend. A value is the proof that the CPU runs it: the only way to make one is
/// [`Avx2::new`], which is compiled for the backend's features, so the compiler lets only
/// code with those features (or an `unsafe` block after the CPU check) call it.
#[derive(Clone, Copy)]
pub struct Avx2(());

impl Avx2 {
    /// The backend, inside code compiled for its features.
    #[kernel(AIGIS_AVX2)]
    #[inline]
    pub fn new() -> Self {
        Avx2(())
    }
}

impl Arith for Avx2 {
    type Keccak = super::hash::ScalarKeccak;

    #[inline(always)]
    fn keccak(self) -> Self::Keccak {
        super::hash::ScalarKeccak
    }

    #[inline(always)]
    fn ntt(self, p: &mut Poly) {
        // SAFETY: `self` exists, so the CPU runs AVX2 and the features below (see the type).
        unsafe { ntt(p) }
    }

    #[inline(always)]
    fn invntt(self, p: &mut Poly) {
        // SAFETY: `self` proves the features, as for `ntt`.
        unsafe { invntt(p) }
    }

    #[inline(always)]
    fn mul_acc(self, r: &mut Poly, a: &[Poly], b: &[Poly]) {
        // SAFETY: `self` proves the features, as for `ntt`.
        unsafe { mul_acc(r, a, b) }
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
        let (jobs, n) = matrix_jobs(k, transposed);
        // SAFETY: `self` proves the features, as for `ntt`.
        unsafe {
            match mode {
                HashMode::Shake => gen_entries(rho, &jobs[..n], a.as_flattened_mut()),
                HashMode::Sm3 => gen_entries_sm3(rho, &jobs[..n], a.as_flattened_mut(), &mut []),
            }
        }
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
            return Soft.gen_row(mode, rho, k, i, transposed, row);
        }
        // SAFETY: `self` proves the features, as for `ntt`.
        unsafe { gen_entries(rho, &row_jobs(k, i, transposed)[..k], row) }
    }

    matrix_and_hashes_on_lanes!();

    #[inline(always)]
    fn noise(self, mode: HashMode, seed: &[u8; SEED_BYTES], etas: &[usize], out: &mut [Poly]) {
        match mode {
            // SAFETY: `self` proves the features, as for `ntt`.
            HashMode::Shake => unsafe { noise_shake(seed, etas, out) },
            // SAFETY: `self` proves the features, as for `ntt`.
            HashMode::Sm3 => unsafe { noise_sm3(seed, etas, out) },
        }
    }

    #[inline(always)]
    fn freeze(self, p: &mut Poly) {
        // SAFETY: `self` proves the features, as for `ntt`.
        unsafe { freeze(p) }
    }

    #[inline(always)]
    fn compress(self, out: &mut [u8], p: &Poly, d: usize) {
        // SAFETY: `self` proves the features, as for `ntt`.
        unsafe { compress(out, p, d) }
    }

    #[inline(always)]
    fn decompress(self, p: &mut Poly, bytes: &[u8], d: usize) {
        Soft.decompress(p, bytes, d)
    }
}

/// Whether this CPU runs the backend, for the tests.
#[cfg(test)]
fn runs() -> bool {
    crate::cpu::kernels::AIGIS_AVX2.runs()
}

/// The entry points of a backend over `$scheme` (`kem` or `compact`): each runs the whole
/// operation inside one function compiled for the kernel `$kernel`, to be called only on a
/// CPU that runs it (`super::Native` decides).
macro_rules! kem_entry_points {
    ($kernel:ident, $arith:ty, $scheme:ident, $on:literal,
     $keypair:ident, $encapsulate:ident, $decapsulate:ident) => {
        #[doc = concat!("Key generation", $on, ".")]
        #[kernel($kernel)]
        pub fn $keypair<P: Params>(mode: HashMode, coins: &[u8; 64], pk: &mut [u8], sk: &mut [u8]) {
            $scheme::keypair::<P, $arith>(<$arith>::new(), mode, coins, pk, sk)
        }

        #[doc = concat!("Encapsulation", $on, ".")]
        #[kernel($kernel)]
        pub fn $encapsulate<P: Params>(
            mode: HashMode,
            pk: &[u8],
            coins: &[u8; 32],
            ct: &mut [u8],
        ) -> [u8; 32] {
            $scheme::encapsulate::<P, $arith>(<$arith>::new(), mode, pk, coins, ct)
        }

        #[doc = concat!("Decapsulation", $on, ".")]
        #[kernel($kernel)]
        pub fn $decapsulate<P: Params>(mode: HashMode, sk: &[u8], ct: &[u8]) -> [u8; 32] {
            $scheme::decapsulate::<P, $arith>(<$arith>::new(), mode, sk, ct)
        }
    };
}
pub(crate) use kem_entry_points;

kem_entry_points!(
    AIGIS_AVX2,
    Avx2,
    kem,
    " on AVX2",
    keypair,
    encapsulate,
    decapsulate
);
kem_entry_points!(
    AIGIS_AVX2,
    Avx2,
    compact,
    " (compact) on AVX2",
    compact_keypair,
    compact_encapsulate,
    compact_decapsulate
);

#[cfg(test)]
pub fn sample_poly(seed: u32, bound: i16) -> Poly {
    let mut s = seed;
    let mut p = Poly::default();
    for x in p.0.iter_mut() {
        s = s.wrapping_mul(1_103_515_245).wrapping_add(12345);
        *x = ((s >> 8) % (2 * bound as u32 - 1)) as i16 - (bound - 1);
    }
    p
}

/// A lane engine (`entries_and_hashes` of some width).
#[cfg(test)]
pub type LaneEngine =
    unsafe fn(&[u8; SEED_BYTES], &[(u8, u8, usize)], &mut [Poly], &mut [(&[u8], &mut [u8; 32])]);

/// Checks `engine` (W lanes, hash mode `mode`; the caller has checked its CPU features)
/// against the matrix and the hashes computed one after the other, for every k, both
/// orientations and hash lengths around the rate and the block.
#[cfg(test)]
pub fn check_entries_and_hashes(w: usize, engine: LaneEngine, mode: HashMode) {
    use super::arith::default_matrix_and_hashes;
    use super::hash::hash_h;
    let data: Vec<u8> = (0..1700u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let lens = [
        0usize, 1, 32, 55, 56, 135, 136, 137, 272, 896, 992, 1440, 1568,
    ];
    for k in 2..=MAX_K {
        for transposed in [false, true] {
            let (jobs, n) = matrix_jobs(k, transposed);
            for (t, &l1) in lens.iter().enumerate() {
                let l2 = lens[(t * 7 + k) % lens.len()];
                let rho: [u8; SEED_BYTES] = core::array::from_fn(|i| data[i + t] ^ k as u8);
                let mut want: Matrix = Default::default();
                let (mut w1, mut w2) = ([0u8; 32], [0u8; 32]);
                default_matrix_and_hashes(
                    Soft,
                    mode,
                    &rho,
                    k,
                    transposed,
                    &mut want,
                    &mut [(&data[..l1], &mut w1), (&data[5..5 + l2], &mut w2)],
                );
                let mut got: Matrix = Default::default();
                let (mut g1, mut g2) = ([0u8; 32], [0u8; 32]);
                // SAFETY: the caller checked the features of `engine`.
                unsafe {
                    engine(
                        &rho,
                        &jobs[..n],
                        got.as_flattened_mut(),
                        &mut [(&data[..l1], &mut g1), (&data[5..5 + l2], &mut g2)],
                    )
                };
                assert_eq!(
                    got,
                    want,
                    "W = {w}, {}, k = {k}, lengths {l1} {l2}",
                    mode.name()
                );
                assert_eq!(
                    (g1, g2),
                    (w1, w2),
                    "W = {w}, {}, k = {k}, lengths {l1} {l2}",
                    mode.name()
                );
                let mut one: Matrix = Default::default();
                let mut h = [0u8; 32];
                // SAFETY: as above.
                unsafe {
                    engine(
                        &rho,
                        &jobs[..n],
                        one.as_flattened_mut(),
                        &mut [(&data[..l2], &mut h)],
                    )
                };
                assert_eq!(
                    one,
                    want,
                    "W = {w}, {}, k = {k}, one hash of {l2}",
                    mode.name()
                );
                assert_eq!(h, hash_h(mode, &[&data[..l2]]));
            }
        }
    }
}

/// Checks `arith`'s [`Arith::transposed_matrix_noise_and_hashes`] against the matrix, the
/// hash and the noise computed one after the other on the portable code: every k with its
/// sets' noise widths, both hash modes, hashes shorter and longer than the lanes' work.
#[cfg(test)]
pub fn check_matrix_noise_and_hashes<A: Arith>(arith: A) {
    use super::arith::{NoiseRequest, default_matrix_and_hashes};
    let data: Vec<u8> = (0..1800u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8)
        .collect();
    // (k, eta of r, eta of e1 and e2): the four parameter sets.
    for (k, es, ee) in [(2usize, 4usize, 8usize), (3, 1, 4), (3, 2, 4), (4, 3, 8)] {
        let count = 2 * k + 1;
        let etas = crate::aigis::indcpa::widths(k, es, ee);
        for mode in [HashMode::Shake, HashMode::Sm3] {
            for (t, len) in [0usize, 33, 700, 992, 1568].into_iter().enumerate() {
                let rho: [u8; SEED_BYTES] = core::array::from_fn(|i| data[i + t] ^ k as u8);
                let seed: [u8; SEED_BYTES] = core::array::from_fn(|i| data[100 + i + t]);
                let input = &data[200..200 + len];
                let mut want: Matrix = Default::default();
                let mut want_noise = [Poly::default(); crate::aigis::indcpa::MAX_NOISE];
                let mut wh = [0u8; SEED_BYTES];
                let hashes = &mut [(input, &mut wh)];
                default_matrix_and_hashes(Soft, mode, &rho, k, true, &mut want, hashes);
                Soft.noise(mode, &seed, &etas[..count], &mut want_noise[..count]);
                let mut got: Matrix = Default::default();
                let mut got_noise = [Poly::default(); crate::aigis::indcpa::MAX_NOISE];
                let mut gh = [0u8; SEED_BYTES];
                let request = NoiseRequest {
                    seed: &seed,
                    etas: &etas[..count],
                    out: &mut got_noise[..count],
                };
                let hashes = &mut [(input, &mut gh)];
                arith.transposed_matrix_noise_and_hashes(mode, &rho, k, &mut got, request, hashes);
                let what = format!("{}, k = {k}, etas {es} {ee}, hash of {len}", mode.name());
                assert_eq!(got, want, "matrix, {what}");
                assert_eq!(got_noise, want_noise, "noise, {what}");
                assert_eq!(gh, wh, "hash, {what}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aigis::ntt as portable;
    use crate::aigis::reduce::freeze;

    #[test]
    fn matrix_beside_hashes_equals_one_after_the_other() {
        if runs() {
            check_entries_and_hashes(4, entries_and_hashes, HashMode::Shake);
            check_entries_and_hashes(8, gen_entries_sm3, HashMode::Sm3);
            // SAFETY: `runs` checked the backend's features.
            check_matrix_noise_and_hashes(unsafe { Avx2::new() });
        }
    }

    fn canonical(mut p: Poly) -> Poly {
        for x in p.0.iter_mut() {
            *x = freeze(*x);
        }
        p
    }

    #[test]
    fn barrett_is_exact_on_every_i16() {
        if !runs() {
            return;
        }
        let mut all: Vec<i16> = (i16::MIN..=i16::MAX).collect();
        // SAFETY: AVX2 was checked above.
        unsafe { barrett_all_i16(&mut all) };
        for (a, r) in (i16::MIN..=i16::MAX).zip(all) {
            assert!(r.abs() < Q, "{a} -> {r}");
            assert_eq!(freeze(a), freeze(r));
        }
    }

    #[test]
    fn vector_compression_equals_the_division_for_every_input() {
        if !runs() {
            return;
        }
        use crate::aigis::compress::compress_by_division;
        use crate::aigis::poly::unpack_bits;
        for start in (0..Q).step_by(N) {
            let mut p = Poly::default();
            for (i, x) in p.0.iter_mut().enumerate() {
                *x = (start + i as i16).min(Q - 1);
            }
            for d in [3usize, 4, 5, 9, 10, 11] {
                let mut bytes = [0u8; N * 11 / 8];
                // SAFETY: AVX2 was checked above.
                unsafe {
                    match d {
                        3 => compress_vec::<3>(&mut bytes, &p),
                        4 => compress_vec::<4>(&mut bytes, &p),
                        5 => compress_vec::<5>(&mut bytes, &p),
                        9 => compress_vec::<9>(&mut bytes, &p),
                        10 => compress_vec::<10>(&mut bytes, &p),
                        _ => compress_vec::<11>(&mut bytes, &p),
                    }
                };
                let mut got = [0i16; N];
                unpack_bits(&mut got, &bytes[..N * d / 8], d);
                for (&x, &y) in p.0.iter().zip(got.iter()) {
                    assert_eq!(y as u16, compress_by_division(x, d), "d = {d}, x = {x}");
                }
            }
        }
    }

    #[test]
    fn vector_compression_equals_portable() {
        if !runs() {
            return;
        }
        for d in [3usize, 4, 5, 9, 10, 11] {
            for seed in 0..16u32 {
                let mut p = canonical(sample_poly(seed * 31 + d as u32, Q));
                if seed == 0 {
                    p.0 = core::array::from_fn(|i| (Q - 1 - i as i16 * 30).max(0));
                }
                let mut want = [0u8; N * 11 / 8 + 1];
                let mut got = [0xa5u8; N * 11 / 8 + 1];
                Soft.compress(&mut want, &p, d);
                // SAFETY: AVX2 was checked above.
                unsafe {
                    match d {
                        3 => compress_vec::<3>(&mut got, &p),
                        4 => compress_vec::<4>(&mut got, &p),
                        5 => compress_vec::<5>(&mut got, &p),
                        _ => compress(&mut got, &p, d),
                    }
                };
                assert_eq!(got[..N * d / 8], want[..N * d / 8], "d = {d}, seed {seed}");
                assert!(
                    got[N * d / 8..].iter().all(|&b| b == 0xa5),
                    "d = {d}: wrote past"
                );
            }
        }
    }

    #[test]
    fn vector_cbd_equals_portable() {
        if !runs() {
            return;
        }
        for eta in [1usize, 2, 3, 4, 8] {
            for seed in 0..16u32 {
                let buf: Vec<u8> = (0..noise_bytes(eta) as u32)
                    .map(|i| (i.wrapping_mul(2_654_435_761) ^ seed.wrapping_mul(40_503)) as u8)
                    .collect();
                let mut want = Poly::default();
                let mut got = Poly::default();
                cbd(&mut want, &buf, eta);
                // SAFETY: AVX2 was checked above.
                unsafe { cbd_vec(&mut got, &buf, eta) };
                assert_eq!(got, want, "eta {eta}, seed {seed}");
            }
        }
    }

    #[test]
    fn freeze_is_exact_on_every_i16() {
        if !runs() {
            return;
        }
        let mut all: Vec<i16> = (i16::MIN..=i16::MAX).collect();
        // SAFETY: AVX2 was checked above.
        unsafe { freeze_all_i16(&mut all) };
        for (a, r) in (i16::MIN..=i16::MAX).zip(all) {
            assert_eq!(freeze(a), r, "{a}");
        }
    }

    #[test]
    fn transforms_and_products_equal_portable() {
        if !runs() {
            return;
        }
        for seed in 0..20 {
            let a = sample_poly(seed, Q);
            let (mut x, mut y) = (a, a);
            portable::ntt(&mut x);
            // SAFETY: AVX2 was checked above.
            unsafe { ntt(&mut y) };
            assert!(y.0.iter().all(|c| c.abs() < Q));
            assert_eq!(canonical(x), canonical(y), "ntt, seed {seed}");
            let (mut x, mut y) = (a, a);
            portable::invntt(&mut x);
            // SAFETY: AVX2 was checked above.
            unsafe { invntt(&mut y) };
            assert!(y.0.iter().all(|c| c.abs() < Q));
            assert_eq!(canonical(x), canonical(y), "invntt, seed {seed}");
            let terms: Vec<Poly> = (0..8).map(|t| sample_poly(seed * 8 + t + 100, Q)).collect();
            for k in 1..=4 {
                let (mut x, mut y) = (Poly::default(), Poly::default());
                portable::mul_acc(&mut x, &terms[..k], &terms[4..4 + k]);
                // SAFETY: AVX2 was checked above.
                unsafe { mul_acc(&mut y, &terms[..k], &terms[4..4 + k]) };
                assert!(y.0.iter().all(|c| c.abs() < Q));
                assert_eq!(canonical(x), canonical(y), "mul_acc k={k}");
            }
        }
    }
}
