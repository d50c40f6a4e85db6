//! uBlock on NEON in the design document's one-nibble-per-byte layout, with `TBL` where the
//! x86 kernel has `pshufb` (`TBL` gives 0 for an index past the table, `pshufb` for bit 7
//! set: the tables here never rely on either).
//!
//! A 64-bit half of the state is one register of 16 nibbles, one per byte; a 128-bit half is
//! two. The S-box is one `TBL` into the S-box table, `<<<32 4k` is one `TBL` that rotates
//! each 8-nibble word by `k` places, and PL/PR are nibble gathers: one `TBL` per register
//! for 128-bit blocks, and for 256-bit blocks one two-register `TBL` (32-entry table) per
//! output register, where SSSE3 needs two `pshufb` and an OR. Round keys are folded into the
//! linear layer as in [`super::super::planes`] (`A_i`, `B_i`), so no key XOR sits on the
//! chain; they are kept in nibble form, made once per cipher.
//!
//! A round of a 128-bit block is 16 vector instructions (2 S-box `TBL`, 4 rotations of one
//! `TBL` and one `EOR`, 2 `EOR` between halves, 2 key `EOR`, 2 gathers) with a chain of 12;
//! a 256-bit block's round is 32 with the same chain. Blocks of an ECB call run `WIDE` at
//! a time, step by step, so that an in-order core has independent work to
//! issue next to each dependent instruction, and an out-of-order one sees it in its window.
//!
//! Bounds per round by llvm-mca, and the design document's figures, are in
//! `docs/perf/ublock.md` (see also the notes of [`super`]).

use core::arch::aarch64::*;

use super::super::consts::{PK1, RC, SBOX, SBOX_INV};
use super::super::planes as generic;
use super::super::{RoundKeys, Variant};
use crate::cpu::{Ran, checked, kernel, kernels};

/// A half of the state: one register for 128-bit blocks, two for 256-bit ones.
type Half = [uint8x16_t; 2];

/// One block: `[X0, X1]`.
type Block = [Half; 2];

/// Registers per half.
const fn regs<V: Variant>() -> usize {
    V::BLOCK / 16
}

/// The folded round keys of one cipher in nibble form: row `i` holds the `2 * BLOCK`
/// nibbles of `RK_0` (row 0) or `A_i || B_i`, one per byte.
#[derive(Clone)]
pub(crate) struct NibbleKeys([[u8; 64]; 25]);

impl NibbleKeys {
    pub(crate) fn wipe(&mut self) {
        crate::wipe::bytes(self.0.as_flattened_mut());
    }
}

impl Drop for NibbleKeys {
    fn drop(&mut self) {
        self.wipe();
    }
}

/// The nibble form of the folded round keys.
pub(super) fn nibble_keys<V: Variant>(rk: &RoundKeys) -> NibbleKeys {
    let f = generic::folded::<V>(rk);
    let mut out = NibbleKeys([[0u8; 64]; 25]);
    for (row, nib) in f.0.iter().zip(out.0.iter_mut()).take(V::ROUNDS + 1) {
        for (byte, pair) in row[..V::BLOCK].iter().zip(nib.chunks_exact_mut(2)) {
            pair[0] = byte >> 4;
            pair[1] = byte & 15;
        }
    }
    out
}

#[inline(always)]
fn load16(b: &[u8; 16]) -> uint8x16_t {
    // SAFETY: reads 16 bytes from a 16-byte array; NEON is part of every AArch64 target
    // this crate builds for, and the kernels that inline this enable it.
    unsafe { vld1q_u8(b.as_ptr()) }
}

#[inline(always)]
fn load(b: &[u8]) -> uint8x16_t {
    let b: &[u8; 16] = b[..16].try_into().unwrap_or(&[0; 16]);
    load16(b)
}

