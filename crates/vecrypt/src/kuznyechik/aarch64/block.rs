//! One block per register, for calls too short for a byte-sliced batch (the chained modes pass
//! one block at a time) and for the key schedule. π is the lookup of the batch with its
//! four quarters side by side (TBL each, ORed) rather than chained through TBX; L is the
//! sum over the sixteen input bytes of byte `k` times column `k` of L, each product a
//! polynomial multiply (PMULL.8, plain Advanced SIMD) of the byte broadcast to all lanes by
//! the column, the sixteen 15-bit products summed unreduced and reduced once as in the
//! batch. Two blocks are interleaved per round; the llvm-mca estimates of this path are in
//! `docs/perf/kuznyechik.md`.

use core::arch::aarch64::*;

use super::batch::{
    REDUCTION, load16, lookup_parallel as lookup, reduce, store16, table_registers,
};
use crate::cpu::kernel;
use crate::kuznyechik::consts::{PI, PI_INV, ROUND_CONSTANTS, l_const, l_inv_const};
use crate::kuznyechik::{KEY, RoundKeys};
use crate::modes::Chain;

/// Column `k` of L (or L⁻¹): the map applied to the block whose byte `k` is 1.
const fn columns(inverse: bool) -> [[u8; 16]; 16] {
    let mut c = [[0u8; 16]; 16];
    let mut k = 0;
    while k < 16 {
        let mut unit = [0u8; 16];
        unit[k] = 1;
        c[k] = if inverse {
            l_inv_const(unit)
        } else {
            l_const(unit)
        };
        k += 1;
    }
    c
}

const L_COLUMNS: [[u8; 16]; 16] = columns(false);
const L_INV_COLUMNS: [[u8; 16]; 16] = columns(true);

/// The registers of one direction.
pub(super) struct Constants {
    sbox: [uint8x16x4_t; 4],
    columns: [uint8x16_t; 16],
    reduction: [uint8x16_t; 2],
    low_nibble: uint8x16_t,
}

#[kernel(KUZNYECHIK_NEON)]
#[inline]
pub(super) fn constants(inverse: bool) -> Constants {
    let source = if inverse { &L_INV_COLUMNS } else { &L_COLUMNS };
    let mut columns = [vdupq_n_u8(0); 16];
    for (c, bytes) in columns.iter_mut().zip(source) {
        *c = load16(bytes);
    }
    Constants {
        sbox: table_registers(if inverse { &PI_INV } else { &PI }),
        columns,
        reduction: [load16(&REDUCTION[0]), load16(&REDUCTION[1])],
        low_nibble: vdupq_n_u8(0x0f),
    }
}

/// The unreduced products of byte `K` of `x` with column `K`, in two halves of eight
/// 16-bit lanes.
#[kernel(KUZNYECHIK_NEON)]
#[inline]
fn column_product<const K: i32>(x: uint8x16_t, c: &Constants) -> [uint16x8_t; 2] {
    let spread = vreinterpretq_p8_u8(vdupq_laneq_u8::<K>(x));
    let column = vreinterpretq_p8_u8(c.columns[K as usize]);
    [
        vreinterpretq_u16_p16(vmull_p8(vget_low_p8(spread), vget_low_p8(column))),
        vreinterpretq_u16_p16(vmull_high_p8(spread, column)),
    ]
}

/// L (or L⁻¹, by the columns in `c`) of one block.
#[kernel(KUZNYECHIK_NEON)]
#[inline]
fn linear(x: uint8x16_t, c: &Constants) -> uint8x16_t {
    let mut level = [
        column_product::<0>(x, c),
        column_product::<1>(x, c),
        column_product::<2>(x, c),
        column_product::<3>(x, c),
        column_product::<4>(x, c),
        column_product::<5>(x, c),
        column_product::<6>(x, c),
        column_product::<7>(x, c),
        column_product::<8>(x, c),
        column_product::<9>(x, c),
        column_product::<10>(x, c),
        column_product::<11>(x, c),
        column_product::<12>(x, c),
        column_product::<13>(x, c),
        column_product::<14>(x, c),
        column_product::<15>(x, c),
    ];
    // A tree of sums: four levels of latency rather than fifteen.
    let mut width = 16;
    while width > 1 {
        width /= 2;
        for i in 0..width {
            level[i] = [
                veorq_u16(level[i][0], level[i + width][0]),
                veorq_u16(level[i][1], level[i + width][1]),
            ];
        }
    }
    reduce(level[0], &c.reduction, c.low_nibble)
}

/// The ten round keys in registers.
#[kernel(KUZNYECHIK_NEON)]
#[inline]
pub(super) fn key_registers(rk: &RoundKeys) -> [uint8x16_t; 10] {
    let mut k = [vdupq_n_u8(0); 10];
    for (r, bytes) in k.iter_mut().zip(&rk.0) {
        *r = load16(bytes);
    }
    k
}

