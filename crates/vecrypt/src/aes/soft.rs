//! Portable constant-time AES: fixsliced, without tables.
//!
//! The state of several blocks is held as eight bit planes in machine words (`u64`, four
//! blocks, on 64-bit targets; `u32`, two blocks, elsewhere): plane `b` holds bit `b` of every
//! byte, at bit position `ROW * row + 4 * slot + column` (`ROW` is a quarter of the word), so
//! that a whole word rotation moves rows and a rotation inside each nibble moves columns.
//!
//! SubBytes is a Boolean circuit on the planes, the depth-16 circuit of Boyar and Peralta
//! (34 AND and 94 XOR for the S-box, 34 AND and 93 XOR for its inverse, which shares the
//! non-linear middle), its NOT gates folded into the round keys: the constant `0x63` they add
//! is left unchanged by (Inv)MixColumns. ShiftRows is never computed, after Adomnicai and
//! Peyrin's fixslicing (TCHES 2021): after `i` rounds the state is kept as the true one
//! with ShiftRows undone `i` times, so MixColumns of round `i` mixes row `r` of column `c`
//! with row `r + k` of column `c + i k` (a word rotation, and for odd shifts a nibble
//! rotation), the round keys are stored with ShiftRows undone as often, and one fixed
//! permutation (ShiftRows twice, or nothing) ends the cipher. Decryption runs the same way
//! on the same keys, with the rotations counted backwards.
//!
//! Per `u64` state (64 bytes) and round: 128 gates for the S-box (127 inverse), 44 to 108
//! operations for MixColumns by the round's rotation (InvMixColumns 30 to 62 more), 8 key
//! XORs; 168 operations each way to change 64 bytes to planes and back (72 for the 32 bytes
//! of a `u32` state). AES-128 is thus about 2,500 operations per 64 bytes, some 40 per
//! byte, before register spills. Nothing depends on key or data: no branch, no memory index.

use super::common::RoundKeys;
use core::ops::{BitAnd, BitOr, BitXor, BitXorAssign, Shl, Shr};

/// A machine word holding one bit plane of the state.
pub(crate) trait Word:
    Copy
    + Default
    + BitXor<Output = Self>
    + BitXorAssign
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// Bytes of the blocks one state holds (a whole number of 16-byte blocks).
    const BYTES: usize;
    fn ror(self, n: u32) -> Self;
    /// The low bits of `pattern` (every pattern below repeats with the word's period).
    fn mask(pattern: u64) -> Self;
    /// The planes of `BYTES` bytes.
    fn slice(bytes: &[u8]) -> [Self; 8];
    /// The bytes of planes, inverse of [`Word::slice`].
    fn unslice(planes: [Self; 8], bytes: &mut [u8]);
}

/// Mask of the bit positions whose index has bit `n` clear.
const fn clear_bit(n: u32) -> u64 {
    match n {
        0 => 0x5555_5555_5555_5555,
        1 => 0x3333_3333_3333_3333,
        2 => 0x0f0f_0f0f_0f0f_0f0f,
        3 => 0x00ff_00ff_00ff_00ff,
        4 => 0x0000_ffff_0000_ffff,
        _ => 0x0000_0000_ffff_ffff,
    }
}

/// Exchanges bit `w` of the word index with bit `i` of the bit index in `x`.
#[inline(always)]
fn swap_index<W: Word>(x: &mut [W; 8], w: usize, i: u32) {
    let s = 1 << i;
    let m = W::mask(clear_bit(i));
    for j in 0..8 {
        if j & (1 << w) == 0 {
            let (a, b) = (x[j], x[j | (1 << w)]);
            let t = ((a >> s) ^ b) & m;
            x[j | (1 << w)] = b ^ t;
            x[j] = a ^ (t << s);
        }
    }
}

impl Word for u64 {
    const BYTES: usize = 64;

    #[inline(always)]
    fn ror(self, n: u32) -> Self {
        self.rotate_right(n)
    }

    #[inline(always)]
    fn mask(pattern: u64) -> Self {
        pattern
    }

