//! `vecrypt speed --bounds`: how close the AES kernels of the VAES-512, VAES-256 and AES-NI
//! backends and the Keccak permutations of the Aigis-enc AVX-512 and AVX2 backends run to what
//! this CPU's vector pipes allow, for each of them this CPU runs.
//!
//! Each kernel's main loop, as compiled, is described by its instructions per iteration
//! (eight registers of blocks for AES: 512 bytes on zmm, 256 on ymm, 128 on xmm; one
//! permutation of eight or four states for Keccak): AES rounds, carry-less multiplications,
//! byte shuffles, rotations, shifts, other one-cycle vector operations, loads and stores. The same numbers of the same
//! instructions, run with no dependencies except short chains of AES rounds, give the
//! loop's bound on this CPU: the pipes can run the kernel no faster. The kernel itself is
//! timed beside it (16 KiB calls through the library's API for AES, repeated permutations
//! for Keccak), and the table shows the bound and the kernel in core cycles per iteration,
//! the fraction of the bound the kernel reaches, and for AES both in GB/s. The carry-less
//! multiplications of a loop are also timed alone. The core's clock comes from a chain of
//! dependent additions, one cycle each.
//!
//! The counts are those of the loops of this version's kernels (`aes/x86/vaes_zmm.rs`,
//! `vaes_ymm.rs`, `vaes_blocks.rs`, `vaes_xts.rs`, `vaes_gcm.rs`, `aesni.rs`,
//! `aigis/x86/keccak.rs`), taken from their disassembly. On zmm, shuffles other than
//! `vpshufb` (`vpshufd`, `vpunpck*qdq`, byte shifts, extracts) are counted with the one-cycle
//! operations, which they match in throughput on the cores measured; on ymm and xmm they
//! are counted with `vpshufb`, whose pipes they share on the AVX2 cores (AMD Zen 3 has two
//! shuffle pipes, one of them with an AES unit). Register copies are not counted. A kernel
//! whose loop changes must change its line here.

use serde::Serialize;

use crate::table::opt;
use crate::{Budget, time_per_call};

/// Bytes of each timed call of an AES kernel.
pub const KERNEL_BYTES: usize = 16 * 1024;
/// Iterations of a mix loop per timed call.
const MIX_ITERATIONS: u64 = 4096;
/// Permutations per timed call of the Keccak kernel.
#[cfg(target_arch = "x86_64")]
const PERMUTATIONS: u32 = 64;
/// Iterations of the addition chain per timed call (100 cycles each).
#[cfg(target_arch = "x86_64")]
const CHAIN_ITERATIONS: u64 = 20_000;

/// The instructions of one iteration of a kernel loop.
#[derive(Copy, Clone, Debug, Serialize)]
pub struct Mix {
    /// AES round instructions (eight registers times the rounds, the last one included).
    pub aes: usize,
    pub clmul: usize,
    /// `vpshufb`.
    pub shuffle: usize,
    /// 64-bit rotations (`vprolq`).
    pub rotate: usize,
    /// 64-bit shifts (`vpsllq`, `vpsrlq`), which AVX2 rotations are made of.
    pub shift: usize,
    /// Other one-cycle vector operations (XOR, three-way logic, addition, in-lane shuffles).
    pub simple: usize,
    pub loads: usize,
    pub stores: usize,
    /// Runs the instructions `n` times; false if this CPU cannot.
    #[serde(skip)]
    run: fn(u64) -> bool,
    /// Runs the carry-less multiplications alone `n` times, when the loop has any.
    #[serde(skip)]
    run_multiplications: Option<fn(u64) -> bool>,
}

impl Mix {
    /// The vector operations of one iteration (loads and stores apart).
    pub fn vector_ops(&self) -> usize {
        self.aes + self.clmul + self.shuffle + self.rotate + self.shift + self.simple
    }

    /// The instructions as a phrase: `80 AES, 26 CLMUL, 9 PSHUFB, 62 other, 36 ld, 8 st`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        for (n, name) in [
            (self.aes, "AES"),
            (self.clmul, "CLMUL"),
            (self.shuffle, "PSHUFB"),
            (self.rotate, "ROL"),
            (self.shift, "SHIFT"),
        ] {
            if n > 0 {
                parts.push(format!("{n} {name}"));
            }
        }
        parts.push(format!("{} other", self.simple));
        parts.push(format!("{} ld", self.loads));
        parts.push(format!("{} st", self.stores));
        parts.join(", ")
    }
}

