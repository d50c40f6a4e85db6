//! Where the commands write: only to a new file of their own, to this process's standard
//! output, or to the null device; never into another user's file, FIFO or device. Every run
//! has a time limit, so a command that wrongly opens a FIFO fails instead of hanging.

mod common;

use common::{ok, vecrypt};

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const K128: &str = "0123456789abcdeffedcba9876543210";
const K256: &str = "0123456789abcdeffedcba9876543210000102030405060708090a0b0c0d0e0f";

/// Exit status `code`, one line on stderr mentioning `needle`, nothing on stdout.
fn fails_with(code: i32, out: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "stderr: {err}");
    assert!(out.stdout.is_empty(), "nothing on stdout");
    assert_eq!(err.lines().count(), 1, "one line on stderr, got: {err}");
    assert!(err.contains(needle), "{err:?} should mention {needle:?}");
}

fn refused(args: &[&str], needle: &str) {
    fails_with(2, &vecrypt(args), needle);
}

struct Dir(tempfile::TempDir);

impl Dir {
    fn new() -> Self {
        Dir(tempfile::tempdir().unwrap())
    }
    fn in_(base: &str) -> Self {
        Dir(tempfile::tempdir_in(base).unwrap())
    }
    fn p(&self, name: &str) -> String {
        self.path(name).to_string_lossy().into_owned()
    }
    fn path(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }
    fn write(&self, name: &str, data: &[u8]) -> String {
        std::fs::write(self.path(name), data).unwrap();
        self.p(name)
    }
    fn read(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.path(name)).unwrap()
    }
    fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(self.0.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }
}

fn mode(path: impl AsRef<Path>) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

fn keygen(d: &Dir, name: &str) -> String {
    ok(&["keygen", "--out", &d.p(name)]);
    d.p(name)
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success(), "mkfifo {}", path.display());
}

/// A reader on a FIFO that never blocks, so that a command wrongly writing into the FIFO
/// finishes instead of waiting for one.
fn fifo_reader(path: &Path) -> File {
    OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .unwrap()
}

fn assert_nothing_in(reader: &mut File, what: &str) {
    let mut buf = [0u8; 4096];
    match reader.read(&mut buf) {
        Ok(0) => {}
        Err(e) if e.kind() == ErrorKind::WouldBlock => {}
        Ok(n) => panic!("{what}: {n} bytes went into the FIFO"),
        Err(e) => panic!("{what}: {e}"),
    }
}

fn seal_file(d: &Dir, key: &str, plain: &[u8], name: &str) -> String {
    let input = d.write(&format!("{name}.plain"), plain);
    ok(&[
        "seal",
        "--key-file",
        key,
        "--in",
        &input,
        "--out",
        &d.p(name),
    ]);
    d.p(name)
}

fn data(len: usize) -> Vec<u8> {
    (0..len as u32).map(|i| (i * 7 + i / 251) as u8).collect()
}

#[test]
fn a_fifo_at_out_gets_nothing_and_is_refused() {
    let d = Dir::new();
    let key = keygen(&d, "k");
    let sealed = seal_file(&d, &key, b"the plaintext", "sealed");
    let fifo = d.path("fifo");
    mkfifo(&fifo);
    std::os::unix::fs::symlink(&fifo, d.path("link")).unwrap();
    let pk = d.p("pk");
    for target in [d.p("fifo"), d.p("link")] {
        for force in [&[][..], &["--force"][..]] {
            let runs: [&[&str]; 3] = [
                &[
                    "open",
                    "--key-file",
                    &key,
                    "--in",
                    &sealed,
                    "--out",
                    &target,
                ],
                &["keygen", "--out", &target],
                &["kem", "aigis-enc-2", "keygen", "--pk", &pk, "--sk", &target],
            ];
            for run in runs {
                let run = [run, force].concat();
                let mut reader = fifo_reader(&fifo);
                refused(&run, "FIFO");
                assert_nothing_in(&mut reader, &format!("{run:?}"));
                assert!(
                    !Path::new(&pk).exists(),
                    "no public key without its secret key"
                );
            }
        }
    }
    let meta = std::fs::symlink_metadata(&fifo).unwrap();
    assert!(meta.file_type().is_fifo(), "the FIFO is left as it was");
    let meta = std::fs::symlink_metadata(d.path("link")).unwrap();
    assert!(meta.file_type().is_symlink(), "the link is left as it was");
}

