//! The x86-64 kernels of uBlock, one file per layout, and the choice among them per call.
//!
//! - `nibbles/`: one nibble per byte (the design document's layout), SSSE3 or VEX; the
//!   shortest chain, for one block and one CBC stream; `nibbles/schedule.rs` the key
//!   schedule in the same layout;
//! - `wide_nibbles.rs`: the same with each half of a 256-bit block in one register;
//! - `paired.rs`: two blocks per byte, four blocks and up to four keys per step (the AVX2
//!   kernel of Gao Ying et al., J. NUDT 2024);
//! - `planes_ymm.rs`, `planes_zmm.rs`: bit-planes inside the nibble ([`super::planes`]) on
//!   256- and 512-bit registers;
//! - `sliced_ymm.rs`, `sliced_ymm_gfni.rs`, `sliced_zmm.rs`: one register per state bit
//!   ([`super::sliced`]), with `sliced_entry.rs` their entry points.
//!
//! Every function here returns `false` (or 0) when it did nothing, and the front then runs
//! the portable code.

mod nibbles;
mod paired;
mod planes_entry;
mod planes_ymm;
mod planes_zmm;
mod sliced_entry;
mod sliced_ymm;
mod sliced_ymm_gfni;
mod sliced_zmm;
mod wide_nibbles;

// The layout-independent code the kernels build on, under the names they use.
use super::{RoundKeys, V256_256, Variant, consts, planes, sliced};
use sliced::transpose;

use super::StreamsMode;
use super::Ublock;
use crate::cache::Cache;
use crate::cpu::Backend;
use planes::PlaneKeys;
use sliced::SliceKeys;

/// The round keys in the forms of the bitsliced kernels, each made on its first use so that
/// keying stays cheap for short messages; zeroized on drop.
#[derive(Clone, Default)]
pub(super) struct KernelKeys {
    /// As bit-planes inside the nibble.
    planes: Cache<PlaneKeys>,
    /// As one mask per bit, for the fully bitsliced kernels.
    slices: Cache<SliceKeys>,
}

impl Drop for KernelKeys {
    fn drop(&mut self) {
        if let Some(p) = self.planes.get_mut() {
            p.wipe();
        }
        if let Some(p) = self.slices.get_mut() {
            p.wipe();
        }
    }
}

fn plane_keys<V: Variant>(c: &Ublock<V>) -> &PlaneKeys {
    c.kernel_keys
        .planes
        .get_or_init(|| planes::plane_keys::<V>(c.rk()))
}

fn slice_keys<V: Variant>(c: &Ublock<V>) -> &SliceKeys {
    c.kernel_keys
        .slices
        .get_or_init(|| sliced::slice_keys::<V>(c.rk()))
}

/// Blocks from which a stream of several keys' calls runs on its own kernel rather than
/// interleaved with the other streams (see [`streams`]).
const BULK_BLOCKS: usize = 8;

/// Blocks in the longest stream from which multi-key CBC encryption interleaves streams.
const INTERLEAVE_BLOCKS: usize = 4;

/// Most streams one interleaved call takes: 512 bits of 16-byte blocks.
const MAX_STREAMS: usize = 32;

/// The kernel one call runs on, chosen once per call from the backend and the data size.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Path {
    /// One register per state bit, 512-bit registers, for the whole batches; the rest of
    /// the call takes the path of its own length.
    ZmmFull,
    /// The same on 256-bit registers.
    YmmFull,
    /// Bitsliced, 512-bit registers.
    Zmm,
    /// Bitsliced, 256-bit registers.
    Ymm,
    /// Two blocks per byte, four blocks per step.
    Paired,
    /// One block at a time, nibble per byte; `vex` selects the AVX encoding.
    Nibbles {
        vex: bool,
    },
    Soft,
}

/// Bytes of one batch of the fully bitsliced AVX2 kernel this CPU runs.
fn ymm_full_batch<V: Variant>() -> usize {
    if sliced_ymm_gfni::available() {
        sliced_ymm_gfni::batch::<V>()
    } else {
        sliced_ymm::batch::<V>()
    }
}

/// Fewest bytes a single-key call runs on the 256-bit bit-plane kernel (one batch of 256
/// bytes, the rest padded), below which it goes a block at a time: three 128-bit blocks
/// or two 256-bit ones, from which one padded batch costs less than the blocks one at a
/// time. The paired kernel is no faster per block than one block at a time on such calls,
/// and stays for several keys and the paper's layout (figures in `docs/perf/ublock.md`).
const fn planes_from<V: Variant>() -> usize {
    if V::BLOCK == 16 { 3 * 16 } else { 2 * V::BLOCK }
}