/// A [`Mix`] of an AES loop on the loop `$loop` of `crate::x86::mix::Loop`, compiled for
/// these numbers (each written once): rounds per register, multiplications, shuffles, other
/// operations, loads, stores.
#[cfg(target_arch = "x86_64")]
macro_rules! aes_mix {
    ($loop:ident: $rounds:literal, $clmul:literal, $shuffle:literal, $simple:literal, $loads:literal, $stores:literal) => {
        Mix {
            aes: 8 * $rounds,
            clmul: $clmul,
            shuffle: $shuffle,
            rotate: 0,
            shift: 0,
            simple: $simple,
            loads: $loads,
            stores: $stores,
            run: crate::x86::mix::run::<
                { crate::x86::mix::Loop::$loop as u8 },
                1,
                $rounds,
                $clmul,
                $shuffle,
                $simple,
                0,
                0,
                $loads,
                $stores,
            >,
            run_multiplications: if $clmul > 0 {
                Some(
                    crate::x86::mix::run::<
                        { crate::x86::mix::Loop::$loop as u8 },
                        0,
                        $rounds,
                        $clmul,
                        0,
                        0,
                        0,
                        0,
                        0,
                        0,
                    >,
                )
            } else {
                None
            },
        }
    };
}

/// A [`Mix`] of a loop of logic, rotations and shifts over `steps` steps (rounds) on the loop
/// `$loop`, compiled for these numbers: logic operations, shuffles, rotations, shifts, loads,
/// stores. With `$repeat x` first, the numbers are those of one of `$repeat` equal steps,
/// and the mix loop runs one step an iteration, `$repeat` times as many iterations: a loop
/// of every step unrolled would not fit the core's cache of decoded instructions, as the
/// kernel's loop of one round does.
#[cfg(target_arch = "x86_64")]
macro_rules! logic_mix {
    ($loop:ident: $repeat:literal x $logic:literal, $shuffle:literal, $rotate:literal, $shift:literal, $loads:literal, $stores:literal) => {
        Mix {
            aes: 0,
            clmul: 0,
            shuffle: $repeat * $shuffle,
            rotate: $repeat * $rotate,
            shift: $repeat * $shift,
            simple: $repeat * $logic,
            loads: $repeat * $loads,
            stores: $repeat * $stores,
            run: |n| {
                crate::x86::mix::run::<
                    { crate::x86::mix::Loop::$loop as u8 },
                    0,
                    1,
                    0,
                    $shuffle,
                    $logic,
                    $rotate,
                    $shift,
                    $loads,
                    $stores,
                >($repeat * n)
            },
            run_multiplications: None,
        }
    };
    ($loop:ident: $steps:literal, $logic:literal, $shuffle:literal, $rotate:literal, $shift:literal, $loads:literal, $stores:literal) => {
        Mix {
            aes: 0,
            clmul: 0,
            shuffle: $shuffle,
            rotate: $rotate,
            shift: $shift,
            simple: $logic,
            loads: $loads,
            stores: $stores,
            run: crate::x86::mix::run::<
                { crate::x86::mix::Loop::$loop as u8 },
                0,
                $steps,
                0,
                $shuffle,
                $logic,
                $rotate,
                $shift,
                $loads,
                $stores,
            >,
            run_multiplications: None,
        }
    };
}

/// Median nanoseconds of one loop iteration of a kernel, timed on the library with the
/// backend given (AES) over iterations of the bytes given; None if the backend is missing.
type TimeKernel = fn(Budget, vecrypt::Backend, usize) -> Option<f64>;

/// One kernel: its name, its loop and how to time it.
struct KernelLoop {
    algorithm: &'static str,
    mode: &'static str,
    /// The backend whose kernel this is (`vaes512`, `vaes256`, `aesni`, `avx512`, `avx2`).
    backend: vecrypt::Backend,
    /// What one iteration covers.
    unit: &'static str,
    /// Bytes of one iteration, for throughput (AES).
    bytes: Option<usize>,
    mix: Mix,
    time: TimeKernel,
}

