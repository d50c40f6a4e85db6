//! Byte-sliced Kuznyechik on AVX2: 32 blocks per batch, constant time, no AVX-512
//! instruction; byte shuffles only, or GFNI on YMM where the CPU has it.
//!
//! The layout and the R-step ring are those of the AVX-512 backend, on YMM registers (one
//! byte of 32 blocks each). Without VPERMI2B and GF2P8AFFINEQB:
//! - S follows the structure of π found by Biryukov, Perrin and Udovenko ("Reverse-Engineering
//!   the S-Box of Streebog, Kuznyechik and STRIBOBr1", Eurocrypt 2016): a linear map, two
//!   4-bit halves combined through GF(16) products and 4-bit permutations, another linear map.
//!   Every 4-bit map is one VPSHUFB; a product of two variable nibbles is a sum of logarithms
//!   (VPADDB, reduced mod 15 by VPMINUB) and one VPSHUFB of an exponential table, zero handled
//!   by the VPSHUFB rule that an index with its top bit set gives zero. About 25 instructions
//!   per register instead of the 16 row lookups and 14 blends of a plain 256-entry table.
//! - A multiplication by a constant (and the linear maps of S) is two VPSHUFB lookups, one per
//!   nibble, XORed.
//!
//! Where the CPU has GFNI (as many without AVX-512 do), batches run the kernel of
//! [`x86_gfni`] instead: the same decomposition of π with its GF(16) products and inverse
//! computed inside the AES field by GF2P8MULB and GF2P8AFFINEINVQB (13 instructions per
//! register and round for π, 12 for π⁻¹), the multiplications of L by GF2P8AFFINEQB, all on
//! YMM; fewer than ten blocks run two per register through [`lane_blocks`].
//!
//! With GFNI the kernel is bound by the three vector ports: per register (one byte of 32
//! blocks) and round, 35 vector instructions (π or π⁻¹ with the key, and the 7
//! GF2P8AFFINEQB and 15 XORs of an R step), so at least 16 × 35 / 3 ≈ 187 cycles a round,
//! about 3.3 cycles per byte for nine rounds; spills of the sixteen state registers and
//! imperfect port assignment put the measured figure near 4.2 (835 MB/s at about 3.5 GHz).

use core::arch::x86_64::*;

use super::RoundKeys;
use super::consts::{
    ELL, PHI as TO_AES_FIELD, PHI_INV as FROM_AES_FIELD, ROUND_CONSTANTS, affine_matrix, gf_mul,
    matrix_of, phi_columns,
};
use crate::cpu::{kernel, kernels};

/// Blocks per batch: one byte of each in every lane of a YMM register.
const LANES: usize = 32;
/// Bytes per batch.
const BATCH: usize = LANES * 16;

/// Whether this CPU can run the backend.
pub(super) fn available() -> bool {
    kernels::KUZNYECHIK_AVX2.runs()
}

type State = [__m256i; 16];

/// The distinct non-trivial coefficients of ℓ, in the order the R steps use them.
const COEFFICIENTS: [u8; 7] = [ELL[0], ELL[1], ELL[2], ELL[3], ELL[4], ELL[5], ELL[7]];

