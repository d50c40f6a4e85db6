//! Every AES backend against the portable one and against the `aes` crate, on random data
//! of many lengths, both directions, every mode, one key and several.

mod aes_common;

use aes_common::{LENGTHS, Rng, each_size};
use cipher::{BlockCipherEncrypt, KeyInit, KeyIvInit, StreamCipher};
use vecrypt::Backend;
use vecrypt::aes::{Aes, Aes128, K128, K192, K256, KeySize};
use vecrypt::modes::{BlockModes, MultiKey};

#[test]
fn ecb_cbc_ctr_match_portable_on_every_length() {
    let mut rng = Rng::new(1);
    each_size(|len, keyed| {
        for _ in 0..3 {
            let key = rng.bytes(len);
            let ciphers = keyed(&key);
            assert_eq!(ciphers[0].backend(), Backend::Soft);
            let iv = rng.bytes(16);
            for &n in LENGTHS {
                let data = rng.bytes(n);
                let whole = &data[..n / 16 * 16];
                let mut want = Vec::new();
                for c in &ciphers {
                    let mut ecb = whole.to_vec();
                    c.ecb_enc(&mut ecb);
                    let mut cbc = whole.to_vec();
                    c.cbc_enc(&iv, &mut cbc);
                    let mut ctr = data.clone();
                    c.ctr(&iv, &mut ctr);
                    let mut ctr32 = data.clone();
                    c.ctr32(&iv, &mut ctr32);
                    let got = [ecb.clone(), cbc.clone(), ctr.clone(), ctr32.clone()];
                    if want.is_empty() {
                        want = got.to_vec();
                    } else {
                        assert!(got.as_slice() == want.as_slice(), "{} n={n}", c.backend());
                    }
                    c.ecb_dec(&mut ecb);
                    c.cbc_dec(&iv, &mut cbc);
                    c.ctr(&iv, &mut ctr);
                    c.ctr32(&iv, &mut ctr32);
                    assert_eq!(ecb, whole, "{} n={n}", c.backend());
                    assert_eq!(cbc, whole, "{} n={n}", c.backend());
                    assert_eq!(ctr, data, "{} n={n}", c.backend());
                    assert_eq!(ctr32, data, "{} n={n}", c.backend());
                }
            }
        }
    });
}

/// Counters whose low 32 or 64 bits wrap inside the message.
#[test]
fn counters_wrap_like_the_definition() {
    let mut rng = Rng::new(2);
    let key = rng.bytes(16);
    let data = rng.bytes(16 * 70 + 5);
    let ivs = [
        "00112233445566778899aabbfffffff0",
        "0011223344556677fffffffffffffff0",
        "fffffffffffffffffffffffffffffff8",
        "000000000000000000000000ffffffff",
    ];
    for iv in ivs {
        let iv = aes_common::h(iv);
        let reference = Aes128::with_backend(&key, Backend::Soft).unwrap();
        // Whole-block counter, built block by block from the definition.
        let mut want = data.clone();
        let mut want32 = data.clone();
        let start = u128::from_be_bytes(iv.clone().try_into().unwrap());
        for (i, chunk) in want.chunks_mut(16).enumerate() {
            let mut ks = start.wrapping_add(i as u128).to_be_bytes();
            reference.encrypt_ecb(&mut ks).unwrap();
            chunk.iter_mut().zip(ks).for_each(|(d, k)| *d ^= k);
        }
        for (i, chunk) in want32.chunks_mut(16).enumerate() {
            let mut block = start.to_be_bytes();
            let low = u32::from_be_bytes(block[12..].try_into().unwrap()).wrapping_add(i as u32);
            block[12..].copy_from_slice(&low.to_be_bytes());
            reference.encrypt_ecb(&mut block).unwrap();
            chunk.iter_mut().zip(block).for_each(|(d, k)| *d ^= k);
        }
        for b in Aes128::backends() {
            let c = Aes128::with_backend(&key, b).unwrap();
            let mut got = data.clone();
            c.apply_ctr(&iv, &mut got).unwrap();
            assert!(got == want, "{b}");
            let mut got = data.clone();
            c.apply_ctr32(&iv, &mut got).unwrap();
            assert!(got == want32, "{b}");
        }
    }
}

