//! `vecrypt cipher aes-*` and `vecrypt aes ...` as scripts drive them, on published vectors.

mod common;

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

fn fails(args: &[&str], needle: &str) {
    let out = vecrypt(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "one line on stderr, got: {err}");
    assert!(err.contains(needle), "{err:?} should mention {needle:?}");
    assert!(out.stdout.is_empty(), "nothing on stdout");
}

const K128: &str = "2b7e151628aed2a6abf7158809cf4f3c";
const P: &str = "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51";

#[test]
fn cipher_command_runs_fips197_and_sp800_38a() {
    for backend in ["soft", "aesni", "vaes256", "vaes512", "armv8-aes"] {
        let out = vecrypt(&["info"]);
        if !String::from_utf8_lossy(&out.stdout).contains(backend) {
            continue;
        }
        assert_eq!(
            ok_line(&[
                "cipher",
                "aes-192",
                "encrypt",
                "--mode",
                "ecb",
                "--backend",
                backend,
                "--key",
                "000102030405060708090a0b0c0d0e0f1011121314151617",
                "--hex",
                "00112233445566778899aabbccddeeff",
            ]),
            "dda97ca4864cdfe06eaf70a0ec0d7191"
        );
        // Whole-block big-endian counter, as `openssl enc -aes-128-ctr`.
        assert_eq!(
            ok_line(&[
                "cipher",
                "aes-128",
                "encrypt",
                "--mode",
                "ctr",
                "--backend",
                backend,
                "--key",
                K128,
                "--iv",
                "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
                "--hex",
                P,
            ]),
            "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
        );
    }
}

#[test]
fn gcm_seal_open_and_rejection() {
    let key = "feffe9928665731c6d6a8f9467308308";
    let iv = "cafebabefacedbad";
    let aad = "feedfacedeadbeeffeedfacedeadbeefabaddad2";
    let pt = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72\
              1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39";
    let sealed = "61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c7423\
                  73806900e49f24b22b097544d4896b424989b5e1ebac0f07c23f4598\
                  3612d2e79e3b0785561be14aaca2fccb";
    let base = ["--key", key, "--iv", iv, "--ad", aad];
    let run = |op: &str, data: &str, extra: &[&str]| {
        let mut a = vec!["aes", op];
        a.extend_from_slice(&base);
        a.extend_from_slice(extra);
        a.extend_from_slice(&["--hex", data]);
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let args = run("gcm-seal", pt, &[]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_eq!(ok_line(&refs), sealed);
    let args = run("gcm-open", sealed, &[]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_eq!(ok_line(&refs), pt);
    // A 12-byte tag is the 16-byte one truncated.
    let args = run("gcm-seal", pt, &["--tag-len", "12"]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_eq!(ok_line(&refs), sealed[..sealed.len() - 8]);
    let mut tampered = sealed.to_string();
    tampered.replace_range(0..1, "7");
    let args = run("gcm-open", &tampered, &[]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = vecrypt(&refs);
    assert_eq!(out.status.code(), Some(1), "a forgery is status 1");
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("authentication failed"));
    let args = run("gcm-seal", pt, &["--tag-len", "8"]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    fails(&refs, "tag-len");
}

#[test]
fn cmac_cfb_ofb_ctr32_xts() {
    assert_eq!(
        ok_line(&["aes", "cmac", "--key", K128, "--hex", &P[..32]]),
        "070a16b46b4d4144f79bdd9dd04a287c"
    );
    let iv = "000102030405060708090a0b0c0d0e0f";
    let cfb = ok_line(&["aes", "cfb-encrypt", "--key", K128, "--iv", iv, "--hex", P]);
    assert_eq!(
        cfb,
        "3b3fd92eb72dad20333449f8e83cfb4ac8a64537a0b3a93fcde3cdad9f1ce58b"
    );
    assert_eq!(
        ok_line(&[
            "aes",
            "cfb-decrypt",
            "--key",
            K128,
            "--iv",
            iv,
            "--hex",
            &cfb
        ]),
        P
    );
    assert_eq!(
        ok_line(&["aes", "ofb", "--key", K128, "--iv", iv, "--hex", P]),
        "3b3fd92eb72dad20333449f8e83cfb4a7789508d16918f03f53c52dac54ed825"
    );
    let ctr = ok_line(&[
        "aes",
        "ctr32",
        "--key",
        K128,
        "--iv",
        "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
        "--hex",
        P,
    ]);
    assert_eq!(
        ctr,
        "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
    );
    let xkey = format!("{K128}{}", "00".repeat(16));
    let x = ok_line(&[
        "aes",
        "xts-encrypt",
        "--key",
        &xkey,
        "--iv",
        "05",
        "--hex",
        &P[..46],
    ]);
    assert_eq!(x.len(), 46);
    assert_eq!(
        ok_line(&[
            "aes",
            "xts-decrypt",
            "--key",
            &xkey,
            "--iv",
            "05",
            "--hex",
            &x
        ]),
        &P[..46]
    );
}

#[test]
fn bad_inputs_fail_with_one_line() {
    fails(
        &["aes", "cmac", "--key", "0011", "--hex", "00"],
        "--key must be",
    );
    fails(
        &["aes", "ofb", "--key", K128, "--hex", "00"],
        "--iv is required",
    );
    fails(
        &["aes", "ofb", "--key", K128, "--iv", "00", "--hex", "00"],
        "IV",
    );
    fails(
        &[
            "aes",
            "xts-encrypt",
            "--key",
            K128,
            "--iv",
            "00",
            "--hex",
            "00",
        ],
        "--key must be",
    );
    fails(
        &[
            "cipher", "aes-128", "encrypt", "--mode", "ecb", "--key", K128, "--hex", "0011",
        ],
        "blocks",
    );
}
