//! The uBlock types work with the RustCrypto mode crates (`ctr`, `cbc`, `cfb-mode`, `ofb`,
//! `cmac`), and those crates agree with vecrypt's own modes and with modes written out here
//! from raw block encryption.

use cipher::{
    BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, KeyInit, KeyIvInit, StreamCipher,
};
use cmac::Mac;
use vecrypt::modes::BlockModes;
use vecrypt::ublock::{Ublock, Ublock128_128, Ublock128_256, Ublock256_256, Variant};

mod common;
use common::bytes;

fn ecb<V: Variant>(c: &Ublock<V>, block: &[u8]) -> Vec<u8> {
    let mut b = block.to_vec();
    c.encrypt_ecb(&mut b).unwrap();
    b
}

/// Separate input and output buffers through the block traits, on every backend: whole
/// parallel batches, a short last batch and single blocks, against vecrypt's ECB.
fn separate_buffers_match<V: Variant>()
where
    Ublock<V>: BlockCipherEncrypt + cipher::BlockCipherDecrypt,
{
    use cipher::array::Array;
    let n = V::BLOCK;
    for backend in Ublock::<V>::backends() {
        for (seed, blocks) in [(11u64, 0usize), (12, 1), (13, 31), (14, 64), (15, 600)] {
            let key = bytes(seed, V::KEY);
            let pt = bytes(seed + 200, blocks * n);
            let c = Ublock::<V>::with_backend(&key, backend).unwrap();
            let want = ecb(&c, &pt);

            let (input, _) = Array::slice_as_chunks(&pt);
            let mut out = vec![Array::default(); blocks];
            c.encrypt_blocks_b2b(input, &mut out).unwrap();
            assert_eq!(
                Array::slice_as_flattened(&out),
                &want[..],
                "{backend} {blocks}"
            );
            let mut back = vec![Array::default(); blocks];
            cipher::BlockCipherDecrypt::decrypt_blocks_b2b(&c, &out, &mut back).unwrap();
            assert_eq!(
                Array::slice_as_flattened(&back),
                &pt[..],
                "{backend} {blocks}"
            );
            assert_eq!(input, &back[..], "{backend} {blocks}: input unchanged");

            if let (Some(first), Some(expected)) = (input.first(), out.first()) {
                let mut one = Array::default();
                c.encrypt_block_b2b(first, &mut one);
                assert_eq!(&one, expected, "{backend} one block");
                let mut plain = Array::default();
                cipher::BlockCipherDecrypt::decrypt_block_b2b(&c, &one, &mut plain);
                assert_eq!(&plain, first, "{backend} one block back");
            }
        }
    }
}

fn cbc_crate_matches<V: Variant>()
where
    Ublock<V>: BlockCipherEncrypt + cipher::BlockCipherDecrypt,
{
    let n = V::BLOCK;
    for (seed, blocks) in [(1u64, 0usize), (2, 1), (3, 7), (4, 33)] {
        let key = bytes(seed, V::KEY);
        let iv = bytes(seed + 100, n);
        let pt = bytes(seed + 200, blocks * n);
        let ours = Ublock::<V>::from_key(&key).unwrap();
        let mut want = pt.clone();
        ours.encrypt_cbc(&iv, &mut want).unwrap();

        let mut got = pt.clone();
        let (chunks, _) = cipher::array::Array::slice_as_chunks_mut(&mut got);
        cbc::Encryptor::<Ublock<V>>::new_from_slices(&key, &iv)
            .unwrap()
            .encrypt_blocks(chunks);
        assert_eq!(got, want, "cbc encrypt, {blocks} blocks");

        let (chunks, _) = cipher::array::Array::slice_as_chunks_mut(&mut got);
        cbc::Decryptor::<Ublock<V>>::new_from_slices(&key, &iv)
            .unwrap()
            .decrypt_blocks(chunks);
        assert_eq!(got, pt, "cbc decrypt, {blocks} blocks");
    }
}

macro_rules! cfb_ofb_match_definitions {
    ($v:ty) => {{
        type C = Ublock<$v>;
        let n = <$v as Variant>::BLOCK;
        for (seed, len) in [
            (5u64, 0usize),
            (6, 1),
            (7, n),
            (8, 5 * n + 3),
            (9, 40 * n + 1),
        ] {
            let key = bytes(seed, <$v as Variant>::KEY);
            let iv = bytes(seed + 100, n);
            let pt = bytes(seed + 200, len);
            let c = C::from_key(&key).unwrap();

            // CFB (full block): C_i = P_i ^ E(C_{i-1}), C_0 = IV.
            let mut want = Vec::new();
            let mut prev = iv.clone();
            for chunk in pt.chunks(n) {
                let ks = ecb(&c, &prev);
                let ct: Vec<u8> = chunk.iter().zip(&ks).map(|(p, k)| p ^ k).collect();
                prev = ct.clone();
                want.extend_from_slice(&ct);
            }
            let mut got = pt.clone();
            cfb_mode::Encryptor::<C>::new_from_slices(&key, &iv)
                .unwrap()
                .encrypt(&mut got);
            assert_eq!(got, want, "cfb encrypt, {len} bytes");
            cfb_mode::Decryptor::<C>::new_from_slices(&key, &iv)
                .unwrap()
                .decrypt(&mut got);
            assert_eq!(got, pt, "cfb decrypt, {len} bytes");

            // OFB: O_i = E(O_{i-1}), O_0 = IV.
            let mut want = pt.clone();
            let mut o = iv.clone();
            for chunk in want.chunks_mut(n) {
                o = ecb(&c, &o);
                chunk.iter_mut().zip(&o).for_each(|(p, k)| *p ^= k);
            }
            let mut got = pt.clone();
            ofb::Ofb::<C>::new_from_slices(&key, &iv)
                .unwrap()
                .apply_keystream(&mut got);
            assert_eq!(got, want, "ofb, {len} bytes");
        }
    }};
}

