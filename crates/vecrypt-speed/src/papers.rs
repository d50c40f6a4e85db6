//! Each seed paper's table, laid out as in the paper, with the published figures beside the
//! ones measured on this machine. The published figures are copied here with their source:
//! document, table or section, and the machine they were measured on.

use vecrypt::Backend;
use vecrypt::aes::{Aes, K128};
use vecrypt::aigis::{self, Aigis, HashMode, KernelPart, ParamSet, Params, Set2};
use vecrypt::kuznyechik::Kuznyechik;
use vecrypt::modes::{BlockModes, MultiKey};
use vecrypt::ublock::{Ublock, V128_128, V128_256, V256_256, Variant};

use crate::{Plan, SpeedRow, time_per_call};

// ---- uBlock -------------------------------------------------------------------------------

/// "分组密码 uBlock 详细设计" (ISCAS, 2019), the SSE reference on an Intel i7-3740QM:
/// encryption of 1 MB, cycles per byte, for 128/128, 128/256 and 256/256.
pub const UBLOCK_DESIGN_CPB: [f64; 3] = [11.8, 17.4, 13.6];
/// Gao Ying et al., "Fast software implementation of the block cipher uBlock algorithm",
/// J. NUDT 2024, 46(6): AVX2, AMD Ryzen 9 5900X, uBlock-128/128, Mbit/s with one key and with
/// four keys.
pub const UBLOCK_PAPER_MBITS: (f64, f64) = (7205.0, 6340.0);
/// The same paper's AVX2 code rebuilt and run on an x86-64 server of the class these tables
/// are measured on: Gbit/s for 128/128 (a range), 128/256 and 256/256.
pub const UBLOCK_PAPER_CODE_GBITS: [&str; 3] = ["3.4-4.1", "about 2.5", "about 2.1"];
/// The design document's NEON figures on a Cortex-A53, Mbit/s (128/128, 128/256, 256/256).
pub const UBLOCK_DESIGN_A53_MBITS: [f64; 3] = [168.0, 127.0, 104.0];

// ---- Aigis-enc ----------------------------------------------------------------------------

/// Aigis-enc-2 (the implementation paper's "Aigis-enc-768"): the designers' portable
/// reference C (PQMagic, `kem/aigis-enc/std`) on an x86-64 server, time-stamp counter ticks
/// for keygen, encaps, decaps; SHAKE mode, then SM3 mode.
pub const AIGIS_REF_SHAKE: [f64; 3] = [125e3, 179e3, 219e3];
pub const AIGIS_REF_SM3: [f64; 3] = [292e3, 356e3, 379e3];
/// ML-KEM-768 on the same machine: the pq-crystals AVX2 code and the reference C.
pub const MLKEM768_AVX2: [f64; 3] = [18.8e3, 19.4e3, 22.1e3];
pub const MLKEM768_REF: [f64; 3] = [92e3, 107e3, 135e3];
/// Shen Shiyu, He Feng, Zhao Yunlei, J. Computer Research and Development 2021,
/// 58(10):2238-2252: Cortex-M4 (STM32F4DISCOVERY) stack of Aigis-enc-768 keygen, encaps and
/// decaps, KB, before and after the memory work, and the cycles of one operation there.
pub const AIGIS_M4_STACK_BEFORE_KB: [f64; 3] = [10.8, 14.1, 15.3];
pub const AIGIS_M4_STACK_AFTER_KB: [f64; 3] = [3.3, 2.9, 3.0];
pub const AIGIS_M4_CYCLES: &str = "about 2.3 M";
/// The same paper on x86-64: its AVX2 code over the original AVX2 code.
pub const AIGIS_PAPER_AVX2_GAIN: &str = "+25%";

// ---- Kuznyechik ---------------------------------------------------------------------------

/// Published Kuznyechik software speeds, MB/s, with method and machine.
pub const KUZNYECHIK_PUBLISHED: [(&str, &str, &str); 4] = [
    (
        "table, GOSThopper Go assembler (seed article)",
        "~180",
        "Intel i5-9600K",
    ),
    (
        "table, kuznyechik crate (SSE2, two 64 KiB tables)",
        "~200 ECB, 120-180 CTR",
        "x86-64 server",
    ),
    ("bitsliced, 256 blocks at once", "395", "Intel i5-8400"),
    (
        "byte-sliced AVX-512 with GFNI (estimate)",
        "1.5-3 cycles/byte",
        "-",
    ),
];

// ---- AES ----------------------------------------------------------------------------------

