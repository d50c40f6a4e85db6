//! `vecrypt speed --bounds`: how close each VAES-512 AES kernel runs to what this CPU's
//! vector pipes allow.
//!
//! Each kernel's main loop, as compiled, is described by its instructions per 512 bytes
//! (eight zmm registers of blocks): AES rounds, carry-less multiplications, byte shuffles,
//! other one-cycle vector operations, loads and stores. The same numbers of the same
//! instructions, run with no dependencies except each register's chain of AES rounds,
//! give the loop's bound on this CPU: the pipes can run the kernel no faster. The kernel
//! itself is timed on 16 KiB calls through the library's API beside it, and the table shows
//! the bound (core cycles per 512 bytes and GB/s), the kernel's speed and the fraction of
//! the bound it reaches. The core's clock comes from a chain of dependent additions, one
//! cycle each.
//!
//! The counts are those of the loops of this version's kernels (`aes/x86/vaes_zmm.rs`,
//! `vaes_xts.rs`, `vaes_gcm.rs`), taken from their disassembly; shuffles other than
//! `vpshufb` (`vpshufd`, `vpunpck*qdq`, byte shifts, extracts) are counted with the
//! one-cycle operations, which they match in throughput on the cores measured. A kernel
//! whose loop changes must change its line here.

use serde::Serialize;

use crate::{Budget, time_per_call};

/// Bytes of one loop iteration: eight zmm registers of 16-byte blocks.
pub const LOOP_BYTES: usize = 8 * 64;
/// Bytes of each timed call of a kernel.
pub const KERNEL_BYTES: usize = 16 * 1024;
/// Iterations of a mix loop per timed call.
const MIX_ITERATIONS: u64 = 4096;
/// Iterations of the addition chain per timed call (100 cycles each).
#[cfg(target_arch = "x86_64")]
const CHAIN_ITERATIONS: u64 = 20_000;

/// The instructions of one kernel loop per [`LOOP_BYTES`].
#[derive(Copy, Clone, Debug, Serialize)]
pub struct Mix {
    /// AES rounds of each register, the last one included (10 or 14).
    pub rounds: usize,
    pub clmul: usize,
    /// `vpshufb`.
    pub shuffle: usize,
    /// Other one-cycle vector operations (XOR, three-way XOR, addition, in-lane shuffles).
    pub simple: usize,
    pub loads: usize,
    pub stores: usize,
    /// Runs the instructions `n` times; false if this CPU cannot.
    #[serde(skip)]
    run: fn(u64) -> bool,
    /// Runs the carry-less multiplications alone `n` times.
    #[serde(skip)]
    run_multiplications: fn(u64) -> bool,
}

impl Mix {
    /// The vector operations of one iteration (loads and stores apart).
    pub fn vector_ops(&self) -> usize {
        8 * self.rounds + self.clmul + self.shuffle + self.simple
    }

    /// The instructions as a phrase: `80 AES, 26 CLMUL, 9 PSHUFB, 62 other, 36 ld, 8 st`.
    pub fn describe(&self) -> String {
        let mut parts = vec![format!("{} AES", 8 * self.rounds)];
        if self.clmul > 0 {
            parts.push(format!("{} CLMUL", self.clmul));
        }
        if self.shuffle > 0 {
            parts.push(format!("{} PSHUFB", self.shuffle));
        }
        parts.push(format!("{} other", self.simple));
        parts.push(format!("{} ld", self.loads));
        parts.push(format!("{} st", self.stores));
        parts.join(", ")
    }
}

/// A [`Mix`] whose loop is compiled for these numbers (each written once).
#[cfg(target_arch = "x86_64")]
macro_rules! mix {
    ($rounds:literal, $clmul:literal, $shuffle:literal, $simple:literal, $loads:literal, $stores:literal) => {
        Mix {
            rounds: $rounds,
            clmul: $clmul,
            shuffle: $shuffle,
            simple: $simple,
            loads: $loads,
            stores: $stores,
            run: crate::x86::mix::run::<$rounds, $clmul, $shuffle, $simple, $loads, $stores>,
            run_multiplications: crate::x86::mix::run_multiplications::<$rounds, $clmul>,
        }
    };
}

/// Median nanoseconds of one kernel call on [`KERNEL_BYTES`]; None if the backend is missing.
type TimeKernel = fn(Budget) -> Option<f64>;

/// One kernel: its name, its loop and how to time it.
struct KernelLoop {
    algorithm: &'static str,
    mode: &'static str,
    mix: Mix,
    time: TimeKernel,
}

