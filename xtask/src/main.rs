//! The project's development commands, run as `cargo xtask <command>`.
//!
//! `ct-check [family...]`: builds `vecrypt-ctcheck` and runs it under valgrind's memcheck,
//! first the canaries (a secret-indexed lookup, and the library's table-driven Kuznyechik,
//! which must both be reported), then each algorithm family (`ublock`, `kuznyechik`, `aes`,
//! `aigis`; all when none is named). Prints which backend ran for each algorithm and its
//! result, and fails on any memcheck report.
//!
//! `dudect [--seconds N | --measurements N] [filter...]`: builds the `dudect` program of
//! `vecrypt-ctcheck` and runs its statistical timing test on the kernels valgrind cannot run
//! (AVX-512, VAES, GFNI), each target for N seconds (default 5) or N measurements, those whose
//! name contains a filter when any is given. Prints the largest |t| each target reached and
//! fails if one exceeds 10 or the canary (an early-exit comparison) stays below it; a |t|
//! above 4.5, dudect's usual mark of a likely leak, is reported as a warning.
//!
//! `fuzz [--seconds N] [target...]`: builds the cargo-fuzz targets of `fuzz/` with the nightly
//! toolchain, runs each (all when none is named) for N seconds (default 60) on its corpus in
//! `fuzz/corpus/<target>`, minimizes the corpus, and fails on any crash, leaving the input
//! that caused it in `fuzz/artifacts/<target>`.
//!
//! `seal-bench [--mib N] [--rounds N] [--dir DIR]`: `vecrypt seal` and `open` of a large file
//! against `openssl enc -aes-256-ctr`, and against the library's GCM speed times the cores
//! (see [`seal_bench`]).
//!
//! `arm-insns`: instructions per byte and per operation of every aarch64 kernel, counted
//! under `qemu-aarch64` (see [`arm_insns`]).
//!
//! `bench-openssl4 [vecrypt-bench arguments]`: `vecrypt-bench`, the comparison program of
//! `vecrypt-speed`, with OpenSSL 4, built from source, as its OpenSSL peer (see
//! [`openssl4`]).

#![forbid(unsafe_code)]

mod arm_insns;
mod openssl4;
mod seal_bench;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Output, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const FAMILIES: [&str; 4] = ["aigis", "kuznyechik", "ublock", "aes"];
/// The exit status valgrind gives when memcheck reported anything.
const REPORTED: i32 = 99;
/// How many valgrind processes run at once.
const PARALLEL: usize = 2;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("ct-check") => match ct_check(&args[1..]) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::FAILURE,
            Err(e) => {
                eprintln!("xtask ct-check: {e}");
                ExitCode::from(2)
            }
        },
        Some("dudect") => match dudect(&args[1..]) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::FAILURE,
            Err(e) => {
                eprintln!("xtask dudect: {e}");
                ExitCode::from(2)
            }
        },
        Some("seal-bench") => match seal_bench::seal_bench(&args[1..]) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::FAILURE,
            Err(e) => {
                eprintln!("xtask seal-bench: {e}");
                ExitCode::from(2)
            }
        },
        Some("arm-insns") => match arm_insns::arm_insns(&args[1..]) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::FAILURE,
            Err(e) => {
                eprintln!("xtask arm-insns: {e}");
                ExitCode::from(2)
            }
        },
        Some("bench-openssl4") => match openssl4::bench_openssl4(&args[1..]) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::FAILURE,
            Err(e) => {
                eprintln!("xtask bench-openssl4: {e}");
                ExitCode::from(2)
            }
        },
        Some("fuzz") => match fuzz(&args[1..]) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::FAILURE,
            Err(e) => {
                eprintln!("xtask fuzz: {e}");
                ExitCode::from(2)
            }
        },
        _ => {
            eprintln!("usage: cargo xtask ct-check [ublock|kuznyechik|aes|aigis]...");
            eprintln!("       cargo xtask fuzz [--seconds N] [target...]");
            eprintln!("       cargo xtask dudect [--seconds N | --measurements N] [filter...]");
            eprintln!("       cargo xtask seal-bench [--mib N] [--rounds N] [--dir DIR]");
            eprintln!("       cargo xtask arm-insns");
            eprintln!("       cargo xtask bench-openssl4 [vecrypt-bench arguments]");
            ExitCode::from(2)
        }
    }
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

fn run(cmd: &mut Command) -> Result<Output, String> {
    cmd.output()
        .map_err(|e| format!("cannot run {:?}: {e}", cmd.get_program()))
}

