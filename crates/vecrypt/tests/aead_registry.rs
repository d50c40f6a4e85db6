//! The AEADs by name (`registry::aeads`): each entry keys the algorithm it names, on every
//! backend it lists, and gives what the typed AEAD gives; its sizes are the ones the
//! algorithm takes.

use vecrypt::aes::{Aes128Gcm, Aes192Gcm, Aes256Gcm};
use vecrypt::kuznyechik::{KuznyechikGcm, KuznyechikMgm};
use vecrypt::registry::{self, DynAead};
use vecrypt::ublock::{Ublock128_256Gcm, Ublock128Gcm};
use vecrypt::{Backend, Error};

mod common;
use common::bytes;

/// The typed AEAD of each name, keyed with `key`.
fn typed(name: &str, key: &[u8]) -> Box<dyn DynAead> {
    match name {
        "aes-128-gcm" => Box::new(Aes128Gcm::from_key(key).unwrap()),
        "aes-192-gcm" => Box::new(Aes192Gcm::from_key(key).unwrap()),
        "aes-256-gcm" => Box::new(Aes256Gcm::from_key(key).unwrap()),
        "kuznyechik-mgm" => Box::new(KuznyechikMgm::from_key(key).unwrap()),
        "kuznyechik-gcm" => Box::new(KuznyechikGcm::from_key(key).unwrap()),
        "ublock-128-gcm" => Box::new(Ublock128Gcm::from_key(key).unwrap()),
        "ublock-128-256-gcm" => Box::new(Ublock128_256Gcm::from_key(key).unwrap()),
        other => panic!("an entry with no typed AEAD here: {other}"),
    }
}

#[test]
fn every_entry_is_its_algorithm_on_every_backend() {
    let entries = registry::aeads();
    assert_eq!(entries.len(), 7);
    for info in &entries {
        let key = bytes(1, info.key_len);
        let mut nonce = bytes(2, info.nonce_len);
        nonce[0] &= 0x7f;
        let reference = typed(info.name, &key);
        assert!((info.new)(&key[1..], None).is_err(), "{}", info.name);
        assert_eq!(
            (info.backends)().first().copied(),
            Some(reference.backend())
        );
        for backend in (info.backends)() {
            let aead = (info.new)(&key, Some(backend)).unwrap();
            assert_eq!(aead.backend(), backend, "{}", info.name);
            for len in [0usize, 1, 16, 33, 1000] {
                let pt = bytes(3 + len as u64, len);
                let ad = bytes(4, len % 7);
                let (mut a, mut b) = (pt.clone(), pt.clone());
                let ta = aead.encrypt_detached(&nonce, &ad, &mut a).unwrap();
                let tb = reference.encrypt_detached(&nonce, &ad, &mut b).unwrap();
                assert_eq!((&a, ta), (&b, tb), "{} {backend} {len}", info.name);
                let short = &ta[..info.min_tag_len];
                aead.decrypt_detached(&nonce, &ad, &mut a, short).unwrap();
                assert_eq!(a, pt, "{} {backend} {len}", info.name);
                let mut c = b.clone();
                let mut bad = tb;
                bad[0] ^= 1;
                let refused = aead.decrypt_detached(&nonce, &ad, &mut c, &bad);
                assert_eq!(refused, Err(Error::AuthenticationFailed));
                assert_eq!(
                    c, b,
                    "{} {backend}: a refused text is left as it was",
                    info.name
                );
            }
            let too_short = &[0u8; 16][..info.min_tag_len - 1];
            assert!(
                aead.decrypt_detached(&nonce, &[], &mut [], too_short)
                    .is_err()
            );
            let other = bytes(5, info.nonce_len + 1);
            assert_eq!(
                aead.encrypt_detached(&other, &[], &mut []).is_ok(),
                info.any_nonce_len,
                "{}",
                info.name
            );
        }
    }
}

#[test]
fn names_are_unique_and_found_in_any_case() {
    let entries = registry::aeads();
    for info in &entries {
        assert_eq!(entries.iter().filter(|a| a.name == info.name).count(), 1);
        let upper = info.name.to_ascii_uppercase();
        assert_eq!(registry::aead(&upper).unwrap().name, info.name);
    }
    assert_eq!(
        registry::aead("aes-512-gcm").err(),
        Some(Error::UnknownAlgorithm)
    );
    assert!((registry::aead("aes-128-gcm").unwrap().new)(&[0; 16], Some(Backend::Soft)).is_ok());
}
