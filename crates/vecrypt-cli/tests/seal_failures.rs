//! `vecrypt open` and `vecrypt seal` failing on inputs larger than every internal batch and
//! queue: a wrong key or passphrase, a flipped byte in the first, a middle and the last chunk,
//! truncation, a reader that leaves, a full device and a full file system, each with 1, 2 and
//! 16 worker threads. Every run has a time limit, so a hang fails the test; each must end
//! with the right status, one line on stderr, and no output or temporary file left behind.

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const MIB: usize = 1024 * 1024;
/// Larger than every batch and queue of the pipeline (at most 3 batches of 64 chunks).
const BIG: usize = 40 * MIB + 12_345;
const THREADS: [&str; 3] = ["1", "2", "16"];
/// What a failing run may take at most; far above what it needs, far below a hang. Under
/// an emulator (`VECRYPT_TEST_RUNNER`, for another architecture) everything runs slower.
fn emulated() -> bool {
    std::env::var_os("VECRYPT_TEST_RUNNER").is_some()
}

/// The suites a large stream is sealed in: both natively; under an emulator, where
/// Kuznyechik-MGM runs at a few MB/s, AES-256-GCM alone (the pipeline is the same).
fn suites() -> &'static [&'static str] {
    if emulated() {
        &["aes-256-gcm"]
    } else {
        &["aes-256-gcm", "kuznyechik-mgm"]
    }
}

fn limit() -> Duration {
    if emulated() {
        Duration::from_secs(180)
    } else {
        Duration::from_secs(30)
    }
}
/// Header of a key-file stream: 12 fixed bytes, the nonce prefix and the MAC.
const HEADER: usize = 12 + 16 + 32;
const STORED: usize = 65536 + 16;

fn data(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut v = Vec::with_capacity(len + 8);
    while v.len() < len {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.extend_from_slice(&x.to_le_bytes());
    }
    v.truncate(len);
    v
}

/// Waits for `child` at most `limit`; kills it and fails the test if it is still running.
fn wait_limited(mut child: Child, limit: Duration, what: &str) -> (Output, Duration) {
    let started = Instant::now();
    let mut stderr = child.stderr.take();
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        if let Some(e) = stderr.as_mut() {
            let _ = e.read_to_end(&mut s);
        }
        s
    });
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            let elapsed = started.elapsed();
            let stderr = reader.join().unwrap_or_default();
            return (
                Output {
                    status,
                    stdout: Vec::new(),
                    stderr,
                },
                elapsed,
            );
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {limit:?} (a hang)");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

struct Dir(tempfile::TempDir);

impl Dir {
    fn new() -> Self {
        Dir(tempfile::tempdir().unwrap())
    }
    fn p(&self, name: &str) -> String {
        self.0.path().join(name).to_string_lossy().into_owned()
    }
    fn write(&self, name: &str, bytes: &[u8]) -> String {
        std::fs::write(self.0.path().join(name), bytes).unwrap();
        self.p(name)
    }
    fn secret(&self, name: &str, bytes: &[u8]) -> String {
        use std::os::unix::fs::PermissionsExt;
        let p = self.write(name, bytes);
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600)).unwrap();
        p
    }
    fn names(&self) -> Vec<String> {
        names_in(self.0.path())
    }
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn run_ok(args: &[&str]) {
    let child = common::vecrypt_command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let (out, _) = wait_limited(child, Duration::from_secs(120), "a run that should pass");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs `args` with `threads` worker threads, stdout to `stdout`; checks the status, one
/// line on stderr, the time limit; returns the stderr line.
fn fails(args: &[&str], threads: &str, stdout: Stdio, code: i32, what: &str) -> String {
    let child = common::vecrypt_command()
        .args(args)
        .env("RAYON_NUM_THREADS", threads)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let what = format!("{what} ({threads} threads)");
    let (out, took) = wait_limited(child, limit(), &what);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "{what}: {err}");
    assert_eq!(
        err.lines().count(),
        1,
        "{what}: one line on stderr, got {err:?}"
    );
    eprintln!("{what}: status {code} in {took:?}");
    err
}

/// A sealed 40 MiB stream under a key file, its key, and a second key.
struct Sealed {
    d: Dir,
    key: String,
    other: String,
    sealed: Vec<u8>,
}

