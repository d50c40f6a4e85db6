//! The AArch64 kernels of Kuznyechik: the `neon` backend, constant time, on 128-bit
//! Advanced SIMD registers, with MGM's products on PMULL where the CPU has it.
//!
//! - [`batch`]: sixteen blocks per batch, byte-sliced (register `j` holds byte `j` of
//!   every block, reached by a 16x16 byte transpose of ZIP1/ZIP2). π and π⁻¹ are one TBL
//!   and three TBX over the 256-byte table held in sixteen registers (each TBX's index is
//!   the byte with its top two bits flipped, out of range and so ignored for three quarters
//!   of the values); L is sixteen R steps on a ring of registers, the palindromic
//!   coefficients of ℓ folded so that a step takes seven products by constants, each a
//!   PMULL.8/PMULL2.8 pair, summed unreduced and reduced once by two nibble TBLs.
//! - [`block`]: one block per register for calls under [`entry::SMALL_BLOCKS`] blocks
//!   (short messages, MGM's first counters and tag), the one-block chained modes (CBC and
//!   CFB encryption, OFB, the CBC-MAC of OMAC) whole in one call, and the key schedule
//!   (so every ACPKM section re-keys on NEON): the same π, and L as the sum of the sixteen
//!   input bytes times the columns of L by PMULL.8 (a plain Advanced SIMD instruction),
//!   reduced once.
//! - [`mgm`]: the GF(2^128) products of MGM by the 64-bit PMULL (kernel
//!   `KUZNYECHIK_MGM_PMULL`, the `aes` feature); without it the portable products run.
//!   MGM's keystream is the CTR kernel counting in the right half of the block.
//!
//! No memory is indexed by secret data: every table lookup is TBL/TBX on registers, and
//! PMULL takes the same time for every operand.
//!
//! The batch round's bound is its vector instructions: per round of sixteen blocks, 224
//! PMULL.8/PMULL2.8 (which only one pipe runs on the cores modelled), the TBL/TBX lookups of
//! π and some 430 EORs (folding, sums, keys). The per-core estimates by llvm-mca are in
//! `docs/perf/kuznyechik.md`; nothing here has been timed on ARM hardware.
//!
//! [`Native`] is what the front keeps per key: whether its backend runs the NEON kernels on
//! this CPU, decided once at keying with the kernel table's `runs()`. Every unsafe call
//! below relies on that decision.

/// Calls `$f::<i>($args)` for i = 0..16, spelled out so that every register index is a
/// constant.
macro_rules! unroll16 {
    ($f:ident($($arg:expr),*)) => {
        $f::<0>($($arg),*); $f::<1>($($arg),*); $f::<2>($($arg),*); $f::<3>($($arg),*);
        $f::<4>($($arg),*); $f::<5>($($arg),*); $f::<6>($($arg),*); $f::<7>($($arg),*);
        $f::<8>($($arg),*); $f::<9>($($arg),*); $f::<10>($($arg),*); $f::<11>($($arg),*);
        $f::<12>($($arg),*); $f::<13>($($arg),*); $f::<14>($($arg),*); $f::<15>($($arg),*);
    };
}

mod batch;
mod block;
mod entry;
mod mgm;

use super::dispatch::Kernels;
use super::{KEY, RoundKeys};
use crate::cpu::{Backend, Ran, kernels};
use crate::modes::Chain;

/// The kernel a key runs, decided at keying.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Engine {
    /// None: the portable code.
    #[default]
    Portable,
    /// The NEON kernels ([`kernels::KUZNYECHIK_NEON`]).
    Neon,
}

/// The AArch64 kernels of one key. Only [`Kernels::keyed`] makes an engine other than
/// [`Engine::Portable`], and only for a kernel this CPU runs.
#[derive(Clone, Default)]
pub(super) struct Native {
    engine: Engine,
}

impl Kernels for Native {
    fn keyed(backend: Backend) -> Self {
        let engine = match backend {
            Backend::Neon if kernels::KUZNYECHIK_NEON.runs() => Engine::Neon,
            _ => Engine::Portable,
        };
        Self { engine }
    }

    fn expand_key(&self, key: &[u8; KEY]) -> Option<RoundKeys> {
        let Engine::Neon = self.engine else {
            return None;
        };
        // SAFETY: each engine is made by `keyed` only on a CPU that runs its kernel.
        Some(unsafe { block::expand_key(key) })
    }

    fn encrypt(&self, rk: &RoundKeys, buf: &mut [u8]) -> Ran {
        let Engine::Neon = self.engine else {
            return Ran::Declined;
        };
        // SAFETY: as in `expand_key`.
        unsafe { entry::encrypt(rk, buf) };
        Ran::Done
    }

    fn decrypt(&self, rk: &RoundKeys, buf: &mut [u8]) -> Ran {
        let Engine::Neon = self.engine else {
            return Ran::Declined;
        };
        // SAFETY: as in `expand_key`.
        unsafe { entry::decrypt(rk, buf) };
        Ran::Done
    }

    fn ctr(&self, rk: &RoundKeys, counter: &mut [u8; 16], buf: &mut [u8]) -> Ran {
        let Engine::Neon = self.engine else {
            return Ran::Declined;
        };
        // SAFETY: as in `expand_key`.
        unsafe { entry::ctr::<false>(rk, counter, buf) };
        Ran::Done
    }

