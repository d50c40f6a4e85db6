//! The x86-64 kernels of uBlock, one file per layout, and the choice among them.
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
//! [`Native`] is what the front keeps per key: the kernels its backend runs on this CPU,
//! decided once at keying with the kernel table's `runs()` (its [`Engine`]), and the round
//! keys in the forms of the bitsliced kernels, made on first use. Each call then takes the
//! kernel for its size ([`Path`]). The entry points of each layout check the CPU again
//! (`checked!`) and decline, like every entry here, when they did nothing; the front then
//! runs the portable code.

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

use super::dispatch::Kernels;
use super::{StreamsMode, Ublock};
use crate::cache::Cache;
use crate::cpu::{Backend, Ran, kernels};
use planes::PlaneKeys;
use sliced::SliceKeys;

/// The kernels a key's backend runs on this CPU, decided at keying. Each backend's
/// candidate list names the kernels it needs, so a key gets its backend's engine on a CPU
/// that can run it; the optional kernels are flags.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Engine {
    /// None: the portable code.
    #[default]
    Portable,
    /// One block at a time, nibble per byte, in SSSE3 encodings
    /// ([`kernels::UBLOCK_NIBBLES_SSSE3`]); the key schedule VEX-encoded when `vex_schedule`
    /// ([`kernels::UBLOCK_NIBBLES_AVX2`]).
    Ssse3 { vex_schedule: bool },
    /// The AVX2 kernels: bit-planes and full slicing on 256-bit registers, the paired and
    /// VEX-encoded nibble layouts; the full slicing's transposition in GFNI when `gfni`
    /// ([`kernels::UBLOCK_SLICED_AVX2_GFNI`]).
    Avx2 { gfni: bool },
    /// The AVX-512 kernels: bit-planes on 512- and 256-bit registers, the paired and
    /// VEX-encoded nibble layouts; full slicing on 512-bit registers when `sliced`
    /// ([`kernels::UBLOCK_SLICED_AVX512`]), one 256-bit block's half per register for
    /// CBC encryption when `wide` ([`kernels::UBLOCK_WIDE_NIBBLES_AVX512`]).
    Avx512 { sliced: bool, wide: bool },
}

/// The x86 kernels of one key: the engine, and the round keys in the forms of the bitsliced
/// kernels, each made on its first use so that keying stays cheap for short messages;
/// zeroized on drop. Only [`Kernels::keyed`] makes an engine other than
/// [`Engine::Portable`].
#[derive(Clone, Default)]
pub(super) struct Native {
    engine: Engine,
    /// As bit-planes inside the nibble.
    planes: Cache<PlaneKeys>,
    /// As one mask per bit, for the fully bitsliced kernels.
    slices: Cache<SliceKeys>,
}

impl Drop for Native {
    fn drop(&mut self) {
        if let Some(p) = self.planes.get_mut() {
            p.wipe();
        }
        if let Some(p) = self.slices.get_mut() {
            p.wipe();
        }
    }
}

impl Native {
    fn plane_keys<V: Variant>(&self, c: &Ublock<V>) -> &PlaneKeys {
        self.planes.get_or_init(|| planes::plane_keys::<V>(c.rk()))
    }

    fn slice_keys<V: Variant>(&self, c: &Ublock<V>) -> &SliceKeys {
        self.slices.get_or_init(|| sliced::slice_keys::<V>(c.rk()))
    }

    /// The kernel a call of `len` bytes of `c` runs on.
    fn path<V: Variant>(&self, c: &Ublock<V>, len: usize) -> Path {
        match self.engine {
            _ if c.paper_layout => Path::Paired,
            Engine::Avx512 { sliced: true, .. } if len >= sliced_zmm::batch::<V>() => Path::ZmmFull,
            Engine::Avx512 { .. } if len > 256 => Path::Zmm,
            Engine::Avx2 { gfni } if len >= ymm_full_batch::<V>(gfni) => Path::YmmFull,
            Engine::Avx512 { .. } | Engine::Avx2 { .. } if len >= planes_from::<V>() => Path::Ymm,
            Engine::Avx512 { .. } | Engine::Avx2 { .. } => Path::Nibbles { vex: true },
            Engine::Ssse3 { .. } => Path::Nibbles { vex: false },
            Engine::Portable => Path::Soft,
        }
    }

    /// Whether the fully bitsliced AVX2 kernel takes its transposition in GFNI.
    fn gfni(&self) -> bool {
        matches!(self.engine, Engine::Avx2 { gfni: true })
    }
}

/// Blocks from which a stream of several keys' calls runs on its own kernel rather than
/// interleaved with the other streams (see [`Kernels::streams`]).
const BULK_BLOCKS: usize = 8;

