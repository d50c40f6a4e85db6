//! Every uBlock backend this CPU runs against the portable one: random keys, IVs and
//! lengths (empty, one block, odd tails, several KiB), both directions, ECB/CBC/CTR, one key
//! and several keys, all three variants.

use vecrypt::Backend;
use vecrypt::modes::{BlockModes, MultiKey};
use vecrypt::ublock::{Ublock, V128_128, V128_256, V256_256, Variant};

/// A small deterministic generator (xorshift64*), enough for test inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Byte lengths for CTR: empty, around one block, odd tails, around batch sizes, several KiB.
fn ctr_lengths(block: usize, rng: &mut Rng) -> Vec<usize> {
    let mut v = vec![0, 1, block - 1, block, block + 1, 3 * block + 5];
    for batch in [128, 256, 512] {
        v.extend([batch - 1, batch, batch + 1, 2 * batch + 7]);
    }
    v.extend([4096, 5000 + rng.below(3000)]);
    // The fully bitsliced kernels take 256 (AVX2) or 512 (AVX-512) blocks at a time.
    for full in [256 * block, 512 * block] {
        v.extend([full - 1, full, full + 1, 2 * full + rng.below(full)]);
    }
    for _ in 0..6 {
        v.push(rng.below(9000));
    }
    v
}

/// Whole-block lengths for ECB and CBC: among them one and two blocks past whole bit-plane
/// batches (8, 16 or 32 blocks), which go a block at a time after the batches.
fn block_counts(rng: &mut Rng) -> Vec<usize> {
    let mut v = vec![
        0, 1, 2, 3, 4, 7, 8, 9, 10, 15, 16, 17, 18, 31, 32, 33, 34, 63, 64, 65, 200, 255, 256, 257,
        511, 512, 513,
    ];
    v.push(1024 + rng.below(512));
    for _ in 0..4 {
        v.push(rng.below(300));
    }
    v
}

fn soft<V: Variant>(key: &[u8]) -> Ublock<V> {
    Ublock::<V>::with_backend(key, Backend::Soft).unwrap()
}

/// A way to key the cipher under test: every backend this CPU runs, and the paper's
/// paired-nibble kernel forced for every call where the CPU has AVX2.
struct Maker<V: Variant> {
    label: String,
    make: KeyFn<V>,
}

/// Keys a cipher (panicking if this CPU cannot run it).
type KeyFn<V> = Box<dyn Fn(&[u8]) -> Ublock<V>>;

fn makers<V: Variant>() -> Vec<Maker<V>> {
    let mut out: Vec<Maker<V>> = Ublock::<V>::backends()
        .into_iter()
        .map(|backend| Maker {
            label: backend.to_string(),
            make: Box::new(move |k: &[u8]| {
                let c = Ublock::<V>::with_backend(k, backend).unwrap();
                assert_eq!(c.backend(), backend);
                c
            }),
        })
        .collect();
    if Ublock::<V>::backends().contains(&Backend::Avx2) {
        out.push(Maker {
            label: "avx2 (paper layout)".into(),
            make: Box::new(|k: &[u8]| {
                let c = Ublock::<V>::with_paper_layout(k).unwrap();
                assert!(c.is_paper_layout());
                c
            }),
        });
    }
    out
}

fn single_key<V: Variant>(seed: u64) {
    let mut rng = Rng(seed);
    for maker in makers::<V>() {
        let backend = &maker.label;
        for _ in 0..3 {
            let key = rng.bytes(V::KEY);
            let iv = rng.bytes(V::BLOCK);
            let reference = soft::<V>(&key);
            let c = (maker.make)(&key);
            for blocks in block_counts(&mut rng) {
                let pt = rng.bytes(blocks * V::BLOCK);
                let what = format!("{} {backend} {blocks} blocks", V::NAME);

                let mut want = pt.clone();
                reference.encrypt_ecb(&mut want).unwrap();
                let mut got = pt.clone();
                c.encrypt_ecb(&mut got).unwrap();
                assert_eq!(got, want, "ECB encrypt {what}");
                c.decrypt_ecb(&mut got).unwrap();
                assert_eq!(got, pt, "ECB decrypt {what}");

                let mut want = pt.clone();
                reference.encrypt_cbc(&iv, &mut want).unwrap();
                let mut got = pt.clone();
                c.encrypt_cbc(&iv, &mut got).unwrap();
                assert_eq!(got, want, "CBC encrypt {what}");
                c.decrypt_cbc(&iv, &mut got).unwrap();
                assert_eq!(got, pt, "CBC decrypt {what}");
            }
            for len in ctr_lengths(V::BLOCK, &mut rng) {
                let pt = rng.bytes(len);
                let what = format!("{} {backend} {len} bytes", V::NAME);
                let mut want = pt.clone();
                reference.apply_ctr(&iv, &mut want).unwrap();
                let mut got = pt.clone();
                c.apply_ctr(&iv, &mut got).unwrap();
                assert_eq!(got, want, "CTR {what}");
                c.apply_ctr(&iv, &mut got).unwrap();
                assert_eq!(got, pt, "CTR back {what}");
            }
        }
    }
}

