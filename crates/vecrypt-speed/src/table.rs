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
    /// Who ran it, as the comparison report names it: `vecrypt/BACKEND` for the library (with
    /// a qualifier such as `(T-table)` or `interleaved` there), the peer's name otherwise.
    pub implementation: String,
    /// What was done, as one label: `ecb-encrypt`, `gcm-seal`, `keygen` in the speed table;
    /// the comparison report's own labels (`ctr`, `seal`, `cbc-encrypt x8`,
    /// `ecb rounds only`, ...) there.
    pub operation: String,
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
        let implementation = if peer {
            backend.to_string()
        } else {
            format!("vecrypt/{backend}")
        };
        let operation = if bytes == 0 {
            direction.to_string()
        } else {
            format!("{mode}-{direction}")
        };
        let mut row = SpeedRow::from_labels(algorithm, &implementation, &operation, bytes, ns);
        row.backend = backend.into();
        row.peer = peer;
        row.keys = keys;
        row.mode = mode;
        row.direction = direction;
        row.message = message;
        row
    }

    /// A row of the comparison report, named by its implementation and operation labels.
    /// The speed table's columns are read from them: `peer` unless the implementation is
    /// vecrypt's, `backend` the implementation without `vecrypt/`, `keys` from an `xN`
    /// qualifier, `mode` and `direction` from the operation's first word (`-` where it is
    /// none of the table's), `message` `short` up to 64 bytes and `long` above.
    pub fn compared(
        algorithm: &str,
        implementation: &str,
        operation: &str,
        bytes: usize,
        ns: f64,
    ) -> Self {
        let mut row = SpeedRow::from_labels(algorithm, implementation, operation, bytes, ns);
        row.peer = !implementation.starts_with("vecrypt");
        row.backend = implementation
            .strip_prefix("vecrypt/")
            .unwrap_or(implementation)
            .to_string();
        row.keys = operation
            .split_whitespace()
            .find_map(|w| w.strip_prefix('x')?.parse().ok())
            .unwrap_or(1);
        (row.mode, row.direction) = mode_and_direction(algorithm, operation);
        row.message = match bytes {
            0 => "-",
            1..=64 => "short",
            _ => "long",
        };
        row
    }

    /// The labels and the figures; the table's columns left for the caller.
    fn from_labels(
        algorithm: &str,
        implementation: &str,
        operation: &str,
        bytes: usize,
        ns: f64,
    ) -> Self {
        let ns = ns.max(1e-3);
        let mb = (bytes > 0).then(|| bytes as f64 * 1e3 / ns);
        let cycles = crate::cycles_per_ns().map(|t| t * ns);
        SpeedRow {
            algorithm: algorithm.into(),
            backend: String::new(),
            peer: false,
            keys: 1,
            mode: "-",
            direction: "-",
            message: "-",
            bytes,
            implementation: implementation.into(),
            operation: operation.into(),
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

/// The speed table's mode and direction of a comparison label, from its first word:
/// `ecb-encrypt`, `cbc-decrypt`, `mgm-seal` name both; `ctr`, `ofb`, `cfb` and `ctr-acpkm`
/// encrypt; `cmac` and `omac` are a mode's `mac`; `seal` and `open` are GCM's when the
/// algorithm is (`aes-128-gcm`); `keygen`, `encaps`, `decaps` and `key-setup` have no mode.
/// Words after the first other than qualifiers (`x8`, `keys`, `z=2`) make it a part of the
/// operation, not the whole (`ecb rounds only`): no direction then.
fn mode_and_direction(algorithm: &str, operation: &str) -> (&'static str, &'static str) {
    let (mode, direction) = first_word_task(algorithm, operation);
    let qualifier = |w: &str| {
        w == "keys"
            || w.contains('=')
            || w.strip_prefix('x')
                .is_some_and(|n| n.parse::<usize>().is_ok())
    };
    if operation.split_whitespace().skip(1).all(qualifier) {
        (mode, direction)
    } else {
        (mode, "-")
    }
}

/// [`mode_and_direction`] of the operation's first word alone.
fn first_word_task(algorithm: &str, operation: &str) -> (&'static str, &'static str) {
    const MODES: [&str; 10] = [
        "ecb",
        "cbc",
        "ctr",
        "cfb",
        "ofb",
        "xts",
        "mgm",
        "ctr-acpkm",
        "cmac",
        "omac",
    ];
    const DIRECTIONS: [&str; 8] = [
        "encrypt",
        "decrypt",
        "seal",
        "open",
        "keygen",
        "encaps",
        "decaps",
        "key-setup",
    ];
    let first = operation.split_whitespace().next().unwrap_or("");
    if let Some(d) = DIRECTIONS.iter().find(|d| **d == first) {
        let gcm = algorithm.ends_with("-gcm") && matches!(*d, "seal" | "open");
        return (if gcm { "gcm" } else { "-" }, d);
    }
    for mode in MODES {
        if first == mode {
            let mac = matches!(mode, "cmac" | "omac");
            return (mode, if mac { "mac" } else { "encrypt" });
        }
        if let Some(d) = first.strip_prefix(mode).and_then(|r| r.strip_prefix('-'))
            && let Some(d) = DIRECTIONS.iter().find(|x| **x == d)
        {
            return (mode, d);
        }
    }
    ("-", "-")
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

/// The rows as a JSON array, one object per row with every field of [`SpeedRow`].
pub fn to_json(rows: &[SpeedRow]) -> serde_json::Result<String> {
    serde_json::to_string_pretty(rows)
}

/// How [`print_table`] lays the rows out.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    /// `vecrypt speed`'s: backend, keys, mode, direction, throughput in MB/s and Mbit/s,
    /// cycles per byte, then the operation rows; each row over the fastest peer of its task.
    Speed,
    /// The comparison report's: implementation and operation labels, MB/s and ns per call,
    /// each row's ratio to the first row of the same algorithm, operation and size (the
    /// reference implementation, listed first).
    Comparison,
}

/// Prints the rows in `layout`.
pub fn print_table(rows: &[SpeedRow], layout: Layout) {
    match layout {
        Layout::Speed => print_speed_table(rows),
        Layout::Comparison => print_comparison(rows),
    }
}

/// The [`Layout::Comparison`] table.
fn print_comparison(rows: &[SpeedRow]) {
    println!(
        "{:<18} {:<26} {:<18} {:>9} {:>11} {:>12} {:>7}",
        "algorithm", "implementation", "operation", "bytes", "MB/s", "ns/call", "ratio"
    );
    for r in rows {
        let reference = rows
            .iter()
            .find(|o| {
                o.algorithm == r.algorithm && o.operation == r.operation && o.bytes == r.bytes
            })
            .map_or(r.ns_per_call, |o| o.ns_per_call);
        println!(
            "{:<18} {:<26} {:<18} {:>9} {:>11} {:>12.1} {:>6.2}x",
            r.algorithm,
            r.implementation,
            r.operation,
            r.bytes,
            opt(r.mb_per_s, 1),
            r.ns_per_call,
            reference / r.ns_per_call
        );
    }
}

/// Prints the speed table ([`Layout::Speed`]): throughput rows, then operation rows; `vs
/// peer` is this row over the fastest peer of the same task.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparison_labels_give_the_table_columns() {
        let cases = [
            ("aes-128", "ecb-encrypt", ("ecb", "encrypt"), 1),
            ("aes-128", "cbc-decrypt", ("cbc", "decrypt"), 1),
            ("aes-128", "ctr", ("ctr", "encrypt"), 1),
            ("aes-128", "cbc-encrypt x8", ("cbc", "encrypt"), 8),
            (
                "ublock-128-128",
                "cbc-encrypt x16 keys",
                ("cbc", "encrypt"),
                16,
            ),
            ("ublock-128-128", "ecb rounds only", ("ecb", "-"), 1),
            ("ublock-128-128", "key+1-block", ("-", "-"), 1),
            ("aes-128", "cmac", ("cmac", "mac"), 1),
            ("aes-128", "xts-encrypt", ("xts", "encrypt"), 1),
            ("aes-128-gcm", "seal", ("gcm", "seal"), 1),
            ("aes-128-gcm", "key-setup", ("-", "key-setup"), 1),
            ("kuznyechik", "mgm-open", ("mgm", "open"), 1),
            (
                "kuznyechik",
                "ctr-acpkm N=4096",
                ("ctr-acpkm", "encrypt"),
                1,
            ),
            ("kuznyechik", "cbc-encrypt z=2", ("cbc", "encrypt"), 1),
            ("kuznyechik", "omac", ("omac", "mac"), 1),
            ("aigis-enc-2/shake", "decaps", ("-", "decaps"), 1),
        ];
        for (algorithm, operation, task, keys) in cases {
            let r = SpeedRow::compared(algorithm, "vecrypt/avx2", operation, 1024, 500.0);
            assert_eq!((r.mode, r.direction), task, "{algorithm} {operation}");
            assert_eq!(r.keys, keys, "{operation}");
            assert_eq!(r.operation, operation);
        }
    }

    #[test]
    fn comparison_rows_name_peers_and_backends() {
        let own = SpeedRow::compared("aes-128", "vecrypt/aesni (T-table)", "ctr", 64, 100.0);
        assert!(!own.peer);
        assert_eq!(own.backend, "aesni (T-table)");
        assert_eq!(own.message, "short");
        assert_eq!(own.mb_per_s, Some(640.0));
        let composed = SpeedRow::compared("kuznyechik", "vecrypt + ctr crate", "ctr", 1 << 20, 1.0);
        assert!(!composed.peer);
        assert_eq!(composed.message, "long");
        let peer = SpeedRow::compared("aes-128", "openssl 3.0.2", "ctr", 0, 100.0);
        assert!(peer.peer);
        assert_eq!(peer.backend, "openssl 3.0.2");
        assert_eq!((peer.message, peer.mb_per_s), ("-", None));
    }

    #[test]
    fn table_rows_carry_the_comparison_labels() {
        let r = SpeedRow::measured("aes-128", "aesni", false, 1, "gcm", "seal", "long", 64, 1.0);
        assert_eq!(r.implementation, "vecrypt/aesni");
        assert_eq!(r.operation, "gcm-seal");
        let p = SpeedRow::measured(
            "aes-128", "openssl", true, 1, "ecb", "encrypt", "long", 16, 1.0,
        );
        assert_eq!(p.implementation, "openssl");
        let k = SpeedRow::measured(
            "aigis-enc-1",
            "avx2",
            false,
            1,
            "sm3",
            "keygen",
            "-",
            0,
            9.0,
        );
        assert_eq!(k.operation, "keygen");
    }

    #[test]
    fn json_has_the_fields_of_both_views() {
        let rows = [SpeedRow::compared(
            "aes-128",
            "aes crate",
            "ecb-encrypt",
            16,
            4.0,
        )];
        let v: serde_json::Value = serde_json::from_str(&to_json(&rows).unwrap()).unwrap();
        let row = &v.as_array().unwrap()[0];
        for field in [
            "algorithm",
            "implementation",
            "operation",
            "bytes",
            "mb_per_s",
            "ns_per_call",
            "backend",
            "peer",
            "keys",
            "mode",
            "direction",
            "message",
            "ops_per_s",
            "mbit_per_s",
        ] {
            assert!(row.get(field).is_some(), "no {field}");
        }
        assert_eq!(row["implementation"], "aes crate");
        assert_eq!(row["mb_per_s"], 4000.0);
    }
}
