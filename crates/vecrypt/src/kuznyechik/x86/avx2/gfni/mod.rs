//! The sliced AVX2 kernel on CPUs with GFNI (on YMM, no AVX-512): π through GF(16)
//! arithmetic carried out inside the AES field, where GF2P8MULB and GF2P8AFFINEINVQB compute
//! the products and the inverse of the decomposition in one instruction each.
//!
//! GF(16) is the subfield S of the AES field, so a field isomorphism E from the GF(16) of
//! the decomposition (modulo x^4 + x^3 + 1) onto S turns every product of nibbles into one
//! GF2P8MULB and r⁻¹ into one GF2P8AFFINEINVQB. A product lands in a coset g·S when one
//! factor carries the constant g; for one coset the low nibble of its sixteen elements is
//! distinct and bit 7 is clear, so the product itself indexes a VPSHUFB table without being
//! mapped back to a nibble ([`COSET`]).
//!
//! The state between rounds is not the plain byte but a fixed linear map of it, one per
//! direction, chosen so that the S-box output needs no final linear map:
//! - encryption keeps `Ť(ω(l' ‖ r')) = r' << 4 | l'`, so π's output is the XOR of the ν
//!   lookup (l') and the σ lookup (r' placed high);
//! - decryption keeps `D(α⁻¹(l ‖ r)) = g²·E(l) ⊕ g·E(r)`, the two products as they come out of
//!   GF2P8MULB.
//!
//! L commutes with this change of representation: each multiplication by a constant becomes
//! another 8x8 bit matrix (still one GF2P8AFFINEQB) and the XORs are unchanged. The round key
//! after L is moved before it as L⁻¹(K) and folded into the σ table of each byte position,
//! so encryption has no key XOR inside the rounds.
//!
//! Per register (32 blocks, one byte each) and round: 13 instructions for π (12 for π⁻¹, plus
//! the key XOR) and 22 for one R step (7 GF2P8AFFINEQB and 15 XORs). Encryption runs the
//! S-boxes of the next round in two groups of eight between the R steps ([`FIRST_RUN_AFTER`]).
//!
//! CTR: 32 consecutive counters whose last byte does not wrap share their first fifteen
//! bytes, so the first round computes π of those once on one block, and L by linearity as
//! that block's image (broadcast) plus the last byte's column of L; only the last byte runs
//! sliced through π in that round.

use core::arch::x86_64::*;

use super::batch::{Pad, for_each_batch, load, r_inv_step, r_step, store};
use super::pair::{L_INV_COLUMNS_AES, lane_linear};
use super::tables::{BATCH, Tables, broadcast16, tables, xor};
use crate::kuznyechik::RoundKeys;

pub(super) mod ctr;
mod field;

use field::*;

/// The registers of one direction.
struct Kernel {
    to_rep: __m256i,
    from_rep: __m256i,
    first: __m256i,
    second: __m256i,
    times_coset: __m256i,
    top_bit_unless_zero: __m256i,
    tables: [__m256i; 4],
    /// The R steps of the AVX2 kernel read their matrices from here.
    ring: Tables,
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn kernel(m: &Matrices, t: &[[u8; 16]; 4], inverse: bool) -> Kernel {
    // SAFETY: AVX2 and GFNI are enabled by the caller; the loads read whole 16-byte rows.
    unsafe {
        let mut ring = tables(inverse);
        for (a, c) in ring.affine.iter_mut().zip(m.muls) {
            *a = _mm256_set1_epi64x(c as i64);
        }
        Kernel {
            to_rep: _mm256_set1_epi64x(m.to_rep as i64),
            from_rep: _mm256_set1_epi64x(m.from_rep as i64),
            first: _mm256_set1_epi64x(m.first as i64),
            second: _mm256_set1_epi64x(m.second as i64),
            times_coset: _mm256_set1_epi64x(TIMES_COSET as i64),
            top_bit_unless_zero: broadcast16(&TOP_BIT_UNLESS_ZERO),
            tables: [
                broadcast16(&t[0]),
                broadcast16(&t[1]),
                broadcast16(&t[2]),
                broadcast16(&t[3]),
            ],
            ring,
        }
    }
}

/// `0x80` where `x` (an element of g·S) is non-zero, zero elsewhere: a lookup, on the
/// shuffle port, rather than VPSIGNB, which competes with the GF2P8 instructions.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn top_bit_unless_zero(x: __m256i, k: &Kernel) -> __m256i {
    // SAFETY: register-only AVX2 operation, enabled by the caller.
    unsafe { _mm256_shuffle_epi8(k.top_bit_unless_zero, x) }
}

