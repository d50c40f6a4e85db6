//! AES: every vecrypt backend (the portable one is the table-free software column) next to
//! OpenSSL, the `aes` crate alone, with `ctr`, and `aes-gcm`, in the same run.

use std::hint::black_box;

use aead::AeadInOut;
use cipher::{BlockCipherEncrypt, KeyInit, KeyIvInit, StreamCipher};
use vecrypt::Backend;
use vecrypt::aes::{Aes, AesCmac, AesGcm, AesXts, K128, K192, K256};
use vecrypt::modes::{BlockModes, MultiKey};

use super::{one_block_row, throughput_row};
use crate::peers::AesPeers as Peers;
#[cfg(feature = "openssl")]
use crate::peers::Ossl;
use crate::{Budget, SpeedRow};

/// Bytes per call for the bulk rows.
const BULK: usize = 16 * 1024;
/// Message sizes for the AEAD rows.
const GCM_SIZES: [usize; 3] = [64, 1024, BULK];
/// The message size of OpenSSL's extra GCM rows: long messages, where its per-call cost
/// vanishes (the size OpenSSL's own speed figures use).
#[cfg(feature = "openssl")]
const OPENSSL_LONG_GCM: usize = 256 * 1024;
/// Independent streams in the multi-stream CBC rows.
const STREAMS: usize = 8;

/// "openssl" and the version of the library that runs (the system's, or the one
/// `cargo xtask bench-openssl4` links).
#[cfg(feature = "openssl")]
fn openssl_name() -> String {
    let version = openssl::version::version();
    format!(
        "openssl {}",
        version.split_whitespace().nth(1).unwrap_or(version)
    )
}

/// OpenSSL's cipher of `mode` for `K`, one of those every key size of these rows has.
#[cfg(feature = "openssl")]
fn openssl_cipher<K: Peers>(mode: &str) -> &'static openssl::cipher::CipherRef {
    K::openssl(mode).expect("OpenSSL has this mode for the key sizes measured")
}

/// `vecrypt/BACKEND`; the table-driven backend is named as what it is, the T-table
/// comparison (secret-indexed, never a default).
fn vecrypt_name(b: Backend) -> String {
    if b.is_constant_time() {
        format!("vecrypt/{b}")
    } else {
        format!("vecrypt/{b} (T-table)")
    }
}

