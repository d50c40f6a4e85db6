//! The constants and registers of the AVX2 kernels: π decomposed into 4-bit maps and
//! GF(16) products (one VPSHUFB per map), the linear maps around it as GF2P8AFFINEQB
//! matrices or nibble tables, and the multiplications of L.

use core::arch::x86_64::*;

use crate::kuznyechik::consts::{ELL, affine_matrix, gf_mul};

/// Blocks per batch: one byte of each in every lane of a YMM register.
pub(super) const LANES: usize = 32;
/// Bytes per batch.
pub(super) const BATCH: usize = LANES * 16;

pub(super) type State = [__m256i; 16];

/// The distinct non-trivial coefficients of ℓ, in the order the R steps use them.
pub(super) const COEFFICIENTS: [u8; 7] = [ELL[0], ELL[1], ELL[2], ELL[3], ELL[4], ELL[5], ELL[7]];

/// `c * i` and `c * (i << 4)` for i = 0..16, for every coefficient.
pub(super) const NIBBLE_PRODUCTS: [[[u8; 16]; 2]; 7] = {
    let mut t = [[[0u8; 16]; 2]; 7];
    let mut c = 0;
    while c < 7 {
        let mut i = 0;
        while i < 16 {
            t[c][0][i] = gf_mul(i as u8, COEFFICIENTS[c]);
            t[c][1][i] = gf_mul((i as u8) << 4, COEFFICIENTS[c]);
            i += 1;
        }
        c += 1;
    }
    t
};

/// The coefficients as GF2P8AFFINEQB matrices, computed at compile time.
pub(super) const MATRICES: [u64; 7] = {
    let mut m = [0u64; 7];
    let mut c = 0;
    while c < 7 {
        m[c] = affine_matrix(COEFFICIENTS[c]);
        c += 1;
    }
    m
};

/// The 4-bit maps of the decomposition of π (facts from the paper cited above).
pub(super) const NU0: [u8; 16] = [2, 5, 3, 11, 6, 9, 14, 10, 0, 4, 15, 1, 8, 13, 12, 7];
pub(super) const NU1: [u8; 16] = [7, 6, 12, 9, 0, 15, 8, 1, 4, 5, 11, 14, 13, 2, 3, 10];
pub(super) const SIGMA: [u8; 16] = [12, 13, 0, 4, 8, 11, 10, 14, 3, 9, 5, 2, 15, 1, 6, 7];
pub(super) const PHI: [u8; 16] = [11, 2, 11, 8, 12, 4, 1, 12, 6, 3, 5, 8, 14, 3, 6, 11];
/// The linear maps α (applied first) and ω (applied last), one row per output bit from the
/// most significant: output bit `7 - y` is the parity of `row[y] & input`.
pub(super) const ALPHA_ROWS: [u8; 8] = [0x08, 0x41, 0x43, 0xef, 0x8a, 0x44, 0x1a, 0x20];
pub(super) const OMEGA_ROWS: [u8; 8] = [0x0a, 0x04, 0x20, 0x9a, 0x08, 0x44, 0x82, 0x01];

/// Product in GF(16) modulo x^4 + x^3 + 1.
pub(super) const fn gf16_mul(mut a: u8, mut b: u8) -> u8 {
    let mut r = 0;
    while b != 0 {
        if b & 1 != 0 {
            r ^= a;
        }
        a <<= 1;
        if a & 0x10 != 0 {
            a ^= 0x19;
        }
        b >>= 1;
    }
    r
}

/// Powers of the generator x of GF(16)*: `EXP[d] = x^d` for d < 15; entry 15 is never read.
pub(super) const EXP: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut v = 1;
    let mut d = 0;
    while d < 15 {
        t[d] = v;
        v = gf16_mul(v, 2);
        d += 1;
    }
    t
};

/// Marks a logarithm of zero: it keeps the top bit set through the additions and the
/// reduction below, so the exponential lookup gives zero.
pub(super) const LOG_OF_ZERO: u8 = 0xf0;

