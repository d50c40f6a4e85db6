//! The table-driven backends (`table-leaky`, feature `table-backends`): the T-table AES and
//! the 64 KiB-table Kuznyechik against the portable constant-time backend on random keys
//! and many lengths, both directions and the counter and chained modes, the official
//! vectors, and that neither is ever an automatic choice.
#![cfg(feature = "table-backends")]

use vecrypt::Backend;
use vecrypt::aes::{Aes, Aes128, Aes192, Aes256, K128, K192, K256, KeySize};
use vecrypt::kuznyechik::Kuznyechik;
use vecrypt::modes::BlockModes;

mod common;
use common::Rng;

/// Lengths in bytes: empty, one block, odd counter tails, group boundaries of the four-block
/// loops, long buffers.
const LENGTHS: &[usize] = &[
    0, 1, 15, 16, 17, 31, 32, 47, 48, 63, 64, 65, 79, 80, 127, 128, 129, 255, 1000, 4096, 65537,
];

/// ECB both ways, CTR (any length) and CBC both ways on `table` against `soft`.
fn same_as_portable<C: BlockModes>(what: &str, soft: &C, table: &C, rng: &mut Rng) {
    let iv = rng.bytes(16);
    for &len in LENGTHS {
        let pt = rng.bytes(len);
        let (mut a, mut b) = (pt.clone(), pt.clone());
        soft.apply_ctr(&iv, &mut a).unwrap();
        table.apply_ctr(&iv, &mut b).unwrap();
        assert_eq!(a, b, "{what} ctr {len}");
        if len % 16 != 0 {
            continue;
        }
        let (mut a, mut b) = (pt.clone(), pt.clone());
        soft.encrypt_ecb(&mut a).unwrap();
        table.encrypt_ecb(&mut b).unwrap();
        assert_eq!(a, b, "{what} ecb {len}");
        table.decrypt_ecb(&mut b).unwrap();
        assert_eq!(b, pt, "{what} ecb decrypt {len}");
        let mut c = rng.bytes(len);
        let d = c.clone();
        soft.decrypt_ecb(&mut c).unwrap();
        let mut e = d.clone();
        table.decrypt_ecb(&mut e).unwrap();
        assert_eq!(c, e, "{what} ecb decrypt of random {len}");
        let (mut a, mut b) = (pt.clone(), pt.clone());
        soft.encrypt_cbc(&iv, &mut a).unwrap();
        table.encrypt_cbc(&iv, &mut b).unwrap();
        assert_eq!(a, b, "{what} cbc {len}");
        table.decrypt_cbc(&iv, &mut b).unwrap();
        assert_eq!(b, pt, "{what} cbc decrypt {len}");
    }
}

fn aes_same_as_portable<K: KeySize>(rng: &mut Rng) {
    for _ in 0..4 {
        let key = rng.bytes(K::KEY);
        let soft = Aes::<K>::with_backend(&key, Backend::Soft).unwrap();
        let table = Aes::<K>::with_backend(&key, Backend::TableLeaky).unwrap();
        assert_eq!(table.backend(), Backend::TableLeaky);
        same_as_portable(K::NAME, &soft, &table, rng);
        let iv = rng.bytes(16);
        for len in [0, 1, 16, 33, 100, 4100] {
            let pt = rng.bytes(len);
            let (mut a, mut b) = (pt.clone(), pt.clone());
            soft.apply_ctr32(&iv, &mut a).unwrap();
            table.apply_ctr32(&iv, &mut b).unwrap();
            assert_eq!(a, b, "{} ctr32 {len}", K::NAME);
        }
    }
}

#[test]
fn aes_table_matches_portable() {
    let mut rng = Rng(0x7ab1e);
    aes_same_as_portable::<K128>(&mut rng);
    aes_same_as_portable::<K192>(&mut rng);
    aes_same_as_portable::<K256>(&mut rng);
}

