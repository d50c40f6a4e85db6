//! The chained modes on AVX-512 (CBC encryption, CFB encryption, OFB, the CBC-MAC inside
//! OMAC), one or two chains at a time, and calls of only a few blocks: a path
//! built for the latency of one block rather than for throughput.
//!
//! Every block of a chain waits for the one before it, so what counts is the length of the
//! dependency chain through the nine rounds, and, with two chains, the port cycles of both.
//! The per-block path of [`super::blocks`] spends a register lane per block and sixteen
//! byte broadcasts and products per round, and the batched kernel needs 64 independent
//! blocks. Here one block occupies a whole ZMM register, in the image of Kuznyechik's field
//! under φ (where every constant multiplication is a GF2P8MULB):
//! - L is 256 byte products, four GF2P8MULB of 64: register `c` holds, at byte `8q + b`,
//!   input byte `4c + b / 2` times the coefficient of output byte `2q + b % 2`. The four
//!   products are XORed, and the four partial sums of each output, which sit at bytes 0, 2,
//!   4 and 6 (or 1, 3, 5 and 7) of one 64-bit lane, are added by three 64-bit shifts and two
//!   three-input XORs, the round key riding on the second. The result leaves state byte `j`
//!   at byte `8 (j / 2) + j % 2`; the other bytes hold sums nobody reads.
//! - The byte broadcasts of the products read straight from those places (VPERMB).
//! - S is the 256-byte table lookup of the batched kernel, its two halves looked up side by
//!   side; a GF2P8AFFINEQB copies each index's top bit over its byte and one three-input
//!   operation selects, so the lookup costs one permute's latency plus one cycle.
//!
//! A round is 19 instructions; its dependency chain is the lookup, a broadcast, a product
//! and four XOR levels. A step of two chains alternates their rounds in program order so
//! that both are in the scheduler at once (measured round times in
//! `docs/perf/kuznyechik.md`). Data enters the chain through φ and a byte scatter, off the
//! chain's path, and leaves the same way.

use core::arch::x86_64::*;

use super::tables::{FROM_PHI, L_INV_PHI, L_PHI, PI_INV_PHI, PI_PHI, TO_PHI};
use crate::cpu::{Ran, kernel};
use crate::kuznyechik::RoundKeys;
use crate::modes::Chain;

/// Where state byte `j` lives in a register: byte `8 (j / 2) + j % 2`.
const fn place(j: usize) -> usize {
    8 * (j / 2) + j % 2
}

/// VPERMB index that moves the 16 bytes of a block (in bytes 0..16) to their places.
const SCATTER: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut j = 0;
    while j < 16 {
        t[place(j)] = j as u8;
        j += 1;
    }
    t
};

/// VPERMB index that brings the 16 state bytes back to bytes 0..16.
const GATHER: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut j = 0;
    while j < 16 {
        t[j] = place(j) as u8;
        j += 1;
    }
    t
};

/// Input byte and output byte of the product at byte `p` of register `c`.
const fn product_at(c: usize, p: usize) -> (usize, usize) {
    let (q, b) = (p / 8, p % 8);
    (4 * c + b / 2, 2 * q + b % 2)
}

/// For each product register: the VPERMB index that broadcasts its inputs (`.0`), and the
/// coefficients of the linear layer with `columns` (through φ) that multiply them (`.1`).
const fn products(columns: &[[u8; 16]; 16]) -> ([[u8; 64]; 4], [[u8; 64]; 4]) {
    let mut spread = [[0u8; 64]; 4];
    let mut coefficients = [[0u8; 64]; 4];
    let mut c = 0;
    while c < 4 {
        let mut p = 0;
        while p < 64 {
            let (input, output) = product_at(c, p);
            spread[c][p] = place(input) as u8;
            coefficients[c][p] = columns[input][output];
            p += 1;
        }
        c += 1;
    }
    (spread, coefficients)
}

/// The products of L and of L⁻¹.
const PRODUCTS: ([[u8; 64]; 4], [[u8; 64]; 4]) = products(&L_PHI);
const INVERSE_PRODUCTS: ([[u8; 64]; 4], [[u8; 64]; 4]) = products(&L_INV_PHI);

