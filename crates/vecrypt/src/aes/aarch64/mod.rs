//! The AArch64 kernels of AES go here: the ARMv8 cryptography extension (AESE/AESD with
//! AESMC/AESIMC, and PMULL for GHASH) on NEON registers, in the shape of the x86 kernels:
//! one file per stage, a table of entries per backend that each check the CPU first. Until
//! then every key runs the portable code.

use super::common::{CounterWidth, Kernels, RoundKeys};
use crate::cpu::Backend;

/// The kernels of `backend`: none yet on this architecture.
pub(super) fn kernels(_backend: Backend) -> Option<&'static Kernels> {
    None
}

/// ECB encryption on `backend`'s kernel: none on this architecture.
pub(super) fn encrypt(_: Backend, _: &RoundKeys, _: &mut [u8]) -> bool {
    false
}

/// ECB decryption on `backend`'s kernel: none on this architecture.
pub(super) fn decrypt(_: Backend, _: &RoundKeys, _: &mut [u8]) -> bool {
    false
}

/// CTR on `backend`'s kernel: none on this architecture.
pub(super) fn ctr(_: Backend, _: &RoundKeys, _: CounterWidth, _: &[u8; 16], _: &mut [u8]) -> bool {
    false
}

/// The powers of a GHASH key for carry-less kernels: none on this architecture yet.
pub(super) fn ghash_powers(_: &[u8; 16]) -> Option<super::common::HashPowers> {
    None
}

/// GHASH on carry-less kernels: none on this architecture yet.
pub(super) fn ghash_blocks(_: &super::common::HashPowers, _: &mut [u8; 16], _: &[u8]) -> bool {
    false
}

/// CBC decryption on `backend`'s kernel: none on this architecture.
pub(super) fn cbc_decrypt(_: Backend, _: &RoundKeys, _: &mut [u8; 16], _: &mut [u8]) -> bool {
    false
}