/// The kernels and their loops, eight registers of blocks per AES iteration:
/// - ECB: the round-0 XOR per register; on zmm 16 registers a step, whose round keys the
///   compiler reads from memory half the time (27 loads per 16 registers); on ymm and xmm,
///   eight, the keys the sixteen registers cannot hold read from memory.
/// - CTR: the counter's addition, its byte reversal, the round-0 XOR and the XOR with the data.
/// - XTS: each register's tweak times x^(blocks a step) (one carry-less multiplication, a
///   shift, a shuffle and a three-way XOR; on ymm two byte shifts and two XORs), the two
///   tweak XORs and the round-0 XOR; on ymm the tweaks kept on the stack.
/// - GCM seal: the counters (a table load XORed with the whitened common part per register),
///   the XOR with the data, the previous batch's GHASH (three multiplications per register
///   by Karatsuba, the ciphertext's byte reversal, the pairs' half XORs and sums), and the
///   powers of H read from memory. On zmm, one reduction (two multiplications) for every
///   two batches: the compiled loop runs two batches, 1 KiB, and its counts are halved here
///   (rounded up). On ymm one reduction a batch, and the registers the loop cannot hold
///   kept on the stack.
/// - AES-NI: ECB and CTR, the kernels with a loop of independent blocks (CBC and CFB
///   decryption run the same rounds).
/// - Keccak-f\[1600\] on eight states, one state word per register: 24 rounds of theta's
///   parities (two three-way XORs each) and its three-way XOR into every word, 29
///   rotations, chi's three-way logic and iota's XOR (61 logic operations and 29
///   rotations a round); the compiler keeps seven words of each round on the stack (seven
///   stores and eight loads a round, the round constant's broadcast among them), and the
///   timed call loads and stores the 25 words once per permutation.
/// - Keccak-f\[1600\] on four states on AVX2: the same rounds with two-operand XORs,
///   rotations as two shifts and an OR (two byte rotations as a `vpshufb`, shifts by one as
///   an addition), chi as an AND-NOT and an XOR: 134 logic operations, 2 shuffles and 48
///   shifts a round; the sixteen registers hold few of the 25 words, so a round loads 49
///   and stores 37, and the timed call loads and stores the 25 words once per permutation
///   (one more load and store a round here).
#[cfg(target_arch = "x86_64")]
fn kernel_loops() -> Vec<KernelLoop> {
    use vecrypt::Backend::{AesNi, Avx2, Avx512, Vaes256, Vaes512};
    use vecrypt::aes::{K128, K256};
    let mut loops = aes_loops::<K128>(
        "aes-128",
        Vaes512,
        512,
        [
            Some(aes_mix!(Zmm: 10, 0, 0, 8, 14, 8)),
            Some(aes_mix!(Zmm: 10, 0, 8, 24, 8, 8)),
            Some(aes_mix!(Zmm: 10, 8, 0, 40, 8, 8)),
            Some(aes_mix!(Zmm: 10, 25, 8, 47, 47, 9)),
        ],
    );
    loops.extend(aes_loops::<K256>(
        "aes-256",
        Vaes512,
        512,
        [
            Some(aes_mix!(Zmm: 14, 0, 0, 8, 16, 8)),
            Some(aes_mix!(Zmm: 14, 0, 8, 24, 8, 8)),
            Some(aes_mix!(Zmm: 14, 8, 0, 40, 8, 8)),
            Some(aes_mix!(Zmm: 14, 25, 8, 47, 48, 9)),
        ],
    ));
    loops.extend(aes_loops::<K128>(
        "aes-128",
        Vaes256,
        256,
        [
            Some(aes_mix!(YmmAes: 10, 0, 0, 8, 10, 10)),
            Some(aes_mix!(YmmAes: 10, 0, 8, 24, 14, 8)),
            Some(aes_mix!(YmmAes: 10, 8, 16, 32, 28, 15)),
            Some(aes_mix!(YmmAes: 10, 26, 21, 51, 74, 27)),
        ],
    ));
    loops.extend(aes_loops::<K256>(
        "aes-256",
        Vaes256,
        256,
        [
            Some(aes_mix!(YmmAes: 14, 0, 0, 8, 23, 14)),
            Some(aes_mix!(YmmAes: 14, 0, 8, 24, 49, 9)),
            Some(aes_mix!(YmmAes: 14, 8, 16, 32, 35, 15)),
            Some(aes_mix!(YmmAes: 14, 26, 21, 51, 84, 32)),
        ],
    ));
    loops.extend(aes_loops::<K128>(
        "aes-128",
        AesNi,
        128,
        [
            Some(aes_mix!(Xmm: 10, 0, 0, 8, 21, 8)),
            Some(aes_mix!(Xmm: 10, 0, 8, 24, 24, 9)),
            None,
            None,
        ],
    ));
    loops.extend(aes_loops::<K256>(
        "aes-256",
        AesNi,
        128,
        [
            Some(aes_mix!(Xmm: 14, 0, 0, 8, 52, 8)),
            Some(aes_mix!(Xmm: 14, 0, 8, 24, 56, 9)),
            None,
            None,
        ],
    ));
    loops.push(KernelLoop {
        algorithm: "keccak-f1600",
        mode: "x8",
        backend: Avx512,
        unit: "8 states",
        bytes: None,
        mix: logic_mix!(Zmm: 24, 1464, 0, 696, 0, 217, 193),
        time: time_keccak_x8,
    });
    loops.push(KernelLoop {
        algorithm: "keccak-f1600",
        mode: "x4",
        backend: Avx2,
        unit: "4 states",
        bytes: None,
        mix: logic_mix!(Ymm: 24 x 134, 2, 0, 48, 50, 38),
        time: time_keccak_x4,
    });
    loops
}

