//! MGM (RFC 9058) over Kuznyechik: the RFC example on every backend, the fused code against
//! a block-by-block reading of the RFC on random lengths, and rejection of every forgery.

use aead::{Aead, AeadInOut, KeyInit, Payload};
use vecrypt::Error;
use vecrypt::kuznyechik::{Kuznyechik, KuznyechikMgm};

mod common;
use common::Rng;

fn h(s: &str) -> Vec<u8> {
    hex::decode(s.split_whitespace().collect::<String>()).unwrap()
}

const KEY: &str = "8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef";
const NONCE: &str = "1122334455667700ffeeddccbbaa9988";
const AD: &str =
    "0202020202020202010101010101010104040404040404040303030303030303ea0505050505050505";
const PT: &str = "1122334455667700ffeeddccbbaa9988 00112233445566778899aabbcceeff0a
                  112233445566778899aabbcceeff0a00 2233445566778899aabbcceeff0a0011 aabbcc";
const CT: &str = "a9757b8147956e9055b8a33de89f42fc8075d2212bf9fd5bd3f7069aadc16b39
                  497ab15915a6ba85936b5d0ea9f6851cc60c14d4d3f883d0ab94420695c76deb2c7552";
const TAG: &str = "cf5d656f40c34f5c46e8bb0e29fcdb4c";

fn all() -> Vec<KuznyechikMgm> {
    Kuznyechik::backends()
        .into_iter()
        .map(|b| KuznyechikMgm::with_backend(&h(KEY), b).unwrap())
        .collect()
}

#[test]
fn rfc9058_example() {
    for m in all() {
        let mut b = h(PT);
        let tag = m.encrypt_detached(&h(NONCE), &h(AD), &mut b).unwrap();
        assert_eq!(
            hex::encode(&b),
            h(CT).iter().map(|x| format!("{x:02x}")).collect::<String>()
        );
        assert_eq!(hex::encode(tag), TAG, "{:?}", m.backend());
        m.decrypt_detached(&h(NONCE), &h(AD), &mut b, &tag).unwrap();
        assert_eq!(b, h(PT));
        // A truncated tag of 8 bytes is accepted too.
        let mut c = h(CT);
        m.decrypt_detached(&h(NONCE), &h(AD), &mut c, &tag[..8])
            .unwrap();
        assert_eq!(c, h(PT));
    }
}

#[test]
fn aead_traits() {
    let m = <KuznyechikMgm as KeyInit>::new_from_slice(&h(KEY)).unwrap();
    let nonce = aead::Nonce::<KuznyechikMgm>::try_from(&h(NONCE)[..]).unwrap();
    let sealed = m
        .encrypt(
            &nonce,
            Payload {
                msg: &h(PT),
                aad: &h(AD),
            },
        )
        .unwrap();
    assert_eq!(sealed, [h(CT), h(TAG)].concat());
    let opened = m
        .decrypt(
            &nonce,
            Payload {
                msg: &sealed,
                aad: &h(AD),
            },
        )
        .unwrap();
    assert_eq!(opened, h(PT));
    let mut bad = sealed.clone();
    bad[3] ^= 1;
    assert!(
        m.decrypt(
            &nonce,
            Payload {
                msg: &bad,
                aad: &h(AD)
            }
        )
        .is_err()
    );
    // Separate input and output buffers.
    let pt = h(PT);
    let mut out = vec![0u8; pt.len()];
    let buf = aead::inout::InOutBuf::new(&pt, &mut out).unwrap();
    let tag = m.encrypt_inout_detached(&nonce, &h(AD), buf).unwrap();
    assert_eq!(out, h(CT));
    assert_eq!(hex::encode(tag), TAG);
}

