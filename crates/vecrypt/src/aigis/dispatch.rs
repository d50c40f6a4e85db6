//! The interface between the front and the kernels of an architecture.
//!
//! Aigis-enc has no key object: the front makes one [`Kernels`] value per operation with
//! [`Kernels::keyed`] from the chosen backend, and the architecture decides there, once,
//! which of its kernels that backend runs on this CPU. Every entry then either does the
//! whole operation and says so ([`Ran::Done`], `Some`), or declines and leaves its arguments
//! untouched, and the front runs the portable code. The defaults decline, so an
//! architecture without kernels implements nothing.

use super::hash::HashMode;
use super::params::Params;
use crate::cpu::{Backend, Ran};

/// The kernels of one architecture, chosen once per operation from the backend.
pub(super) trait Kernels: Clone + Default {
    /// The kernels `backend` runs on this CPU.
    fn keyed(backend: Backend) -> Self {
        let _ = backend;
        Self::default()
    }

    /// Key generation from `coins` (d ‖ z) into `pk` and `sk`.
    fn keypair<P: Params>(
        &self,
        _mode: HashMode,
        _coins: &[u8; 64],
        _pk: &mut [u8],
        _sk: &mut [u8],
    ) -> Ran {
        Ran::Declined
    }

    /// Encapsulation to `pk` from `coins` into `ct`; the shared secret.
    fn encapsulate<P: Params>(
        &self,
        _mode: HashMode,
        _pk: &[u8],
        _coins: &[u8; 32],
        _ct: &mut [u8],
    ) -> Option<[u8; 32]> {
        None
    }

    /// Decapsulation of `ct` with `sk`; the shared secret.
    fn decapsulate<P: Params>(&self, _mode: HashMode, _sk: &[u8], _ct: &[u8]) -> Option<[u8; 32]> {
        None
    }

    /// Key generation of the compact (low-memory) KEM.
    fn compact_keypair<P: Params>(
        &self,
        _mode: HashMode,
        _coins: &[u8; 64],
        _pk: &mut [u8],
        _sk: &mut [u8],
    ) -> Ran {
        Ran::Declined
    }

    /// Encapsulation of the compact KEM.
    fn compact_encapsulate<P: Params>(
        &self,
        _mode: HashMode,
        _pk: &[u8],
        _coins: &[u8; 32],
        _ct: &mut [u8],
    ) -> Option<[u8; 32]> {
        None
    }

    /// Decapsulation of the compact KEM.
    fn compact_decapsulate<P: Params>(
        &self,
        _mode: HashMode,
        _sk: &[u8],
        _ct: &[u8],
    ) -> Option<[u8; 32]> {
        None
    }

    /// One function of the scheme ([`super::KernelPart`]) `iterations` times on fixed
    /// inputs; the fingerprint of the last result.
    #[cfg(feature = "kernel-parts")]
    fn kernel_part<P: Params>(
        &self,
        _mode: HashMode,
        _part: super::parts::KernelPart,
        _iterations: u32,
    ) -> Option<u32> {
        None
    }

    /// Keccak-f\[1600\] on eight states at once, `iterations` times, on the eight-lane
    /// permutation of the SHAKE lanes.
    #[cfg(feature = "kernel-parts")]
    fn keccak_x8(_states: &mut [[u64; 25]; 8], _iterations: u32) -> Ran {
        Ran::Declined
    }

    /// Keccak-f\[1600\] on four states at once, `iterations` times, on the four-lane
    /// permutation of the SHAKE lanes.
    #[cfg(feature = "kernel-parts")]
    fn keccak_x4(_states: &mut [[u64; 25]; 4], _iterations: u32) -> Ran {
        Ran::Declined
    }
}
