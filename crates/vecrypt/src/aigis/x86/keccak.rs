//! Keccak-f\[1600\] on several independent states at once: 4 lanes of AVX2, 8 of AVX-512.
//!
//! The matrix (k² SHAKE128 streams) and the noise (2k + 1 SHAKE256 streams) of one operation
//! are independent, so one vector permutation advances 4 or 8 of them. State word w of
//! instance j sits in lane j of vector w.

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::hash::{HashMode, SHA3_256_RATE, SHAKE128_RATE};
use super::params::MAX_K;
use crate::aigis::sponge::{KECCAK_RC, keccak_f1600_rounds};
use crate::cpu::kernel;

#[cfg(test)]
use crate::aigis::sponge::keccak_f1600;

#[kernel(AIGIS_KECCAK_AVX2)]
#[inline]
fn xor256(a: __m256i, b: __m256i) -> __m256i {
    _mm256_xor_si256(a, b)
}

#[kernel(AIGIS_KECCAK_AVX2)]
#[inline]
fn theta256(a: __m256i, p: __m256i, q: __m256i) -> __m256i {
    xor256(a, xor256(p, q))
}

#[kernel(AIGIS_KECCAK_AVX2)]
#[inline]
fn xor5_256(a: __m256i, b: __m256i, c: __m256i, d: __m256i, e: __m256i) -> __m256i {
    xor256(xor256(xor256(a, b), xor256(c, d)), e)
}

/// a ^ (!b & c), the chi step.
#[kernel(AIGIS_KECCAK_AVX2)]
#[inline]
fn chi256(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    xor256(a, _mm256_andnot_si256(b, c))
}

/// Rotation left by L (R = 64 - L).
#[kernel(AIGIS_KECCAK_AVX2)]
#[inline]
fn rol256<const L: i32, const R: i32>(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_slli_epi64::<L>(x), _mm256_srli_epi64::<R>(x))
}

#[kernel(AIGIS_KECCAK_AVX2)]
#[inline]
fn splat256(v: u64) -> __m256i {
    _mm256_set1_epi64x(v as i64)
}

/// Three-way XOR in one three-input logic operation (AVX-512VL on 256 bits): theta on one
/// word, and half of the five-way XOR.
#[kernel(AIGIS_KECCAK_AVX512VL)]
#[inline]
fn xor3_256vl(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    _mm256_ternarylogic_epi64::<0x96>(a, b, c)
}

/// Five-way XOR in two three-input logic operations (AVX-512VL on 256 bits).
#[kernel(AIGIS_KECCAK_AVX512VL)]
#[inline]
fn xor5_256vl(a: __m256i, b: __m256i, c: __m256i, d: __m256i, e: __m256i) -> __m256i {
    xor3_256vl(xor3_256vl(a, b, c), d, e)
}

/// a ^ (!b & c) in one three-input logic operation (AVX-512VL on 256 bits).
#[kernel(AIGIS_KECCAK_AVX512VL)]
#[inline]
fn chi256vl(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    _mm256_ternarylogic_epi64::<0xd2>(a, b, c)
}

/// Native rotation (AVX-512VL on 256 bits).
#[kernel(AIGIS_KECCAK_AVX512VL)]
#[inline]
fn rol256vl<const L: i32, const R: i32>(x: __m256i) -> __m256i {
    _mm256_rol_epi64::<L>(x)
}

#[kernel(AIGIS_KECCAK_AVX512F)]
#[inline]
fn xor512(a: __m512i, b: __m512i) -> __m512i {
    _mm512_xor_si512(a, b)
}

/// Three-way XOR in one three-input logic operation: theta on one word, and half of the
/// five-way XOR.
#[kernel(AIGIS_KECCAK_AVX512F)]
#[inline]
fn xor3_512(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    _mm512_ternarylogic_epi64::<0x96>(a, b, c)
}

/// Five-way XOR in two three-input logic operations.
#[kernel(AIGIS_KECCAK_AVX512F)]
#[inline]
fn xor5_512(a: __m512i, b: __m512i, c: __m512i, d: __m512i, e: __m512i) -> __m512i {
    xor3_512(xor3_512(a, b, c), d, e)
}

/// a ^ (!b & c) in one three-input logic operation.
#[kernel(AIGIS_KECCAK_AVX512F)]
#[inline]
fn chi512(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    _mm512_ternarylogic_epi64::<0xd2>(a, b, c)
}

#[kernel(AIGIS_KECCAK_AVX512F)]
#[inline]
fn rol512<const L: i32, const R: i32>(x: __m512i) -> __m512i {
    _mm512_rol_epi64::<L>(x)
}

