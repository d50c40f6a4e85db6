//! The x86-64 kernels of AES: AES-NI on xmm registers ([`aesni`], with the carry-less GHASH
//! of [`crate::ghash`]) and VAES on ymm and zmm registers ([`vaes_ymm`], [`vaes_zmm`], whose
//! kernels are written once in [`vaes_blocks`], [`vaes_gcm`] and [`vaes_xts`]).
//!
//! [`Native`] is what the front keeps per key: the kernel its backend runs on this CPU,
//! decided once at keying with the kernel table's `runs()`. Every unsafe call below relies
//! on that decision. The VAES engines run the key schedule, the one-chain modes and short
//! calls on AES-NI, which their backends require too.

// The multi-stream CBC kernels serve `MultiKey`, which needs `alloc`.
#![cfg_attr(not(feature = "alloc"), allow(dead_code))]

mod aesni;
#[cfg(feature = "alloc")]
mod streams;
mod vaes_blocks;
mod vaes_gcm;
mod vaes_xts;
mod vaes_ymm;
mod vaes_zmm;

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
    /// AES-NI on xmm registers ([`kernels::AES_NI`]); CFB decryption, XTS and GCM are built
    /// by the front on its ECB and CTR kernels and the carry-less GHASH.
    AesNi,
    /// VAES on ymm registers ([`kernels::AES_VAES256`], with [`kernels::AES_NI`]).
    Vaes256,
    /// VAES on zmm registers ([`kernels::AES_VAES512`], with [`kernels::AES_NI`]); GCM
    /// takes a whole message in one call (`gcm_message`), and a stream's whole blocks
    /// through the one-pass kernel the 256-bit width has too.
    Vaes512,
}

/// The x86 kernels of one key. Only [`Kernels::keyed`] makes an engine other than
/// [`Engine::Portable`], and only for kernels this CPU runs.
#[derive(Clone, Copy, Default)]
pub(super) struct Native {
    engine: Engine,
}

/// Calls shorter than this (seven blocks or fewer) run ECB and CBC decryption on the AES-NI
/// kernel on the VAES backends too: a VAES call pays for whole registers even when the
/// blocks do not fill its last one, and below eight blocks the AES-NI kernel measured faster
/// (figures in `docs/perf/aes.md`). CMAC's one-block calls gain the same.
const VAES_FROM: usize = 8 * 16;

/// Whether a call of `len` bytes on `engine` runs on the AES-NI kernel instead (see
/// [`VAES_FROM`]).
#[inline]
fn short_on_aesni(engine: Engine, len: usize) -> bool {
    matches!(engine, Engine::Vaes512 | Engine::Vaes256) && len < VAES_FROM
}

impl Kernels for Native {
    fn keyed(backend: Backend) -> Self {
        let aesni = kernels::AES_NI.runs();
        let engine = match backend {
            Backend::Vaes512 if aesni && kernels::AES_VAES512.runs() => Engine::Vaes512,
            Backend::Vaes256 if aesni && kernels::AES_VAES256.runs() => Engine::Vaes256,
            Backend::AesNi if aesni => Engine::AesNi,
            _ => Engine::Portable,
        };
        Self { engine }
    }

    /// Every engine expands keys on AES-NI.
    fn expand_key(&self, key: &[u8], rk: &mut RoundKeys) -> Ran {
        if self.engine == Engine::Portable {
            return Ran::Declined;
        }
        // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
        unsafe { aesni::expand(key, rk) };
        Ran::Done
    }

    /// Inlined with the other whole-block entries: one-block calls are short enough that
    /// an extra call layer shows in their speed.
    #[inline]
    fn encrypt(&self, rk: &RoundKeys, buf: &mut [u8]) -> Ran {
        // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
        unsafe {
            match self.engine {
                Engine::Portable => return Ran::Declined,
                e if short_on_aesni(e, buf.len()) => aesni::encrypt(rk, buf),
                Engine::Vaes512 => vaes_zmm::encrypt(rk, buf),
                Engine::Vaes256 => vaes_ymm::encrypt(rk, buf),
                Engine::AesNi => aesni::encrypt(rk, buf),
            }
        }
        Ran::Done
    }

    #[inline]
    fn decrypt(&self, rk: &RoundKeys, buf: &mut [u8]) -> Ran {
        // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
        unsafe {
            match self.engine {
                Engine::Portable => return Ran::Declined,
                e if short_on_aesni(e, buf.len()) => aesni::decrypt(rk, buf),
                Engine::Vaes512 => vaes_zmm::decrypt(rk, buf),
                Engine::Vaes256 => vaes_ymm::decrypt(rk, buf),
                Engine::AesNi => aesni::decrypt(rk, buf),
            }
        }
        Ran::Done
    }

