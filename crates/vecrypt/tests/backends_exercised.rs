//! Every backend this CPU runs is exercised and accounted for: each cipher of the registry
//! and Aigis-enc is keyed on each of its runnable backends, checked to run there (not on a
//! silent fallback), and compared with its portable backend. The run writes the table of
//! what ran to `backends-exercised.txt` in Cargo's test scratch directory and prints it.
//!
//! The backends this machine must run come from outside the library's CPU detection: on
//! x86-64 Linux, from the flags `/proc/cpuinfo` lists, through the kernel table
//! ([`vecrypt::cpu::backends_on`]); anywhere, from `VECRYPT_EXPECT_BACKENDS`
//! (comma-separated names, as `VECRYPT_BACKEND` spells them). The test fails if one of them
//! ran for no algorithm, for instance because CPU detection missed a feature the CPU has.

use std::collections::{BTreeMap, BTreeSet};

use vecrypt::Backend;
use vecrypt::aigis::{self, Aigis, HashMode, ParamSet};
use vecrypt::registry;

mod common;
use common::bytes;

/// What ran: algorithm name to the backends it ran on.
type Ran = BTreeMap<String, BTreeSet<Backend>>;

/// Keys every registered cipher on each runnable backend and checks ECB, CBC and CTR
/// against the portable backend on a few lengths.
fn block_ciphers(ran: &mut Ran) {
    for info in registry::ciphers() {
        let n = info.block_len;
        let key = bytes(1, info.key_len);
        let iv = bytes(2, n);
        let soft = (info.new)(&key, Some(Backend::Soft)).unwrap();
        for backend in (info.backends)() {
            let cipher = (info.new)(&key, Some(backend)).unwrap();
            assert_eq!(cipher.backend(), backend, "{} keyed elsewhere", info.name);
            for blocks in [1, 3, 8, 64, 300] {
                let pt = bytes(3 + blocks as u64, blocks * n);
                let (mut a, mut b) = (pt.clone(), pt.clone());
                soft.encrypt_ecb(&mut a).unwrap();
                cipher.encrypt_ecb(&mut b).unwrap();
                assert_eq!(a, b, "{} {backend} ecb {blocks} blocks", info.name);
                cipher.decrypt_ecb(&mut b).unwrap();
                assert_eq!(b, pt, "{} {backend} ecb decrypt", info.name);
                let (mut a, mut b) = (pt.clone(), pt.clone());
                soft.encrypt_cbc(&iv, &mut a).unwrap();
                cipher.encrypt_cbc(&iv, &mut b).unwrap();
                assert_eq!(a, b, "{} {backend} cbc {blocks} blocks", info.name);
                let (mut a, mut b) = (pt.clone(), pt.clone());
                soft.apply_ctr(&iv, &mut a).unwrap();
                cipher.apply_ctr(&iv, &mut b).unwrap();
                assert_eq!(a, b, "{} {backend} ctr {blocks} blocks", info.name);
            }
            ran.entry(info.name.to_string())
                .or_default()
                .insert(backend);
        }
    }
}

/// Key generation, encapsulation and decapsulation on each runnable backend, against the
/// portable backend, for every set and hash mode.
fn kem(ran: &mut Ran) {
    for backend in aigis::backends() {
        for set in ParamSet::ALL {
            for mode in [HashMode::Shake, HashMode::Sm3] {
                let soft = Aigis::with_backend(set, mode, Backend::Soft).unwrap();
                let kem = Aigis::with_backend(set, mode, backend).unwrap();
                assert_eq!(kem.backend(), backend);
                let (coins, ecoins) = (bytes(10, 64), bytes(11, 32));
                let (pk, sk) = kem.keypair_from_coins(&coins).unwrap();
                let (spk, ssk) = soft.keypair_from_coins(&coins).unwrap();
                assert_eq!((&pk, &sk[..]), (&spk, &ssk[..]), "{set:?} {backend} keygen");
                let (ct, ss) = kem.encapsulate_from_coins(&pk, &ecoins).unwrap();
                assert_eq!(
                    (ct.clone(), ss.clone()),
                    soft.encapsulate_from_coins(&pk, &ecoins).unwrap(),
                    "{set:?} {backend} encaps"
                );
                assert_eq!(kem.decapsulate(&sk, &ct).unwrap(), ss, "{set:?} {backend}");
            }
        }
        ran.entry("aigis-enc".to_string())
            .or_default()
            .insert(backend);
    }
}