#[test]
fn a_fifo_at_out_does_not_block_the_command() {
    // No reader at all: a command that opened the FIFO for writing would wait forever.
    let d = Dir::new();
    let fifo = d.path("fifo");
    mkfifo(&fifo);
    let start = Instant::now();
    refused(&["keygen", "--out", &d.p("fifo")], "FIFO");
    assert!(start.elapsed() < Duration::from_secs(30));
}

/// `/dev/shm/...` and `/dev/../tmp/...` are ordinary files, whatever their path says.
#[test]
fn paths_under_dev_that_are_regular_files_are_treated_as_such() {
    let shm = Dir::in_("/dev/shm");
    let tmp = Dir::new();
    let via_dev = format!("/dev/..{}", tmp.0.path().display());
    let key_dir = Dir::new();
    let key = keygen(&key_dir, "k");
    let plain = b"short".to_vec();
    let sealed = seal_file(&key_dir, &key, &plain, "sealed");
    let old = vec![b'x'; 500];
    for (base, d) in [(shm.0.path().display().to_string(), &shm), (via_dev, &tmp)] {
        let f = format!("{base}/f");
        d.write("f", &old);
        std::fs::set_permissions(d.path("f"), std::fs::Permissions::from_mode(0o644)).unwrap();
        // Not replaced without --force.
        refused(&["keygen", "--out", &f], "exists (use --force");
        refused(
            &["open", "--key-file", &key, "--in", &sealed, "--out", &f],
            "exists (use --force",
        );
        assert_eq!(d.read("f"), old);
        // Replaced whole, as a secret, with it.
        ok(&["keygen", "--out", &f, "--force"]);
        let written = d.read("f");
        assert!(
            written.len() < old.len() && !written.contains(&b'x'),
            "{base}"
        );
        assert_eq!(mode(d.path("f")), 0o600, "{base}");
        d.write("f", &old);
        std::fs::set_permissions(d.path("f"), std::fs::Permissions::from_mode(0o644)).unwrap();
        let args = ["open", "--key-file", &key, "--in", &sealed, "--out", &f];
        ok(&[&args[..], &["--force"]].concat());
        assert_eq!(d.read("f"), plain, "{base}: no old tail");
        assert_eq!(mode(d.path("f")), 0o600, "{base}");
        // New files too.
        ok(&["keygen", "--out", &format!("{base}/new")]);
        assert_eq!(mode(d.path("new")), 0o600);
        assert_eq!(d.names(), ["f", "new"], "{base}: no temporary left");
    }
}

#[test]
fn the_null_device_is_a_sink_and_other_devices_are_refused() {
    let d = Dir::new();
    let key = keygen(&d, "k");
    let input = d.write("plain", b"x");
    std::os::unix::fs::symlink("/dev/null", d.path("to-null")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", d.path("to-zero")).unwrap();
    for null in ["/dev/null", &d.p("to-null")] {
        let out = ok(&["seal", "--key-file", &key, "--in", &input, "--out", null]);
        assert!(out.stdout.is_empty());
        ok(&["keygen", "--out", null]);
    }
    for device in ["/dev/zero", &d.p("to-zero")] {
        refused(
            &["seal", "--key-file", &key, "--in", &input, "--out", device],
            "character device",
        );
        refused(&["keygen", "--out", device, "--force"], "character device");
    }
    let meta = std::fs::metadata("/dev/null").unwrap();
    assert!(meta.file_type().is_char_device(), "/dev/null is left alone");
}

/// Runs `args` with standard output going to the file `stdout`.
fn to_file(args: &[&str], stdout: &Path) -> Output {
    let child = common::vecrypt_command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(File::create(stdout).unwrap())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    common::finish_within(child, None, common::TIME_LIMIT)
}

#[test]
fn dev_stdout_redirected_to_a_file_writes_into_that_file() {
    let d = Dir::new();
    let key = keygen(&d, "k");
    let plain = data(100_000);
    let input = d.write("plain", &plain);
    let sealed = seal_file(&d, &key, &plain, "sealed");
    let out = d.path("out");
    std::fs::write(&out, b"").unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o644)).unwrap();
    let inode = std::fs::metadata(&out).unwrap().ino();
    for name in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] {
        for force in [&[][..], &["--force"][..]] {
            let cipher = [
                "cipher",
                "ublock-128-128",
                "encrypt",
                "--mode",
                "ecb",
                "--key",
                K128,
                "--hex",
                K128,
                "--out",
                name,
            ];
            let r = to_file(&[&cipher[..], force].concat(), &out);
            assert_eq!(r.status.code(), Some(0), "{name}: {:?}", r.stderr);
            assert_eq!(
                hex::encode(std::fs::read(&out).unwrap()),
                "32122bedd023c429023470e1158c147d"
            );
            let open = ["open", "--key-file", &key, "--in", &sealed, "--out", name];
            let r = to_file(&[&open[..], force].concat(), &out);
            assert_eq!(r.status.code(), Some(0), "{name}: {:?}", r.stderr);
            assert!(std::fs::read(&out).unwrap() == plain, "{name}");
            let seal = ["seal", "--key-file", &key, "--in", &input, "--out", name];
            let r = to_file(&[&seal[..], force].concat(), &out);
            assert_eq!(r.status.code(), Some(0), "{name}: {:?}", r.stderr);
            let opened = ok(&["open", "--key-file", &key, "--in", &d.p("out")]);
            assert!(opened.stdout == plain, "{name}");
            let meta = std::fs::metadata(&out).unwrap();
            assert_eq!(meta.ino(), inode, "{name}: the same file, not a new one");
            assert_eq!(meta.permissions().mode() & 0o777, 0o644, "{name}");
        }
    }
}