fn sealed_big(suite: &str) -> Sealed {
    let d = Dir::new();
    let key = d.p("key");
    let other = d.p("other");
    run_ok(&["keygen", "--out", &key]);
    run_ok(&["keygen", "--out", &other]);
    let plain = d.write("plain", &data(BIG, 7));
    run_ok(&[
        "seal",
        "--key-file",
        &key,
        "--suite",
        suite,
        "--in",
        &plain,
        "--out",
        &d.p("sealed"),
    ]);
    let sealed = std::fs::read(d.p("sealed")).unwrap();
    std::fs::remove_file(d.p("plain")).unwrap();
    std::fs::remove_file(d.p("sealed")).unwrap();
    Sealed {
        d,
        key,
        other,
        sealed,
    }
}

/// `open` of `bytes` into a file fails with `code` and leaves nothing but the inputs.
fn open_into_file_fails(s: &Sealed, key: &str, bytes: &[u8], code: i32, what: &str) {
    let input = s.d.write("in.vcr", bytes);
    let before = s.d.names();
    for threads in THREADS {
        let out = s.d.p("out");
        fails(
            &["open", "--key-file", key, "--in", &input, "--out", &out],
            threads,
            Stdio::null(),
            code,
            what,
        );
        assert_eq!(
            s.d.names(),
            before,
            "{what}: an output or temporary file was left"
        );
    }
    std::fs::remove_file(input).unwrap();
}

#[test]
fn wrong_keys_and_damaged_chunks_of_a_large_stream_end_at_once() {
    for &suite in suites() {
        let s = sealed_big(suite);
        let n = s.sealed.len();
        let chunks = (n - HEADER).div_ceil(STORED);
        open_into_file_fails(&s, &s.other, &s.sealed, 1, "wrong key");
        for (name, chunk) in [("first", 0), ("middle", chunks / 2), ("last", chunks - 1)] {
            let mut bad = s.sealed.clone();
            let at = (HEADER + chunk * STORED + 99).min(n - 1);
            bad[at] ^= 0x20;
            open_into_file_fails(
                &s,
                &s.key,
                &bad,
                1,
                &format!("{suite}: flip in the {name} chunk"),
            );
        }
        open_into_file_fails(&s, &s.key, &s.sealed[..n - 1000], 1, "truncated in a chunk");
        open_into_file_fails(
            &s,
            &s.key,
            &s.sealed[..HEADER + 300 * STORED],
            1,
            "truncated at a chunk boundary",
        );
        let twice = [&s.sealed[..], &s.sealed[..]].concat();
        open_into_file_fails(&s, &s.key, &twice, 1, "two streams concatenated");
    }
}

#[test]
fn a_wrong_passphrase_on_a_large_stream_ends_at_once() {
    let d = Dir::new();
    let pass = d.secret("pass", b"the right one\n");
    let wrong = d.secret("wrong", b"the wrong one\n");
    let plain = d.write("plain", &data(BIG, 9));
    run_ok(&[
        "seal",
        "--passphrase-file",
        &pass,
        "--argon2",
        "1024,1,1",
        "--in",
        &plain,
        "--out",
        &d.p("sealed"),
    ]);
    std::fs::remove_file(&plain).unwrap();
    let before = d.names();
    for threads in THREADS {
        let err = fails(
            &[
                "open",
                "--passphrase-file",
                &wrong,
                "--in",
                &d.p("sealed"),
                "--out",
                &d.p("out"),
            ],
            threads,
            Stdio::null(),
            1,
            "wrong passphrase",
        );
        assert!(err.contains("wrong key, passphrase"), "{err}");
        assert_eq!(d.names(), before, "wrong passphrase: something was left");
    }
}

/// A child whose stdout is a pipe the test reads 10 bytes of and then closes.
fn reader_leaves(args: &[&str], threads: &str, what: &str) {
    let mut child = common::vecrypt_command()
        .args(args)
        .env("RAYON_NUM_THREADS", threads)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdout = child.stdout.take().unwrap();
    let mut ten = [0u8; 10];
    stdout.read_exact(&mut ten).unwrap();
    drop(stdout);
    let what = format!("{what} ({threads} threads)");
    let (out, _) = wait_limited(child, limit(), &what);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{what}: {err}");
    assert_eq!(err.lines().count(), 1, "{what}: {err:?}");
}

#[test]
fn a_reader_that_leaves_ends_seal_and_open() {
    let s = sealed_big("aes-256-gcm");
    let input = s.d.write("in.vcr", &s.sealed);
    let plain = s.d.write("plain", &data(BIG, 3));
    for threads in THREADS {
        reader_leaves(
            &["open", "--key-file", &s.key, "--in", &input],
            threads,
            "open | head",
        );
        reader_leaves(
            &["seal", "--key-file", &s.key, "--in", &plain],
            threads,
            "seal | head",
        );
    }
}

