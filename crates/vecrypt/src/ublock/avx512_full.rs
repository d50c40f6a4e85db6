//! The fully bitsliced uBlock kernel ([`super::full_slice`]) on 512-bit registers: 512 blocks
//! per batch.
//!
//! The transposition exchanges the 7 or 8 address bits that pick a register with address
//! bits inside the registers, mostly without the shuffle port, which alone executes
//! permutes (and those across two registers take it for two cycles). A 64-bit lane holds
//! 8 bytes of 8 bits:
//! - a register bit crosses with a byte-in-lane bit by two 64-bit shifts and two byte
//!   blends per register pair, on either vector port;
//! - the three bit-in-byte bits cross with the three byte-in-lane bits in one
//!   `GF2P8AFFINEQB` per register, which transposes the 8x8 bit matrix of every lane;
//! - the rest cross with lane bits, one `VPUNPCKLQDQ`/`VPUNPCKHQDQ` or `VPERMT2Q` per
//!   register.
//!
//! For a 128-bit block (state byte `k`, bit `j`, register bits `block >> 2`), pass A takes
//! 8 registers: byte bits `k % 8` cross into the register number, then the bit transpose;
//! pass B takes 16: the bit number `j` crosses into the register number, and `k / 8` (a
//! lane bit). A 256-bit block's pass A also moves `k / 16` (another lane bit). Each pass
//! is an involution, so the inverse runs them in reverse order.

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::Variant;
use super::avx512::Zmm;
use super::bitslice::Lanes;
use super::full_slice::{self, SliceKeys, Sliced, Slicing, XorWith};
use crate::cpu;

/// Whether this CPU runs the kernel.
pub(super) fn available() -> bool {
    let f = cpu::features();
    f.avx512_bw_vl() && f.avx512vbmi && f.gfni
}

/// Every 64-bit lane: byte `b` is `1 << (7 - b)`, the operand that makes `GF2P8AFFINEQB`
/// transpose the 8x8 bit matrix given as its matrix operand about the anti-diagonal (an
/// involution).
const ANTI_TRANSPOSE: i64 = 0x0102_0408_1020_4080;

// The helpers below are reached only from this file's `#[target_feature]` functions, entered
// after `available()`; that is what makes the intrinsics in them sound.

#[inline(always)]
fn load(b: &[u8]) -> Zmm {
    let b: &[u8; 64] = b[..64].try_into().unwrap_or(&[0; 64]);
    // SAFETY: reads 64 bytes from a 64-byte array; AVX-512F per the note above.
    Zmm(unsafe { _mm512_loadu_si512(b.as_ptr().cast()) })
}

#[inline(always)]
fn store(x: Zmm, b: &mut [u8]) {
    let b: &mut [u8; 64] = (&mut b[..64]).try_into().unwrap_or_else(|_| unreachable!());
    // SAFETY: writes 64 bytes into a 64-byte array; AVX-512F per the note above.
    unsafe { _mm512_storeu_si512(b.as_mut_ptr().cast(), x.0) }
}

#[inline(always)]
fn anti_transpose(x: Zmm) -> Zmm {
    // SAFETY: GFNI with AVX-512F per the note above.
    Zmm(unsafe { _mm512_gf2p8affine_epi64_epi8::<0>(_mm512_set1_epi64(ANTI_TRANSPOSE), x.0) })
}

/// Exchanges, over every register pair `r[m]`, `r[m + D]` (`m & D == 0`), the pair bit with
/// the byte-in-lane bit worth `D` bytes (`D` is 1, 2 or 4): the first register keeps the
/// bytes whose bit is clear from both, the second those whose bit is set.
#[inline(always)]
fn byte_exchange<const N: usize, const D: usize>(r: &mut [Zmm; N]) {
    let upper: __mmask64 = match D {
        1 => 0xaaaa_aaaa_aaaa_aaaa,
        2 => 0xcccc_cccc_cccc_cccc,
        _ => 0xf0f0_f0f0_f0f0_f0f0,
    };
    for m in 0..N {
        if m & D != 0 || m + D >= N {
            continue;
        }
        let (x, y) = (r[m].0, r[m + D].0);
        // SAFETY: AVX-512F and BW per the note above.
        unsafe {
            let (up, down) = match D {
                1 => (_mm512_slli_epi64::<8>(y), _mm512_srli_epi64::<8>(x)),
                2 => (_mm512_slli_epi64::<16>(y), _mm512_srli_epi64::<16>(x)),
                _ => (_mm512_slli_epi64::<32>(y), _mm512_srli_epi64::<32>(x)),
            };
            r[m] = Zmm(_mm512_mask_blend_epi8(upper, x, up));
            r[m + D] = Zmm(_mm512_mask_blend_epi8(upper, down, y));
        }
    }
}