    /// Word `2 block + half` is read little-endian; its bit index is then
    /// (column & 1, row, bit) and its word index (block, column >> 1). Seven exchanges of
    /// index bits bring the bit index to (row, block, column) and the word index to the bit.
    #[inline(always)]
    fn slice(bytes: &[u8]) -> [Self; 8] {
        let mut x = [0u64; 8];
        for (w, b) in x.iter_mut().zip(bytes.chunks_exact(8)) {
            *w = u64::from_le_bytes(b.try_into().unwrap_or([0; 8]));
        }
        swap_index(&mut x, 0, 4);
        swap_index(&mut x, 0, 5);
        swap_index(&mut x, 1, 3);
        swap_index(&mut x, 1, 4);
        swap_index(&mut x, 2, 2);
        swap_index(&mut x, 1, 1);
        swap_index(&mut x, 0, 0);
        x
    }

    #[inline(always)]
    fn unslice(mut x: [Self; 8], bytes: &mut [u8]) {
        swap_index(&mut x, 0, 0);
        swap_index(&mut x, 1, 1);
        swap_index(&mut x, 2, 2);
        swap_index(&mut x, 1, 4);
        swap_index(&mut x, 1, 3);
        swap_index(&mut x, 0, 5);
        swap_index(&mut x, 0, 4);
        for (w, b) in x.iter().zip(bytes.chunks_exact_mut(8)) {
            b.copy_from_slice(&w.to_le_bytes());
        }
    }
}

impl Word for u32 {
    const BYTES: usize = 32;

    #[inline(always)]
    fn ror(self, n: u32) -> Self {
        self.rotate_right(n)
    }

    #[inline(always)]
    fn mask(pattern: u64) -> Self {
        pattern as u32
    }

    /// Word `4 block + column` is one column read little-endian: bit index (row, bit), word
    /// index (block, column). Three exchanges make them (row, block, column) and (bit).
    #[inline(always)]
    fn slice(bytes: &[u8]) -> [Self; 8] {
        let mut x = [0u32; 8];
        for (w, b) in x.iter_mut().zip(bytes.chunks_exact(4)) {
            *w = u32::from_le_bytes(b.try_into().unwrap_or([0; 4]));
        }
        swap_index(&mut x, 2, 2);
        swap_index(&mut x, 1, 1);
        swap_index(&mut x, 0, 0);
        x
    }

    #[inline(always)]
    fn unslice(mut x: [Self; 8], bytes: &mut [u8]) {
        swap_index(&mut x, 0, 0);
        swap_index(&mut x, 1, 1);
        swap_index(&mut x, 2, 2);
        for (w, b) in x.iter().zip(bytes.chunks_exact_mut(4)) {
            b.copy_from_slice(&w.to_le_bytes());
        }
    }
}

/// The word of this target.
#[cfg(target_pointer_width = "64")]
type Native = u64;
#[cfg(not(target_pointer_width = "64"))]
type Native = u32;

/// The non-linear middle shared by the S-box and its inverse: from the 22 linear forms of
/// the input (and the extra form `d`) to the 18 products the bottom layer sums.
struct Middle<W> {
    m: [W; 18],
}

/// The top layer's forms the middle reads, named as in Boyar and Peralta's paper.
struct Top<W> {
    t1: W,
    t2: W,
    t3: W,
    t4: W,
    t6: W,
    t8: W,
    t9: W,
    t10: W,
    t13: W,
    t14: W,
    t15: W,
    t16: W,
    t17: W,
    t19: W,
    t20: W,
    t22: W,
    t23: W,
    t24: W,
    t25: W,
    t26: W,
    t27: W,
    d: W,
}