/// `c * i` and `c * (i << 4)` for i = 0..16, for every coefficient.
const NIBBLE_PRODUCTS: [[[u8; 16]; 2]; 7] = {
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
const MATRICES: [u64; 7] = {
    let mut m = [0u64; 7];
    let mut c = 0;
    while c < 7 {
        m[c] = affine_matrix(COEFFICIENTS[c]);
        c += 1;
    }
    m
};

/// The 4-bit maps of the decomposition of π (facts from the paper cited above).
const NU0: [u8; 16] = [2, 5, 3, 11, 6, 9, 14, 10, 0, 4, 15, 1, 8, 13, 12, 7];
const NU1: [u8; 16] = [7, 6, 12, 9, 0, 15, 8, 1, 4, 5, 11, 14, 13, 2, 3, 10];
const SIGMA: [u8; 16] = [12, 13, 0, 4, 8, 11, 10, 14, 3, 9, 5, 2, 15, 1, 6, 7];
const PHI: [u8; 16] = [11, 2, 11, 8, 12, 4, 1, 12, 6, 3, 5, 8, 14, 3, 6, 11];
/// The linear maps α (applied first) and ω (applied last), one row per output bit from the
/// most significant: output bit `7 - y` is the parity of `row[y] & input`.
const ALPHA_ROWS: [u8; 8] = [0x08, 0x41, 0x43, 0xef, 0x8a, 0x44, 0x1a, 0x20];
const OMEGA_ROWS: [u8; 8] = [0x0a, 0x04, 0x20, 0x9a, 0x08, 0x44, 0x82, 0x01];

/// Product in GF(16) modulo x^4 + x^3 + 1.
const fn gf16_mul(mut a: u8, mut b: u8) -> u8 {
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
const EXP: [u8; 16] = {
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
const LOG_OF_ZERO: u8 = 0xf0;

/// `LOG[v] = d` with `x^d = v`, and [`LOG_OF_ZERO`] for zero.
const LOG: [u8; 16] = {
    let mut t = [LOG_OF_ZERO; 16];
    let mut d = 0;
    while d < 15 {
        t[EXP[d] as usize] = d as u8;
        d += 1;
    }
    t
};

const fn map16(f: &[u8; 16], g: &[u8; 16]) -> [u8; 16] {
    let mut t = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        t[i] = f[g[i] as usize];
        i += 1;
    }
    t
}

const fn invert16(f: &[u8; 16]) -> [u8; 16] {
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
const fn neg_log_of(f: &[u8; 16]) -> [u8; 16] {
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
const fn after_exp(f: &[u8; 16]) -> [u8; 16] {
    let mut t = [0u8; 16];
    let mut d = 0;
    while d < 15 {
        t[d] = f[EXP[d] as usize] ^ f[0];
        d += 1;
    }
    t
}

const fn apply_rows(rows: &[u8; 8], x: u8) -> u8 {
    let mut out = 0;
    let mut y = 0;
    while y < 8 {
        out |= (((rows[y] & x).count_ones() & 1) as u8) << (7 - y);
        y += 1;
    }
    out
}

const fn linear_table(rows: &[u8; 8]) -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut x = 0;
    while x < 256 {
        t[x] = apply_rows(rows, x as u8);
        x += 1;
    }
    t
}

const fn invert256(f: &[u8; 256]) -> [u8; 256] {
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
struct LinearMap {
    matrix: u64,
    low: [u8; 16],
    high: [u8; 16],
}

const fn linear_map(f: &[u8; 256], constant: u8) -> LinearMap {
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

const ALPHA: [u8; 256] = linear_table(&ALPHA_ROWS);
const OMEGA: [u8; 256] = linear_table(&OMEGA_ROWS);
/// The forward S-box ends with ω of a low nibble that the kernel keeps XORed with σ(0).
const OMEGA_OF_SIGMA0: u8 = OMEGA[SIGMA[0] as usize];
const FORWARD_IN: LinearMap = linear_map(&ALPHA, 0);
const FORWARD_OUT: LinearMap = linear_map(&OMEGA, OMEGA_OF_SIGMA0);
const INVERSE_IN: LinearMap = linear_map(&invert256(&OMEGA), 0);
const INVERSE_OUT: LinearMap = linear_map(&invert256(&ALPHA), 0);

/// The six nibble tables of π, in the order [`substitute`] reads them.
const FORWARD_NIBBLES: [[u8; 16]; 6] = [
    LOG,
    neg_log_of(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]),
    after_exp(&NU1),
    NU0,
    map16(&LOG, &PHI),
    after_exp(&SIGMA),
];
/// The six nibble tables of π⁻¹, in the order [`substitute_inverse`] reads them.
const INVERSE_NIBBLES: [[u8; 16]; 6] = [
    map16(&LOG, &invert16(&SIGMA)),
    neg_log_of(&PHI),
    EXP,
    map16(&LOG, &invert16(&NU1)),
    invert16(&NU0),
    [0; 16],
];

/// The public constants of one direction and the broadcast round keys.
struct Tables {
    /// The nibble tables of the S-box of this direction.
    nibbles: [__m256i; 6],
    /// The linear maps before and after the nibble layer, as matrices and nibble tables.
    map_in: [__m256i; 3],
    map_out: [__m256i; 3],
    /// Low-nibble and high-nibble product tables per coefficient.
    mul: [[__m256i; 2]; 7],
    /// The same multiplications as GF2P8AFFINEQB matrices.
    affine: [__m256i; 7],
    low_nibble: __m256i,
    fifteen: __m256i,
    /// ν1(0), restored after a lookup that gave zero for a zero product.
    nu1_of_zero: __m256i,
}

#[inline(always)]
unsafe fn broadcast16(row: &[u8]) -> __m256i {
    // SAFETY: AVX2 is enabled by the caller; the load reads 16 bytes of a 16-byte slice.
    unsafe {
        let r: &[u8; 16] = row.try_into().expect("16-byte row");
        _mm256_broadcastsi128_si256(_mm_loadu_si128(r.as_ptr().cast()))
    }
}

#[inline(always)]
unsafe fn linear_registers(m: &LinearMap) -> [__m256i; 3] {
    // SAFETY: AVX2 is enabled by the caller.
    unsafe {
        [
            _mm256_set1_epi64x(m.matrix as i64),
            broadcast16(&m.low),
            broadcast16(&m.high),
        ]
    }
}

#[inline(always)]
unsafe fn tables(inverse: bool) -> Tables {
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

#[inline(always)]
unsafe fn xor(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: register-only AVX2 operation, enabled by the caller.
    unsafe { _mm256_xor_si256(a, b) }
}

/// A linear map of every byte: GF2P8AFFINEQB with the map's constant as immediate, or two
/// nibble lookups (the constant is in the low table).
#[inline(always)]
unsafe fn linear<const GFNI: bool, const CONSTANT: i32>(
    x: __m256i,
    m: &[__m256i; 3],
    low_nibble: __m256i,
) -> __m256i {
    // SAFETY: register-only AVX2 (and, when `GFNI`, GFNI) operations, enabled by the caller.
    unsafe {
        if GFNI {
            return _mm256_gf2p8affine_epi64_epi8::<CONSTANT>(x, m[0]);
        }
        let low = _mm256_and_si256(x, low_nibble);
        let high = _mm256_and_si256(_mm256_srli_epi16::<4>(x), low_nibble);
        xor(
            _mm256_shuffle_epi8(m[1], low),
            _mm256_shuffle_epi8(m[2], high),
        )
    }
}

/// `d mod 15` for d in 0..29; values with the top bit set (a logarithm of zero) stay >= 0x80.
#[inline(always)]
unsafe fn mod15(d: __m256i, fifteen: __m256i) -> __m256i {
    // SAFETY: register-only AVX2 operations, enabled by the caller.
    unsafe { _mm256_min_epu8(d, _mm256_sub_epi8(d, fifteen)) }
}

/// The low nibble `l' ‖ r'` of each byte joined back: `(high << 4) | low`, both below 16.
#[inline(always)]
unsafe fn join(high: __m256i, low: __m256i) -> __m256i {
    // SAFETY: register-only AVX2 operations, enabled by the caller. `high` < 16 in every
    // byte, so the 16-bit shift moves no bit into the next byte.
    unsafe { _mm256_or_si256(_mm256_slli_epi16::<4>(high), low) }
}

/// π on every byte of `x`: (l, r) = α(x); l' = ν0(l) if r = 0, else ν1(l ⊙ r⁻¹);
/// r' = σ(r ⊙ φ(l')); π(x) = ω(l' ‖ r'). Products as sums of logarithms.
#[inline(always)]
unsafe fn substitute<const GFNI: bool>(x: __m256i, t: &Tables) -> __m256i {
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
#[inline(always)]
unsafe fn substitute_inverse<const GFNI: bool>(x: __m256i, t: &Tables) -> __m256i {
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

/// `x` times coefficient number `c`: by GF2P8AFFINEQB when `GFNI` (the caller then runs
/// with GFNI enabled), else by one lookup per nibble.
#[inline(always)]
unsafe fn mul<const GFNI: bool>(x: __m256i, c: usize, t: &Tables) -> __m256i {
    // SAFETY: register-only AVX2 (and, when `GFNI`, GFNI) operations, enabled by the caller.
    unsafe {
        if GFNI {
            return _mm256_gf2p8affine_epi64_epi8::<0>(x, t.affine[c]);
        }
        let low = _mm256_and_si256(x, t.low_nibble);
        let high = _mm256_and_si256(_mm256_srli_epi16::<4>(x), t.low_nibble);
        xor(
            _mm256_shuffle_epi8(t.mul[c][0], low),
            _mm256_shuffle_epi8(t.mul[c][1], high),
        )
    }
}

/// One R step; see the AVX-512 backend for the ring of registers.
#[inline(always)]
unsafe fn r_step<const STEP: usize, const GFNI: bool>(s: &mut State, t: &Tables) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let x = |k: usize| s[(k + 16 - STEP) % 16];
        let others = xor(
            xor(
                xor(
                    mul::<GFNI>(xor(x(1), x(13)), 1, t),
                    mul::<GFNI>(xor(x(2), x(12)), 2, t),
                ),
                xor(
                    mul::<GFNI>(xor(x(3), x(11)), 3, t),
                    mul::<GFNI>(xor(x(4), x(10)), 4, t),
                ),
            ),
            xor(
                xor(mul::<GFNI>(xor(x(5), x(9)), 5, t), mul::<GFNI>(x(7), 6, t)),
                xor(xor(x(6), x(8)), x(15)),
            ),
        );
        s[(15 + 16 - STEP) % 16] = xor(others, mul::<GFNI>(xor(x(0), x(14)), 0, t));
    }
}

/// One R⁻¹ step; see the AVX-512 backend.
#[inline(always)]
unsafe fn r_inv_step<const STEP: usize, const GFNI: bool>(s: &mut State, t: &Tables) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let y = |k: usize| s[(k + STEP) % 16];
        let others = xor(
            xor(
                xor(
                    mul::<GFNI>(xor(y(2), y(14)), 1, t),
                    mul::<GFNI>(xor(y(3), y(13)), 2, t),
                ),
                xor(
                    mul::<GFNI>(xor(y(4), y(12)), 3, t),
                    mul::<GFNI>(xor(y(5), y(11)), 4, t),
                ),
            ),
            xor(
                xor(mul::<GFNI>(xor(y(6), y(10)), 5, t), mul::<GFNI>(y(8), 6, t)),
                xor(xor(y(7), y(9)), y(0)),
            ),
        );
        s[STEP % 16] = xor(others, mul::<GFNI>(xor(y(1), y(15)), 0, t));
    }
}

#[inline(always)]
unsafe fn sbox<const I: usize, const GFNI: bool>(s: &mut State, t: &Tables) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe { s[I] = substitute::<GFNI>(s[I], t) }
}

#[inline(always)]
unsafe fn sbox_inverse<const I: usize, const GFNI: bool>(s: &mut State, t: &Tables) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe { s[I] = substitute_inverse::<GFNI>(s[I], t) }
}

#[inline(always)]
unsafe fn key<const I: usize>(s: &mut State, k: &[u8; 16]) {
    // SAFETY: register-only operations, enabled by the caller. The round key is broadcast
    // where it is used rather than kept expanded, so no copy of it outlives the call.
    unsafe { s[I] = xor(s[I], _mm256_set1_epi8(k[I] as i8)) }
}

#[inline(always)]
unsafe fn encrypt_state<const GFNI: bool>(s: &mut State, t: &Tables, rk: &RoundKeys) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        for round in 0..9 {
            unroll16!(key(s, &rk.0[round]));
            unroll16!(sbox[GFNI](s, t));
            unroll16!(r_step[GFNI](s, t));
        }
        unroll16!(key(s, &rk.0[9]));
    }
}

