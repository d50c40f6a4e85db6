//! AES-NI on 128-bit registers: eight independent blocks in flight to cover the three-cycle
//! latency of AESENC at two issues per cycle. Every public function re-checks the CPU and
//! falls back to the portable code, so nothing here can run an unsupported instruction.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::ghash::{self, MAX_BATCH, POWERS};
use super::{CounterWidth, RoundKeys, soft};
use crate::cpu;

/// Blocks interleaved by the parallel kernels.
const WIDE: usize = 8;

/// Whether this CPU runs the code of this file.
pub(crate) fn runnable() -> bool {
    let f = cpu::features();
    f.has("aes") && f.has("sse2") && f.has("ssse3") && f.has("sse4.1") && f.has("pclmulqdq")
}

#[target_feature(enable = "sse2")]
#[inline]
fn load(bytes: &[u8], i: usize) -> __m128i {
    assert!(bytes.len() >= 16 * (i + 1));
    // SAFETY: the assertion keeps the 16 bytes read inside `bytes`; loadu needs no alignment.
    unsafe { _mm_loadu_si128(bytes.as_ptr().add(16 * i).cast()) }
}

#[target_feature(enable = "sse2")]
#[inline]
fn store(bytes: &mut [u8], i: usize, v: __m128i) {
    assert!(bytes.len() >= 16 * (i + 1));
    // SAFETY: the assertion keeps the 16 bytes written inside `bytes`; storeu needs no alignment.
    unsafe { _mm_storeu_si128(bytes.as_mut_ptr().add(16 * i).cast(), v) }
}

#[target_feature(enable = "sse2")]
#[inline]
fn round_keys(keys: &[[u8; 16]; 15]) -> [__m128i; 15] {
    core::array::from_fn(|r| load(&keys[r], 0))
}

#[target_feature(enable = "aes,sse2")]
#[inline]
fn encrypt_n<const NR: usize, const N: usize>(k: &[__m128i; 15], b: &mut [__m128i; N]) {
    for x in b.iter_mut() {
        *x = _mm_xor_si128(*x, k[0]);
    }
    for key in &k[1..NR] {
        for x in b.iter_mut() {
            *x = _mm_aesenc_si128(*x, *key);
        }
    }
    for x in b.iter_mut() {
        *x = _mm_aesenclast_si128(*x, k[NR]);
    }
}

#[target_feature(enable = "aes,sse2")]
#[inline]
fn decrypt_n<const NR: usize, const N: usize>(k: &[__m128i; 15], b: &mut [__m128i; N]) {
    for x in b.iter_mut() {
        *x = _mm_xor_si128(*x, k[0]);
    }
    for key in &k[1..NR] {
        for x in b.iter_mut() {
            *x = _mm_aesdec_si128(*x, *key);
        }
    }
    for x in b.iter_mut() {
        *x = _mm_aesdeclast_si128(*x, k[NR]);
    }
}

#[target_feature(enable = "aes,sse2")]
fn ecb<const NR: usize, const DECRYPT: bool>(keys: &[[u8; 16]; 15], buf: &mut [u8]) {
    let k = round_keys(keys);
    let mut wide = buf.chunks_exact_mut(16 * WIDE);
    for chunk in &mut wide {
        let mut b: [__m128i; WIDE] = core::array::from_fn(|i| load(chunk, i));
        if DECRYPT {
            decrypt_n::<NR, WIDE>(&k, &mut b);
        } else {
            encrypt_n::<NR, WIDE>(&k, &mut b);
        }
        for (i, v) in b.into_iter().enumerate() {
            store(chunk, i, v);
        }
    }
    for block in wide.into_remainder().chunks_exact_mut(16) {
        let mut b = [load(block, 0)];
        if DECRYPT {
            decrypt_n::<NR, 1>(&k, &mut b);
        } else {
            encrypt_n::<NR, 1>(&k, &mut b);
        }
        store(block, 0, b[0]);
    }
}

/// Byte reversal of a block: turns a big-endian counter into little-endian lanes and back.
#[target_feature(enable = "sse2")]
#[inline]
fn reverse_mask() -> __m128i {
    _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
}

