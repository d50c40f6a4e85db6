//! Fully bitsliced uBlock: one register per bit of the state, `8 * BYTES` blocks per batch
//! (512 blocks in 512-bit registers: 8 KiB of uBlock-128, 16 KiB of uBlock-256/256).
//!
//! In the bit-planes-inside-the-nibble layout of [`super::planes`] a round spends 16
//! rotations and 8 shuffles per batch on moving nibbles inside registers. Here register
//! `8k + t` holds bit `t` of state byte `k` of every block, so the word rotations and PL/PR
//! only choose which register is read or written: a round is the S-box (five three-input
//! operations per nibble) and five three-input XORs per pair of linear-layer positions, 480
//! operations for a 128-bit state against 928 for the same 512 blocks in bit-planes. The
//! price is the transposition into and out of this form, in [`transpose`].
//!
//! The state does not fit the register file; it lives in two arrays, a round reading one
//! and writing the other. The linear layer falls apart into independent groups: word `w`
//! of both halves at one bit-plane `j`, eight nibble positions each, since the rotations
//! stay inside a word and the XORs between halves keep the position. Encryption computes
//! the S-box of a word for two planes at a time (planes {0, 2} and {1, 3} share no terms)
//! and feeds it to those planes' groups in registers; a group's results are stored straight
//! to their places after PL/PR. With 16 registers (AVX2) the waiting planes would spill, so
//! encryption there runs the whole S-box first, as decryption always runs the groups first.
//!
//! What bounds it on the machines measured is the memory traffic beside the three-input
//! XORs: a 512-bit store issued among VPTERNLOGD takes the place of about two of them (16
//! stores among 32 VPTERNLOGD run in 27 to 30 cycles instead of 16, among 32 VPXORD in 17),
//! and a 512-bit load about half of one. An encryption round of uBlock-128/128 compiles to
//! 416 VPTERNLOGD, 64 VPXORD, 146 stores (the 128 of the state and 18 spills) and 270
//! loads besides the key broadcasts, 92 of them folded into the VPTERNLOGD: for the plane
//! waiting for its group, the compiler reads the S-box inputs again from the state rather
//! than keeping the outputs. That choice depends on how the two states are held (see
//! `modes::new_states`); held as two arrays, the same code spilled the waiting plane (248
//! stores) and ran 10 to 15% slower. The transposition takes about a quarter of an ECB
//! batch (`docs/perf/ublock.md`), for the same reason: two stores and two loads per
//! register each way. The kernel is close to the bit-planes
//! kernel for ECB and ahead of it in CTR, which makes its counter blocks without
//! transposing them; uBlock-256/256 gains most, its 256-bit block needing two registers per
//! plane in the bit-planes layout.
//!
//! Encryption of one group, with `r^k` the rotation by `k` nibbles (`X <<<32 4k`) and the
//! round keys folded as in [`super::planes`] (`A`, `B`):
//! ```text
//! a1 = a ^ r(b ^ a)        = a ^ r b ^ r a
//! b1 = (b ^ a) ^ r^2 a1    = b ^ a ^ r^2 a1
//! a2 = a1 ^ r^2 b1
//! b2 = b1 ^ r^5 a2 ^ B
//! a3 = a2 ^ b2 ^ A
//! ```
//! (the intermediate `b ^ a` of the specification never needs to exist). Decryption
//! inverts it with the same count:
//! ```text
//! a2 = a3 ^ b2 ^ A;  b1 = b2 ^ r^5 a2 ^ B;  a1 = a2 ^ r^2 b1
//! a  = a1 ^ r b1 ^ r^3 a1;  b = b1 ^ r^2 a1 ^ a
//! ```
//! Round keys are one 32-bit mask (zero or all ones) per bit, broadcast from memory into
//! the three-input XORs, so the key costs no operation of its own.

use super::planes::{Lanes, folded};
use super::{RoundKeys, Variant};

