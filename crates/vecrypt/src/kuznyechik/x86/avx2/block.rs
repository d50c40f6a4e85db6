//! One block at a time on AVX2 without GFNI: the path of the chained modes and of calls
//! too short for a batch.
//!
//! The block sits in both 128-bit lanes of a YMM register. S is π (or π⁻¹) as sixteen
//! VPSHUFB row lookups chosen by a tree of blends, whose dependency chain is short enough
//! for a single block's latency (the decomposition of π in [`mod@super::tables`] takes fewer
//! shuffles but a chain several times as deep). L is applied as a 128 × 128 matrix over
//! GF(2), by bits, two per register: for each bit pair `p`, a VPSLLVD of the block moves
//! bit `7 - 2p` of every byte to the byte's top in the low lane and bit `6 - 2p` in the
//! high lane (a doubleword shift by `k` < 8 puts bit `7 - k` of each byte at the byte's
//! top). Then, for each byte `i` and pair, a VPSHUFB spreads byte `i` of that shifted block
//! over its lane, a VPBLENDVB picks by those top bits the images of the two bits under L
//! (public constants, one lane each, plus a bias) or the bias alone, and a VPXOR adds them
//! up. No index or branch depends on the data; the two lanes are added at the end of the
//! round, which leaves the sum in both.

use core::arch::x86_64::*;

use super::pair::lane_key;
use super::tables::xor;
use crate::cpu::{Ran, kernel};
use crate::kuznyechik::RoundKeys;
use crate::kuznyechik::consts::{L_COLUMNS, L_INV_COLUMNS, PI, PI_INV};
use crate::modes::Chain;

/// Up to this many blocks, ECB runs block by block instead of as one sliced batch, which
/// costs as much as 32 blocks whatever it holds (figures in `docs/perf/kuznyechik.md`).
pub(super) const FEW_BLOCKS: usize = 5;

/// The images under a linear map of the bits of every input byte, two bits per register,
/// each plus [`BIAS`]: `pairs[i][p]` holds, in its low lane, the image of bit `7 - 2p` of
/// byte `i` and, in its high lane, that of bit `6 - 2p`.
#[repr(align(32))]
struct BitPairs([[[u8; 32]; 4]; 16]);

/// What a bit that is not set contributes instead of zero; it cancels out over the 64
/// selections of a round, an even number in each lane. A select between a constant and
/// zero would be compiled as a compare and an AND, two instructions for one blend.
const BIAS: u8 = 0x6c;

const fn bit_pairs(columns: &[u128; 128]) -> BitPairs {
    let mut t = [[[0u8; 32]; 4]; 16];
    let mut i = 0;
    while i < 16 {
        let mut p = 0;
        while p < 4 {
            // Byte `i` in memory order is byte `15 - i` of the big-endian integer.
            let low = columns[8 * (15 - i) + 7 - 2 * p].to_be_bytes();
            let high = columns[8 * (15 - i) + 6 - 2 * p].to_be_bytes();
            let mut k = 0;
            while k < 16 {
                t[i][p][k] = low[k] ^ BIAS;
                t[i][p][16 + k] = high[k] ^ BIAS;
                k += 1;
            }
            p += 1;
        }
        i += 1;
    }
    BitPairs(t)
}

static L_PAIRS: BitPairs = bit_pairs(&L_COLUMNS);
static L_INV_PAIRS: BitPairs = bit_pairs(&L_INV_COLUMNS);

/// `SPREAD[i]`: the VPSHUFB index that copies byte `i` of each lane over the lane.
static SPREAD: [[u8; 32]; 16] = {
    let mut t = [[0u8; 32]; 16];
    let mut i = 0;
    while i < 16 {
        t[i] = [i as u8; 32];
        i += 1;
    }
    t
};

/// A table of 256 bytes as its sixteen rows of sixteen, each in both lanes.
#[repr(align(32))]
struct Rows([[u8; 32]; 16]);

const fn rows(table: &[u8; 256]) -> Rows {
    let mut t = [[0u8; 32]; 16];
    let mut h = 0;
    while h < 16 {
        let mut k = 0;
        while k < 16 {
            t[h][k] = table[16 * h + k];
            t[h][16 + k] = table[16 * h + k];
            k += 1;
        }
        h += 1;
    }
    Rows(t)
}

static PI_ROWS: Rows = rows(&PI);
static PI_INV_ROWS: Rows = rows(&PI_INV);

/// `table` on every byte of `x`, in constant time: every row looked up by the low nibble
/// (sixteen VPSHUFB), then the row of the high nibble chosen by a tree of fifteen
/// VPBLENDVB on its four bits, moved to the top of each byte by three doubleword shifts.
/// About as many instructions as the decomposition of π, but a dependency chain of six
/// instead of some twenty, which is what a single block waits on.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn substitute(x: __m256i, table: &Rows) -> __m256i {
    // SAFETY: register-only AVX2 operations, enabled by the caller, and 32-byte loads of
    // whole rows of a fixed-size array.
    unsafe {
        let low = _mm256_and_si256(x, _mm256_set1_epi8(0x0f));
        let mut level = [low; 16];
        for (v, row) in level.iter_mut().zip(&table.0) {
            *v = _mm256_shuffle_epi8(_mm256_loadu_si256(row.as_ptr().cast()), low);
        }
        // Bit 4, 5, 6 and then 7 of each byte at its top: rows 2h and 2h + 1 differ in bit
        // 4 of the index, and so on up the tree.
        let tops = [
            _mm256_slli_epi32::<3>(x),
            _mm256_slli_epi32::<2>(x),
            _mm256_slli_epi32::<1>(x),
            x,
        ];
        let mut width = 16;
        for top in tops {
            width /= 2;
            for h in 0..width {
                level[h] = _mm256_blendv_epi8(level[2 * h], level[2 * h + 1], top);
            }
        }
        level[0]
    }
}