#[inline(always)]
fn store(v: uint8x16_t, out: &mut [u8]) {
    let out: &mut [u8; 16] = (&mut out[..16])
        .try_into()
        .unwrap_or_else(|_| unreachable!());
    // SAFETY: writes 16 bytes into a 16-byte array.
    unsafe { vst1q_u8(out.as_mut_ptr(), v) }
}

#[inline(always)]
fn zero() -> uint8x16_t {
    // SAFETY: NEON is enabled wherever this module is built (the gate on `mod aarch64`).
    unsafe { vdupq_n_u8(0) }
}

/// `TBL`: byte `i` of the result is `table[idx[i]]` (0 for an index past 15).
#[inline(always)]
fn tbl(table: uint8x16_t, idx: uint8x16_t) -> uint8x16_t {
    // SAFETY: NEON is enabled wherever this module is built (the gate on `mod aarch64`).
    unsafe { vqtbl1q_u8(table, idx) }
}

/// Two-register `TBL`: byte `i` of the result is byte `idx[i]` of `lo || hi`.
#[inline(always)]
fn tbl2(lo: uint8x16_t, hi: uint8x16_t, idx: uint8x16_t) -> uint8x16_t {
    // SAFETY: NEON is enabled wherever this module is built (the gate on `mod aarch64`).
    unsafe { vqtbl2q_u8(uint8x16x2_t(lo, hi), idx) }
}

#[inline(always)]
fn eor(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
    // SAFETY: NEON is enabled wherever this module is built (the gate on `mod aarch64`).
    unsafe { veorq_u8(a, b) }
}

/// 16 bytes to 32 nibbles, one per byte: (nibbles of bytes 0..8, nibbles of bytes 8..16).
#[inline(always)]
fn expand(v: uint8x16_t) -> (uint8x16_t, uint8x16_t) {
    // SAFETY: NEON is enabled wherever this module is built (the gate on `mod aarch64`).
    unsafe {
        let hi = vshrq_n_u8::<4>(v);
        let lo = vandq_u8(v, vdupq_n_u8(15));
        (vzip1q_u8(hi, lo), vzip2q_u8(hi, lo))
    }
}

/// The inverse of [`expand`].
#[inline(always)]
fn compact(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
    // SAFETY: NEON is enabled wherever this module is built (the gate on `mod aarch64`).
    unsafe { vsliq_n_u8::<4>(vuzp2q_u8(a, b), vuzp1q_u8(a, b)) }
}

/// Nibble gather `out[q] = in[src]` over halves of `2 * p.len()` nibbles, as `TBL` indices
/// per output register over the whole half (0..32).
const fn gather_tables(p: &[usize]) -> [[u8; 16]; 2] {
    let mut t = [[0u8; 16]; 2];
    let mut q = 0;
    while q < 2 * p.len() {
        t[q / 16][q % 16] = (2 * p[q / 2] + q % 2) as u8;
        q += 1;
    }
    t
}

/// `TBL` indices that rotate every 8-nibble word left by `r` nibbles.
const fn rotation(r: usize) -> [u8; 16] {
    let mut t = [0u8; 16];
    let mut q = 0;
    while q < 16 {
        t[q] = (q / 8 * 8 + (q % 8 + r) % 8) as u8;
        q += 1;
    }
    t
}

/// The constant registers of the round function.
struct Tables {
    sbox: uint8x16_t,
    sbox_inv: uint8x16_t,
    rot4: uint8x16_t,
    rot8: uint8x16_t,
    rot20: uint8x16_t,
    pl: Half,
    pr: Half,
    pl_inv: Half,
    pr_inv: Half,
}

impl Tables {
    #[inline(always)]
    fn new<V: Variant>() -> Self {
        let half = |t: [[u8; 16]; 2]| [load16(&t[0]), load16(&t[1])];
        Tables {
            sbox: load16(&SBOX),
            sbox_inv: load16(&SBOX_INV),
            rot4: load16(&const { rotation(1) }),
            rot8: load16(&const { rotation(2) }),
            rot20: load16(&const { rotation(5) }),
            pl: half(const { gather_tables(V::PL) }),
            pr: half(const { gather_tables(V::PR) }),
            pl_inv: half(const { gather_tables(V::PL_INV) }),
            pr_inv: half(const { gather_tables(V::PR_INV) }),
        }
    }
}

