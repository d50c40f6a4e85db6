//! The x86-64 kernels of Kuznyechik: the byte-sliced AVX-512 backend ([`avx512`]), the
//! AVX2 backend with its GFNI variant ([`avx2`]), and the carry-less products and counter
//! fills of MGM ([`mgm`]).
//!
//! [`Native`] is what the front keeps per key: the kernel its backend runs on this CPU,
//! decided once at keying with the kernel table's `runs()`, and the key material of the
//! AVX-512 kernels, made on first use. Every unsafe call below relies on that decision.

#[macro_use]
mod unroll;
mod avx2;
mod avx512;
mod mgm;
#[cfg(feature = "table-backends")]
pub(super) mod table_leaky;

use avx512::{Counting, SlicedKeys};

use super::dispatch::Kernels;
use super::{KEY, RoundKeys};
use crate::cpu::{Backend, Ran, kernels};
use crate::modes::Chain;

/// The kernel a key runs, decided at keying.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Engine {
    /// None: the portable code.
    #[default]
    Portable,
    /// AVX2 byte shuffles ([`kernels::KUZNYECHIK_AVX2`]).
    Avx2,
    /// AVX2 with GFNI on YMM ([`kernels::KUZNYECHIK_AVX2_GFNI`]).
    Avx2Gfni,
    /// The AVX-512 sliced kernel ([`kernels::KUZNYECHIK_AVX512`]); `fused_mgm` when the CPU
    /// also runs the fused MGM batches ([`kernels::KUZNYECHIK_MGM_AVX512`]).
    Avx512 { fused_mgm: bool },
}

/// The x86 kernels of one key. Only [`Kernels::keyed`] makes an engine other than
/// [`Engine::Portable`], and only for a kernel this CPU runs.
#[derive(Clone, Default)]
pub(super) struct Native {
    engine: Engine,
    /// Key material of the AVX-512 kernels, made on its first use in each direction.
    sliced: SlicedKeys,
}

impl Kernels for Native {
    fn keyed(backend: Backend) -> Self {
        let engine = match backend {
            Backend::Avx512 if kernels::KUZNYECHIK_AVX512.runs() => Engine::Avx512 {
                fused_mgm: kernels::KUZNYECHIK_MGM_AVX512.runs(),
            },
            Backend::Avx2 if kernels::KUZNYECHIK_AVX2_GFNI.runs() => Engine::Avx2Gfni,
            Backend::Avx2 if kernels::KUZNYECHIK_AVX2.runs() => Engine::Avx2,
            _ => Engine::Portable,
        };
        Self {
            engine,
            sliced: SlicedKeys::default(),
        }
    }

    fn expand_key(&self, key: &[u8; KEY]) -> Option<RoundKeys> {
        // SAFETY: each engine is made only on a CPU that runs its kernel (see `keyed`).
        unsafe {
            match self.engine {
                Engine::Avx512 { .. } => Some(avx512::expand_key(key)),
                Engine::Avx2Gfni => Some(avx2::expand_key_gfni(key)),
                Engine::Avx2 | Engine::Portable => None,
            }
        }
    }

    fn encrypt(&self, rk: &RoundKeys, buf: &mut [u8]) -> Ran {
        // SAFETY: as in `expand_key`.
        unsafe {
            match self.engine {
                Engine::Avx512 { .. } => avx512::encrypt_blocks(rk, &self.sliced, buf),
                Engine::Avx2Gfni => avx2::encrypt_gfni(rk, buf),
                Engine::Avx2 => avx2::encrypt_shuffles(rk, buf),
                Engine::Portable => return Ran::Declined,
            }
        }
        Ran::Done
    }

    fn decrypt(&self, rk: &RoundKeys, buf: &mut [u8]) -> Ran {
        // SAFETY: as in `expand_key`.
        unsafe {
            match self.engine {
                Engine::Avx512 { .. } => avx512::decrypt_blocks(rk, &self.sliced, buf),
                Engine::Avx2Gfni => avx2::decrypt_gfni(rk, buf),
                Engine::Avx2 => avx2::decrypt_shuffles(rk, buf),
                Engine::Portable => return Ran::Declined,
            }
        }
        Ran::Done
    }

    fn ctr(&self, rk: &RoundKeys, counter: &mut [u8; 16], buf: &mut [u8]) -> Ran {
        // SAFETY: as in `expand_key`.
        unsafe {
            match self.engine {
                Engine::Avx512 { .. } => {
                    avx512::ctr(rk, &self.sliced, Counting::Whole, counter, buf)
                }
                Engine::Avx2Gfni => avx2::ctr_gfni(rk, counter, buf),
                Engine::Avx2 => avx2::ctr_shuffles(rk, counter, buf),
                Engine::Portable => return Ran::Declined,
            }
        }
        Ran::Done
    }

    fn chain(&self, rk: &RoundKeys, mode: Chain, register: &mut [u8], buf: &mut [u8]) -> Ran {
        match self.engine {
            // SAFETY: as in `expand_key`.
            Engine::Avx512 { .. } => unsafe {
                avx512::chain(rk, &self.sliced, mode, register, buf)
            },
            // SAFETY: as in `expand_key`.
            Engine::Avx2 => unsafe { avx2::chain_shuffles(rk, mode, register, buf) },
            _ => Ran::Declined,
        }
    }

    fn mgm_keystream(&self, rk: &RoundKeys, counter: &mut [u8; 16], buf: &mut [u8]) -> Ran {
        match self.engine {
            Engine::Avx512 { .. } => {
                // SAFETY: as in `expand_key`.
                unsafe { avx512::ctr(rk, &self.sliced, Counting::Right, counter, buf) };
                Ran::Done
            }
            _ => Ran::Declined,
        }
    }

    fn mgm_absorb(
        &self,
        rk: &RoundKeys,
        z: &mut u128,
        data: &[u8],
    ) -> Option<(usize, (u128, u128))> {
        match self.engine {
            Engine::Avx512 { fused_mgm: true } => {
                // SAFETY: as in `expand_key`; `fused_mgm` was decided the same way.
                Some(unsafe { avx512::mgm::absorb(rk, &self.sliced, z, data) })
            }
            _ => None,
        }
    }

    fn mgm_seal(
        &self,
        rk: &RoundKeys,
        y: &mut u128,
        z: &mut u128,
        buf: &mut [u8],
    ) -> Option<(usize, (u128, u128))> {
        match self.engine {
            Engine::Avx512 { fused_mgm: true } => {
                // SAFETY: as in `mgm_absorb`.
                Some(unsafe { avx512::mgm::seal(rk, &self.sliced, y, z, buf) })
            }
            _ => None,
        }
    }

    fn mgm_fill_counters(out: &mut [u8], blocks: usize, counter: &mut u128, left: bool) -> Ran {
        mgm::fill_counters(out, blocks, counter, left)
    }

    fn mgm_mul_sum(hs: &[u8], xs: &[u8]) -> Option<(u128, u128)> {
        mgm::mul_sum(hs, xs)
    }
}
