//! The fully bitsliced uBlock kernel ([`super::full_slice`]) on 512-bit registers: 512 blocks
//! per batch, transposed with byte permutes (VBMI) and an 8x8 bit transpose (GFNI).
//!
//! The transposition exchanges the 7 or 8 address bits that pick a register with address
//! bits inside the registers. Byte-level exchanges are `VPERMT2B` pairs, one instruction per
//! register and bit; the three bit-in-byte address bits cross in one `GF2P8AFFINEQB` per
//! register, which transposes every 8x8 bit matrix held in a 64-bit lane. For a 128-bit
//! block that is 4 byte exchanges (byte position), the bit transpose, then 3 byte exchanges
//! (bit position): 8 instructions per register each way, plus one `VPERMB` that groups
//! the bytes of each block.

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::Variant;
use super::avx512::Zmm;
use super::bitslice::{Lanes, counter_add, counter_store};
use super::full_slice::{self, SliceKeys, Sliced, Slicing};
use crate::cpu;

/// Whether this CPU runs the kernel.
pub(super) fn available() -> bool {
    let f = cpu::features();
    f.avx512_bw_vl() && f.avx512vbmi && f.gfni
}

/// `VPERMT2D` indices for the two outputs of an exchange of the register-pair bit with the
/// position bit worth `d` dwords: the first output takes the elements whose position bit is
/// clear from both registers, the second those whose bit is set.
const fn exchange_index(d: usize) -> [[u32; 16]; 2] {
    let mut out = [[0u32; 16]; 2];
    let mut e = 0;
    while e < 16 {
        if e & d == 0 {
            out[0][e] = e as u32;
            out[1][e] = (e + d) as u32;
        } else {
            out[0][e] = (16 + e - d) as u32;
            out[1][e] = (16 + e) as u32;
        }
        e += 1;
    }
    out
}

const EXCHANGE: [[[u32; 16]; 2]; 4] = [
    exchange_index(1),
    exchange_index(2),
    exchange_index(4),
    exchange_index(8),
];

/// `VPERMB` indices that swap the byte-in-qword and qword address bits (an involution).
const fn swap_byte_qword() -> [u8; 64] {
    let mut out = [0u8; 64];
    let mut e = 0;
    while e < 64 {
        out[e] = ((e % 8) * 8 + e / 8) as u8;
        e += 1;
    }
    out
}

/// `VPERMB` indices that turn `64 / n` blocks of `n` bytes into `n` chunks, chunk `k`
/// holding byte `k` of every block (or back, with `inverse`).
const fn chunk_index(n: usize, inverse: bool) -> [u8; 64] {
    let c = 64 / n;
    let mut out = [0u8; 64];
    let mut k = 0;
    while k < n {
        let mut o = 0;
        while o < c {
            if inverse {
                out[o * n + k] = (k * c + o) as u8;
            } else {
                out[k * c + o] = (o * n + k) as u8;
            }
            o += 1;
        }
        k += 1;
    }
    out
}

/// Every 64-bit lane: byte `b` is `1 << (7 - b)`, the operand that makes `GF2P8AFFINEQB`
/// transpose the 8x8 bit matrix given as its matrix operand about the anti-diagonal.
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
fn index(t: &[u8; 64]) -> __m512i {
    // SAFETY: reads 64 bytes from a 64-byte array; AVX-512F per the note above.
    unsafe { _mm512_loadu_si512(t.as_ptr().cast()) }
}

#[inline(always)]
fn permute(x: Zmm, idx: __m512i) -> Zmm {
    // SAFETY: AVX-512 VBMI per the note above.
    Zmm(unsafe { _mm512_permutexvar_epi8(idx, x.0) })
}

#[inline(always)]
fn anti_transpose(x: Zmm) -> Zmm {
    // SAFETY: GFNI with AVX-512F per the note above.
    Zmm(unsafe { _mm512_gf2p8affine_epi64_epi8::<0>(_mm512_set1_epi64(ANTI_TRANSPOSE), x.0) })
}