pub(super) use transpose::{BITS, Sliced};

mod modes;
pub(in crate::ublock) mod transpose;

#[cfg(feature = "kernel-parts")]
pub(super) use modes::ecb_part;
pub(super) use modes::{cbc_decrypt, ctr, ecb};

/// Bytes of one batch of variant `V` on registers `L`.
pub(super) const fn batch_bytes<L: Lanes, V: Variant>() -> usize {
    8 * L::BYTES * V::BLOCK
}

/// Round keys as masks: `first` is `RK_0` per state bit; `fold[i - 1]` holds `A_i` and `B_i`
/// per linear-layer position `8 * (4w + j) + p` (word `w`, plane `j`, nibble `p`).
#[derive(Clone)]
pub(crate) struct SliceKeys {
    first: [u32; BITS],
    fold: [[[u32; BITS / 2]; 2]; 24],
}

impl SliceKeys {
    pub(crate) fn wipe(&mut self) {
        crate::wipe::array(&mut self.first);
        crate::wipe::u32s(self.fold.as_flattened_mut().as_flattened_mut());
    }
}

impl Drop for SliceKeys {
    fn drop(&mut self) {
        self.wipe();
    }
}

/// All ones if bit `t` of `byte` is set, else zero, without a branch.
#[inline(always)]
fn mask(byte: u8, t: usize) -> u32 {
    0u32.wrapping_sub(u32::from((byte >> t) & 1))
}

/// Bit `t` of byte `k` for nibble `n` of a half at plane `j`: nibble 0 is the high nibble.
const fn nibble_bit(n: usize, j: usize) -> (usize, usize) {
    (n / 2, j + 4 * (1 - n % 2))
}

/// The key masks of one cipher.
pub(super) fn slice_keys<V: Variant>(rk: &RoundKeys) -> SliceKeys {
    let f = folded::<V>(rk);
    let h = V::BLOCK / 2;
    let mut out = SliceKeys {
        first: [0; BITS],
        fold: [[[0; BITS / 2]; 2]; 24],
    };
    for k in 0..V::BLOCK {
        for t in 0..8 {
            out.first[8 * k + t] = mask(f.0[0][k], t);
        }
    }
    for i in 1..=V::ROUNDS {
        let row = &f.0[i];
        for w in 0..h / 4 {
            for j in 0..4 {
                for p in 0..8 {
                    let (k, t) = nibble_bit(8 * w + p, j);
                    let at = 8 * (4 * w + j) + p;
                    out.fold[i - 1][0][at] = mask(row[k], t);
                    out.fold[i - 1][1][at] = mask(row[h + k], t);
                }
            }
        }
    }
    out
}

/// Registers of the linear layer's positions: for position `8 * (4w + j) + p`, where `a`
/// (X0) and `b` (X1) are read after the S-box, and where they are written after PL and PR.
#[derive(Copy, Clone)]
struct Places {
    a_in: [u16; BITS / 2],
    b_in: [u16; BITS / 2],
    a_out: [u16; BITS / 2],
    b_out: [u16; BITS / 2],
}

const fn inverse(p: &[usize], i: usize) -> usize {
    let mut o = 0;
    while p[o] != i {
        o += 1;
    }
    o
}

const fn places(pl: &[usize], pr: &[usize], block: usize) -> Places {
    let h = block / 2;
    let mut out = Places {
        a_in: [0; BITS / 2],
        b_in: [0; BITS / 2],
        a_out: [0; BITS / 2],
        b_out: [0; BITS / 2],
    };
    let mut w = 0;
    while w < h / 4 {
        let mut j = 0;
        while j < 4 {
            let mut p = 0;
            while p < 8 {
                let n = 8 * w + p;
                let (k, t) = nibble_bit(n, j);
                let at = 8 * (4 * w + j) + p;
                out.a_in[at] = (8 * k + t) as u16;
                out.b_in[at] = (8 * (h + k) + t) as u16;
                // Byte `k` of a half lands at `o` with `P[o] = k`, its nibbles unchanged.
                out.a_out[at] = (8 * inverse(pl, k) + t) as u16;
                out.b_out[at] = (8 * (h + inverse(pr, k)) + t) as u16;
                p += 1;
            }
            j += 1;
        }
        w += 1;
    }
    out
}