#[inline(always)]
unsafe fn decrypt_state<const GFNI: bool>(s: &mut State, t: &Tables, rk: &RoundKeys) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        for round in (1..10).rev() {
            unroll16!(key(s, &rk.0[round]));
            unroll16!(r_inv_step[GFNI](s, t));
            unroll16!(sbox_inverse[GFNI](s, t));
        }
        unroll16!(key(s, &rk.0[0]));
    }
}

/// Transposes the 16x16 byte matrix held in the 128-bit lanes of sixteen registers (each
/// lane separately): four rounds of interleaving register `i` with register `i + 8`. The
/// transpose is its own inverse.
#[inline(always)]
unsafe fn transpose_bytes(s: &mut State) {
    // SAFETY: register-only AVX2 operations, enabled by the caller.
    unsafe {
        for _ in 0..4 {
            let a = *s;
            for i in 0..8 {
                s[2 * i] = _mm256_unpacklo_epi8(a[i], a[i + 8]);
                s[2 * i + 1] = _mm256_unpackhi_epi8(a[i], a[i + 8]);
            }
        }
    }
}

/// Loads 32 blocks into the sliced layout: register `j` holds byte `j` of blocks 0..16 in
/// its low lane and of blocks 16..32 in its high lane.
#[inline(always)]
unsafe fn load(src: &[u8; BATCH]) -> State {
    // SAFETY: each load reads 16 bytes at offset 16*r or 16*(r + 16), both below 512, of a
    // 512-byte array.
    unsafe {
        let p = src.as_ptr();
        let mut s = [_mm256_setzero_si256(); 16];
        for (r, x) in s.iter_mut().enumerate() {
            *x = _mm256_loadu2_m128i(p.add(16 * (r + 16)).cast(), p.add(16 * r).cast());
        }
        transpose_bytes(&mut s);
        s
    }
}