/// `f` on every register of a half that holds state.
#[inline(always)]
fn map<V: Variant>(x: &Half, f: impl Fn(uint8x16_t) -> uint8x16_t) -> Half {
    if regs::<V>() == 1 {
        [f(x[0]), x[1]]
    } else {
        [f(x[0]), f(x[1])]
    }
}

/// `x ^ y` register by register.
#[inline(always)]
fn xor<V: Variant>(x: &Half, y: &Half) -> Half {
    if regs::<V>() == 1 {
        [eor(x[0], y[0]), x[1]]
    } else {
        [eor(x[0], y[0]), eor(x[1], y[1])]
    }
}

/// A nibble gather over a half with the tables `t`.
#[inline(always)]
fn gather<V: Variant>(x: &Half, t: &Half) -> Half {
    if regs::<V>() == 1 {
        [tbl(x[0], t[0]), x[1]]
    } else {
        [tbl2(x[0], x[1], t[0]), tbl2(x[0], x[1], t[1])]
    }
}

/// One block's bytes as two halves of nibbles.
#[inline(always)]
fn load_block<V: Variant>(b: &[u8]) -> Block {
    if regs::<V>() == 1 {
        let (l, r) = expand(load(b));
        [[l, zero()], [r, zero()]]
    } else {
        let (l0, l1) = expand(load(&b[..16]));
        let (r0, r1) = expand(load(&b[16..32]));
        [[l0, l1], [r0, r1]]
    }
}

#[inline(always)]
fn store_block<V: Variant>(x: &Block, out: &mut [u8]) {
    if regs::<V>() == 1 {
        store(compact(x[0][0], x[1][0]), out);
    } else {
        store(compact(x[0][0], x[0][1]), &mut out[..16]);
        store(compact(x[1][0], x[1][1]), &mut out[16..32]);
    }
}

/// Folded round key `i` as `[A_i, B_i]` (`RK_0` for `i = 0`).
#[inline(always)]
fn round_key<V: Variant>(k: &NibbleKeys, i: usize) -> Block {
    let row = &k.0[i];
    let n = V::BLOCK;
    let half = |h: usize| {
        if regs::<V>() == 1 {
            [load(&row[h * n..]), zero()]
        } else {
            [load(&row[h * n..]), load(&row[h * n + 16..])]
        }
    };
    [half(0), half(1)]
}

/// Encrypts `N` blocks held as nibbles, already XORed with `RK_0`, one step of every block
/// after the other.
#[inline(always)]
fn encrypt_rounds<V: Variant, const N: usize>(t: &Tables, k: &NibbleKeys, x: &mut [Block; N]) {
    for i in 1..=V::ROUNDS {
        encrypt_round::<V, N>(t, &round_key::<V>(k, i), x);
    }
}

/// One round on `N` blocks with the folded key `[A_i, B_i]`.
#[inline(always)]
fn encrypt_round<V: Variant, const N: usize>(t: &Tables, k: &Block, x: &mut [Block; N]) {
    let [ka, kb] = k;
    {
        let mut a = [[zero(); 2]; N];
        let mut b = [[zero(); 2]; N];
        for n in 0..N {
            a[n] = map::<V>(&x[n][0], |v| tbl(t.sbox, v));
            b[n] = map::<V>(&x[n][1], |v| tbl(t.sbox, v));
        }
        for n in 0..N {
            b[n] = xor::<V>(&b[n], &a[n]);
        }
        for n in 0..N {
            a[n] = xor::<V>(&a[n], &map::<V>(&b[n], |v| tbl(v, t.rot4)));
        }
        for n in 0..N {
            b[n] = xor::<V>(&b[n], &map::<V>(&a[n], |v| tbl(v, t.rot8)));
        }
        for n in 0..N {
            a[n] = xor::<V>(&a[n], &map::<V>(&b[n], |v| tbl(v, t.rot8)));
        }
        for n in 0..N {
            let r = map::<V>(&a[n], |v| tbl(v, t.rot20));
            b[n] = xor::<V>(&xor::<V>(&b[n], kb), &r);
        }
        for n in 0..N {
            a[n] = xor::<V>(&xor::<V>(&a[n], ka), &b[n]);
        }
        for n in 0..N {
            x[n] = [gather::<V>(&a[n], &t.pl), gather::<V>(&b[n], &t.pr)];
        }
    }
}