/// A register index from [`Places`]; the mask (a no-op on valid entries) lets the compiler
/// drop the bounds checks.
#[inline(always)]
fn reg(r: u16) -> usize {
    usize::from(r) & (BITS - 1)
}

#[inline(always)]
fn key<L: Lanes>(t: L::Token, m: u32) -> L {
    L::splat(t, m)
}

/// `x[(p + k) % 8]`: nibble `p` of the word rotated left by `k` nibbles.
#[inline(always)]
fn rot<L: Copy>(x: &[L; 8], p: usize, k: usize) -> L {
    x[(p + k) % 8]
}

/// Calls `$f::<L, V, G>(args)` for every linear-layer group `G` of the widest state; each
/// returns at once past the variant's groups. With `G` a constant, every register index of a
/// group is a constant, so the state is addressed directly instead of through the tables.
macro_rules! every_group {
    ($f:ident, $($arg:expr),*) => {
        $f::<L, V, 0>($($arg),*);
        $f::<L, V, 1>($($arg),*);
        $f::<L, V, 2>($($arg),*);
        $f::<L, V, 3>($($arg),*);
        $f::<L, V, 4>($($arg),*);
        $f::<L, V, 5>($($arg),*);
        $f::<L, V, 6>($($arg),*);
        $f::<L, V, 7>($($arg),*);
        $f::<L, V, 8>($($arg),*);
        $f::<L, V, 9>($($arg),*);
        $f::<L, V, 10>($($arg),*);
        $f::<L, V, 11>($($arg),*);
        $f::<L, V, 12>($($arg),*);
        $f::<L, V, 13>($($arg),*);
        $f::<L, V, 14>($($arg),*);
        $f::<L, V, 15>($($arg),*);
    };
}

/// Calls `$f::<L, V, W>(args)` for every word `W` of a half of the widest state; each
/// returns at once past the variant's words.
macro_rules! every_word {
    ($f:ident, $($arg:expr),*) => {
        $f::<L, V, 0>($($arg),*);
        $f::<L, V, 1>($($arg),*);
        $f::<L, V, 2>($($arg),*);
        $f::<L, V, 3>($($arg),*);
    };
}

/// The S-box outputs of word `W` of both halves at planes `P` and `Q`: `[a_P, b_P, a_Q,
/// b_Q]`, nibble by nibble. The S-box splits into planes {0, 2} and {1, 3} with no shared
/// terms, so the two calls per word compute each output once; the other planes' terms are
/// dead code.
#[inline(always)]
#[allow(clippy::needless_range_loop)] // the nibble indexes the state and four outputs
fn sbox_word<L: Lanes, V: Variant, const W: usize, const P: usize, const Q: usize>(
    s: &Sliced<L>,
) -> [[L; 8]; 4] {
    let h = V::BLOCK / 2;
    let mut out = [[s[0]; 8]; 4];
    for p in 0..8 {
        for half in 0..2 {
            let (k, t) = nibble_bit(8 * W + p, 0);
            let at = 8 * (half * h + k) + t;
            let y = L::sbox([s[at], s[at + 1], s[at + 2], s[at + 3]]);
            out[half][p] = y[P];
            out[2 + half][p] = y[Q];
        }
    }
    out
}