/// Builds the checker with the `ct-check` profile and returns the path of its binary.
fn build() -> Result<PathBuf, String> {
    build_bin("vecrypt-ctcheck")
}

/// Builds the binary `bin` of `vecrypt-ctcheck` with the `ct-check` profile and returns its
/// path.
fn build_bin(bin: &str) -> Result<PathBuf, String> {
    let root = workspace_root();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(&root)
        .args(["build", "--profile", "ct-check", "-p", "vecrypt-ctcheck"])
        .args(["--bin", bin])
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("building {bin} failed"));
    }
    Ok(target_dir().join("ct-check").join(bin))
}

/// Cargo's target directory.
fn target_dir() -> PathBuf {
    let root = workspace_root();
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|t| if t.is_absolute() { t } else { root.join(t) })
        .unwrap_or_else(|| root.join("target"))
}

fn memcheck(bin: &Path, args: &[&str]) -> Result<Output, String> {
    let suppressions = workspace_root().join("crates/vecrypt-ctcheck/declassified.supp");
    run(Command::new("valgrind")
        .arg("--tool=memcheck")
        .arg(format!("--error-exitcode={REPORTED}"))
        .arg("--leak-check=no")
        .arg("--track-origins=yes")
        .arg(format!("--suppressions={}", suppressions.display()))
        .arg(bin)
        .args(args))
}

/// One finished valgrind run of a family.
struct FamilyRun {
    family: &'static str,
    output: Output,
    time: Duration,
}

fn ct_check(args: &[String]) -> Result<bool, String> {
    let families: Vec<&'static str> = if args.is_empty() {
        FAMILIES.to_vec()
    } else {
        args.iter()
            .map(|a| {
                FAMILIES
                    .iter()
                    .copied()
                    .find(|f| f == a)
                    .ok_or_else(|| format!("unknown family {a}"))
            })
            .collect::<Result<_, _>>()?
    };
    let version = run(Command::new("valgrind").arg("--version"))
        .map_err(|e| format!("{e} (.ci/setup installs valgrind)"))?;
    let start = Instant::now();
    let bin = build()?;
    println!(
        "ct-check: {} memcheck, {}",
        String::from_utf8_lossy(&version.stdout).trim(),
        bin.display()
    );

    // What this CPU runs natively, to show what valgrind leaves out.
    let native = run(Command::new(&bin).arg("list"))?;
    let mut native_backends: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut native_features = Vec::new();
    for line in String::from_utf8_lossy(&native.stdout).lines() {
        match line.split('\t').collect::<Vec<_>>()[..] {
            ["backends", algorithm, list] => {
                native_backends.insert(
                    algorithm.to_string(),
                    list.split(',').map(str::to_string).collect(),
                );
            }
            ["features", list] => {
                native_features = list.split(',').map(str::to_string).collect();
            }
            _ => {}
        }
    }

    let mut ok = true;
    let canary = memcheck(&bin, &["canary"])?;
    let said = String::from_utf8_lossy(&canary.stdout);
    let flagged = said.contains("canary: flagged")
        && said.contains("table-leaky kuznyechik: flagged")
        && said.contains("table-leaky aes-128: flagged")
        && canary.status.code() == Some(REPORTED);
    print!("{said}");
    if !flagged {
        println!("canary: memcheck did not report a secret-indexed lookup; the check is void");
        eprint!("{}", String::from_utf8_lossy(&canary.stderr));
        ok = false;
    }

    let queue = Mutex::new(families.clone());
    let done = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..PARALLEL {
            s.spawn(|| {
                loop {
                    let Some(family) = queue.lock().unwrap().pop() else {
                        break;
                    };
                    let t = Instant::now();
                    let output = memcheck(&bin, &["run", family]);
                    done.lock().unwrap().push((family, output, t.elapsed()));
                }
            });
        }
    });
    let mut runs = Vec::new();
    for (family, output, time) in done.into_inner().unwrap() {
        runs.push(FamilyRun {
            family,
            output: output?,
            time,
        });
    }
    runs.sort_by_key(|r| families.iter().position(|f| *f == r.family));

    let mut valgrind_features: Option<String> = None;
    println!();
    println!("{:<26} {:<8} result", "algorithm", "backend");
    let mut under_valgrind: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for r in &runs {
        let stdout = String::from_utf8_lossy(&r.output.stdout);
        let mut lines = 0;
        for line in stdout.lines() {
            match line.split('\t').collect::<Vec<_>>()[..] {
                ["features", list] => valgrind_features = Some(list.to_string()),
                ["result", algorithm, backend, operations, status] => {
                    lines += 1;
                    println!("{algorithm:<26} {backend:<8} {status}   [{operations}]");
                    ok &= status == "clean";
                    let base = algorithm.split(' ').next().unwrap_or(algorithm);
                    let base = if base.starts_with("aigis-enc") {
                        "aigis-enc"
                    } else {
                        base
                    };
                    under_valgrind
                        .entry(base.to_string())
                        .or_default()
                        .push(backend.to_string());
                }
                _ => {}
            }
        }
        let status = r.output.status.code();
        println!(
            "{}: {} cases in {:.0?}, valgrind exit status {}",
            r.family,
            lines,
            r.time,
            status.map_or("none".into(), |c| c.to_string())
        );
        if status != Some(0) || lines == 0 {
            ok = false;
            eprintln!("--- valgrind output for {} ---", r.family);
            eprint!("{}", String::from_utf8_lossy(&r.output.stderr));
        }
    }

    println!();
    if let Some(seen) = &valgrind_features {
        let seen: Vec<&str> = seen.split(',').collect();
        let hidden: Vec<&str> = native_features
            .iter()
            .map(String::as_str)
            .filter(|f| !seen.contains(f))
            .collect();
        println!("CPU features under valgrind: {}", seen.join(","));
        if !hidden.is_empty() {
            println!(
                "not run: every path that needs {} (this CPU has them, valgrind does not)",
                hidden.join(", ")
            );
        }
    }
    for (algorithm, backends) in &native_backends {
        let ran = under_valgrind.get(algorithm);
        if ran.is_none() && !runs.is_empty() {
            let family_ran = runs
                .iter()
                .any(|r| algorithm.starts_with(family_prefix(r.family)));
            if family_ran {
                println!("{algorithm}: nothing ran");
                ok = false;
            }
            continue;
        }
        let skipped: Vec<&str> = backends
            .iter()
            .filter(|b| !ran.is_some_and(|r| r.contains(b)))
            .map(String::as_str)
            .collect();
        if !skipped.is_empty() {
            println!(
                "{algorithm}: not run (valgrind cannot execute it): {}",
                skipped.join(", ")
            );
        }
    }
    println!(
        "ct-check: {} in {:.0?}",
        if ok { "passed" } else { "FAILED" },
        start.elapsed()
    );
    Ok(ok)
}

