//! Byte-sliced Kuznyechik on AVX2: 32 blocks per batch, constant time, no AVX-512
//! instruction; byte shuffles only, or GFNI on YMM where the CPU has it.
//!
//! The layout and the R-step ring are those of the AVX-512 backend, on YMM registers (one
//! byte of 32 blocks each). Without VPERMI2B and GF2P8AFFINEQB:
//! - S follows the structure of π found by Biryukov, Perrin and Udovenko ("Reverse-Engineering
//!   the S-Box of Streebog, Kuznyechik and STRIBOBr1", Eurocrypt 2016): a linear map, two
//!   4-bit halves combined through GF(16) products and 4-bit permutations, another linear map.
//!   Every 4-bit map is one VPSHUFB; a product of two variable nibbles is a sum of logarithms
//!   (VPADDB, reduced mod 15 by VPMINUB) and one VPSHUFB of an exponential table, zero handled
//!   by the VPSHUFB rule that an index with its top bit set gives zero. About 25 instructions
//!   per register instead of the 16 row lookups and 14 blends of a plain 256-entry table.
//! - A multiplication by a constant (and the linear maps of S) is two VPSHUFB lookups, one per
//!   nibble, XORed.
//! - Batches keep each byte in the representation of [`shuffles`], in which π starts on the
//!   nibbles of its input and L is still a ring of R steps, so the linear maps of S vanish
//!   from the rounds; CTR computes the first round's share of the fifteen bytes its counters
//!   share once per 256 counters.
//!
//! Where the CPU has GFNI (as many without AVX-512 do), batches run the kernel of
//! [`gfni`] instead: the same decomposition of π with its GF(16) products and inverse
//! computed inside the AES field by GF2P8MULB and GF2P8AFFINEINVQB (13 instructions per
//! register and round for π, 12 for π⁻¹), the multiplications of L by GF2P8AFFINEQB, all on
//! YMM; fewer than ten blocks run two per register through [`pair::lane_blocks`].
//!
//! Without GFNI, short ECB calls and the chained modes with a one-block register run one
//! block at a time through [`block`]: S as row lookups under a tree of blends, L as a bit
//! matrix applied with VPSHUFB, VPSLLVD and VPBLENDVB, so that a chained step costs one
//! block, not a batch.
//!
//! With GFNI the kernel is bound by the three vector ports: per register (one byte of 32
//! blocks) and round, 35 vector instructions (π or π⁻¹ with the key, and the 7
//! GF2P8AFFINEQB and 15 XORs of an R step), so at least 16 × 35 / 3 ≈ 187 cycles a round
//! for sixteen registers; spills of the sixteen state registers and imperfect port
//! assignment keep the kernel above that (measured in `docs/perf/kuznyechik.md`).

mod batch;
mod block;
mod gfni;
mod key_schedule;
mod pair;
mod shuffles;
mod tables;

use pair::{SMALL_BLOCKS, small_body};