/// The kernels of the VAES-512 backend and their loops per 512 bytes:
/// - ECB: the round-0 XOR per register; 16 registers a step, whose round keys the compiler
///   reads from memory half the time (27 loads per 16 registers).
/// - CTR: the counter's addition, its byte reversal, the round-0 XOR and the XOR with the data.
/// - XTS: each register's tweak times x^4 (one carry-less multiplication, a shift, a
///   shuffle and a three-way XOR), the two tweak XORs and the round-0 XOR.
/// - GCM seal: CTR's work with one reversal per batch, the previous batch's GHASH (three
///   multiplications per register by Karatsuba, two for the batch's reduction, the
///   ciphertext's byte reversal, the pairs' half XORs and sums), and the powers of H read
///   from memory.
#[cfg(target_arch = "x86_64")]
fn kernel_loops() -> Vec<KernelLoop> {
    use vecrypt::aes::{K128, K256};
    let mut loops = aes_loops::<K128>(
        "aes-128",
        [
            mix!(10, 0, 0, 8, 14, 8),
            mix!(10, 0, 8, 24, 8, 8),
            mix!(10, 8, 0, 40, 8, 8),
            mix!(10, 26, 9, 62, 36, 8),
        ],
    );
    loops.extend(aes_loops::<K256>(
        "aes-256",
        [
            mix!(14, 0, 0, 8, 16, 8),
            mix!(14, 0, 8, 24, 8, 8),
            mix!(14, 8, 0, 40, 8, 8),
            mix!(14, 26, 9, 62, 40, 9),
        ],
    ));
    loops
}