#[test]
fn a_full_device_ends_seal_and_open() {
    let s = sealed_big(suites()[suites().len() - 1]);
    let input = s.d.write("in.vcr", &s.sealed);
    let plain = s.d.write("plain", &data(BIG, 4));
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full")
    };
    for threads in THREADS {
        fails(
            &["open", "--key-file", &s.key, "--in", &input],
            threads,
            full().into(),
            2,
            "open > /dev/full",
        );
        fails(
            &["seal", "--key-file", &s.key, "--in", &plain],
            threads,
            full().into(),
            2,
            "seal > /dev/full",
        );
    }
}

/// A small file system: a tmpfs of `mib` MiB mounted for the test (as root directly,
/// otherwise in a user and mount namespace of its own).
struct SmallFs {
    dir: tempfile::TempDir,
    root: bool,
}

impl SmallFs {
    fn path(&self) -> PathBuf {
        self.dir.path().join("fs")
    }

    /// The command `args` of the `vecrypt` binary, run where the file system is mounted.
    fn command(&self, mib: usize, args: &[&str]) -> Command {
        let mount = format!(
            "mount -t tmpfs -o size={mib}m vecrypt-test \"$1\" && shift && \"$@\"; s=$?; \
             ls -A \"$0\" > \"$0.left\"; exit $s"
        );
        let mut c = if self.root {
            let mut c = Command::new("unshare");
            c.args(["-m", "--propagation", "private", "sh", "-c"]);
            c
        } else {
            let mut c = Command::new("unshare");
            c.args(["-r", "-m", "sh", "-c"]);
            c
        };
        let fs = self.path();
        let fs = fs.to_string_lossy();
        c.arg(&mount)
            .arg(&*fs)
            .arg(&*fs)
            .args(common::vecrypt_words())
            .args(args);
        c
    }
}

fn small_fs() -> SmallFs {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("fs")).unwrap();
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0");
    SmallFs { dir, root }
}

#[test]
fn a_full_file_system_ends_seal_and_open_and_leaves_nothing() {
    let s = sealed_big("aes-256-gcm");
    let input = s.d.write("in.vcr", &s.sealed);
    let plain = s.d.write("plain", &data(BIG, 5));
    let fs = small_fs();
    let out = fs.path().join("out").to_string_lossy().into_owned();
    for threads in THREADS {
        for (what, args) in [
            (
                "open into a full file system",
                ["open", "--key-file", &s.key, "--in", &input, "--out", &out],
            ),
            (
                "seal into a full file system",
                ["seal", "--key-file", &s.key, "--in", &plain, "--out", &out],
            ),
        ] {
            let mut c = fs.command(8, &args);
            c.env("RAYON_NUM_THREADS", threads)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped());
            let child = c.spawn().expect("unshare runs");
            let (o, _) = wait_limited(child, limit(), what);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(
                o.status.code(),
                Some(2),
                "{what} ({threads} threads): {err}"
            );
            assert_eq!(err.lines().count(), 1, "{what}: {err:?}");
            assert!(
                err.contains("No space left") || err.contains("space"),
                "{what}: the file system did not fill: {err}"
            );
            let left = std::fs::read_to_string(format!("{}.left", fs.path().display())).unwrap();
            assert_eq!(left.trim(), "", "{what}: left in the file system: {left}");
        }
    }
}

#[test]
fn every_failure_above_passes_quickly_on_a_small_stream_too() {
    // The same checks on one chunk, where nothing overlaps: the early exits of a stream that
    // fits one batch.
    let d = Dir::new();
    let key = d.p("key");
    run_ok(&["keygen", "--out", &key]);
    let plain = d.write("plain", &data(1000, 1));
    run_ok(&[
        "seal",
        "--key-file",
        &key,
        "--in",
        &plain,
        "--out",
        &d.p("s"),
    ]);
    let mut sealed = std::fs::read(d.p("s")).unwrap();
    let n = sealed.len();
    sealed[n - 1] ^= 1;
    let bad = d.write("bad", &sealed);
    let before = d.names();
    fails(
        &["open", "--key-file", &key, "--in", &bad, "--out", &d.p("o")],
        "2",
        Stdio::null(),
        1,
        "one flipped tag bit",
    );
    assert_eq!(d.names(), before);
}
