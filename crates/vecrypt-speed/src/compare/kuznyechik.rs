//! Kuznyechik: the `kuznyechik` crate (alone and under `ctr`) next to every vecrypt backend
//! (and the best one under `ctr`),
//! one block per call (the key schedule made before), then the GOST R 34.13 modes, MGM and
//! ACPKM per backend (no peer implements them for the current `cipher` traits), the chained
//! modes with a one-block register also over 1 KiB. The `table-leaky` backend, when built,
//! is the table-driven reference beside them.

use cipher::{BlockCipherDecrypt, BlockCipherEncrypt, KeyInit, KeyIvInit, StreamCipher};
use vecrypt::kuznyechik::{Kuznyechik, KuznyechikMgm, acpkm};
use vecrypt::modes::{BlockModes, gost};

use super::{one_block_row, throughput_row};
use crate::peers::blocks;
use crate::{Budget, SpeedRow};

const ALG: &str = "kuznyechik";
/// Bytes per call for the long-message rows: 16 KiB and 1 MiB.
const SIZES: [usize; 2] = [16 << 10, 1 << 20];

fn peer_rows(budget: Budget, rows: &mut Vec<SpeedRow>, op: &str, len: usize) {
    let key = [0x5au8; 32];
    let peer = kuznyechik::Kuznyechik::new(&key.into());
    let mut buf = vec![0u8; len];
    let row = match op {
        "ecb-encrypt" => throughput_row(budget, ALG, "kuznyechik crate", op, len, || {
            peer.encrypt_blocks(blocks::<kuznyechik::Kuznyechik>(&mut buf))
        }),
        "ecb-decrypt" => throughput_row(budget, ALG, "kuznyechik crate", op, len, || {
            peer.decrypt_blocks(blocks::<kuznyechik::Kuznyechik>(&mut buf))
        }),
        _ => throughput_row(budget, ALG, "kuznyechik + ctr crates", op, len, || {
            ctr::Ctr128BE::<kuznyechik::Kuznyechik>::new(&key.into(), &[0u8; 16].into())
                .apply_keystream(&mut buf)
        }),
    };
    rows.push(row);
}

/// All Kuznyechik rows.
pub fn rows(budget: Budget) -> Vec<SpeedRow> {
    let mut rows = Vec::new();
    let key = [0x5au8; 32];
    let iv = [0u8; 16];
    for len in SIZES {
        for op in ["ecb-encrypt", "ecb-decrypt", "ctr"] {
            peer_rows(budget, &mut rows, op, len);
            for backend in Kuznyechik::backends() {
                let c = Kuznyechik::with_backend(&key, backend).expect("listed backend");
                let imp = format!("vecrypt/{backend}");
                let mut buf = vec![0u8; len];
                rows.push(throughput_row(budget, ALG, &imp, op, len, || match op {
                    "ecb-encrypt" => c.encrypt_ecb(&mut buf).expect("whole blocks"),
                    "ecb-decrypt" => c.decrypt_ecb(&mut buf).expect("whole blocks"),
                    _ => c.apply_ctr(&iv, &mut buf).expect("one-block IV"),
                }));
            }
            // The same best backend as a RustCrypto block cipher, under the `ctr` crate.
            if op == "ctr" {
                let mut buf = vec![0u8; len];
                rows.push(throughput_row(
                    budget,
                    ALG,
                    "vecrypt + ctr crate",
                    op,
                    len,
                    || {
                        ctr::Ctr128BE::<Kuznyechik>::new(&key.into(), &iv.into())
                            .apply_keystream(&mut buf)
                    },
                ));
            }
        }
    }
    rows.push(one_block_row(
        budget,
        ALG,
        "kuznyechik crate",
        &kuznyechik::Kuznyechik::new(&key.into()),
    ));
    for backend in Kuznyechik::backends() {
        let c = Kuznyechik::with_backend(&key, backend).expect("listed backend");
        rows.push(one_block_row(
            budget,
            ALG,
            &format!("vecrypt/{backend}"),
            &c,
        ));
    }
    for backend in Kuznyechik::backends() {
        mode_rows(budget, &mut rows, backend);
        chained_rows(budget, &mut rows, backend);
    }
    rows
}

/// The chained modes with a one-block register (`z=1`), whose every block waits for the
/// one before, over 1 KiB and 16 KiB on one backend.
fn chained_rows(budget: Budget, rows: &mut Vec<SpeedRow>, backend: vecrypt::Backend) {
    let c = Kuznyechik::with_backend(&[0x5au8; 32], backend).expect("listed backend");
    let imp = format!("vecrypt/{backend}");
    let iv = [0x33u8; 16];
    for len in [1024, SIZES[0]] {
        let mut buf = vec![0u8; len];
        let mut row = |op: &str, f: &mut dyn FnMut(&mut [u8])| {
            rows.push(throughput_row(budget, ALG, &imp, op, len, || f(&mut buf)));
        };
        row("ofb z=1", &mut |b| {
            gost::ofb(&c, &iv, 16, b).expect("valid IV")
        });
        row("cbc-encrypt z=1", &mut |b| {
            gost::cbc_encrypt(&c, &iv, b).expect("whole blocks")
        });
        row("cfb z=1", &mut |b| {
            gost::cfb_encrypt(&c, &iv, 16, b).expect("valid IV")
        });
        if len != SIZES[0] {
            row("omac", &mut |b| {
                std::hint::black_box(gost::mac(&c, b, 16).expect("valid length"));
            });
        }
    }
}

/// The modes with their own parameters, on one backend, over 16 KiB.
fn mode_rows(budget: Budget, rows: &mut Vec<SpeedRow>, backend: vecrypt::Backend) {
    let len = SIZES[0];
    let key = [0x5au8; 32];
    let c = Kuznyechik::with_backend(&key, backend).expect("listed backend");
    let mgm = KuznyechikMgm::new(c.clone());
    let imp = format!("vecrypt/{backend}");
    let nonce = [0x11u8; 16];
    let ad = [0x22u8; 64];
    let iv2 = [0x33u8; 32];
    let mut buf = vec![0u8; len];
    let mut row = |op: &str, f: &mut dyn FnMut(&mut [u8])| {
        rows.push(throughput_row(budget, ALG, &imp, op, len, || f(&mut buf)));
    };
    row("mgm-seal", &mut |b| {
        mgm.encrypt_detached(&nonce, &ad, b).expect("valid nonce");
    });
    let mut sealed = vec![0u8; len];
    let tag = mgm
        .encrypt_detached(&nonce, &ad, &mut sealed)
        .expect("valid nonce");
    row("mgm-open", &mut |b| {
        b.copy_from_slice(&sealed);
        mgm.decrypt_detached(&nonce, &ad, b, &tag)
            .expect("authentic");
    });
    row("ctr-acpkm N=4096", &mut |b| {
        acpkm::ctr_acpkm(&c, &[0u8; 8], 4096, b).expect("valid section")
    });
    row("ofb z=2", &mut |b| {
        gost::ofb(&c, &iv2, 16, b).expect("valid IV")
    });
    row("cbc-encrypt z=2", &mut |b| {
        gost::cbc_encrypt(&c, &iv2, b).expect("whole blocks")
    });
    row("cbc-decrypt z=2", &mut |b| {
        gost::cbc_decrypt(&c, &iv2, b).expect("whole blocks")
    });
    row("cfb z=2", &mut |b| {
        gost::cfb_encrypt(&c, &iv2, 16, b).expect("valid IV")
    });
    row("omac", &mut |b| {
        std::hint::black_box(gost::mac(&c, b, 16).expect("valid length"));
    });
}
