//! Byte-sliced Kuznyechik on AVX-512: 64 blocks per batch, constant time.
//!
//! Sixteen ZMM registers hold the state; register `j` holds byte `j` of all 64 blocks. In
//! that layout every step of the cipher is the same operation on every lane:
//! - S is a lookup in the 256-byte π held in four registers: four VPERMB, one per 64-entry
//!   quarter, merged under masks of the index's two top bits (see
//!   [`substitute`](tables::substitute)). The whole table is read by every lookup, so no
//!   address depends on data.
//! - L is sixteen R steps. One R step is a sum of sixteen bytes times public constants; each
//!   constant multiplication in Kuznyechik's field is a fixed GF(2)-linear map, which is one
//!   GF2P8AFFINEQB. The coefficients read the same backwards, so bytes sharing a coefficient
//!   are XORed first: seven multiplications per step instead of fifteen. The shift of R is
//!   free: the sixteen registers are a ring and only the index of its start moves.
//! - The round keys K2..K10 cost nothing: each is split into sixteen shares added by the
//!   last three-input XOR of each R step (see [`Shares`](batch::Shares)), from a dword
//!   broadcast operand.
//!
//! Cost of one round for 64 blocks: S is 16 x (4 VPERMB, VPTESTMB, VPMOVB2M, KANDQ) = 112
//! µops; each R step is 6 XORs folding the palindrome, 7 GF2P8AFFINEQB and 5 VPTERNLOGQ =
//! 18, so L is 288; 400 in all, with no register copies. A core that issues two 512-bit
//! µops per cycle (ports 0 and 5) needs at least 200 cycles a round; the affine
//! multiplications alone (112 a round on port 0) would allow about half that. Entering and
//! leaving the sliced layout comes on top, once a batch. The measured figures are in
//! `docs/perf/kuznyechik.md`.
//!
//! L could also run as a transposed circuit. With M the matrix of L and J the byte
//! reversal, Mᵀ = D(α) J M J D(β) for two vectors of per-byte scalings, so L = J D(α)⁻¹ Mᵀ
//! D(β)⁻¹ J; Mᵀ = (Rᵀ)^16 is an LFSR in Galois form whose seven products of a step each
//! feed two positions, 112 GF2P8AFFINEQB and 128 VPTERNLOGQ a round (48 µops fewer), and
//! the scalings fit into one S-box table per byte position. Measured, that round is no
//! faster (see `docs/perf/kuznyechik.md`): every output of the Galois circuit waits for its
//! last step, so the S layer (bound by port 5) and L (bound by port 0) run as alternating
//! phases instead of mixing as the R steps let them, and port 0 carries 144 µops a round
//! in both forms.
//!
//! Blocks enter and leave the sliced layout through VPERMB (grouping each byte position of
//! four blocks into one dword) and a 16x16 dword transpose. CTR never builds its counter
//! blocks: a batch enters the sliced layout at its second round, made from a per-key table
//! ([`counters`]), and the keystream is XORed into the data as it leaves.
//!
//! Short inputs (fewer than [`small_limit`] blocks: 21 or 29 by core class) take another
//! path that costs per block rather than per batch (calls of up to three blocks encrypting
//! or two decrypting, bound by the latency of one block, take the chain path of
//! [`chain`](mod@chain) instead): four blocks per register, one per
//! 128-bit lane, in the image of Kuznyechik's field under an isomorphism φ onto the AES
//! field. There every constant multiplication is a GF2P8MULB, so L is sixteen products of
//! an in-lane byte broadcast (VPSHUFB) with a column of L's matrix, XORed; S is the same
//! lookup in the conjugated table φ∘π∘φ⁻¹; keys are mapped by φ (a GF2P8AFFINEQB)
//! and data once on the way in and out.

mod batch;
mod blocks;
mod chain;
mod counters;
mod ctr;
mod key_schedule;
mod keys;
pub(super) mod mgm;
mod tables;

