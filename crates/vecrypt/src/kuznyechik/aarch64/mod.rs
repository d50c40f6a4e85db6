//! The AArch64 kernels of Kuznyechik: the `neon` backend, constant time, on 128-bit
//! Advanced SIMD registers, with MGM's products on PMULL where the CPU has it.
//!
//! - [`sliced`]: sixteen blocks per batch, byte-sliced (register `j` holds byte `j` of
//!   every block, reached by a 16x16 byte transpose of ZIP1/ZIP2). π and π⁻¹ are one TBL
//!   and three TBX over the 256-byte table held in sixteen registers (each TBX's index is
//!   the byte with its top two bits flipped, out of range and so ignored for three quarters
//!   of the values); L is sixteen R steps on a ring of registers, the palindromic
//!   coefficients of ℓ folded so that a step takes seven products by constants, each two
//!   nibble TBLs (`c*x = lo[x & 15] ^ hi[x >> 4]`).
//! - [`block`]: one block per register for calls under [`entry::SMALL_BLOCKS`] blocks
//!   (the chained modes, MGM's first counters and tag) and the key schedule: the same π,
//!   and L as the sum of the sixteen input bytes times the columns of L by PMULL.8 (a
//!   plain Advanced SIMD instruction), reduced once.
//! - [`mgm`]: the GF(2^128) products of MGM by the 64-bit PMULL (kernel
//!   `KUZNYECHIK_MGM_PMULL`, the `aes` feature); without it the portable products run.
//!
//! No memory is indexed by secret data: every table lookup is TBL/TBX on registers.
//!
//! Throughput bound (llvm-mca 14 on the batch loop, sixteen blocks, both directions
//! alike): see the figures in [`sliced`]'s entry below.
//! - Neoverse N1: BOUND_N1.
//! - Cortex-A72: BOUND_A72.
//!
//! [`Native`] is what the front keeps per key: whether its backend runs the NEON kernels on
//! this CPU, decided once at keying with the kernel table's `runs()`. Every unsafe call
//! below relies on that decision.

macro_rules! unroll16 {
    ($f:ident($($arg:expr),*)) => {
        $f::<0>($($arg),*); $f::<1>($($arg),*); $f::<2>($($arg),*); $f::<3>($($arg),*);
        $f::<4>($($arg),*); $f::<5>($($arg),*); $f::<6>($($arg),*); $f::<7>($($arg),*);
        $f::<8>($($arg),*); $f::<9>($($arg),*); $f::<10>($($arg),*); $f::<11>($($arg),*);
        $f::<12>($($arg),*); $f::<13>($($arg),*); $f::<14>($($arg),*); $f::<15>($($arg),*);
    };
}

mod block;
mod entry;
mod mgm;
mod sliced;

use super::dispatch::Kernels;
use super::{KEY, RoundKeys};
use crate::cpu::{Backend, kernels};

/// The NEON kernels of one key: `neon` is set only by [`Kernels::keyed`], and only for a
/// CPU that runs [`kernels::KUZNYECHIK_NEON`].
#[derive(Clone, Default)]
pub(super) struct Native {
    neon: bool,
}

impl Kernels for Native {
    fn keyed(backend: Backend) -> Self {
        Self {
            neon: backend == Backend::Neon && kernels::KUZNYECHIK_NEON.runs(),
        }
    }

    fn expand_key(&self, key: &[u8; KEY]) -> Option<RoundKeys> {
        if !self.neon {
            return None;
        }
        // SAFETY: `neon` is set only on a CPU that runs the kernel (see `keyed`).
        Some(unsafe { block::expand_key(key) })
    }

    fn encrypt(&self, rk: &RoundKeys, buf: &mut [u8]) -> bool {
        if self.neon {
            // SAFETY: as in `expand_key`.
            unsafe { entry::encrypt(rk, buf) };
        }
        self.neon
    }

    fn decrypt(&self, rk: &RoundKeys, buf: &mut [u8]) -> bool {
        if self.neon {
            // SAFETY: as in `expand_key`.
            unsafe { entry::decrypt(rk, buf) };
        }
        self.neon
    }

    fn ctr(&self, rk: &RoundKeys, counter: &mut [u8; 16], buf: &mut [u8]) -> bool {
        if self.neon {
            // SAFETY: as in `expand_key`.
            unsafe { entry::ctr::<false>(rk, counter, buf) };
        }
        self.neon
    }

    fn mgm_keystream(&self, rk: &RoundKeys, counter: &mut [u8; 16], buf: &mut [u8]) -> bool {
        if self.neon {
            // SAFETY: as in `expand_key`.
            unsafe { entry::ctr::<true>(rk, counter, buf) };
        }
        self.neon
    }

    fn mgm_mul_sum(hs: &[u8], xs: &[u8]) -> Option<(u128, u128)> {
        mgm::mul_sum(hs, xs)
    }
}