/// The seed article's test file: 31.3 KB, here rounded down to whole blocks.
pub const AES_FILE_BYTES: usize = 31_296;
/// The seed article: AES-NI over table AES, ECB and CBC on that file.
pub const AES_NI_OVER_TABLE: f64 = 1.5;
/// System OpenSSL 3.0 (`openssl speed -evp`, 16 KB, AES-128) on an x86-64 server, GB/s:
/// ECB, CTR, CBC encryption, GCM.
pub const AES_OPENSSL30_GBS: [(&str, f64); 4] = [
    ("ecb", 5.8),
    ("ctr", 5.2),
    ("cbc-encrypt", 1.1),
    ("gcm", 2.4),
];

/// The name of the table-driven backend, present only when the library is built with its
/// table backends; the published table-method columns read it, or print n/a.
const TABLE_LEAKY: &str = "table-leaky";

/// The papers `--paper` knows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Paper {
    Ublock,
    Aigis,
    Kuznyechik,
    Aes,
}

impl Paper {
    pub const NAMES: [&'static str; 4] = ["ublock", "aigis", "kuznyechik", "aes"];

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "ublock" => Some(Paper::Ublock),
            "aigis" => Some(Paper::Aigis),
            "kuznyechik" => Some(Paper::Kuznyechik),
            "aes" => Some(Paper::Aes),
            _ => None,
        }
    }

    /// Measures what this paper's table needs; `progress` is told what is being measured.
    pub fn measure(self, plan: &Plan, progress: &mut dyn FnMut(&str)) -> Vec<SpeedRow> {
        let mut rows = Vec::new();
        match self {
            Paper::Ublock => {
                ublock_rows::<V128_128>(plan, &mut rows, progress);
                ublock_rows::<V128_256>(plan, &mut rows, progress);
                ublock_rows::<V256_256>(plan, &mut rows, progress);
            }
            Paper::Aigis => aigis_rows(plan, &mut rows, progress),
            Paper::Kuznyechik => kuznyechik_rows(plan, &mut rows, progress),
            Paper::Aes => aes_rows(plan, &mut rows, progress),
        }
        rows
    }

    /// Prints the table from the rows [`Paper::measure`] gave.
    pub fn print(self, rows: &[SpeedRow]) {
        match self {
            Paper::Ublock => print_ublock(rows),
            Paper::Aigis => print_aigis(rows),
            Paper::Kuznyechik => print_kuznyechik(rows),
            Paper::Aes => print_aes(rows),
        }
    }
}

fn find(rows: &[SpeedRow], f: impl Fn(&SpeedRow) -> bool) -> Option<&SpeedRow> {
    rows.iter().find(|r| f(r))
}

fn cell(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "n/a".to_string(), |v| format!("{v:.digits$}"))
}

fn header(title: &str) {
    println!("{title}");
    println!("this machine: {}", crate::cpu_name());
    println!();
}

/// The methods of the uBlock table: the design document's nibble layout (SSSE3), the paper's
/// paired-nibble AVX2 layout, and the best backend here.
const UBLOCK_METHODS: [&str; 3] = ["ssse3 (design doc)", "avx2 (paper layout)", "best"];

fn ublock_rows<V: Variant>(plan: &Plan, rows: &mut Vec<SpeedRow>, progress: &mut dyn FnMut(&str)) {
    type Maker<V> = fn(&[u8]) -> Result<Ublock<V>, vecrypt::Error>;
    let makers: [Maker<V>; 3] = [
        |k| Ublock::<V>::with_backend(k, Backend::Ssse3),
        |k| Ublock::<V>::with_paper_layout(k),
        |k| Ublock::<V>::from_key(k),
    ];
    for (method, make) in UBLOCK_METHODS.iter().zip(makers) {
        let keys: Vec<Vec<u8>> = (0..4).map(|i| vec![0x5a ^ i as u8; V::KEY]).collect();
        let Ok(one) = make(&keys[0]) else {
            continue;
        };
        let label = if *method == "best" {
            format!("{} (best)", vecrypt::modes::BlockModes::backend(&one))
        } else {
            method.to_string()
        };
        let Ok(four) = MultiKey::from_keys(&keys, make) else {
            continue;
        };
        for (message, len) in [("short", V::BLOCK), ("long", crate::LONG_MESSAGE)] {
            progress(&format!("{} {label} {message}", V::NAME));
            let mut buf = vec![0u8; len];
            let ns = time_per_call(plan.budget, || one.encrypt_ecb(&mut buf).unwrap());
            rows.push(SpeedRow::measured(
                V::NAME,
                &label,
                false,
                1,
                "ecb",
                "encrypt",
                message,
                len,
                ns,
            ));
            let mut bufs = vec![vec![0u8; len]; 4];
            let ns = time_per_call(plan.budget, || {
                let mut refs: Vec<&mut [u8]> = bufs.iter_mut().map(|b| b.as_mut_slice()).collect();
                four.encrypt_ecb(&mut refs).unwrap()
            });
            rows.push(SpeedRow::measured(
                V::NAME,
                &label,
                false,
                4,
                "ecb",
                "encrypt",
                message,
                4 * len,
                ns,
            ));
        }
    }
}

