//! The byte-sliced batch: sixteen blocks on sixteen NEON registers, register `j` holding
//! byte `j` of every block. π (or π⁻¹) is one TBL and three TBX over the 256-byte table
//! held in sixteen registers. Each R step multiplies by the seven distinct coefficients of
//! ℓ with PMULL.8/PMULL2.8 (eight 8x8-bit carry-less products each), sums the unreduced
//! 15-bit products and reduces once with two nibble TBLs, which frees the fourteen table
//! registers that two nibble TBLs per product would take (and, by llvm-mca, is faster; see
//! `docs/perf/kuznyechik.md`).

use core::arch::aarch64::*;

use crate::cpu::kernel;
use crate::kuznyechik::RoundKeys;
use crate::kuznyechik::consts::{ELL, PI, PI_INV, gf_mul};

/// Blocks per batch: one byte of each in every lane of a register.
pub(super) const LANES: usize = 16;
/// Bytes per batch.
pub(super) const BATCH: usize = 16 * LANES;

pub(super) type State = [uint8x16_t; 16];

/// The distinct non-trivial coefficients of ℓ, in the order the R steps use them.
const COEFFICIENTS: [u8; 7] = [ELL[0], ELL[1], ELL[2], ELL[3], ELL[4], ELL[5], ELL[7]];

/// `c * i` and `c * (i << 4)` for i = 0..16: a product by `c` as two nibble lookups.
const fn nibble_products(c: u8) -> [[u8; 16]; 2] {
    let mut t = [[0u8; 16]; 2];
    let mut i = 0;
    while i < 16 {
        t[0][i] = gf_mul(i as u8, c);
        t[1][i] = gf_mul((i as u8) << 4, c);
        i += 1;
    }
    t
}

/// `h * x^8` modulo the field polynomial, by nibbles of `h`: x^8 = x^7 + x^6 + x + 1.
pub(super) const REDUCTION: [[u8; 16]; 2] = nibble_products(0xc3);

/// Sixteen bytes from the front of `bytes`.
#[kernel(KUZNYECHIK_NEON)]
#[inline]
pub(super) fn load16(bytes: &[u8]) -> uint8x16_t {
    assert!(bytes.len() >= 16);
    // SAFETY: the assertion keeps the 16 bytes read inside `bytes`; LD1 needs no alignment.
    unsafe { vld1q_u8(bytes.as_ptr()) }
}

/// Sixteen bytes to the front of `bytes`.
#[kernel(KUZNYECHIK_NEON)]
#[inline]
pub(super) fn store16(bytes: &mut [u8], v: uint8x16_t) {
    assert!(bytes.len() >= 16);
    // SAFETY: the assertion keeps the 16 bytes written inside `bytes`; ST1 needs no alignment.
    unsafe { vst1q_u8(bytes.as_mut_ptr(), v) }
}

/// A 256-byte table in four groups of four registers, as TBL and TBX take it.
#[kernel(KUZNYECHIK_NEON)]
#[inline]
pub(super) fn table_registers(table: &[u8; 256]) -> [uint8x16x4_t; 4] {
    let mut t = [uint8x16x4_t(vdupq_n_u8(0), vdupq_n_u8(0), vdupq_n_u8(0), vdupq_n_u8(0)); 4];
    for (group, bytes) in t.iter_mut().zip(table.chunks_exact(64)) {
        *group = uint8x16x4_t(
            load16(&bytes[..16]),
            load16(&bytes[16..32]),
            load16(&bytes[32..48]),
            load16(&bytes[48..]),
        );
    }
    t
}

/// The table lookup of every byte of `x`: TBL over indices 0..64, then TBX over each
/// further quarter, whose index (`x` with its top two bits flipped) is out of range, and so
/// leaves the lane alone, for every byte of another quarter. Constant time: the four
/// lookups read all 256 entries from registers whatever `x` is.
#[kernel(KUZNYECHIK_NEON)]
#[inline]
pub(super) fn lookup(x: uint8x16_t, t: &[uint8x16x4_t; 4]) -> uint8x16_t {
    let r = vqtbl4q_u8(t[0], x);
    let r = vqtbx4q_u8(r, t[1], veorq_u8(x, vdupq_n_u8(0x40)));
    let r = vqtbx4q_u8(r, t[2], veorq_u8(x, vdupq_n_u8(0x80)));
    vqtbx4q_u8(r, t[3], veorq_u8(x, vdupq_n_u8(0xc0)))
}

/// [`lookup`] with the four quarters looked up side by side and ORed (TBL gives zero for
/// an index out of range): three instructions more, a quarter of the latency of the TBX
/// chain, for the one-block path where latency counts.
#[kernel(KUZNYECHIK_NEON)]
#[inline]
pub(super) fn lookup_parallel(x: uint8x16_t, t: &[uint8x16x4_t; 4]) -> uint8x16_t {
    let a = vqtbl4q_u8(t[0], x);
    let b = vqtbl4q_u8(t[1], veorq_u8(x, vdupq_n_u8(0x40)));
    let c = vqtbl4q_u8(t[2], veorq_u8(x, vdupq_n_u8(0x80)));
    let d = vqtbl4q_u8(t[3], veorq_u8(x, vdupq_n_u8(0xc0)));
    vorrq_u8(vorrq_u8(a, b), vorrq_u8(c, d))
}

