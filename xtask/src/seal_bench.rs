//! `cargo xtask seal-bench [--mib N] [--rounds N] [--dir DIR]`: times `vecrypt seal` and
//! `vecrypt open` of an N MiB file (default 256) from the page cache against
//! `openssl enc -aes-256-ctr` of the same file, round after round so that a noisy machine
//! disturbs all three alike, and prints the medians and the ratios; then the library's
//! AES-256-GCM speed on 64 KiB messages from `vecrypt speed`, times the cores, as the bound
//! the file commands could reach if files cost nothing; and the file system's own speed on
//! the same file (`dd` reading it, and copying it to a new file without and with
//! `conv=fsync`) against that bound, with seal's and open's speed against the synced copy.
//! Every command writes a new file: the output of the round before is removed first.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::{target_dir, workspace_root};

struct Options {
    mib: usize,
    rounds: usize,
    dir: PathBuf,
}

fn options(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        mib: 256,
        rounds: 5,
        dir: std::env::temp_dir(),
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--mib" => o.mib = value()?.parse().map_err(|_| "--mib needs a number")?,
            "--rounds" => o.rounds = value()?.parse().map_err(|_| "--rounds needs a number")?,
            "--dir" => o.dir = PathBuf::from(value()?),
            other => return Err(format!("unknown option {other}")),
        }
    }
    if o.mib == 0 || o.rounds == 0 {
        return Err("--mib and --rounds must be at least 1".into());
    }
    Ok(o)
}

/// Seconds the command took; fails unless it exits 0.
fn timed(cmd: &mut Command) -> Result<f64, String> {
    let start = Instant::now();
    let status = cmd
        .stdout(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run {:?}: {e}", cmd.get_program()))?;
    let t = start.elapsed().as_secs_f64();
    if !status.success() {
        return Err(format!("{cmd:?} failed: {status}"));
    }
    Ok(t)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// A file of `mib` MiB of bytes that do not repeat within a chunk.
fn make_input(path: &Path, mib: usize) -> Result<(), String> {
    let mut w = BufWriter::new(File::create(path).map_err(|e| format!("{}: {e}", path.display()))?);
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut block = vec![0u8; 1 << 20];
    for _ in 0..mib {
        for b in block.chunks_exact_mut(8) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            b.copy_from_slice(&x.to_le_bytes());
        }
        w.write_all(&block).map_err(|e| e.to_string())?;
    }
    w.flush().map_err(|e| e.to_string())
}

/// The library's best AES-256-GCM seal speed on 16 KiB messages, MB/s, from `vecrypt speed`.
fn library_gcm(vecrypt: &Path) -> Result<f64, String> {
    let out = Command::new(vecrypt)
        .args(["speed", "aes-256", "--json", "--no-peers"])
        .stderr(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run vecrypt speed: {e}"))?;
    let rows: Vec<serde_json::Value> =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("vecrypt speed --json: {e}"))?;
    rows.iter()
        .filter(|r| r["mode"] == "gcm" && r["direction"] == "seal" && r["message"] == "long")
        .filter_map(|r| r["mb_per_s"].as_f64())
        .max_by(f64::total_cmp)
        .ok_or_else(|| "vecrypt speed has no AES-256-GCM seal row".to_string())
}

pub fn seal_bench(args: &[String]) -> Result<bool, String> {
    let o = options(args)?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(workspace_root())
        .args(["build", "--release", "-p", "vecrypt-cli"])
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err("building vecrypt failed".into());
    }
    let vecrypt = target_dir().join("release").join("vecrypt");
    let dir = o
        .dir
        .join(format!("vecrypt-seal-bench-{}", std::process::id()));
    fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let result = rounds(&o, &vecrypt, &dir);
    let _ = fs::remove_dir_all(&dir);
    result
}

