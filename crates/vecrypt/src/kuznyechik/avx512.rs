//! Byte-sliced Kuznyechik on AVX-512: 64 blocks per batch, constant time.
//!
//! Sixteen ZMM registers hold the state; register `j` holds byte `j` of all 64 blocks. In
//! that layout every step of the cipher is the same operation on every lane:
//! - S is a lookup in the 256-byte π held in four registers: two VPERMI2B give the entries
//!   for both halves of the table and the top bit of each index picks one. The whole table
//!   is read by every lookup, so no address depends on data.
//! - L is sixteen R steps. One R step is a sum of sixteen bytes times public constants; each
//!   constant multiplication in Kuznyechik's field is a fixed GF(2)-linear map, which is one
//!   GF2P8AFFINEQB. The coefficients read the same backwards, so bytes sharing a coefficient
//!   are XORed first: seven multiplications per step instead of fifteen. The shift of R is
//!   free: the sixteen registers are a ring and only the index of its start moves.
//!
//! Blocks enter and leave the sliced layout through VPERMB (grouping each byte position of
//! four blocks into one dword) and a 16x16 dword transpose.

use core::arch::x86_64::*;

use super::RoundKeys;
use super::consts::{ELL, PI, PI_INV, affine_matrix};
use crate::cpu::Features;

/// Blocks per batch: one byte of each in every lane of a ZMM register.
const LANES: usize = 64;
/// Bytes per batch.
const BATCH: usize = LANES * 16;

/// Whether this CPU can run the backend.
pub(super) fn available(f: &Features) -> bool {
    f.avx512_bw_vl() && f.avx512vbmi && f.gfni
}

type State = [__m512i; 16];

/// The public constants of one direction, loaded into registers once per call.
struct Tables {
    sbox: [__m512i; 4],
    /// Multipliers for the seven distinct non-trivial coefficients of ℓ, in the order
    /// 148, 32, 133, 16, 194, 192, 251.
    mul: [__m512i; 7],
    /// The round keys, each byte broadcast over a register.
    rk: [[__m512i; 16]; 10],
}

impl Drop for Tables {
    fn drop(&mut self) {
        // SAFETY: `Tables` is plain vector data with no padding or pointers, so all-zero
        // bytes are a valid value.
        unsafe { zeroize::zeroize_flat_type(self) }
    }
}

const MATRICES: [u64; 7] = [
    affine_matrix(ELL[0]),
    affine_matrix(ELL[1]),
    affine_matrix(ELL[2]),
    affine_matrix(ELL[3]),
    affine_matrix(ELL[4]),
    affine_matrix(ELL[5]),
    affine_matrix(ELL[7]),
];

#[inline(always)]
unsafe fn tables(rk: &RoundKeys, sbox: &[u8; 256]) -> Tables {
    // SAFETY: the caller runs with AVX-512F/BW/VBMI/GFNI enabled; the loads read 256 bytes of
    // a 256-byte array, 64 at a time, unaligned loads being allowed.
    unsafe {
        let p = sbox.as_ptr();
        let mut t = Tables {
            sbox: [
                _mm512_loadu_si512(p.cast()),
                _mm512_loadu_si512(p.add(64).cast()),
                _mm512_loadu_si512(p.add(128).cast()),
                _mm512_loadu_si512(p.add(192).cast()),
            ],
            mul: [_mm512_setzero_si512(); 7],
            rk: [[_mm512_setzero_si512(); 16]; 10],
        };
        for (m, c) in t.mul.iter_mut().zip(MATRICES) {
            *m = _mm512_set1_epi64(c as i64);
        }
        for (dst, key) in t.rk.iter_mut().zip(&rk.0) {
            for (d, k) in dst.iter_mut().zip(key) {
                *d = _mm512_set1_epi8(*k as i8);
            }
        }
        t
    }
}

