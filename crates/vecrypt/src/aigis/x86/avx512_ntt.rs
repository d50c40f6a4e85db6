//! NTT, inverse NTT and products on 512-bit registers: 32 coefficients per register, so a
//! polynomial is 8 registers and every layer is half the instructions of the AVX2 form.
//!
//! The layout is the AVX2 one, twice as wide: layers at distance 32 or more pair whole
//! registers; the five layers at distances 16 ... 1 pair lanes inside a register (the
//! register and a lane-swapped copy are merged under a mask into the "a" and "b" operands of
//! every butterfly). The arithmetic is the AVX2 arithmetic coefficient for coefficient, with
//! the same reduction points, so both backends give identical representatives.
//!
//! Every function is compiled for AVX-512BW and only reached from the AVX-512 entry points,
//! after the CPU check.

use core::arch::x86_64::*;

use super::ntt::{INV_N_MONT, ZETAS};
use super::params::{N, Q};
use super::poly::Poly;
use super::reduce::{QINV, R2_MOD_Q};
use crate::cpu::kernel;

/// Coefficients per register.
const LANES: usize = 32;
/// Registers per polynomial.
const REGS: usize = N / LANES;
/// The in-register layers, by distance 16, 8, 4, 2, 1.
const IN_REGISTER: usize = 5;

/// Per-lane twiddles of the in-register layers: entry `[l][v]` is register v of the layer
/// at distance 16 >> l; `inverse` picks the inverse transform's order (group g at distance
/// d uses ZETAS[256 / d - 1 - g] instead of ZETAS[128 / d + g]).
const fn lane_zetas(inverse: bool) -> [[[i16; LANES]; REGS]; IN_REGISTER] {
    let mut t = [[[0i16; LANES]; REGS]; IN_REGISTER];
    let mut l = 0;
    while l < IN_REGISTER {
        let dist = 16 >> l;
        let groups_per_reg = LANES / (2 * dist);
        let mut v = 0;
        while v < REGS {
            let mut lane = 0;
            while lane < LANES {
                let g = v * groups_per_reg + lane / (2 * dist);
                t[l][v][lane] = if inverse {
                    ZETAS[2 * 128 / dist - 1 - g]
                } else {
                    ZETAS[128 / dist + g]
                };
                lane += 1;
            }
            v += 1;
        }
        l += 1;
    }
    t
}

/// `table` times q^-1 mod 2^16, lane by lane (the low half of a Montgomery product).
const fn times_qinv(
    table: [[[i16; LANES]; REGS]; IN_REGISTER],
) -> [[[i16; LANES]; REGS]; IN_REGISTER] {
    let mut t = table;
    let mut l = 0;
    while l < IN_REGISTER {
        let mut v = 0;
        while v < REGS {
            let mut lane = 0;
            while lane < LANES {
                t[l][v][lane] = table[l][v][lane].wrapping_mul(QINV);
                lane += 1;
            }
            v += 1;
        }
        l += 1;
    }
    t
}

const ZETAS_FWD: [[[i16; LANES]; REGS]; IN_REGISTER] = lane_zetas(false);
const ZETAS_FWD_QINV: [[[i16; LANES]; REGS]; IN_REGISTER] = times_qinv(ZETAS_FWD);
const ZETAS_INV: [[[i16; LANES]; REGS]; IN_REGISTER] = lane_zetas(true);
const ZETAS_INV_QINV: [[[i16; LANES]; REGS]; IN_REGISTER] = times_qinv(ZETAS_INV);

#[kernel(AIGIS_NTT_AVX512)]
#[inline]
fn load(p: &Poly) -> [__m512i; REGS] {
    let mut v = [_mm512_setzero_si512(); REGS];
    for (i, r) in v.iter_mut().enumerate() {
        // SAFETY: Poly is 512 bytes; each load reads 64 of them, no alignment needed.
        *r = unsafe { _mm512_loadu_si512(p.0.as_ptr().add(LANES * i).cast()) };
    }
    v
}

