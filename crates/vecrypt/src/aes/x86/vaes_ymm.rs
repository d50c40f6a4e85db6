//! VAES on 256-bit registers, two blocks each: the width's primitives, then the kernels of
//! `vaes_blocks`, `vaes_gcm` and `vaes_xts` expanded over them, and GCM over whole blocks
//! on `vaes_gcm`'s batches. Eight registers are kept in flight to cover the three-cycle
//! latency of VAESENC at two issues per cycle.

use core::arch::x86_64::*;

use super::vaes_blocks::{REVERSE, vaes_blocks};
use super::vaes_gcm::{POLY, vaes_gcm};
use super::vaes_xts::vaes_xts;
use crate::aes::common::{CounterWidth, RoundKeys};
use crate::aes::rounds::by_rounds;
use crate::cpu::kernel;
use crate::ghash::{KARATSUBA, MAX_BATCH, POWERS};

type V = __m256i;
const LANES: usize = 2;
const UNROLL: usize = 8;
/// Registers of blocks per ECB loop step: as many as the other kernels keep in flight.
const ECB_REGS: usize = UNROLL;
const MAX_REGS: usize = 8;
/// Registers of blocks per XTS loop step: 16 blocks, the tweaks stepping by x^16.
const XTS_REGS: usize = 8;
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

/// The 64-bit words of the whole blocks of `bytes` from `off` on, at most a register's
/// worth, as a mask of `vpmaskmovq`.
#[kernel(AES_VAES256)]
#[inline]
fn words_upto(bytes: &[u8], off: usize) -> V {
    let blocks = ((bytes.len() - off) / 16).min(LANES);
    _mm256_cmpgt_epi64(
        _mm256_set1_epi64x(2 * blocks as i64),
        _mm256_setr_epi64x(0, 1, 2, 3),
    )
}

/// The whole blocks of `bytes` from `off` on, at most a register's worth, the lanes past
/// them zero.
#[kernel(AES_VAES256)]
#[inline]
fn ld_upto(bytes: &[u8], off: usize) -> V {
    let off = off.min(bytes.len());
    let mask = words_upto(bytes, off);
    // SAFETY: `off` is at most the length; the mask enables the 64-bit words of the whole
    // blocks after it, all inside `bytes`, and masked-off words are not read.
    unsafe { _mm256_maskload_epi64(bytes.as_ptr().add(off).cast(), mask) }
}

/// Stores the lanes of `v` over the whole blocks of `bytes` from `off` on, at most a
/// register's worth; the lanes past them are dropped.
#[kernel(AES_VAES256)]
#[inline]
fn st_upto(bytes: &mut [u8], off: usize, v: V) {
    let off = off.min(bytes.len());
    let mask = words_upto(bytes, off);
    // SAFETY: `off` is at most the length; the mask enables the 64-bit words of the whole
    // blocks after it, all inside `bytes`, and masked-off words are not written.
    unsafe { _mm256_maskstore_epi64(bytes.as_mut_ptr().add(off).cast(), mask, v) }
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
    splat(xmm_load(block, 0))
}