/// The inverse of [`load`].
#[inline(always)]
unsafe fn store(s: &State, dst: &mut [u8; BATCH]) {
    // SAFETY: each store writes 16 bytes at offset 16*r or 16*(r + 16) of a 512-byte array.
    unsafe {
        let mut s = *s;
        transpose_bytes(&mut s);
        let p = dst.as_mut_ptr();
        for (r, x) in s.iter().enumerate() {
            _mm256_storeu2_m128i(p.add(16 * (r + 16)).cast(), p.add(16 * r).cast(), *x);
        }
    }
}

/// Runs `$body` with `$batch` bound to every batch of `$buf` (whole blocks), the last one
/// padded with zeros. A macro rather than a function taking a closure, so the body is
/// compiled with the target features of the function it is written in.
macro_rules! for_each_batch {
    ($buf:expr, |$batch:ident| $body:block) => {{
        let mut chunks = $buf.chunks_exact_mut(BATCH);
        for chunk in &mut chunks {
            let $batch: &mut [u8; BATCH] = chunk.try_into().expect("whole batch");
            $body
        }
        let rest = chunks.into_remainder();
        if !rest.is_empty() {
            let mut pad = Pad::new();
            pad.bytes()[..rest.len()].copy_from_slice(rest);
            {
                let $batch = pad.bytes();
                $body
            }
            rest.copy_from_slice(&pad.bytes()[..rest.len()]);
        }
    }};
}

