//! The speed table of every block cipher and backend on this CPU, following the test plan of
//! the uBlock AVX2 paper: short messages (one block per call, repeated) and long messages
//! (2 Mbit buffers), one key and several keys, ECB, CBC and CTR, both directions; and the
//! rows, columns and ratios of the whole table.

use serde::Serialize;
use vecrypt::Backend;
use vecrypt::registry::{CipherInfo, DynCipher, DynMulti};

use crate::{Budget, time_per_call};

/// Bytes of one long message: 2 Mbit.
pub const LONG_MESSAGE: usize = 2 * 1024 * 1024 / 8;

/// One measured line of the speed table.
#[derive(Clone, Debug, Serialize)]
pub struct SpeedRow {
    /// The cipher (`aes-128`, `kuznyechik`) or KEM set (`aigis-enc-2`).
    pub algorithm: String,
    /// The vecrypt backend, or the peer's name when `peer` is set.
    pub backend: String,
    /// Another implementation measured in the same run for comparison.
    pub peer: bool,
    /// Keys (and streams) per call.
    pub keys: usize,
    /// `ecb`, `cbc`, `gcm`, `omac-acpkm`, ...; the hash mode for a KEM (`shake`, `sm3`, and
    /// `shake-compact`, `sm3-compact` for the low-memory path).
    pub mode: &'static str,
    /// `encrypt`, `decrypt`, `seal`, `open`, `mac`, or `keygen`, `encaps`, `decaps`.
    pub direction: &'static str,
    /// `short` or `long` (see `bytes`); `-` for KEM operations.
    pub message: &'static str,
    /// Bytes processed per call, all streams together (0 for KEM operations).
    pub bytes: usize,
    /// Median time per call, nanoseconds.
    pub ns_per_call: f64,
    /// Calls per second.
    pub ops_per_s: f64,
    /// Median throughput, 10^6 bytes per second (byte rows only).
    pub mb_per_s: Option<f64>,
    /// The same in 10^6 bits per second, as the papers quote it.
    pub mbit_per_s: Option<f64>,
    /// Time-stamp counter cycles per byte (byte rows on x86-64).
    pub cycles_per_byte: Option<f64>,
    /// Time-stamp counter cycles per call (on x86-64).
    pub cycles_per_op: Option<f64>,
}

impl SpeedRow {
    /// A row from its median nanoseconds per call; `bytes` 0 for an operation row.
    #[allow(clippy::too_many_arguments)]
    pub fn measured(
        algorithm: &str,
        backend: &str,
        peer: bool,
        keys: usize,
        mode: &'static str,
        direction: &'static str,
        message: &'static str,
        bytes: usize,
        ns: f64,
    ) -> Self {
        let ns = ns.max(1e-3);
        let mb = (bytes > 0).then(|| bytes as f64 * 1e3 / ns);
        let cycles = crate::cycles_per_ns().map(|t| t * ns);
        SpeedRow {
            algorithm: algorithm.into(),
            backend: backend.into(),
            peer,
            keys,
            mode,
            direction,
            message,
            bytes,
            ns_per_call: ns,
            ops_per_s: 1e9 / ns,
            mb_per_s: mb,
            mbit_per_s: mb.map(|m| m * 8.0),
            cycles_per_byte: cycles.filter(|_| bytes > 0).map(|c| c / bytes as f64),
            cycles_per_op: cycles,
        }
    }

    /// Whether `other` measures the same thing (algorithm, mode, direction, size, keys).
    pub fn same_task(&self, other: &SpeedRow) -> bool {
        self.algorithm == other.algorithm
            && self.mode == other.mode
            && self.direction == other.direction
            && self.bytes == other.bytes
            && self.keys == other.keys
    }
}

/// What to measure.
#[derive(Clone, Debug)]
pub struct Plan {
    pub budget: Budget,
    /// Streams for the multi-key rows.
    pub keys: usize,
    /// Only this backend (peers are measured all the same).
    pub backend: Option<Backend>,
    /// Measure the peer implementations too.
    pub peers: bool,
}

impl Plan {
    /// Whether rows of `backend` are wanted.
    pub fn wants(&self, backend: Backend) -> bool {
        self.backend.is_none_or(|b| b == backend)
    }
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            budget: Budget::SHORT,
            keys: 4,
            backend: None,
            peers: true,
        }
    }
}

#[derive(Copy, Clone)]
enum Mode {
    Ecb,
    Cbc,
    Ctr,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Ecb => "ecb",
            Mode::Cbc => "cbc",
            Mode::Ctr => "ctr",
        }
    }
}

fn run_single(c: &dyn DynCipher, mode: Mode, encrypt: bool, iv: &[u8], buf: &mut [u8]) {
    let r = match (mode, encrypt) {
        (Mode::Ecb, true) => c.encrypt_ecb(buf),
        (Mode::Ecb, false) => c.decrypt_ecb(buf),
        (Mode::Cbc, true) => c.encrypt_cbc(iv, buf),
        (Mode::Cbc, false) => c.decrypt_cbc(iv, buf),
        (Mode::Ctr, _) => c.apply_ctr(iv, buf),
    };
    r.expect("whole blocks and a one-block IV are always valid");
}

fn run_multi(m: &dyn DynMulti, mode: Mode, encrypt: bool, ivs: &[&[u8]], bufs: &mut [Vec<u8>]) {
    let mut refs: Vec<&mut [u8]> = bufs.iter_mut().map(|b| b.as_mut_slice()).collect();
    let r = match (mode, encrypt) {
        (Mode::Ecb, true) => m.encrypt_ecb(&mut refs),
        (Mode::Ecb, false) => m.decrypt_ecb(&mut refs),
        (Mode::Cbc, true) => m.encrypt_cbc(ivs, &mut refs),
        (Mode::Cbc, false) => m.decrypt_cbc(ivs, &mut refs),
        (Mode::Ctr, _) => unreachable!("the multi-key API has no CTR rows"),
    };
    r.expect("whole blocks and one-block IVs are always valid");
}

