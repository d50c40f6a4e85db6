//! Side-by-side measurements of vecrypt and its peers in one run, reported as a table and as
//! JSON. Machines are shared and noisy: every figure is the median of several timed runs.

#![forbid(unsafe_code)]

pub mod aes;
pub mod aigis;
pub mod kuznyechik;
pub mod ublock;

use serde::Serialize;
pub use vecrypt_speed::{Budget, time_per_call};

/// One measured line of the report.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// Algorithm and parameters, e.g. `ublock-128-128`.
    pub algorithm: String,
    /// Who implements it, e.g. `vecrypt/avx2`, `aes crate`, `openssl 3.0`.
    pub implementation: String,
    /// What was done, e.g. `ecb-encrypt`, `gcm-seal`, `keygen`.
    pub operation: String,
    /// Bytes per call (0 for operations that are not about bytes).
    pub bytes: usize,
    /// Median throughput in MB/s (10^6 bytes), when `bytes > 0`.
    pub mb_per_s: Option<f64>,
    /// Median time per call in nanoseconds.
    pub ns_per_call: f64,
}

/// A row for an operation over `bytes` bytes per call.
pub fn throughput_row(
    budget: Budget,
    algorithm: &str,
    implementation: &str,
    operation: &str,
    bytes: usize,
    f: impl FnMut(),
) -> Row {
    let ns = time_per_call(budget, f);
    Row {
        algorithm: algorithm.into(),
        implementation: implementation.into(),
        operation: operation.into(),
        bytes,
        mb_per_s: (bytes > 0).then(|| bytes as f64 * 1e3 / ns),
        ns_per_call: ns,
    }
}

/// Prints rows as an aligned table, with each row's ratio to the first row of the same
/// algorithm, operation and size (the reference implementation listed first).
pub fn print_table(rows: &[Row]) {
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
            r.mb_per_s.map_or("-".into(), |v| format!("{v:.1}")),
            r.ns_per_call,
            reference / r.ns_per_call
        );
    }
}