/// Exchanges, over every pair of registers `r[m]`, `r[m + D]` (`m & D == 0`), the pair bit
/// with the position bit worth `BYTES` bytes. An involution; exchanges of different bits
/// commute. Whole dwords move with one `VPERMT2D` per register; 16-bit halves (the position
/// bit of uBlock-256/256's 2-byte chunks) with shifts and masked XORs, since the byte and
/// word permutes across two registers take two cycles each.
#[inline(always)]
fn exchange<const N: usize, const D: usize, const BYTES: usize>(r: &mut [Zmm; N]) {
    // SAFETY: AVX-512F per the note above; the indices are 64-byte arrays.
    let (lo, hi, low) = unsafe {
        let ix = &EXCHANGE[(BYTES / 4).trailing_zeros() as usize % 4];
        (
            _mm512_loadu_si512(ix[0].as_ptr().cast()),
            _mm512_loadu_si512(ix[1].as_ptr().cast()),
            _mm512_set1_epi32(0xffff),
        )
    };
    for m in 0..N {
        if m & D != 0 || m + D >= N {
            continue;
        }
        let (x, y) = (r[m].0, r[m + D].0);
        // SAFETY: AVX-512F per the note above.
        unsafe {
            if BYTES == 2 {
                // Low halves of `y`'s dwords for high halves of `x`'s.
                let t = _mm512_ternarylogic_epi32::<0x28>(_mm512_srli_epi32::<16>(x), y, low);
                r[m] = Zmm(_mm512_xor_si512(x, _mm512_slli_epi32::<16>(t)));
                r[m + D] = Zmm(_mm512_xor_si512(y, t));
            } else {
                r[m] = Zmm(_mm512_permutex2var_epi32(x, lo, y));
                r[m + D] = Zmm(_mm512_permutex2var_epi32(x, hi, y));
            }
        }
    }
}

/// The `N` x `N` transpose of `64 / N`-byte chunks over `N` registers (`N` is 16 or 32).
#[inline(always)]
fn transpose_chunks<const N: usize>(r: &mut [Zmm; N]) {
    if N == 16 {
        exchange::<N, 1, 4>(r);
        exchange::<N, 2, 8>(r);
        exchange::<N, 4, 16>(r);
        exchange::<N, 8, 32>(r);
    } else {
        exchange::<N, 1, 2>(r);
        exchange::<N, 2, 4>(r);
        exchange::<N, 4, 8>(r);
        exchange::<N, 8, 16>(r);
        exchange::<N, 16, 32>(r);
    }
}

/// Bit planes of byte `k`: the 8 registers of byte `k` of 64 blocks each, after the bit
/// transpose, hold bit `7 - i` in byte `i` of every qword; swapping byte and qword address
/// bits and exchanging the qword bits with the register bits puts bit `7 - b` of the byte in
/// register `b`.
#[inline(always)]
fn bit_exchange(r: &mut [Zmm; 8]) {
    let swap = index(&const { swap_byte_qword() });
    for x in r.iter_mut() {
        *x = permute(*x, swap);
    }
    qword_exchange(r);
}

/// The inverse of [`bit_exchange`].
#[inline(always)]
fn bit_unexchange(r: &mut [Zmm; 8]) {
    let swap = index(&const { swap_byte_qword() });
    qword_exchange(r);
    for x in r.iter_mut() {
        *x = permute(*x, swap);
    }
}

#[inline(always)]
fn qword_exchange(r: &mut [Zmm; 8]) {
    exchange::<8, 1, 8>(r);
    exchange::<8, 2, 16>(r);
    exchange::<8, 4, 32>(r);
}

/// Groups of `N` registers (64 blocks) between whole blocks and byte-sliced form.
#[inline(always)]
fn slice_groups<const N: usize>(src: &[u8], bytes: &mut Sliced<Zmm>) {
    let chunk = index(&const { chunk_index(N, false) });
    for (g, group) in src.chunks_exact(64 * N).take(8).enumerate() {
        let mut r = [Zmm::splat(0); N];
        for (x, b) in r.iter_mut().zip(group.chunks_exact(64)) {
            *x = permute(load(b), chunk);
        }
        transpose_chunks(&mut r);
        bytes[g * N..g * N + N].copy_from_slice(&r);
    }
}

/// The inverse of [`slice_groups`]; with `XOR`, the blocks are XORed into `dst`.
#[inline(always)]
fn unslice_groups<const N: usize, const XOR: bool>(bytes: &Sliced<Zmm>, dst: &mut [u8]) {
    let unchunk = index(&const { chunk_index(N, true) });
    for (g, group) in dst.chunks_exact_mut(64 * N).take(8).enumerate() {
        let mut r = [Zmm::splat(0); N];
        r.copy_from_slice(&bytes[g * N..g * N + N]);
        transpose_chunks(&mut r);
        for (x, b) in r.iter().zip(group.chunks_exact_mut(64)) {
            let mut y = permute(*x, unchunk);
            if XOR {
                y = y.xor(load(b));
            }
            store(y, b);
        }
    }
}

