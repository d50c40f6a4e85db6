//! CBC encryption of several streams, one key each: runs of streams are interleaved, each
//! run for as many blocks as its shortest stream has left, until every stream is done. Wide
//! registers take the streams a multiple of their lanes at a time; the rest go to AES-NI.

use super::{aesni, vaes_ymm, vaes_zmm};
use crate::aes::common::RoundKeys;

/// A wide kernel for `n` streams: false, doing nothing, when it cannot take them.
type Wide = fn(&[&RoundKeys], &mut [[u8; 16]], &mut [&mut [u8]], usize) -> bool;

/// The streams on AES-NI alone.
pub(super) fn aesni(keys: &[&RoundKeys], ivs: &mut [[u8; 16]], bufs: &mut [&mut [u8]]) -> bool {
    interleave(1, aesni::MAX_STREAMS, None, keys, ivs, bufs)
}

/// The streams on ymm registers, two per register, and AES-NI for an odd one out.
pub(super) fn vaes256(keys: &[&RoundKeys], ivs: &mut [[u8; 16]], bufs: &mut [&mut [u8]]) -> bool {
    let wide: Wide = vaes_ymm::encrypt_cbc_streams;
    interleave(2, vaes_ymm::MAX_STREAMS, Some(wide), keys, ivs, bufs)
}

/// The streams on zmm registers, four per register, and AES-NI for the rest.
pub(super) fn vaes512(keys: &[&RoundKeys], ivs: &mut [[u8; 16]], bufs: &mut [&mut [u8]]) -> bool {
    let wide: Wide = vaes_zmm::encrypt_cbc_streams;
    interleave(4, vaes_zmm::MAX_STREAMS, Some(wide), keys, ivs, bufs)
}

/// Streams one pass of [`interleave`] tracks; more are taken this many at a time.
const PASS: usize = 32;

/// The most streams one kernel call takes (the zmm kernel's).
const GROUP: usize = 32;

/// Interleaves the streams; false, doing nothing, if AES-NI cannot run or the keys differ in
/// size. Everything lives on the stack: a call over a few one-block streams is short enough
/// that allocations would show in its speed.
fn interleave(
    lanes: usize,
    max: usize,
    wide_kernel: Option<Wide>,
    keys: &[&RoundKeys],
    ivs: &mut [[u8; 16]],
    bufs: &mut [&mut [u8]],
) -> bool {
    let rounds = keys.first().map_or(10, |k| k.rounds);
    if !aesni::runs() || keys.iter().any(|k| k.rounds != rounds) {
        return false;
    }
    let max = max.min(GROUP);
    for ((keys, ivs), bufs) in keys
        .chunks(PASS)
        .zip(ivs.chunks_mut(PASS))
        .zip(bufs.chunks_mut(PASS))
    {
        pass(lanes, max, wide_kernel, keys, ivs, bufs);
    }
    true
}

/// [`interleave`] over at most [`PASS`] streams.
fn pass(
    lanes: usize,
    max: usize,
    wide_kernel: Option<Wide>,
    keys: &[&RoundKeys],
    ivs: &mut [[u8; 16]],
    bufs: &mut [&mut [u8]],
) {
    let n = keys.len();
    let mut done = [0usize; PASS];
    loop {
        let mut active = [0usize; PASS];
        let mut count = 0;
        for i in 0..n {
            if done[i] < bufs[i].len() / 16 {
                active[count] = i;
                count += 1;
            }
        }
        if count == 0 {
            return;
        }
        let mut take = count.min(max);
        let wide = wide_kernel.filter(|_| take >= lanes && lanes > 1);
        if wide.is_some() {
            take -= take % lanes;
        } else {
            take = take.min(aesni::MAX_STREAMS);
        }
        let group = &active[..take];
        let blocks = group
            .iter()
            .map(|&i| bufs[i].len() / 16 - done[i])
            .min()
            .unwrap_or(0);
        let mut rks = [keys[0]; GROUP];
        let mut chains = [[0u8; 16]; GROUP];
        for (slot, &i) in group.iter().enumerate() {
            rks[slot] = keys[i];
            chains[slot] = ivs[i];
        }
        let mut parts: [&mut [u8]; GROUP] = core::array::from_fn(|_| &mut [][..]);
        let mut slot = 0;
        for (i, b) in bufs.iter_mut().enumerate() {
            if slot < take && group[slot] == i {
                parts[slot] = &mut b[16 * done[i]..16 * (done[i] + blocks)];
                slot += 1;
            }
        }
        let (rks, chains, parts) = (&rks[..take], &mut chains[..take], &mut parts[..take]);
        let ran = wide.is_some_and(|w| w(rks, chains, parts, blocks))
            || aesni::encrypt_cbc_streams(rks, chains, parts, blocks);
        // AES-NI runs and the group is 1 to MAX_STREAMS streams of one key size.
        assert!(ran, "AES-NI takes every group of streams");
        for (slot, &i) in group.iter().enumerate() {
            ivs[i] = chains[slot];
            done[i] += blocks;
        }
    }
}
