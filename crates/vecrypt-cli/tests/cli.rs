//! The `vecrypt` binary as scripts drive it.

mod common;

use std::path::Path;
use std::process::Output;

fn vecrypt(args: &[&str]) -> Output {
    common::vecrypt_command()
        .args(args)
        .output()
        .expect("the binary runs")
}

fn ok_line(args: &[&str]) -> String {
    let out = vecrypt(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "one line of output");
    text.trim_end().to_string()
}

/// Exit status 2 and exactly one line on stderr mentioning `needle`.
fn fails(args: &[&str], needle: &str) {
    let out = vecrypt(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "one line on stderr, got: {err}");
    assert!(err.contains(needle), "{err:?} should mention {needle:?}");
    assert!(out.stdout.is_empty());
}

const P128: &str = "0123456789abcdeffedcba9876543210";
const K256: &str = "0123456789abcdeffedcba9876543210000102030405060708090a0b0c0d0e0f";

#[test]
fn design_document_monte_carlo_through_the_cli() {
    let cases = [
        (
            "ublock-128-128",
            P128,
            P128,
            "9d639e31062ffb574646e428f92e08d4",
        ),
        (
            "ublock-128-256",
            K256,
            P128,
            "9fca87e0fbaebc9105e729d3553967ff",
        ),
        (
            "ublock-256-256",
            K256,
            K256,
            "20e148e6ebf9d99b894b2f7e5ccde23fc58c956c7847fad82e0824413576c89f",
        ),
    ];
    for (alg, key, pt, want) in cases {
        let args = [
            "cipher", alg, "encrypt", "--mode", "ecb", "--key", key, "--hex", pt,
        ];
        let mut iterated = args.to_vec();
        iterated.extend(["--iterate", "1000000"]);
        assert_eq!(ok_line(&iterated), want, "{alg}");
        let back = [
            "cipher", alg, "decrypt", "--mode", "ecb", "--key", key, "--hex", want,
        ];
        let mut back = back.to_vec();
        back.extend(["--iterate", "1000000"]);
        assert_eq!(ok_line(&back), pt, "{alg} back");
    }
    let one = [
        "cipher",
        "ublock-128-128",
        "encrypt",
        "--mode",
        "ecb",
        "--key",
        P128,
        "--hex",
        P128,
    ];
    assert_eq!(ok_line(&one), "32122bedd023c429023470e1158c147d");
}

#[test]
fn every_mode_round_trips_and_every_backend_agrees() {
    let pt = "00112233445566778899aabbccddeeff0123456789abcdeffedcba98765432100a0b0c";
    let whole = &pt[..64];
    for (mode, data) in [("ecb", whole), ("cbc", whole), ("ctr", pt)] {
        let mut args = vec![
            "cipher",
            "ublock-128-128",
            "encrypt",
            "--mode",
            mode,
            "--key",
            P128,
        ];
        if mode != "ecb" {
            args.extend(["--iv", P128]);
        }
        args.extend(["--hex", data]);
        let ct = ok_line(&args);
        assert_ne!(ct, data);
        for backend in vecrypt::ublock::Ublock128_128::backends() {
            let mut forced = args.clone();
            forced.extend(["--backend", backend.name()]);
            assert_eq!(ok_line(&forced), ct, "{mode} on {backend}");
        }
        let mut back = args.clone();
        back[2] = "decrypt";
        let n = back.len();
        back[n - 1] = &ct;
        assert_eq!(ok_line(&back), data, "{mode}");
    }
}

#[test]
fn files_in_and_out() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("plain.bin");
    let sealed = dir.path().join("sealed.bin");
    let opened = dir.path().join("opened.bin");
    let data: Vec<u8> = (0..100_003u32).map(|i| (i * 7 + i / 251) as u8).collect();
    std::fs::write(&input, &data).unwrap();
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let common = ["--mode", "ctr", "--key", K256, "--iv", P128];
    let run = |dir: &str, from: &Path, to: &Path| {
        let (from, to) = (s(from), s(to));
        let mut args = vec!["cipher", "ublock-128-256", dir];
        args.extend(common);
        args.extend(["--in", &from, "--out", &to]);
        let out = vecrypt(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stdout.is_empty());
    };
    run("encrypt", &input, &sealed);
    run("decrypt", &sealed, &opened);
    assert_ne!(std::fs::read(&sealed).unwrap(), data);
    assert_eq!(std::fs::read(&opened).unwrap(), data);
}

#[test]
fn failed_runs_leave_no_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("odd.bin");
    let out = dir.path().join("out.bin");
    std::fs::write(&input, [1u8; 17]).unwrap();
    let (i, o) = (input.to_str().unwrap(), out.to_str().unwrap());
    let args = "cipher ublock-128-128 encrypt --mode ecb --key";
    let mut args: Vec<&str> = args.split(' ').collect();
    args.extend([P128, "--in", i, "--out", o]);
    fails(&args, "whole number");
    assert!(!out.exists());
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary left behind"
    );
}

