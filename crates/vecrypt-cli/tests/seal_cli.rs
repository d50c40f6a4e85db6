//! `vecrypt keygen`, `seal` and `open`, and the safety of every output file.

mod common;

use common::{ok, vecrypt};

use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const HEADER: usize = 60; // a key-file stream's header: 12 fixed bytes, nonce prefix, MAC
const CHUNK: usize = 65536;
const STORED: usize = CHUNK + 16;

/// Runs `cmd` with `input` on stdin, under the common time limit (a hang fails the test).
fn limited(mut cmd: Command, input: Option<&[u8]>) -> Output {
    common::run_within(&mut cmd, input)
}

fn with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut c = common::vecrypt_command();
    c.args(args);
    limited(c, Some(input))
}

fn with_env(args: &[&str], var: &str, value: &str) -> Output {
    let mut c = common::vecrypt_command();
    c.args(args).env(var, value);
    limited(c, None)
}

/// Exit status `code`, one line on stderr mentioning `needle`.
fn fails_with(code: i32, out: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "one line on stderr, got: {err}");
    assert!(err.contains(needle), "{err:?} should mention {needle:?}");
}

struct Dir(tempfile::TempDir);

impl Dir {
    fn new() -> Self {
        Dir(tempfile::tempdir().unwrap())
    }
    fn p(&self, name: &str) -> String {
        self.0.path().join(name).to_string_lossy().into_owned()
    }
    fn path(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }
    /// Writes a file readable by its owner only (as every secret file should be).
    fn write(&self, name: &str, data: &[u8]) -> String {
        std::fs::write(self.path(name), data).unwrap();
        std::fs::set_permissions(self.path(name), std::fs::Permissions::from_mode(0o600)).unwrap();
        self.p(name)
    }
    fn read(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.path(name)).unwrap()
    }
}

fn data(len: usize, seed: u32) -> Vec<u8> {
    let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect()
}

fn keygen(d: &Dir, name: &str) -> String {
    ok(&["keygen", "--out", &d.p(name)]);
    d.p(name)
}

/// Seals `plain` with the key file `key` into a new file; returns its bytes.
fn seal_key(d: &Dir, key: &str, plain: &[u8], suite: &str) -> Vec<u8> {
    let input = d.write("seal-in", plain);
    let out = d.p("seal-out");
    let _ = std::fs::remove_file(&out);
    ok(&[
        "seal",
        "--key-file",
        key,
        "--suite",
        suite,
        "--in",
        &input,
        "--out",
        &out,
    ]);
    d.read("seal-out")
}

/// `open` of `sealed` with `key_opt key` into a file must fail with status 1 and leave
/// no output file.
fn open_rejects(d: &Dir, key_opt: &str, key: &str, sealed: &[u8], what: &str) {
    let input = d.write("bad-in", sealed);
    let out = d.p("bad-out");
    let _ = std::fs::remove_file(&out);
    let r = vecrypt(&["open", key_opt, key, "--in", &input, "--out", &out]);
    assert_eq!(
        r.status.code(),
        Some(1),
        "{what}: {}",
        String::from_utf8_lossy(&r.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&r.stderr).lines().count(),
        1,
        "{what}"
    );
    assert!(!Path::new(&out).exists(), "{what}: an output file was left");
    let leftovers: Vec<_> = std::fs::read_dir(d.0.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains("vecrypt-tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{what}: a temporary file was left");
}

fn open_key(d: &Dir, key: &str, sealed: &[u8]) -> Vec<u8> {
    let input = d.write("open-in", sealed);
    let out = d.p("open-out");
    let _ = std::fs::remove_file(&out);
    ok(&["open", "--key-file", key, "--in", &input, "--out", &out]);
    d.read("open-out")
}

#[test]
fn key_file_round_trips_in_each_suite_at_chunk_edges() {
    let d = Dir::new();
    let key = keygen(&d, "k");
    let mode = std::fs::metadata(&key).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "key files are 0600");
    for suite in ["aes-256-gcm", "kuznyechik-mgm"] {
        for len in [0, 1, 16, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK, 200_000] {
            let plain = data(len, len as u32);
            let sealed = seal_key(&d, &key, &plain, suite);
            let chunks = if len == 0 { 1 } else { len.div_ceil(CHUNK) };
            assert_eq!(sealed.len(), HEADER + len + 16 * chunks, "{suite} {len}");
            assert_eq!(open_key(&d, &key, &sealed), plain, "{suite} {len}");
        }
    }
}

