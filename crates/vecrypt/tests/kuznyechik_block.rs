//! Kuznyechik block function: RFC 7801 known answers, the 65 single-block vectors, and every
//! backend against the portable one and against the `kuznyechik` crate on random data.

use cipher::{
    BlockCipherDecrypt, BlockCipherEncrypt, InnerIvInit, KeyInit, KeyIvInit, StreamCipher,
};
use vecrypt::Backend;
use vecrypt::kuznyechik::Kuznyechik;
use vecrypt::modes::{BlockModes, MultiKey};

mod common;
use common::Rng;

fn h(s: &str) -> Vec<u8> {
    hex::decode(s.replace(' ', "")).unwrap()
}

const KEY: &str = "8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef";

#[test]
fn backends_include_portable() {
    let b = Kuznyechik::backends();
    assert!(b.contains(&Backend::Soft));
    // The table-driven backend exists only with the `table-backends` feature, and is never
    // the automatic choice.
    #[cfg(feature = "table-backends")]
    assert!(b.contains(&Backend::TableLeaky));
    assert_eq!(
        b.iter().any(|b| !b.is_constant_time()),
        cfg!(feature = "table-backends")
    );
    assert_ne!(
        Kuznyechik::from_key(&h(KEY)).unwrap().backend_name(),
        "table-leaky"
    );
    assert!(Kuznyechik::with_backend(&h(KEY), "soft".parse().unwrap()).is_ok());
    #[cfg(not(feature = "table-backends"))]
    assert_eq!(
        "table-leaky".parse::<Backend>(),
        Err(vecrypt::Error::UnknownBackend)
    );
}

trait BackendName {
    fn backend_name(&self) -> &'static str;
}

impl BackendName for Kuznyechik {
    fn backend_name(&self) -> &'static str {
        Kuznyechik::backend(self).name()
    }
}

/// The block of RFC 7801, A.2.5 (its round keys are checked inside the crate, where they are
/// visible).
#[test]
fn rfc7801_block() {
    for backend in Kuznyechik::backends() {
        let c = Kuznyechik::with_backend(&h(KEY), backend).unwrap();
        let mut b: [u8; 16] = h("1122334455667700ffeeddccbbaa9988").try_into().unwrap();
        c.encrypt_block(&mut b);
        assert_eq!(
            hex::encode(b),
            "7f679d90bebc24305a468d42b9d4edcd",
            "{backend}"
        );
        c.decrypt_block(&mut b);
        assert_eq!(
            hex::encode(b),
            "1122334455667700ffeeddccbbaa9988",
            "{backend}"
        );
    }
}

fn vectors() -> Vec<(Vec<u8>, Vec<u8>, Vec<u8>)> {
    let text = include_str!("data/kuznyechik/kuznyechik_65.vec");
    let mut out = Vec::new();
    let (mut key, mut pt) = (None, None);
    for line in text.lines() {
        if let Some(v) = line.strip_prefix("Key = ") {
            key = Some(h(v));
        } else if let Some(v) = line.strip_prefix("In = ") {
            pt = Some(h(v));
        } else if let Some(v) = line.strip_prefix("Out = ") {
            out.push((key.take().unwrap(), pt.take().unwrap(), h(v)));
        }
    }
    out
}

#[test]
fn sixty_five_block_vectors() {
    let vectors = vectors();
    assert_eq!(vectors.len(), 65);
    for backend in Kuznyechik::backends() {
        for (key, pt, ct) in &vectors {
            let c = Kuznyechik::with_backend(key, backend).unwrap();
            let mut b = pt.clone();
            c.encrypt_ecb(&mut b).unwrap();
            assert_eq!(&b, ct, "{backend}");
            c.decrypt_ecb(&mut b).unwrap();
            assert_eq!(&b, pt, "{backend}");
        }
        // The same vectors as one multi-block buffer per key exercise the wide paths.
        for (key, pt, ct) in vectors.iter().take(4) {
            let c = Kuznyechik::with_backend(key, backend).unwrap();
            let mut b = pt.repeat(131);
            c.encrypt_ecb(&mut b).unwrap();
            assert_eq!(b, ct.repeat(131), "{backend}");
            c.decrypt_ecb(&mut b).unwrap();
            assert_eq!(b, pt.repeat(131), "{backend}");
        }
    }
}

