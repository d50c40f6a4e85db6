//! uBlock known answers from the design document (ISCAS, 2019), on every backend this CPU runs.

use vecrypt::Backend;
use vecrypt::modes::BlockModes;
use vecrypt::ublock::{Ublock, Ublock128_128, Ublock128_256, Ublock256_256, Variant};

fn h(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap()
}

struct Kat {
    key: &'static str,
    pt: &'static str,
    ct: &'static str,
    million: &'static str,
}

const K128_128: Kat = Kat {
    key: "0123456789abcdeffedcba9876543210",
    pt: "0123456789abcdeffedcba9876543210",
    ct: "32122bedd023c429023470e1158c147d",
    million: "9d639e31062ffb574646e428f92e08d4",
};

const K128_256: Kat = Kat {
    key: "0123456789abcdeffedcba9876543210000102030405060708090a0b0c0d0e0f",
    pt: "0123456789abcdeffedcba9876543210",
    ct: "64accd6e34cac84d384cd4ba7aeadd19",
    million: "9fca87e0fbaebc9105e729d3553967ff",
};

const K256_256: Kat = Kat {
    key: "0123456789abcdeffedcba9876543210000102030405060708090a0b0c0d0e0f",
    pt: "0123456789abcdeffedcba9876543210000102030405060708090a0b0c0d0e0f",
    ct: "d8e9351c5f4d27ea842135ca1640ad4b0ce119bc25c03e7c329ea8fe93e7bdfe",
    million: "20e148e6ebf9d99b894b2f7e5ccde23fc58c956c7847fad82e0824413576c89f",
};

fn check<V: Variant>(kat: &Kat, zero_ct: &str) {
    for backend in Ublock::<V>::backends() {
        let c = Ublock::<V>::with_backend(&h(kat.key), backend).unwrap();
        let mut b = h(kat.pt);
        c.encrypt_ecb(&mut b).unwrap();
        assert_eq!(hex::encode(&b), kat.ct, "{backend} encrypt");
        c.decrypt_ecb(&mut b).unwrap();
        assert_eq!(hex::encode(&b), kat.pt, "{backend} decrypt");

        let z = Ublock::<V>::with_backend(&vec![0; V::KEY], backend).unwrap();
        let mut b = vec![0u8; V::BLOCK];
        z.encrypt_ecb(&mut b).unwrap();
        assert_eq!(hex::encode(&b), zero_ct, "{backend} zero");
    }
}

/// One million chained encryptions, then one million chained decryptions back to the start.
fn million<V: Variant>(kat: &Kat, backend: Backend) {
    let c = Ublock::<V>::with_backend(&h(kat.key), backend).unwrap();
    let mut b = h(kat.pt);
    for _ in 0..1_000_000 {
        c.encrypt_ecb(&mut b).unwrap();
    }
    assert_eq!(hex::encode(&b), kat.million, "{backend}");
    for _ in 0..1_000_000 {
        c.decrypt_ecb(&mut b).unwrap();
    }
    assert_eq!(hex::encode(&b), kat.pt, "{backend}");
}

#[test]
fn ublock_128_128() {
    check::<vecrypt::ublock::V128_128>(&K128_128, "144f09912b6b7bd2d264faeaa1395ce1");
}

#[test]
fn ublock_128_256() {
    check::<vecrypt::ublock::V128_256>(&K128_256, "8bbaabb4bd3e4043823d41f7136f81d4");
}

#[test]
fn ublock_256_256() {
    check::<vecrypt::ublock::V256_256>(
        &K256_256,
        "838c7751889b99df4dc76fd941efdd1563d31e8e8a098eef80a21555d668e149",
    );
}

#[test]
fn million_iterations_128_128() {
    for b in Ublock128_128::backends() {
        million::<vecrypt::ublock::V128_128>(&K128_128, b);
    }
}

#[test]
fn million_iterations_128_256() {
    for b in Ublock128_256::backends() {
        million::<vecrypt::ublock::V128_256>(&K128_256, b);
    }
}

#[test]
fn million_iterations_256_256() {
    for b in Ublock256_256::backends() {
        million::<vecrypt::ublock::V256_256>(&K256_256, b);
    }
}