/// The linear layer and key of one round for group `g` (word `g / 4`, plane `g % 4`), from
/// the S-box outputs `a` (X0) and `b` (X1) to their places after PL/PR in `s`.
#[inline(always)]
fn encrypt_group<L: Lanes, V: Variant>(
    g: usize,
    a: [L; 8],
    b: [L; 8],
    s: &mut Sliced<L>,
    fold: &[[u32; BITS / 2]; 2],
) {
    let pl = const { &places(V::PL, V::PR, V::BLOCK) };
    let tk = a[0].token();
    let at = 8 * g;
    let mut a1 = a;
    for p in 0..8 {
        a1[p] = a[p].xor3(rot(&b, p, 1), rot(&a, p, 1));
    }
    let mut b1 = b;
    for p in 0..8 {
        b1[p] = b[p].xor3(a[p], rot(&a1, p, 2));
    }
    let mut a2 = a1;
    for p in 0..8 {
        a2[p] = a1[p].xor(rot(&b1, p, 2));
    }
    let mut b2 = b1;
    for p in 0..8 {
        b2[p] = b1[p].xor3(rot(&a2, p, 5), key(tk, fold[1][at + p]));
    }
    for p in 0..8 {
        let a3 = a2[p].xor3(b2[p], key(tk, fold[0][at + p]));
        s[reg(pl.a_out[at + p])] = a3;
        s[reg(pl.b_out[at + p])] = b2[p];
    }
}

/// One round for word `W` of both halves: S-box from `s`, linear layer and key, results
/// to `o` (which must not be `s`: PL/PR scatter them over every word).
#[inline(always)]
fn encrypt_word<L: Lanes, V: Variant, const W: usize>(
    s: &Sliced<L>,
    o: &mut Sliced<L>,
    fold: &[[u32; BITS / 2]; 2],
) {
    if W >= V::BLOCK / 8 {
        return;
    }
    let [a0, b0, a2, b2] = sbox_word::<L, V, W, 0, 2>(s);
    encrypt_group::<L, V>(4 * W, a0, b0, o, fold);
    encrypt_group::<L, V>(4 * W + 2, a2, b2, o, fold);
    let [a3, b3, a1, b1] = sbox_word::<L, V, W, 3, 1>(s);
    encrypt_group::<L, V>(4 * W + 3, a3, b3, o, fold);
    encrypt_group::<L, V>(4 * W + 1, a1, b1, o, fold);
}

/// [`encrypt_group`] for group `G` with its S-box outputs read from `t`.
#[inline(always)]
fn encrypt_group_from<L: Lanes, V: Variant, const G: usize>(
    t: &Sliced<L>,
    s: &mut Sliced<L>,
    fold: &[[u32; BITS / 2]; 2],
) {
    if G >= V::BLOCK / 2 {
        return;
    }
    let pl = const { &places(V::PL, V::PR, V::BLOCK) };
    let mut a = [t[0]; 8];
    let mut b = [t[0]; 8];
    for p in 0..8 {
        a[p] = t[reg(pl.a_in[8 * G + p])];
        b[p] = t[reg(pl.b_in[8 * G + p])];
    }
    encrypt_group::<L, V>(G, a, b, s, fold);
}

/// The inverse of [`encrypt_group`]: from their places in `s` to the S-box inputs in `t`.
#[inline(always)]
fn decrypt_group<L: Lanes, V: Variant, const G: usize>(
    s: &Sliced<L>,
    t: &mut Sliced<L>,
    fold: &[[u32; BITS / 2]; 2],
) {
    if G >= V::BLOCK / 2 {
        return;
    }
    let pl = const { &places(V::PL, V::PR, V::BLOCK) };
    let at = 8 * G;
    let tk = s[0].token();
    let mut a3 = [s[0]; 8];
    let mut b2 = [s[0]; 8];
    for p in 0..8 {
        a3[p] = s[reg(pl.a_out[at + p])];
        b2[p] = s[reg(pl.b_out[at + p])];
    }
    let mut a2 = a3;
    for p in 0..8 {
        a2[p] = a3[p].xor3(b2[p], key(tk, fold[0][at + p]));
    }
    let mut b1 = b2;
    for p in 0..8 {
        b1[p] = b2[p].xor3(rot(&a2, p, 5), key(tk, fold[1][at + p]));
    }
    let mut a1 = a2;
    for p in 0..8 {
        a1[p] = a2[p].xor(rot(&b1, p, 2));
    }
    for p in 0..8 {
        let a = a1[p].xor3(rot(&b1, p, 1), rot(&a1, p, 3));
        let b = b1[p].xor3(rot(&a1, p, 2), a);
        t[reg(pl.a_in[at + p])] = a;
        t[reg(pl.b_in[at + p])] = b;
    }
}