/// The wide kernels, and the short-call path of one or two blocks, keep per-direction key
/// material made on first use: whichever direction comes first, in clones made before or
/// after that, and with threads racing to make it, every call must give the bytes of a
/// cipher used once.
#[test]
fn kept_key_material_is_per_cipher_and_per_direction() {
    let vectors = vectors();
    for backend in Kuznyechik::backends() {
        for ((key, pt, ct), blocks) in vectors
            .iter()
            .take(3)
            .flat_map(|v| [(v, 1), (v, 2), (v, 130)])
        {
            let (pt, ct) = (pt.repeat(blocks), ct.repeat(blocks));
            let other = Kuznyechik::with_backend(&vectors[5].0, backend).unwrap();

            let c = Kuznyechik::with_backend(key, backend).unwrap();
            let fresh = c.clone();
            let mut b = ct.clone();
            c.decrypt_ecb(&mut b).unwrap();
            assert!(b == pt, "{backend}: decryption first");
            c.encrypt_ecb(&mut b).unwrap();
            assert!(b == ct, "{backend}: encryption after decryption");

            let copy = c.clone();
            copy.decrypt_ecb(&mut b).unwrap();
            assert!(b == pt, "{backend}: clone made after first use");
            fresh.encrypt_ecb(&mut b).unwrap();
            assert!(b == ct, "{backend}: clone made before first use");
            let mut o = pt.clone();
            other.encrypt_ecb(&mut o).unwrap();
            assert!(o != ct, "{backend}: another key");

            let shared = Kuznyechik::with_backend(key, backend).unwrap();
            std::thread::scope(|s| {
                for t in 0..4 {
                    let (shared, pt, ct) = (&shared, &pt, &ct);
                    s.spawn(move || {
                        let mut b = if t % 2 == 0 { pt.clone() } else { ct.clone() };
                        if t % 2 == 0 {
                            shared.encrypt_ecb(&mut b).unwrap();
                            assert!(&b == ct, "{backend}: thread {t}");
                        } else {
                            shared.decrypt_ecb(&mut b).unwrap();
                            assert!(&b == pt, "{backend}: thread {t}");
                        }
                    });
                }
            });
        }
    }
}

/// Block counts that cover empty input, one block, the widths of every backend and their
/// odd remainders, both sides of the AVX-512 backend's per-block limits (21 blocks on Zen 5,
/// 29 on Intel), alone and after a whole batch, and several KiB.
const BLOCK_COUNTS: &[usize] = &[
    0, 1, 2, 3, 15, 16, 17, 20, 21, 28, 29, 31, 32, 33, 63, 64, 65, 84, 85, 92, 93, 127, 129, 300,
];

#[test]
fn every_backend_matches_portable_and_peer() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for &blocks in BLOCK_COUNTS {
        let key = rng.bytes(32);
        let iv = rng.bytes(16);
        let data = rng.bytes(16 * blocks);
        let soft = Kuznyechik::with_backend(&key, Backend::Soft).unwrap();
        let peer = kuznyechik::Kuznyechik::new_from_slice(&key).unwrap();

        let mut ecb = data.clone();
        soft.encrypt_ecb(&mut ecb).unwrap();
        let mut peer_ecb = data.clone();
        for b in peer_ecb.chunks_exact_mut(16) {
            peer.encrypt_block(b.try_into().unwrap());
        }
        assert_eq!(ecb, peer_ecb, "soft vs peer, {blocks} blocks");
        let mut back = ecb.clone();
        for b in back.chunks_exact_mut(16) {
            peer.decrypt_block(b.try_into().unwrap());
        }
        assert_eq!(back, data);

        let mut ctr = data.clone();
        ctr.extend_from_slice(&rng.bytes(blocks % 15));
        let plain_ctr = ctr.clone();
        let mut peer_ctr = ctr.clone();
        ctr::Ctr128BE::<kuznyechik::Kuznyechik>::new_from_slices(&key, &iv)
            .unwrap()
            .apply_keystream(&mut peer_ctr);

        let mut cbc = data.clone();
        soft.encrypt_cbc(&iv, &mut cbc).unwrap();

        for backend in Kuznyechik::backends() {
            let c = Kuznyechik::with_backend(&key, backend).unwrap();
            let mut b = data.clone();
            c.encrypt_ecb(&mut b).unwrap();
            assert_eq!(b, ecb, "{backend} ecb {blocks}");
            c.decrypt_ecb(&mut b).unwrap();
            assert_eq!(b, data, "{backend} ecb decrypt {blocks}");

            let mut b = plain_ctr.clone();
            c.apply_ctr(&iv, &mut b).unwrap();
            assert_eq!(b, peer_ctr, "{backend} ctr {blocks}");

            let mut b = data.clone();
            c.encrypt_cbc(&iv, &mut b).unwrap();
            assert_eq!(b, cbc, "{backend} cbc {blocks}");
            c.decrypt_cbc(&iv, &mut b).unwrap();
            assert_eq!(b, data, "{backend} cbc decrypt {blocks}");

            // Through the `cipher` traits, as other RustCrypto crates use it.
            let mut b = plain_ctr.clone();
            let core = ctr::CtrCore::<Kuznyechik, ctr::flavors::Ctr128BE>::inner_iv_slice_init(
                c.clone(),
                &iv,
            )
            .unwrap();
            ctr::Ctr128BE::from_core(core).apply_keystream(&mut b);
            assert_eq!(b, peer_ctr, "{backend} ctr through cipher traits {blocks}");
            let mut b = data.clone();
            for chunk in b.chunks_exact_mut(16) {
                BlockCipherEncrypt::encrypt_block(&c, chunk.try_into().unwrap());
            }
            assert_eq!(b, ecb, "{backend} encrypt_block {blocks}");
            let mut b = ecb.clone();
            let blocks_in: &mut [cipher::Block<Kuznyechik>] =
                cipher::Array::cast_slice_from_core_mut(b.as_chunks_mut::<16>().0);
            BlockCipherDecrypt::decrypt_blocks(&c, blocks_in);
            assert_eq!(b, data, "{backend} decrypt_blocks {blocks}");
            // Separate input and output buffers: the input must stay as it was.
            let input: &[cipher::Block<Kuznyechik>] =
                cipher::Array::cast_slice_from_core(data.as_chunks::<16>().0);
            let mut out = vec![cipher::Block::<Kuznyechik>::default(); input.len()];
            BlockCipherEncrypt::encrypt_blocks_b2b(&c, input, &mut out).unwrap();
            assert_eq!(
                cipher::Array::slice_as_flattened(&out),
                &ecb[..],
                "{backend} b2b"
            );
            let mut back = vec![cipher::Block::<Kuznyechik>::default(); input.len()];
            BlockCipherDecrypt::decrypt_blocks_b2b(&c, &out, &mut back).unwrap();
            assert_eq!(input, &back[..], "{backend} b2b back {blocks}");
            if let Some(first) = out.first() {
                let mut one = cipher::Block::<Kuznyechik>::default();
                BlockCipherDecrypt::decrypt_block_b2b(&c, first, &mut one);
                assert_eq!(&one, &input[0], "{backend} one block b2b");
            }
        }
    }
}