#[test]
fn kem_encaps_and_decaps_replace_outputs_only_with_force() {
    let d = Dir::new();
    let (pk, sk) = (d.p("pk"), d.p("sk"));
    ok(&["kem", "aigis-enc-2", "keygen", "--pk", &pk, "--sk", &sk]);
    let ct = d.write("ct", b"an old ciphertext");
    let ss = d.write("ss", b"an old secret");
    let encaps = ["kem", "aigis-enc-2", "encaps", "--pk", &pk];
    refused(
        &[&encaps[..], &["--ct", &ct]].concat(),
        "exists (use --force",
    );
    let ct2 = d.p("ct2");
    refused(
        &[&encaps[..], &["--ct", &ct2, "--ss", &ss]].concat(),
        "exists (use --force",
    );
    assert!(
        !Path::new(&ct2).exists(),
        "no ciphertext without its secret"
    );
    assert_eq!(d.read("ct"), b"an old ciphertext");
    assert_eq!(d.read("ss"), b"an old secret");
    ok(&[&encaps[..], &["--ct", &ct, "--ss", &ss, "--force"]].concat());
    let secret = d.read("ss");
    assert_eq!(secret.len(), 32);
    assert_eq!(mode(&ss), 0o600);
    assert_ne!(d.read("ct"), b"an old ciphertext");
    let ss2 = d.write("ss2", b"another old secret");
    let decaps = ["kem", "aigis-enc-2", "decaps", "--sk", &sk, "--ct", &ct];
    refused(
        &[&decaps[..], &["--ss", &ss2]].concat(),
        "exists (use --force",
    );
    assert_eq!(d.read("ss2"), b"another old secret");
    ok(&[&decaps[..], &["--ss", &ss2, "--force"]].concat());
    assert_eq!(d.read("ss2"), secret);
    assert_eq!(mode(&ss2), 0o600);
}

#[test]
fn cipher_gost_and_aes_replace_outputs_only_with_force() {
    let d = Dir::new();
    let runs: [&[&str]; 3] = [
        &[
            "cipher",
            "ublock-128-128",
            "encrypt",
            "--mode",
            "ecb",
            "--key",
            K128,
            "--hex",
            K128,
        ],
        &[
            "gost", "encrypt", "--mode", "ecb", "--key", K256, "--hex", K128,
        ],
        &[
            "aes",
            "gcm-seal",
            "--key",
            K256,
            "--iv",
            "000000000000000000000000",
            "--hex",
            "00",
        ],
    ];
    for run in runs {
        let printed = String::from_utf8(ok(run).stdout).unwrap();
        let out = d.write("out", b"an older file");
        refused(&[run, &["--out", &out]].concat(), "exists (use --force");
        assert_eq!(d.read("out"), b"an older file", "{run:?}");
        ok(&[run, &["--out", &out, "--force"]].concat());
        assert_eq!(hex::encode(d.read("out")), printed.trim(), "{run:?}");
        assert_eq!(d.names(), ["out"], "{run:?}: no temporary left");
    }
}

