//! Byte-sliced Kuznyechik on AVX-512: 64 blocks per batch, constant time.
//!
//! Sixteen ZMM registers hold the state; register `j` holds byte `j` of all 64 blocks. In
//! that layout every step of the cipher is the same operation on every lane:
//! - S is a lookup in the 256-byte π held in four registers: four VPERMB, one per 64-entry
//!   quarter, merged under masks of the index's two top bits (see [`substitute`]). The
//!   whole table is read by every lookup, so no address depends on data.
//! - L is sixteen R steps. One R step is a sum of sixteen bytes times public constants; each
//!   constant multiplication in Kuznyechik's field is a fixed GF(2)-linear map, which is one
//!   GF2P8AFFINEQB. The coefficients read the same backwards, so bytes sharing a coefficient
//!   are XORed first: seven multiplications per step instead of fifteen. The shift of R is
//!   free: the sixteen registers are a ring and only the index of its start moves.
//! - The round keys K2..K10 cost nothing: each is split into sixteen shares added by the
//!   last three-input XOR of each R step (see [`Shares`]), from a dword broadcast operand.
//!
//! Cost of one round for 64 blocks: S is 16 x (4 VPERMB, VPTESTMB, VPMOVB2M, KANDQ) = 112
//! µops; each R step is 6 XORs folding the palindrome, 7 GF2P8AFFINEQB and 5 VPTERNLOGQ =
//! 18, so L is 288; 400 in all, with no register copies. A core that issues two 512-bit
//! µops per cycle (ports 0 and 5) needs at least 200 cycles a round; measured, a round
//! takes about 209, and entering and leaving the sliced layout about 180 a batch. That is
//! about 2.0 cycles per byte, 1.8 GB/s at 3.6 GHz. The affine multiplications alone (112 a
//! round on port 0) would bound it at 1.0 cycle per byte.
//!
//! L could also run as a transposed circuit. With M the matrix of L and J the byte
//! reversal, Mᵀ = D(α) J M J D(β) for two vectors of per-byte scalings, so L = J D(α)⁻¹ Mᵀ
//! D(β)⁻¹ J; Mᵀ = (Rᵀ)^16 is an LFSR in Galois form whose seven products of a step each
//! feed two positions, 112 GF2P8AFFINEQB and 128 VPTERNLOGQ a round (48 µops fewer), and
//! the scalings fit into one S-box table per byte position. Measured, that round is no
//! faster (about 207 cycles against 209): every output of the Galois circuit waits for its
//! last step, so the S layer (bound by port 5) and L (bound by port 0) run as alternating
//! phases instead of mixing as the R steps let them, and port 0 carries 144 µops a round
//! in both forms.
//!
//! Blocks enter and leave the sliced layout through VPERMB (grouping each byte position of
//! four blocks into one dword) and a 16x16 dword transpose. CTR never builds its counter
//! blocks: a batch enters the sliced layout at its second round, made from a per-key table
//! ([`super::avx512_counters`]), and the keystream is XORed into the data as it leaves.
//!
//! Short inputs (fewer than [`SMALL_LIMIT`] blocks) take another
//! path that costs per block rather than per batch (calls of up to three blocks encrypting
//! or two decrypting, bound by the latency of one block, take the chain path of
//! [`super::avx512_chain`] instead): four blocks per register, one per
//! 128-bit lane, in the image of Kuznyechik's field under an isomorphism φ onto the AES
//! field. There every constant multiplication is a GF2P8MULB, so L is sixteen products of
//! an in-lane byte broadcast (VPSHUFB) with a column of L's matrix, XORed; S is the same
//! lookup in the conjugated table φ∘π∘φ⁻¹; keys are mapped by φ (a GF2P8AFFINEQB)
//! and data once on the way in and out.

use core::arch::x86_64::*;
use std::sync::OnceLock;

use super::RoundKeys;
use super::avx512_chain::{ChainKeys, chain_keys};
pub(super) use super::avx512_counters::Counting;
use super::avx512_counters::{ColumnTable, FirstRound, column_table};
use super::consts::{
    ELL, PHI, PHI_INV, PI, PI_INV, ROUND_CONSTANTS, affine_matrix, conjugate_by_phi, matrix_of,
    phi_columns,
};
use crate::cpu::{kernel, kernels};

/// Blocks per batch: one byte of each in every lane of a ZMM register.
pub(super) const LANES: usize = 64;
/// Bytes per batch.
pub(super) const BATCH: usize = LANES * 16;

/// Below this many blocks a call takes the per-block path: about 29 ns a block there
/// against about 585 ns for a padded batch.
const SMALL_LIMIT: usize = 21;

/// Whether this CPU can run the backend.
pub(super) fn available() -> bool {
    kernels::KUZNYECHIK_AVX512.runs()
}

pub(super) type State = [__m512i; 16];

/// The public constants of one direction, loaded into registers once per call.
pub(super) struct Tables {
    pub(super) sbox: [__m512i; 4],
    /// Multipliers for the seven distinct non-trivial coefficients of ℓ, in the order
    /// 148, 32, 133, 16, 194, 192, 251.
    pub(super) mul: [__m512i; 7],
}

