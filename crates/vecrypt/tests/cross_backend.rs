//! Every registered block cipher, on every backend this CPU runs, gives the same bytes as its
//! portable backend: random keys, IVs and lengths (0, one block, odd tails, long buffers),
//! both directions, ECB, CBC and CTR, one key and several keys.

use vecrypt::Backend;
use vecrypt::registry::{self, CipherInfo};

mod common;
use common::bytes;

/// Lengths in blocks for ECB and CBC: empty, one, around every power-of-two batch size a
/// kernel may use, and a long buffer.
const BLOCK_COUNTS: &[usize] = &[
    0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 257,
];
/// Extra bytes after whole blocks for CTR.
const TAILS: &[usize] = &[0, 1, 5, 15];

fn same_as_soft(info: &CipherInfo, backend: Backend) {
    let n = info.block_len;
    for (i, &blocks) in BLOCK_COUNTS.iter().enumerate() {
        let seed = i as u64 * 1000;
        let key = bytes(seed, info.key_len);
        let iv = bytes(seed + 1, n);
        let soft = (info.new)(&key, Some(Backend::Soft)).unwrap();
        let fast = (info.new)(&key, Some(backend)).unwrap();
        let pt = bytes(seed + 2, blocks * n);
        let ctx = |what: &str| format!("{} {backend} {what} {blocks} blocks", info.name);

        let (mut a, mut b) = (pt.clone(), pt.clone());
        soft.encrypt_ecb(&mut a).unwrap();
        fast.encrypt_ecb(&mut b).unwrap();
        assert_eq!(a, b, "{}", ctx("ecb encrypt"));
        fast.decrypt_ecb(&mut b).unwrap();
        assert_eq!(b, pt, "{}", ctx("ecb decrypt"));
        soft.decrypt_ecb(&mut a).unwrap();

        let (mut a, mut b) = (pt.clone(), pt.clone());
        soft.encrypt_cbc(&iv, &mut a).unwrap();
        fast.encrypt_cbc(&iv, &mut b).unwrap();
        assert_eq!(a, b, "{}", ctx("cbc encrypt"));
        fast.decrypt_cbc(&iv, &mut b).unwrap();
        assert_eq!(b, pt, "{}", ctx("cbc decrypt"));

        for &tail in TAILS {
            let pt = bytes(seed + 3 + tail as u64, blocks * n + tail);
            let (mut a, mut b) = (pt.clone(), pt.clone());
            soft.apply_ctr(&iv, &mut a).unwrap();
            fast.apply_ctr(&iv, &mut b).unwrap();
            assert_eq!(a, b, "{} + {tail} bytes", ctx("ctr"));
        }
    }
    // A counter that carries across 64-bit words, and one that wraps the whole block.
    for fill in [7usize, n] {
        let key = bytes(99, info.key_len);
        let mut iv = bytes(98, n);
        iv[n - fill..].fill(0xff);
        let soft = (info.new)(&key, Some(Backend::Soft)).unwrap();
        let fast = (info.new)(&key, Some(backend)).unwrap();
        let pt = bytes(97, 40 * n + 3);
        let (mut a, mut b) = (pt.clone(), pt);
        soft.apply_ctr(&iv, &mut a).unwrap();
        fast.apply_ctr(&iv, &mut b).unwrap();
        assert_eq!(a, b, "{} {backend} ctr carry over {fill} bytes", info.name);
    }
}

fn multi_same_as_soft(info: &CipherInfo, backend: Backend) {
    let n = info.block_len;
    for streams in [1usize, 2, 3, 4, 5, 8, 9, 16, 17] {
        let keys: Vec<Vec<u8>> = (0..streams)
            .map(|s| bytes(500 + s as u64, info.key_len))
            .collect();
        let keys: Vec<&[u8]> = keys.iter().map(|k| k.as_slice()).collect();
        let ivs: Vec<Vec<u8>> = (0..streams).map(|s| bytes(600 + s as u64, n)).collect();
        let ivs: Vec<&[u8]> = ivs.iter().map(|v| v.as_slice()).collect();
        // Streams of different lengths, some empty, some long.
        let pts: Vec<Vec<u8>> = (0..streams)
            .map(|s| bytes(700 + s as u64, ((s * 37) % 70) * n))
            .collect();
        let soft = (info.new_multi)(&keys, Some(Backend::Soft)).unwrap();
        let fast = (info.new_multi)(&keys, Some(backend)).unwrap();
        let ctx = format!("{} {backend} multi-key, {streams} streams", info.name);

        let (mut a, mut b) = (pts.clone(), pts.clone());
        let mut ra: Vec<&mut [u8]> = a.iter_mut().map(|v| v.as_mut_slice()).collect();
        let mut rb: Vec<&mut [u8]> = b.iter_mut().map(|v| v.as_mut_slice()).collect();
        soft.encrypt_ecb(&mut ra).unwrap();
        fast.encrypt_ecb(&mut rb).unwrap();
        assert_eq!(a, b, "{ctx} ecb encrypt");
        let mut rb: Vec<&mut [u8]> = b.iter_mut().map(|v| v.as_mut_slice()).collect();
        fast.decrypt_ecb(&mut rb).unwrap();
        assert_eq!(b, pts, "{ctx} ecb decrypt");

        let (mut a, mut b) = (pts.clone(), pts.clone());
        let mut ra: Vec<&mut [u8]> = a.iter_mut().map(|v| v.as_mut_slice()).collect();
        let mut rb: Vec<&mut [u8]> = b.iter_mut().map(|v| v.as_mut_slice()).collect();
        soft.encrypt_cbc(&ivs, &mut ra).unwrap();
        fast.encrypt_cbc(&ivs, &mut rb).unwrap();
        assert_eq!(a, b, "{ctx} cbc encrypt");
        let mut rb: Vec<&mut [u8]> = b.iter_mut().map(|v| v.as_mut_slice()).collect();
        fast.decrypt_cbc(&ivs, &mut rb).unwrap();
        assert_eq!(b, pts, "{ctx} cbc decrypt");
    }
}

#[test]
fn every_backend_matches_soft() {
    let mut checked = 0;
    for info in registry::ciphers() {
        let backends = (info.backends)();
        assert!(
            backends.contains(&Backend::Soft),
            "{} has a portable backend",
            info.name
        );
        for backend in backends {
            same_as_soft(&info, backend);
            checked += 1;
        }
    }
    assert!(checked >= registry::ciphers().len());
}

#[test]
fn every_backend_matches_soft_with_many_keys() {
    for info in registry::ciphers() {
        for backend in (info.backends)() {
            multi_same_as_soft(&info, backend);
        }
    }
}

#[test]
fn forcing_an_unrunnable_backend_is_a_typed_error() {
    for info in registry::ciphers() {
        let runnable = (info.backends)();
        for &backend in Backend::ALL {
            let r = (info.new)(&vec![0; info.key_len], Some(backend));
            assert_eq!(
                r.is_ok(),
                runnable.contains(&backend),
                "{} {backend}",
                info.name
            );
            if let Err(e) = r {
                assert_eq!(e, vecrypt::Error::BackendUnavailable(backend));
            }
        }
    }
}