/// The registers of one direction: its S-box, the coefficients of ℓ and the reduction.
pub(super) struct Constants {
    sbox: [uint8x16x4_t; 4],
    coefficients: [poly8x16_t; 7],
    reduction: [uint8x16_t; 2],
    low_nibble: uint8x16_t,
}

#[kernel(KUZNYECHIK_NEON)]
#[inline]
pub(super) fn constants(inverse: bool) -> Constants {
    let mut coefficients = [vdupq_n_p8(0); 7];
    for (r, c) in coefficients.iter_mut().zip(COEFFICIENTS) {
        *r = vdupq_n_p8(c);
    }
    Constants {
        sbox: table_registers(if inverse { &PI_INV } else { &PI }),
        coefficients,
        reduction: [load16(&REDUCTION[0]), load16(&REDUCTION[1])],
        low_nibble: vdupq_n_u8(0x0f),
    }
}

/// `x` times coefficient number `c` as sixteen unreduced 15-bit polynomials, the products
/// of lanes 0..8 and of lanes 8..16 (PMULL.8 and PMULL2.8).
#[kernel(KUZNYECHIK_NEON)]
#[inline]
fn mul(x: uint8x16_t, c: usize, t: &Constants) -> [uint16x8_t; 2] {
    let x = vreinterpretq_p8_u8(x);
    let k = t.coefficients[c];
    [
        vreinterpretq_u16_p16(vmull_p8(vget_low_p8(x), vget_low_p8(k))),
        vreinterpretq_u16_p16(vmull_high_p8(x, k)),
    ]
}

#[kernel(KUZNYECHIK_NEON)]
#[inline]
fn add(a: [uint16x8_t; 2], b: [uint16x8_t; 2]) -> [uint16x8_t; 2] {
    [veorq_u16(a[0], b[0]), veorq_u16(a[1], b[1])]
}

/// A sum of unreduced products back in the field, one byte per lane: the high byte `h`
/// of each 16-bit lane adds `h * x^8`, two nibble lookups in `reduction` ([`REDUCTION`]).
#[kernel(KUZNYECHIK_NEON)]
#[inline]
pub(super) fn reduce(
    sum: [uint16x8_t; 2],
    reduction: &[uint8x16_t; 2],
    low_nibble: uint8x16_t,
) -> uint8x16_t {
    let (first, second) = (vreinterpretq_u8_u16(sum[0]), vreinterpretq_u8_u16(sum[1]));
    // Low and high bytes of the sixteen 16-bit sums, in lane order.
    let low = vuzp1q_u8(first, second);
    let high = vuzp2q_u8(first, second);
    let folded = veorq_u8(
        vqtbl1q_u8(reduction[0], vandq_u8(high, low_nibble)),
        vqtbl1q_u8(reduction[1], vshrq_n_u8::<4>(high)),
    );
    veorq_u8(low, folded)
}

/// ℓ from its seven folded products and the sum of its three terms of coefficient 1.
#[kernel(KUZNYECHIK_NEON)]
#[inline]
fn ell(folded: [uint8x16_t; 7], ones: uint8x16_t, t: &Constants) -> uint8x16_t {
    let sum = add(
        add(
            add(mul(folded[0], 0, t), mul(folded[1], 1, t)),
            add(mul(folded[2], 2, t), mul(folded[3], 3, t)),
        ),
        add(
            add(mul(folded[4], 4, t), mul(folded[5], 5, t)),
            mul(folded[6], 6, t),
        ),
    );
    veorq_u8(reduce(sum, &t.reduction, t.low_nibble), ones)
}

/// One R step on a ring of registers: at step `STEP` logical byte `k` of the blocks is in
/// register `(k - STEP) mod 16`; ℓ overwrites the register of byte 15, which becomes byte 0
/// of the next step. After sixteen steps the ring is back in place. The palindromic
/// coefficients fold fourteen of the sixteen products into seven.
#[kernel(KUZNYECHIK_NEON)]
#[inline]
fn r_step<const STEP: usize>(s: &mut State, t: &Constants) {
    let x = |k: usize| s[(k + 16 - STEP) % 16];
    let folded = [
        veorq_u8(x(0), x(14)),
        veorq_u8(x(1), x(13)),
        veorq_u8(x(2), x(12)),
        veorq_u8(x(3), x(11)),
        veorq_u8(x(4), x(10)),
        veorq_u8(x(5), x(9)),
        x(7),
    ];
    let ones = veorq_u8(veorq_u8(x(6), x(8)), x(15));
    s[(15 + 16 - STEP) % 16] = ell(folded, ones, t);
}

