//! `vecrypt kem` and `vecrypt kat` as scripts drive them.

mod common;

use std::process::Output;

fn vecrypt(args: &[&str]) -> Output {
    common::vecrypt_command()
        .args(args)
        .output()
        .expect("the binary runs")
}

fn ok(args: &[&str]) -> String {
    let out = vecrypt(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn fails(args: &[&str], needle: &str) {
    let out = vecrypt(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "one line on stderr, got: {err}");
    assert!(err.contains(needle), "{err:?} should mention {needle:?}");
}

/// Field `name` of vector 0 of Aigis-enc-2 (the library tests check all 40).
fn vector0(name: &str) -> String {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../vecrypt/tests/data/aigis/aigis_enc_2_test_vectors.txt"
    ))
    .unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{name} = ")))
        .unwrap()
        .trim()
        .to_string()
}

#[test]
fn kem_over_files_reproduces_a_designers_vector() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n).to_string_lossy().into_owned();
    for extra in [&[][..], &["--compact"][..]] {
        let (pk, sk, ct) = (p("pk"), p("sk"), p("ct"));
        let mut args = vec!["kem", "aigis-enc-2", "keygen", "--pk", &pk];
        let kc = vector0("keypair coins");
        args.extend(["--sk", &sk, "--coins", &kc, "--force"]);
        args.extend(extra);
        ok(&args);
        // Key files: a nine-byte header naming set and hash mode, then the key.
        let pk_file = std::fs::read(p("pk")).unwrap();
        assert_eq!(&pk_file[..9], b"VCKEM\x01p\x02\x01");
        assert_eq!(hex::encode_upper(&pk_file[9..]), vector0("pk"));
        let sk_file = std::fs::read(p("sk")).unwrap();
        assert_eq!(&sk_file[..9], b"VCKEM\x01s\x02\x01");
        assert_eq!(hex::encode_upper(&sk_file[9..]), vector0("sk"));
        let ec = vector0("kem_enc coins");
        let mut args = vec!["kem", "2", "encaps", "--pk", &pk];
        args.extend(["--ct", &ct, "--coins", &ec, "--force"]);
        args.extend(extra);
        let ss = ok(&args);
        assert_eq!(ss.trim().to_uppercase(), vector0("ss"));
        assert_eq!(
            hex::encode_upper(std::fs::read(&ct).unwrap()),
            vector0("ct")
        );
        let mut args = vec!["kem", "aigis-enc-2", "decaps", "--sk", &sk, "--ct", &ct];
        args.extend(extra);
        assert_eq!(ok(&args).trim().to_uppercase(), vector0("ss"));
    }
}

#[test]
fn kem_with_system_coins_round_trips_in_sm3_mode() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n).to_string_lossy().into_owned();
    let (pk, sk, ct, ss) = (p("pk"), p("sk"), p("ct"), p("ss"));
    ok(&[
        "kem",
        "aigis-enc-4",
        "keygen",
        "--hash",
        "sm3",
        "--pk",
        &pk,
        "--sk",
        &sk,
    ]);
    ok(&[
        "kem",
        "aigis-enc-4",
        "encaps",
        "--hash",
        "sm3",
        "--pk",
        &pk,
        "--ct",
        &ct,
        "--ss",
        &ss,
    ]);
    let dec = ok(&[
        "kem",
        "aigis-enc-4",
        "decaps",
        "--hash",
        "sm3",
        "--sk",
        &sk,
        "--ct",
        &ct,
    ]);
    assert_eq!(dec.trim(), hex::encode(std::fs::read(&ss).unwrap()));
    // Without --hash the key file's header gives the mode.
    let again = ok(&["kem", "aigis-enc-4", "decaps", "--sk", &sk, "--ct", &ct]);
    assert_eq!(again.trim(), dec.trim());
}

