//! GCM and MGM given in pieces (`DynAead::start`, feature `release-unverified`): for every
//! AEAD of the registry, on every backend this CPU runs, however the associated data and
//! the text are cut, a stream gives the bytes and the tag of the one-shot call, decrypts
//! them back and accepts exactly the right tag. Misuse returns errors, never a panic.

use vecrypt::Error;
use vecrypt::registry::{self, AeadInfo, DynAead};

mod common;
use common::Rng;

/// Cuts `len` bytes into pieces: whole, byte by byte (short inputs), and random sizes.
fn cuts(rng: &mut Rng, len: usize, style: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut left = len;
    while left > 0 {
        let n = match style {
            0 => left,
            1 if len <= 64 => 1,
            1 => 17,
            _ => {
                let r = rng.bytes(2);
                let max = [1usize, 15, 16, 33, 4096, 70_000][usize::from(r[0]) % 6];
                1 + usize::from(r[1]) * 257 % max
            }
        };
        let n = n.min(left);
        out.push(n);
        left -= n;
    }
    out
}

fn nonce_for(info: &AeadInfo, rng: &mut Rng, len: usize) -> Vec<u8> {
    let mut n = rng.bytes(len);
    if !info.any_nonce_len {
        n[0] &= 0x7f;
    }
    n
}

/// Encrypts through a stream cut as `text_cuts` (and the data as `ad_cuts`).
fn stream_seal(
    a: &dyn DynAead,
    nonce: &[u8],
    ad: &[u8],
    ad_cuts: &[usize],
    text: &mut [u8],
    text_cuts: &[usize],
) -> [u8; 16] {
    let mut s = a.start(nonce, false).unwrap();
    let mut at = 0;
    for &n in ad_cuts {
        a.update_aad(&mut s, &ad[at..at + n]).unwrap();
        at += n;
    }
    let mut at = 0;
    for &n in text_cuts {
        a.update(&mut s, &mut text[at..at + n]).unwrap();
        at += n;
    }
    a.finish(&mut s).unwrap()
}

fn stream_open(
    a: &dyn DynAead,
    nonce: &[u8],
    ad: &[u8],
    text: &mut [u8],
    text_cuts: &[usize],
    tag: &[u8],
) -> Result<(), Error> {
    let mut s = a.start(nonce, true)?;
    a.update_aad(&mut s, ad)?;
    let mut at = 0;
    for &n in text_cuts {
        a.update(&mut s, &mut text[at..at + n])?;
        at += n;
    }
    a.verify(&mut s, tag)
}

fn check(
    info: &AeadInfo,
    a: &dyn DynAead,
    rng: &mut Rng,
    nonce_len: usize,
    ad_len: usize,
    len: usize,
) {
    let nonce = nonce_for(info, rng, nonce_len);
    let ad = rng.bytes(ad_len);
    let plain = rng.bytes(len);
    let mut one_shot = plain.clone();
    let tag = a.encrypt_detached(&nonce, &ad, &mut one_shot).unwrap();
    for style in 0..4 {
        let ad_cuts = cuts(rng, ad_len, style);
        let text_cuts = cuts(rng, len, (style + 1) % 4);
        let what = format!(
            "{} on {:?}, nonce {nonce_len}, ad {ad_len}, text {len}, cuts {style}",
            info.name,
            a.backend()
        );
        let mut buf = plain.clone();
        let got = stream_seal(a, &nonce, &ad, &ad_cuts, &mut buf, &text_cuts);
        assert_eq!(buf, one_shot, "{what}: ciphertext");
        assert_eq!(got, tag, "{what}: tag");
        stream_open(a, &nonce, &ad, &mut buf, &text_cuts, &tag).unwrap();
        assert_eq!(buf, plain, "{what}: decryption");
        let mut buf = one_shot.clone();
        let short = &tag[..info.min_tag_len];
        stream_open(a, &nonce, &ad, &mut buf, &text_cuts, short).unwrap();
        let mut bad = tag;
        bad[usize::from(rng.bytes(1)[0]) % 16] ^= 1 << (rng.bytes(1)[0] % 8);
        let mut buf = one_shot.clone();
        assert_eq!(
            stream_open(a, &nonce, &ad, &mut buf, &text_cuts, &bad),
            Err(Error::AuthenticationFailed),
            "{what}: a wrong tag"
        );
        if !one_shot.is_empty() {
            let mut buf = one_shot.clone();
            let i = usize::from(rng.bytes(1)[0]) % buf.len();
            buf[i] ^= 0x80;
            assert_eq!(
                stream_open(a, &nonce, &ad, &mut buf, &text_cuts, &tag),
                Err(Error::AuthenticationFailed),
                "{what}: a changed ciphertext"
            );
        }
    }
}

#[test]
fn streams_match_the_one_shot_calls_on_every_backend() {
    let mut rng = Rng(0x05ee_d0fa_57ea);
    for info in registry::aeads() {
        let key = rng.bytes(info.key_len);
        for backend in (info.backends)() {
            let a = (info.new)(&key, Some(backend)).unwrap();
            for len in [0, 1, 15, 16, 17, 31, 32, 33, 100, 255, 1000, 4103, 70_001] {
                for ad_len in [0, 1, 16, 37] {
                    check(&info, &*a, &mut rng, info.nonce_len, ad_len, len);
                }
            }
            if info.any_nonce_len {
                for nonce_len in [1, 8, 16, 60] {
                    check(&info, &*a, &mut rng, nonce_len, 20, 333);
                }
            }
        }
    }
}