#[kernel(AIGIS_KECCAK_AVX512F)]
#[inline]
fn splat512(v: u64) -> __m512i {
    _mm512_set1_epi64(v as i64)
}

// The permutations below are the shared round text of `hash::keccak_f1600_rounds` over
// four-lane and eight-lane words.

/// Keccak-f\[1600\] on four states (AVX2).
#[kernel(AIGIS_KECCAK_AVX2)]
pub fn f1600_x4(s: &mut [__m256i; 25]) {
    keccak_f1600_rounds!(
        s, KECCAK_RC, xor256, xor5_256, theta256, chi256, rol256, splat256
    );
}

/// Keccak-f\[1600\] on four states with the AVX-512VL logic and rotations on 256-bit
/// registers: half the instructions of the AVX2 form. On cores where 256-bit operations
/// issue on three ports and 512-bit ones on two it costs well under the eight-lane
/// permutation; where both widths issue alike, nearly as much (`docs/perf/aigis.md`).
#[kernel(AIGIS_KECCAK_AVX512)]
pub fn f1600_x4_vl(s: &mut [__m256i; 25]) {
    keccak_f1600_rounds!(
        s, KECCAK_RC, xor256, xor5_256vl, xor3_256vl, chi256vl, rol256vl, splat256
    );
}

/// A 128-bit register per state word, for the one-state permutation.
#[kernel(AIGIS_KECCAK_AVX512VL)]
#[inline]
fn xor3_128vl(a: __m128i, b: __m128i, c: __m128i) -> __m128i {
    _mm_ternarylogic_epi64::<0x96>(a, b, c)
}

#[kernel(AIGIS_KECCAK_AVX512VL)]
#[inline]
fn xor5_128vl(a: __m128i, b: __m128i, c: __m128i, d: __m128i, e: __m128i) -> __m128i {
    xor3_128vl(xor3_128vl(a, b, c), d, e)
}

#[kernel(AIGIS_KECCAK_AVX512VL)]
#[inline]
fn xor128(a: __m128i, b: __m128i) -> __m128i {
    _mm_xor_si128(a, b)
}

#[kernel(AIGIS_KECCAK_AVX512VL)]
#[inline]
fn chi128vl(a: __m128i, b: __m128i, c: __m128i) -> __m128i {
    _mm_ternarylogic_epi64::<0xd2>(a, b, c)
}

#[kernel(AIGIS_KECCAK_AVX512VL)]
#[inline]
fn rol128vl<const L: i32, const R: i32>(x: __m128i) -> __m128i {
    _mm_rol_epi64::<L>(x)
}

#[kernel(AIGIS_KECCAK_AVX512VL)]
#[inline]
fn splat128(v: u64) -> __m128i {
    _mm_set1_epi64x(v as i64)
}

/// Keccak-f\[1600\] on one state held in vector registers (AVX-512VL): three-input logic and
/// native rotations, and 32 registers instead of 16, so no state word spills. A round is
/// about 90 vector instructions (29 of them rotations) on a dependency chain of about 12
/// cycles' latency; it is faster than the general-purpose-register form. A form with a plane
/// of five words per 512-bit register (about 38 instructions a round: theta's parities by two
/// three-input XORs and two permutations, a variable rotation and a permutation per plane
/// into columns, chi across registers, twelve shuffles back to planes) was no faster: 18 of
/// its instructions are shuffles on the one shuffle port, on the round's dependency chain.
/// The measurements are in `docs/perf/aigis.md`.
#[kernel(AIGIS_KECCAK_AVX512VL)]
pub fn f1600_x1_vl(s: &mut [u64; 25]) {
    let mut v: [__m128i; 25] = [_mm_setzero_si128(); 25];
    for (r, w) in v.iter_mut().zip(s.iter()) {
        *r = _mm_cvtsi64_si128(*w as i64);
    }
    keccak_f1600_rounds!(
        &mut v, KECCAK_RC, xor128, xor5_128vl, xor3_128vl, chi128vl, rol128vl, splat128
    );
    for (w, r) in s.iter_mut().zip(v.iter()) {
        *w = _mm_cvtsi128_si64(*r) as u64;
    }
}

/// Keccak-f\[1600\] on eight states (AVX-512): 61 logic operations and 29 rotations a round,
/// plus the words the compiler keeps on the stack. Where 512-bit logic issues on four pipes
/// the rounds' dependency chains hold it; where it issues on two, the pipes do. `vecrypt
/// speed --bounds` measures that bound and the permutation's fraction of it on the CPU it
/// runs on (figures in `docs/perf/aigis.md`).
#[kernel(AIGIS_KECCAK_AVX512F)]
pub fn f1600_x8(s: &mut [__m512i; 25]) {
    keccak_f1600_rounds!(
        s, KECCAK_RC, xor512, xor5_512, xor3_512, chi512, rol512, splat512
    );
}