fn block_rows<K: Peers>(budget: Budget, rows: &mut Vec<SpeedRow>) {
    let alg = K::NAME;
    let key = vec![0x42u8; K::KEY];
    let iv = [0x24u8; 16];
    let mut buf = vec![0u8; BULK];
    let backends = Aes::<K>::backends();

    // ECB
    #[cfg(feature = "openssl")]
    {
        let mut o = Ossl::new(openssl_cipher::<K>("ecb"), &key, None, false, BULK);
        rows.push(throughput_row(
            budget,
            alg,
            &openssl_name(),
            "ecb-encrypt",
            BULK,
            || o.update(&buf),
        ));
    }
    let peer = K::Block::new_from_slice(&key).expect("key");
    rows.push(one_block_row(budget, alg, "aes crate", &peer));
    for &b in &backends {
        let c = Aes::<K>::with_backend(&key, b).expect("backend");
        rows.push(one_block_row(budget, alg, &vecrypt_name(b), &c));
    }
    rows.push(throughput_row(
        budget,
        alg,
        "aes crate",
        "ecb-encrypt",
        BULK,
        || {
            let blocks = cipher::Block::<K::Block>::slice_as_chunks_mut(&mut buf).0;
            peer.encrypt_blocks(blocks);
        },
    ));
    for &b in &backends {
        let c = Aes::<K>::with_backend(&key, b).expect("backend");
        rows.push(throughput_row(
            budget,
            alg,
            &vecrypt_name(b),
            "ecb-encrypt",
            BULK,
            || c.encrypt_ecb(&mut buf).unwrap(),
        ));
    }
    for &b in &backends {
        let c = Aes::<K>::with_backend(&key, b).expect("backend");
        rows.push(throughput_row(
            budget,
            alg,
            &vecrypt_name(b),
            "ecb-decrypt",
            BULK,
            || c.decrypt_ecb(&mut buf).unwrap(),
        ));
    }

    // CTR
    #[cfg(feature = "openssl")]
    {
        let mut o = Ossl::new(openssl_cipher::<K>("ctr"), &key, Some(&iv), false, BULK);
        rows.push(throughput_row(
            budget,
            alg,
            &openssl_name(),
            "ctr",
            BULK,
            || o.update(&buf),
        ));
    }
    rows.push(throughput_row(
        budget,
        alg,
        "aes+ctr crates",
        "ctr",
        BULK,
        || {
            let mut c = ctr::Ctr128BE::<K::Block>::new_from_slices(&key, &iv).expect("key");
            c.apply_keystream(&mut buf);
        },
    ));
    for &b in &backends {
        let c = Aes::<K>::with_backend(&key, b).expect("backend");
        rows.push(throughput_row(
            budget,
            alg,
            &vecrypt_name(b),
            "ctr",
            BULK,
            || c.apply_ctr(&iv, &mut buf).unwrap(),
        ));
    }

    // CBC, one stream each way
    #[cfg(feature = "openssl")]
    {
        let mut o = Ossl::new(openssl_cipher::<K>("cbc"), &key, Some(&iv), false, BULK);
        rows.push(throughput_row(
            budget,
            alg,
            &openssl_name(),
            "cbc-encrypt",
            BULK,
            || o.update(&buf),
        ));
    }
    for &b in &backends {
        let c = Aes::<K>::with_backend(&key, b).expect("backend");
        rows.push(throughput_row(
            budget,
            alg,
            &vecrypt_name(b),
            "cbc-encrypt",
            BULK,
            || c.encrypt_cbc(&iv, &mut buf).unwrap(),
        ));
    }
    for &b in &backends {
        let c = Aes::<K>::with_backend(&key, b).expect("backend");
        rows.push(throughput_row(
            budget,
            alg,
            &vecrypt_name(b),
            "cbc-decrypt",
            BULK,
            || c.decrypt_cbc(&iv, &mut buf).unwrap(),
        ));
    }

    // CBC encryption of eight independent streams: one after another, then interleaved.
    let op = format!("cbc-encrypt x{STREAMS}");
    let mut bufs: Vec<Vec<u8>> = vec![vec![0u8; BULK]; STREAMS];
    let keys: Vec<Vec<u8>> = (0..STREAMS).map(|i| vec![i as u8; K::KEY]).collect();
    let ivs: Vec<&[u8]> = (0..STREAMS).map(|_| iv.as_slice()).collect();
    for &b in &backends {
        let set =
            MultiKey::<Aes<K>>::from_keys(&keys, |k| Aes::<K>::with_backend(k, b)).expect("keys");
        rows.push(throughput_row(
            budget,
            alg,
            &format!("vecrypt/{b} one by one"),
            &op,
            STREAMS * BULK,
            || {
                for (c, buf) in set.ciphers().iter().zip(bufs.iter_mut()) {
                    c.encrypt_cbc(&iv, buf).unwrap();
                }
            },
        ));
        rows.push(throughput_row(
            budget,
            alg,
            &format!("vecrypt/{b} interleaved"),
            &op,
            STREAMS * BULK,
            || {
                let mut refs: Vec<&mut [u8]> = bufs.iter_mut().map(|b| b.as_mut_slice()).collect();
                set.encrypt_cbc(&ivs, &mut refs).unwrap();
            },
        ));
    }
}

