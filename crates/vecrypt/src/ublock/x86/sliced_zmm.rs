//! The fully bitsliced uBlock kernel ([`super::sliced`]) on 512-bit registers, 512 blocks
//! per batch, and the register operations of its transposition ([`super::sliced::transpose`]).
//!
//! Those avoid the shuffle port where they can: it alone executes permutes, and those
//! across two registers take it for two cycles. A register bit crosses with a byte-in-lane
//! bit by 64-bit shifts and byte blends (either vector port); the bit-in-byte bits cross
//! with the byte-in-lane bits in one `GF2P8AFFINEQB`, which transposes the 8x8 bit matrix
//! of every 64-bit lane; lane bits cross by unpacks or `VPERMT2Q`.

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::Variant;
use super::planes_zmm::{Avx512, Zmm};
use super::sliced::{self, SliceKeys};
use super::sliced_entry::sliced_entry_points;
use super::transpose::Exchanges;
use crate::cpu::{kernel, kernels};

/// Every 64-bit lane: byte `b` is `1 << (7 - b)`, the operand that makes `GF2P8AFFINEQB`
/// transpose the 8x8 bit matrix given as its matrix operand about the anti-diagonal (an
/// involution).
const ANTI_TRANSPOSE: i64 = 0x0102_0408_1020_4080;

// Every operation below has a register or a token, which proves the features.
impl Exchanges for Zmm {
    const REVERSED: bool = true;

    #[inline(always)]
    fn load(_: Self::Token, b: &[u8]) -> Self {
        let b: &[u8; 64] = b[..64].try_into().unwrap_or(&[0; 64]);
        // SAFETY: reads 64 bytes from a 64-byte array; a register exists, which proves the features (see the register type).
        Zmm(unsafe { _mm512_loadu_si512(b.as_ptr().cast()) })
    }

    #[inline(always)]
    fn store(self, b: &mut [u8]) {
        let b: &mut [u8; 64] = (&mut b[..64]).try_into().unwrap_or_else(|_| unreachable!());
        // SAFETY: writes 64 bytes into a 64-byte array; a register exists, which proves the features (see the register type).
        unsafe { _mm512_storeu_si512(b.as_mut_ptr().cast(), self.0) }
    }

    /// Two 64-bit shifts and two byte blends, on either vector port: the two-register byte
    /// permutes would take the shuffle port two cycles each.
    #[inline(always)]
    fn byte_exchange<const D: usize>(x: Self, y: Self) -> (Self, Self) {
        let upper: __mmask64 = match D {
            1 => 0xaaaa_aaaa_aaaa_aaaa,
            2 => 0xcccc_cccc_cccc_cccc,
            _ => 0xf0f0_f0f0_f0f0_f0f0,
        };
        // SAFETY: a register exists, which proves the features (see the register type).
        unsafe {
            let (up, down) = match D {
                1 => (_mm512_slli_epi64::<8>(y.0), _mm512_srli_epi64::<8>(x.0)),
                2 => (_mm512_slli_epi64::<16>(y.0), _mm512_srli_epi64::<16>(x.0)),
                _ => (_mm512_slli_epi64::<32>(y.0), _mm512_srli_epi64::<32>(x.0)),
            };
            (
                Zmm(_mm512_mask_blend_epi8(upper, x.0, up)),
                Zmm(_mm512_mask_blend_epi8(upper, down, y.0)),
            )
        }
    }

    #[inline(always)]
    fn bit_transpose(self) -> Self {
        // SAFETY: a register exists, which proves the features (see the register type).
        Zmm(unsafe {
            _mm512_gf2p8affine_epi64_epi8::<0>(_mm512_set1_epi64(ANTI_TRANSPOSE), self.0)
        })
    }

    #[inline(always)]
    fn qword_exchange(x: Self, y: Self) -> (Self, Self) {
        // SAFETY: a register exists, which proves the features (see the register type).
        unsafe {
            (
                Zmm(_mm512_unpacklo_epi64(x.0, y.0)),
                Zmm(_mm512_unpackhi_epi64(x.0, y.0)),
            )
        }
    }

    #[inline(always)]
    fn pair_exchange(x: Self, y: Self) -> (Self, Self) {
        // SAFETY: a register exists, which proves the features (see the register type).
        unsafe {
            let lo = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
            let hi = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
            (
                Zmm(_mm512_permutex2var_epi64(x.0, lo, y.0)),
                Zmm(_mm512_permutex2var_epi64(x.0, hi, y.0)),
            )
        }
    }
}

sliced_entry_points!(UBLOCK_SLICED_AVX512, Zmm, Avx512::new());
