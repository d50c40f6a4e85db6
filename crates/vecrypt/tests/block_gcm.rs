//! GCM over Kuznyechik and uBlock-128 (`vecrypt::modes::Gcm`): against the generic GCM of
//! the `aes-gcm` crate composed with the `kuznyechik` crate (and with this crate's uBlock)
//! on random inputs and nonces of many lengths, on every backend; the fixed known answers of
//! `tests/data/*-gcm.txt`; forgeries and refusals.

use aead::array::ArraySize;
use aead::consts::{U1, U8, U12, U16, U60};
use aead::{Aead, AeadInOut, KeyInit, Nonce, Payload};
use aes_gcm::AesGcm as RefGcm;
use cipher::{BlockCipherEncrypt, BlockSizeUser};
use vecrypt::kuznyechik::{Kuznyechik, KuznyechikGcm};
use vecrypt::modes::{Gcm, GcmCipher};
use vecrypt::ublock::{Ublock128_128, Ublock128_256, Ublock128_256Gcm, Ublock128Gcm};
use vecrypt::{Backend, Error};

mod common;
use common::Rng;

/// Plaintext lengths: empty, around one block, one and two registers of four blocks, the
/// longest text whose tag mask is made in the same call (240) and one more, around a few
/// hundred bytes, around the 4 KiB of the uBlock AVX2 batch, past the 8 KiB chunk of the
/// GCM loop.
#[rustfmt::skip]
const LENS: &[usize] = &[0, 1, 15, 16, 17, 64, 65, 128, 240, 241, 255, 256, 4095, 4096 + 33, 70000];
/// Nonce lengths: the direct 12-byte one and hashed ones.
const NONCES: &[usize] = &[12, 1, 8, 16, 60];

/// `aes-gcm`'s generic GCM over the block cipher `C` with an `N`-byte nonce.
fn reference_n<C, N>(cipher: C, nonce: &[u8], ad: &[u8], pt: &[u8]) -> (Vec<u8>, [u8; 16])
where
    C: BlockCipherEncrypt + BlockSizeUser<BlockSize = U16>,
    N: ArraySize,
{
    let gcm = RefGcm::<C, N>::from(cipher);
    let nonce = Nonce::<RefGcm<C, N>>::try_from(nonce).unwrap();
    let mut buf = pt.to_vec();
    let tag = gcm
        .encrypt_inout_detached(&nonce, ad, buf.as_mut_slice().into())
        .unwrap();
    (buf, tag.into())
}

/// [`reference_n`] for the nonce lengths of [`NONCES`].
fn reference<C>(cipher: C, nonce: &[u8], ad: &[u8], pt: &[u8]) -> (Vec<u8>, [u8; 16])
where
    C: BlockCipherEncrypt + BlockSizeUser<BlockSize = U16>,
{
    match nonce.len() {
        12 => reference_n::<C, U12>(cipher, nonce, ad, pt),
        1 => reference_n::<C, U1>(cipher, nonce, ad, pt),
        8 => reference_n::<C, U8>(cipher, nonce, ad, pt),
        16 => reference_n::<C, U16>(cipher, nonce, ad, pt),
        60 => reference_n::<C, U60>(cipher, nonce, ad, pt),
        n => panic!("no reference for {n}-byte nonces"),
    }
}

/// Encrypts and decrypts on every given key object and compares with `want`.
fn check_all<C: GcmCipher>(
    gcms: &[Gcm<C>],
    nonce: &[u8],
    ad: &[u8],
    pt: &[u8],
    want: &(Vec<u8>, [u8; 16]),
) {
    for g in gcms {
        let what = format!(
            "{g:?} nonce={} ad={} pt={}",
            nonce.len(),
            ad.len(),
            pt.len()
        );
        let mut buf = pt.to_vec();
        let tag = g.encrypt_detached(nonce, ad, &mut buf).unwrap();
        assert!(buf == want.0, "ciphertext: {what}");
        assert_eq!(tag, want.1, "tag: {what}");
        g.decrypt_detached(nonce, ad, &mut buf, &want.1).unwrap();
        assert!(buf == pt, "plaintext: {what}");
    }
}

