//! AVX-512 uBlock: the bitsliced kernel of [`super::planes`] on 512-bit registers.
//!
//! A batch is 512 bytes (32 blocks of 128 bits or 16 of 256). The word rotations are `VPROLD`,
//! every three-input boolean step (S-box terms, the key-folded XORs, the transposition's
//! masked XOR) is one `VPTERNLOGD`, and PL/PR are one `VPSHUFB` per bit-plane. Per round and
//! batch that is 10 ternary-logic S-box instructions, 16 rotations, 24 XORs and 8 shuffles:
//! 58 instructions on the two ports that execute 512-bit operations, 29 cycles per round, so
//! 464 cycles per 512 bytes for uBlock-128/128 before the transposition.
//!
//! That count is the bound: at 29 cycles per round, the 16 rounds of uBlock-128/128 and the
//! 24 of uBlock-128/256 and uBlock-256/256 set this kernel's ceiling before the
//! transposition, and a faster kernel needs fewer instructions per round. The full
//! slicing (`sliced/`, one register per state bit, 512 blocks per batch) has about half
//! as many per round, but its state lives in memory, and the stores it makes each round and
//! its transposition take back most of that; it takes calls of 8 KiB and more. This kernel
//! stays for batches below 8 KiB, tails, CBC decryption and multi-key CBC (32 streams of
//! 128-bit blocks, or 16 of 256-bit blocks, per batch). The measured speeds are in
//! `docs/perf/ublock.md`.

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::StreamsMode;
use super::Variant;
use super::planes::{self, BSWAP32, Lanes, PlaneKeys, State};
use super::planes_entry::planes_entry_points;
use crate::cpu::{kernel, kernels};

/// Truth-table operands of `VPTERNLOGD`: the result for inputs (a, b, c) is bit
/// `a << 2 | b << 1 | c` of the immediate, so any formula over these three masks gives it.
const A: u8 = 0xf0;
const B: u8 = 0xcc;
const C: u8 = 0xaa;

/// The proof that the CPU runs this backend: made only by [`Avx512::new`], which is compiled
/// for the kernel's features, so the compiler allows it only in such code or in an `unsafe`
/// block after the CPU check.
#[derive(Copy, Clone)]
pub(super) struct Avx512(());

impl Avx512 {
    /// The token, inside code compiled for the backend's features.
    #[kernel(UBLOCK_PLANES_AVX512)]
    #[inline]
    pub(super) fn new() -> Self {
        Avx512(())
    }
}

/// A 512-bit register. Made only from a [`Avx512`] (or from other registers), so a value is
/// the proof that the CPU runs the instructions below: that is what makes them sound.
#[derive(Copy, Clone)]
pub(super) struct Zmm(pub(super) __m512i);

macro_rules! ternary {
    ($a:expr, $b:expr, $c:expr, $imm:expr) => {
        // SAFETY: a `Zmm` exists, which proves AVX-512F (see the type).
        Zmm(unsafe { _mm512_ternarylogic_epi32::<{ $imm as i32 }>($a.0, $b.0, $c.0) })
    };
}

impl Lanes for Zmm {
    const BYTES: usize = 64;
    type Token = Avx512;

    #[inline(always)]
    fn token(self) -> Avx512 {
        Avx512(())
    }

    #[inline(always)]
    fn splat(_: Self::Token, v: u32) -> Self {
        // SAFETY: `self` or the token proves the features (see the type).
        Zmm(unsafe { _mm512_set1_epi32(v as i32) })
    }