/// Measures every row of one cipher on one backend, calling `progress` after each row.
pub fn cipher_rows(
    plan: &Plan,
    info: &CipherInfo,
    backend: Backend,
    progress: &mut dyn FnMut(),
) -> Vec<SpeedRow> {
    let n = info.block_len;
    let keys: Vec<Vec<u8>> = (0..plan.keys.max(1))
        .map(|i| vec![0x5a ^ i as u8; info.key_len])
        .collect();
    let iv = vec![0u8; n];
    let ivs: Vec<&[u8]> = keys.iter().map(|_| iv.as_slice()).collect();
    let Ok(single) = (info.new)(&keys[0], Some(backend)) else {
        return Vec::new();
    };
    let key_refs: Vec<&[u8]> = keys.iter().map(|k| k.as_slice()).collect();
    let multi = (info.new_multi)(&key_refs, Some(backend)).ok();
    let mut rows = Vec::new();
    let mut push = |keys: usize, mode: Mode, encrypt: bool, message, bytes, ns: f64| {
        rows.push(SpeedRow::measured(
            info.name,
            backend.name(),
            false,
            keys,
            mode.name(),
            if encrypt { "encrypt" } else { "decrypt" },
            message,
            bytes,
            ns,
        ));
        progress();
    };
    for (message, len) in [("short", n), ("long", LONG_MESSAGE)] {
        for mode in [Mode::Ecb, Mode::Cbc, Mode::Ctr] {
            for encrypt in [true, false] {
                if matches!(mode, Mode::Ctr) && !encrypt {
                    continue;
                }
                let mut buf = vec![0u8; len];
                let ns = time_per_call(plan.budget, || {
                    run_single(single.as_ref(), mode, encrypt, &iv, &mut buf)
                });
                push(1, mode, encrypt, message, len, ns);
                if let (Some(m), false) = (&multi, matches!(mode, Mode::Ctr)) {
                    let mut bufs = vec![vec![0u8; len]; keys.len()];
                    let ns = time_per_call(plan.budget, || {
                        run_multi(m.as_ref(), mode, encrypt, &ivs, &mut bufs)
                    });
                    push(keys.len(), mode, encrypt, message, len * keys.len(), ns);
                }
            }
        }
    }
    rows
}

/// Rows each cipher and backend will produce, for progress bars.
pub fn rows_per_backend() -> usize {
    // 2 message sizes x (ECB and CBC both ways, one and several keys, + CTR one key).
    2 * (2 * 2 * 2 + 1)
}

/// This row's speed over the best peer's on the same task (MB/s, or operations per second),
/// when a peer was measured.
pub fn ratio_to_peer(row: &SpeedRow, rows: &[SpeedRow]) -> Option<f64> {
    if row.peer {
        return None;
    }
    rows.iter()
        .filter(|p| p.peer && p.same_task(row))
        .map(|p| p.ops_per_s)
        .max_by(f64::total_cmp)
        .map(|best| row.ops_per_s / best)
}

/// `v` with `digits` decimals, or `-` when absent.
pub(crate) fn opt(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "-".to_string(), |v| format!("{v:.digits$}"))
}

/// Prints the speed table: throughput rows, then operation rows; `vs peer` is this row over
/// the fastest peer of the same task.
pub fn print_speed_table(rows: &[SpeedRow]) {
    let (bytes, ops): (Vec<&SpeedRow>, Vec<&SpeedRow>) = rows.iter().partition(|r| r.bytes > 0);
    if !bytes.is_empty() {
        println!(
            "{:<16} {:<26} {:>4} {:<13} {:<8} {:>7} {:>10} {:>10} {:>8} {:>8}",
            "algorithm",
            "backend",
            "keys",
            "mode",
            "dir",
            "bytes",
            "MB/s",
            "Mbit/s",
            "cyc/B",
            "vs peer"
        );
        for r in bytes {
            println!(
                "{:<16} {:<26} {:>4} {:<13} {:<8} {:>7} {:>10} {:>10} {:>8} {:>8}",
                r.algorithm,
                label(r),
                r.keys,
                r.mode,
                r.direction,
                r.bytes,
                opt(r.mb_per_s, 1),
                opt(r.mbit_per_s, 1),
                opt(r.cycles_per_byte, 2),
                ratio_to_peer(r, rows).map_or_else(String::new, |x| format!("{x:.2}x")),
            );
        }
    }
    if !ops.is_empty() {
        if rows.len() > ops.len() {
            println!();
        }
        println!(
            "{:<16} {:<26} {:<13} {:<8} {:>12} {:>12} {:>8}",
            "algorithm", "backend", "mode", "op", "ops/s", "cycles/op", "vs peer"
        );
        for r in ops {
            println!(
                "{:<16} {:<26} {:<13} {:<8} {:>12.0} {:>12} {:>8}",
                r.algorithm,
                label(r),
                r.mode,
                r.direction,
                r.ops_per_s,
                opt(r.cycles_per_op, 0),
                ratio_to_peer(r, rows).map_or_else(String::new, |x| format!("{x:.2}x")),
            );
        }
    }
}

/// The backend column: peers marked with `peer:`.
fn label(r: &SpeedRow) -> String {
    if r.peer {
        format!("peer:{}", r.backend)
    } else {
        r.backend.clone()
    }
}
