//! GCM in one pass on the ARMv8 cryptography extension: CTR with a 32-bit counter on the
//! AES kernels of [`super::armv8`] and GHASH of the ciphertext on the PMULL kernels of
//! [`crate::ghash::aarch64`], eight blocks per batch and one reduction per batch. Decryption
//! hashes a batch's ciphertext while it makes the batch's keystream; encryption hashes the
//! previous batch's ciphertext, still in registers, while it makes the next keystream, so
//! that the two never wait for each other.
//!
//! Speed has not been measured: the figures are to be taken on ARMv8 hardware.

use core::arch::aarch64::*;

use super::armv8::{WIDE, counter_add, counter_lanes, encrypt_n, load, round_keys, store};
use crate::aes::common::RoundKeys;
use crate::aes::rounds::by_rounds;
use crate::cpu::kernel;
use crate::ghash::aarch64::{
    BATCH, absorb_batch, batch_powers, load64, mul_parts, reduce, reversed, unreversed,
};
use crate::ghash::{MAX_BATCH, POWERS};

const _: () = assert!(WIDE == BATCH, "one GHASH batch per batch of keystream");

/// GCM over whole blocks: CTR (32-bit counter) from `counter` and GHASH of the ciphertext
/// into `acc`, in one pass.
#[kernel(AES_ARMV8)]
fn gcm<const NR: usize, const DECRYPT: bool>(
    keys: &[[u8; 16]; 15],
    powers: &[[u8; 16]; POWERS],
    counter: &[u8; 16],
    acc: &mut [u8; 16],
    buf: &mut [u8],
) {
    let k = round_keys(keys);
    let p = batch_powers(powers);
    let p1 = load64(&powers[MAX_BATCH - 1]);
    let mut s = reversed(load(acc, 0));
    let mut base = counter_lanes::<true>(load(counter, 0));
    let mut pending: Option<[uint8x16_t; WIDE]> = None;
    let mut wide = buf.chunks_exact_mut(16 * WIDE);
    for chunk in &mut wide {
        let mut ks: [uint8x16_t; WIDE] =
            core::array::from_fn(|i| counter_lanes::<true>(counter_add::<true>(base, i as u32)));
        base = counter_add::<true>(base, WIDE as u32);
        let input: [uint8x16_t; WIDE] = core::array::from_fn(|i| load(chunk, i));
        encrypt_n::<NR, WIDE>(&k, &mut ks);
        if DECRYPT {
            s = absorb_batch(s, &input, &p);
        } else if let Some(previous) = pending {
            s = absorb_batch(s, &previous, &p);
        }
        let out: [uint8x16_t; WIDE] = core::array::from_fn(|i| veorq_u8(ks[i], input[i]));
        for (i, v) in out.iter().enumerate() {
            store(chunk, i, *v);
        }
        if !DECRYPT {
            pending = Some(out);
        }
    }
    if let Some(previous) = pending {
        s = absorb_batch(s, &previous, &p);
    }
    for block in wide.into_remainder().chunks_exact_mut(16) {
        let input = load(block, 0);
        let mut b = [counter_lanes::<true>(base)];
        encrypt_n::<NR, 1>(&k, &mut b);
        let out = veorq_u8(b[0], input);
        store(block, 0, out);
        let c = if DECRYPT { input } else { out };
        s = reduce(mul_parts(veorq_u64(reversed(c), s), p1));
        base = counter_add::<true>(base, 1);
    }
    store(acc, 0, unreversed(s));
}

/// GCM over whole blocks in one pass, with the powers of
/// [`crate::ghash::aarch64::powers`].
#[kernel(AES_ARMV8)]
pub(super) fn gcm_blocks(
    rk: &RoundKeys,
    powers: &[[u8; 16]; POWERS],
    decrypt: bool,
    counter: &[u8; 16],
    acc: &mut [u8; 16],
    buf: &mut [u8],
) {
    if decrypt {
        by_rounds!(rk.rounds, gcm::<true>(&rk.enc, powers, counter, acc, buf))
    } else {
        by_rounds!(rk.rounds, gcm::<false>(&rk.enc, powers, counter, acc, buf))
    }
}