/// A counter that wraps inside a call must carry over the whole block, as the portable
/// code does.
fn ctr_wraps<V: Variant>() {
    let key = [0x42u8; 32];
    let mut iv = vec![0xffu8; V::BLOCK];
    iv[0] = 0x7f;
    let reference = soft::<V>(&key[..V::KEY]);
    for maker in makers::<V>() {
        let backend = &maker.label;
        let c = (maker.make)(&key[..V::KEY]);
        for ivs in [vec![0xffu8; V::BLOCK], iv.clone()] {
            // Short enough for the batched kernels, and long enough for the fully
            // bitsliced one, whose first batch then wraps.
            for blocks in [40, 600] {
                let mut want = vec![0u8; blocks * V::BLOCK + 3];
                reference.apply_ctr(&ivs, &mut want).unwrap();
                let mut got = vec![0u8; blocks * V::BLOCK + 3];
                c.apply_ctr(&ivs, &mut got).unwrap();
                assert_eq!(got, want, "{} {backend} CTR wrap, {blocks} blocks", V::NAME);
            }
        }
    }
}

fn multi_key<V: Variant>(seed: u64) {
    let mut rng = Rng(seed);
    for maker in makers::<V>() {
        let backend = &maker.label;
        // Streams up to 40 blocks, and short ones (up to 7 or 3 blocks), which the SIMD
        // backends interleave in every mode once they fill a batch together (NEON's batch
        // is four 256-bit blocks).
        let counts = [1, 2, 3, 4, 8, 15, 16, 17, 32, 33, 40, 64];
        for (streams, most) in counts
            .iter()
            .map(|&s| (s, 40))
            .chain(counts.iter().map(|&s| (s, 8)))
            .chain(counts.iter().map(|&s| (s, 4)))
        {
            let keys: Vec<Vec<u8>> = (0..streams).map(|_| rng.bytes(V::KEY)).collect();
            let ivs: Vec<Vec<u8>> = (0..streams).map(|_| rng.bytes(V::BLOCK)).collect();
            let pts: Vec<Vec<u8>> = (0..streams)
                .map(|_| {
                    let blocks = rng.below(most);
                    rng.bytes(blocks * V::BLOCK)
                })
                .collect();
            let multi =
                MultiKey::from_keys(&keys, |k| Ok::<_, vecrypt::Error>((maker.make)(k))).unwrap();
            let iv_refs: Vec<&[u8]> = ivs.iter().map(|v| v.as_slice()).collect();
            let what = format!("{} {backend} {streams} streams of < {most} blocks", V::NAME);

            let mut got = pts.clone();
            let mut refs: Vec<&mut [u8]> = got.iter_mut().map(|v| v.as_mut_slice()).collect();
            multi.encrypt_cbc(&iv_refs, &mut refs).unwrap();
            for i in 0..streams {
                let mut want = pts[i].clone();
                soft::<V>(&keys[i]).encrypt_cbc(&ivs[i], &mut want).unwrap();
                assert_eq!(got[i], want, "multi CBC encrypt {what} stream {i}");
            }
            let mut refs: Vec<&mut [u8]> = got.iter_mut().map(|v| v.as_mut_slice()).collect();
            multi.decrypt_cbc(&iv_refs, &mut refs).unwrap();
            assert_eq!(got, pts, "multi CBC decrypt {what}");

            let mut got = pts.clone();
            let mut refs: Vec<&mut [u8]> = got.iter_mut().map(|v| v.as_mut_slice()).collect();
            multi.encrypt_ecb(&mut refs).unwrap();
            for i in 0..streams {
                let mut want = pts[i].clone();
                soft::<V>(&keys[i]).encrypt_ecb(&mut want).unwrap();
                assert_eq!(got[i], want, "multi ECB encrypt {what} stream {i}");
            }
            let mut refs: Vec<&mut [u8]> = got.iter_mut().map(|v| v.as_mut_slice()).collect();
            multi.decrypt_ecb(&mut refs).unwrap();
            assert_eq!(got, pts, "multi ECB decrypt {what}");
        }
    }
}

#[test]
fn backends_match_soft_128_128() {
    single_key::<V128_128>(1);
}

#[test]
fn backends_match_soft_128_256() {
    single_key::<V128_256>(2);
}

