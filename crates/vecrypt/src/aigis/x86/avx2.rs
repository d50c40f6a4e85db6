//! The AVX2 backend: NTT, inverse NTT, products and reductions on 16 coefficients per
//! register, and four-way Keccak for the matrix and the noise.
//!
//! The NTT layers with butterflies 16 or more coefficients apart pair whole registers. The
//! last four layers (distances 8, 4, 2, 1) pair lanes inside one register: the register and
//! a lane-swapped copy are blended into "a" and "b" operands, so one Montgomery product
//! serves both halves of every butterfly; the twiddles come from per-lane tables.
//!
//! Every function is compiled for AVX2 and only reached from the entry points at the end of
//! this file, after the CPU check.

use core::arch::x86_64::*;

use super::arith::{Arith, Matrix};
use super::cbd::{cbd, noise_bytes};
use super::compress::magic;
use super::hash::{HashMode, SHAKE128_RATE, SHAKE256_RATE, SM3_RATE};
use super::indcpa::MAX_NOISE;
use super::keccak::ShakeLanes;
use super::ntt::{INV_N_MONT, ZETAS};
use super::params::{MAX_K, N, Params, Q, SEED_BYTES};
use super::poly::Poly;
use super::reduce::{QINV, R2_MOD_Q};
use super::sampling::{FIRST_SQUEEZE_MAX, parse_exact, parse_fast};
use super::sm3;
use super::soft::Soft;
use super::{compact, kem};
use crate::cpu::{kernel, kernels};
use zeroize::Zeroize;

/// Per-lane twiddles of the in-register layers: `LANE_ZETAS[l][v]` is register v of layer
/// l (distance 8 >> l), forward order.
const LANE_ZETAS: [[[i16; 16]; 16]; 4] = {
    let mut t = [[[0i16; 16]; 16]; 4];
    let mut l = 0;
    while l < 4 {
        let dist = 8 >> l;
        let groups_per_reg = 16 / (2 * dist);
        let first_k = 16 << l;
        let mut v = 0;
        while v < 16 {
            let mut lane = 0;
            while lane < 16 {
                let g = v * groups_per_reg + lane / (2 * dist);
                t[l][v][lane] = ZETAS[first_k + g];
                lane += 1;
            }
            v += 1;
        }
        l += 1;
    }
    t
};

/// The same for the inverse transform: group g of the layer at distance d uses
/// ZETAS[2 * 128 / d - 1 - g].
const LANE_ZETAS_INV: [[[i16; 16]; 16]; 4] = {
    let mut t = [[[0i16; 16]; 16]; 4];
    let mut l = 0;
    while l < 4 {
        let dist = 1 << l;
        let groups_per_reg = 16 / (2 * dist);
        let last_k = 2 * 128 / dist - 1;
        let mut v = 0;
        while v < 16 {
            let mut lane = 0;
            while lane < 16 {
                let g = v * groups_per_reg + lane / (2 * dist);
                t[l][v][lane] = ZETAS[last_k - g];
                lane += 1;
            }
            v += 1;
        }
        l += 1;
    }
    t
};

/// `table` times q^-1 mod 2^16, lane by lane (the low half of a Montgomery product).
const fn times_qinv(table: [[[i16; 16]; 16]; 4]) -> [[[i16; 16]; 16]; 4] {
    let mut t = table;
    let mut l = 0;
    while l < 4 {
        let mut v = 0;
        while v < 16 {
            let mut lane = 0;
            while lane < 16 {
                t[l][v][lane] = table[l][v][lane].wrapping_mul(QINV);
                lane += 1;
            }
            v += 1;
        }
        l += 1;
    }
    t
}

const LANE_ZETAS_QINV: [[[i16; 16]; 16]; 4] = times_qinv(LANE_ZETAS);
const LANE_ZETAS_INV_QINV: [[[i16; 16]; 16]; 4] = times_qinv(LANE_ZETAS_INV);

#[kernel(AIGIS_LANES_AVX2)]
#[inline]
fn load(p: &Poly) -> [__m256i; 16] {
    // SAFETY: Poly is 512 bytes; each load reads 32 of them, no alignment needed.
    core::array::from_fn(|i| unsafe { _mm256_loadu_si256(p.0.as_ptr().add(16 * i).cast()) })
}

#[kernel(AIGIS_LANES_AVX2)]
#[inline]
fn store(p: &mut Poly, v: &[__m256i; 16]) {
    for (i, x) in v.iter().enumerate() {
        // SAFETY: Poly is 512 bytes; each store writes 32 of them, no alignment needed.
        unsafe { _mm256_storeu_si256(p.0.as_mut_ptr().add(16 * i).cast(), *x) };
    }
}

#[kernel(AIGIS_LANES_AVX2)]
#[inline]
fn lanes(t: &[i16; 16]) -> __m256i {
    // SAFETY: 32 readable bytes.
    unsafe { _mm256_loadu_si256(t.as_ptr().cast()) }
}

/// a * b * 2^-16 mod q lane by lane, with `b_qinv` = b * q^-1 mod 2^16; |result| < q when
/// |a * b| < q * 2^15.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
fn fqmul(a: __m256i, b: __m256i, b_qinv: __m256i) -> __m256i {
    let hi = _mm256_mulhi_epi16(a, b);
    let t = _mm256_mullo_epi16(a, b_qinv);
    _mm256_sub_epi16(hi, _mm256_mulhi_epi16(t, _mm256_set1_epi16(Q)))
}

/// a * b * 2^-16 mod q for two variable operands.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
fn fqmul_vv(a: __m256i, b: __m256i) -> __m256i {
    let hi = _mm256_mulhi_epi16(a, b);
    let lo = _mm256_mullo_epi16(a, b);
    let t = _mm256_mullo_epi16(lo, _mm256_set1_epi16(QINV));
    _mm256_sub_epi16(hi, _mm256_mulhi_epi16(t, _mm256_set1_epi16(Q)))
}

