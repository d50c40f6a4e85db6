//! `include/vecrypt.h` is what cbindgen makes of this crate today; the test fails when the
//! committed header is stale, and `VECRYPT_WRITE_HEADER=1` rewrites it instead.

use std::path::Path;

#[test]
fn committed_header_is_current() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).unwrap();
    let mut fresh = Vec::new();
    cbindgen::Builder::new()
        .with_crate(crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen could not read the crate")
        .write(&mut fresh);
    let path = crate_dir.join("../../include/vecrypt.h");
    if std::env::var_os("VECRYPT_WRITE_HEADER").is_some() {
        std::fs::write(&path, &fresh).unwrap();
    }
    let committed = std::fs::read(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "include/vecrypt.h is stale: run VECRYPT_WRITE_HEADER=1 cargo test -p vecrypt-c"
    );
}