/// The constants of the chain path and the round keys, through φ and in their places.
/// The keys are wiped on drop.
struct ChainTables {
    sbox: [__m512i; 4],
    spread: [__m512i; 4],
    coefficients: [__m512i; 4],
    rk: [__m512i; 10],
}

impl Drop for ChainTables {
    fn drop(&mut self) {
        // SAFETY: the ten keys are plain bytes, viewed as such for the length of the array.
        let bytes = unsafe {
            core::slice::from_raw_parts_mut(
                self.rk.as_mut_ptr().cast::<u8>(),
                core::mem::size_of_val(&self.rk),
            )
        };
        crate::wipe::bytes(bytes);
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn load64(bytes: &[u8; 64]) -> __m512i {
    // SAFETY: reads 64 bytes of a 64-byte array; AVX-512F is enabled by the caller.
    unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
}

/// A block through φ, at its places.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn enter(block: &[u8; 16]) -> __m512i {
    // SAFETY: reads 16 bytes of a 16-byte array; AVX-512F/BW/VBMI and GFNI are enabled by
    // the caller.
    unsafe {
        let x = _mm_loadu_si128(block.as_ptr().cast());
        let x = _mm_gf2p8affine_epi64_epi8::<0>(x, _mm_set1_epi64x(TO_PHI as i64));
        _mm512_permutexvar_epi8(load64(&SCATTER), _mm512_castsi128_si512(x))
    }
}

/// The inverse of [`enter`].
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn leave(x: __m512i, block: &mut [u8; 16]) {
    // SAFETY: writes 16 bytes of a 16-byte array; features as in `enter`.
    unsafe {
        let y = _mm512_castsi512_si128(_mm512_permutexvar_epi8(load64(&GATHER), x));
        let y = _mm_gf2p8affine_epi64_epi8::<0>(y, _mm_set1_epi64x(FROM_PHI as i64));
        _mm_storeu_si128(block.as_mut_ptr().cast(), y);
    }
}

/// The tables of one direction: π (or π⁻¹), the products of L (or L⁻¹), through φ, and
/// that direction's keys from [`ChainKeys`].
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn tables(
    sbox: &[u8; 256],
    products: &([[u8; 64]; 4], [[u8; 64]; 4]),
    keys: &[[u8; 64]; 10],
) -> ChainTables {
    // SAFETY: loads of whole fixed-size arrays; AVX-512F is enabled by the caller.
    unsafe {
        let mut t = ChainTables {
            sbox: [_mm512_setzero_si512(); 4],
            spread: [_mm512_setzero_si512(); 4],
            coefficients: [_mm512_setzero_si512(); 4],
            rk: [_mm512_setzero_si512(); 10],
        };
        for (i, s) in t.sbox.iter_mut().enumerate() {
            *s = load64(sbox[64 * i..64 * i + 64].try_into().unwrap_or(&[0; 64]));
        }
        for c in 0..4 {
            t.spread[c] = load64(&products.0[c]);
            t.coefficients[c] = load64(&products.1[c]);
        }
        for (r, k) in t.rk.iter_mut().zip(keys) {
            *r = load64(k);
        }
        t
    }
}

/// The encryption tables.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn chain_tables(keys: &ChainKeys) -> ChainTables {
    // SAFETY: features enabled by the caller.
    unsafe { tables(&PI_PHI, &PRODUCTS, &keys.encrypt) }
}

/// The decryption tables.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn inverse_tables(keys: &ChainKeys) -> ChainTables {
    // SAFETY: features enabled by the caller.
    unsafe { tables(&PI_INV_PHI, &INVERSE_PRODUCTS, &keys.decrypt) }
}

/// The round keys of both directions as the chain path adds them, made once per key and
/// kept in [`super::keys::SlicedKeys`]: `encrypt[r]` is K_{r+1} through φ at its places.
/// A decryption round is `S⁻¹(L⁻¹(x ^ K))`, so the key that precedes L⁻¹ is kept as
/// `L⁻¹(K)` and added after it, on its sum's last XOR: `decrypt[r]` holds L⁻¹(K_{r+1}) for
/// `r` from 1 to 9, and `decrypt[0]` the last key, K_1, as it is. Wiped on drop.
#[derive(Clone)]
pub(super) struct ChainKeys {
    encrypt: [[u8; 64]; 10],
    decrypt: [[u8; 64]; 10],
}

