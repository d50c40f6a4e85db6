//! Kuznyechik CTR at counters whose low bytes carry inside a batch of blocks, and every
//! backend at lengths around the 64-block batch, against the portable backend.

use vecrypt::Backend;
use vecrypt::kuznyechik::Kuznyechik;
use vecrypt::modes::BlockModes;

mod common;
use common::Rng;

/// First counter blocks whose last one, two or all bytes wrap within the first batches.
fn counters(rng: &mut Rng) -> Vec<[u8; 16]> {
    let mut out = Vec::new();
    for tail in [
        0x00u128,
        0x01,
        0xc0,
        0xc1,
        0xff,
        0xffc0,
        0xffc1,
        0xffd7,
        0xfffe,
        0xffff,
        0x00ff_ffc1,
        0x01ff_ff80,
    ] {
        let high = u128::from_be_bytes(rng.bytes(16).try_into().unwrap()) & !0xffff_ffff;
        out.push((high | tail).to_be_bytes());
    }
    out.push(u128::MAX.to_be_bytes());
    out.push((u128::MAX - 70).to_be_bytes());
    out
}

#[test]
fn ctr_carries_match_portable() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let key = rng.bytes(32);
    let soft = Kuznyechik::with_backend(&key, Backend::Soft).unwrap();
    for iv in counters(&mut rng) {
        for len in [16 * 64, 16 * 64 + 5, 16 * 200 + 3, 16 * 1100] {
            let data = rng.bytes(len);
            let mut expected = data.clone();
            soft.apply_ctr(&iv, &mut expected).unwrap();
            for backend in Kuznyechik::backends() {
                let c = Kuznyechik::with_backend(&key, backend).unwrap();
                let mut got = data.clone();
                c.apply_ctr(&iv, &mut got).unwrap();
                assert_eq!(got, expected, "{backend} ctr from {iv:02x?}, {len} bytes");
            }
        }
    }
}

#[test]
fn lengths_around_batches_match_portable() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for blocks in [
        31, 32, 33, 63, 64, 65, 95, 96, 97, 127, 128, 129, 191, 192, 193, 256,
    ] {
        let key = rng.bytes(32);
        let iv = rng.bytes(16);
        let data = rng.bytes(16 * blocks);
        let soft = Kuznyechik::with_backend(&key, Backend::Soft).unwrap();
        let mut ecb = data.clone();
        soft.encrypt_ecb(&mut ecb).unwrap();
        let mut ctr = data.clone();
        soft.apply_ctr(&iv, &mut ctr).unwrap();
        for backend in Kuznyechik::backends() {
            let c = Kuznyechik::with_backend(&key, backend).unwrap();
            let mut b = data.clone();
            c.encrypt_ecb(&mut b).unwrap();
            assert_eq!(b, ecb, "{backend} ecb {blocks}");
            c.decrypt_ecb(&mut b).unwrap();
            assert_eq!(b, data, "{backend} ecb decrypt {blocks}");
            let mut b = data.clone();
            c.apply_ctr(&iv, &mut b).unwrap();
            assert_eq!(b, ctr, "{backend} ctr {blocks}");
        }
    }
}
