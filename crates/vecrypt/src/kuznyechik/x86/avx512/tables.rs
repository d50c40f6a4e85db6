//! The registers and constants every AVX-512 kernel of Kuznyechik shares: the batch
//! geometry, the S-box lookup in a table held in four ZMM registers, the multiplications of
//! L as GF2P8AFFINEQB, and Kuznyechik's field seen through the isomorphism φ onto the AES
//! field (the tables of the per-block and chain paths).

use core::arch::x86_64::*;

use crate::cpu::kernel;
use crate::kuznyechik::consts::{
    ELL, PHI, PHI_INV, PI, PI_INV, affine_matrix, conjugate_by_phi, matrix_of, phi_columns,
};

/// Blocks per batch: one byte of each in every lane of a ZMM register.
pub(super) const LANES: usize = 64;
/// Bytes per batch.
pub(super) const BATCH: usize = LANES * 16;

pub(super) type State = [__m512i; 16];

/// The public constants of one direction, loaded into registers once per call.
pub(super) struct Tables {
    pub(super) sbox: [__m512i; 4],
    /// Multipliers for the seven distinct non-trivial coefficients of ℓ, in the order
    /// 148, 32, 133, 16, 194, 192, 251.
    pub(super) mul: [__m512i; 7],
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

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn tables(sbox: &[u8; 256]) -> Tables {
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
        };
        for (m, c) in t.mul.iter_mut().zip(MATRICES) {
            *m = _mm512_set1_epi64(c as i64);
        }
        t
    }
}

/// The 256-byte table lookup on every byte of `x`: four single-register VPERMB lookups,
/// one per 64-entry quarter, each merged into the result under the mask of the lanes whose
/// index bits 6 and 7 select that quarter (later lookups overwrite earlier ones). The whole
/// table is read by every lookup, so no address depends on data.
///
/// On the cores measured, a two-register VPERMI2B costs two cycles of port 5 plus a third
/// µop, while VPERMB costs one: this form is 7 µops where two masked VPERMI2B are 8, with
/// three fewer cycles on port 5, which the S layer saturates.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn substitute(x: __m512i, t: &[__m512i; 4]) -> __m512i {
    // SAFETY: register-only AVX-512BW/VBMI operations, enabled by the caller.
    unsafe {
        let [bit6, bit7, both] = quarter_masks(x);
        let r = _mm512_permutexvar_epi8(x, t[0]);
        let r = _mm512_mask_permutexvar_epi8(r, bit6, x, t[1]);
        let r = _mm512_mask_permutexvar_epi8(r, bit7, x, t[2]);
        _mm512_mask_permutexvar_epi8(r, both, x, t[3])
    }
}

/// The lanes of `x` with bit 6 set, with bit 7 set, and with both. Written in assembly
/// because the compiler turns the same masks written with intrinsics into comparisons and
/// blends that load port 5 further (measured 3 to 5% slower). The mask registers in `asm!`
/// need the feature (AVX-512BW) on this function itself, which rules out `#[inline(always)]`;
/// it carries the kernel's features, which every caller enables, and the generated code has
/// it inlined.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[kernel(KUZNYECHIK_AVX512)]
#[inline]
unsafe fn quarter_masks(x: __m512i) -> [u64; 3] {
    let (bit6, bit7, both): (u64, u64, u64);
    // SAFETY: three register-only AVX-512BW instructions (a test on port 5, a sign-bit move
    // and a mask AND on port 0), enabled by the caller and by this function's attribute; no
    // memory, stack or flags are touched.
    unsafe {
        core::arch::asm!(
            "vptestmb {bit6}, {x:z}, {b6:z}",
            "vpmovb2m {bit7}, {x:z}",
            "kandq {both}, {bit6}, {bit7}",
            x = in(zmm_reg) x,
            b6 = in(zmm_reg) _mm512_set1_epi8(0x40),
            bit6 = out(kreg) bit6,
            bit7 = out(kreg) bit7,
            both = out(kreg) both,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    [bit6, bit7, both]
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn mul(x: __m512i, m: __m512i) -> __m512i {
    // SAFETY: register-only GFNI operation, enabled by the caller.
    unsafe { _mm512_gf2p8affine_epi64_epi8::<0>(x, m) }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn xor(a: __m512i, b: __m512i) -> __m512i {
    // SAFETY: register-only AVX-512F operation, enabled by the caller.
    unsafe { _mm512_xor_si512(a, b) }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn xor3(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    // SAFETY: register-only AVX-512F operation, enabled by the caller.
    unsafe { _mm512_ternarylogic_epi64::<0x96>(a, b, c) }
}

/// π and π⁻¹ seen through φ.
pub(super) const PI_PHI: [u8; 256] = conjugate_by_phi(&PI);
pub(super) const PI_INV_PHI: [u8; 256] = conjugate_by_phi(&PI_INV);
/// The columns of L and L⁻¹ through φ.
pub(super) const L_PHI: [[u8; 16]; 16] = phi_columns(false);
pub(super) const L_INV_PHI: [[u8; 16]; 16] = phi_columns(true);
/// φ and φ⁻¹ as GF2P8AFFINEQB matrices.
pub(super) const TO_PHI: u64 = matrix_of(&PHI);
pub(super) const FROM_PHI: u64 = matrix_of(&PHI_INV);
