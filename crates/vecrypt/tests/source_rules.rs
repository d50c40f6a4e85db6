//! Rules on the library's own source that the compiler does not check by itself:
//! `unsafe` is allowed only in the architecture folders and the wipe helper, every
//! `unsafe fn` documents its contract under `# Safety`, CPU features are enabled only
//! through the kernel table (`#[kernel(NAME)]`), never spelled out in `#[target_feature]`,
//! secrets are wiped only through the one volatile helper, `crate::wipe`, and comments
//! carry no measured figures or CPU model names (those live in `docs/perf/`). Beyond the
//! library, every crate of the workspace forbids unsafe code outside its architecture
//! folders, or is one of the three boundaries to C, whose unsafe blocks the compiler makes
//! document themselves.

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
                Some(
                    "mod x86;"
                        | "mod aarch64;"
                        | "mod arm;"
                        | "pub(crate) mod x86;"
                        | "pub(crate) mod aarch64;"
                )
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
    // The library, and the sources of the other crates, whose unsafe code is their C ABI.
    let mut files = library();
    let mut crates: Vec<(String, PathBuf)> = workspace_roots()
        .into_iter()
        .map(|(name, root)| {
            let src = root.ancestors().find(|a| a.ends_with("src")).unwrap();
            (name, src.to_path_buf())
        })
        .collect();
    crates.dedup();
    assert!(
        crates
            .iter()
            .any(|(name, _)| name == "crates/vecrypt-openssl")
    );
    for (name, src) in crates {
        let mut paths = Vec::new();
        sources(&src, &mut paths);
        paths.sort();
        for p in paths {
            let shown = format!("{name}/{}", p.strip_prefix(&src).unwrap().display());
            files.push((shown, fs::read_to_string(&p).unwrap()));
        }
    }
    for (path, text) in files {
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if !code.contains("unsafe fn ") && !code.contains("unsafe extern \"C\" fn ") {
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

/// Units that make a number in a comment a measured time, speed or clock rate.
const UNITS: &[&str] = &[
    "ns",
    "µs",
    "GB/s",
    "MB/s",
    "GiB/s",
    "MiB/s",
    "Gbit/s",
    "Mbit/s",
    "GHz",
    "MHz",
    "cycles per byte",
    "cycle per byte",
    "cycles/B",
    "cpb",
];

/// CPU models; a name ending in `#` stands for that name followed by a digit.
const CPU_MODELS: &[&str] = &[
    "Zen#",
    "Zen #",
    "Emerald Rapids",
    "Sapphire Rapids",
    "Granite Rapids",
    "Ice Lake",
    "Tiger Lake",
    "Alder Lake",
    "Raptor Lake",
    "Meteor Lake",
    "Arrow Lake",
    "Lunar Lake",
    "Rocket Lake",
    "Cannon Lake",
    "Cascade Lake",
    "Cooper Lake",
    "Skylake",
    "Haswell",
    "Broadwell",
    "Tremont",
    "Gracemont",
    "Golden Cove",
    "EPYC",
    "Xeon",
    "Ryzen",
    "Core i#",
    "Neoverse",
    "Cortex-A#",
    "Apple M#",
    "Graviton",
];

/// The comment on `line`, if any: from `//` at the start of the line, or from a `//` after
/// code that follows whitespace (so not a URL's `://`).
fn comment(line: &str) -> Option<&str> {
    let t = line.trim_start();
    if t.starts_with("//") {
        return Some(t);
    }
    line.match_indices("//")
        .find(|(i, _)| line[..*i].ends_with(' '))
        .map(|(i, _)| &line[i..])
}

/// The first measured figure in `text`: a number, an optional space or hyphen, and a unit
/// of [`UNITS`] that ends a word.
fn measured_figure(text: &str) -> Option<String> {
    for unit in UNITS {
        for (at, _) in text.match_indices(unit) {
            let after = text[at + unit.len()..].chars().next();
            if after.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let before = &text[..at];
            let number = before
                .strip_suffix(' ')
                .or_else(|| before.strip_suffix('-'))
                .unwrap_or(before);
            if number.ends_with(|c: char| c.is_ascii_digit()) {
                let start = number
                    .rfind(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
                    .map_or(0, |i| i + 1);
                return Some(text[start..at + unit.len()].to_string());
            }
        }
    }
    None
}

/// The first CPU model of [`CPU_MODELS`] that `text` names.
fn cpu_model(text: &str) -> Option<String> {
    for model in CPU_MODELS {
        let (name, digit) = match model.strip_suffix('#') {
            Some(name) => (name, true),
            None => (*model, false),
        };
        for (at, _) in text.match_indices(name) {
            let next = text[at + name.len()..].chars().next();
            let whole = if digit {
                next.is_some_and(|c| c.is_ascii_digit())
            } else {
                !next.is_some_and(|c| c.is_alphanumeric())
            };
            let starts_word = !text[..at].ends_with(|c: char| c.is_alphanumeric());
            if whole && starts_word {
                return Some(text[at..].chars().take(name.len() + 2).collect());
            }
        }
    }
    None
}

#[test]
fn the_figure_and_model_scanners_find_what_they_should() {
    let flagged = [
        "/// 16 KiB in about 310 ns, 1.00x the `aes` crate",
        "//! about 2.0 cycles per byte, 1.8 GB/s at 3.6 GHz",
        "//! 328-343 MB/s against 249-259 MB/s",
        "/// one block costs about 1.9 µs here",
        "// On Emerald Rapids, 64-byte messages",
        "//! Measured on AMD Zen 5 (EPYC, 4.1 GHz)",
        "//! about 6300 cycles on a Neoverse N1 (7900 on a Cortex-A72)",
        "    let x = 1; // 12-cpb loop",
    ];
    for line in flagged {
        let text = comment(line).unwrap();
        assert!(
            measured_figure(text).is_some() || cpu_model(text).is_some(),
            "not flagged: {line}"
        );
    }
    let clean = [
        "/// Returns the transposed planes; 464 cycles per 512 bytes before the transposition",
        "//! 58 instructions on the two ports, 29 cycles per round",
        "/// Whether the core is AMD family 0x1A or later (`zen5_class`)",
        "//! the Cortex-M4 (`thumbv7em-none-eabihf`), 5,308 instructions per block",
        "//! constants and patterns, columns and runs, 16 lanes",
        "let url = \"https://example.org/10ns\";",
    ];
    for line in clean {
        let found = comment(line).and_then(|t| measured_figure(t).or_else(|| cpu_model(t)));
        assert!(found.is_none(), "flagged {found:?} in: {line}");
    }
}

#[test]
fn comments_carry_no_measured_figures_or_cpu_models() {
    let mut found = Vec::new();
    for (path, text) in library() {
        for (i, line) in text.lines().enumerate() {
            let Some(comment) = comment(line) else {
                continue;
            };
            if let Some(what) = measured_figure(comment).or_else(|| cpu_model(comment)) {
                found.push(format!("{path}:{}: {what}", i + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "measured figures or CPU models in comments (state the bound in instructions here, \
         and move the measurement, with its CPU, to docs/perf/<algorithm>.md): {found:#?}"
    );
}

/// The crates whose purpose is a foreign interface: the C library, the OpenSSL provider and
/// the Python extension.
const BOUNDARIES: &[&str] = &["crates/vecrypt-c", "crates/vecrypt-openssl", "python"];

/// Every crate root of the workspace but the library's: each `src/lib.rs`, `src/main.rs`
/// and `src/bin/*.rs` of `crates/*`, `xtask` and `python`, with its crate's folder.
fn workspace_roots() -> Vec<(String, PathBuf)> {
    let top = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut dirs: Vec<(String, PathBuf)> = fs::read_dir(top.join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("Cargo.toml").exists() && !p.ends_with("vecrypt"))
        .map(|p| {
            let name = format!("crates/{}", p.file_name().unwrap().to_string_lossy());
            (name, p)
        })
        .collect();
    dirs.push(("xtask".into(), top.join("xtask")));
    dirs.push(("python".into(), top.join("python")));
    let mut roots = Vec::new();
    for (name, dir) in dirs {
        let src = dir.join("src");
        for file in ["lib.rs", "main.rs"] {
            if src.join(file).exists() {
                roots.push((name.clone(), src.join(file)));
            }
        }
        if let Ok(bins) = fs::read_dir(src.join("bin")) {
            for bin in bins {
                roots.push((name.clone(), bin.unwrap().path()));
            }
        }
    }
    roots.sort();
    roots
}

#[test]
fn every_crate_of_the_workspace_fences_its_unsafe_code() {
    let roots = workspace_roots();
    assert!(
        roots.len() >= 10,
        "the workspace's crates were not found: {roots:?}"
    );
    let mut wrong = Vec::new();
    for (name, path) in &roots {
        let text = fs::read_to_string(path).unwrap();
        let shown = path.display();
        if BOUNDARIES.contains(&name.as_str()) {
            for rule in [
                "#![deny(unsafe_op_in_unsafe_fn)]",
                "#![deny(clippy::undocumented_unsafe_blocks, clippy::missing_safety_doc)]",
            ] {
                if !text.contains(rule) {
                    wrong.push(format!("{shown}: a boundary crate without {rule}"));
                }
            }
            continue;
        }
        if !text.contains("#![forbid(unsafe_code)]") && !text.contains("#![deny(unsafe_code)]") {
            wrong.push(format!("{shown}: neither forbids nor denies unsafe code"));
        }
        // An exception is an architecture folder's module, declared on the next line(s).
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if line.trim() != "#[allow(unsafe_code)]" {
                continue;
            }
            let next = lines[i + 1..]
                .iter()
                .take(2)
                .copied()
                .collect::<Vec<_>>()
                .join(" ");
            let arch = ["mod x86;", "\"../x86/"].iter().any(|m| next.contains(m));
            if !arch {
                wrong.push(format!("{shown}:{}: unsafe allowed outside x86/", i + 1));
            }
        }
    }
    assert!(wrong.is_empty(), "unsafe code not fenced: {wrong:#?}");
}

/// Every algorithm reaches its kernels in one shape: a `Kernels` trait in its `dispatch.rs`
/// whose entries decline by default, one `Native` per architecture that makes the choice
/// once (`keyed`), and the front's `mod native` naming it; no module of empty stand-ins.
/// Kernel entries report a named outcome, and an entry that checks the CPU per call does it
/// through `checked!`, never with a hand-written early return.
#[test]
fn kernels_are_reached_in_one_shape() {
    let lib = library();
    let file = |p: &str| {
        lib.iter()
            .find(|(path, _)| path == p)
            .map(|(_, t)| t.as_str())
    };
    let mut wrong = Vec::new();
    for alg in ["aes", "aigis", "kuznyechik", "ublock"] {
        match file(&format!("{alg}/dispatch.rs")) {
            Some(t) if t.contains("pub(super) trait Kernels") && t.contains("fn keyed(") => {}
            _ => wrong.push(format!(
                "{alg}/dispatch.rs: no `Kernels` trait with `keyed`"
            )),
        }
        let front = file(&format!("{alg}/mod.rs")).unwrap_or("");
        if !(front.contains("mod native {") && front.contains("pub(super) struct Native;")) {
            wrong.push(format!(
                "{alg}/mod.rs: no `mod native` with its portable `Native`"
            ));
        }
        if file(&format!("{alg}/no_kernels.rs")).is_some() || front.contains("mod no_kernels") {
            wrong.push(format!("{alg}: a module of stand-ins beside `Native`"));
        }
    }
    for (path, text) in &lib {
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if !(code.contains("if !") && code.contains(".runs()")) {
                continue;
            }
            // Tests skip on a CPU without the kernel with a bare `return;`, which is allowed.
            let early = lines[i..lines.len().min(i + 3)].iter().any(|l| {
                ["return false", "return None", "return Ran::Declined"]
                    .iter()
                    .any(|r| l.contains(r))
            });
            if early {
                wrong.push(format!("{path}:{}: a hand-written CPU check", i + 1));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "kernels reached outside the one shape: {wrong:#?}"
    );
}