    #[inline]
    fn ctr(&self, rk: &RoundKeys, width: CounterWidth, counter: &[u8; 16], buf: &mut [u8]) -> Ran {
        // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
        unsafe {
            match self.engine {
                Engine::Portable => return Ran::Declined,
                Engine::Vaes512 => vaes_zmm::ctr_blocks(rk, width, counter, buf),
                Engine::Vaes256 => vaes_ymm::ctr_blocks(rk, width, counter, buf),
                Engine::AesNi => aesni::ctr_blocks(rk, width, counter, buf),
            }
        }
        Ran::Done
    }

    #[inline]
    fn cbc_decrypt(&self, rk: &RoundKeys, iv: &mut [u8; 16], buf: &mut [u8]) -> Ran {
        // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
        unsafe {
            match self.engine {
                Engine::Portable => return Ran::Declined,
                e if short_on_aesni(e, buf.len()) => aesni::decrypt_cbc(rk, iv, buf),
                Engine::Vaes512 => vaes_zmm::decrypt_cbc(rk, iv, buf),
                Engine::Vaes256 => vaes_ymm::decrypt_cbc(rk, iv, buf),
                Engine::AesNi => aesni::decrypt_cbc(rk, iv, buf),
            }
        }
        Ran::Done
    }

    /// The one-chain modes stay on AES-NI on every engine: it runs them at the latency
    /// bound already.
    fn chain(&self, rk: &RoundKeys, mode: Chain, iv: &mut [u8; 16], buf: &mut [u8]) -> Ran {
        if self.engine == Engine::Portable {
            return Ran::Declined;
        }
        // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
        unsafe { aesni::chain(rk, mode, iv, buf) };
        Ran::Done
    }

    fn cfb_decrypt(&self, rk: &RoundKeys, iv: &mut [u8; 16], buf: &mut [u8]) -> Ran {
        // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
        unsafe {
            match self.engine {
                Engine::Vaes512 => vaes_zmm::decrypt_cfb(rk, iv, buf),
                Engine::Vaes256 => vaes_ymm::decrypt_cfb(rk, iv, buf),
                Engine::AesNi | Engine::Portable => return Ran::Declined,
            }
        }
        Ran::Done
    }

    fn xts(
        &self,
        rk: &RoundKeys,
        tweak_key: Option<&RoundKeys>,
        decrypt: bool,
        tweak: u128,
        buf: &mut [u8],
    ) -> Option<u128> {
        // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
        unsafe {
            match self.engine {
                Engine::Vaes512 => vaes_zmm::xts_blocks(rk, tweak_key, decrypt, tweak, buf),
                Engine::Vaes256 => vaes_ymm::xts_blocks(rk, tweak_key, decrypt, tweak, buf),
                Engine::AesNi | Engine::Portable => None,
            }
        }
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
            Engine::Vaes512 => {
                // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
                unsafe { vaes_zmm::gcm_blocks(rk, powers, decrypt, counter, acc, buf) };
                Ran::Done
            }
            Engine::Vaes256 => {
                // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
                unsafe { vaes_ymm::gcm_blocks(rk, powers, decrypt, counter, acc, buf) };
                Ran::Done
            }
            Engine::AesNi | Engine::Portable => Ran::Declined,
        }
    }

    fn gcm_message(
        &self,
        rk: &RoundKeys,
        powers: &HashPowers,
        decrypt: bool,
        j0: &[u8; 16],
        aad: &[u8],
        buf: &mut [u8],
    ) -> Option<[u8; 16]> {
        match self.engine {
            Engine::Vaes512 => {
                // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
                Some(unsafe { vaes_zmm::gcm_message(rk, powers, decrypt, j0, aad, buf) })
            }
            Engine::Vaes256 | Engine::AesNi | Engine::Portable => None,
        }
    }

    /// The VAES engines make the powers four (zmm) or two (ymm) per multiplication; the
    /// AES-NI engine leaves them to [`crate::ghash`]'s own kernel.
    fn ghash_powers(&self, h: &[u8; 16], out: &mut HashPowers) -> Ran {
        // SAFETY: each engine is made by keyed only on a CPU that runs its kernel.
        unsafe {
            match self.engine {
                Engine::Vaes512 => vaes_zmm::powers(h, out),
                Engine::Vaes256 => vaes_ymm::powers(h, out),
                Engine::AesNi | Engine::Portable => return Ran::Declined,
            }
        }
        Ran::Done
    }

    #[cfg(feature = "alloc")]
    fn cbc_encrypt_streams(
        &self,
        keys: &[&RoundKeys],
        ivs: &mut [[u8; 16]],
        bufs: &mut [&mut [u8]],
    ) -> Ran {
        match self.engine {
            Engine::Vaes512 => streams::vaes512(keys, ivs, bufs),
            Engine::Vaes256 => streams::vaes256(keys, ivs, bufs),
            Engine::AesNi => streams::aesni(keys, ivs, bufs),
            Engine::Portable => Ran::Declined,
        }
    }
}
