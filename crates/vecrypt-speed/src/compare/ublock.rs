//! uBlock: every backend of vecrypt side by side, ECB/CTR/CBC over 1 MiB, keying plus one
//! block, and CBC over many keys at once. Backends with a fully bitsliced kernel also show
//! its ECB split into the rounds alone (each direction) and the transposition alone, the
//! measured bound of that kernel.
//!
//! The SSSE3 backend (one nibble per byte, the design document's layout) is listed first for
//! every operation, so the ratio column reads as the speed-up over that baseline. No other
//! Rust implementation of uBlock exists to compare with.

use std::hint::black_box;

use vecrypt::Backend;
use vecrypt::modes::{BlockModes, MultiKey};
use vecrypt::ublock::{KernelPart, Ublock, V128_128, V128_256, V256_256, Variant};

use super::{one_block_row, throughput_row};
use crate::{Budget, SpeedRow};

/// Bytes per call for the long-message rows: 1 MiB.
const LONG: usize = 1 << 20;

/// Stream counts for the multi-key CBC rows.
const STREAMS: [usize; 3] = [4, 16, 32];

/// Keys a cipher on one backend (or kernel).
type KeyFn<V> = Box<dyn Fn(&[u8]) -> Result<Ublock<V>, vecrypt::Error>>;

/// A way to key the cipher, with its row label.
struct Maker<V: Variant> {
    label: String,
    make: KeyFn<V>,
}

/// Backends in report order: the SSSE3 baseline first, then the paper's AVX2 kernel (two
/// blocks per byte) forced for every call, then the backends best-first.
fn ordered<V: Variant>() -> Vec<Maker<V>> {
    let all = Ublock::<V>::backends();
    let backend = |b: Backend| Maker {
        label: format!("vecrypt/{b}"),
        make: Box::new(move |k: &[u8]| Ublock::<V>::with_backend(k, b)),
    };
    let mut out: Vec<Maker<V>> = Vec::new();
    if all.contains(&Backend::Ssse3) {
        out.push(backend(Backend::Ssse3));
    }
    if all.contains(&Backend::Avx2) {
        out.push(Maker {
            label: "vecrypt/avx2 (paper layout)".into(),
            make: Box::new(|k: &[u8]| Ublock::<V>::with_paper_layout(k)),
        });
    }
    out.extend(
        all.iter()
            .copied()
            .filter(|b| *b != Backend::Ssse3)
            .map(backend),
    );
    out
}

fn long_rows<V: Variant>(budget: Budget, rows: &mut Vec<SpeedRow>) {
    let key = vec![0x5au8; V::KEY];
    let iv = vec![0u8; V::BLOCK];
    for maker in ordered::<V>() {
        let Ok(c) = (maker.make)(&key) else {
            continue;
        };
        let imp = maker.label;
        let mut buf = vec![0u8; LONG];
        let mut row = |op: &str, f: &mut dyn FnMut(&mut [u8])| {
            rows.push(throughput_row(budget, V::NAME, &imp, op, LONG, || {
                f(&mut buf)
            }));
        };
        row("ecb-encrypt", &mut |b| c.encrypt_ecb(b).unwrap());
        row("ecb-decrypt", &mut |b| c.decrypt_ecb(b).unwrap());
        row("ctr", &mut |b| c.apply_ctr(&iv, b).unwrap());
        row("cbc-encrypt", &mut |b| c.encrypt_cbc(&iv, b).unwrap());
        row("cbc-decrypt", &mut |b| c.decrypt_cbc(&iv, b).unwrap());
        // How the bitsliced kernel's ECB splits, where the backend has one: its rounds of
        // either direction alone and its transposition alone (no output is ciphertext).
        if c.run_kernel_part(KernelPart::Rounds, &mut vec![0u8; LONG]) > 0 {
            row("ecb rounds only", &mut |b| {
                c.run_kernel_part(KernelPart::Rounds, b);
            });
            row("ecb-decrypt rounds only", &mut |b| {
                c.run_kernel_part(KernelPart::DecryptionRounds, b);
            });
            row("ecb transposition only", &mut |b| {
                c.run_kernel_part(KernelPart::Transposition, b);
            });
        }
    }
}

/// Keying plus one block: what a protocol with a fresh key per short message pays. Keying
/// stores the key and defers the schedule, which the first one-block encryption runs
/// alongside its rounds: the `key-setup` row is that deferred keying alone.
fn short_rows<V: Variant>(budget: Budget, rows: &mut Vec<SpeedRow>) {
    for maker in ordered::<V>() {
        let imp = maker.label;
        let c = (maker.make)(&[0x33u8; 32][..V::KEY]).unwrap();
        rows.push(one_block_row(budget, V::NAME, &imp, &c));
        let mut key = vec![0x33u8; V::KEY];
        let mut block = vec![0u8; V::BLOCK];
        rows.push(throughput_row(
            budget,
            V::NAME,
            &imp,
            "key+1-block",
            V::BLOCK,
            || {
                key[0] = key[0].wrapping_add(1);
                let c = (maker.make)(black_box(&key)).unwrap();
                c.encrypt_ecb(&mut block).unwrap();
            },
        ));
        rows.push(throughput_row(
            budget,
            V::NAME,
            &imp,
            "key-setup",
            0,
            || {
                key[0] = key[0].wrapping_add(1);
                black_box((maker.make)(black_box(&key)).unwrap());
            },
        ));
    }
}

/// CBC encryption of `n` streams (one key each) totalling 1 MiB, in one multi-key call.
fn multi_rows<V: Variant>(budget: Budget, rows: &mut Vec<SpeedRow>) {
    for n in STREAMS {
        for maker in ordered::<V>() {
            let keys: Vec<Vec<u8>> = (0..n).map(|i| vec![i as u8; V::KEY]).collect();
            let Ok(multi) = MultiKey::from_keys(&keys, |k| (maker.make)(k)) else {
                continue;
            };
            let ivs = vec![vec![0u8; V::BLOCK]; n];
            let iv_refs: Vec<&[u8]> = ivs.iter().map(|v| v.as_slice()).collect();
            let mut bufs = vec![vec![0u8; LONG / n]; n];
            rows.push(throughput_row(
                budget,
                V::NAME,
                &maker.label,
                &format!("cbc-encrypt x{n} keys"),
                LONG,
                || {
                    let mut refs: Vec<&mut [u8]> =
                        bufs.iter_mut().map(|v| v.as_mut_slice()).collect();
                    multi.encrypt_cbc(&iv_refs, &mut refs).unwrap();
                },
            ));
        }
    }
}

fn variant_rows<V: Variant>(budget: Budget, rows: &mut Vec<SpeedRow>) {
    long_rows::<V>(budget, rows);
    multi_rows::<V>(budget, rows);
    short_rows::<V>(budget, rows);
}

/// All uBlock rows.
pub fn rows(budget: Budget) -> Vec<SpeedRow> {
    let mut rows = Vec::new();
    variant_rows::<V128_128>(budget, &mut rows);
    variant_rows::<V128_256>(budget, &mut rows);
    variant_rows::<V256_256>(budget, &mut rows);
    rows
}