const MATRICES: [u64; 7] = [
    affine_matrix(ELL[0]),
    affine_matrix(ELL[1]),
    affine_matrix(ELL[2]),
    affine_matrix(ELL[3]),
    affine_matrix(ELL[4]),
    affine_matrix(ELL[5]),
    affine_matrix(ELL[7]),
];

#[inline(always)]
pub(super) unsafe fn tables(sbox: &[u8; 256]) -> Tables {
    // SAFETY: the caller runs with AVX-512F/BW/VBMI/GFNI enabled; the loads read 256 bytes of
    // a 256-byte array, 64 at a time, unaligned loads being allowed.
    unsafe {
        let p = sbox.as_ptr();
        let mut t = Tables {
            sbox: [
                _mm512_loadu_si512(p.cast()),
                _mm512_loadu_si512(p.add(64).cast()),
                _mm512_loadu_si512(p.add(128).cast()),
                _mm512_loadu_si512(p.add(192).cast()),
            ],
            mul: [_mm512_setzero_si512(); 7],
        };
        for (m, c) in t.mul.iter_mut().zip(MATRICES) {
            *m = _mm512_set1_epi64(c as i64);
        }
        t
    }
}

/// The 256-byte table lookup on every byte of `x`: four single-register VPERMB lookups,
/// one per 64-entry quarter, each merged into the result under the mask of the lanes whose
/// index bits 6 and 7 select that quarter (later lookups overwrite earlier ones). The whole
/// table is read by every lookup, so no address depends on data.
///
/// On the cores measured, a two-register VPERMI2B costs two cycles of port 5 plus a third
/// µop, while VPERMB costs one: this form is 7 µops where two masked VPERMI2B are 8, with
/// three fewer cycles on port 5, which the S layer saturates.
#[inline(always)]
pub(super) unsafe fn substitute(x: __m512i, t: &[__m512i; 4]) -> __m512i {
    // SAFETY: register-only AVX-512BW/VBMI operations, enabled by the caller.
    unsafe {
        let [bit6, bit7, both] = quarter_masks(x);
        let r = _mm512_permutexvar_epi8(x, t[0]);
        let r = _mm512_mask_permutexvar_epi8(r, bit6, x, t[1]);
        let r = _mm512_mask_permutexvar_epi8(r, bit7, x, t[2]);
        _mm512_mask_permutexvar_epi8(r, both, x, t[3])
    }
}

/// The lanes of `x` with bit 6 set, with bit 7 set, and with both. Written in assembly
/// because the compiler turns the same masks written with intrinsics into comparisons and
/// blends that load port 5 further (measured 3 to 5% slower). The mask registers in `asm!`
/// need the feature on this function itself, which rules out `#[inline(always)]`; every
/// caller enables a superset of it, and the generated code has it inlined.
#[kernel(KUZNYECHIK_MASKS_AVX512BW)]
#[inline]
unsafe fn quarter_masks(x: __m512i) -> [u64; 3] {
    let (bit6, bit7, both): (u64, u64, u64);
    // SAFETY: three register-only AVX-512BW instructions (a test on port 5, a sign-bit move
    // and a mask AND on port 0), enabled by the caller and by this function's attribute; no
    // memory, stack or flags are touched.
    unsafe {
        core::arch::asm!(
            "vptestmb {bit6}, {x:z}, {b6:z}",
            "vpmovb2m {bit7}, {x:z}",
            "kandq {both}, {bit6}, {bit7}",
            x = in(zmm_reg) x,
            b6 = in(zmm_reg) _mm512_set1_epi8(0x40),
            bit6 = out(kreg) bit6,
            bit7 = out(kreg) bit7,
            both = out(kreg) both,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    [bit6, bit7, both]
}

#[inline(always)]
pub(super) unsafe fn mul(x: __m512i, m: __m512i) -> __m512i {
    // SAFETY: register-only GFNI operation, enabled by the caller.
    unsafe { _mm512_gf2p8affine_epi64_epi8::<0>(x, m) }
}

#[inline(always)]
pub(super) unsafe fn xor(a: __m512i, b: __m512i) -> __m512i {
    // SAFETY: register-only AVX-512F operation, enabled by the caller.
    unsafe { _mm512_xor_si512(a, b) }
}

#[inline(always)]
unsafe fn xor3(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    // SAFETY: register-only AVX-512F operation, enabled by the caller.
    unsafe { _mm512_ternarylogic_epi64::<0x96>(a, b, c) }
}

/// The sum of one R step: `fresh` is the product that involves the byte the previous step
/// produced, added last so that the chain from step to step is one XOR, one
/// multiplication and one XOR long; `others` are the remaining multiplied pairs, `ones`
/// the bytes whose coefficient is 1 and `inject` the round-key share of this step. Eleven
/// terms take five three-input XORs, the same as ten would.
#[inline(always)]
unsafe fn sum_products(
    fresh: __m512i,
    others: [__m512i; 6],
    ones: [__m512i; 3],
    inject: __m512i,
) -> __m512i {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let a = xor3(others[0], others[1], others[2]);
        let b = xor3(others[3], others[4], others[5]);
        let c = xor3(ones[0], ones[1], ones[2]);
        xor3(xor3(a, b, c), inject, fresh)
    }
}

/// The round-key share `k` of one step as a vector: a dword broadcast, which the compiler
/// takes straight from memory as an operand of the last three-input XOR.
#[inline(always)]
unsafe fn share(k: u32) -> __m512i {
    // SAFETY: register-only AVX-512F operation, enabled by the caller.
    unsafe { _mm512_set1_epi32(k as i32) }
}

/// The sum of the `STEP`-th R step of L. Logical byte `k` lives in register
/// `(k - STEP) mod 16`.
#[inline(always)]
unsafe fn r_sum<const STEP: usize>(s: &State, m: &[__m512i; 7], inject: __m512i) -> __m512i {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let x = |k: usize| s[(k + 16 - STEP) % 16];
        sum_products(
            mul(xor(x(0), x(14)), m[0]),
            [
                mul(xor(x(1), x(13)), m[1]),
                mul(xor(x(2), x(12)), m[2]),
                mul(xor(x(3), x(11)), m[3]),
                mul(xor(x(4), x(10)), m[4]),
                mul(xor(x(5), x(9)), m[5]),
                mul(x(7), m[6]),
            ],
            [x(6), x(8), x(15)],
            inject,
        )
    }
}

