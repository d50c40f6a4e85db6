//! AES-NI on 128-bit registers: eight independent blocks in flight to cover the three-cycle
//! latency of AESENC at two issues per cycle. The key schedule of every x86 backend runs
//! here too, on AESENCLAST (see [`assist`]) and AESIMC (set-up times in `docs/perf/aes.md`).
//! The entries are `#[kernel(AES_NI)]` functions, called by [`super::Native`] only on a CPU
//! that runs them; the multi-stream entry, called through a function pointer, checks the CPU
//! itself.

use core::arch::x86_64::*;

use crate::aes::common::{CounterWidth, RoundKeys};
use crate::aes::key_schedule::RCON;
use crate::aes::rounds::by_rounds;
use crate::cpu::{Ran, checked, kernel, kernels};
use crate::modes::Chain;

/// Blocks interleaved by the parallel kernels.
const WIDE: usize = 8;

#[kernel(AES_NI)]
#[inline]
pub(super) fn load(bytes: &[u8], i: usize) -> __m128i {
    assert!(bytes.len() >= 16 * (i + 1));
    // SAFETY: the assertion keeps the 16 bytes read inside `bytes`; loadu needs no alignment.
    unsafe { _mm_loadu_si128(bytes.as_ptr().add(16 * i).cast()) }
}

#[kernel(AES_NI)]
#[inline]
pub(super) fn store(bytes: &mut [u8], i: usize, v: __m128i) {
    assert!(bytes.len() >= 16 * (i + 1));
    // SAFETY: the assertion keeps the 16 bytes written inside `bytes`; storeu needs no alignment.
    unsafe { _mm_storeu_si128(bytes.as_mut_ptr().add(16 * i).cast(), v) }
}

#[kernel(AES_NI)]
#[inline]
fn round_keys(keys: &[[u8; 16]; 15]) -> [__m128i; 15] {
    core::array::from_fn(|r| load(&keys[r], 0))
}

#[kernel(AES_NI)]
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

#[kernel(AES_NI)]
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

#[kernel(AES_NI)]
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
#[kernel(AES_NI)]
#[inline]
pub(super) fn reverse_mask() -> __m128i {
    _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
}

#[kernel(AES_NI)]
#[inline]
fn counter_add<const C32: bool>(v: __m128i, n: i32) -> __m128i {
    if C32 {
        _mm_add_epi32(v, _mm_set_epi32(0, 0, 0, n))
    } else {
        _mm_add_epi64(v, _mm_set_epi64x(0, i64::from(n)))
    }
}

#[kernel(AES_NI)]
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
#[kernel(AES_NI)]
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

#[kernel(AES_NI)]
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
#[kernel(AES_NI)]
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

/// The chained modes of [`chain_kernel`], one block at a time at the latency bound of the
/// AES instructions (CBC encryption has its own kernel, [`cbc_encrypt`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Feedback {
    /// CFB encryption: the chain is the last ciphertext block.
    CfbEncrypt,
    /// OFB: the chain is the last keystream block.
    Ofb,
    /// CBC-MAC: the chain absorbs each block; the data is left as it is.
    CbcMac,
}