/// Every nonce length of [`NONCES`] with every plaintext length of [`LENS`], the associated
/// data's length taken from [`LENS`] too, rotated.
fn cases(seed: u64, mut each: impl FnMut(&[u8], &[u8], &[u8])) {
    let mut rng = Rng(seed);
    for (i, &nonce_len) in NONCES.iter().enumerate() {
        for (j, &len) in LENS.iter().enumerate() {
            let ad_len = LENS[(i + 3 * j) % LENS.len()].min(4200);
            let nonce = rng.bytes(nonce_len);
            let ad = rng.bytes(ad_len);
            let pt = rng.bytes(len);
            each(&nonce, &ad, &pt);
        }
    }
}

#[test]
fn kuznyechik_matches_aes_gcm_over_the_kuznyechik_crate() {
    let mut rng = Rng(0x6b75_7a6e);
    let key = rng.bytes(32);
    let gcms: Vec<KuznyechikGcm> = Kuznyechik::backends()
        .into_iter()
        .map(|b| KuznyechikGcm::with_backend(&key, b).unwrap())
        .collect();
    let other = <kuznyechik::Kuznyechik as KeyInit>::new_from_slice(&key).unwrap();
    cases(0x1234_5678, |nonce, ad, pt| {
        let want = reference(other.clone(), nonce, ad, pt);
        check_all(&gcms, nonce, ad, pt, &want);
    });
}

/// uBlock has no other implementation here: the reference is `aes-gcm` over this crate's
/// uBlock on its portable backend, so the GCM layer is checked independently on every
/// backend.
fn ublock_matches<C>(key_len: usize, seed: u64, backends: Vec<Backend>)
where
    C: GcmCipher + BlockCipherEncrypt + BlockSizeUser<BlockSize = U16>,
{
    let mut rng = Rng(seed);
    let key = rng.bytes(key_len);
    let gcms: Vec<Gcm<C>> = backends
        .into_iter()
        .map(|b| Gcm::<C>::with_backend(&key, b).unwrap())
        .collect();
    let soft = C::gcm_keyed(&key, Some(Backend::Soft)).unwrap();
    cases(seed ^ 0xabcd, |nonce, ad, pt| {
        let want = reference(soft.clone(), nonce, ad, pt);
        check_all(&gcms, nonce, ad, pt, &want);
    });
}

#[test]
fn ublock128_matches_aes_gcm_over_portable_ublock() {
    ublock_matches::<Ublock128_128>(16, 0x7562_6c6b, Ublock128_128::backends());
    ublock_matches::<Ublock128_256>(32, 0x7562_6c6c, Ublock128_256::backends());
}

fn h(s: &str) -> Vec<u8> {
    hex::decode(s.split_whitespace().collect::<String>()).unwrap()
}

/// One known answer of a vector file.
struct Vector {
    key: Vec<u8>,
    iv: Vec<u8>,
    ad: Vec<u8>,
    pt: Vec<u8>,
    ct: Vec<u8>,
    tag: Vec<u8>,
}

/// Reads `key = ..`, `iv = ..`, `ad = ..`, `pt = ..`, `ct = ..`, `tag = ..` records (hex,
/// one per line, records separated by blank lines, `#` comments).
fn vectors(text: &str) -> Vec<Vector> {
    let mut out = Vec::new();
    for record in text.split("\n\n") {
        let field = |name: &str| {
            record
                .lines()
                .find_map(|l| {
                    let (k, v) = l.split_once('=')?;
                    (k.trim() == name).then(|| h(v))
                })
                .unwrap_or_else(|| panic!("no {name} in {record:?}"))
        };
        if record
            .lines()
            .all(|l| l.trim().is_empty() || l.starts_with('#'))
        {
            continue;
        }
        out.push(Vector {
            key: field("key"),
            iv: field("iv"),
            ad: field("ad"),
            pt: field("pt"),
            ct: field("ct"),
            tag: field("tag"),
        });
    }
    out
}

const KUZNYECHIK_GCM: &str = include_str!("data/kuznyechik-gcm.txt");
const UBLOCK128_GCM: &str = include_str!("data/ublock128-gcm.txt");

fn replay<C: GcmCipher>(text: &str, backends: &[Backend]) -> usize {
    let vs = vectors(text);
    for v in &vs {
        for &b in backends {
            let g = Gcm::<C>::with_backend(&v.key, b).unwrap();
            let mut buf = v.pt.clone();
            let tag = g.encrypt_detached(&v.iv, &v.ad, &mut buf).unwrap();
            assert_eq!(hex::encode(&buf), hex::encode(&v.ct), "{g:?}");
            assert_eq!(hex::encode(tag), hex::encode(&v.tag), "{g:?}");
            g.decrypt_detached(&v.iv, &v.ad, &mut buf, &v.tag).unwrap();
            assert_eq!(buf, v.pt, "{g:?}");
        }
    }
    vs.len()
}