/// One R⁻¹ step: logical byte `k` is in register `(k + STEP) mod 16`; ℓ of bytes 1..16
/// and 0 overwrites byte 0, which becomes byte 15 of the next step.
#[kernel(KUZNYECHIK_NEON)]
#[inline]
fn r_inv_step<const STEP: usize>(s: &mut State, t: &Constants) {
    let y = |k: usize| s[(k + STEP) % 16];
    let folded = [
        veorq_u8(y(1), y(15)),
        veorq_u8(y(2), y(14)),
        veorq_u8(y(3), y(13)),
        veorq_u8(y(4), y(12)),
        veorq_u8(y(5), y(11)),
        veorq_u8(y(6), y(10)),
        y(8),
    ];
    let ones = veorq_u8(veorq_u8(y(7), y(9)), y(0));
    s[STEP % 16] = ell(folded, ones, t);
}

/// X then S on every register: the round key's byte `j` goes to all lanes of register `j`.
#[kernel(KUZNYECHIK_NEON)]
#[inline]
fn key_and_sbox(s: &mut State, k: &[u8; 16], t: &Constants) {
    let key = load16(k);
    unroll16!(key_sbox_byte(s, key, t));
}

#[kernel(KUZNYECHIK_NEON)]
#[inline]
fn key_sbox_byte<const I: i32>(s: &mut State, key: uint8x16_t, t: &Constants) {
    let i = I as usize;
    s[i] = lookup(veorq_u8(s[i], vdupq_laneq_u8::<I>(key)), &t.sbox);
}

#[kernel(KUZNYECHIK_NEON)]
#[inline]
fn sbox_key_byte<const I: i32>(s: &mut State, key: uint8x16_t, t: &Constants) {
    let i = I as usize;
    s[i] = veorq_u8(lookup(s[i], &t.sbox), vdupq_laneq_u8::<I>(key));
}

#[kernel(KUZNYECHIK_NEON)]
#[inline]
fn key_byte<const I: i32>(s: &mut State, key: uint8x16_t) {
    let i = I as usize;
    s[i] = veorq_u8(s[i], vdupq_laneq_u8::<I>(key));
}

/// Nine rounds of X, S and L, then the last key.
#[kernel(KUZNYECHIK_NEON)]
#[inline]
pub(super) fn encrypt_state(s: &mut State, t: &Constants, rk: &RoundKeys) {
    for k in &rk.0[..9] {
        key_and_sbox(s, k, t);
        unroll16!(r_step(s, t));
    }
    let last = load16(&rk.0[9]);
    unroll16!(key_byte(s, last));
}

/// The inverse: the last key, then nine rounds of L⁻¹, S⁻¹ and X.
#[kernel(KUZNYECHIK_NEON)]
#[inline]
pub(super) fn decrypt_state(s: &mut State, t: &Constants, rk: &RoundKeys) {
    let last = load16(&rk.0[9]);
    unroll16!(key_byte(s, last));
    for k in rk.0[..9].iter().rev() {
        unroll16!(r_inv_step(s, t));
        let key = load16(k);
        unroll16!(sbox_key_byte(s, key, t));
    }
}

/// Transposes the 16x16 byte matrix of sixteen registers: four rounds of interleaving
/// register `i` with register `i + 8`. The transpose is its own inverse.
#[kernel(KUZNYECHIK_NEON)]
#[inline]
fn transpose(s: &mut State) {
    for _ in 0..4 {
        let a = *s;
        for i in 0..8 {
            s[2 * i] = vzip1q_u8(a[i], a[i + 8]);
            s[2 * i + 1] = vzip2q_u8(a[i], a[i + 8]);
        }
    }
}

/// Sixteen blocks into the byte-sliced layout.
#[kernel(KUZNYECHIK_NEON)]
#[inline]
pub(super) fn load_batch(src: &[u8]) -> State {
    let mut s = [vdupq_n_u8(0); 16];
    for (x, block) in s.iter_mut().zip(src[..BATCH].chunks_exact(16)) {
        *x = load16(block);
    }
    transpose(&mut s);
    s
}

/// The inverse of [`load_batch`].
#[kernel(KUZNYECHIK_NEON)]
#[inline]
pub(super) fn store_batch(s: &State, dst: &mut [u8]) {
    let mut s = *s;
    transpose(&mut s);
    for (x, block) in s.iter().zip(dst[..BATCH].chunks_exact_mut(16)) {
        store16(block, *x);
    }
}

/// Whole batches of `buf` (a multiple of [`BATCH`] bytes) in place.
#[kernel(KUZNYECHIK_NEON)]
#[inline]
pub(super) fn batches<const DECRYPT: bool>(rk: &RoundKeys, t: &Constants, buf: &mut [u8]) {
    for batch in buf.chunks_exact_mut(BATCH) {
        let mut s = load_batch(batch);
        if DECRYPT {
            decrypt_state(&mut s, t, rk);
        } else {
            encrypt_state(&mut s, t, rk);
        }
        store_batch(&s, batch);
    }
}
