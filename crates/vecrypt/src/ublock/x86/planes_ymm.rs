//! AVX2 uBlock: the bitsliced kernel of [`super::planes`] on 256-bit registers, for
//! machines without AVX-512.
//!
//! A batch is 256 bytes (16 blocks of 128 bits or 8 of 256). Without `VPROLD` and
//! `VPTERNLOGD`, the 4- and 20-bit word rotations are two shifts and an OR, the 8-bit one is
//! a `VPSHUFB`, and the S-box takes the two-input formula of [`planes::Lanes`]. Calls of
//! 256 blocks or more run their whole batches on the fully bitsliced kernel
//! (`sliced_ymm.rs`, or `sliced_ymm_gfni.rs` where the CPU has GFNI), which is faster there
//! (figures in `docs/perf/ublock.md`).

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::StreamsMode;
use super::Variant;
use super::planes::{self, BSWAP32, Lanes, PlaneKeys, State};
use super::planes_entry::planes_entry_points;
use crate::cpu::{kernel, kernels};

/// The proof that the CPU runs this backend: made only by [`Avx2::new`], which is compiled
/// for the kernel's features, so the compiler allows it only in such code or in an `unsafe`
/// block after the CPU check.
#[derive(Copy, Clone)]
pub(super) struct Avx2(());

impl Avx2 {
    /// The token, inside code compiled for the backend's features.
    #[kernel(UBLOCK_PLANES_AVX2)]
    #[inline]
    pub(super) fn new() -> Self {
        Avx2(())
    }
}

/// A 256-bit register. Made only from a [`Avx2`] (or from other registers), so a value is
/// the proof that the CPU runs the instructions below: that is what makes them sound.
#[derive(Copy, Clone)]
pub(super) struct Ymm(pub(super) __m256i);

/// `pshufb` indices that rotate every 32-bit lane left by 8 bits.
const ROTL8: [u8; 16] = [3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14];

impl Ymm {
    #[inline(always)]
    fn rotl<const L: i32, const R: i32>(self) -> Self {
        // SAFETY: `self` or the token proves the features (see the type).
        Ymm(unsafe {
            _mm256_or_si256(
                _mm256_slli_epi32::<L>(self.0),
                _mm256_srli_epi32::<R>(self.0),
            )
        })
    }
}

impl Lanes for Ymm {
    const BYTES: usize = 32;
    type Token = Avx2;

    #[inline(always)]
    fn token(self) -> Avx2 {
        Avx2(())
    }

    #[inline(always)]
    fn splat(_: Self::Token, v: u32) -> Self {
        // SAFETY: `self` or the token proves the features (see the type).
        Ymm(unsafe { _mm256_set1_epi32(v as i32) })
    }

