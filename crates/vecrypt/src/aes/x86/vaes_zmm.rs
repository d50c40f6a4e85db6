//! VAES on 512-bit registers, four blocks each: the width's primitives, then the kernels of
//! `vaes_blocks`, `vaes_gcm` and `vaes_xts` expanded over them. Four registers are kept in
//! flight to cover the three-cycle latency of VAESENC at one issue per cycle.

use core::arch::x86_64::*;

use super::rounds::by_rounds;
use super::vaes_blocks::{REVERSE, vaes_blocks};
use super::vaes_gcm::{POLY, vaes_gcm};
use super::vaes_xts::vaes_xts;
use crate::aes::common::{CounterWidth, RoundKeys};
use crate::aes::ghash::{MAX_BATCH, POWERS};
use crate::cpu::kernel;

type V = __m512i;
const LANES: usize = 4;
const UNROLL: usize = 4;
const MAX_REGS: usize = 4;
/// Registers of blocks per XTS loop step: 32 blocks, the tweaks stepping by x^32.
const XTS_REGS: usize = 8;
/// Registers of blocks per GHASH reduction in GCM: 32 blocks.
const GCM_REGS: usize = 8;

#[kernel(AES_VAES512)]
#[inline]
fn ld(bytes: &[u8], off: usize) -> V {
    assert!(bytes.len() >= off + 64);
    // SAFETY: the assertion keeps the 64 bytes read inside `bytes`; no alignment needed.
    unsafe { _mm512_loadu_si512(bytes.as_ptr().add(off).cast()) }
}

#[kernel(AES_VAES512)]
#[inline]
fn st(bytes: &mut [u8], off: usize, v: V) {
    assert!(bytes.len() >= off + 64);
    // SAFETY: the assertion keeps the 64 bytes written inside `bytes`; no alignment needed.
    unsafe { _mm512_storeu_si512(bytes.as_mut_ptr().add(off).cast(), v) }
}

/// The whole blocks of `bytes` from `off` on, at most a register's worth, the lanes past
/// them zero.
#[kernel(AES_VAES512)]
#[inline]
fn ld_upto(bytes: &[u8], off: usize) -> V {
    let off = off.min(bytes.len());
    let blocks = ((bytes.len() - off) / 16).min(LANES);
    let mask = ((1u16 << (2 * blocks)) - 1) as __mmask8;
    // SAFETY: `off` is at most the length; the mask enables the 64-bit words of the
    // `blocks` whole blocks after it, all inside `bytes`, and masked-off words are not read.
    unsafe { _mm512_maskz_loadu_epi64(mask, bytes.as_ptr().add(off).cast()) }
}

/// Stores the lanes of `v` over the whole blocks of `bytes` from `off` on, at most a
/// register's worth; the lanes past them are dropped.
#[kernel(AES_VAES512)]
#[inline]
fn st_upto(bytes: &mut [u8], off: usize, v: V) {
    let off = off.min(bytes.len());
    let blocks = ((bytes.len() - off) / 16).min(LANES);
    let mask = ((1u16 << (2 * blocks)) - 1) as __mmask8;
    // SAFETY: `off` is at most the length; the mask enables the 64-bit words of the
    // `blocks` whole blocks after it, all inside `bytes`, and masked-off words are not
    // written.
    unsafe { _mm512_mask_storeu_epi64(bytes.as_mut_ptr().add(off).cast(), mask, v) }
}

#[kernel(AES_VAES512)]
#[inline]
fn xmm_load(bytes: &[u8], i: usize) -> __m128i {
    assert!(bytes.len() >= 16 * (i + 1));
    // SAFETY: the assertion keeps the 16 bytes read inside `bytes`; no alignment needed.
    unsafe { _mm_loadu_si128(bytes.as_ptr().add(16 * i).cast()) }
}

#[kernel(AES_VAES512)]
#[inline]
fn xmm_store(bytes: &mut [u8], i: usize, v: __m128i) {
    assert!(bytes.len() >= 16 * (i + 1));
    // SAFETY: the assertion keeps the 16 bytes written inside `bytes`; no alignment needed.
    unsafe { _mm_storeu_si128(bytes.as_mut_ptr().add(16 * i).cast(), v) }
}

#[kernel(AES_VAES512)]
#[inline]
fn bcast(block: &[u8; 16]) -> V {
    _mm512_broadcast_i32x4(xmm_load(block, 0))
}

#[kernel(AES_VAES512)]
#[inline]
fn gather(b: [__m128i; LANES]) -> V {
    let v = _mm512_castsi128_si512(b[0]);
    let v = _mm512_inserti32x4::<1>(v, b[1]);
    let v = _mm512_inserti32x4::<2>(v, b[2]);
    _mm512_inserti32x4::<3>(v, b[3])
}

#[kernel(AES_VAES512)]
#[inline]
fn scatter(v: V) -> [__m128i; LANES] {
    [
        _mm512_castsi512_si128(v),
        _mm512_extracti32x4_epi32::<1>(v),
        _mm512_extracti32x4_epi32::<2>(v),
        _mm512_extracti32x4_epi32::<3>(v),
    ]
}

