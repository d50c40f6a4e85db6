//! Kuznyechik through the `vecrypt` binary: the GOST R 34.13, MGM and ACPKM examples.

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
    String::from_utf8(out.stdout)
        .unwrap()
        .trim_end()
        .to_string()
}

const K: &str = "8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef";
const P: &str = "1122334455667700ffeeddccbbaa998800112233445566778899aabbcceeff0a\
                 112233445566778899aabbcceeff0a002233445566778899aabbcceeff0a0011";
const CTR: &str = "f195d8bec10ed1dbd57b5fa240bda1b885eee733f6a13e5df33ce4b33c45dee4\
                   a5eae88be6356ed3d5e877f13564a3a5cb91fab1f20cbab6d1c6d15820bdba73";

#[test]
fn cipher_command_ctr_takes_the_gost_half_block_iv() {
    for iv in ["1234567890abcef0", "1234567890abcef00000000000000000"] {
        let out = ok_line(&[
            "cipher",
            "kuznyechik",
            "encrypt",
            "--mode",
            "ctr",
            "--key",
            K,
            "--iv",
            iv,
            "--hex",
            P,
        ]);
        assert_eq!(out, CTR);
    }
    // The table-driven backend is not constant time: the command never offers it.
    let out = common::vecrypt_command()
        .args([
            "cipher",
            "kuznyechik",
            "encrypt",
            "--mode",
            "ecb",
            "--key",
            K,
            "--backend",
            "table-leaky",
            "--hex",
            "1122334455667700ffeeddccbbaa9988",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let out = ok_line(&[
        "cipher",
        "kuznyechik",
        "encrypt",
        "--mode",
        "ecb",
        "--key",
        K,
        "--backend",
        "soft",
        "--hex",
        "1122334455667700ffeeddccbbaa9988",
    ]);
    assert_eq!(out, "7f679d90bebc24305a468d42b9d4edcd");
}

#[test]
fn gost_modes_with_long_ivs() {
    let iv2 = "1234567890abcef0a1b2c3d4e5f0011223344556677889901213141516171819";
    let cbc = "689972d4a085fa4d90e52e3d6d7dcc272826e661b478eca6af1e8e448d5ea5ac\
               fe7babf1e91999e85640e8b0f49d90d0167688065a895c631a2d9a1560b63970";
    assert_eq!(
        ok_line(&[
            "gost", "encrypt", "--mode", "cbc", "--key", K, "--iv", iv2, "--hex", P
        ]),
        cbc
    );
    assert_eq!(
        ok_line(&[
            "gost", "decrypt", "--mode", "cbc", "--key", K, "--iv", iv2, "--hex", cbc
        ]),
        P
    );
    let ofb = ok_line(&[
        "gost", "encrypt", "--mode", "ofb", "--key", K, "--iv", iv2, "--hex", P,
    ]);
    assert!(ofb.starts_with("81800a59b1842b24ff1f795e897abd95"));
    assert_eq!(
        ok_line(&[
            "gost",
            "mac",
            "--mode",
            "omac",
            "--key",
            K,
            "--tag-len",
            "8",
            "--hex",
            P
        ]),
        "336f4d296059fbe3"
    );
}

#[test]
fn mgm_and_acpkm() {
    let nonce = "1122334455667700ffeeddccbbaa9988";
    let ad = "0202020202020202010101010101010104040404040404040303030303030303ea0505050505050505";
    let pt = format!("{P}aabbcc");
    let sealed = ok_line(&[
        "gost", "encrypt", "--mode", "mgm", "--key", K, "--iv", nonce, "--ad", ad, "--hex", &pt,
    ]);
    assert!(sealed.ends_with("cf5d656f40c34f5c46e8bb0e29fcdb4c"));
    assert_eq!(
        ok_line(&[
            "gost", "decrypt", "--mode", "mgm", "--key", K, "--iv", nonce, "--ad", ad, "--hex",
            &sealed,
        ]),
        pt
    );
    let mut forged = sealed.clone().into_bytes();
    forged[0] = if forged[0] == b'0' { b'1' } else { b'0' };
    let out = vecrypt(&[
        "gost",
        "decrypt",
        "--mode",
        "mgm",
        "--key",
        K,
        "--iv",
        nonce,
        "--ad",
        ad,
        "--hex",
        std::str::from_utf8(&forged).unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "a forgery is status 1");
    assert!(out.stdout.is_empty(), "no plaintext on a forgery");
    assert!(String::from_utf8_lossy(&out.stderr).contains("authentication failed"));

    assert_eq!(
        ok_line(&[
            "gost",
            "mac",
            "--mode",
            "omac-acpkm",
            "--section",
            "32",
            "--master-section",
            "96",
            "--key",
            K,
            "--hex",
            "1122334455667700ffeeddccbbaa99880011223344556677",
        ]),
        "b5367f47b62b995eeb2a648c5843145e"
    );
    let ctr = ok_line(&[
        "gost",
        "encrypt",
        "--mode",
        "ctr-acpkm",
        "--section",
        "32",
        "--key",
        K,
        "--iv",
        "1234567890abcef0",
        "--hex",
        P,
    ]);
    assert!(ctr.ends_with("587c4df568d094393e4834afd0805046"));
}

#[test]
fn bad_parameters_fail_with_one_line() {
    for args in [
        vec![
            "gost", "encrypt", "--mode", "ctr", "--key", K, "--iv", "00", "--hex", P,
        ],
        vec!["gost", "mac", "--mode", "cbc", "--key", K, "--hex", P],
        vec![
            "gost",
            "encrypt",
            "--mode",
            "ctr-acpkm",
            "--key",
            K,
            "--iv",
            "1234567890abcef0",
            "--hex",
            P,
        ],
        vec![
            "gost",
            "encrypt",
            "--mode",
            "mgm",
            "--key",
            K,
            "--iv",
            "9122334455667700ffeeddccbbaa9988",
            "--hex",
            P,
        ],
    ] {
        let out = vecrypt(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
        assert!(out.stdout.is_empty());
    }
}

/// The known answers of the library's Kuznyechik-GCM file: `(key, iv, ad, pt, ct || tag)`.
fn gcm_vectors() -> Vec<[String; 5]> {
    let text = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../vecrypt/tests/data/kuznyechik-gcm.txt"
    ));
    text.split("\n\n")
        .filter(|r| r.contains("key ="))
        .map(|r| {
            let field = |name: &str| {
                r.lines()
                    .find_map(|l| {
                        let (k, v) = l.split_once('=')?;
                        (k.trim() == name).then(|| v.trim().to_string())
                    })
                    .unwrap()
            };
            [
                field("key"),
                field("iv"),
                field("ad"),
                field("pt"),
                format!("{}{}", field("ct"), field("tag")),
            ]
        })
        .collect()
}

#[test]
fn gcm_known_answers_and_round_trip() {
    let vectors = gcm_vectors();
    assert!(vectors.len() >= 8);
    for [key, iv, ad, pt, sealed] in &vectors {
        let args = ["gost", "encrypt", "--mode", "gcm", "--key", key, "--iv", iv];
        let out = ok_line(&[&args[..], &["--ad", ad, "--hex", pt]].concat());
        assert_eq!(&out, sealed, "iv {iv}");
        let args = ["gost", "decrypt", "--mode", "gcm", "--key", key, "--iv", iv];
        let out = ok_line(&[&args[..], &["--ad", ad, "--hex", sealed]].concat());
        assert_eq!(&out, pt, "iv {iv}");
    }
    // A round trip with a 12-byte tag and no associated data.
    let nonce = "000102030405060708090a0b";
    let sealed = ok_line(&[
        "gost",
        "encrypt",
        "--mode",
        "gcm",
        "--key",
        K,
        "--iv",
        nonce,
        "--tag-len",
        "12",
        "--hex",
        P,
    ]);
    assert_eq!(sealed.len(), P.len() + 24);
    assert_eq!(
        ok_line(&[
            "gost",
            "decrypt",
            "--mode",
            "gcm",
            "--key",
            K,
            "--iv",
            nonce,
            "--tag-len",
            "12",
            "--hex",
            &sealed,
        ]),
        P
    );
    // Tags shorter than 12 bytes are refused.
    let out = vecrypt(&[
        "gost",
        "encrypt",
        "--mode",
        "gcm",
        "--key",
        K,
        "--iv",
        nonce,
        "--tag-len",
        "8",
        "--hex",
        P,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

/// Flips the hex digit at `i`.
fn flip(s: &str, i: usize) -> String {
    let mut b = s.as_bytes().to_vec();
    b[i] = if b[i] == b'0' { b'1' } else { b'0' };
    String::from_utf8(b).unwrap()
}

#[test]
fn gcm_forgeries_print_nothing_and_exit_1() {
    let vectors = gcm_vectors();
    let [key, iv, ad, _, sealed] = vectors
        .iter()
        .find(|v| !v[2].is_empty() && v[3].len() > 32)
        .expect("a vector with associated data and several blocks");
    let tag_at = sealed.len() - 32;
    for (what, ad, sealed) in [
        ("ciphertext", ad.clone(), flip(sealed, 3)),
        ("associated data", flip(ad, 0), sealed.clone()),
        ("tag", ad.clone(), flip(sealed, tag_at + 5)),
    ] {
        let out = vecrypt(&[
            "gost", "decrypt", "--mode", "gcm", "--key", key, "--iv", iv, "--ad", &ad, "--hex",
            &sealed,
        ]);
        assert_eq!(out.status.code(), Some(1), "modified {what}");
        assert!(out.stdout.is_empty(), "no plaintext with a modified {what}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("authentication failed"));
    }
}
