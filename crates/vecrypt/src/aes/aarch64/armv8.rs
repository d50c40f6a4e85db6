//! AES on the ARMv8 cryptography extension, on 128-bit NEON registers: eight independent
//! blocks in flight for ECB, CTR, CBC and CFB decryption and XTS, so that the pipelined
//! AESE/AESMC (or AESD/AESIMC) pairs of one block hide the latency of the others; one block
//! at a time for the chained modes (CBC and CFB encryption, OFB, CBC-MAC), whose next input
//! waits for the last output. The entries are `#[kernel(AES_ARMV8)]`
//! functions, called by [`super::Native`] only on a CPU that runs them; the multi-stream
//! entry, called through a function pointer, checks the CPU itself.
//!
//! AESE adds the round key before SubBytes and ShiftRows (x86's AESENC adds it after
//! MixColumns), so a round here is AESE with key `r` then AESMC, and the cipher ends with
//! AESE under the second-to-last key and a XOR with the last one. Decryption runs the
//! equivalent inverse cipher on the same decryption keys as the x86 kernels: AESD then
//! AESIMC per round.
//!
//! Speed has not been measured: the figures are to be taken on ARMv8 hardware.

use core::arch::aarch64::*;

use crate::aes::common::{CounterWidth, RoundKeys};
use crate::aes::key_schedule;
use crate::aes::rounds::by_rounds;
use crate::cpu::kernel;
#[cfg(feature = "alloc")]
use crate::cpu::{Ran, checked, kernels};
use crate::modes::Chain;

/// Blocks interleaved by the parallel kernels.
pub(super) const WIDE: usize = 8;

#[kernel(AES_ARMV8)]
#[inline]
pub(super) fn load(bytes: &[u8], i: usize) -> uint8x16_t {
    assert!(bytes.len() >= 16 * (i + 1));
    // SAFETY: the assertion keeps the 16 bytes read inside `bytes`; vld1q_u8 needs no
    // alignment beyond a byte.
    unsafe { vld1q_u8(bytes.as_ptr().add(16 * i)) }
}

#[kernel(AES_ARMV8)]
#[inline]
pub(super) fn store(bytes: &mut [u8], i: usize, v: uint8x16_t) {
    assert!(bytes.len() >= 16 * (i + 1));
    // SAFETY: the assertion keeps the 16 bytes written inside `bytes`; vst1q_u8 needs no
    // alignment beyond a byte.
    unsafe { vst1q_u8(bytes.as_mut_ptr().add(16 * i), v) }
}

#[kernel(AES_ARMV8)]
#[inline]
pub(super) fn round_keys(keys: &[[u8; 16]; 15]) -> [uint8x16_t; 15] {
    core::array::from_fn(|r| load(&keys[r], 0))
}

/// Every round of the cipher on `N` blocks but the XOR of the last round key.
#[kernel(AES_ARMV8)]
#[inline]
fn encrypt_open<const NR: usize, const N: usize>(k: &[uint8x16_t; 15], b: &mut [uint8x16_t; N]) {
    for key in &k[..NR - 1] {
        for x in b.iter_mut() {
            *x = vaesmcq_u8(vaeseq_u8(*x, *key));
        }
    }
    for x in b.iter_mut() {
        *x = vaeseq_u8(*x, k[NR - 1]);
    }
}

#[kernel(AES_ARMV8)]
#[inline]
pub(super) fn encrypt_n<const NR: usize, const N: usize>(
    k: &[uint8x16_t; 15],
    b: &mut [uint8x16_t; N],
) {
    encrypt_open::<NR, N>(k, b);
    for x in b.iter_mut() {
        *x = veorq_u8(*x, k[NR]);
    }
}

/// The equivalent inverse cipher on `N` blocks with the decryption keys `k`.
#[kernel(AES_ARMV8)]
#[inline]
fn decrypt_n<const NR: usize, const N: usize>(k: &[uint8x16_t; 15], b: &mut [uint8x16_t; N]) {
    for key in &k[..NR - 1] {
        for x in b.iter_mut() {
            *x = vaesimcq_u8(vaesdq_u8(*x, *key));
        }
    }
    for x in b.iter_mut() {
        *x = veorq_u8(vaesdq_u8(*x, k[NR - 1]), k[NR]);
    }
}