/// Encrypts one batch in place; `t` is scratch of the same size.
#[inline(always)]
pub(super) fn encrypt<L: Lanes, V: Variant>(
    s: &mut Sliced<L>,
    t: &mut Sliced<L>,
    keys: &SliceKeys,
) {
    let bits = 8 * V::BLOCK;
    let tk = s[0].token();
    for (x, k) in s[..bits].iter_mut().zip(&keys.first[..bits]) {
        *x = x.xor(key(tk, *k));
    }
    if L::BYTES < 64 {
        // With 16 registers the planes waiting for their group would spill: the whole
        // S-box goes to `t` first, and the groups read it from there.
        for fold in &keys.fold[..V::ROUNDS] {
            for (x, y) in s[..bits].chunks_exact(4).zip(t[..bits].chunks_exact_mut(4)) {
                let [y0, y1, y2, y3] = L::sbox([x[0], x[1], x[2], x[3]]);
                (y[0], y[1], y[2], y[3]) = (y0, y1, y2, y3);
            }
            every_group!(encrypt_group_from, t, s, fold);
        }
        return;
    }
    // Rounds alternate between the two arrays; every variant has an even number of rounds,
    // so the result ends in `s`.
    let (mut from, mut to) = (s, t);
    for fold in &keys.fold[..V::ROUNDS] {
        every_word!(encrypt_word, from, to, fold);
        core::mem::swap(&mut from, &mut to);
    }
}

/// Decrypts one batch in place; `t` is scratch of the same size.
#[inline(always)]
pub(super) fn decrypt<L: Lanes, V: Variant>(
    s: &mut Sliced<L>,
    t: &mut Sliced<L>,
    keys: &SliceKeys,
) {
    let bits = 8 * V::BLOCK;
    for fold in keys.fold[..V::ROUNDS].iter().rev() {
        every_group!(decrypt_group, s, t, fold);
        for (y, x) in s[..bits].chunks_exact_mut(4).zip(t[..bits].chunks_exact(4)) {
            let [y0, y1, y2, y3] = L::sbox_inv([x[0], x[1], x[2], x[3]]);
            (y[0], y[1], y[2], y[3]) = (y0, y1, y2, y3);
        }
    }
    let tk = s[0].token();
    for (x, k) in s[..bits].iter_mut().zip(&keys.first[..bits]) {
        *x = x.xor(key(tk, *k));
    }
}

/// Overwrites a state that held keystream or key-dependent values.
#[inline(always)]
pub(super) fn wipe_state<L: Lanes>(s: &mut Sliced<L>) {
    crate::wipe::set(s, [L::splat(s[0].token(), 0); BITS]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ublock::consts::{PL128, PL256, PR128, PR256};

    #[test]
    fn places_cover_every_register_once() {
        for (pl, pr, block) in [(&PL128[..], &PR128[..], 16), (&PL256[..], &PR256[..], 32)] {
            let p = places(pl, pr, block);
            let n = 4 * block;
            for regs in [[&p.a_in[..n], &p.b_in[..n]], [&p.a_out[..n], &p.b_out[..n]]] {
                let mut seen = vec![false; 8 * block];
                for &r in regs.iter().flat_map(|r| r.iter()) {
                    assert!(!seen[usize::from(r)]);
                    seen[usize::from(r)] = true;
                }
                assert!(seen.iter().all(|s| *s));
            }
        }
    }
}