/// Any 16-bit value to a representative of absolute value below q.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
fn barrett(a: __m256i) -> __m256i {
    // t ≈ a / q as round(floor(a * 8737 / 2^16) / 2^10).
    let t = _mm256_mulhi_epi16(a, _mm256_set1_epi16(8737));
    let t = _mm256_mulhrs_epi16(t, _mm256_set1_epi16(32));
    _mm256_sub_epi16(a, _mm256_mullo_epi16(t, _mm256_set1_epi16(Q)))
}

/// The copy of `x` with lanes l and l ^ dist exchanged.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
fn swap_lanes<const DIST: usize>(x: __m256i) -> __m256i {
    match DIST {
        8 => _mm256_permute4x64_epi64::<0x4e>(x),
        4 => _mm256_shuffle_epi32::<0x4e>(x),
        2 => _mm256_shuffle_epi32::<0xb1>(x),
        _ => _mm256_shufflehi_epi16::<0xb1>(_mm256_shufflelo_epi16::<0xb1>(x)),
    }
}

/// Lanes of `y` where (lane & dist) != 0, else lanes of `x`.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
fn take_upper<const DIST: usize>(x: __m256i, y: __m256i) -> __m256i {
    match DIST {
        8 => _mm256_blend_epi32::<0xf0>(x, y),
        4 => _mm256_blend_epi16::<0xf0>(x, y),
        2 => _mm256_blend_epi16::<0xcc>(x, y),
        _ => _mm256_blend_epi16::<0xaa>(x, y),
    }
}

/// One forward layer at distance DIST < 16 on every register.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
fn forward_in_register<const DIST: usize, const LAYER: usize>(v: &mut [__m256i; 16]) {
    let sign = take_upper::<DIST>(_mm256_set1_epi16(1), _mm256_set1_epi16(-1));
    for (i, x) in v.iter_mut().enumerate() {
        let p = swap_lanes::<DIST>(*x);
        let a = take_upper::<DIST>(*x, p);
        let b = take_upper::<DIST>(p, *x);
        let t = fqmul(
            b,
            lanes(&LANE_ZETAS[LAYER][i]),
            lanes(&LANE_ZETAS_QINV[LAYER][i]),
        );
        *x = _mm256_add_epi16(a, _mm256_sign_epi16(t, sign));
    }
}

/// One inverse layer at distance DIST < 16 on every register.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
fn inverse_in_register<const DIST: usize, const LAYER: usize>(v: &mut [__m256i; 16]) {
    for (i, x) in v.iter_mut().enumerate() {
        let p = swap_lanes::<DIST>(*x);
        let a = take_upper::<DIST>(*x, p);
        let b = take_upper::<DIST>(p, *x);
        let sum = _mm256_add_epi16(a, b);
        let diff = fqmul(
            _mm256_sub_epi16(b, a),
            lanes(&LANE_ZETAS_INV[LAYER][i]),
            lanes(&LANE_ZETAS_INV_QINV[LAYER][i]),
        );
        *x = take_upper::<DIST>(sum, diff);
    }
}

/// One forward layer at distance `regs` * 16 coefficients.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
fn forward_across(v: &mut [__m256i; 16], regs: usize, first_k: usize) {
    let mut k = first_k;
    let mut start = 0;
    while start < 16 {
        let z = _mm256_set1_epi16(ZETAS[k]);
        let zq = _mm256_set1_epi16(ZETAS[k].wrapping_mul(QINV));
        for j in start..start + regs {
            let t = fqmul(v[j + regs], z, zq);
            v[j + regs] = _mm256_sub_epi16(v[j], t);
            v[j] = _mm256_add_epi16(v[j], t);
        }
        k += 1;
        start += 2 * regs;
    }
}

/// One inverse layer at distance `regs` * 16 coefficients.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
fn inverse_across(v: &mut [__m256i; 16], regs: usize, last_k: usize) {
    let mut k = last_k;
    let mut start = 0;
    while start < 16 {
        let z = _mm256_set1_epi16(ZETAS[k]);
        let zq = _mm256_set1_epi16(ZETAS[k].wrapping_mul(QINV));
        for j in start..start + regs {
            let a = v[j];
            let b = v[j + regs];
            v[j] = _mm256_add_epi16(a, b);
            v[j + regs] = fqmul(_mm256_sub_epi16(b, a), z, zq);
        }
        k -= 1;
        start += 2 * regs;
    }
}

#[kernel(AIGIS_LANES_AVX2)]
#[inline]
fn reduce_all(v: &mut [__m256i; 16]) {
    for x in v.iter_mut() {
        *x = barrett(*x);
    }
}

/// Forward NTT. Growth per layer is below q, so three layers fit in 16 bits between
/// reductions (4q < 2^15).
#[kernel(AIGIS_LANES_AVX2)]
pub fn ntt(p: &mut Poly) {
    let mut v = load(p);
    forward_across(&mut v, 8, 1);
    forward_across(&mut v, 4, 2);
    forward_across(&mut v, 2, 4);
    reduce_all(&mut v);
    forward_across(&mut v, 1, 8);
    forward_in_register::<8, 0>(&mut v);
    forward_in_register::<4, 1>(&mut v);
    reduce_all(&mut v);
    forward_in_register::<2, 2>(&mut v);
    forward_in_register::<1, 3>(&mut v);
    reduce_all(&mut v);
    store(p, &v);
}