impl Drop for ChainKeys {
    fn drop(&mut self) {
        crate::wipe::bytes(self.encrypt.as_flattened_mut());
        crate::wipe::bytes(self.decrypt.as_flattened_mut());
    }
}

/// Makes [`ChainKeys`]. Called from a `OnceLock` initializer, which inherits no target
/// features, hence the attribute.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[kernel(KUZNYECHIK_AVX512)]
pub(super) unsafe fn chain_keys(rk: &RoundKeys) -> ChainKeys {
    // SAFETY: the features are enabled on this function; loads and stores of whole 64-byte
    // rows of fixed-size arrays.
    unsafe {
        let mut keys = ChainKeys {
            encrypt: [[0; 64]; 10],
            decrypt: [[0; 64]; 10],
        };
        for (out, k) in keys.encrypt.iter_mut().zip(&rk.0) {
            _mm512_storeu_si512(out.as_mut_ptr().cast(), enter(k));
        }
        let t = tables(&PI_INV_PHI, &INVERSE_PRODUCTS, &keys.encrypt);
        keys.decrypt[0] = keys.encrypt[0];
        for r in 1..10 {
            let k = linear(t.rk[r], &t, _mm512_setzero_si512());
            _mm512_storeu_si512(keys.decrypt[r].as_mut_ptr().cast(), k);
        }
        keys
    }
}

/// The GF2P8AFFINEQB matrix that copies bit 7 of a byte into all eight bits.
const TOP_BIT_EVERYWHERE: i64 = 0x8080_8080_8080_8080u64 as i64;

/// S on every byte: both halves of the table looked up side by side, then blended by the
/// index's top bit.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn substitute(x: __m512i, t: &[__m512i; 4]) -> __m512i {
    // SAFETY: register-only AVX-512BW/VBMI operations, enabled by the caller.
    unsafe {
        let low = _mm512_permutex2var_epi8(t[0], x, t[1]);
        let high = _mm512_permutex2var_epi8(t[2], x, t[3]);
        let top = _mm512_gf2p8affine_epi64_epi8::<0>(x, _mm512_set1_epi64(TOP_BIT_EVERYWHERE));
        _mm512_ternarylogic_epi64::<0xca>(top, high, low)
    }
}

/// The linear layer of `t` on the state bytes at their places, plus `k`.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn linear(s: __m512i, t: &ChainTables, k: __m512i) -> __m512i {
    // SAFETY: register-only AVX-512F/BW/VBMI and GFNI operations, enabled by the caller.
    unsafe {
        let mut products = [_mm512_setzero_si512(); 4];
        for (c, p) in products.iter_mut().enumerate() {
            let spread = _mm512_permutexvar_epi8(t.spread[c], s);
            *p = _mm512_gf2p8mul_epi8(spread, t.coefficients[c]);
        }
        let three = _mm512_ternarylogic_epi64::<0x96>(products[0], products[1], products[2]);
        let sum = _mm512_xor_si512(three, products[3]);
        let half = _mm512_ternarylogic_epi64::<0x96>(
            sum,
            _mm512_srli_epi64::<16>(sum),
            _mm512_srli_epi64::<32>(sum),
        );
        _mm512_ternarylogic_epi64::<0x96>(half, _mm512_srli_epi64::<48>(sum), k)
    }
}

/// One round after the first key: S, L, and the next round key `k`.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn round(x: __m512i, t: &ChainTables, k: __m512i) -> __m512i {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe { linear(substitute(x, &t.sbox), t, k) }
}

/// The nine rounds and the last key, on states that already have K_1 added. The chains'
/// rounds alternate in program order, so that the scheduler sees both at once.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn rounds<const Z: usize>(mut x: [__m512i; Z], t: &ChainTables) -> [__m512i; Z] {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        for k in &t.rk[1..] {
            for x in x.iter_mut() {
                *x = round(*x, t, *k);
            }
        }
        x
    }
}

