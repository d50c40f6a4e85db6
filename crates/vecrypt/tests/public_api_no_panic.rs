//! Every public function that takes buffers, lengths or names is called with empty, short,
//! odd-sized and oversized ones, on random values: it returns a typed error or a result and
//! never panics (proptest turns a panic into a failure). Where the lengths are valid the
//! call must succeed, and what it returns must undo or verify.

use proptest::collection::vec;
use proptest::prelude::*;

use vecrypt::aes::{Aes128, Aes128Gcm, Aes192, Aes256, AesCmac, AesXts, K128, K256};
use vecrypt::aigis::{Aigis, AigisCompact, HashMode, ParamSet};
use vecrypt::kuznyechik::{Kuznyechik, KuznyechikGcm, KuznyechikMgm, acpkm};
use vecrypt::modes::gost::{self, Omac};
use vecrypt::modes::{BlockModes, Chain, MultiKey};
use vecrypt::ublock::{Ublock128_128, Ublock128_256, Ublock128Gcm, Ublock256_256};
use vecrypt::{Backend, registry};

/// Random bytes of a length from 0 to `max`, short ones likelier.
fn bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![vec(any::<u8>(), 0..=40), vec(any::<u8>(), 0..=max)]
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 48,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// The checked modes of one keyed cipher, with an `iv` and a `register` of any length.
fn block_modes<C: BlockModes>(c: &C, data: &[u8], iv: &[u8], register: &[u8], s: usize) {
    let n = c.block_len();
    let whole = data.len().is_multiple_of(n);
    let one = iv.len() == n;

    let mut b = data.to_vec();
    assert_eq!(c.encrypt_ecb(&mut b).is_ok(), whole);
    assert_eq!(c.decrypt_ecb(&mut b).is_ok(), whole);
    assert_eq!(b, data);

    assert_eq!(c.encrypt_cbc(iv, &mut b).is_ok(), whole && one);
    assert_eq!(c.decrypt_cbc(iv, &mut b).is_ok(), whole && one);
    assert_eq!(b, data);

    assert_eq!(c.apply_ctr(iv, &mut b).is_ok(), one);
    assert_eq!(c.apply_ctr(iv, &mut b).is_ok(), one);
    assert_eq!(b, data);

    let mut state = iv.to_vec();
    assert_eq!(c.apply_ctr_from(&mut state, &mut b).is_ok(), one);
    let mut state = iv.to_vec();
    assert_eq!(c.encrypt_cbc_from(&mut state, &mut b).is_ok(), one && whole);
    let mut state = iv.to_vec();
    assert_eq!(c.decrypt_cbc_from(&mut state, &mut b).is_ok(), one && whole);
    let mut state = iv.to_vec();
    assert_eq!(c.decrypt_cfb_from(&mut state, &mut b).is_ok(), one && whole);

    let chains = !register.is_empty() && register.len().is_multiple_of(n);
    for mode in [Chain::CbcEncrypt, Chain::Mac, Chain::Ofb, Chain::CfbEncrypt] {
        let mut r = register.to_vec();
        let mut b = data.to_vec();
        assert_eq!(
            c.apply_chain(mode, &mut r, &mut b).is_ok(),
            chains && whole,
            "{mode:?}"
        );
    }

    // The GOST R 34.13 modes: whatever they accept, their inverse undoes.
    let mut b = data.to_vec();
    if gost::ctr(c, iv, s, &mut b).is_ok() {
        gost::ctr(c, iv, s, &mut b).unwrap();
        assert_eq!(b, data);
    }
    if gost::ofb(c, iv, s, &mut b).is_ok() {
        gost::ofb(c, iv, s, &mut b).unwrap();
        assert_eq!(b, data);
    }
    if gost::cbc_encrypt(c, iv, &mut b).is_ok() {
        gost::cbc_decrypt(c, iv, &mut b).unwrap();
        assert_eq!(b, data);
    } else {
        assert!(gost::cbc_decrypt(c, iv, &mut b).is_err());
    }
    if gost::cfb_encrypt(c, iv, s, &mut b).is_ok() {
        gost::cfb_decrypt(c, iv, s, &mut b).unwrap();
        assert_eq!(b, data);
    }
    match gost::mac(c, data, s) {
        Ok(tag) => {
            assert_eq!(tag.len(), s);
            gost::verify_mac(c, data, &tag).unwrap();
        }
        Err(_) => assert!(s == 0 || s > n, "mac refused s = {s}"),
    }
    assert!(gost::verify_mac(c, data, iv).is_err() || iv.len() <= n);
    let mut omac = Omac::new(c);
    omac.update(data);
    assert!(omac.verify(register).is_err() || !register.is_empty());
}