#[test]
fn known_answers_on_every_backend() {
    assert!(replay::<Kuznyechik>(KUZNYECHIK_GCM, &Kuznyechik::backends()) >= 8);
    assert!(replay::<Ublock128_128>(UBLOCK128_GCM, &Ublock128_128::backends()) >= 8);
}

/// The known-answer files are what the references make: the `aes-gcm` crate over the
/// `kuznyechik` crate, and over this crate's portable uBlock-128/128 (a changed file, or a
/// changed reference, fails here); `known_answers_on_every_backend` replays them.
#[test]
fn known_answer_files_are_what_the_references_make() {
    let shapes: &[(usize, usize, usize)] = &[
        (12, 0, 0),
        (12, 0, 16),
        (12, 20, 60),
        (12, 17, 1),
        (1, 0, 33),
        (8, 16, 15),
        (16, 5, 64),
        (60, 31, 17),
        (12, 0, 100),
    ];
    let headers = [
        "# Kuznyechik-GCM (NIST SP 800-38D over Kuznyechik): key, iv, ad, pt, ct, tag in hex.\n\
         # Made with the generic GCM of the aes-gcm crate over the kuznyechik crate.",
        "# uBlock-128/128-GCM (NIST SP 800-38D over uBlock-128/128): key, iv, ad, pt, ct, tag \
         in hex.\n# Made with the generic GCM of the aes-gcm crate over vecrypt's portable \
         uBlock-128/128.",
    ];
    for ((header, key_len), stored) in headers
        .into_iter()
        .zip([32, 16])
        .zip([KUZNYECHIK_GCM, UBLOCK128_GCM])
    {
        let mut made = format!("{header}\n");
        let mut rng = Rng(key_len as u64 * 7919);
        for &(iv_len, ad_len, pt_len) in shapes {
            let (key, iv, ad, pt) = (
                rng.bytes(key_len),
                rng.bytes(iv_len),
                rng.bytes(ad_len),
                rng.bytes(pt_len),
            );
            let (ct, tag) = if key_len == 32 {
                let c = <kuznyechik::Kuznyechik as KeyInit>::new_from_slice(&key).unwrap();
                reference(c, &iv, &ad, &pt)
            } else {
                let c = Ublock128_128::with_backend(&key, Backend::Soft).unwrap();
                reference(c, &iv, &ad, &pt)
            };
            made.push('\n');
            for (k, v) in [
                ("key", key),
                ("iv", iv),
                ("ad", ad),
                ("pt", pt),
                ("ct", ct),
                ("tag", tag.to_vec()),
            ] {
                let line = format!("{k} = {}", hex::encode(v));
                made.push_str(line.trim_end());
                made.push('\n');
            }
        }
        assert_eq!(made.trim_end(), stored.trim_end(), "{header}");
    }
}

/// Flips one bit of the tag, the associated data, the ciphertext or the nonce: each is
/// refused with the typed error and the buffer holds the ciphertext, not plaintext.
fn forgeries<C: GcmCipher>(key: &[u8], backends: &[Backend]) {
    let mut rng = Rng(0xf0f0);
    for &b in backends {
        let g = Gcm::<C>::with_backend(key, b).unwrap();
        for (nonce_len, len) in [(12, 0), (12, 1), (12, 4096 + 33), (8, 70000), (60, 17)] {
            let nonce = rng.bytes(nonce_len);
            let ad = rng.bytes(21);
            let pt = rng.bytes(len);
            let mut ct = pt.clone();
            let tag = g.encrypt_detached(&nonce, &ad, &mut ct).unwrap();
            let try_open = |nonce: &[u8], ad: &[u8], ct: &[u8], tag: &[u8]| {
                let mut buf = ct.to_vec();
                let r = g.decrypt_detached(nonce, ad, &mut buf, tag);
                assert_eq!(r, Err(Error::AuthenticationFailed), "{g:?} {len}");
                assert!(
                    buf == ct,
                    "{g:?} {len}: the buffer must hold the ciphertext"
                );
            };
            let mut t = tag;
            t[15] ^= 0x80;
            try_open(&nonce, &ad, &ct, &t);
            let mut a = ad.clone();
            a[0] ^= 1;
            try_open(&nonce, &a, &ct, &tag);
            try_open(&nonce, &ad[..20], &ct, &tag);
            if len > 0 {
                let mut c = ct.clone();
                c[len - 1] ^= 4;
                try_open(&nonce, &ad, &c, &tag);
            }
            let mut n = nonce.clone();
            n[0] ^= 2;
            try_open(&n, &ad, &ct, &tag);
            // A tag truncated to 12 bytes is still checked, and accepted.
            let mut buf = ct.clone();
            g.decrypt_detached(&nonce, &ad, &mut buf, &tag[..12])
                .unwrap();
            assert!(buf == pt);
        }
    }
}

