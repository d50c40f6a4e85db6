//! SM3 (GB/T 32905-2016) on sixteen independent messages at once, one per 32-bit lane of
//! an AVX-512 register.
//!
//! Rotations are single `vprold` instructions and the boolean functions (the XOR of three
//! words, majority, choose) single `vpternlogd` ones, so a round is about twenty vector
//! instructions for sixteen messages. The sixteen message blocks are loaded as rows,
//! byte-swapped and transposed (16 x 16 words) in registers.
//!
//! The message schedule lives in a rolling window of sixteen registers (W\[j + 4\] written
//! over W\[j - 12\] as round j needs it) and the rounds are unrolled sixteen at a time, so
//! there is no schedule array in memory and no register moves for the state's rotation.
//!
//! The bound is the round's dependency chain: six dependent vector operations a round, 384
//! for the 64 rounds; the loads, transposes and stores come on top. The vector pipes are far
//! from full (about twenty operations a round), which is why a scalar block beside the lanes
//! ([`compress_x16_side`]) costs much less than alone. A second group of sixteen lanes
//! interleaved round by round was slower as soon as a side block ran beside it, so the lane
//! engine keeps one group. The measurements are in `docs/perf/aigis.md`.

use core::arch::x86_64::*;

use super::sm3::{BLOCK, IV, Sm3Step, T_ROTATED};
use crate::cpu::kernel;

macro_rules! rotl {
    ($x:expr, $n:literal) => {
        _mm512_rol_epi32::<$n>($x)
    };
}

/// The three-input XOR.
const XOR3: i32 = 0x96;
/// Majority of three.
const MAJ: i32 = 0xe8;
/// Choose: first ? second : third.
const CHOOSE: i32 = 0xca;

#[kernel(AIGIS_SM3_AVX512)]
#[inline]
fn xor3(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<XOR3>(a, b, c)
}

/// Reverses the bytes of every 32-bit word: SM3's big-endian words to and from registers.
#[kernel(AIGIS_SM3_AVX512)]
#[inline]
fn swap_words(x: __m512i) -> __m512i {
    let swap = _mm512_set4_epi32(0x0c0d_0e0f, 0x0809_0a0b, 0x0405_0607, 0x0001_0203);
    _mm512_shuffle_epi8(x, swap)
}

/// The 4 x 4 transposes within each 128-bit lane of four registers: 128-bit lane k of
/// result j holds word j of that lane of `a`, `b`, `c` and `d`, in that order.
#[kernel(AIGIS_SM3_AVX512)]
#[inline]
fn interleave4(a: __m512i, b: __m512i, c: __m512i, d: __m512i) -> [__m512i; 4] {
    let ab_lo = _mm512_unpacklo_epi32(a, b);
    let ab_hi = _mm512_unpackhi_epi32(a, b);
    let cd_lo = _mm512_unpacklo_epi32(c, d);
    let cd_hi = _mm512_unpackhi_epi32(c, d);
    [
        _mm512_unpacklo_epi64(ab_lo, cd_lo),
        _mm512_unpackhi_epi64(ab_lo, cd_lo),
        _mm512_unpacklo_epi64(ab_hi, cd_hi),
        _mm512_unpackhi_epi64(ab_hi, cd_hi),
    ]
}