/// The prefix of the algorithm names of a family.
fn family_prefix(family: &str) -> &str {
    match family {
        "aigis" => "aigis-enc",
        other => other,
    }
}

/// |t| above which a target fails: far beyond chance after millions of measurements, while
/// dudect's 4.5 can be crossed by a noisy machine without a leak.
const DUDECT_FAIL: f64 = 10.0;
/// |t| above which a target is reported as a likely leak (dudect's threshold).
const DUDECT_WARN: f64 = 4.5;

fn dudect(args: &[String]) -> Result<bool, String> {
    let start = Instant::now();
    let bin = build_bin("dudect")?;
    let mut child = Command::new(&bin)
        .arg("run")
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    let stdout = child.stdout.take().expect("piped");
    println!(
        "dudect: fail above |t| = {DUDECT_FAIL}, warn above {DUDECT_WARN} (each target: fixed against random secrets)"
    );
    println!(
        "{:>7} {:>12}  {:<7} target",
        "|t|", "measurements", "verdict"
    );
    let (mut ok, mut targets, mut canary) = (true, 0, None);
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| format!("reading dudect's output: {e}"))?;
        let ["result", name, measurements, t, test] = line.split('\t').collect::<Vec<_>>()[..]
        else {
            println!("{line}");
            continue;
        };
        let t: f64 = t.parse().map_err(|_| format!("bad line: {line}"))?;
        let verdict = if name.starts_with("canary") {
            canary = Some(t > DUDECT_FAIL);
            if t > DUDECT_FAIL { "flagged" } else { "MISSED" }
        } else {
            targets += 1;
            if t > DUDECT_FAIL {
                ok = false;
                "FAIL"
            } else if t > DUDECT_WARN {
                "warning"
            } else {
                "ok"
            }
        };
        println!("{t:>7.2} {measurements:>12}  {verdict:<7} {name}   [{test}]");
    }
    let status = child
        .wait()
        .map_err(|e| format!("waiting for dudect: {e}"))?;
    if !status.success() {
        return Err(format!("dudect exited with {status}"));
    }
    if canary == Some(false) {
        println!("canary: the early-exit comparison was not detected; the measurement is void");
        ok = false;
    }
    println!(
        "dudect: {} ({targets} targets) in {:.0?}",
        if ok { "passed" } else { "FAILED" },
        start.elapsed()
    );
    Ok(ok)
}