#[test]
fn sealing_twice_gives_different_streams() {
    let d = Dir::new();
    let key = keygen(&d, "k");
    let a = seal_key(&d, &key, b"same", "aes-256-gcm");
    let b = seal_key(&d, &key, b"same", "aes-256-gcm");
    assert_ne!(a, b, "a fresh nonce prefix every time");
}

#[test]
fn stdin_to_stdout_and_a_large_input() {
    let d = Dir::new();
    let key = keygen(&d, "k");
    let plain = data(5 * 1024 * 1024 + 12345, 9);
    for suite in ["aes-256-gcm", "kuznyechik-mgm"] {
        let sealed = with_stdin(&["seal", "--key-file", &key, "--suite", suite], &plain);
        assert!(sealed.status.success());
        let opened = with_stdin(
            &["open", "--key-file", &key, "--in", "-", "--out", "-"],
            &sealed.stdout,
        );
        assert!(opened.status.success());
        assert!(opened.stdout == plain, "{suite}: large round trip");
    }
}

#[test]
fn passphrase_round_trip_and_wrong_passphrase() {
    let d = Dir::new();
    let pass = d.write("pass", b"correct horse\n");
    let plain = data(100_000, 2);
    let input = d.write("plain", &plain);
    for suite in ["aes-256-gcm", "kuznyechik-mgm"] {
        ok(&[
            "seal",
            "--passphrase-file",
            &pass,
            "--suite",
            suite,
            "--in",
            &input,
            "--out",
            &d.p("c"),
            "--force",
        ]);
        let sealed = d.read("c");
        // The same passphrase without its newline opens it.
        let bare = d.write("bare", b"correct horse");
        ok(&[
            "open",
            "--passphrase-file",
            &bare,
            "--in",
            &d.p("c"),
            "--out",
            &d.p("o"),
            "--force",
        ]);
        assert_eq!(d.read("o"), plain);
        let wrong = d.write("wrong", b"correct horsf\n");
        open_rejects(&d, "--passphrase-file", &wrong, &sealed, "wrong passphrase");
        // A key file cannot open a passphrase stream.
        let key = keygen(&d, &format!("k-{suite}"));
        open_rejects(&d, "--key-file", &key, &sealed, "wrong kind of key");
    }
}

#[test]
fn absurd_passphrase_costs_are_refused_before_argon2_runs() {
    let d = Dir::new();
    let pass = d.write("pass", b"pw");
    let input = d.write("plain", b"hello");
    let sealed_with = |cost: &str| {
        let r = vecrypt(&[
            "seal",
            "--passphrase-file",
            &pass,
            "--argon2",
            cost,
            "--in",
            &input,
            "--out",
            &d.p("c"),
            "--force",
        ]);
        assert!(r.status.success());
        (d.read("c"), String::from_utf8_lossy(&r.stderr).into_owned())
    };
    // A cheap cost opens, with a warning at sealing.
    let (sealed, warning) = sealed_with("64,1,1");
    assert!(warning.contains("below RFC 9106"), "{warning}");
    let opened = vecrypt(&["open", "--passphrase-file", &pass, "--in", &d.p("c")]);
    assert_eq!(opened.stdout, b"hello");
    // Memory cost (after 12 header bytes and the 16-byte salt) set out of the format's
    // bounds, and passes likewise: corrupt input.
    let mut huge = sealed.clone();
    huge[28..32].copy_from_slice(&u32::MAX.to_be_bytes());
    open_rejects(&d, "--passphrase-file", &pass, &huge, "absurd memory cost");
    let mut passes = sealed.clone();
    passes[32..36].copy_from_slice(&1_000_000u32.to_be_bytes());
    open_rejects(&d, "--passphrase-file", &pass, &passes, "absurd passes");
    // 4 GiB and 64 passes: within the format, above the default limit. Refused at once,
    // before 4 GiB are asked for, naming the option that raises the limit.
    let mut costly = sealed.clone();
    costly[28..32].copy_from_slice(&(4u32 << 20).to_be_bytes());
    costly[32..36].copy_from_slice(&64u32.to_be_bytes());
    let started = Instant::now();
    open_rejects(&d, "--passphrase-file", &pass, &costly, "costly header");
    assert!(started.elapsed() < Duration::from_secs(10));
    let input_c = d.write("costly", &costly);
    let r = vecrypt(&["open", "--passphrase-file", &pass, "--in", &input_c]);
    fails_with(1, &r, "--max-argon2");
    // A lowered limit refuses even a modest cost; a raised one opens it.
    let (sealed, _) = sealed_with("1024,2,1");
    let c = d.write("modest", &sealed);
    let r = vecrypt(&[
        "open",
        "--passphrase-file",
        &pass,
        "--max-argon2",
        "512,8,1",
        "--in",
        &c,
    ]);
    fails_with(1, &r, "--max-argon2");
    let r = vecrypt(&[
        "open",
        "--passphrase-file",
        &pass,
        "--max-argon2",
        "1024,2,1",
        "--in",
        &c,
    ]);
    assert_eq!(r.stdout, b"hello");
    // seal refuses costs out of bounds as a usage error, and warns above open's limit.
    let r = vecrypt(&[
        "seal",
        "--passphrase-file",
        &pass,
        "--argon2",
        "1,1,1",
        "--in",
        &input,
    ]);
    assert_eq!(r.status.code(), Some(2));
}

