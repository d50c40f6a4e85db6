//! Keccak-f\[1600\] on two states at once (one per 64-bit lane of each NEON register), and
//! the SHAKE mode's matrix and noise sampling on it.
//!
//! One round text, two sets of word operations:
//! - plain NEON: a rotation is `SHL` + `SRI`, the five-way XOR four `EOR`, chi `BIC` + `EOR`;
//! - the SHA3 extension: `EOR3` (three-way XOR), `RAX1` (θ's a ^ rol(b, 1)), `XAR`
//!   (XOR then rotate: θ's application and ρ in one instruction) and `BCAX` (chi in one).
//!
//! Per round that is about 136 (plain) against 77 (SHA3) vector instructions for two
//! states; see the module documentation of the backend for the measured bounds.

use core::arch::aarch64::*;

use super::super::cbd::noise_bytes;
use super::super::hash::{HashMode, SHAKE128_RATE, SHAKE256_RATE};
use super::super::indcpa::MAX_NOISE;
use super::super::params::{MAX_K, SEED_BYTES};
use super::super::poly::Poly;
use super::super::sampling::{FIRST_SQUEEZE_MAX, parse_exact, parse_fast};
use super::super::sponge::KECCAK_RC;
use crate::cpu::kernel;

/// Two Keccak states, word by word: `s[i][lane]`.
pub(super) type State2 = [[u64; 2]; 25];

/// The 24 rounds over two states in 25 registers, with the word operations `$xor5`
/// (five-way XOR), `$rax1` (a ^ rol(b, 1)), `$xar::<L, R>` (rol(a ^ b, L), R = 64 - L) and
/// `$chi` (a ^ (!b & c)).
macro_rules! rounds2 {
    ($s:expr, $xor5:ident, $rax1:ident, $xar:ident, $chi:ident) => {{
        let [
            mut a0,
            mut a1,
            mut a2,
            mut a3,
            mut a4,
            mut a5,
            mut a6,
            mut a7,
            mut a8,
            mut a9,
            mut a10,
            mut a11,
            mut a12,
            mut a13,
            mut a14,
            mut a15,
            mut a16,
            mut a17,
            mut a18,
            mut a19,
            mut a20,
            mut a21,
            mut a22,
            mut a23,
            mut a24,
        ] = $s;
        for rc in KECCAK_RC {
            let c0 = $xor5(a0, a5, a10, a15, a20);
            let c1 = $xor5(a1, a6, a11, a16, a21);
            let c2 = $xor5(a2, a7, a12, a17, a22);
            let c3 = $xor5(a3, a8, a13, a18, a23);
            let c4 = $xor5(a4, a9, a14, a19, a24);
            let d0 = $rax1(c4, c1);
            let d1 = $rax1(c0, c2);
            let d2 = $rax1(c1, c3);
            let d3 = $rax1(c2, c4);
            let d4 = $rax1(c3, c0);
            let b0 = veorq_u64(a0, d0);
            let b10 = $xar::<1, 63>(a1, d1);
            let b20 = $xar::<62, 2>(a2, d2);
            let b5 = $xar::<28, 36>(a3, d3);
            let b15 = $xar::<27, 37>(a4, d4);
            let b16 = $xar::<36, 28>(a5, d0);
            let b1 = $xar::<44, 20>(a6, d1);
            let b11 = $xar::<6, 58>(a7, d2);
            let b21 = $xar::<55, 9>(a8, d3);
            let b6 = $xar::<20, 44>(a9, d4);
            let b7 = $xar::<3, 61>(a10, d0);
            let b17 = $xar::<10, 54>(a11, d1);
            let b2 = $xar::<43, 21>(a12, d2);
            let b12 = $xar::<25, 39>(a13, d3);
            let b22 = $xar::<39, 25>(a14, d4);
            let b23 = $xar::<41, 23>(a15, d0);
            let b8 = $xar::<45, 19>(a16, d1);
            let b18 = $xar::<15, 49>(a17, d2);
            let b3 = $xar::<21, 43>(a18, d3);
            let b13 = $xar::<8, 56>(a19, d4);
            let b14 = $xar::<18, 46>(a20, d0);
            let b24 = $xar::<2, 62>(a21, d1);
            let b9 = $xar::<61, 3>(a22, d2);
            let b19 = $xar::<56, 8>(a23, d3);
            let b4 = $xar::<14, 50>(a24, d4);
            a0 = veorq_u64($chi(b0, b1, b2), vdupq_n_u64(rc));
            a1 = $chi(b1, b2, b3);
            a2 = $chi(b2, b3, b4);
            a3 = $chi(b3, b4, b0);
            a4 = $chi(b4, b0, b1);
            a5 = $chi(b5, b6, b7);
            a6 = $chi(b6, b7, b8);
            a7 = $chi(b7, b8, b9);
            a8 = $chi(b8, b9, b5);
            a9 = $chi(b9, b5, b6);
            a10 = $chi(b10, b11, b12);
            a11 = $chi(b11, b12, b13);
            a12 = $chi(b12, b13, b14);
            a13 = $chi(b13, b14, b10);
            a14 = $chi(b14, b10, b11);
            a15 = $chi(b15, b16, b17);
            a16 = $chi(b16, b17, b18);
            a17 = $chi(b17, b18, b19);
            a18 = $chi(b18, b19, b15);
            a19 = $chi(b19, b15, b16);
            a20 = $chi(b20, b21, b22);
            a21 = $chi(b21, b22, b23);
            a22 = $chi(b22, b23, b24);
            a23 = $chi(b23, b24, b20);
            a24 = $chi(b24, b20, b21);
        }
        [
            a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18,
            a19, a20, a21, a22, a23, a24,
        ]
    }};
}