/// The sum of the `STEP`-th R⁻¹ step of L⁻¹. Logical byte `k` lives in register
/// `(k + STEP) mod 16`.
#[inline(always)]
unsafe fn r_inv_sum<const STEP: usize>(s: &State, m: &[__m512i; 7], inject: __m512i) -> __m512i {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let y = |k: usize| s[(k + STEP) % 16];
        sum_products(
            mul(xor(y(1), y(15)), m[0]),
            [
                mul(xor(y(2), y(14)), m[1]),
                mul(xor(y(3), y(13)), m[2]),
                mul(xor(y(4), y(12)), m[3]),
                mul(xor(y(5), y(11)), m[4]),
                mul(xor(y(6), y(10)), m[5]),
                mul(y(8), m[6]),
            ],
            [y(7), y(9), y(0)],
            inject,
        )
    }
}

/// The register the `STEP`-th step of L (or of L⁻¹) overwrites: the one whose byte it
/// consumes last, so after sixteen steps the ring is back in place.
const fn written<const STEP: usize, const INV: bool>() -> usize {
    if INV { STEP } else { 15 - STEP }
}

/// One R (or R⁻¹) step with the round-key share `shares[STEP]` added to its output.
#[inline(always)]
unsafe fn step<const STEP: usize, const INV: bool>(
    s: &mut State,
    m: &[__m512i; 7],
    shares: &[u32; 16],
) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let inject = share(shares[STEP]);
        s[written::<STEP, INV>()] = if INV {
            r_inv_sum::<STEP>(s, m, inject)
        } else {
            r_sum::<STEP>(s, m, inject)
        };
    }
}

/// One step of the computation of the shares (see [`Shares`]): `z` holds the sixteen
/// bytes of a linear layer run on zero input, `target` the key it must end up equal to.
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

/// The round keys K_2..K_10 spread over the sixteen steps of the linear layer before them.
///
/// A key added after L (or before L⁻¹) costs sixteen XORs and sixteen byte broadcasts per
/// round. Every step of L writes one byte that no later step of the same L overwrites, and
/// L is linear, so adding a constant `d_s` fixed by the key to the output of step `s` (a
/// free fourth operand of its last three-input XOR) shifts the result of L by a linear
/// function of the `d_s`. Running the steps on zero input, choosing each `d_s` so that the
/// byte it writes equals the key byte, gives shares that make L's output come out with the
/// key already added. For L⁻¹ the key added before it appears after it as L⁻¹(K), which is
/// the target instead.
///
/// `shares[r][s]` is the share of step `s` in round `r` (K_{r+2}), its byte repeated four
/// times so that it loads as a dword broadcast. Zeroized on drop.
#[derive(Clone)]
pub(super) struct Shares([[u32; 16]; 9]);

impl Drop for Shares {
    fn drop(&mut self) {
        crate::wipe::u32s(self.0.as_flattened_mut());
    }
}

/// The shares of one cipher, made on the first call in each direction and kept with the
/// cipher. Making them takes about 550 cycles, but the measured cost of making them per
/// call was larger: every batch of such a call ran about 10% slower (16 KiB ECB, about 620
/// against 560 ns a batch), a loss that a memory fence after making them did not remove.
/// Kept, they make a one-batch call cost the same per batch as a long one.
///
/// The tables of [`ColumnTable`] for counter batches are kept the same way, one per kind of
/// counter that has run (the whole block and MGM's right half share one), and so are the
/// round keys of the chain path ([`ChainKeys`]).
#[derive(Clone, Default)]
pub(in crate::kuznyechik) struct SlicedKeys {
    encrypt: OnceLock<Box<Shares>>,
    decrypt: OnceLock<Box<Shares>>,
    low_byte_15: OnceLock<Box<ColumnTable>>,
    low_byte_7: OnceLock<Box<ColumnTable>>,
    chain: OnceLock<Box<ChainKeys>>,
}

