//! Centred binomial noise from PRF bytes, by nibble look-ups and popcounts.

use super::*;

/// Popcount of each nibble value, in both 128-bit halves.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
pub(super) fn nibble_popcounts() -> __m256i {
    _mm256_setr_epi8(
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3,
        3, 4,
    )
}

/// A 16-entry byte table (indexed by nibble) in both 128-bit halves.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
pub(super) fn nibble_table(f: fn(i32) -> i32) -> __m256i {
    let mut t = [0i8; 32];
    for (n, v) in t.iter_mut().enumerate() {
        *v = f(n as i32 % 16) as i8;
    }
    // SAFETY: 32 readable bytes.
    unsafe { _mm256_loadu_si256(t.as_ptr().cast()) }
}

/// The 32 signed bytes of `c` as 16-bit coefficients in `out[..32]`, in order.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
pub(super) fn widen_store(out: &mut [i16], c: __m256i) {
    assert!(out.len() >= 32);
    // SAFETY: `out` has at least 32 values, 64 writable bytes.
    unsafe {
        _mm256_storeu_si256(
            out.as_mut_ptr().cast(),
            _mm256_cvtepi8_epi16(_mm256_castsi256_si128(c)),
        );
        _mm256_storeu_si256(
            out.as_mut_ptr().add(16).cast(),
            _mm256_cvtepi8_epi16(_mm256_extracti128_si256::<1>(c)),
        );
    }
}

/// eta = 1: four 2-bit fields per byte, each bit 0 minus bit 1; a nibble holds two fields,
/// so two nibble tables give all four, interleaved back into order.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
pub(super) fn cbd1_vec(p: &mut Poly, buf: &[u8]) {
    let first = _mm256_castsi256_si128(nibble_table(|n| (n & 1) - ((n >> 1) & 1)));
    let second = _mm256_castsi256_si128(nibble_table(|n| ((n >> 2) & 1) - ((n >> 3) & 1)));
    let low = _mm_set1_epi8(0x0f);
    for (bytes, out) in buf[..noise_bytes(1)]
        .chunks_exact(16)
        .zip(p.0.chunks_exact_mut(64))
    {
        // SAFETY: 16 readable bytes.
        let b = unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) };
        let lo = _mm_and_si128(b, low);
        let hi = _mm_and_si128(_mm_srli_epi16::<4>(b), low);
        let (c0, c1) = (_mm_shuffle_epi8(first, lo), _mm_shuffle_epi8(second, lo));
        let (c2, c3) = (_mm_shuffle_epi8(first, hi), _mm_shuffle_epi8(second, hi));
        let (p01, p23) = (_mm_unpacklo_epi8(c0, c1), _mm_unpacklo_epi8(c2, c3));
        let (q01, q23) = (_mm_unpackhi_epi8(c0, c1), _mm_unpackhi_epi8(c2, c3));
        let quads = [
            _mm_unpacklo_epi16(p01, p23),
            _mm_unpackhi_epi16(p01, p23),
            _mm_unpacklo_epi16(q01, q23),
            _mm_unpackhi_epi16(q01, q23),
        ];
        for (o, q) in out.chunks_exact_mut(32).zip(quads.chunks_exact(2)) {
            widen_store(o, _mm256_set_m128i(q[1], q[0]));
        }
    }
}

/// eta = 2: one 4-bit field per nibble, looked up whole.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
pub(super) fn cbd2_vec(p: &mut Poly, buf: &[u8]) {
    let table = nibble_table(|n| (n & 1) + ((n >> 1) & 1) - ((n >> 2) & 1) - ((n >> 3) & 1));
    let low = _mm256_set1_epi8(0x0f);
    for (bytes, out) in buf[..noise_bytes(2)]
        .chunks_exact(32)
        .zip(p.0.chunks_exact_mut(64))
    {
        // SAFETY: 32 readable bytes.
        let b = unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) };
        let lo = _mm256_shuffle_epi8(table, _mm256_and_si256(b, low));
        let hi = _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16::<4>(b), low));
        // In-lane interleaving: `a` holds coefficients 0..16 and 32..48, `c` 16..32 and 48..64.
        let a = _mm256_unpacklo_epi8(lo, hi);
        let c = _mm256_unpackhi_epi8(lo, hi);
        widen_store(&mut out[..32], _mm256_permute2x128_si256::<0x20>(a, c));
        widen_store(&mut out[32..], _mm256_permute2x128_si256::<0x31>(a, c));
    }
}