#[kernel(AIGIS_NTT_AVX512)]
#[inline]
fn store(p: &mut Poly, v: &[__m512i; REGS]) {
    for (i, x) in v.iter().enumerate() {
        // SAFETY: Poly is 512 bytes; each store writes 64 of them, no alignment needed.
        unsafe { _mm512_storeu_si512(p.0.as_mut_ptr().add(LANES * i).cast(), *x) };
    }
}

#[kernel(AIGIS_NTT_AVX512)]
#[inline]
fn lanes(t: &[i16; LANES]) -> __m512i {
    // SAFETY: 64 readable bytes.
    unsafe { _mm512_loadu_si512(t.as_ptr().cast()) }
}

/// a * b * 2^-16 mod q lane by lane, with `b_qinv` = b * q^-1 mod 2^16.
#[kernel(AIGIS_NTT_AVX512)]
#[inline]
fn fqmul(a: __m512i, b: __m512i, b_qinv: __m512i) -> __m512i {
    let hi = _mm512_mulhi_epi16(a, b);
    let t = _mm512_mullo_epi16(a, b_qinv);
    _mm512_sub_epi16(hi, _mm512_mulhi_epi16(t, _mm512_set1_epi16(Q)))
}

/// a * b * 2^-16 mod q for two variable operands.
#[kernel(AIGIS_NTT_AVX512)]
#[inline]
fn fqmul_vv(a: __m512i, b: __m512i) -> __m512i {
    let hi = _mm512_mulhi_epi16(a, b);
    let lo = _mm512_mullo_epi16(a, b);
    let t = _mm512_mullo_epi16(lo, _mm512_set1_epi16(QINV));
    _mm512_sub_epi16(hi, _mm512_mulhi_epi16(t, _mm512_set1_epi16(Q)))
}

/// Any 16-bit value to a representative of absolute value below q (the AVX2 formula).
#[kernel(AIGIS_NTT_AVX512)]
#[inline]
fn barrett(a: __m512i) -> __m512i {
    let t = _mm512_mulhi_epi16(a, _mm512_set1_epi16(8737));
    let t = _mm512_mulhrs_epi16(t, _mm512_set1_epi16(32));
    _mm512_sub_epi16(a, _mm512_mullo_epi16(t, _mm512_set1_epi16(Q)))
}

/// The copy of `x` with lanes l and l ^ DIST exchanged.
#[kernel(AIGIS_NTT_AVX512)]
#[inline]
fn swap_lanes<const DIST: usize>(x: __m512i) -> __m512i {
    match DIST {
        16 => _mm512_shuffle_i64x2::<0x4e>(x, x),
        8 => _mm512_shuffle_i64x2::<0xb1>(x, x),
        4 => _mm512_shuffle_epi32::<0x4e>(x),
        2 => _mm512_shuffle_epi32::<0xb1>(x),
        _ => _mm512_rol_epi32::<16>(x),
    }
}

/// The lanes l with (l & DIST) != 0, as a mask.
const fn upper(dist: usize) -> __mmask32 {
    let mut m = 0u32;
    let mut l = 0;
    while l < LANES {
        if l & dist != 0 {
            m |= 1 << l;
        }
        l += 1;
    }
    m
}

/// One forward layer at distance DIST < 32 on every register: the lower lane of each
/// butterfly gets a + t, the upper one a - t, with t = b * zeta.
#[kernel(AIGIS_NTT_AVX512)]
#[inline]
fn forward_in_register<const DIST: usize, const LAYER: usize>(v: &mut [__m512i; REGS]) {
    let up = upper(DIST);
    for (i, x) in v.iter_mut().enumerate() {
        let p = swap_lanes::<DIST>(*x);
        let a = _mm512_mask_blend_epi16(up, *x, p);
        let b = _mm512_mask_blend_epi16(up, p, *x);
        let t = fqmul(
            b,
            lanes(&ZETAS_FWD[LAYER][i]),
            lanes(&ZETAS_FWD_QINV[LAYER][i]),
        );
        *x = _mm512_mask_sub_epi16(_mm512_add_epi16(a, t), up, a, t);
    }
}