/// `[prev.lane3, cur.lane0, cur.lane1, cur.lane2]`: each block's predecessor.
#[kernel(AES_VAES512)]
#[inline]
fn shift_in(cur: V, prev: V) -> V {
    _mm512_alignr_epi64::<6>(cur, prev)
}

#[kernel(AES_VAES512)]
#[inline]
fn xor(a: V, b: V) -> V {
    _mm512_xor_si512(a, b)
}

#[kernel(AES_VAES512)]
#[inline]
fn enc(a: V, k: V) -> V {
    _mm512_aesenc_epi128(a, k)
}

#[kernel(AES_VAES512)]
#[inline]
fn enclast(a: V, k: V) -> V {
    _mm512_aesenclast_epi128(a, k)
}

#[kernel(AES_VAES512)]
#[inline]
fn dec(a: V, k: V) -> V {
    _mm512_aesdec_epi128(a, k)
}

#[kernel(AES_VAES512)]
#[inline]
fn declast(a: V, k: V) -> V {
    _mm512_aesdeclast_epi128(a, k)
}

#[kernel(AES_VAES512)]
#[inline]
fn shuf(a: V, m: V) -> V {
    _mm512_shuffle_epi8(a, m)
}

#[kernel(AES_VAES512)]
#[inline]
fn add32(a: V, b: V) -> V {
    _mm512_add_epi32(a, b)
}

#[kernel(AES_VAES512)]
#[inline]
fn add64(a: V, b: V) -> V {
    _mm512_add_epi64(a, b)
}

#[kernel(AES_VAES512)]
#[inline]
fn zero() -> V {
    _mm512_setzero_si512()
}

#[kernel(AES_VAES512)]
#[inline]
fn zext(x: __m128i) -> V {
    _mm512_zextsi128_si512(x)
}

#[kernel(AES_VAES512)]
#[inline]
fn clmul<const IMM: i32>(a: V, b: V) -> V {
    _mm512_clmulepi64_epi128::<IMM>(a, b)
}

/// XOR of the four lanes.
#[kernel(AES_VAES512)]
#[inline]
fn fold(v: V) -> __m128i {
    let half = _mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64::<1>(v));
    _mm_xor_si128(
        _mm256_castsi256_si128(half),
        _mm256_extracti128_si256::<1>(half),
    )
}

#[kernel(AES_VAES512)]
#[inline]
fn lane_shl8(v: V) -> V {
    _mm512_bslli_epi128::<8>(v)
}

#[kernel(AES_VAES512)]
#[inline]
fn lane_shr8(v: V) -> V {
    _mm512_bsrli_epi128::<8>(v)
}

#[kernel(AES_VAES512)]
#[inline]
fn swap_halves(v: V) -> V {
    _mm512_shuffle_epi32::<78>(v)
}

/// The type of the shift counts of this width's shift intrinsics.
type Shift = u32;

/// Every lane times x^K in XTS's field (`C = 64 - K`, K at most 56): each 128-bit lane
/// shifted left by K bits, the K bits shifted out multiplied by the polynomial 0x87 (a
/// product below 2^64) and folded back into the low half.
#[kernel(AES_VAES512)]
#[inline]
fn times_x_pow<const K: Shift, const C: Shift>(v: V) -> V {
    let carry = _mm512_srli_epi64::<C>(v);
    let poly = _mm512_set1_epi64(0x87);
    let reduced = _mm512_clmulepi64_epi128::<0x01>(carry, poly);
    xor(
        xor(_mm512_slli_epi64::<K>(v), _mm512_bslli_epi128::<8>(carry)),
        reduced,
    )
}

/// Lane `j` holds `t * x^j` in XTS's field: per-lane shifts by `j`, the bits shifted out
/// folded back as in [`times_x_pow`].
#[kernel(AES_VAES512)]
#[inline]
fn first_tweaks(t: __m128i) -> V {
    let v = _mm512_broadcast_i32x4(t);
    let carry = _mm512_srlv_epi64(v, _mm512_set_epi64(61, 61, 62, 62, 63, 63, 64, 64));
    let reduced = _mm512_clmulepi64_epi128::<0x01>(carry, _mm512_set1_epi64(0x87));
    xor(
        xor(
            _mm512_sllv_epi64(v, _mm512_set_epi64(3, 3, 2, 2, 1, 1, 0, 0)),
            _mm512_bslli_epi128::<8>(carry),
        ),
        reduced,
    )
}

/// Every lane times x^32 in XTS's field, the step of the XTS loop: the lane's 32-bit words
/// rotated up by one brings its top word round to the bottom (times 1); the top word times
/// 0x86, by one carry-less multiplication, completes its fold by the polynomial 0x87.
/// Four operations, only two of them on the shift and shuffle units, which the AES rounds
/// around them share.
#[kernel(AES_VAES512)]
#[inline]
fn xts_step(v: V) -> V {
    let rotated = _mm512_shuffle_epi32::<0x93>(v);
    let top = _mm512_srli_epi64::<32>(v);
    xor(
        rotated,
        _mm512_clmulepi64_epi128::<0x01>(top, _mm512_set1_epi64(0x86)),
    )
}

vaes_blocks!(AES_VAES512);
vaes_gcm!(AES_VAES512);
vaes_xts!(AES_VAES512);
