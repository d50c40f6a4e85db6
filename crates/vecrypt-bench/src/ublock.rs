//! uBlock: every backend of vecrypt, ECB/CTR/CBC, one key and several keys.

use vecrypt::registry::{self, CipherInfo};

use crate::{Budget, Row, throughput_row};

/// Bytes per call for the long-message rows: 1 MiB.
const LONG: usize = 1 << 20;

fn cipher_rows(budget: Budget, info: &CipherInfo, rows: &mut Vec<Row>) {
    let key = vec![0x5au8; info.key_len];
    let iv = vec![0u8; info.block_len];
    for backend in (info.backends)() {
        let Ok(c) = (info.new)(&key, Some(backend)) else {
            continue;
        };
        let imp = format!("vecrypt/{backend}");
        let mut buf = vec![0u8; LONG];
        rows.push(throughput_row(
            budget,
            info.name,
            &imp,
            "ecb-encrypt",
            LONG,
            || c.encrypt_ecb(&mut buf).unwrap(),
        ));
        rows.push(throughput_row(
            budget,
            info.name,
            &imp,
            "ecb-decrypt",
            LONG,
            || c.decrypt_ecb(&mut buf).unwrap(),
        ));
        rows.push(throughput_row(budget, info.name, &imp, "ctr", LONG, || {
            c.apply_ctr(&iv, &mut buf).unwrap()
        }));
        rows.push(throughput_row(
            budget,
            info.name,
            &imp,
            "cbc-encrypt",
            LONG,
            || c.encrypt_cbc(&iv, &mut buf).unwrap(),
        ));
        rows.push(throughput_row(
            budget,
            info.name,
            &imp,
            "cbc-decrypt",
            LONG,
            || c.decrypt_cbc(&iv, &mut buf).unwrap(),
        ));
    }
}

/// All uBlock rows.
pub fn rows(budget: Budget) -> Vec<Row> {
    let mut rows = Vec::new();
    for info in registry::ciphers() {
        if info.name.starts_with("ublock") {
            cipher_rows(budget, &info, &mut rows);
        }
    }
    rows
}