#[test]
fn aigis_public_key_round_trips_for_each_set_and_hash() {
    let d = Dir::new();
    let plain = data(70_000, 3);
    let input = d.write("plain", &plain);
    for (set, hash, suite) in [
        ("aigis-enc-1", "shake", "aes-256-gcm"),
        ("aigis-enc-2", "sm3", "kuznyechik-mgm"),
        ("aigis-enc-3", "shake", "kuznyechik-mgm"),
        ("aigis-enc-4", "sm3", "aes-256-gcm"),
    ] {
        let (pk, sk) = (d.p(&format!("{set}.pk")), d.p(&format!("{set}.sk")));
        ok(&[
            "kem", set, "keygen", "--hash", hash, "--pk", &pk, "--sk", &sk,
        ]);
        ok(&[
            "seal",
            "--to",
            &pk,
            "--suite",
            suite,
            "--in",
            &input,
            "--out",
            &d.p("c"),
            "--force",
        ]);
        ok(&[
            "open",
            "--sk",
            &sk,
            "--in",
            &d.p("c"),
            "--out",
            &d.p("o"),
            "--force",
        ]);
        assert_eq!(d.read("o"), plain, "{set} {hash} {suite}");
        // Another key pair of the same set: implicit rejection, then a failed chunk.
        let (pk2, sk2) = (d.p("other.pk"), d.p("other.sk"));
        ok(&[
            "kem", set, "keygen", "--hash", hash, "--pk", &pk2, "--sk", &sk2, "--force",
        ]);
        open_rejects(&d, "--sk", &sk2, &d.read("c"), "another secret key");
    }
    // A key of another set or hash mode is named as wrong.
    let sealed = {
        ok(&[
            "seal",
            "--to",
            &d.p("aigis-enc-1.pk"),
            "--in",
            &input,
            "--out",
            &d.p("c"),
            "--force",
        ]);
        d.read("c")
    };
    open_rejects(&d, "--sk", &d.p("aigis-enc-3.sk"), &sealed, "other set");
}

#[test]
fn raw_kem_key_files_work_in_kem_but_must_name_their_set_in_seal_and_open() {
    let d = Dir::new();
    let (pk, sk) = (d.p("pk"), d.p("sk"));
    ok(&[
        "kem",
        "aigis-enc-2",
        "keygen",
        "--hash",
        "sm3",
        "--pk",
        &pk,
        "--sk",
        &sk,
    ]);
    // Strip the nine-byte headers.
    let raw_pk = d.write("raw.pk", &d.read("pk")[9..]);
    let raw_sk = d.write("raw.sk", &d.read("sk")[9..]);
    let (ct, ss) = (d.p("ct"), d.p("ss"));
    // A raw key does not say its hash mode, so `kem` needs --hash.
    let r = vecrypt(&["kem", "aigis-enc-2", "encaps", "--pk", &raw_pk, "--ct", &ct]);
    fails_with(2, &r, "--hash");
    assert!(!d.path("ct").exists());
    ok(&[
        "kem",
        "aigis-enc-2",
        "encaps",
        "--hash",
        "sm3",
        "--pk",
        &raw_pk,
        "--ct",
        &ct,
        "--ss",
        &ss,
    ]);
    let dec = ok(&[
        "kem",
        "aigis-enc-2",
        "decaps",
        "--hash",
        "sm3",
        "--sk",
        &raw_sk,
        "--ct",
        &ct,
    ]);
    assert_eq!(
        String::from_utf8(dec.stdout).unwrap().trim(),
        hex_encode(&d.read("ss"))
    );
    // A raw SM3-mode key was once sealed to as SHAKE mode, so nobody could open the
    // result; a raw key is now refused, naming the header it lacks.
    let input = d.write("plain", b"to a raw key");
    let r = vecrypt(&["seal", "--to", &raw_pk, "--in", &input, "--out", &d.p("c")]);
    fails_with(2, &r, "key header");
    assert!(!d.path("c").exists());
    ok(&["seal", "--to", &pk, "--in", &input, "--out", &d.p("c")]);
    let r = vecrypt(&["open", "--sk", &raw_sk, "--in", &d.p("c")]);
    fails_with(2, &r, "key header");
    let r = ok(&["open", "--sk", &sk, "--in", &d.p("c")]);
    assert_eq!(r.stdout, b"to a raw key");
}

