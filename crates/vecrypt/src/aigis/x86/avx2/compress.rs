//! Compression of u by multiply-shift, packed eight coefficients per step.

use super::*;

/// Output bytes of eight D-bit values packed by [`compress_vec`]: the first four values sit
/// in the low 128-bit half, the last four (shifted to a byte boundary) in the high half,
/// and one byte is shared when 4D is odd in nibbles. 0x80 marks bytes a half does not give.
pub(super) struct PackBytes<const D: usize>;

impl<const D: usize> PackBytes<D> {
    const SPLIT: usize = 4 * D / 8;
    const LOW: [u8; 16] = {
        let mut t = [0x80u8; 16];
        let mut b = 0;
        while b < (4 * D).div_ceil(8) {
            t[b] = b as u8;
            b += 1;
        }
        t
    };
    const HIGH: [u8; 16] = {
        let mut t = [0x80u8; 16];
        let mut b = Self::SPLIT;
        while b < D {
            t[b] = (b - Self::SPLIT) as u8;
            b += 1;
        }
        t
    };
}

/// Compress_d by multiply-shift (the constants of `compress::magic`) and pack at D bits,
/// eight coefficients (D bytes) per step; input canonical.
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
pub(super) fn compress_vec<const D: usize>(out: &mut [u8], p: &Poly) {
    let bytes = N * D / 8;
    assert!(out.len() >= bytes);
    let (m, a, s) = magic(D);
    // SAFETY: 16 readable bytes each.
    let (low, high) = unsafe {
        (
            _mm_loadu_si128(PackBytes::<D>::LOW.as_ptr().cast()),
            _mm_loadu_si128(PackBytes::<D>::HIGH.as_ptr().cast()),
        )
    };
    // x * m by VPMADDWD: x sits in the low 16 bits of each 32-bit lane, m in the low half
    // of each multiplier pair, zero in the high half.
    let mul = _mm256_set1_epi32(m as i32);
    let add = _mm256_set1_epi32(a as i32);
    let shift = _mm_cvtsi32_si128(s as i32);
    let mask = _mm256_set1_epi32((1 << D) - 1);
    let low_dwords = _mm256_set1_epi64x(0xffff_ffff);
    let pair_shift = _mm_cvtsi32_si128(32 - D as i32);
    let quad_shift = _mm_cvtsi32_si128(2 * D as i32);
    let half_shift = _mm256_setr_epi64x(0, 0, (4 * D % 8) as i64, 0);
    for (i, group) in p.0.chunks_exact(8).enumerate() {
        // SAFETY: `group` is 8 values, 16 readable bytes.
        let x = _mm256_cvtepu16_epi32(unsafe { _mm_loadu_si128(group.as_ptr().cast()) });
        let v = _mm256_srl_epi32(_mm256_add_epi32(_mm256_madd_epi16(x, mul), add), shift);
        let v = _mm256_and_si256(v, mask);
        // Two values per 64-bit lane (2D bits), then four per 128-bit half (4D bits).
        let pairs = _mm256_or_si256(
            _mm256_and_si256(v, low_dwords),
            _mm256_srl_epi64(v, pair_shift),
        );
        let quads = _mm256_or_si256(
            pairs,
            _mm256_sll_epi64(_mm256_bsrli_epi128::<8>(pairs), quad_shift),
        );
        let quads = _mm256_sllv_epi64(quads, half_shift);
        let packed = _mm_or_si128(
            _mm_shuffle_epi8(_mm256_castsi256_si128(quads), low),
            _mm_shuffle_epi8(_mm256_extracti128_si256::<1>(quads), high),
        );
        let at = D * i;
        if at + 16 <= bytes {
            // SAFETY: out[at .. at + 16] is inside out[..bytes]; the bytes past the D of
            // this step are zero and are rewritten by the next steps.
            unsafe { _mm_storeu_si128(out.as_mut_ptr().add(at).cast(), packed) };
        } else {
            let mut last = [0u8; 16];
            // SAFETY: `last` is 16 writable bytes.
            unsafe { _mm_storeu_si128(last.as_mut_ptr().cast(), packed) };
            out[at..at + D].copy_from_slice(&last[..D]);
        }
    }
}

/// [`compress_vec`] for the widths of u; for the narrow widths of v the portable packing
/// is as fast (the vector cost is per eight values, whatever D).
#[kernel(AIGIS_LANES_AVX2)]
#[inline]
pub fn compress(out: &mut [u8], p: &Poly, d: usize) {
    match d {
        9 => compress_vec::<9>(out, p),
        10 => compress_vec::<10>(out, p),
        11 => compress_vec::<11>(out, p),
        _ => Soft.compress(out, p, d),
    }
}