#[inline(always)]
fn middle<W: Word>(t: &Top<W>) -> Middle<W> {
    let m1 = t.t13 & t.t6;
    let m2 = t.t23 & t.t8;
    let m3 = t.t14 ^ m1;
    let m4 = t.t19 & t.d;
    let m5 = m4 ^ m1;
    let m6 = t.t3 & t.t16;
    let m7 = t.t22 & t.t9;
    let m8 = t.t26 ^ m6;
    let m9 = t.t20 & t.t17;
    let m10 = m9 ^ m6;
    let m11 = t.t1 & t.t15;
    let m12 = t.t4 & t.t27;
    let m13 = m12 ^ m11;
    let m14 = t.t2 & t.t10;
    let m15 = m14 ^ m11;
    let m16 = m3 ^ m2;
    let m17 = m5 ^ t.t24;
    let m18 = m8 ^ m7;
    let m19 = m10 ^ m15;
    let m20 = m16 ^ m13;
    let m21 = m17 ^ m15;
    let m22 = m18 ^ m13;
    let m23 = m19 ^ t.t25;
    let m24 = m22 ^ m23;
    let m25 = m22 & m20;
    let m26 = m21 ^ m25;
    let m27 = m20 ^ m21;
    let m28 = m23 ^ m25;
    let m29 = m28 & m27;
    let m30 = m26 & m24;
    let m31 = m20 & m23;
    let m32 = m27 & m31;
    let m33 = m27 ^ m25;
    let m34 = m21 & m22;
    let m35 = m24 & m34;
    let m36 = m24 ^ m25;
    let m37 = m21 ^ m29;
    let m38 = m32 ^ m33;
    let m39 = m23 ^ m30;
    let m40 = m35 ^ m36;
    let m41 = m38 ^ m40;
    let m42 = m37 ^ m39;
    let m43 = m37 ^ m38;
    let m44 = m39 ^ m40;
    let m45 = m42 ^ m41;
    Middle {
        m: [
            m44 & t.t6,  // m46
            m40 & t.t8,  // m47
            m39 & t.d,   // m48
            m43 & t.t16, // m49
            m38 & t.t9,  // m50
            m37 & t.t17, // m51
            m42 & t.t15, // m52
            m45 & t.t27, // m53
            m41 & t.t10, // m54
            m44 & t.t13, // m55
            m40 & t.t23, // m56
            m39 & t.t19, // m57
            m43 & t.t3,  // m58
            m38 & t.t22, // m59
            m37 & t.t20, // m60
            m42 & t.t1,  // m61
            m45 & t.t4,  // m62
            m41 & t.t2,  // m63
        ],
    }
}

/// The S-box on every byte, plus `0x63` (the circuit without its NOT gates).
#[inline(always)]
fn sub_bytes<W: Word>(s: &mut [W; 8]) {
    let (u0, u1, u2, u3, u4, u5, u6, u7) = (s[7], s[6], s[5], s[4], s[3], s[2], s[1], s[0]);
    let t1 = u0 ^ u3;
    let t2 = u0 ^ u5;
    let t3 = u0 ^ u6;
    let t4 = u3 ^ u5;
    let t5 = u4 ^ u6;
    let t6 = t1 ^ t5;
    let t7 = u1 ^ u2;
    let t8 = u7 ^ t6;
    let t9 = u7 ^ t7;
    let t10 = t6 ^ t7;
    let t11 = u1 ^ u5;
    let t12 = u2 ^ u5;
    let t13 = t3 ^ t4;
    let t14 = t6 ^ t11;
    let t15 = t5 ^ t11;
    let t16 = t5 ^ t12;
    let t17 = t9 ^ t16;
    let t18 = u3 ^ u7;
    let t19 = t7 ^ t18;
    let t20 = t1 ^ t19;
    let t21 = u6 ^ u7;
    let t22 = t7 ^ t21;
    let t23 = t2 ^ t22;
    let t24 = t2 ^ t10;
    let t25 = t20 ^ t17;
    let t26 = t3 ^ t16;
    let t27 = t1 ^ t12;
    let top = Top {
        t1,
        t2,
        t3,
        t4,
        t6,
        t8,
        t9,
        t10,
        t13,
        t14,
        t15,
        t16,
        t17,
        t19,
        t20,
        t22,
        t23,
        t24,
        t25,
        t26,
        t27,
        d: u7,
    };
    let [
        m46,
        m47,
        m48,
        m49,
        m50,
        m51,
        m52,
        m53,
        m54,
        m55,
        m56,
        m57,
        m58,
        m59,
        m60,
        m61,
        m62,
        m63,
    ] = middle(&top).m;
    let l0 = m61 ^ m62;
    let l1 = m50 ^ m56;
    let l2 = m46 ^ m48;
    let l3 = m47 ^ m55;
    let l4 = m54 ^ m58;
    let l5 = m49 ^ m61;
    let l6 = m62 ^ l5;
    let l7 = m46 ^ l3;
    let l8 = m51 ^ m59;
    let l9 = m52 ^ m53;
    let l10 = m53 ^ l4;
    let l11 = m60 ^ l2;
    let l12 = m48 ^ m51;
    let l13 = m50 ^ l0;
    let l14 = m52 ^ m61;
    let l15 = m55 ^ l1;
    let l16 = m56 ^ l0;
    let l17 = m57 ^ l1;
    let l18 = m58 ^ l8;
    let l19 = m63 ^ l4;
    let l20 = l0 ^ l1;
    let l21 = l1 ^ l7;
    let l22 = l3 ^ l12;
    let l23 = l18 ^ l2;
    let l24 = l15 ^ l9;
    let l25 = l6 ^ l10;
    let l26 = l7 ^ l9;
    let l27 = l8 ^ l10;
    let l28 = l11 ^ l14;
    let l29 = l11 ^ l17;
    s[7] = l6 ^ l24;
    s[6] = l16 ^ l26;
    s[5] = l19 ^ l28;
    s[4] = l6 ^ l21;
    s[3] = l20 ^ l22;
    s[2] = l25 ^ l29;
    s[1] = l13 ^ l27;
    s[0] = l6 ^ l23;
}