#[test]
fn a_directory_as_input_fails_at_once_and_writes_nothing() {
    let d = Dir::new();
    let key = keygen(&d, "k");
    std::fs::create_dir(d.path("dir")).unwrap();
    let dir = d.p("dir");
    refused(
        &["seal", "--key-file", &key, "--in", &dir],
        "is a directory",
    );
    refused(
        &["open", "--key-file", &key, "--in", &dir],
        "is a directory",
    );
    refused(
        &[
            "cipher",
            "ublock-128-128",
            "encrypt",
            "--mode",
            "ecb",
            "--key",
            K128,
            "--in",
            &dir,
        ],
        "is a directory",
    );
    let out = d.p("out");
    refused(
        &["seal", "--key-file", &key, "--in", &dir, "--out", &out],
        "is a directory",
    );
    assert!(!Path::new(&out).exists());
}

#[test]
fn a_directory_as_output_is_refused() {
    let d = Dir::new();
    let key = keygen(&d, "k");
    let input = d.write("plain", b"x");
    std::fs::create_dir(d.path("dir")).unwrap();
    for out in [
        d.p("dir"),
        format!("{}/", d.p("dir")),
        format!("{}/.", d.p("dir")),
    ] {
        for force in [&[][..], &["--force"][..]] {
            let seal = ["seal", "--key-file", &key, "--in", &input, "--out", &out];
            refused(&[&seal[..], force].concat(), "is a directory");
            refused(
                &[&["keygen", "--out", &out][..], force].concat(),
                "directory",
            );
        }
    }
    assert!(d.path("dir").is_dir());
    assert_eq!(std::fs::read_dir(d.path("dir")).unwrap().count(), 0);
}