/// π on every byte of `x` (in the encryption representation), plus `sigma_key`'s XOR
/// folded in the σ table: (l, r) = α(x); l' = ν1(l ⊙ r⁻¹), or ν0(l) where r = 0;
/// r' = σ(r ⊙ φ(l')); the output `r' << 4 | l'` is π(x) in the representation.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn substitute(x: __m256i, k: &Kernel, sigma_key: __m256i) -> __m256i {
    // SAFETY: register-only AVX2 and GFNI operations, enabled by the caller.
    unsafe {
        let [nu1, nu0, phi, _] = k.tables;
        let r = _mm256_gf2p8affine_epi64_epi8::<0>(x, k.first);
        let l = _mm256_gf2p8affine_epi64_epi8::<0>(x, k.second);
        let quotient =
            _mm256_gf2p8mul_epi8(l, _mm256_gf2p8affineinv_epi64_epi8::<0>(r, k.times_coset));
        // The ν0 lookup gives zero unless r = 0, when the quotient is zero and its ν1 lookup
        // gives ν1(0), which the ν0 table cancels.
        let l_out = xor(
            _mm256_shuffle_epi8(nu1, quotient),
            _mm256_shuffle_epi8(nu0, _mm256_or_si256(l, top_bit_unless_zero(r, k))),
        );
        let product = _mm256_gf2p8mul_epi8(r, _mm256_shuffle_epi8(phi, l_out));
        xor(l_out, _mm256_shuffle_epi8(sigma_key, product))
    }
}

/// π⁻¹ on every byte of `x` (in the decryption representation): (l', r') = ω⁻¹(x);
/// r = σ⁻¹(r') ⊙ φ(l')⁻¹; l = ν1⁻¹(l') ⊙ r, or ν0⁻¹(l') where r = 0; the output
/// `g²·E(l) ⊕ g·E(r)` is π⁻¹(x) in the representation.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn substitute_inverse(x: __m256i, k: &Kernel) -> __m256i {
    // SAFETY: register-only AVX2 and GFNI operations, enabled by the caller.
    unsafe {
        let [sigma_inv, phi_inv, nu1_inv, nu0_inv] = k.tables;
        let l_in = _mm256_gf2p8affine_epi64_epi8::<0>(x, k.first);
        let r_in = _mm256_gf2p8affine_epi64_epi8::<0>(x, k.second);
        let r = _mm256_gf2p8mul_epi8(
            _mm256_shuffle_epi8(sigma_inv, r_in),
            _mm256_shuffle_epi8(phi_inv, l_in),
        );
        let l = _mm256_gf2p8mul_epi8(_mm256_shuffle_epi8(nu1_inv, l_in), r);
        // Zero unless r = 0, when `l` above is zero.
        let l_where_r_is_zero =
            _mm256_shuffle_epi8(nu0_inv, _mm256_or_si256(l_in, top_bit_unless_zero(r, k)));
        xor(xor(l, l_where_r_is_zero), r)
    }
}

/// The keys of one call, derived from the round keys and zeroized on drop.
struct CallKeys {
    /// Encryption: per round and byte position, the σ table XOR the byte of Ť(L⁻¹(K_{i+1})).
    /// Decryption: per round and byte position, the byte of D(K_i) in all 16 bytes.
    /// Whole 16-byte words, so that zeroizing takes one write per row rather than sixteen.
    rows: [u128; 9 * 16],
    /// Encryption: Ť(L⁻¹(K_2)), the key the first round's σ tables carry, as one block.
    first_round: u128,
}

