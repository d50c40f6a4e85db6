//! One pass of the table-driven Kuznyechik (`table-leaky`, NOT constant time) on SSE2,
//! which every x86-64 CPU has: the state stays in two general registers, whose bytes index
//! the tables, and the sixteen 16-byte entries are XORed in xmm registers, one load and one
//! XOR each.

use core::arch::x86_64::{
    __m128i, _mm_cvtsi128_si64, _mm_load_si128, _mm_set_epi64x, _mm_unpackhi_epi64, _mm_xor_si128,
};

use super::super::table_leaky::{Block, Entry, Tables};

/// The XOR of `key` and the entries of `t` that the bytes of `x` select.
#[inline(always)]
pub(in super::super) fn pass(t: &Tables, x: Block, key: Block) -> Block {
    let pick = |half: usize, j: usize| &t.0[8 * half + j][usize::from((x[half] >> (8 * j)) as u8)];
    // SAFETY: SSE2 is part of the x86-64 baseline, so its intrinsics run on every CPU this
    // code is built for. Each load reads an `Entry`: 16 bytes with 16-byte alignment
    // (`repr(C, align(16))`), behind a valid reference.
    unsafe {
        let load = |e: &Entry| _mm_load_si128((e as *const Entry).cast::<__m128i>());
        // Four independent chains of XORs, joined at the end.
        let mut acc = [
            _mm_xor_si128(
                _mm_set_epi64x(key[1] as i64, key[0] as i64),
                load(pick(0, 0)),
            ),
            load(pick(0, 1)),
            load(pick(0, 2)),
            load(pick(0, 3)),
        ];
        for j in 4..8 {
            acc[j % 4] = _mm_xor_si128(acc[j % 4], load(pick(0, j)));
        }
        for j in 0..8 {
            acc[j % 4] = _mm_xor_si128(acc[j % 4], load(pick(1, j)));
        }
        let r = _mm_xor_si128(_mm_xor_si128(acc[0], acc[1]), _mm_xor_si128(acc[2], acc[3]));
        [
            _mm_cvtsi128_si64(r) as u64,
            _mm_cvtsi128_si64(_mm_unpackhi_epi64(r, r)) as u64,
        ]
    }
}