#[kernel(AIGIS_NEON)]
#[inline]
fn load_state(s: &State2) -> [uint64x2_t; 25] {
    // SAFETY: each word pair is 16 readable bytes.
    core::array::from_fn(|i| unsafe { vld1q_u64(s[i].as_ptr()) })
}

#[kernel(AIGIS_NEON)]
#[inline]
fn store_state(s: &mut State2, v: [uint64x2_t; 25]) {
    for (w, x) in s.iter_mut().zip(v) {
        // SAFETY: each word pair is 16 writable bytes.
        unsafe { vst1q_u64(w.as_mut_ptr(), x) };
    }
}

#[kernel(AIGIS_NEON)]
#[inline]
fn rol<const L: i32, const R: i32>(x: uint64x2_t) -> uint64x2_t {
    vsriq_n_u64::<R>(vshlq_n_u64::<L>(x), x)
}

#[kernel(AIGIS_NEON)]
#[inline]
fn xor5(a: uint64x2_t, b: uint64x2_t, c: uint64x2_t, d: uint64x2_t, e: uint64x2_t) -> uint64x2_t {
    veorq_u64(veorq_u64(veorq_u64(a, b), veorq_u64(c, d)), e)
}

#[kernel(AIGIS_NEON)]
#[inline]
fn rax1(a: uint64x2_t, b: uint64x2_t) -> uint64x2_t {
    veorq_u64(a, rol::<1, 63>(b))
}

#[kernel(AIGIS_NEON)]
#[inline]
fn xar<const L: i32, const R: i32>(a: uint64x2_t, b: uint64x2_t) -> uint64x2_t {
    rol::<L, R>(veorq_u64(a, b))
}

#[kernel(AIGIS_NEON)]
#[inline]
fn chi(a: uint64x2_t, b: uint64x2_t, c: uint64x2_t) -> uint64x2_t {
    veorq_u64(a, vbicq_u64(c, b))
}

#[kernel(AIGIS_KECCAK_SHA3)]
#[inline]
fn xor5_sha3(
    a: uint64x2_t,
    b: uint64x2_t,
    c: uint64x2_t,
    d: uint64x2_t,
    e: uint64x2_t,
) -> uint64x2_t {
    veor3q_u64(veor3q_u64(a, b, c), d, e)
}

