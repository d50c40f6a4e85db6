//! CBC encryption of several streams, one key each, for every architecture's kernels: runs
//! of streams are interleaved, each run for as many blocks as its shortest stream has left,
//! until every stream is done. Wide registers take the streams a multiple of their lanes at
//! a time; the rest go to the 128-bit kernel.

use super::common::RoundKeys;
use crate::cpu::Ran;

/// A kernel for `n` streams of `blocks` blocks each: declined, doing nothing, when it cannot
/// take them.
pub(super) type Group = fn(&[&RoundKeys], &mut [[u8; 16]], &mut [&mut [u8]], usize) -> Ran;

/// The 128-bit kernel every group can fall back on: it takes 1 to `max` streams. The
/// caller passes one that this CPU runs (its key's kernels were chosen for it).
#[derive(Copy, Clone)]
pub(super) struct Narrow {
    pub(super) kernel: Group,
    pub(super) max: usize,
}

/// Streams one pass of [`interleave`] tracks; more are taken this many at a time.
const PASS: usize = 32;

/// The most streams one kernel call takes (x86's zmm kernel's).
const GROUP: usize = 32;

/// Interleaves the streams, `lanes` per register of `wide_kernel` and at most `max` per
/// call; declined, doing nothing, if the keys differ in size.
/// Everything lives on the stack: a call over a few one-block streams is short enough that
/// allocations would show in its speed.
pub(super) fn interleave(
    narrow: Narrow,
    lanes: usize,
    max: usize,
    wide_kernel: Option<Group>,
    keys: &[&RoundKeys],
    ivs: &mut [[u8; 16]],
    bufs: &mut [&mut [u8]],
) -> Ran {
    let rounds = keys.first().map_or(10, |k| k.rounds);
    if keys.iter().any(|k| k.rounds != rounds) {
        return Ran::Declined;
    }
    let max = max.min(GROUP);
    for ((keys, ivs), bufs) in keys
        .chunks(PASS)
        .zip(ivs.chunks_mut(PASS))
        .zip(bufs.chunks_mut(PASS))
    {
        pass(narrow, lanes, max, wide_kernel, keys, ivs, bufs);
    }
    Ran::Done
}

/// [`interleave`] over at most [`PASS`] streams.
fn pass(
    narrow: Narrow,
    lanes: usize,
    max: usize,
    wide_kernel: Option<Group>,
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
            take = take.min(narrow.max);
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
        let ran = wide.is_some_and(|w| w(rks, chains, parts, blocks).done())
            || (narrow.kernel)(rks, chains, parts, blocks).done();
        // This CPU runs the narrow kernel and the group is 1 to its maximum of one key size.
        assert!(ran, "the narrow kernel takes every group of streams");
        for (slot, &i) in group.iter().enumerate() {
            ivs[i] = chains[slot];
            done[i] += blocks;
        }
    }
}