/// A zeroed batch of scratch bytes, held as 16-byte words so that zeroizing it on drop
/// takes 32 writes rather than 512.
struct Pad([u128; LANES]);

impl Pad {
    fn new() -> Self {
        Pad([0; LANES])
    }

    fn bytes(&mut self) -> &mut [u8; BATCH] {
        // SAFETY: 32 words of 16 bytes are 512 bytes with no padding, any byte pattern is a
        // valid u8 and u128, and u8 needs no alignment; the borrow of `self` covers the view.
        unsafe { &mut *(&raw mut self.0).cast::<[u8; BATCH]>() }
    }
}

impl Drop for Pad {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.0);
    }
}

#[allow(unsafe_code)]
mod gfni;

/// Below this many blocks the GFNI entry points run blocks two at a time instead of as a
/// sliced batch, which costs as much as 32 blocks: the chained modes pass one block. A pair
/// takes about 155 ns and one batch with its per-call keys about 830 ns, so the batch pays
/// from ten blocks on.
const SMALL_BLOCKS: usize = 10;

/// The columns of L and L⁻¹ carried into the AES field, where each product is one
/// GF2P8MULB, and the field maps as GF2P8AFFINEQB matrices.
const L_COLUMNS_AES: [[u8; 16]; 16] = phi_columns(false);
const L_INV_COLUMNS_AES: [[u8; 16]; 16] = phi_columns(true);
const TO_AES_MATRIX: u64 = matrix_of(&TO_AES_FIELD);
const FROM_AES_MATRIX: u64 = matrix_of(&FROM_AES_FIELD);

/// L (or L⁻¹, by its columns) on the block in each 128-bit lane: byte `k` of the block,
/// spread over the lane, times column `k`, summed, all in the AES field.
#[inline(always)]
unsafe fn lane_linear(x: __m256i, columns: &[__m256i; 16]) -> __m256i {
    // SAFETY: register-only AVX2 and GFNI operations, enabled by the caller.
    unsafe {
        let y = _mm256_gf2p8affine_epi64_epi8::<0>(x, _mm256_set1_epi64x(TO_AES_MATRIX as i64));
        // A plain loop rather than `array::from_fn`: its closure would not inherit the
        // target features, and every intrinsic would become a call.
        let mut level = [y; 16];
        for (k, (product, column)) in level.iter_mut().zip(columns).enumerate() {
            let spread = _mm256_shuffle_epi8(y, _mm256_set1_epi8(k as i8));
            *product = _mm256_gf2p8mul_epi8(spread, *column);
        }
        let mut width = 16;
        while width > 1 {
            width /= 2;
            for i in 0..width {
                level[i] = xor(level[i], level[i + width]);
            }
        }
        _mm256_gf2p8affine_epi64_epi8::<0>(level[0], _mm256_set1_epi64x(FROM_AES_MATRIX as i64))
    }
}

