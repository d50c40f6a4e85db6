//! The AArch64 kernels of AES: the ARMv8 cryptography extension (AESE/AESD with
//! AESMC/AESIMC) on NEON registers ([`armv8`], eight blocks interleaved), with GHASH on
//! PMULL in [`crate::ghash`] and both in one pass for GCM in [`gcm_pmull`].
//!
//! [`Native`] is what the front keeps per key: whether its backend runs the kernels of
//! [`armv8`] on this CPU, decided once at keying with the kernel table's `runs()`. Every
//! unsafe call below relies on that decision. Several CBC streams (`MultiKey`) are
//! interleaved up to eight at a time by the shared [`crate::aes::streams`] on the kernel of
//! [`armv8`].

mod armv8;
mod gcm_pmull;

use super::common::{CounterWidth, HashPowers, RoundKeys};
use super::dispatch::Kernels;
use crate::cpu::{Backend, Ran, kernels};
use crate::modes::Chain;

/// The kernel a key runs, decided at keying.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Engine {
    /// None: the portable code.
    #[default]
    Portable,
    /// The ARMv8 cryptography extension on 128-bit NEON registers
    /// ([`kernels::AES_ARMV8`]); the key's GHASH takes [`crate::ghash`]'s PMULL kernel.
    ArmV8,
}

/// The AArch64 kernels of one key. Only [`Kernels::keyed`] makes an engine other than
/// [`Engine::Portable`], and only for a kernel this CPU runs.
#[derive(Clone, Copy, Default)]
pub(super) struct Native {
    engine: Engine,
}

impl Kernels for Native {
    fn keyed(backend: Backend) -> Self {
        let engine = match backend {
            Backend::ArmAes if kernels::AES_ARMV8.runs() => Engine::ArmV8,
            _ => Engine::Portable,
        };
        Self { engine }
    }

    fn expand_key(&self, key: &[u8], rk: &mut RoundKeys) -> Ran {
        match self.engine {
            Engine::ArmV8 => {
                // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
                unsafe { armv8::expand(key, rk) };
                Ran::Done
            }
            Engine::Portable => Ran::Declined,
        }
    }

    /// Inlined with the other whole-block entries: one-block calls are short enough that
    /// an extra call layer shows in their speed.
    #[inline]
    fn encrypt(&self, rk: &RoundKeys, buf: &mut [u8]) -> Ran {
        match self.engine {
            Engine::ArmV8 => {
                // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
                unsafe { armv8::encrypt(rk, buf) };
                Ran::Done
            }
            Engine::Portable => Ran::Declined,
        }
    }

    #[inline]
    fn decrypt(&self, rk: &RoundKeys, buf: &mut [u8]) -> Ran {
        match self.engine {
            Engine::ArmV8 => {
                // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
                unsafe { armv8::decrypt(rk, buf) };
                Ran::Done
            }
            Engine::Portable => Ran::Declined,
        }
    }

    #[inline]
    fn ctr(&self, rk: &RoundKeys, width: CounterWidth, counter: &[u8; 16], buf: &mut [u8]) -> Ran {
        match self.engine {
            Engine::ArmV8 => {
                // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
                unsafe { armv8::ctr_blocks(rk, width, counter, buf) };
                Ran::Done
            }
            Engine::Portable => Ran::Declined,
        }
    }

    #[inline]
    fn cbc_decrypt(&self, rk: &RoundKeys, iv: &mut [u8; 16], buf: &mut [u8]) -> Ran {
        match self.engine {
            Engine::ArmV8 => {
                // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
                unsafe { armv8::decrypt_cbc(rk, iv, buf) };
                Ran::Done
            }
            Engine::Portable => Ran::Declined,
        }
    }

    fn chain(&self, rk: &RoundKeys, mode: Chain, iv: &mut [u8; 16], buf: &mut [u8]) -> Ran {
        match self.engine {
            Engine::ArmV8 => {
                // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
                unsafe { armv8::chain(rk, mode, iv, buf) };
                Ran::Done
            }
            Engine::Portable => Ran::Declined,
        }
    }

    fn cfb_decrypt(&self, rk: &RoundKeys, iv: &mut [u8; 16], buf: &mut [u8]) -> Ran {
        match self.engine {
            Engine::ArmV8 => {
                // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
                unsafe { armv8::decrypt_cfb(rk, iv, buf) };
                Ran::Done
            }
            Engine::Portable => Ran::Declined,
        }
    }

    /// A tweak still to be encrypted goes through the tweak key's ECB on the same kernel
    /// first.
    fn xts(
        &self,
        rk: &RoundKeys,
        tweak_key: Option<&RoundKeys>,
        decrypt: bool,
        tweak: u128,
        buf: &mut [u8],
    ) -> Option<u128> {
        if self.engine == Engine::Portable {
            return None;
        }
        let t = match tweak_key {
            Some(tk) => {
                let mut block = tweak.to_le_bytes();
                // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
                unsafe { armv8::encrypt(tk, &mut block) };
                let t = u128::from_le_bytes(block);
                crate::wipe::array(&mut block);
                t
            }
            None => tweak,
        };
        // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
        Some(unsafe { armv8::xts_blocks(rk, decrypt, t, buf) })
    }

    fn gcm(
        &self,
        rk: &RoundKeys,
        powers: &HashPowers,
        decrypt: bool,
        counter: &[u8; 16],
        acc: &mut [u8; 16],
        buf: &mut [u8],
    ) -> Ran {
        match self.engine {
            Engine::ArmV8 => {
                // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
                unsafe { gcm_pmull::gcm_blocks(rk, powers, decrypt, counter, acc, buf) };
                Ran::Done
            }
            Engine::Portable => Ran::Declined,
        }
    }

    /// Several CBC streams, up to eight interleaved per kernel call.
    #[cfg(feature = "alloc")]
    fn cbc_encrypt_streams(
        &self,
        keys: &[&RoundKeys],
        ivs: &mut [[u8; 16]],
        bufs: &mut [&mut [u8]],
    ) -> Ran {
        if self.engine == Engine::Portable {
            return Ran::Declined;
        }
        let narrow = super::streams::Narrow {
            kernel: armv8::encrypt_cbc_streams,
            max: armv8::MAX_STREAMS,
        };
        super::streams::interleave(narrow, 1, armv8::MAX_STREAMS, None, keys, ivs, bufs)
    }
}
