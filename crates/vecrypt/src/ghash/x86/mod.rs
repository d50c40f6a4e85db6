//! GHASH with carry-less multiplication on 128-bit registers: eight blocks per reduction,
//! each multiplied by the power of H that brings it to the end of the batch. Entries check
//! the CPU and return without a result when the kernel cannot run.

use core::arch::x86_64::*;

use super::{KARATSUBA, MAX_BATCH, POWERS, polyval_key};
use crate::cpu::{Ran, checked, kernel, kernels};

#[kernel(AES_NI)]
#[inline]
fn load(bytes: &[u8], i: usize) -> __m128i {
    assert!(bytes.len() >= 16 * (i + 1));
    // SAFETY: the assertion keeps the 16 bytes read inside `bytes`; loadu needs no alignment.
    unsafe { _mm_loadu_si128(bytes.as_ptr().add(16 * i).cast()) }
}

#[kernel(AES_NI)]
#[inline]
fn store(bytes: &mut [u8], i: usize, v: __m128i) {
    assert!(bytes.len() >= 16 * (i + 1));
    // SAFETY: the assertion keeps the 16 bytes written inside `bytes`; storeu needs no alignment.
    unsafe { _mm_storeu_si128(bytes.as_mut_ptr().add(16 * i).cast(), v) }
}

/// Byte reversal of a block: GCM's byte order to the carry-less domain's and back.
#[kernel(AES_NI)]
#[inline]
fn reverse_mask() -> __m128i {
    _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
}

/// The three partial carry-less products of `a * b`: low, middle (both cross terms) and high.
#[kernel(AES_NI)]
#[inline]
fn mul_parts(a: __m128i, b: __m128i) -> [__m128i; 3] {
    [
        _mm_clmulepi64_si128::<0x00>(a, b),
        _mm_xor_si128(
            _mm_clmulepi64_si128::<0x01>(a, b),
            _mm_clmulepi64_si128::<0x10>(a, b),
        ),
        _mm_clmulepi64_si128::<0x11>(a, b),
    ]
}

/// Montgomery reduction of a 256-bit carry-less product given as its three parts: returns
/// `product * x^-128` modulo x^128 + x^127 + x^126 + x^121 + 1 (the POLYVAL field), folding
/// the low half away 64 bits at a time with one multiplication each.
#[kernel(AES_NI)]
#[inline]
fn reduce(parts: [__m128i; 3]) -> __m128i {
    let [lo, mid, hi] = parts;
    let low = _mm_xor_si128(lo, _mm_slli_si128::<8>(mid));
    let high = _mm_xor_si128(hi, _mm_srli_si128::<8>(mid));
    let poly = _mm_set_epi64x(0xc200_0000_0000_0000u64 as i64, 1);
    let t = _mm_clmulepi64_si128::<0x10>(low, poly);
    let low = _mm_xor_si128(_mm_shuffle_epi32::<78>(low), t);
    let t = _mm_clmulepi64_si128::<0x10>(low, poly);
    let low = _mm_xor_si128(_mm_shuffle_epi32::<78>(low), t);
    _mm_xor_si128(high, low)
}

#[kernel(AES_NI)]
#[inline]
fn xor3(acc: &mut [__m128i; 3], parts: [__m128i; 3]) {
    for (a, p) in acc.iter_mut().zip(parts) {
        *a = _mm_xor_si128(*a, p);
    }
}

#[kernel(AES_NI)]
fn powers_kernel(key: &[u8; 16], out: &mut [[u8; 16]; POWERS]) {
    let h = load(key, 0);
    // H^1, then by doubling: the n powers after H^n are H^n times each of the first n, one
    // independent of another.
    store(&mut out[MAX_BATCH - 1], 0, h);
    let mut n = 1;
    while n < MAX_BATCH {
        let top = load(&out[MAX_BATCH - n], 0);
        for k in 1..=n.min(MAX_BATCH - n) {
            let p = reduce(mul_parts(top, load(&out[MAX_BATCH - k], 0)));
            store(&mut out[MAX_BATCH - n - k], 0, p);
        }
        n *= 2;
    }
    for i in 0..MAX_BATCH {
        let p = load(&out[i], 0);
        let key = _mm_xor_si128(p, _mm_shuffle_epi32::<78>(p));
        store(&mut out[KARATSUBA + i], 0, key);
    }
}

/// Eight blocks per reduction: each block times the power of H that brings it to the end.
#[kernel(AES_NI)]
fn ghash_kernel(powers: &[[u8; 16]; POWERS], acc: &mut [u8; 16], data: &[u8]) {
    let rev = reverse_mask();
    let p: [__m128i; 8] = core::array::from_fn(|i| load(&powers[MAX_BATCH - 8 + i], 0));
    let p1 = load(&powers[MAX_BATCH - 1], 0);
    let mut s = _mm_shuffle_epi8(load(acc, 0), rev);
    let mut wide = data.chunks_exact(16 * 8);
    for chunk in &mut wide {
        let zero = _mm_setzero_si128();
        let mut sum = [zero; 3];
        for (i, power) in p.iter().enumerate() {
            let mut x = _mm_shuffle_epi8(load(chunk, i), rev);
            if i == 0 {
                x = _mm_xor_si128(x, s);
            }
            xor3(&mut sum, mul_parts(x, *power));
        }
        s = reduce(sum);
    }
    for block in wide.remainder().chunks_exact(16) {
        let x = _mm_xor_si128(_mm_shuffle_epi8(load(block, 0), rev), s);
        s = reduce(mul_parts(x, p1));
    }
    store(acc, 0, _mm_shuffle_epi8(s, rev));
}

/// Writes H^64 .. H^1 in the carry-less domain into the first [`MAX_BATCH`] blocks of `out`
/// and their Karatsuba keys from block [`KARATSUBA`] on (the rest stays as it is) for the
/// GHASH kernels; declined, writing nothing, when this CPU cannot run them.
pub(super) fn powers(h: &[u8; 16], out: &mut [[u8; 16]; POWERS]) -> Ran {
    checked!(kernels::AES_NI => {
        let mut key = polyval_key(h);
        // SAFETY: `checked!` runs this only on a CPU that runs AES_NI, the kernel's features.
        unsafe { powers_kernel(&key, out) };
        crate::wipe::array(&mut key);
    })
}

/// Absorbs whole blocks into the GHASH state `acc` (GCM's byte order), with the powers of
/// [`powers`].
pub(super) fn ghash(powers: &[[u8; 16]; POWERS], acc: &mut [u8; 16], data: &[u8]) -> Ran {
    checked!(kernels::AES_NI => {
        // SAFETY: `checked!` runs this only on a CPU that runs AES_NI, the kernel's features.
        unsafe { ghash_kernel(powers, acc, data) }
    })
}