#[target_feature(enable = "sse2")]
#[inline]
fn counter_add<const C32: bool>(v: __m128i, n: i32) -> __m128i {
    if C32 {
        _mm_add_epi32(v, _mm_set_epi32(0, 0, 0, n))
    } else {
        _mm_add_epi64(v, _mm_set_epi64x(0, i64::from(n)))
    }
}

#[target_feature(enable = "aes,sse2,ssse3")]
fn ctr<const NR: usize, const C32: bool>(
    keys: &[[u8; 16]; 15],
    counter: &[u8; 16],
    buf: &mut [u8],
) {
    let k = round_keys(keys);
    let rev = reverse_mask();
    let mut base = _mm_shuffle_epi8(load(counter, 0), rev);
    let mut wide = buf.chunks_exact_mut(16 * WIDE);
    for chunk in &mut wide {
        let mut b: [__m128i; WIDE] =
            core::array::from_fn(|i| _mm_shuffle_epi8(counter_add::<C32>(base, i as i32), rev));
        encrypt_n::<NR, WIDE>(&k, &mut b);
        for (i, v) in b.into_iter().enumerate() {
            store(chunk, i, _mm_xor_si128(v, load(chunk, i)));
        }
        base = counter_add::<C32>(base, WIDE as i32);
    }
    for block in wide.into_remainder().chunks_exact_mut(16) {
        let mut b = [_mm_shuffle_epi8(base, rev)];
        encrypt_n::<NR, 1>(&k, &mut b);
        store(block, 0, _mm_xor_si128(b[0], load(block, 0)));
        base = counter_add::<C32>(base, 1);
    }
}

/// One chain at the latency bound: the next block's plaintext and first round key are folded
/// into the last round key, so between two blocks there is no instruction but AES rounds.
#[target_feature(enable = "aes,sse2")]
fn cbc_encrypt<const NR: usize>(keys: &[[u8; 16]; 15], iv: &mut [u8; 16], buf: &mut [u8]) {
    let k = round_keys(keys);
    let blocks = buf.len() / 16;
    if blocks == 0 {
        return;
    }
    let mut x = _mm_xor_si128(_mm_xor_si128(load(iv, 0), load(buf, 0)), k[0]);
    let mut last = x;
    for j in 0..blocks {
        for key in &k[1..NR] {
            x = _mm_aesenc_si128(x, *key);
        }
        let c = _mm_aesenclast_si128(x, k[NR]);
        store(buf, j, c);
        last = c;
        if j + 1 < blocks {
            let next = _mm_xor_si128(load(buf, j + 1), k[0]);
            x = _mm_aesenclast_si128(x, _mm_xor_si128(k[NR], next));
        }
    }
    store(iv, 0, last);
}

#[target_feature(enable = "aes,sse2")]
fn cbc_decrypt<const NR: usize>(keys: &[[u8; 16]; 15], iv: &mut [u8; 16], buf: &mut [u8]) {
    let k = round_keys(keys);
    let mut chain = load(iv, 0);
    let mut wide = buf.chunks_exact_mut(16 * WIDE);
    for chunk in &mut wide {
        let c: [__m128i; WIDE] = core::array::from_fn(|i| load(chunk, i));
        let mut b = c;
        decrypt_n::<NR, WIDE>(&k, &mut b);
        store(chunk, 0, _mm_xor_si128(b[0], chain));
        for i in 1..WIDE {
            store(chunk, i, _mm_xor_si128(b[i], c[i - 1]));
        }
        chain = c[WIDE - 1];
    }
    for block in wide.into_remainder().chunks_exact_mut(16) {
        let c = load(block, 0);
        let mut b = [c];
        decrypt_n::<NR, 1>(&k, &mut b);
        store(block, 0, _mm_xor_si128(b[0], chain));
        chain = c;
    }
    store(iv, 0, chain);
}