/// Blocks in the longest stream from which multi-key CBC encryption interleaves streams.
const INTERLEAVE_BLOCKS: usize = 4;

/// Most streams one interleaved call takes: 512 bits of 16-byte blocks.
const MAX_STREAMS: usize = 32;

/// The kernel one call runs on, chosen per call from the engine and the data size.
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

/// Bytes of one batch of the fully bitsliced AVX2 kernel, with the GFNI transposition when
/// `gfni`.
fn ymm_full_batch<V: Variant>(gfni: bool) -> usize {
    if gfni {
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

/// The kernels that encrypt several CBC streams side by side.
#[derive(Copy, Clone)]
enum StreamsKernel {
    Paired,
    Zmm,
    Ymm,
}

impl Kernels for Native {
    fn keyed(backend: Backend) -> Self {
        let engine = match backend {
            Backend::Avx512
                if kernels::UBLOCK_PLANES_AVX512.runs()
                    && kernels::UBLOCK_PAIRED_AVX2.runs()
                    && kernels::UBLOCK_NIBBLES_AVX2.runs() =>
            {
                Engine::Avx512 {
                    sliced: kernels::UBLOCK_SLICED_AVX512.runs(),
                    wide: kernels::UBLOCK_WIDE_NIBBLES_AVX512.runs(),
                }
            }
            Backend::Avx2
                if kernels::UBLOCK_PLANES_AVX2.runs()
                    && kernels::UBLOCK_SLICED_AVX2.runs()
                    && kernels::UBLOCK_PAIRED_AVX2.runs()
                    && kernels::UBLOCK_NIBBLES_AVX2.runs() =>
            {
                Engine::Avx2 {
                    gfni: kernels::UBLOCK_SLICED_AVX2_GFNI.runs(),
                }
            }
            Backend::Ssse3 if kernels::UBLOCK_NIBBLES_SSSE3.runs() => Engine::Ssse3 {
                vex_schedule: kernels::UBLOCK_NIBBLES_AVX2.runs(),
            },
            _ => Engine::Portable,
        };
        Self {
            engine,
            planes: Cache::default(),
            slices: Cache::default(),
        }
    }

    /// The key schedule in registers, on the SIMD backends.
    fn expand_key<V: Variant>(&self, key: &[u8], rk: &mut RoundKeys) -> Ran {
        match self.engine {
            Engine::Avx512 { .. } | Engine::Avx2 { .. } => nibbles::expand_key::<V>(key, rk, true),
            Engine::Ssse3 { vex_schedule } => nibbles::expand_key::<V>(key, rk, vex_schedule),
            Engine::Portable => Ran::Declined,
        }
    }

    fn ecb<V: Variant>(&self, c: &Ublock<V>, buf: &mut [u8], decrypt: bool) -> Ran {
        let fresh = c.rk.get().is_none() && buf.len() == V::BLOCK;
        match (self.path(c, buf.len()), decrypt) {
            (Path::ZmmFull, _) => {
                let done = sliced_zmm::ecb::<V>(self.slice_keys(c), buf, decrypt).unwrap_or(0);
                c.run_ecb(&mut buf[done..], decrypt);
                Ran::Done
            }
            (Path::YmmFull, _) => {
                let done = if self.gfni() {
                    sliced_ymm_gfni::ecb::<V>(self.slice_keys(c), buf, decrypt)
                } else {
                    sliced_ymm::ecb::<V>(self.slice_keys(c), buf, decrypt)
                };
                c.run_ecb(&mut buf[done.unwrap_or(0)..], decrypt);
                Ran::Done
            }
            (Path::Nibbles { vex }, false) if fresh => {
                nibbles::encrypt_one_with_key::<V>(&c.key[..V::KEY], buf, vex)
            }
            (p @ (Path::Zmm | Path::Ymm), _) => {
                let (front, rest) = buf.split_at_mut(planes_front::<V>(p, buf.len()));
                let keys = self.plane_keys(c);
                let ran = match (p, decrypt) {
                    (Path::Zmm, false) => planes_zmm::ecb_encrypt::<V>(keys, front),
                    (Path::Zmm, true) => planes_zmm::ecb_decrypt::<V>(keys, front),
                    (_, false) => planes_ymm::ecb_encrypt::<V>(keys, front),
                    (_, true) => planes_ymm::ecb_decrypt::<V>(keys, front),
                };
                if ran.done() {
                    c.run_ecb(rest, decrypt);
                }
                ran
            }
            (Path::Paired, false) => paired::ecb_encrypt::<V>(c.rk(), buf),
            (Path::Paired, true) => paired::ecb_decrypt::<V>(c.rk(), buf),
            (Path::Nibbles { vex }, false) => nibbles::ecb_encrypt::<V>(c.rk(), buf, vex),
            (Path::Nibbles { vex }, true) => nibbles::ecb_decrypt::<V>(c.rk(), buf, vex),
            (Path::Soft, _) => Ran::Declined,
        }
    }

    fn ctr<V: Variant>(&self, c: &Ublock<V>, counter: &mut [u8], buf: &mut [u8]) -> Ran {
        match self.path(c, buf.len()) {
            Path::ZmmFull => {
                let done = sliced_zmm::ctr::<V>(self.slice_keys(c), counter, buf).unwrap_or(0);
                c.run_ctr(counter, &mut buf[done..]);
                Ran::Done
            }
            Path::YmmFull => {
                let done = if self.gfni() {
                    sliced_ymm_gfni::ctr::<V>(self.slice_keys(c), counter, buf)
                } else {
                    sliced_ymm::ctr::<V>(self.slice_keys(c), counter, buf)
                };
                c.run_ctr(counter, &mut buf[done.unwrap_or(0)..]);
                Ran::Done
            }
            p @ (Path::Zmm | Path::Ymm) => {
                let (front, rest) = buf.split_at_mut(planes_front::<V>(p, buf.len()));
                let ran = if p == Path::Zmm {
                    planes_zmm::ctr::<V>(self.plane_keys(c), counter, front)
                } else {
                    planes_ymm::ctr::<V>(self.plane_keys(c), counter, front)
                };
                if ran.done() {
                    c.run_ctr(counter, rest);
                }
                ran
            }
            _ => Ran::Declined,
        }
    }

    fn cbc_encrypt<V: Variant>(&self, c: &Ublock<V>, iv: &mut [u8], buf: &mut [u8]) -> Ran {
        match self.path(c, V::BLOCK) {
            // A 256-bit block's chain is shortest with each half in one register.
            Path::Nibbles { vex } => {
                let wide = matches!(self.engine, Engine::Avx512 { wide: true, .. });
                if wide && wide_nibbles::cbc_encrypt::<V>(c.rk(), iv, buf).done() {
                    Ran::Done
                } else {
                    nibbles::cbc_encrypt::<V>(c.rk(), iv, buf, vex)
                }
            }
            Path::Paired => paired::cbc_encrypt_streams::<V>(&[c.rk()], &mut [iv], &mut [buf]),
            _ => Ran::Declined,
        }
    }

    fn cbc_decrypt<V: Variant>(&self, c: &Ublock<V>, iv: &mut [u8], buf: &mut [u8]) -> Ran {
        match self.path(c, buf.len()) {
            Path::ZmmFull => {
                let done = sliced_zmm::cbc_decrypt::<V>(self.slice_keys(c), iv, buf).unwrap_or(0);
                c.run_cbc_decrypt(iv, &mut buf[done..]);
                Ran::Done
            }
            Path::YmmFull => {
                let done = if self.gfni() {
                    sliced_ymm_gfni::cbc_decrypt::<V>(self.slice_keys(c), iv, buf)
                } else {
                    sliced_ymm::cbc_decrypt::<V>(self.slice_keys(c), iv, buf)
                };
                c.run_cbc_decrypt(iv, &mut buf[done.unwrap_or(0)..]);
                Ran::Done
            }
            p @ (Path::Zmm | Path::Ymm) => {
                let (front, rest) = buf.split_at_mut(planes_front::<V>(p, buf.len()));
                let ran = if p == Path::Zmm {
                    planes_zmm::cbc_decrypt::<V>(self.plane_keys(c), iv, front)
                } else {
                    planes_ymm::cbc_decrypt::<V>(self.plane_keys(c), iv, front)
                };
                if ran.done() {
                    c.run_cbc_decrypt(iv, rest);
                }
                ran
            }
            _ => Ran::Declined,
        }
    }

    /// Interleaved on the bit-plane kernels where it pays: when the streams together fill
    /// at least one batch but each is too short for a bitsliced batch of its own (streams of
    /// 8 blocks and more run as fast or faster on their own kernels; figures in
    /// `docs/perf/ublock.md`).
    fn streams<V: Variant>(
        keys: &[&Ublock<V>],
        mode: StreamsMode,
        ivs: &mut [&mut [u8]],
        bufs: &mut [&mut [u8]],
    ) -> Ran {
        let Some(first) = keys.first() else {
            return Ran::Declined;
        };
        let engine = first.kernels.engine;
        let alike = keys
            .iter()
            .all(|k| k.kernels.engine == engine && !k.paper_layout);
        let (width, run): (usize, MultiFn) = match engine {
            Engine::Avx512 { .. } => (planes_zmm::streams::<V>(), planes_zmm::run_streams::<V>),
            Engine::Avx2 { .. } => (planes_ymm::streams::<V>(), planes_ymm::run_streams::<V>),
            _ => return Ran::Declined,
        };
        let blocks: usize = bufs.iter().map(|b| b.len() / V::BLOCK).sum();
        let longest = bufs.iter().map(|b| b.len() / V::BLOCK).max().unwrap_or(0);
        if !alike || keys.len() < 2 || blocks < width || longest >= BULK_BLOCKS {
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
            done &= run(&pks[..k.len()], mode, iv, b).done();
        }
        if done { Ran::Done } else { Ran::Declined }
    }

    /// Interleaved where it pays.
    fn cbc_encrypt_streams<V: Variant>(
        keys: &[&Ublock<V>],
        ivs: &mut [&mut [u8]],
        bufs: &mut [&mut [u8]],
    ) -> Ran {
        // Interleaving pays once the streams are a few blocks long: below that, masking every
        // key's bit-planes to its slots costs more than running each stream on its own.
        let long = bufs.iter().any(|b| b.len() >= INTERLEAVE_BLOCKS * V::BLOCK);
        let alike = keys.iter().all(|k| {
            (k.kernels.engine, k.paper_layout) == (keys[0].kernels.engine, keys[0].paper_layout)
        });
        let same = long && alike;
        let paper = keys.first().is_some_and(|k| k.paper_layout);
        let (width, kernel) = match keys.first().map(|k| k.kernels.engine) {
            // Up to four streams: the paired kernel keys them without a transposition and
            // runs them with the latency of one.
            Some(Engine::Avx512 { .. } | Engine::Avx2 { .. })
                if alike && keys.len() > 1 && (paper || keys.len() <= paired::BLOCKS) =>
            {
                (paired::BLOCKS, StreamsKernel::Paired)
            }
            Some(Engine::Avx512 { .. }) if same && keys.len() > 16 => {
                (planes_zmm::streams::<V>(), StreamsKernel::Zmm)
            }
            Some(Engine::Avx512 { .. } | Engine::Avx2 { .. }) if same && keys.len() > 1 => {
                (planes_ymm::streams::<V>(), StreamsKernel::Ymm)
            }
            _ => return Ran::Declined,
        };
        let mut done = true;
        for ((k, iv), b) in keys
            .chunks(width)
            .zip(ivs.chunks_mut(width))
            .zip(bufs.chunks_mut(width))
        {
            let n = k.len();
            let ran = match kernel {
                StreamsKernel::Paired => {
                    let mut rks = [k[0].rk(); MAX_STREAMS];
                    for (slot, c) in rks.iter_mut().zip(k) {
                        *slot = c.rk();
                    }
                    paired::cbc_encrypt_streams::<V>(&rks[..n], iv, b)
                }
                StreamsKernel::Zmm => {
                    planes_zmm::cbc_encrypt_streams::<V>(&plane_keys_of(k)[..n], iv, b)
                }
                StreamsKernel::Ymm => {
                    planes_ymm::cbc_encrypt_streams::<V>(&plane_keys_of(k)[..n], iv, b)
                }
            };
            done &= ran.done();
        }
        if done { Ran::Done } else { Ran::Declined }
    }

    #[cfg(feature = "kernel-parts")]
    fn kernel_part<V: Variant>(
        &self,
        c: &Ublock<V>,
        part: super::KernelPart,
        buf: &mut [u8],
    ) -> Option<usize> {
        match self.engine {
            _ if c.paper_layout => None,
            Engine::Avx512 { .. } => sliced_zmm::ecb_part::<V>(self.slice_keys(c), buf, part),
            Engine::Avx2 { gfni: true } => {
                sliced_ymm_gfni::ecb_part::<V>(self.slice_keys(c), buf, part)
            }
            Engine::Avx2 { gfni: false } => {
                sliced_ymm::ecb_part::<V>(self.slice_keys(c), buf, part)
            }
            _ => None,
        }
    }
}

/// The plane keys of up to [`MAX_STREAMS`] ciphers.
fn plane_keys_of<'a, V: Variant>(keys: &[&'a Ublock<V>]) -> [&'a PlaneKeys; MAX_STREAMS] {
    let mut pks = [keys[0].kernels.plane_keys(keys[0]); MAX_STREAMS];
    for (slot, c) in pks.iter_mut().zip(keys) {
        *slot = c.kernels.plane_keys(c);
    }
    pks
}

/// A bit-plane kernel's ECB or CBC decryption of several streams.
type MultiFn = fn(&[&PlaneKeys], StreamsMode, &mut [&mut [u8]], &mut [&mut [u8]]) -> Ran;
