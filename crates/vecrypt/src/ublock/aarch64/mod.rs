//! The AArch64 kernels of uBlock (Advanced SIMD, "NEON"), and the choice between them per
//! call.
//!
//! - `nibbles.rs`: the design document's one nibble per byte with `TBL`, up to four 128-bit
//!   (two 256-bit) blocks in flight; single blocks, short ECB calls (and so short CTR and
//!   CBC decryption, which go through ECB) and CBC encryption, a chain; also the key
//!   schedule, and a fresh key's first one-block encryption with the schedule stepped beside
//!   the rounds, so that a new key per block costs little more than the block;
//! - `planes.rs`: bit-planes inside the nibble ([`super::planes`]) on 128-bit registers,
//!   eight 128-bit or four 256-bit blocks per 128-byte batch; ECB, CTR and CBC decryption
//!   from [`bulk_blocks`] blocks on, and several keys at once ([`crate::modes::MultiKey`]:
//!   CBC encryption of streams side by side, ECB and CBC decryption of short streams that
//!   together fill a batch).
//!
//! Every function here returns `false` when it did nothing, and the front then runs the
//! portable code.
//!
//! # Bounds
//!
//! A round of the nibble kernel is 16 vector instructions for a 128-bit block, half of them
//! `TBL`, with a dependency chain of 12; a 256-bit block's round is 32 with the same chain.
//! A round of the bit-plane kernel serves eight 128-bit or four 256-bit blocks, and the
//! transposition comes once per batch. Where `TBL` of a Q register costs several
//! micro-operations, the nibble layout is bound by its `TBL`s, so the bit-plane kernel takes
//! a call from 5 blocks of 128 bits and from 3 of 256 bits, where a padded batch costs less
//! than the nibble kernel's groups. The llvm-mca estimates per core (no ARM hardware has
//! timed these kernels) and the design document's published figures are in
//! `docs/perf/ublock.md`.

mod nibbles;
mod planes;

use super::planes::PlaneKeys;
use super::{RoundKeys, StreamsMode, Ublock, Variant};
use crate::cache::Cache;
use crate::cpu::{Backend, kernels};
use nibbles::NibbleKeys;

/// Whether this CPU runs the kernels.
fn available() -> bool {
    kernels::UBLOCK_NEON.runs()
}

/// The round keys in the forms of the kernels, each made on its first use; zeroized on drop.
#[derive(Clone, Default)]
pub(super) struct KernelKeys {
    /// Folded, one nibble per byte.
    nibbles: Cache<NibbleKeys>,
    /// As bit-planes inside the nibble.
    planes: Cache<PlaneKeys>,
}

impl Drop for KernelKeys {
    fn drop(&mut self) {
        if let Some(k) = self.nibbles.get_mut() {
            k.wipe();
        }
        if let Some(p) = self.planes.get_mut() {
            p.wipe();
        }
    }
}

fn nibble_keys<V: Variant>(c: &Ublock<V>) -> &NibbleKeys {
    c.kernel_keys
        .nibbles
        .get_or_init(|| nibbles::nibble_keys::<V>(c.rk()))
}

fn planes<V: Variant>(c: &Ublock<V>) -> &PlaneKeys {
    c.kernel_keys
        .planes
        .get_or_init(|| super::planes::plane_keys::<V>(c.rk()))
}

/// Fewest blocks the bitsliced kernel takes: where its padded batch costs less than the
/// nibble kernel's blocks (see the module notes for the counts behind it).
const fn bulk_blocks<V: Variant>() -> usize {
    if V::BLOCK == 16 { 5 } else { 3 }
}

fn on_neon<V: Variant>(c: &Ublock<V>) -> bool {
    c.backend == Backend::Neon
}

fn bulk<V: Variant>(c: &Ublock<V>, len: usize) -> bool {
    on_neon(c) && len >= bulk_blocks::<V>() * V::BLOCK
}

/// The key schedule in registers of nibbles, on the NEON backend.
pub(super) fn expand_key<V: Variant>(key: &[u8], backend: Backend, rk: &mut RoundKeys) -> bool {
    backend == Backend::Neon && nibbles::expand_key::<V>(key, rk)
}

/// ECB over `buf` in either direction.
pub(super) fn ecb<V: Variant>(c: &Ublock<V>, buf: &mut [u8], decrypt: bool) -> bool {
    // A fresh key's first one-block encryption steps the schedule beside the rounds.
    let fresh = c.rk.get().is_none() && buf.len() == V::BLOCK && !decrypt;
    if fresh && on_neon(c) {
        nibbles::encrypt_one_with_key::<V>(&c.key[..V::KEY], buf)
    } else if bulk(c, buf.len()) {
        planes::ecb::<V>(planes(c), buf, decrypt)
    } else if on_neon(c) {
        nibbles::ecb::<V>(nibble_keys(c), buf, decrypt)
    } else {
        false
    }
}