/// Bytes at the front of a call of `len` bytes that a bit-plane path runs on its kernel; the
/// rest, like the fully bitsliced paths' rest, takes the path of its own length, a block at
/// a time. The rest is what would fill the last batch (256 bytes on ymm, 512 on zmm) to
/// fewer than [`planes_from`] bytes, which a whole padded batch runs slower than a block at
/// a time (figures in `docs/perf/ublock.md`).
fn planes_front<V: Variant>(path: Path, len: usize) -> usize {
    let blocks = if path == Path::Zmm {
        planes_zmm::streams::<V>()
    } else {
        planes_ymm::streams::<V>()
    };
    let batch = blocks * V::BLOCK;
    let rest = len % batch;
    if len > batch && rest < planes_from::<V>() {
        len - rest
    } else {
        len
    }
}

fn path<V: Variant>(c: &Ublock<V>, len: usize) -> Path {
    match c.backend {
        _ if c.paper_layout => Path::Paired,
        Backend::Avx512 if len >= sliced_zmm::batch::<V>() && sliced_zmm::available() => {
            Path::ZmmFull
        }
        Backend::Avx512 if len > 256 => Path::Zmm,
        Backend::Avx2 if len >= ymm_full_batch::<V>() => Path::YmmFull,
        Backend::Avx512 | Backend::Avx2 if len >= planes_from::<V>() => Path::Ymm,
        Backend::Avx512 | Backend::Avx2 => Path::Nibbles { vex: true },
        Backend::Ssse3 => Path::Nibbles { vex: false },
        _ => Path::Soft,
    }
}

/// The key schedule in registers, on the SIMD backends.
pub(super) fn expand_key<V: Variant>(key: &[u8], backend: Backend, rk: &mut RoundKeys) -> bool {
    backend != Backend::Soft && nibbles::expand_key::<V>(key, rk)
}

/// ECB over `buf` in either direction.
pub(super) fn ecb<V: Variant>(c: &Ublock<V>, buf: &mut [u8], decrypt: bool) -> bool {
    let fresh = c.rk.get().is_none() && buf.len() == V::BLOCK;
    match (path(c, buf.len()), decrypt) {
        (Path::ZmmFull, _) => {
            let done = sliced_zmm::ecb::<V>(slice_keys(c), buf, decrypt);
            c.run_ecb(&mut buf[done..], decrypt);
            true
        }
        (Path::YmmFull, _) => {
            let done = if sliced_ymm_gfni::available() {
                sliced_ymm_gfni::ecb::<V>(slice_keys(c), buf, decrypt)
            } else {
                sliced_ymm::ecb::<V>(slice_keys(c), buf, decrypt)
            };
            c.run_ecb(&mut buf[done..], decrypt);
            true
        }
        (Path::Nibbles { vex }, false) if fresh => {
            nibbles::encrypt_one_with_key::<V>(&c.key[..V::KEY], buf, vex)
        }
        (p @ (Path::Zmm | Path::Ymm), _) => {
            let (front, rest) = buf.split_at_mut(planes_front::<V>(p, buf.len()));
            let ran = match (p, decrypt) {
                (Path::Zmm, false) => planes_zmm::ecb_encrypt::<V>(plane_keys(c), front),
                (Path::Zmm, true) => planes_zmm::ecb_decrypt::<V>(plane_keys(c), front),
                (_, false) => planes_ymm::ecb_encrypt::<V>(plane_keys(c), front),
                (_, true) => planes_ymm::ecb_decrypt::<V>(plane_keys(c), front),
            };
            if ran {
                c.run_ecb(rest, decrypt);
            }
            ran
        }
        (Path::Paired, false) => paired::ecb_encrypt::<V>(c.rk(), buf),
        (Path::Paired, true) => paired::ecb_decrypt::<V>(c.rk(), buf),
        (Path::Nibbles { vex }, false) => nibbles::ecb_encrypt::<V>(c.rk(), buf, vex),
        (Path::Nibbles { vex }, true) => nibbles::ecb_decrypt::<V>(c.rk(), buf, vex),
        (Path::Soft, _) => false,
    }
}