/// Inverse NTT with the division by 256. Sums double per layer, so two layers run between
/// reductions.
#[kernel(AIGIS_LANES_AVX2)]
pub fn invntt(p: &mut Poly) {
    let mut v = load(p);
    inverse_in_register::<1, 0>(&mut v);
    inverse_in_register::<2, 1>(&mut v);
    reduce_all(&mut v);
    inverse_in_register::<4, 2>(&mut v);
    inverse_in_register::<8, 3>(&mut v);
    reduce_all(&mut v);
    inverse_across(&mut v, 1, 15);
    inverse_across(&mut v, 2, 7);
    reduce_all(&mut v);
    inverse_across(&mut v, 4, 3);
    inverse_across(&mut v, 8, 1);
    let f = _mm256_set1_epi16(INV_N_MONT);
    let fq = _mm256_set1_epi16(INV_N_MONT.wrapping_mul(QINV));
    for x in v.iter_mut() {
        *x = fqmul(*x, f, fq);
    }
    store(p, &v);
}

/// r = sum_i a_i * b_i coefficient-wise: one Montgomery product per term, then one by
/// 2^32 mod q to undo the 2^-16.
#[kernel(AIGIS_LANES_AVX2)]
pub fn mul_acc(r: &mut Poly, a: &[Poly], b: &[Poly]) {
    let r2 = _mm256_set1_epi16(R2_MOD_Q);
    let r2q = _mm256_set1_epi16(R2_MOD_Q.wrapping_mul(QINV));
    for c in 0..N / 16 {
        let mut acc = _mm256_setzero_si256();
        for (x, y) in a.iter().zip(b.iter()) {
            // SAFETY: c < 16, so 16 * c + 16 <= 256 coefficients are read from each.
            let (xv, yv) = unsafe {
                (
                    _mm256_loadu_si256(x.0.as_ptr().add(16 * c).cast()),
                    _mm256_loadu_si256(y.0.as_ptr().add(16 * c).cast()),
                )
            };
            acc = _mm256_add_epi16(acc, fqmul_vv(xv, yv));
        }
        let out = fqmul(acc, r2, r2q);
        // SAFETY: as above, 32 bytes inside r.
        unsafe { _mm256_storeu_si256(r.0.as_mut_ptr().add(16 * c).cast(), out) };
    }
}

/// Barrett reduction of every 16-bit value, for tests.
#[cfg(test)]
#[kernel(AIGIS_LANES_AVX2)]
fn barrett_all_i16(out: &mut [i16]) {
    for chunk in out.chunks_exact_mut(16) {
        // SAFETY: 16 values = 32 bytes.
        unsafe {
            let x = _mm256_loadu_si256(chunk.as_ptr().cast());
            _mm256_storeu_si256(chunk.as_mut_ptr().cast(), barrett(x));
        }
    }
}

/// Every value to its representative in [0, q).
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
fn freeze_all_i16(out: &mut [i16]) {
    for chunk in out.chunks_exact_mut(16) {
        // SAFETY: 16 values = 32 bytes.
        unsafe {
            let x = barrett(_mm256_loadu_si256(chunk.as_ptr().cast()));
            let x = _mm256_add_epi16(
                x,
                _mm256_and_si256(_mm256_srai_epi16::<15>(x), _mm256_set1_epi16(Q)),
            );
            _mm256_storeu_si256(chunk.as_mut_ptr().cast(), x);
        }
    }
}

/// [`freeze_all_i16`] on a polynomial.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
pub fn freeze(p: &mut Poly) {
    freeze_all_i16(&mut p.0);
}

/// Popcount of each nibble value, in both 128-bit halves.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
fn nibble_popcounts() -> __m256i {
    _mm256_setr_epi8(
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3,
        3, 4,
    )
}

/// A 16-entry byte table (indexed by nibble) in both 128-bit halves.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
fn nibble_table(f: fn(i32) -> i32) -> __m256i {
    let mut t = [0i8; 32];
    for (n, v) in t.iter_mut().enumerate() {
        *v = f(n as i32 % 16) as i8;
    }
    // SAFETY: 32 readable bytes.
    unsafe { _mm256_loadu_si256(t.as_ptr().cast()) }
}

/// The 32 signed bytes of `c` as 16-bit coefficients in `out[..32]`, in order.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
fn widen_store(out: &mut [i16], c: __m256i) {
    assert!(out.len() >= 32);
    // SAFETY: `out` has at least 32 values, 64 writable bytes.
    unsafe {
        _mm256_storeu_si256(
            out.as_mut_ptr().cast(),
            _mm256_cvtepi8_epi16(_mm256_castsi256_si128(c)),
        );
        _mm256_storeu_si256(
            out.as_mut_ptr().add(16).cast(),
            _mm256_cvtepi8_epi16(_mm256_extracti128_si256::<1>(c)),
        );
    }
}

/// eta = 1: four 2-bit fields per byte, each bit 0 minus bit 1; a nibble holds two fields,
/// so two nibble tables give all four, interleaved back into order.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
fn cbd1_vec(p: &mut Poly, buf: &[u8]) {
    let first = _mm256_castsi256_si128(nibble_table(|n| (n & 1) - ((n >> 1) & 1)));
    let second = _mm256_castsi256_si128(nibble_table(|n| ((n >> 2) & 1) - ((n >> 3) & 1)));
    let low = _mm_set1_epi8(0x0f);
    for (bytes, out) in buf[..noise_bytes(1)]
        .chunks_exact(16)
        .zip(p.0.chunks_exact_mut(64))
    {
        // SAFETY: 16 readable bytes.
        let b = unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) };
        let lo = _mm_and_si128(b, low);
        let hi = _mm_and_si128(_mm_srli_epi16::<4>(b), low);
        let (c0, c1) = (_mm_shuffle_epi8(first, lo), _mm_shuffle_epi8(second, lo));
        let (c2, c3) = (_mm_shuffle_epi8(first, hi), _mm_shuffle_epi8(second, hi));
        let (p01, p23) = (_mm_unpacklo_epi8(c0, c1), _mm_unpacklo_epi8(c2, c3));
        let (q01, q23) = (_mm_unpackhi_epi8(c0, c1), _mm_unpackhi_epi8(c2, c3));
        let quads = [
            _mm_unpacklo_epi16(p01, p23),
            _mm_unpackhi_epi16(p01, p23),
            _mm_unpacklo_epi16(q01, q23),
            _mm_unpackhi_epi16(q01, q23),
        ];
        for (o, q) in out.chunks_exact_mut(32).zip(quads.chunks_exact(2)) {
            widen_store(o, _mm256_set_m128i(q[1], q[0]));
        }
    }
}

