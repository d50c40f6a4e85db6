//! GOST R 34.13-2015 modes over Kuznyechik: the examples of Appendix A.1 on every backend,
//! long IVs and short segments checked against a plain reading of the standard, and the
//! one-block-IV cases against the RustCrypto mode crates.

use cipher::{BlockModeDecrypt, BlockModeEncrypt, InnerIvInit, KeyInit};
use cmac::Mac;
use vecrypt::kuznyechik::Kuznyechik;
use vecrypt::modes::BlockModes;
use vecrypt::modes::gost;

mod common;
use common::Rng;

fn h(s: &str) -> Vec<u8> {
    hex::decode(s.replace(' ', "")).unwrap()
}

const KEY: &str = "8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef";
const P: &str = "1122334455667700ffeeddccbbaa9988 00112233445566778899aabbcceeff0a
                 112233445566778899aabbcceeff0a00 2233445566778899aabbcceeff0a0011";
const IV2: &str = "1234567890abcef0a1b2c3d4e5f00112 23344556677889901213141516171819";

fn p() -> Vec<u8> {
    h(&P.replace('\n', ""))
}

fn flat(s: &str) -> String {
    s.split_whitespace().collect()
}

fn ciphers() -> Vec<Kuznyechik> {
    Kuznyechik::backends()
        .into_iter()
        .map(|b| Kuznyechik::with_backend(&h(KEY), b).unwrap())
        .collect()
}

#[test]
fn appendix_a1_ecb() {
    let ct = "7f679d90bebc24305a468d42b9d4edcd b429912c6e0032f9285452d76718d08b
              f0ca33549d247ceef3f5a5313bd4b157 d0b09ccde830b9eb3a02c4c5aa8ada98";
    for c in ciphers() {
        let mut b = p();
        c.encrypt_ecb(&mut b).unwrap();
        assert_eq!(hex::encode(&b), flat(ct));
        c.decrypt_ecb(&mut b).unwrap();
        assert_eq!(b, p());
    }
}

#[test]
fn appendix_a1_ctr() {
    let ct = "f195d8bec10ed1dbd57b5fa240bda1b8 85eee733f6a13e5df33ce4b33c45dee4
              a5eae88be6356ed3d5e877f13564a3a5 cb91fab1f20cbab6d1c6d15820bdba73";
    for c in ciphers() {
        let mut b = p();
        gost::ctr(&c, &h("1234567890abcef0"), 16, &mut b).unwrap();
        assert_eq!(hex::encode(&b), flat(ct));
        gost::ctr(&c, &h("1234567890abcef0"), 16, &mut b).unwrap();
        assert_eq!(b, p());
        // The crate-wide CTR with the full first counter block is the same stream.
        let mut b = p();
        c.apply_ctr(&h("1234567890abcef00000000000000000"), &mut b)
            .unwrap();
        assert_eq!(hex::encode(&b), flat(ct));
    }
}

#[test]
fn appendix_a1_ofb_cbc_cfb() {
    let ofb = "81800a59b1842b24ff1f795e897abd95 ed5b47a7048cfab48fb521369d9326bf
               66a257ac3ca0b8b1c80fe7fc10288a13 203ebbc066138660a0292243f6903150";
    let cbc = "689972d4a085fa4d90e52e3d6d7dcc27 2826e661b478eca6af1e8e448d5ea5ac
               fe7babf1e91999e85640e8b0f49d90d0 167688065a895c631a2d9a1560b63970";
    let cfb = "81800a59b1842b24ff1f795e897abd95 ed5b47a7048cfab48fb521369d9326bf
               79f2a8eb5cc68d38842d264e97a238b5 4ffebecd4e922de6c75bd9dd44fbf4d1";
    let iv = h(&flat(IV2));
    for c in ciphers() {
        let mut b = p();
        gost::ofb(&c, &iv, 16, &mut b).unwrap();
        assert_eq!(hex::encode(&b), flat(ofb));
        gost::ofb(&c, &iv, 16, &mut b).unwrap();
        assert_eq!(b, p());

        let mut b = p();
        gost::cbc_encrypt(&c, &iv, &mut b).unwrap();
        assert_eq!(hex::encode(&b), flat(cbc));
        gost::cbc_decrypt(&c, &iv, &mut b).unwrap();
        assert_eq!(b, p());

        let mut b = p();
        gost::cfb_encrypt(&c, &iv, 16, &mut b).unwrap();
        assert_eq!(hex::encode(&b), flat(cfb));
        gost::cfb_decrypt(&c, &iv, 16, &mut b).unwrap();
        assert_eq!(b, p());
    }
}

