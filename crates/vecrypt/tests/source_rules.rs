//! Rules on the library's own source that the compiler does not check by itself:
//! `unsafe` is allowed only in the architecture folders and the wipe helper, every
//! `unsafe fn` documents its contract under `# Safety`, CPU features are enabled only
//! through the kernel table (`#[kernel(NAME)]`), never spelled out in `#[target_feature]`,
//! and secrets are wiped only through the one volatile helper, `crate::wipe`.

use std::fs;
use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn library() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    files.sort();
    assert!(files.len() > 50, "the library's sources were not found");
    files
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// Whether `path` (relative to `src/`) is inside an architecture folder or the wipe helper.
fn may_hold_unsafe(path: &str) -> bool {
    path.starts_with("wipe/")
        || path
            .split('/')
            .any(|part| matches!(part, "x86" | "aarch64" | "arm"))
}

#[test]
fn unsafe_code_is_allowed_only_for_architecture_folders_and_the_wipe_helper() {
    let lib = library();
    let root = &lib.iter().find(|(p, _)| p == "lib.rs").unwrap().1;
    assert!(root.contains("#![deny(unsafe_code, unsafe_op_in_unsafe_fn)]"));
    let mut wrong = Vec::new();
    for (path, text) in &lib {
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if !line.contains("allow(unsafe_code)") || line.trim_start().starts_with("//") {
                continue;
            }
            // The allowance sits on the declaration of an architecture module (possibly
            // after its cfg), or inside the wipe helper.
            let declares = lines[i + 1..]
                .iter()
                .find(|l| !l.trim_start().starts_with("#["))
                .map(|l| l.trim());
            let fenced = matches!(
                declares,
                Some("mod x86;" | "mod aarch64;" | "mod arm;" | "pub(crate) mod x86;")
            );
            if !(fenced || path.starts_with("wipe/")) {
                wrong.push(format!("{path}:{}", i + 1));
            }
        }
        if !may_hold_unsafe(path) {
            for (i, line) in lines.iter().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                if code.contains("unsafe ") || code.contains("unsafe{") {
                    wrong.push(format!("{path}:{} holds unsafe code", i + 1));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "unsafe outside its fence: {wrong:#?}");
}

#[test]
fn every_unsafe_fn_has_a_safety_section() {
    let mut missing = Vec::new();
    for (path, text) in library() {
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if !code.contains("unsafe fn ") {
                continue;
            }
            let documented = lines[..i]
                .iter()
                .rev()
                .take_while(|l| {
                    let t = l.trim_start();
                    t.starts_with("///") || t.starts_with("#[") || t.starts_with("//")
                })
                .any(|l| l.contains("# Safety"));
            if !documented {
                missing.push(format!("{path}:{}", i + 1));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "unsafe fn without # Safety: {missing:#?}"
    );
}

#[test]
fn cpu_features_are_enabled_only_through_the_kernel_table() {
    let mut spelled = Vec::new();
    for (path, text) in library() {
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if code.contains("#[target_feature") {
                spelled.push(format!("{path}:{}", i + 1));
            }
        }
    }
    assert!(
        spelled.is_empty(),
        "#[target_feature] outside the kernel table: {spelled:#?}"
    );
}

#[test]
fn secrets_are_wiped_only_through_the_wipe_helper() {
    let mut elsewhere = Vec::new();
    for (path, text) in library() {
        if path.starts_with("wipe/") {
            continue;
        }
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let wipes_another_way = code.contains(".zeroize()")
                || code.contains("Zeroize::zeroize")
                || code.contains("impl Zeroize for")
                || (code.contains("derive(") && code.contains("Zeroize"));
            if wipes_another_way {
                elsewhere.push(format!("{path}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    assert!(
        elsewhere.is_empty(),
        "wiped without crate::wipe: {elsewhere:#?}"
    );
}