/// eta = 2: one 4-bit field per nibble, looked up whole.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
fn cbd2_vec(p: &mut Poly, buf: &[u8]) {
    let table = nibble_table(|n| (n & 1) + ((n >> 1) & 1) - ((n >> 2) & 1) - ((n >> 3) & 1));
    let low = _mm256_set1_epi8(0x0f);
    for (bytes, out) in buf[..noise_bytes(2)]
        .chunks_exact(32)
        .zip(p.0.chunks_exact_mut(64))
    {
        // SAFETY: 32 readable bytes.
        let b = unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) };
        let lo = _mm256_shuffle_epi8(table, _mm256_and_si256(b, low));
        let hi = _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16::<4>(b), low));
        // In-lane interleaving: `a` holds coefficients 0..16 and 32..48, `c` 16..32 and 48..64.
        let a = _mm256_unpacklo_epi8(lo, hi);
        let c = _mm256_unpackhi_epi8(lo, hi);
        widen_store(&mut out[..32], _mm256_permute2x128_si256::<0x20>(a, c));
        widen_store(&mut out[32..], _mm256_permute2x128_si256::<0x31>(a, c));
    }
}

/// eta = 3: one 6-bit field per coefficient, gathered into a 32-bit lane by a byte shuffle
/// and a variable shift, eight coefficients per step; the two 3-bit sums by nibble look-up.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
fn cbd3_vec(p: &mut Poly, buf: &[u8]) {
    const BYTES: usize = noise_bytes(3);
    let mut padded = [0u8; BYTES + 16];
    padded[..BYTES].copy_from_slice(&buf[..BYTES]);
    let idx = _mm256_setr_epi8(
        0, 1, 2, 3, 0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 3, 4, 5, 6, 3, 4, 5, 6, 4, 5, 6, 7, 5, 6,
        7, 8,
    );
    let shifts = _mm256_setr_epi32(0, 6, 4, 2, 0, 6, 4, 2);
    let seven = _mm256_set1_epi32(7);
    let pop = nibble_popcounts();
    let eight = |at: usize| {
        // SAFETY: `padded` has 16 readable bytes at every multiple of 6 below BYTES.
        let src = unsafe { _mm_loadu_si128(padded.as_ptr().add(at).cast()) };
        let v = _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(src), idx);
        let v = _mm256_srlv_epi32(v, shifts);
        let a = _mm256_shuffle_epi8(pop, _mm256_and_si256(v, seven));
        let b = _mm256_shuffle_epi8(pop, _mm256_and_si256(_mm256_srli_epi32::<3>(v), seven));
        _mm256_sub_epi32(a, b)
    };
    for (i, out) in p.0.chunks_exact_mut(16).enumerate() {
        let packed = _mm256_packs_epi32(eight(12 * i), eight(12 * i + 6));
        let ordered = _mm256_permute4x64_epi64::<0xd8>(packed);
        // SAFETY: `out` is 16 values, 32 writable bytes.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), ordered) };
    }
}

/// eta = 4: popcount of the low nibble minus that of the high one, for every byte.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
fn cbd4_vec(p: &mut Poly, buf: &[u8]) {
    let pop = nibble_popcounts();
    let low = _mm256_set1_epi8(0x0f);
    for (bytes, out) in buf[..noise_bytes(4)]
        .chunks_exact(32)
        .zip(p.0.chunks_exact_mut(32))
    {
        // SAFETY: 32 readable bytes.
        let b = unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) };
        let lo = _mm256_shuffle_epi8(pop, _mm256_and_si256(b, low));
        let hi = _mm256_shuffle_epi8(pop, _mm256_and_si256(_mm256_srli_epi16::<4>(b), low));
        widen_store(out, _mm256_sub_epi8(lo, hi));
    }
}

/// eta = 8: popcount of the first byte minus that of the second, for every byte pair
/// (one multiply-add by (1, -1)).
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
fn cbd8_vec(p: &mut Poly, buf: &[u8]) {
    let pop = nibble_popcounts();
    let low = _mm256_set1_epi8(0x0f);
    let signs = _mm256_set1_epi16(0xff01u16 as i16);
    for (bytes, out) in buf[..noise_bytes(8)]
        .chunks_exact(32)
        .zip(p.0.chunks_exact_mut(16))
    {
        // SAFETY: 32 readable bytes.
        let b = unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) };
        let counts = _mm256_add_epi8(
            _mm256_shuffle_epi8(pop, _mm256_and_si256(b, low)),
            _mm256_shuffle_epi8(pop, _mm256_and_si256(_mm256_srli_epi16::<4>(b), low)),
        );
        // SAFETY: `out` is 16 values, 32 writable bytes.
        unsafe {
            _mm256_storeu_si256(out.as_mut_ptr().cast(), _mm256_maddubs_epi16(counts, signs))
        };
    }
}

/// CBD_eta(buf) into `p` for every width the sets use.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
pub fn cbd_vec(p: &mut Poly, buf: &[u8], eta: usize) {
    assert!(buf.len() >= noise_bytes(eta));
    match eta {
        1 => cbd1_vec(p, buf),
        2 => cbd2_vec(p, buf),
        3 => cbd3_vec(p, buf),
        4 => cbd4_vec(p, buf),
        8 => cbd8_vec(p, buf),
        _ => cbd(p, buf, eta),
    }
}

