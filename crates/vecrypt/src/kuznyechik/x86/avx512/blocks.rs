//! The per-block path: four blocks per ZMM register, one per 128-bit lane, in the φ
//! domain, for inputs too short to fill a batch.

use core::arch::x86_64::*;

use super::tables::{FROM_PHI, TO_PHI, substitute, xor};
use crate::kuznyechik::RoundKeys;

/// Below this many blocks a call takes the per-block path: about 29 ns a block there
/// against about 585 ns for a padded batch.
pub(super) const SMALL_LIMIT: usize = 21;

/// The constants of the per-block path for one direction, and the round keys through φ,
/// each in all four lanes.
pub(super) struct SmallTables {
    pub(super) sbox: [__m512i; 4],
    pub(super) columns: [__m512i; 16],
    pub(super) rk: [__m512i; 10],
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn small_tables(
    rk: &RoundKeys,
    sbox: &[u8; 256],
    columns: &[[u8; 16]; 16],
) -> SmallTables {
    // SAFETY: AVX-512F/BW/VL/VBMI and GFNI are enabled by the caller; every load reads
    // within a fixed-size array (64 bytes of the 256-byte table, 16 bytes of a 16-byte row).
    unsafe {
        let p = sbox.as_ptr();
        let to_phi = _mm_set1_epi64x(TO_PHI as i64);
        // Plain loops rather than `array::from_fn`: a generic helper that is not inlined
        // runs without the target features and takes every vector through memory.
        let mut t = SmallTables {
            sbox: [
                _mm512_loadu_si512(p.cast()),
                _mm512_loadu_si512(p.add(64).cast()),
                _mm512_loadu_si512(p.add(128).cast()),
                _mm512_loadu_si512(p.add(192).cast()),
            ],
            columns: [_mm512_setzero_si512(); 16],
            rk: [_mm512_setzero_si512(); 10],
        };
        for (c, row) in t.columns.iter_mut().zip(columns) {
            *c = _mm512_broadcast_i32x4(_mm_loadu_si128(row.as_ptr().cast()));
        }
        for (r, key) in t.rk.iter_mut().zip(&rk.0) {
            let k = _mm_loadu_si128(key.as_ptr().cast());
            *r = _mm512_broadcast_i32x4(_mm_gf2p8affine_epi64_epi8::<0>(k, to_phi));
        }
        t
    }
}

/// L (or L⁻¹, by its columns) on four blocks in the φ domain.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn small_linear(y: __m512i, columns: &[__m512i; 16]) -> __m512i {
    // SAFETY: register-only AVX-512BW and GFNI operations, enabled by the caller.
    unsafe {
        let mut level = [_mm512_setzero_si512(); 16];
        for (k, (product, column)) in level.iter_mut().zip(columns).enumerate() {
            let spread = _mm512_shuffle_epi8(y, _mm512_set1_epi8(k as i8));
            *product = _mm512_gf2p8mul_epi8(spread, *column);
        }
        let mut width = 16;
        while width > 1 {
            width /= 2;
            for i in 0..width {
                level[i] = xor(level[i], level[i + width]);
            }
        }
        level[0]
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn small_encrypt(x: __m512i, t: &SmallTables) -> __m512i {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let mut y = _mm512_gf2p8affine_epi64_epi8::<0>(x, _mm512_set1_epi64(TO_PHI as i64));
        for round in 0..9 {
            y = substitute(xor(y, t.rk[round]), &t.sbox);
            y = small_linear(y, &t.columns);
        }
        y = xor(y, t.rk[9]);
        _mm512_gf2p8affine_epi64_epi8::<0>(y, _mm512_set1_epi64(FROM_PHI as i64))
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn small_decrypt(x: __m512i, t: &SmallTables) -> __m512i {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let mut y = _mm512_gf2p8affine_epi64_epi8::<0>(x, _mm512_set1_epi64(TO_PHI as i64));
        y = xor(y, t.rk[9]);
        for round in (0..9).rev() {
            y = small_linear(y, &t.columns);
            y = xor(substitute(y, &t.sbox), t.rk[round]);
        }
        _mm512_gf2p8affine_epi64_epi8::<0>(y, _mm512_set1_epi64(FROM_PHI as i64))
    }
}

/// Runs the per-block path over whole blocks, four at a time; the last group is loaded and
/// stored under a byte mask that depends only on the length.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn small_blocks(buf: &mut [u8], t: &SmallTables, decrypt: bool) {
    // SAFETY: full groups read and write 64 bytes inside `buf`; the last group touches only
    // the `rest.len() < 64` bytes its mask selects.
    unsafe {
        let mut groups = buf.chunks_exact_mut(64);
        for g in &mut groups {
            let x = _mm512_loadu_si512(g.as_ptr().cast());
            let y = if decrypt {
                small_decrypt(x, t)
            } else {
                small_encrypt(x, t)
            };
            _mm512_storeu_si512(g.as_mut_ptr().cast(), y);
        }
        let rest = groups.into_remainder();
        if !rest.is_empty() {
            let mask: __mmask64 = (1u64 << rest.len()) - 1;
            let x = _mm512_maskz_loadu_epi8(mask, rest.as_ptr().cast());
            let y = if decrypt {
                small_decrypt(x, t)
            } else {
                small_encrypt(x, t)
            };
            _mm512_mask_storeu_epi8(rest.as_mut_ptr().cast(), mask, y);
        }
    }
}