/// Like [`cbc_encrypt`], folds what the next block needs into the last round key, so that
/// only AES rounds lie on the chain.
#[kernel(AES_NI)]
fn chain_kernel<const NR: usize>(
    keys: &[[u8; 16]; 15],
    mode: Feedback,
    iv: &mut [u8; 16],
    buf: &mut [u8],
) {
    let k = round_keys(keys);
    let blocks = buf.len() / 16;
    if blocks == 0 {
        return;
    }
    let mut chain = load(iv, 0);
    let mut x = if mode == Feedback::CbcMac {
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
            Feedback::CfbEncrypt => {
                let p = load(buf, j);
                chain = _mm_xor_si128(out, p);
                store(buf, j, chain);
                p
            }
            Feedback::Ofb => {
                store(buf, j, _mm_xor_si128(out, load(buf, j)));
                chain = out;
                _mm_setzero_si128()
            }
            Feedback::CbcMac => {
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

/// The XORs of a key's words up to each: `[a, a^b, a^b^c, a^b^c^d]` from `[a, b, c, d]`.
#[kernel(AES_NI)]
#[inline]
fn running_xor(k: __m128i) -> __m128i {
    let k = _mm_xor_si128(k, _mm_slli_si128::<4>(k));
    _mm_xor_si128(k, _mm_slli_si128::<8>(k))
}

/// What lane `L` of AESKEYGENASSIST holds without its round constant (lane 1: RotWord of
/// SubWord of word 1; lane 2: SubWord of word 3; lane 3: RotWord of SubWord of word 3), in
/// every lane, XORed with the round constant `rcon`. Made without AESKEYGENASSIST, as OpenSSL
/// does on AVX machines: the word, rotated or not, copied into every column, then AESENCLAST
/// with the constant as its round key (ShiftRows leaves four equal columns as they are). On
/// Intel cores AESKEYGENASSIST has several times the latency of AESENCLAST, and each step of
/// the schedule waits for it (the measured gain is in `docs/perf/aes.md`).
#[kernel(AES_NI)]
#[inline]
fn assist<const L: i32>(k: __m128i, rcon: u8) -> __m128i {
    let t = match L {
        1 => _mm_shuffle_epi8(
            k,
            _mm_set_epi8(4, 7, 6, 5, 4, 7, 6, 5, 4, 7, 6, 5, 4, 7, 6, 5),
        ),
        2 => _mm_shuffle_epi32::<0xff>(k),
        _ => _mm_shuffle_epi8(
            k,
            _mm_set_epi8(
                12, 15, 14, 13, 12, 15, 14, 13, 12, 15, 14, 13, 12, 15, 14, 13,
            ),
        ),
    };
    _mm_aesenclast_si128(t, _mm_set1_epi32(i32::from(rcon)))
}

/// Stores the low eight bytes of `v` at the start of `bytes`.
#[kernel(AES_NI)]
#[inline]
fn store_low(bytes: &mut [u8], v: __m128i) {
    assert!(bytes.len() >= 8);
    // SAFETY: the assertion keeps the 8 bytes written inside `bytes`; the store needs no
    // alignment.
    unsafe { _mm_storel_epi64(bytes.as_mut_ptr().cast(), v) }
}

/// FIPS 197 key expansion a register at a time: each step makes the next `Nk` words from
/// the last `Nk` by one S-box round ([`assist`]) and the running XOR of the words, so the
/// schedule is a chain of about ten short steps instead of one dependent step per word. The
/// decryption keys are the encryption keys reversed, AESIMC between.
#[kernel(AES_NI)]
fn expand_kernel(key: &[u8], rk: &mut RoundKeys) {
    let words = rk.enc.as_flattened_mut();
    let rounds = match key.len() {
        16 => {
            let mut k = load(key, 0);
            store(words, 0, k);
            for (i, &c) in RCON.iter().enumerate() {
                k = _mm_xor_si128(running_xor(k), assist::<3>(k, c));
                store(words, i + 1, k);
            }
            10
        }
        24 => {
            // Six words a step: four in `a`, two in the low half of `b`.
            let mut a = load(key, 0);
            let mut b = _mm_srli_si128::<8>(load(&key[8..], 0));
            store(words, 0, a);
            store_low(&mut words[16..], b);
            for (i, &c) in RCON[..8].iter().enumerate() {
                a = _mm_xor_si128(running_xor(a), assist::<1>(b, c));
                b = _mm_xor_si128(
                    _mm_xor_si128(b, _mm_slli_si128::<4>(b)),
                    _mm_shuffle_epi32::<0xff>(a),
                );
                let at = 24 * (i + 1);
                store(&mut words[at..], 0, a);
                if i < 7 {
                    store_low(&mut words[at + 16..], b);
                }
            }
            12
        }
        _ => {
            let (mut a, mut b) = (load(key, 0), load(key, 1));
            store(words, 0, a);
            store(words, 1, b);
            for (i, &c) in RCON[..7].iter().enumerate() {
                a = _mm_xor_si128(running_xor(a), assist::<3>(b, c));
                store(words, 2 * i + 2, a);
                if i < 6 {
                    b = _mm_xor_si128(running_xor(b), assist::<2>(a, 0));
                    store(words, 2 * i + 3, b);
                }
            }
            14
        }
    };
    rk.dec[0] = rk.enc[rounds];
    rk.dec[rounds] = rk.enc[0];
    for r in 1..rounds {
        let k = _mm_aesimc_si128(load(&rk.enc[rounds - r], 0));
        store(&mut rk.dec[r], 0, k);
    }
}

/// Fills the round keys of `rk` (for its number of rounds) from a key of 16, 24 or 32 bytes
/// (the caller checks) on the AES instructions.
#[kernel(AES_NI)]
pub(super) fn expand(key: &[u8], rk: &mut RoundKeys) {
    expand_kernel(key, rk);
}

/// ECB encryption of whole blocks.
#[kernel(AES_NI)]
pub(super) fn encrypt(rk: &RoundKeys, buf: &mut [u8]) {
    by_rounds!(rk.rounds, ecb::<false>(&rk.enc, buf));
}

/// ECB decryption of whole blocks.
#[kernel(AES_NI)]
pub(super) fn decrypt(rk: &RoundKeys, buf: &mut [u8]) {
    by_rounds!(rk.rounds, ecb::<true>(&rk.dec, buf));
}

/// Keystream of `counter`, `counter + 1`, ... XORed into whole blocks; the counter adds in
/// its low 32 or 64 bits and the caller guarantees those do not carry further.
#[kernel(AES_NI)]
pub(super) fn ctr_blocks(rk: &RoundKeys, width: CounterWidth, counter: &[u8; 16], buf: &mut [u8]) {
    match width {
        CounterWidth::Low32 => by_rounds!(rk.rounds, ctr::<true>(&rk.enc, counter, buf)),
        CounterWidth::Low64 => by_rounds!(rk.rounds, ctr::<false>(&rk.enc, counter, buf)),
    }
}

/// CBC decryption of whole blocks.
#[kernel(AES_NI)]
pub(super) fn decrypt_cbc(rk: &RoundKeys, iv: &mut [u8; 16], buf: &mut [u8]) {
    by_rounds!(rk.rounds, cbc_decrypt(&rk.dec, iv, buf));
}

/// A chained mode over whole blocks with one chain; `iv` carries the chain in and out.
#[kernel(AES_NI)]
pub(super) fn chain(rk: &RoundKeys, mode: Chain, iv: &mut [u8; 16], buf: &mut [u8]) {
    let feedback = match mode {
        Chain::CbcEncrypt => return by_rounds!(rk.rounds, cbc_encrypt(&rk.enc, iv, buf)),
        Chain::Mac => Feedback::CbcMac,
        Chain::Ofb => Feedback::Ofb,
        Chain::CfbEncrypt => Feedback::CfbEncrypt,
    };
    by_rounds!(rk.rounds, chain_kernel(&rk.enc, feedback, iv, buf));
}

/// Streams interleaved by [`encrypt_cbc_streams`] at most.
pub(super) const MAX_STREAMS: usize = 8;

/// CBC encryption of 1 to [`MAX_STREAMS`] streams of the same key size, `blocks` blocks
/// each, interleaved so that the chains hide each other's latency. Declined, doing nothing,
/// otherwise or when this CPU cannot run the kernel: it is called through a function
/// pointer, so it checks the CPU on each call.
pub(super) fn encrypt_cbc_streams(
    keys: &[&RoundKeys],
    ivs: &mut [[u8; 16]],
    bufs: &mut [&mut [u8]],
    blocks: usize,
) -> Ran {
    let rounds = keys.first().map_or(10, |k| k.rounds);
    if keys.is_empty()
        || keys.len() > MAX_STREAMS
        || keys.iter().any(|k| k.rounds != rounds)
        || bufs.iter().any(|b| b.len() < 16 * blocks)
        || ivs.len() != keys.len()
        || bufs.len() != keys.len()
    {
        return Ran::Declined;
    }
    macro_rules! streams {
        ($($s:literal)*) => {
            match keys.len() {
                $($s => by_rounds!(rounds, cbc_encrypt_streams::<$s>(keys, ivs, bufs, blocks)),)*
                _ => return Ran::Declined,
            }
        };
    }
    checked!(kernels::AES_NI => {
        // SAFETY: `checked!` runs this only on a CPU that runs AES_NI, the kernel's features.
        unsafe { streams!(1 2 3 4 5 6 7 8) }
    })
}