fn print_ublock(rows: &[SpeedRow]) {
    header(
        "uBlock, ECB encryption, Mbit/s (one key / four keys), short = one block per key, long = 2 Mbit per key",
    );
    println!(
        "{:<15} {:<22} {:>9} {:>9} {:>9} {:>9} {:>7}  published",
        "variant", "method", "short 1k", "short 4k", "long 1k", "long 4k", "cyc/B"
    );
    let variants = [V128_128::NAME, V128_256::NAME, V256_256::NAME];
    for (vi, variant) in variants.iter().enumerate() {
        // The published methods always have their line, measured or not on this CPU.
        let mut labels: Vec<&str> = UBLOCK_METHODS[..2].to_vec();
        for r in rows.iter().filter(|r| r.algorithm == *variant) {
            if !labels.contains(&r.backend.as_str()) {
                labels.push(&r.backend);
            }
        }
        for (i, label) in labels.iter().enumerate() {
            let get = |message: &str, keys: usize| {
                find(rows, |r| {
                    r.algorithm == *variant
                        && r.backend == *label
                        && r.message == message
                        && r.keys == keys
                })
            };
            let mbit = |m, k| cell(get(m, k).and_then(|r| r.mbit_per_s), 0);
            let published = if label.starts_with("ssse3") {
                format!(
                    "{} cyc/B, SSE, i7-3740QM (design document); {} Mbit/s NEON, Cortex-A53",
                    UBLOCK_DESIGN_CPB[vi], UBLOCK_DESIGN_A53_MBITS[vi]
                )
            } else if label.starts_with("avx2 (paper") {
                let mut s = format!(
                    "its AVX2 code here-class: {} Gbit/s",
                    UBLOCK_PAPER_CODE_GBITS[vi]
                );
                if vi == 0 {
                    s = format!(
                        "{:.0} / {:.0} Mbit/s 1k/4k, Ryzen 9 5900X (paper); {s}",
                        UBLOCK_PAPER_MBITS.0, UBLOCK_PAPER_MBITS.1
                    );
                }
                s
            } else {
                String::new()
            };
            println!(
                "{:<15} {:<22} {:>9} {:>9} {:>9} {:>9} {:>7}  {}",
                if i == 0 { variant } else { "" },
                label,
                mbit("short", 1),
                mbit("short", 4),
                mbit("long", 1),
                mbit("long", 4),
                cell(get("long", 1).and_then(|r| r.cycles_per_byte), 2),
                published
            );
        }
    }
}

/// The set of the paper's tables; its type, [`Set2`], gives the per-function sizes.
const AIGIS_SET: ParamSet = ParamSet::Aigis2;

/// Runs of a function per timed call in the per-function rows.
const PART_RUNS: u32 = 16;

/// The mode column of the per-function rows: the hash mode the function ran in.
fn part_mode(mode: HashMode) -> &'static str {
    match mode {
        HashMode::Shake => "function-shake",
        HashMode::Sm3 => "function-sm3",
    }
}

fn aigis_rows(plan: &Plan, rows: &mut Vec<SpeedRow>, progress: &mut dyn FnMut(&str)) {
    let only = |n: &str| n == crate::aigis::set_name(AIGIS_SET);
    rows.extend(crate::aigis_rows(plan, &only, &mut || {
        progress("aigis-enc-2")
    }));
    let algorithm = crate::aigis::set_name(AIGIS_SET);
    for backend in aigis::backends() {
        if !plan.wants(backend) {
            continue;
        }
        for part in KernelPart::ALL {
            let modes: &[HashMode] = if part.hashes() {
                &[HashMode::Shake, HashMode::Sm3]
            } else {
                &[HashMode::Shake]
            };
            for &mode in modes {
                let Ok(kem) = Aigis::with_backend(AIGIS_SET, mode, backend) else {
                    continue;
                };
                let ns = time_per_call(plan.budget, || {
                    std::hint::black_box(kem.run_kernel_part(part, PART_RUNS));
                }) / f64::from(PART_RUNS);
                rows.push(SpeedRow::measured(
                    &algorithm,
                    backend.name(),
                    false,
                    1,
                    part_mode(mode),
                    part.name(),
                    "-",
                    0,
                    ns,
                ));
                progress("aigis-enc-2 functions");
            }
        }
    }
}