#[test]
fn multi_key_matches_single_key() {
    let mut rng = Rng(77);
    for backend in Kuznyechik::backends() {
        let keys: Vec<Vec<u8>> = (0..5).map(|_| rng.bytes(32)).collect();
        let set =
            MultiKey::<Kuznyechik>::from_keys(&keys, |k| Kuznyechik::with_backend(k, backend))
                .unwrap();
        let data: Vec<Vec<u8>> = [0, 1, 17, 64, 100]
            .iter()
            .map(|n| rng.bytes(16 * n))
            .collect();
        let ivs: Vec<Vec<u8>> = (0..5).map(|_| rng.bytes(16)).collect();
        let mut bufs = data.clone();
        let mut refs: Vec<&mut [u8]> = bufs.iter_mut().map(|b| b.as_mut_slice()).collect();
        let iv_refs: Vec<&[u8]> = ivs.iter().map(|v| v.as_slice()).collect();
        set.encrypt_cbc(&iv_refs, &mut refs).unwrap();
        for i in 0..5 {
            let mut one = data[i].clone();
            set.ciphers()[i].encrypt_cbc(&ivs[i], &mut one).unwrap();
            assert_eq!(bufs[i], one, "{backend}");
        }
        let mut refs: Vec<&mut [u8]> = bufs.iter_mut().map(|b| b.as_mut_slice()).collect();
        set.decrypt_cbc(&iv_refs, &mut refs).unwrap();
        assert_eq!(bufs, data, "{backend}");
        let mut refs: Vec<&mut [u8]> = bufs.iter_mut().map(|b| b.as_mut_slice()).collect();
        set.encrypt_ecb(&mut refs).unwrap();
        let mut refs: Vec<&mut [u8]> = bufs.iter_mut().map(|b| b.as_mut_slice()).collect();
        set.decrypt_ecb(&mut refs).unwrap();
        assert_eq!(bufs, data, "{backend}");
    }
}

#[test]
fn wrong_lengths_are_typed_errors() {
    assert!(Kuznyechik::from_key(&[0u8; 31]).is_err());
    let c = Kuznyechik::from_key(&[1u8; 32]).unwrap();
    assert!(c.encrypt_ecb(&mut [0u8; 17]).is_err());
    assert!(c.apply_ctr(&[0u8; 8], &mut [0u8; 4]).is_err());
}