/// Decrypts `N` blocks held as nibbles, up to (not including) the final XOR with `RK_0`.
#[inline(always)]
fn decrypt_rounds<V: Variant, const N: usize>(t: &Tables, k: &NibbleKeys, x: &mut [Block; N]) {
    for i in (1..=V::ROUNDS).rev() {
        let [ka, kb] = round_key::<V>(k, i);
        let mut a = [[zero(); 2]; N];
        let mut b = [[zero(); 2]; N];
        for n in 0..N {
            b[n] = gather::<V>(&x[n][1], &t.pr_inv);
            a[n] = xor::<V>(&xor::<V>(&gather::<V>(&x[n][0], &t.pl_inv), &ka), &b[n]);
        }
        for n in 0..N {
            let r = map::<V>(&a[n], |v| tbl(v, t.rot20));
            b[n] = xor::<V>(&xor::<V>(&b[n], &kb), &r);
        }
        for n in 0..N {
            a[n] = xor::<V>(&a[n], &map::<V>(&b[n], |v| tbl(v, t.rot8)));
        }
        for n in 0..N {
            b[n] = xor::<V>(&b[n], &map::<V>(&a[n], |v| tbl(v, t.rot8)));
        }
        for n in 0..N {
            a[n] = xor::<V>(&a[n], &map::<V>(&b[n], |v| tbl(v, t.rot4)));
        }
        for n in 0..N {
            b[n] = xor::<V>(&b[n], &a[n]);
        }
        for n in 0..N {
            x[n] = [
                map::<V>(&a[n], |v| tbl(t.sbox_inv, v)),
                map::<V>(&b[n], |v| tbl(t.sbox_inv, v)),
            ];
        }
    }
}

#[inline(always)]
fn xor_block<V: Variant>(x: &Block, k: &Block) -> Block {
    [xor::<V>(&x[0], &k[0]), xor::<V>(&x[1], &k[1])]
}

/// ECB over `N` whole blocks at the front of `chunk`.
#[inline(always)]
fn ecb_group<V: Variant, const N: usize, const DECRYPT: bool>(
    t: &Tables,
    k: &NibbleKeys,
    chunk: &mut [u8],
) {
    let k0 = round_key::<V>(k, 0);
    let mut x = [[[zero(); 2]; 2]; N];
    for (n, block) in x.iter_mut().zip(chunk.chunks_exact(V::BLOCK)) {
        *n = load_block::<V>(block);
    }
    if DECRYPT {
        decrypt_rounds::<V, N>(t, k, &mut x);
        for n in x.iter_mut() {
            *n = xor_block::<V>(n, &k0);
        }
    } else {
        for n in x.iter_mut() {
            *n = xor_block::<V>(n, &k0);
        }
        encrypt_rounds::<V, N>(t, k, &mut x);
    }
    for (n, block) in x.iter().zip(chunk.chunks_exact_mut(V::BLOCK)) {
        store_block::<V>(n, block);
    }
}

/// Blocks in flight per ECB step: four 128-bit blocks (eight state registers), two
/// 256-bit ones (also eight).
pub(super) const fn wide<V: Variant>() -> usize {
    if V::BLOCK == 16 { 4 } else { 2 }
}