/// CTR over `buf`, advancing `counter`.
pub(super) fn ctr<V: Variant>(c: &Ublock<V>, counter: &mut [u8], buf: &mut [u8]) -> bool {
    match path(c, buf.len()) {
        Path::ZmmFull => {
            let done = sliced_zmm::ctr::<V>(slice_keys(c), counter, buf);
            c.run_ctr(counter, &mut buf[done..]);
            true
        }
        Path::YmmFull => {
            let done = if sliced_ymm_gfni::available() {
                sliced_ymm_gfni::ctr::<V>(slice_keys(c), counter, buf)
            } else {
                sliced_ymm::ctr::<V>(slice_keys(c), counter, buf)
            };
            c.run_ctr(counter, &mut buf[done..]);
            true
        }
        p @ (Path::Zmm | Path::Ymm) => {
            let (front, rest) = buf.split_at_mut(planes_front::<V>(p, buf.len()));
            let ran = if p == Path::Zmm {
                planes_zmm::ctr::<V>(plane_keys(c), counter, front)
            } else {
                planes_ymm::ctr::<V>(plane_keys(c), counter, front)
            };
            if ran {
                c.run_ctr(counter, rest);
            }
            ran
        }
        _ => false,
    }
}

/// CBC encryption of one stream.
pub(super) fn cbc_encrypt<V: Variant>(c: &Ublock<V>, iv: &mut [u8], buf: &mut [u8]) -> bool {
    match path(c, V::BLOCK) {
        // A 256-bit block's chain is shortest with each half in one register.
        Path::Nibbles { vex } => {
            (c.backend == Backend::Avx512 && wide_nibbles::cbc_encrypt::<V>(c.rk(), iv, buf))
                || nibbles::cbc_encrypt::<V>(c.rk(), iv, buf, vex)
        }
        Path::Paired => paired::cbc_encrypt_streams::<V>(&[c.rk()], &mut [iv], &mut [buf]),
        _ => false,
    }
}

/// CBC decryption, advancing `iv` to the last ciphertext block.
pub(super) fn cbc_decrypt<V: Variant>(c: &Ublock<V>, iv: &mut [u8], buf: &mut [u8]) -> bool {
    match path(c, buf.len()) {
        Path::ZmmFull => {
            let done = sliced_zmm::cbc_decrypt::<V>(slice_keys(c), iv, buf);
            c.run_cbc_decrypt(iv, &mut buf[done..]);
            true
        }
        Path::YmmFull => {
            let done = if sliced_ymm_gfni::available() {
                sliced_ymm_gfni::cbc_decrypt::<V>(slice_keys(c), iv, buf)
            } else {
                sliced_ymm::cbc_decrypt::<V>(slice_keys(c), iv, buf)
            };
            c.run_cbc_decrypt(iv, &mut buf[done..]);
            true
        }
        p @ (Path::Zmm | Path::Ymm) => {
            let (front, rest) = buf.split_at_mut(planes_front::<V>(p, buf.len()));
            let ran = if p == Path::Zmm {
                planes_zmm::cbc_decrypt::<V>(plane_keys(c), iv, front)
            } else {
                planes_ymm::cbc_decrypt::<V>(plane_keys(c), iv, front)
            };
            if ran {
                c.run_cbc_decrypt(iv, rest);
            }
            ran
        }
        _ => false,
    }
}

/// The kernels that encrypt several CBC streams side by side.
#[derive(Copy, Clone)]
enum StreamsKernel {
    Paired,
    Zmm,
    Ymm,
}

