//! Replays the committed fuzz corpora (`fuzz/corpus/<target>/*`) through the checks of the
//! fuzz targets, so that every input the fuzzer kept is checked again by `cargo test` on the
//! stable toolchain.

use std::path::Path;

#[test]
fn corpora_replay() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus");
    for (name, check) in vecrypt_fuzzcheck::TARGETS {
        let dir = root.join(name);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{}: no corpus", dir.display());
        for file in &files {
            let data = std::fs::read(file).expect("a corpus file");
            let outcome = std::panic::catch_unwind(|| check(&data));
            assert!(outcome.is_ok(), "{name}: {} fails", file.display());
        }
        println!("{name}: {} inputs", files.len());
    }
}

/// The edge inputs: nothing, and short runs of zeros and of ones.
#[test]
fn edge_inputs() {
    for (_, check) in vecrypt_fuzzcheck::TARGETS {
        for data in [&[][..], &[0u8; 7], &[0xff; 7], &[0u8; 200], &[0xff; 200]] {
            check(data);
        }
    }
}
