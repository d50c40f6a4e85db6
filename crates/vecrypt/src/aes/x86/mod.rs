//! The x86-64 kernels of AES: AES-NI on xmm registers ([`aesni`], with carry-less GHASH in
//! [`ghash_clmul`]) and VAES on ymm and zmm registers ([`vaes_ymm`], [`vaes_zmm`], whose
//! kernels are written once in [`vaes_blocks`], [`vaes_gcm`] and [`vaes_xts`]).
//!
//! [`kernels`] hands the front one table per backend. Every entry checks, with the kernel
//! table's `runs()`, that this CPU has the features its kernel is compiled for, and returns
//! without touching the data when it has not; the front then takes the portable path.

mod aesni;
mod ghash_clmul;
mod rounds;
#[cfg(feature = "alloc")]
mod streams;
mod vaes_blocks;
mod vaes_gcm;
mod vaes_xts;
mod vaes_ymm;
mod vaes_zmm;

use super::common::Kernels;
use crate::cpu::Backend;

/// AES-NI: eight blocks interleaved on xmm registers; CFB decryption, XTS and GCM are built
/// by the front on these ECB, CTR and GHASH kernels.
static AESNI: Kernels = Kernels {
    encrypt: aesni::encrypt,
    decrypt: aesni::decrypt,
    ctr: aesni::ctr_blocks,
    chain: aesni::chain,
    cbc_decrypt: aesni::decrypt_cbc,
    cfb_decrypt: |_, _, _| false,
    xts: |_, _, _, _| None,
    gcm: |_, _, _, _, _, _| false,
    ghash: ghash_clmul::ghash,
    ghash_powers: ghash_clmul::powers,
    #[cfg(feature = "alloc")]
    cbc_encrypt_streams: streams::aesni,
};

/// VAES on ymm registers; the one-chain modes stay on AES-NI, which runs them at the
/// latency bound already.
static VAES256: Kernels = Kernels {
    encrypt: vaes_ymm::encrypt,
    decrypt: vaes_ymm::decrypt,
    ctr: vaes_ymm::ctr_blocks,
    chain: aesni::chain,
    cbc_decrypt: vaes_ymm::decrypt_cbc,
    cfb_decrypt: vaes_ymm::decrypt_cfb,
    xts: vaes_ymm::xts_blocks,
    gcm: vaes_ymm::gcm_blocks,
    ghash: ghash_clmul::ghash,
    ghash_powers: ghash_clmul::powers,
    #[cfg(feature = "alloc")]
    cbc_encrypt_streams: streams::vaes256,
};

/// VAES on zmm registers; the one-chain modes stay on AES-NI.
static VAES512: Kernels = Kernels {
    encrypt: vaes_zmm::encrypt,
    decrypt: vaes_zmm::decrypt,
    ctr: vaes_zmm::ctr_blocks,
    chain: aesni::chain,
    cbc_decrypt: vaes_zmm::decrypt_cbc,
    cfb_decrypt: vaes_zmm::decrypt_cfb,
    xts: vaes_zmm::xts_blocks,
    gcm: vaes_zmm::gcm_blocks,
    ghash: ghash_clmul::ghash,
    ghash_powers: ghash_clmul::powers,
    #[cfg(feature = "alloc")]
    cbc_encrypt_streams: streams::vaes512,
};

/// The kernels of `backend`, or `None` for the portable one.
pub(super) fn kernels(backend: Backend) -> Option<&'static Kernels> {
    match backend {
        Backend::Vaes512 => Some(&VAES512),
        Backend::Vaes256 => Some(&VAES256),
        Backend::AesNi => Some(&AESNI),
        _ => None,
    }
}
