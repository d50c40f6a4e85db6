//! SM3 (GB/T 32905-2016) on eight independent messages at once, one per 32-bit lane of an
//! AVX2 register.
//!
//! The SM3 hash mode of Aigis-enc expands the matrix and the noise in counter mode: every
//! output block is the digest of a short message (counter ‖ seed ‖ indices) that fits one
//! padded block, and the blocks are independent, so eight of them advance together. The
//! lanes are equal-length messages.

use core::arch::x86_64::*;

/// The initial chaining value.
pub(crate) use crate::aigis::sm3_counter::SM3_IV as IV;
use crate::cpu::kernel;

/// T_j rotated left by j mod 32, as each round adds it.
pub(crate) use crate::aigis::sm3_counter::SM3_T as T_ROTATED;

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

/// Eight rows of eight words transposed: word i of row l to lane l of the result's i.
#[kernel(AIGIS_SM3_AVX2)]
#[inline]
fn transpose8(r: [__m256i; 8]) -> [__m256i; 8] {
    let mut t = [_mm256_setzero_si256(); 8];
    for q in 0..2 {
        let (a, b, c, d) = (r[4 * q], r[4 * q + 1], r[4 * q + 2], r[4 * q + 3]);
        let ab_lo = _mm256_unpacklo_epi32(a, b);
        let ab_hi = _mm256_unpackhi_epi32(a, b);
        let cd_lo = _mm256_unpacklo_epi32(c, d);
        let cd_hi = _mm256_unpackhi_epi32(c, d);
        // t[4q + j], 128-bit lane k: word 4k + j of rows 4q .. 4q + 3.
        t[4 * q] = _mm256_unpacklo_epi64(ab_lo, cd_lo);
        t[4 * q + 1] = _mm256_unpackhi_epi64(ab_lo, cd_lo);
        t[4 * q + 2] = _mm256_unpacklo_epi64(ab_hi, cd_hi);
        t[4 * q + 3] = _mm256_unpackhi_epi64(ab_hi, cd_hi);
    }
    let mut w = [_mm256_setzero_si256(); 8];
    for j in 0..4 {
        w[j] = _mm256_permute2x128_si256::<0x20>(t[j], t[4 + j]);
        w[4 + j] = _mm256_permute2x128_si256::<0x31>(t[j], t[4 + j]);
    }
    w
}

/// What a lane engine tells one call of its compression beside the blocks, and what the
/// call gives back, for W lanes. Lanes in `restart` start from the initial chaining value
/// instead of `state`; lanes in `counted` take `counters[l]` as message word 0 (a counter
/// block's BE32 counter) instead of the block's first four bytes, so that a counter block
/// needs no store into its template. `digests[l]` receives lane l's new chaining value as
/// bytes (a finished hash's digest), read out of the registers at the end of the call.
pub struct Sm3Step<const W: usize> {
    pub restart: u32,
    pub counted: u32,
    pub counters: [u32; W],
    pub digests: [[u8; 32]; W],
}

impl<const W: usize> Sm3Step<W> {
    pub const fn new() -> Self {
        Self {
            restart: 0,
            counted: 0,
            counters: [0; W],
            digests: [[0; 32]; W],
        }
    }
}

impl<const W: usize> Drop for Sm3Step<W> {
    fn drop(&mut self) {
        // The digests of noise blocks are secret.
        crate::wipe::bytes(self.digests.as_flattened_mut());
    }
}

/// [`compress_x8`], then the block `side_blocks` (none or one) of one more message into
/// `side`, one after the other on the scalar code: the form of
/// `sm3_x16::compress_x16_side` for the eight-lane engine.
#[kernel(AIGIS_SM3_AVX2)]
#[inline]
pub fn compress_x8_side(
    state: &mut [[u32; 8]; 8],
    blocks: &[[u8; BLOCK]; 8],
    step: &mut Sm3Step<8>,
    side: &mut [u32; 8],
    side_blocks: &[[u8; BLOCK]],
) {
    compress_x8(state, blocks, step);
    for b in side_blocks {
        crate::aigis::sm3_counter::sm3_compress(side, b);
    }
}

