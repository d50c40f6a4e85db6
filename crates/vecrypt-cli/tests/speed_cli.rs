//! `vecrypt speed`: every mode, the Aigis-enc rows, `--paper`, `--svg` and `info`, on one
//! backend with 1 ms samples so that each test takes seconds.

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

fn json(args: &[&str]) -> Vec<serde_json::Value> {
    let text = ok(args);
    let rows: serde_json::Value = serde_json::from_str(&text).unwrap();
    rows.as_array().unwrap().clone()
}

const QUICK: [&str; 4] = ["--sample-ms", "1", "--backend", "soft"];

#[test]
fn aigis_rows_for_every_set() {
    let mut args = vec!["speed", "--json", "aigis"];
    args.extend(QUICK);
    let rows = json(&args);
    for set in 1..=4 {
        for op in ["keygen", "encaps", "decaps"] {
            for mode in ["shake", "sm3"] {
                let found = rows.iter().any(|r| {
                    r["algorithm"] == format!("aigis-enc-{set}")
                        && r["direction"] == op
                        && r["mode"] == mode
                        && r["ops_per_s"].as_f64().unwrap() > 0.0
                });
                assert!(found, "aigis-enc-{set} {mode} {op}");
            }
        }
    }
    assert!(
        rows.iter()
            .all(|r| r["algorithm"].as_str().unwrap().starts_with("aigis"))
    );
}

#[test]
fn every_mode_has_rows() {
    let mut args = vec!["speed", "--json", "kuznyechik", "aes-128"];
    args.extend(QUICK);
    let rows = json(&args);
    for mode in [
        "ecb",
        "cbc",
        "ctr",
        "gcm",
        "mgm",
        "xts",
        "cmac",
        "omac",
        "cfb",
        "ofb",
        "ctr-acpkm",
        "omac-acpkm",
    ] {
        assert!(
            rows.iter()
                .any(|r| r["mode"] == mode && !r["peer"].as_bool().unwrap()),
            "no {mode} row"
        );
    }
    // Peers are marked, and measure what our rows measure.
    assert!(
        rows.iter()
            .any(|r| r["peer"] == true && r["backend"] == "kuznyechik crate")
    );
    assert!(rows.iter().any(|r| r["peer"] == true && r["mode"] == "gcm"));
    for r in &rows {
        assert!(r["peer"] == true || r["backend"] == "soft", "{r}");
        assert!(r["mb_per_s"].as_f64().unwrap() > 0.0, "{r}");
    }
}

#[test]
fn papers_print_their_published_figures() {
    for (paper, alg_args, figures) in [
        ("ublock", vec![], vec!["7205", "6340", "11.8"]),
        (
            "aigis",
            vec!["--backend", "soft"],
            vec![
                "125.0k",
                "292.0k",
                "18.8k",
                "inverse NTT, one polynomial",
                "matrix A, SM3 (9 polynomials)",
                "noise of keygen, SHAKE-256 (6 polynomials)",
            ],
        ),
        ("kuznyechik", vec!["--backend", "soft"], vec!["~180", "395"]),
        ("aes", vec!["--backend", "soft"], vec!["~1.5x", "31296"]),
    ] {
        let mut args = vec!["speed", "--paper", paper, "--sample-ms", "1"];
        args.extend(alg_args);
        let text = ok(&args);
        for f in figures {
            assert!(text.contains(f), "--paper {paper} lacks {f}:\n{text}");
        }
    }
}

