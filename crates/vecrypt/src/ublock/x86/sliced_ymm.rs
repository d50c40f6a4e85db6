//! The fully bitsliced uBlock kernel ([`super::sliced`]) on 256-bit registers, 256 blocks
//! per batch, for machines without AVX-512, and the register operations of its
//! transposition ([`super::sliced::transpose`]) in AVX2 alone.
//!
//! Without `VPTERNLOGD` a three-input XOR is two instructions, but the round still has about
//! half the operations of the bit-planes kernel in `planes_ymm.rs` per block, none of them
//! rotations or shuffles. The bit transpose is the three shift-and-mask steps of an 8x8 bit
//! matrix transpose per 64-bit lane.

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::Variant;
use super::planes_ymm::{Avx2, Ymm};
use super::sliced::{self, SliceKeys};
use super::sliced_entry::sliced_entry_points;
use super::transpose::Exchanges;
use crate::cpu::{kernel, kernels};

/// `t = (x ^ (x >> S)) & M; x ^= t ^ (t << S)`: swaps the bits `M` selects with those `S`
/// places above them, in every 64-bit lane.
#[inline(always)]
fn swap_bits<const S: i32, const L: i32>(r: Ymm, m: i64) -> Ymm {
    let x = r.0;
    // SAFETY: `r` exists, which proves AVX2 (see the register type).
    Ymm(unsafe {
        let t = _mm256_and_si256(
            _mm256_xor_si256(x, _mm256_srli_epi64::<S>(x)),
            _mm256_set1_epi64x(m),
        );
        _mm256_xor_si256(_mm256_xor_si256(x, t), _mm256_slli_epi64::<L>(t))
    })
}

// Every operation below has a register or a token, which proves the features.
impl Exchanges for Ymm {
    const REVERSED: bool = false;

    #[inline(always)]
    fn load(_: Self::Token, b: &[u8]) -> Self {
        let b: &[u8; 32] = b[..32].try_into().unwrap_or(&[0; 32]);
        // SAFETY: reads 32 bytes from a 32-byte array; a register exists, which proves the features (see the register type).
        Ymm(unsafe { _mm256_loadu_si256(b.as_ptr().cast()) })
    }

    #[inline(always)]
    fn store(self, b: &mut [u8]) {
        let b: &mut [u8; 32] = (&mut b[..32]).try_into().unwrap_or_else(|_| unreachable!());
        // SAFETY: writes 32 bytes into a 32-byte array; a register exists, which proves the features (see the register type).
        unsafe { _mm256_storeu_si256(b.as_mut_ptr().cast(), self.0) }
    }

    #[inline(always)]
    fn byte_exchange<const D: usize>(x: Self, y: Self) -> (Self, Self) {
        // SAFETY: a register exists, which proves the features (see the register type).
        unsafe {
            match D {
                1 => {
                    let odd = _mm256_set1_epi16(0xff00u16 as i16);
                    let (up, down) = (_mm256_slli_epi64::<8>(y.0), _mm256_srli_epi64::<8>(x.0));
                    (
                        Ymm(_mm256_blendv_epi8(x.0, up, odd)),
                        Ymm(_mm256_blendv_epi8(down, y.0, odd)),
                    )
                }
                2 => {
                    let (up, down) = (_mm256_slli_epi64::<16>(y.0), _mm256_srli_epi64::<16>(x.0));
                    (
                        Ymm(_mm256_blend_epi16::<0b1010_1010>(x.0, up)),
                        Ymm(_mm256_blend_epi16::<0b1010_1010>(down, y.0)),
                    )
                }
                _ => {
                    let (up, down) = (_mm256_slli_epi64::<32>(y.0), _mm256_srli_epi64::<32>(x.0));
                    (
                        Ymm(_mm256_blend_epi32::<0b1010_1010>(x.0, up)),
                        Ymm(_mm256_blend_epi32::<0b1010_1010>(down, y.0)),
                    )
                }
            }
        }
    }

    #[inline(always)]
    fn bit_transpose(self) -> Self {
        let x = swap_bits::<7, 7>(self, 0x00aa_00aa_00aa_00aa);
        let x = swap_bits::<14, 14>(x, 0x0000_cccc_0000_cccc);
        swap_bits::<28, 28>(x, 0x0000_0000_f0f0_f0f0)
    }

