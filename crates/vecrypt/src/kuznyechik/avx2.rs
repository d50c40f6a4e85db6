//! Byte-sliced Kuznyechik on AVX2: 32 blocks per batch, constant time, byte shuffles only.
//!
//! The layout and the R-step ring are those of the AVX-512 backend, on YMM registers (one
//! byte of 32 blocks each). Without VPERMI2B and GF2P8AFFINEQB:
//! - S reads all sixteen 16-entry rows of π with VPSHUFB, indexed by the low nibble, and
//!   picks the row by the high nibble: VPSHUFB gives zero where the index has its top bit
//!   set, so rows 0-7 looked up with `x` and rows 8-15 with `x ^ 0x80` cover disjoint lanes;
//!   within each half a tree of VPBLENDVB on bits 4, 5 and 6 chooses among the eight rows.
//! - A multiplication by a constant is two VPSHUFB lookups, one per nibble, XORed.

use core::arch::x86_64::*;

use super::RoundKeys;
use super::consts::{ELL, PI, PI_INV, gf_mul};
use crate::cpu::Features;

/// Blocks per batch: one byte of each in every lane of a YMM register.
const LANES: usize = 32;
/// Bytes per batch.
const BATCH: usize = LANES * 16;

/// Whether this CPU can run the backend.
pub(super) fn available(f: &Features) -> bool {
    f.avx2
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

/// The public constants of one direction and the broadcast round keys.
struct Tables {
    /// Row `h` of the S-box (entries `16h..16h+16`) in both lanes.
    rows: [__m256i; 16],
    /// Low-nibble and high-nibble product tables per coefficient.
    mul: [[__m256i; 2]; 7],
    low_nibble: __m256i,
    top_bit: __m256i,
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
unsafe fn tables(sbox: &[u8; 256]) -> Tables {
    // SAFETY: AVX2 is enabled by the caller; the helpers only read whole rows.
    unsafe {
        let zero = _mm256_setzero_si256();
        let mut t = Tables {
            rows: [zero; 16],
            mul: [[zero; 2]; 7],
            low_nibble: _mm256_set1_epi8(0x0f),
            top_bit: _mm256_set1_epi8(-128),
        };
        for h in 0..16 {
            t.rows[h] = broadcast16(&sbox[16 * h..16 * h + 16]);
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

/// Rows `rows[0..8]` looked up with `index`, the one for bits 6..4 of `x` kept.
#[inline(always)]
unsafe fn eight_rows(rows: &[__m256i], index: __m256i, bits: [__m256i; 3]) -> __m256i {
    // SAFETY: register-only AVX2 operations, enabled by the caller.
    unsafe {
        let pick = |a: usize, b: usize| {
            _mm256_blendv_epi8(
                _mm256_shuffle_epi8(rows[a], index),
                _mm256_shuffle_epi8(rows[b], index),
                bits[0],
            )
        };
        let (r0, r1, r2, r3) = (pick(0, 1), pick(2, 3), pick(4, 5), pick(6, 7));
        let q0 = _mm256_blendv_epi8(r0, r1, bits[1]);
        let q1 = _mm256_blendv_epi8(r2, r3, bits[1]);
        _mm256_blendv_epi8(q0, q1, bits[2])
    }
}

/// The 256-entry lookup on every byte of `x`, reading every row.
#[inline(always)]
unsafe fn substitute(x: __m256i, t: &Tables) -> __m256i {
    // SAFETY: register-only AVX2 operations, enabled by the caller.
    unsafe {
        // VPBLENDVB looks at the top bit of each byte: shifting left by 3, 2 and 1 brings
        // bits 4, 5 and 6 of every byte there (what crosses from the byte below lands low).
        let bits = [
            _mm256_slli_epi16::<3>(x),
            _mm256_slli_epi16::<2>(x),
            _mm256_slli_epi16::<1>(x),
        ];
        let low = eight_rows(&t.rows[..8], x, bits);
        let high = eight_rows(&t.rows[8..], xor(x, t.top_bit), bits);
        xor(low, high)
    }
}

/// `x` times coefficient number `c`, by one lookup per nibble.
#[inline(always)]
unsafe fn mul(x: __m256i, c: usize, t: &Tables) -> __m256i {
    // SAFETY: register-only AVX2 operations, enabled by the caller.
    unsafe {
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
unsafe fn r_step<const STEP: usize>(s: &mut State, t: &Tables) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let x = |k: usize| s[(k + 16 - STEP) % 16];
        let others = xor(
            xor(
                xor(mul(xor(x(1), x(13)), 1, t), mul(xor(x(2), x(12)), 2, t)),
                xor(mul(xor(x(3), x(11)), 3, t), mul(xor(x(4), x(10)), 4, t)),
            ),
            xor(
                xor(mul(xor(x(5), x(9)), 5, t), mul(x(7), 6, t)),
                xor(xor(x(6), x(8)), x(15)),
            ),
        );
        s[(15 + 16 - STEP) % 16] = xor(others, mul(xor(x(0), x(14)), 0, t));
    }
}

/// One R⁻¹ step; see the AVX-512 backend.
#[inline(always)]
unsafe fn r_inv_step<const STEP: usize>(s: &mut State, t: &Tables) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let y = |k: usize| s[(k + STEP) % 16];
        let others = xor(
            xor(
                xor(mul(xor(y(2), y(14)), 1, t), mul(xor(y(3), y(13)), 2, t)),
                xor(mul(xor(y(4), y(12)), 3, t), mul(xor(y(5), y(11)), 4, t)),
            ),
            xor(
                xor(mul(xor(y(6), y(10)), 5, t), mul(y(8), 6, t)),
                xor(xor(y(7), y(9)), y(0)),
            ),
        );
        s[STEP % 16] = xor(others, mul(xor(y(1), y(15)), 0, t));
    }
}

#[inline(always)]
unsafe fn sbox<const I: usize>(s: &mut State, t: &Tables) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe { s[I] = substitute(s[I], t) }
}

#[inline(always)]
unsafe fn key<const I: usize>(s: &mut State, k: &[u8; 16]) {
    // SAFETY: register-only operations, enabled by the caller. The round key is broadcast
    // where it is used rather than kept expanded, so no copy of it outlives the call.
    unsafe { s[I] = xor(s[I], _mm256_set1_epi8(k[I] as i8)) }
}

#[inline(always)]
unsafe fn encrypt_state(s: &mut State, t: &Tables, rk: &RoundKeys) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        for round in 0..9 {
            unroll16!(key(s, &rk.0[round]));
            unroll16!(sbox(s, t));
            unroll16!(r_step(s, t));
        }
        unroll16!(key(s, &rk.0[9]));
    }
}

