//! Keccak-f[1600] on several independent states at once: 4 lanes of AVX2, 8 of AVX-512.
//!
//! The matrix (k² SHAKE128 streams) and the noise (2k + 1 SHAKE256 streams) of one operation
//! are independent, so one vector permutation advances 4 or 8 of them. State word w of
//! instance j sits in lane j of vector w.

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::hash::keccak_f1600_rounds;

#[cfg(test)]
use super::hash::keccak_f1600;

const RC: [u64; 24] = [
    0x0000_0000_0000_0001,
    0x0000_0000_0000_8082,
    0x8000_0000_0000_808a,
    0x8000_0000_8000_8000,
    0x0000_0000_0000_808b,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8009,
    0x0000_0000_0000_008a,
    0x0000_0000_0000_0088,
    0x0000_0000_8000_8009,
    0x0000_0000_8000_000a,
    0x0000_0000_8000_808b,
    0x8000_0000_0000_008b,
    0x8000_0000_0000_8089,
    0x8000_0000_0000_8003,
    0x8000_0000_0000_8002,
    0x8000_0000_0000_0080,
    0x0000_0000_0000_800a,
    0x8000_0000_8000_000a,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8080,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8008,
];

#[target_feature(enable = "avx2")]
#[inline]
fn xor256(a: __m256i, b: __m256i) -> __m256i {
    _mm256_xor_si256(a, b)
}

#[target_feature(enable = "avx2")]
#[inline]
fn xor5_256(a: __m256i, b: __m256i, c: __m256i, d: __m256i, e: __m256i) -> __m256i {
    xor256(xor256(xor256(a, b), xor256(c, d)), e)
}

/// a ^ (!b & c), the chi step.
#[target_feature(enable = "avx2")]
#[inline]
fn chi256(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    xor256(a, _mm256_andnot_si256(b, c))
}

/// Rotation left by L (R = 64 - L).
#[target_feature(enable = "avx2")]
#[inline]
fn rol256<const L: i32, const R: i32>(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_slli_epi64::<L>(x), _mm256_srli_epi64::<R>(x))
}

#[target_feature(enable = "avx2")]
#[inline]
fn splat256(v: u64) -> __m256i {
    _mm256_set1_epi64x(v as i64)
}

#[target_feature(enable = "avx512f")]
#[inline]
fn xor512(a: __m512i, b: __m512i) -> __m512i {
    _mm512_xor_si512(a, b)
}

/// Five-way XOR in two three-input logic operations.
#[target_feature(enable = "avx512f")]
#[inline]
fn xor5_512(a: __m512i, b: __m512i, c: __m512i, d: __m512i, e: __m512i) -> __m512i {
    _mm512_ternarylogic_epi64::<0x96>(_mm512_ternarylogic_epi64::<0x96>(a, b, c), d, e)
}

/// a ^ (!b & c) in one three-input logic operation.
#[target_feature(enable = "avx512f")]
#[inline]
fn chi512(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    _mm512_ternarylogic_epi64::<0xd2>(a, b, c)
}

#[target_feature(enable = "avx512f")]
#[inline]
fn rol512<const L: i32, const R: i32>(x: __m512i) -> __m512i {
    _mm512_rol_epi64::<L>(x)
}

#[target_feature(enable = "avx512f")]
#[inline]
fn splat512(v: u64) -> __m512i {
    _mm512_set1_epi64(v as i64)
}

// The permutations below are the shared round text of `hash::keccak_f1600_rounds` over
// four-lane and eight-lane words.

/// Keccak-f[1600] on four states (AVX2).
#[target_feature(enable = "avx2")]
pub fn f1600_x4(s: &mut [__m256i; 25]) {
    keccak_f1600_rounds!(s, RC, xor256, xor5_256, chi256, rol256, splat256);
}

/// Keccak-f[1600] on eight states (AVX-512).
#[target_feature(enable = "avx512f")]
pub fn f1600_x8(s: &mut [__m512i; 25]) {
    keccak_f1600_rounds!(s, RC, xor512, xor5_512, chi512, rol512, splat512);
}

/// The padded first block of SHAKE with domain byte 0x1F for one short input.
fn padded_block<const RATE: usize>(parts: &[&[u8]]) -> [u64; 25] {
    let mut st = [0u64; 25];
    let mut at = 0;
    for p in parts {
        for &b in p.iter() {
            st[at / 8] ^= u64::from(b) << (8 * (at % 8));
            at += 1;
        }
    }
    debug_assert!(at < RATE);
    st[at / 8] ^= 0x1f << (8 * (at % 8));
    st[(RATE - 1) / 8] ^= 0x80 << (8 * ((RATE - 1) % 8));
    st
}

