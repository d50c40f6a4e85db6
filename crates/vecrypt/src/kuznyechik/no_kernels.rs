//! The dispatch of an architecture without Kuznyechik kernels: every call runs the portable
//! code. The signatures are those of the kernels' dispatch.

use super::{BLOCK, RoundKeys};
use crate::cpu::Backend;
use crate::modes::Chain;

/// No kernel keeps key material of its own here.
#[derive(Clone, Default)]
pub(super) struct KernelKeys {}

pub(super) fn expand_key(_: &[u8; 32], _: Backend) -> Option<RoundKeys> {
    None
}

pub(super) fn encrypt_blocks(_: Backend, _: &RoundKeys, _: &KernelKeys, _: &mut [u8]) -> bool {
    false
}

pub(super) fn decrypt_blocks(_: Backend, _: &RoundKeys, _: &KernelKeys, _: &mut [u8]) -> bool {
    false
}

pub(super) fn ctr(
    _: Backend,
    _: &RoundKeys,
    _: &KernelKeys,
    _: &mut [u8; BLOCK],
    _: &mut [u8],
) -> bool {
    false
}

pub(super) fn chain(
    _: Backend,
    _: &RoundKeys,
    _: &KernelKeys,
    _: Chain,
    _: &mut [u8],
    _: &mut [u8],
) -> bool {
    false
}

pub(super) fn mgm_keystream(
    _: Backend,
    _: &RoundKeys,
    _: &KernelKeys,
    _: &mut [u8; BLOCK],
    _: &mut [u8],
) -> bool {
    false
}

pub(super) fn mgm_absorb(
    _: Backend,
    _: &RoundKeys,
    _: &KernelKeys,
    _: &mut u128,
    _: &[u8],
) -> Option<(usize, (u128, u128))> {
    None
}

pub(super) fn mgm_seal(
    _: Backend,
    _: &RoundKeys,
    _: &KernelKeys,
    _: &mut u128,
    _: &mut u128,
    _: &mut [u8],
) -> Option<(usize, (u128, u128))> {
    None
}

pub(super) fn mgm_counters(_: &mut [u8], _: usize, _: &mut u128, _: bool) -> bool {
    false
}

pub(super) fn mgm_products(_: &[u8], _: &[u8]) -> Option<(u128, u128)> {
    None
}