/// The per-function table: cycles of one call of each function, per backend.
fn print_aigis_functions(rows: &[SpeedRow]) {
    let mut backends: Vec<&str> = Vec::new();
    for r in rows.iter().filter(|r| r.mode.starts_with("function-")) {
        if !backends.contains(&r.backend.as_str()) {
            backends.push(&r.backend);
        }
    }
    if backends.is_empty() {
        return;
    }
    println!();
    println!(
        "Per function, as the paper's Table 1: cycles of one call on this machine (k = {}, d_u = {})",
        Set2::K,
        Set2::D_U
    );
    print!("{:<52}", "function");
    for b in &backends {
        print!(" {b:>9}");
    }
    println!();
    let k = Set2::K;
    let lines: [(KernelPart, HashMode, String); 9] = [
        (
            KernelPart::Ntt,
            HashMode::Shake,
            "NTT, one polynomial".into(),
        ),
        (
            KernelPart::InvNtt,
            HashMode::Shake,
            "inverse NTT, one polynomial".into(),
        ),
        (
            KernelPart::Product,
            HashMode::Shake,
            format!("product row: {k} pointwise products, summed"),
        ),
        (
            KernelPart::Matrix,
            HashMode::Shake,
            format!("matrix A, SHAKE-128 ({} polynomials)", k * k),
        ),
        (
            KernelPart::Matrix,
            HashMode::Sm3,
            format!("matrix A, SM3 ({} polynomials)", k * k),
        ),
        (
            KernelPart::Noise,
            HashMode::Shake,
            format!("noise of keygen, SHAKE-256 ({} polynomials)", 2 * k),
        ),
        (
            KernelPart::Noise,
            HashMode::Sm3,
            format!("noise of keygen, SM3 ({} polynomials)", 2 * k),
        ),
        (
            KernelPart::Compress,
            HashMode::Shake,
            "compress, one polynomial".into(),
        ),
        (
            KernelPart::Decompress,
            HashMode::Shake,
            "decompress, one polynomial".into(),
        ),
    ];
    for (part, mode, label) in lines {
        print!("{label:<52}");
        for b in &backends {
            let v = find(rows, |r| {
                r.backend == *b && r.mode == part_mode(mode) && r.direction == part.name()
            })
            .and_then(|r| r.cycles_per_op);
            print!(" {:>9}", cell(v, 0));
        }
        println!();
    }
}

fn kcycles(v: Option<f64>) -> String {
    v.map_or_else(|| "n/a".to_string(), |v| format!("{:.1}k", v / 1e3))
}

