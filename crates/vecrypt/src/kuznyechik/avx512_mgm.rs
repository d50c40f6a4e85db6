//! MGM's whole 64-block batches on the AVX-512 sliced kernel, fused.
//!
//! Composed from block calls, a batch of MGM writes its 64 `Y` and 64 `Z` counter blocks
//! out, loads them into the sliced layout, encrypts, stores both results, XORs the
//! keystream in a pass of its own and reads `H_i` back for the products. Here both counters
//! start at their second round from the per-key first-round tables
//! ([`super::avx512_counters`]: `Y` counts in byte 15, `Z` in byte 7), the keystream is
//! XORed into the data as it leaves the layout, and the multipliers `H_i` leave it straight
//! into the registers of the products: the scatter out of the layout also reverses each
//! block's bytes, which is the order PCLMULQDQ wants. The 256-bit products of a call are
//! summed unreduced in three ZMM registers (low, middle and high 128 bits per lane) and
//! returned once; the caller reduces.

use core::arch::x86_64::*;

use super::RoundKeys;
use super::avx512::{
    BATCH, SlicedKeys, State, counter_batch, store_xor, tables, unsliced_reversed,
};
use super::avx512_counters::{Counting, FirstRound};
use super::consts::PI;
use crate::cpu::Features;

/// Whether this CPU can run the fused batches.
pub(super) fn available(f: &Features) -> bool {
    super::avx512::available(f) && f.vpclmulqdq
}

/// Unreduced products summed per 128-bit lane: the coefficients of x^0..x^127, of
/// x^64..x^191 and of x^128..x^255.
struct Products {
    low: __m512i,
    middle: __m512i,
    high: __m512i,
}

impl Products {
    #[inline(always)]
    unsafe fn new() -> Self {
        // SAFETY: register-only AVX-512F operations, enabled by the caller.
        unsafe {
            Self {
                low: _mm512_setzero_si512(),
                middle: _mm512_setzero_si512(),
                high: _mm512_setzero_si512(),
            }
        }
    }

    /// Adds `H_i * X_i` for the 64 blocks of a batch: `hs` from [`unsliced_reversed`], `xs`
    /// the 1024 bytes of data in memory order.
    #[inline(always)]
    unsafe fn add(&mut self, hs: &State, xs: &[u8; BATCH]) {
        // SAFETY: register-only AVX-512BW/VPCLMULQDQ operations enabled by the caller, and
        // 64-byte loads at offsets 64r < 1024 of a 1024-byte array.
        unsafe {
            let reverse = _mm512_broadcast_i32x4(_mm_set_epi8(
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
            ));
            for (r, h) in hs.iter().enumerate() {
                let x = _mm512_loadu_si512(xs.as_ptr().add(64 * r).cast());
                let x = _mm512_shuffle_epi8(x, reverse);
                self.low = _mm512_xor_si512(self.low, _mm512_clmulepi64_epi128::<0x00>(*h, x));
                self.high = _mm512_xor_si512(self.high, _mm512_clmulepi64_epi128::<0x11>(*h, x));
                self.middle = _mm512_ternarylogic_epi64::<0x96>(
                    self.middle,
                    _mm512_clmulepi64_epi128::<0x01>(*h, x),
                    _mm512_clmulepi64_epi128::<0x10>(*h, x),
                );
            }
        }
    }

    /// The sum as the (low, high) halves of a 256-bit polynomial.
    #[inline(always)]
    unsafe fn total(&self) -> (u128, u128) {
        // SAFETY: register-only AVX-512F operations enabled by the caller, and 16-byte
        // stores into local arrays.
        unsafe {
            let lanes = |x: __m512i| {
                let half =
                    _mm256_xor_si256(_mm512_castsi512_si256(x), _mm512_extracti64x4_epi64::<1>(x));
                let sum = _mm_xor_si128(
                    _mm256_castsi256_si128(half),
                    _mm256_extracti128_si256::<1>(half),
                );
                let mut out = [0u8; 16];
                _mm_storeu_si128(out.as_mut_ptr().cast(), sum);
                u128::from_le_bytes(out)
            };
            let (low, middle, high) = (lanes(self.low), lanes(self.middle), lanes(self.high));
            (low ^ (middle << 64), high ^ (middle >> 64))
        }
    }
}

