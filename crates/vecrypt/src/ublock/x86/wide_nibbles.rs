//! CBC encryption of one uBlock-256/256 stream with a whole 32-nibble half in one 256-bit
//! register, one nibble per byte (AVX-512 VBMI and VL).
//!
//! In the 128-bit-register layout of [`super::nibbles`] a 256-bit block's half is two
//! registers, so PL/PR take four `pshufb` and two ORs per half and a round issues 20
//! shuffles: on a core with one shuffle port that, not the chain, bounds a block at about
//! 480 cycles. Here a half is one register: the S-box is one `vpshufb`, every word rotation
//! one in-lane `vpshufb` (a lane holds two whole 8-nibble words), PL/PR one `vpermb` each.
//!
//! The chain per round: S-box 1, `X1 ^= X0` 1, four rotate-and-XOR steps 2 each, `X0 ^= X1`
//! 1, `vpermb` 3 = **14 cycles**, so 24 x 14 + 1 = **337 cycles per 32-byte block**; the
//! round issues 12 shuffles, under the chain on one shuffle port. The kernel runs close to
//! its chain (measured in `docs/perf/ublock.md`).

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::consts::SBOX;
use super::nibbles::{Half, Ssse3, nibble_key, rotation};
use super::{RoundKeys, V256_256, Variant};
use crate::cpu::{Ran, checked, kernel, kernels};

// The helpers below are compiled for the kernel's features too, so the compiler checks that
// they are only called from code that has them; inside, the register intrinsics need no
// `unsafe`.

#[inline(always)]
fn load16(b: &[u8]) -> __m128i {
    let b: &[u8; 16] = b[..16].try_into().unwrap_or(&[0; 16]);
    // SAFETY: reads 16 bytes from a 16-byte array; SSE2 is baseline on x86-64.
    unsafe { _mm_loadu_si128(b.as_ptr().cast()) }
}

#[kernel(UBLOCK_WIDE_NIBBLES_AVX512)]
#[inline]
fn join(h: &Half) -> __m256i {
    _mm256_set_m128i(h[1], h[0])
}

#[kernel(UBLOCK_WIDE_NIBBLES_AVX512)]
#[inline]
fn broadcast(t: &[u8; 16]) -> __m256i {
    _mm256_broadcastsi128_si256(load16(t))
}

#[kernel(UBLOCK_WIDE_NIBBLES_AVX512)]
#[inline]
fn load32(t: &[u8; 32]) -> __m256i {
    // SAFETY: reads 32 bytes from a 32-byte array.
    unsafe { _mm256_loadu_si256(t.as_ptr().cast()) }
}

#[kernel(UBLOCK_WIDE_NIBBLES_AVX512)]
#[inline]
fn xor(a: __m256i, b: __m256i) -> __m256i {
    _mm256_xor_si256(a, b)
}

#[kernel(UBLOCK_WIDE_NIBBLES_AVX512)]
#[inline]
fn shuffle(table: __m256i, idx: __m256i) -> __m256i {
    _mm256_shuffle_epi8(table, idx)
}

#[kernel(UBLOCK_WIDE_NIBBLES_AVX512)]
#[inline]
fn permute(x: __m256i, idx: __m256i) -> __m256i {
    _mm256_permutexvar_epi8(idx, x)
}

/// 16 bytes to 32 nibbles, one per byte.
#[kernel(UBLOCK_WIDE_NIBBLES_AVX512)]
#[inline]
fn expand(b: &[u8]) -> __m256i {
    let v = load16(b);
    let m = _mm_set1_epi8(0x0f);
    let hi = _mm_and_si128(_mm_srli_epi16::<4>(v), m);
    let lo = _mm_and_si128(v, m);
    _mm256_set_m128i(_mm_unpackhi_epi8(hi, lo), _mm_unpacklo_epi8(hi, lo))
}

