//! ACPKM (R 1323565.1.017-2018) over Kuznyechik: the examples on every backend, and
//! CTR-ACPKM against plain CTR run section by section.

use vecrypt::kuznyechik::Kuznyechik;
use vecrypt::kuznyechik::acpkm;
use vecrypt::modes::gost;

fn h(s: &str) -> Vec<u8> {
    hex::decode(s.split_whitespace().collect::<String>()).unwrap()
}

const KEY: &str = "8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef";
const P64: &str = "1122334455667700ffeeddccbbaa9988 00112233445566778899aabbcceeff0a
                   112233445566778899aabbcceeff0a00 2233445566778899aabbcceeff0a0011";

fn all() -> Vec<Kuznyechik> {
    Kuznyechik::backends()
        .into_iter()
        .map(|b| Kuznyechik::with_backend(&h(KEY), b).unwrap())
        .collect()
}

#[test]
fn next_key_example() {
    for c in all() {
        assert_eq!(
            hex::encode(acpkm::next_key_bytes(&c)),
            "2666ed40ae687811745ca0b448f57a7b390adb5780307e8e9659ac403ae60c60"
        );
    }
}

#[test]
fn ctr_acpkm_example() {
    let p = [
        h(P64),
        h(
            "33445566778899aabbcceeff0a001122 445566778899aabbcceeff0a00112233
           5566778899aabbcceeff0a0011223344",
        ),
    ]
    .concat();
    let c = h(
        "f195d8bec10ed1dbd57b5fa240bda1b8 85eee733f6a13e5df33ce4b33c45dee4
               4bceeb8f646f4c55001706275e85e800 587c4df568d094393e4834afd0805046
               cf30f57686aeece11cfc6c316b8a896e dffd07ec813636460c4f3b743423163e
               6409a9c282fac8d469d221e7fbd6de5d",
    );
    for k in all() {
        let mut b = p.clone();
        acpkm::ctr_acpkm(&k, &h("1234567890abcef0"), 32, &mut b).unwrap();
        assert_eq!(b, c, "{:?}", k);
        acpkm::ctr_acpkm(&k, &h("1234567890abcef0"), 32, &mut b).unwrap();
        assert_eq!(b, p);
    }
}

#[test]
fn acpkm_master_example() {
    for k in all() {
        let mut out = [0u8; 144];
        acpkm::acpkm_master(&k, 96, &mut out).unwrap();
        assert_eq!(
            hex::encode(&out[..48]),
            "0cabf1f2efbc4ac16048df1a24c605b2c0d1673d7586a8ec0dd42c45a4f95bae\
             0f2e2617e47148680fc3e6178df2c137"
        );
    }
}

#[test]
fn omac_acpkm_examples() {
    for k in all() {
        let m1 = h("1122334455667700ffeeddccbbaa99880011223344556677");
        assert_eq!(
            hex::encode(acpkm::omac_acpkm(&k, 32, 96, &m1, 16).unwrap()),
            "b5367f47b62b995eeb2a648c5843145e"
        );
        let m2 = [h(P64), h("33445566778899aabbcceeff0a001122")].concat();
        assert_eq!(
            hex::encode(acpkm::omac_acpkm(&k, 32, 96, &m2, 16).unwrap()),
            "fbb8dcee45bea67c35f58c5700898e5d"
        );
        assert_eq!(
            hex::encode(acpkm::omac_acpkm(&k, 32, 96, &m2, 8).unwrap()),
            "fbb8dcee45bea67c"
        );
    }
}

#[test]
fn ctr_acpkm_is_ctr_with_a_new_key_per_section() {
    let key = [9u8; 32];
    let iv = [0x42u8; 8];
    let data: Vec<u8> = (0..5000u32).map(|i| (i * 7) as u8).collect();
    for section in [16usize, 48, 1024, 4096] {
        for backend in Kuznyechik::backends() {
            let first = Kuznyechik::with_backend(&key, backend).unwrap();
            let mut got = data.clone();
            acpkm::ctr_acpkm(&first, &iv, section, &mut got).unwrap();
            // Build the same stream by hand: one section at a time, counter carried over.
            let mut want = data.clone();
            let mut k = first.clone();
            let mut counter = u128::from_be_bytes([iv, [0; 8]].concat().try_into().unwrap());
            for chunk in want.chunks_mut(section) {
                use vecrypt::modes::BlockModes;
                k.apply_ctr(&counter.to_be_bytes(), chunk).unwrap();
                counter += (chunk.len() as u128).div_ceil(16);
                k = acpkm::next_key(&k);
            }
            assert_eq!(got, want, "{backend} section {section}");
        }
    }
}