/// One lane's work in [`LanePlan`]: a matrix entry Parse(SHAKE128(ρ ‖ x ‖ y)) for entry
/// `at`, or SHA3-256 of hash input `i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneJob {
    Entry { x: u8, y: u8, at: usize },
    Hash { i: usize, len: usize },
}

impl LaneJob {
    /// (blocks absorbed, blocks squeezed, rate): the job takes absorbed + squeezed - 1
    /// permutations.
    #[inline(always)]
    pub fn shape(&self) -> (usize, usize, usize) {
        match *self {
            LaneJob::Entry { .. } => (1, FIRST_SQUEEZE_BLOCKS, SHAKE128_RATE),
            LaneJob::Hash { len, .. } => (len / SHA3_256_RATE + 1, 1, SHA3_256_RATE),
        }
    }

    fn permutations(&self) -> usize {
        let (a, s, _) = self.shape();
        a + s - 1
    }
}

const FIRST_SQUEEZE_BLOCKS: usize = HashMode::Shake.xof_first_blocks();
/// Hashes that can run beside a matrix.
pub const MAX_LANE_HASHES: usize = 2;
const MAX_JOBS: usize = MAX_K * MAX_K + MAX_LANE_HASHES;

/// Which lane runs which jobs, in order: longest first, each onto the least loaded lane, so
/// the permutation count is close to max(longest job, total / W). Depends only on public
/// lengths.
pub struct LanePlan<const W: usize> {
    jobs: [[Option<LaneJob>; MAX_JOBS]; W],
}

impl<const W: usize> LanePlan<W> {
    pub fn new(entries: &[(u8, u8, usize)], hash_lens: &[usize]) -> Self {
        let mut all = [None; MAX_JOBS];
        let mut n = 0;
        for (i, &len) in hash_lens.iter().enumerate() {
            all[n] = Some(LaneJob::Hash { i, len });
            n += 1;
        }
        for &(x, y, at) in entries {
            all[n] = Some(LaneJob::Entry { x, y, at });
            n += 1;
        }
        super::sort_widest_first(&mut all[..n], |j| j.map_or(0, |j| j.permutations()));
        let mut jobs = [[None; MAX_JOBS]; W];
        let mut load = [0usize; W];
        let mut count = [0usize; W];
        for job in all[..n].iter().flatten() {
            let l = (0..W).min_by_key(|&l| load[l]).unwrap_or(0);
            jobs[l][count[l]] = Some(*job);
            count[l] += 1;
            load[l] += job.permutations();
        }
        LanePlan { jobs }
    }

    /// Job `n` of lane `l`, if it has one.
    #[inline(always)]
    pub fn job(&self, l: usize, n: usize) -> Option<LaneJob> {
        self.jobs[l].get(n).copied().flatten()
    }
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

    /// All states zero; with [`Self::xor_padded_block`] for inputs of any length and any rate
    /// per instance (RATE is then unused).
    pub fn zeroed() -> Self {
        ShakeLanes {
            words: [[0u64; W]; 25],
        }
    }

    /// XORs block `b` of `input`, padded for a sponge of `rate` bytes with domain byte
    /// `domain` (0x1F for SHAKE, 0x06 for SHA-3), into instance j. Block `input.len() / rate`
    /// is the last, padded one.
    #[inline(always)]
    pub fn xor_padded_block(&mut self, j: usize, input: &[u8], b: usize, rate: usize, domain: u8) {
        let mut blk = [0u8; SHAKE128_RATE];
        let start = b * rate;
        let end = (start + rate).min(input.len());
        let n = end - start;
        blk[..n].copy_from_slice(&input[start..end]);
        if n < rate {
            blk[n] ^= domain;
            blk[rate - 1] ^= 0x80;
        }
        for (w, c) in self.words.iter_mut().zip(blk[..rate].chunks_exact(8)) {
            let mut le = [0u8; 8];
            le.copy_from_slice(c);
            w[j] ^= u64::from_le_bytes(le);
        }
        crate::wipe::array(&mut blk);
    }

    /// Instance j back to the zero state, for its next input.
    #[inline(always)]
    pub fn clear(&mut self, j: usize) {
        for w in self.words.iter_mut() {
            w[j] = 0;
        }
    }