#[test]
fn appendix_a1_mac() {
    for c in ciphers() {
        assert_eq!(
            hex::encode(gost::mac(&c, &p(), 16).unwrap()),
            "336f4d296059fbe34ddeb35b37749c67"
        );
        assert_eq!(
            hex::encode(gost::mac(&c, &p(), 8).unwrap()),
            "336f4d296059fbe3"
        );
        // In pieces of every size, the same tag.
        for piece in 1..20 {
            let mut m = gost::Omac::new(&c);
            for chunk in p().chunks(piece) {
                m.update(chunk);
            }
            assert_eq!(
                hex::encode(&m.finalize()[..16]),
                "336f4d296059fbe34ddeb35b37749c67"
            );
        }
    }
}

/// The modes written block by block straight from the standard's formulas, on the portable
/// backend, as the reference for the batched code.
mod reference {
    use vecrypt::kuznyechik::Kuznyechik;

    fn e(c: &Kuznyechik, b: &[u8]) -> Vec<u8> {
        let mut x: [u8; 16] = b[..16].try_into().unwrap();
        c.encrypt_block(&mut x);
        x.to_vec()
    }

    pub fn ctr(c: &Kuznyechik, iv: &[u8], s: usize, data: &[u8]) -> Vec<u8> {
        let mut ctr = [0u8; 16];
        ctr[..8].copy_from_slice(iv);
        let mut v = u128::from_be_bytes(ctr);
        let mut out = Vec::new();
        for seg in data.chunks(s) {
            let g = e(c, &v.to_be_bytes());
            out.extend(seg.iter().zip(&g).map(|(a, b)| a ^ b));
            v = v.wrapping_add(1);
        }
        out
    }

    pub fn ofb(c: &Kuznyechik, iv: &[u8], s: usize, data: &[u8]) -> Vec<u8> {
        let mut r = iv.to_vec();
        let mut out = Vec::new();
        for seg in data.chunks(s) {
            let y = e(c, &r[..16]);
            out.extend(seg.iter().zip(&y).map(|(a, b)| a ^ b));
            r.drain(..16);
            r.extend_from_slice(&y);
        }
        out
    }

    pub fn cbc(c: &Kuznyechik, iv: &[u8], data: &[u8]) -> Vec<u8> {
        let mut r = iv.to_vec();
        let mut out = Vec::new();
        for blk in data.chunks(16) {
            let x: Vec<u8> = blk.iter().zip(&r[..16]).map(|(a, b)| a ^ b).collect();
            let y = e(c, &x);
            out.extend_from_slice(&y);
            r.drain(..16);
            r.extend_from_slice(&y);
        }
        out
    }

    pub fn cfb(c: &Kuznyechik, iv: &[u8], s: usize, data: &[u8]) -> Vec<u8> {
        let mut r = iv.to_vec();
        let mut out = Vec::new();
        for seg in data.chunks(s) {
            let g = e(c, &r[..16]);
            let ct: Vec<u8> = seg.iter().zip(&g).map(|(a, b)| a ^ b).collect();
            out.extend_from_slice(&ct);
            r.drain(..s);
            let mut fed = ct.clone();
            fed.resize(s, 0);
            r.extend_from_slice(&fed);
        }
        out
    }
}

#[test]
fn long_ivs_and_segments_match_the_formulas() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let key = rng.bytes(32);
    let soft = Kuznyechik::with_backend(&key, vecrypt::Backend::Soft).unwrap();
    for len in [0, 1, 15, 16, 17, 100, 1024, 2000, 4099] {
        let data = rng.bytes(len);
        let whole = &data[..len / 16 * 16];
        for z in [1usize, 2, 3, 5, 64, 70] {
            let iv = rng.bytes(16 * z);
            for s in [16usize, 1, 5, 8, 15] {
                let want_ofb = reference::ofb(&soft, &iv, s, &data);
                let want_cfb = reference::cfb(&soft, &iv, s, &data);
                let want_ctr = reference::ctr(&soft, &iv[..8], s, &data);
                for c in ciphers_for(&key) {
                    let mut b = data.clone();
                    gost::ofb(&c, &iv, s, &mut b).unwrap();
                    assert_eq!(b, want_ofb, "ofb z={z} s={s} len={len}");
                    let mut b = data.clone();
                    gost::cfb_encrypt(&c, &iv, s, &mut b).unwrap();
                    assert_eq!(b, want_cfb, "cfb z={z} s={s} len={len}");
                    gost::cfb_decrypt(&c, &iv, s, &mut b).unwrap();
                    assert_eq!(b, data, "cfb decrypt z={z} s={s} len={len}");
                    let mut b = data.clone();
                    gost::ctr(&c, &iv[..8], s, &mut b).unwrap();
                    assert_eq!(b, want_ctr, "ctr s={s} len={len}");
                }
            }
            // CFB with a register that is not a whole number of blocks.
            let odd_iv = rng.bytes(16 * z + 7);
            let want = reference::cfb(&soft, &odd_iv, 16, &data);
            let mut b = data.clone();
            gost::cfb_encrypt(&soft, &odd_iv, 16, &mut b).unwrap();
            assert_eq!(b, want, "cfb m=16z+7");
            let want_cbc = reference::cbc(&soft, &iv, whole);
            for c in ciphers_for(&key) {
                let mut b = whole.to_vec();
                gost::cbc_encrypt(&c, &iv, &mut b).unwrap();
                assert_eq!(b, want_cbc, "cbc z={z} len={len}");
                gost::cbc_decrypt(&c, &iv, &mut b).unwrap();
                assert_eq!(b, whole, "cbc decrypt z={z} len={len}");
            }
        }
    }
}