/// CTR over `buf`, advancing `counter`; short calls go through ECB (the nibble kernel).
pub(super) fn ctr<V: Variant>(c: &Ublock<V>, counter: &mut [u8], buf: &mut [u8]) -> bool {
    bulk(c, buf.len()) && planes::ctr::<V>(planes(c), counter, buf)
}

/// CBC encryption of one stream.
pub(super) fn cbc_encrypt<V: Variant>(c: &Ublock<V>, iv: &mut [u8], buf: &mut [u8]) -> bool {
    on_neon(c) && nibbles::cbc_encrypt::<V>(nibble_keys(c), iv, buf)
}

/// CBC decryption, advancing `iv` to the last ciphertext block.
pub(super) fn cbc_decrypt<V: Variant>(c: &Ublock<V>, iv: &mut [u8], buf: &mut [u8]) -> bool {
    bulk(c, buf.len()) && planes::cbc_decrypt::<V>(planes(c), iv, buf)
}

/// Blocks in the longest stream from which multi-key CBC encryption interleaves streams.
const INTERLEAVE_BLOCKS: usize = 4;

/// Most streams one interleaved call takes: one batch of 16-byte blocks.
const MAX_STREAMS: usize = 8;

/// The plane keys of up to [`MAX_STREAMS`] ciphers.
fn plane_keys_of<'a, V: Variant>(keys: &[&'a Ublock<V>]) -> [&'a PlaneKeys; MAX_STREAMS] {
    let mut pks = [planes(keys[0]); MAX_STREAMS];
    for (slot, c) in pks.iter_mut().zip(keys) {
        *slot = planes(c);
    }
    pks
}

/// CBC encryption of several streams, each under its own key, a batch of streams side by
/// side on the bitsliced kernel once the streams are a few blocks long.
pub(super) fn cbc_encrypt_streams<V: Variant>(
    keys: &[&Ublock<V>],
    ivs: &mut [&mut [u8]],
    bufs: &mut [&mut [u8]],
) -> bool {
    let long = bufs.iter().any(|b| b.len() >= INTERLEAVE_BLOCKS * V::BLOCK);
    let alike = keys.iter().all(|k| on_neon(k));
    if !long || !alike || keys.len() < 2 {
        return false;
    }
    let width = planes::streams::<V>();
    let mut done = true;
    for ((k, iv), b) in keys
        .chunks(width)
        .zip(ivs.chunks_mut(width))
        .zip(bufs.chunks_mut(width))
    {
        let pks = plane_keys_of(k);
        done &= planes::cbc_encrypt_streams::<V>(&pks[..k.len()], iv, b);
    }
    done
}

/// ECB in either direction, or CBC decryption, of several streams, each under its own key,
/// interleaved on the bitsliced kernel when the streams together fill at least one batch but
/// each is shorter than a batch: on its own, each would take the nibble kernel or pad a
/// batch of its own. `false` if nothing was done.
pub(super) fn streams<V: Variant>(
    keys: &[&Ublock<V>],
    mode: StreamsMode,
    ivs: &mut [&mut [u8]],
    bufs: &mut [&mut [u8]],
) -> bool {
    let width = planes::streams::<V>();
    let alike = keys.iter().all(|k| on_neon(k));
    let blocks: usize = bufs.iter().map(|b| b.len() / V::BLOCK).sum();
    let longest = bufs.iter().map(|b| b.len() / V::BLOCK).max().unwrap_or(0);
    if !alike || keys.len() < 2 || blocks < width || longest >= width {
        return false;
    }
    let mut done = true;
    let cbc = mode == StreamsMode::CbcDecrypt;
    let mut no_ivs: [&mut [u8]; 0] = [];
    let mut ivs_left: &mut [&mut [u8]] = if cbc { ivs } else { &mut no_ivs };
    for (k, b) in keys.chunks(width).zip(bufs.chunks_mut(width)) {
        let pks = plane_keys_of(k);
        let (iv, rest) = core::mem::take(&mut ivs_left).split_at_mut(if cbc { k.len() } else { 0 });
        ivs_left = rest;
        done &= planes::run_streams::<V>(&pks[..k.len()], mode, iv, b);
    }
    done
}

/// The fully bitsliced kernel does not exist on this architecture: nothing is covered.
#[cfg(feature = "kernel-parts")]
pub(super) fn kernel_part<V: Variant>(_: &Ublock<V>, _: super::KernelPart, _: &mut [u8]) -> usize {
    0
}