impl SlicedKeys {
    /// The shares of one direction, made on first use; the slot follows from `inverse`, so
    /// a direction can never read the other's.
    #[inline(always)]
    pub(super) unsafe fn get(&self, rk: &RoundKeys, m: &[__m512i; 7], inverse: bool) -> &Shares {
        let slot = if inverse {
            &self.decrypt
        } else {
            &self.encrypt
        };
        // SAFETY: called only from functions that enable the features `shares` needs.
        slot.get_or_init(|| Box::new(unsafe { shares(rk, m, inverse) }))
    }

    /// The round keys of the chain path, both directions, made on first use.
    #[inline(always)]
    pub(super) unsafe fn chain(&self, rk: &RoundKeys) -> &ChainKeys {
        // SAFETY: called only from functions that enable the features `chain_keys` needs.
        self.chain
            .get_or_init(|| Box::new(unsafe { chain_keys(rk) }))
    }

    /// What a call's counter batches of `counting` need to start at the second round; the
    /// first-round table is made on first use.
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
            let table = slot.get_or_init(|| Box::new(column_table(&rk.0[0], counting, sbox)));
            FirstRound::new(rk, table, counting)
        }
    }
}

/// Called from the `OnceLock` initializer, a closure that inherits no target features: the
/// attribute here, not inlining into an AVX-512 caller, is what keeps its intrinsics inline
/// (without it every one became a call, about 1.5 µs a key).
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

/// `s[I] = S(s[I])`.
#[inline(always)]
unsafe fn sbox<const I: usize>(s: &mut State, t: &[__m512i; 4]) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe { s[I] = substitute(s[I], t) }
}

/// `s[I] ^= k[I]`.
#[inline(always)]
unsafe fn key<const I: usize>(s: &mut State, k: &[u8; 16]) {
    // SAFETY: register-only operations, enabled by the caller. The round key is broadcast
    // where it is used rather than kept expanded, so no copy of it outlives the call.
    unsafe { s[I] = xor(s[I], _mm512_set1_epi8(k[I] as i8)) }
}

/// `E = X[K10] L S X[K9] ... L S X[K1]`, with K2..K10 folded into the L steps.
#[inline(always)]
unsafe fn encrypt_state(s: &mut State, t: &Tables, rk: &RoundKeys, sh: &Shares) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        unroll16!(key(s, &rk.0[0]));
        for shares in &sh.0 {
            unroll16!(sbox(s, &t.sbox));
            unroll16!(step[false](s, &t.mul, shares));
        }
    }
}

/// E from the second round on, for a state that holds `L(S(x ^ K1)) ^ K2`.
#[inline(always)]
unsafe fn encrypt_after_first(s: &mut State, t: &Tables, sh: &Shares) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        for shares in &sh.0[1..] {
            unroll16!(sbox(s, &t.sbox));
            unroll16!(step[false](s, &t.mul, shares));
        }
    }
}

/// `D = X[K1] S⁻¹ L⁻¹ X[K2] ... S⁻¹ L⁻¹ X[K10]`, with K2..K10 folded into the L⁻¹ steps.
#[inline(always)]
unsafe fn decrypt_state(s: &mut State, t: &Tables, rk: &RoundKeys, sh: &Shares) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        for shares in sh.0.iter().rev() {
            unroll16!(step[true](s, &t.mul, shares));
            unroll16!(sbox(s, &t.sbox));
        }
        unroll16!(key(s, &rk.0[0]));
    }
}

/// `out[4j + b] = in[16b + j]`: byte position `j` of four blocks becomes dword `j`.
const GATHER: [u8; 64] = {
    let mut idx = [0u8; 64];
    let mut j = 0;
    while j < 16 {
        let mut b = 0;
        while b < 4 {
            idx[4 * j + b] = (16 * b + j) as u8;
            b += 1;
        }
        j += 1;
    }
    idx
};

/// The inverse of [`GATHER`].
const SCATTER: [u8; 64] = {
    let mut idx = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        idx[GATHER[i] as usize] = i as u8;
        i += 1;
    }
    idx
};

/// The dword indexes of one round of [`transpose_dwords`]: register `r` (with bit `shift`
/// of `r` clear) and register `r + shift` exchange the dwords `j` of the first whose bit
/// `shift` is set with the dwords `j - shift` of the second. Row 0 picks the new first
/// register, row 1 the new second.
const fn exchange(shift: usize) -> [[i32; 16]; 2] {
    let mut idx = [[0i32; 16]; 2];
    let mut j = 0;
    while j < 16 {
        let (lo, hi) = if j & shift != 0 {
            (16 + j - shift, 16 + j)
        } else {
            (j, j + shift)
        };
        idx[0][j] = lo as i32;
        idx[1][j] = hi as i32;
        j += 1;
    }
    idx
}