#[inline(always)]
unsafe fn decrypt_state(s: &mut State, t: &Tables, rk: &RoundKeys) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        for round in (1..10).rev() {
            unroll16!(key(s, &rk.0[round]));
            unroll16!(r_inv_step(s, t));
            unroll16!(sbox(s, t));
        }
        unroll16!(key(s, &rk.0[0]));
    }
}

/// Loads 32 blocks into the sliced layout: byte `i` of register `j` is byte `j` of block `i`.
#[inline(always)]
unsafe fn load(src: &[u8; BATCH]) -> State {
    let mut sliced = [0u8; BATCH];
    for (i, block) in src.chunks_exact(16).enumerate() {
        for (j, b) in block.iter().enumerate() {
            sliced[LANES * j + i] = *b;
        }
    }
    // SAFETY: each load reads 32 bytes at offset 32*j < 512 of a 512-byte array.
    unsafe {
        let mut s = [_mm256_setzero_si256(); 16];
        for (j, x) in s.iter_mut().enumerate() {
            *x = _mm256_loadu_si256(sliced.as_ptr().add(LANES * j).cast());
        }
        zeroize::Zeroize::zeroize(&mut sliced);
        s
    }
}

/// The inverse of [`load`].
#[inline(always)]
unsafe fn store(s: &State, dst: &mut [u8; BATCH]) {
    let mut sliced = [0u8; BATCH];
    // SAFETY: each store writes 32 bytes at offset 32*j < 512 of a 512-byte array.
    unsafe {
        for (j, x) in s.iter().enumerate() {
            _mm256_storeu_si256(sliced.as_mut_ptr().add(LANES * j).cast(), *x);
        }
    }
    for (i, block) in dst.chunks_exact_mut(16).enumerate() {
        for (j, b) in block.iter_mut().enumerate() {
            *b = sliced[LANES * j + i];
        }
    }
    zeroize::Zeroize::zeroize(&mut sliced);
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

#[target_feature(enable = "avx2")]
unsafe fn encrypt_impl(rk: &RoundKeys, buf: &mut [u8]) {
    // SAFETY: AVX2 is enabled on this function; the helpers only touch registers and
    // arrays whose bounds they check by type.
    unsafe {
        let t = tables(&PI);
        for_each_batch(buf, |batch| {
            let mut s = load(batch);
            encrypt_state(&mut s, &t, rk);
            store(&s, batch);
        });
    }
}

#[target_feature(enable = "avx2")]
unsafe fn decrypt_impl(rk: &RoundKeys, buf: &mut [u8]) {
    // SAFETY: as in `encrypt_impl`.
    unsafe {
        let t = tables(&PI_INV);
        for_each_batch(buf, |batch| {
            let mut s = load(batch);
            decrypt_state(&mut s, &t, rk);
            store(&s, batch);
        });
    }
}

#[target_feature(enable = "avx2")]
unsafe fn ctr_impl(rk: &RoundKeys, counter: &mut [u8; 16], buf: &mut [u8]) {
    // SAFETY: as in `encrypt_impl`.
    unsafe {
        let t = tables(&PI);
        let mut next = u128::from_be_bytes(*counter);
        let mut stream = [0u8; BATCH];
        for chunk in buf.chunks_mut(BATCH) {
            for (i, block) in stream.chunks_exact_mut(16).enumerate() {
                block.copy_from_slice(&next.wrapping_add(i as u128).to_be_bytes());
            }
            next = next.wrapping_add(chunk.len().div_ceil(16) as u128);
            let mut s = load(&stream);
            encrypt_state(&mut s, &t, rk);
            store(&s, &mut stream);
            for (d, k) in chunk.iter_mut().zip(stream.iter()) {
                *d ^= *k;
            }
        }
        zeroize::Zeroize::zeroize(&mut stream);
        *counter = next.to_be_bytes();
    }
}

/// Encrypts whole blocks in place; `false` (and nothing done) if the CPU lacks AVX2.
pub(super) fn encrypt_blocks(rk: &RoundKeys, buf: &mut [u8]) -> bool {
    if !available(crate::cpu::features()) {
        return false;
    }
    // SAFETY: the required feature was just checked.
    unsafe { encrypt_impl(rk, buf) };
    true
}

/// Decrypts whole blocks in place; `false` (and nothing done) if the CPU lacks AVX2.
pub(super) fn decrypt_blocks(rk: &RoundKeys, buf: &mut [u8]) -> bool {
    if !available(crate::cpu::features()) {
        return false;
    }
    // SAFETY: the required feature was just checked.
    unsafe { decrypt_impl(rk, buf) };
    true
}

/// CTR with a whole-block big-endian counter; `false` (and nothing done) without AVX2.
pub(super) fn ctr(rk: &RoundKeys, counter: &mut [u8; 16], buf: &mut [u8]) -> bool {
    if !available(crate::cpu::features()) {
        return false;
    }
    // SAFETY: the required feature was just checked.
    unsafe { ctr_impl(rk, counter, buf) };
    true
}
