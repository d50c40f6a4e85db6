//! The sliced batch of 64 blocks: the rounds on sixteen ZMM registers (byte `j` of every
//! block in register `j`), the round keys folded into the R steps as shares, and the way
//! into and out of that layout.

use core::arch::x86_64::*;

use super::tables::{BATCH, State, Tables, mul, substitute, xor, xor3};
use crate::kuznyechik::RoundKeys;

/// The sum of one R step: `fresh` is the product that involves the byte the previous step
/// produced, added last so that the chain from step to step is one XOR, one
/// multiplication and one XOR long; `others` are the remaining multiplied pairs, `ones`
/// the bytes whose coefficient is 1 and `inject` the round-key share of this step. Eleven
/// terms take five three-input XORs, the same as ten would.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn sum_products(
    fresh: __m512i,
    others: [__m512i; 6],
    ones: [__m512i; 3],
    inject: __m512i,
) -> __m512i {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let a = xor3(others[0], others[1], others[2]);
        let b = xor3(others[3], others[4], others[5]);
        let c = xor3(ones[0], ones[1], ones[2]);
        xor3(xor3(a, b, c), inject, fresh)
    }
}

/// The round-key share `k` of one step as a vector: a dword broadcast, which the compiler
/// takes straight from memory as an operand of the last three-input XOR.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn share(k: u32) -> __m512i {
    // SAFETY: register-only AVX-512F operation, enabled by the caller.
    unsafe { _mm512_set1_epi32(k as i32) }
}

/// The sum of the `STEP`-th R step of L. Logical byte `k` lives in register
/// `(k - STEP) mod 16`.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn r_sum<const STEP: usize>(
    s: &State,
    m: &[__m512i; 7],
    inject: __m512i,
) -> __m512i {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let x = |k: usize| s[(k + 16 - STEP) % 16];
        sum_products(
            mul(xor(x(0), x(14)), m[0]),
            [
                mul(xor(x(1), x(13)), m[1]),
                mul(xor(x(2), x(12)), m[2]),
                mul(xor(x(3), x(11)), m[3]),
                mul(xor(x(4), x(10)), m[4]),
                mul(xor(x(5), x(9)), m[5]),
                mul(x(7), m[6]),
            ],
            [x(6), x(8), x(15)],
            inject,
        )
    }
}

/// The sum of the `STEP`-th R⁻¹ step of L⁻¹. Logical byte `k` lives in register
/// `(k + STEP) mod 16`.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn r_inv_sum<const STEP: usize>(
    s: &State,
    m: &[__m512i; 7],
    inject: __m512i,
) -> __m512i {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let y = |k: usize| s[(k + STEP) % 16];
        sum_products(
            mul(xor(y(1), y(15)), m[0]),
            [
                mul(xor(y(2), y(14)), m[1]),
                mul(xor(y(3), y(13)), m[2]),
                mul(xor(y(4), y(12)), m[3]),
                mul(xor(y(5), y(11)), m[4]),
                mul(xor(y(6), y(10)), m[5]),
                mul(y(8), m[6]),
            ],
            [y(7), y(9), y(0)],
            inject,
        )
    }
}

/// The register the `STEP`-th step of L (or of L⁻¹) overwrites: the one whose byte it
/// consumes last, so after sixteen steps the ring is back in place.
pub(super) const fn written<const STEP: usize, const INV: bool>() -> usize {
    if INV { STEP } else { 15 - STEP }
}

/// One R (or R⁻¹) step with the round-key share `shares[STEP]` added to its output.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn step<const STEP: usize, const INV: bool>(
    s: &mut State,
    m: &[__m512i; 7],
    shares: &[u32; 16],
) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let inject = share(shares[STEP]);
        s[written::<STEP, INV>()] = if INV {
            r_inv_sum::<STEP>(s, m, inject)
        } else {
            r_sum::<STEP>(s, m, inject)
        };
    }
}

/// The round keys K_2..K_10 spread over the sixteen steps of the linear layer before them.
///
/// A key added after L (or before L⁻¹) costs sixteen XORs and sixteen byte broadcasts per
/// round. Every step of L writes one byte that no later step of the same L overwrites, and
/// L is linear, so adding a constant `d_s` fixed by the key to the output of step `s` (a
/// free fourth operand of its last three-input XOR) shifts the result of L by a linear
/// function of the `d_s`. Running the steps on zero input, choosing each `d_s` so that the
/// byte it writes equals the key byte, gives shares that make L's output come out with the
/// key already added. For L⁻¹ the key added before it appears after it as L⁻¹(K), which is
/// the target instead.
///
/// `shares[r][s]` is the share of step `s` in round `r` (K_{r+2}), its byte repeated four
/// times so that it loads as a dword broadcast. Zeroized on drop.
#[derive(Clone)]
pub(super) struct Shares(pub(super) [[u32; 16]; 9]);

impl Drop for Shares {
    fn drop(&mut self) {
        crate::wipe::u32s(self.0.as_flattened_mut());
    }
}

/// `s[I] = S(s[I])`.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn sbox<const I: usize>(s: &mut State, t: &[__m512i; 4]) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe { s[I] = substitute(s[I], t) }
}

/// `s[I] ^= k[I]`.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn key<const I: usize>(s: &mut State, k: &[u8; 16]) {
    // SAFETY: register-only operations, enabled by the caller. The round key is broadcast
    // where it is used rather than kept expanded, so no copy of it outlives the call.
    unsafe { s[I] = xor(s[I], _mm512_set1_epi8(k[I] as i8)) }
}