#[inline(always)]
fn ecb_nibbles<V: Variant, const DECRYPT: bool>(k: &NibbleKeys, buf: &mut [u8]) {
    let t = Tables::new::<V>();
    let n = V::BLOCK;
    let mut chunks = buf.chunks_exact_mut(wide::<V>() * n);
    for chunk in &mut chunks {
        if V::BLOCK == 16 {
            ecb_group::<V, 4, DECRYPT>(&t, k, chunk);
        } else {
            ecb_group::<V, 2, DECRYPT>(&t, k, chunk);
        }
    }
    let tail = chunks.into_remainder();
    match tail.len() / n {
        3 => ecb_group::<V, 3, DECRYPT>(&t, k, tail),
        2 => ecb_group::<V, 2, DECRYPT>(&t, k, tail),
        1 => ecb_group::<V, 1, DECRYPT>(&t, k, tail),
        _ => {}
    }
}

/// CBC encryption with the chain kept in nibble form: per block the only work on the chain
/// is one XOR and the rounds.
#[inline(always)]
fn cbc_encrypt_nibbles<V: Variant>(k: &NibbleKeys, iv: &mut [u8], buf: &mut [u8]) {
    let t = Tables::new::<V>();
    let k0 = round_key::<V>(k, 0);
    let mut chain = [load_block::<V>(iv)];
    for block in buf.chunks_exact_mut(V::BLOCK) {
        let p = xor_block::<V>(&load_block::<V>(block), &k0);
        chain[0] = xor_block::<V>(&p, &chain[0]);
        encrypt_rounds::<V, 1>(&t, k, &mut chain);
        store_block::<V>(&chain[0], block);
    }
    store_block::<V>(&chain[0], iv);
}

/// Multiplication by 2 in GF(2^4) mod x^4 + x + 1, for the key schedule.
const TIMES_TWO: [u8; 16] = [0, 2, 4, 6, 8, 10, 12, 14, 3, 1, 7, 5, 11, 9, 15, 13];

/// RC_i as nibbles 0..8 of a register (the leftmost 32 bits of K0), zero elsewhere.
const fn rc_nibbles() -> [[u8; 16]; 24] {
    let mut t = [[0u8; 16]; 24];
    let mut i = 0;
    while i < 24 {
        let mut j = 0;
        while j < 8 {
            t[i][j] = ((RC[i] >> (28 - 4 * j)) & 15) as u8;
            j += 1;
        }
        i += 1;
    }
    t
}

/// The first 16 entries of a key-schedule nibble gather as `TBL` indices.
const fn pk_table(pk: &[usize]) -> [u8; 16] {
    let mut t = [0u8; 16];
    let mut q = 0;
    while q < 16 {
        t[q] = pk[q] as u8;
        q += 1;
    }
    t
}

/// The two 64-bit halves of a register exchanged.
#[inline(always)]
fn swap_halves(v: uint8x16_t) -> uint8x16_t {
    // SAFETY: NEON is enabled wherever this module is built (the gate on `mod aarch64`).
    unsafe { vextq_u8::<8>(v, v) }
}

/// The low 64 bits of `lo` below the high 64 bits of `hi`.
#[inline(always)]
fn low_high(lo: uint8x16_t, hi: uint8x16_t) -> uint8x16_t {
    // SAFETY: NEON is enabled wherever this module is built (the gate on `mod aarch64`).
    unsafe { vcombine_u8(vget_low_u8(lo), vget_high_u8(hi)) }
}