/// Output bytes of eight D-bit values packed by [`compress_vec`]: the first four values sit
/// in the low 128-bit half, the last four (shifted to a byte boundary) in the high half,
/// and one byte is shared when 4D is odd in nibbles. 0x80 marks bytes a half does not give.
struct PackBytes<const D: usize>;

impl<const D: usize> PackBytes<D> {
    const SPLIT: usize = 4 * D / 8;
    const LOW: [u8; 16] = {
        let mut t = [0x80u8; 16];
        let mut b = 0;
        while b < (4 * D).div_ceil(8) {
            t[b] = b as u8;
            b += 1;
        }
        t
    };
    const HIGH: [u8; 16] = {
        let mut t = [0x80u8; 16];
        let mut b = Self::SPLIT;
        while b < D {
            t[b] = (b - Self::SPLIT) as u8;
            b += 1;
        }
        t
    };
}

/// Compress_d by multiply-shift (the constants of `compress::magic`) and pack at D bits,
/// eight coefficients (D bytes) per step; input canonical.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
fn compress_vec<const D: usize>(out: &mut [u8], p: &Poly) {
    let bytes = N * D / 8;
    assert!(out.len() >= bytes);
    let (m, a, s) = magic(D);
    // SAFETY: 16 readable bytes each.
    let (low, high) = unsafe {
        (
            _mm_loadu_si128(PackBytes::<D>::LOW.as_ptr().cast()),
            _mm_loadu_si128(PackBytes::<D>::HIGH.as_ptr().cast()),
        )
    };
    // x * m by VPMADDWD: x sits in the low 16 bits of each 32-bit lane, m in the low half
    // of each multiplier pair, zero in the high half.
    let mul = _mm256_set1_epi32(m as i32);
    let add = _mm256_set1_epi32(a as i32);
    let shift = _mm_cvtsi32_si128(s as i32);
    let mask = _mm256_set1_epi32((1 << D) - 1);
    let low_dwords = _mm256_set1_epi64x(0xffff_ffff);
    let pair_shift = _mm_cvtsi32_si128(32 - D as i32);
    let quad_shift = _mm_cvtsi32_si128(2 * D as i32);
    let half_shift = _mm256_setr_epi64x(0, 0, (4 * D % 8) as i64, 0);
    for (i, group) in p.0.chunks_exact(8).enumerate() {
        // SAFETY: `group` is 8 values, 16 readable bytes.
        let x = _mm256_cvtepu16_epi32(unsafe { _mm_loadu_si128(group.as_ptr().cast()) });
        let v = _mm256_srl_epi32(_mm256_add_epi32(_mm256_madd_epi16(x, mul), add), shift);
        let v = _mm256_and_si256(v, mask);
        // Two values per 64-bit lane (2D bits), then four per 128-bit half (4D bits).
        let pairs = _mm256_or_si256(
            _mm256_and_si256(v, low_dwords),
            _mm256_srl_epi64(v, pair_shift),
        );
        let quads = _mm256_or_si256(
            pairs,
            _mm256_sll_epi64(_mm256_bsrli_epi128::<8>(pairs), quad_shift),
        );
        let quads = _mm256_sllv_epi64(quads, half_shift);
        let packed = _mm_or_si128(
            _mm_shuffle_epi8(_mm256_castsi256_si128(quads), low),
            _mm_shuffle_epi8(_mm256_extracti128_si256::<1>(quads), high),
        );
        let at = D * i;
        if at + 16 <= bytes {
            // SAFETY: out[at .. at + 16] is inside out[..bytes]; the bytes past the D of
            // this step are zero and are rewritten by the next steps.
            unsafe { _mm_storeu_si128(out.as_mut_ptr().add(at).cast(), packed) };
        } else {
            let mut last = [0u8; 16];
            // SAFETY: `last` is 16 writable bytes.
            unsafe { _mm_storeu_si128(last.as_mut_ptr().cast(), packed) };
            out[at..at + D].copy_from_slice(&last[..D]);
        }
    }
}

/// [`compress_vec`] for the widths of u; for the narrow widths of v the portable packing
/// is as fast (the vector cost is per eight values, whatever D).
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
pub fn compress(out: &mut [u8], p: &Poly, d: usize) {
    match d {
        9 => compress_vec::<9>(out, p),
        10 => compress_vec::<10>(out, p),
        11 => compress_vec::<11>(out, p),
        _ => Soft::compress(out, p, d),
    }
}