fn hex_encode(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn key_env_and_hex_key_files_open_what_keygen_files_seal() {
    let d = Dir::new();
    let key = keygen(&d, "k");
    let line = String::from_utf8(d.read("k")).unwrap();
    let hex = line.trim().rsplit(' ').next().unwrap().to_string();
    let sealed = seal_key(&d, &key, b"env", "aes-256-gcm");
    let input = d.write("c", &sealed);
    let out = with_env(
        &["open", "--key-env", "VECRYPT_TEST_KEY", "--in", &input],
        "VECRYPT_TEST_KEY",
        &hex,
    );
    assert!(out.status.success());
    assert_eq!(out.stdout, b"env");
    let raw = d.write("raw", &decode_hex(&hex));
    assert_eq!(open_key(&d, &raw, &sealed), b"env");
    // Hex in a file without the keygen line reads as text, and is refused as a key.
    let hex_file = d.write("hex", format!("{hex}\n").as_bytes());
    let r = vecrypt(&["open", "--key-file", &hex_file, "--in", &input]);
    fails_with(2, &r, "text, not a key");
}

fn decode_hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn flipped_bytes_anywhere_are_rejected() {
    let d = Dir::new();
    let key = keygen(&d, "k");
    let sealed = seal_key(&d, &key, &data(2 * CHUNK + 500, 4), "aes-256-gcm");
    let positions = [
        0,
        7,
        8,
        9,
        11,
        HEADER - 1,
        HEADER,
        HEADER + 1000,
        HEADER + STORED - 1,
        HEADER + STORED,
        HEADER + 2 * STORED + 3,
        sealed.len() - 1,
    ];
    for pos in positions {
        let mut bad = sealed.clone();
        bad[pos] ^= 0x01;
        open_rejects(
            &d,
            "--key-file",
            &key,
            &bad,
            &format!("bit flipped at {pos}"),
        );
    }
    let other = keygen(&d, "other");
    open_rejects(&d, "--key-file", &other, &sealed, "wrong key");
}

#[test]
fn truncation_at_many_points_is_rejected() {
    let d = Dir::new();
    let key = keygen(&d, "k");
    for suite in ["aes-256-gcm", "kuznyechik-mgm"] {
        for len in [2 * CHUNK, 2 * CHUNK + 100] {
            let sealed = seal_key(&d, &key, &data(len, 5), suite);
            let mut cuts = vec![
                0,
                1,
                8,
                12,
                HEADER - 1,
                HEADER,
                HEADER + 1,
                HEADER + 15,
                HEADER + 16,
                HEADER + CHUNK,
                HEADER + STORED - 1,
                HEADER + STORED,
                HEADER + STORED + 1,
                sealed.len() - 16,
                sealed.len() - 1,
            ];
            if len > 2 * CHUNK {
                cuts.push(HEADER + 2 * STORED);
            }
            for cut in cuts {
                open_rejects(
                    &d,
                    "--key-file",
                    &key,
                    &sealed[..cut],
                    &format!("{suite} {len} cut at {cut}"),
                );
            }
        }
    }
}

#[test]
fn appended_data_and_concatenated_streams_are_rejected() {
    let d = Dir::new();
    let key = keygen(&d, "k");
    for len in [10, CHUNK, CHUNK + 10] {
        let a = seal_key(&d, &key, &data(len, 6), "aes-256-gcm");
        let b = seal_key(&d, &key, &data(len, 7), "aes-256-gcm");
        for extra in [&b"\0"[..], &[0u8; 16], &[0u8; STORED]] {
            let mut bad = a.clone();
            bad.extend_from_slice(extra);
            open_rejects(
                &d,
                "--key-file",
                &key,
                &bad,
                &format!("{len} + {}", extra.len()),
            );
        }
        let both = [a.clone(), b.clone()].concat();
        open_rejects(
            &d,
            "--key-file",
            &key,
            &both,
            &format!("{len}: two streams"),
        );
    }
}

#[test]
fn chunks_swapped_between_streams_or_reordered_are_rejected() {
    let d = Dir::new();
    let key = keygen(&d, "k");
    let len = 3 * CHUNK + 10;
    let a = seal_key(&d, &key, &data(len, 8), "aes-256-gcm");
    let b = seal_key(&d, &key, &data(len, 8), "aes-256-gcm");
    let chunk = |i: usize| HEADER + i * STORED..HEADER + (i + 1) * STORED;
    // Chunk 1 of b into a: same key file, same plaintext, other stream.
    let mut swapped = a.clone();
    swapped[chunk(1)].copy_from_slice(&b[chunk(1)]);
    open_rejects(
        &d,
        "--key-file",
        &key,
        &swapped,
        "chunk from another stream",
    );
    // b's header on a's chunks.
    let mut headed = a.clone();
    headed[..HEADER].copy_from_slice(&b[..HEADER]);
    open_rejects(
        &d,
        "--key-file",
        &key,
        &headed,
        "header from another stream",
    );
    // Chunks 0 and 1 of a exchanged.
    let mut reordered = a.clone();
    reordered[chunk(0)].copy_from_slice(&a[chunk(1)]);
    reordered[chunk(1)].copy_from_slice(&a[chunk(0)]);
    open_rejects(&d, "--key-file", &key, &reordered, "reordered chunks");
    // A chunk dropped from the middle.
    let dropped = [&a[..HEADER + STORED], &a[HEADER + 2 * STORED..]].concat();
    open_rejects(&d, "--key-file", &key, &dropped, "dropped chunk");
}

#[test]
fn to_stdout_only_authenticated_chunks_are_released() {
    let d = Dir::new();
    let key = keygen(&d, "k");
    let plain = data(3 * CHUNK + 10, 10);
    let mut sealed = seal_key(&d, &key, &plain, "aes-256-gcm");
    sealed[HEADER + STORED + 5] ^= 0x80; // damage chunk 1
    let out = with_stdin(&["open", "--key-file", &key], &sealed);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(out.stdout, &plain[..CHUNK], "chunk 0 only");
    assert!(String::from_utf8_lossy(&out.stderr).contains("chunk 1"));
}

fn kat(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/format-v2")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn known_answer_files_open_to_their_plaintext() {
    let plain = std::fs::read(kat("plain.bin")).unwrap();
    let cases = [
        ("--key-file", "key.txt", "key-aes-256-gcm.vcr", &plain[..]),
        (
            "--key-file",
            "key.txt",
            "key-kuznyechik-mgm.vcr",
            &plain[..],
        ),
        ("--key-file", "key.txt", "empty-aes-256-gcm.vcr", &[][..]),
        (
            "--passphrase-file",
            "passphrase.txt",
            "passphrase-aes-256-gcm.vcr",
            &plain[..],
        ),
        (
            "--sk",
            "aigis-enc-2.sk",
            "aigis-enc-2-kuznyechik-mgm.vcr",
            &plain[..],
        ),
    ];
    for (opt, key, file, want) in cases {
        let out = ok(&["open", opt, &kat(key), "--in", &kat(file)]);
        assert!(out.stdout == want, "{file}");
    }
}

// The defects of the old command line, one test each.

#[test]
fn a_planted_symlink_at_a_temporary_name_is_not_followed() {
    let d = Dir::new();
    let victim = d.write("victim", b"precious");
    // The old temporary name was `.NAME.vecrypt-PID.tmp`: plant it for the next PIDs.
    let last: u32 = std::fs::read_to_string("/proc/sys/kernel/ns_last_pid")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0);
    for pid in last + 1..last + 200 {
        let _ = std::os::unix::fs::symlink(&victim, d.path(&format!(".out.vecrypt-{pid}.tmp")));
    }
    ok(&[
        "cipher",
        "ublock-128-128",
        "encrypt",
        "--mode",
        "ecb",
        "--key",
        "0123456789abcdeffedcba9876543210",
        "--hex",
        "0123456789abcdeffedcba9876543210",
        "--out",
        &d.p("out"),
    ]);
    assert_eq!(d.read("victim"), b"precious");
    assert_eq!(
        hex_encode(&d.read("out")),
        "32122bedd023c429023470e1158c147d"
    );
}