/// One chained mode over the whole blocks of `buf` with the one-block register `v`, in
/// one call: the steps of [`Chain`] with `E` on a register.
#[kernel(KUZNYECHIK_NEON)]
#[inline]
pub(super) fn chain(rk: &RoundKeys, mode: Chain, register: &mut [u8; 16], buf: &mut [u8]) {
    let c = constants(false);
    let k = key_registers(rk);
    let mut v = [load16(register)];
    for block in buf.chunks_exact_mut(16) {
        let d = load16(block);
        match mode {
            Chain::CbcEncrypt => {
                v[0] = veorq_u8(v[0], d);
                encrypt_n(&mut v, &k, &c);
                store16(block, v[0]);
            }
            Chain::Mac => {
                v[0] = veorq_u8(v[0], d);
                encrypt_n(&mut v, &k, &c);
            }
            Chain::Ofb => {
                encrypt_n(&mut v, &k, &c);
                store16(block, veorq_u8(d, v[0]));
            }
            Chain::CfbEncrypt => {
                encrypt_n(&mut v, &k, &c);
                v[0] = veorq_u8(d, v[0]);
                store16(block, v[0]);
            }
        }
    }
    store16(register, v[0]);
}

/// `N` independent blocks through the cipher, interleaved.
#[kernel(KUZNYECHIK_NEON)]
#[inline]
pub(super) fn encrypt_n<const N: usize>(
    b: &mut [uint8x16_t; N],
    k: &[uint8x16_t; 10],
    c: &Constants,
) {
    for key in &k[..9] {
        for x in b.iter_mut() {
            *x = linear(lookup(veorq_u8(*x, *key), &c.sbox), c);
        }
    }
    for x in b.iter_mut() {
        *x = veorq_u8(*x, k[9]);
    }
}

/// `N` independent blocks through the inverse cipher (`c` of the inverse direction).
#[kernel(KUZNYECHIK_NEON)]
#[inline]
pub(super) fn decrypt_n<const N: usize>(
    b: &mut [uint8x16_t; N],
    k: &[uint8x16_t; 10],
    c: &Constants,
) {
    for x in b.iter_mut() {
        *x = veorq_u8(*x, k[9]);
    }
    for key in k[..9].iter().rev() {
        for x in b.iter_mut() {
            *x = veorq_u8(lookup(linear(*x, c), &c.sbox), *key);
        }
    }
}

/// Whole blocks of `buf`, two at a time, the odd last one alone.
#[kernel(KUZNYECHIK_NEON)]
#[inline]
pub(super) fn blocks<const DECRYPT: bool>(rk: &RoundKeys, buf: &mut [u8]) {
    let c = constants(DECRYPT);
    let k = key_registers(rk);
    let mut pairs = buf.chunks_exact_mut(32);
    for pair in &mut pairs {
        let mut b = [load16(pair), load16(&pair[16..])];
        if DECRYPT {
            decrypt_n(&mut b, &k, &c);
        } else {
            encrypt_n(&mut b, &k, &c);
        }
        store16(pair, b[0]);
        store16(&mut pair[16..], b[1]);
    }
    let last = pairs.into_remainder();
    if last.len() >= 16 {
        let mut b = [load16(last)];
        if DECRYPT {
            decrypt_n(&mut b, &k, &c);
        } else {
            encrypt_n(&mut b, &k, &c);
        }
        store16(last, b[0]);
    }
}

/// The key schedule of GOST R 34.12-2015: 32 Feistel rounds of S and L on one register.
///
/// # Safety
/// The CPU runs [`KUZNYECHIK_NEON`](crate::cpu::kernels::KUZNYECHIK_NEON).
#[kernel(KUZNYECHIK_NEON)]
pub(super) unsafe fn expand_key(key: &[u8; KEY]) -> RoundKeys {
    let c = constants(false);
    let mut a1 = load16(&key[..16]);
    let mut a0 = load16(&key[16..]);
    let mut rk = RoundKeys([[0u8; 16]; 10]);
    store16(&mut rk.0[0], a1);
    store16(&mut rk.0[1], a0);
    for pair in 0..4 {
        for constant in &ROUND_CONSTANTS[8 * pair..8 * pair + 8] {
            let f = linear(lookup(veorq_u8(a1, load16(constant)), &c.sbox), &c);
            a0 = veorq_u8(f, a0);
            core::mem::swap(&mut a0, &mut a1);
        }
        store16(&mut rk.0[2 * pair + 2], a1);
        store16(&mut rk.0[2 * pair + 3], a0);
    }
    rk
}