/// Round key `i` in both lanes, loaded where it is used.
#[inline(always)]
unsafe fn lane_key(rk: &RoundKeys, i: usize) -> __m256i {
    // SAFETY: AVX2 is enabled by the caller; the load reads one 16-byte round key.
    unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(rk.0[i].as_ptr().cast())) }
}

/// Two blocks (one per lane) through the cipher, with GFNI.
#[inline(always)]
unsafe fn lane_blocks<const DECRYPT: bool>(
    mut x: __m256i,
    rk: &RoundKeys,
    t: &Tables,
    columns: &[__m256i; 16],
) -> __m256i {
    // SAFETY: register-only AVX2 and GFNI operations, enabled by the caller.
    unsafe {
        if DECRYPT {
            x = xor(x, lane_key(rk, 9));
            for round in (0..9).rev() {
                x = lane_linear(x, columns);
                x = xor(substitute_inverse::<true>(x, t), lane_key(rk, round));
            }
        } else {
            for round in 0..9 {
                x = substitute::<true>(xor(x, lane_key(rk, round)), t);
                x = lane_linear(x, columns);
            }
            x = xor(x, lane_key(rk, 9));
        }
        x
    }
}

/// Whole blocks two at a time, the odd last one alone in the low lane.
#[inline(always)]
unsafe fn small_body<const DECRYPT: bool>(rk: &RoundKeys, buf: &mut [u8]) {
    // SAFETY: AVX2 and GFNI are enabled by the caller. Pairs read and write the 32 bytes of
    // their chunk; the last block reads and writes its 16 bytes.
    unsafe {
        let t = tables(DECRYPT);
        let source = if DECRYPT {
            &L_INV_COLUMNS_AES
        } else {
            &L_COLUMNS_AES
        };
        let mut columns = [_mm256_setzero_si256(); 16];
        for (c, row) in columns.iter_mut().zip(source) {
            *c = broadcast16(row);
        }
        let mut pairs = buf.chunks_exact_mut(32);
        for pair in &mut pairs {
            let x = _mm256_loadu_si256(pair.as_ptr().cast());
            let y = lane_blocks::<DECRYPT>(x, rk, &t, &columns);
            _mm256_storeu_si256(pair.as_mut_ptr().cast(), y);
        }
        let last = pairs.into_remainder();
        if last.len() == 16 {
            let x = _mm256_zextsi128_si256(_mm_loadu_si128(last.as_ptr().cast()));
            let y = lane_blocks::<DECRYPT>(x, rk, &t, &columns);
            _mm_storeu_si128(last.as_mut_ptr().cast(), _mm256_castsi256_si128(y));
        }
    }
}

#[inline(always)]
unsafe fn encrypt_body<const GFNI: bool>(rk: &RoundKeys, buf: &mut [u8]) {
    // SAFETY: AVX2 (and GFNI when `GFNI`) is enabled by the caller; the helpers only touch registers and
    // arrays whose bounds they check by type.
    unsafe {
        if GFNI {
            if buf.len() < 16 * SMALL_BLOCKS {
                return small_body::<false>(rk, buf);
            }
            return gfni::encrypt(rk, buf);
        }
        let t = tables(false);
        for_each_batch!(buf, |batch| {
            let mut s = load(batch);
            encrypt_state::<GFNI>(&mut s, &t, rk);
            store(&s, batch);
        });
    }
}

#[inline(always)]
unsafe fn decrypt_body<const GFNI: bool>(rk: &RoundKeys, buf: &mut [u8]) {
    // SAFETY: as in `encrypt_body`.
    unsafe {
        if GFNI {
            if buf.len() < 16 * SMALL_BLOCKS {
                return small_body::<true>(rk, buf);
            }
            return gfni::decrypt(rk, buf);
        }
        let t = tables(true);
        for_each_batch!(buf, |batch| {
            let mut s = load(batch);
            decrypt_state::<GFNI>(&mut s, &t, rk);
            store(&s, batch);
        });
    }
}