/// The key schedule on registers of nibbles: `K0||K1` and `K2||K3` for 128-bit keys,
/// `K0`..`K3` one register each for 256-bit keys. The S-box and the doubling are `TBL`
/// lookups in registers.
#[inline(always)]
fn expand_key_nibbles<V: Variant>(key: &[u8], rk: &mut RoundKeys) {
    let sbox = load16(&SBOX);
    let times_two = load16(&TIMES_TWO);
    let rc = const { rc_nibbles() };
    rk.0[0][..V::BLOCK].copy_from_slice(&key[..V::BLOCK]);
    if V::KEY == 16 {
        let pk = load16(&const { pk_table(&PK1) });
        let (mut k01, mut k23) = expand(load(key));
        for (row, rc) in rk.0[1..=V::ROUNDS].iter_mut().zip(rc.iter()) {
            k01 = tbl(k01, pk);
            let s = tbl(sbox, eor(k01, load16(rc)));
            let t = tbl(times_two, k01);
            let k10 = swap_halves(k01);
            k01 = eor(k23, low_high(s, t));
            k23 = k10;
            store(compact(k01, k23), &mut row[..16]);
        }
    } else {
        let pk = load16(&const { pk_table(V::PK) });
        let (mut k0, mut k1) = expand(load(&key[..16]));
        let (mut k2, mut k3) = expand(load(&key[16..32]));
        for (row, rc) in rk.0[1..=V::ROUNDS].iter_mut().zip(rc.iter()) {
            k0 = tbl(k0, pk);
            k1 = swap_halves(k1);
            let n2 = eor(k2, tbl(sbox, eor(k0, load16(rc))));
            let n3 = eor(k3, tbl(times_two, k1));
            (k0, k1, k2, k3) = (n2, n3, k1, k0);
            store(compact(k0, k1), &mut row[..16]);
            if V::BLOCK == 32 {
                store(compact(k2, k3), &mut row[16..32]);
            }
        }
    }
}

/// The key register of the schedule as nibbles, stepped one update at a time: `K0||K1`
/// and `K2||K3` for 128-bit keys, `K0`..`K3` one register each for 256-bit keys.
struct KeyRegister([uint8x16_t; 4]);

impl KeyRegister {
    #[inline(always)]
    fn new<V: Variant>(key: &[u8]) -> Self {
        if V::KEY == 16 {
            let (k01, k23) = expand(load(key));
            KeyRegister([k01, k23, zero(), zero()])
        } else {
            let (k0, k1) = expand(load(&key[..16]));
            let (k2, k3) = expand(load(&key[16..32]));
            KeyRegister([k0, k1, k2, k3])
        }
    }

    /// Update `i + 1` of the schedule (`RC[i]`).
    #[inline(always)]
    fn step<V: Variant>(&mut self, i: usize, sbox: uint8x16_t, times_two: uint8x16_t) {
        let rc = const { rc_nibbles() };
        let [k0, k1, k2, k3] = self.0;
        if V::KEY == 16 {
            let k01 = tbl(k0, load16(&const { pk_table(&PK1) }));
            let s = tbl(sbox, eor(k01, load16(&rc[i])));
            let t = tbl(times_two, k01);
            self.0 = [eor(k1, low_high(s, t)), swap_halves(k01), k2, k3];
        } else {
            let k0 = tbl(k0, load16(&const { pk_table(V::PK) }));
            let k1 = swap_halves(k1);
            let n2 = eor(k2, tbl(sbox, eor(k0, load16(&rc[i]))));
            let n3 = eor(k3, tbl(times_two, k1));
            self.0 = [n2, n3, k1, k0];
        }
    }

    /// The round key the register holds (its first `V::BLOCK` bytes), folded.
    #[inline(always)]
    fn folded<V: Variant>(&self, t: &Tables) -> Block {
        let [k0, k1, k2, k3] = self.0;
        let (l, r) = if V::BLOCK == 16 {
            ([k0, zero()], [k1, zero()])
        } else {
            ([k0, k1], [k2, k3])
        };
        let b = gather::<V>(&r, &t.pr_inv);
        [xor::<V>(&gather::<V>(&l, &t.pl_inv), &b), b]
    }
}