/// `E = X[K10] L S X[K9] ... L S X[K1]`, with K2..K10 folded into the L steps.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn encrypt_state(s: &mut State, t: &Tables, rk: &RoundKeys, sh: &Shares) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        unroll16!(key(s, &rk.0[0]));
        for shares in &sh.0 {
            unroll16!(sbox(s, &t.sbox));
            unroll16!(step[false](s, &t.mul, shares));
        }
    }
}

/// E from the second round on, for a state that holds `L(S(x ^ K1)) ^ K2`.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn encrypt_after_first(s: &mut State, t: &Tables, sh: &Shares) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        for shares in &sh.0[1..] {
            unroll16!(sbox(s, &t.sbox));
            unroll16!(step[false](s, &t.mul, shares));
        }
    }
}

/// `D = X[K1] S⁻¹ L⁻¹ X[K2] ... S⁻¹ L⁻¹ X[K10]`, with K2..K10 folded into the L⁻¹ steps.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn decrypt_state(s: &mut State, t: &Tables, rk: &RoundKeys, sh: &Shares) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        for shares in sh.0.iter().rev() {
            unroll16!(step[true](s, &t.mul, shares));
            unroll16!(sbox(s, &t.sbox));
        }
        unroll16!(key(s, &rk.0[0]));
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

/// The dword indexes of one round of [`transpose_dwords`]: register `r` (with bit `shift`
/// of `r` clear) and register `r + shift` exchange the dwords `j` of the first whose bit
/// `shift` is set with the dwords `j - shift` of the second. Row 0 picks the new first
/// register, row 1 the new second.
const fn exchange(shift: usize) -> [[i32; 16]; 2] {
    let mut idx = [[0i32; 16]; 2];
    let mut j = 0;
    while j < 16 {
        let (lo, hi) = if j & shift != 0 {
            (16 + j - shift, 16 + j)
        } else {
            (j, j + shift)
        };
        idx[0][j] = lo as i32;
        idx[1][j] = hi as i32;
        j += 1;
    }
    idx
}

const EXCHANGE: [[[i32; 16]; 2]; 4] = [exchange(8), exchange(4), exchange(2), exchange(1)];

/// One round of [`transpose_dwords`], a function of its own per level so that every index
/// is a constant and the state stays in registers: with the level as a loop variable, the
/// loop gets compiled as a loop over the state in memory.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn exchange_round<const LEVEL: usize>(s: &mut State) {
    // SAFETY: register-only AVX-512F operations, enabled by the caller; the index loads
    // read 64-byte rows of a constant array.
    unsafe {
        let shift = 8 >> LEVEL;
        let low = _mm512_loadu_si512(EXCHANGE[LEVEL][0].as_ptr().cast());
        let high = _mm512_loadu_si512(EXCHANGE[LEVEL][1].as_ptr().cast());
        for r in 0..16 {
            if r & shift == 0 {
                let (a, b) = (s[r], s[r + shift]);
                s[r] = _mm512_permutex2var_epi32(a, low, b);
                s[r + shift] = _mm512_permutex2var_epi32(a, high, b);
            }
        }
    }
}

/// Transposes sixteen registers seen as a 16x16 matrix of dwords: four rounds of swapping
/// the off-diagonal halves of ever smaller blocks. It is its own inverse.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn transpose_dwords(s: &mut State) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        exchange_round::<0>(s);
        exchange_round::<1>(s);
        exchange_round::<2>(s);
        exchange_round::<3>(s);
    }
}

/// Loads 64 blocks into the sliced layout: lane `i` of register `j` is byte `j` of block `i`.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn load(src: &[u8; BATCH]) -> State {
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
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn store(mut s: State, dst: &mut [u8; BATCH]) {
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

/// [`SCATTER`] with the bytes of each block reversed.
const SCATTER_REVERSED: [u8; 64] = {
    let mut idx = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        idx[i] = SCATTER[i / 16 * 16 + 15 - i % 16];
        i += 1;
    }
    idx
};

/// The 64 blocks of a sliced state out of the layout, kept in registers, each block's
/// bytes reversed: register `r` holds blocks `4r..4r + 4`, one per 128-bit lane, as
/// little-endian integers of their big-endian bytes.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn unsliced_reversed(mut s: State) -> State {
    // SAFETY: register-only operations, enabled by the caller, and one 64-byte load of a
    // constant array.
    unsafe {
        transpose_dwords(&mut s);
        let scatter = _mm512_loadu_si512(SCATTER_REVERSED.as_ptr().cast());
        for x in s.iter_mut() {
            *x = _mm512_permutexvar_epi8(scatter, *x);
        }
        s
    }
}

/// The inverse of [`load`], XORed into `buf`: the keystream of a batch applied in place.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn store_xor(mut s: State, buf: &mut [u8; BATCH]) {
    // SAFETY: each access reads and writes 64 bytes at offset 64*r < 1024 of a 1024-byte
    // array.
    unsafe {
        transpose_dwords(&mut s);
        let scatter = _mm512_loadu_si512(SCATTER.as_ptr().cast());
        for (r, x) in s.iter().enumerate() {
            let at = buf.as_mut_ptr().add(64 * r);
            let v = _mm512_permutexvar_epi8(scatter, *x);
            _mm512_storeu_si512(at.cast(), xor(v, _mm512_loadu_si512(at.cast())));
        }
    }
}

/// Runs `f` on every batch of `buf` (whole blocks), the last one padded with zeros.
#[inline(always)]
pub(super) fn for_each_batch(buf: &mut [u8], mut f: impl FnMut(&mut [u8; BATCH])) {
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
        crate::wipe::bytes(&mut pad);
    }
}
