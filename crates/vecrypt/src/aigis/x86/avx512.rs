//! The AVX-512 backend: the NTT and products on 512-bit registers (`avx512_ntt`), and
//! eight-way Keccak (512-bit lanes, three-input logic for theta and chi, native rotations)
//! for the matrix and the noise, which is where the wider registers pay: one permutation
//! advances 8 streams. Rejection sampling takes 32 13-bit values a step into 16-bit lanes
//! (byte permutations of VBMI, a double shift of VBMI2) and compresses the accepted ones
//! into place (VBMI2), more than twice as fast as sixteen 32-bit lanes a step
//! (`docs/perf/aigis.md`).

use core::arch::x86_64::*;

use super::arith::{Arith, Matrix};
use super::avx2::{self, lane_sampling, matrix_jobs, row_jobs};
use super::avx512_ntt;
use super::cbd::noise_bytes;
use super::hash::{HashMode, KeccakF, SHAKE128_RATE, SHAKE256_RATE, SM3_RATE};
use super::kem;
use super::params::{MAX_K, Params, SEED_BYTES};

use super::keccak::{ShakeLanes, f1600_x1_vl};
use super::params::{N, Q};
use super::poly::Poly;
use super::sampling::{FIRST_SQUEEZE_MAX, parse_exact};
use super::soft::Soft;
use crate::cpu::kernel;

lane_sampling!(8, AIGIS_LANES_AVX512, parse_vbmi);
avx2::sm3_lanes!(
    16,
    AIGIS_LANES_AVX512,
    super::sm3_x16::compress_x16_side,
    parse_vbmi
);

/// The four-lane Keccak (AVX-512VL form) for matrix remainders and rows, with the AVX-512
/// rejection sampling (its noise half is not used: the noise always fills eight lanes well
/// enough).
#[allow(dead_code)]
mod four_lanes {
    use super::*;
    lane_sampling!(
        4,
        AIGIS_LANES_AVX512,
        parse_vbmi,
        permute_vl,
        permute_busy_vl
    );
}

/// For sixteen D-bit values packed little-endian: bytes Di/8 .. Di/8 + 3 into 32-bit lane i
/// (a byte permutation), and the bit offset Di mod 8 to shift by.
struct Gather<const D: usize>;

impl<const D: usize> Gather<D> {
    const BYTES: [u8; 64] = {
        let mut t = [0u8; 64];
        let mut i = 0;
        while i < 16 {
            let mut j = 0;
            while j < 4 {
                t[4 * i + j] = (D * i / 8 + j) as u8;
                j += 1;
            }
            i += 1;
        }
        t
    };
    const SHIFTS: [u32; 16] = {
        let mut t = [0u32; 16];
        let mut i = 0;
        while i < 16 {
            t[i] = (D * i % 8) as u32;
            i += 1;
        }
        t
    };

    /// The sixteen values of `src` (2D bytes, in the low bytes of the register) in 32-bit
    /// lanes.
    #[kernel(AIGIS_LANES_AVX512)]
    #[inline]
    fn values(src: __m512i) -> __m512i {
        // SAFETY: 64 readable bytes each.
        let (idx, shifts) = unsafe {
            (
                _mm512_loadu_si512(Self::BYTES.as_ptr().cast()),
                _mm512_loadu_si512(Self::SHIFTS.as_ptr().cast()),
            )
        };
        let v = _mm512_permutexvar_epi8(idx, src);
        _mm512_and_si512(
            _mm512_srlv_epi32(v, shifts),
            _mm512_set1_epi32((1 << D) - 1),
        )
    }
}