/// Doubling in GF(2^n) with the CMAC reduction constants for n = 128 and n = 256.
fn dbl(v: &[u8]) -> Vec<u8> {
    let reduce: &[u8] = if v.len() == 16 {
        &[0x87]
    } else {
        &[0x04, 0x25]
    };
    let top = v[0] >> 7;
    let mut out: Vec<u8> = (0..v.len())
        .map(|i| (v[i] << 1) | v.get(i + 1).map_or(0, |b| b >> 7))
        .collect();
    let len = out.len();
    for (i, r) in reduce.iter().rev().enumerate() {
        out[len - 1 - i] ^= r * top;
    }
    out
}

macro_rules! cmac_matches_definition {
    ($v:ty) => {{
        type C = Ublock<$v>;
        let n = <$v as Variant>::BLOCK;
        for (seed, len) in [
            (11u64, 0usize),
            (12, 1),
            (13, n),
            (14, 3 * n),
            (15, 3 * n + 5),
        ] {
            let key = bytes(seed, <$v as Variant>::KEY);
            let msg = bytes(seed + 100, len);
            let c = C::from_key(&key).unwrap();
            let k1 = dbl(&ecb(&c, &vec![0; n]));
            let k2 = dbl(&k1);
            let mut padded = msg.clone();
            let last_key = if len > 0 && len % n == 0 {
                &k1
            } else {
                padded.push(0x80);
                padded.resize(padded.len().div_ceil(n) * n, 0);
                &k2
            };
            let last = padded.len() - n;
            padded[last..]
                .iter_mut()
                .zip(last_key)
                .for_each(|(p, k)| *p ^= k);
            let mut state = vec![0u8; n];
            for block in padded.chunks(n) {
                state.iter_mut().zip(block).for_each(|(s, b)| *s ^= b);
                state = ecb(&c, &state);
            }
            let mut mac = <cmac::Cmac<C> as KeyInit>::new_from_slice(&key).unwrap();
            mac.update(&msg);
            assert_eq!(
                mac.finalize().into_bytes().as_slice(),
                &state[..],
                "cmac, {len} bytes"
            );
        }
    }};
}

#[test]
fn separate_buffers_all_variants() {
    separate_buffers_match::<vecrypt::ublock::V128_128>();
    separate_buffers_match::<vecrypt::ublock::V128_256>();
    separate_buffers_match::<vecrypt::ublock::V256_256>();
}

#[test]
fn cbc_crate_128_128() {
    cbc_crate_matches::<vecrypt::ublock::V128_128>();
}

#[test]
fn cbc_crate_128_256() {
    cbc_crate_matches::<vecrypt::ublock::V128_256>();
}

#[test]
fn cbc_crate_256_256() {
    cbc_crate_matches::<vecrypt::ublock::V256_256>();
}

#[test]
fn cfb_ofb_crates_all_variants() {
    cfb_ofb_match_definitions!(vecrypt::ublock::V128_128);
    cfb_ofb_match_definitions!(vecrypt::ublock::V128_256);
    cfb_ofb_match_definitions!(vecrypt::ublock::V256_256);
}

#[test]
fn cmac_crate_all_variants() {
    cmac_matches_definition!(vecrypt::ublock::V128_128);
    cmac_matches_definition!(vecrypt::ublock::V128_256);
    cmac_matches_definition!(vecrypt::ublock::V256_256);
}

#[test]
fn ctr_crate_matches_whole_block_counter() {
    for (seed, len) in [
        (21u64, 0usize),
        (22, 1),
        (23, 16),
        (24, 16 * 40 + 7),
        (25, 4099),
    ] {
        let key = bytes(seed, 16);
        let iv = bytes(seed + 100, 16);
        let pt = bytes(seed + 200, len);
        let ours = Ublock128_128::from_key(&key).unwrap();
        let mut want = pt.clone();
        ours.apply_ctr(&iv, &mut want).unwrap();
        let mut got = pt.clone();
        ctr::Ctr128BE::<Ublock128_128>::new_from_slices(&key, &iv)
            .unwrap()
            .apply_keystream(&mut got);
        assert_eq!(got, want, "ctr 128/128, {len} bytes");

        let key = bytes(seed + 300, 32);
        let ours = Ublock128_256::from_key(&key).unwrap();
        let mut want = pt.clone();
        ours.apply_ctr(&iv, &mut want).unwrap();
        let mut got = pt.clone();
        ctr::Ctr128BE::<Ublock128_256>::new_from_slices(&key, &iv)
            .unwrap()
            .apply_keystream(&mut got);
        assert_eq!(got, want, "ctr 128/256, {len} bytes");
    }
}

#[test]
fn ctr_counter_carries_across_the_whole_256_bit_block() {
    let c = Ublock256_256::from_key(&[9u8; 32]).unwrap();
    let mut iv = [0u8; 32];
    iv[8..].fill(0xff);
    let mut got = vec![0u8; 64];
    c.apply_ctr(&iv, &mut got).unwrap();
    let mut second = [0u8; 32];
    second[7] = 1;
    assert_eq!(got[..32], ecb(&c, &iv)[..]);
    assert_eq!(got[32..], ecb(&c, &second)[..]);
}