    fn chain(&self, rk: &RoundKeys, mode: Chain, register: &mut [u8], buf: &mut [u8]) -> Ran {
        // Several chains at once go one step of all per call of the cipher, which runs them
        // side by side; one chain runs whole in one call.
        let Ok(register) = <&mut [u8; 16]>::try_from(register) else {
            return Ran::Declined;
        };
        let Engine::Neon = self.engine else {
            return Ran::Declined;
        };
        // SAFETY: as in `expand_key`.
        unsafe { entry::chain(rk, mode, register, buf) };
        Ran::Done
    }

    fn mgm_keystream(&self, rk: &RoundKeys, counter: &mut [u8; 16], buf: &mut [u8]) -> Ran {
        let Engine::Neon = self.engine else {
            return Ran::Declined;
        };
        // SAFETY: as in `expand_key`.
        unsafe { entry::ctr::<true>(rk, counter, buf) };
        Ran::Done
    }

    fn mgm_mul_sum(hs: &[u8], xs: &[u8]) -> Option<(u128, u128)> {
        mgm::mul_sum(hs, xs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kuznyechik::soft;

    fn round_keys() -> RoundKeys {
        let mut rk = [[0u8; 16]; 10];
        for (i, k) in rk.iter_mut().flatten().enumerate() {
            *k = (i as u8).wrapping_mul(151).wrapping_add(7);
        }
        RoundKeys(rk)
    }

    /// ECB both ways around the switch between the one-block path and the batches, and
    /// around whole and padded batches, against the portable cipher.
    #[test]
    fn ecb_matches_portable_across_paths() {
        if !kernels::KUZNYECHIK_NEON.runs() {
            return;
        }
        let rk = round_keys();
        for blocks in (0..=18).chain([26, 27, 31, 32, 33, 48, 59, 64]) {
            let data: Vec<u8> = (0..16 * blocks)
                .map(|i| (i as u8).wrapping_mul(29))
                .collect();
            let mut want = data.clone();
            soft::encrypt_blocks(&rk, &mut want);
            let mut got = data.clone();
            // SAFETY: the kernel's features were checked above.
            unsafe { entry::encrypt(&rk, &mut got) };
            assert_eq!(got, want, "encrypt, {blocks} blocks");
            // SAFETY: as above.
            unsafe { entry::decrypt(&rk, &mut got) };
            assert_eq!(got, data, "decrypt, {blocks} blocks");
        }
    }

    /// CTR counting in the whole block and in its right half only, across the carries of
    /// each, for lengths with partial last blocks, against the portable cipher.
    #[test]
    fn counters_match_portable_across_carries() {
        if !kernels::KUZNYECHIK_NEON.runs() {
            return;
        }
        let rk = round_keys();
        let starts = [
            0u128,
            0x1234_5678_90ab_cef0_0000_0000_0000_0000,
            0x0123_4567_89ab_cdef_ffff_ffff_ffff_fffa,
            u128::MAX - 3,
        ];
        for start in starts {
            for len in [0usize, 1, 16, 17, 100, 160, 176, 255, 256, 257, 600] {
                for right in [false, true] {
                    let next = |c: u128| {
                        if right {
                            (c >> 64 << 64) | u128::from((c as u64).wrapping_add(1))
                        } else {
                            c.wrapping_add(1)
                        }
                    };
                    let data: Vec<u8> = (0..len)
                        .map(|i| (i as u8).wrapping_mul(71) ^ 0x5c)
                        .collect();
                    let mut c = start;
                    let mut stream = Vec::new();
                    for _ in 0..len.div_ceil(16) {
                        stream.extend_from_slice(&c.to_be_bytes());
                        c = next(c);
                    }
                    soft::encrypt_blocks(&rk, &mut stream);
                    let want: Vec<u8> = data.iter().zip(&stream).map(|(a, b)| a ^ b).collect();
                    let mut got = data.clone();
                    let mut counter = start.to_be_bytes();
                    // SAFETY: the kernel's features were checked above.
                    unsafe {
                        if right {
                            entry::ctr::<true>(&rk, &mut counter, &mut got)
                        } else {
                            entry::ctr::<false>(&rk, &mut counter, &mut got)
                        }
                    };
                    let what = format!("start {start:#x}, {len} bytes, right {right}");
                    assert_eq!(got, want, "{what}");
                    assert_eq!(u128::from_be_bytes(counter), c, "{what}");
                }
            }
        }
    }

    /// MGM's products on PMULL against shifts and XORs.
    #[test]
    fn products_match_definition() {
        if !kernels::KUZNYECHIK_MGM_PMULL.runs() {
            return;
        }
        let bytes: Vec<u8> = (0..16 * 9)
            .map(|i| (i as u8).wrapping_mul(113) ^ 0xa7)
            .collect();
        let (hs, xs) = bytes.split_at(16 * 4);
        let xs = &xs[..16 * 4];
        let (mut low, mut high) = (0u128, 0u128);
        for (h, x) in hs.chunks_exact(16).zip(xs.chunks_exact(16)) {
            let a = u128::from_be_bytes(h.try_into().unwrap());
            let b = u128::from_be_bytes(x.try_into().unwrap());
            for i in 0..128 {
                if b >> i & 1 == 1 {
                    low ^= a << i;
                    high ^= if i == 0 { 0 } else { a >> (128 - i) };
                }
            }
        }
        assert_eq!(Native::mgm_mul_sum(hs, xs), Some((low, high)));
        assert_eq!(Native::mgm_mul_sum(&[], &[]), Some((0, 0)));
    }
}