/// The lanes of `bits` (bit l for lane l) as all-ones 32-bit lanes.
#[kernel(AIGIS_SM3_AVX2)]
#[inline]
fn lane_mask(bits: u32) -> __m256i {
    let each = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(bits as i32), each), each)
}

/// Eight compressions: lane l of the chaining values `state[0..8][l]` (or the initial
/// value, see [`Sm3Step`]) absorbs `blocks[l]` (word 0 possibly replaced by a counter).
/// The blocks are loaded as rows, byte-swapped and transposed in registers; the state is
/// word-major so that it stays in rows between calls, and the new values also go out
/// lane by lane as bytes in `step.digests`.
#[kernel(AIGIS_SM3_AVX2)]
#[inline]
pub fn compress_x8(state: &mut [[u32; 8]; 8], blocks: &[[u8; BLOCK]; 8], step: &mut Sm3Step<8>) {
    let swap = _mm256_setr_epi8(
        3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8,
        15, 14, 13, 12,
    );
    let half = |h: usize| -> [__m256i; 8] {
        // SAFETY: each block is 64 readable bytes; the loads have no alignment requirement.
        core::array::from_fn(|l| unsafe {
            _mm256_shuffle_epi8(
                _mm256_loadu_si256(blocks[l].as_ptr().add(32 * h).cast()),
                swap,
            )
        })
    };
    let (lo, hi) = (transpose8(half(0)), transpose8(half(1)));
    let mut w = [_mm256_setzero_si256(); 16];
    w[..8].copy_from_slice(&lo);
    w[8..].copy_from_slice(&hi);
    // SAFETY: the counters are 32 readable bytes; the load has no alignment requirement.
    let counters = unsafe { _mm256_loadu_si256(step.counters.as_ptr().cast()) };
    w[0] = _mm256_blendv_epi8(w[0], counters, lane_mask(step.counted));
    let restart = lane_mask(step.restart);
    // SAFETY: each row is 32 readable bytes; the load has no alignment requirement.
    let mut v: [__m256i; 8] = core::array::from_fn(|r| unsafe {
        let row = _mm256_loadu_si256(state[r].as_ptr().cast());
        _mm256_blendv_epi8(row, _mm256_set1_epi32(IV[r] as i32), restart)
    });
    compress_words(&mut v, &w);
    for (row, vi) in state.iter_mut().zip(v) {
        // SAFETY: each row is 32 writable bytes; the store has no alignment requirement.
        unsafe { _mm256_storeu_si256(row.as_mut_ptr().cast(), vi) };
    }
    let lanes = transpose8(v.map(|x| _mm256_shuffle_epi8(x, swap)));
    for (d, x) in step.digests.iter_mut().zip(lanes) {
        // SAFETY: each digest is 32 writable bytes; the store has no alignment requirement.
        unsafe { _mm256_storeu_si256(d.as_mut_ptr().cast(), x) };
    }
    crate::wipe::set(&mut w, [_mm256_setzero_si256(); 16]);
}

/// The compression function on eight chaining values and the first sixteen message words
/// of eight blocks (word i of block l in lane l of `first[i]`), the schedule kept as a
/// rolling window of sixteen registers (see `sm3_sixteen_rounds`).
#[kernel(AIGIS_SM3_AVX2)]
#[inline]
fn compress_words(v: &mut [__m256i; 8], first: &[__m256i; 16]) {
    use crate::aigis::sm3_counter::{sm3_expand_window, sm3_sixteen_rounds};
    let mut w = *first;
    let mut s = *v;
    macro_rules! round {
        ($j:expr, $i:literal, $late:literal) => {{
            let j: usize = $j;
            if j + 4 >= 16 {
                sm3_expand_window!(w, $i);
            }
            let [a, b, c, _, e, f, g, _] = s;
            let (ff, gg) = if $late {
                (
                    _mm256_or_si256(
                        _mm256_and_si256(a, b),
                        _mm256_and_si256(c, _mm256_or_si256(a, b)),
                    ),
                    _mm256_or_si256(_mm256_and_si256(e, f), _mm256_andnot_si256(e, g)),
                )
            } else {
                (xor3(a, b, c), xor3(e, f, g))
            };
            round(&mut s, T_ROTATED[j], w[$i], w[($i + 4) % 16], ff, gg);
        }};
    }
    sm3_sixteen_rounds!(0, false, round);
    for group in 1..4 {
        sm3_sixteen_rounds!(group, true, round);
    }
    for (vi, si) in v.iter_mut().zip(s) {
        *vi = _mm256_xor_si256(*vi, si);
    }
    crate::wipe::set(&mut w, [_mm256_setzero_si256(); 16]);
}