#[kernel(AIGIS_KECCAK_SHA3)]
#[inline]
fn rax1_sha3(a: uint64x2_t, b: uint64x2_t) -> uint64x2_t {
    vrax1q_u64(a, b)
}

#[kernel(AIGIS_KECCAK_SHA3)]
#[inline]
fn xar_sha3<const L: i32, const R: i32>(a: uint64x2_t, b: uint64x2_t) -> uint64x2_t {
    // XAR rotates right: by R = 64 - L.
    vxarq_u64::<R>(a, b)
}

#[kernel(AIGIS_KECCAK_SHA3)]
#[inline]
fn chi_sha3(a: uint64x2_t, b: uint64x2_t, c: uint64x2_t) -> uint64x2_t {
    vbcaxq_u64(a, c, b)
}

/// Keccak-f\[1600\] on both states, plain NEON.
#[kernel(AIGIS_NEON)]
#[inline]
pub(super) fn permute2(s: &mut State2) {
    let v = load_state(s);
    let v = rounds2!(v, xor5, rax1, xar, chi);
    store_state(s, v);
}

/// Keccak-f\[1600\] on both states with the SHA3 extension.
#[kernel(AIGIS_KECCAK_SHA3)]
#[inline]
pub(super) fn permute2_sha3(s: &mut State2) {
    let v = load_state(s);
    let v = rounds2!(v, xor5_sha3, rax1_sha3, xar_sha3, chi_sha3);
    store_state(s, v);
}

/// [`permute2_sha3`] when `SHA3`, else [`permute2`].
///
/// # Safety
/// The CPU runs the kernel `AIGIS_NEON`, and `AIGIS_KECCAK_SHA3` when `SHA3`.
#[inline(always)]
unsafe fn permute<const SHA3: bool>(s: &mut State2) {
    if SHA3 {
        // SAFETY: the caller guarantees the SHA3 extension.
        unsafe { permute2_sha3(s) }
    } else {
        // SAFETY: the caller guarantees NEON.
        unsafe { permute2(s) }
    }
}

/// Two sponges of rate `RATE` after absorbing the one-block inputs `parts[lane]` (shorter
/// than a block, SHAKE padding), before the first permutation.
#[inline(always)]
fn absorb_short<const RATE: usize>(parts: [[&[u8]; 2]; 2]) -> State2 {
    let mut s = [[0u64; 2]; 25];
    for (lane, p) in parts.iter().enumerate() {
        let mut at = 0;
        for &b in p.iter().flat_map(|x| x.iter()) {
            s[at / 8][lane] ^= u64::from(b) << (8 * (at % 8));
            at += 1;
        }
        assert!(at < RATE, "input must be shorter than one block");
        s[at / 8][lane] ^= 0x1f << (8 * (at % 8));
        s[(RATE - 1) / 8][lane] ^= 0x80 << (8 * ((RATE - 1) % 8));
    }
    s
}

/// The first `out.len()` bytes (a multiple of 8, at most the rate) of lane `lane`.
#[inline(always)]
fn block(s: &State2, lane: usize, out: &mut [u8]) {
    for (o, w) in out.chunks_exact_mut(8).zip(s.iter()) {
        o.copy_from_slice(&w[lane].to_le_bytes());
    }
}

/// Matrix entries: job (x, y, at) writes Parse(SHAKE128(ρ ‖ x ‖ y)) to `out[at]`, two
/// streams at a time; the rare entry that needs more than three blocks is redone by the
/// exact one-lane parser.
///
/// # Safety
/// As for [`permute`].
#[inline(always)]
pub(super) unsafe fn gen_entries<const SHA3: bool>(
    rho: &[u8; SEED_BYTES],
    jobs: &[(u8, u8, usize)],
    out: &mut [Poly],
) {
    let mut bufs = [[0u8; FIRST_SQUEEZE_MAX]; 2];
    for batch in jobs.chunks(2) {
        let ext: [[u8; 2]; 2] =
            core::array::from_fn(|l| batch.get(l).map_or([0, 0], |c| [c.0, c.1]));
        let mut s = absorb_short::<SHAKE128_RATE>([[&rho[..], &ext[0]], [&rho[..], &ext[1]]]);
        for blk in 0..3 {
            // SAFETY: the caller's guarantee.
            unsafe { permute::<SHA3>(&mut s) };
            for (l, buf) in bufs.iter_mut().enumerate().take(batch.len()) {
                block(
                    &s,
                    l,
                    &mut buf[blk * SHAKE128_RATE..(blk + 1) * SHAKE128_RATE],
                );
            }
        }
        for (&(x, y, at), buf) in batch.iter().zip(bufs.iter()) {
            if !parse_fast(buf, &mut out[at]) {
                parse_exact(HashMode::Shake, rho, x, y, &mut out[at]);
            }
        }
    }
}

