//! The entry points of the NEON backend, each one `#[kernel]` function around its whole
//! hot loop: ECB both ways, CTR and the one-block chained modes, with calls shorter than
//! [`SMALL_BLOCKS`] on the one-block path and the rest in byte-sliced batches.

use super::batch::{self, BATCH};
use super::block;
use crate::cpu::kernel;
use crate::kuznyechik::RoundKeys;
use crate::modes::Chain;

/// Below this many blocks a call runs block by block (two interleaved) instead of as a
/// byte-sliced batch, which costs as much as sixteen blocks whatever it holds: by llvm-mca's
/// estimates a batch costs about as much as eleven or twelve blocks on the one-block path,
/// so the batch pays from there on (figures in `docs/perf/kuznyechik.md`).
pub(super) const SMALL_BLOCKS: usize = 11;

/// Whole blocks, the last partial batch padded with zeros in a scratch batch.
#[kernel(KUZNYECHIK_NEON)]
#[inline]
fn ecb<const DECRYPT: bool>(rk: &RoundKeys, buf: &mut [u8]) {
    let whole = buf.len() / 16 * 16;
    let buf = &mut buf[..whole];
    if whole < 16 * SMALL_BLOCKS {
        return block::blocks::<DECRYPT>(rk, buf);
    }
    let t = batch::constants(DECRYPT);
    let batches = whole / BATCH * BATCH;
    let (front, rest) = buf.split_at_mut(batches);
    batch::batches::<DECRYPT>(rk, &t, front);
    if rest.len() >= 16 * SMALL_BLOCKS {
        let mut pad = [0u8; BATCH];
        pad[..rest.len()].copy_from_slice(rest);
        batch::batches::<DECRYPT>(rk, &t, &mut pad);
        rest.copy_from_slice(&pad[..rest.len()]);
        crate::wipe::array(&mut pad);
    } else if !rest.is_empty() {
        block::blocks::<DECRYPT>(rk, rest);
    }
}

/// ECB encryption of whole blocks.
///
/// # Safety
/// The CPU runs [`KUZNYECHIK_NEON`](crate::cpu::kernels::KUZNYECHIK_NEON).
#[kernel(KUZNYECHIK_NEON)]
pub(super) unsafe fn encrypt(rk: &RoundKeys, buf: &mut [u8]) {
    ecb::<false>(rk, buf);
}

/// ECB decryption of whole blocks.
///
/// # Safety
/// The CPU runs [`KUZNYECHIK_NEON`](crate::cpu::kernels::KUZNYECHIK_NEON).
#[kernel(KUZNYECHIK_NEON)]
pub(super) unsafe fn decrypt(rk: &RoundKeys, buf: &mut [u8]) {
    ecb::<true>(rk, buf);
}

/// CTR over `buf` (its last block may be partial) from `counter`, which is advanced past
/// the blocks used: by whole-block big-endian increments, or when `RIGHT` in its right
/// (low) 64-bit half only, modulo 2^64, as MGM's `Y` counts.
///
/// # Safety
/// The CPU runs [`KUZNYECHIK_NEON`](crate::cpu::kernels::KUZNYECHIK_NEON).
#[kernel(KUZNYECHIK_NEON)]
pub(super) unsafe fn ctr<const RIGHT: bool>(
    rk: &RoundKeys,
    counter: &mut [u8; 16],
    buf: &mut [u8],
) {
    let next = |c: u128| {
        if RIGHT {
            (c >> 64 << 64) | u128::from((c as u64).wrapping_add(1))
        } else {
            c.wrapping_add(1)
        }
    };
    let mut c = u128::from_be_bytes(*counter);
    let t = batch::constants(false);
    let mut stream = [0u8; BATCH];
    for chunk in buf.chunks_mut(BATCH) {
        let blocks = chunk.len().div_ceil(16);
        for block in stream.chunks_exact_mut(16).take(blocks) {
            block.copy_from_slice(&c.to_be_bytes());
            c = next(c);
        }
        if blocks < SMALL_BLOCKS {
            block::blocks::<false>(rk, &mut stream[..16 * blocks]);
        } else {
            batch::batches::<false>(rk, &t, &mut stream);
        }
        for (d, k) in chunk.iter_mut().zip(&stream) {
            *d ^= *k;
        }
    }
    *counter = c.to_be_bytes();
    crate::wipe::array(&mut stream);
}

/// A chained mode over the whole blocks of `buf`, one chain in `register`.
///
/// # Safety
/// The CPU runs [`KUZNYECHIK_NEON`](crate::cpu::kernels::KUZNYECHIK_NEON).
#[kernel(KUZNYECHIK_NEON)]
pub(super) unsafe fn chain(rk: &RoundKeys, mode: Chain, register: &mut [u8; 16], buf: &mut [u8]) {
    block::chain(rk, mode, register, buf);
}
