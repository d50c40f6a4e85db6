//! CBC encryption of several streams, one key each: runs of streams are interleaved, each
//! run for as many blocks as its shortest stream has left, until every stream is done. Wide
//! registers take the streams a multiple of their lanes at a time; the rest go to AES-NI.

use alloc::vec;
use alloc::vec::Vec;

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

/// Interleaves the streams; false, doing nothing, if AES-NI cannot run or the keys differ in
/// size.
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
    let mut done = vec![0usize; keys.len()];
    loop {
        let active: Vec<usize> = (0..keys.len())
            .filter(|&i| done[i] < bufs[i].len() / 16)
            .collect();
        if active.is_empty() {
            return true;
        }
        let mut take = active.len().min(max);
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
        let rks: Vec<&RoundKeys> = group.iter().map(|&i| keys[i]).collect();
        let mut chains: Vec<[u8; 16]> = group.iter().map(|&i| ivs[i]).collect();
        let mut parts: Vec<&mut [u8]> = bufs
            .iter_mut()
            .enumerate()
            .filter(|(i, _)| group.contains(i))
            .map(|(i, b)| &mut b[16 * done[i]..16 * (done[i] + blocks)])
            .collect();
        let ran = wide.is_some_and(|w| w(&rks, &mut chains, &mut parts, blocks))
            || aesni::encrypt_cbc_streams(&rks, &mut chains, &mut parts, blocks);
        // AES-NI runs and the group is 1 to MAX_STREAMS streams of one key size.
        assert!(ran, "AES-NI takes every group of streams");
        for (slot, &i) in group.iter().enumerate() {
            ivs[i] = chains[slot];
            done[i] += blocks;
        }
    }
}