/// Up to W SHAKE instances with inputs shorter than one block, squeezed in step. Unused
/// instances run on zero input and their output is dropped. Stored word-major (word i of
/// every instance side by side) so that a permutation loads and stores whole vectors.
pub struct ShakeLanes<const W: usize, const RATE: usize> {
    words: [[u64; W]; 25],
}

impl<const W: usize, const RATE: usize> ShakeLanes<W, RATE> {
    pub fn absorb(inputs: &[[&[u8]; 2]]) -> Self {
        let mut words = [[0u64; W]; 25];
        for (j, parts) in inputs.iter().enumerate() {
            for (w, v) in words.iter_mut().zip(padded_block::<RATE>(parts)) {
                w[j] = v;
            }
        }
        ShakeLanes { words }
    }

    /// The first `out.len()` (at most RATE) output bytes of instance j's current block.
    #[inline(always)]
    pub fn block(&self, j: usize, out: &mut [u8]) {
        for (chunk, w) in out.chunks_mut(8).zip(self.words.iter()) {
            chunk.copy_from_slice(&w[j].to_le_bytes()[..chunk.len()]);
        }
    }

    /// Zeroes the states (after squeezing secret noise).
    pub fn wipe(&mut self) {
        zeroize::Zeroize::zeroize(self.words.as_flattened_mut());
    }

    /// The same permutation one state at a time, to cross-check the vector versions.
    #[cfg(test)]
    pub fn permute_scalar(&mut self) {
        for j in 0..W {
            let mut st: [u64; 25] = core::array::from_fn(|i| self.words[i][j]);
            keccak_f1600(&mut st);
            for (w, v) in self.words.iter_mut().zip(st) {
                w[j] = v;
            }
        }
    }
}

impl<const RATE: usize> ShakeLanes<4, RATE> {
    /// One permutation of all four states.
    #[target_feature(enable = "avx2")]
    pub fn permute(&mut self) {
        let mut v: [__m256i; 25] = [_mm256_setzero_si256(); 25];
        for (r, w) in v.iter_mut().zip(self.words.iter()) {
            // SAFETY: `w` is 32 readable bytes; the load has no alignment requirement.
            *r = unsafe { _mm256_loadu_si256(w.as_ptr().cast()) };
        }
        f1600_x4(&mut v);
        for (r, w) in v.iter().zip(self.words.iter_mut()) {
            // SAFETY: `w` is 32 writable bytes; the store has no alignment requirement.
            unsafe { _mm256_storeu_si256(w.as_mut_ptr().cast(), *r) };
        }
    }
}

impl<const RATE: usize> ShakeLanes<8, RATE> {
    /// One permutation of all eight states.
    #[target_feature(enable = "avx512f")]
    pub fn permute(&mut self) {
        let mut v: [__m512i; 25] = [_mm512_setzero_si512(); 25];
        for (r, w) in v.iter_mut().zip(self.words.iter()) {
            // SAFETY: `w` is 64 readable bytes; the load has no alignment requirement.
            *r = unsafe { _mm512_loadu_si512(w.as_ptr().cast()) };
        }
        f1600_x8(&mut v);
        for (r, w) in v.iter().zip(self.words.iter_mut()) {
            // SAFETY: `w` is 64 writable bytes; the store has no alignment requirement.
            unsafe { _mm512_storeu_si512(w.as_mut_ptr().cast(), *r) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu;

    fn inputs() -> Vec<[u8; 34]> {
        (0..8u8)
            .map(|j| core::array::from_fn(|i| (i as u8).wrapping_mul(31) ^ j))
            .collect()
    }

    #[test]
    fn four_lanes_equal_scalar() {
        if !cpu::features().avx2 {
            return;
        }
        let ins = inputs();
        let parts: Vec<[&[u8]; 2]> = ins.iter().map(|x| [&x[..32], &x[32..]]).collect();
        let mut v = ShakeLanes::<4, 168>::absorb(&parts[..4]);
        let mut s = ShakeLanes::<4, 168>::absorb(&parts[..4]);
        for _ in 0..3 {
            // SAFETY: AVX2 was checked above.
            unsafe { v.permute() };
            s.permute_scalar();
            assert_eq!(v.words, s.words);
        }
    }

    #[test]
    fn eight_lanes_equal_scalar() {
        if !cpu::features().avx512f {
            return;
        }
        let ins = inputs();
        let parts: Vec<[&[u8]; 2]> = ins.iter().map(|x| [&x[..33], &x[33..]]).collect();
        let mut v = ShakeLanes::<8, 136>::absorb(&parts);
        let mut s = ShakeLanes::<8, 136>::absorb(&parts);
        for _ in 0..3 {
            // SAFETY: AVX-512F was checked above.
            unsafe { v.permute() };
            s.permute_scalar();
            assert_eq!(v.words, s.words);
        }
    }
}
