//! The dispatch of an architecture without uBlock kernels: every call runs the portable code.
//! The signatures are those of the kernels' dispatch, type parameters included.
#![allow(clippy::extra_unused_type_parameters)]

use super::{RoundKeys, Ublock, Variant};
use crate::cpu::Backend;

/// No kernel keeps key material of its own here.
#[derive(Clone, Default)]
pub(super) struct KernelKeys {}

pub(super) fn expand_key<V: Variant>(_: &[u8], _: Backend, _: &mut RoundKeys) -> bool {
    false
}

pub(super) fn ecb<V: Variant>(_: &Ublock<V>, _: &mut [u8], _: bool) -> bool {
    false
}

pub(super) fn ctr<V: Variant>(_: &Ublock<V>, _: &mut [u8], _: &mut [u8]) -> bool {
    false
}

pub(super) fn cbc_encrypt<V: Variant>(_: &Ublock<V>, _: &mut [u8], _: &mut [u8]) -> bool {
    false
}

pub(super) fn cbc_decrypt<V: Variant>(_: &Ublock<V>, _: &mut [u8], _: &mut [u8]) -> bool {
    false
}

pub(super) fn streams<V: Variant>(
    _: &[&Ublock<V>],
    _: super::StreamsMode,
    _: &mut [&mut [u8]],
    _: &mut [&mut [u8]],
) -> bool {
    false
}

pub(super) fn cbc_encrypt_streams<V: Variant>(
    _: &[&Ublock<V>],
    _: &mut [&mut [u8]],
    _: &mut [&mut [u8]],
) -> bool {
    false
}

#[cfg(feature = "kernel-parts")]
pub(super) fn kernel_part<V: Variant>(_: &Ublock<V>, _: super::KernelPart, _: &mut [u8]) -> usize {
    0
}
