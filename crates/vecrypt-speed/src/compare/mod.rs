//! The comparison report of the `vecrypt-bench` program: vecrypt next to more peers than the
//! speed table has (OpenSSL with its version, ML-KEM-768, the T-table AES backend, uBlock's
//! paper layout and kernel split, the GOST modes with their own parameters), each row named by
//! its implementation and operation and read against the first row of its task
//! ([`Layout::Comparison`](crate::Layout::Comparison)).

pub mod aes;
pub mod aigis;
pub mod kuznyechik;
pub mod ublock;

use crate::{Budget, SpeedRow, time_per_call};

/// The groups of the report, in the order they run.
pub const GROUPS: [&str; 4] = ["aes", "aigis", "ublock", "kuznyechik"];

/// A row for an operation over `bytes` bytes per call (0 for operations that are not about
/// bytes), timed with `budget`.
pub fn throughput_row(
    budget: Budget,
    algorithm: &str,
    implementation: &str,
    operation: &str,
    bytes: usize,
    f: impl FnMut(),
) -> SpeedRow {
    let ns = time_per_call(budget, f);
    SpeedRow::compared(algorithm, implementation, operation, bytes, ns)
}

/// The rows of every group whose name contains one of `filters` (every group when there is
/// none).
pub fn rows(budget: Budget, filters: &[String]) -> Vec<SpeedRow> {
    let wanted =
        |group: &str| filters.is_empty() || filters.iter().any(|f| group.contains(f.as_str()));
    let mut rows = Vec::new();
    for group in GROUPS.into_iter().filter(|g| wanted(g)) {
        rows.extend(match group {
            "aes" => aes::rows(budget),
            "aigis" => aigis::rows(budget),
            "ublock" => ublock::rows(budget),
            _ => kuznyechik::rows(budget),
        });
    }
    rows
}
