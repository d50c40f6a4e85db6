//! The x86-64 kernels of Aigis-enc and the choice among them.
//!
//! - `avx2/`: the NTT, products, noise, compression and lane sampling on 256-bit
//!   registers (`ntt.rs`, `cbd.rs`, `compress.rs`, `lanes.rs`), and the entry points
//!   of the AVX2 backend in its `mod.rs` (the whole KEM and the compact one);
//! - `avx512.rs`, `avx512_ntt.rs`: the AVX-512 backend's NTT and products on 512-bit
//!   registers, VBMI and VBMI2 parsing and unpacking, over the AVX2 code for the rest;
//! - `keccak.rs`: Keccak-f\[1600\] on four and eight lanes; `sm3.rs`: SM3 on eight lanes,
//!   `sm3_x16.rs` on sixteen;
//! - `stack.rs`: the compact mode's stack measurement, for its tests.
//!
//! Every function here returns `false` (or `None`) when it did nothing, and the front then
//! runs the portable code.

mod avx2;
mod avx512;
mod avx512_ntt;
mod keccak;
#[cfg(feature = "kernel-parts")]
mod parts;
mod sm3;
mod sm3_x16;
#[cfg(test)]
pub(super) mod stack;

// The portable code the kernels build on, under the names they use.
use super::{arith, cbd, compact, compress, hash, kem, ntt, params, poly, reduce, sampling, soft};

use super::hash::HashMode;
use super::params::Params;
use crate::cpu::Backend;

/// Key generation on the backend's kernels.
pub(super) fn keypair<P: Params>(
    b: Backend,
    mode: HashMode,
    coins: &[u8; 64],
    pk: &mut [u8],
    sk: &mut [u8],
) -> bool {
    match b {
        Backend::Avx512 => avx512::keypair::<P>(mode, coins, pk, sk),
        Backend::Avx2 => avx2::keypair::<P>(mode, coins, pk, sk),
        _ => false,
    }
}

/// Encapsulation on the backend's kernels.
pub(super) fn encapsulate<P: Params>(
    b: Backend,
    mode: HashMode,
    pk: &[u8],
    coins: &[u8; 32],
    ct: &mut [u8],
) -> Option<[u8; 32]> {
    match b {
        Backend::Avx512 => avx512::encapsulate::<P>(mode, pk, coins, ct),
        Backend::Avx2 => avx2::encapsulate::<P>(mode, pk, coins, ct),
        _ => None,
    }
}

/// Decapsulation on the backend's kernels.
pub(super) fn decapsulate<P: Params>(
    b: Backend,
    mode: HashMode,
    sk: &[u8],
    ct: &[u8],
) -> Option<[u8; 32]> {
    match b {
        Backend::Avx512 => avx512::decapsulate::<P>(mode, sk, ct),
        Backend::Avx2 => avx2::decapsulate::<P>(mode, sk, ct),
        _ => None,
    }
}

/// One function of the scheme on the backend's kernels, repeated; `None` on backends
/// without kernels here.
#[cfg(feature = "kernel-parts")]
pub(super) fn kernel_part<P: Params>(
    b: Backend,
    mode: HashMode,
    part: super::parts::KernelPart,
    iterations: u32,
) -> Option<u32> {
    match b {
        Backend::Avx512 => parts::on_avx512::<P>(mode, part, iterations),
        Backend::Avx2 => parts::on_avx2::<P>(mode, part, iterations),
        _ => None,
    }
}

/// The eight-lane AVX-512 Keccak permutation, repeated; false if the CPU cannot run it.
#[cfg(feature = "kernel-parts")]
pub(super) fn keccak_x8(states: &mut [[u64; 25]; 8], iterations: u32) -> bool {
    parts::keccak_x8(states, iterations)
}

/// Whether the compact mode runs on vector kernels for this backend: the vector NTT and
/// products of AVX2 on both vector backends (it generates one matrix entry at a time, so
/// wide Keccak has nothing to batch).
fn compact_vector(b: Backend) -> bool {
    matches!(b, Backend::Avx2 | Backend::Avx512)
}

/// Compact key generation on the AVX2 kernels.
pub(super) fn compact_keypair<P: Params>(
    b: Backend,
    mode: HashMode,
    coins: &[u8; 64],
    pk: &mut [u8],
    sk: &mut [u8],
) -> bool {
    compact_vector(b) && avx2::compact_keypair::<P>(mode, coins, pk, sk)
}

/// Compact encapsulation on the AVX2 kernels.
pub(super) fn compact_encapsulate<P: Params>(
    b: Backend,
    mode: HashMode,
    pk: &[u8],
    coins: &[u8; 32],
    ct: &mut [u8],
) -> Option<[u8; 32]> {
    if !compact_vector(b) {
        return None;
    }
    avx2::compact_encapsulate::<P>(mode, pk, coins, ct)
}

/// Compact decapsulation on the AVX2 kernels.
pub(super) fn compact_decapsulate<P: Params>(
    b: Backend,
    mode: HashMode,
    sk: &[u8],
    ct: &[u8],
) -> Option<[u8; 32]> {
    if !compact_vector(b) {
        return None;
    }
    avx2::compact_decapsulate::<P>(mode, sk, ct)
}

/// Sorts `v` by `key`, largest first, keeping equal keys in their order (insertion sort: the
/// lists here are a few jobs long, and the order of equal jobs decides how evenly the lanes
/// of a multi-lane permutation are loaded).
pub(crate) fn sort_widest_first<T: Copy>(v: &mut [T], key: impl Fn(&T) -> usize) {
    for i in 1..v.len() {
        let x = v[i];
        let mut j = i;
        while j > 0 && key(&v[j - 1]) < key(&x) {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = x;
    }
}
