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

/// The operation of the one-block rows.
pub const ONE_BLOCK: &str = "one-block encrypt";

/// A row for one block encrypted in place through the `cipher` traits by a cipher keyed
/// beforehand: the key schedule is not part of it.
pub fn one_block_row<C: cipher::BlockCipherEncrypt>(
    budget: Budget,
    algorithm: &str,
    implementation: &str,
    c: &C,
) -> SpeedRow {
    let mut block = cipher::Block::<C>::default();
    let bytes = block.len();
    throughput_row(budget, algorithm, implementation, ONE_BLOCK, bytes, || {
        c.encrypt_block(std::hint::black_box(&mut block))
    })
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// One short sample per row: the labels are under test, not the figures.
    const TINY: Budget = Budget {
        sample: Duration::from_micros(100),
        samples: 1,
    };

    /// Whether a row of `algorithm` by an implementation starting with `who` does
    /// `operation`, with a positive time.
    fn has(rows: &[SpeedRow], algorithm: &str, who: &str, operation: &str) -> bool {
        rows.iter().any(|r| {
            r.algorithm == algorithm
                && r.implementation.starts_with(who)
                && r.operation == operation
                && r.ns_per_call > 0.0
        })
    }

    #[test]
    fn every_group_keeps_its_operations() {
        let rows = rows(TINY, &[]);
        let expected = [
            ("aes-128", "aes crate", "ecb-encrypt"),
            ("aes-128", "aes crate", ONE_BLOCK),
            ("aes-256", "vecrypt/", ONE_BLOCK),
            ("aes-128", "aes+ctr crates", "ctr"),
            ("aes-128", "vecrypt/", "ecb-decrypt"),
            ("aes-128", "vecrypt/", "cbc-encrypt"),
            ("aes-128", "vecrypt/", "cbc-decrypt"),
            ("aes-128", "vecrypt/", "cbc-encrypt x8"),
            ("aes-128", "vecrypt/", "cfb-encrypt"),
            ("aes-128", "vecrypt/", "cfb-decrypt"),
            ("aes-128", "vecrypt/", "ofb"),
            ("aes-128", "cmac crate", "cmac"),
            ("aes-128", "vecrypt/", "cmac"),
            ("aes-128", "vecrypt/", "xts-encrypt"),
            ("aes-256", "vecrypt/", "xts-encrypt"),
            ("aes-192", "vecrypt/", "ctr"),
            ("aes-128-gcm", "aes-gcm crate", "seal"),
            ("aes-128-gcm", "aes-gcm crate", "key-setup"),
            ("aes-192-gcm", "vecrypt/", "key-setup"),
            ("aes-256-gcm", "vecrypt/", "open"),
            ("aigis-enc-1/shake", "pqcrypto-mlkem", "keygen"),
            ("aigis-enc-2/sm3", "libcrux-ml-kem", "encaps"),
            ("aigis-enc-4/sm3", "vecrypt/", "decaps"),
            ("ublock-128-128", "vecrypt/", "ecb-encrypt"),
            ("ublock-128-256", "vecrypt/", "cbc-encrypt x4 keys"),
            ("ublock-256-256", "vecrypt/", "cbc-encrypt x32 keys"),
            ("ublock-256-256", "vecrypt/", "key+1-block"),
            ("ublock-128-128", "vecrypt/", "key-setup"),
            ("ublock-128-256", "vecrypt/", ONE_BLOCK),
            ("ublock-256-256", "vecrypt/", ONE_BLOCK),
            ("kuznyechik", "kuznyechik crate", "ecb-decrypt"),
            ("kuznyechik", "kuznyechik + ctr crates", "ctr"),
            ("kuznyechik", "vecrypt + ctr crate", "ctr"),
            ("kuznyechik", "vecrypt/", "mgm-seal"),
            ("kuznyechik", "vecrypt/", "mgm-open"),
            ("kuznyechik", "vecrypt/", "ctr-acpkm N=4096"),
            ("kuznyechik", "vecrypt/", "ofb z=2"),
            ("kuznyechik", "vecrypt/", "cbc-encrypt z=2"),
            ("kuznyechik", "vecrypt/", "cbc-decrypt z=2"),
            ("kuznyechik", "vecrypt/", "cfb z=2"),
            ("kuznyechik", "vecrypt/", "omac"),
            ("kuznyechik", "kuznyechik crate", ONE_BLOCK),
            ("kuznyechik", "vecrypt/", ONE_BLOCK),
            ("kuznyechik", "vecrypt/", "ofb z=1"),
            ("kuznyechik", "vecrypt/", "cbc-encrypt z=1"),
            ("kuznyechik", "vecrypt/", "cfb z=1"),
        ];
        // One block and the chained modes at 1 KiB and 16 KiB, on every backend.
        for backend in vecrypt::kuznyechik::Kuznyechik::backends() {
            for bytes in [1024, 16 << 10] {
                for op in ["ofb z=1", "cbc-encrypt z=1", "cfb z=1", "omac"] {
                    let imp = format!("vecrypt/{backend}");
                    assert!(
                        rows.iter().any(|r| r.algorithm == "kuznyechik"
                            && r.implementation == imp
                            && r.operation == op
                            && r.bytes == bytes),
                        "no kuznyechik {imp} {op} over {bytes} bytes"
                    );
                }
            }
        }
        for (algorithm, who, operation) in expected {
            assert!(
                has(&rows, algorithm, who, operation),
                "no {algorithm} {who} {operation}"
            );
        }
        // The T-table AES backend is compared, by that name.
        assert!(rows.iter().any(|r| r.implementation.ends_with("(T-table)")));
        #[cfg(feature = "openssl")]
        assert!(has(&rows, "aes-128-gcm", "openssl ", "seal"));
    }

    #[test]
    fn filters_pick_groups_by_name() {
        let rows = rows(TINY, &["kuz".to_string()]);
        assert!(!rows.is_empty());
        assert!(rows.iter().all(|r| r.algorithm == "kuznyechik"));
        assert!(super::rows(TINY, &["none".to_string()]).is_empty());
    }
}