/// The 256-byte table lookup on every byte of `x`.
#[inline(always)]
unsafe fn substitute(x: __m512i, t: &[__m512i; 4]) -> __m512i {
    // SAFETY: register-only AVX-512BW/VBMI operations, enabled by the caller.
    unsafe {
        let low = _mm512_permutex2var_epi8(t[0], x, t[1]);
        let high = _mm512_permutex2var_epi8(t[2], x, t[3]);
        _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), low, high)
    }
}

#[inline(always)]
unsafe fn mul(x: __m512i, m: __m512i) -> __m512i {
    // SAFETY: register-only GFNI operation, enabled by the caller.
    unsafe { _mm512_gf2p8affine_epi64_epi8::<0>(x, m) }
}

#[inline(always)]
unsafe fn xor(a: __m512i, b: __m512i) -> __m512i {
    // SAFETY: register-only AVX-512F operation, enabled by the caller.
    unsafe { _mm512_xor_si512(a, b) }
}

/// Calls `$f::<i>($args)` for i = 0..16, spelled out so that every register index is a
/// constant and the state never leaves registers.
macro_rules! unroll16 {
    ($f:ident($($arg:expr),*)) => {
        $f::<0>($($arg),*); $f::<1>($($arg),*); $f::<2>($($arg),*); $f::<3>($($arg),*);
        $f::<4>($($arg),*); $f::<5>($($arg),*); $f::<6>($($arg),*); $f::<7>($($arg),*);
        $f::<8>($($arg),*); $f::<9>($($arg),*); $f::<10>($($arg),*); $f::<11>($($arg),*);
        $f::<12>($($arg),*); $f::<13>($($arg),*); $f::<14>($($arg),*); $f::<15>($($arg),*);
    };
}

/// The sum of one R step: `fresh` is the product that involves the byte the previous step
/// produced, added last so that the chain from step to step is one XOR, one
/// multiplication and one XOR long; `others` are the remaining multiplied pairs and `ones`
/// the bytes whose coefficient is 1.
#[inline(always)]
unsafe fn sum_products(fresh: __m512i, others: [__m512i; 6], ones: __m512i) -> __m512i {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let a = xor(xor(others[0], others[1]), others[2]);
        let b = xor(xor(others[3], others[4]), others[5]);
        xor(xor(xor(a, b), ones), fresh)
    }
}

/// One R step, the `STEP`-th of L. Logical byte `k` lives in register `(k - STEP) mod 16`;
/// ℓ overwrites the register of the byte it consumes last, so after sixteen steps the ring
/// is back in place.
#[inline(always)]
unsafe fn r_step<const STEP: usize>(s: &mut State, m: &[__m512i; 7]) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let x = |k: usize| s[(k + 16 - STEP) % 16];
        let t = sum_products(
            mul(xor(x(0), x(14)), m[0]),
            [
                mul(xor(x(1), x(13)), m[1]),
                mul(xor(x(2), x(12)), m[2]),
                mul(xor(x(3), x(11)), m[3]),
                mul(xor(x(4), x(10)), m[4]),
                mul(xor(x(5), x(9)), m[5]),
                mul(x(7), m[6]),
            ],
            xor(xor(x(6), x(8)), x(15)),
        );
        s[(15 + 16 - STEP) % 16] = t;
    }
}

/// One R⁻¹ step. Logical byte `k` lives in register `(k + STEP) mod 16`; ℓ overwrites the
/// register of the old byte 0, which becomes byte 15.
#[inline(always)]
unsafe fn r_inv_step<const STEP: usize>(s: &mut State, m: &[__m512i; 7]) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let y = |k: usize| s[(k + STEP) % 16];
        let t = sum_products(
            mul(xor(y(1), y(15)), m[0]),
            [
                mul(xor(y(2), y(14)), m[1]),
                mul(xor(y(3), y(13)), m[2]),
                mul(xor(y(4), y(12)), m[3]),
                mul(xor(y(5), y(11)), m[4]),
                mul(xor(y(6), y(10)), m[5]),
                mul(y(8), m[6]),
            ],
            xor(xor(y(7), y(9)), y(0)),
        );
        s[STEP % 16] = t;
    }
}

