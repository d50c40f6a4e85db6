//! `cargo xtask bench-openssl4 [vecrypt-bench arguments]`: `vecrypt-bench` (the comparison
//! program of `vecrypt-speed`) with OpenSSL 4 as its OpenSSL peer, whatever OpenSSL the
//! system has.
//!
//! OpenSSL 4 is built once from the source that the `openssl-src` crate (400.x) carries,
//! into `<target>/openssl4` (Perl, make and a C compiler are needed; the build takes a few
//! minutes). The bench is then built in its own target directory, `<target>/openssl4-bench`,
//! linked statically against that build, so the everyday build keeps the system's OpenSSL.
//! The OpenSSL rows name the version that ran ("openssl 4.0.3").

use std::path::Path;
use std::process::Command;

use super::{target_dir, workspace_root};

pub fn bench_openssl4(args: &[String]) -> Result<bool, String> {
    let out = target_dir().join("openssl4");
    let install = out.join("install");
    let (include, lib) = (install.join("include"), install.join("lib"));
    if !include.join("openssl").join("opensslv.h").exists() || !has_libcrypto(&lib) {
        let host = host_triple()?;
        eprintln!("building OpenSSL 4 from source into {} ...", out.display());
        let artifacts = openssl_src::Build::new()
            .out_dir(&out)
            .target(&host)
            .host(&host)
            .try_build()?;
        if artifacts.include_dir() != include || artifacts.lib_dir() != lib {
            return Err(format!(
                "OpenSSL was installed in {} and {}, not where expected",
                artifacts.include_dir().display(),
                artifacts.lib_dir().display()
            ));
        }
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(workspace_root())
        .args([
            "run",
            "--release",
            "-p",
            "vecrypt-speed",
            "--features",
            "bench,openssl",
            "--bin",
            "vecrypt-bench",
            "--",
        ])
        .args(args)
        .env("CARGO_TARGET_DIR", target_dir().join("openssl4-bench"))
        .env("OPENSSL_INCLUDE_DIR", &include)
        .env("OPENSSL_LIB_DIR", &lib)
        .env("OPENSSL_STATIC", "1")
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    Ok(status.success())
}

fn has_libcrypto(lib: &Path) -> bool {
    lib.join("libcrypto.a").exists() && lib.join("libssl.a").exists()
}

/// The host's target triple, from `rustc -vV`.
fn host_triple() -> Result<String, String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(rustc)
        .arg("-vV")
        .output()
        .map_err(|e| format!("cannot run rustc: {e}"))?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_owned))
        .ok_or_else(|| "rustc -vV names no host".into())
}