#[test]
fn forgeries_release_no_plaintext() {
    forgeries::<Kuznyechik>(&[0x11; 32], &Kuznyechik::backends());
    forgeries::<Ublock128_128>(&[0x22; 16], &Ublock128_128::backends());
}

#[test]
fn refusals_are_typed() {
    let g = KuznyechikGcm::from_key(&[7; 32]).unwrap();
    let mut buf = [0u8; 5];
    assert!(matches!(
        g.encrypt_detached(&[], b"", &mut buf),
        Err(Error::NonceLength { min: 1, got: 0, .. })
    ));
    assert!(matches!(
        g.decrypt_detached(&[], b"", &mut buf, &[0; 16]),
        Err(Error::NonceLength { min: 1, got: 0, .. })
    ));
    for bad in [0, 11, 17] {
        assert_eq!(
            g.decrypt_detached(&[0; 12], b"", &mut buf, &vec![0; bad]),
            Err(Error::InvalidLength)
        );
    }
    assert_eq!(g.open(&[0; 12], b"", &[0; 15]), Err(Error::InvalidLength));
    assert_eq!(
        KuznyechikGcm::from_key(&[0; 16]).unwrap_err(),
        Error::KeyLength {
            expected: 32,
            got: 16
        }
    );
    assert_eq!(
        Ublock128Gcm::with_backend(&[0; 16], Backend::AesNi).unwrap_err(),
        Error::BackendUnavailable(Backend::AesNi)
    );
    assert_eq!(
        Ublock128_256Gcm::from_key(&[0; 16]).unwrap_err(),
        Error::KeyLength {
            expected: 32,
            got: 16
        }
    );
}

#[test]
fn traits_debug_and_clone() {
    let key = [0x5a; 32];
    let g = <KuznyechikGcm as KeyInit>::new_from_slice(&key).unwrap();
    let nonce = Nonce::<KuznyechikGcm>::try_from(&[3u8; 12][..]).unwrap();
    let sealed = g
        .encrypt(
            &nonce,
            Payload {
                msg: b"some plaintext",
                aad: b"ad",
            },
        )
        .unwrap();
    assert_eq!(
        sealed,
        g.seal(&[3; 12], b"ad", b"some plaintext").unwrap(),
        "the traits and the inherent methods agree"
    );
    let opened = g
        .decrypt(
            &nonce,
            Payload {
                msg: &sealed,
                aad: b"ad",
            },
        )
        .unwrap();
    assert_eq!(opened, b"some plaintext");
    assert_eq!(g.open(&[3; 12], b"ad", &sealed).unwrap(), opened);
    let mut forged = sealed.clone();
    forged[0] ^= 1;
    assert!(g.decrypt(&nonce, forged.as_slice()).is_err());

    // A 16-byte nonce through the traits is the hashed-nonce path of the inherent methods.
    let g16 = <Gcm<Kuznyechik, U16> as KeyInit>::new_from_slice(&key).unwrap();
    let n16 = Nonce::<Gcm<Kuznyechik, U16>>::try_from(&[9u8; 16][..]).unwrap();
    assert_eq!(
        g16.encrypt(&n16, &b"x"[..]).unwrap(),
        g.seal(&[9; 16], b"", b"x").unwrap()
    );

    let soft = KuznyechikGcm::with_backend(&key, Backend::Soft).unwrap();
    assert_eq!(format!("{soft:?}"), "kuznyechik-gcm { backend: soft, .. }");
    let u = Ublock128Gcm::with_backend(&[1; 16], Backend::Soft).unwrap();
    assert_eq!(format!("{u:?}"), "ublock-128-128-gcm { backend: soft, .. }");
    let copy = soft.clone();
    drop(soft);
    assert_eq!(
        copy.seal(&[3; 12], b"ad", b"some plaintext").unwrap(),
        sealed
    );
}