/// CBC encryption of `S` streams side by side, `blocks` blocks each; stream `s` uses
/// `keys[s]`, chains from `ivs[s]` and leaves its last ciphertext block there.
#[target_feature(enable = "aes,sse2")]
#[allow(clippy::needless_range_loop)] // lanes and rounds index two arrays in step
fn cbc_encrypt_streams<const NR: usize, const S: usize>(
    keys: &[&RoundKeys],
    ivs: &mut [[u8; 16]],
    bufs: &mut [&mut [u8]],
    blocks: usize,
) {
    let k: [[__m128i; 15]; S] = core::array::from_fn(|s| round_keys(&keys[s].enc));
    let mut chain: [__m128i; S] = core::array::from_fn(|s| load(&ivs[s], 0));
    for j in 0..blocks {
        for s in 0..S {
            chain[s] = _mm_xor_si128(_mm_xor_si128(chain[s], load(bufs[s], j)), k[s][0]);
        }
        for r in 1..NR {
            for s in 0..S {
                chain[s] = _mm_aesenc_si128(chain[s], k[s][r]);
            }
        }
        for s in 0..S {
            chain[s] = _mm_aesenclast_si128(chain[s], k[s][NR]);
            store(bufs[s], j, chain[s]);
        }
    }
    for s in 0..S {
        store(&mut ivs[s], 0, chain[s]);
    }
}

macro_rules! by_rounds {
    ($rounds:expr, $f:ident $(:: <$($g:literal),*>)? ($($arg:expr),*)) => {
        match $rounds {
            10 => $f::<10 $($(, $g)*)?>($($arg),*),
            12 => $f::<12 $($(, $g)*)?>($($arg),*),
            _ => $f::<14 $($(, $g)*)?>($($arg),*),
        }
    };
}

/// ECB encryption of whole blocks.
pub(crate) fn encrypt(rk: &RoundKeys, buf: &mut [u8]) {
    if !runnable() {
        return soft::encrypt_blocks(rk, buf);
    }
    // SAFETY: runnable() confirmed the features this kernel is compiled for.
    unsafe { by_rounds!(rk.rounds, ecb::<false>(&rk.enc, buf)) }
}

/// ECB decryption of whole blocks.
pub(crate) fn decrypt(rk: &RoundKeys, buf: &mut [u8]) {
    if !runnable() {
        return soft::decrypt_blocks(rk, buf);
    }
    // SAFETY: runnable() confirmed the features this kernel is compiled for.
    unsafe { by_rounds!(rk.rounds, ecb::<true>(&rk.dec, buf)) }
}

/// Keystream of `counter`, `counter + 1`, ... XORed into whole blocks; the counter adds in
/// its low 32 or 64 bits and the caller guarantees those do not carry further.
pub(crate) fn ctr_blocks(rk: &RoundKeys, width: CounterWidth, counter: &[u8; 16], buf: &mut [u8]) {
    if !runnable() {
        return super::ctr_blocks_with(rk, width, counter, buf, soft::encrypt_blocks);
    }
    // SAFETY: runnable() confirmed the features this kernel is compiled for.
    unsafe {
        match width {
            CounterWidth::Low32 => by_rounds!(rk.rounds, ctr::<true>(&rk.enc, counter, buf)),
            CounterWidth::Low64 => by_rounds!(rk.rounds, ctr::<false>(&rk.enc, counter, buf)),
        }
    }
}

/// CBC encryption of whole blocks, one chain.
pub(crate) fn encrypt_cbc(rk: &RoundKeys, iv: &mut [u8; 16], buf: &mut [u8]) {
    if !runnable() {
        return super::cbc_encrypt_with(rk, iv, buf, soft::encrypt_blocks);
    }
    // SAFETY: runnable() confirmed the features this kernel is compiled for.
    unsafe { by_rounds!(rk.rounds, cbc_encrypt(&rk.enc, iv, buf)) }
}

/// CBC decryption of whole blocks.
pub(crate) fn decrypt_cbc(rk: &RoundKeys, iv: &mut [u8; 16], buf: &mut [u8]) {
    if !runnable() {
        return super::cbc_decrypt_with(rk, iv, buf, soft::decrypt_blocks);
    }
    // SAFETY: runnable() confirmed the features this kernel is compiled for.
    unsafe { by_rounds!(rk.rounds, cbc_decrypt(&rk.dec, iv, buf)) }
}

/// The chained modes, one block at a time at the latency bound of the AES instructions.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Chain {
    /// CFB encryption: the chain is the last ciphertext block.
    CfbEncrypt,
    /// OFB: the chain is the last keystream block.
    Ofb,
    /// CBC-MAC: the chain absorbs each block; the data is left as it is.
    CbcMac,
}