/// Encrypts one block with the key schedule run alongside the rounds (the schedule's chain
/// is a third of the round's), without storing any round key.
#[inline(always)]
fn encrypt_one_with_key_nibbles<V: Variant>(key: &[u8], block: &mut [u8]) {
    let t = Tables::new::<V>();
    let sbox = load16(&SBOX);
    let times_two = load16(&TIMES_TWO);
    let mut reg = KeyRegister::new::<V>(key);
    let rk0 = if V::BLOCK == 16 {
        [[reg.0[0], zero()], [reg.0[1], zero()]]
    } else {
        [[reg.0[0], reg.0[1]], [reg.0[2], reg.0[3]]]
    };
    let mut x = [xor_block::<V>(&load_block::<V>(block), &rk0)];
    for i in 0..V::ROUNDS {
        reg.step::<V>(i, sbox, times_two);
        encrypt_round::<V, 1>(&t, &reg.folded::<V>(&t), &mut x);
    }
    store_block::<V>(&x[0], block);
}

#[kernel(UBLOCK_NEON)]
fn one_kernel<V: Variant>(key: &[u8], block: &mut [u8]) {
    encrypt_one_with_key_nibbles::<V>(key, block);
}

/// Encrypts one block (`V::BLOCK` bytes of `block`) under `key` (`V::KEY` bytes) without a
/// stored schedule; declined (nothing done) without NEON or on other lengths.
pub(super) fn encrypt_one_with_key<V: Variant>(key: &[u8], block: &mut [u8]) -> Ran {
    if key.len() != V::KEY || block.len() != V::BLOCK {
        return Ran::Declined;
    }
    checked!(kernels::UBLOCK_NEON => {
        // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
        unsafe { one_kernel::<V>(key, block) }
    })
}

#[kernel(UBLOCK_NEON)]
fn key_kernel<V: Variant>(key: &[u8], rk: &mut RoundKeys) {
    expand_key_nibbles::<V>(key, rk);
}

/// The key schedule into `rk`; declined (nothing done) without NEON or on another key
/// length.
pub(super) fn expand_key<V: Variant>(key: &[u8], rk: &mut RoundKeys) -> Ran {
    if key.len() != V::KEY {
        return Ran::Declined;
    }
    checked!(kernels::UBLOCK_NEON => {
        // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
        unsafe { key_kernel::<V>(key, rk) }
    })
}

#[kernel(UBLOCK_NEON)]
fn ecb_encrypt_kernel<V: Variant>(k: &NibbleKeys, buf: &mut [u8]) {
    ecb_nibbles::<V, false>(k, buf);
}

#[kernel(UBLOCK_NEON)]
fn ecb_decrypt_kernel<V: Variant>(k: &NibbleKeys, buf: &mut [u8]) {
    ecb_nibbles::<V, true>(k, buf);
}

#[kernel(UBLOCK_NEON)]
fn cbc_encrypt_kernel<V: Variant>(k: &NibbleKeys, iv: &mut [u8], buf: &mut [u8]) {
    cbc_encrypt_nibbles::<V>(k, iv, buf);
}

/// ECB over whole blocks, either direction; declined (nothing done) without NEON.
pub(super) fn ecb<V: Variant>(k: &NibbleKeys, buf: &mut [u8], decrypt: bool) -> Ran {
    checked!(kernels::UBLOCK_NEON => {
        // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
        unsafe {
            if decrypt {
                ecb_decrypt_kernel::<V>(k, buf);
            } else {
                ecb_encrypt_kernel::<V>(k, buf);
            }
        }
    })
}

/// CBC encryption of one stream; declined (nothing done) without NEON.
pub(super) fn cbc_encrypt<V: Variant>(k: &NibbleKeys, iv: &mut [u8], buf: &mut [u8]) -> Ran {
    checked!(kernels::UBLOCK_NEON => {
        // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
        unsafe { cbc_encrypt_kernel::<V>(k, iv, buf) }
    })
}