/// The inverse S-box of every byte plus `0x63` (the circuit without its NOT gates).
#[inline(always)]
fn inv_sub_bytes<W: Word>(s: &mut [W; 8]) {
    let (u0, u1, u2, u3, u4, u5, u6, u7) = (s[7], s[6], s[5], s[4], s[3], s[2], s[1], s[0]);
    let t23 = u0 ^ u3;
    let t22 = u1 ^ u3;
    let t2 = u0 ^ u1;
    let t1 = u3 ^ u4;
    let t24 = u4 ^ u7;
    let r5 = u6 ^ u7;
    let t8 = u1 ^ t23;
    let t19 = t22 ^ r5;
    let t9 = u7 ^ t1;
    let t10 = t2 ^ t24;
    let t13 = t2 ^ r5;
    let t3 = t1 ^ r5;
    let t25 = u2 ^ t1;
    let r13 = u1 ^ u6;
    let t17 = u2 ^ t19;
    let t20 = t24 ^ r13;
    let t4 = u4 ^ t8;
    let r17 = u2 ^ u5;
    let r18 = u5 ^ u6;
    let r19 = u2 ^ u4;
    let y5 = u0 ^ r17;
    let t6 = t22 ^ r17;
    let t16 = r13 ^ r19;
    let t27 = t1 ^ r18;
    let t15 = t10 ^ t27;
    let t14 = t10 ^ r18;
    let t26 = t3 ^ t16;
    let top = Top {
        t1,
        t2,
        t3,
        t4,
        t6,
        t8,
        t9,
        t10,
        t13,
        t14,
        t15,
        t16,
        t17,
        t19,
        t20,
        t22,
        t23,
        t24,
        t25,
        t26,
        t27,
        d: y5,
    };
    let [
        m46,
        m47,
        m48,
        m49,
        m50,
        m51,
        m52,
        m53,
        m54,
        m55,
        m56,
        m57,
        m58,
        m59,
        m60,
        m61,
        m62,
        m63,
    ] = middle(&top).m;
    let p0 = m52 ^ m61;
    let p1 = m58 ^ m59;
    let p2 = m54 ^ m62;
    let p3 = m47 ^ m50;
    let p4 = m48 ^ m56;
    let p5 = m46 ^ m51;
    let p6 = m49 ^ m60;
    let p7 = p0 ^ p1;
    let p8 = m50 ^ m53;
    let p9 = m55 ^ m63;
    let p10 = m57 ^ p4;
    let p11 = p0 ^ p3;
    let p12 = m46 ^ m48;
    let p13 = m49 ^ m51;
    let p14 = m49 ^ m62;
    let p15 = m54 ^ m59;
    let p16 = m57 ^ m61;
    let p17 = m58 ^ p2;
    let p18 = m63 ^ p5;
    let p19 = p2 ^ p3;
    let p20 = p4 ^ p6;
    let p22 = p2 ^ p7;
    let p23 = p7 ^ p8;
    let p24 = p5 ^ p7;
    let p25 = p6 ^ p10;
    let p26 = p9 ^ p11;
    let p27 = p10 ^ p18;
    let p28 = p11 ^ p25;
    let p29 = p15 ^ p20;
    s[7] = p13 ^ p22;
    s[6] = p26 ^ p29;
    s[5] = p17 ^ p28;
    s[4] = p12 ^ p22;
    s[3] = p23 ^ p27;
    s[2] = p19 ^ p24;
    s[1] = p14 ^ p23;
    s[0] = p9 ^ p16;
}

/// Nibble bits below `4 - j`, for a rotation of the columns by `j`.
const fn low_columns(j: u32) -> u64 {
    match j {
        1 => 0x7777_7777_7777_7777,
        2 => 0x3333_3333_3333_3333,
        _ => 0x1111_1111_1111_1111,
    }
}

