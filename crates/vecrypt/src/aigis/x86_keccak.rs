//! Keccak-f[1600] on several independent states at once: 4 lanes of AVX2, 8 of AVX-512.
//!
//! The matrix (k² SHAKE128 streams) and the noise (2k + 1 SHAKE256 streams) of one operation
//! are independent, so one vector permutation advances 4 or 8 of them. State word w of
//! instance j sits in lane j of vector w.

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

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
fn rol512<const L: i32>(x: __m512i) -> __m512i {
    _mm512_rol_epi64::<L>(x)
}

#[target_feature(enable = "avx512f")]
#[inline]
fn splat512(v: u64) -> __m512i {
    _mm512_set1_epi64(v as i64)
}

// The permutations below are written out lane by lane (theta, then rho and pi folded into
// the chi inputs), so the 25 state words stay in registers.

/// Keccak-f[1600] on four states (AVX2).
#[target_feature(enable = "avx2")]
pub fn f1600_x4(s: &mut [__m256i; 25]) {
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
    ] = *s;
    for rc in RC {
        let c0 = xor5_256(a0, a5, a10, a15, a20);
        let c1 = xor5_256(a1, a6, a11, a16, a21);
        let c2 = xor5_256(a2, a7, a12, a17, a22);
        let c3 = xor5_256(a3, a8, a13, a18, a23);
        let c4 = xor5_256(a4, a9, a14, a19, a24);
        let d0 = xor256(c4, rol256::<1, 63>(c1));
        let d1 = xor256(c0, rol256::<1, 63>(c2));
        let d2 = xor256(c1, rol256::<1, 63>(c3));
        let d3 = xor256(c2, rol256::<1, 63>(c4));
        let d4 = xor256(c3, rol256::<1, 63>(c0));
        let b0 = xor256(a0, d0);
        let b10 = rol256::<1, 63>(xor256(a1, d1));
        let b20 = rol256::<62, 2>(xor256(a2, d2));
        let b5 = rol256::<28, 36>(xor256(a3, d3));
        let b15 = rol256::<27, 37>(xor256(a4, d4));
        let b16 = rol256::<36, 28>(xor256(a5, d0));
        let b1 = rol256::<44, 20>(xor256(a6, d1));
        let b11 = rol256::<6, 58>(xor256(a7, d2));
        let b21 = rol256::<55, 9>(xor256(a8, d3));
        let b6 = rol256::<20, 44>(xor256(a9, d4));
        let b7 = rol256::<3, 61>(xor256(a10, d0));
        let b17 = rol256::<10, 54>(xor256(a11, d1));
        let b2 = rol256::<43, 21>(xor256(a12, d2));
        let b12 = rol256::<25, 39>(xor256(a13, d3));
        let b22 = rol256::<39, 25>(xor256(a14, d4));
        let b23 = rol256::<41, 23>(xor256(a15, d0));
        let b8 = rol256::<45, 19>(xor256(a16, d1));
        let b18 = rol256::<15, 49>(xor256(a17, d2));
        let b3 = rol256::<21, 43>(xor256(a18, d3));
        let b13 = rol256::<8, 56>(xor256(a19, d4));
        let b14 = rol256::<18, 46>(xor256(a20, d0));
        let b24 = rol256::<2, 62>(xor256(a21, d1));
        let b9 = rol256::<61, 3>(xor256(a22, d2));
        let b19 = rol256::<56, 8>(xor256(a23, d3));
        let b4 = rol256::<14, 50>(xor256(a24, d4));
        a0 = chi256(b0, b1, b2);
        a1 = chi256(b1, b2, b3);
        a2 = chi256(b2, b3, b4);
        a3 = chi256(b3, b4, b0);
        a4 = chi256(b4, b0, b1);
        a5 = chi256(b5, b6, b7);
        a6 = chi256(b6, b7, b8);
        a7 = chi256(b7, b8, b9);
        a8 = chi256(b8, b9, b5);
        a9 = chi256(b9, b5, b6);
        a10 = chi256(b10, b11, b12);
        a11 = chi256(b11, b12, b13);
        a12 = chi256(b12, b13, b14);
        a13 = chi256(b13, b14, b10);
        a14 = chi256(b14, b10, b11);
        a15 = chi256(b15, b16, b17);
        a16 = chi256(b16, b17, b18);
        a17 = chi256(b17, b18, b19);
        a18 = chi256(b18, b19, b15);
        a19 = chi256(b19, b15, b16);
        a20 = chi256(b20, b21, b22);
        a21 = chi256(b21, b22, b23);
        a22 = chi256(b22, b23, b24);
        a23 = chi256(b23, b24, b20);
        a24 = chi256(b24, b20, b21);
        a0 = xor256(a0, splat256(rc));
    }
    *s = [
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24,
    ];
}