/// The ECB, CTR, XTS and GCM loops of one key size and backend, their mixes in that order
/// (None where the backend has no such kernel), `bytes` per loop iteration.
#[cfg(target_arch = "x86_64")]
fn aes_loops<K: vecrypt::aes::KeySize>(
    algorithm: &'static str,
    backend: vecrypt::Backend,
    bytes: usize,
    mixes: [Option<Mix>; 4],
) -> Vec<KernelLoop> {
    let kernels: [(&'static str, TimeKernel); 4] = [
        ("ecb-encrypt", time_ecb::<K>),
        ("ctr", time_ctr::<K>),
        ("xts-encrypt", time_xts::<K>),
        ("gcm-seal", time_gcm::<K>),
    ];
    let unit = match bytes {
        512 => "512 B",
        256 => "256 B",
        _ => "128 B",
    };
    kernels
        .into_iter()
        .zip(mixes)
        .filter_map(|((mode, time), mix)| {
            Some(KernelLoop {
                algorithm,
                mode,
                backend,
                unit,
                bytes: Some(bytes),
                mix: mix?,
                time,
            })
        })
        .collect()
}

#[cfg(not(target_arch = "x86_64"))]
fn kernel_loops() -> Vec<KernelLoop> {
    Vec::new()
}

#[cfg(target_arch = "x86_64")]
mod kernels {
    use std::hint::black_box;

    use vecrypt::Backend;
    use vecrypt::aes::{Aes, AesGcm, AesXts, KeySize};
    use vecrypt::modes::BlockModes;

    use super::{KERNEL_BYTES, PERMUTATIONS};
    use crate::{Budget, time_per_call};

    /// Loop iterations of `bytes` in one timed AES call.
    fn per_call(bytes: usize) -> f64 {
        (KERNEL_BYTES / bytes) as f64
    }

    pub fn time_ecb<K: KeySize>(budget: Budget, backend: Backend, bytes: usize) -> Option<f64> {
        let c = Aes::<K>::with_backend(&vec![0x42; K::KEY], backend).ok()?;
        let mut buf = vec![0u8; KERNEL_BYTES];
        let ns = time_per_call(budget, || c.encrypt_ecb(&mut buf).expect("whole blocks"));
        Some(ns / per_call(bytes))
    }

    pub fn time_ctr<K: KeySize>(budget: Budget, backend: Backend, bytes: usize) -> Option<f64> {
        let c = Aes::<K>::with_backend(&vec![0x42; K::KEY], backend).ok()?;
        let mut buf = vec![0u8; KERNEL_BYTES];
        let ns = time_per_call(budget, || {
            c.apply_ctr(&[0x24; 16], &mut buf).expect("a one-block IV")
        });
        Some(ns / per_call(bytes))
    }

    pub fn time_xts<K: KeySize>(budget: Budget, backend: Backend, bytes: usize) -> Option<f64> {
        // Data key and tweak key differ, as XTS requires.
        let key: Vec<u8> = (0..2 * K::KEY).map(|i| i as u8 ^ 0x42).collect();
        let x = AesXts::<K>::with_backend(&key, backend).ok()?;
        let mut buf = vec![0u8; KERNEL_BYTES];
        let ns = time_per_call(budget, || {
            x.encrypt_sector(7, &mut buf).expect("a whole sector")
        });
        Some(ns / per_call(bytes))
    }

    pub fn time_gcm<K: KeySize>(budget: Budget, backend: Backend, bytes: usize) -> Option<f64> {
        let g = AesGcm::<K>::with_backend(&vec![0x42; K::KEY], backend).ok()?;
        let mut buf = vec![0u8; KERNEL_BYTES];
        let ns = time_per_call(budget, || {
            black_box(
                g.encrypt_detached(&[0x24; 12], &[], &mut buf)
                    .expect("a 12-byte nonce"),
            );
        });
        Some(ns / per_call(bytes))
    }

    pub fn time_keccak_x8(budget: Budget, _: Backend, _: usize) -> Option<f64> {
        let mut states = [[0x5au64; 25]; 8];
        if !vecrypt::aigis::run_keccak_x8(&mut states, 1) {
            return None;
        }
        let ns = time_per_call(budget, || {
            vecrypt::aigis::run_keccak_x8(&mut states, PERMUTATIONS);
        });
        Some(ns / f64::from(PERMUTATIONS))
    }

    pub fn time_keccak_x4(budget: Budget, _: Backend, _: usize) -> Option<f64> {
        let mut states = [[0x5au64; 25]; 4];
        if !vecrypt::aigis::run_keccak_x4(&mut states, 1) {
            return None;
        }
        let ns = time_per_call(budget, || {
            vecrypt::aigis::run_keccak_x4(&mut states, PERMUTATIONS);
        });
        Some(ns / f64::from(PERMUTATIONS))
    }
}
#[cfg(target_arch = "x86_64")]
use kernels::{time_ctr, time_ecb, time_gcm, time_keccak_x4, time_keccak_x8, time_xts};

/// One line of the bounds table.
#[derive(Clone, Debug, Serialize)]
pub struct BoundRow {
    pub algorithm: &'static str,
    pub mode: &'static str,
    /// The backend whose kernel this is.
    pub backend: &'static str,
    /// What one loop iteration covers (`512 B`, `8 states`).
    pub unit: &'static str,
    /// The kernel's loop per iteration.
    pub mix: Mix,
    /// Median nanoseconds of one iteration of the loop's instructions without dependencies.
    pub bound_ns: f64,
    /// The same in core cycles, at the clock measured.
    pub bound_cycles: f64,
    /// Core cycles of the loop's carry-less multiplications alone, when it has any.
    pub clmul_cycles: Option<f64>,
    /// The kernel's median nanoseconds per iteration.
    pub kernel_ns: f64,
    /// The same in core cycles.
    pub kernel_cycles: f64,
    /// `bound_ns / kernel_ns`: the fraction of the bound the kernel reaches.
    pub of_bound: f64,
    /// The bound in 10^9 bytes per second (AES).
    pub bound_gb_per_s: Option<f64>,
    /// The kernel's speed in 10^9 bytes per second (AES).
    pub kernel_gb_per_s: Option<f64>,
}

/// The bounds table with the core clock (GHz) it was measured at: a row for every kernel
/// loop this CPU runs, or None where it runs none (CPUs without AES-NI or AVX2, other
/// architectures).
pub fn bound_rows(budget: Budget, progress: &mut dyn FnMut()) -> Option<(f64, Vec<BoundRow>)> {
    let loops: Vec<KernelLoop> = kernel_loops()
        .into_iter()
        .filter(|k| (k.mix.run)(1))
        .collect();
    if loops.is_empty() {
        return None;
    }
    let mut clock = Vec::new();
    let mut rows = Vec::new();
    for k in &loops {
        clock.push(core_ghz(budget)?);
        let per_iteration = |run: fn(u64) -> bool| {
            time_per_call(budget, || {
                run(MIX_ITERATIONS);
            }) / MIX_ITERATIONS as f64
        };
        let bound_ns = per_iteration(k.mix.run);
        let clmul_ns = k.mix.run_multiplications.map(per_iteration);
        let Some(kernel_ns) = (k.time)(budget, k.backend, k.bytes.unwrap_or(1)) else {
            continue;
        };
        rows.push(BoundRow {
            algorithm: k.algorithm,
            mode: k.mode,
            backend: k.backend.name(),
            unit: k.unit,
            mix: k.mix,
            bound_ns,
            bound_cycles: 0.0,
            clmul_cycles: clmul_ns,
            kernel_ns,
            kernel_cycles: 0.0,
            of_bound: bound_ns / kernel_ns,
            bound_gb_per_s: k.bytes.map(|b| b as f64 / bound_ns),
            kernel_gb_per_s: k.bytes.map(|b| b as f64 / kernel_ns),
        });
        progress();
    }
    clock.push(core_ghz(budget)?);
    clock.sort_by(f64::total_cmp);
    let ghz = clock[clock.len() / 2];
    for r in &mut rows {
        r.bound_cycles = r.bound_ns * ghz;
        r.kernel_cycles = r.kernel_ns * ghz;
        r.clmul_cycles = r.clmul_cycles.map(|ns| ns * ghz);
    }
    Some((ghz, rows))
}

/// The core's clock in GHz: the median time of a chain of dependent additions; None off
/// x86-64.
pub fn core_ghz(budget: Budget) -> Option<f64> {
    #[cfg(target_arch = "x86_64")]
    {
        let ns = time_per_call(budget, || crate::x86::mix::addition_chain(CHAIN_ITERATIONS));
        Some(100.0 * CHAIN_ITERATIONS as f64 / ns)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = budget;
        None
    }
}

/// Prints the bounds table.
pub fn print_bounds(ghz: f64, rows: &[BoundRow]) {
    println!(
        "core clock {ghz:.2} GHz; bound: the kernel loop's instructions without dependencies \
         (CLMUL: its carry-less multiplications alone); AES kernels on {} KiB calls",
        KERNEL_BYTES / 1024
    );
    println!(
        "{:<12} {:<11} {:<8} {:<66} {:>7} {:>7} {:>7} {:>8} {:>6} {:>6}",
        "algorithm",
        "mode",
        "backend",
        "loop",
        "bound",
        "CLMUL",
        "kernel",
        "of bound",
        "GB/s",
        "kernel"
    );
    for r in rows {
        println!(
            "{:<12} {:<11} {:<8} {:<66} {:>7.1} {:>7} {:>7.1} {:>7.0}% {:>6} {:>6}",
            r.algorithm,
            r.mode,
            r.backend,
            format!("{} per {}", r.mix.describe(), r.unit),
            r.bound_cycles,
            opt(r.clmul_cycles, 1),
            r.kernel_cycles,
            100.0 * r.of_bound,
            opt(r.bound_gb_per_s, 1),
            opt(r.kernel_gb_per_s, 1),
        );
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    const BUDGET: Budget = Budget {
        sample: Duration::from_millis(4),
        samples: 3,
    };

    /// Each loop runs exactly where its kernel can be timed, an AES loop on exactly the CPUs
    /// whose AES backends include its kernel's, and the table has a row wherever any loop
    /// runs.
    #[test]
    fn loops_run_exactly_where_the_kernels_do() {
        let tiny = Budget {
            sample: Duration::from_micros(10),
            samples: 1,
        };
        let aes = vecrypt::aes::Aes::<vecrypt::aes::K128>::backends();
        let mut any = false;
        for k in kernel_loops() {
            let runs = (k.mix.run)(1);
            any |= runs;
            let name = format!("{} {} {}", k.algorithm, k.mode, k.backend);
            assert_eq!(runs, (k.time)(tiny, k.backend, 128).is_some(), "{name}");
            // The Keccak loops need fewer features than the Aigis-enc backends that use them.
            if k.algorithm != "keccak-f1600" {
                assert_eq!(runs, aes.contains(&k.backend), "{name}");
            }
        }
        assert_eq!(bound_rows(BUDGET, &mut || {}).is_some(), any);
        #[cfg(target_arch = "x86_64")]
        assert_eq!(
            any,
            aes.contains(&vecrypt::Backend::AesNi)
                || vecrypt::aigis::backends().contains(&vecrypt::Backend::Avx2)
        );
    }

    /// Each loop takes at least the time of its vector operations at sixteen a cycle (no
    /// x86-64 core issues half as many): a loop the assembler left empty, or far shorter
    /// than its counts, fails. A busy machine only makes the loops slower, so the check
    /// cannot fail from noise.
    #[test]
    fn loops_hold_their_instructions() {
        let Some((ghz, rows)) = bound_rows(BUDGET, &mut || {}) else {
            return;
        };
        assert!((0.3..10.0).contains(&ghz), "clock {ghz} GHz");
        for r in &rows {
            let floor = r.mix.vector_ops() as f64 / 16.0;
            assert!(
                r.bound_cycles >= floor,
                "{} {}: {} cycles for {} operations",
                r.algorithm,
                r.mode,
                r.bound_cycles,
                r.mix.vector_ops()
            );
            assert!(r.kernel_cycles > 0.0 && r.of_bound.is_finite());
            assert_eq!(r.clmul_cycles.is_some(), r.mix.clmul > 0);
            if let Some(c) = r.clmul_cycles {
                assert!(
                    c >= r.mix.clmul as f64 / 16.0,
                    "{c} cycles for {}",
                    r.mix.clmul
                );
            }
            assert_eq!(r.bound_gb_per_s.is_some(), r.unit.ends_with(" B"));
        }
        let runs = |k: &KernelLoop| (k.mix.run)(1);
        assert_eq!(
            rows.len(),
            kernel_loops().iter().filter(|k| runs(k)).count()
        );
    }

    /// The four-lane permutation timed here is Keccak-f\[1600\] on each of its states.
    #[test]
    fn keccak_x4_permutes_each_state() {
        let mut states: [[u64; 25]; 4] = core::array::from_fn(|i| {
            core::array::from_fn(|w| (i as u64 + 3).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ w as u64)
        });
        let mut expected = states;
        if !vecrypt::aigis::run_keccak_x4(&mut states, 3) {
            assert!(!vecrypt::aigis::backends().contains(&vecrypt::Backend::Avx2));
            return;
        }
        for s in &mut expected {
            vecrypt::aigis::run_keccak(true, s, 3);
        }
        assert_eq!(states, expected);
    }

    /// The eight-lane permutation timed here is Keccak-f\[1600\] on each of its states.
    #[test]
    fn keccak_x8_permutes_each_state() {
        let mut states: [[u64; 25]; 8] = core::array::from_fn(|i| {
            core::array::from_fn(|w| (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ w as u64)
        });
        let mut expected = states;
        if !vecrypt::aigis::run_keccak_x8(&mut states, 3) {
            return;
        }
        for s in &mut expected {
            vecrypt::aigis::run_keccak(true, s, 3);
        }
        assert_eq!(states, expected);
    }

    #[test]
    fn describe_names_every_count() {
        let m = Mix {
            aes: 80,
            clmul: 26,
            shuffle: 9,
            rotate: 0,
            shift: 0,
            simple: 62,
            loads: 36,
            stores: 8,
            run: |_| false,
            run_multiplications: None,
        };
        assert_eq!(
            m.describe(),
            "80 AES, 26 CLMUL, 9 PSHUFB, 62 other, 36 ld, 8 st"
        );
        assert_eq!(m.vector_ops(), 80 + 26 + 9 + 62);
        let k = Mix {
            aes: 0,
            clmul: 0,
            shuffle: 0,
            rotate: 0,
            shift: 696,
            simple: 1464,
            loads: 0,
            stores: 0,
            run: |_| false,
            run_multiplications: None,
        };
        assert_eq!(k.describe(), "696 SHIFT, 1464 other, 0 ld, 0 st");
        let r = Mix {
            rotate: 696,
            shift: 0,
            ..k
        };
        assert_eq!(r.describe(), "696 ROL, 1464 other, 0 ld, 0 st");
    }
}