/// `LOG[v] = d` with `x^d = v`, and [`LOG_OF_ZERO`] for zero.
pub(super) const LOG: [u8; 16] = {
    let mut t = [LOG_OF_ZERO; 16];
    let mut d = 0;
    while d < 15 {
        t[EXP[d] as usize] = d as u8;
        d += 1;
    }
    t
};

pub(super) const fn map16(f: &[u8; 16], g: &[u8; 16]) -> [u8; 16] {
    let mut t = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        t[i] = f[g[i] as usize];
        i += 1;
    }
    t
}

pub(super) const fn invert16(f: &[u8; 16]) -> [u8; 16] {
    let mut t = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        t[f[i] as usize] = i as u8;
        i += 1;
    }
    t
}

/// The logarithm of the inverse, `(15 - log v) mod 15`, for the non-zero entries of `f`;
/// [`LOG_OF_ZERO`] where `f` is zero.
pub(super) const fn neg_log_of(f: &[u8; 16]) -> [u8; 16] {
    let mut t = [LOG_OF_ZERO; 16];
    let mut i = 0;
    while i < 16 {
        if f[i] != 0 {
            t[i] = (15 - LOG[f[i] as usize]) % 15;
        }
        i += 1;
    }
    t
}

/// `f(x^d) ^ f(0)` for d < 15, so that a zero lookup (top bit set) plus `f(0)` gives f(0).
pub(super) const fn after_exp(f: &[u8; 16]) -> [u8; 16] {
    let mut t = [0u8; 16];
    let mut d = 0;
    while d < 15 {
        t[d] = f[EXP[d] as usize] ^ f[0];
        d += 1;
    }
    t
}

pub(super) const fn apply_rows(rows: &[u8; 8], x: u8) -> u8 {
    let mut out = 0;
    let mut y = 0;
    while y < 8 {
        out |= (((rows[y] & x).count_ones() & 1) as u8) << (7 - y);
        y += 1;
    }
    out
}

pub(super) const fn linear_table(rows: &[u8; 8]) -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut x = 0;
    while x < 256 {
        t[x] = apply_rows(rows, x as u8);
        x += 1;
    }
    t
}

pub(super) const fn invert256(f: &[u8; 256]) -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[f[i] as usize] = i as u8;
        i += 1;
    }
    t
}

/// A linear map of bytes as a GF2P8AFFINEQB matrix (the row of output bit `i` in byte
/// `7 - i`) and as the two nibble tables of the shuffle path, `low[i] = f(i) ^ constant` and
/// `high[i] = f(i << 4)`; the constant is the one GF2P8AFFINEQB adds by its immediate.
pub(super) struct LinearMap {
    matrix: u64,
    low: [u8; 16],
    high: [u8; 16],
}

pub(super) const fn linear_map(f: &[u8; 256], constant: u8) -> LinearMap {
    let mut m = LinearMap {
        matrix: 0,
        low: [0; 16],
        high: [0; 16],
    };
    let mut bit = 0;
    while bit < 8 {
        let mut row = 0u8;
        let mut j = 0;
        while j < 8 {
            row |= ((f[1 << j] >> bit) & 1) << j;
            j += 1;
        }
        m.matrix |= (row as u64) << (8 * (7 - bit));
        bit += 1;
    }
    let mut i = 0;
    while i < 16 {
        m.low[i] = f[i] ^ constant;
        m.high[i] = f[i << 4];
        i += 1;
    }
    m
}

pub(super) const ALPHA: [u8; 256] = linear_table(&ALPHA_ROWS);
pub(super) const OMEGA: [u8; 256] = linear_table(&OMEGA_ROWS);
/// The forward S-box ends with ω of a low nibble that the kernel keeps XORed with σ(0).
pub(super) const OMEGA_OF_SIGMA0: u8 = OMEGA[SIGMA[0] as usize];
pub(super) const FORWARD_IN: LinearMap = linear_map(&ALPHA, 0);
pub(super) const FORWARD_OUT: LinearMap = linear_map(&OMEGA, OMEGA_OF_SIGMA0);
pub(super) const INVERSE_IN: LinearMap = linear_map(&invert256(&OMEGA), 0);
pub(super) const INVERSE_OUT: LinearMap = linear_map(&invert256(&ALPHA), 0);