const EXCHANGE: [[[i32; 16]; 2]; 4] = [exchange(8), exchange(4), exchange(2), exchange(1)];

/// One round of [`transpose_dwords`], a function of its own per level so that every index
/// is a constant and the state stays in registers: with the level as a loop variable, the
/// loop gets compiled as a loop over the state in memory.
#[inline(always)]
unsafe fn exchange_round<const LEVEL: usize>(s: &mut State) {
    // SAFETY: register-only AVX-512F operations, enabled by the caller; the index loads
    // read 64-byte rows of a constant array.
    unsafe {
        let shift = 8 >> LEVEL;
        let low = _mm512_loadu_si512(EXCHANGE[LEVEL][0].as_ptr().cast());
        let high = _mm512_loadu_si512(EXCHANGE[LEVEL][1].as_ptr().cast());
        for r in 0..16 {
            if r & shift == 0 {
                let (a, b) = (s[r], s[r + shift]);
                s[r] = _mm512_permutex2var_epi32(a, low, b);
                s[r + shift] = _mm512_permutex2var_epi32(a, high, b);
            }
        }
    }
}

/// Transposes sixteen registers seen as a 16x16 matrix of dwords: four rounds of swapping
/// the off-diagonal halves of ever smaller blocks. It is its own inverse.
#[inline(always)]
unsafe fn transpose_dwords(s: &mut State) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        exchange_round::<0>(s);
        exchange_round::<1>(s);
        exchange_round::<2>(s);
        exchange_round::<3>(s);
    }
}

/// Loads 64 blocks into the sliced layout: lane `i` of register `j` is byte `j` of block `i`.
#[inline(always)]
unsafe fn load(src: &[u8; BATCH]) -> State {
    // SAFETY: each load reads 64 bytes at offset 64*r < 1024 of a 1024-byte array.
    unsafe {
        let gather = _mm512_loadu_si512(GATHER.as_ptr().cast());
        let mut s = [_mm512_setzero_si512(); 16];
        for (r, x) in s.iter_mut().enumerate() {
            let v = _mm512_loadu_si512(src.as_ptr().add(64 * r).cast());
            *x = _mm512_permutexvar_epi8(gather, v);
        }
        transpose_dwords(&mut s);
        s
    }
}

/// The inverse of [`load`].
#[inline(always)]
unsafe fn store(mut s: State, dst: &mut [u8; BATCH]) {
    // SAFETY: each store writes 64 bytes at offset 64*r < 1024 of a 1024-byte array.
    unsafe {
        transpose_dwords(&mut s);
        let scatter = _mm512_loadu_si512(SCATTER.as_ptr().cast());
        for (r, x) in s.iter().enumerate() {
            let v = _mm512_permutexvar_epi8(scatter, *x);
            _mm512_storeu_si512(dst.as_mut_ptr().add(64 * r).cast(), v);
        }
    }
}

/// [`SCATTER`] with the bytes of each block reversed.
const SCATTER_REVERSED: [u8; 64] = {
    let mut idx = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        idx[i] = SCATTER[i / 16 * 16 + 15 - i % 16];
        i += 1;
    }
    idx
};

/// The 64 blocks of a sliced state out of the layout, kept in registers, each block's
/// bytes reversed: register `r` holds blocks `4r..4r + 4`, one per 128-bit lane, as
/// little-endian integers of their big-endian bytes.
#[inline(always)]
pub(super) unsafe fn unsliced_reversed(mut s: State) -> State {
    // SAFETY: register-only operations, enabled by the caller, and one 64-byte load of a
    // constant array.
    unsafe {
        transpose_dwords(&mut s);
        let scatter = _mm512_loadu_si512(SCATTER_REVERSED.as_ptr().cast());
        for x in s.iter_mut() {
            *x = _mm512_permutexvar_epi8(scatter, *x);
        }
        s
    }
}

/// π and π⁻¹ seen through φ.
pub(super) const PI_PHI: [u8; 256] = conjugate_by_phi(&PI);
pub(super) const PI_INV_PHI: [u8; 256] = conjugate_by_phi(&PI_INV);
/// The columns of L and L⁻¹ through φ.
pub(super) const L_PHI: [[u8; 16]; 16] = phi_columns(false);
pub(super) const L_INV_PHI: [[u8; 16]; 16] = phi_columns(true);
/// φ and φ⁻¹ as GF2P8AFFINEQB matrices.
pub(super) const TO_PHI: u64 = matrix_of(&PHI);
pub(super) const FROM_PHI: u64 = matrix_of(&PHI_INV);

/// The constants of the per-block path for one direction, and the round keys through φ,
/// each in all four lanes.
pub(super) struct SmallTables {
    pub(super) sbox: [__m512i; 4],
    pub(super) columns: [__m512i; 16],
    pub(super) rk: [__m512i; 10],
}