/// Keccak-f[1600] on eight states (AVX-512).
#[target_feature(enable = "avx512f")]
pub fn f1600_x8(s: &mut [__m512i; 25]) {
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
    ] = *s;
    for rc in RC {
        let c0 = xor5_512(a0, a5, a10, a15, a20);
        let c1 = xor5_512(a1, a6, a11, a16, a21);
        let c2 = xor5_512(a2, a7, a12, a17, a22);
        let c3 = xor5_512(a3, a8, a13, a18, a23);
        let c4 = xor5_512(a4, a9, a14, a19, a24);
        let d0 = xor512(c4, rol512::<1>(c1));
        let d1 = xor512(c0, rol512::<1>(c2));
        let d2 = xor512(c1, rol512::<1>(c3));
        let d3 = xor512(c2, rol512::<1>(c4));
        let d4 = xor512(c3, rol512::<1>(c0));
        let b0 = xor512(a0, d0);
        let b10 = rol512::<1>(xor512(a1, d1));
        let b20 = rol512::<62>(xor512(a2, d2));
        let b5 = rol512::<28>(xor512(a3, d3));
        let b15 = rol512::<27>(xor512(a4, d4));
        let b16 = rol512::<36>(xor512(a5, d0));
        let b1 = rol512::<44>(xor512(a6, d1));
        let b11 = rol512::<6>(xor512(a7, d2));
        let b21 = rol512::<55>(xor512(a8, d3));
        let b6 = rol512::<20>(xor512(a9, d4));
        let b7 = rol512::<3>(xor512(a10, d0));
        let b17 = rol512::<10>(xor512(a11, d1));
        let b2 = rol512::<43>(xor512(a12, d2));
        let b12 = rol512::<25>(xor512(a13, d3));
        let b22 = rol512::<39>(xor512(a14, d4));
        let b23 = rol512::<41>(xor512(a15, d0));
        let b8 = rol512::<45>(xor512(a16, d1));
        let b18 = rol512::<15>(xor512(a17, d2));
        let b3 = rol512::<21>(xor512(a18, d3));
        let b13 = rol512::<8>(xor512(a19, d4));
        let b14 = rol512::<18>(xor512(a20, d0));
        let b24 = rol512::<2>(xor512(a21, d1));
        let b9 = rol512::<61>(xor512(a22, d2));
        let b19 = rol512::<56>(xor512(a23, d3));
        let b4 = rol512::<14>(xor512(a24, d4));
        a0 = chi512(b0, b1, b2);
        a1 = chi512(b1, b2, b3);
        a2 = chi512(b2, b3, b4);
        a3 = chi512(b3, b4, b0);
        a4 = chi512(b4, b0, b1);
        a5 = chi512(b5, b6, b7);
        a6 = chi512(b6, b7, b8);
        a7 = chi512(b7, b8, b9);
        a8 = chi512(b8, b9, b5);
        a9 = chi512(b9, b5, b6);
        a10 = chi512(b10, b11, b12);
        a11 = chi512(b11, b12, b13);
        a12 = chi512(b12, b13, b14);
        a13 = chi512(b13, b14, b10);
        a14 = chi512(b14, b10, b11);
        a15 = chi512(b15, b16, b17);
        a16 = chi512(b16, b17, b18);
        a17 = chi512(b17, b18, b19);
        a18 = chi512(b18, b19, b15);
        a19 = chi512(b19, b15, b16);
        a20 = chi512(b20, b21, b22);
        a21 = chi512(b21, b22, b23);
        a22 = chi512(b22, b23, b24);
        a23 = chi512(b23, b24, b20);
        a24 = chi512(b24, b20, b21);
        a0 = xor512(a0, splat512(rc));
    }
    *s = [
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19,
        a20, a21, a22, a23, a24,
    ];
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
