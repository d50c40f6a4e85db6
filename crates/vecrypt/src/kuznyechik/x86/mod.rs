//! The x86-64 kernels of Kuznyechik and the choice among them.
//!
//! - `avx512.rs`: byte-sliced, 64 blocks at once (S by VPERMB, L by GF2P8AFFINEQB), with
//!   `avx512_counters.rs` (counter batches entering at round two), `avx512_chain.rs` (one
//!   block's latency, for the chained modes) and `avx512_mgm.rs` (MGM's fused batches);
//! - `avx2.rs`: byte-sliced, 32 blocks at once (S by its decomposition into 4-bit maps), and
//!   `avx2/gfni.rs` where the CPU has GFNI;
//! - `mgm_clmul.rs`: MGM's carry-less products and counter blocks.
//!
//! Every function here returns `false` (or `None`) when it did nothing, and the front then
//! runs the portable code.

/// Calls `$f::<i>($args)` (or `$f::<i, G>` for `$f[G](...)`) for i = 0..16, spelled out so that every register index is a
/// constant and the state never leaves registers.
macro_rules! unroll16 {
    ($f:ident $([$($g:tt)*])? ($($arg:expr),*)) => {
        $f::<0 $(, $($g)*)?>($($arg),*); $f::<1 $(, $($g)*)?>($($arg),*); $f::<2 $(, $($g)*)?>($($arg),*); $f::<3 $(, $($g)*)?>($($arg),*);
        $f::<4 $(, $($g)*)?>($($arg),*); $f::<5 $(, $($g)*)?>($($arg),*); $f::<6 $(, $($g)*)?>($($arg),*); $f::<7 $(, $($g)*)?>($($arg),*);
        $f::<8 $(, $($g)*)?>($($arg),*); $f::<9 $(, $($g)*)?>($($arg),*); $f::<10 $(, $($g)*)?>($($arg),*); $f::<11 $(, $($g)*)?>($($arg),*);
        $f::<12 $(, $($g)*)?>($($arg),*); $f::<13 $(, $($g)*)?>($($arg),*); $f::<14 $(, $($g)*)?>($($arg),*); $f::<15 $(, $($g)*)?>($($arg),*);
    };
}

mod avx2;
mod avx512;
mod avx512_chain;
mod avx512_counters;
mod avx512_mgm;
mod mgm_clmul;

// The layout-independent code the kernels build on, under the names they use.
#[cfg(test)]
use super::soft;
use super::{RoundKeys, consts};

use super::BLOCK;
use crate::cpu::Backend;
use crate::modes::Chain;

/// The key material the AVX-512 kernels keep per key, made on first use.
pub(super) type KernelKeys = avx512::SlicedKeys;

/// The key schedule through the backend's S and L.
pub(super) fn expand_key(key: &[u8; 32], backend: Backend) -> Option<RoundKeys> {
    match backend {
        Backend::Avx512 => avx512::expand_key(key),
        Backend::Avx2 => avx2::expand_key(key),
        _ => None,
    }
}

/// ECB encryption of whole blocks.
pub(super) fn encrypt_blocks(
    backend: Backend,
    rk: &RoundKeys,
    keys: &KernelKeys,
    buf: &mut [u8],
) -> bool {
    match backend {
        Backend::Avx512 => avx512::encrypt_blocks(rk, keys, buf),
        Backend::Avx2 => avx2::encrypt_blocks(rk, buf),
        _ => false,
    }
}

/// ECB decryption of whole blocks.
pub(super) fn decrypt_blocks(
    backend: Backend,
    rk: &RoundKeys,
    keys: &KernelKeys,
    buf: &mut [u8],
) -> bool {
    match backend {
        Backend::Avx512 => avx512::decrypt_blocks(rk, keys, buf),
        Backend::Avx2 => avx2::decrypt_blocks(rk, buf),
        _ => false,
    }
}

/// CTR with the whole-block counter, advancing `counter`.
pub(super) fn ctr(
    backend: Backend,
    rk: &RoundKeys,
    keys: &KernelKeys,
    counter: &mut [u8; BLOCK],
    buf: &mut [u8],
) -> bool {
    match backend {
        Backend::Avx512 => avx512::ctr(rk, keys, avx512_counters::Counting::Whole, counter, buf),
        Backend::Avx2 => avx2::ctr(rk, counter, buf),
        _ => false,
    }
}

/// A chained mode on the one-block-latency path.
pub(super) fn chain(
    backend: Backend,
    rk: &RoundKeys,
    keys: &KernelKeys,
    mode: Chain,
    register: &mut [u8],
    buf: &mut [u8],
) -> bool {
    backend == Backend::Avx512 && avx512_chain::chain(rk, keys, mode, register, buf)
}

/// MGM's keystream: CTR counting in the right half of the block, modulo 2^64.
pub(super) fn mgm_keystream(
    backend: Backend,
    rk: &RoundKeys,
    keys: &KernelKeys,
    counter: &mut [u8; BLOCK],
    buf: &mut [u8],
) -> bool {
    backend == Backend::Avx512
        && avx512::ctr(rk, keys, avx512_counters::Counting::Right, counter, buf)
}

/// MGM's fused absorption of the whole batches at the front of `data`: the bytes covered
/// and the unreduced sum of products.
pub(super) fn mgm_absorb(
    backend: Backend,
    rk: &RoundKeys,
    keys: &KernelKeys,
    z: &mut u128,
    data: &[u8],
) -> Option<(usize, (u128, u128))> {
    match backend {
        Backend::Avx512 => avx512_mgm::absorb(rk, keys, z, data),
        _ => None,
    }
}

/// MGM's fused encryption and absorption of the whole batches at the front of `buf`.
pub(super) fn mgm_seal(
    backend: Backend,
    rk: &RoundKeys,
    keys: &KernelKeys,
    y: &mut u128,
    z: &mut u128,
    buf: &mut [u8],
) -> Option<(usize, (u128, u128))> {
    match backend {
        Backend::Avx512 => avx512_mgm::seal(rk, keys, y, z, buf),
        _ => None,
    }
}

/// Writes `blocks` successive MGM counter blocks into `out`, advancing `counter`.
pub(super) fn mgm_counters(out: &mut [u8], blocks: usize, counter: &mut u128, left: bool) -> bool {
    mgm_clmul::fill_counters(out, blocks, counter, left)
}

/// The unreduced sum of `H_i * X_i` over the blocks of `hs` and `xs`.
pub(super) fn mgm_products(hs: &[u8], xs: &[u8]) -> Option<(u128, u128)> {
    mgm_clmul::mul_sum(hs, xs)
}
