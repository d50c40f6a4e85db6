//! Portable constant-time Kuznyechik.
//!
//! A block is one big-endian `u128`. The S-box reads all 256 entries of π for every byte
//! (as 32 words, keeping the one whose index matches under a mask, then a shift by the low
//! three bits), and L is the XOR of the 128 precomputed bit columns of the matrix, each
//! masked by its input bit. No branch and no memory address depends on the key or the data.

use super::RoundKeys;
use super::consts::{L_COLUMNS, L_INV_COLUMNS, PI, PI_INV};

const fn words(table: &[u8; 256]) -> [u64; 32] {
    let mut w = [0u64; 32];
    let mut i = 0;
    while i < 32 {
        let mut b = [0u8; 8];
        let mut j = 0;
        while j < 8 {
            b[j] = table[8 * i + j];
            j += 1;
        }
        w[i] = u64::from_le_bytes(b);
        i += 1;
    }
    w
}

const PI_WORDS: [u64; 32] = words(&PI);
const PI_INV_WORDS: [u64; 32] = words(&PI_INV);

/// Applies a 256-entry table to every byte of `x` without a secret-dependent address.
#[inline(always)]
fn substitute(x: u128, table: &[u64; 32]) -> u128 {
    let bytes = x.to_be_bytes();
    let mut high = [0u32; 16];
    for (h, b) in high.iter_mut().zip(bytes) {
        *h = u32::from(b >> 3);
    }
    let mut picked = [0u64; 16];
    for (w, word) in table.iter().enumerate() {
        for (p, h) in picked.iter_mut().zip(high) {
            // All ones exactly when the high five bits select this word.
            let equal = ((h ^ w as u32).wrapping_sub(1) >> 31) as u64;
            *p |= word & equal.wrapping_neg();
        }
    }
    let mut out = [0u8; 16];
    for ((o, p), b) in out.iter_mut().zip(picked).zip(bytes) {
        *o = (p >> (u32::from(b & 7) * 8)) as u8;
    }
    u128::from_be_bytes(out)
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
    substitute(x, &PI_WORDS)
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
        x = substitute(linear(x, &L_INV_COLUMNS), &PI_INV_WORDS) ^ u128::from_be_bytes(*k);
    }
    x
}

/// Encrypts whole blocks in place.
pub(super) fn encrypt_blocks(rk: &RoundKeys, buf: &mut [u8]) {
    for block in buf.chunks_exact_mut(16) {
        let x = u128::from_be_bytes(block.try_into().expect("16-byte chunk"));
        block.copy_from_slice(&encrypt_u128(rk, x).to_be_bytes());
    }
}

/// Decrypts whole blocks in place.
pub(super) fn decrypt_blocks(rk: &RoundKeys, buf: &mut [u8]) {
    for block in buf.chunks_exact_mut(16) {
        let x = u128::from_be_bytes(block.try_into().expect("16-byte chunk"));
        block.copy_from_slice(&decrypt_u128(rk, x).to_be_bytes());
    }
}
