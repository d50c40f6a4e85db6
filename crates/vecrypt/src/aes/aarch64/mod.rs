//! The AArch64 kernels of AES go here: the ARMv8 cryptography extension (AESE/AESD with
//! AESMC/AESIMC, and PMULL for GHASH) on NEON registers, in the shape of the x86 kernels:
//! one file per stage, a table of entries per backend that each check the CPU first. Until
//! then every key runs the portable code.

use super::common::Kernels;
use crate::cpu::Backend;

/// The kernels of `backend`: none yet on this architecture.
pub(super) fn kernels(_backend: Backend) -> Option<&'static Kernels> {
    None
}