/// The longest input the fuzzer makes; the checks stretch messages from the input, so long
/// inputs only slow the search.
const FUZZ_MAX_LEN: u32 = 512;

/// `cargo +nightly fuzz <args>` in `fuzz/`, free of the stable toolchain's variables.
fn cargo_fuzz(args: &[&str]) -> Command {
    let mut cmd = Command::new("cargo");
    cmd.current_dir(workspace_root().join("fuzz"))
        .arg("+nightly")
        .arg("fuzz")
        .args(args);
    for var in ["RUSTUP_TOOLCHAIN", "RUSTC", "RUSTDOC", "CARGO", "RUSTFLAGS"] {
        cmd.env_remove(var);
    }
    cmd
}

/// The number and total size of the files in `dir`.
fn corpus_size(dir: &Path) -> (usize, u64) {
    std::fs::read_dir(dir).map_or((0, 0), |entries| {
        entries
            .filter_map(|e| e.ok()?.metadata().ok())
            .fold((0, 0), |(n, size), m| (n + 1, size + m.len()))
    })
}

fn fuzz(args: &[String]) -> Result<bool, String> {
    let start = Instant::now();
    let mut seconds = 60u64;
    let mut named = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg == "--seconds" {
            seconds = args
                .next()
                .and_then(|s| s.parse().ok())
                .ok_or("--seconds needs a whole number")?;
        } else {
            named.push(arg.clone());
        }
    }
    let status = cargo_fuzz(&["build"])
        .status()
        .map_err(|e| format!("cannot run cargo +nightly fuzz: {e} (rustup toolchain install nightly; cargo install cargo-fuzz)"))?;
    if !status.success() {
        return Err("building the fuzz targets failed".into());
    }
    let list = run(&mut cargo_fuzz(&["list"]))?;
    let all: Vec<String> = String::from_utf8_lossy(&list.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    for name in &named {
        if !all.contains(name) {
            return Err(format!(
                "unknown target {name} (targets: {})",
                all.join(", ")
            ));
        }
    }
    let targets = if named.is_empty() { all } else { named };

    let mut ok = true;
    println!(
        "{:<16} {:>10} {:>8} {:>10}  result",
        "target", "runs", "corpus", "bytes"
    );
    for target in &targets {
        let corpus = workspace_root().join("fuzz/corpus").join(target);
        std::fs::create_dir_all(&corpus).map_err(|e| format!("{}: {e}", corpus.display()))?;
        let output = run(cargo_fuzz(&["run", target, "--"])
            .arg(format!("-max_total_time={seconds}"))
            .arg(format!("-max_len={FUZZ_MAX_LEN}"))
            .arg("-print_final_stats=1"))?;
        let log = String::from_utf8_lossy(&output.stderr);
        let runs = log
            .lines()
            .find_map(|l| l.strip_prefix("stat::number_of_executed_units:"))
            .map_or("?".to_string(), |n| n.trim().to_string());
        let crashed = !output.status.success();
        if !crashed {
            // Keeps only the inputs that add coverage.
            let min =
                run(cargo_fuzz(&["cmin", target, "--"]).arg(format!("-max_len={FUZZ_MAX_LEN}")))?;
            if !min.status.success() {
                eprint!("{}", String::from_utf8_lossy(&min.stderr));
                return Err(format!("minimizing the corpus of {target} failed"));
            }
        }
        let (files, bytes) = corpus_size(&corpus);
        println!(
            "{target:<16} {runs:>10} {files:>8} {bytes:>10}  {}",
            if crashed { "CRASH" } else { "clean" }
        );
        if crashed {
            ok = false;
            let tail: Vec<&str> = log.lines().rev().take(60).collect();
            for line in tail.into_iter().rev() {
                eprintln!("{line}");
            }
        }
    }
    println!(
        "fuzz: {} ({} targets, {seconds} s each) in {:.0?}",
        if ok { "passed" } else { "FAILED" },
        targets.len(),
        start.elapsed()
    );
    Ok(ok)
}