/// Starts `args` reading from a pipe, feeds it `feed` and then stops feeding it, and ends
/// it with `signal` while it waits for more. The command starts with the default action for
/// SIGINT and SIGTERM (through `env --default-signal`): a test run started in the
/// background by a shell inherits SIGINT ignored, which the command would keep.
fn signal_mid_way(args: &[&str], feed: Vec<u8>, signal: &str) {
    let mut child = Command::new("env")
        .arg("--default-signal=INT,TERM")
        .args(common::vecrypt_words())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        // Returns once the command has read all but a pipe's worth of it.
        let _ = stdin.write_all(&feed);
        stdin
    });
    let start = Instant::now();
    while !feeder.is_finished() {
        if start.elapsed() >= common::TIME_LIMIT {
            let _ = child.kill();
            panic!("{args:?} did not read its input in time");
        }
        if child.try_wait().unwrap().is_some() {
            panic!("{args:?} ended before the signal");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let stdin = feeder.join().unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let status = Command::new("kill")
        .args(["-s", signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() >= common::TIME_LIMIT {
            let _ = child.kill();
            panic!("{args:?} still running after SIG{signal}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    drop(stdin);
    assert!(!status.success(), "{args:?} was ended by SIG{signal}");
}

#[test]
fn a_command_killed_mid_way_leaves_no_file_behind() {
    let keys = Dir::new();
    let key = keygen(&keys, "k");
    let plain = data(8 << 20);
    let sealed = std::fs::read(seal_file(&keys, &key, &plain, "sealed")).unwrap();
    for signal in ["KILL", "TERM", "INT"] {
        let d = Dir::new();
        let out = d.p("sealed");
        signal_mid_way(
            &["seal", "--key-file", &key, "--out", &out],
            plain[..4 << 20].to_vec(),
            signal,
        );
        assert_eq!(d.names(), Vec::<String>::new(), "seal, SIG{signal}");
        let out = d.p("plain");
        signal_mid_way(
            &["open", "--key-file", &key, "--out", &out],
            sealed[..4 << 20].to_vec(),
            signal,
        );
        assert_eq!(d.names(), Vec::<String>::new(), "open, SIG{signal}");
    }
}

/// Gives `path` to the user `nobody` (the tests run as root).
fn give_away(path: &Path) {
    std::os::unix::fs::lchown(path, Some(65534), Some(65534))
        .unwrap_or_else(|e| panic!("chown {} (these tests run as root): {e}", path.display()));
}

#[test]
fn outputs_owned_by_another_user_are_refused_even_with_force() {
    let d = Dir::new();
    let key = keygen(&d, "k");
    let input = d.write("plain", b"x");
    let theirs = d.write("theirs", b"their file");
    give_away(&d.path("theirs"));
    std::os::unix::fs::symlink(&theirs, d.path("link")).unwrap();
    for out in [theirs.clone(), d.p("link")] {
        for force in [&[][..], &["--force"][..]] {
            let runs: [&[&str]; 3] = [
                &["keygen", "--out", &out],
                &["seal", "--key-file", &key, "--in", &input, "--out", &out],
                &[
                    "cipher",
                    "ublock-128-128",
                    "encrypt",
                    "--mode",
                    "ecb",
                    "--key",
                    K128,
                    "--hex",
                    K128,
                    "--out",
                    &out,
                ],
            ];
            for run in runs {
                refused(&[run, force].concat(), "another user");
            }
        }
    }
    assert_eq!(d.read("theirs"), b"their file");
    assert_eq!(std::fs::metadata(&theirs).unwrap().uid(), 65534);
    assert!(
        std::fs::symlink_metadata(d.path("link"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(d.names(), ["k", "link", "plain", "theirs"]);
    // A link of another user to a file of ours is not followed either.
    let ours = d.write("ours", b"our file");
    std::os::unix::fs::symlink(&ours, d.path("their-link")).unwrap();
    give_away(&d.path("their-link"));
    refused(
        &["keygen", "--out", &d.p("their-link"), "--force"],
        "another user",
    );
    assert_eq!(d.read("ours"), b"our file");
}

#[test]
fn a_link_to_our_own_file_replaces_that_file_and_stays_a_link() {
    let d = Dir::new();
    std::fs::create_dir(d.path("sub")).unwrap();
    d.write("sub/real", b"an older file");
    std::os::unix::fs::symlink("sub/real", d.path("link")).unwrap();
    let link = d.p("link");
    refused(&["keygen", "--out", &link], "exists (use --force");
    assert_eq!(d.read("sub/real"), b"an older file");
    ok(&["keygen", "--out", &link, "--force"]);
    let meta = std::fs::symlink_metadata(&link).unwrap();
    assert!(meta.file_type().is_symlink(), "the link is kept");
    assert_ne!(d.read("sub/real"), b"an older file");
    assert_eq!(mode(d.path("sub/real")), 0o600);
    assert_eq!(d.names(), ["link", "sub"]);
    assert_eq!(std::fs::read_dir(d.path("sub")).unwrap().count(), 1);
    // A link to nothing is not a way to create a file elsewhere.
    std::os::unix::fs::symlink("sub/missing", d.path("dangling")).unwrap();
    for force in [&[][..], &["--force"][..]] {
        refused(
            &[&["keygen", "--out", &d.p("dangling")][..], force].concat(),
            "symbolic link to nothing",
        );
    }
    assert!(!d.path("sub/missing").exists());
}

/// Runs `args` under the file-creation mask `umask`.
fn with_umask(umask: &str, args: &[&str]) -> Output {
    let inner = common::vecrypt_command();
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("umask {umask} && exec \"$@\""))
        .arg("sh")
        .arg(inner.get_program())
        .args(inner.get_args())
        .args(args);
    common::run_within(&mut cmd, None)
}

#[test]
fn public_outputs_follow_the_umask_and_secrets_are_0600() {
    let d = Dir::new();
    let key = keygen(&d, "k");
    let input = d.write("plain", b"x");
    for (umask, public) in [
        ("022", 0o644),
        ("027", 0o640),
        ("000", 0o666),
        ("077", 0o600),
    ] {
        let (sealed, pk, sk) = (d.p("sealed"), d.p("pk"), d.p("sk"));
        for path in [&sealed, &pk, &sk] {
            let _ = std::fs::remove_file(path);
        }
        let seal = ["seal", "--key-file", &key, "--in", &input, "--out", &sealed];
        assert!(with_umask(umask, &seal).status.success());
        let kem = ["kem", "aigis-enc-2", "keygen", "--pk", &pk, "--sk", &sk];
        assert!(with_umask(umask, &kem).status.success());
        assert_eq!(mode(&sealed), public, "umask {umask}");
        assert_eq!(mode(&pk), public, "umask {umask}");
        assert_eq!(mode(&sk), 0o600, "umask {umask}");
    }
}
