//! The dispatch of an architecture without Aigis-enc kernels: every call runs the portable
//! code. The signatures are those of the kernels' dispatch, type parameters included.
#![allow(clippy::extra_unused_type_parameters)]

use super::hash::HashMode;
use super::params::Params;
use crate::cpu::Backend;

pub(super) fn keypair<P: Params>(
    _: Backend,
    _: HashMode,
    _: &[u8; 64],
    _: &mut [u8],
    _: &mut [u8],
) -> bool {
    false
}

pub(super) fn encapsulate<P: Params>(
    _: Backend,
    _: HashMode,
    _: &[u8],
    _: &[u8; 32],
    _: &mut [u8],
) -> Option<[u8; 32]> {
    None
}

pub(super) fn decapsulate<P: Params>(
    _: Backend,
    _: HashMode,
    _: &[u8],
    _: &[u8],
) -> Option<[u8; 32]> {
    None
}

pub(super) fn compact_keypair<P: Params>(
    _: Backend,
    _: HashMode,
    _: &[u8; 64],
    _: &mut [u8],
    _: &mut [u8],
) -> bool {
    false
}

pub(super) fn compact_encapsulate<P: Params>(
    _: Backend,
    _: HashMode,
    _: &[u8],
    _: &[u8; 32],
    _: &mut [u8],
) -> Option<[u8; 32]> {
    None
}

pub(super) fn compact_decapsulate<P: Params>(
    _: Backend,
    _: HashMode,
    _: &[u8],
    _: &[u8],
) -> Option<[u8; 32]> {
    None
}

#[cfg(feature = "kernel-parts")]
pub(super) fn kernel_part<P: Params>(
    _: Backend,
    _: HashMode,
    _: super::parts::KernelPart,
    _: u32,
) -> Option<u32> {
    None
}
