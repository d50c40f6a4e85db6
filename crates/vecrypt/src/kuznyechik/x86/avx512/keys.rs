//! The key material of the AVX-512 kernels that is kept with the cipher: the round-key
//! shares of each direction, the first-round tables of counter batches and the round keys
//! of the chain path, each made on its first use.

use core::arch::x86_64::*;

use super::batch::{Shares, r_inv_sum, r_sum, written};
use super::chain::{ChainKeys, chain_keys};
use super::counters::{ColumnTable, Counting, FirstRound, column_table};
use super::tables::{State, xor};
use crate::cache::Cache;
use crate::cpu::kernel;
use crate::kuznyechik::RoundKeys;

/// One step of the computation of the shares (see [`Shares`]): `z` holds the sixteen
/// bytes of a linear layer run on zero input, `target` the key it must end up equal to.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn share_step<const STEP: usize, const INV: bool>(
    z: &mut State,
    target: &State,
    out: &mut State,
    m: &[__m512i; 7],
) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let zero = _mm512_setzero_si512();
        let t = if INV {
            r_inv_sum::<STEP>(z, m, zero)
        } else {
            r_sum::<STEP>(z, m, zero)
        };
        let w = written::<STEP, INV>();
        out[STEP] = xor(t, target[w]);
        z[w] = target[w];
    }
}

/// One R (or R⁻¹) step with no key share, for the computation of the shares.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn plain_step<const STEP: usize, const INV: bool>(s: &mut State, m: &[__m512i; 7]) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let zero = _mm512_setzero_si512();
        s[written::<STEP, INV>()] = if INV {
            r_inv_sum::<STEP>(s, m, zero)
        } else {
            r_sum::<STEP>(s, m, zero)
        };
    }
}

/// The shares of one cipher, made on the first call in each direction and kept with the
/// cipher: made per call, they slowed every batch of that call, more than making them
/// costs, and a memory fence after making them did not help (`docs/perf/kuznyechik.md`).
/// Kept, they make a one-batch call cost the same per batch as a long one.
/// Kept, they make a one-batch call cost the same per batch as a long one.
///
/// The tables of [`ColumnTable`] for counter batches are kept the same way, one per kind of
/// counter that has run (the whole block and MGM's right half share one), and so are the
/// round keys of the chain path ([`ChainKeys`]).
#[derive(Clone, Default)]
pub(in super::super) struct SlicedKeys {
    encrypt: Cache<Shares>,
    decrypt: Cache<Shares>,
    low_byte_15: Cache<ColumnTable>,
    low_byte_7: Cache<ColumnTable>,
    chain: Cache<ChainKeys>,
}

impl SlicedKeys {
    /// The shares of one direction, made on first use; the slot follows from `inverse`, so
    /// a direction can never read the other's.
    ///
    /// # Safety
    /// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
    /// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
    /// those features themselves.
    #[inline(always)]
    pub(super) unsafe fn get(&self, rk: &RoundKeys, m: &[__m512i; 7], inverse: bool) -> &Shares {
        let slot = if inverse {
            &self.decrypt
        } else {
            &self.encrypt
        };
        // SAFETY: called only from functions that enable the features `shares` needs.
        slot.get_or_init(|| unsafe { shares(rk, m, inverse) })
    }

    /// The round keys of the chain path, both directions, made on first use.
    ///
    /// # Safety
    /// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
    /// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
    /// those features themselves.
    #[inline(always)]
    pub(super) unsafe fn chain(&self, rk: &RoundKeys) -> &ChainKeys {
        // SAFETY: called only from functions that enable the features `chain_keys` needs.
        self.chain.get_or_init(|| unsafe { chain_keys(rk) })
    }

    /// What a call's counter batches of `counting` need to start at the second round; the
    /// first-round table is made on first use.
    ///
    /// # Safety
    /// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
    /// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
    /// those features themselves.
    #[inline(always)]
    pub(super) unsafe fn first_round(
        &self,
        rk: &RoundKeys,
        sbox: &[__m512i; 4],
        counting: Counting,
    ) -> FirstRound<'_> {
        let slot = match counting {
            Counting::Whole | Counting::Right => &self.low_byte_15,
            Counting::Left => &self.low_byte_7,
        };
        // SAFETY: called only from functions that enable the features `column_table` and
        // `FirstRound::new` need.
        unsafe {
            let table = slot.get_or_init(|| column_table(&rk.0[0], counting, sbox));
            FirstRound::new(rk, table, counting)
        }
    }
}

/// Called from the `OnceLock` initializer, a closure that inherits no target features: the
/// attribute here, not inlining into an AVX-512 caller, is what keeps its intrinsics inline
/// (without it every one became a call; see `docs/perf/kuznyechik.md`).
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[kernel(KUZNYECHIK_AVX512)]
unsafe fn shares(rk: &RoundKeys, m: &[__m512i; 7], inverse: bool) -> Shares {
    // SAFETY: register-only operations, enabled by the caller, and loads and stores of
    // whole 64-byte rows of fixed-size arrays.
    unsafe {
        // Lane r of register j: byte j of K_{r+2}.
        let mut sliced = [[0u8; 64]; 16];
        for (j, row) in sliced.iter_mut().enumerate() {
            for (r, lane) in row.iter_mut().take(9).enumerate() {
                *lane = rk.0[r + 1][j];
            }
        }
        let mut target = [_mm512_setzero_si512(); 16];
        for (v, row) in target.iter_mut().zip(&sliced) {
            *v = _mm512_loadu_si512(row.as_ptr().cast());
        }
        let mut z = [_mm512_setzero_si512(); 16];
        let mut out = [_mm512_setzero_si512(); 16];
        if inverse {
            unroll16!(plain_step[true](&mut target, m));
            unroll16!(share_step[true](&mut z, &target, &mut out, m));
        } else {
            unroll16!(share_step[false](&mut z, &target, &mut out, m));
        }
        for (row, v) in sliced.iter_mut().zip(out) {
            _mm512_storeu_si512(row.as_mut_ptr().cast(), v);
        }
        let mut result = Shares([[0u32; 16]; 9]);
        for (r, round) in result.0.iter_mut().enumerate() {
            for (s, word) in round.iter_mut().enumerate() {
                *word = u32::from(sliced[s][r]) * 0x0101_0101;
            }
        }
        crate::wipe::bytes(sliced.as_flattened_mut());
        result
    }
}