#[test]
fn an_output_that_is_not_a_regular_file_is_never_replaced() {
    let d = Dir::new();
    let link = d.path("to-null");
    std::os::unix::fs::symlink("/dev/null", &link).unwrap();
    let key = keygen(&d, "k");
    let input = d.write("plain", b"x");
    ok(&[
        "seal",
        "--key-file",
        &key,
        "--in",
        &input,
        "--out",
        &d.p("to-null"),
    ]);
    let meta = std::fs::symlink_metadata(&link).unwrap();
    assert!(meta.file_type().is_symlink(), "the link is kept");
    // --out /dev/stdout writes to standard output.
    let out = ok(&[
        "cipher",
        "ublock-128-128",
        "encrypt",
        "--mode",
        "ecb",
        "--key",
        "0123456789abcdeffedcba9876543210",
        "--hex",
        "0123456789abcdeffedcba9876543210",
        "--out",
        "/dev/stdout",
    ]);
    assert_eq!(hex_encode(&out.stdout), "32122bedd023c429023470e1158c147d");
    assert!(
        std::fs::symlink_metadata("/dev/stdout")
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let sealed = ok(&[
        "seal",
        "--key-file",
        &key,
        "--in",
        &input,
        "--out",
        "/dev/stdout",
    ]);
    assert_eq!(sealed.stdout.len(), HEADER + 1 + 16);
}

#[test]
fn kem_secret_keys_are_0600_and_not_overwritten_without_force() {
    let d = Dir::new();
    let (pk, sk) = (d.p("pk"), d.p("sk"));
    ok(&["kem", "aigis-enc-2", "keygen", "--pk", &pk, "--sk", &sk]);
    let mode = std::fs::metadata(&sk).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let before = d.read("sk");
    let r = vecrypt(&["kem", "aigis-enc-2", "keygen", "--pk", &pk, "--sk", &sk]);
    fails_with(2, &r, "--force");
    assert_eq!(d.read("sk"), before, "the secret key is kept");
    ok(&[
        "kem",
        "aigis-enc-2",
        "keygen",
        "--pk",
        &pk,
        "--sk",
        &sk,
        "--force",
    ]);
    assert_ne!(d.read("sk"), before);
    // keygen refuses too.
    let r = vecrypt(&["keygen", "--out", &sk]);
    fails_with(2, &r, "--force");
}

#[test]
fn kem_keygen_refuses_one_file_for_both_keys() {
    let d = Dir::new();
    let x = d.p("x");
    let r = vecrypt(&["kem", "aigis-enc-2", "keygen", "--pk", &x, "--sk", &x]);
    fails_with(2, &r, "two outputs");
    assert!(!Path::new(&x).exists());
}

#[test]
fn a_failed_second_output_leaves_no_first() {
    let d = Dir::new();
    let (pk, sk) = (d.p("pk"), d.p("sk"));
    let bad = d.p("missing-dir/x");
    let r = vecrypt(&["kem", "aigis-enc-2", "keygen", "--pk", &bad, "--sk", &sk]);
    assert_eq!(r.status.code(), Some(2));
    assert!(!Path::new(&sk).exists(), "no secret key left behind");
    ok(&["kem", "aigis-enc-2", "keygen", "--pk", &pk, "--sk", &sk]);
    let ct = d.p("ct");
    let r = vecrypt(&[
        "kem",
        "aigis-enc-2",
        "encaps",
        "--pk",
        &pk,
        "--ct",
        &ct,
        "--ss",
        &bad,
    ]);
    assert_eq!(r.status.code(), Some(2));
    assert!(!Path::new(&ct).exists(), "no ciphertext without its secret");
}

#[test]
fn a_key_file_of_the_other_hash_mode_is_rejected() {
    let d = Dir::new();
    let (pk, sk, ct) = (d.p("pk"), d.p("sk"), d.p("ct"));
    ok(&["kem", "aigis-enc-2", "keygen", "--pk", &pk, "--sk", &sk]);
    ok(&["kem", "aigis-enc-2", "encaps", "--pk", &pk, "--ct", &ct]);
    let r = vecrypt(&[
        "kem",
        "aigis-enc-2",
        "decaps",
        "--hash",
        "sm3",
        "--sk",
        &sk,
        "--ct",
        &ct,
    ]);
    fails_with(1, &r, "wrong key");
    assert!(r.stdout.is_empty(), "no secret printed");
    let r = vecrypt(&["kem", "aigis-enc-3", "decaps", "--sk", &sk, "--ct", &ct]);
    assert_ne!(r.status.code(), Some(0), "a key of another set");
    let r = vecrypt(&[
        "kem",
        "aigis-enc-2",
        "encaps",
        "--hash",
        "sm3",
        "--pk",
        &pk,
        "--ct",
        &ct,
    ]);
    fails_with(1, &r, "wrong key");
}

#[test]
fn in_and_out_may_not_be_the_same_file() {
    let d = Dir::new();
    let key = keygen(&d, "k");
    let f = d.write("f", b"data");
    let r = vecrypt(&["seal", "--key-file", &key, "--in", &f, "--out", &f]);
    fails_with(2, &r, "same file");
    let r = vecrypt(&[
        "open",
        "--key-file",
        &key,
        "--in",
        &f,
        "--out",
        &format!("{}/./f", d.p("")),
    ]);
    fails_with(2, &r, "same file");
    assert_eq!(d.read("f"), b"data");
}

#[test]
fn no_arguments_prints_the_full_help() {
    let out = vecrypt(&[]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    for cmd in [
        "keygen",
        "seal",
        "open",
        "cipher",
        "aes",
        "gost",
        "kem",
        "Exit status",
    ] {
        assert!(text.contains(cmd), "help lists {cmd}");
    }
}

#[test]
fn raw_commands_take_key_file_and_key_env_and_ad() {
    let d = Dir::new();
    let key = "0123456789abcdeffedcba9876543210";
    let pt = "0123456789abcdeffedcba9876543210";
    let want = "32122bedd023c429023470e1158c147d";
    let kf = d.write("kf", format!("{key}\n").as_bytes());
    let base = [
        "cipher",
        "ublock-128-128",
        "encrypt",
        "--mode",
        "ecb",
        "--hex",
        pt,
    ];
    let via_file = ok(&[&base[..], &["--key-file", &kf]].concat());
    assert_eq!(String::from_utf8(via_file.stdout).unwrap().trim(), want);
    let via_env = with_env(&[&base[..], &["--key-env", "K"]].concat(), "K", key);
    assert_eq!(String::from_utf8(via_env.stdout).unwrap().trim(), want);
    let r = vecrypt(&[&base[..], &["--key", key, "--key-file", &kf]].concat());
    assert_eq!(r.status.code(), Some(2), "one key source only");
    let k256 = "0000000000000000000000000000000000000000000000000000000000000000";
    let kf256 = d.write("k256", &[0u8; 32]);
    for args in [
        vec![
            "aes",
            "gcm-seal",
            "--iv",
            "000000000000000000000000",
            "--ad",
            "ab",
            "--hex",
            "00",
        ],
        vec![
            "gost",
            "encrypt",
            "--mode",
            "mgm",
            "--iv",
            "00000000000000000000000000000001",
            "--ad",
            "ab",
            "--hex",
            "00",
        ],
    ] {
        let a = ok(&[&args[..], &["--key", k256]].concat());
        let b = ok(&[&args[..], &["--key-file", &kf256]].concat());
        assert_eq!(a.stdout, b.stdout, "{args:?}");
    }
}

#[test]
fn seal_and_open_replace_an_existing_file_only_with_force() {
    let d = Dir::new();
    let key = keygen(&d, "k");
    let plain = data(1000, 7);
    let input = d.write("p", &plain);
    let sealed = d.write("c", b"an older file");
    let r = vecrypt(&["seal", "--key-file", &key, "--in", &input, "--out", &sealed]);
    fails_with(2, &r, "exists (use --force");
    assert_eq!(d.read("c"), b"an older file");
    ok(&[
        "seal",
        "--key-file",
        &key,
        "--in",
        &input,
        "--out",
        &sealed,
        "--force",
    ]);
    let out = d.write("o", b"keep me");
    let r = vecrypt(&["open", "--key-file", &key, "--in", &sealed, "--out", &out]);
    fails_with(2, &r, "exists (use --force");
    assert_eq!(d.read("o"), b"keep me");
    ok(&[
        "open",
        "--key-file",
        &key,
        "--in",
        &sealed,
        "--out",
        &out,
        "--force",
    ]);
    assert_eq!(d.read("o"), plain);
}

/// `args` of the binary run on a new terminal (`script`); each of `answers` is typed
/// (with a newline) once a new prompt ending in ": " has appeared, so that what is typed
/// reaches the program after it has turned echo off. Returns the status and the screen.
fn on_terminal(args: &[&str], answers: &[&str]) -> Output {
    let line = common::vecrypt_words()
        .into_iter()
        .chain(args.iter().map(|a| a.to_string()))
        .map(|a| format!("'{a}'"))
        .collect::<Vec<_>>()
        .join(" ");
    let mut child = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("script runs");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        let mut buf = [0u8; 256];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let started = Instant::now();
    let mut screen = Vec::new();
    let mut answered = 0;
    let status = loop {
        while let Ok(piece) = rx.recv_timeout(Duration::from_millis(5)) {
            screen.extend_from_slice(&piece);
        }
        let prompts = String::from_utf8_lossy(&screen).matches(": ").count();
        if answered < answers.len() && prompts > answered {
            // The prompt is written just before echo is turned off.
            std::thread::sleep(Duration::from_millis(150));
            let _ = stdin.write_all(format!("{}\n", answers[answered]).as_bytes());
            let _ = stdin.flush();
            answered += 1;
        }
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{line}: still running after 60 s (a hang)");
        }
    };
    while let Ok(piece) = rx.recv_timeout(Duration::from_millis(200)) {
        screen.extend_from_slice(&piece);
    }
    Output {
        status,
        stdout: screen,
        stderr: Vec::new(),
    }
}

/// `args` of the binary run with no controlling terminal.
fn without_terminal(args: &[&str]) -> Output {
    let mut c = Command::new("setsid");
    c.arg("-w").args(common::vecrypt_words()).args(args);
    limited(c, None)
}

#[test]
fn a_passphrase_is_asked_for_on_the_terminal_and_confirmed_when_sealing() {
    let d = Dir::new();
    let input = d.write("plain", b"typed");
    let c = d.p("c");
    let r = on_terminal(
        &["seal", "--in", &input, "--out", &c],
        &["a typed passphrase", "a typed passphrase"],
    );
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stdout));
    let screen = String::from_utf8_lossy(&r.stdout);
    assert!(screen.contains("Passphrase again"), "{screen}");
    assert!(!screen.contains("a typed passphrase"), "echoed: {screen}");
    let pass = d.write("pass", b"a typed passphrase\n");
    let opened = ok(&["open", "--passphrase-file", &pass, "--in", &c]);
    assert_eq!(opened.stdout, b"typed");
    let o = d.p("o");
    let r = on_terminal(&["open", "--in", &c, "--out", &o], &["a typed passphrase"]);
    assert!(r.status.success());
    assert_eq!(d.read("o"), b"typed");
    // A confirmation that differs, and a wrong passphrase typed at open.
    let r = on_terminal(
        &["seal", "--in", &input, "--out", &d.p("c2")],
        &["one", "two"],
    );
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stdout).contains("differ"));
    assert!(!d.path("c2").exists());
    let r = on_terminal(&["open", "--in", &c, "--out", &d.p("o2")], &["wrong"]);
    assert_eq!(r.status.code(), Some(1));
    assert!(!d.path("o2").exists());
    // With no terminal and no key option, a usage error at once.
    let r = without_terminal(&["seal", "--in", &input, "--out", &d.p("c3")]);
    fails_with(2, &r, "no terminal");
    let r = without_terminal(&["open", "--in", &c]);
    fails_with(2, &r, "no terminal");
}