/// The plane moved so that row `r`, column `c` holds what row `r + k`, column `c + j` held
/// (`k` in 1..=3, `j` in 0..=3): one rotation of the word, and for `j > 0` one of each nibble.
#[inline(always)]
fn shift<W: Word>(x: W, k: u32, j: u32) -> W {
    // A quarter of the word: as many bits as a state has bytes, over four.
    let row = W::BYTES as u32 / 4;
    if j == 0 {
        x.ror(row * k)
    } else {
        let low = W::mask(low_columns(j));
        let high = W::mask(!low_columns(j));
        (x.ror(row * k + j) & low) | (x.ror(row * k + j - 4) & high)
    }
}

/// Multiplication by x of the planes of `t`, bit `b` of the result.
#[inline(always)]
fn xtime<W: Word>(t: &[W; 8]) -> [W; 8] {
    [
        t[7],
        t[0] ^ t[7],
        t[1],
        t[2] ^ t[7],
        t[3] ^ t[7],
        t[4],
        t[5],
        t[6],
    ]
}

/// MixColumns on a state kept with ShiftRows undone `I` times (mod 4).
#[inline(always)]
fn mix_columns<W: Word, const I: u32>(s: &mut [W; 8]) {
    let mut a1 = [W::default(); 8];
    let mut t = [W::default(); 8];
    for b in 0..8 {
        a1[b] = shift(s[b], 1, I % 4);
        t[b] = s[b] ^ a1[b];
    }
    let x = xtime(&t);
    for b in 0..8 {
        s[b] = a1[b] ^ shift(t[b], 2, (2 * I) % 4) ^ x[b];
    }
}

/// InvMixColumns on a state kept with ShiftRows undone `I` times: the map
/// a_r + 4 (a_r + a_{r+2}) on every column, then MixColumns.
#[inline(always)]
fn inv_mix_columns<W: Word, const I: u32>(s: &mut [W; 8]) {
    let mut u = [W::default(); 8];
    for b in 0..8 {
        u[b] = s[b] ^ shift(s[b], 2, (2 * I) % 4);
    }
    let u67 = u[6] ^ u[7];
    s[0] ^= u[6];
    s[1] ^= u67;
    s[2] ^= u[0] ^ u[7];
    s[3] ^= u[1] ^ u[6];
    s[4] ^= u[2] ^ u67;
    s[5] ^= u[3] ^ u[7];
    s[6] ^= u[4];
    s[7] ^= u[5];
    mix_columns::<W, I>(s);
}

/// ShiftRows twice (its own inverse): rows 1 and 3 turn by two columns.
#[inline(always)]
fn shift_rows_twice<W: Word>(s: &mut [W; 8]) {
    let m = W::mask(rows_1_3(W::BYTES) & 0x3333_3333_3333_3333);
    for x in s.iter_mut() {
        let t = (*x ^ (*x >> 2)) & m;
        *x = *x ^ t ^ (t << 2);
    }
}

/// The bit positions of rows 1 and 3 in a word of `bytes` state bytes.
const fn rows_1_3(bytes: usize) -> u64 {
    if bytes == 64 {
        0xffff_0000_ffff_0000
    } else {
        0xff00_ff00
    }
}

#[inline(always)]
fn add<W: Word>(s: &mut [W; 8], k: &[W; 8]) {
    for (x, y) in s.iter_mut().zip(k) {
        *x ^= *y;
    }
}

/// The round keys in planes, each round's key with ShiftRows undone as often as the state
/// is at that round, and the S-box constant `0x63` folded into rounds 1 to Nr.
#[derive(Clone)]
pub(crate) struct SlicedKeys<W = Native> {
    planes: [[W; 8]; 15],
    rounds: usize,
}

impl<W: Word> SlicedKeys<W> {
    /// Keys not yet sliced: [`SlicedKeys::prepare`] slices them.
    pub(crate) fn empty() -> Self {
        Self {
            planes: [[W::default(); 8]; 15],
            rounds: 0,
        }
    }