/// One inverse layer at distance DIST < 32 on every register.
#[kernel(AIGIS_NTT_AVX512)]
#[inline]
fn inverse_in_register<const DIST: usize, const LAYER: usize>(v: &mut [__m512i; REGS]) {
    let up = upper(DIST);
    for (i, x) in v.iter_mut().enumerate() {
        let p = swap_lanes::<DIST>(*x);
        let a = _mm512_mask_blend_epi16(up, *x, p);
        let b = _mm512_mask_blend_epi16(up, p, *x);
        let sum = _mm512_add_epi16(a, b);
        let diff = fqmul(
            _mm512_sub_epi16(b, a),
            lanes(&ZETAS_INV[LAYER][i]),
            lanes(&ZETAS_INV_QINV[LAYER][i]),
        );
        *x = _mm512_mask_blend_epi16(up, sum, diff);
    }
}

/// One forward layer at distance `regs` * 32 coefficients.
#[kernel(AIGIS_NTT_AVX512)]
#[inline]
fn forward_across(v: &mut [__m512i; REGS], regs: usize, first_k: usize) {
    let mut k = first_k;
    let mut start = 0;
    while start < REGS {
        let z = _mm512_set1_epi16(ZETAS[k]);
        let zq = _mm512_set1_epi16(ZETAS[k].wrapping_mul(QINV));
        for j in start..start + regs {
            let t = fqmul(v[j + regs], z, zq);
            v[j + regs] = _mm512_sub_epi16(v[j], t);
            v[j] = _mm512_add_epi16(v[j], t);
        }
        k += 1;
        start += 2 * regs;
    }
}

/// One inverse layer at distance `regs` * 32 coefficients.
#[kernel(AIGIS_NTT_AVX512)]
#[inline]
fn inverse_across(v: &mut [__m512i; REGS], regs: usize, last_k: usize) {
    let mut k = last_k;
    let mut start = 0;
    while start < REGS {
        let z = _mm512_set1_epi16(ZETAS[k]);
        let zq = _mm512_set1_epi16(ZETAS[k].wrapping_mul(QINV));
        for j in start..start + regs {
            let a = v[j];
            let b = v[j + regs];
            v[j] = _mm512_add_epi16(a, b);
            v[j + regs] = fqmul(_mm512_sub_epi16(b, a), z, zq);
        }
        k -= 1;
        start += 2 * regs;
    }
}

/// Makes every register of `v` an output of one point in the code, so that the compiler
/// cannot run each register through several layers in turn (which makes long dependency
/// chains; layer by layer, eight registers keep the multipliers busy).
#[kernel(AIGIS_NTT_AVX512)]
#[inline]
fn layer_barrier(v: &mut [__m512i; REGS]) {
    let [a, b, c, d, e, f, g, h] = v;
    crate::cpu::x86::pin_registers!(
        "/* {0} {1} {2} {3} {4} {5} {6} {7} */",
        zmm_reg;
        *a, *b, *c, *d, *e, *f, *g, *h
    );
}

#[kernel(AIGIS_NTT_AVX512)]
#[inline]
fn reduce_all(v: &mut [__m512i; REGS]) {
    for x in v.iter_mut() {
        *x = barrett(*x);
    }
}

/// Forward NTT (bit-reversed output): three layers between reductions, as on AVX2.
#[kernel(AIGIS_NTT_AVX512)]
pub fn ntt(p: &mut Poly) {
    let mut v = load(p);
    forward_across(&mut v, 4, 1);
    forward_across(&mut v, 2, 2);
    forward_across(&mut v, 1, 4);
    reduce_all(&mut v);
    forward_in_register::<16, 0>(&mut v);
    forward_in_register::<8, 1>(&mut v);
    forward_in_register::<4, 2>(&mut v);
    reduce_all(&mut v);
    forward_in_register::<2, 3>(&mut v);
    forward_in_register::<1, 4>(&mut v);
    reduce_all(&mut v);
    store(p, &v);
}