#[test]
fn svg_chart_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("speed.svg");
    let mut args = vec!["speed", "aigis-enc-1", "--svg", path.to_str().unwrap()];
    args.extend(QUICK);
    ok(&args);
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(
        svg.starts_with("<svg") || svg.starts_with("<?xml"),
        "{svg:.80}"
    );
    assert!(svg.contains("aigis-enc-1"));

    // An existing chart is replaced only with --force, and refused before measuring.
    let mut args = vec!["speed", "aigis-enc-1", "--svg", path.to_str().unwrap()];
    args.extend(QUICK);
    let out = vecrypt(&args);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--force"));
    assert!(out.stdout.is_empty(), "nothing measured");
    std::fs::write(&path, b"old").unwrap();
    args.push("--force");
    ok(&args);
    assert_ne!(std::fs::read(&path).unwrap(), b"old");

    // An unwritable place: status 2 and one line.
    let mut args = vec!["speed", "aigis-enc-1", "--svg", "/nonexistent-dir/x.svg"];
    args.extend(QUICK);
    let out = vecrypt(&args);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
}

#[test]
fn info_lists_aigis() {
    let text = ok(&["info"]);
    for set in 1..=4 {
        assert!(text.contains(&format!("aigis-enc-{set}")), "{text}");
    }
}

#[test]
fn unknown_paper_is_a_usage_error() {
    let out = vecrypt(&["speed", "--paper", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
}

/// `--bounds`: a row per kernel loop this CPU runs, each with its backend, loop, bound and
/// kernel speed: ECB, CTR, XTS and GCM for AES-128 and AES-256 on each VAES backend, ECB and
/// CTR on AES-NI, and the Keccak permutations of AVX-512 (eight lanes) and AVX2 (four);
/// elsewhere a usage error.
#[test]
fn bounds_rows_or_a_usage_error() {
    use vecrypt::Backend;
    let aes = vecrypt::aes::Aes::<vecrypt::aes::K128>::backends();
    let avx2 = vecrypt::aigis::backends().contains(&Backend::Avx2);
    let out = vecrypt(&["speed", "--bounds", "--json", "--sample-ms", "1"]);
    if !aes.contains(&Backend::AesNi) && !avx2 {
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
        return;
    }
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["core_ghz"].as_f64().unwrap() > 0.0);
    let rows = v["rows"].as_array().unwrap();
    let find = |alg: &str, mode: &str, backend: &str| {
        rows.iter()
            .find(|r| r["algorithm"] == alg && r["mode"] == mode && r["backend"] == backend)
            .cloned()
    };
    let mut expected = 0;
    for (backend, modes) in [
        (
            Backend::Vaes512,
            &["ecb-encrypt", "ctr", "xts-encrypt", "gcm-seal"][..],
        ),
        (
            Backend::Vaes256,
            &["ecb-encrypt", "ctr", "xts-encrypt", "gcm-seal"][..],
        ),
        (Backend::AesNi, &["ecb-encrypt", "ctr"][..]),
    ] {
        for alg in ["aes-128", "aes-256"] {
            for mode in modes {
                let r = find(alg, mode, backend.name());
                assert_eq!(
                    r.is_some(),
                    aes.contains(&backend),
                    "{alg} {mode} {backend}"
                );
                let Some(r) = r else { continue };
                expected += 1;
                assert!(r["bound_gb_per_s"].as_f64().unwrap() > 0.0);
                assert!(r["kernel_gb_per_s"].as_f64().unwrap() > 0.0);
                assert!(r["mix"]["aes"].as_u64().unwrap() >= 80);
            }
        }
    }
    if let Some(k) = find("keccak-f1600", "x8", "avx512") {
        expected += 1;
        assert!(k["kernel_cycles"].as_f64().unwrap() > 0.0);
        assert!(k["bound_gb_per_s"].is_null());
        assert_eq!(k["mix"]["rotate"].as_u64(), Some(24 * 29));
    }
    let k = find("keccak-f1600", "x4", "avx2");
    assert_eq!(k.is_some(), avx2);
    if let Some(k) = k {
        expected += 1;
        assert!(k["kernel_cycles"].as_f64().unwrap() > 0.0);
        assert!(k["mix"]["shift"].as_u64().unwrap() >= 24 * 2 * 20);
    }
    assert_eq!(rows.len(), expected);
}

#[test]
fn bounds_take_no_filters() {
    let out = vecrypt(&["speed", "--bounds", "aes-128"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
}