/// `VPERMB`-free byte ramp 0, 1, ..., 63.
const fn ramp() -> [u8; 64] {
    let mut out = [0u8; 64];
    let mut e = 0;
    while e < 64 {
        out[e] = e as u8;
        e += 1;
    }
    out
}

/// Counter blocks `c + 64g + e` in byte-sliced form, straight from the counter: register
/// `g * n + k` holds byte `k` of the 64 blocks of group `g`. The last byte is a ramp from
/// the counter's last byte; every other byte is that of the counter with its last byte
/// cleared, or of that plus 256 in the blocks where the ramp wrapped.
#[inline(always)]
fn counter_groups<V: Variant>(c: (u128, u128), bytes: &mut Sliced<Zmm>) {
    let n = V::BLOCK;
    let ramp = index(&const { ramp() });
    for g in 0..8 {
        let base = counter_add(c, 64 * g as u128);
        let mut first = [0u8; 32];
        counter_store::<V>(base, &mut first);
        let low = first[n - 1];
        let cleared = (base.0, base.1 - u128::from(low));
        let mut x = [0u8; 32];
        let mut y = [0u8; 32];
        counter_store::<V>(cleared, &mut x);
        counter_store::<V>(counter_add(cleared, 256), &mut y);
        // SAFETY: AVX-512BW per the note above.
        unsafe {
            let start = _mm512_set1_epi8(low as i8);
            let last = _mm512_add_epi8(start, ramp);
            let wrapped = _mm512_cmplt_epu8_mask(last, start);
            bytes[g * n + n - 1] = Zmm(last);
            for k in 0..n - 1 {
                let (a, b) = (_mm512_set1_epi8(x[k] as i8), _mm512_set1_epi8(y[k] as i8));
                bytes[g * n + k] = Zmm(_mm512_mask_blend_epi8(wrapped, a, b));
            }
        }
    }
}

/// Byte-sliced registers (`g * n + k`) to one register per bit.
#[inline(always)]
fn bits_from_bytes<V: Variant>(bytes: &Sliced<Zmm>, s: &mut Sliced<Zmm>) {
    let n = V::BLOCK;
    for k in 0..n {
        let mut r = [Zmm::splat(0); 8];
        for (g, x) in r.iter_mut().enumerate() {
            *x = anti_transpose(bytes[g * n + k]);
        }
        bit_exchange(&mut r);
        for (b, x) in r.iter().enumerate() {
            s[8 * k + 7 - b] = *x;
        }
    }
}

impl Slicing for Zmm {
    #[inline(always)]
    fn slice<V: Variant>(src: &[u8], s: &mut Sliced<Self>, bytes: &mut Sliced<Self>) {
        if V::BLOCK == 16 {
            slice_groups::<16>(src, bytes);
        } else {
            slice_groups::<32>(src, bytes);
        }
        bits_from_bytes::<V>(bytes, s);
    }

    #[inline(always)]
    fn slice_counters<V: Variant>(c: (u128, u128), s: &mut Sliced<Self>, bytes: &mut Sliced<Self>) {
        counter_groups::<V>(c, bytes);
        bits_from_bytes::<V>(bytes, s);
    }

    #[inline(always)]
    fn unslice<V: Variant, const XOR: bool>(
        s: &Sliced<Self>,
        dst: &mut [u8],
        bytes: &mut Sliced<Self>,
    ) {
        let n = V::BLOCK;
        for k in 0..n {
            let mut r = [Zmm::splat(0); 8];
            for (b, x) in r.iter_mut().enumerate() {
                *x = s[8 * k + 7 - b];
            }
            bit_unexchange(&mut r);
            for (g, x) in r.iter().enumerate() {
                bytes[g * n + k] = anti_transpose(*x);
            }
        }
        if n == 16 {
            unslice_groups::<16, XOR>(bytes, dst);
        } else {
            unslice_groups::<32, XOR>(bytes, dst);
        }
    }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn ecb_full<V: Variant, const DECRYPT: bool>(keys: &SliceKeys, buf: &mut [u8]) -> usize {
    full_slice::ecb::<Zmm, V, DECRYPT>(keys, buf)
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
