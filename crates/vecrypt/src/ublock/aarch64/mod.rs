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
//! [`Native`] is what the front keeps per key: whether its backend runs the kernels on this
//! CPU, decided once at keying with the kernel table's `runs()` (its [`Engine`]), and the
//! round keys in the forms the kernels take, made on first use. Each call then takes the
//! kernel for its size. The entry points of each layout check the CPU again (`checked!`)
//! and decline, like every entry here, when they did nothing; the front then runs the
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

use super::dispatch::Kernels;
use super::planes::PlaneKeys;
use super::{RoundKeys, StreamsMode, Ublock, Variant};
use crate::cache::Cache;
use crate::cpu::{Backend, Ran, kernels};
use nibbles::NibbleKeys;

/// The kernels a key's backend runs on this CPU, decided at keying.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Engine {
    /// None: the portable code.
    #[default]
    Portable,
    /// The nibble and bit-plane kernels ([`kernels::UBLOCK_NEON`]).
    Neon,
}

/// The AArch64 kernels of one key: the engine, and the round keys in the forms of the
/// kernels, each made on its first use; zeroized on drop. Only [`Kernels::keyed`] makes an
/// engine other than [`Engine::Portable`].
#[derive(Clone, Default)]
pub(super) struct Native {
    engine: Engine,
    /// Folded, one nibble per byte.
    nibbles: Cache<NibbleKeys>,
    /// As bit-planes inside the nibble.
    planes: Cache<PlaneKeys>,
}

impl Drop for Native {
    fn drop(&mut self) {
        if let Some(k) = self.nibbles.get_mut() {
            k.wipe();
        }
        if let Some(p) = self.planes.get_mut() {
            p.wipe();
        }
    }
}

impl Native {
    fn nibble_keys<V: Variant>(&self, c: &Ublock<V>) -> &NibbleKeys {
        self.nibbles
            .get_or_init(|| nibbles::nibble_keys::<V>(c.rk()))
    }

    fn plane_keys<V: Variant>(&self, c: &Ublock<V>) -> &PlaneKeys {
        self.planes
            .get_or_init(|| super::planes::plane_keys::<V>(c.rk()))
    }

    fn on_neon(&self) -> bool {
        self.engine == Engine::Neon
    }

    /// Whether a call of `len` bytes takes the bitsliced kernel.
    fn bulk<V: Variant>(&self, len: usize) -> bool {
        self.on_neon() && len >= bulk_blocks::<V>() * V::BLOCK
    }
}

/// Fewest blocks the bitsliced kernel takes: where its padded batch costs less than the
/// nibble kernel's blocks (see the module notes for the counts behind it).
const fn bulk_blocks<V: Variant>() -> usize {
    if V::BLOCK == 16 { 5 } else { 3 }
}

/// Blocks in the longest stream from which multi-key CBC encryption interleaves streams.
const INTERLEAVE_BLOCKS: usize = 4;

/// Most streams one interleaved call takes: one batch of 16-byte blocks.
const MAX_STREAMS: usize = 8;

/// The plane keys of up to [`MAX_STREAMS`] ciphers.
fn plane_keys_of<'a, V: Variant>(keys: &[&'a Ublock<V>]) -> [&'a PlaneKeys; MAX_STREAMS] {
    let mut pks = [keys[0].kernels.plane_keys(keys[0]); MAX_STREAMS];
    for (slot, c) in pks.iter_mut().zip(keys) {
        *slot = c.kernels.plane_keys(c);
    }
    pks
}

impl Kernels for Native {
    fn keyed(backend: Backend) -> Self {
        let engine = match backend {
            Backend::Neon if kernels::UBLOCK_NEON.runs() => Engine::Neon,
            _ => Engine::Portable,
        };
        Self {
            engine,
            nibbles: Cache::default(),
            planes: Cache::default(),
        }
    }

    /// The key schedule in registers of nibbles.
    fn expand_key<V: Variant>(&self, key: &[u8], rk: &mut RoundKeys) -> Ran {
        if self.on_neon() {
            nibbles::expand_key::<V>(key, rk)
        } else {
            Ran::Declined
        }
    }