pub(crate) use crate::aigis::sm3_counter::padded_counter_block;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::kernels;
    use sm3::{Digest, Sm3};

    fn sm3(m: &[u8]) -> [u8; 32] {
        Sm3::digest(m).into()
    }

    /// Eight SM3 digests of eight messages of one common length, block by block.
    fn digest_x8(msgs: &[&[u8]; 8]) -> [[u8; 32]; 8] {
        let padded = msgs.map(|m| {
            let mut p = m.to_vec();
            p.push(0x80);
            while p.len() % BLOCK != BLOCK - 8 {
                p.push(0);
            }
            p.extend_from_slice(&((m.len() as u64) * 8).to_be_bytes());
            p
        });
        // The first call starts every lane from the initial value, whatever `state` holds.
        let mut state = [[0xdead_beef; 8]; 8];
        let mut step = Sm3Step::new();
        step.restart = 0xff;
        for i in 0..padded[0].len() / BLOCK {
            let blocks: [[u8; BLOCK]; 8] =
                core::array::from_fn(|l| padded[l][i * BLOCK..(i + 1) * BLOCK].try_into().unwrap());
            // SAFETY: the callers check AVX2 first.
            unsafe { compress_x8(&mut state, &blocks, &mut step) };
            step.restart = 0;
            // The bytes given back are the state's rows, lane by lane.
            for l in 0..8 {
                let want: Vec<u8> = state.iter().flat_map(|row| row[l].to_be_bytes()).collect();
                assert_eq!(step.digests[l][..], want[..], "lane {l}");
            }
        }
        step.digests
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
            let got = digest_x8(&refs);
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
        // Lanes 0, 2, 5 and 7 restart and take their counter from the step (their blocks
        // say counter 0); the others continue from the initial value already in the state
        // and read the counter from their blocks.
        let (restart, counted) = (0b1010_0101u32, 0b1010_0101u32);
        let mut state = IV.map(|x| [x; 8]);
        for (r, row) in state.iter_mut().enumerate() {
            for (l, x) in row.iter_mut().enumerate() {
                if restart >> l & 1 == 1 {
                    *x = r as u32 * 0x0101_0101;
                }
            }
        }
        let mut step = Sm3Step::new();
        (step.restart, step.counted) = (restart, counted);
        let blocks: [[u8; BLOCK]; 8] = core::array::from_fn(|l| {
            let c = if counted >> l & 1 == 1 {
                0
            } else {
                l as u32 * 3
            };
            padded_counter_block(c, &[&seed, &[l as u8, 7]])
        });
        step.counters = core::array::from_fn(|l| l as u32 * 3);
        // SAFETY: AVX2 was checked above.
        unsafe { compress_x8(&mut state, &blocks, &mut step) };
        for l in 0..8 {
            let mut m = (l as u32 * 3).to_be_bytes().to_vec();
            m.extend_from_slice(&seed);
            m.extend_from_slice(&[l as u8, 7]);
            let got: Vec<u8> = state.iter().flat_map(|row| row[l].to_be_bytes()).collect();
            assert_eq!(got[..], sm3(&m)[..], "lane {l}");
            assert_eq!(step.digests[l], sm3(&m), "lane {l}");
        }
    }
}