/// Unpacks 256 13-bit values of a secret key and reduces them to [0, q).
#[kernel(AIGIS_LANES_AVX512)]
#[inline]
fn unpack_sk_vbmi(p: &mut Poly, bytes: &[u8]) {
    assert!(bytes.len() >= N * 13 / 8);
    for (step, out) in p.0.chunks_exact_mut(16).enumerate() {
        // SAFETY: the masked load reads only bytes[26 step .. 26 (step + 1)], which exist
        // by the assertion above.
        let src = unsafe {
            _mm512_maskz_loadu_epi8((1u64 << 26) - 1, bytes.as_ptr().add(26 * step).cast())
        };
        let y = _mm512_cvtepi32_epi16(Gather::<13>::values(src));
        // SAFETY: `out` is 16 values, 32 writable bytes.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), y) };
    }
    avx2::freeze(p);
}

/// Unpacks 256 D-bit values and decompresses them: (y q + 2^(D-1)) >> D.
#[kernel(AIGIS_LANES_AVX512)]
#[inline]
fn decompress_vbmi<const D: usize>(p: &mut Poly, bytes: &[u8]) {
    assert!(bytes.len() >= N * D / 8);
    for (step, out) in p.0.chunks_exact_mut(16).enumerate() {
        // SAFETY: the masked load reads only bytes[2D step .. 2D (step + 1)], which exist
        // by the assertion above.
        let src = unsafe {
            _mm512_maskz_loadu_epi8(
                (1u64 << (2 * D)) - 1,
                bytes.as_ptr().add(2 * D * step).cast(),
            )
        };
        let y = Gather::<D>::values(src);
        let x = _mm512_add_epi32(
            _mm512_mullo_epi32(y, _mm512_set1_epi32(i32::from(Q))),
            _mm512_set1_epi32(1 << (D - 1)),
        );
        let x = _mm512_cvtepi32_epi16(_mm512_srlv_epi32(x, _mm512_set1_epi32(D as i32)));
        // SAFETY: `out` is 16 values, 32 writable bytes.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), x) };
    }
}

/// For 32 13-bit values packed little-endian (52 bytes): bytes 13i/8 + `first` and the byte
/// after it into 16-bit lane i (a byte permutation).
const fn pairs_of_13(first: usize) -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 32 {
        t[2 * i] = (13 * i / 8 + first) as u8;
        t[2 * i + 1] = (13 * i / 8 + first + 1) as u8;
        i += 1;
    }
    t
}

/// [`parse_fast`](super::sampling::parse_fast) on AVX-512: 32 13-bit values (four groups)
/// per step in 16-bit lanes. Two byte permutations gather the four bytes around each value,
/// a double shift (VBMI2) takes its 13 bits, and the accepted ones are compressed to the
/// front (VBMI2). The only branches depend on the public matrix seed.
#[kernel(AIGIS_LANES_AVX512)]
#[inline]
pub(super) fn parse_vbmi(buf: &[u8], r: &mut Poly) -> bool {
    const LO: [u8; 64] = pairs_of_13(0);
    const HI: [u8; 64] = pairs_of_13(2);
    const SHIFTS: [u16; 32] = {
        let mut t = [0u16; 32];
        let mut i = 0;
        while i < 32 {
            t[i] = (13 * i % 8) as u16;
            i += 1;
        }
        t
    };
    // SAFETY: 64 readable bytes each.
    let (lo, hi, shifts) = unsafe {
        (
            _mm512_loadu_si512(LO.as_ptr().cast()),
            _mm512_loadu_si512(HI.as_ptr().cast()),
            _mm512_loadu_si512(SHIFTS.as_ptr().cast()),
        )
    };
    let q = _mm512_set1_epi16(Q);
    let low13 = _mm512_set1_epi16((1 << 13) - 1);
    let mut kept = [0i16; N + 32];
    let mut count = 0usize;
    let groups = buf.len() / 13;
    let mut g = 0;
    while g < groups && count < N {
        let take = (groups - g).min(4);
        // SAFETY: the masked load reads only buf[13 g .. 13 (g + take)], which exists.
        let src = unsafe {
            _mm512_maskz_loadu_epi8((1u64 << (13 * take)) - 1, buf.as_ptr().add(13 * g).cast())
        };
        let v = _mm512_and_si512(
            _mm512_shrdv_epi16(
                _mm512_permutexvar_epi8(lo, src),
                _mm512_permutexvar_epi8(hi, src),
                shifts,
            ),
            low13,
        );
        let lanes = (u64::MAX >> (64 - 8 * take)) as u32;
        let accept = _mm512_mask_cmplt_epu16_mask(lanes, v, q);
        let packed = _mm512_maskz_compress_epi16(accept, v);
        // SAFETY: count < N, so 32 values fit in `kept`.
        unsafe { _mm512_storeu_si512(kept.as_mut_ptr().add(count).cast(), packed) };
        count += accept.count_ones() as usize;
        g += take;
    }
    r.0.copy_from_slice(&kept[..N]);
    count >= N
}