/// The jobs of [`gen_entries`] for a k x k matrix laid out `MAX_K` polynomials per row.
pub(super) fn matrix_jobs(k: usize, transposed: bool) -> ([(u8, u8, usize); MAX_K * MAX_K], usize) {
    let mut jobs = [(0u8, 0u8, 0usize); MAX_K * MAX_K];
    let mut n = 0;
    for i in 0..k {
        for j in 0..k {
            let (x, y) = if transposed { (j, i) } else { (i, j) };
            jobs[n] = (x as u8, y as u8, i * MAX_K + j);
            n += 1;
        }
    }
    (jobs, n)
}

/// The jobs of row i alone (the first k of them are used).
pub(super) fn row_jobs(i: usize, transposed: bool) -> [(u8, u8, usize); MAX_K] {
    core::array::from_fn(|j| {
        let (x, y) = if transposed { (j, i) } else { (i, j) };
        (x as u8, y as u8, j)
    })
}

/// Noise polynomials `out[i] = CBD_{etas[i]}(SHAKE256(seed ‖ i))`, two streams at a time,
/// the widest first so that the two lanes of a pair mostly need the same number of blocks.
///
/// # Safety
/// As for [`permute`].
#[inline(always)]
pub(super) unsafe fn noise_shake<const SHA3: bool>(
    seed: &[u8; SEED_BYTES],
    etas: &[usize],
    out: &mut [Poly],
) {
    let blocks_of = |i: usize| noise_bytes(etas[i]).div_ceil(SHAKE256_RATE);
    let n = etas.len();
    let mut order = [0usize; MAX_NOISE];
    for (i, o) in order.iter_mut().enumerate().take(n) {
        *o = i;
    }
    // Insertion sort by blocks, largest first, stable (public widths only).
    for i in 1..n {
        let x = order[i];
        let mut j = i;
        while j > 0 && blocks_of(order[j - 1]) < blocks_of(x) {
            order[j] = order[j - 1];
            j -= 1;
        }
        order[j] = x;
    }
    let mut bufs = [[0u8; 4 * SHAKE256_RATE]; 2];
    for pair in order[..n].chunks(2) {
        let nonces: [[u8; 1]; 2] = core::array::from_fn(|l| [pair.get(l).map_or(0, |&i| i as u8)]);
        let mut s =
            absorb_short::<SHAKE256_RATE>([[&seed[..], &nonces[0]], [&seed[..], &nonces[1]]]);
        for blk in 0..blocks_of(pair[0]) {
            // SAFETY: the caller's guarantee.
            unsafe { permute::<SHA3>(&mut s) };
            for (l, &i) in pair.iter().enumerate() {
                if blocks_of(i) > blk {
                    block(
                        &s,
                        l,
                        &mut bufs[l][blk * SHAKE256_RATE..(blk + 1) * SHAKE256_RATE],
                    );
                }
            }
        }
        crate::wipe::u64s(s.as_flattened_mut());
        for (&i, buf) in pair.iter().zip(bufs.iter()) {
            // SAFETY: the caller's guarantee (NEON).
            unsafe { super::cbd::cbd_vec(&mut out[i], &buf[..noise_bytes(etas[i])], etas[i]) };
        }
    }
    crate::wipe::bytes(bufs.as_flattened_mut());
}