#[test]
fn sealed_bytes_are_never_written_to_a_terminal() {
    let d = Dir::new();
    let key = keygen(&d, "k");
    let input = d.write("plain", b"secret");
    let r = on_terminal(&["seal", "--key-file", &key, "--in", &input], &[]);
    assert_eq!(r.status.code(), Some(2));
    let screen = String::from_utf8_lossy(&r.stdout);
    assert!(screen.contains("terminal"), "{screen}");
    assert!(
        !screen.contains("VECRYPT"),
        "sealed bytes reached the terminal"
    );
}

#[test]
fn a_passphrase_from_standard_input() {
    let d = Dir::new();
    let input = d.write("plain", b"piped");
    let r = with_stdin(
        &[
            "seal",
            "--passphrase-file",
            "-",
            "--in",
            &input,
            "--out",
            &d.p("c"),
        ],
        b"from a pipe\n",
    );
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let r = with_stdin(
        &["open", "--passphrase-file", "-", "--in", &d.p("c")],
        b"from a pipe\n",
    );
    assert_eq!(r.stdout, b"piped");
    // The data cannot come from standard input too.
    let r = with_stdin(&["seal", "--passphrase-file", "-"], b"x\n");
    fails_with(2, &r, "--in");
}

#[test]
fn key_files_that_read_as_text_are_refused_and_exposed_ones_warned_about() {
    let d = Dir::new();
    let input = d.write("plain", b"x");
    // A 32-byte passphrase in a key file was once used as a raw key, unstretched.
    let text = d.write("text", b"correct horse battery staple 123");
    assert_eq!(std::fs::metadata(&text).unwrap().len(), 32);
    let r = vecrypt(&[
        "seal",
        "--key-file",
        &text,
        "--in",
        &input,
        "--out",
        &d.p("c"),
    ]);
    fails_with(2, &r, "text, not a key");
    assert!(!d.path("c").exists());
    // A key file others can read works, with a warning.
    let key = keygen(&d, "k");
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
    let r = vecrypt(&[
        "seal",
        "--key-file",
        &key,
        "--in",
        &input,
        "--out",
        &d.p("c"),
    ]);
    assert!(r.status.success());
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("readable by other users"), "{err}");
}