#[test]
fn kuznyechik_table_matches_portable() {
    let mut rng = Rng(0x6b757a);
    for _ in 0..4 {
        let key = rng.bytes(32);
        let soft = Kuznyechik::with_backend(&key, Backend::Soft).unwrap();
        let table = Kuznyechik::with_backend(&key, Backend::TableLeaky).unwrap();
        same_as_portable("kuznyechik", &soft, &table, &mut rng);
        // Counters that carry across the 64-bit halves and wrap at 2^128 inside a group.
        for last in [[0xffu8; 16], {
            let mut c = [0u8; 16];
            c[8..].fill(0xff);
            c
        }] {
            let mut iv = last;
            iv[15] = 0xfd;
            for len in [16 * 7 + 5, 16 * 64] {
                let pt = rng.bytes(len);
                let (mut a, mut b) = (pt.clone(), pt.clone());
                soft.apply_ctr(&iv, &mut a).unwrap();
                table.apply_ctr(&iv, &mut b).unwrap();
                assert_eq!(a, b, "kuznyechik ctr from {iv:02x?}, {len} bytes");
            }
        }
    }
}

fn h(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap()
}

/// FIPS 197, Appendix C.1 to C.3, on the T-table backend.
#[test]
fn aes_table_fips_197() {
    let pt = h("00112233445566778899aabbccddeeff");
    let cases: [(usize, &str); 3] = [
        (16, "69c4e0d86a7b0430d8cdb78070b4c55a"),
        (24, "dda97ca4864cdfe06eaf70a0ec0d7191"),
        (32, "8ea2b7ca516745bfeafc49904b496089"),
    ];
    for (len, ct) in cases {
        let key: Vec<u8> = (0..len as u8).collect();
        let mut b = pt.clone();
        match len {
            16 => {
                let c = Aes128::with_backend(&key, Backend::TableLeaky).unwrap();
                c.encrypt_ecb(&mut b).unwrap();
                assert_eq!(hex::encode(&b), ct);
                c.decrypt_ecb(&mut b).unwrap();
            }
            24 => {
                let c = Aes192::with_backend(&key, Backend::TableLeaky).unwrap();
                c.encrypt_ecb(&mut b).unwrap();
                assert_eq!(hex::encode(&b), ct);
                c.decrypt_ecb(&mut b).unwrap();
            }
            _ => {
                let c = Aes256::with_backend(&key, Backend::TableLeaky).unwrap();
                c.encrypt_ecb(&mut b).unwrap();
                assert_eq!(hex::encode(&b), ct);
                c.decrypt_ecb(&mut b).unwrap();
            }
        }
        assert_eq!(b, pt);
    }
}

/// GOST R 34.12-2015, A.1: the Kuznyechik example, on the table backend.
#[test]
fn kuznyechik_table_gost_vector() {
    let key = h("8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef");
    let c = Kuznyechik::with_backend(&key, Backend::TableLeaky).unwrap();
    let mut b: [u8; 16] = h("1122334455667700ffeeddccbbaa9988").try_into().unwrap();
    c.encrypt_block(&mut b);
    assert_eq!(hex::encode(b), "7f679d90bebc24305a468d42b9d4edcd");
    c.decrypt_block(&mut b);
    assert_eq!(hex::encode(b), "1122334455667700ffeeddccbbaa9988");
}

/// Both table backends are listed (after every constant-time one), reachable through
/// `with_backend`, and never the automatic choice.
#[test]
fn table_backends_are_listed_last_and_never_chosen() {
    for backends in [Aes128::backends(), Kuznyechik::backends()] {
        assert!(backends.contains(&Backend::TableLeaky));
        assert!(!Backend::TableLeaky.is_constant_time());
        let at = backends
            .iter()
            .position(|b| *b == Backend::TableLeaky)
            .unwrap();
        assert!(backends[..at].iter().all(|b| b.is_constant_time()));
        assert_eq!(backends.last(), Some(&Backend::Soft));
    }
    if vecrypt::cpu::forced_backend().is_none() {
        assert_ne!(
            Aes128::from_key(&[0; 16]).unwrap().backend(),
            Backend::TableLeaky
        );
        assert_ne!(
            Aes256::from_key(&[0; 32]).unwrap().backend(),
            Backend::TableLeaky
        );
        assert_ne!(
            Kuznyechik::from_key(&[0; 32]).unwrap().backend(),
            Backend::TableLeaky
        );
    }
}
