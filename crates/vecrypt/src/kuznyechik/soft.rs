//! Portable constant-time Kuznyechik.
//!
//! Runs of blocks go to the bitsliced batches of [`super::bitsliced`] (64 blocks per batch
//! on 64-bit targets, 32 elsewhere). Fewer than [`BATCH_FROM`] blocks, the key schedule and
//! the chained modes run one block at a time here: a block is one big-endian `u128`; S
//! transposes its sixteen bytes into eight bit slices of sixteen lanes and runs the same
//! circuit of π (or π⁻¹) as the batches, and L is the XOR of the 128 precomputed bit
//! columns of the matrix, each masked by its input bit. No branch and no memory address
//! depends on the key or the data.

use super::RoundKeys;
use super::bitsliced::{self, Row, Word, gates};
use super::consts::{L_COLUMNS, L_INV_COLUMNS};

/// Blocks from which a run goes to the bitsliced batches rather than one block at a
/// time: a batch of 64 blocks costs the same full or not, about three one-block runs, so a
/// batch wins from three or four blocks (figures in `docs/perf/kuznyechik.md`).
const BATCH_FROM: usize = 4;

/// Transposes the 8x8 bit matrix of the bytes of `x`: bit `j` of byte `i` goes to bit `i`
/// of byte `j`.
#[inline(always)]
fn transpose8(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00aa_00aa_00aa_00aa;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_cccc_0000_cccc;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_f0f0_f0f0;
    x ^ t ^ (t << 28)
}

/// Applies π, or π⁻¹, to every byte of `x` through the circuit, the sixteen bytes in
/// sixteen lanes of eight bit slices (words of the target's width).
#[inline(always)]
fn substitute(x: u128, inverse: bool) -> u128 {
    let (lo, hi) = (transpose8(x as u64), transpose8((x >> 64) as u64));
    let slices: [Word; 8] = core::array::from_fn(|b| {
        Word::truncate(((lo >> (8 * b)) & 0xff) | (((hi >> (8 * b)) & 0xff) << 8))
    });
    let out = if inverse {
        gates::pi_inv(slices)
    } else {
        gates::pi(slices)
    };
    let (mut lo, mut hi) = (0u64, 0u64);
    for (b, w) in out.iter().enumerate() {
        let w = w.widen();
        lo |= (w & 0xff) << (8 * b);
        hi |= ((w >> 8) & 0xff) << (8 * b);
    }
    u128::from(transpose8(lo)) | (u128::from(transpose8(hi)) << 64)
}

/// Applies a linear map given by its bit columns.
///
/// Each column is kept under a mask of all ones or all zeros, one per input bit. The masks go
/// through `black_box` as a whole: were the compiler to see that they take only those two
/// values, it could turn `column & mask` into a branch on the bit that skips the load of
/// the column, which it does on x86-64 (valgrind's memcheck reported it).
#[inline(always)]
fn linear(x: u128, columns: &[u128; 128]) -> u128 {
    let mut masks = [0u64; 128];
    for (j, m) in masks.iter_mut().enumerate() {
        *m = ((x >> j) as u64 & 1).wrapping_neg();
    }
    core::hint::black_box(&mut masks);
    let mut acc = 0u128;
    for (col, m) in columns.iter().zip(masks) {
        acc ^= col & (m as i64 as i128 as u128);
    }
    acc
}

#[inline(always)]
pub(super) fn s(x: u128) -> u128 {
    substitute(x, false)
}

#[inline(always)]
pub(super) fn l(x: u128) -> u128 {
    linear(x, &L_COLUMNS)
}

fn encrypt_u128(rk: &RoundKeys, mut x: u128) -> u128 {
    for k in &rk.0[..9] {
        x = l(s(x ^ u128::from_be_bytes(*k)));
    }
    x ^ u128::from_be_bytes(rk.0[9])
}

fn decrypt_u128(rk: &RoundKeys, mut x: u128) -> u128 {
    x ^= u128::from_be_bytes(rk.0[9]);
    for k in rk.0[..9].iter().rev() {
        x = substitute(linear(x, &L_INV_COLUMNS), true) ^ u128::from_be_bytes(*k);
    }
    x
}

/// Encrypts one block in place.
pub(super) fn encrypt_one(rk: &RoundKeys, block: &mut [u8]) {
    let x = u128::from_be_bytes((&*block).try_into().expect("16-byte block"));
    block.copy_from_slice(&encrypt_u128(rk, x).to_be_bytes());
}

/// Decrypts one block in place.
pub(super) fn decrypt_one(rk: &RoundKeys, block: &mut [u8]) {
    let x = u128::from_be_bytes((&*block).try_into().expect("16-byte block"));
    block.copy_from_slice(&decrypt_u128(rk, x).to_be_bytes());
}

/// Runs whole blocks through the batches, and a short run or a short last batch through
/// `one`. The split depends only on the length.
fn blocks(
    rk: &RoundKeys,
    buf: &mut [u8],
    batches: fn(&RoundKeys, &mut [u8]),
    one: fn(&RoundKeys, &mut [u8]),
) {
    let n = buf.len() / 16;
    let short = n % bitsliced::BLOCKS;
    let split = if short < BATCH_FROM {
        16 * (n - short)
    } else {
        16 * n
    };
    let (batched, rest) = buf[..16 * n].split_at_mut(split);
    batches(rk, batched);
    for block in rest.chunks_exact_mut(16) {
        one(rk, block);
    }
}

/// Encrypts whole blocks in place.
pub(super) fn encrypt_blocks(rk: &RoundKeys, buf: &mut [u8]) {
    blocks(rk, buf, bitsliced::encrypt, encrypt_one);
}

/// Decrypts whole blocks in place.
pub(super) fn decrypt_blocks(rk: &RoundKeys, buf: &mut [u8]) {
    blocks(rk, buf, bitsliced::decrypt, decrypt_one);
}

/// CTR with a whole-block big-endian counter, advanced past the blocks used (a partial
/// last block counts as one): the counter blocks of whole batches go through
/// [`encrypt_blocks`] at once.
pub(super) fn ctr(rk: &RoundKeys, counter: &mut [u8; 16], buf: &mut [u8]) {
    let mut ks = [0u8; 16 * bitsliced::BLOCKS];
    let mut c = u128::from_be_bytes(*counter);
    for chunk in buf.chunks_mut(ks.len()) {
        let ks = &mut ks[..16 * chunk.len().div_ceil(16)];
        for block in ks.chunks_exact_mut(16) {
            block.copy_from_slice(&c.to_be_bytes());
            c = c.wrapping_add(1);
        }
        encrypt_blocks(rk, ks);
        for (b, k) in chunk.iter_mut().zip(ks.iter()) {
            *b ^= k;
        }
    }
    *counter = c.to_be_bytes();
    crate::wipe::bytes(&mut ks);
}