/// The AVX-512 backend. A value is the proof that the CPU runs it: the only way to make
/// one is [`Avx512::new`], which is compiled for the backend's features.
#[derive(Clone, Copy)]
pub struct Avx512(());

impl Avx512 {
    /// The backend, inside code compiled for its features.
    #[kernel(AIGIS_AVX512)]
    #[inline]
    pub fn new() -> Self {
        Avx512(())
    }
}

/// The one-state Keccak on 128-bit registers with AVX-512VL logic and rotations; only
/// handed out by an [`Avx512`] value, hence a proof of the same features.
#[derive(Clone, Copy)]
pub struct VlKeccak(());

impl KeccakF for VlKeccak {
    #[inline(always)]
    fn permute(self, s: &mut [u64; 25]) {
        // SAFETY: `self` exists, so an `Avx512` existed: the CPU runs AVX-512VL.
        unsafe { f1600_x1_vl(s) }
    }
}

impl Arith for Avx512 {
    type Keccak = VlKeccak;

    #[inline(always)]
    fn keccak(self) -> Self::Keccak {
        VlKeccak(())
    }

    #[inline(always)]
    fn ntt(self, p: &mut Poly) {
        // SAFETY: `self` exists, so the CPU runs the backend's features (see the type).
        unsafe { avx512_ntt::ntt(p) }
    }

    #[inline(always)]
    fn invntt(self, p: &mut Poly) {
        // SAFETY: `self` proves the features, as for `ntt`.
        unsafe { avx512_ntt::invntt(p) }
    }