    #[inline(always)]
    fn qword_exchange(x: Self, y: Self) -> (Self, Self) {
        // SAFETY: a register exists, which proves the features (see the register type).
        unsafe {
            (
                Ymm(_mm256_unpacklo_epi64(x.0, y.0)),
                Ymm(_mm256_unpackhi_epi64(x.0, y.0)),
            )
        }
    }

    #[inline(always)]
    fn pair_exchange(x: Self, y: Self) -> (Self, Self) {
        // SAFETY: a register exists, which proves the features (see the register type).
        unsafe {
            (
                Ymm(_mm256_permute2x128_si256::<0x20>(x.0, y.0)),
                Ymm(_mm256_permute2x128_si256::<0x31>(x.0, y.0)),
            )
        }
    }
}

sliced_entry_points!(UBLOCK_SLICED_AVX2, Ymm, Avx2::new());

/// The calls take `sliced_ymm_gfni.rs` where the CPU has GFNI; these keep this kernel checked
/// against the portable code there too.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::Backend;
    use crate::registry::DynCipher;
    use crate::ublock::{Ublock, V128_128, V128_256, V256_256};

    fn bytes(seed: &mut u64, n: usize) -> Vec<u8> {
        (0..n)
            .map(|_| {
                *seed ^= *seed << 13;
                *seed ^= *seed >> 7;
                *seed ^= *seed << 17;
                *seed as u8
            })
            .collect()
    }

    fn matches_soft<V: Variant>(seed: u64) {
        if !kernels::UBLOCK_SLICED_AVX2.runs() {
            return;
        }
        let mut seed = seed;
        let batch = batch::<V>();
        for batches in [1, 2, 3] {
            let key = bytes(&mut seed, V::KEY);
            let iv = bytes(&mut seed, V::BLOCK);
            let data = bytes(&mut seed, batches * batch + V::BLOCK);
            let soft = Ublock::<V>::with_backend(&key, Backend::Soft).unwrap();
            let fast = Ublock::<V>::with_backend(&key, Backend::Avx2).unwrap();
            let what = format!("{} {batches} batches", V::NAME);

            for decrypt in [false, true] {
                let mut want = data[..batches * batch].to_vec();
                if decrypt {
                    soft.decrypt_ecb(&mut want).unwrap();
                } else {
                    soft.encrypt_ecb(&mut want).unwrap();
                }
                let mut got = data.clone();
                assert_eq!(
                    ecb::<V>(fast.kernels.slice_keys(&fast), &mut got, decrypt),
                    Some(batches * batch)
                );
                assert_eq!(got[..want.len()], want[..], "ECB {what} decrypt {decrypt}");
                assert_eq!(got[want.len()..], data[want.len()..], "ECB {what} tail");
            }

            let mut want = data.clone();
            soft.apply_ctr(&iv, &mut want).unwrap();
            let mut got = data.clone();
            let mut counter = iv.clone();
            assert_eq!(
                ctr::<V>(fast.kernels.slice_keys(&fast), &mut counter, &mut got),
                Some(batches * batch)
            );
            assert_eq!(
                got[..batches * batch],
                want[..batches * batch],
                "CTR {what}"
            );
            let mut rest = got[batches * batch..].to_vec();
            soft.apply_ctr(&counter, &mut rest).unwrap();
            assert_eq!(
                rest,
                want[batches * batch..],
                "CTR {what}: counter after the call"
            );

            let mut want = data[..batches * batch].to_vec();
            soft.decrypt_cbc(&iv, &mut want).unwrap();
            let mut got = data[..batches * batch].to_vec();
            let mut chain = iv.clone();
            assert_eq!(
                cbc_decrypt::<V>(fast.kernels.slice_keys(&fast), &mut chain, &mut got),
                Some(got.len())
            );
            assert_eq!(got, want, "CBC decryption {what}");
            assert_eq!(chain, data[batches * batch - V::BLOCK..batches * batch]);
        }
    }

    #[test]
    fn without_gfni_matches_soft() {
        matches_soft::<V128_128>(1);
        matches_soft::<V128_256>(2);
        matches_soft::<V256_256>(3);
    }
}