/// All three byte-in-lane bits against register bits 1, 2 and 4 of `r`'s index.
#[inline(always)]
fn bytes_exchange<const N: usize>(r: &mut [Zmm; N]) {
    byte_exchange::<N, 1>(r);
    byte_exchange::<N, 2>(r);
    byte_exchange::<N, 4>(r);
}

/// Exchanges, over every register pair `r[m]`, `r[m + 8]`, the pair bit with lane bit 0.
#[inline(always)]
fn lane_exchange_0<const N: usize>(r: &mut [Zmm; N]) {
    for m in 0..8 {
        let (x, y) = (r[m].0, r[m + 8].0);
        // SAFETY: AVX-512F per the note above.
        unsafe {
            r[m] = Zmm(_mm512_unpacklo_epi64(x, y));
            r[m + 8] = Zmm(_mm512_unpackhi_epi64(x, y));
        }
    }
}

/// Exchanges, over every register pair `r[m]`, `r[m + 8]`, the pair bit with lane bit 1.
#[inline(always)]
fn lane_exchange_1<const N: usize>(r: &mut [Zmm; N]) {
    // SAFETY: AVX-512F per the note above.
    let (lo, hi) = unsafe {
        (
            _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13),
            _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15),
        )
    };
    for m in 0..8 {
        let (x, y) = (r[m].0, r[m + 8].0);
        // SAFETY: AVX-512F per the note above.
        unsafe {
            r[m] = Zmm(_mm512_permutex2var_epi64(x, lo, y));
            r[m + 8] = Zmm(_mm512_permutex2var_epi64(x, hi, y));
        }
    }
}

/// Pass A on `NA` registers of whole blocks (8 for 16-byte blocks, 16 for 32-byte ones);
/// its own inverse when `INVERSE` runs the steps backwards.
#[inline(always)]
fn pass_a<const NA: usize, const INVERSE: bool>(r: &mut [Zmm; NA]) {
    if INVERSE {
        if NA == 16 {
            lane_exchange_1(r);
        }
        for x in r.iter_mut() {
            *x = anti_transpose(*x);
        }
        bytes_exchange(r);
    } else {
        bytes_exchange(r);
        for x in r.iter_mut() {
            *x = anti_transpose(*x);
        }
        if NA == 16 {
            lane_exchange_1(r);
        }
    }
}

/// Pass B on 16 registers; its own inverse (the two exchanges commute).
#[inline(always)]
fn pass_b(r: &mut [Zmm; 16]) {
    bytes_exchange(r);
    lane_exchange_0(r);
}

/// Register of the sliced state for pass B's group `m` (register bits below 3, or 4 for
/// 32-byte blocks) and position `g` in the group: bits 0..2 of `g` are the bit number
/// reversed, bit 3 the lane bit that was bit 3 of the byte number.
#[inline(always)]
fn sliced_index<const NA: usize>(m: usize, g: usize) -> usize {
    let k = (m % 8) + 8 * (g / 8) + 16 * (m / 8);
    8 * k + 7 - g % 8
}

/// Pass B from the pass-A registers in `mid` to the sliced state.
#[inline(always)]
fn pass_b_into<const NA: usize>(mid: &Sliced<Zmm>, s: &mut Sliced<Zmm>) {
    for m in 0..NA {
        let mut r = [Zmm::splat(0); 16];
        for (g, x) in r.iter_mut().enumerate() {
            *x = mid[NA * g + m];
        }
        pass_b(&mut r);
        for (g, x) in r.iter().enumerate() {
            s[sliced_index::<NA>(m, g)] = *x;
        }
    }
}

/// The inverse of [`pass_b_into`].
#[inline(always)]
fn pass_b_from<const NA: usize>(s: &Sliced<Zmm>, mid: &mut Sliced<Zmm>) {
    for m in 0..NA {
        let mut r = [Zmm::splat(0); 16];
        for (g, x) in r.iter_mut().enumerate() {
            *x = s[sliced_index::<NA>(m, g)];
        }
        pass_b(&mut r);
        for (g, x) in r.iter().enumerate() {
            mid[NA * g + m] = *x;
        }
    }
}