use crate::cpu::kernel;
use crate::kuznyechik::RoundKeys;
pub(super) use block::chain as chain_shuffles;
pub(super) use key_schedule::expand_key_gfni;

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn encrypt_body<const GFNI: bool>(rk: &RoundKeys, buf: &mut [u8]) {
    // SAFETY: AVX2 (and GFNI when `GFNI`) is enabled by the caller; the helpers only touch registers and
    // arrays whose bounds they check by type.
    unsafe {
        if GFNI {
            if buf.len() < 16 * SMALL_BLOCKS {
                return small_body::<false>(rk, buf);
            }
            return gfni::encrypt(rk, buf);
        }
        if buf.len() <= 16 * block::FEW_BLOCKS {
            return block::blocks::<false>(rk, buf);
        }
        shuffles::encrypt(rk, buf)
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn decrypt_body<const GFNI: bool>(rk: &RoundKeys, buf: &mut [u8]) {
    // SAFETY: as in `encrypt_body`.
    unsafe {
        if GFNI {
            if buf.len() < 16 * SMALL_BLOCKS {
                return small_body::<true>(rk, buf);
            }
            return gfni::decrypt(rk, buf);
        }
        if buf.len() <= 16 * block::FEW_BLOCKS {
            return block::blocks::<true>(rk, buf);
        }
        shuffles::decrypt(rk, buf)
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn ctr_body<const GFNI: bool>(rk: &RoundKeys, counter: &mut [u8; 16], buf: &mut [u8]) {
    // SAFETY: as in `encrypt_body`.
    unsafe {
        if GFNI {
            return gfni::ctr::ctr(rk, counter, buf);
        }
        shuffles::ctr(rk, counter, buf)
    }
}

/// The hot loops, compiled once for AVX2 alone and once with GFNI. The caller of each
/// entry point makes sure the CPU runs its kernel.
macro_rules! entry_points {
    ($kernel:ident, $gfni:literal, $enc:ident, $dec:ident, $ctr:ident) => {
        /// ECB encryption of whole blocks.
        ///
        /// # Safety
        #[doc = concat!("The CPU runs `", stringify!($kernel), "`.")]
        #[kernel($kernel)]
        pub(super) unsafe fn $enc(rk: &RoundKeys, buf: &mut [u8]) {
            // SAFETY: the features the body needs are enabled on this function.
            unsafe { encrypt_body::<$gfni>(rk, buf) }
        }

        /// ECB decryption of whole blocks.
        ///
        /// # Safety
        #[doc = concat!("The CPU runs `", stringify!($kernel), "`.")]
        #[kernel($kernel)]
        pub(super) unsafe fn $dec(rk: &RoundKeys, buf: &mut [u8]) {
            // SAFETY: the features the body needs are enabled on this function.
            unsafe { decrypt_body::<$gfni>(rk, buf) }
        }

        /// CTR with a whole-block big-endian counter.
        ///
        /// # Safety
        #[doc = concat!("The CPU runs `", stringify!($kernel), "`.")]
        #[kernel($kernel)]
        pub(super) unsafe fn $ctr(rk: &RoundKeys, counter: &mut [u8; 16], buf: &mut [u8]) {
            // SAFETY: the features the body needs are enabled on this function.
            unsafe { ctr_body::<$gfni>(rk, counter, buf) }
        }
    };
}

entry_points!(
    KUZNYECHIK_AVX2,
    false,
    encrypt_shuffles,
    decrypt_shuffles,
    ctr_shuffles
);
entry_points!(
    KUZNYECHIK_AVX2_GFNI,
    true,
    encrypt_gfni,
    decrypt_gfni,
    ctr_gfni
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::kernels;

    /// This CPU takes one of the two paths; both are checked here against the portable code.
    #[test]
    fn shuffle_and_gfni_paths_match_portable() {
        if !kernels::KUZNYECHIK_AVX2.runs() {
            return;
        }
        let mut rk = [[0u8; 16]; 10];
        for (i, k) in rk.iter_mut().flatten().enumerate() {
            *k = (i as u8).wrapping_mul(151).wrapping_add(7);
        }
        let rk = RoundKeys(rk);
        // One to eleven blocks cross from the per-block path to the batches; then one batch,
        // one and a partial one, two, three and a partial one.
        for blocks in (1..=11).chain([32, 45, 64, 101]) {
            check_paths(&rk, blocks);
        }
    }

    fn check_paths(rk: &RoundKeys, blocks: usize) {
        let data: Vec<u8> = (0..16 * blocks)
            .map(|i| (i as u8).wrapping_mul(29))
            .collect();
        let mut want = data.clone();
        crate::kuznyechik::soft::encrypt_blocks(rk, &mut want);
        let mut paths: Vec<(&str, bool)> = vec![("shuffles", false)];
        if kernels::KUZNYECHIK_AVX2_GFNI.runs() {
            paths.push(("gfni", true));
        }
        for (name, gfni) in paths {
            let mut b = data.clone();
            // SAFETY: AVX2 (and GFNI for that path) was checked above.
            unsafe {
                if gfni {
                    encrypt_gfni(rk, &mut b)
                } else {
                    encrypt_shuffles(rk, &mut b)
                }
            };
            assert_eq!(b, want, "{name} encrypt, {blocks} blocks");
            // SAFETY: as above.
            unsafe {
                if gfni {
                    decrypt_gfni(rk, &mut b)
                } else {
                    decrypt_shuffles(rk, &mut b)
                }
            };
            assert_eq!(b, data, "{name} decrypt, {blocks} blocks");
            let mut counter = [0xffu8; 16];
            let mut c = data.clone();
            // SAFETY: as above.
            unsafe {
                if gfni {
                    ctr_gfni(rk, &mut counter, &mut c)
                } else {
                    ctr_shuffles(rk, &mut counter, &mut c)
                }
            };
            let mut stream: Vec<u8> = (0..blocks as u128)
                .flat_map(|i| u128::MAX.wrapping_add(i).to_be_bytes())
                .collect();
            crate::kuznyechik::soft::encrypt_blocks(rk, &mut stream);
            let expect: Vec<u8> = data.iter().zip(&stream).map(|(a, b)| a ^ b).collect();
            assert_eq!(c, expect, "{name} ctr");
            assert_eq!(
                counter,
                (blocks as u128 - 1).to_be_bytes(),
                "{name} counter"
            );
        }
    }

    /// CTR from counters whose last byte starts anywhere (the shortcut first round where it
    /// does not wrap inside a batch, the plain one where it does, the shared share of the
    /// first round kept or remade as the first fifteen bytes change), over several batches
    /// and a partial one, against the portable cipher, on both paths this CPU runs.
    #[test]
    fn counter_batches_match_portable() {
        if !kernels::KUZNYECHIK_AVX2.runs() {
            return;
        }
        let gfni = kernels::KUZNYECHIK_AVX2_GFNI.runs();
        let mut rk = [[0u8; 16]; 10];
        for (i, k) in rk.iter_mut().flatten().enumerate() {
            *k = (i as u8).wrapping_mul(89).wrapping_add(3);
        }
        let rk = RoundKeys(rk);
        let starts = [
            0u128,
            1,
            0xdf,
            0xe0,
            0xe1,
            0xff,
            0x1234_5678_90ab_cef0_0000_0000_0000_0000,
            0xffff_ffff_ffff_ffff_ffff_ffff_ffff_ff00,
            0xffff_ffff_ffff_ffff_ffff_ffff_ffff_ffe0,
            0xffff_ffff_ffff_ffff_ffff_ffff_ffff_fff7,
            0x0000_0000_0000_0000_ffff_ffff_ffff_ffc3,
        ];
        for start in starts {
            for blocks in [32, 64, 160 + 7, 300, 600] {
                let data: Vec<u8> = (0..16 * blocks)
                    .map(|i| (i as u8).wrapping_mul(71) ^ 0x5c)
                    .collect();
                let mut stream: Vec<u8> = (0..blocks as u128)
                    .flat_map(|i| start.wrapping_add(i).to_be_bytes())
                    .collect();
                crate::kuznyechik::soft::encrypt_blocks(&rk, &mut stream);
                let want: Vec<u8> = data.iter().zip(&stream).map(|(a, b)| a ^ b).collect();
                for path in [false, true] {
                    if path && !gfni {
                        continue;
                    }
                    let mut got = data.clone();
                    let mut counter = start.to_be_bytes();
                    // SAFETY: AVX2 was checked above, and GFNI for that path.
                    unsafe {
                        if path {
                            ctr_gfni(&rk, &mut counter, &mut got)
                        } else {
                            ctr_shuffles(&rk, &mut counter, &mut got)
                        }
                    };
                    assert_eq!(got, want, "gfni {path}, start {start:#x}, {blocks} blocks");
                    assert_eq!(
                        counter,
                        start.wrapping_add(blocks as u128).to_be_bytes(),
                        "next counter"
                    );
                }
            }
        }
    }
}
