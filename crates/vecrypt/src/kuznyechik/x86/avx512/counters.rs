//! Counter batches of the AVX-512 sliced kernel, entering it at the second round.
//!
//! The 64 counter blocks of a batch differ in their lowest counter byte, byte `p` in memory
//! order (15 when the whole block or its right half counts, 7 when the left half does),
//! and, for the blocks past a wrap of that byte, by one in byte `p - 1`. The first round
//! `L(S(x ^ K1)) ^ K2` works bytewise up to L and L is linear, so for block `i`
//! ```text
//! round1(x_i) = f(h_i) ^ L(e_p * π(x_i[p] ^ K1[p]))
//! ```
//! where `f(h)` is the round with byte `p` of the S layer's output set to zero. `h_i` is
//! the first block of the batch for every block before the wrap and that block with byte
//! `p - 1` plus one after it, so `f` is worked out twice per batch, in two lanes of the
//! per-block path. The second term is column `p` of L times one S output, a table of 256
//! entries per state byte made once per key; a batch reads it as 64 consecutive entries
//! from the first block's byte `p` (each row carries a copy of its first 64 entries after
//! the 256th). In the sliced layout a batch thus starts at its second round for 16 loads
//! and 48 operations where the counters and the first round cost about 420, some 8% of a
//! batch. A carry past byte `p - 1` inside a batch (once every 1024 batches) is left to
//! the caller's general path. The counter is public; the tables are key material and are
//! only ever read at offsets that depend on the counter.

use core::arch::x86_64::*;

use super::blocks::{SmallTables, small_linear, small_tables};
use super::tables::{FROM_PHI, L_PHI, LANES, PI_PHI, State, TO_PHI, mul, substitute, xor};
use crate::cpu::kernel;
use crate::kuznyechik::RoundKeys;
use crate::kuznyechik::consts::{affine_matrix, l_const};

/// Which part of a counter block counts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(in super::super) enum Counting {
    /// The whole block, modulo 2^128 (CTR).
    Whole,
    /// The right half, modulo 2^64 (the keystream counter of MGM).
    Right,
    /// The left half, modulo 2^64 (the multiplier counter of MGM).
    Left,
}

impl Counting {
    /// Memory position of the counter's lowest byte.
    const fn low_byte(self) -> usize {
        match self {
            Counting::Left => 7,
            Counting::Whole | Counting::Right => 15,
        }
    }

    /// The counter `steps` increments after `c`.
    pub(super) fn advance(self, c: u128, steps: u64) -> u128 {
        match self {
            Counting::Whole => c.wrapping_add(u128::from(steps)),
            Counting::Right => (c >> 64 << 64) | u128::from((c as u64).wrapping_add(steps)),
            Counting::Left => {
                (u128::from(((c >> 64) as u64).wrapping_add(steps)) << 64) | u128::from(c as u64)
            }
        }
    }

    /// The two lowest bytes of the counting part.
    fn low16(self, c: u128) -> usize {
        let counting = match self {
            Counting::Left => c >> 64,
            Counting::Whole | Counting::Right => c,
        };
        usize::from(counting as u16)
    }
}

/// Row `j`, entry `v`: byte `j` of `L(e_p * π(v ^ K1[p]))`, for `v` in `0..256` and again
/// for `v` in `256..320`. Zeroized on drop.
#[derive(Clone)]
pub(super) struct ColumnTable([[u8; 256 + LANES]; 16]);

impl Drop for ColumnTable {
    fn drop(&mut self) {
        crate::wipe::bytes(self.0.as_flattened_mut());
    }
}

/// GF2P8AFFINEQB matrices for the entries of column `p` of L.
const fn column_matrices(p: usize) -> [u64; 16] {
    let mut unit = [0u8; 16];
    unit[p] = 1;
    let column = l_const(unit);
    let mut m = [0u64; 16];
    let mut j = 0;
    while j < 16 {
        m[j] = affine_matrix(column[j]);
        j += 1;
    }
    m
}

const COLUMN_15: [u64; 16] = column_matrices(15);
const COLUMN_7: [u64; 16] = column_matrices(7);

/// Bytes 0, 1, ..., 63.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn lane_index() -> __m512i {
    // SAFETY: register-only AVX-512BW operation, enabled by the caller.
    unsafe {
        _mm512_set_epi8(
            63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42,
            41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20,
            19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
        )
    }
}

/// The table of `counting` for the first round key `k1`, with π held in `sbox`. Built for
/// the features itself, as it runs inside a `OnceLock` initializer (see `super::keys::shares`).
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[kernel(KUZNYECHIK_AVX512)]
pub(super) unsafe fn column_table(
    k1: &[u8; 16],
    counting: Counting,
    sbox: &[__m512i; 4],
) -> ColumnTable {
    let p = counting.low_byte();
    let matrices = if p == 15 { &COLUMN_15 } else { &COLUMN_7 };
    let mut table = ColumnTable([[0u8; 256 + LANES]; 16]);
    // SAFETY: register-only operations enabled by the caller, and 64-byte stores at offsets
    // 64q (q < 4) and 256 of 320-byte rows.
    unsafe {
        let key = _mm512_set1_epi8(k1[p] as i8);
        for q in 0..4 {
            let v = _mm512_add_epi8(lane_index(), _mm512_set1_epi8((64 * q) as i8));
            let x = substitute(xor(v, key), sbox);
            for (row, m) in table.0.iter_mut().zip(matrices) {
                let y = mul(x, _mm512_set1_epi64(*m as i64));
                _mm512_storeu_si512(row.as_mut_ptr().add(64 * q).cast(), y);
                if q == 0 {
                    _mm512_storeu_si512(row.as_mut_ptr().add(256).cast(), y);
                }
            }
        }
    }
    table
}