/// Like [`cbc_encrypt`], folds what the next block needs into the last round key, so that
/// only AES rounds lie on the chain.
#[target_feature(enable = "aes,sse2")]
fn chain_kernel<const NR: usize>(
    keys: &[[u8; 16]; 15],
    mode: Chain,
    iv: &mut [u8; 16],
    buf: &mut [u8],
) {
    let k = round_keys(keys);
    let blocks = buf.len() / 16;
    if blocks == 0 {
        return;
    }
    let mut chain = load(iv, 0);
    let mut x = if mode == Chain::CbcMac {
        _mm_xor_si128(_mm_xor_si128(chain, load(buf, 0)), k[0])
    } else {
        _mm_xor_si128(chain, k[0])
    };
    for j in 0..blocks {
        for key in &k[1..NR] {
            x = _mm_aesenc_si128(x, *key);
        }
        let out = _mm_aesenclast_si128(x, k[NR]);
        // What the next block's input adds to this block's cipher output.
        let feed = match mode {
            Chain::CfbEncrypt => {
                let p = load(buf, j);
                chain = _mm_xor_si128(out, p);
                store(buf, j, chain);
                p
            }
            Chain::Ofb => {
                store(buf, j, _mm_xor_si128(out, load(buf, j)));
                chain = out;
                _mm_setzero_si128()
            }
            Chain::CbcMac => {
                chain = out;
                if j + 1 < blocks {
                    load(buf, j + 1)
                } else {
                    _mm_setzero_si128()
                }
            }
        };
        if j + 1 < blocks {
            x = _mm_aesenclast_si128(x, _mm_xor_si128(k[NR], _mm_xor_si128(feed, k[0])));
        }
    }
    store(iv, 0, chain);
}

/// A chained mode over whole blocks; `iv` carries the chain in and out.
pub(crate) fn chain(rk: &RoundKeys, mode: Chain, iv: &mut [u8; 16], buf: &mut [u8]) {
    if !runnable() {
        return super::chain_with(rk, mode, iv, buf, soft::encrypt_blocks);
    }
    // SAFETY: runnable() confirmed the features this kernel is compiled for.
    unsafe { by_rounds!(rk.rounds, chain_kernel(&rk.enc, mode, iv, buf)) }
}

/// Streams interleaved by [`encrypt_cbc_streams`] at most.
pub(crate) const MAX_STREAMS: usize = 8;

/// CBC encryption of up to [`MAX_STREAMS`] streams of the same key size, `blocks` blocks
/// each, interleaved so that the chains hide each other's latency.
pub(crate) fn encrypt_cbc_streams(
    keys: &[&RoundKeys],
    ivs: &mut [[u8; 16]],
    bufs: &mut [&mut [u8]],
    blocks: usize,
) {
    let rounds = keys.first().map_or(10, |k| k.rounds);
    if !runnable() || keys.len() > MAX_STREAMS || keys.iter().any(|k| k.rounds != rounds) {
        for ((k, iv), buf) in keys.iter().zip(ivs.iter_mut()).zip(bufs.iter_mut()) {
            super::cbc_encrypt_with(k, iv, &mut buf[..16 * blocks], soft::encrypt_blocks);
        }
        return;
    }
    macro_rules! streams {
        ($($s:literal)*) => {
            match keys.len() {
                $($s => by_rounds!(rounds, cbc_encrypt_streams::<$s>(keys, ivs, bufs, blocks)),)*
                _ => {}
            }
        };
    }
    // SAFETY: runnable() confirmed the features this kernel is compiled for.
    unsafe { streams!(1 2 3 4 5 6 7 8) }
}

/// The three partial carry-less products of `a * b`: low, middle (both cross terms) and high.
#[target_feature(enable = "sse2,pclmulqdq")]
#[inline]
pub(crate) fn mul_parts(a: __m128i, b: __m128i) -> [__m128i; 3] {
    [
        _mm_clmulepi64_si128::<0x00>(a, b),
        _mm_xor_si128(
            _mm_clmulepi64_si128::<0x01>(a, b),
            _mm_clmulepi64_si128::<0x10>(a, b),
        ),
        _mm_clmulepi64_si128::<0x11>(a, b),
    ]
}