#[test]
fn backends_match_soft_256_256() {
    single_key::<V256_256>(3);
}

#[test]
fn ctr_counter_wraps() {
    ctr_wraps::<V128_128>();
    ctr_wraps::<V128_256>();
    ctr_wraps::<V256_256>();
}

#[test]
fn multi_key_matches_soft_128_128() {
    multi_key::<V128_128>(4);
}

#[test]
fn multi_key_matches_soft_128_256() {
    multi_key::<V128_256>(5);
}

#[test]
fn multi_key_matches_soft_256_256() {
    multi_key::<V256_256>(6);
}

#[test]
fn several_backends_on_this_cpu() {
    let b = Ublock::<V128_128>::backends();
    assert!(b.contains(&Backend::Soft));
    assert_eq!(b.last(), Some(&Backend::Soft));
}

/// A fresh key's first one-block encryption runs the key schedule alongside the rounds;
/// later calls use the stored schedule. Both must agree with the portable code.
fn fresh_key_one_block<V: Variant>(seed: u64) {
    let mut rng = Rng(seed);
    for maker in makers::<V>() {
        for _ in 0..50 {
            let key = rng.bytes(V::KEY);
            let pt = rng.bytes(V::BLOCK);
            let mut want = pt.clone();
            soft::<V>(&key).encrypt_ecb(&mut want).unwrap();
            let c = (maker.make)(&key);
            let mut got = pt.clone();
            c.encrypt_ecb(&mut got).unwrap();
            assert_eq!(got, want, "{} {} fresh key", V::NAME, maker.label);
            let mut again = pt.clone();
            c.encrypt_ecb(&mut again).unwrap();
            assert_eq!(again, want, "{} {} stored schedule", V::NAME, maker.label);
            let mut ctr = pt.clone();
            (maker.make)(&key).apply_ctr(&pt, &mut ctr).unwrap();
            let mut ctr_want = pt.clone();
            soft::<V>(&key).apply_ctr(&pt, &mut ctr_want).unwrap();
            assert_eq!(ctr, ctr_want, "{} {} fresh key CTR", V::NAME, maker.label);
        }
    }
}

#[test]
fn fresh_key_one_block_matches_soft() {
    fresh_key_one_block::<V128_128>(7);
    fresh_key_one_block::<V128_256>(8);
    fresh_key_one_block::<V256_256>(9);
}

/// The cost-split parts of the fully bitsliced kernels (a benchmark aid): the transposition
/// alone gives the input back, the encryption rounds alone change it and the decryption
/// rounds alone undo them, all cover whole batches only, and backends without such a
/// kernel do nothing.
#[cfg(feature = "kernel-parts")]
fn kernel_parts<V: Variant>() {
    use vecrypt::ublock::KernelPart;
    let mut rng = Rng(0x5eed_0000 + V::BLOCK as u64);
    let key = rng.bytes(V::KEY);
    for backend in Ublock::<V>::backends() {
        let c = Ublock::<V>::with_backend(&key, backend).unwrap();
        let data = rng.bytes(2 * 512 * V::BLOCK + 3 * V::BLOCK);
        let mut b = data.clone();
        let done = c.run_kernel_part(KernelPart::Transposition, &mut b);
        assert_eq!(b, data, "{backend}: transposition alone is the identity");
        let batch = 256 * V::BLOCK;
        assert_eq!(done % batch, 0, "{backend}: whole batches");
        let mut r = data.clone();
        let rounds = c.run_kernel_part(KernelPart::Rounds, &mut r);
        assert_eq!(rounds, done, "{backend}: both parts cover the same batches");
        assert_eq!(r[done..], data[done..], "{backend}: the tail is untouched");
        let expect_kernel = matches!(backend, Backend::Avx512 | Backend::Avx2);
        assert_eq!(done > 0, expect_kernel, "{backend}: has a bitsliced kernel");
        if done > 0 {
            assert_ne!(r[..done], data[..done], "{backend}: the rounds ran");
        }
        let back = c.run_kernel_part(KernelPart::DecryptionRounds, &mut r);
        assert_eq!(
            back, done,
            "{backend}: decryption rounds cover the same batches"
        );
        assert_eq!(
            r, data,
            "{backend}: decryption rounds undo encryption rounds"
        );
        let paper = Ublock::<V>::with_paper_layout(&key);
        if let Ok(p) = paper {
            assert_eq!(
                p.run_kernel_part(KernelPart::Rounds, &mut r),
                0,
                "paper layout"
            );
        }
    }
}

#[cfg(feature = "kernel-parts")]
#[test]
fn kernel_parts_all_variants() {
    kernel_parts::<V128_128>();
    kernel_parts::<V128_256>();
    kernel_parts::<V256_256>();
}
