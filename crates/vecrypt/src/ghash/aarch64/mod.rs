//! GHASH with the 64-bit polynomial multiply of the ARMv8 cryptography extension (PMULL):
//! eight blocks per reduction, each multiplied by the power of H that brings it to the end
//! of the batch, in the same bit-reflected field and with the same table of powers as the
//! x86 carry-less kernels. Entries check the CPU and return without a result when the
//! kernel cannot run.
//!
//! Speed has not been measured: the figures are to be taken on ARMv8 hardware.

use core::arch::aarch64::*;

use super::{KARATSUBA, MAX_BATCH, POWERS, polyval_key};
use crate::cpu::{Ran, checked, kernel, kernels};

#[kernel(AES_ARMV8)]
#[inline]
fn load(bytes: &[u8], i: usize) -> uint8x16_t {
    assert!(bytes.len() >= 16 * (i + 1));
    // SAFETY: the assertion keeps the 16 bytes read inside `bytes`; vld1q_u8 needs no
    // alignment beyond a byte.
    unsafe { vld1q_u8(bytes.as_ptr().add(16 * i)) }
}

#[kernel(AES_ARMV8)]
#[inline]
fn store(bytes: &mut [u8], i: usize, v: uint8x16_t) {
    assert!(bytes.len() >= 16 * (i + 1));
    // SAFETY: the assertion keeps the 16 bytes written inside `bytes`; vst1q_u8 needs no
    // alignment beyond a byte.
    unsafe { vst1q_u8(bytes.as_mut_ptr().add(16 * i), v) }
}

/// The blocks folded into one reduction.
pub(crate) const BATCH: usize = 8;

/// The upper half of the reduction constant x^128 + x^127 + x^126 + x^121 + 1, reflected.
const POLY_HIGH: u64 = 0xc200_0000_0000_0000;

/// The 128-bit carry-less product of two 64-bit halves.
#[kernel(AES_ARMV8)]
#[inline]
fn clmul(a: u64, b: u64) -> uint64x2_t {
    vreinterpretq_u64_p128(vmull_p64(a, b))
}

/// The three partial carry-less products of `a * b`: low, middle (both cross terms) and high.
#[kernel(AES_ARMV8)]
#[inline]
pub(crate) fn mul_parts(a: uint64x2_t, b: uint64x2_t) -> [uint64x2_t; 3] {
    let (a0, a1) = (vgetq_lane_u64::<0>(a), vgetq_lane_u64::<1>(a));
    let (b0, b1) = (vgetq_lane_u64::<0>(b), vgetq_lane_u64::<1>(b));
    [
        clmul(a0, b0),
        veorq_u64(clmul(a0, b1), clmul(a1, b0)),
        clmul(a1, b1),
    ]
}

/// Montgomery reduction of a 256-bit carry-less product given as its three parts: returns
/// `product * x^-128` modulo x^128 + x^127 + x^126 + x^121 + 1, folding the low half away
/// 64 bits at a time with one multiplication each.
#[kernel(AES_ARMV8)]
#[inline]
pub(crate) fn reduce(parts: [uint64x2_t; 3]) -> uint64x2_t {
    let [lo, mid, hi] = parts;
    let zero = vdupq_n_u64(0);
    let low = veorq_u64(lo, vextq_u64::<1>(zero, mid));
    let high = veorq_u64(hi, vextq_u64::<1>(mid, zero));
    let t = clmul(vgetq_lane_u64::<0>(low), POLY_HIGH);
    let low = veorq_u64(vextq_u64::<1>(low, low), t);
    let t = clmul(vgetq_lane_u64::<0>(low), POLY_HIGH);
    let low = veorq_u64(vextq_u64::<1>(low, low), t);
    veorq_u64(high, low)
}

#[kernel(AES_ARMV8)]
#[inline]
fn xor3(acc: &mut [uint64x2_t; 3], parts: [uint64x2_t; 3]) {
    for (a, p) in acc.iter_mut().zip(parts) {
        *a = veorq_u64(*a, p);
    }
}

/// A block with its 16 bytes in reverse order, as 64-bit lanes: GCM's byte order to the
/// field's.
#[kernel(AES_ARMV8)]
#[inline]
pub(crate) fn reversed(v: uint8x16_t) -> uint64x2_t {
    let r = vrev64q_u8(v);
    vreinterpretq_u64_u8(vextq_u8::<8>(r, r))
}

/// The inverse of [`reversed`].
#[kernel(AES_ARMV8)]
#[inline]
pub(crate) fn unreversed(v: uint64x2_t) -> uint8x16_t {
    let r = vrev64q_u8(vreinterpretq_u8_u64(v));
    vextq_u8::<8>(r, r)
}