#[inline(always)]
unsafe fn ctr_body<const GFNI: bool>(rk: &RoundKeys, counter: &mut [u8; 16], buf: &mut [u8]) {
    // SAFETY: as in `encrypt_body`.
    unsafe {
        if GFNI {
            return gfni::ctr(rk, counter, buf);
        }
        let t = tables(false);
        let mut next = u128::from_be_bytes(*counter);
        let mut pad = Pad::new();
        let stream = pad.bytes();
        for chunk in buf.chunks_mut(BATCH) {
            for (i, block) in stream.chunks_exact_mut(16).enumerate() {
                block.copy_from_slice(&next.wrapping_add(i as u128).to_be_bytes());
            }
            next = next.wrapping_add(chunk.len().div_ceil(16) as u128);
            let mut s = load(stream);
            encrypt_state::<GFNI>(&mut s, &t, rk);
            store(&s, stream);
            for (d, k) in chunk.iter_mut().zip(stream.iter()) {
                *d ^= *k;
            }
        }
        *counter = next.to_be_bytes();
    }
}

/// The hot loops, compiled once for AVX2 alone and once with GFNI.
macro_rules! entry_points {
    ($kernel:ident, $gfni:literal, $enc:ident, $dec:ident, $ctr:ident) => {
        #[kernel($kernel)]
        unsafe fn $enc(rk: &RoundKeys, buf: &mut [u8]) {
            // SAFETY: the features the body needs are enabled on this function.
            unsafe { encrypt_body::<$gfni>(rk, buf) }
        }

        #[kernel($kernel)]
        unsafe fn $dec(rk: &RoundKeys, buf: &mut [u8]) {
            // SAFETY: the features the body needs are enabled on this function.
            unsafe { decrypt_body::<$gfni>(rk, buf) }
        }

        #[kernel($kernel)]
        unsafe fn $ctr(rk: &RoundKeys, counter: &mut [u8; 16], buf: &mut [u8]) {
            // SAFETY: the features the body needs are enabled on this function.
            unsafe { ctr_body::<$gfni>(rk, counter, buf) }
        }
    };
}

entry_points!(
    KUZNYECHIK_AVX2,
    false,
    encrypt_shuffles,
    decrypt_shuffles,
    ctr_shuffles
);
entry_points!(
    KUZNYECHIK_AVX2_GFNI,
    true,
    encrypt_gfni,
    decrypt_gfni,
    ctr_gfni
);

/// The key schedule on one block: 32 Feistel rounds through the GFNI S-box and L of the
/// two-block path, where the portable code takes about 7 microseconds (so the ACPKM key
/// change of every section cost more than the section's keystream).
#[kernel(KUZNYECHIK_AVX2_GFNI)]
unsafe fn expand_key_gfni(key: &[u8; 32]) -> RoundKeys {
    // SAFETY: AVX2 and GFNI are enabled on this function; the loads read the two 16-byte
    // halves of the key and 16-byte constants, the stores write 16-byte round keys.
    unsafe {
        let t = tables(false);
        let mut columns = [_mm256_setzero_si256(); 16];
        for (c, row) in columns.iter_mut().zip(&L_COLUMNS_AES) {
            *c = broadcast16(row);
        }
        let mut a1 = _mm256_zextsi128_si256(_mm_loadu_si128(key.as_ptr().cast()));
        let mut a0 = _mm256_zextsi128_si256(_mm_loadu_si128(key.as_ptr().add(16).cast()));
        let mut rk = RoundKeys([[0u8; 16]; 10]);
        _mm_storeu_si128(rk.0[0].as_mut_ptr().cast(), _mm256_castsi256_si128(a1));
        _mm_storeu_si128(rk.0[1].as_mut_ptr().cast(), _mm256_castsi256_si128(a0));
        for pair in 0..4 {
            for c in &ROUND_CONSTANTS[8 * pair..8 * pair + 8] {
                let c = _mm256_zextsi128_si256(_mm_loadu_si128(c.as_ptr().cast()));
                let f = lane_linear(substitute::<true>(xor(a1, c), &t), &columns);
                a0 = xor(f, a0);
                core::mem::swap(&mut a0, &mut a1);
            }
            _mm_storeu_si128(
                rk.0[2 * pair + 2].as_mut_ptr().cast(),
                _mm256_castsi256_si128(a1),
            );
            _mm_storeu_si128(
                rk.0[2 * pair + 3].as_mut_ptr().cast(),
                _mm256_castsi256_si128(a0),
            );
        }
        rk
    }
}

/// The key schedule, when this CPU has AVX2 and GFNI.
pub(super) fn expand_key(key: &[u8; 32]) -> Option<RoundKeys> {
    if !kernels::KUZNYECHIK_AVX2_GFNI.runs() {
        return None;
    }
    // SAFETY: the required features were just checked.
    Some(unsafe { expand_key_gfni(key) })
}

