//! CTR on the sliced kernel: counter batches start at their second round (see
//! [`super::counters`]) and the keystream is XORed into the data as it leaves the layout;
//! a short tail runs on the per-block path.

use super::batch::{Shares, encrypt_after_first, encrypt_state, load, store, store_xor};
use super::blocks::{small_blocks, small_limit, small_tables};
use super::counters::{Counting, FirstRound};
use super::keys::SlicedKeys;
use super::tables::{BATCH, L_PHI, LANES, PI_PHI, State, Tables, tables};
use crate::cpu::kernel;
use crate::kuznyechik::RoundKeys;
use crate::kuznyechik::consts::PI;

/// The encrypted 64 counter blocks from `counter`, in the sliced layout, and `counter`
/// advanced past them: started at the second round by `first`, or, for a batch that
/// carries past the counter's second byte, written out and loaded.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn counter_batch(
    first: &mut FirstRound,
    counter: &mut u128,
    t: &Tables,
    rk: &RoundKeys,
    sh: &Shares,
) -> State {
    let next = *counter;
    *counter = first.counting().advance(next, LANES as u64);
    // SAFETY: operations enabled by the caller on registers and on a local array.
    unsafe {
        match first.batch(next) {
            Some(mut s) => {
                encrypt_after_first(&mut s, t, sh);
                s
            }
            None => {
                let mut blocks = [0u8; BATCH];
                for (i, block) in blocks.chunks_exact_mut(16).enumerate() {
                    let c = first.counting().advance(next, i as u64);
                    block.copy_from_slice(&c.to_be_bytes());
                }
                let mut s = load(&blocks);
                encrypt_state(&mut s, t, rk, sh);
                s
            }
        }
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[kernel(KUZNYECHIK_AVX512)]
pub(super) unsafe fn ctr_impl(
    rk: &RoundKeys,
    keys: &SlicedKeys,
    counting: Counting,
    counter: &mut [u8; 16],
    buf: &mut [u8],
) {
    // SAFETY: as in `super::encrypt_impl`.
    unsafe {
        let t = tables(&PI);
        // Made only when a batch runs: short inputs on a new key never need them.
        let sh = || keys.get(rk, &t.mul, false);
        let mut next = u128::from_be_bytes(*counter);
        let mut stream = [0u8; BATCH];
        let mut chunks = buf.chunks_exact_mut(BATCH);
        if chunks.len() > 0 {
            let mut first = keys.first_round(rk, &t.sbox, counting);
            for chunk in &mut chunks {
                let chunk: &mut [u8; BATCH] = chunk.try_into().expect("whole batch");
                store_xor(counter_batch(&mut first, &mut next, &t, rk, sh()), chunk);
            }
        }
        let rest = chunks.into_remainder();
        // The bytes of `stream` written (and wiped): the rest's blocks on the per-block path,
        // the whole batch on the sliced one.
        let mut used = 0;
        if !rest.is_empty() {
            let blocks = rest.len().div_ceil(16);
            let per_block = blocks < small_limit();
            used = if per_block { 16 * blocks } else { BATCH };
            for (i, block) in stream[..used].chunks_exact_mut(16).enumerate() {
                block.copy_from_slice(&counting.advance(next, i as u64).to_be_bytes());
            }
            next = counting.advance(next, blocks as u64);
            if per_block {
                let small = small_tables(rk, &PI_PHI, &L_PHI);
                small_blocks(&mut stream[..used], &small, false);
            } else {
                let mut s = load(&stream);
                encrypt_state(&mut s, &t, rk, sh());
                store(s, &mut stream);
            }
            for (d, k) in rest.iter_mut().zip(stream.iter()) {
                *d ^= *k;
            }
        }
        crate::wipe::bytes(&mut stream[..used]);
        *counter = next.to_be_bytes();
    }
}