#[kernel(AES_ARMV8)]
#[inline]
pub(crate) fn load64(bytes: &[u8]) -> uint64x2_t {
    vreinterpretq_u64_u8(load(bytes, 0))
}

#[kernel(AES_ARMV8)]
fn powers_kernel(key: &[u8; 16], out: &mut [[u8; 16]; POWERS]) {
    let h = load64(key);
    // H^1, then by doubling: the n powers after H^n are H^n times each of the first n, one
    // independent of another.
    store(&mut out[MAX_BATCH - 1], 0, vreinterpretq_u8_u64(h));
    let mut n = 1;
    while n < MAX_BATCH {
        let top = load64(&out[MAX_BATCH - n]);
        for k in 1..=n.min(MAX_BATCH - n) {
            let p = reduce(mul_parts(top, load64(&out[MAX_BATCH - k])));
            store(&mut out[MAX_BATCH - n - k], 0, vreinterpretq_u8_u64(p));
        }
        n *= 2;
    }
    for i in 0..MAX_BATCH {
        let p = load(&out[i], 0);
        store(&mut out[KARATSUBA + i], 0, veorq_u8(p, vextq_u8::<8>(p, p)));
    }
}

/// The state `s` after absorbing eight blocks `data` (GCM's byte order) with one reduction:
/// each block times the power of H that brings it to the end of the batch, `p` being
/// H^8 .. H^1.
#[kernel(AES_ARMV8)]
#[inline]
pub(crate) fn absorb_batch(
    s: uint64x2_t,
    data: &[uint8x16_t; BATCH],
    p: &[uint64x2_t; BATCH],
) -> uint64x2_t {
    let zero = vdupq_n_u64(0);
    let mut sum = [zero; 3];
    for (i, (d, power)) in data.iter().zip(p).enumerate() {
        let mut x = reversed(*d);
        if i == 0 {
            x = veorq_u64(x, s);
        }
        xor3(&mut sum, mul_parts(x, *power));
    }
    reduce(sum)
}

/// H^8 .. H^1, for [`absorb_batch`], out of the table of [`powers`].
#[kernel(AES_ARMV8)]
#[inline]
pub(crate) fn batch_powers(powers: &[[u8; 16]; POWERS]) -> [uint64x2_t; BATCH] {
    core::array::from_fn(|i| load64(&powers[MAX_BATCH - BATCH + i]))
}

/// Eight blocks per reduction, then one block at a time.
#[kernel(AES_ARMV8)]
fn ghash_kernel(powers: &[[u8; 16]; POWERS], acc: &mut [u8; 16], data: &[u8]) {
    let p = batch_powers(powers);
    let p1 = load64(&powers[MAX_BATCH - 1]);
    let mut s = reversed(load(acc, 0));
    let mut wide = data.chunks_exact(16 * BATCH);
    for chunk in &mut wide {
        let blocks: [uint8x16_t; BATCH] = core::array::from_fn(|i| load(chunk, i));
        s = absorb_batch(s, &blocks, &p);
    }
    for block in wide.remainder().chunks_exact(16) {
        let x = veorq_u64(reversed(load(block, 0)), s);
        s = reduce(mul_parts(x, p1));
    }
    store(acc, 0, unreversed(s));
}

/// Writes H^64 .. H^1 in the carry-less domain into the first [`MAX_BATCH`] blocks of `out`
/// and their Karatsuba keys from block [`KARATSUBA`] on (the rest stays as it is) for the
/// GHASH kernels; declined, writing nothing, when this CPU cannot run them.
pub(crate) fn powers(h: &[u8; 16], out: &mut [[u8; 16]; POWERS]) -> Ran {
    checked!(kernels::AES_ARMV8 => {
        let mut key = polyval_key(h);
        // SAFETY: `checked!` runs this only on a CPU that runs AES_ARMV8, the kernel's features.
        unsafe { powers_kernel(&key, out) };
        crate::wipe::array(&mut key);
    })
}

/// Absorbs whole blocks into the GHASH state `acc` (GCM's byte order), with the powers of
/// [`powers`].
pub(crate) fn ghash(powers: &[[u8; 16]; POWERS], acc: &mut [u8; 16], data: &[u8]) -> Ran {
    checked!(kernels::AES_ARMV8 => {
        // SAFETY: `checked!` runs this only on a CPU that runs AES_ARMV8, the kernel's features.
        unsafe { ghash_kernel(powers, acc, data) }
    })
}