use batch::{decrypt_state, encrypt_state, for_each_batch, load, store};
use blocks::{small_blocks, small_limit, small_tables};
pub(super) use counters::Counting;
pub(super) use keys::SlicedKeys;
use tables::{BATCH, L_INV_PHI, L_PHI, PI_INV_PHI, PI_PHI, tables};

use crate::cpu::{Ran, kernel};
use crate::kuznyechik::RoundKeys;
use crate::kuznyechik::consts::{PI, PI_INV};
use crate::modes::Chain;

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
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

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
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
/// per-block path (a tail of at least [`small_limit`] blocks goes to a padded batch).
#[inline(always)]
fn split_batches(buf: &mut [u8]) -> (&mut [u8], &mut [u8]) {
    let tail = buf.len() % BATCH;
    let cut = if tail < small_limit() * 16 {
        buf.len() - tail
    } else {
        buf.len()
    };
    buf.split_at_mut(cut)
}

/// The round keys of `key` on the per-block path.
///
/// # Safety
/// The CPU runs [`KUZNYECHIK_AVX512`](crate::cpu::kernels::KUZNYECHIK_AVX512).
pub(super) unsafe fn expand_key(key: &[u8; 32]) -> RoundKeys {
    // SAFETY: the caller guarantees the features.
    unsafe { key_schedule::expand_key_impl(key) }
}

/// Encrypts whole blocks in place: a few blocks as chains of their own, else batches and
/// the per-block path.
///
/// # Safety
/// The CPU runs [`KUZNYECHIK_AVX512`](crate::cpu::kernels::KUZNYECHIK_AVX512).
pub(super) unsafe fn encrypt_blocks(rk: &RoundKeys, keys: &SlicedKeys, buf: &mut [u8]) {
    // SAFETY: the caller guarantees the features.
    unsafe {
        if !(chain::is_few(buf.len(), false) && chain::few(keys.chain(rk), buf, false).done()) {
            encrypt_impl(rk, keys, buf);
        }
    }
}

/// Decrypts whole blocks in place, as [`encrypt_blocks`] encrypts them.
///
/// # Safety
/// The CPU runs [`KUZNYECHIK_AVX512`](crate::cpu::kernels::KUZNYECHIK_AVX512).
pub(super) unsafe fn decrypt_blocks(rk: &RoundKeys, keys: &SlicedKeys, buf: &mut [u8]) {
    // SAFETY: the caller guarantees the features.
    unsafe {
        if !(chain::is_few(buf.len(), true) && chain::few(keys.chain(rk), buf, true).done()) {
            decrypt_impl(rk, keys, buf);
        }
    }
}

/// CTR with a big-endian counter that counts as `counting` says.
///
/// # Safety
/// The CPU runs [`KUZNYECHIK_AVX512`](crate::cpu::kernels::KUZNYECHIK_AVX512).
pub(super) unsafe fn ctr(
    rk: &RoundKeys,
    keys: &SlicedKeys,
    counting: Counting,
    counter: &mut [u8; 16],
    buf: &mut [u8],
) {
    // SAFETY: the caller guarantees the features.
    unsafe { ctr::ctr_impl(rk, keys, counting, counter, buf) }
}

/// Runs `mode` over the whole blocks of `buf` with a register of one or two blocks (one
/// chain each); declined, and nothing done, for other register lengths.
///
/// # Safety
/// The CPU runs [`KUZNYECHIK_AVX512`](crate::cpu::kernels::KUZNYECHIK_AVX512).
pub(super) unsafe fn chain(
    rk: &RoundKeys,
    keys: &SlicedKeys,
    mode: Chain,
    register: &mut [u8],
    buf: &mut [u8],
) -> Ran {
    if !matches!(register.len(), 16 | 32) {
        return Ran::Declined;
    }
    // SAFETY: the caller guarantees the features.
    unsafe { chain::chain(keys.chain(rk), mode, register, buf) }
}