fn gcm_rows<K: Peers>(budget: Budget, rows: &mut Vec<SpeedRow>) {
    let alg = format!("{}-gcm", K::NAME);
    let key = vec![0x42u8; K::KEY];
    let nonce = [0x24u8; 12];
    let backends = Aes::<K>::backends();
    #[cfg(feature = "openssl")]
    {
        let size = OPENSSL_LONG_GCM;
        let buf = vec![0u8; size];
        let mut o = Ossl::new(openssl_cipher::<K>("gcm"), &key, Some(&nonce), false, size);
        let name = openssl_name();
        rows.push(throughput_row(budget, &alg, &name, "seal", size, || {
            o.gcm_seal(&nonce, &buf)
        }));
    }
    for size in GCM_SIZES {
        let mut buf = vec![0u8; size];
        #[cfg(feature = "openssl")]
        {
            let mut o = Ossl::new(openssl_cipher::<K>("gcm"), &key, Some(&nonce), false, size);
            rows.push(throughput_row(
                budget,
                &alg,
                &openssl_name(),
                "seal",
                size,
                || o.gcm_seal(&nonce, &buf),
            ));
        }
        let peer = K::Gcm::new_from_slice(&key).expect("key");
        let peer_nonce = aead::Nonce::<K::Gcm>::try_from(nonce.as_slice()).expect("nonce");
        rows.push(throughput_row(
            budget,
            &alg,
            "aes-gcm crate",
            "seal",
            size,
            || {
                let tag = peer
                    .encrypt_inout_detached(&peer_nonce, &[], buf.as_mut_slice().into())
                    .expect("seal");
                black_box(tag);
            },
        ));
        for &b in &backends {
            let gcm = AesGcm::<K>::with_backend(&key, b).expect("backend");
            rows.push(throughput_row(
                budget,
                &alg,
                &vecrypt_name(b),
                "seal",
                size,
                || {
                    black_box(gcm.encrypt_detached(&nonce, &[], &mut buf).unwrap());
                },
            ));
        }
    }
    // Keying, for users who key once per message: the round keys and the powers of H (the
    // key object made and dropped, its wipe included).
    rows.push(throughput_row(
        budget,
        &alg,
        "aes-gcm crate",
        "key-setup",
        0,
        || {
            black_box(K::Gcm::new_from_slice(black_box(&key)).expect("key"));
        },
    ));
    for &b in &backends {
        rows.push(throughput_row(
            budget,
            &alg,
            &vecrypt_name(b),
            "key-setup",
            0,
            || {
                black_box(AesGcm::<K>::with_backend(black_box(&key), b).expect("backend"));
            },
        ));
    }
    // Opening a valid message: tag check and decryption.
    let mut buf = vec![0u8; BULK];
    for &b in &backends {
        let gcm = AesGcm::<K>::with_backend(&key, b).expect("backend");
        let mut sealed = buf.clone();
        let tag = gcm.encrypt_detached(&nonce, &[], &mut sealed).unwrap();
        rows.push(throughput_row(
            budget,
            &alg,
            &vecrypt_name(b),
            "open",
            BULK,
            || {
                buf.copy_from_slice(&sealed);
                gcm.decrypt_detached(&nonce, &[], &mut buf, &tag).unwrap();
            },
        ));
    }
}