#[test]
fn mac_in_pieces_matches_the_portable_backend() {
    let mut rng = Rng(0x0bad_cafe);
    let key = rng.bytes(32);
    let soft = Kuznyechik::with_backend(&key, vecrypt::Backend::Soft).unwrap();
    let data = rng.bytes(5000);
    for len in [0, 1, 16, 17, 32, 1023, 1024, 1025, 1040, 3000, 5000] {
        let want = gost::mac(&soft, &data[..len], 16).unwrap();
        for c in ciphers_for(&key) {
            assert_eq!(gost::mac(&c, &data[..len], 16).unwrap(), want, "len={len}");
            for piece in [1, 15, 16, 17, 700, 2048] {
                let mut m = gost::Omac::new(&c);
                for chunk in data[..len].chunks(piece) {
                    m.update(chunk);
                }
                assert_eq!(&m.finalize()[..16], &want[..], "len={len} piece={piece}");
            }
        }
    }
}

fn ciphers_for(key: &[u8]) -> Vec<Kuznyechik> {
    Kuznyechik::backends()
        .into_iter()
        .map(|b| Kuznyechik::with_backend(key, b).unwrap())
        .collect()
}

#[test]
fn one_block_ivs_match_rustcrypto_modes() {
    let mut rng = Rng(99);
    for len in [0usize, 16, 48, 1024, 4096] {
        let key = rng.bytes(32);
        let iv = rng.bytes(16);
        let data = rng.bytes(len);
        let peer = kuznyechik::Kuznyechik::new_from_slice(&key).unwrap();
        let mut want = data.clone();
        cbc::Encryptor::<kuznyechik::Kuznyechik>::inner_iv_slice_init(peer.clone(), &iv)
            .unwrap()
            .encrypt_blocks(cipher::Array::cast_slice_from_core_mut(
                want.as_chunks_mut::<16>().0,
            ));
        let mut want_cfb = data.clone();
        cfb_mode::Encryptor::<kuznyechik::Kuznyechik>::inner_iv_slice_init(peer.clone(), &iv)
            .unwrap()
            .encrypt_blocks(cipher::Array::cast_slice_from_core_mut(
                want_cfb.as_chunks_mut::<16>().0,
            ));
        let mut cm = <cmac::Cmac<kuznyechik::Kuznyechik> as KeyInit>::new_from_slice(&key).unwrap();
        cm.update(&data);
        let want_mac = cm.finalize().into_bytes().to_vec();
        for c in ciphers_for(&key) {
            let mut b = data.clone();
            gost::cbc_encrypt(&c, &iv, &mut b).unwrap();
            assert_eq!(b, want, "cbc");
            let mut b = data.clone();
            gost::cfb_encrypt(&c, &iv, 16, &mut b).unwrap();
            assert_eq!(b, want_cfb, "cfb");
            assert_eq!(gost::mac(&c, &data, 16).unwrap(), want_mac, "mac");
            assert_eq!(gost::mac(&c, &data, 3).unwrap(), want_mac[..3], "mac");
        }
        let _ = cbc::Decryptor::<kuznyechik::Kuznyechik>::inner_iv_slice_init(peer, &iv).map(
            |mut d| {
                let mut b = want.clone();
                d.decrypt_blocks(cipher::Array::cast_slice_from_core_mut(
                    b.as_chunks_mut::<16>().0,
                ));
                assert_eq!(b, data);
            },
        );
    }
}

#[test]
fn bad_parameters_are_typed_errors() {
    let c = Kuznyechik::from_key(&h(KEY)).unwrap();
    let mut b = p();
    assert!(gost::ctr(&c, &[0u8; 16], 16, &mut b).is_err());
    assert!(gost::ctr(&c, &[0u8; 8], 0, &mut b).is_err());
    assert!(gost::ctr(&c, &[0u8; 8], 17, &mut b).is_err());
    assert!(gost::ofb(&c, &[0u8; 24], 16, &mut b).is_err());
    assert!(gost::ofb(&c, &[], 16, &mut b).is_err());
    assert!(gost::cbc_encrypt(&c, &[0u8; 16], &mut b[..17]).is_err());
    assert!(gost::cbc_decrypt(&c, &[0u8; 15], &mut b).is_err());
    assert!(gost::cfb_encrypt(&c, &[0u8; 15], 16, &mut b).is_err());
    assert!(gost::mac(&c, &b, 0).is_err());
    assert!(gost::mac(&c, &b, 17).is_err());
    assert_eq!(b, p(), "rejected calls leave the data alone");
}