/// CBC encryption of several streams, each under its own key, interleaved where it pays.
pub(super) fn cbc_encrypt_streams<V: Variant>(
    keys: &[&Ublock<V>],
    ivs: &mut [&mut [u8]],
    bufs: &mut [&mut [u8]],
) -> bool {
    // Interleaving pays once the streams are a few blocks long: below that, masking every
    // key's bit-planes to its slots costs more than running each stream on its own.
    let long = bufs.iter().any(|b| b.len() >= INTERLEAVE_BLOCKS * V::BLOCK);
    let alike = keys
        .iter()
        .all(|k| (k.backend, k.paper_layout) == (keys[0].backend, keys[0].paper_layout));
    let same = long && alike;
    let paper = keys.first().is_some_and(|k| k.paper_layout);
    let (width, kernel) = match keys.first().map(|k| k.backend) {
        // Up to four streams: the paired kernel keys them without a transposition and
        // runs them with the latency of one.
        Some(Backend::Avx512 | Backend::Avx2)
            if alike && keys.len() > 1 && (paper || keys.len() <= paired::BLOCKS) =>
        {
            (paired::BLOCKS, StreamsKernel::Paired)
        }
        Some(Backend::Avx512) if same && keys.len() > 16 => {
            (planes_zmm::streams::<V>(), StreamsKernel::Zmm)
        }
        Some(Backend::Avx512 | Backend::Avx2) if same && keys.len() > 1 => {
            (planes_ymm::streams::<V>(), StreamsKernel::Ymm)
        }
        _ => return false,
    };
    let mut done = true;
    for ((k, iv), b) in keys
        .chunks(width)
        .zip(ivs.chunks_mut(width))
        .zip(bufs.chunks_mut(width))
    {
        let n = k.len();
        done &= match kernel {
            StreamsKernel::Paired => {
                let mut rks = [k[0].rk(); MAX_STREAMS];
                for (slot, c) in rks.iter_mut().zip(k) {
                    *slot = c.rk();
                }
                paired::cbc_encrypt_streams::<V>(&rks[..n], iv, b)
            }
            StreamsKernel::Zmm | StreamsKernel::Ymm => {
                let mut pks = [plane_keys(k[0]); MAX_STREAMS];
                for (slot, c) in pks.iter_mut().zip(k) {
                    *slot = plane_keys(c);
                }
                if matches!(kernel, StreamsKernel::Zmm) {
                    planes_zmm::cbc_encrypt_streams::<V>(&pks[..n], iv, b)
                } else {
                    planes_ymm::cbc_encrypt_streams::<V>(&pks[..n], iv, b)
                }
            }
        };
    }
    done
}

/// ECB in either direction, or CBC decryption, of several streams, each under its own key,
/// interleaved on the bit-plane kernels where it pays: when the streams together fill at
/// least one batch but each is too short for a bitsliced batch of its own (streams of 8
/// blocks and more run as fast or faster on their own kernels; figures in
/// `docs/perf/ublock.md`). `false` if nothing was done.
pub(super) fn streams<V: Variant>(
    keys: &[&Ublock<V>],
    mode: StreamsMode,
    ivs: &mut [&mut [u8]],
    bufs: &mut [&mut [u8]],
) -> bool {
    let Some(first) = keys.first() else {
        return false;
    };
    let alike = keys
        .iter()
        .all(|k| k.backend == first.backend && !k.paper_layout);
    let (width, run): (usize, MultiFn) = match first.backend {
        Backend::Avx512 => (planes_zmm::streams::<V>(), planes_zmm::run_streams::<V>),
        Backend::Avx2 => (planes_ymm::streams::<V>(), planes_ymm::run_streams::<V>),
        _ => return false,
    };
    let blocks: usize = bufs.iter().map(|b| b.len() / V::BLOCK).sum();
    let longest = bufs.iter().map(|b| b.len() / V::BLOCK).max().unwrap_or(0);
    if !alike || keys.len() < 2 || blocks < width || longest >= BULK_BLOCKS {
        return false;
    }
    let mut done = true;
    let cbc = mode == StreamsMode::CbcDecrypt;
    let mut no_ivs: [&mut [u8]; 0] = [];
    let mut ivs_left: &mut [&mut [u8]] = if cbc { ivs } else { &mut no_ivs };
    for (k, b) in keys.chunks(width).zip(bufs.chunks_mut(width)) {
        let mut pks = [plane_keys(k[0]); MAX_STREAMS];
        for (slot, c) in pks.iter_mut().zip(k) {
            *slot = plane_keys(c);
        }
        let (iv, rest) = core::mem::take(&mut ivs_left).split_at_mut(if cbc { k.len() } else { 0 });
        ivs_left = rest;
        done &= run(&pks[..k.len()], mode, iv, b);
    }
    done
}

/// A bit-plane kernel's ECB or CBC decryption of several streams; `false` if it did nothing.
type MultiFn = fn(&[&PlaneKeys], StreamsMode, &mut [&mut [u8]], &mut [&mut [u8]]) -> bool;

/// One part of the fully bitsliced ECB kernel alone; the bytes covered (0 without it).
#[cfg(feature = "kernel-parts")]
pub(super) fn kernel_part<V: Variant>(
    c: &Ublock<V>,
    part: super::KernelPart,
    buf: &mut [u8],
) -> usize {
    match c.backend {
        _ if c.paper_layout => 0,
        Backend::Avx512 => sliced_zmm::ecb_part::<V>(slice_keys(c), buf, part),
        Backend::Avx2 if sliced_ymm_gfni::available() => {
            sliced_ymm_gfni::ecb_part::<V>(slice_keys(c), buf, part)
        }
        Backend::Avx2 => sliced_ymm::ecb_part::<V>(slice_keys(c), buf, part),
        _ => 0,
    }
}
