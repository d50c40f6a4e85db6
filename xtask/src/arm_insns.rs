//! `arm-insns`: instructions per byte (block ciphers) and per operation (Aigis-enc) of each
//! aarch64 kernel, counted under `qemu-aarch64 -cpu max`.
//!
//! The emulator translates one instruction at a time (`-singlestep`) and logs every block it
//! executes (`-d exec,nochain`), so the log's lines count the instructions the program ran.
//! The `workload` example of the library runs one operation a given number of times; two
//! runs that differ only in that number differ by exactly those operations, so start-up and
//! key set-up cancel. The counts are exact for the emulated program, not a speed: they weigh
//! every instruction alike, which an out-of-order ARM core does not.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::{target_dir, workspace_root};

const TARGET: &str = "aarch64-unknown-linux-gnu";
const SYSROOT: &str = "/usr/aarch64-linux-gnu";
/// Bytes of each block-cipher call: many batches of every kernel, and a small log.
const BYTES: usize = 4096;

/// The block-cipher rows: cipher, backends, operations.
const CIPHERS: &[(&str, &[&str])] = &[
    ("ublock-128-128", &["soft", "neon"]),
    ("ublock-128-256", &["soft", "neon"]),
    ("ublock-256-256", &["soft", "neon"]),
    ("kuznyechik", &["soft", "neon"]),
    ("aes-128", &["soft", "armv8-aes"]),
    ("aes-256", &["soft", "armv8-aes"]),
];
const CIPHER_OPS: &[&str] = &["ecb-enc", "ecb-dec", "ctr"];
const KEM_OPS: &[&str] = &["keygen", "encaps", "decaps"];

pub fn arm_insns(args: &[String]) -> Result<bool, String> {
    if !args.is_empty() {
        return Err(format!("unexpected arguments {args:?}"));
    }
    let bin = build()?;
    println!("instructions under qemu-aarch64 -cpu max (each row: the difference of two runs)");
    println!(
        "{:<18} {:<10} {:<8} {:>12}",
        "algorithm", "backend", "op", "insns/byte"
    );
    for (cipher, backends) in CIPHERS {
        for backend in backends.iter() {
            for op in CIPHER_OPS {
                let bytes = BYTES.to_string();
                let args = |reps: &str| [*cipher, backend, op, bytes.as_str(), reps].join(" ");
                let per = difference(&bin, &args("1"), &args("3"))? as f64 / (2 * BYTES) as f64;
                println!("{cipher:<18} {backend:<10} {op:<8} {per:>12.1}");
            }
        }
    }
    println!();
    println!(
        "{:<18} {:<10} {:<8} {:>12}",
        "algorithm", "backend", "op", "insns/op"
    );
    for mode in ["shake", "sm3"] {
        for backend in ["soft", "neon"] {
            for op in KEM_OPS {
                let args = |reps: &str| ["aigis-enc-2", backend, mode, op, reps].join(" ");
                let per = difference(&bin, &args("1"), &args("2"))?;
                println!(
                    "{:<18} {backend:<10} {op:<8} {per:>12}",
                    format!("aigis-enc-2 {mode}")
                );
            }
        }
    }
    Ok(true)
}

/// Builds the `workload` example for aarch64 (release) and returns its path.
fn build() -> Result<PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(workspace_root())
        .args([
            "build",
            "--release",
            "-p",
            "vecrypt",
            "--example",
            "workload",
        ])
        .args(["--target", TARGET])
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err("building the workload for aarch64 failed".into());
    }
    Ok(target_dir()
        .join(TARGET)
        .join("release")
        .join("examples")
        .join("workload"))
}

/// The instructions of the run with `more` minus those of the run with `fewer`.
fn difference(bin: &Path, fewer: &str, more: &str) -> Result<u64, String> {
    let (a, b) = (count(bin, fewer)?, count(bin, more)?);
    b.checked_sub(a)
        .ok_or_else(|| format!("`{more}` ran fewer instructions than `{fewer}`"))
}

/// The instructions one run of the workload with `args` executes.
fn count(bin: &Path, args: &str) -> Result<u64, String> {
    let mut child = Command::new("qemu-aarch64")
        .args([
            "-cpu",
            "max",
            "-L",
            SYSROOT,
            "-singlestep",
            "-d",
            "exec,nochain",
        ])
        .args(["-D", "/dev/stdout"])
        .arg(bin)
        .args(args.split(' '))
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run qemu-aarch64: {e}"))?;
    let out = child.stdout.take().ok_or("no pipe from qemu")?;
    let mut n = 0u64;
    for line in BufReader::new(out).split(b'\n') {
        let line = line.map_err(|e| format!("reading qemu's log: {e}"))?;
        if line.starts_with(b"Trace") {
            n += 1;
        }
    }
    let status = child.wait().map_err(|e| format!("qemu: {e}"))?;
    if !status.success() {
        return Err(format!("workload {args} failed under qemu ({status})"));
    }
    Ok(n)
}