/// The sixteen words of each of sixteen blocks, word i of block l in lane l of `w[i]`
/// (big-endian words, as SM3 reads them).
#[kernel(AIGIS_SM3_AVX512)]
#[inline]
fn load_words(blocks: &[[u8; BLOCK]; 16]) -> [__m512i; 16] {
    // SAFETY: each block is 64 readable bytes; the load has no alignment requirement.
    let r: [__m512i; 16] = core::array::from_fn(|l| unsafe {
        swap_words(_mm512_loadu_si512(blocks[l].as_ptr().cast()))
    });
    // t[4q + j], 128-bit lane k: word 4k + j of rows 4q .. 4q + 3.
    let mut t = [_mm512_setzero_si512(); 16];
    for q in 0..4 {
        let four = interleave4(r[4 * q], r[4 * q + 1], r[4 * q + 2], r[4 * q + 3]);
        t[4 * q..4 * q + 4].copy_from_slice(&four);
    }
    let mut w = [_mm512_setzero_si512(); 16];
    for j in 0..4 {
        let (q0, q1, q2, q3) = (t[j], t[4 + j], t[8 + j], t[12 + j]);
        let lo01 = _mm512_shuffle_i32x4::<0x44>(q0, q1);
        let lo23 = _mm512_shuffle_i32x4::<0x44>(q2, q3);
        let hi01 = _mm512_shuffle_i32x4::<0xee>(q0, q1);
        let hi23 = _mm512_shuffle_i32x4::<0xee>(q2, q3);
        w[j] = _mm512_shuffle_i32x4::<0x88>(lo01, lo23);
        w[4 + j] = _mm512_shuffle_i32x4::<0xdd>(lo01, lo23);
        w[8 + j] = _mm512_shuffle_i32x4::<0x88>(hi01, hi23);
        w[12 + j] = _mm512_shuffle_i32x4::<0xdd>(hi01, hi23);
    }
    w
}

/// The eight rows of chaining values (word r of lane l in lane l of `rows[r]`) as sixteen
/// big-endian 32-byte digests: byte-swapped and transposed in registers.
#[kernel(AIGIS_SM3_AVX512)]
#[inline]
fn store_digests(rows: [__m512i; 8], out: &mut [[u8; 32]; 16]) {
    let r = rows.map(|x| swap_words(x));
    // u[h][j], 128-bit lane k: words 4h .. 4h + 3 of lane 4k + j.
    let u = [
        interleave4(r[0], r[1], r[2], r[3]),
        interleave4(r[4], r[5], r[6], r[7]),
    ];
    for j in 0..4 {
        // Lanes j and 4 + j, then 8 + j and 12 + j: both halves of each side by side.
        let first = _mm512_shuffle_i32x4::<0x44>(u[0][j], u[1][j]);
        let second = _mm512_shuffle_i32x4::<0xee>(u[0][j], u[1][j]);
        let first = _mm512_shuffle_i32x4::<0xd8>(first, first);
        let second = _mm512_shuffle_i32x4::<0xd8>(second, second);
        for (k, x) in [(0, first), (2, second)] {
            // SAFETY: each digest is 32 writable bytes; the stores have no alignment
            // requirement.
            unsafe {
                _mm256_storeu_si256(
                    out[4 * k + j].as_mut_ptr().cast(),
                    _mm512_castsi512_si256(x),
                );
                _mm256_storeu_si256(
                    out[4 * (k + 1) + j].as_mut_ptr().cast(),
                    _mm512_extracti64x4_epi64::<1>(x),
                );
            }
        }
    }
}

/// One round; `ff` and `gg` are the round's boolean functions of (a, b, c) and (e, f, g).
#[kernel(AIGIS_SM3_AVX512)]
#[inline]
fn round(s: &mut [__m512i; 8], t: u32, w: __m512i, w4: __m512i, ff: __m512i, gg: __m512i) {
    let [a, b, c, d, e, f, g, h] = *s;
    let a12 = rotl!(a, 12);
    let sum = _mm512_add_epi32(_mm512_add_epi32(e, _mm512_set1_epi32(t as i32)), a12);
    let ss1 = rotl!(sum, 7);
    let ss2 = _mm512_xor_si512(ss1, a12);
    // Summed so that the terms known early meet the late ss1 and ss2 last.
    let tt1 = _mm512_add_epi32(
        _mm512_add_epi32(_mm512_add_epi32(ff, d), _mm512_xor_si512(w, w4)),
        ss2,
    );
    let tt2 = _mm512_add_epi32(_mm512_add_epi32(_mm512_add_epi32(gg, h), w), ss1);
    let p0 = xor3(tt2, rotl!(tt2, 9), rotl!(tt2, 17));
    *s = [tt1, a, rotl!(b, 9), c, p0, e, rotl!(f, 19), g];
}