#[inline(always)]
pub(super) unsafe fn small_tables(
    rk: &RoundKeys,
    sbox: &[u8; 256],
    columns: &[[u8; 16]; 16],
) -> SmallTables {
    // SAFETY: AVX-512F/BW/VL/VBMI and GFNI are enabled by the caller; every load reads
    // within a fixed-size array (64 bytes of the 256-byte table, 16 bytes of a 16-byte row).
    unsafe {
        let p = sbox.as_ptr();
        let to_phi = _mm_set1_epi64x(TO_PHI as i64);
        // Plain loops rather than `array::from_fn`: a generic helper that is not inlined
        // runs without the target features and takes every vector through memory.
        let mut t = SmallTables {
            sbox: [
                _mm512_loadu_si512(p.cast()),
                _mm512_loadu_si512(p.add(64).cast()),
                _mm512_loadu_si512(p.add(128).cast()),
                _mm512_loadu_si512(p.add(192).cast()),
            ],
            columns: [_mm512_setzero_si512(); 16],
            rk: [_mm512_setzero_si512(); 10],
        };
        for (c, row) in t.columns.iter_mut().zip(columns) {
            *c = _mm512_broadcast_i32x4(_mm_loadu_si128(row.as_ptr().cast()));
        }
        for (r, key) in t.rk.iter_mut().zip(&rk.0) {
            let k = _mm_loadu_si128(key.as_ptr().cast());
            *r = _mm512_broadcast_i32x4(_mm_gf2p8affine_epi64_epi8::<0>(k, to_phi));
        }
        t
    }
}

/// L (or L⁻¹, by its columns) on four blocks in the φ domain.
#[inline(always)]
pub(super) unsafe fn small_linear(y: __m512i, columns: &[__m512i; 16]) -> __m512i {
    // SAFETY: register-only AVX-512BW and GFNI operations, enabled by the caller.
    unsafe {
        let mut level = [_mm512_setzero_si512(); 16];
        for (k, (product, column)) in level.iter_mut().zip(columns).enumerate() {
            let spread = _mm512_shuffle_epi8(y, _mm512_set1_epi8(k as i8));
            *product = _mm512_gf2p8mul_epi8(spread, *column);
        }
        let mut width = 16;
        while width > 1 {
            width /= 2;
            for i in 0..width {
                level[i] = xor(level[i], level[i + width]);
            }
        }
        level[0]
    }
}

#[inline(always)]
unsafe fn small_encrypt(x: __m512i, t: &SmallTables) -> __m512i {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let mut y = _mm512_gf2p8affine_epi64_epi8::<0>(x, _mm512_set1_epi64(TO_PHI as i64));
        for round in 0..9 {
            y = substitute(xor(y, t.rk[round]), &t.sbox);
            y = small_linear(y, &t.columns);
        }
        y = xor(y, t.rk[9]);
        _mm512_gf2p8affine_epi64_epi8::<0>(y, _mm512_set1_epi64(FROM_PHI as i64))
    }
}

#[inline(always)]
unsafe fn small_decrypt(x: __m512i, t: &SmallTables) -> __m512i {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let mut y = _mm512_gf2p8affine_epi64_epi8::<0>(x, _mm512_set1_epi64(TO_PHI as i64));
        y = xor(y, t.rk[9]);
        for round in (0..9).rev() {
            y = small_linear(y, &t.columns);
            y = xor(substitute(y, &t.sbox), t.rk[round]);
        }
        _mm512_gf2p8affine_epi64_epi8::<0>(y, _mm512_set1_epi64(FROM_PHI as i64))
    }
}

/// Runs the per-block path over whole blocks, four at a time; the last group is loaded and
/// stored under a byte mask that depends only on the length.
#[inline(always)]
unsafe fn small_blocks(buf: &mut [u8], t: &SmallTables, decrypt: bool) {
    // SAFETY: full groups read and write 64 bytes inside `buf`; the last group touches only
    // the `rest.len() < 64` bytes its mask selects.
    unsafe {
        let mut groups = buf.chunks_exact_mut(64);
        for g in &mut groups {
            let x = _mm512_loadu_si512(g.as_ptr().cast());
            let y = if decrypt {
                small_decrypt(x, t)
            } else {
                small_encrypt(x, t)
            };
            _mm512_storeu_si512(g.as_mut_ptr().cast(), y);
        }
        let rest = groups.into_remainder();
        if !rest.is_empty() {
            let mask: __mmask64 = (1u64 << rest.len()) - 1;
            let x = _mm512_maskz_loadu_epi8(mask, rest.as_ptr().cast());
            let y = if decrypt {
                small_decrypt(x, t)
            } else {
                small_encrypt(x, t)
            };
            _mm512_mask_storeu_epi8(rest.as_mut_ptr().cast(), mask, y);
        }
    }
}