#[test]
fn matches_the_aes_crate_and_rustcrypto_modes() {
    type Ctr = ctr::Ctr128BE<Aes128>;
    type PeerCtr = ctr::Ctr128BE<aes::Aes128>;
    let mut rng = Rng::new(3);
    for &n in LENGTHS {
        let key = rng.bytes(16);
        let iv = rng.bytes(16);
        let data = rng.bytes(n);
        let mut want = data.clone();
        PeerCtr::new(
            key.as_slice().try_into().unwrap(),
            iv.as_slice().try_into().unwrap(),
        )
        .apply_keystream(&mut want);
        for b in Aes128::backends() {
            vecrypt::cpu::force_backend(Some(b));
            let mut got = data.clone();
            Ctr::new(
                key.as_slice().try_into().unwrap(),
                iv.as_slice().try_into().unwrap(),
            )
            .apply_keystream(&mut got);
            vecrypt::cpu::force_backend(None);
            assert!(got == want, "{b} n={n}");
            let mut got = data.clone();
            Aes128::with_backend(&key, b)
                .unwrap()
                .apply_ctr(&iv, &mut got)
                .unwrap();
            assert!(got == want, "{b} n={n}");
        }
        let peer = aes::Aes128::new(key.as_slice().try_into().unwrap());
        let mut block = cipher::Block::<aes::Aes128>::default();
        block.copy_from_slice(&iv);
        peer.encrypt_block(&mut block);
        let mine = Aes128::new(key.as_slice().try_into().unwrap());
        let mut mine_block = cipher::Block::<Aes128>::default();
        mine_block.copy_from_slice(&iv);
        mine.encrypt_block(&mut mine_block);
        assert_eq!(mine_block.as_slice(), block.as_slice());
    }
}

fn multi_key_cbc<K: KeySize>(rng: &mut Rng) {
    for backend in Aes::<K>::backends() {
        for streams in [1usize, 2, 3, 4, 5, 7, 8, 9, 12, 16, 17, 33] {
            let keys: Vec<Vec<u8>> = (0..streams).map(|_| rng.bytes(K::KEY)).collect();
            let ivs: Vec<Vec<u8>> = (0..streams).map(|_| rng.bytes(16)).collect();
            let data: Vec<Vec<u8>> = (0..streams)
                .map(|_| {
                    let blocks = rng.below(40);
                    rng.bytes(16 * blocks)
                })
                .collect();
            let set = MultiKey::<Aes<K>>::from_keys(&keys, |k| Aes::<K>::with_backend(k, backend))
                .unwrap();
            let mut bufs = data.clone();
            let iv_refs: Vec<&[u8]> = ivs.iter().map(|v| v.as_slice()).collect();
            {
                let mut refs: Vec<&mut [u8]> = bufs.iter_mut().map(|b| b.as_mut_slice()).collect();
                set.encrypt_cbc(&iv_refs, &mut refs).unwrap();
            }
            for i in 0..streams {
                let single = Aes::<K>::with_backend(&keys[i], Backend::Soft).unwrap();
                let mut want = data[i].clone();
                single.encrypt_cbc(&ivs[i], &mut want).unwrap();
                assert_eq!(bufs[i], want, "{backend} streams={streams} stream {i}");
            }
            {
                let mut refs: Vec<&mut [u8]> = bufs.iter_mut().map(|b| b.as_mut_slice()).collect();
                set.decrypt_cbc(&iv_refs, &mut refs).unwrap();
            }
            assert_eq!(bufs, data, "{backend} streams={streams}");
        }
    }
}

#[test]
fn multi_key_cbc_matches_one_stream_at_a_time() {
    let mut rng = Rng::new(4);
    multi_key_cbc::<K128>(&mut rng);
    multi_key_cbc::<K192>(&mut rng);
    multi_key_cbc::<K256>(&mut rng);
}

#[test]
fn bad_lengths_are_typed_errors() {
    assert!(Aes128::from_key(&[0; 15]).is_err());
    assert!(Aes128::from_key(&[0; 32]).is_err());
    let c = Aes128::from_key(&[0; 16]).unwrap();
    assert!(c.encrypt_ecb(&mut [0; 17]).is_err());
    assert!(c.encrypt_cbc(&[0; 15], &mut [0; 16]).is_err());
    assert!(c.apply_ctr(&[0; 12], &mut [0; 16]).is_err());
    assert!(c.apply_ctr32(&[0; 17], &mut [0; 16]).is_err());
}
