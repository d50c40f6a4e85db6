//! Runs every operation of vecrypt with its secrets (keys, KEM secret keys and coins, secret
//! plaintexts) marked undefined for valgrind's memcheck, on every backend the CPU that
//! valgrind presents can run. Memcheck then reports any branch or memory address computed
//! from a secret. Only what is public by design is marked defined again: ciphertexts, tags,
//! public keys, and (at the end of a case, to check it round-trips) its own results.
//!
//! `vecrypt-ctcheck run <family>` runs one family (`ublock`, `kuznyechik`, `aes`, `aigis`)
//! and prints one `result` line per algorithm and backend with the number of reports it
//! caused; `vecrypt-ctcheck canary` runs a deliberately secret-indexed lookup, which must be
//! reported; `vecrypt-ctcheck list` prints the backends this CPU runs, per algorithm.
//! `cargo xtask ct-check` runs them all under valgrind.

#![deny(unsafe_code)]

mod cases;
mod memcheck;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86;

use std::process::ExitCode;

/// The algorithm families, in the order they run.
const FAMILIES: [&str; 4] = ["ublock", "kuznyechik", "aes", "aigis"];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["list"] => {
            let features: Vec<&str> = vecrypt::cpu::features().names().collect();
            println!("features\t{}", features.join(","));
            for (algorithm, backends) in cases::backends() {
                let names: Vec<&str> = backends.iter().map(|b| b.name()).collect();
                println!("backends\t{algorithm}\t{}", names.join(","));
            }
            ExitCode::SUCCESS
        }
        ["canary"] => canary(),
        ["run", family] if FAMILIES.contains(family) => run(family),
        _ => {
            eprintln!(
                "usage: vecrypt-ctcheck list | canary | run {}",
                FAMILIES.join("|")
            );
            ExitCode::from(2)
        }
    }
}

/// Refuses to run natively, where marking secrets does nothing and every run would pass.
fn require_valgrind() -> Result<(), ExitCode> {
    if memcheck::running_on_valgrind() {
        Ok(())
    } else {
        eprintln!("vecrypt-ctcheck: run this under valgrind --tool=memcheck");
        Err(ExitCode::from(2))
    }
}

fn run(family: &str) -> ExitCode {
    if let Err(code) = require_valgrind() {
        return code;
    }
    let features: Vec<&str> = vecrypt::cpu::features().names().collect();
    println!("features\t{}", features.join(","));
    let mut failed = false;
    for case in cases::of_family(family) {
        let before = memcheck::error_count();
        let outcome = (case.run)(case.backend);
        let reports = memcheck::error_count() - before;
        let status = match (&outcome, reports) {
            (Ok(()), 0) => "clean".to_string(),
            (Ok(()), n) => format!("{n} reports"),
            (Err(e), n) => format!("wrong result ({e}), {n} reports"),
        };
        failed |= outcome.is_err() || reports > 0;
        println!(
            "result\t{}\t{}\t{}\t{status}",
            case.algorithm, case.backend, case.operations
        );
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// A table lookup at a secret index: the pattern of the table-driven ciphers that vecrypt
/// keeps out of its defaults. Memcheck must report it, or the check proves nothing.
fn canary() -> ExitCode {
    if let Err(code) = require_valgrind() {
        return code;
    }
    static TABLE: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut i = 0;
        while i < 256 {
            t[i] = (i as u8).wrapping_mul(167).rotate_left(3) ^ 0x5a;
            i += 1;
        }
        t
    };
    let mut secret = [0x3cu8];
    memcheck::secret(&mut secret);
    let before = memcheck::error_count();
    let index = std::hint::black_box(secret[0]);
    std::hint::black_box(TABLE[usize::from(index)]);
    let lookup = memcheck::error_count() - before;
    println!("canary: {}", flagged(lookup));

    // The same through the library: its table-driven Kuznyechik, never a default, indexes
    // tables with key and data bytes.
    let table = cases::table_leaky_reports();
    println!("table-leaky kuznyechik: {}", flagged(table));
    // And its T-table AES, likewise never a default.
    let table_aes = cases::table_leaky_aes_reports();
    println!("table-leaky aes-128: {}", flagged(table_aes));
    if lookup > 0 && table > 0 && table_aes > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn flagged(reports: usize) -> &'static str {
    if reports > 0 {
        "flagged"
    } else {
        "NOT flagged"
    }
}