/// `s[I] = S(s[I])`.
#[inline(always)]
unsafe fn sbox<const I: usize>(s: &mut State, t: &[__m512i; 4]) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe { s[I] = substitute(s[I], t) }
}

/// `s[I] ^= k[I]`.
#[inline(always)]
unsafe fn key<const I: usize>(s: &mut State, k: &[__m512i; 16]) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe { s[I] = xor(s[I], k[I]) }
}

/// E = X[K10] L S X[K9] ... L S X[K1].
#[inline(always)]
unsafe fn encrypt_state(s: &mut State, t: &Tables) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        for round in 0..9 {
            unroll16!(key(s, &t.rk[round]));
            unroll16!(sbox(s, &t.sbox));
            unroll16!(r_step(s, &t.mul));
        }
        unroll16!(key(s, &t.rk[9]));
    }
}

/// D = X[K1] S⁻¹ L⁻¹ X[K2] ... S⁻¹ L⁻¹ X[K10].
#[inline(always)]
unsafe fn decrypt_state(s: &mut State, t: &Tables) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        for round in (1..10).rev() {
            unroll16!(key(s, &t.rk[round]));
            unroll16!(r_inv_step(s, &t.mul));
            unroll16!(sbox(s, &t.sbox));
        }
        unroll16!(key(s, &t.rk[0]));
    }
}

/// `out[4j + b] = in[16b + j]`: byte position `j` of four blocks becomes dword `j`.
const GATHER: [u8; 64] = {
    let mut idx = [0u8; 64];
    let mut j = 0;
    while j < 16 {
        let mut b = 0;
        while b < 4 {
            idx[4 * j + b] = (16 * b + j) as u8;
            b += 1;
        }
        j += 1;
    }
    idx
};

/// The inverse of [`GATHER`].
const SCATTER: [u8; 64] = {
    let mut idx = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        idx[GATHER[i] as usize] = i as u8;
        i += 1;
    }
    idx
};

/// Transposes sixteen registers seen as a 16x16 matrix of dwords: four rounds of swapping
/// the off-diagonal halves of ever smaller blocks. It is its own inverse.
#[inline(always)]
unsafe fn transpose_dwords(s: &mut State) {
    // SAFETY: register-only AVX-512F operations, enabled by the caller.
    unsafe {
        for shift in [8usize, 4, 2, 1] {
            let mut low_idx = [0i32; 16];
            let mut high_idx = [0i32; 16];
            for j in 0..16 {
                let (lo, hi) = if j & shift != 0 {
                    (16 + j - shift, 16 + j)
                } else {
                    (j, j + shift)
                };
                low_idx[j] = lo as i32;
                high_idx[j] = hi as i32;
            }
            let low_idx = _mm512_loadu_si512(low_idx.as_ptr().cast());
            let high_idx = _mm512_loadu_si512(high_idx.as_ptr().cast());
            for r in 0..16 {
                if r & shift == 0 {
                    let a = s[r];
                    let b = s[r + shift];
                    s[r] = _mm512_permutex2var_epi32(a, low_idx, b);
                    s[r + shift] = _mm512_permutex2var_epi32(a, high_idx, b);
                }
            }
        }
    }
}

/// Loads 64 blocks into the sliced layout: lane `i` of register `j` is byte `j` of block `i`.
#[inline(always)]
unsafe fn load(src: &[u8; BATCH]) -> State {
    // SAFETY: each load reads 64 bytes at offset 64*r < 1024 of a 1024-byte array.
    unsafe {
        let gather = _mm512_loadu_si512(GATHER.as_ptr().cast());
        let mut s = [_mm512_setzero_si512(); 16];
        for (r, x) in s.iter_mut().enumerate() {
            let v = _mm512_loadu_si512(src.as_ptr().add(64 * r).cast());
            *x = _mm512_permutexvar_epi8(gather, v);
        }
        transpose_dwords(&mut s);
        s
    }
}