#[test]
fn forgeries_and_bad_nonces_are_rejected_without_plaintext() {
    for m in all() {
        let (nonce, ad, ct, tag) = (h(NONCE), h(AD), h(CT), h(TAG));
        for i in 0..ct.len() {
            let mut c = ct.clone();
            c[i] ^= 0x40;
            let before = c.clone();
            assert_eq!(
                m.decrypt_detached(&nonce, &ad, &mut c, &tag),
                Err(Error::AuthenticationFailed)
            );
            assert_eq!(c, before, "no plaintext released");
        }
        for i in 0..ad.len() {
            let mut a = ad.clone();
            a[i] ^= 1;
            let mut c = ct.clone();
            assert_eq!(
                m.decrypt_detached(&nonce, &a, &mut c, &tag),
                Err(Error::AuthenticationFailed)
            );
            assert_eq!(c, ct);
        }
        for i in 0..16 {
            let mut t = tag.clone();
            t[i] ^= 0x80;
            let mut c = ct.clone();
            assert_eq!(
                m.decrypt_detached(&nonce, &ad, &mut c, &t),
                Err(Error::AuthenticationFailed)
            );
            assert_eq!(c, ct);
        }
        // Truncated ciphertext, extended AD, wrong nonce.
        let mut c = ct[..ct.len() - 1].to_vec();
        assert!(m.decrypt_detached(&nonce, &ad, &mut c, &tag).is_err());
        let mut c = ct.clone();
        assert!(
            m.decrypt_detached(&nonce, &[ad.clone(), vec![0]].concat(), &mut c, &tag)
                .is_err()
        );
        let mut n2 = nonce.clone();
        n2[15] ^= 1;
        assert!(m.decrypt_detached(&n2, &ad, &mut c, &tag).is_err());
        // The nonce's top bit must be zero, in both directions.
        let mut top = nonce.clone();
        top[0] |= 0x80;
        let mut c = ct.clone();
        assert_eq!(
            m.encrypt_detached(&top, &ad, &mut c),
            Err(Error::InvalidNonce)
        );
        assert_eq!(c, ct);
        assert_eq!(
            m.decrypt_detached(&top, &ad, &mut c, &tag),
            Err(Error::InvalidNonce)
        );
        assert_eq!(c, ct);
        assert!(m.encrypt_detached(&nonce[..15], &ad, &mut c).is_err());
        assert!(m.decrypt_detached(&nonce, &ad, &mut c, &tag[..3]).is_err());
        assert_eq!(c, ct);
    }
}

/// RFC 9058 section 4 written block by block, on the portable cipher.
fn reference(key: &[u8], nonce: &[u8], ad: &[u8], pt: &[u8]) -> (Vec<u8>, [u8; 16]) {
    let c = Kuznyechik::with_backend(key, vecrypt::Backend::Soft).unwrap();
    let e = |v: u128| {
        let mut b = v.to_be_bytes();
        c.encrypt_block(&mut b);
        u128::from_be_bytes(b)
    };
    let mul = |a: u128, b: u128| {
        let mut r = 0u128;
        let mut a = a;
        for i in 0..128 {
            if (b >> i) & 1 == 1 {
                r ^= a;
            }
            let carry = a >> 127;
            a <<= 1;
            if carry == 1 {
                a ^= 0x87;
            }
        }
        r
    };
    let n = u128::from_be_bytes(nonce.try_into().unwrap());
    let mut y = e(n);
    let mut z = e(n | 1 << 127);
    let mut ct = Vec::new();
    for blk in pt.chunks(16) {
        let k = e(y).to_be_bytes();
        ct.extend(blk.iter().zip(k).map(|(a, b)| a ^ b));
        y = (y >> 64 << 64) | u128::from((y as u64).wrapping_add(1));
    }
    let mut sum = 0u128;
    for blk in ad.chunks(16).chain(ct.chunks(16)) {
        let mut b = [0u8; 16];
        b[..blk.len()].copy_from_slice(blk);
        sum ^= mul(e(z), u128::from_be_bytes(b));
        z = (u128::from(((z >> 64) as u64).wrapping_add(1)) << 64) | (z & u128::from(u64::MAX));
    }
    let lens = (u128::from(ad.len() as u64 * 8) << 64) | u128::from(pt.len() as u64 * 8);
    sum ^= mul(e(z), lens);
    (ct, e(sum).to_be_bytes())
}