/// Runs `f` on every batch of `buf` (whole blocks), the last one padded with zeros.
#[inline(always)]
fn for_each_batch(buf: &mut [u8], mut f: impl FnMut(&mut [u8; BATCH])) {
    let mut chunks = buf.chunks_exact_mut(BATCH);
    for chunk in &mut chunks {
        f(chunk.try_into().expect("whole batch"));
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        let mut pad = [0u8; BATCH];
        pad[..rest.len()].copy_from_slice(rest);
        f(&mut pad);
        rest.copy_from_slice(&pad[..rest.len()]);
        crate::wipe::bytes(&mut pad);
    }
}

#[kernel(KUZNYECHIK_AVX512)]
unsafe fn encrypt_impl(rk: &RoundKeys, keys: &SlicedKeys, buf: &mut [u8]) {
    // SAFETY: the features are enabled on this function; the helpers only touch registers
    // and arrays whose bounds they check by type.
    unsafe {
        let (whole, rest) = split_batches(buf);
        if !whole.is_empty() {
            let t = tables(&PI);
            let sh = keys.get(rk, &t.mul, false);
            for_each_batch(whole, |batch| {
                let mut s = load(batch);
                encrypt_state(&mut s, &t, rk, sh);
                store(s, batch);
            });
        }
        if !rest.is_empty() {
            let t = small_tables(rk, &PI_PHI, &L_PHI);
            small_blocks(rest, &t, false);
        }
    }
}

#[kernel(KUZNYECHIK_AVX512)]
unsafe fn decrypt_impl(rk: &RoundKeys, keys: &SlicedKeys, buf: &mut [u8]) {
    // SAFETY: as in `encrypt_impl`.
    unsafe {
        let (whole, rest) = split_batches(buf);
        if !whole.is_empty() {
            let t = tables(&PI_INV);
            let sh = keys.get(rk, &t.mul, true);
            for_each_batch(whole, |batch| {
                let mut s = load(batch);
                decrypt_state(&mut s, &t, rk, sh);
                store(s, batch);
            });
        }
        if !rest.is_empty() {
            let t = small_tables(rk, &PI_INV_PHI, &L_INV_PHI);
            small_blocks(rest, &t, true);
        }
    }
}

/// Splits whole blocks into the part for the sliced kernel and a short tail for the
/// per-block path (a tail of at least [`SMALL_LIMIT`] blocks goes to a padded batch).
#[inline(always)]
fn split_batches(buf: &mut [u8]) -> (&mut [u8], &mut [u8]) {
    let tail = buf.len() % BATCH;
    let cut = if tail < SMALL_LIMIT * 16 {
        buf.len() - tail
    } else {
        buf.len()
    };
    buf.split_at_mut(cut)
}

/// The inverse of [`load`], XORed into `buf`: the keystream of a batch applied in place.
#[inline(always)]
pub(super) unsafe fn store_xor(mut s: State, buf: &mut [u8; BATCH]) {
    // SAFETY: each access reads and writes 64 bytes at offset 64*r < 1024 of a 1024-byte
    // array.
    unsafe {
        transpose_dwords(&mut s);
        let scatter = _mm512_loadu_si512(SCATTER.as_ptr().cast());
        for (r, x) in s.iter().enumerate() {
            let at = buf.as_mut_ptr().add(64 * r);
            let v = _mm512_permutexvar_epi8(scatter, *x);
            _mm512_storeu_si512(at.cast(), xor(v, _mm512_loadu_si512(at.cast())));
        }
    }
}

/// The encrypted 64 counter blocks from `counter`, in the sliced layout, and `counter`
/// advanced past them: started at the second round by `first`, or, for a batch that
/// carries past the counter's second byte, written out and loaded.
#[inline(always)]
pub(super) unsafe fn counter_batch(
    first: &mut FirstRound,
    counter: &mut u128,
    t: &Tables,
    rk: &RoundKeys,
    sh: &Shares,
) -> State {
    let next = *counter;
    *counter = first.counting().advance(next, LANES as u64);
    // SAFETY: operations enabled by the caller on registers and on a local array.
    unsafe {
        match first.batch(next) {
            Some(mut s) => {
                encrypt_after_first(&mut s, t, sh);
                s
            }
            None => {
                let mut blocks = [0u8; BATCH];
                for (i, block) in blocks.chunks_exact_mut(16).enumerate() {
                    let c = first.counting().advance(next, i as u64);
                    block.copy_from_slice(&c.to_be_bytes());
                }
                let mut s = load(&blocks);
                encrypt_state(&mut s, t, rk, sh);
                s
            }
        }
    }
}