/// The report: each algorithm with the backends that ran, then the kernels this CPU runs
/// (the sub-paths the backends may take).
fn table(ran: &Ran) -> String {
    let mut out = String::new();
    for (algorithm, backends) in ran {
        let names: Vec<&str> = backends.iter().map(|b| b.name()).collect();
        out += &format!("{algorithm:<16} {}\n", names.join(" "));
    }
    let kernels: Vec<&str> = vecrypt::cpu::kernels::ALL
        .iter()
        .filter(|k| k.runs())
        .map(|k| k.name())
        .collect();
    out += &format!("kernels this CPU runs: {}\n", kernels.join(" "));
    out
}

#[test]
fn every_backend_this_cpu_runs_is_exercised_and_every_expected_one_ran() {
    let mut ran = Ran::new();
    block_ciphers(&mut ran);
    kem(&mut ran);
    let report = table(&ran);
    println!("{report}");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(dir.join("backends-exercised.txt"), &report).unwrap();

    let all: BTreeSet<Backend> = ran.values().flatten().copied().collect();
    let expected = expected_backends();
    println!(
        "expected from outside the library: {}",
        expected
            .iter()
            .map(|b| b.name())
            .collect::<Vec<_>>()
            .join(" ")
    );
    let missing: Vec<&str> = expected
        .iter()
        .filter(|b| !all.contains(b))
        .map(|b| b.name())
        .collect();
    assert!(
        missing.is_empty(),
        "expected to run but did not: {}\n{report}",
        missing.join(", ")
    );
}

/// The backends this machine must run: those the operating system's CPU report calls for,
/// and those `VECRYPT_EXPECT_BACKENDS` names.
fn expected_backends() -> BTreeSet<Backend> {
    let mut expected: BTreeSet<Backend> = reported_cpu_backends().into_iter().collect();
    if let Ok(names) = std::env::var("VECRYPT_EXPECT_BACKENDS") {
        for name in names.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let backend: Backend = name
                .parse()
                .unwrap_or_else(|_| panic!("VECRYPT_EXPECT_BACKENDS names no backend: {name}"));
            expected.insert(backend);
        }
    }
    expected
}

/// On x86-64 Linux, the backends whose kernels run on the flags of `/proc/cpuinfo`, which
/// the kernel reports only when the CPU and the operating system both support them.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
fn reported_cpu_backends() -> Vec<Backend> {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").expect("/proc/cpuinfo");
    let flags = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("flags"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, f)| f)
        .expect("a flags line in /proc/cpuinfo");
    // Linux's spelling to `#[target_feature]`'s, where they differ.
    let present: Vec<&'static str> = flags
        .split_whitespace()
        .map(|f| match f {
            "sse4_1" => "sse4.1".to_string(),
            "avx512_vbmi2" => "avx512vbmi2".to_string(),
            other => other.to_string(),
        })
        .map(|f| &*Box::leak(f.into_boxed_str()))
        .collect();
    let backends = vecrypt::cpu::backends_on(&vecrypt::cpu::Features::with("x86_64", &present));
    assert!(backends.contains(&Backend::Soft));
    if present.contains(&"avx2") {
        assert!(backends.contains(&Backend::Avx2), "{backends:?} with AVX2");
    }
    backends
}

#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
fn reported_cpu_backends() -> Vec<Backend> {
    Vec::new()
}