    #[inline(always)]
    fn broadcast_lane(_: Self::Token, pattern: &[u8; 16]) -> Self {
        // SAFETY: reads 16 bytes from a 16-byte array; AVX2 per the type.
        Ymm(unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(pattern.as_ptr().cast())) })
    }

    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        // SAFETY: `self` or the token proves the features (see the type).
        Ymm(unsafe { _mm256_xor_si256(self.0, o.0) })
    }

    #[inline(always)]
    fn and(self, o: Self) -> Self {
        // SAFETY: `self` or the token proves the features (see the type).
        Ymm(unsafe { _mm256_and_si256(self.0, o.0) })
    }

    #[inline(always)]
    fn or(self, o: Self) -> Self {
        // SAFETY: `self` or the token proves the features (see the type).
        Ymm(unsafe { _mm256_or_si256(self.0, o.0) })
    }

    #[inline(always)]
    fn andnot(self, o: Self) -> Self {
        // SAFETY: `self` or the token proves the features (see the type).
        Ymm(unsafe { _mm256_andnot_si256(self.0, o.0) })
    }

    #[inline(always)]
    fn rotl4(self) -> Self {
        self.rotl::<4, 28>()
    }

    #[inline(always)]
    fn rotl8(self) -> Self {
        self.shuffle_bytes(Self::broadcast_lane(self.token(), &ROTL8))
    }

    #[inline(always)]
    fn rotl20(self) -> Self {
        self.rotl::<20, 12>()
    }

    #[inline(always)]
    fn shl32<const N: u32>(self) -> Self {
        // SAFETY: `self` or the token proves the features (see the type).
        Ymm(unsafe { _mm256_sll_epi32(self.0, _mm_cvtsi32_si128(N as i32)) })
    }

    #[inline(always)]
    fn shr32<const N: u32>(self) -> Self {
        // SAFETY: `self` or the token proves the features (see the type).
        Ymm(unsafe { _mm256_srl_epi32(self.0, _mm_cvtsi32_si128(N as i32)) })
    }

    #[inline(always)]
    fn shuffle_bytes(self, idx: Self) -> Self {
        // SAFETY: `self` or the token proves the features (see the type).
        Ymm(unsafe { _mm256_shuffle_epi8(self.0, idx.0) })
    }

    #[inline(always)]
    fn load_batch<V: Variant>(t: Self::Token, src: &[u8]) -> State<Self> {
        let src = &src[..256];
        let bswap = Self::broadcast_lane(t, &BSWAP32);
        let mut z = [bswap; 8];
        for (r, chunk) in z.iter_mut().zip(src.chunks_exact(32)) {
            // SAFETY: `chunk` is 32 readable bytes; AVX2 per the type.
            *r = Ymm(unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) }).shuffle_bytes(bswap);
        }
        let mut a = [z[0], z[1], z[2], z[3]];
        let mut b = [z[4], z[5], z[6], z[7]];
        planes::transpose4(&mut a);
        planes::transpose4(&mut b);
        let mut s = [a; 2];
        for j in 0..4 {
            // SAFETY: `self` or the token proves the features (see the type).
            unsafe {
                if V::BLOCK == 16 {
                    s[0][j] = Ymm(_mm256_unpacklo_epi64(a[j].0, b[j].0));
                    s[1][j] = Ymm(_mm256_unpackhi_epi64(a[j].0, b[j].0));
                } else {
                    s[0][j] = Ymm(_mm256_permute2x128_si256::<0x20>(a[j].0, b[j].0));
                    s[1][j] = Ymm(_mm256_permute2x128_si256::<0x31>(a[j].0, b[j].0));
                }
            }
        }
        s
    }

    #[inline(always)]
    fn store_batch<V: Variant>(s: &State<Self>, dst: &mut [u8]) {
        let dst = &mut dst[..256];
        let mut a = s[0];
        let mut b = s[1];
        for j in 0..4 {
            let (h0, h1) = (s[0][j].0, s[1][j].0);
            // SAFETY: `self` or the token proves the features (see the type).
            unsafe {
                if V::BLOCK == 16 {
                    a[j] = Ymm(_mm256_unpacklo_epi64(h0, h1));
                    b[j] = Ymm(_mm256_unpackhi_epi64(h0, h1));
                } else {
                    a[j] = Ymm(_mm256_permute2x128_si256::<0x20>(h0, h1));
                    b[j] = Ymm(_mm256_permute2x128_si256::<0x31>(h0, h1));
                }
            }
        }
        planes::transpose4(&mut a);
        planes::transpose4(&mut b);
        let bswap = Self::broadcast_lane(s[0][0].token(), &BSWAP32);
        let z = [a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]];
        for (r, chunk) in z.iter().zip(dst.chunks_exact_mut(32)) {
            // SAFETY: `chunk` is 32 writable bytes; AVX2 per the type.
            unsafe { _mm256_storeu_si256(chunk.as_mut_ptr().cast(), r.shuffle_bytes(bswap).0) };
        }
    }
}

planes_entry_points!(UBLOCK_PLANES_AVX2, Ymm, Avx2, "AVX2");