/// eta = 3: one 6-bit field per coefficient, gathered into a 32-bit lane by a byte shuffle
/// and a variable shift, eight coefficients per step; the two 3-bit sums by nibble look-up.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
pub(super) fn cbd3_vec(p: &mut Poly, buf: &[u8]) {
    const BYTES: usize = noise_bytes(3);
    let mut padded = [0u8; BYTES + 16];
    padded[..BYTES].copy_from_slice(&buf[..BYTES]);
    let idx = _mm256_setr_epi8(
        0, 1, 2, 3, 0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 3, 4, 5, 6, 3, 4, 5, 6, 4, 5, 6, 7, 5, 6,
        7, 8,
    );
    let shifts = _mm256_setr_epi32(0, 6, 4, 2, 0, 6, 4, 2);
    let seven = _mm256_set1_epi32(7);
    let pop = nibble_popcounts();
    let eight = |at: usize| {
        // SAFETY: `padded` has 16 readable bytes at every multiple of 6 below BYTES.
        let src = unsafe { _mm_loadu_si128(padded.as_ptr().add(at).cast()) };
        let v = _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(src), idx);
        let v = _mm256_srlv_epi32(v, shifts);
        let a = _mm256_shuffle_epi8(pop, _mm256_and_si256(v, seven));
        let b = _mm256_shuffle_epi8(pop, _mm256_and_si256(_mm256_srli_epi32::<3>(v), seven));
        _mm256_sub_epi32(a, b)
    };
    for (i, out) in p.0.chunks_exact_mut(16).enumerate() {
        let packed = _mm256_packs_epi32(eight(12 * i), eight(12 * i + 6));
        let ordered = _mm256_permute4x64_epi64::<0xd8>(packed);
        // SAFETY: `out` is 16 values, 32 writable bytes.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), ordered) };
    }
}

/// eta = 4: popcount of the low nibble minus that of the high one, for every byte.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
pub(super) fn cbd4_vec(p: &mut Poly, buf: &[u8]) {
    let pop = nibble_popcounts();
    let low = _mm256_set1_epi8(0x0f);
    for (bytes, out) in buf[..noise_bytes(4)]
        .chunks_exact(32)
        .zip(p.0.chunks_exact_mut(32))
    {
        // SAFETY: 32 readable bytes.
        let b = unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) };
        let lo = _mm256_shuffle_epi8(pop, _mm256_and_si256(b, low));
        let hi = _mm256_shuffle_epi8(pop, _mm256_and_si256(_mm256_srli_epi16::<4>(b), low));
        widen_store(out, _mm256_sub_epi8(lo, hi));
    }
}

/// eta = 8: popcount of the first byte minus that of the second, for every byte pair
/// (one multiply-add by (1, -1)).
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
pub(super) fn cbd8_vec(p: &mut Poly, buf: &[u8]) {
    let pop = nibble_popcounts();
    let low = _mm256_set1_epi8(0x0f);
    let signs = _mm256_set1_epi16(0xff01u16 as i16);
    for (bytes, out) in buf[..noise_bytes(8)]
        .chunks_exact(32)
        .zip(p.0.chunks_exact_mut(16))
    {
        // SAFETY: 32 readable bytes.
        let b = unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) };
        let counts = _mm256_add_epi8(
            _mm256_shuffle_epi8(pop, _mm256_and_si256(b, low)),
            _mm256_shuffle_epi8(pop, _mm256_and_si256(_mm256_srli_epi16::<4>(b), low)),
        );
        // SAFETY: `out` is 16 values, 32 writable bytes.
        unsafe {
            _mm256_storeu_si256(out.as_mut_ptr().cast(), _mm256_maddubs_epi16(counts, signs))
        };
    }
}

/// CBD_eta(buf) into `p` for every width the sets use.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
pub fn cbd_vec(p: &mut Poly, buf: &[u8], eta: usize) {
    assert!(buf.len() >= noise_bytes(eta));
    match eta {
        1 => cbd1_vec(p, buf),
        2 => cbd2_vec(p, buf),
        3 => cbd3_vec(p, buf),
        4 => cbd4_vec(p, buf),
        8 => cbd8_vec(p, buf),
        _ => cbd(p, buf, eta),
    }
}
