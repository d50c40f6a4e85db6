//! The known-answer files of `tests/data/format-v2`, opened by the rules of `docs/format.md`
//! with other implementations than the ones `seal` uses: HKDF written out over the `hmac`
//! crate, AES-256-GCM from the `aes-gcm` crate, and MGM (RFC 9058) written here over the
//! `kuznyechik` crate's block cipher (checked first on the RFC's own vector). Argon2id is
//! the `argon2` crate; the Aigis-enc shared secret comes from the library, whose own
//! known-answer tests check it.

use aead::AeadInOut;
use cipher::{BlockCipherEncrypt, KeyInit};
use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::path::PathBuf;
use vecrypt::aigis::{Aigis, HashMode, ParamSet};

fn data(name: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/format-v2")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn hmac(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    let mut m = <Hmac<Sha256> as KeyInit>::new_from_slice(key).unwrap();
    for p in parts {
        m.update(p);
    }
    m.finalize().into_bytes().into()
}

/// HKDF-SHA256 (RFC 5869) with a 32-byte output: one expand block.
fn hkdf(salt: &[u8], ikm: &[u8], info: &[&[u8]]) -> [u8; 32] {
    let zeros = [0u8; 32];
    let prk = hmac(if salt.is_empty() { &zeros } else { salt }, &[ikm]);
    let mut parts: Vec<&[u8]> = info.to_vec();
    parts.push(&[1]);
    hmac(&prk, &parts)
}

fn gf128_mul(mut a: u128, mut b: u128) -> u128 {
    let mut r = 0u128;
    while b != 0 {
        if b & 1 == 1 {
            r ^= a;
        }
        b >>= 1;
        let carry = a >> 127;
        a <<= 1;
        if carry == 1 {
            a ^= 0x87;
        }
    }
    r
}

/// MGM with Kuznyechik (RFC 9058), 16-byte nonce (top bit clear), 16-byte tag: the
/// plaintext of `ct` if `tag` checks.
fn mgm_open(key: &[u8], nonce: &[u8; 16], ad: &[u8], ct: &[u8], tag: &[u8]) -> Option<Vec<u8>> {
    let k = kuznyechik::Kuznyechik::new_from_slice(key).unwrap();
    let e = |x: u128| -> u128 {
        let mut b = x.to_be_bytes().into();
        k.encrypt_block(&mut b);
        u128::from_be_bytes(b.into())
    };
    let icn = u128::from_be_bytes(*nonce) & !(1 << 127);
    let (mut y, mut z) = (e(icn), e(icn | 1 << 127));
    let low = |v: u128| v & u128::from(u64::MAX);
    let mut sum = 0u128;
    let mut absorb = |block: &[u8]| {
        let mut b = [0u8; 16];
        b[..block.len()].copy_from_slice(block);
        sum ^= gf128_mul(e(z), u128::from_be_bytes(b));
        z = (z & u128::from(u64::MAX)) | (((z >> 64).wrapping_add(1) & u128::from(u64::MAX)) << 64);
    };
    ad.chunks(16).for_each(&mut absorb);
    ct.chunks(16).for_each(&mut absorb);
    let lens = (u128::from(ad.len() as u64 * 8) << 64) | u128::from(ct.len() as u64 * 8);
    absorb(&lens.to_be_bytes());
    if e(sum).to_be_bytes()[..] != *tag {
        return None;
    }
    let mut out = Vec::with_capacity(ct.len());
    for block in ct.chunks(16) {
        let ks = e(y).to_be_bytes();
        out.extend(block.iter().zip(ks).map(|(c, k)| c ^ k));
        y = (y & !u128::from(u64::MAX)) | low(y.wrapping_add(1));
    }
    Some(out)
}

fn unhex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn the_mgm_written_here_passes_the_rfc_9058_vector() {
    let key = unhex("8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef");
    let nonce: [u8; 16] = unhex("1122334455667700ffeeddccbbaa9988")
        .try_into()
        .unwrap();
    let ad =
        unhex("0202020202020202010101010101010104040404040404040303030303030303ea0505050505050505");
    let plain = unhex(
        "1122334455667700ffeeddccbbaa9988 00112233445566778899aabbcceeff0a
         112233445566778899aabbcceeff0a00 2233445566778899aabbcceeff0a0011 aabbcc",
    );
    let ct = unhex(
        "a9757b8147956e9055b8a33de89f42fc8075d2212bf9fd5bd3f7069aadc16b39497ab15915a6ba85936b5d0ea9f6851c
         c60c14d4d3f883d0ab94420695c76deb2c7552",
    );
    let tag = unhex("cf5d656f40c34f5c46e8bb0e29fcdb4c");
    assert_eq!(mgm_open(&key, &nonce, &ad, &ct, &tag), Some(plain));
    let mut bad = tag.clone();
    bad[0] ^= 1;
    assert_eq!(mgm_open(&key, &nonce, &ad, &ct, &bad), None);
}