    #[inline(always)]
    fn broadcast_lane(_: Self::Token, pattern: &[u8; 16]) -> Self {
        // SAFETY: reads 16 bytes from a 16-byte array; a register exists, which proves the features (see the register type).
        Zmm(unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(pattern.as_ptr().cast())) })
    }

    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        // SAFETY: `self` or the token proves the features (see the type).
        Zmm(unsafe { _mm512_xor_si512(self.0, o.0) })
    }

    #[inline(always)]
    fn and(self, o: Self) -> Self {
        // SAFETY: `self` or the token proves the features (see the type).
        Zmm(unsafe { _mm512_and_si512(self.0, o.0) })
    }

    #[inline(always)]
    fn or(self, o: Self) -> Self {
        // SAFETY: `self` or the token proves the features (see the type).
        Zmm(unsafe { _mm512_or_si512(self.0, o.0) })
    }

    #[inline(always)]
    fn andnot(self, o: Self) -> Self {
        // SAFETY: `self` or the token proves the features (see the type).
        Zmm(unsafe { _mm512_andnot_si512(self.0, o.0) })
    }

    #[inline(always)]
    fn rotl4(self) -> Self {
        // SAFETY: `self` or the token proves the features (see the type).
        Zmm(unsafe { _mm512_rol_epi32::<4>(self.0) })
    }

    #[inline(always)]
    fn rotl8(self) -> Self {
        // SAFETY: `self` or the token proves the features (see the type).
        Zmm(unsafe { _mm512_rol_epi32::<8>(self.0) })
    }

    #[inline(always)]
    fn rotl20(self) -> Self {
        // SAFETY: `self` or the token proves the features (see the type).
        Zmm(unsafe { _mm512_rol_epi32::<20>(self.0) })
    }

    #[inline(always)]
    fn shl32<const N: u32>(self) -> Self {
        // SAFETY: `self` or the token proves the features (see the type).
        Zmm(unsafe { _mm512_slli_epi32::<N>(self.0) })
    }

    #[inline(always)]
    fn shr32<const N: u32>(self) -> Self {
        // SAFETY: `self` or the token proves the features (see the type).
        Zmm(unsafe { _mm512_srli_epi32::<N>(self.0) })
    }

    #[inline(always)]
    fn shuffle_bytes(self, idx: Self) -> Self {
        // SAFETY: a register exists, which proves the features (see the register type).
        Zmm(unsafe { _mm512_shuffle_epi8(self.0, idx.0) })
    }

    #[inline(always)]
    fn not(self) -> Self {
        ternary!(self, self, self, !A)
    }

    #[inline(always)]
    fn xor3(self, b: Self, c: Self) -> Self {
        ternary!(self, b, c, A ^ B ^ C)
    }

    #[inline(always)]
    fn xor_and(self, b: Self, m: Self) -> Self {
        ternary!(self, b, m, (A ^ B) & C)
    }

    #[inline(always)]
    fn sbox(x: [Self; 4]) -> [Self; 4] {
        let y3 = ternary!(x[1], x[2], x[3], (A | B) ^ C);
        let y0 = ternary!(x[0], x[2], x[3], !(A ^ (B & C)));
        let u = ternary!(x[1], x[2], x[3], A ^ (B & C));
        let y1 = ternary!(u, x[0], y3, !(A ^ (B & !C)));
        let y2 = ternary!(x[2], x[1], y0, !(A ^ (B & C)));
        [y0, y1, y2, y3]
    }

    #[inline(always)]
    fn sbox_inv(x: [Self; 4]) -> [Self; 4] {
        let y1 = ternary!(x[1], x[0], x[3], A ^ (B | C));
        let y2 = ternary!(x[0], x[1], x[2], !((A & !B) ^ C));
        let v = ternary!(x[0], x[1], x[2], (A & B) ^ C);
        let y0 = ternary!(x[3], v, x[0], (!A & B) ^ (A & !C));
        let y3 = ternary!(x[3], x[2], y1, !(A ^ (B & !C)));
        [y0, y1, y2, y3]
    }

    #[inline(always)]
    fn load_batch<V: Variant>(t: Self::Token, src: &[u8]) -> State<Self> {
        let src = &src[..512];
        let bswap = Self::broadcast_lane(t, &BSWAP32);
        let mut z = [bswap; 8];
        for (r, chunk) in z.iter_mut().zip(src.chunks_exact(64)) {
            // SAFETY: `chunk` is 64 readable bytes; a register exists, which proves the features (see the register type).
            *r = Zmm(unsafe { _mm512_loadu_si512(chunk.as_ptr().cast()) }).shuffle_bytes(bswap);
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
                    s[0][j] = Zmm(_mm512_unpacklo_epi64(a[j].0, b[j].0));
                    s[1][j] = Zmm(_mm512_unpackhi_epi64(a[j].0, b[j].0));
                } else {
                    s[0][j] = Zmm(_mm512_shuffle_i64x2::<0x88>(a[j].0, b[j].0));
                    s[1][j] = Zmm(_mm512_shuffle_i64x2::<0xdd>(a[j].0, b[j].0));
                }
            }
        }
        s
    }

    #[inline(always)]
    fn store_batch<V: Variant>(s: &State<Self>, dst: &mut [u8]) {
        let dst = &mut dst[..512];
        let mut a = s[0];
        let mut b = s[1];
        for j in 0..4 {
            let (h0, h1) = (s[0][j].0, s[1][j].0);
            // SAFETY: `self` or the token proves the features (see the type).
            unsafe {
                if V::BLOCK == 16 {
                    a[j] = Zmm(_mm512_unpacklo_epi64(h0, h1));
                    b[j] = Zmm(_mm512_unpackhi_epi64(h0, h1));
                } else {
                    let lo = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
                    let hi = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
                    a[j] = Zmm(_mm512_permutex2var_epi64(h0, lo, h1));
                    b[j] = Zmm(_mm512_permutex2var_epi64(h0, hi, h1));
                }
            }
        }
        planes::transpose4(&mut a);
        planes::transpose4(&mut b);
        let bswap = Self::broadcast_lane(s[0][0].token(), &BSWAP32);
        let z = [a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]];
        for (r, chunk) in z.iter().zip(dst.chunks_exact_mut(64)) {
            // SAFETY: `chunk` is 64 writable bytes; a register exists, which proves the features (see the register type).
            unsafe { _mm512_storeu_si512(chunk.as_mut_ptr().cast(), r.shuffle_bytes(bswap).0) };
        }
    }
}

planes_entry_points!(UBLOCK_PLANES_AVX512, Zmm, Avx512, "AVX-512");