/// The GOST MAC's constant-time check: the example tag and each of its prefixes are accepted,
/// any changed bit of tag or message is `AuthenticationFailed`, an empty or too long tag is
/// `InvalidLength`; on every backend, through `verify_mac` and `Omac::verify`.
#[test]
fn mac_verify_accepts_and_rejects() {
    let tag = h("336f4d296059fbe34ddeb35b37749c67");
    for c in ciphers() {
        for len in 1..=16 {
            assert_eq!(gost::verify_mac(&c, &p(), &tag[..len]), Ok(()), "{len}");
        }
        let mut m = gost::Omac::new(&c);
        m.update(&p());
        assert_eq!(m.verify(&tag), Ok(()));
        for i in 0..16 {
            let mut bad = tag.clone();
            bad[i] ^= 1 << (i % 8);
            assert_eq!(
                gost::verify_mac(&c, &p(), &bad),
                Err(vecrypt::Error::AuthenticationFailed)
            );
            let mut m = gost::Omac::new(&c);
            m.update(&p());
            assert_eq!(m.verify(&bad), Err(vecrypt::Error::AuthenticationFailed));
        }
        let mut msg = p();
        msg[63] ^= 0x80;
        assert_eq!(
            gost::verify_mac(&c, &msg, &tag),
            Err(vecrypt::Error::AuthenticationFailed)
        );
        assert_eq!(
            gost::verify_mac(&c, &p(), &[]),
            Err(vecrypt::Error::InvalidLength)
        );
        assert_eq!(
            gost::verify_mac(&c, &p(), &[tag.clone(), vec![0]].concat()),
            Err(vecrypt::Error::InvalidLength)
        );
    }
}

/// Every short ECB length (the per-block path and the first batches), and the one-block-IV
/// chained modes and OMAC over every length up to 70 blocks and a long message, on every
/// backend against the portable one.
#[test]
fn short_and_chained_lengths_match_the_portable_backend() {
    let mut rng = Rng(0x05ee_d0fb_10c5);
    let key = rng.bytes(32);
    let soft = Kuznyechik::with_backend(&key, vecrypt::Backend::Soft).unwrap();
    let ciphers = ciphers_for(&key);
    for blocks in 0..=40 {
        let data = rng.bytes(16 * blocks);
        let mut want = data.clone();
        soft.encrypt_ecb(&mut want).unwrap();
        for c in &ciphers {
            let mut b = data.clone();
            c.encrypt_ecb(&mut b).unwrap();
            assert_eq!(b, want, "ecb encrypt, {blocks} blocks");
            c.decrypt_ecb(&mut b).unwrap();
            assert_eq!(b, data, "ecb decrypt, {blocks} blocks");
        }
    }
    let lengths = (0..=70 * 16)
        .step_by(16)
        .chain([1, 15, 17, 16 * 33 + 5, 16 * 70 + 15, 20_000]);
    for len in lengths {
        let data = rng.bytes(len);
        let whole = &data[..len / 16 * 16];
        let iv = rng.bytes(16);
        let want_ofb = reference::ofb(&soft, &iv, 16, &data);
        let want_cfb = reference::cfb(&soft, &iv, 16, &data);
        let want_cbc = reference::cbc(&soft, &iv, whole);
        let want_mac = gost::mac(&soft, &data, 16).unwrap();
        for c in &ciphers {
            let mut b = data.clone();
            gost::ofb(c, &iv, 16, &mut b).unwrap();
            assert_eq!(b, want_ofb, "ofb len={len}");
            let mut b = data.clone();
            gost::cfb_encrypt(c, &iv, 16, &mut b).unwrap();
            assert_eq!(b, want_cfb, "cfb len={len}");
            gost::cfb_decrypt(c, &iv, 16, &mut b).unwrap();
            assert_eq!(b, data, "cfb decrypt len={len}");
            let mut b = whole.to_vec();
            gost::cbc_encrypt(c, &iv, &mut b).unwrap();
            assert_eq!(b, want_cbc, "cbc len={len}");
            gost::cbc_decrypt(c, &iv, &mut b).unwrap();
            assert_eq!(b, whole, "cbc decrypt len={len}");
            assert_eq!(gost::mac(c, &data, 16).unwrap(), want_mac, "mac len={len}");
        }
    }
}