fn print_aigis(rows: &[SpeedRow]) {
    header(
        "Aigis-enc-2 (the paper's Aigis-enc-768): time-stamp counter cycles per operation, keygen / encaps / decaps",
    );
    println!(
        "{:<44} {:<13} {:>9} {:>9} {:>9}   reference / this",
        "implementation", "figures", "keygen", "encaps", "decaps"
    );
    let published = |name: &str, v: [f64; 3]| {
        println!(
            "{:<44} {:<13} {:>9} {:>9} {:>9}",
            name,
            "published",
            kcycles(Some(v[0])),
            kcycles(Some(v[1])),
            kcycles(Some(v[2]))
        );
    };
    for (hash, reference) in [("shake", AIGIS_REF_SHAKE), ("sm3", AIGIS_REF_SM3)] {
        published(&format!("reference C (PQMagic), {hash}"), reference);
        let mut labels: Vec<(&str, &str)> = Vec::new();
        for r in rows.iter().filter(|r| r.mode.starts_with(hash)) {
            if !labels.contains(&(r.backend.as_str(), r.mode)) {
                labels.push((&r.backend, r.mode));
            }
        }
        for (backend, mode) in labels {
            let get = |op: &str| {
                find(rows, |r| {
                    r.backend == backend && r.mode == mode && r.direction == op
                })
                .and_then(|r| r.cycles_per_op)
            };
            let ours = [get("keygen"), get("encaps"), get("decaps")];
            let gain: Vec<String> = ours
                .iter()
                .zip(reference)
                .map(|(o, p)| o.map_or("n/a".into(), |o| format!("{:.1}x", p / o)))
                .collect();
            println!(
                "{:<44} {:<13} {:>9} {:>9} {:>9}   {}",
                format!("vecrypt {backend}, {mode}"),
                "this machine",
                kcycles(ours[0]),
                kcycles(ours[1]),
                kcycles(ours[2]),
                gain.join(" / ")
            );
        }
    }
    published("ML-KEM-768, pq-crystals AVX2", MLKEM768_AVX2);
    published("ML-KEM-768, reference C", MLKEM768_REF);
    print_aigis_functions(rows);
    println!();
    println!(
        "The paper's AVX2 code: {AIGIS_PAPER_AVX2_GAIN} over the original AVX2 code (neither public)."
    );
    println!(
        "The paper on a Cortex-M4 (compact, low-memory): {AIGIS_M4_CYCLES} cycles per operation, \
stack {}/{}/{} KB down from {}/{}/{} KB (keygen/encaps/decaps); the `-compact` rows above are \
that memory plan on this CPU.",
        AIGIS_M4_STACK_AFTER_KB[0],
        AIGIS_M4_STACK_AFTER_KB[1],
        AIGIS_M4_STACK_AFTER_KB[2],
        AIGIS_M4_STACK_BEFORE_KB[0],
        AIGIS_M4_STACK_BEFORE_KB[1],
        AIGIS_M4_STACK_BEFORE_KB[2]
    );
}

/// Bytes per call of the Kuznyechik rows.
const KUZ_BYTES: usize = 16 * 1024;

fn kuznyechik_rows(plan: &Plan, rows: &mut Vec<SpeedRow>, progress: &mut dyn FnMut(&str)) {
    let key = [0x5au8; 32];
    let iv = [0u8; 16];
    // Kuznyechik::backends() lists `table-leaky` when the library has the table backends.
    for backend in Kuznyechik::backends() {
        if !plan.wants(backend) && backend.is_constant_time() {
            continue;
        }
        let Ok(c) = Kuznyechik::with_backend(&key, backend) else {
            continue;
        };
        progress(&format!("kuznyechik {backend}"));
        let mut buf = vec![0u8; KUZ_BYTES];
        let ns = time_per_call(plan.budget, || c.encrypt_ecb(&mut buf).unwrap());
        rows.push(SpeedRow::measured(
            "kuznyechik",
            backend.name(),
            false,
            1,
            "ecb",
            "encrypt",
            "long",
            KUZ_BYTES,
            ns,
        ));
        let ns = time_per_call(plan.budget, || c.apply_ctr(&iv, &mut buf).unwrap());
        rows.push(SpeedRow::measured(
            "kuznyechik",
            backend.name(),
            false,
            1,
            "ctr",
            "encrypt",
            "long",
            KUZ_BYTES,
            ns,
        ));
    }
    progress("kuznyechik crate");
    rows.extend(crate::peers::kuznyechik_sized(plan, KUZ_BYTES));
}

fn print_kuznyechik(rows: &[SpeedRow]) {
    header("Kuznyechik, MB/s over 16 KiB (published figures as quoted, with their machines)");
    println!(
        "{:<52} {:<24} {:<16} {:>9} {:>9} {:>7}",
        "method", "published MB/s", "on", "ECB here", "CTR here", "cyc/B"
    );
    let here = |backend: &str| {
        let get = |mode: &str| find(rows, |r| r.backend.starts_with(backend) && r.mode == mode);
        (
            cell(get("ecb").and_then(|r| r.mb_per_s), 0),
            cell(get("ctr").and_then(|r| r.mb_per_s), 0),
            cell(get("ecb").and_then(|r| r.cycles_per_byte), 2),
        )
    };
    // Which measured row stands for each published method: the 64 KiB-table backend (when
    // built with the table backends), the crate itself, none here, and our AVX-512 kernel.
    let stand_ins = [TABLE_LEAKY, "kuznyechik", "", "avx512"];
    for ((method, mbs, on), stand_in) in KUZNYECHIK_PUBLISHED.iter().zip(stand_ins) {
        let (ecb, ctr, cpb) = if stand_in.is_empty() {
            ("n/a".into(), "n/a".into(), "n/a".into())
        } else {
            here(stand_in)
        };
        println!("{method:<52} {mbs:<24} {on:<16} {ecb:>9} {ctr:>9} {cpb:>7}");
    }
    let mut ours: Vec<&str> = Vec::new();
    for r in rows.iter().filter(|r| !r.peer) {
        if !ours.contains(&r.backend.as_str()) {
            ours.push(&r.backend);
        }
    }
    for b in ours {
        let (ecb, ctr, cpb) = here(b);
        let what = if b == TABLE_LEAKY {
            format!("vecrypt {b} (64 KiB tables, NOT constant time)")
        } else {
            format!("vecrypt {b} (constant time)")
        };
        println!(
            "{what:<52} {:<24} {:<16} {ecb:>9} {ctr:>9} {cpb:>7}",
            "-", "this machine"
        );
    }
}