    fn new(rk: &RoundKeys) -> Self {
        let mut keys = Self::empty();
        let mut bytes = [0u8; 64];
        for (i, (planes, key)) in keys
            .planes
            .iter_mut()
            .zip(&rk.enc)
            .take(rk.rounds + 1)
            .enumerate()
        {
            for (c, col) in bytes[..16].chunks_exact_mut(4).enumerate() {
                for (r, b) in col.iter_mut().enumerate() {
                    let from = 4 * ((c + 4 - i * r % 4) % 4) + r;
                    *b = key[from] ^ if i > 0 { 0x63 } else { 0 };
                }
            }
            let (first, rest) = bytes.split_at_mut(16);
            for block in rest.chunks_exact_mut(16) {
                block.copy_from_slice(first);
            }
            *planes = W::slice(&bytes[..W::BYTES]);
        }
        crate::wipe::array(&mut bytes);
        keys.rounds = rk.rounds;
        keys
    }

    /// Wipes the planes; keys never sliced hold nothing to wipe.
    pub(crate) fn wipe(&mut self) {
        if self.rounds != 0 {
            crate::wipe::value(&mut self.planes);
        }
    }
}

impl SlicedKeys {
    /// Slices the keys of `rk` into it, once per key.
    pub(crate) fn prepare(rk: &mut RoundKeys) {
        rk.sliced = Self::new(rk);
    }
}

/// Encrypts one state of planes.
#[inline(always)]
fn encrypt_state<W: Word>(keys: &SlicedKeys<W>, s: &mut [W; 8]) {
    let nr = keys.rounds;
    add(s, &keys.planes[0]);
    for (r, key) in keys.planes[1..nr].iter().enumerate() {
        sub_bytes(s);
        match (r + 1) % 4 {
            1 => mix_columns::<W, 1>(s),
            2 => mix_columns::<W, 2>(s),
            3 => mix_columns::<W, 3>(s),
            _ => mix_columns::<W, 0>(s),
        }
        add(s, key);
    }
    sub_bytes(s);
    add(s, &keys.planes[nr]);
    if nr % 4 == 2 {
        shift_rows_twice(s);
    }
}

/// Decrypts one state of planes: the rounds of [`encrypt_state`] undone in turn, on a
/// state that starts with ShiftRows undone Nr times.
#[inline(always)]
fn decrypt_state<W: Word>(keys: &SlicedKeys<W>, s: &mut [W; 8]) {
    let nr = keys.rounds;
    if nr % 4 == 2 {
        shift_rows_twice(s);
    }
    add(s, &keys.planes[nr]);
    for (i, key) in keys.planes[1..nr].iter().enumerate().rev() {
        inv_sub_bytes(s);
        add(s, key);
        match (i + 1) % 4 {
            1 => inv_mix_columns::<W, 1>(s),
            2 => inv_mix_columns::<W, 2>(s),
            3 => inv_mix_columns::<W, 3>(s),
            _ => inv_mix_columns::<W, 0>(s),
        }
    }
    inv_sub_bytes(s);
    add(s, &keys.planes[0]);
}

/// Runs `f` on every state's worth of `buf`, the last one padded.
#[inline(always)]
fn each_state<W: Word>(buf: &mut [u8], mut f: impl FnMut(&mut [W; 8])) {
    let mut tail = [0u8; 64];
    let mut chunks = buf.chunks_exact_mut(W::BYTES);
    for chunk in &mut chunks {
        let mut s = W::slice(chunk);
        f(&mut s);
        W::unslice(s, chunk);
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        tail[..rest.len()].copy_from_slice(rest);
        let mut s = W::slice(&tail[..W::BYTES]);
        f(&mut s);
        W::unslice(s, &mut tail[..W::BYTES]);
        rest.copy_from_slice(&tail[..rest.len()]);
        crate::wipe::array(&mut tail);
    }
}

fn encrypt_with<W: Word>(keys: &SlicedKeys<W>, buf: &mut [u8]) {
    each_state(buf, |s: &mut [W; 8]| encrypt_state(keys, s));
}

fn decrypt_with<W: Word>(keys: &SlicedKeys<W>, buf: &mut [u8]) {
    each_state(buf, |s: &mut [W; 8]| decrypt_state(keys, s));
}

/// Encrypts whole blocks in place.
pub(crate) fn encrypt_blocks(rk: &RoundKeys, buf: &mut [u8]) {
    if rk.sliced.rounds == rk.rounds {
        encrypt_with(&rk.sliced, buf);
    } else {
        let mut keys = SlicedKeys::<Native>::new(rk);
        encrypt_with(&keys, buf);
        keys.wipe();
    }
}