/// Matrix and noise sampling over W Keccak lanes; instantiated for 4 lanes here and for 8
/// in the AVX-512 backend.
macro_rules! lane_sampling {
    ($w:literal, $kernel:ident, $parse:path) => {
        $crate::aigis::x86::avx2::lane_sampling!($w, $kernel, $parse, permute, permute_busy);
    };
    ($w:literal, $kernel:ident, $parse:path, $permute:ident, $permute_busy:ident) => {
        /// Matrix entries: job (x, y, at) writes Parse(SHAKE128(ρ ‖ x ‖ y)) to `out[at]`,
        /// W streams at a time.
        #[kernel($kernel)]
        pub fn gen_entries(rho: &[u8; SEED_BYTES], jobs: &[(u8, u8, usize)], out: &mut [Poly]) {
            let mut bufs = [[0u8; FIRST_SQUEEZE_MAX]; $w];
            for batch in jobs.chunks($w) {
                let ext: [[u8; 2]; $w] =
                    core::array::from_fn(|l| batch.get(l).map_or([0, 0], |c| [c.0, c.1]));
                let parts: [[&[u8]; 2]; $w] = core::array::from_fn(|l| [&rho[..], &ext[l][..]]);
                let mut lanes = ShakeLanes::<$w, SHAKE128_RATE>::absorb(&parts);
                for blk in 0..3 {
                    lanes.$permute();
                    for (l, buf) in bufs.iter_mut().enumerate().take(batch.len()) {
                        lanes.block(l, &mut buf[blk * SHAKE128_RATE..(blk + 1) * SHAKE128_RATE]);
                    }
                }
                for (&(x, y, at), buf) in batch.iter().zip(bufs.iter()) {
                    if !$parse(buf, &mut out[at]) {
                        parse_exact(HashMode::Shake, rho, x, y, &mut out[at]);
                    }
                }
            }
        }

        /// Matrix entries (as [`gen_entries`]) and SHA3-256 hashes (`hashes[i].1 =
        /// H(hashes[i].0)`) together: each lane takes its next job as soon as its current one
        /// ends, so a long hash (of pk or ct) runs beside the entries instead of after them.
        #[kernel($kernel)]
        pub fn entries_and_hashes(
            rho: &[u8; SEED_BYTES],
            entries: &[(u8, u8, usize)],
            out: &mut [Poly],
            hashes: &mut [(&[u8], &mut [u8; SEED_BYTES])],
        ) {
            use $crate::aigis::x86::keccak::{LaneJob, LanePlan, MAX_LANE_HASHES};
            let mut lens = [0usize; MAX_LANE_HASHES];
            for (len, h) in lens.iter_mut().zip(hashes.iter()) {
                *len = h.0.len();
            }
            let plan = LanePlan::<$w>::new(entries, &lens[..hashes.len()]);
            let mut lanes = ShakeLanes::<$w, SHAKE128_RATE>::zeroed();
            let mut bufs = [[0u8; FIRST_SQUEEZE_MAX]; $w];
            let mut next = [0usize; $w];
            let mut step = [0usize; $w];
            loop {
                let mut busy = 0usize;
                for l in 0..$w {
                    let Some(job) = plan.job(l, next[l]) else {
                        continue;
                    };
                    busy |= 1 << l;
                    if step[l] >= job.shape().0 {
                        continue;
                    }
                    match job {
                        LaneJob::Entry { x, y, .. } => {
                            let mut input = [0u8; SEED_BYTES + 2];
                            input[..SEED_BYTES].copy_from_slice(rho);
                            input[SEED_BYTES..].copy_from_slice(&[x, y]);
                            lanes.xor_padded_block(l, &input, 0, SHAKE128_RATE, 0x1f);
                        }
                        LaneJob::Hash { i, .. } => lanes.xor_padded_block(
                            l,
                            hashes[i].0,
                            step[l],
                            $crate::aigis::hash::SHA3_256_RATE,
                            0x06,
                        ),
                    }
                }
                if busy == 0 {
                    break;
                }
                lanes.$permute_busy(busy);
                for l in 0..$w {
                    let Some(job) = plan.job(l, next[l]) else {
                        continue;
                    };
                    let (absorbed, squeezed, rate) = job.shape();
                    step[l] += 1;
                    if step[l] < absorbed {
                        continue;
                    }
                    let s = step[l] - absorbed;
                    match job {
                        LaneJob::Entry { x, y, at } => {
                            lanes.block(l, &mut bufs[l][s * rate..(s + 1) * rate]);
                            if s + 1 == squeezed
                                && !$parse(&bufs[l][..squeezed * rate], &mut out[at])
                            {
                                parse_exact(HashMode::Shake, rho, x, y, &mut out[at]);
                            }
                        }
                        LaneJob::Hash { i, .. } => lanes.block(l, &mut hashes[i].1[..]),
                    }
                    if s + 1 == squeezed {
                        lanes.clear(l);
                        next[l] += 1;
                        step[l] = 0;
                    }
                }
            }
            lanes.wipe();
        }

        /// Noise polynomials with nonces 0, 1, ..., W SHAKE256 streams at a time.
        #[kernel($kernel)]
        pub fn noise_shake(seed: &[u8; SEED_BYTES], etas: &[usize], out: &mut [Poly]) {
            let blocks_of = |i: usize| noise_bytes(etas[i]).div_ceil(SHAKE256_RATE);
            // Widest first, so that the lanes still squeezing after the narrow ones finish
            // are the first ones (see `permute_busy`).
            let mut order = [0usize; $crate::aigis::indcpa::MAX_NOISE];
            let n = etas.len();
            for (i, o) in order.iter_mut().enumerate().take(n) {
                *o = i;
            }
            order[..n].sort_by_key(|&i| core::cmp::Reverse(blocks_of(i)));
            let mut bufs = [[0u8; 4 * SHAKE256_RATE]; $w];
            for chunk in order[..n].chunks($w) {
                let mut nonces = [[0u8; 1]; $w];
                for (nonce, &i) in nonces.iter_mut().zip(chunk) {
                    *nonce = [i as u8];
                }
                let parts: [[&[u8]; 2]; $w] = core::array::from_fn(|l| [&seed[..], &nonces[l][..]]);
                let mut lanes = ShakeLanes::<$w, SHAKE256_RATE>::absorb(&parts);
                for blk in 0..blocks_of(chunk[0]) {
                    let mut busy = 0usize;
                    for (l, &i) in chunk.iter().enumerate() {
                        if blocks_of(i) > blk {
                            busy |= 1 << l;
                        }
                    }
                    lanes.$permute_busy(busy);
                    for (l, &i) in chunk.iter().enumerate() {
                        if blocks_of(i) > blk {
                            lanes.block(
                                l,
                                &mut bufs[l][blk * SHAKE256_RATE..(blk + 1) * SHAKE256_RATE],
                            );
                        }
                    }
                }
                lanes.wipe();
                for (&i, buf) in chunk.iter().zip(bufs.iter()) {
                    $crate::aigis::x86::avx2::cbd_vec(
                        &mut out[i],
                        &buf[..noise_bytes(etas[i])],
                        etas[i],
                    );
                }
            }
            $crate::wipe::bytes(bufs.as_flattened_mut());
        }
    };
}
pub(crate) use lane_sampling;

lane_sampling!(4, AIGIS_LANES_AVX2, parse_fast);