/// The inverse of [`expand`].
#[kernel(UBLOCK_WIDE_NIBBLES_AVX512)]
#[inline]
fn compact(x: __m256i, out: &mut [u8]) {
    let mut b = [0u8; 16];
    let w = _mm_set1_epi16(0x0110);
    let lo = _mm_maddubs_epi16(_mm256_castsi256_si128(x), w);
    let hi = _mm_maddubs_epi16(_mm256_extracti128_si256::<1>(x), w);
    // SAFETY: writes 16 bytes into a 16-byte array.
    unsafe { _mm_storeu_si128(b.as_mut_ptr().cast(), _mm_packus_epi16(lo, hi)) };
    out[..16].copy_from_slice(&b);
}

/// `vpermb` indices of a nibble gather `out[q] = in[2 * p[q / 2] + q % 2]` over 32 nibbles.
const fn gather_index(p: &[usize]) -> [u8; 32] {
    let mut t = [0u8; 32];
    let mut q = 0;
    while q < 32 {
        t[q] = (2 * p[q / 2] + q % 2) as u8;
        q += 1;
    }
    t
}

#[kernel(UBLOCK_WIDE_NIBBLES_AVX512)]
fn cbc_encrypt_vbmi(rk: &RoundKeys, iv: &mut [u8], buf: &mut [u8]) {
    type V = V256_256;
    let sbox = broadcast(&SBOX);
    let rot4 = broadcast(&const { rotation(1) });
    let rot8 = broadcast(&const { rotation(2) });
    let rot20 = broadcast(&const { rotation(5) });
    // Hidden from the optimiser: seeing the constant, it turns the one-uop `vpermb` into a
    // `vpermw` (the gathers move nibble pairs), which is longer on the chain.
    let pl = load32(core::hint::black_box(
        &const { gather_index(&super::consts::PL256) },
    ));
    let pr = load32(core::hint::black_box(
        &const { gather_index(&super::consts::PR256) },
    ));
    let mut keys = [[join(&[load16(&[0; 16]); 2]); 2]; 25];
    for (i, k) in keys.iter_mut().enumerate().take(V::ROUNDS + 1) {
        let (a, b) = nibble_key::<V>(Ssse3::new(), rk, i);
        *k = [join(&a), join(&b)];
    }
    let (mut x0, mut x1) = (expand(&iv[..16]), expand(&iv[16..32]));
    for block in buf.chunks_exact_mut(V::BLOCK) {
        x0 = xor(xor(x0, expand(&block[..16])), keys[0][0]);
        x1 = xor(xor(x1, expand(&block[16..32])), keys[0][1]);
        for [ka, kb] in &keys[1..=V::ROUNDS] {
            let a = shuffle(sbox, x0);
            let b = xor(shuffle(sbox, x1), a);
            let a = xor(a, shuffle(b, rot4));
            let b = xor(b, shuffle(a, rot8));
            let a = xor(a, shuffle(b, rot8));
            let b = xor(xor(b, *kb), shuffle(a, rot20));
            let a = xor(xor(a, *ka), b);
            x0 = permute(a, pl);
            x1 = permute(b, pr);
        }
        compact(x0, &mut block[..16]);
        compact(x1, &mut block[16..32]);
    }
    compact(x0, &mut iv[..16]);
    compact(x1, &mut iv[16..32]);
    let zero = join(&[load16(&[0; 16]); 2]);
    crate::wipe::set(&mut keys, [[zero; 2]; 25]);
}

/// CBC encryption of one stream of variant `W`; declined (nothing done) unless `W` is
/// uBlock-256/256 and the CPU has AVX-512 VBMI.
pub(super) fn cbc_encrypt<W: Variant>(rk: &RoundKeys, iv: &mut [u8], buf: &mut [u8]) -> Ran {
    if W::NAME != V256_256::NAME || iv.len() != 32 {
        return Ran::Declined;
    }
    checked!(kernels::UBLOCK_WIDE_NIBBLES_AVX512 => {
        // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
        unsafe { cbc_encrypt_vbmi(rk, iv, buf) }
    })
}