/// The linear map of `pairs` on the block held in both lanes of `x`; the result in both.
///
/// Four doubleword shifts first put, in every byte, the bits of each pair at the byte's
/// top (bit `7 - 2p` in the low lane, `6 - 2p` in the high one); then each byte and pair
/// takes a VPSHUFB to spread that byte over its lane, a VPBLENDVB and a VPXOR: 196
/// instructions a round.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn linear(x: __m256i, pairs: &BitPairs) -> __m256i {
    // SAFETY: register-only AVX2 operations, enabled by the caller, and 32-byte loads of
    // whole rows of fixed-size arrays.
    unsafe {
        let bias = _mm256_set1_epi8(BIAS as i8);
        let mut top = [x; 4];
        for (p, top) in top.iter_mut().enumerate() {
            let low = 2 * p as i32;
            let high = low + 1;
            let counts = _mm256_setr_epi32(low, low, low, low, high, high, high, high);
            *top = _mm256_sllv_epi32(x, counts);
        }
        let mut acc = [_mm256_setzero_si256(); 4];
        for (row, index) in pairs.0.iter().zip(&SPREAD) {
            let index = _mm256_loadu_si256(index.as_ptr().cast());
            for ((acc, column), top) in acc.iter_mut().zip(row).zip(&top) {
                let mask = _mm256_shuffle_epi8(*top, index);
                let image = _mm256_loadu_si256(column.as_ptr().cast());
                *acc = xor(*acc, _mm256_blendv_epi8(bias, image, mask));
            }
        }
        let sum = xor(xor(acc[0], acc[1]), xor(acc[2], acc[3]));
        xor(sum, _mm256_permute2x128_si256::<0x01>(sum, sum))
    }
}

/// One block, in both lanes of `x`, through the cipher.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn encrypt_one(mut x: __m256i, rk: &RoundKeys) -> __m256i {
    // SAFETY: register-only AVX2 operations and round-key loads, enabled by the caller.
    unsafe {
        for round in 0..9 {
            x = substitute(xor(x, lane_key(rk, round)), &PI_ROWS);
            x = linear(x, &L_PAIRS);
        }
        xor(x, lane_key(rk, 9))
    }
}

/// The inverse of [`encrypt_one`].
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn decrypt_one(mut x: __m256i, rk: &RoundKeys) -> __m256i {
    // SAFETY: as in `encrypt_one`.
    unsafe {
        x = xor(x, lane_key(rk, 9));
        for round in (0..9).rev() {
            x = linear(x, &L_INV_PAIRS);
            x = xor(substitute(x, &PI_INV_ROWS), lane_key(rk, round));
        }
        x
    }
}

/// A block in both lanes.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn load(block: &[u8; 16]) -> __m256i {
    // SAFETY: AVX2 is enabled by the caller; the load reads the 16 bytes of the block.
    unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(block.as_ptr().cast())) }
}

/// The low lane of `x` into `block`.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn store(x: __m256i, block: &mut [u8; 16]) {
    // SAFETY: AVX2 is enabled by the caller; the store writes the 16 bytes of the block.
    unsafe { _mm_storeu_si128(block.as_mut_ptr().cast(), _mm256_castsi256_si128(x)) }
}

/// ECB of whole blocks, one at a time (the last partial block, if any, is left alone).
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn blocks<const DECRYPT: bool>(rk: &RoundKeys, buf: &mut [u8]) {
    // SAFETY: AVX2 is enabled by the caller; every block is a 16-byte array taken from the
    // slice by `chunks_exact_mut`.
    unsafe {
        for block in buf.chunks_exact_mut(16) {
            let b: &mut [u8; 16] = block.try_into().unwrap_or_else(|_| unreachable!());
            let x = load(b);
            let y = if DECRYPT {
                decrypt_one(x, rk)
            } else {
                encrypt_one(x, rk)
            };
            store(y, b);
        }
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[kernel(KUZNYECHIK_AVX2)]
unsafe fn chain_one(rk: &RoundKeys, mode: Chain, register: &mut [u8; 16], buf: &mut [u8]) {
    // SAFETY: the features are enabled on this function; every block is a 16-byte array
    // taken from the slice by `chunks_exact_mut`.
    unsafe {
        let mut v = load(register);
        for block in buf.chunks_exact_mut(16) {
            let b: &mut [u8; 16] = block.try_into().unwrap_or_else(|_| unreachable!());
            let d = load(b);
            match mode {
                Chain::CbcEncrypt => {
                    v = encrypt_one(xor(v, d), rk);
                    store(v, b);
                }
                Chain::Mac => v = encrypt_one(xor(v, d), rk),
                Chain::Ofb => {
                    v = encrypt_one(v, rk);
                    store(xor(v, d), b);
                }
                Chain::CfbEncrypt => {
                    v = xor(encrypt_one(v, rk), d);
                    store(v, b);
                }
            }
        }
        store(v, register);
    }
}

/// Runs `mode` over the whole blocks of `buf` with a register of one block; declined, and
/// nothing done, for other register lengths.
///
/// # Safety
/// The CPU runs [`KUZNYECHIK_AVX2`](crate::cpu::kernels::KUZNYECHIK_AVX2).
pub(in crate::kuznyechik::x86) unsafe fn chain(
    rk: &RoundKeys,
    mode: Chain,
    register: &mut [u8],
    buf: &mut [u8],
) -> Ran {
    let Ok(register) = <&mut [u8; 16]>::try_from(register) else {
        return Ran::Declined;
    };
    // SAFETY: the caller guarantees the features.
    unsafe { chain_one(rk, mode, register, buf) };
    Ran::Done
}