/// The six nibble tables of π, in the order [`substitute`] reads them.
pub(super) const FORWARD_NIBBLES: [[u8; 16]; 6] = [
    LOG,
    neg_log_of(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]),
    after_exp(&NU1),
    NU0,
    map16(&LOG, &PHI),
    after_exp(&SIGMA),
];
/// The six nibble tables of π⁻¹, in the order [`substitute_inverse`] reads them.
pub(super) const INVERSE_NIBBLES: [[u8; 16]; 6] = [
    map16(&LOG, &invert16(&SIGMA)),
    neg_log_of(&PHI),
    EXP,
    map16(&LOG, &invert16(&NU1)),
    invert16(&NU0),
    [0; 16],
];

/// The public constants of one direction and the broadcast round keys.
pub(super) struct Tables {
    /// The nibble tables of the S-box of this direction.
    pub(super) nibbles: [__m256i; 6],
    /// The linear maps before and after the nibble layer, as matrices and nibble tables.
    pub(super) map_in: [__m256i; 3],
    pub(super) map_out: [__m256i; 3],
    /// Low-nibble and high-nibble product tables per coefficient.
    pub(super) mul: [[__m256i; 2]; 7],
    /// The same multiplications as GF2P8AFFINEQB matrices.
    pub(super) affine: [__m256i; 7],
    pub(super) low_nibble: __m256i,
    pub(super) fifteen: __m256i,
    /// ν1(0), restored after a lookup that gave zero for a zero product.
    pub(super) nu1_of_zero: __m256i,
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn broadcast16(row: &[u8]) -> __m256i {
    // SAFETY: AVX2 is enabled by the caller; the load reads 16 bytes of a 16-byte slice.
    unsafe {
        let r: &[u8; 16] = row.try_into().expect("16-byte row");
        _mm256_broadcastsi128_si256(_mm_loadu_si128(r.as_ptr().cast()))
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn linear_registers(m: &LinearMap) -> [__m256i; 3] {
    // SAFETY: AVX2 is enabled by the caller.
    unsafe {
        [
            _mm256_set1_epi64x(m.matrix as i64),
            broadcast16(&m.low),
            broadcast16(&m.high),
        ]
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn tables(inverse: bool) -> Tables {
    // SAFETY: AVX2 is enabled by the caller; the helpers only read whole rows.
    unsafe {
        let zero = _mm256_setzero_si256();
        let (nibbles, map_in, map_out) = if inverse {
            (&INVERSE_NIBBLES, &INVERSE_IN, &INVERSE_OUT)
        } else {
            (&FORWARD_NIBBLES, &FORWARD_IN, &FORWARD_OUT)
        };
        let mut t = Tables {
            nibbles: [zero; 6],
            map_in: linear_registers(map_in),
            map_out: linear_registers(map_out),
            mul: [[zero; 2]; 7],
            affine: [zero; 7],
            low_nibble: _mm256_set1_epi8(0x0f),
            fifteen: _mm256_set1_epi8(15),
            nu1_of_zero: _mm256_set1_epi8(NU1[0] as i8),
        };
        for (r, n) in t.nibbles.iter_mut().zip(nibbles) {
            *r = broadcast16(n);
        }
        for (a, m) in t.affine.iter_mut().zip(MATRICES) {
            *a = _mm256_set1_epi64x(m as i64);
        }
        for (m, products) in t.mul.iter_mut().zip(&NIBBLE_PRODUCTS) {
            m[0] = broadcast16(&products[0]);
            m[1] = broadcast16(&products[1]);
        }
        t
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn xor(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: register-only AVX2 operation, enabled by the caller.
    unsafe { _mm256_xor_si256(a, b) }
}

/// A linear map of every byte: GF2P8AFFINEQB with the map's constant as immediate, or two
/// nibble lookups (the constant is in the low table).
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn linear<const GFNI: bool, const CONSTANT: i32>(
    x: __m256i,
    m: &[__m256i; 3],
    low_nibble: __m256i,
) -> __m256i {
    // SAFETY: register-only AVX2 (and, when `GFNI`, GFNI) operations, enabled by the caller.
    unsafe {
        if GFNI {
            return _mm256_gf2p8affine_epi64_epi8::<CONSTANT>(x, m[0]);
        }
        nibble_map(x, m[1], m[2], low_nibble)
    }
}

/// A linear map of every byte by its two nibble tables: `low[x & 15] ^ high[x >> 4]`, the
/// nibbles split with `low_nibble` (0x0f in every byte).
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn nibble_map(
    x: __m256i,
    low: __m256i,
    high: __m256i,
    low_nibble: __m256i,
) -> __m256i {
    // SAFETY: register-only AVX2 operations, enabled by the caller.
    unsafe {
        let x_low = _mm256_and_si256(x, low_nibble);
        let x_high = _mm256_and_si256(_mm256_srli_epi16::<4>(x), low_nibble);
        xor(
            _mm256_shuffle_epi8(low, x_low),
            _mm256_shuffle_epi8(high, x_high),
        )
    }
}

/// `d mod 15` for d in 0..29; values with the top bit set (a logarithm of zero) stay >= 0x80.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn mod15(d: __m256i, fifteen: __m256i) -> __m256i {
    // SAFETY: register-only AVX2 operations, enabled by the caller.
    unsafe { _mm256_min_epu8(d, _mm256_sub_epi8(d, fifteen)) }
}

/// The low nibble `l' ‖ r'` of each byte joined back: `(high << 4) | low`, both below 16.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn join(high: __m256i, low: __m256i) -> __m256i {
    // SAFETY: register-only AVX2 operations, enabled by the caller. `high` < 16 in every
    // byte, so the 16-bit shift moves no bit into the next byte.
    unsafe { _mm256_or_si256(_mm256_slli_epi16::<4>(high), low) }
}

/// π on every byte of `x`: (l, r) = α(x); l' = ν0(l) if r = 0, else ν1(l ⊙ r⁻¹);
/// r' = σ(r ⊙ φ(l')); π(x) = ω(l' ‖ r'). Products as sums of logarithms.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn substitute<const GFNI: bool>(x: __m256i, t: &Tables) -> __m256i {
    // SAFETY: register-only AVX2 (and GFNI when `GFNI`) operations, enabled by the caller.
    unsafe {
        let [log, neg_log, nu1_exp, nu0, log_phi, sigma_exp] = t.nibbles;
        let y = linear::<GFNI, 0>(x, &t.map_in, t.low_nibble);
        let r = _mm256_and_si256(y, t.low_nibble);
        let l = _mm256_and_si256(_mm256_srli_epi16::<4>(y), t.low_nibble);
        // Top bit set exactly where r = 0: also the selector between the two branches.
        let log_r = _mm256_shuffle_epi8(log, r);
        let quotient = mod15(
            _mm256_add_epi8(_mm256_shuffle_epi8(log, l), _mm256_shuffle_epi8(neg_log, r)),
            t.fifteen,
        );
        let l_general = xor(_mm256_shuffle_epi8(nu1_exp, quotient), t.nu1_of_zero);
        let l_out = _mm256_blendv_epi8(l_general, _mm256_shuffle_epi8(nu0, l), log_r);
        let product = mod15(
            _mm256_add_epi8(log_r, _mm256_shuffle_epi8(log_phi, l_out)),
            t.fifteen,
        );
        // σ(product) ^ σ(0); the output map adds ω(σ(0)) back.
        let r_out = _mm256_shuffle_epi8(sigma_exp, product);
        linear::<GFNI, { OMEGA_OF_SIGMA0 as i32 }>(join(l_out, r_out), &t.map_out, t.low_nibble)
    }
}

/// π⁻¹ on every byte of `x`: (l', r') = ω⁻¹(x); r = σ⁻¹(r') ⊙ φ(l')⁻¹; l = ν0⁻¹(l') if
/// r = 0, else ν1⁻¹(l') ⊙ r; π⁻¹(x) = α⁻¹(l ‖ r).
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn substitute_inverse<const GFNI: bool>(x: __m256i, t: &Tables) -> __m256i {
    // SAFETY: register-only AVX2 (and GFNI when `GFNI`) operations, enabled by the caller.
    unsafe {
        let [log_sigma_inv, neg_log_phi, exp, log_nu1_inv, nu0_inv, _] = t.nibbles;
        let z = linear::<GFNI, 0>(x, &t.map_in, t.low_nibble);
        let r_out = _mm256_and_si256(z, t.low_nibble);
        let l_out = _mm256_and_si256(_mm256_srli_epi16::<4>(z), t.low_nibble);
        // log r, with the top bit set exactly where r = 0.
        let log_r = mod15(
            _mm256_add_epi8(
                _mm256_shuffle_epi8(log_sigma_inv, r_out),
                _mm256_shuffle_epi8(neg_log_phi, l_out),
            ),
            t.fifteen,
        );
        let r = _mm256_shuffle_epi8(exp, log_r);
        let log_l = mod15(
            _mm256_add_epi8(_mm256_shuffle_epi8(log_nu1_inv, l_out), log_r),
            t.fifteen,
        );
        let l_general = _mm256_shuffle_epi8(exp, log_l);
        let l = _mm256_blendv_epi8(l_general, _mm256_shuffle_epi8(nu0_inv, l_out), log_r);
        linear::<GFNI, 0>(join(l, r), &t.map_out, t.low_nibble)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kuznyechik::consts::{PI, PI_INV};

    /// The decomposition, evaluated byte by byte as the kernel evaluates it, gives π and π⁻¹.
    #[test]
    fn decomposed_sbox_is_pi() {
        let linear = |m: &LinearMap, x: u8| m.low[(x & 15) as usize] ^ m.high[(x >> 4) as usize];
        let lookup = |table: &[u8; 16], i: u8| {
            if i & 0x80 != 0 {
                0
            } else {
                table[(i & 15) as usize]
            }
        };
        let mod15 = |d: u8| d.min(d.wrapping_sub(15));
        let [log, neg_log, nu1_exp, nu0, log_phi, sigma_exp] = FORWARD_NIBBLES;
        let [log_sigma_inv, neg_log_phi, exp, log_nu1_inv, nu0_inv, _] = INVERSE_NIBBLES;
        for x in 0..=255u8 {
            let y = linear(&FORWARD_IN, x);
            let (l, r) = (y >> 4, y & 15);
            let log_r = lookup(&log, r);
            let q = mod15(lookup(&log, l).wrapping_add(lookup(&neg_log, r)));
            let l_out = if log_r & 0x80 != 0 {
                lookup(&nu0, l)
            } else {
                lookup(&nu1_exp, q) ^ NU1[0]
            };
            let p = mod15(log_r.wrapping_add(lookup(&log_phi, l_out)));
            let out = linear(&FORWARD_OUT, (l_out << 4) | lookup(&sigma_exp, p));
            assert_eq!(out, PI[x as usize], "π({x})");

            let z = linear(&INVERSE_IN, x);
            let (l_out, r_out) = (z >> 4, z & 15);
            let log_r =
                mod15(lookup(&log_sigma_inv, r_out).wrapping_add(lookup(&neg_log_phi, l_out)));
            let r = lookup(&exp, log_r);
            let log_l = mod15(lookup(&log_nu1_inv, l_out).wrapping_add(log_r));
            let l = if log_r & 0x80 != 0 {
                lookup(&nu0_inv, l_out)
            } else {
                lookup(&exp, log_l)
            };
            assert_eq!(
                linear(&INVERSE_OUT, (l << 4) | r),
                PI_INV[x as usize],
                "π⁻¹({x})"
            );
        }
        for m in [&FORWARD_IN, &FORWARD_OUT, &INVERSE_IN, &INVERSE_OUT] {
            for x in 0..=255u8 {
                let mut by_matrix = 0u8;
                for bit in 0..8 {
                    let row = (m.matrix >> (8 * (7 - bit))) as u8;
                    by_matrix |= (((row & x).count_ones() & 1) as u8) << bit;
                }
                let constant = m.low[0];
                assert_eq!(
                    by_matrix ^ constant,
                    linear(m, x),
                    "matrix and nibble tables agree"
                );
            }
        }
    }
}