/// [`compress_x16_beside`] with as many side blocks as `side_blocks` holds (none or one).
#[kernel(AIGIS_SM3_AVX512)]
#[inline]
pub fn compress_x16_side(
    state: &mut [[u32; 16]; 8],
    blocks: &[[u8; BLOCK]; 16],
    step: &mut Sm3Step<16>,
    side: &mut [u32; 8],
    side_blocks: &[[u8; BLOCK]],
) {
    match side_blocks.first() {
        None => compress_x16_beside::<false>(state, blocks, step, side, &[0; BLOCK]),
        Some(b) => compress_x16_beside::<true>(state, blocks, step, side, b),
    }
}

/// Sixteen compressions: lane l of the chaining values `state[0..8][l]` (or the initial
/// value, see [`Sm3Step`]) absorbs `blocks[l]`, word 0 possibly replaced by a counter (the
/// state is word-major so that it stays in rows between calls; the new values also go out
/// lane by lane as bytes in `step.digests`); and, if `SIDE`, beside them one block of one
/// more message on the scalar units: `side` absorbs `side_block`, its round j placed after
/// vector round j. A vector round waits on its own chain of dependent instructions and
/// leaves most issue slots free, so the scalar rounds run in its shadow: a long hash such
/// as H(pk) advances a block per call instead of waiting for the lanes to finish.
///
/// Never inlined: in its own frame the scalar rounds keep their state in registers, while
/// inlined into the lane engine's loop they spilled it, and Aigis-enc-2's SM3 encapsulation
/// and decapsulation took measurably longer (`docs/perf/aigis.md`).
#[kernel(AIGIS_SM3_AVX512)]
#[inline(never)]
pub fn compress_x16_beside<const SIDE: bool>(
    state: &mut [[u32; 16]; 8],
    blocks: &[[u8; BLOCK]; 16],
    step: &mut Sm3Step<16>,
    side: &mut [u32; 8],
    side_block: &[u8; BLOCK],
) {
    use crate::aigis::sm3_counter::{
        sm3_expand, sm3_expand_window, sm3_round, sm3_sixteen_rounds, sm3_words,
    };
    // The side block's schedule, a rolling window of sixteen words like the lanes'.
    let mut sw = if SIDE { sm3_words(side_block) } else { [0; 16] };
    let mut ss = *side;
    // The message schedule as a rolling window of sixteen registers: slot i holds W[j]
    // for the j = i mod 16 in use, and W[j + 4] is written over W[j - 12] when round j
    // needs it. The rounds are unrolled sixteen at a time so that every slot is fixed.
    let mut w = load_words(blocks);
    // SAFETY: the counters are 64 readable bytes; the load has no alignment requirement.
    let counters = unsafe { _mm512_loadu_si512(step.counters.as_ptr().cast()) };
    w[0] = _mm512_mask_mov_epi32(w[0], step.counted as u16, counters);
    // SAFETY: each row is 64 readable bytes; the load has no alignment requirement.
    let v: [__m512i; 8] = core::array::from_fn(|r| unsafe {
        let row = _mm512_loadu_si512(state[r].as_ptr().cast());
        _mm512_mask_mov_epi32(row, step.restart as u16, _mm512_set1_epi32(IV[r] as i32))
    });
    let mut s = v;
    macro_rules! round {
        ($j:expr, $i:literal, $late:literal) => {{
            let j: usize = $j;
            if j + 4 >= 16 {
                sm3_expand_window!(w, $i);
            }
            let [a, b, c, _, e, f, g, _] = s;
            let (ff, gg) = if $late {
                (
                    _mm512_ternarylogic_epi32::<MAJ>(a, b, c),
                    _mm512_ternarylogic_epi32::<CHOOSE>(e, f, g),
                )
            } else {
                (xor3(a, b, c), xor3(e, f, g))
            };
            round(&mut s, T_ROTATED[j], w[$i], w[($i + 4) % 16], ff, gg);
            if SIDE {
                if j + 4 >= 16 {
                    sm3_expand(&mut sw, $i);
                }
                sm3_round::<$late>(&mut ss, sw[$i], sw[($i + 4) % 16], T_ROTATED[j]);
            }
        }};
    }
    sm3_sixteen_rounds!(0, false, round);
    for group in 1..4 {
        sm3_sixteen_rounds!(group, true, round);
    }
    if SIDE {
        for (x, y) in side.iter_mut().zip(ss) {
            *x ^= y;
        }
        crate::wipe::u32s(&mut sw);
    }
    let out: [__m512i; 8] = core::array::from_fn(|r| _mm512_xor_si512(v[r], s[r]));
    for (row, x) in state.iter_mut().zip(out) {
        // SAFETY: each row is 64 writable bytes; the store has no alignment requirement.
        unsafe { _mm512_storeu_si512(row.as_mut_ptr().cast(), x) };
    }
    store_digests(out, &mut step.digests);
    // The message words of the noise are secret: cleared before the frame is left.
    crate::wipe::set(&mut w, [_mm512_setzero_si512(); 16]);
}

