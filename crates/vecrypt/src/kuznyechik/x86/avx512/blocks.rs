//! The per-block path: four blocks per ZMM register, one per 128-bit lane, in the φ
//! domain, for inputs too short to fill a batch.

use core::arch::x86_64::*;

use super::chain::substitute;
use super::tables::{FROM_PHI, TO_PHI, xor};
use crate::kuznyechik::RoundKeys;

/// Below this many blocks a call takes the per-block path on this core (more blocks on
/// cores where a padded batch costs more; see `crate::cpu::tuning`).
#[inline]
pub(super) fn small_limit() -> usize {
    crate::cpu::tuning().kuznyechik_zmm_small_blocks
}

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

/// Encryption (or decryption) of `N` registers of four blocks, round by round across the
/// registers, so that their chains of rounds overlap.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn small_crypt<const N: usize>(x: &mut [__m512i; N], t: &SmallTables, decrypt: bool) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        for y in x.iter_mut() {
            *y = _mm512_gf2p8affine_epi64_epi8::<0>(*y, _mm512_set1_epi64(TO_PHI as i64));
        }
        if decrypt {
            for y in x.iter_mut() {
                *y = xor(*y, t.rk[9]);
            }
            for round in (0..9).rev() {
                for y in x.iter_mut() {
                    *y = xor(
                        substitute(small_linear(*y, &t.columns), &t.sbox),
                        t.rk[round],
                    );
                }
            }
        } else {
            for round in 0..9 {
                for y in x.iter_mut() {
                    *y = small_linear(substitute(xor(*y, t.rk[round]), &t.sbox), &t.columns);
                }
            }
            for y in x.iter_mut() {
                *y = xor(*y, t.rk[9]);
            }
        }
        for y in x.iter_mut() {
            *y = _mm512_gf2p8affine_epi64_epi8::<0>(*y, _mm512_set1_epi64(FROM_PHI as i64));
        }
    }
}

/// Runs the per-block path over whole blocks, two registers of four at a time with their
/// rounds interleaved (the path is bound by the latency of a register's rounds); the last
/// one or two registers are loaded and stored under byte masks that depend only on the
/// length.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn small_blocks(buf: &mut [u8], t: &SmallTables, decrypt: bool) {
    // SAFETY: full pairs read and write 128 bytes inside `buf`; the last one or two
    // registers touch only the bytes of `rest` their masks select.
    unsafe {
        let mut pairs = buf.chunks_exact_mut(128);
        for g in &mut pairs {
            let mut x = [
                _mm512_loadu_si512(g.as_ptr().cast()),
                _mm512_loadu_si512(g.as_ptr().add(64).cast()),
            ];
            small_crypt(&mut x, t, decrypt);
            _mm512_storeu_si512(g.as_mut_ptr().cast(), x[0]);
            _mm512_storeu_si512(g.as_mut_ptr().add(64).cast(), x[1]);
        }
        // The first n bytes of a register, 1 <= n <= 64.
        let first = |n: usize| -> __mmask64 { u64::MAX >> (64 - n) };
        let rest = pairs.into_remainder();
        if rest.len() > 64 {
            let (m0, m1) = (u64::MAX, first(rest.len() - 64));
            let mut x = [
                _mm512_maskz_loadu_epi8(m0, rest.as_ptr().cast()),
                _mm512_maskz_loadu_epi8(m1, rest.as_ptr().add(64).cast()),
            ];
            small_crypt(&mut x, t, decrypt);
            _mm512_mask_storeu_epi8(rest.as_mut_ptr().cast(), m0, x[0]);
            _mm512_mask_storeu_epi8(rest.as_mut_ptr().add(64).cast(), m1, x[1]);
        } else if !rest.is_empty() {
            let m0 = first(rest.len());
            let mut x = [_mm512_maskz_loadu_epi8(m0, rest.as_ptr().cast())];
            small_crypt(&mut x, t, decrypt);
            _mm512_mask_storeu_epi8(rest.as_mut_ptr().cast(), m0, x[0]);
        }
    }
}
