//! The NTT, inverse NTT, products and reductions on 16 coefficients per register.

use super::*;

/// Per-lane twiddles of the in-register layers: `LANE_ZETAS[l][v]` is register v of layer
/// l (distance 8 >> l), forward order.
pub(super) const LANE_ZETAS: [[[i16; 16]; 16]; 4] = {
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
pub(super) const LANE_ZETAS_INV: [[[i16; 16]; 16]; 4] = {
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
pub(super) const fn times_qinv(table: [[[i16; 16]; 16]; 4]) -> [[[i16; 16]; 16]; 4] {
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

pub(super) const LANE_ZETAS_QINV: [[[i16; 16]; 16]; 4] = times_qinv(LANE_ZETAS);
pub(super) const LANE_ZETAS_INV_QINV: [[[i16; 16]; 16]; 4] = times_qinv(LANE_ZETAS_INV);

#[kernel(AIGIS_LANES_AVX2)]
#[inline]
pub(super) fn load(p: &Poly) -> [__m256i; 16] {
    // SAFETY: Poly is 512 bytes; each load reads 32 of them, no alignment needed.
    core::array::from_fn(|i| unsafe { _mm256_loadu_si256(p.0.as_ptr().add(16 * i).cast()) })
}

#[kernel(AIGIS_LANES_AVX2)]
#[inline]
pub(super) fn store(p: &mut Poly, v: &[__m256i; 16]) {
    for (i, x) in v.iter().enumerate() {
        // SAFETY: Poly is 512 bytes; each store writes 32 of them, no alignment needed.
        unsafe { _mm256_storeu_si256(p.0.as_mut_ptr().add(16 * i).cast(), *x) };
    }
}

#[kernel(AIGIS_LANES_AVX2)]
#[inline]
pub(super) fn lanes(t: &[i16; 16]) -> __m256i {
    // SAFETY: 32 readable bytes.
    unsafe { _mm256_loadu_si256(t.as_ptr().cast()) }
}

/// a * b * 2^-16 mod q lane by lane, with `b_qinv` = b * q^-1 mod 2^16; |result| < q when
/// |a * b| < q * 2^15.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
pub(super) fn fqmul(a: __m256i, b: __m256i, b_qinv: __m256i) -> __m256i {
    let hi = _mm256_mulhi_epi16(a, b);
    let t = _mm256_mullo_epi16(a, b_qinv);
    _mm256_sub_epi16(hi, _mm256_mulhi_epi16(t, _mm256_set1_epi16(Q)))
}

/// a * b * 2^-16 mod q for two variable operands.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
pub(super) fn fqmul_vv(a: __m256i, b: __m256i) -> __m256i {
    let hi = _mm256_mulhi_epi16(a, b);
    let lo = _mm256_mullo_epi16(a, b);
    let t = _mm256_mullo_epi16(lo, _mm256_set1_epi16(QINV));
    _mm256_sub_epi16(hi, _mm256_mulhi_epi16(t, _mm256_set1_epi16(Q)))
}

/// Any 16-bit value to a representative of absolute value below q.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
pub(super) fn barrett(a: __m256i) -> __m256i {
    // t ≈ a / q as round(floor(a * 8737 / 2^16) / 2^10).
    let t = _mm256_mulhi_epi16(a, _mm256_set1_epi16(8737));
    let t = _mm256_mulhrs_epi16(t, _mm256_set1_epi16(32));
    _mm256_sub_epi16(a, _mm256_mullo_epi16(t, _mm256_set1_epi16(Q)))
}

/// The copy of `x` with lanes l and l ^ dist exchanged.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
pub(super) fn swap_lanes<const DIST: usize>(x: __m256i) -> __m256i {
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
pub(super) fn take_upper<const DIST: usize>(x: __m256i, y: __m256i) -> __m256i {
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
pub(super) fn forward_in_register<const DIST: usize, const LAYER: usize>(v: &mut [__m256i; 16]) {
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
pub(super) fn inverse_in_register<const DIST: usize, const LAYER: usize>(v: &mut [__m256i; 16]) {
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
pub(super) fn forward_across(v: &mut [__m256i; 16], regs: usize, first_k: usize) {
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
pub(super) fn inverse_across(v: &mut [__m256i; 16], regs: usize, last_k: usize) {
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
pub(super) fn reduce_all(v: &mut [__m256i; 16]) {
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
pub(super) fn barrett_all_i16(out: &mut [i16]) {
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
pub(super) fn freeze_all_i16(out: &mut [i16]) {
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
