//! The fully bitsliced uBlock kernel on 256-bit registers ([`super::sliced_ymm`]) for CPUs
//! with GFNI but without AVX-512: the same kernel with the bit transpose of the
//! transposition in one `GF2P8AFFINEQB` per register instead of eighteen shift-and-mask
//! operations. CTR, which transposes only its output, gains less than ECB and CBC
//! decryption (figures in `docs/perf/ublock.md`).
//!
//! [`YmmGfni`] is [`Ymm`] with that one operation changed; everything else forwards to it.
//! Without GFNI the calls take [`super::sliced_ymm`], whose own tests keep it checked on
//! CPUs that have GFNI.

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::Variant;
use super::planes::{Lanes, State};
use super::planes_ymm::{Avx2, Ymm};
use super::sliced::{self, SliceKeys};
use super::sliced_entry::sliced_entry_points;
use super::transpose::Exchanges;
use crate::cpu::{kernel, kernels};

/// The proof that the CPU runs AVX2 and GFNI: made only by [`Gfni::new`], compiled for the
/// kernel's features.
#[derive(Copy, Clone)]
pub(super) struct Gfni(());

impl Gfni {
    /// The token, inside code compiled for the kernel's features.
    #[kernel(UBLOCK_SLICED_AVX2_GFNI)]
    #[inline]
    pub(super) fn new() -> Self {
        Gfni(())
    }

    /// The AVX2 token this one implies.
    #[inline(always)]
    fn avx2(self) -> Avx2 {
        // SAFETY: `self` exists, so the CPU runs AVX2 and GFNI (see the type).
        unsafe { Avx2::new() }
    }
}

/// A 256-bit register whose bit transpose is `GF2P8AFFINEQB`. Made only from a [`Gfni`]
/// token or from other such registers, so a value proves the features.
#[derive(Copy, Clone)]
pub(super) struct YmmGfni(Ymm);

/// Every 64-bit lane: byte `b` is `1 << (7 - b)`, the matrix operand that makes
/// `GF2P8AFFINEQB` transpose each 8x8 bit matrix about its anti-diagonal.
const ANTI_TRANSPOSE: i64 = 0x0102_0408_1020_4080;

/// Both halves of a bit-planes state, rewrapped.
#[inline(always)]
fn rewrap<A: Copy, B>(s: State<A>, f: impl Fn(A) -> B) -> State<B> {
    s.map(|half| half.map(&f))
}

impl Lanes for YmmGfni {
    const BYTES: usize = Ymm::BYTES;
    type Token = Gfni;

    #[inline(always)]
    fn token(self) -> Gfni {
        Gfni(())
    }

    #[inline(always)]
    fn splat(t: Gfni, v: u32) -> Self {
        YmmGfni(Ymm::splat(t.avx2(), v))
    }

    #[inline(always)]
    fn broadcast_lane(t: Gfni, pattern: &[u8; 16]) -> Self {
        YmmGfni(Ymm::broadcast_lane(t.avx2(), pattern))
    }

    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        YmmGfni(self.0.xor(o.0))
    }

    #[inline(always)]
    fn and(self, o: Self) -> Self {
        YmmGfni(self.0.and(o.0))
    }

    #[inline(always)]
    fn or(self, o: Self) -> Self {
        YmmGfni(self.0.or(o.0))
    }

    #[inline(always)]
    fn andnot(self, o: Self) -> Self {
        YmmGfni(self.0.andnot(o.0))
    }

    #[inline(always)]
    fn rotl4(self) -> Self {
        YmmGfni(self.0.rotl4())
    }

    #[inline(always)]
    fn rotl8(self) -> Self {
        YmmGfni(self.0.rotl8())
    }

    #[inline(always)]
    fn rotl20(self) -> Self {
        YmmGfni(self.0.rotl20())
    }

    #[inline(always)]
    fn shl32<const N: u32>(self) -> Self {
        YmmGfni(self.0.shl32::<N>())
    }

    #[inline(always)]
    fn shr32<const N: u32>(self) -> Self {
        YmmGfni(self.0.shr32::<N>())
    }

    #[inline(always)]
    fn shuffle_bytes(self, idx: Self) -> Self {
        YmmGfni(self.0.shuffle_bytes(idx.0))
    }

    #[inline(always)]
    fn load_batch<V: Variant>(t: Gfni, src: &[u8]) -> State<Self> {
        rewrap(Ymm::load_batch::<V>(t.avx2(), src), YmmGfni)
    }

    #[inline(always)]
    fn store_batch<V: Variant>(s: &State<Self>, dst: &mut [u8]) {
        Ymm::store_batch::<V>(&rewrap(*s, |x| x.0), dst);
    }
}

impl Exchanges for YmmGfni {
    const REVERSED: bool = true;

    #[inline(always)]
    fn load(t: Gfni, b: &[u8]) -> Self {
        YmmGfni(Ymm::load(t.avx2(), b))
    }

    #[inline(always)]
    fn store(self, b: &mut [u8]) {
        self.0.store(b);
    }

    #[inline(always)]
    fn byte_exchange<const D: usize>(x: Self, y: Self) -> (Self, Self) {
        let (x, y) = Ymm::byte_exchange::<D>(x.0, y.0);
        (YmmGfni(x), YmmGfni(y))
    }

    #[inline(always)]
    fn bit_transpose(self) -> Self {
        // SAFETY: `self` exists, so the CPU runs GFNI and AVX2 (see the type).
        YmmGfni(Ymm(unsafe {
            _mm256_gf2p8affine_epi64_epi8::<0>(_mm256_set1_epi64x(ANTI_TRANSPOSE), self.0.0)
        }))
    }

    #[inline(always)]
    fn qword_exchange(x: Self, y: Self) -> (Self, Self) {
        let (x, y) = Ymm::qword_exchange(x.0, y.0);
        (YmmGfni(x), YmmGfni(y))
    }

    #[inline(always)]
    fn pair_exchange(x: Self, y: Self) -> (Self, Self) {
        let (x, y) = Ymm::pair_exchange(x.0, y.0);
        (YmmGfni(x), YmmGfni(y))
    }
}

sliced_entry_points!(UBLOCK_SLICED_AVX2_GFNI, YmmGfni, Gfni::new());