/// `x` in every lane.
#[kernel(AES_VAES256)]
#[inline]
fn splat(x: __m128i) -> V {
    _mm256_broadcastsi128_si256(x)
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

/// Keeps the registers of `b` in step, placed after each AES round: an empty `asm!` that
/// reads and writes them all at one point. With sixteen ymm registers for blocks, round keys
/// and tweaks, the compiler otherwise runs each register through all its rounds before the
/// next, and the dependent rounds of eight such chains do not keep both AES units busy in
/// XTS or with fourteen rounds (the measurements are in `docs/perf/aes.md`). One register
/// has nothing to keep in step.
#[kernel(AES_VAES256)]
#[inline]
fn in_step<const N: usize>(b: &mut [V; N]) {
    match b.as_mut_slice() {
        [a, b, c, d, e, f, g, h] => {
            crate::cpu::x86::pin_registers!(
                "/* {0} {1} {2} {3} {4} {5} {6} {7} */", ymm_reg; *a, *b, *c, *d, *e, *f, *g, *h
            );
        }
        [a, b, c, d] => {
            crate::cpu::x86::pin_registers!("/* {0} {1} {2} {3} */", ymm_reg; *a, *b, *c, *d);
        }
        [a, b] => crate::cpu::x86::pin_registers!("/* {0} {1} */", ymm_reg; *a, *b),
        _ => {}
    }
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

#[kernel(AES_VAES256)]
#[inline]
fn xor3(a: V, b: V, c: V) -> V {
    xor(xor(a, b), c)
}

/// The low 64-bit halves of each lane of `a` and `b`: `[a.lo, b.lo]` per lane.
#[kernel(AES_VAES256)]
#[inline]
fn unpack_lo(a: V, b: V) -> V {
    _mm256_unpacklo_epi64(a, b)
}

/// The high 64-bit halves of each lane of `a` and `b`: `[a.hi, b.hi]` per lane.
#[kernel(AES_VAES256)]
#[inline]
fn unpack_hi(a: V, b: V) -> V {
    _mm256_unpackhi_epi64(a, b)
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

/// The type of the shift counts of this width's shift intrinsics.
type Shift = i32;

/// Every lane times x^K in XTS's field (`C = 64 - K`, K at most 56): each 128-bit lane
/// shifted left by K bits, the K bits shifted out multiplied by the polynomial 0x87 (a
/// product below 2^64) and folded back into the low half.
#[kernel(AES_VAES256)]
#[inline]
fn times_x_pow<const K: Shift, const C: Shift>(v: V) -> V {
    let carry = _mm256_srli_epi64::<C>(v);
    let poly = _mm256_set1_epi64x(0x87);
    let reduced = _mm256_clmulepi64_epi128::<0x01>(carry, poly);
    xor(
        xor(_mm256_slli_epi64::<K>(v), _mm256_bslli_epi128::<8>(carry)),
        reduced,
    )
}

/// Lane `j` holds `t * x^j` in XTS's field: per-lane shifts by `j`, the bits shifted out
/// folded back as in [`times_x_pow`].
#[kernel(AES_VAES256)]
#[inline]
fn first_tweaks(t: __m128i) -> V {
    let v = _mm256_broadcastsi128_si256(t);
    let carry = _mm256_srlv_epi64(v, _mm256_set_epi64x(63, 63, 64, 64));
    let reduced = _mm256_clmulepi64_epi128::<0x01>(carry, _mm256_set1_epi64x(0x87));
    xor(
        xor(
            _mm256_sllv_epi64(v, _mm256_set_epi64x(1, 1, 0, 0)),
            _mm256_bslli_epi128::<8>(carry),
        ),
        reduced,
    )
}

/// Every lane times x^16 in XTS's field, the step of the XTS loop: each 128-bit lane
/// shifted up by two bytes, its top two bytes multiplied by the polynomial 0x87 and folded
/// back into the low half. Two byte shifts and one carry-less multiplication; one form on
/// every core (`BYTE_SHIFT` is the 512-bit width's choice, unused here).
#[kernel(AES_VAES256)]
#[inline]
fn xts_step<const BYTE_SHIFT: bool>(v: V) -> V {
    let top = _mm256_bsrli_epi128::<14>(v);
    let reduced = _mm256_clmulepi64_epi128::<0x00>(top, _mm256_set1_epi64x(0x87));
    xor(_mm256_bslli_epi128::<2>(v), reduced)
}

/// The 256-bit XTS loop has one tweak step.
fn xts_byte_shift() -> bool {
    false
}

vaes_blocks!(AES_VAES256);
vaes_gcm!(AES_VAES256, ymm_reg);

vaes_xts!(AES_VAES256);