/// Inverse NTT with the division by 256: two layers between reductions, as on AVX2. Each
/// layer ends at a barrier: left free, the compiler runs registers through several layers
/// in turn and the time goes from about 250 cycles to 350.
#[kernel(AIGIS_NTT_AVX512)]
pub fn invntt(p: &mut Poly) {
    let mut v = load(p);
    inverse_in_register::<1, 4>(&mut v);
    layer_barrier(&mut v);
    inverse_in_register::<2, 3>(&mut v);
    layer_barrier(&mut v);
    reduce_all(&mut v);
    layer_barrier(&mut v);
    inverse_in_register::<4, 2>(&mut v);
    layer_barrier(&mut v);
    inverse_in_register::<8, 1>(&mut v);
    layer_barrier(&mut v);
    reduce_all(&mut v);
    layer_barrier(&mut v);
    inverse_in_register::<16, 0>(&mut v);
    layer_barrier(&mut v);
    inverse_across(&mut v, 1, 7);
    layer_barrier(&mut v);
    reduce_all(&mut v);
    layer_barrier(&mut v);
    inverse_across(&mut v, 2, 3);
    layer_barrier(&mut v);
    inverse_across(&mut v, 4, 1);
    layer_barrier(&mut v);
    let f = _mm512_set1_epi16(INV_N_MONT);
    let fq = _mm512_set1_epi16(INV_N_MONT.wrapping_mul(QINV));
    for x in v.iter_mut() {
        *x = fqmul(*x, f, fq);
    }
    store(p, &v);
}

/// r = sum_i a_i * b_i coefficient-wise, then one product by 2^32 mod q to undo the 2^-16.
#[kernel(AIGIS_NTT_AVX512)]
pub fn mul_acc(r: &mut Poly, a: &[Poly], b: &[Poly]) {
    let r2 = _mm512_set1_epi16(R2_MOD_Q);
    let r2q = _mm512_set1_epi16(R2_MOD_Q.wrapping_mul(QINV));
    for c in 0..REGS {
        let mut acc = _mm512_setzero_si512();
        for (x, y) in a.iter().zip(b.iter()) {
            // SAFETY: c < 8, so 32 c + 32 <= 256 coefficients are read from each.
            let (xv, yv) = unsafe {
                (
                    _mm512_loadu_si512(x.0.as_ptr().add(LANES * c).cast()),
                    _mm512_loadu_si512(y.0.as_ptr().add(LANES * c).cast()),
                )
            };
            acc = _mm512_add_epi16(acc, fqmul_vv(xv, yv));
        }
        let out = fqmul(acc, r2, r2q);
        // SAFETY: as above, 64 bytes inside r.
        unsafe { _mm512_storeu_si512(r.0.as_mut_ptr().add(LANES * c).cast(), out) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aigis::x86::avx2;
    use crate::cpu::kernels;

    #[test]
    fn transforms_and_products_equal_avx2_exactly() {
        if !(kernels::AIGIS_LANES_AVX2.runs() && kernels::AIGIS_NTT_AVX512.runs()) {
            return;
        }
        for seed in 0..40 {
            let a = avx2::sample_poly(seed, Q);
            let (mut x, mut y) = (a, a);
            // SAFETY: the features were checked above.
            unsafe {
                avx2::ntt(&mut x);
                ntt(&mut y);
            }
            assert_eq!(x, y, "ntt, seed {seed}");
            let (mut x, mut y) = (a, a);
            // SAFETY: as above.
            unsafe {
                avx2::invntt(&mut x);
                invntt(&mut y);
            }
            assert_eq!(x, y, "invntt, seed {seed}");
            let terms: Vec<Poly> = (0..8)
                .map(|t| avx2::sample_poly(seed * 8 + t + 100, Q))
                .collect();
            for k in 1..=4 {
                let (mut x, mut y) = (Poly::default(), Poly::default());
                // SAFETY: as above.
                unsafe {
                    avx2::mul_acc(&mut x, &terms[..k], &terms[4..4 + k]);
                    mul_acc(&mut y, &terms[..k], &terms[4..4 + k]);
                }
                assert_eq!(x, y, "mul_acc k={k}");
            }
        }
    }
}
