//! Kuznyechik: the `kuznyechik` crate (alone and under `ctr`) next to every vecrypt backend.

use cipher::{BlockCipherDecrypt, BlockCipherEncrypt, KeyInit, KeyIvInit, StreamCipher};
use vecrypt::kuznyechik::Kuznyechik;
use vecrypt::modes::BlockModes;

use crate::{Budget, Row, throughput_row};

const ALG: &str = "kuznyechik";
/// Bytes per call for the long-message rows: 16 KiB and 1 MiB.
const SIZES: [usize; 2] = [16 << 10, 1 << 20];

fn as_blocks(b: &mut [u8]) -> &mut [cipher::Block<kuznyechik::Kuznyechik>] {
    cipher::Array::cast_slice_from_core_mut(b.as_chunks_mut::<16>().0)
}

fn peer_rows(budget: Budget, rows: &mut Vec<Row>, op: &str, len: usize) {
    let key = [0x5au8; 32];
    let peer = kuznyechik::Kuznyechik::new(&key.into());
    let mut buf = vec![0u8; len];
    let row = match op {
        "ecb-encrypt" => throughput_row(budget, ALG, "kuznyechik crate", op, len, || {
            peer.encrypt_blocks(as_blocks(&mut buf))
        }),
        "ecb-decrypt" => throughput_row(budget, ALG, "kuznyechik crate", op, len, || {
            peer.decrypt_blocks(as_blocks(&mut buf))
        }),
        _ => throughput_row(budget, ALG, "kuznyechik + ctr crates", op, len, || {
            ctr::Ctr128BE::<kuznyechik::Kuznyechik>::new(&key.into(), &[0u8; 16].into())
                .apply_keystream(&mut buf)
        }),
    };
    rows.push(row);
}

/// All Kuznyechik rows.
pub fn rows(budget: Budget) -> Vec<Row> {
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
        }
    }
    rows
}
