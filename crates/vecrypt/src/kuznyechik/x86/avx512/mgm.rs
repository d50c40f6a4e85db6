//! MGM's whole 64-block batches on the AVX-512 sliced kernel, fused.
//!
//! Composed from block calls, a batch of MGM writes its 64 `Y` and 64 `Z` counter blocks
//! out, loads them into the sliced layout, encrypts, stores both results, XORs the
//! keystream in a pass of its own and reads `H_i` back for the products. Here both counters
//! start at their second round from the per-key first-round tables
//! ([`super::counters`]: `Y` counts in byte 15, `Z` in byte 7), the keystream is
//! XORed into the data as it leaves the layout, and the multipliers `H_i` leave it straight
//! into the registers of the products: the scatter out of the layout also reverses each
//! block's bytes, which is the order PCLMULQDQ wants. The 256-bit products of a call are
//! summed unreduced (`super::super::mgm::WideProducts`) and returned once; the caller reduces.

use core::arch::x86_64::*;

use super::super::mgm::{WideProducts, reverse_lanes};
use super::batch::{store_xor, unsliced_reversed};
use super::counters::Counting;
use super::ctr::counter_batch;
use super::keys::SlicedKeys;
use super::tables::{BATCH, State, tables};
use crate::cpu::kernel;
use crate::kuznyechik::RoundKeys;
use crate::kuznyechik::consts::PI;

/// Adds `H_i * X_i` for the 64 blocks of a batch: `hs` from [`unsliced_reversed`], `xs`
/// the 1024 bytes of data in memory order.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn add_batch(sum: &mut WideProducts, hs: &State, xs: &[u8; BATCH]) {
    // SAFETY: register-only operations enabled by the caller, and 64-byte loads at offsets
    // 64r < 1024 of a 1024-byte array.
    unsafe {
        for (r, h) in hs.iter().enumerate() {
            let x = _mm512_loadu_si512(xs.as_ptr().add(64 * r).cast());
            sum.add(*h, reverse_lanes(x));
        }
    }
}

/// The whole batches at the front of `data`, as 1024-byte arrays.
fn batches(data: &[u8]) -> impl Iterator<Item = &[u8; BATCH]> {
    data.chunks_exact(BATCH)
        .map(|c| c.try_into().expect("whole batch"))
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[kernel(KUZNYECHIK_MGM_AVX512)]
unsafe fn absorb_impl(
    rk: &RoundKeys,
    keys: &SlicedKeys,
    z: &mut u128,
    data: &[u8],
) -> (u128, u128) {
    // SAFETY: the features are enabled on this function; the helpers touch registers and
    // arrays whose bounds they check by type.
    unsafe {
        let t = tables(&PI);
        let sh = keys.get(rk, &t.mul, false);
        let mut multipliers = keys.first_round(rk, &t.sbox, Counting::Left);
        let mut sum = WideProducts::new();
        for xs in batches(data) {
            let hs = unsliced_reversed(counter_batch(&mut multipliers, z, &t, rk, sh));
            add_batch(&mut sum, &hs, xs);
        }
        sum.total()
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[kernel(KUZNYECHIK_MGM_AVX512)]
unsafe fn seal_impl(
    rk: &RoundKeys,
    keys: &SlicedKeys,
    y: &mut u128,
    z: &mut u128,
    buf: &mut [u8],
) -> (u128, u128) {
    // SAFETY: as in `absorb_impl`.
    unsafe {
        let t = tables(&PI);
        let sh = keys.get(rk, &t.mul, false);
        let mut stream = keys.first_round(rk, &t.sbox, Counting::Right);
        let mut multipliers = keys.first_round(rk, &t.sbox, Counting::Left);
        let mut sum = WideProducts::new();
        for chunk in buf.chunks_exact_mut(BATCH) {
            let chunk: &mut [u8; BATCH] = chunk.try_into().expect("whole batch");
            store_xor(counter_batch(&mut stream, y, &t, rk, sh), chunk);
            let hs = unsliced_reversed(counter_batch(&mut multipliers, z, &t, rk, sh));
            add_batch(&mut sum, &hs, chunk);
        }
        sum.total()
    }
}

/// Adds `H_i * X_i` over the whole batches at the front of `data`, `H_i` the encryption of
/// the left-counting `z`, which advances. Returns the bytes covered and the unreduced sum
/// (the caller reduces it).
///
/// # Safety
/// The CPU runs [`KUZNYECHIK_MGM_AVX512`](crate::cpu::kernels::KUZNYECHIK_MGM_AVX512).
pub(in super::super) unsafe fn absorb(
    rk: &RoundKeys,
    keys: &SlicedKeys,
    z: &mut u128,
    data: &[u8],
) -> (usize, (u128, u128)) {
    let done = data.len() / BATCH * BATCH;
    if done == 0 {
        return (0, (0, 0));
    }
    // SAFETY: the caller guarantees the features.
    (done, unsafe { absorb_impl(rk, keys, z, &data[..done]) })
}

/// Encrypts the whole batches at the front of `buf` in place with the keystream of the
/// right-counting `y` and adds `H_i * C_i` of the ciphertext, as [`absorb`] does.
///
/// # Safety
/// The CPU runs [`KUZNYECHIK_MGM_AVX512`](crate::cpu::kernels::KUZNYECHIK_MGM_AVX512).
pub(in super::super) unsafe fn seal(
    rk: &RoundKeys,
    keys: &SlicedKeys,
    y: &mut u128,
    z: &mut u128,
    buf: &mut [u8],
) -> (usize, (u128, u128)) {
    let done = buf.len() / BATCH * BATCH;
    if done == 0 {
        return (0, (0, 0));
    }
    // SAFETY: the caller guarantees the features.
    (done, unsafe { seal_impl(rk, keys, y, z, &mut buf[..done]) })
}
