//! Two blocks per YMM register, one per 128-bit lane, in the AES field through GFNI: the
//! path of calls too short for a batch.

use core::arch::x86_64::*;

use super::tables::{Tables, broadcast16, substitute, substitute_inverse, tables, xor};
use crate::kuznyechik::RoundKeys;
use crate::kuznyechik::consts::{
    PHI as TO_AES_FIELD, PHI_INV as FROM_AES_FIELD, matrix_of, phi_columns,
};

/// Below this many blocks the GFNI entry points run blocks two at a time instead of as a
/// sliced batch, which costs as much as 32 blocks: the chained modes pass one block. A batch
/// with its per-call keys costs about as much as five pairs, so the batch pays from ten
/// blocks on (figures in `docs/perf/kuznyechik.md`).
pub(super) const SMALL_BLOCKS: usize = 10;

/// The columns of L and L⁻¹ carried into the AES field, where each product is one
/// GF2P8MULB, and the field maps as GF2P8AFFINEQB matrices.
pub(super) const L_COLUMNS_AES: [[u8; 16]; 16] = phi_columns(false);
pub(super) const L_INV_COLUMNS_AES: [[u8; 16]; 16] = phi_columns(true);
pub(super) const TO_AES_MATRIX: u64 = matrix_of(&TO_AES_FIELD);
pub(super) const FROM_AES_MATRIX: u64 = matrix_of(&FROM_AES_FIELD);

/// L (or L⁻¹, by its columns) on the block in each 128-bit lane: byte `k` of the block,
/// spread over the lane, times column `k`, summed, all in the AES field.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn lane_linear(x: __m256i, columns: &[__m256i; 16]) -> __m256i {
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
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn lane_key(rk: &RoundKeys, i: usize) -> __m256i {
    // SAFETY: AVX2 is enabled by the caller; the load reads one 16-byte round key.
    unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(rk.0[i].as_ptr().cast())) }
}

/// Two blocks (one per lane) through the cipher, with GFNI.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn lane_blocks<const DECRYPT: bool>(
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
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn small_body<const DECRYPT: bool>(rk: &RoundKeys, buf: &mut [u8]) {
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
