//! SM3 (GB/T 32905-2016) on eight independent messages at once, one per 32-bit lane of an
//! AVX2 register.
//!
//! The SM3 hash mode of Aigis-enc expands the matrix and the noise in counter mode: every
//! output block is the digest of a short message (counter ‖ seed ‖ indices) that fits one
//! padded block, and the blocks are independent, so eight of them advance together. The
//! lanes are equal-length messages.

use core::arch::x86_64::*;

use crate::cpu::kernel;
/// The initial chaining value.
const IV: [u32; 8] = [
    0x7380_166f,
    0x4914_b2b9,
    0x1724_42d7,
    0xda8a_0600,
    0xa96f_30bc,
    0x1631_38aa,
    0xe38d_ee4d,
    0xb0fb_0e4e,
];

/// T_j rotated left by j mod 32, as each round adds it.
const T_ROTATED: [u32; 64] = {
    let mut t = [0u32; 64];
    let mut j = 0;
    while j < 64 {
        let tj: u32 = if j < 16 { 0x79cc_4519 } else { 0x7a87_9d8a };
        t[j] = tj.rotate_left((j % 32) as u32);
        j += 1;
    }
    t
};

/// Bytes of one SM3 block.
pub const BLOCK: usize = 64;

macro_rules! rotl {
    ($x:expr, $n:literal) => {
        _mm256_or_si256(
            _mm256_slli_epi32::<$n>($x),
            _mm256_srli_epi32::<{ 32 - $n }>($x),
        )
    };
}

#[kernel(AIGIS_SM3_AVX2)]
#[inline]
fn xor3(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    _mm256_xor_si256(_mm256_xor_si256(a, b), c)
}

#[kernel(AIGIS_SM3_AVX2)]
#[inline]
fn p0(x: __m256i) -> __m256i {
    xor3(x, rotl!(x, 9), rotl!(x, 17))
}

#[kernel(AIGIS_SM3_AVX2)]
#[inline]
fn p1(x: __m256i) -> __m256i {
    xor3(x, rotl!(x, 15), rotl!(x, 23))
}

/// One round; `ff` and `gg` are the round's boolean functions of (a, b, c) and (e, f, g).
#[kernel(AIGIS_SM3_AVX2)]
#[inline]
fn round(s: &mut [__m256i; 8], t: u32, w: __m256i, w4: __m256i, ff: __m256i, gg: __m256i) {
    let [a, b, c, d, e, f, g, h] = *s;
    let a12 = rotl!(a, 12);
    let sum = _mm256_add_epi32(_mm256_add_epi32(a12, e), _mm256_set1_epi32(t as i32));
    let ss1 = rotl!(sum, 7);
    let ss2 = _mm256_xor_si256(ss1, a12);
    let tt1 = _mm256_add_epi32(
        _mm256_add_epi32(ff, d),
        _mm256_add_epi32(ss2, _mm256_xor_si256(w, w4)),
    );
    let tt2 = _mm256_add_epi32(_mm256_add_epi32(gg, h), _mm256_add_epi32(ss1, w));
    *s = [tt1, a, rotl!(b, 9), c, p0(tt2), e, rotl!(f, 19), g];
}

/// The compression function on eight chaining values and eight blocks.
#[kernel(AIGIS_SM3_AVX2)]
#[inline]
fn compress(v: &mut [__m256i; 8], blocks: &[&[u8]; 8]) {
    let word = |l: usize, i: usize| {
        let b = &blocks[l][4 * i..4 * i + 4];
        u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as i32
    };
    let mut w = [_mm256_setzero_si256(); 68];
    for (i, wi) in w.iter_mut().enumerate().take(16) {
        *wi = _mm256_setr_epi32(
            word(0, i),
            word(1, i),
            word(2, i),
            word(3, i),
            word(4, i),
            word(5, i),
            word(6, i),
            word(7, i),
        );
    }
    for j in 16..68 {
        let x = xor3(w[j - 16], w[j - 9], rotl!(w[j - 3], 15));
        w[j] = xor3(p1(x), rotl!(w[j - 13], 7), w[j - 6]);
    }
    let mut s = *v;
    for j in 0..16 {
        let [a, b, c, _, e, f, g, _] = s;
        round(
            &mut s,
            T_ROTATED[j],
            w[j],
            w[j + 4],
            xor3(a, b, c),
            xor3(e, f, g),
        );
    }
    for j in 16..64 {
        let [a, b, c, _, e, f, g, _] = s;
        let majority = _mm256_or_si256(
            _mm256_and_si256(a, b),
            _mm256_and_si256(c, _mm256_or_si256(a, b)),
        );
        let choose = _mm256_or_si256(_mm256_and_si256(e, f), _mm256_andnot_si256(e, g));
        round(&mut s, T_ROTATED[j], w[j], w[j + 4], majority, choose);
    }
    for (vi, si) in v.iter_mut().zip(s) {
        *vi = _mm256_xor_si256(*vi, si);
    }
}