/// Decrypts whole blocks in place.
pub(crate) fn decrypt_blocks(rk: &RoundKeys, buf: &mut [u8]) {
    if rk.sliced.rounds == rk.rounds {
        decrypt_with(&rk.sliced, buf);
    } else {
        let mut keys = SlicedKeys::<Native>::new(rk);
        decrypt_with(&keys, buf);
        keys.wipe();
    }
}

/// The S-box of one word, for the key schedule: on 32-bit planes, the narrowest state, so
/// that slicing the four bytes costs least.
pub(crate) fn sub_word(word: [u8; 4]) -> [u8; 4] {
    let mut buf = [0u8; <u32 as Word>::BYTES];
    buf[..4].copy_from_slice(&word);
    let mut s = u32::slice(&buf);
    sub_bytes(&mut s);
    u32::unslice(s, &mut buf);
    let out = [buf[0] ^ 0x63, buf[1] ^ 0x63, buf[2] ^ 0x63, buf[3] ^ 0x63];
    crate::wipe::array(&mut buf);
    out
}

/// Multiplication by x of each byte of a word.
#[inline(always)]
fn xtime_word(w: u32) -> u32 {
    ((w & 0x7f7f_7f7f) << 1) ^ (((w >> 7) & 0x0101_0101) * 0x1b)
}