/// Opens a format-2 stream given its file key (or, with `kem_sk`, the secret key file).
fn open(
    stream: &[u8],
    file_key: Option<[u8; 32]>,
    kem_sk: Option<&[u8]>,
    pass: Option<&[u8]>,
) -> Vec<u8> {
    assert_eq!(&stream[..8], b"VECRYPT\x02");
    let (suite, kind) = (stream[8], stream[9]);
    let l = usize::from(u16::from_be_bytes([stream[10], stream[11]]));
    let params = &stream[12..12 + l];
    let prefix = &stream[12 + l..28 + l];
    let (body, mac) = (&stream[..28 + l], &stream[28 + l..60 + l]);
    let file_key = match kind {
        1 => file_key.unwrap(),
        2 => {
            let word = |i: usize| u32::from_be_bytes(params[i..i + 4].try_into().unwrap());
            let p = argon2::Params::new(word(16), word(20), word(24), Some(32)).unwrap();
            let a = argon2::Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, p);
            let mut k = [0u8; 32];
            a.hash_password_into(pass.unwrap(), &params[..16], &mut k)
                .unwrap();
            k
        }
        3 => {
            let sk_file = kem_sk.unwrap();
            assert_eq!(
                &sk_file[..9],
                &[b'V', b'C', b'K', b'E', b'M', 1, b's', params[0], params[1]]
            );
            let set = ParamSet::ALL[usize::from(params[0]) - 1];
            let mode = if params[1] == 1 {
                HashMode::Shake
            } else {
                HashMode::Sm3
            };
            let sk = &sk_file[9..];
            let ss = Aigis::new(set, mode).decapsulate(sk, &params[2..]).unwrap();
            let pk_end = sk.len() - 64;
            let pk = &sk[pk_end - set.public_key_bytes()..pk_end];
            hkdf(&[], &*ss, &[b"vecrypt seal v2 aigis-enc file key", pk])
        }
        _ => panic!("key type {kind}"),
    };
    let mac_key = hkdf(prefix, &file_key, &[b"vecrypt seal v2 header mac key"]);
    assert_eq!(&hmac(&mac_key, &[body])[..], mac, "header MAC");
    let header = &stream[..60 + l];
    let payload = hkdf(prefix, &file_key, &[b"vecrypt seal v2 payload key", header]);
    let chunks: Vec<&[u8]> = stream[60 + l..].chunks(65536 + 16).collect();
    let mut plain = Vec::new();
    for (i, chunk) in chunks.iter().enumerate() {
        let last = u8::from(i + 1 == chunks.len());
        let (ct, tag) = chunk.split_at(chunk.len() - 16);
        let index = (i as u64).to_be_bytes();
        match suite {
            1 => {
                let mut nonce = [0u8; 12];
                nonce[3..11].copy_from_slice(&index);
                nonce[11] = last;
                let gcm = aes_gcm::Aes256Gcm::new_from_slice(&payload).unwrap();
                let mut buf = ct.to_vec();
                let n = aead::Nonce::<aes_gcm::Aes256Gcm>::try_from(&nonce[..]).unwrap();
                let t = aead::Tag::<aes_gcm::Aes256Gcm>::try_from(tag).unwrap();
                gcm.decrypt_inout_detached(&n, &[], buf.as_mut_slice().into(), &t)
                    .expect("GCM tag");
                plain.extend_from_slice(&buf);
            }
            2 => {
                let mut nonce = [0u8; 16];
                nonce[7..15].copy_from_slice(&index);
                nonce[15] = last;
                plain.extend(mgm_open(&payload, &nonce, &[], ct, tag).expect("MGM tag"));
            }
            s => panic!("suite {s}"),
        }
    }
    plain
}

#[test]
fn every_known_answer_file_opens_by_the_written_rules() {
    let plain = data("plain.bin");
    let key_line = String::from_utf8(data("key.txt")).unwrap();
    let key: [u8; 32] = unhex(key_line.trim().strip_prefix("vecrypt-key-v1 ").unwrap())
        .try_into()
        .unwrap();
    let pass = data("passphrase.txt");
    let pass = pass.strip_suffix(b"\n").unwrap();
    let sk = data("aigis-enc-2.sk");
    assert_eq!(
        open(&data("key-aes-256-gcm.vcr"), Some(key), None, None),
        plain
    );
    assert_eq!(
        open(&data("key-kuznyechik-mgm.vcr"), Some(key), None, None),
        plain
    );
    assert_eq!(
        open(&data("empty-aes-256-gcm.vcr"), Some(key), None, None),
        b""
    );
    assert_eq!(
        open(&data("passphrase-aes-256-gcm.vcr"), None, None, Some(pass)),
        plain
    );
    assert_eq!(
        open(
            &data("aigis-enc-2-kuznyechik-mgm.vcr"),
            None,
            Some(&sk),
            None
        ),
        plain
    );
}