/// Matrix entries in SM3 mode: job (x, y, at) writes Parse of the counter blocks
/// SM3(BE32(c) ‖ ρ ‖ x ‖ y) to `out[at]`. The first-squeeze blocks of all entries are
/// independent, so they are hashed eight at a time across entries.
#[kernel(AIGIS_LANES_AVX2)]
pub fn gen_entries_sm3(rho: &[u8; SEED_BYTES], jobs: &[(u8, u8, usize)], out: &mut [Poly]) {
    const BLOCKS: usize = HashMode::Sm3.xof_first_blocks();
    let mut bufs = [[0u8; BLOCKS * SM3_RATE]; MAX_K * MAX_K];
    let total = jobs.len() * BLOCKS;
    for first in (0..total).step_by(8) {
        // Lanes past the last task repeat it; their digests are dropped.
        let blocks: [[u8; sm3::BLOCK]; 8] = core::array::from_fn(|l| {
            let task = (first + l).min(total - 1);
            let (x, y, _) = jobs[task / BLOCKS];
            sm3::padded_counter_block((task % BLOCKS) as u32, &[rho, &[x, y]])
        });
        let digests = sm3::digest_blocks_x8(&blocks);
        for (task, d) in (first..total).zip(digests.iter()) {
            let at = (task % BLOCKS) * SM3_RATE;
            bufs[task / BLOCKS][at..at + SM3_RATE].copy_from_slice(d);
        }
    }
    for (&(x, y, at), buf) in jobs.iter().zip(bufs.iter()) {
        if !parse_fast(buf, &mut out[at]) {
            parse_exact(HashMode::Sm3, rho, x, y, &mut out[at]);
        }
    }
}

/// Noise polynomials with nonces 0, 1, ... in SM3 mode: every 32-byte counter block of
/// every polynomial's PRF output is one task, eight tasks per multi-buffer SM3 call.
#[kernel(AIGIS_LANES_AVX2)]
pub fn noise_sm3(seed: &[u8; SEED_BYTES], etas: &[usize], out: &mut [Poly]) {
    let mut bufs = [[0u8; noise_bytes(8)]; MAX_NOISE];
    let mut tasks = [(0u8, 0u8); MAX_NOISE * noise_bytes(8) / SM3_RATE];
    let mut total = 0;
    for (i, &e) in etas.iter().enumerate() {
        for c in 0..noise_bytes(e) / SM3_RATE {
            tasks[total] = (i as u8, c as u8);
            total += 1;
        }
    }
    for first in (0..total).step_by(8) {
        let mut blocks: [[u8; sm3::BLOCK]; 8] = core::array::from_fn(|l| {
            let (i, c) = tasks[(first + l).min(total - 1)];
            sm3::padded_counter_block(u32::from(c), &[seed, &[i]])
        });
        let mut digests = sm3::digest_blocks_x8(&blocks);
        for (&(i, c), d) in tasks[first..total].iter().zip(digests.iter()) {
            let at = usize::from(c) * SM3_RATE;
            bufs[usize::from(i)][at..at + SM3_RATE].copy_from_slice(d);
        }
        blocks.zeroize();
        digests.zeroize();
    }
    for ((&e, p), buf) in etas.iter().zip(out.iter_mut()).zip(bufs.iter()) {
        cbd_vec(p, &buf[..noise_bytes(e)], e);
    }
    bufs.zeroize();
}

/// The jobs of `gen_entries` for a k x k matrix laid out MAX_K polynomials per row.
pub fn matrix_jobs(k: usize, transposed: bool) -> ([(u8, u8, usize); MAX_K * MAX_K], usize) {
    let mut jobs = [(0u8, 0u8, 0usize); MAX_K * MAX_K];
    let mut n = 0;
    for i in 0..k {
        for j in 0..k {
            let (x, y) = if transposed { (j, i) } else { (i, j) };
            jobs[n] = (x as u8, y as u8, i * MAX_K + j);
            n += 1;
        }
    }
    (jobs, n)
}

/// The jobs for row i alone.
pub fn row_jobs(k: usize, i: usize, transposed: bool) -> [(u8, u8, usize); MAX_K] {
    core::array::from_fn(|j| {
        let (x, y) = if transposed { (j, i) } else { (i, j) };
        (x as u8, y as u8, j)
    })
    .map(|job| if job.2 < k { job } else { (0, 0, job.2) })
}

/// `Arith::matrix_and_hashes` on the lane engine `entries_and_hashes` in scope (SHAKE
/// mode; SM3 mode runs the two one after the other).
macro_rules! matrix_and_hashes_on_lanes {
    () => {
        #[inline(always)]
        fn matrix_and_hashes(
            mode: HashMode,
            rho: &[u8; SEED_BYTES],
            k: usize,
            transposed: bool,
            a: &mut Matrix,
            hashes: &mut [(&[u8], &mut [u8; SEED_BYTES])],
        ) {
            if mode == HashMode::Sm3 {
                return $crate::aigis::arith::default_matrix_and_hashes::<Self>(
                    mode, rho, k, transposed, a, hashes,
                );
            }
            let (jobs, n) = $crate::aigis::x86::avx2::matrix_jobs(k, transposed);
            // SAFETY: the backend's methods are only called inside its entry points, after
            // the CPU check.
            unsafe { entries_and_hashes(rho, &jobs[..n], a.as_flattened_mut(), hashes) }
        }
    };
}
pub(crate) use matrix_and_hashes_on_lanes;

/// The AVX2 backend.
pub struct Avx2;

impl Arith for Avx2 {
    type Keccak = super::hash::ScalarKeccak;

    #[inline(always)]
    fn ntt(p: &mut Poly) {
        // SAFETY: `Avx2` is only used inside the AVX2 entry points below, after the check.
        unsafe { ntt(p) }
    }