/// Encrypts whole blocks in place; `false` (and nothing done) if the CPU lacks AVX2.
pub(super) fn encrypt_blocks(rk: &RoundKeys, buf: &mut [u8]) -> bool {
    if !available() {
        return false;
    }
    // SAFETY: the required features were just checked.
    unsafe {
        if kernels::KUZNYECHIK_AVX2_GFNI.runs() {
            encrypt_gfni(rk, buf)
        } else {
            encrypt_shuffles(rk, buf)
        }
    };
    true
}

/// Decrypts whole blocks in place; `false` (and nothing done) if the CPU lacks AVX2.
pub(super) fn decrypt_blocks(rk: &RoundKeys, buf: &mut [u8]) -> bool {
    if !available() {
        return false;
    }
    // SAFETY: the required features were just checked.
    unsafe {
        if kernels::KUZNYECHIK_AVX2_GFNI.runs() {
            decrypt_gfni(rk, buf)
        } else {
            decrypt_shuffles(rk, buf)
        }
    };
    true
}

/// CTR with a whole-block big-endian counter; `false` (and nothing done) without AVX2.
pub(super) fn ctr(rk: &RoundKeys, counter: &mut [u8; 16], buf: &mut [u8]) -> bool {
    if !available() {
        return false;
    }
    // SAFETY: the required features were just checked.
    unsafe {
        if kernels::KUZNYECHIK_AVX2_GFNI.runs() {
            ctr_gfni(rk, counter, buf)
        } else {
            ctr_shuffles(rk, counter, buf)
        }
    };
    true
}

#[cfg(test)]
mod tests {
    use super::super::consts::{PI, PI_INV};
    use super::*;

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

    /// This CPU takes one of the two paths; both are checked here against the portable code.
    #[test]
    fn shuffle_and_gfni_paths_match_portable() {
        if !kernels::KUZNYECHIK_AVX2.runs() {
            return;
        }
        let mut rk = [[0u8; 16]; 10];
        for (i, k) in rk.iter_mut().flatten().enumerate() {
            *k = (i as u8).wrapping_mul(151).wrapping_add(7);
        }
        let rk = RoundKeys(rk);
        // One to eleven blocks cross from the per-block path to the batches; then one batch,
        // one and a partial one, two, three and a partial one.
        for blocks in (1..=11).chain([32, 45, 64, 101]) {
            check_paths(&rk, blocks);
        }
    }

    fn check_paths(rk: &RoundKeys, blocks: usize) {
        let data: Vec<u8> = (0..16 * blocks)
            .map(|i| (i as u8).wrapping_mul(29))
            .collect();
        let mut want = data.clone();
        super::super::soft::encrypt_blocks(rk, &mut want);
        let mut paths: Vec<(&str, bool)> = vec![("shuffles", false)];
        if kernels::KUZNYECHIK_AVX2_GFNI.runs() {
            paths.push(("gfni", true));
        }
        for (name, gfni) in paths {
            let mut b = data.clone();
            // SAFETY: AVX2 (and GFNI for that path) was checked above.
            unsafe {
                if gfni {
                    encrypt_gfni(rk, &mut b)
                } else {
                    encrypt_shuffles(rk, &mut b)
                }
            };
            assert_eq!(b, want, "{name} encrypt, {blocks} blocks");
            // SAFETY: as above.
            unsafe {
                if gfni {
                    decrypt_gfni(rk, &mut b)
                } else {
                    decrypt_shuffles(rk, &mut b)
                }
            };
            assert_eq!(b, data, "{name} decrypt, {blocks} blocks");
            let mut counter = [0xffu8; 16];
            let mut c = data.clone();
            // SAFETY: as above.
            unsafe {
                if gfni {
                    ctr_gfni(rk, &mut counter, &mut c)
                } else {
                    ctr_shuffles(rk, &mut counter, &mut c)
                }
            };
            let mut stream: Vec<u8> = (0..blocks as u128)
                .flat_map(|i| u128::MAX.wrapping_add(i).to_be_bytes())
                .collect();
            super::super::soft::encrypt_blocks(rk, &mut stream);
            let expect: Vec<u8> = data.iter().zip(&stream).map(|(a, b)| a ^ b).collect();
            assert_eq!(c, expect, "{name} ctr");
            assert_eq!(
                counter,
                (blocks as u128 - 1).to_be_bytes(),
                "{name} counter"
            );
        }
    }
}