/// The whole batches at the front of `data`, as 1024-byte arrays.
fn batches(data: &[u8]) -> impl Iterator<Item = &[u8; BATCH]> {
    data.chunks_exact(BATCH)
        .map(|c| c.try_into().expect("whole batch"))
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni,vpclmulqdq")]
unsafe fn absorb_impl(
    rk: &RoundKeys,
    keys: &SlicedKeys,
    z: &mut u128,
    data: &[u8],
) -> (u128, u128) {
    // SAFETY: the features are enabled on this function; the helpers touch registers and
    // arrays whose bounds they check by type.
    unsafe {
        let t = tables(&PI);
        let sh = keys.get(rk, &t.mul, false);
        let mut first = FirstRound::new(
            rk,
            keys.column_table(rk, &t.sbox, Counting::Left),
            Counting::Left,
        );
        let mut sum = Products::new();
        for xs in batches(data) {
            let hs = unsliced_reversed(counter_batch(&mut first, *z, &t, rk, sh));
            *z = Counting::Left.advance(*z, 64);
            sum.add(&hs, xs);
        }
        sum.total()
    }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni,vpclmulqdq")]
unsafe fn seal_impl(
    rk: &RoundKeys,
    keys: &SlicedKeys,
    y: &mut u128,
    z: &mut u128,
    buf: &mut [u8],
) -> (u128, u128) {
    // SAFETY: as in `absorb_impl`.
    unsafe {
        let t = tables(&PI);
        let sh = keys.get(rk, &t.mul, false);
        let mut stream = FirstRound::new(
            rk,
            keys.column_table(rk, &t.sbox, Counting::Right),
            Counting::Right,
        );
        let mut multipliers = FirstRound::new(
            rk,
            keys.column_table(rk, &t.sbox, Counting::Left),
            Counting::Left,
        );
        let mut sum = Products::new();
        for chunk in buf.chunks_exact_mut(BATCH) {
            let chunk: &mut [u8; BATCH] = chunk.try_into().expect("whole batch");
            store_xor(counter_batch(&mut stream, *y, &t, rk, sh), chunk);
            *y = Counting::Right.advance(*y, 64);
            let hs = unsliced_reversed(counter_batch(&mut multipliers, *z, &t, rk, sh));
            *z = Counting::Left.advance(*z, 64);
            sum.add(&hs, chunk);
        }
        sum.total()
    }
}

/// Adds `H_i * X_i` over the whole batches at the front of `data`, `H_i` the encryption of
/// the left-counting `z`, which advances. Returns the bytes covered and the unreduced sum,
/// or `None` without the CPU features.
pub(super) fn absorb(
    rk: &RoundKeys,
    keys: &SlicedKeys,
    z: &mut u128,
    data: &[u8],
) -> Option<(usize, (u128, u128))> {
    if !available(crate::cpu::features()) {
        return None;
    }
    let done = data.len() / BATCH * BATCH;
    if done == 0 {
        return Some((0, (0, 0)));
    }
    // SAFETY: the required features were just checked.
    Some((done, unsafe { absorb_impl(rk, keys, z, &data[..done]) }))
}

/// Encrypts the whole batches at the front of `buf` in place with the keystream of the
/// right-counting `y` and adds `H_i * C_i` of the ciphertext, as [`absorb`] does.
pub(super) fn seal(
    rk: &RoundKeys,
    keys: &SlicedKeys,
    y: &mut u128,
    z: &mut u128,
    buf: &mut [u8],
) -> Option<(usize, (u128, u128))> {
    if !available(crate::cpu::features()) {
        return None;
    }
    let done = buf.len() / BATCH * BATCH;
    if done == 0 {
        return Some((0, (0, 0)));
    }
    // SAFETY: the required features were just checked.
    Some((done, unsafe { seal_impl(rk, keys, y, z, &mut buf[..done]) }))
}