#[kernel(AIGIS_SM3_AVX2)]
#[inline]
fn initial() -> [__m256i; 8] {
    IV.map(|x| _mm256_set1_epi32(x as i32))
}

#[kernel(AIGIS_SM3_AVX2)]
#[inline]
fn digests(v: &[__m256i; 8]) -> [[u8; 32]; 8] {
    let mut out = [[0u8; 32]; 8];
    for (r, vr) in v.iter().enumerate() {
        let mut lanes = [0u32; 8];
        // SAFETY: `lanes` is 32 writable bytes; the store has no alignment requirement.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), *vr) };
        for (o, l) in out.iter_mut().zip(lanes) {
            o[4 * r..4 * r + 4].copy_from_slice(&l.to_be_bytes());
        }
    }
    out
}

/// The padded single block of a message of at most 55 bytes given as `BE32(counter) ‖ parts`.
#[inline(always)]
pub fn padded_counter_block(counter: u32, parts: &[&[u8]]) -> [u8; BLOCK] {
    let mut b = [0u8; BLOCK];
    b[..4].copy_from_slice(&counter.to_be_bytes());
    let mut at = 4;
    for p in parts {
        b[at..at + p.len()].copy_from_slice(p);
        at += p.len();
    }
    debug_assert!(at <= BLOCK - 9);
    b[at] = 0x80;
    b[BLOCK - 8..].copy_from_slice(&((at as u64) * 8).to_be_bytes());
    b
}

/// Eight SM3 digests of messages that are each one padded block.
#[kernel(AIGIS_SM3_AVX2)]
#[inline]
pub fn digest_blocks_x8(blocks: &[[u8; BLOCK]; 8]) -> [[u8; 32]; 8] {
    let mut v = initial();
    compress(&mut v, &blocks.each_ref().map(|b| &b[..]));
    digests(&v)
}

/// Eight SM3 digests of eight messages of one common length: the general form, which
/// checks the compression function against the `sm3` crate on any length.
#[cfg(test)]
#[kernel(AIGIS_SM3_AVX2)]
pub fn digest_x8(msgs: &[&[u8]; 8]) -> [[u8; 32]; 8] {
    let len = msgs[0].len();
    assert!(msgs.iter().all(|m| m.len() == len), "equal lengths");
    let mut v = initial();
    let whole = len / BLOCK;
    for i in 0..whole {
        compress(&mut v, &msgs.map(|m| &m[i * BLOCK..(i + 1) * BLOCK]));
    }
    // The tail, 0x80, zeros and the bit length fill one or two more blocks.
    let rest = len - whole * BLOCK;
    let tail_blocks = if rest < BLOCK - 8 { 1 } else { 2 };
    let mut tails = [[0u8; 2 * BLOCK]; 8];
    for (t, m) in tails.iter_mut().zip(msgs) {
        t[..rest].copy_from_slice(&m[whole * BLOCK..]);
        t[rest] = 0x80;
        t[tail_blocks * BLOCK - 8..tail_blocks * BLOCK]
            .copy_from_slice(&((len as u64) * 8).to_be_bytes());
    }
    for i in 0..tail_blocks {
        compress(
            &mut v,
            &tails.each_ref().map(|t| &t[i * BLOCK..(i + 1) * BLOCK]),
        );
    }
    digests(&v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::kernels;
    use sm3::{Digest, Sm3};

    fn sm3(m: &[u8]) -> [u8; 32] {
        Sm3::digest(m).into()
    }

    #[test]
    fn eight_lanes_equal_the_sm3_crate_for_many_lengths() {
        if !kernels::AIGIS_SM3_AVX2.runs() {
            return;
        }
        let mut x = 0x1234_5678u32;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        };
        let lengths = (0..=130).chain([191, 192, 200, 255, 256, 480, 896, 1000, 4096]);
        for len in lengths {
            let msgs: Vec<Vec<u8>> = (0..8).map(|_| (0..len).map(|_| next()).collect()).collect();
            let refs: [&[u8]; 8] = core::array::from_fn(|l| &msgs[l][..]);
            // SAFETY: AVX2 was checked above.
            let got = unsafe { digest_x8(&refs) };
            for (l, m) in msgs.iter().enumerate() {
                assert_eq!(got[l], sm3(m), "length {len}, lane {l}");
            }
        }
    }

    #[test]
    fn counter_blocks_equal_the_sm3_crate() {
        if !kernels::AIGIS_SM3_AVX2.runs() {
            return;
        }
        let seed = [0x5au8; 32];
        let blocks: [[u8; BLOCK]; 8] =
            core::array::from_fn(|l| padded_counter_block(l as u32 * 3, &[&seed, &[l as u8, 7]]));
        // SAFETY: AVX2 was checked above.
        let got = unsafe { digest_blocks_x8(&blocks) };
        for (l, g) in got.iter().enumerate() {
            let mut m = (l as u32 * 3).to_be_bytes().to_vec();
            m.extend_from_slice(&seed);
            m.extend_from_slice(&[l as u8, 7]);
            assert_eq!(*g, sm3(&m), "lane {l}");
        }
    }
}