/// Montgomery reduction of a 256-bit carry-less product given as its three parts: returns
/// `product * x^-128` modulo x^128 + x^127 + x^126 + x^121 + 1 (the POLYVAL field), folding
/// the low half away 64 bits at a time with one multiplication each.
#[target_feature(enable = "sse2,pclmulqdq")]
#[inline]
pub(crate) fn reduce(parts: [__m128i; 3]) -> __m128i {
    let [lo, mid, hi] = parts;
    let low = _mm_xor_si128(lo, _mm_slli_si128::<8>(mid));
    let high = _mm_xor_si128(hi, _mm_srli_si128::<8>(mid));
    let poly = _mm_set_epi64x(0xc200_0000_0000_0000u64 as i64, 1);
    let t = _mm_clmulepi64_si128::<0x10>(low, poly);
    let low = _mm_xor_si128(_mm_shuffle_epi32::<78>(low), t);
    let t = _mm_clmulepi64_si128::<0x10>(low, poly);
    let low = _mm_xor_si128(_mm_shuffle_epi32::<78>(low), t);
    _mm_xor_si128(high, low)
}

#[target_feature(enable = "sse2,pclmulqdq")]
#[inline]
fn xor3(acc: &mut [__m128i; 3], parts: [__m128i; 3]) {
    for (a, p) in acc.iter_mut().zip(parts) {
        *a = _mm_xor_si128(*a, p);
    }
}

#[target_feature(enable = "sse2,ssse3,pclmulqdq")]
fn powers_kernel(key: &[u8; 16]) -> [[u8; 16]; POWERS] {
    let h = load(key, 0);
    let mut out = [[0u8; 16]; POWERS];
    let mut p = h;
    for k in 1..=MAX_BATCH {
        store(&mut out[MAX_BATCH - k], 0, p);
        p = reduce(mul_parts(p, h));
    }
    out
}

/// Eight blocks per reduction: each block times the power of H that brings it to the end.
#[target_feature(enable = "sse2,ssse3,pclmulqdq")]
fn ghash_kernel(powers: &[[u8; 16]; POWERS], acc: &mut [u8; 16], data: &[u8]) {
    let rev = reverse_mask();
    let p: [__m128i; 8] = core::array::from_fn(|i| load(&powers[MAX_BATCH - 8 + i], 0));
    let p1 = load(&powers[MAX_BATCH - 1], 0);
    let mut s = _mm_shuffle_epi8(load(acc, 0), rev);
    let mut wide = data.chunks_exact(16 * 8);
    for chunk in &mut wide {
        let zero = _mm_setzero_si128();
        let mut sum = [zero; 3];
        for (i, power) in p.iter().enumerate() {
            let mut x = _mm_shuffle_epi8(load(chunk, i), rev);
            if i == 0 {
                x = _mm_xor_si128(x, s);
            }
            xor3(&mut sum, mul_parts(x, *power));
        }
        s = reduce(sum);
    }
    for block in wide.remainder().chunks_exact(16) {
        let x = _mm_xor_si128(_mm_shuffle_epi8(load(block, 0), rev), s);
        s = reduce(mul_parts(x, p1));
    }
    store(acc, 0, _mm_shuffle_epi8(s, rev));
}

/// H^32 .. H^1 in the carry-less domain, then zero blocks, for the GHASH kernels.
pub(crate) fn ghash_powers(h: &[u8; 16]) -> [[u8; 16]; POWERS] {
    if !runnable() {
        return [[0u8; 16]; POWERS];
    }
    let key = ghash::polyval_key(h);
    // SAFETY: runnable() confirmed the features this kernel is compiled for.
    unsafe { powers_kernel(&key) }
}

/// Absorbs whole blocks into the GHASH state `acc` (GCM's byte order).
pub(crate) fn ghash(h: &[u8; 16], powers: &[[u8; 16]; POWERS], acc: &mut [u8; 16], data: &[u8]) {
    if !runnable() {
        return ghash::update(h, acc, data);
    }
    // SAFETY: runnable() confirmed the features this kernel is compiled for.
    unsafe { ghash_kernel(powers, acc, data) }
}