fn aes_rows(plan: &Plan, rows: &mut Vec<SpeedRow>, progress: &mut dyn FnMut(&str)) {
    let key = [0x42u8; 16];
    let iv = [0x24u8; 16];
    for backend in Aes::<K128>::backends() {
        if !plan.wants(backend) && backend.is_constant_time() {
            continue;
        }
        let Ok(c) = Aes::<K128>::with_backend(&key, backend) else {
            continue;
        };
        progress(&format!("aes-128 {backend}"));
        let mut buf = vec![0u8; AES_FILE_BYTES];
        let mut push = |mode, direction, ns| {
            rows.push(SpeedRow::measured(
                "aes-128",
                backend.name(),
                false,
                1,
                mode,
                direction,
                "file",
                AES_FILE_BYTES,
                ns,
            ))
        };
        push(
            "ecb",
            "encrypt",
            time_per_call(plan.budget, || c.encrypt_ecb(&mut buf).unwrap()),
        );
        push(
            "ecb",
            "decrypt",
            time_per_call(plan.budget, || c.decrypt_ecb(&mut buf).unwrap()),
        );
        push(
            "cbc",
            "encrypt",
            time_per_call(plan.budget, || c.encrypt_cbc(&iv, &mut buf).unwrap()),
        );
        push(
            "cbc",
            "decrypt",
            time_per_call(plan.budget, || c.decrypt_cbc(&iv, &mut buf).unwrap()),
        );
    }
}

fn print_aes(rows: &[SpeedRow]) {
    header(&format!(
        "AES-128 on a 31.3 KB file ({AES_FILE_BYTES} bytes), MB/s: AES-NI against table AES as in the seed article"
    ));
    let mut backends: Vec<&str> = Vec::new();
    for r in rows {
        if !backends.contains(&r.backend.as_str()) {
            backends.push(&r.backend);
        }
    }
    let get = |b: &str, m: &str, d: &str| {
        find(rows, |r| r.backend == b && r.mode == m && r.direction == d).and_then(|r| r.mb_per_s)
    };
    print!(
        "{:<13} {:>9} {:>11} {:>14} {:>14}",
        "", "aesni", "table AES", "aesni/table", "published"
    );
    let others: Vec<&str> = backends
        .iter()
        .copied()
        .filter(|b| *b != "aesni" && *b != TABLE_LEAKY)
        .collect();
    for b in &others {
        print!(" {b:>9}");
    }
    println!(" {:>11}", "aesni/soft");
    for (m, d) in [
        ("ecb", "encrypt"),
        ("ecb", "decrypt"),
        ("cbc", "encrypt"),
        ("cbc", "decrypt"),
    ] {
        let ni = get("aesni", m, d);
        let table = get(TABLE_LEAKY, m, d);
        let ratio = ni.zip(table).map(|(a, t)| a / t);
        print!(
            "{:<13} {:>9} {:>11} {:>14} {:>14}",
            format!("{m} {d}"),
            cell(ni, 0),
            cell(table, 0),
            ratio.map_or("n/a".into(), |r| format!("{r:.2}x")),
            format!("~{AES_NI_OVER_TABLE}x")
        );
        for b in &others {
            print!(" {:>9}", cell(get(b, m, d), 0));
        }
        let soft = ni.zip(get("soft", m, d)).map(|(a, s)| a / s);
        println!(" {:>11}", soft.map_or("n/a".into(), |r| format!("{r:.1}x")));
    }
    println!();
    let openssl: Vec<String> = AES_OPENSSL30_GBS
        .iter()
        .map(|(m, g)| format!("{m} {g} GB/s"))
        .collect();
    println!(
        "For scale: system OpenSSL 3.0 (`openssl speed -evp`, 16 KB, AES-128) on an x86-64 server: {}.",
        openssl.join(", ")
    );
    println!("The table-free `soft` backend is the constant-time software baseline.");
}
