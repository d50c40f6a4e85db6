//! The interface between the front and the vector kernels of an architecture.
//!
//! The front holds one [`Kernels`] value per key, made by [`Kernels::keyed`] from the chosen
//! backend: the architecture decides there, once, which of its kernels that backend runs on
//! this CPU, and keeps whatever per-key material they make on first use. Every entry then
//! either does all of its work and says so ([`Ran::Done`], `Some`), or declines
//! ([`Ran::Declined`], `None`) and leaves its arguments untouched, and the front runs the
//! portable code. The defaults decline, so an architecture without kernels implements
//! nothing.

use super::{KEY, RoundKeys};
use crate::cpu::{Backend, Ran};
use crate::modes::Chain;

/// The vector kernels of one architecture, chosen once per key.
pub(super) trait Kernels: Clone + Default + crate::cache::Shareable {
    /// The kernels `backend` runs on this CPU.
    fn keyed(backend: Backend) -> Self {
        let _ = backend;
        Self::default()
    }

    /// The key schedule.
    fn expand_key(&self, _key: &[u8; KEY]) -> Option<RoundKeys> {
        None
    }

    /// Encrypts whole blocks in place.
    fn encrypt(&self, _rk: &RoundKeys, _buf: &mut [u8]) -> Ran {
        Ran::Declined
    }

    /// Decrypts whole blocks in place.
    fn decrypt(&self, _rk: &RoundKeys, _buf: &mut [u8]) -> Ran {
        Ran::Declined
    }

    /// CTR with a whole-block big-endian counter, advanced past the blocks used.
    fn ctr(&self, _rk: &RoundKeys, _counter: &mut [u8; 16], _buf: &mut [u8]) -> Ran {
        Ran::Declined
    }

    /// A chained mode over the whole blocks of `buf`, with a register of one block per
    /// chain.
    fn chain(&self, _rk: &RoundKeys, _mode: Chain, _register: &mut [u8], _buf: &mut [u8]) -> Ran {
        Ran::Declined
    }

    /// MGM's keystream: CTR with a counter whose right (low) half counts modulo 2^64.
    fn mgm_keystream(&self, _rk: &RoundKeys, _counter: &mut [u8; 16], _buf: &mut [u8]) -> Ran {
        Ran::Declined
    }

    /// MGM: adds `H_i * X_i` over a front part of `data`, `H_i` the encryption of the
    /// left-counting `z`, which advances. The bytes covered and the unreduced sum.
    fn mgm_absorb(
        &self,
        _rk: &RoundKeys,
        _z: &mut u128,
        _data: &[u8],
    ) -> Option<(usize, (u128, u128))> {
        None
    }

    /// MGM: encrypts a front part of `buf` with the keystream of the right-counting `y` and
    /// adds the products of the ciphertext as [`Kernels::mgm_absorb`] does.
    fn mgm_seal(
        &self,
        _rk: &RoundKeys,
        _y: &mut u128,
        _z: &mut u128,
        _buf: &mut [u8],
    ) -> Option<(usize, (u128, u128))> {
        None
    }

    /// MGM: writes `blocks` successive counter blocks into `out`, advancing `counter` in its
    /// left half (`left`) or right half, modulo 2^64.
    fn mgm_fill_counters(_out: &mut [u8], _blocks: usize, _counter: &mut u128, _left: bool) -> Ran {
        Ran::Declined
    }

    /// MGM: the unreduced sum of `H_i * X_i` over the blocks of `hs` and `xs`.
    fn mgm_mul_sum(_hs: &[u8], _xs: &[u8]) -> Option<(u128, u128)> {
        None
    }
}