    #[inline(always)]
    fn invntt(p: &mut Poly) {
        // SAFETY: as for `ntt`.
        unsafe { invntt(p) }
    }

    #[inline(always)]
    fn mul_acc(r: &mut Poly, a: &[Poly], b: &[Poly]) {
        // SAFETY: as for `ntt`.
        unsafe { mul_acc(r, a, b) }
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
        // SAFETY: as for `ntt`.
        unsafe {
            match mode {
                HashMode::Shake => gen_entries(rho, &jobs[..n], a.as_flattened_mut()),
                HashMode::Sm3 => gen_entries_sm3(rho, &jobs[..n], a.as_flattened_mut()),
            }
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
        unsafe { gen_entries(rho, &row_jobs(k, i, transposed)[..k], row) }
    }

    matrix_and_hashes_on_lanes!();

    #[inline(always)]
    fn noise(mode: HashMode, seed: &[u8; SEED_BYTES], etas: &[usize], out: &mut [Poly]) {
        match mode {
            // SAFETY: as for `ntt`.
            HashMode::Shake => unsafe { noise_shake(seed, etas, out) },
            // SAFETY: as for `ntt`.
            HashMode::Sm3 => unsafe { noise_sm3(seed, etas, out) },
        }
    }

    #[inline(always)]
    fn freeze(p: &mut Poly) {
        // SAFETY: as for `ntt`.
        unsafe { freeze(p) }
    }

    #[inline(always)]
    fn compress(out: &mut [u8], p: &Poly, d: usize) {
        // SAFETY: as for `ntt`.
        unsafe { compress(out, p, d) }
    }

    #[inline(always)]
    fn decompress(p: &mut Poly, bytes: &[u8], d: usize) {
        Soft::decompress(p, bytes, d)
    }
}

fn runs() -> bool {
    kernels::AIGIS_AVX2.runs()
}

/// The safe entry points of a backend over `$scheme` (`kem` or `compact`): each checks the
/// CPU with `runs()`, then runs the whole operation inside one function compiled for
/// `$features`.
macro_rules! kem_entry_points {
    ($kernel:ident, $arith:ty, $scheme:ident, $on:literal,
     $keypair:ident, $encapsulate:ident, $decapsulate:ident) => {
        #[doc = concat!("Key generation", $on, "; `false` if the CPU cannot run it.")]
        pub fn $keypair<P: Params>(
            mode: HashMode,
            coins: &[u8; 64],
            pk: &mut [u8],
            sk: &mut [u8],
        ) -> bool {
            #[kernel($kernel)]
            fn inner<P: Params>(mode: HashMode, coins: &[u8; 64], pk: &mut [u8], sk: &mut [u8]) {
                $scheme::keypair::<P, $arith>(mode, coins, pk, sk)
            }
            if !runs() {
                return false;
            }
            // SAFETY: the features were checked just above.
            unsafe { inner::<P>(mode, coins, pk, sk) };
            true
        }

        #[doc = concat!("Encapsulation", $on, "; `None` if the CPU cannot run it.")]
        pub fn $encapsulate<P: Params>(
            mode: HashMode,
            pk: &[u8],
            coins: &[u8; 32],
            ct: &mut [u8],
        ) -> Option<[u8; 32]> {
            #[kernel($kernel)]
            fn inner<P: Params>(
                mode: HashMode,
                pk: &[u8],
                coins: &[u8; 32],
                ct: &mut [u8],
            ) -> [u8; 32] {
                $scheme::encapsulate::<P, $arith>(mode, pk, coins, ct)
            }
            // SAFETY: the features are checked first.
            runs().then(|| unsafe { inner::<P>(mode, pk, coins, ct) })
        }

        #[doc = concat!("Decapsulation", $on, "; `None` if the CPU cannot run it.")]
        pub fn $decapsulate<P: Params>(mode: HashMode, sk: &[u8], ct: &[u8]) -> Option<[u8; 32]> {
            #[kernel($kernel)]
            fn inner<P: Params>(mode: HashMode, sk: &[u8], ct: &[u8]) -> [u8; 32] {
                $scheme::decapsulate::<P, $arith>(mode, sk, ct)
            }
            // SAFETY: the features are checked first.
            runs().then(|| unsafe { inner::<P>(mode, sk, ct) })
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

/// Checks `engine` (W lanes; the caller has checked its CPU features) against the matrix
/// and the hashes computed one after the other, for every k, both orientations and hash
/// lengths around the rate.
#[cfg(test)]
pub fn check_entries_and_hashes(w: usize, engine: LaneEngine) {
    use super::arith::default_matrix_and_hashes;
    use super::hash::hash_h;
    let data: Vec<u8> = (0..1700u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let lens = [0usize, 1, 32, 135, 136, 137, 272, 896, 992, 1440, 1568];
    for k in 2..=MAX_K {
        for transposed in [false, true] {
            let (jobs, n) = matrix_jobs(k, transposed);
            for (t, &l1) in lens.iter().enumerate() {
                let l2 = lens[(t * 7 + k) % lens.len()];
                let rho: [u8; SEED_BYTES] = core::array::from_fn(|i| data[i + t] ^ k as u8);
                let mut want: Matrix = Default::default();
                let (mut w1, mut w2) = ([0u8; 32], [0u8; 32]);
                default_matrix_and_hashes::<Soft>(
                    HashMode::Shake,
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
                assert_eq!(got, want, "W = {w}, k = {k}, lengths {l1} {l2}");
                assert_eq!((g1, g2), (w1, w2), "W = {w}, k = {k}, lengths {l1} {l2}");
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
                assert_eq!(one, want, "W = {w}, k = {k}, one hash of {l2}");
                assert_eq!(h, hash_h(HashMode::Shake, &[&data[..l2]]));
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
            check_entries_and_hashes(4, entries_and_hashes);
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
                Soft::compress(&mut want, &p, d);
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