/// What a call needs to start its counter batches at the second round.
pub(super) struct FirstRound<'a> {
    table: &'a ColumnTable,
    small: SmallTables,
    counting: Counting,
    /// `f` of the last batch spread over the sliced registers (lane `i` of register `j`:
    /// byte `j` of `f(h_i)`), and what it was made for: the first counter block with its
    /// lowest byte cleared, and the lanes past the wrap. Four batches in a row share `f`,
    /// and all but one of them the wrap.
    spread: State,
    made_for: Option<(u128, u64)>,
}

impl<'a> FirstRound<'a> {
    /// # Safety
    /// The caller enables AVX-512F/BW/VL/VBMI and GFNI.
    #[inline(always)]
    pub(super) unsafe fn new(rk: &RoundKeys, table: &'a ColumnTable, counting: Counting) -> Self {
        // SAFETY: the features are enabled by the caller.
        unsafe {
            Self {
                table,
                small: small_tables(rk, &PI_PHI, &L_PHI),
                counting,
                spread: [_mm512_setzero_si512(); 16],
                made_for: None,
            }
        }
    }

    /// How the counter of this call counts.
    pub(super) fn counting(&self) -> Counting {
        self.counting
    }

    /// The state of the 64 counter blocks from `first` after the first round (round key
    /// K2 included), or `None` when byte `p - 1` carries inside the batch.
    ///
    /// # Safety
    /// The caller enables AVX-512F/BW/VL/VBMI and GFNI.
    #[inline(always)]
    pub(super) unsafe fn batch(&mut self, first: u128) -> Option<State> {
        let low = self.counting.low16(first);
        if low + LANES > 0x1_0000 {
            return None;
        }
        let start = low & 0xff;
        // Lanes from `256 - start` on are past the wrap of byte p.
        let wrapped: u64 = if start + LANES > 256 {
            u64::MAX << (256 - start)
        } else {
            0
        };
        let p = self.counting.low_byte();
        let made_for = (first & !(0xff << (8 * (15 - p))), wrapped);
        // SAFETY: register-only operations enabled by the caller, and loads of 64 bytes at
        // offset `start < 256` of 320-byte rows.
        unsafe {
            if self.made_for != Some(made_for) {
                self.spread_f(first, wrapped);
                self.made_for = Some(made_for);
            }
            let mut state = self.spread;
            for (v, row) in state.iter_mut().zip(&self.table.0) {
                *v = xor(*v, _mm512_loadu_si512(row.as_ptr().add(start).cast()));
            }
            Some(state)
        }
    }

    /// Works out `f` on the per-block path for the batch from `first`, before the wrap in
    /// lane 0 and after it in lane 1, and spreads it over the sliced registers.
    ///
    /// # Safety
    /// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
    /// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
    /// those features themselves.
    #[inline(always)]
    unsafe fn spread_f(&mut self, first: u128, wrapped: u64) {
        let p = self.counting.low_byte();
        let after = self.counting.advance(first, 256);
        // SAFETY: register-only operations enabled by the caller, and 16-byte loads of
        // 16-byte arrays.
        unsafe {
            let t = &self.small;
            let (a, b) = (first.to_be_bytes(), after.to_be_bytes());
            let x = _mm512_inserti32x4::<1>(
                _mm512_castsi128_si512(_mm_loadu_si128(a.as_ptr().cast())),
                _mm_loadu_si128(b.as_ptr().cast()),
            );
            let y = _mm512_gf2p8affine_epi64_epi8::<0>(x, _mm512_set1_epi64(TO_PHI as i64));
            let s = substitute(xor(y, t.rk[0]), &t.sbox);
            let s = _mm512_maskz_mov_epi8(!(0x0001_0001_0001_0001u64 << p), s);
            let l = xor(small_linear(s, &t.columns), t.rk[1]);
            let f = _mm512_gf2p8affine_epi64_epi8::<0>(l, _mm512_set1_epi64(FROM_PHI as i64));
            let lane = _mm512_maskz_mov_epi8(wrapped, _mm512_set1_epi8(16));
            for (j, v) in self.spread.iter_mut().enumerate() {
                *v = _mm512_permutexvar_epi8(_mm512_add_epi8(lane, _mm512_set1_epi8(j as i8)), f);
            }
        }
    }
}

impl Drop for FirstRound<'_> {
    /// The spread `f` and the round keys through φ are key material.
    fn drop(&mut self) {
        // SAFETY: an all-zero bit pattern is a valid `__m512i`; the volatile writes go to
        // fields of `self`.
        unsafe {
            let spread: *mut State = &mut self.spread;
            spread.write_volatile(core::mem::zeroed());
            let rk: *mut [__m512i; 10] = &mut self.small.rk;
            rk.write_volatile(core::mem::zeroed());
        }
    }
}