#[test]
fn kem_errors_are_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let short = dir.path().join("short").to_string_lossy().into_owned();
    std::fs::write(&short, [0u8; 10]).unwrap();
    fails(&["kem", "aigis-enc-9", "keygen"], "unknown parameter set");
    fails(&["kem", "2", "keygen", "--sk", &short], "--pk");
    let out = vecrypt(&[
        "kem", "2", "decaps", "--hash", "shake", "--sk", &short, "--ct", &short,
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a damaged ciphertext is status 1"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("ciphertext must be 992 bytes"));
    let ct = dir.path().join("ct").to_string_lossy().into_owned();
    std::fs::write(&ct, [0u8; 992]).unwrap();
    fails(
        &["kem", "2", "decaps", "--sk", &short, "--ct", &ct],
        "--hash shake or --hash sm3",
    );
    fails(
        &[
            "kem", "2", "decaps", "--hash", "sm3", "--sk", &short, "--ct", &ct,
        ],
        "key must be 2208 bytes",
    );
    fails(
        &[
            "kem", "2", "encaps", "--hash", "shake", "--pk", &short, "--ct", &ct, "--force",
        ],
        "key must be 896 bytes",
    );
    fails(
        &[
            "kem", "2", "keygen", "--pk", &ct, "--sk", &short, "--coins", "00",
        ],
        "64 bytes",
    );
}

#[test]
fn kat_file_has_the_standard_layout() {
    let text = ok(&["kat", "aigis-enc-2"]);
    assert!(text.starts_with("# Aigis-enc-2\n\ncount = 0\nseed = 061550234D158C5EC95595FE04EF7A25767F2E24CC2BC479D09D86DC9ABCFDE7056A8C266F9EF97ED08541DBD2E1FFA1\npk = "));
    let records: Vec<&str> = text["# Aigis-enc-2\n\n".len()..]
        .split_terminator("\n\n")
        .collect();
    assert_eq!(records.len(), 100);
    for (i, r) in records.iter().enumerate() {
        let lines: Vec<&str> = r.lines().collect();
        assert_eq!(lines.len(), 6, "record {i}");
        assert_eq!(lines[0], format!("count = {i}"));
        let sizes = [
            ("seed", 48),
            ("pk", 896),
            ("sk", 2208),
            ("ct", 992),
            ("ss", 32),
        ];
        for (line, (name, len)) in lines[1..].iter().zip(sizes) {
            let hexpart = line.strip_prefix(&format!("{name} = ")).unwrap();
            assert_eq!(hexpart.len(), 2 * len);
            assert!(
                hexpart
                    .chars()
                    .all(|c| c.is_ascii_digit() || ('A'..='F').contains(&c))
            );
        }
    }
    assert!(text.ends_with("\n\n"));
    assert_eq!(text, ok(&["kat", "2"]), "deterministic");
    let sm3 = ok(&["kat", "aigis-enc-2", "--hash", "sm3"]);
    assert_eq!(sm3.lines().nth(3), text.lines().nth(3), "same seeds");
    assert_ne!(sm3.lines().nth(4), text.lines().nth(4), "different keys");
}

/// The Cortex-M4 firmware (`embedded/m4`) checks the known-answer files it makes on the
/// board against digests written into its source; those digests must be the SHA-256 of what
/// `vecrypt kat` prints here, for every set and both hash modes.
#[test]
fn firmware_kat_digests_are_those_of_this_build() {
    use sha2::{Digest, Sha256};
    let source = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../embedded/m4/src/main.rs"),
    )
    .unwrap();
    let table = &source[source.find("const KAT_SHA256").unwrap()..];
    let table = &table[..table.find("\n];").unwrap()];
    let digests: Vec<&str> = table
        .split('"')
        .skip(1)
        .step_by(2)
        .filter(|s| s.len() == 64)
        .collect();
    assert_eq!(digests.len(), 8, "four sets, SHAKE then SM3");
    for set in 1..=4 {
        for (m, mode) in ["shake", "sm3"].iter().enumerate() {
            let text = ok(&["kat", &format!("aigis-enc-{set}"), "--hash", mode]);
            let hex: String = Sha256::digest(text.as_bytes())
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            assert_eq!(hex, digests[2 * (set - 1) + m], "aigis-enc-{set} {mode}");
        }
    }
}