#[test]
fn fused_code_matches_the_rfc_formulas() {
    let mut rng = Rng(0xdead_beef_1234_5678);
    let lens = [
        0usize, 1, 15, 16, 17, 31, 33, 511, 512, 513, 1023, 1024, 1040, 2048, 4095, 4096, 4097,
        5000, 8192, 8209, 12300,
    ];
    for (i, &len) in lens.iter().enumerate() {
        let key = rng.bytes(32);
        let mut nonce = rng.bytes(16);
        nonce[0] &= 0x7f;
        let ad = rng.bytes(lens[(i * 7) % lens.len()]);
        let pt = rng.bytes(len);
        let (want_ct, want_tag) = reference(&key, &nonce, &ad, &pt);
        for backend in Kuznyechik::backends() {
            let m = KuznyechikMgm::with_backend(&key, backend).unwrap();
            let mut b = pt.clone();
            let tag = m.encrypt_detached(&nonce, &ad, &mut b).unwrap();
            assert_eq!(b, want_ct, "{backend} len={len}");
            assert_eq!(tag, want_tag, "{backend} len={len}");
            m.decrypt_detached(&nonce, &ad, &mut b, &tag).unwrap();
            assert_eq!(b, pt, "{backend} len={len}");
        }
    }
}

#[test]
fn seventy_blocks_without_ad_match_the_rfc_formulas() {
    // More blocks than one fused batch, no associated data, a short last block.
    let key = [3u8; 32];
    let nonce = [0x7fu8; 16];
    let pt = vec![0x55u8; 16 * 70 + 3];
    let (want_ct, want_tag) = reference(&key, &nonce, &[], &pt);
    for m in Kuznyechik::backends()
        .into_iter()
        .map(|b| KuznyechikMgm::with_backend(&key, b).unwrap())
    {
        let mut b = pt.clone();
        let tag = m.encrypt_detached(&nonce, &[], &mut b).unwrap();
        assert_eq!((b, tag), (want_ct.clone(), want_tag));
    }
}

/// MGM checks the tag before it writes any plaintext: a forged tag leaves the caller's buffer
/// holding the unchanged ciphertext, on every backend, for messages through several fused
/// batches and a tail, in place and through the `aead` traits with separate buffers.
#[test]
fn forged_tag_leaves_the_ciphertext_unchanged_at_every_length() {
    let mut rng = Rng(0x6d67_6d24);
    let key = rng.bytes(32);
    let mut nonce = rng.bytes(16);
    nonce[0] &= 0x7f;
    for len in [1, 16, 17, 16 * 64 * 3 + 5, 16 * 256 * 2 + 33] {
        let pt = rng.bytes(len);
        for b in Kuznyechik::backends() {
            let m = KuznyechikMgm::with_backend(&key, b).unwrap();
            let mut ct = pt.clone();
            let mut tag = m.encrypt_detached(&nonce, b"ad", &mut ct).unwrap();
            tag[len % 16] ^= 1;
            let mut buf = ct.clone();
            assert_eq!(
                m.decrypt_detached(&nonce, b"ad", &mut buf, &tag),
                Err(Error::AuthenticationFailed)
            );
            assert!(
                buf == ct,
                "{b}, {len} bytes: buffer must hold the ciphertext"
            );
            let mut out = vec![0u8; len];
            let inout = aead::inout::InOutBuf::new(&ct, &mut out).unwrap();
            assert!(
                m.decrypt_inout_detached(&nonce[..].try_into().unwrap(), b"ad", inout, &tag.into())
                    .is_err()
            );
            assert!(
                out == ct,
                "{b}, {len} bytes: output must hold the ciphertext"
            );
        }
    }
}