fn rounds(o: &Options, vecrypt: &Path, dir: &Path) -> Result<bool, String> {
    let p = |name: &str| dir.join(name);
    make_input(&p("plain"), o.mib)?;
    timed(
        Command::new(vecrypt)
            .args(["keygen", "--out"])
            .arg(p("key")),
    )?;
    let openssl = Command::new("openssl")
        .arg("version")
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string());
    let key_hex = "42".repeat(32);
    let iv_hex = "24".repeat(16);
    let (mut seal, mut open, mut ctr) = (Vec::new(), Vec::new(), Vec::new());
    // What the file system alone allows: reading the input, and copying it to a new file
    // made durable as `seal` and `open` make theirs.
    let (mut read, mut write, mut copy) = (Vec::new(), Vec::new(), Vec::new());
    // Page-cache warm-up of the input, and of every binary.
    fs::read(p("plain")).map_err(|e| e.to_string())?;
    // Every command writes a new file, as `dd` below does: the old one is removed first,
    // outside the time.
    let fresh = |name: &str| {
        let _ = fs::remove_file(p(name));
    };
    for round in 0..=o.rounds {
        fresh("sealed");
        let s = timed(
            Command::new(vecrypt)
                .args(["seal", "--key-file"])
                .arg(p("key"))
                .arg("--in")
                .arg(p("plain"))
                .arg("--out")
                .arg(p("sealed")),
        )?;
        fresh("opened");
        let op = timed(
            Command::new(vecrypt)
                .args(["open", "--key-file"])
                .arg(p("key"))
                .arg("--in")
                .arg(p("sealed"))
                .arg("--out")
                .arg(p("opened")),
        )?;
        fresh("ctr");
        let c = match openssl {
            Some(_) => Some(timed(
                Command::new("openssl")
                    .args(["enc", "-aes-256-ctr", "-K", &key_hex, "-iv", &iv_hex, "-in"])
                    .arg(p("plain"))
                    .arg("-out")
                    .arg(p("ctr")),
            )?),
            None => None,
        };
        // Seconds `dd` takes to copy the input in 1 MiB blocks to `to`, with `extra` options.
        let dd = |to: &Path, extra: &[&str]| {
            fresh("copy");
            timed(
                Command::new("dd")
                    .stderr(Stdio::null())
                    .arg("bs=1M")
                    .args(extra)
                    .arg(format!("if={}", p("plain").display()))
                    .arg(format!("of={}", to.display())),
            )
        };
        let rd = dd(Path::new("/dev/null"), &[])?;
        let wr = dd(&p("copy"), &[])?;
        let cp = dd(&p("copy"), &["conv=fsync"])?;
        if round > 0 {
            read.push(rd);
            write.push(wr);
            copy.push(cp);
            seal.push(s);
            open.push(op);
            ctr.extend(c);
        }
    }
    let same = fs::read(p("opened")).map_err(|e| e.to_string())?
        == fs::read(p("plain")).map_err(|e| e.to_string())?;
    if !same {
        return Err("open did not give the input back".into());
    }
    let mb = (o.mib << 20) as f64 / 1e6;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "{} MiB from the page cache in {}, {} rounds, {cores} cores; medians",
        o.mib,
        dir.parent().unwrap_or(dir).display(),
        o.rounds
    );
    let (s, op) = (median(seal), median(open));
    println!(
        "  vecrypt seal (aes-256-gcm)   {:>8.3} s {:>8.0} MB/s",
        s,
        mb / s
    );
    println!(
        "  vecrypt open (aes-256-gcm)   {:>8.3} s {:>8.0} MB/s",
        op,
        mb / op
    );
    match openssl {
        Some(version) => {
            let c = median(ctr);
            println!(
                "  openssl enc -aes-256-ctr     {:>8.3} s {:>8.0} MB/s  ({version})",
                c,
                mb / c
            );
            println!(
                "  seal / openssl {:.2}x, open / openssl {:.2}x (target 1.5x)",
                c / s,
                c / op
            );
        }
        None => println!("  openssl: not found, no ratio"),
    }
    let gcm = library_gcm(vecrypt)?;
    let bound = gcm * cores as f64;
    println!(
        "  library AES-256-GCM {gcm:.0} MB/s x {cores} cores = {bound:.0} MB/s: seal at {:.0}%, open at {:.0}% (target 80%)",
        100.0 * mb / s / bound,
        100.0 * mb / op / bound
    );
    let (rd, wr, cp) = (mb / median(read), mb / median(write), mb / median(copy));
    println!(
        "  against a synced copy (dd conv=fsync, {cp:.0} MB/s): seal {:.2}x, open {:.2}x (target 0.9x)",
        mb / s / cp,
        mb / op / cp
    );
    println!(
        "  the file system alone: reading the input {rd:.0} MB/s ({:.0}% of that bound), \
copying it to a new file {wr:.0} MB/s ({:.0}%), and synced {cp:.0} MB/s ({:.0}%)",
        100.0 * rd / bound,
        100.0 * wr / bound,
        100.0 * cp / bound
    );
    Ok(true)
}