/// InvMixColumns of one round key, for the equivalent inverse cipher's key schedule, a
/// column per word (byte `i` of the column in byte `i` of the little-endian word): first
/// `c_i ^= x^2 (c_i ^ c_{i+2})`, then MixColumns.
pub(crate) fn inv_mix_column_key(key: &mut [u8; 16]) {
    for col in key.chunks_exact_mut(4) {
        let w = u32::from_le_bytes([col[0], col[1], col[2], col[3]]);
        let a = w ^ xtime_word(xtime_word(w ^ w.rotate_right(16)));
        let s = a ^ a.rotate_right(8);
        let all = s ^ s.rotate_right(16);
        col.copy_from_slice(&(a ^ all ^ xtime_word(s)).to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xtime_byte(x: u8) -> u8 {
        (x << 1) ^ (0u8.wrapping_sub(x >> 7) & 0x1b)
    }

    fn gf_mul(mut a: u8, mut b: u8) -> u8 {
        let mut p = 0;
        while b != 0 {
            if b & 1 != 0 {
                p ^= a;
            }
            a = xtime_byte(a);
            b >>= 1;
        }
        p
    }

    /// The S-box from its definition: x^254, then the affine map.
    fn sbox(x: u8) -> u8 {
        let mut inv = 1u8;
        for _ in 0..254 {
            inv = gf_mul(inv, x);
        }
        let mut y = 0x63;
        for i in 0..5 {
            y ^= inv.rotate_left(i);
        }
        y
    }

    fn inv_sbox(y: u8) -> u8 {
        (0..=255u8).find(|&x| sbox(x) == y).unwrap_or(0)
    }

    /// FIPS 197 encryption and inverse cipher, byte by byte, for comparison.
    fn reference(rk: &RoundKeys, block: &mut [u8; 16], decrypt: bool) {
        let nr = rk.rounds;
        let add = |b: &mut [u8; 16], k: &[u8; 16]| b.iter_mut().zip(k).for_each(|(x, y)| *x ^= y);
        let shift = |b: &mut [u8; 16], inv: bool| {
            let old = *b;
            for c in 0..4 {
                for r in 0..4 {
                    if inv {
                        b[4 * ((c + r) % 4) + r] = old[4 * c + r];
                    } else {
                        b[4 * c + r] = old[4 * ((c + r) % 4) + r];
                    }
                }
            }
        };
        let mix = |b: &mut [u8; 16], m: [u8; 4]| {
            for col in b.chunks_exact_mut(4) {
                let a = [col[0], col[1], col[2], col[3]];
                for r in 0..4 {
                    col[r] = (0..4).fold(0, |acc, k| acc ^ gf_mul(m[k], a[(r + k) % 4]));
                }
            }
        };
        if !decrypt {
            add(block, &rk.enc[0]);
            for r in 1..=nr {
                block.iter_mut().for_each(|x| *x = sbox(*x));
                shift(block, false);
                if r < nr {
                    mix(block, [2, 3, 1, 1]);
                }
                add(block, &rk.enc[r]);
            }
        } else {
            add(block, &rk.enc[nr]);
            for r in (0..nr).rev() {
                shift(block, true);
                block.iter_mut().for_each(|x| *x = inv_sbox(*x));
                add(block, &rk.enc[r]);
                if r > 0 {
                    mix(block, [14, 11, 13, 9]);
                }
            }
        }
    }

    #[test]
    fn circuits_are_the_s_boxes_plus_0x63() {
        let bytes: [u8; 256] = core::array::from_fn(|i| i as u8);
        for chunk in bytes.chunks_exact(64) {
            let mut s = u64::slice(chunk);
            sub_bytes(&mut s);
            let mut out = [0u8; 64];
            u64::unslice(s, &mut out);
            let mut t = u64::slice(chunk);
            inv_sub_bytes(&mut t);
            let mut inv = [0u8; 64];
            u64::unslice(t, &mut inv);
            for ((&x, &y), &z) in chunk.iter().zip(&out).zip(&inv) {
                assert_eq!(y, sbox(x) ^ 0x63, "{x:#x}");
                assert_eq!(z, inv_sbox(x ^ 0x63), "{x:#x}");
            }
        }
    }

    #[test]
    fn slicing_round_trips() {
        let bytes: [u8; 64] = core::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ 0x5a);
        let mut out = [0u8; 64];
        u64::unslice(u64::slice(&bytes), &mut out);
        assert_eq!(out, bytes);
        u32::unslice(u32::slice(&bytes[..32]), &mut out[..32]);
        assert_eq!(out[..32], bytes[..32]);
        // Plane 0 of a state whose only set bit is bit 0 of block 0, row 1, column 2.
        let mut one = [0u8; 64];
        one[4 * 2 + 1] = 1;
        assert_eq!(u64::slice(&one)[0], 1 << (16 + 2));
        assert_eq!(u32::slice(&one[..32])[0], 1 << (8 + 2));
    }

    fn check_width<W: Word>(seed: u64) {
        let mut x = seed;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        };
        for (key_len, rounds) in [(16, 10), (24, 12), (32, 14)] {
            for trial in 0..4 {
                let key: Vec<u8> = (0..key_len).map(|_| next()).collect();
                let rk = super::super::key_schedule::expand(&key, rounds);
                let keys = SlicedKeys::<W>::new(&rk);
                let blocks = 1 + trial * 3;
                let pt: Vec<u8> = (0..16 * blocks).map(|_| next()).collect();
                let mut want = pt.clone();
                for b in want.chunks_exact_mut(16) {
                    let b: &mut [u8; 16] = b.try_into().unwrap();
                    reference(&rk, b, false);
                }
                let mut got = pt.clone();
                encrypt_with(&keys, &mut got);
                assert_eq!(got, want, "aes-{} encrypt, {blocks} blocks", 8 * key_len);
                for b in want.chunks_exact_mut(16) {
                    let b: &mut [u8; 16] = b.try_into().unwrap();
                    reference(&rk, b, true);
                }
                assert_eq!(want, pt);
                decrypt_with(&keys, &mut got);
                assert_eq!(got, pt, "aes-{} decrypt, {blocks} blocks", 8 * key_len);
            }
        }
    }

    #[test]
    fn both_widths_match_the_reference() {
        check_width::<u64>(0x9e37_79b9_7f4a_7c15);
        check_width::<u32>(0x2545_f491_4f6c_dd1d);
    }

    #[test]
    fn fips_197_appendix_c() {
        let pt: Vec<u8> = (0..16u8).map(|i| i * 0x11).collect();
        for (key_len, rounds, ct) in [
            (16, 10, "69c4e0d86a7b0430d8cdb78070b4c55a"),
            (24, 12, "dda97ca4864cdfe06eaf70a0ec0d7191"),
            (32, 14, "8ea2b7ca516745bfeafc49904b496089"),
        ] {
            let key: Vec<u8> = (0..key_len as u8).collect();
            let mut rk = super::super::key_schedule::expand(&key, rounds);
            for prepared in [false, true] {
                if prepared {
                    SlicedKeys::prepare(&mut rk);
                }
                let mut buf = pt.repeat(5);
                encrypt_blocks(&rk, &mut buf);
                for block in buf.chunks(16) {
                    assert_eq!(hex::encode(block), ct, "aes-{}", 8 * key_len);
                }
                decrypt_blocks(&rk, &mut buf);
                assert_eq!(buf, pt.repeat(5));
            }
        }
    }
}
