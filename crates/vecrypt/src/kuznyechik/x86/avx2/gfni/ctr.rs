//! CTR on the GFNI kernel: 32 consecutive counters whose last byte does not wrap share
//! their first fifteen bytes, so the first round computes π of those once on one block, and
//! L by linearity as that block's image (broadcast) plus the last byte's column of L; only
//! the last byte runs sliced through π in that round.

use core::arch::x86_64::*;

use super::super::batch::{counter_blocks, load, xor_into, xor_into_part};
use super::super::pair::{L_COLUMNS_AES, lane_linear};
use super::super::tables::{BATCH, LANES, broadcast16, xor};
use super::{
    CallKeys, FORWARD, FORWARD_REP, FORWARD_REP_INV, FORWARD_TABLES, Kernel, State, conjugated_mul,
    encrypt_state, enter, forward_keys, kernel, rounds_from, row, substitute,
};
use crate::kuznyechik::RoundKeys;
use crate::kuznyechik::consts::l_const;

/// Byte `j` of L(e_15), e_15 the block whose last byte is 1: the column of L that the one
/// varying byte of a batch of counters goes through in the first round.
const LAST_COLUMN: [u8; 16] = {
    let mut unit = [0u8; 16];
    unit[15] = 1;
    l_const(unit)
};

/// The multiplications by [`LAST_COLUMN`], in the encryption representation.
const LAST_COLUMN_MULS: [u64; 16] = {
    let mut m = [0u64; 16];
    let mut j = 0;
    while j < 16 {
        m[j] = conjugated_mul(&FORWARD_REP, &FORWARD_REP_INV, LAST_COLUMN[j]);
        j += 1;
    }
    m
};

/// The first round of 32 counter blocks `n..n + 32` whose last byte does not wrap: bytes
/// 0..15 are the same in every block, so their S-boxes and their share of L are computed
/// once, on one block, and only the last byte runs sliced. Returns the input of round 1.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn counter_first_round(n: u128, k: &Kernel, keys: &CallKeys, rk: &RoundKeys) -> State {
    // SAFETY: register-only AVX2 and GFNI operations, and 16-byte loads of 16-byte arrays,
    // enabled by the caller.
    unsafe {
        let common = (n & !0xff).to_be_bytes();
        let keyed = _mm_xor_si128(
            _mm_loadu_si128(common.as_ptr().cast()),
            _mm_loadu_si128(rk.0[0].as_ptr().cast()),
        );
        let x = _mm256_gf2p8affine_epi64_epi8::<0>(_mm256_zextsi128_si256(keyed), k.to_rep);
        let plain_sigma = k.tables[3];
        let without_last = _mm256_setr_epi8(
            -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0,
        );
        let y = _mm256_and_si256(
            xor(
                substitute(x, k, plain_sigma),
                _mm256_broadcastsi128_si256(_mm_loadu_si128((&raw const keys.first_round).cast())),
            ),
            without_last,
        );
        let shared = _mm256_gf2p8affine_epi64_epi8::<0>(
            lane_linear(
                _mm256_gf2p8affine_epi64_epi8::<0>(y, k.from_rep),
                &l_columns(),
            ),
            k.to_rep,
        );
        let shared = _mm256_permute2x128_si256::<0>(shared, shared);
        let lanes = _mm256_setr_epi8(
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
            24, 25, 26, 27, 28, 29, 30, 31,
        );
        let last = _mm256_add_epi8(_mm256_set1_epi8(n as u8 as i8), lanes);
        let mut v = [last; 16];
        enter::<15>(&mut v, k, &rk.0[0]);
        let varying = substitute(v[15], k, row(keys, 0, 15));
        let mut s = [varying; 16];
        for (j, (x, m)) in s.iter_mut().zip(LAST_COLUMN_MULS).enumerate() {
            *x = xor(
                _mm256_shuffle_epi8(shared, _mm256_set1_epi8(j as i8)),
                _mm256_gf2p8affine_epi64_epi8::<0>(varying, _mm256_set1_epi64x(m as i64)),
            );
        }
        s
    }
}

/// The columns of L in the AES field, one broadcast row each.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn l_columns() -> [__m256i; 16] {
    // SAFETY: AVX2 is enabled by the caller.
    unsafe {
        let mut columns = [_mm256_setzero_si256(); 16];
        for (c, row) in columns.iter_mut().zip(&L_COLUMNS_AES) {
            *c = broadcast16(row);
        }
        columns
    }
}

/// CTR with a whole-block big-endian counter.
///
/// # Safety
/// The CPU must have AVX2 and GFNI.
#[inline(always)]
pub(in super::super) unsafe fn ctr(rk: &RoundKeys, counter: &mut [u8; 16], buf: &mut [u8]) {
    // SAFETY: AVX2 and GFNI are enabled by the caller.
    unsafe {
        let k = kernel(&FORWARD, &FORWARD_TABLES, false);
        let keys = forward_keys(rk, &k);
        let mut next = u128::from_be_bytes(*counter);
        let mut chunks = buf.chunks_exact_mut(BATCH);
        for chunk in &mut chunks {
            let chunk: &mut [u8; BATCH] = chunk.try_into().expect("whole batch");
            // The last byte of the counter does not wrap inside the batch.
            let s = if next as u8 <= u8::MAX - (LANES as u8 - 1) {
                let mut s = counter_first_round(next, &k, &keys, rk);
                rounds_from(&mut s, &k, &keys, 1);
                s
            } else {
                let mut s = load(&counter_blocks(next));
                encrypt_state(&mut s, &k, &keys, rk);
                s
            };
            xor_into(&s, chunk);
            next = next.wrapping_add(LANES as u128);
        }
        let rest = chunks.into_remainder();
        if !rest.is_empty() {
            let mut s = load(&counter_blocks(next));
            encrypt_state(&mut s, &k, &keys, rk);
            xor_into_part(&s, rest);
            next = next.wrapping_add(rest.len().div_ceil(16) as u128);
        }
        *counter = next.to_be_bytes();
    }
}