    #[inline(always)]
    fn mul_acc(self, r: &mut Poly, a: &[Poly], b: &[Poly]) {
        // SAFETY: `self` proves the features, as for `ntt`.
        unsafe { avx512_ntt::mul_acc(r, a, b) }
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
        if mode == HashMode::Sm3 {
            // SAFETY: `self` proves the features, as for `ntt`.
            return unsafe { gen_entries_sm3(rho, &jobs[..n], a.as_flattened_mut(), &mut []) };
        }
        // A remainder of one entry (k = 3: 8 + 1) is cheaper on the scalar Keccak, and one
        // of two to four on four lanes, than on a mostly idle eight-lane permutation.
        let rest = n % 8;
        let flat = a.as_flattened_mut();
        // SAFETY: `self` proves the features, as for `ntt`.
        unsafe {
            match rest {
                0 | 5.. => gen_entries(rho, &jobs[..n], flat),
                1 => {
                    gen_entries(rho, &jobs[..n - 1], flat);
                    let (x, y, at) = jobs[n - 1];
                    parse_exact(HashMode::Shake, rho, x, y, &mut flat[at]);
                }
                _ => {
                    gen_entries(rho, &jobs[..n - rest], flat);
                    four_lanes::gen_entries(rho, &jobs[n - rest..n], flat);
                }
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
        unsafe { four_lanes::gen_entries(rho, &row_jobs(k, i, transposed)[..k], row) }
    }

    avx2::matrix_and_hashes_on_lanes!();

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
    fn unpack_sk(self, p: &mut Poly, bytes: &[u8]) {
        // SAFETY: `self` proves the features, as for `ntt`.
        unsafe { unpack_sk_vbmi(p, bytes) }
    }

    #[inline(always)]
    fn freeze(self, p: &mut Poly) {
        // SAFETY: `self` proves the features, as for `ntt`.
        unsafe { avx2::freeze(p) }
    }

    #[inline(always)]
    fn compress(self, out: &mut [u8], p: &Poly, d: usize) {
        // SAFETY: `self` proves the features, as for `ntt`.
        unsafe { avx2::compress(out, p, d) }
    }

    #[inline(always)]
    fn decompress(self, p: &mut Poly, bytes: &[u8], d: usize) {
        // SAFETY: `self` proves the features, as for `ntt`.
        unsafe {
            match d {
                1 => decompress_vbmi::<1>(p, bytes),
                3 => decompress_vbmi::<3>(p, bytes),
                4 => decompress_vbmi::<4>(p, bytes),
                5 => decompress_vbmi::<5>(p, bytes),
                9 => decompress_vbmi::<9>(p, bytes),
                10 => decompress_vbmi::<10>(p, bytes),
                11 => decompress_vbmi::<11>(p, bytes),
                _ => Soft.decompress(p, bytes, d),
            }
        }
    }
}

/// Whether this CPU runs the backend, for the tests.
#[cfg(test)]
fn runs() -> bool {
    crate::cpu::kernels::AIGIS_AVX512.runs()
}

avx2::kem_entry_points!(
    AIGIS_AVX512,
    Avx512,
    kem,
    " on AVX-512",
    keypair,
    encapsulate,
    decapsulate
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrix_beside_hashes_equals_one_after_the_other() {
        if runs() {
            avx2::check_entries_and_hashes(8, entries_and_hashes, HashMode::Shake);
            avx2::check_entries_and_hashes(4, four_lanes::entries_and_hashes, HashMode::Shake);
            avx2::check_entries_and_hashes(16, gen_entries_sm3, HashMode::Sm3);
            // SAFETY: `runs` checked the backend's features.
            avx2::check_matrix_noise_and_hashes(unsafe { Avx512::new() });
        }
    }

    #[test]
    fn unpacking_and_parsing_equal_portable() {
        if !runs() {
            return;
        }
        // SAFETY: the CPU check is just above.
        let avx512 = unsafe { Avx512::new() };
        let mut x = 0x9e37_79b9u32;
        let mut bytes = [0u8; 512];
        for round in 0..64 {
            for b in bytes.iter_mut() {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                *b = x as u8;
            }
            for d in [1usize, 3, 4, 5, 9, 10, 11] {
                let mut want = Poly::default();
                let mut got = Poly::default();
                Soft.decompress(&mut want, &bytes[..N * d / 8], d);
                avx512.decompress(&mut got, &bytes[..N * d / 8], d);
                assert_eq!(got, want, "d = {d}, round {round}");
            }
            let mut want = Poly::default();
            let mut got = Poly::default();
            Soft.unpack_sk(&mut want, &bytes[..416]);
            avx512.unpack_sk(&mut got, &bytes[..416]);
            want.freeze();
            assert_eq!(got, want, "sk, round {round}");
            // Every tail of whole groups (0 to 3 past the last step of four), a partial
            // group, and inputs that run out of accepted values: in some rounds most bits
            // are set, so most values are q or more.
            let mut biased = bytes;
            for b in biased.iter_mut() {
                *b |= [0, 0x80, 0xe0, 0xf8][round % 4];
            }
            for len in [416usize, 429, 442, 455, 468, 480, 494, 504, 512] {
                let mut want = Poly::default();
                let mut got = Poly::default();
                let bytes = &biased;
                let ok_want = super::super::sampling::parse_fast(&bytes[..len], &mut want);
                // SAFETY: the CPU check is above.
                let ok_got = unsafe { parse_vbmi(&bytes[..len], &mut got) };
                assert_eq!(ok_got, ok_want, "round {round}");
                if ok_want {
                    assert_eq!(got, want, "round {round}");
                }
            }
        }
    }
}
