//! The interface between the front and the SIMD kernels of an architecture.
//!
//! The front holds one [`Kernels`] value per key, made by [`Kernels::keyed`] from the chosen
//! backend: the architecture decides there, once, which of its kernels that backend runs on
//! this CPU. Every entry then either does all of its work and says so ([`Ran::Done`],
//! `Some`), or declines and leaves its arguments untouched, and the front runs the portable
//! code, built on the ECB entries. Buffers are whole blocks. The defaults decline, so an
//! architecture without kernels implements nothing.

use super::common::{CounterWidth, HashPowers, RoundKeys};
use crate::cpu::{Backend, Ran};
use crate::modes::Chain;

/// The SIMD kernels of one architecture, chosen once per key.
pub(super) trait Kernels: Clone + Default {
    /// The kernels `backend` runs on this CPU.
    fn keyed(backend: Backend) -> Self {
        let _ = backend;
        Self::default()
    }

    /// Fills the round keys of `rk` (for its number of rounds) from a key of 16, 24 or 32
    /// bytes (the caller checks) on the AES instructions.
    fn expand_key(&self, _key: &[u8], _rk: &mut RoundKeys) -> Ran {
        Ran::Declined
    }

    /// ECB encryption of whole blocks.
    fn encrypt(&self, _rk: &RoundKeys, _buf: &mut [u8]) -> Ran {
        Ran::Declined
    }

    /// ECB decryption of whole blocks.
    fn decrypt(&self, _rk: &RoundKeys, _buf: &mut [u8]) -> Ran {
        Ran::Declined
    }

    /// CTR over whole blocks from `counter`, which adds in the part `width` names; the
    /// caller splits the data so that it never carries further.
    fn ctr(
        &self,
        _rk: &RoundKeys,
        _width: CounterWidth,
        _counter: &[u8; 16],
        _buf: &mut [u8],
    ) -> Ran {
        Ran::Declined
    }

    /// CBC decryption of whole blocks; `iv` carries the chain in and out.
    fn cbc_decrypt(&self, _rk: &RoundKeys, _iv: &mut [u8; 16], _buf: &mut [u8]) -> Ran {
        Ran::Declined
    }

    /// A chained mode with one chain, carried in and out by `iv`.
    fn chain(&self, _rk: &RoundKeys, _mode: Chain, _iv: &mut [u8; 16], _buf: &mut [u8]) -> Ran {
        Ran::Declined
    }

    /// CFB decryption (whole-block feedback); `iv` ends as the last ciphertext block.
    fn cfb_decrypt(&self, _rk: &RoundKeys, _iv: &mut [u8; 16], _buf: &mut [u8]) -> Ran {
        Ran::Declined
    }

    /// XTS under consecutive tweaks (decrypting if asked) from `tweak`, or from it
    /// encrypted under `tweak_key` when one is given; the next tweak.
    fn xts(
        &self,
        _rk: &RoundKeys,
        _tweak_key: Option<&RoundKeys>,
        _decrypt: bool,
        _tweak: u128,
        _buf: &mut [u8],
    ) -> Option<u128> {
        None
    }

    /// GCM: CTR (32-bit counter) from `counter` and GHASH of the ciphertext into `acc`, in
    /// one pass, with the powers of [`crate::ghash::Ghash::powers`].
    fn gcm(
        &self,
        _rk: &RoundKeys,
        _powers: &HashPowers,
        _decrypt: bool,
        _counter: &[u8; 16],
        _acc: &mut [u8; 16],
        _buf: &mut [u8],
    ) -> Ran {
        Ran::Declined
    }

    /// GCM of a whole message in one call, from the pre-counter block `j0`: the full tag
    /// (before any truncation). Each architecture decides which messages take it.
    fn gcm_message(
        &self,
        _rk: &RoundKeys,
        _powers: &HashPowers,
        _decrypt: bool,
        _j0: &[u8; 16],
        _aad: &[u8],
        _buf: &mut [u8],
    ) -> Option<[u8; 16]> {
        None
    }

    /// The powers of the GHASH key `h` made on the kernels' own registers, laid out as
    /// [`crate::ghash`]'s kernels take them; declined, the GHASH kernel makes them.
    fn ghash_powers(&self, _h: &[u8; 16], _out: &mut HashPowers) -> Ran {
        Ran::Declined
    }

    /// CBC encryption of several streams of one key size, one key and chain each, all done
    /// or none.
    #[cfg(feature = "alloc")]
    fn cbc_encrypt_streams(
        &self,
        _keys: &[&RoundKeys],
        _ivs: &mut [[u8; 16]],
        _bufs: &mut [&mut [u8]],
    ) -> Ran {
        Ran::Declined
    }
}