/// The batch from `src` through pass A into `mid`, then pass B into `s`.
#[inline(always)]
fn slice_blocks<const NA: usize>(src: &[u8], s: &mut Sliced<Zmm>, mid: &mut Sliced<Zmm>) {
    for (group, chunk) in src.chunks_exact(64 * NA).take(16).enumerate() {
        let mut r = [Zmm::splat(0); NA];
        for (x, b) in r.iter_mut().zip(chunk.chunks_exact(64)) {
            *x = load(b);
        }
        pass_a::<NA, false>(&mut r);
        mid[NA * group..NA * group + NA].copy_from_slice(&r);
    }
    pass_b_into::<NA>(mid, s);
}

/// The inverse of [`slice_blocks`].
#[inline(always)]
fn unslice_blocks<const NA: usize>(
    s: &Sliced<Zmm>,
    dst: &mut [u8],
    mid: &mut Sliced<Zmm>,
    xor: XorWith,
) {
    pass_b_from::<NA>(s, mid);
    for (group, chunk) in dst.chunks_exact_mut(64 * NA).take(16).enumerate() {
        let mut r = [Zmm::splat(0); NA];
        r.copy_from_slice(&mid[NA * group..NA * group + NA]);
        pass_a::<NA, true>(&mut r);
        for (i, (x, b)) in r.iter().zip(chunk.chunks_exact_mut(64)).enumerate() {
            let y = match xor {
                XorWith::Nothing => *x,
                XorWith::Output => x.xor(load(b)),
                XorWith::Bytes(src) => x.xor(load(&src[64 * (NA * group + i)..])),
            };
            store(y, b);
        }
    }
}

impl Slicing for Zmm {
    #[inline(always)]
    fn slice<V: Variant>(src: &[u8], s: &mut Sliced<Self>, mid: &mut Sliced<Self>) {
        if V::BLOCK == 16 {
            slice_blocks::<8>(src, s, mid);
        } else {
            slice_blocks::<16>(src, s, mid);
        }
    }

    #[inline(always)]
    fn unslice<V: Variant>(s: &Sliced<Self>, dst: &mut [u8], mid: &mut Sliced<Self>, xor: XorWith) {
        if V::BLOCK == 16 {
            unslice_blocks::<8>(s, dst, mid, xor);
        } else {
            unslice_blocks::<16>(s, dst, mid, xor);
        }
    }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn ecb_full<V: Variant, const DECRYPT: bool>(keys: &SliceKeys, buf: &mut [u8]) -> usize {
    full_slice::ecb::<Zmm, V, DECRYPT>(keys, buf)
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn cbc_decrypt_full<V: Variant>(keys: &SliceKeys, iv: &mut [u8], buf: &mut [u8]) -> usize {
    full_slice::cbc_decrypt::<Zmm, V>(keys, iv, buf)
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn ctr_full<V: Variant>(keys: &SliceKeys, counter: &mut [u8], buf: &mut [u8]) -> usize {
    full_slice::ctr::<Zmm, V>(keys, counter, buf)
}

/// Bytes of one batch: calls shorter than this take the other kernels.
pub(super) const fn batch<V: Variant>() -> usize {
    full_slice::batch_bytes::<Zmm, V>()
}

/// ECB over the whole batches at the front of `buf`; returns the bytes done (0 when the CPU
/// lacks the features).
pub(super) fn ecb<V: Variant>(keys: &SliceKeys, buf: &mut [u8], decrypt: bool) -> usize {
    if !available() {
        return 0;
    }
    // SAFETY: the features the functions enable were just checked.
    unsafe {
        if decrypt {
            ecb_full::<V, true>(keys, buf)
        } else {
            ecb_full::<V, false>(keys, buf)
        }
    }
}

/// CTR over the whole batches at the front of `buf`; returns the bytes done (0 when the CPU
/// lacks the features) and advances `counter` past them.
pub(super) fn ctr<V: Variant>(keys: &SliceKeys, counter: &mut [u8], buf: &mut [u8]) -> usize {
    if !available() {
        return 0;
    }
    // SAFETY: the features the function enables were just checked.
    unsafe { ctr_full::<V>(keys, counter, buf) }
}

/// CBC decryption over the whole batches at the front of `buf`; returns the bytes done (0
/// when the CPU lacks the features) and leaves the last ciphertext block in `iv`.
pub(super) fn cbc_decrypt<V: Variant>(keys: &SliceKeys, iv: &mut [u8], buf: &mut [u8]) -> usize {
    if !available() {
        return 0;
    }
    // SAFETY: the features the function enables were just checked.
    unsafe { cbc_decrypt_full::<V>(keys, iv, buf) }
}