/// The inverse of [`load`].
#[inline(always)]
unsafe fn store(mut s: State, dst: &mut [u8; BATCH]) {
    // SAFETY: each store writes 64 bytes at offset 64*r < 1024 of a 1024-byte array.
    unsafe {
        transpose_dwords(&mut s);
        let scatter = _mm512_loadu_si512(SCATTER.as_ptr().cast());
        for (r, x) in s.iter().enumerate() {
            let v = _mm512_permutexvar_epi8(scatter, *x);
            _mm512_storeu_si512(dst.as_mut_ptr().add(64 * r).cast(), v);
        }
    }
}

/// Runs `f` on every batch of `buf` (whole blocks), the last one padded with zeros.
#[inline(always)]
fn for_each_batch(buf: &mut [u8], mut f: impl FnMut(&mut [u8; BATCH])) {
    let mut chunks = buf.chunks_exact_mut(BATCH);
    for chunk in &mut chunks {
        f(chunk.try_into().expect("whole batch"));
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        let mut pad = [0u8; BATCH];
        pad[..rest.len()].copy_from_slice(rest);
        f(&mut pad);
        rest.copy_from_slice(&pad[..rest.len()]);
        zeroize::Zeroize::zeroize(&mut pad);
    }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
unsafe fn encrypt_impl(rk: &RoundKeys, buf: &mut [u8]) {
    // SAFETY: the features are enabled on this function; the helpers only touch registers
    // and arrays whose bounds they check by type.
    unsafe {
        let t = tables(rk, &PI);
        for_each_batch(buf, |batch| {
            let mut s = load(batch);
            encrypt_state(&mut s, &t);
            store(s, batch);
        });
    }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
unsafe fn decrypt_impl(rk: &RoundKeys, buf: &mut [u8]) {
    // SAFETY: as in `encrypt_impl`.
    unsafe {
        let t = tables(rk, &PI_INV);
        for_each_batch(buf, |batch| {
            let mut s = load(batch);
            decrypt_state(&mut s, &t);
            store(s, batch);
        });
    }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
unsafe fn ctr_impl(rk: &RoundKeys, counter: &mut [u8; 16], buf: &mut [u8]) {
    // SAFETY: as in `encrypt_impl`.
    unsafe {
        let t = tables(rk, &PI);
        let mut next = u128::from_be_bytes(*counter);
        let mut stream = [0u8; BATCH];
        for chunk in buf.chunks_mut(BATCH) {
            for (i, block) in stream.chunks_exact_mut(16).enumerate() {
                block.copy_from_slice(&next.wrapping_add(i as u128).to_be_bytes());
            }
            next = next.wrapping_add(chunk.len().div_ceil(16) as u128);
            let mut s = load(&stream);
            encrypt_state(&mut s, &t);
            store(s, &mut stream);
            for (d, k) in chunk.iter_mut().zip(stream.iter()) {
                *d ^= *k;
            }
        }
        zeroize::Zeroize::zeroize(&mut stream);
        *counter = next.to_be_bytes();
    }
}

/// Encrypts whole blocks in place; `false` (and nothing done) if the CPU lacks the features.
pub(super) fn encrypt_blocks(rk: &RoundKeys, buf: &mut [u8]) -> bool {
    if !available(crate::cpu::features()) {
        return false;
    }
    // SAFETY: the required features were just checked.
    unsafe { encrypt_impl(rk, buf) };
    true
}

/// Decrypts whole blocks in place; `false` (and nothing done) if the CPU lacks the features.
pub(super) fn decrypt_blocks(rk: &RoundKeys, buf: &mut [u8]) -> bool {
    if !available(crate::cpu::features()) {
        return false;
    }
    // SAFETY: the required features were just checked.
    unsafe { decrypt_impl(rk, buf) };
    true
}

/// CTR with a whole-block big-endian counter; `false` (and nothing done) without the features.
pub(super) fn ctr(rk: &RoundKeys, counter: &mut [u8; 16], buf: &mut [u8]) -> bool {
    if !available(crate::cpu::features()) {
        return false;
    }
    // SAFETY: the required features were just checked.
    unsafe { ctr_impl(rk, counter, buf) };
    true
}
