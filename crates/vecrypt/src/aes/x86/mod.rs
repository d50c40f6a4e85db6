//! The x86-64 kernels of AES: AES-NI on xmm registers ([`aesni`], with the carry-less GHASH
//! of [`crate::ghash`]) and VAES on ymm and zmm registers ([`vaes_ymm`], [`vaes_zmm`], whose
//! kernels are written once in [`vaes_blocks`], [`vaes_gcm`] and [`vaes_xts`]).
//!
//! [`kernels`] hands the front one table per backend. Every entry checks, with the kernel
//! table's `runs()`, that this CPU has the features its kernel is compiled for, and returns
//! without touching the data when it has not; the front then takes the portable path.

// The multi-stream CBC kernels serve `MultiKey`, which needs `alloc`.
#![cfg_attr(not(feature = "alloc"), allow(dead_code))]

mod aesni;
#[cfg(feature = "alloc")]
mod streams;
mod vaes_blocks;
mod vaes_gcm;
mod vaes_xts;
mod vaes_ymm;
mod vaes_zmm;

use super::common::{CounterWidth, Kernels, RoundKeys};
use crate::cpu::Backend;

/// The powers of a GHASH key made on the VAES backends' registers: four powers per
/// multiplication on zmm, two on ymm; false for the other backends, whose keys take
/// [`crate::ghash`]'s own kernel.
pub(super) fn ghash_powers(
    backend: Backend,
    h: &[u8; 16],
    out: &mut super::common::HashPowers,
) -> bool {
    match backend {
        Backend::Vaes512 => vaes_zmm::powers(h, out),
        Backend::Vaes256 => vaes_ymm::powers(h, out),
        _ => false,
    }
}

/// AES-NI: eight blocks interleaved on xmm registers; CFB decryption, XTS and GCM are built
/// by the front on these ECB and CTR kernels and the carry-less GHASH.
static AESNI: Kernels = Kernels {
    chain: aesni::chain,
    cfb_decrypt: |_, _, _| false,
    xts: |_, _, _, _, _| None,
    gcm: |_, _, _, _, _, _| false,
    gcm_message: |_, _, _, _, _, _| None,
    #[cfg(feature = "alloc")]
    cbc_encrypt_streams: streams::aesni,
};

/// VAES on ymm registers; the one-chain modes stay on AES-NI, which runs them at the
/// latency bound already.
static VAES256: Kernels = Kernels {
    chain: aesni::chain,
    cfb_decrypt: vaes_ymm::decrypt_cfb,
    xts: vaes_ymm::xts_blocks,
    gcm: vaes_ymm::gcm_blocks,
    gcm_message: |_, _, _, _, _, _| None,
    #[cfg(feature = "alloc")]
    cbc_encrypt_streams: streams::vaes256,
};

/// VAES on zmm registers; the one-chain modes stay on AES-NI. GCM takes every message whole
/// (`gcm_message`), so the whole-block entry is never needed.
static VAES512: Kernels = Kernels {
    chain: aesni::chain,
    cfb_decrypt: vaes_zmm::decrypt_cfb,
    xts: vaes_zmm::xts_blocks,
    gcm: |_, _, _, _, _, _| false,
    gcm_message: vaes_zmm::gcm_message,
    #[cfg(feature = "alloc")]
    cbc_encrypt_streams: streams::vaes512,
};

/// Calls shorter than this (seven blocks or fewer) run ECB and CBC decryption on the AES-NI
/// kernel on the VAES backends too: a VAES call pays for whole registers even when the
/// blocks do not fill its last one, and below eight blocks the AES-NI kernel measured faster
/// (figures in `docs/perf/aes.md`). CMAC's one-block calls gain the same.
const VAES_FROM: usize = 8 * 16;

/// Whether a call of `len` bytes on `backend` runs on the AES-NI kernel instead (see
/// [`VAES_FROM`]).
#[inline]
fn short_on_aesni(backend: Backend, len: usize) -> bool {
    matches!(backend, Backend::Vaes512 | Backend::Vaes256) && len < VAES_FROM && aesni::runs()
}

/// ECB encryption on `backend`'s kernel, called directly: one-block calls are short enough
/// that an indirect call through the table shows in their speed.
#[inline]
pub(super) fn encrypt(backend: Backend, rk: &RoundKeys, buf: &mut [u8]) -> bool {
    match backend {
        _ if short_on_aesni(backend, buf.len()) => aesni::encrypt(rk, buf),
        Backend::Vaes512 => vaes_zmm::encrypt(rk, buf),
        Backend::Vaes256 => vaes_ymm::encrypt(rk, buf),
        Backend::AesNi => aesni::encrypt(rk, buf),
        _ => false,
    }
}

/// ECB decryption on `backend`'s kernel, called directly.
#[inline]
pub(super) fn decrypt(backend: Backend, rk: &RoundKeys, buf: &mut [u8]) -> bool {
    match backend {
        _ if short_on_aesni(backend, buf.len()) => aesni::decrypt(rk, buf),
        Backend::Vaes512 => vaes_zmm::decrypt(rk, buf),
        Backend::Vaes256 => vaes_ymm::decrypt(rk, buf),
        Backend::AesNi => aesni::decrypt(rk, buf),
        _ => false,
    }
}

/// CTR over whole blocks on `backend`'s kernel, called directly.
#[inline]
pub(super) fn ctr(
    backend: Backend,
    rk: &RoundKeys,
    width: CounterWidth,
    counter: &[u8; 16],
    buf: &mut [u8],
) -> bool {
    match backend {
        Backend::Vaes512 => vaes_zmm::ctr_blocks(rk, width, counter, buf),
        Backend::Vaes256 => vaes_ymm::ctr_blocks(rk, width, counter, buf),
        Backend::AesNi => aesni::ctr_blocks(rk, width, counter, buf),
        _ => false,
    }
}

/// CBC decryption on `backend`'s kernel, called directly.
#[inline]
pub(super) fn cbc_decrypt(
    backend: Backend,
    rk: &RoundKeys,
    iv: &mut [u8; 16],
    buf: &mut [u8],
) -> bool {
    match backend {
        _ if short_on_aesni(backend, buf.len()) => aesni::decrypt_cbc(rk, iv, buf),
        Backend::Vaes512 => vaes_zmm::decrypt_cbc(rk, iv, buf),
        Backend::Vaes256 => vaes_ymm::decrypt_cbc(rk, iv, buf),
        Backend::AesNi => aesni::decrypt_cbc(rk, iv, buf),
        _ => false,
    }
}

/// Fills the round keys of `rk` from `key` on the AES instructions, for every backend that
/// has them; `false` for the portable ones, which expand keys with the portable S-box.
pub(super) fn expand_key(backend: Backend, key: &[u8], rk: &mut RoundKeys) -> bool {
    match backend {
        Backend::Vaes512 | Backend::Vaes256 | Backend::AesNi => aesni::expand(key, rk),
        _ => false,
    }
}

/// The kernels of `backend`, or `None` for the portable one.
pub(super) fn kernels(backend: Backend) -> Option<&'static Kernels> {
    match backend {
        Backend::Vaes512 => Some(&VAES512),
        Backend::Vaes256 => Some(&VAES256),
        Backend::AesNi => Some(&AESNI),
        _ => None,
    }
}
