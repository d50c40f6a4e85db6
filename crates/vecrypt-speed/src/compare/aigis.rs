//! Aigis-enc: keygen, encaps and decaps for every set, hash mode and backend, next to
//! ML-KEM-768 in the same run.
//!
//! The reference peer is `pqcrypto-mlkem` (PQClean's AVX2 ML-KEM, compiled by its build script
//! with `-mavx2 -mbmi2` and chosen at run time); its calls include drawing their coins from the
//! operating system. `libcrux-ml-kem` is listed second: in a default build its 4-way SHA-3 calls
//! the AVX2 intrinsics out of line (they only inline when the whole program is compiled with
//! `RUSTFLAGS="-C target-feature=+avx2"`), which makes it about 2.5x slower than its AVX2 design.
//!
//! Besides the common rows, prints cycles (time-stamp counter) and operations per second.

use vecrypt::aigis::{self, Aigis, HashMode, ParamSet};

use crate::{Budget, SpeedRow, cycles_per_ns, time_per_call};

/// An operation row (no bytes) from its median time.
fn row(algorithm: &str, implementation: &str, operation: &str, ns: f64) -> SpeedRow {
    SpeedRow::compared(algorithm, implementation, operation, 0, ns)
}

/// PQClean ML-KEM-768 (AVX2) rows, the reference against which the ratio column reads.
fn pqclean_rows(budget: Budget, algorithm: &str, rows: &mut Vec<SpeedRow>) {
    use pqcrypto_mlkem::mlkem768;
    let imp = "pqcrypto-mlkem 0.1.1 ML-KEM-768 avx2";
    let (pk, sk) = mlkem768::keypair();
    let (_, ct) = mlkem768::encapsulate(&pk);
    rows.push(row(
        algorithm,
        imp,
        "keygen",
        time_per_call(budget, || {
            std::hint::black_box(mlkem768::keypair());
        }),
    ));
    rows.push(row(
        algorithm,
        imp,
        "encaps",
        time_per_call(budget, || {
            std::hint::black_box(mlkem768::encapsulate(std::hint::black_box(&pk)));
        }),
    ));
    rows.push(row(
        algorithm,
        imp,
        "decaps",
        time_per_call(budget, || {
            std::hint::black_box(mlkem768::decapsulate(std::hint::black_box(&ct), &sk));
        }),
    ));
}

/// How the libcrux peer was compiled, for its label.
const LIBCRUX_LABEL: &str = if cfg!(target_feature = "avx2") {
    "libcrux-ml-kem 0.0.11 ML-KEM-768 +avx2"
} else {
    "libcrux-ml-kem 0.0.11 ML-KEM-768 default"
};

/// libcrux ML-KEM-768 rows (see the module note on how it is compiled).
fn libcrux_rows(budget: Budget, algorithm: &str, rows: &mut Vec<SpeedRow>) {
    use libcrux_ml_kem::mlkem768;
    let imp = LIBCRUX_LABEL;
    let kp = mlkem768::generate_key_pair([7u8; 64]);
    let (ct, _) = mlkem768::encapsulate(kp.public_key(), [9u8; 32]);
    rows.push(row(
        algorithm,
        imp,
        "keygen",
        time_per_call(budget, || {
            std::hint::black_box(mlkem768::generate_key_pair(std::hint::black_box([7u8; 64])));
        }),
    ));
    rows.push(row(
        algorithm,
        imp,
        "encaps",
        time_per_call(budget, || {
            std::hint::black_box(mlkem768::encapsulate(
                kp.public_key(),
                std::hint::black_box([9u8; 32]),
            ));
        }),
    ));
    rows.push(row(
        algorithm,
        imp,
        "decaps",
        time_per_call(budget, || {
            std::hint::black_box(mlkem768::decapsulate(kp.private_key(), &ct));
        }),
    ));
}

fn aigis_rows(budget: Budget, set: ParamSet, mode: HashMode, rows: &mut Vec<SpeedRow>) {
    let algorithm = format!("{}/{}", set.name().to_ascii_lowercase(), mode.name());
    pqclean_rows(budget, &algorithm, rows);
    libcrux_rows(budget, &algorithm, rows);
    for backend in aigis::backends() {
        let Ok(kem) = Aigis::with_backend(set, mode, backend) else {
            continue;
        };
        let imp = format!("vecrypt/{backend}");
        let coins = [0x42u8; 64];
        let mut pk = vec![0u8; set.public_key_bytes()];
        let mut sk = vec![0u8; set.secret_key_bytes()];
        let mut ct = vec![0u8; set.ciphertext_bytes()];
        kem.keypair_into(&coins, &mut pk, &mut sk).unwrap();
        kem.encapsulate_into(&pk, &coins[..32], &mut ct).unwrap();
        rows.push(row(
            &algorithm,
            &imp,
            "keygen",
            time_per_call(budget, || {
                kem.keypair_into(std::hint::black_box(&coins), &mut pk, &mut sk)
                    .unwrap();
            }),
        ));
        rows.push(row(
            &algorithm,
            &imp,
            "encaps",
            time_per_call(budget, || {
                std::hint::black_box(kem.encapsulate_into(&pk, &coins[..32], &mut ct).unwrap());
            }),
        ));
        rows.push(row(
            &algorithm,
            &imp,
            "decaps",
            time_per_call(budget, || {
                std::hint::black_box(kem.decapsulate(&sk, &ct).unwrap());
            }),
        ));
    }
}

/// Prints cycles and operations per second for the rows.
fn print_cycles(rows: &[SpeedRow]) {
    let Some(tpn) = cycles_per_ns() else {
        return;
    };
    println!();
    println!(
        "Aigis-enc and ML-KEM-768: TSC cycles (at {:.3} GHz) and operations per second",
        tpn
    );
    println!(
        "{:<22} {:<38} {:<8} {:>10} {:>12}",
        "algorithm", "implementation", "op", "cycles", "ops/s"
    );
    for r in rows {
        println!(
            "{:<22} {:<38} {:<8} {:>10.0} {:>12.0}",
            r.algorithm,
            r.implementation,
            r.operation,
            r.cycles_per_op.unwrap_or(r.ns_per_call * tpn),
            r.ops_per_s
        );
    }
}

/// All Aigis-enc rows: every set and hash mode, every backend, with the ML-KEM peer first.
pub fn rows(budget: Budget) -> Vec<SpeedRow> {
    let mut rows = Vec::new();
    for set in ParamSet::ALL {
        for mode in [HashMode::Shake, HashMode::Sm3] {
            aigis_rows(budget, set, mode, &mut rows);
        }
    }
    print_cycles(&rows);
    rows
}