#[kernel(AES_ARMV8)]
fn ecb<const NR: usize, const DECRYPT: bool>(keys: &[[u8; 16]; 15], buf: &mut [u8]) {
    let k = round_keys(keys);
    let mut wide = buf.chunks_exact_mut(16 * WIDE);
    for chunk in &mut wide {
        let mut b: [uint8x16_t; WIDE] = core::array::from_fn(|i| load(chunk, i));
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

/// Byte reversal within each 32-bit (`C32`) or 64-bit lane: turns the big-endian counter
/// at the end of a block into a native lane, and back.
#[kernel(AES_ARMV8)]
#[inline]
pub(super) fn counter_lanes<const C32: bool>(v: uint8x16_t) -> uint8x16_t {
    if C32 { vrev32q_u8(v) } else { vrev64q_u8(v) }
}

/// `n` added to the last 32-bit or 64-bit lane of a block in [`counter_lanes`] order.
#[kernel(AES_ARMV8)]
#[inline]
pub(super) fn counter_add<const C32: bool>(v: uint8x16_t, n: u32) -> uint8x16_t {
    if C32 {
        let add = vsetq_lane_u32::<3>(n, vdupq_n_u32(0));
        vreinterpretq_u8_u32(vaddq_u32(vreinterpretq_u32_u8(v), add))
    } else {
        let add = vsetq_lane_u64::<1>(u64::from(n), vdupq_n_u64(0));
        vreinterpretq_u8_u64(vaddq_u64(vreinterpretq_u64_u8(v), add))
    }
}

#[kernel(AES_ARMV8)]
fn ctr<const NR: usize, const C32: bool>(
    keys: &[[u8; 16]; 15],
    counter: &[u8; 16],
    buf: &mut [u8],
) {
    let k = round_keys(keys);
    let mut base = counter_lanes::<C32>(load(counter, 0));
    let mut wide = buf.chunks_exact_mut(16 * WIDE);
    for chunk in &mut wide {
        let mut b: [uint8x16_t; WIDE] =
            core::array::from_fn(|i| counter_lanes::<C32>(counter_add::<C32>(base, i as u32)));
        encrypt_n::<NR, WIDE>(&k, &mut b);
        for (i, v) in b.into_iter().enumerate() {
            store(chunk, i, veorq_u8(v, load(chunk, i)));
        }
        base = counter_add::<C32>(base, WIDE as u32);
    }
    for block in wide.into_remainder().chunks_exact_mut(16) {
        let mut b = [counter_lanes::<C32>(base)];
        encrypt_n::<NR, 1>(&k, &mut b);
        store(block, 0, veorq_u8(b[0], load(block, 0)));
        base = counter_add::<C32>(base, 1);
    }
}

#[kernel(AES_ARMV8)]
fn cbc_decrypt<const NR: usize>(keys: &[[u8; 16]; 15], iv: &mut [u8; 16], buf: &mut [u8]) {
    let k = round_keys(keys);
    let mut chain = load(iv, 0);
    let mut wide = buf.chunks_exact_mut(16 * WIDE);
    for chunk in &mut wide {
        let c: [uint8x16_t; WIDE] = core::array::from_fn(|i| load(chunk, i));
        let mut b = c;
        decrypt_n::<NR, WIDE>(&k, &mut b);
        store(chunk, 0, veorq_u8(b[0], chain));
        for i in 1..WIDE {
            store(chunk, i, veorq_u8(b[i], c[i - 1]));
        }
        chain = c[WIDE - 1];
    }
    for block in wide.into_remainder().chunks_exact_mut(16) {
        let c = load(block, 0);
        let mut b = [c];
        decrypt_n::<NR, 1>(&k, &mut b);
        store(block, 0, veorq_u8(b[0], chain));
        chain = c;
    }
    store(iv, 0, chain);
}

/// CFB decryption: every block's keystream is the cipher of the ciphertext block before it,
/// so eight blocks run side by side; `iv` ends as the last ciphertext block.
#[kernel(AES_ARMV8)]
fn cfb_decrypt<const NR: usize>(keys: &[[u8; 16]; 15], iv: &mut [u8; 16], buf: &mut [u8]) {
    let k = round_keys(keys);
    let mut chain = load(iv, 0);
    let mut wide = buf.chunks_exact_mut(16 * WIDE);
    for chunk in &mut wide {
        let c: [uint8x16_t; WIDE] = core::array::from_fn(|i| load(chunk, i));
        let mut b: [uint8x16_t; WIDE] =
            core::array::from_fn(|i| if i == 0 { chain } else { c[i - 1] });
        encrypt_n::<NR, WIDE>(&k, &mut b);
        for i in 0..WIDE {
            store(chunk, i, veorq_u8(b[i], c[i]));
        }
        chain = c[WIDE - 1];
    }
    for block in wide.into_remainder().chunks_exact_mut(16) {
        let c = load(block, 0);
        let mut b = [chain];
        encrypt_n::<NR, 1>(&k, &mut b);
        store(block, 0, veorq_u8(b[0], c));
        chain = c;
    }
    store(iv, 0, chain);
}

/// A tweak times x in GF(2^128), XTS's little-endian convention: each 64-bit lane shifted
/// left, the top bit of the low lane carried into the high one and the top bit of the high
/// lane folded back as 0x87, with masks instead of branches.
#[kernel(AES_ARMV8)]
#[inline]
fn times_x(t: uint64x2_t) -> uint64x2_t {
    let tops = vreinterpretq_u64_s64(vshrq_n_s64::<63>(vreinterpretq_s64_u64(t)));
    let fold = vsetq_lane_u64::<1>(1, vdupq_n_u64(0x87));
    let carried = vandq_u64(vextq_u64::<1>(tops, tops), fold);
    veorq_u64(vshlq_n_u64::<1>(t), carried)
}

/// XTS over whole blocks: block `i` is whitened before and after the cipher with
/// `tweak * x^i`; eight blocks side by side. Returns the tweak after the last block.
#[kernel(AES_ARMV8)]
#[allow(clippy::needless_range_loop)] // tweaks and blocks index two arrays in step
fn xts<const NR: usize, const DECRYPT: bool>(
    keys: &[[u8; 16]; 15],
    tweak: u128,
    buf: &mut [u8],
) -> u128 {
    let k = round_keys(keys);
    let mut bytes = tweak.to_le_bytes();
    let mut tw = vreinterpretq_u64_u8(load(&bytes, 0));
    let mut wide = buf.chunks_exact_mut(16 * WIDE);
    for chunk in &mut wide {
        let mut tws = [tw; WIDE];
        for i in 1..WIDE {
            tws[i] = times_x(tws[i - 1]);
        }
        tw = times_x(tws[WIDE - 1]);
        let tws: [uint8x16_t; WIDE] = core::array::from_fn(|i| vreinterpretq_u8_u64(tws[i]));
        let mut b: [uint8x16_t; WIDE] = core::array::from_fn(|i| veorq_u8(load(chunk, i), tws[i]));
        if DECRYPT {
            decrypt_n::<NR, WIDE>(&k, &mut b);
        } else {
            encrypt_n::<NR, WIDE>(&k, &mut b);
        }
        for i in 0..WIDE {
            store(chunk, i, veorq_u8(b[i], tws[i]));
        }
    }
    for block in wide.into_remainder().chunks_exact_mut(16) {
        let t = vreinterpretq_u8_u64(tw);
        let mut b = [veorq_u8(load(block, 0), t)];
        if DECRYPT {
            decrypt_n::<NR, 1>(&k, &mut b);
        } else {
            encrypt_n::<NR, 1>(&k, &mut b);
        }
        store(block, 0, veorq_u8(b[0], t));
        tw = times_x(tw);
    }
    store(&mut bytes, 0, vreinterpretq_u8_u64(tw));
    let next = u128::from_le_bytes(bytes);
    crate::wipe::array(&mut bytes);
    next
}

/// The chained modes with one chain, one block at a time. The last round key is folded
/// with what the next block adds to the cipher output, so that between two blocks the
/// chain goes through one XOR besides the AES instructions.
#[kernel(AES_ARMV8)]
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
    let zero = vdupq_n_u8(0);
    let mut chain = load(iv, 0);
    let mut x = match mode {
        Chain::CbcEncrypt | Chain::Mac => veorq_u8(chain, load(buf, 0)),
        Chain::Ofb | Chain::CfbEncrypt => chain,
    };
    for j in 0..blocks {
        let mut b = [x];
        encrypt_open::<NR, 1>(&k, &mut b);
        let out = veorq_u8(b[0], k[NR]);
        let next = if j + 1 < blocks {
            load(buf, j + 1)
        } else {
            zero
        };
        // What the next block's input adds to this block's cipher output.
        let feed = match mode {
            Chain::CbcEncrypt => {
                store(buf, j, out);
                chain = out;
                next
            }
            Chain::Mac => {
                chain = out;
                next
            }
            Chain::CfbEncrypt => {
                let p = load(buf, j);
                chain = veorq_u8(out, p);
                store(buf, j, chain);
                p
            }
            Chain::Ofb => {
                store(buf, j, veorq_u8(out, load(buf, j)));
                chain = out;
                zero
            }
        };
        x = veorq_u8(b[0], veorq_u8(k[NR], feed));
    }
    store(iv, 0, chain);
}

/// CBC encryption of `S` streams side by side, `blocks` blocks each; stream `s` uses
/// `keys[s]`, chains from `ivs[s]` and leaves its last ciphertext block there.
#[cfg(feature = "alloc")]
#[kernel(AES_ARMV8)]
#[allow(clippy::needless_range_loop)] // lanes and rounds index two arrays in step
fn cbc_encrypt_streams<const NR: usize, const S: usize>(
    keys: &[&RoundKeys],
    ivs: &mut [[u8; 16]],
    bufs: &mut [&mut [u8]],
    blocks: usize,
) {
    let k: [[uint8x16_t; 15]; S] = core::array::from_fn(|s| round_keys(&keys[s].enc));
    let mut chain: [uint8x16_t; S] = core::array::from_fn(|s| load(&ivs[s], 0));
    for j in 0..blocks {
        for s in 0..S {
            chain[s] = veorq_u8(chain[s], load(bufs[s], j));
        }
        for r in 0..NR - 1 {
            for s in 0..S {
                chain[s] = vaesmcq_u8(vaeseq_u8(chain[s], k[s][r]));
            }
        }
        for s in 0..S {
            chain[s] = veorq_u8(vaeseq_u8(chain[s], k[s][NR - 1]), k[s][NR]);
            store(bufs[s], j, chain[s]);
        }
    }
    for s in 0..S {
        store(&mut ivs[s], 0, chain[s]);
    }
}

/// The S-box on each byte of a word: AESE under a zero key on the word in every column
/// (ShiftRows then moves bytes between equal columns, so column 0 is the word's S-box).
#[kernel(AES_ARMV8)]
#[inline]
fn sub_word(w: u32) -> u32 {
    let v = vreinterpretq_u8_u32(vdupq_n_u32(w));
    vgetq_lane_u32::<0>(vreinterpretq_u32_u8(vaeseq_u8(v, vdupq_n_u8(0))))
}

/// InvMixColumns of a round key, for the equivalent inverse cipher.
#[kernel(AES_ARMV8)]
#[inline]
fn inv_mix(key: &mut [u8; 16]) {
    let k = vaesimcq_u8(load(key, 0));
    store(key, 0, k);
}

#[kernel(AES_ARMV8)]
fn expand_kernel(key: &[u8], rk: &mut RoundKeys) {
    key_schedule::expand_with(key, rk, |w| sub_word(w), |k| inv_mix(k));
}

/// Fills the round keys of `rk` (for its number of rounds) from a key of 16, 24 or 32 bytes
/// (the caller checks) on the AES instructions.
#[kernel(AES_ARMV8)]
pub(super) fn expand(key: &[u8], rk: &mut RoundKeys) {
    expand_kernel(key, rk);
}

/// ECB encryption of whole blocks.
#[kernel(AES_ARMV8)]
pub(super) fn encrypt(rk: &RoundKeys, buf: &mut [u8]) {
    by_rounds!(rk.rounds, ecb::<false>(&rk.enc, buf));
}

/// ECB decryption of whole blocks.
#[kernel(AES_ARMV8)]
pub(super) fn decrypt(rk: &RoundKeys, buf: &mut [u8]) {
    by_rounds!(rk.rounds, ecb::<true>(&rk.dec, buf));
}

/// Keystream of `counter`, `counter + 1`, ... XORed into whole blocks; the counter adds in
/// its low 32 or 64 bits and the caller guarantees those do not carry further.
#[kernel(AES_ARMV8)]
pub(super) fn ctr_blocks(rk: &RoundKeys, width: CounterWidth, counter: &[u8; 16], buf: &mut [u8]) {
    match width {
        CounterWidth::Low32 => by_rounds!(rk.rounds, ctr::<true>(&rk.enc, counter, buf)),
        CounterWidth::Low64 => by_rounds!(rk.rounds, ctr::<false>(&rk.enc, counter, buf)),
    }
}

/// CBC decryption of whole blocks.
#[kernel(AES_ARMV8)]
pub(super) fn decrypt_cbc(rk: &RoundKeys, iv: &mut [u8; 16], buf: &mut [u8]) {
    by_rounds!(rk.rounds, cbc_decrypt(&rk.dec, iv, buf));
}

/// CFB decryption of whole blocks; `iv` ends as the last ciphertext block.
#[kernel(AES_ARMV8)]
pub(super) fn decrypt_cfb(rk: &RoundKeys, iv: &mut [u8; 16], buf: &mut [u8]) {
    by_rounds!(rk.rounds, cfb_decrypt(&rk.enc, iv, buf));
}

/// XTS over whole blocks from `tweak`, decrypting if asked; the tweak after the last block.
#[kernel(AES_ARMV8)]
pub(super) fn xts_blocks(rk: &RoundKeys, decrypt: bool, tweak: u128, buf: &mut [u8]) -> u128 {
    if decrypt {
        by_rounds!(rk.rounds, xts::<true>(&rk.dec, tweak, buf))
    } else {
        by_rounds!(rk.rounds, xts::<false>(&rk.enc, tweak, buf))
    }
}

/// A chained mode over whole blocks with one chain; `iv` carries the chain in and out.
#[kernel(AES_ARMV8)]
pub(super) fn chain(rk: &RoundKeys, mode: Chain, iv: &mut [u8; 16], buf: &mut [u8]) {
    by_rounds!(rk.rounds, chain_kernel(&rk.enc, mode, iv, buf));
}

/// Streams interleaved by [`encrypt_cbc_streams`] at most.
#[cfg(feature = "alloc")]
pub(super) const MAX_STREAMS: usize = 8;

/// CBC encryption of 1 to [`MAX_STREAMS`] streams of the same key size, `blocks` blocks
/// each, interleaved so that the chains hide each other's latency. Declined, doing nothing,
/// otherwise or when this CPU cannot run the kernel: it is called through a function
/// pointer, so it checks the CPU on each call.
#[cfg(feature = "alloc")]
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
    checked!(kernels::AES_ARMV8 => {
        // SAFETY: `checked!` runs this only on a CPU that runs AES_ARMV8, the kernel's
        // features.
        unsafe { streams!(1 2 3 4 5 6 7 8) }
    })
}