/// Larger than every internal chunk and batch, in pieces of random sizes.
#[test]
fn long_streams_in_random_pieces() {
    let mut rng = Rng(0x0010_00a6);
    for (name, len) in [
        ("aes-128-gcm", 24 << 20),
        ("kuznyechik-mgm", 3 << 20),
        ("ublock-128-gcm", 3 << 20),
    ] {
        let info = registry::aead(name).unwrap();
        let key = rng.bytes(info.key_len);
        let a = (info.new)(&key, None).unwrap();
        let nonce = nonce_for(&info, &mut rng, info.nonce_len);
        let plain = rng.bytes(len);
        let mut one_shot = plain.clone();
        let tag = a.encrypt_detached(&nonce, b"ad", &mut one_shot).unwrap();
        let text_cuts = cuts(&mut rng, len, 2);
        let mut buf = plain.clone();
        assert_eq!(
            stream_seal(&*a, &nonce, b"ad", &[2], &mut buf, &text_cuts),
            tag,
            "{name}"
        );
        assert!(buf == one_shot, "{name}: ciphertext");
        stream_open(&*a, &nonce, b"ad", &mut buf, &text_cuts, &tag).unwrap();
        assert!(buf == plain, "{name}: decryption");
    }
}

#[test]
fn misuse_is_an_error() {
    let gcm = (registry::aead("aes-128-gcm").unwrap().new)(&[1; 16], None).unwrap();
    let mgm = (registry::aead("kuznyechik-mgm").unwrap().new)(&[1; 32], None).unwrap();
    // Nonces the AEAD refuses.
    assert!(gcm.start(&[], false).is_err());
    assert!(mgm.start(&[0; 12], false).is_err());
    assert_eq!(
        mgm.start(&[0x80; 16], false).err(),
        Some(Error::InvalidNonce)
    );
    // Associated data after text.
    let mut s = gcm.start(&[0; 12], false).unwrap();
    gcm.update(&mut s, &mut [0; 5]).unwrap();
    assert_eq!(
        gcm.update_aad(&mut s, b"late"),
        Err(Error::InvalidParameter)
    );
    // An encryption has no tag to check, a decryption gives none away.
    assert_eq!(gcm.verify(&mut s, &[0; 16]), Err(Error::InvalidParameter));
    let mut d = gcm.start(&[0; 12], true).unwrap();
    assert_eq!(gcm.finish(&mut d), Err(Error::InvalidParameter));
    assert_eq!(gcm.verify(&mut d, &[0; 11]), Err(Error::InvalidLength));
    // Nothing after the end.
    gcm.finish(&mut s).unwrap();
    assert_eq!(gcm.finish(&mut s), Err(Error::InvalidParameter));
    assert_eq!(
        gcm.update(&mut s, &mut [0; 1]),
        Err(Error::InvalidParameter)
    );
    // Another algorithm's stream.
    let mut m = mgm.start(&[0; 16], false).unwrap();
    assert_eq!(
        gcm.update(&mut m, &mut [0; 32]),
        Err(Error::InvalidParameter)
    );
    let mut g = gcm.start(&[0; 12], false).unwrap();
    assert_eq!(
        mgm.update_aad(&mut g, &[0; 16]),
        Err(Error::InvalidParameter)
    );
    assert!(format!("{g:?}").contains("AeadStream"));
    assert!(!g.decrypts() && d.decrypts());
}

/// Many threads share one keyed AEAD, each running its own streams in random pieces, both
/// ways, over more than every chunk and batch; a hang fails the test at its time limit.
#[test]
fn threads_share_one_key_with_a_stream_each() {
    use std::sync::{Arc, mpsc};
    use std::time::Duration;

    for name in ["aes-128-gcm", "kuznyechik-mgm", "ublock-128-gcm"] {
        let info = registry::aead(name).unwrap();
        let key = Rng(7).bytes(info.key_len);
        let a: Arc<dyn DynAead> = Arc::from((info.new)(&key, None).unwrap());
        let (done, results) = mpsc::channel();
        let threads = 8;
        for t in 0..threads {
            let (a, done, info) = (Arc::clone(&a), done.clone(), info);
            std::thread::spawn(move || {
                let mut rng = Rng(0x1000 + t as u64);
                let nonce = nonce_for(&info, &mut rng, info.nonce_len);
                let len = if info.name == "aes-128-gcm" {
                    8 << 20
                } else {
                    1 << 20
                };
                let plain = rng.bytes(len + t);
                let mut one_shot = plain.clone();
                let tag = a.encrypt_detached(&nonce, b"ad", &mut one_shot).unwrap();
                let text_cuts = cuts(&mut rng, plain.len(), 2);
                let mut buf = plain.clone();
                let got = stream_seal(&*a, &nonce, b"ad", &[2], &mut buf, &text_cuts);
                let sealed = got == tag && buf == one_shot;
                let opened = stream_open(&*a, &nonce, b"ad", &mut buf, &text_cuts, &tag).is_ok()
                    && buf == plain;
                done.send((t, sealed, opened)).unwrap();
            });
        }
        drop(done);
        for _ in 0..threads {
            let (t, sealed, opened) = results
                .recv_timeout(Duration::from_secs(120))
                .unwrap_or_else(|e| panic!("{name}: a thread did not finish in time: {e}"));
            assert!(sealed, "{name}, thread {t}: stream encryption differs");
            assert!(opened, "{name}, thread {t}: stream decryption failed");
        }
    }
}
