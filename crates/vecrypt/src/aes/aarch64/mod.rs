//! The AArch64 kernels of AES: the ARMv8 cryptography extension (AESE/AESD with
//! AESMC/AESIMC) on NEON registers ([`armv8`], eight blocks interleaved), with GHASH on
//! PMULL in [`crate::ghash`] and both in one pass for GCM in [`gcm_pmull`].
//!
//! [`kernels`] hands the front one table per backend. Every entry checks, with the kernel
//! table's `runs()`, that this CPU has the features its kernel is compiled for, and returns
//! without touching the data when it has not; the front then takes the portable path. Several
//! CBC streams (`MultiKey`) are interleaved up to eight at a time by the shared
//! [`crate::aes::streams`] on the kernel of [`armv8`].

mod armv8;
mod gcm_pmull;

use super::common::{CounterWidth, Kernels, RoundKeys};
use crate::cpu::Backend;

/// The powers of a GHASH key on wider registers: none here; every key takes
/// [`crate::ghash`]'s PMULL kernel.
pub(super) fn ghash_powers(_: Backend, _: &[u8; 16], _: &mut super::common::HashPowers) -> bool {
    false
}

/// The ARMv8 cryptography extension on 128-bit NEON registers.
static ARMV8: Kernels = Kernels {
    chain: armv8::chain,
    cfb_decrypt: armv8::decrypt_cfb,
    xts,
    gcm: gcm_pmull::gcm_blocks,
    gcm_message: |_, _, _, _, _, _| None,
    #[cfg(feature = "alloc")]
    cbc_encrypt_streams,
};

/// XTS on [`armv8`]: a tweak still to be encrypted goes through the tweak key's ECB on the
/// same kernel first.
fn xts(
    rk: &RoundKeys,
    tweak_key: Option<&RoundKeys>,
    decrypt: bool,
    tweak: u128,
    buf: &mut [u8],
) -> Option<u128> {
    let t = match tweak_key {
        Some(tk) => {
            let mut block = tweak.to_le_bytes();
            let done = armv8::encrypt(tk, &mut block);
            let t = u128::from_le_bytes(block);
            crate::wipe::array(&mut block);
            if !done {
                return None;
            }
            t
        }
        None => tweak,
    };
    armv8::xts_blocks(rk, decrypt, t, buf)
}

/// Several CBC streams, up to eight interleaved per kernel call.
#[cfg(feature = "alloc")]
fn cbc_encrypt_streams(keys: &[&RoundKeys], ivs: &mut [[u8; 16]], bufs: &mut [&mut [u8]]) -> bool {
    let narrow = super::streams::Narrow {
        runs: armv8::runs(),
        kernel: armv8::encrypt_cbc_streams,
        max: armv8::MAX_STREAMS,
    };
    super::streams::interleave(narrow, 1, armv8::MAX_STREAMS, None, keys, ivs, bufs)
}

/// ECB encryption on `backend`'s kernel, called directly: one-block calls are short enough
/// that an indirect call through the table shows in their speed.
#[inline]
pub(super) fn encrypt(backend: Backend, rk: &RoundKeys, buf: &mut [u8]) -> bool {
    match backend {
        Backend::ArmAes => armv8::encrypt(rk, buf),
        _ => false,
    }
}

/// ECB decryption on `backend`'s kernel, called directly.
#[inline]
pub(super) fn decrypt(backend: Backend, rk: &RoundKeys, buf: &mut [u8]) -> bool {
    match backend {
        Backend::ArmAes => armv8::decrypt(rk, buf),
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
        Backend::ArmAes => armv8::ctr_blocks(rk, width, counter, buf),
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
        Backend::ArmAes => armv8::decrypt_cbc(rk, iv, buf),
        _ => false,
    }
}

/// Fills the round keys of `rk` from `key` on the AES instructions, for the backend that
/// has them; `false` for the portable ones, which expand keys with the portable S-box.
pub(super) fn expand_key(backend: Backend, key: &[u8], rk: &mut RoundKeys) -> bool {
    match backend {
        Backend::ArmAes => armv8::expand(key, rk),
        _ => false,
    }
}

/// The kernels of `backend`, or `None` for the portable one.
pub(super) fn kernels(backend: Backend) -> Option<&'static Kernels> {
    match backend {
        Backend::ArmAes => Some(&ARMV8),
        _ => None,
    }
}