/// A cipher type keyed from `key` (refused unless it has the cipher's key length), then
/// [`block_modes`] on it.
fn keyed<C: BlockModes>(
    new: fn(&[u8]) -> Result<C, vecrypt::Error>,
    key_len: usize,
    key: &[u8],
    data: &[u8],
    iv: &[u8],
    register: &[u8],
    s: usize,
) {
    assert_eq!(new(key).is_ok(), key.len() == key_len);
    let mut k = key.to_vec();
    k.resize(key_len, 0x5a);
    let c = new(&k).unwrap();
    block_modes(&c, data, iv, register, s);
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn block_ciphers_and_their_modes(
        key in bytes(70), data in bytes(300), iv in bytes(70), register in bytes(100),
        s in 0usize..40,
    ) {
        let a = (&key[..], &data[..], &iv[..], &register[..], s);
        keyed(Aes128::from_key, 16, a.0, a.1, a.2, a.3, a.4);
        keyed(Aes192::from_key, 24, a.0, a.1, a.2, a.3, a.4);
        keyed(Aes256::from_key, 32, a.0, a.1, a.2, a.3, a.4);
        keyed(Kuznyechik::from_key, 32, a.0, a.1, a.2, a.3, a.4);
        keyed(Ublock128_128::from_key, 16, a.0, a.1, a.2, a.3, a.4);
        keyed(Ublock128_256::from_key, 32, a.0, a.1, a.2, a.3, a.4);
        keyed(Ublock256_256::from_key, 32, a.0, a.1, a.2, a.3, a.4);
    }

    #[test]
    fn aeads_take_any_nonce_tag_and_text(
        nonce in bytes(70), ad in bytes(100), data in bytes(300), tag in bytes(20),
    ) {
        let k32 = [7u8; 32];
        let gcm = Aes128Gcm::from_key(&[7u8; 16]).unwrap();
        let sealed = gcm.seal(&nonce, &ad, &data);
        prop_assert_eq!(sealed.is_ok(), !nonce.is_empty());
        if let Ok(sealed) = sealed {
            prop_assert_eq!(gcm.open(&nonce, &ad, &sealed).unwrap(), data.clone());
        }
        prop_assert!(gcm.open(&nonce, &ad, &data).is_err());
        prop_assert!(gcm.decrypt_detached(&nonce, &ad, &mut data.clone(), &tag).is_err());

        let kgcm = KuznyechikGcm::from_key(&k32).unwrap();
        prop_assert_eq!(kgcm.seal(&nonce, &ad, &data).is_ok(), !nonce.is_empty());
        prop_assert!(kgcm.open(&nonce, &ad, &data).is_err());
        let ugcm = Ublock128Gcm::from_key(&[7u8; 16]).unwrap();
        prop_assert_eq!(ugcm.seal(&nonce, &ad, &data).is_ok(), !nonce.is_empty());
        prop_assert!(ugcm.decrypt_detached(&nonce, &ad, &mut data.clone(), &tag).is_err());

        let mgm = KuznyechikMgm::from_key(&k32).unwrap();
        let mut b = data.clone();
        if let Ok(t) = mgm.encrypt_detached(&nonce, &ad, &mut b) {
            prop_assert_eq!(nonce.len(), 16);
            mgm.decrypt_detached(&nonce, &ad, &mut b, &t).unwrap();
            prop_assert_eq!(&b, &data);
        }
        prop_assert!(mgm.decrypt_detached(&nonce, &ad, &mut b, &tag).is_err());
        prop_assert_eq!(&b, &data);
    }

    #[test]
    fn aes_xts_cmac_and_acpkm(
        key in bytes(70), data in bytes(300), iv in bytes(40), section in 0usize..100,
        master in 0usize..100, s in 0usize..40,
    ) {
        prop_assert_eq!(
            AesXts::<K256>::from_key(&key).is_ok(),
            key.len() == 64 && key[..32] != key[32..]
        );
        let xts = AesXts::<K256>::from_key(&(0..64).collect::<Vec<u8>>()).unwrap();
        let mut b = data.clone();
        if xts.encrypt_unit(&iv, &mut b).is_ok() {
            prop_assert!((1..=16).contains(&iv.len()) && data.len() >= 16);
            xts.decrypt_unit(&iv, &mut b).unwrap();
            prop_assert_eq!(&b, &data);
        }
        if xts.encrypt_sector(u128::from(s as u32), &mut b).is_ok() {
            xts.decrypt_sector(u128::from(s as u32), &mut b).unwrap();
            prop_assert_eq!(&b, &data);
        }
        prop_assert_eq!(AesCmac::<K128>::from_key(&key).is_ok(), key.len() == 16);
        let cmac = AesCmac::<K128>::from_key(&[3u8; 16]).unwrap();
        let tag = cmac.mac(&data);
        cmac.verify(&data, &tag).unwrap();
        prop_assert!(cmac.verify(&data, &iv).is_err() || iv[..] == tag[..iv.len().min(16)]);

        let k = Kuznyechik::from_key(&[9u8; 32]).unwrap();
        let mut b = data.clone();
        if acpkm::ctr_acpkm(&k, &iv, section, &mut b).is_ok() {
            acpkm::ctr_acpkm(&k, &iv, section, &mut b).unwrap();
            prop_assert_eq!(&b, &data);
        }
        let _ = acpkm::acpkm_master(&k, master, &mut b);
        if let Ok(tag) = acpkm::omac_acpkm(&k, section, master, &data, s) {
            acpkm::verify_omac_acpkm(&k, section, master, &data, &tag).unwrap();
        }
        let _ = acpkm::verify_omac_acpkm(&k, section, master, &data, &iv);
    }

    #[test]
    fn several_keys_at_once(
        keys in vec(bytes(40), 0..5), ivs in vec(bytes(40), 0..5), lens in vec(0usize..200, 0..5),
    ) {
        let multi = MultiKey::from_keys(&keys, Ublock128_128::from_key);
        prop_assert_eq!(multi.is_ok(), keys.iter().all(|k| k.len() == 16));
        let multi = MultiKey::from_keys(&vec![[1u8; 16]; keys.len()], Ublock128_128::from_key)
            .unwrap();
        let mut bufs: Vec<Vec<u8>> = lens.iter().map(|&l| vec![0x11; l]).collect();
        let fits = bufs.len() == keys.len() && bufs.iter().all(|b| b.len() % 16 == 0);
        let mut refs: Vec<&mut [u8]> = bufs.iter_mut().map(|b| &mut b[..]).collect();
        prop_assert_eq!(multi.encrypt_ecb(&mut refs).is_ok(), fits);
        prop_assert_eq!(multi.decrypt_ecb(&mut refs).is_ok(), fits);
        let iv_refs: Vec<&[u8]> = ivs.iter().map(|v| &v[..]).collect();
        let cbc = fits && ivs.len() == keys.len() && ivs.iter().all(|v| v.len() == 16);
        prop_assert_eq!(multi.encrypt_cbc(&iv_refs, &mut refs).is_ok(), cbc);
        prop_assert_eq!(multi.decrypt_cbc(&iv_refs, &mut refs).is_ok(), cbc);
        prop_assert!(bufs.iter().all(|b| b.iter().all(|&x| x == 0x11)));
    }

    #[test]
    fn kem_buffers_of_any_length(
        coins in bytes(100), pk in bytes(1600), sk in bytes(3200), ct in bytes(1600),
        set in 0usize..4, sm3 in any::<bool>(),
    ) {
        let set = ParamSet::ALL[set];
        let mode = if sm3 { HashMode::Sm3 } else { HashMode::Shake };
        let kem = Aigis::new(set, mode);
        let compact = AigisCompact::new(set, mode);
        let (mut p, mut s) = (pk.clone(), sk.clone());
        let keygen = coins.len() == 64
            && pk.len() == set.public_key_bytes()
            && sk.len() == set.secret_key_bytes();
        prop_assert_eq!(kem.keypair_into(&coins, &mut p, &mut s).is_ok(), keygen);
        prop_assert_eq!(compact.keypair_into(&coins, &mut p, &mut s).is_ok(), keygen);
        let mut c = ct.clone();
        let encaps = pk.len() == set.public_key_bytes()
            && coins.len() == 32
            && ct.len() == set.ciphertext_bytes();
        prop_assert_eq!(kem.encapsulate_into(&pk, &coins, &mut c).is_ok(), encaps);
        prop_assert_eq!(compact.encapsulate_into(&pk, &coins, &mut c).is_ok(), encaps);
        let decaps = sk.len() == set.secret_key_bytes() && ct.len() == set.ciphertext_bytes();
        prop_assert_eq!(kem.decapsulate(&sk, &ct).is_ok(), decaps);
        prop_assert_eq!(compact.decapsulate(&sk, &ct).is_ok(), decaps);
    }

    #[test]
    fn names_and_registry_entries(name in "\\PC{0,24}", data in bytes(200), key in bytes(40)) {
        let _ = name.parse::<Backend>();
        let _ = ParamSet::parse(&name);
        let _ = registry::cipher(&name);
        for info in registry::ciphers() {
            prop_assert_eq!((info.new)(&key, None).is_ok(), key.len() == info.key_len);
            let mut k = key.clone();
            k.resize(info.key_len, 1);
            let c = (info.new)(&k, None).unwrap();
            let mut b = data.clone();
            prop_assert_eq!(c.encrypt_ecb(&mut b).is_ok(), data.len() % info.block_len == 0);
            let multi = (info.new_multi)(&[&k[..], &key[..]], None);
            prop_assert_eq!(multi.is_ok(), key.len() == info.key_len);
        }
    }

    #[cfg(feature = "kernel-parts")]
    #[test]
    fn measurement_hooks_take_any_buffer(data in bytes(5000)) {
        use vecrypt::ublock::KernelPart;
        let c = Ublock128_256::from_key(&[4u8; 32]).unwrap();
        for part in [KernelPart::Transposition, KernelPart::Rounds, KernelPart::DecryptionRounds] {
            let mut b = data.clone();
            let done = c.run_kernel_part(part, &mut b);
            prop_assert!(done <= data.len());
        }
    }
}

/// Every registered name keys its cipher.
#[test]
fn every_registered_name() {
    for info in registry::ciphers() {
        assert_eq!(registry::cipher(info.name).unwrap().name, info.name);
        assert!(registry::cipher(&info.name.to_uppercase()).is_ok() || info.name.is_empty());
    }
}

/// Every backend the CPU runs is reachable by name, and a name it does not run is a typed
/// error, never a fallback or a panic.
#[test]
fn every_backend_by_name() {
    for b in Backend::ALL {
        let runs = Aes128::backends().contains(b);
        assert_eq!(Aes128::with_backend(&[0u8; 16], *b).is_ok(), runs, "{b}");
    }
}
