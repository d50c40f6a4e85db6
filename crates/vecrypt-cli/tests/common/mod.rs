//! What every CLI test file shares: the command under test.

use std::process::Command;

/// The `vecrypt` binary of this build. When `VECRYPT_TEST_RUNNER` is set (for example to
/// `qemu-aarch64 -cpu max -L /usr/aarch64-linux-gnu` for the tests of another
/// architecture), the binary runs under that command, split at whitespace.
pub fn vecrypt_command() -> Command {
    let words = vecrypt_words();
    let mut c = Command::new(&words[0]);
    c.args(&words[1..]);
    c
}

/// The words that start the binary: the runner's, if any, then the binary's path; for
/// tests that start it through another program (`script`, `setsid`, `unshare`).
#[allow(dead_code)]
pub fn vecrypt_words() -> Vec<String> {
    let runner = std::env::var("VECRYPT_TEST_RUNNER").unwrap_or_default();
    runner
        .split_whitespace()
        .map(str::to_string)
        .chain(std::iter::once(env!("CARGO_BIN_EXE_vecrypt").to_string()))
        .collect()
}

/// How long one run of the binary may take before a test fails instead of hanging.
#[allow(dead_code)]
pub const TIME_LIMIT: std::time::Duration = std::time::Duration::from_secs(60);

/// Waits for `child` at most `limit`: feeds it `input` (when its standard input is piped),
/// collects what it writes to the pipes it was given, and kills it and panics with "timed
/// out" when the time is up.
#[allow(dead_code)]
pub fn finish_within(
    mut child: std::process::Child,
    input: Option<Vec<u8>>,
    limit: std::time::Duration,
) -> std::process::Output {
    use std::io::{Read, Write};
    let start = std::time::Instant::now();
    let feeder = child.stdin.take().map(|mut stdin| {
        std::thread::spawn(move || {
            if let Some(data) = input {
                let _ = stdin.write_all(&data);
            }
        })
    });
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for the binary") {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("timed out after {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    if let Some(f) = feeder {
        let _ = f.join();
    }
    std::process::Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// Runs `cmd` with `input` on its standard input (none: empty) and its output collected,
/// under [`TIME_LIMIT`].
#[allow(dead_code)]
pub fn run_within(cmd: &mut Command, input: Option<&[u8]>) -> std::process::Output {
    use std::process::Stdio;
    let child = cmd
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    finish_within(child, input.map(<[u8]>::to_vec), TIME_LIMIT)
}

/// Runs the binary with `args` (no standard input) under [`TIME_LIMIT`].
#[allow(dead_code)]
pub fn vecrypt(args: &[&str]) -> std::process::Output {
    run_within(vecrypt_command().args(args), None)
}

/// [`vecrypt`], which must succeed.
#[allow(dead_code)]
pub fn ok(args: &[&str]) -> std::process::Output {
    let out = vecrypt(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}
