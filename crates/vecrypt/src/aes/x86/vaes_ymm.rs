//! VAES on 256-bit registers, two blocks each: the width's primitives, then the kernels of
//! `vaes_blocks`, `vaes_gcm` and `vaes_xts` expanded over them. Eight registers are kept in
//! flight to cover the three-cycle latency of VAESENC at two issues per cycle.

use core::arch::x86_64::*;

use super::vaes_blocks::{REVERSE, vaes_blocks};
use super::vaes_gcm::{POLY, vaes_gcm};
use super::vaes_xts::vaes_xts;
use crate::aes::common::{CounterWidth, RoundKeys, next_tweak};
use crate::aes::ghash::{MAX_BATCH, POWERS};
use crate::aes::rounds::by_rounds;
use crate::cpu::kernel;

type V = __m256i;
const LANES: usize = 2;
const UNROLL: usize = 8;
const MAX_REGS: usize = 8;
/// Registers of blocks per GHASH reduction in GCM: 16 blocks.
const GCM_REGS: usize = 8;

#[kernel(AES_VAES256)]
#[inline]
fn ld(bytes: &[u8], off: usize) -> V {
    assert!(bytes.len() >= off + 32);
    // SAFETY: the assertion keeps the 32 bytes read inside `bytes`; no alignment needed.
    unsafe { _mm256_loadu_si256(bytes.as_ptr().add(off).cast()) }
}

#[kernel(AES_VAES256)]
#[inline]
fn st(bytes: &mut [u8], off: usize, v: V) {
    assert!(bytes.len() >= off + 32);
    // SAFETY: the assertion keeps the 32 bytes written inside `bytes`; no alignment needed.
    unsafe { _mm256_storeu_si256(bytes.as_mut_ptr().add(off).cast(), v) }
}

#[kernel(AES_VAES256)]
#[inline]
fn xmm_load(bytes: &[u8], i: usize) -> __m128i {
    assert!(bytes.len() >= 16 * (i + 1));
    // SAFETY: the assertion keeps the 16 bytes read inside `bytes`; no alignment needed.
    unsafe { _mm_loadu_si128(bytes.as_ptr().add(16 * i).cast()) }
}

#[kernel(AES_VAES256)]
#[inline]
fn xmm_store(bytes: &mut [u8], i: usize, v: __m128i) {
    assert!(bytes.len() >= 16 * (i + 1));
    // SAFETY: the assertion keeps the 16 bytes written inside `bytes`; no alignment needed.
    unsafe { _mm_storeu_si128(bytes.as_mut_ptr().add(16 * i).cast(), v) }
}

#[kernel(AES_VAES256)]
#[inline]
fn bcast(block: &[u8; 16]) -> V {
    _mm256_broadcastsi128_si256(xmm_load(block, 0))
}

#[kernel(AES_VAES256)]
#[inline]
fn gather(b: [__m128i; LANES]) -> V {
    _mm256_set_m128i(b[1], b[0])
}

#[kernel(AES_VAES256)]
#[inline]
fn scatter(v: V) -> [__m128i; LANES] {
    [_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v)]
}

/// `[prev.lane1, cur.lane0]`: each block's predecessor.
#[kernel(AES_VAES256)]
#[inline]
fn shift_in(cur: V, prev: V) -> V {
    _mm256_permute2x128_si256::<0x21>(prev, cur)
}

#[kernel(AES_VAES256)]
#[inline]
fn xor(a: V, b: V) -> V {
    _mm256_xor_si256(a, b)
}

#[kernel(AES_VAES256)]
#[inline]
fn enc(a: V, k: V) -> V {
    _mm256_aesenc_epi128(a, k)
}

#[kernel(AES_VAES256)]
#[inline]
fn enclast(a: V, k: V) -> V {
    _mm256_aesenclast_epi128(a, k)
}

#[kernel(AES_VAES256)]
#[inline]
fn dec(a: V, k: V) -> V {
    _mm256_aesdec_epi128(a, k)
}

#[kernel(AES_VAES256)]
#[inline]
fn declast(a: V, k: V) -> V {
    _mm256_aesdeclast_epi128(a, k)
}

#[kernel(AES_VAES256)]
#[inline]
fn shuf(a: V, m: V) -> V {
    _mm256_shuffle_epi8(a, m)
}

#[kernel(AES_VAES256)]
#[inline]
fn add32(a: V, b: V) -> V {
    _mm256_add_epi32(a, b)
}

#[kernel(AES_VAES256)]
#[inline]
fn add64(a: V, b: V) -> V {
    _mm256_add_epi64(a, b)
}

#[kernel(AES_VAES256)]
#[inline]
fn zero() -> V {
    _mm256_setzero_si256()
}

#[kernel(AES_VAES256)]
#[inline]
fn zext(x: __m128i) -> V {
    _mm256_zextsi128_si256(x)
}

#[kernel(AES_VAES256)]
#[inline]
fn clmul<const IMM: i32>(a: V, b: V) -> V {
    _mm256_clmulepi64_epi128::<IMM>(a, b)
}

/// XOR of the two lanes.
#[kernel(AES_VAES256)]
#[inline]
fn fold(v: V) -> __m128i {
    let [a, b] = scatter(v);
    _mm_xor_si128(a, b)
}

#[kernel(AES_VAES256)]
#[inline]
fn lane_shl8(v: V) -> V {
    _mm256_bslli_epi128::<8>(v)
}

#[kernel(AES_VAES256)]
#[inline]
fn lane_shr8(v: V) -> V {
    _mm256_bsrli_epi128::<8>(v)
}

#[kernel(AES_VAES256)]
#[inline]
fn swap_halves(v: V) -> V {
    _mm256_shuffle_epi32::<78>(v)
}

/// Every lane times x^2 in XTS's field: a 2-bit shift of each 128-bit lane, the bits
/// shifted out folded back with the polynomial 0x87.
#[kernel(AES_VAES256)]
#[inline]
fn times_x_lanes(v: V) -> V {
    let carry = _mm256_srli_epi64::<62>(v);
    let poly = _mm256_set1_epi64x(0x87);
    let reduced = _mm256_clmulepi64_epi128::<0x01>(carry, poly);
    xor(
        xor(_mm256_slli_epi64::<2>(v), _mm256_bslli_epi128::<8>(carry)),
        reduced,
    )
}

vaes_blocks!(AES_VAES256);
vaes_gcm!(AES_VAES256);
vaes_xts!(AES_VAES256);
