//! The interface between the front and the vector kernels of an architecture.
//!
//! Each key holds one [`Kernels`] value, made by [`Kernels::keyed`] from its backend: the
//! architecture decides there, once, which of its kernels that backend runs on this CPU, and
//! keeps the round keys in the forms those kernels take, made on first use. Each entry then
//! picks the kernel for the size of the call and either does all of the work and says so
//! ([`Ran::Done`], `Some`), or declines and leaves its arguments untouched, and the front runs
//! the portable code. The defaults decline, so an architecture without kernels implements
//! nothing. The entries that take a cipher `c` are called on `c`'s own kernels.

use super::{RoundKeys, StreamsMode, Ublock, Variant};
use crate::cpu::{Backend, Ran};

/// The vector kernels of one architecture, chosen once per key.
pub(super) trait Kernels: Clone + Default {
    /// The kernels `backend` runs on this CPU.
    fn keyed(backend: Backend) -> Self {
        let _ = backend;
        Self::default()
    }

    /// The key schedule of `key` into `rk`.
    fn expand_key<V: Variant>(&self, _key: &[u8], _rk: &mut RoundKeys) -> Ran {
        Ran::Declined
    }

    /// ECB over the whole blocks of `buf` in either direction.
    fn ecb<V: Variant>(&self, _c: &Ublock<V>, _buf: &mut [u8], _decrypt: bool) -> Ran {
        Ran::Declined
    }

    /// CTR over `buf`, advancing `counter` past the blocks used.
    fn ctr<V: Variant>(&self, _c: &Ublock<V>, _counter: &mut [u8], _buf: &mut [u8]) -> Ran {
        Ran::Declined
    }

    /// CBC encryption of one stream.
    fn cbc_encrypt<V: Variant>(&self, _c: &Ublock<V>, _iv: &mut [u8], _buf: &mut [u8]) -> Ran {
        Ran::Declined
    }

    /// CBC decryption, advancing `iv` to the last ciphertext block.
    fn cbc_decrypt<V: Variant>(&self, _c: &Ublock<V>, _iv: &mut [u8], _buf: &mut [u8]) -> Ran {
        Ran::Declined
    }

    /// ECB in either direction, or CBC decryption (`ivs` only then), of several streams,
    /// each under its own key, where running them side by side pays.
    fn streams<V: Variant>(
        _keys: &[&Ublock<V>],
        _mode: StreamsMode,
        _ivs: &mut [&mut [u8]],
        _bufs: &mut [&mut [u8]],
    ) -> Ran {
        Ran::Declined
    }

    /// CBC encryption of several streams, each under its own key, side by side where it
    /// pays.
    fn cbc_encrypt_streams<V: Variant>(
        _keys: &[&Ublock<V>],
        _ivs: &mut [&mut [u8]],
        _bufs: &mut [&mut [u8]],
    ) -> Ran {
        Ran::Declined
    }

    /// One part of the fully bitsliced ECB kernel alone over the whole batches at the front
    /// of `buf` (see [`Ublock::run_kernel_part`]): the bytes covered.
    #[cfg(feature = "kernel-parts")]
    fn kernel_part<V: Variant>(
        &self,
        _c: &Ublock<V>,
        _part: super::KernelPart,
        _buf: &mut [u8],
    ) -> Option<usize> {
        None
    }
}