impl Drop for CallKeys {
    fn drop(&mut self) {
        crate::wipe::array(&mut self.rows);
        crate::wipe::value(&mut self.first_round);
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn forward_keys(rk: &RoundKeys, k: &Kernel) -> CallKeys {
    // SAFETY: AVX2 and GFNI are enabled by the caller; loads read 16-byte round keys and
    // stores write 16-byte rows of `keys`.
    unsafe {
        let mut columns = [_mm256_setzero_si256(); 16];
        for (c, row) in columns.iter_mut().zip(&L_INV_COLUMNS_AES) {
            *c = broadcast16(row);
        }
        let mut keys = CallKeys {
            rows: [0; 9 * 16],
            first_round: 0,
        };
        let sigma = _mm256_castsi256_si128(k.tables[3]);
        let to_rep = _mm256_castsi256_si128(k.to_rep);
        for round in 0..9 {
            let key = _mm256_zextsi128_si256(_mm_loadu_si128(rk.0[round + 1].as_ptr().cast()));
            let moved = _mm_gf2p8affine_epi64_epi8::<0>(
                _mm256_castsi256_si128(lane_linear(key, &columns)),
                to_rep,
            );
            if round == 0 {
                _mm_storeu_si128((&raw mut keys.first_round).cast(), moved);
            }
            for position in 0..16 {
                let byte = _mm_shuffle_epi8(moved, _mm_set1_epi8(position as i8));
                _mm_storeu_si128(
                    (&raw mut keys.rows[16 * round + position]).cast(),
                    _mm_xor_si128(sigma, byte),
                );
            }
        }
        keys
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn inverse_keys(rk: &RoundKeys, k: &Kernel) -> CallKeys {
    // SAFETY: as in `forward_keys`.
    unsafe {
        let mut keys = CallKeys {
            rows: [0; 9 * 16],
            first_round: 0,
        };
        let to_rep = _mm256_castsi256_si128(k.to_rep);
        for round in 0..9 {
            let moved = _mm_gf2p8affine_epi64_epi8::<0>(
                _mm_loadu_si128(rk.0[round].as_ptr().cast()),
                to_rep,
            );
            for position in 0..16 {
                let byte = _mm_shuffle_epi8(moved, _mm_set1_epi8(position as i8));
                _mm_storeu_si128((&raw mut keys.rows[16 * round + position]).cast(), byte);
            }
        }
        keys
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn row(keys: &CallKeys, round: usize, position: usize) -> __m256i {
    // SAFETY: AVX2 is enabled by the caller; the load reads one 16-byte row.
    unsafe {
        _mm256_broadcastsi128_si256(_mm_loadu_si128(
            (&raw const keys.rows[16 * round + position]).cast(),
        ))
    }
}

type State = [__m256i; 16];

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn sbox<const I: usize>(s: &mut State, k: &Kernel, keys: &CallKeys, round: usize) {
    // SAFETY: register-only operations and one row load, enabled by the caller.
    unsafe { s[I] = substitute(s[I], k, row(keys, round, I)) }
}

/// The R step after which encryption runs the S-boxes of the bytes completed by steps 0..8;
/// those of steps 8..16 run after the last step. Two runs of eight keep the tables in
/// registers, and the first one, started a few steps late, overlaps the chain of the last R
/// steps. Measured: about 3% faster than running the first eight right after step 7, 5%
/// faster than one S-box after every step and 13% faster than all sixteen after the last
/// step. Decryption measures fastest with its S-boxes after the last step.
const FIRST_RUN_AFTER: usize = 10;

/// R step `STEP` of one round, then the S-boxes (for the next round) due after it, into
/// `next`.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn step_then_sbox<const STEP: usize>(
    s: &mut State,
    next: &mut State,
    k: &Kernel,
    keys: &CallKeys,
    round: usize,
) {
    // SAFETY: register-only operations and one row load, enabled by the caller.
    unsafe {
        r_step::<STEP, true>(s, &k.ring);
        let completed_by = match STEP {
            FIRST_RUN_AFTER => 0..8,
            15 => 8..16,
            _ => 0..0,
        };
        for j in completed_by {
            // Step j wrote byte 15 - j.
            let done = 15 - j;
            next[done] = substitute(s[done], k, row(keys, round, done));
        }
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn sbox_inverse<const I: usize>(s: &mut State, k: &Kernel, keys: &CallKeys, round: usize) {
    // SAFETY: as in `sbox`.
    unsafe { s[I] = xor(substitute_inverse(s[I], k), row(keys, round, I)) }
}

/// The first key in plain form, then the representation.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn enter<const I: usize>(s: &mut State, k: &Kernel, key: &[u8; 16]) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let keyed = xor(s[I], _mm256_set1_epi8(key[I] as i8));
        s[I] = _mm256_gf2p8affine_epi64_epi8::<0>(keyed, k.to_rep);
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn leave<const I: usize>(s: &mut State, k: &Kernel) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe { s[I] = _mm256_gf2p8affine_epi64_epi8::<0>(s[I], k.from_rep) }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn encrypt_state(s: &mut State, k: &Kernel, keys: &CallKeys, rk: &RoundKeys) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        unroll16!(enter(s, k, &rk.0[0]));
        rounds_from(s, k, keys, 0);
    }
}

/// Rounds `first..9` on the input of the S-boxes of round `first`, then back to plain bytes.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn rounds_from(s: &mut State, k: &Kernel, keys: &CallKeys, first: usize) {
    // SAFETY: register-only operations and row loads, enabled by the caller.
    unsafe {
        unroll16!(sbox(s, k, keys, first));
        for round in first + 1..9 {
            let mut next = *s;
            unroll16!(step_then_sbox(s, &mut next, k, keys, round));
            *s = next;
        }
        unroll16!(r_step[true](s, &k.ring));
        unroll16!(leave(s, k));
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn decrypt_state(s: &mut State, k: &Kernel, keys: &CallKeys, rk: &RoundKeys) {
    // SAFETY: register-only operations and row loads, enabled by the caller.
    unsafe {
        unroll16!(enter(s, k, &rk.0[9]));
        // Unlike encryption, interleaving the S-boxes with the R⁻¹ steps measures slower.
        for round in (0..9).rev() {
            unroll16!(r_inv_step[true](s, &k.ring));
            unroll16!(sbox_inverse(s, k, keys, round));
        }
        unroll16!(leave(s, k));
    }
}

/// ECB encryption of whole blocks, batches of 32 (the last padded).
///
/// # Safety
/// The CPU must have AVX2 and GFNI.
#[inline(always)]
pub(super) unsafe fn encrypt(rk: &RoundKeys, buf: &mut [u8]) {
    // SAFETY: AVX2 and GFNI are enabled by the caller.
    unsafe {
        let k = kernel(&FORWARD, &FORWARD_TABLES, false);
        let keys = forward_keys(rk, &k);
        for_each_batch!(buf, |batch| {
            let mut s = load(batch);
            encrypt_state(&mut s, &k, &keys, rk);
            store(&s, batch);
        });
    }
}

/// ECB decryption of whole blocks.
///
/// # Safety
/// The CPU must have AVX2 and GFNI.
#[inline(always)]
pub(super) unsafe fn decrypt(rk: &RoundKeys, buf: &mut [u8]) {
    // SAFETY: AVX2 and GFNI are enabled by the caller.
    unsafe {
        let k = kernel(&INVERSE, &INVERSE_TABLES, true);
        let keys = inverse_keys(rk, &k);
        for_each_batch!(buf, |batch| {
            let mut s = load(batch);
            decrypt_state(&mut s, &k, &keys, rk);
            store(&s, batch);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kuznyechik::consts::{PI, PI_INV, aes_mul, gf_mul};

    /// The kernel's S-box steps, byte by byte, give π and π⁻¹ in their representations.
    #[test]
    fn field_sbox_is_pi() {
        let apply = |m: u64, x: u8| {
            let mut out = 0u8;
            for bit in 0..8 {
                let row = (m >> (8 * (7 - bit))) as u8;
                out |= (((row & x).count_ones() & 1) as u8) << bit;
            }
            out
        };
        let lookup = |t: &[u8; 16], i: u8| {
            if i & 0x80 != 0 {
                0
            } else {
                t[(i & 15) as usize]
            }
        };
        let inverse = |v: u8| (1..=255u8).find(|&w| aes_mul(v, w) == 1).unwrap_or(0);
        let top = |v: u8| lookup(&TOP_BIT_UNLESS_ZERO, v);
        let [nu1, nu0, phi, sigma] = FORWARD_TABLES;
        let [sigma_inv, phi_inv, nu1_inv, nu0_inv] = INVERSE_TABLES;
        for x in 0..=255u8 {
            let rep = apply(FORWARD.to_rep, x);
            assert_eq!(apply(FORWARD.from_rep, rep), x);
            let r = apply(FORWARD.first, rep);
            let l = apply(FORWARD.second, rep);
            let l_out =
                lookup(&nu1, aes_mul(l, apply(TIMES_COSET, inverse(r)))) ^ lookup(&nu0, l | top(r));
            let out = l_out ^ lookup(&sigma, aes_mul(r, lookup(&phi, l_out)));
            assert_eq!(apply(FORWARD.from_rep, out), PI[x as usize], "π({x})");

            let rep = apply(INVERSE.to_rep, x);
            assert_eq!(apply(INVERSE.from_rep, rep), x);
            let l_in = apply(INVERSE.first, rep);
            let r_in = apply(INVERSE.second, rep);
            let r = aes_mul(lookup(&sigma_inv, r_in), lookup(&phi_inv, l_in));
            let l = aes_mul(lookup(&nu1_inv, l_in), r) ^ lookup(&nu0_inv, l_in | top(r));
            assert_eq!(
                apply(INVERSE.from_rep, l ^ r),
                PI_INV[x as usize],
                "π⁻¹({x})"
            );
        }
        for (m, c) in FORWARD.muls.iter().zip(COEFFICIENTS) {
            for x in 0..=255u8 {
                let plain = apply(FORWARD.from_rep, x);
                assert_eq!(apply(*m, x), apply(FORWARD.to_rep, gf_mul(plain, c)));
            }
        }
    }
}