#[test]
fn omac_acpkm_with_one_long_section_is_omac() {
    // With one section, OMAC-ACPKM is OMAC under the first 32 bytes of ACPKM-Master, except
    // for the final subkey, which comes from the master stream too; check the key part by
    // a message of whole blocks where the two differ only in that subkey.
    let k = Kuznyechik::from_key(&h(KEY)).unwrap();
    let mut material = [0u8; 48];
    acpkm::acpkm_master(&k, 96, &mut material).unwrap();
    let inner = Kuznyechik::from_key(&material[..32]).unwrap();
    let data = [0x11u8; 48];
    let got = acpkm::omac_acpkm(&k, 4096, 96, &data, 16).unwrap();
    // By hand: CBC-MAC of the first two blocks, then the last block with K1 from the stream.
    let mut state = [0u8; 16];
    for block in data.chunks(16).take(2) {
        for (s, b) in state.iter_mut().zip(block) {
            *s ^= b;
        }
        inner.encrypt_block(&mut state);
    }
    for ((s, b), k1) in state.iter_mut().zip(&data[32..]).zip(&material[32..]) {
        *s ^= b ^ k1;
    }
    inner.encrypt_block(&mut state);
    assert_eq!(got, state);
    // And OMAC itself differs only through the subkey, so with the cipher's own subkey the
    // GOST MAC of the same data under `inner` is a different value.
    assert_ne!(gost::mac(&inner, &data, 16).unwrap(), got);
}

#[test]
fn bad_parameters_are_typed_errors() {
    let k = Kuznyechik::from_key(&h(KEY)).unwrap();
    let mut b = [0u8; 40];
    assert!(acpkm::ctr_acpkm(&k, &[0u8; 8], 0, &mut b).is_err());
    assert!(acpkm::ctr_acpkm(&k, &[0u8; 8], 20, &mut b).is_err());
    assert!(acpkm::ctr_acpkm(&k, &[0u8; 16], 32, &mut b).is_err());
    assert!(acpkm::omac_acpkm(&k, 32, 0, &b, 16).is_err());
    assert!(acpkm::omac_acpkm(&k, 32, 96, &b, 17).is_err());
    assert_eq!(b, [0u8; 40]);
}

#[test]
fn omac_acpkm_matches_the_portable_backend() {
    let key: Vec<u8> = (0..32u8)
        .map(|i| i.wrapping_mul(37).wrapping_add(5))
        .collect();
    let data: Vec<u8> = (0..5000u32).map(|i| (i * 131 % 251) as u8).collect();
    let soft = Kuznyechik::with_backend(&key, vecrypt::Backend::Soft).unwrap();
    for section in [16, 64, 1040, 4096] {
        for len in [0, 15, 16, 17, 100, 1024, 1041, 5000] {
            let want = acpkm::omac_acpkm(&soft, section, 96, &data[..len], 16).unwrap();
            for backend in Kuznyechik::backends() {
                let k = Kuznyechik::with_backend(&key, backend).unwrap();
                let got = acpkm::omac_acpkm(&k, section, 96, &data[..len], 16).unwrap();
                assert_eq!(got, want, "{backend} section={section} len={len}");
            }
        }
    }
}

/// OMAC-ACPKM's constant-time check: the example tag and its prefixes are accepted, a changed
/// tag or message is `AuthenticationFailed`, bad tag lengths `InvalidLength` and bad sections
/// `InvalidParameter`; on every backend.
#[test]
fn omac_acpkm_verify_accepts_and_rejects() {
    use vecrypt::Error;
    let m2 = [h(P64), h("33445566778899aabbcceeff0a001122")].concat();
    let tag = h("fbb8dcee45bea67c35f58c5700898e5d");
    for k in all() {
        for len in 1..=16 {
            assert_eq!(
                acpkm::verify_omac_acpkm(&k, 32, 96, &m2, &tag[..len]),
                Ok(())
            );
        }
        for i in 0..16 {
            let mut bad = tag.clone();
            bad[i] ^= 0x10;
            assert_eq!(
                acpkm::verify_omac_acpkm(&k, 32, 96, &m2, &bad),
                Err(Error::AuthenticationFailed)
            );
        }
        let mut msg = m2.clone();
        msg[70] ^= 1;
        assert_eq!(
            acpkm::verify_omac_acpkm(&k, 32, 96, &msg, &tag),
            Err(Error::AuthenticationFailed)
        );
        assert_eq!(
            acpkm::verify_omac_acpkm(&k, 32, 96, &m2, &[]),
            Err(Error::InvalidLength)
        );
        assert_eq!(
            acpkm::verify_omac_acpkm(&k, 32, 96, &m2, &[0; 17]),
            Err(Error::InvalidLength)
        );
        assert_eq!(
            acpkm::verify_omac_acpkm(&k, 33, 96, &m2, &tag),
            Err(Error::InvalidParameter)
        );
    }
}