#[test]
fn bad_input_is_one_line_and_status_two() {
    let base = ["cipher", "ublock-128-128", "encrypt", "--mode"];
    let with = |rest: &[&'static str]| -> Vec<&'static str> {
        base.iter().copied().chain(rest.iter().copied()).collect()
    };
    fails(
        &with(&["ecb", "--key", "0011", "--hex", P128]),
        "key must be 16 bytes",
    );
    fails(
        &with(&["ecb", "--key", "zz", "--hex", P128]),
        "--key is not valid hex",
    );
    fails(
        &with(&["ecb", "--key", P128, "--hex", "0g"]),
        "--hex is not valid hex",
    );
    fails(
        &with(&["ecb", "--key", P128, "--hex", "00"]),
        "whole number of 16-byte blocks",
    );
    fails(
        &with(&["cbc", "--key", P128, "--hex", P128]),
        "--iv is required",
    );
    fails(
        &with(&["cbc", "--key", P128, "--iv", "00", "--hex", P128]),
        "IV/nonce must be 16 bytes",
    );
    fails(
        &with(&["ecb", "--key", P128, "--iv", P128, "--hex", P128]),
        "not used in ECB",
    );
    fails(
        &with(&[
            "ctr",
            "--key",
            P128,
            "--iv",
            P128,
            "--hex",
            "00",
            "--iterate",
            "2",
        ]),
        "ECB mode only",
    );
    // `--iterate` counts 1 to 2^32 applications: 0 would pass the plaintext through.
    for n in ["0", "4294967297", "99999999999999999999"] {
        fails(
            &with(&["ecb", "--key", P128, "--hex", P128, "--iterate", n]),
            "--iterate",
        );
    }
    fails(&with(&["xts", "--key", P128, "--hex", P128]), "xts");
    fails(
        &with(&["ecb", "--key", P128, "--hex", P128, "--backend", "nope"]),
        "unknown backend",
    );
    fails(
        &[
            "cipher", "nocipher", "encrypt", "--mode", "ecb", "--key", P128, "--hex", P128,
        ],
        "unknown algorithm 'nocipher'",
    );
    fails(&with(&["ecb", "--key", P128]), "--hex");
    fails(&["speed", "nocipher"], "unknown algorithm");
    fails(&["frobnicate"], "frobnicate");
}

#[test]
fn ctr_takes_any_length_including_zero() {
    let args = [
        "cipher",
        "ublock-256-256",
        "encrypt",
        "--mode",
        "ctr",
        "--key",
        K256,
        "--iv",
        K256,
    ];
    let mut empty = args.to_vec();
    empty.extend(["--hex", ""]);
    assert_eq!(ok_line(&empty), "");
    let mut three = args.to_vec();
    three.extend(["--hex", "abcdef"]);
    assert_eq!(ok_line(&three).len(), 6);
}

#[test]
fn environment_forces_the_backend() {
    let out = common::vecrypt_command()
        .env("VECRYPT_BACKEND", "soft")
        .arg("info")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("forced backend: soft"), "{text}");
    let uses = text
        .lines()
        .find(|l| l.starts_with("ublock-128-128"))
        .unwrap();
    assert_eq!(uses.split_whitespace().nth(1), Some("soft"), "{uses}");
}

/// `VECRYPT_BACKEND` forces constant-time backends only: an unknown name or a table-driven
/// backend stops every command with one line on stderr and status 2, before any work.
#[test]
fn environment_refuses_unknown_and_table_backends() {
    for (value, needle) in [
        ("nonsense", "unknown backend"),
        ("table-leaky", "VECRYPT_BACKEND"),
    ] {
        for args in [
            &["info"][..],
            &[
                "cipher",
                "kuznyechik",
                "encrypt",
                "--mode",
                "ecb",
                "--key",
                K256,
                "--hex",
                P128,
            ],
        ] {
            let out = common::vecrypt_command()
                .env("VECRYPT_BACKEND", value)
                .args(args)
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(2), "{value} {args:?}");
            assert!(out.stdout.is_empty(), "{value} {args:?}");
            let err = String::from_utf8(out.stderr).unwrap();
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.contains("VECRYPT_BACKEND"), "{err}");
            assert!(err.contains(needle), "{err}");
        }
    }
}

#[test]
fn info_and_speed_json() {
    let out = vecrypt(&["info"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("ublock-256-256"));

    let out = vecrypt(&[
        "speed",
        "ublock-128-128",
        "--backend",
        "soft",
        "--keys",
        "2",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = rows.as_array().unwrap();
    // ECB, CBC and CTR: 18 rows; then the other modes, one key each.
    let block: Vec<_> = rows
        .iter()
        .filter(|r| ["ecb", "cbc", "ctr"].contains(&r["mode"].as_str().unwrap()))
        .collect();
    assert_eq!(block.len(), 18);
    assert!(rows.len() > 18);
    for r in rows {
        assert_eq!(r["algorithm"], "ublock-128-128");
        assert!(r["mb_per_s"].as_f64().unwrap() > 0.0);
        let keys = r["keys"].as_u64().unwrap();
        assert!(keys == 1 || keys == 2);
    }
}

#[test]
fn a_reader_that_leaves_early_causes_no_panic() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = common::vecrypt_command()
        .args(["kat", "aigis-enc-2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.status.success());
}