/// CFB, OFB and CMAC for AES-128 on 16 KiB.
fn other_mode_rows(budget: Budget, rows: &mut Vec<SpeedRow>) {
    let alg = "aes-128";
    let key = [0x42u8; 16];
    let iv = [0x24u8; 16];
    let mut buf = vec![0u8; BULK];
    let backends = Aes::<K128>::backends();
    #[cfg(feature = "openssl")]
    let ossl = |mode: &str, key: &[u8]| {
        Ossl::new(openssl_cipher::<K128>(mode), key, Some(&iv), false, BULK)
    };
    #[cfg(feature = "openssl")]
    {
        let mut o = ossl("cfb", &key);
        rows.push(throughput_row(
            budget,
            alg,
            &openssl_name(),
            "cfb-encrypt",
            BULK,
            || o.update(&buf),
        ));
    }
    for &b in &backends {
        let c = Aes::<K128>::with_backend(&key, b).expect("backend");
        rows.push(throughput_row(
            budget,
            alg,
            &vecrypt_name(b),
            "cfb-encrypt",
            BULK,
            || c.encrypt_cfb(&iv, &mut buf).unwrap(),
        ));
    }
    for &b in &backends {
        let c = Aes::<K128>::with_backend(&key, b).expect("backend");
        rows.push(throughput_row(
            budget,
            alg,
            &vecrypt_name(b),
            "cfb-decrypt",
            BULK,
            || c.decrypt_cfb(&iv, &mut buf).unwrap(),
        ));
    }
    #[cfg(feature = "openssl")]
    {
        let mut o = ossl("ofb", &key);
        rows.push(throughput_row(
            budget,
            alg,
            &openssl_name(),
            "ofb",
            BULK,
            || o.update(&buf),
        ));
    }
    for &b in &backends {
        let c = Aes::<K128>::with_backend(&key, b).expect("backend");
        rows.push(throughput_row(
            budget,
            alg,
            &vecrypt_name(b),
            "ofb",
            BULK,
            || c.apply_ofb(&iv, &mut buf).unwrap(),
        ));
    }
    {
        use cmac::{KeyInit, Mac};
        rows.push(throughput_row(
            budget,
            alg,
            "cmac crate",
            "cmac",
            BULK,
            || {
                let mut m =
                    <cmac::Cmac<aes::Aes128> as KeyInit>::new_from_slice(&key).expect("key");
                m.update(&buf);
                black_box(m.finalize());
            },
        ));
    }
    for &b in &backends {
        let m = AesCmac::<K128>::with_backend(&key, b).expect("backend");
        rows.push(throughput_row(
            budget,
            alg,
            &vecrypt_name(b),
            "cmac",
            BULK,
            || {
                black_box(m.mac(&buf));
            },
        ));
    }
}

/// XTS encryption of one 16 KiB data unit, AES-128 and AES-256 (XTS has no AES-192 in
/// IEEE 1619), beside OpenSSL's.
fn xts_rows<K: Peers>(budget: Budget, rows: &mut Vec<SpeedRow>) {
    let alg = K::NAME;
    let mut buf = vec![0u8; BULK];
    // Data key and tweak key differ, as XTS requires.
    let xts_key: Vec<u8> = (0..2 * K::KEY).map(|i| i as u8 ^ 0x42).collect();
    #[cfg(feature = "openssl")]
    {
        let cipher = openssl_cipher::<K>("xts");
        let mut o = Ossl::new(cipher, &xts_key, Some(&[0x24u8; 16]), false, BULK);
        rows.push(throughput_row(
            budget,
            alg,
            &openssl_name(),
            "xts-encrypt",
            BULK,
            || o.update(&buf),
        ));
    }
    for b in Aes::<K>::backends() {
        let x = AesXts::<K>::with_backend(&xts_key, b).expect("backend");
        rows.push(throughput_row(
            budget,
            alg,
            &vecrypt_name(b),
            "xts-encrypt",
            BULK,
            || x.encrypt_sector(7, &mut buf).unwrap(),
        ));
    }
}

/// All AES rows.
pub fn rows(budget: Budget) -> Vec<SpeedRow> {
    let mut rows = Vec::new();
    block_rows::<K128>(budget, &mut rows);
    gcm_rows::<K128>(budget, &mut rows);
    other_mode_rows(budget, &mut rows);
    xts_rows::<K128>(budget, &mut rows);
    block_rows::<K192>(budget, &mut rows);
    gcm_rows::<K192>(budget, &mut rows);
    block_rows::<K256>(budget, &mut rows);
    gcm_rows::<K256>(budget, &mut rows);
    xts_rows::<K256>(budget, &mut rows);
    rows
}