/// The ECB, CTR, XTS and GCM loops of one key size, their mixes in that order.
#[cfg(target_arch = "x86_64")]
fn aes_loops<K: vecrypt::aes::KeySize>(
    algorithm: &'static str,
    mixes: [Mix; 4],
) -> Vec<KernelLoop> {
    let kernels: [(&'static str, TimeKernel); 4] = [
        ("ecb-encrypt", time_ecb::<K>),
        ("ctr", time_ctr::<K>),
        ("xts-encrypt", time_xts::<K>),
        ("gcm-seal", time_gcm::<K>),
    ];
    kernels
        .into_iter()
        .zip(mixes)
        .map(|((mode, time), mix)| KernelLoop {
            algorithm,
            mode,
            mix,
            time,
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

    use super::KERNEL_BYTES;
    use crate::{Budget, time_per_call};

    const BACKEND: Backend = Backend::Vaes512;

    pub fn time_ecb<K: KeySize>(budget: Budget) -> Option<f64> {
        let c = Aes::<K>::with_backend(&vec![0x42; K::KEY], BACKEND).ok()?;
        let mut buf = vec![0u8; KERNEL_BYTES];
        Some(time_per_call(budget, || {
            c.encrypt_ecb(&mut buf).expect("whole blocks")
        }))
    }

    pub fn time_ctr<K: KeySize>(budget: Budget) -> Option<f64> {
        let c = Aes::<K>::with_backend(&vec![0x42; K::KEY], BACKEND).ok()?;
        let mut buf = vec![0u8; KERNEL_BYTES];
        Some(time_per_call(budget, || {
            c.apply_ctr(&[0x24; 16], &mut buf).expect("a one-block IV")
        }))
    }

    pub fn time_xts<K: KeySize>(budget: Budget) -> Option<f64> {
        // Data key and tweak key differ, as XTS requires.
        let key: Vec<u8> = (0..2 * K::KEY).map(|i| i as u8 ^ 0x42).collect();
        let x = AesXts::<K>::with_backend(&key, BACKEND).ok()?;
        let mut buf = vec![0u8; KERNEL_BYTES];
        Some(time_per_call(budget, || {
            x.encrypt_sector(7, &mut buf).expect("a whole sector")
        }))
    }

    pub fn time_gcm<K: KeySize>(budget: Budget) -> Option<f64> {
        let g = AesGcm::<K>::with_backend(&vec![0x42; K::KEY], BACKEND).ok()?;
        let mut buf = vec![0u8; KERNEL_BYTES];
        Some(time_per_call(budget, || {
            black_box(
                g.encrypt_detached(&[0x24; 12], &[], &mut buf)
                    .expect("a 12-byte nonce"),
            );
        }))
    }
}
#[cfg(target_arch = "x86_64")]
use kernels::{time_ctr, time_ecb, time_gcm, time_xts};

/// One line of the bounds table.
#[derive(Clone, Debug, Serialize)]
pub struct BoundRow {
    pub algorithm: &'static str,
    pub mode: &'static str,
    /// The kernel's loop per [`LOOP_BYTES`].
    pub mix: Mix,
    /// Median nanoseconds of one iteration of the loop's instructions without dependencies.
    pub bound_ns: f64,
    /// The same in core cycles, at the clock measured.
    pub bound_cycles: f64,
    /// The bound in 10^9 bytes per second.
    pub bound_gb_per_s: f64,
    /// Core cycles of the loop's carry-less multiplications alone, when it has any.
    pub clmul_cycles: Option<f64>,
    /// The kernel's median speed on [`KERNEL_BYTES`] calls, 10^9 bytes per second.
    pub kernel_gb_per_s: f64,
    /// `kernel_gb_per_s / bound_gb_per_s`.
    pub of_bound: f64,
}

/// The bounds table with the core clock (GHz) it was measured at, or None where the
/// VAES-512 kernels do not run (other CPUs, other architectures).
pub fn bound_rows(budget: Budget, progress: &mut dyn FnMut()) -> Option<(f64, Vec<BoundRow>)> {
    let loops = kernel_loops();
    if loops.is_empty() || !(loops[0].mix.run)(1) {
        return None;
    }
    let mut clock = Vec::new();
    let mut rows = Vec::new();
    for k in &loops {
        clock.push(core_ghz(budget)?);
        let bound_ns = time_per_call(budget, || {
            (k.mix.run)(MIX_ITERATIONS);
        }) / MIX_ITERATIONS as f64;
        let clmul_ns = (k.mix.clmul > 0).then(|| {
            time_per_call(budget, || {
                (k.mix.run_multiplications)(MIX_ITERATIONS);
            }) / MIX_ITERATIONS as f64
        });
        let kernel_ns = (k.time)(budget)?;
        let bound_gb_per_s = LOOP_BYTES as f64 / bound_ns;
        let kernel_gb_per_s = KERNEL_BYTES as f64 / kernel_ns;
        rows.push(BoundRow {
            algorithm: k.algorithm,
            mode: k.mode,
            mix: k.mix,
            bound_ns,
            bound_cycles: 0.0,
            bound_gb_per_s,
            clmul_cycles: clmul_ns,
            kernel_gb_per_s,
            of_bound: kernel_gb_per_s / bound_gb_per_s,
        });
        progress();
    }
    clock.push(core_ghz(budget)?);
    clock.sort_by(f64::total_cmp);
    let ghz = clock[clock.len() / 2];
    for r in &mut rows {
        r.bound_cycles = r.bound_ns * ghz;
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
        "core clock {ghz:.2} GHz; bound: the kernel loop's instructions per {LOOP_BYTES} bytes \
         without dependencies (CLMUL: its carry-less multiplications alone); kernel: {} KiB calls",
        KERNEL_BYTES / 1024
    );
    println!(
        "{:<9} {:<12} {:<48} {:>7} {:>7} {:>10} {:>10} {:>8}",
        "algorithm",
        "mode",
        "loop per 512 bytes",
        "cycles",
        "CLMUL",
        "bound GB/s",
        "kernel",
        "of bound"
    );
    for r in rows {
        println!(
            "{:<9} {:<12} {:<48} {:>7.1} {:>7} {:>10.1} {:>10.1} {:>7.0}%",
            r.algorithm,
            r.mode,
            r.mix.describe(),
            r.bound_cycles,
            r.clmul_cycles
                .map_or_else(|| "-".to_string(), |c| format!("{c:.1}")),
            r.bound_gb_per_s,
            r.kernel_gb_per_s,
            100.0 * r.of_bound
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

    /// The loops run where the VAES-512 kernels run, and nowhere else.
    #[test]
    fn loops_run_exactly_where_the_kernels_do() {
        let runs = vecrypt::aes::Aes::<vecrypt::aes::K128>::backends()
            .contains(&vecrypt::Backend::Vaes512);
        for k in kernel_loops() {
            assert_eq!((k.mix.run)(1), runs, "{} {}", k.algorithm, k.mode);
        }
        assert_eq!(bound_rows(BUDGET, &mut || {}).is_some(), runs);
    }

    /// Each loop takes at least the time of its vector operations at sixteen a cycle (no
    /// x86-64 core issues half as many): a loop the assembler left empty, or far shorter
    /// than its counts, fails. A busy machine only makes the loops slower, so the check
    /// cannot fail from noise.
    #[test]
    fn loops_hold_their_instructions() {
        let Some((ghz, rows)) = bound_rows(BUDGET, &mut || {}) else {
            assert!(kernel_loops().iter().all(|k| !(k.mix.run)(1)));
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
            assert!(r.kernel_gb_per_s > 0.0 && r.of_bound.is_finite());
            assert_eq!(r.clmul_cycles.is_some(), r.mix.clmul > 0);
            if let Some(c) = r.clmul_cycles {
                assert!(
                    c >= r.mix.clmul as f64 / 16.0,
                    "{c} cycles for {}",
                    r.mix.clmul
                );
            }
        }
        assert_eq!(rows.len(), kernel_loops().len());
    }

    #[test]
    fn describe_names_every_count() {
        let m = Mix {
            rounds: 10,
            clmul: 26,
            shuffle: 9,
            simple: 62,
            loads: 36,
            stores: 8,
            run: |_| false,
            run_multiplications: |_| false,
        };
        assert_eq!(
            m.describe(),
            "80 AES, 26 CLMUL, 9 PSHUFB, 62 other, 36 ld, 8 st"
        );
        assert_eq!(m.vector_ops(), 80 + 26 + 9 + 62);
    }
}