#[kernel(KUZNYECHIK_AVX512)]
unsafe fn ctr_impl(
    rk: &RoundKeys,
    keys: &SlicedKeys,
    counting: Counting,
    counter: &mut [u8; 16],
    buf: &mut [u8],
) {
    // SAFETY: as in `encrypt_impl`.
    unsafe {
        let t = tables(&PI);
        // Made only when a batch runs: short inputs on a new key never need them.
        let sh = || keys.get(rk, &t.mul, false);
        let mut next = u128::from_be_bytes(*counter);
        let mut stream = [0u8; BATCH];
        let mut chunks = buf.chunks_exact_mut(BATCH);
        if chunks.len() > 0 {
            let mut first = keys.first_round(rk, &t.sbox, counting);
            for chunk in &mut chunks {
                let chunk: &mut [u8; BATCH] = chunk.try_into().expect("whole batch");
                store_xor(counter_batch(&mut first, &mut next, &t, rk, sh()), chunk);
            }
        }
        let rest = chunks.into_remainder();
        if !rest.is_empty() {
            let blocks = rest.len().div_ceil(16);
            for (i, block) in stream.chunks_exact_mut(16).enumerate() {
                block.copy_from_slice(&counting.advance(next, i as u64).to_be_bytes());
            }
            next = counting.advance(next, blocks as u64);
            if blocks < SMALL_LIMIT {
                let small = small_tables(rk, &PI_PHI, &L_PHI);
                small_blocks(&mut stream[..16 * blocks], &small, false);
            } else {
                let mut s = load(&stream);
                encrypt_state(&mut s, &t, rk, sh());
                store(s, &mut stream);
            }
            for (d, k) in rest.iter_mut().zip(stream.iter()) {
                *d ^= *k;
            }
        }
        crate::wipe::bytes(&mut stream);
        *counter = next.to_be_bytes();
    }
}

/// The key schedule on the per-block path: the 32 Feistel round functions `L(S(a ^ C_i))`
/// in the φ domain, where the data stays from the first round to the last. One lane of a
/// register is used; the cost is the latency of 32 rounds, about a third of a
/// microsecond, instead of the portable S and L.
#[kernel(KUZNYECHIK_AVX512)]
unsafe fn expand_key_impl(key: &[u8; 32]) -> RoundKeys {
    // SAFETY: the features are enabled on this function; the loads read 16 bytes of
    // 16-byte arrays or halves of the 32-byte key, the stores write 16-byte arrays.
    unsafe {
        let t = small_tables(&RoundKeys([[0u8; 16]; 10]), &PI_PHI, &L_PHI);
        let to_phi = _mm512_set1_epi64(TO_PHI as i64);
        let from_phi = _mm512_set1_epi64(FROM_PHI as i64);
        let half = |p: *const u8| {
            _mm512_gf2p8affine_epi64_epi8::<0>(
                _mm512_castsi128_si512(_mm_loadu_si128(p.cast())),
                to_phi,
            )
        };
        let mut a1 = half(key.as_ptr());
        let mut a0 = half(key.as_ptr().add(16));
        let mut rk = RoundKeys([[0u8; 16]; 10]);
        let mut put = |i: usize, x: __m512i| {
            let plain = _mm512_gf2p8affine_epi64_epi8::<0>(x, from_phi);
            _mm_storeu_si128(rk.0[i].as_mut_ptr().cast(), _mm512_castsi512_si128(plain));
        };
        put(0, a1);
        put(1, a0);
        for pair in 0..4 {
            for c in &ROUND_CONSTANTS[8 * pair..8 * pair + 8] {
                let f = small_linear(substitute(xor(a1, half(c.as_ptr())), &t.sbox), &t.columns);
                a0 = xor(f, a0);
                core::mem::swap(&mut a0, &mut a1);
            }
            put(2 * pair + 2, a1);
            put(2 * pair + 3, a0);
        }
        rk
    }
}

/// The round keys of `key`, or `None` if the CPU lacks the features.
pub(super) fn expand_key(key: &[u8; 32]) -> Option<RoundKeys> {
    if !available() {
        return None;
    }
    // SAFETY: the required features were just checked.
    Some(unsafe { expand_key_impl(key) })
}

/// Encrypts whole blocks in place; `false` (and nothing done) if the CPU lacks the features.
pub(super) fn encrypt_blocks(rk: &RoundKeys, keys: &SlicedKeys, buf: &mut [u8]) -> bool {
    if !available() {
        return false;
    }
    if super::avx512_chain::few(rk, keys, buf, false) {
        return true;
    }
    // SAFETY: the required features were just checked.
    unsafe { encrypt_impl(rk, keys, buf) };
    true
}

/// Decrypts whole blocks in place; `false` (and nothing done) if the CPU lacks the features.
pub(super) fn decrypt_blocks(rk: &RoundKeys, keys: &SlicedKeys, buf: &mut [u8]) -> bool {
    if !available() {
        return false;
    }
    if super::avx512_chain::few(rk, keys, buf, true) {
        return true;
    }
    // SAFETY: the required features were just checked.
    unsafe { decrypt_impl(rk, keys, buf) };
    true
}

/// CTR with a big-endian counter that counts as `counting` says; `false` (and nothing
/// done) without the features.
pub(super) fn ctr(
    rk: &RoundKeys,
    keys: &SlicedKeys,
    counting: Counting,
    counter: &mut [u8; 16],
    buf: &mut [u8],
) -> bool {
    if !available() {
        return false;
    }
    // SAFETY: the required features were just checked.
    unsafe { ctr_impl(rk, keys, counting, counter, buf) };
    true
}