    /// Zeroes the states (after squeezing secret noise).
    pub fn wipe(&mut self) {
        crate::wipe::set(&mut self.words, [[0u64; W]; 25]);
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
    #[kernel(AIGIS_KECCAK_AVX2)]
    pub fn permute(&mut self) {
        self.permute_x4(|v| f1600_x4(v));
    }

    /// [`Self::permute`] with the AVX-512VL instructions.
    #[kernel(AIGIS_KECCAK_AVX512)]
    pub fn permute_vl(&mut self) {
        self.permute_x4(|v| f1600_x4_vl(v));
    }

    /// [`Self::permute`]; `busy` is ignored (every state is permuted).
    #[kernel(AIGIS_KECCAK_AVX2)]
    pub fn permute_busy(&mut self, _busy: usize) {
        self.permute();
    }

    /// [`Self::permute_vl`]; `busy` is ignored.
    #[kernel(AIGIS_KECCAK_AVX512)]
    pub fn permute_busy_vl(&mut self, _busy: usize) {
        self.permute_vl();
    }

    #[kernel(AIGIS_KECCAK_AVX2)]
    #[inline]
    fn permute_x4(&mut self, f: impl FnOnce(&mut [__m256i; 25])) {
        permute_first_four(&mut self.words, f);
    }
}

/// Runs `f` on the first four states of word-major `words` (W >= 4), one 256-bit register
/// per word.
#[kernel(AIGIS_KECCAK_AVX2)]
#[inline]
fn permute_first_four<const W: usize>(
    words: &mut [[u64; W]; 25],
    f: impl FnOnce(&mut [__m256i; 25]),
) {
    assert!(W >= 4);
    let mut v: [__m256i; 25] = [_mm256_setzero_si256(); 25];
    for (r, w) in v.iter_mut().zip(words.iter()) {
        // SAFETY: `w` has at least 32 readable bytes; the load has no alignment requirement.
        *r = unsafe { _mm256_loadu_si256(w.as_ptr().cast()) };
    }
    f(&mut v);
    for (r, w) in v.iter().zip(words.iter_mut()) {
        // SAFETY: `w` has at least 32 writable bytes; the store has no alignment requirement.
        unsafe { _mm256_storeu_si256(w.as_mut_ptr().cast(), *r) };
    }
}

impl<const RATE: usize> ShakeLanes<8, RATE> {
    /// Permutes the states of the lanes set in `busy` (a bit mask), and possibly others:
    /// when all of them are among the first four, only those four, on 256-bit registers.
    #[kernel(AIGIS_KECCAK_AVX512)]
    pub fn permute_busy(&mut self, busy: usize) {
        if busy < 1 << 4 {
            permute_first_four(&mut self.words, |v| f1600_x4_vl(v));
        } else {
            self.permute();
        }
    }

    /// One permutation of all eight states.
    #[kernel(AIGIS_KECCAK_AVX512F)]
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
    use crate::cpu::kernels;

    fn inputs() -> Vec<[u8; 34]> {
        (0..8u8)
            .map(|j| core::array::from_fn(|i| (i as u8).wrapping_mul(31) ^ j))
            .collect()
    }

    #[test]
    fn four_lanes_equal_scalar() {
        if !kernels::AIGIS_KECCAK_AVX2.runs() {
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
    fn four_lanes_with_avx512vl_equal_scalar() {
        if !kernels::AIGIS_KECCAK_AVX512.runs() {
            return;
        }
        let ins = inputs();
        let parts: Vec<[&[u8]; 2]> = ins.iter().map(|x| [&x[..30], &x[30..]]).collect();
        let mut v = ShakeLanes::<4, 168>::absorb(&parts[4..]);
        let mut s = ShakeLanes::<4, 168>::absorb(&parts[4..]);
        let mut w = ShakeLanes::<8, 168>::absorb(&parts);
        let mut t = ShakeLanes::<8, 168>::absorb(&parts);
        for _ in 0..3 {
            // SAFETY: the features were checked above.
            unsafe {
                v.permute_vl();
                w.permute_busy(0b1011);
            }
            s.permute_scalar();
            t.permute_scalar();
            assert_eq!(v.words, s.words);
            for (a, b) in w.words.iter().zip(t.words.iter()) {
                assert_eq!(a[..4], b[..4]);
            }
        }
    }

    #[test]
    fn one_state_with_avx512vl_equals_scalar() {
        if !kernels::AIGIS_KECCAK_AVX512VL.runs() {
            return;
        }
        let mut s: [u64; 25] =
            core::array::from_fn(|i| (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut v = s;
        for _ in 0..3 {
            keccak_f1600(&mut s);
            // SAFETY: the features were checked above.
            unsafe { f1600_x1_vl(&mut v) };
            assert_eq!(v, s);
        }
    }

    #[test]
    fn eight_lanes_equal_scalar() {
        if !kernels::AIGIS_KECCAK_AVX512F.runs() {
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