#[cfg(test)]
mod tests {
    use super::super::sm3::padded_counter_block;
    use super::*;
    use crate::cpu::kernels;
    use sm3::{Digest, Sm3};

    fn digest(state: &[[u32; 16]; 8], l: usize) -> [u8; 32] {
        let mut d = [0u8; 32];
        for (r, row) in state.iter().enumerate() {
            d[4 * r..4 * r + 4].copy_from_slice(&row[l].to_be_bytes());
        }
        d
    }

    #[test]
    fn sixteen_lanes_equal_the_sm3_crate() {
        if !kernels::AIGIS_SM3_AVX512.runs() {
            return;
        }
        let mut x = 0x2545_f491u32;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        };
        // Lane-distinct messages of lane-distinct lengths, each one or more blocks.
        for round in 0..24usize {
            let msgs: Vec<Vec<u8>> = (0..16)
                .map(|l| (0..(round * 37 + l * 29) % 300).map(|_| next()).collect())
                .collect();
            let padded: Vec<Vec<u8>> = msgs
                .iter()
                .map(|m| {
                    let mut p = m.clone();
                    p.push(0x80);
                    while p.len() % BLOCK != BLOCK - 8 {
                        p.push(0);
                    }
                    p.extend_from_slice(&((m.len() as u64) * 8).to_be_bytes());
                    p
                })
                .collect();
            let most = padded.iter().map(|p| p.len() / BLOCK).max().unwrap();
            // The first call starts every lane from the initial value, whatever `state`
            // holds.
            let mut state = [[0x5555_aaaau32; 16]; 8];
            let mut done = [[0u8; 32]; 16];
            let mut io = Sm3Step::new();
            for step in 0..most {
                io.restart = if step == 0 { 0xffff } else { 0 };
                let blocks: [[u8; BLOCK]; 16] = core::array::from_fn(|l| {
                    let p = &padded[l];
                    let mut b = [0u8; BLOCK];
                    if (step + 1) * BLOCK <= p.len() {
                        b.copy_from_slice(&p[step * BLOCK..(step + 1) * BLOCK]);
                    }
                    b
                });
                // SAFETY: the features were checked above.
                unsafe { compress_x16_side(&mut state, &blocks, &mut io, &mut [0; 8], &[]) };
                for (l, p) in padded.iter().enumerate() {
                    assert_eq!(io.digests[l], digest(&state, l), "lane {l}: bytes = rows");
                    if (step + 1) * BLOCK == p.len() {
                        done[l] = io.digests[l];
                    }
                }
            }
            for (l, m) in msgs.iter().enumerate() {
                let want: [u8; 32] = Sm3::digest(m).into();
                assert_eq!(done[l], want, "round {round}, lane {l}, {} bytes", m.len());
            }
        }
    }

    #[test]
    fn counter_blocks_equal_the_sm3_crate() {
        if !kernels::AIGIS_SM3_AVX512.runs() {
            return;
        }
        let seed: [u8; 32] = core::array::from_fn(|i| (i * 11 + 5) as u8);
        // Lanes in `restart` start from garbage replaced by the initial value, the others
        // from the initial value in the state; lanes in `counted` take their counter from
        // the step (their blocks say 0), the others from their blocks.
        let (restart, counted) = (0b1010_0110_0101_1001u32, 0b0110_0101_1100_1010u32);
        let mut state = [[0u32; 16]; 8];
        for (r, row) in state.iter_mut().enumerate() {
            for (l, x) in row.iter_mut().enumerate() {
                *x = if restart >> l & 1 == 1 {
                    0x0101_0101 * r as u32
                } else {
                    IV[r]
                };
            }
        }
        let counter = |l: usize| l as u32 * 5 + 1;
        let blocks: [[u8; BLOCK]; 16] = core::array::from_fn(|l| {
            let c = if counted >> l & 1 == 1 { 0 } else { counter(l) };
            padded_counter_block(c, &[&seed, &[l as u8, 3]])
        });
        let mut io = Sm3Step::new();
        (io.restart, io.counted) = (restart, counted);
        io.counters = core::array::from_fn(counter);
        // SAFETY: the features were checked above.
        unsafe { compress_x16_side(&mut state, &blocks, &mut io, &mut [0; 8], &[]) };
        for l in 0..16 {
            let mut m = counter(l).to_be_bytes().to_vec();
            m.extend_from_slice(&seed);
            m.extend_from_slice(&[l as u8, 3]);
            let want: [u8; 32] = Sm3::digest(&m).into();
            assert_eq!(digest(&state, l), want, "lane {l}");
            assert_eq!(io.digests[l], want, "lane {l}");
        }
    }

    #[test]
    fn side_blocks_equal_the_sm3_crate() {
        if !kernels::AIGIS_SM3_AVX512.runs() {
            return;
        }
        use crate::aigis::x86::avx2::{sm3_hash_block, sm3_hash_blocks};
        let seed: [u8; 32] = core::array::from_fn(|i| (i * 7 + 1) as u8);
        let blocks: [[u8; BLOCK]; 16] =
            core::array::from_fn(|l| padded_counter_block(l as u32, &[&seed, &[l as u8, 9]]));
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 31 % 251) as u8).collect();
        for len in [0usize, 55, 56, 119, 120, 500, 896, 1000] {
            for per_call in 0..=1 {
                let input = &data[..len];
                let total = sm3_hash_blocks(len);
                let mut side = IV;
                let mut step = 0;
                let mut state = [[0u32; 16]; 8];
                while step < total {
                    for (row, iv) in state.iter_mut().zip(IV) {
                        *row = [iv; 16];
                    }
                    let n = per_call.min(total - step);
                    let mut sb = [[0u8; BLOCK]; 1];
                    for (h, b) in sb[..n].iter_mut().enumerate() {
                        sm3_hash_block(input, step + h, b);
                    }
                    // SAFETY: the features were checked above.
                    unsafe {
                        compress_x16_side(
                            &mut state,
                            &blocks,
                            &mut Sm3Step::new(),
                            &mut side,
                            &sb[..n],
                        )
                    };
                    step += n;
                    for l in 0..16 {
                        let mut m = (l as u32).to_be_bytes().to_vec();
                        m.extend_from_slice(&seed);
                        m.extend_from_slice(&[l as u8, 9]);
                        let want: [u8; 32] = Sm3::digest(&m).into();
                        assert_eq!(digest(&state, l), want, "lane {l} beside {n} blocks");
                    }
                    if per_call == 0 {
                        break;
                    }
                }
                let mut m = vec![0u8; 4];
                m.extend_from_slice(input);
                let want: [u8; 32] = Sm3::digest(&m).into();
                let mut got = [0u8; 32];
                for (d, x) in got.chunks_exact_mut(4).zip(side) {
                    d.copy_from_slice(&x.to_be_bytes());
                }
                if per_call == 0 {
                    assert_eq!(side, IV, "no side blocks, no change");
                } else {
                    assert_eq!(got, want, "{len} bytes, {per_call} a call");
                }
            }
        }
    }
}