/// One step of `Z` chains: `v` are the chain values, `blocks` the data blocks of this step
/// (one per chain), rewritten with the output where the mode has one.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn step<const Z: usize>(
    mode: Chain,
    v: &mut [__m512i; Z],
    blocks: &mut [&mut [u8; 16]; Z],
    t: &ChainTables,
) {
    // SAFETY: register operations, enabled by the caller, and `enter`/`leave` on whole
    // blocks.
    unsafe {
        let mut d = [_mm512_setzero_si512(); Z];
        for (d, b) in d.iter_mut().zip(blocks.iter()) {
            *d = enter(b);
        }
        let mut first = [_mm512_setzero_si512(); Z];
        for j in 0..Z {
            first[j] = match mode {
                Chain::CbcEncrypt | Chain::Mac => {
                    _mm512_ternarylogic_epi64::<0x96>(v[j], d[j], t.rk[0])
                }
                Chain::Ofb | Chain::CfbEncrypt => _mm512_xor_si512(v[j], t.rk[0]),
            };
        }
        let e = rounds(first, t);
        for j in 0..Z {
            match mode {
                Chain::CbcEncrypt => {
                    v[j] = e[j];
                    leave(e[j], blocks[j]);
                }
                Chain::Mac => v[j] = e[j],
                Chain::Ofb => {
                    v[j] = e[j];
                    leave(_mm512_xor_si512(e[j], d[j]), blocks[j]);
                }
                Chain::CfbEncrypt => {
                    v[j] = _mm512_xor_si512(e[j], d[j]);
                    leave(v[j], blocks[j]);
                }
            }
        }
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[kernel(KUZNYECHIK_AVX512)]
unsafe fn chain_impl<const Z: usize>(
    keys: &ChainKeys,
    mode: Chain,
    register: &mut [u8],
    buf: &mut [u8],
) {
    // SAFETY: the features are enabled on this function; every block is a 16-byte array
    // taken from the slices by `chunks_exact`.
    unsafe {
        let t = chain_tables(keys);
        let mut v = [_mm512_setzero_si512(); Z];
        for (v, r) in v.iter_mut().zip(register.chunks_exact(16)) {
            *v = enter(r.try_into().unwrap_or(&[0; 16]));
        }
        let mut groups = buf.chunks_exact_mut(16 * Z);
        for group in &mut groups {
            let mut it = group.chunks_exact_mut(16);
            let mut blocks: [&mut [u8; 16]; Z] = core::array::from_fn(|_| {
                it.next()
                    .and_then(|b| b.try_into().ok())
                    .unwrap_or_else(|| unreachable!())
            });
            step::<Z>(mode, &mut v, &mut blocks, &t);
        }
        // A last, shorter group advances only the chains it has blocks for.
        for (j, block) in groups.into_remainder().chunks_exact_mut(16).enumerate() {
            let mut one = [v[j]];
            let b: &mut [u8; 16] = block.try_into().unwrap_or_else(|_| unreachable!());
            step::<1>(mode, &mut one, &mut [b], &t);
            v[j] = one[0];
        }
        for (v, r) in v.iter().zip(register.chunks_exact_mut(16)) {
            leave(*v, r.try_into().unwrap_or_else(|_| unreachable!()));
        }
    }
}

/// Runs `mode` over the whole blocks of `buf` with a register of one or two blocks (one
/// chain each, block `i` on chain `i % z`); declined, and nothing done, for other register
/// lengths.
///
/// # Safety
/// The CPU runs [`KUZNYECHIK_AVX512`](crate::cpu::kernels::KUZNYECHIK_AVX512).
pub(super) unsafe fn chain(
    keys: &ChainKeys,
    mode: Chain,
    register: &mut [u8],
    buf: &mut [u8],
) -> Ran {
    // SAFETY: the caller guarantees the features.
    unsafe {
        match register.len() {
            16 => chain_impl::<1>(keys, mode, register, buf),
            32 => chain_impl::<2>(keys, mode, register, buf),
            _ => return Ran::Declined,
        }
    }
    Ran::Done
}

/// The first `Z` blocks of `buf`, each entered as its own chain.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn enter_blocks<const Z: usize>(buf: &[u8]) -> [__m512i; Z] {
    // SAFETY: `enter` on whole 16-byte blocks; features enabled by the caller.
    unsafe {
        let mut x = [_mm512_setzero_si512(); Z];
        for (x, b) in x.iter_mut().zip(buf.chunks_exact(16)) {
            *x = enter(b.try_into().unwrap_or(&[0; 16]));
        }
        x
    }
}

/// The inverse of [`enter_blocks`].
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn leave_blocks<const Z: usize>(x: &[__m512i; Z], buf: &mut [u8]) {
    // SAFETY: `leave` on whole 16-byte blocks; features enabled by the caller.
    unsafe {
        for (x, b) in x.iter().zip(buf.chunks_exact_mut(16)) {
            leave(*x, b.try_into().unwrap_or_else(|_| unreachable!()));
        }
    }
}

/// `Z` blocks as `Z` chains of one step, their rounds alternating.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[kernel(KUZNYECHIK_AVX512)]
unsafe fn encrypt_few_impl<const Z: usize>(keys: &ChainKeys, buf: &mut [u8]) {
    // SAFETY: the features are enabled on this function; the helpers take whole blocks.
    unsafe {
        let t = chain_tables(keys);
        let mut x = enter_blocks::<Z>(buf);
        for x in x.iter_mut() {
            *x = _mm512_xor_si512(*x, t.rk[0]);
        }
        leave_blocks(&rounds(x, &t), buf);
    }
}

/// The inverse of [`encrypt_few_impl`]: nine rounds `S⁻¹(L⁻¹(x) ^ L⁻¹(K))`, then K_1.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[kernel(KUZNYECHIK_AVX512)]
unsafe fn decrypt_few_impl<const Z: usize>(keys: &ChainKeys, buf: &mut [u8]) {
    // SAFETY: as in `encrypt_few_impl`.
    unsafe {
        let t = inverse_tables(keys);
        let mut x = enter_blocks::<Z>(buf);
        for k in t.rk[1..].iter().rev() {
            for x in x.iter_mut() {
                *x = substitute(linear(*x, &t, *k), &t.sbox);
            }
        }
        for x in x.iter_mut() {
            *x = _mm512_xor_si512(*x, t.rk[0]);
        }
        leave_blocks(&x, buf);
    }
}

/// The most blocks [`few`] takes: up to three, one chain each beats the per-block path of
/// [`super::blocks`]; at four that path's one register is as fast. Decryption gains less, so
/// it stops at two (figures in `docs/perf/kuznyechik.md`).
const FEW: usize = 3;
const FEW_DECRYPT: usize = 2;

/// Whether [`few`] takes `len` bytes in the direction `decrypt`.
pub(super) fn is_few(len: usize, decrypt: bool) -> bool {
    let most = if decrypt { FEW_DECRYPT } else { FEW };
    len != 0 && len <= 16 * most
}

/// Encrypts one to [`FEW`] (or, with `decrypt`, decrypts one to [`FEW_DECRYPT`])
/// independent blocks in place, each a chain of its own: for a call this short the latency
/// of one block is the cost. Declined, and nothing done, for other lengths (see
/// [`is_few`]).
///
/// # Safety
/// The CPU runs [`KUZNYECHIK_AVX512`](crate::cpu::kernels::KUZNYECHIK_AVX512).
pub(super) unsafe fn few(keys: &ChainKeys, buf: &mut [u8], decrypt: bool) -> Ran {
    if !is_few(buf.len(), decrypt) {
        return Ran::Declined;
    }
    // SAFETY: the caller guarantees the features.
    unsafe {
        match (buf.len(), decrypt) {
            (16, false) => encrypt_few_impl::<1>(keys, buf),
            (32, false) => encrypt_few_impl::<2>(keys, buf),
            (48, false) => encrypt_few_impl::<3>(keys, buf),
            (16, true) => decrypt_few_impl::<1>(keys, buf),
            (32, true) => decrypt_few_impl::<2>(keys, buf),
            _ => return Ran::Declined,
        }
    }
    Ran::Done
}