    fn ecb<V: Variant>(&self, c: &Ublock<V>, buf: &mut [u8], decrypt: bool) -> Ran {
        // A fresh key's first one-block encryption steps the schedule beside the rounds.
        let fresh = c.rk.get().is_none() && buf.len() == V::BLOCK && !decrypt;
        if fresh && self.on_neon() {
            nibbles::encrypt_one_with_key::<V>(&c.key[..V::KEY], buf)
        } else if self.bulk::<V>(buf.len()) {
            planes::ecb::<V>(self.plane_keys(c), buf, decrypt)
        } else if self.on_neon() {
            nibbles::ecb::<V>(self.nibble_keys(c), buf, decrypt)
        } else {
            Ran::Declined
        }
    }

    /// Short calls go through ECB (the nibble kernel).
    fn ctr<V: Variant>(&self, c: &Ublock<V>, counter: &mut [u8], buf: &mut [u8]) -> Ran {
        if self.bulk::<V>(buf.len()) {
            planes::ctr::<V>(self.plane_keys(c), counter, buf)
        } else {
            Ran::Declined
        }
    }

    fn cbc_encrypt<V: Variant>(&self, c: &Ublock<V>, iv: &mut [u8], buf: &mut [u8]) -> Ran {
        if self.on_neon() {
            nibbles::cbc_encrypt::<V>(self.nibble_keys(c), iv, buf)
        } else {
            Ran::Declined
        }
    }

    fn cbc_decrypt<V: Variant>(&self, c: &Ublock<V>, iv: &mut [u8], buf: &mut [u8]) -> Ran {
        if self.bulk::<V>(buf.len()) {
            planes::cbc_decrypt::<V>(self.plane_keys(c), iv, buf)
        } else {
            Ran::Declined
        }
    }

    /// Interleaved on the bitsliced kernel when the streams together fill at least one
    /// batch but each is shorter than a batch: on its own, each would take the nibble kernel
    /// or pad a batch of its own.
    fn streams<V: Variant>(
        keys: &[&Ublock<V>],
        mode: StreamsMode,
        ivs: &mut [&mut [u8]],
        bufs: &mut [&mut [u8]],
    ) -> Ran {
        let width = planes::streams::<V>();
        let alike = keys.iter().all(|k| k.kernels.on_neon());
        let blocks: usize = bufs.iter().map(|b| b.len() / V::BLOCK).sum();
        let longest = bufs.iter().map(|b| b.len() / V::BLOCK).max().unwrap_or(0);
        if !alike || keys.len() < 2 || blocks < width || longest >= width {
            return Ran::Declined;
        }
        let mut done = true;
        let cbc = mode == StreamsMode::CbcDecrypt;
        let mut no_ivs: [&mut [u8]; 0] = [];
        let mut ivs_left: &mut [&mut [u8]] = if cbc { ivs } else { &mut no_ivs };
        for (k, b) in keys.chunks(width).zip(bufs.chunks_mut(width)) {
            let pks = plane_keys_of(k);
            let (iv, rest) =
                core::mem::take(&mut ivs_left).split_at_mut(if cbc { k.len() } else { 0 });
            ivs_left = rest;
            done &= planes::run_streams::<V>(&pks[..k.len()], mode, iv, b).done();
        }
        if done { Ran::Done } else { Ran::Declined }
    }

    /// A batch of streams side by side on the bitsliced kernel once the streams are a few
    /// blocks long.
    fn cbc_encrypt_streams<V: Variant>(
        keys: &[&Ublock<V>],
        ivs: &mut [&mut [u8]],
        bufs: &mut [&mut [u8]],
    ) -> Ran {
        let long = bufs.iter().any(|b| b.len() >= INTERLEAVE_BLOCKS * V::BLOCK);
        let alike = keys.iter().all(|k| k.kernels.on_neon());
        if !long || !alike || keys.len() < 2 {
            return Ran::Declined;
        }
        let width = planes::streams::<V>();
        let mut done = true;
        for ((k, iv), b) in keys
            .chunks(width)
            .zip(ivs.chunks_mut(width))
            .zip(bufs.chunks_mut(width))
        {
            let pks = plane_keys_of(k);
            done &= planes::cbc_encrypt_streams::<V>(&pks[..k.len()], iv, b).done();
        }
        if done { Ran::Done } else { Ran::Declined }
    }
}
