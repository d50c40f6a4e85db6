//! Kuznyechik, the 128-bit block cipher of GOST R 34.12-2015 (RFC 7801), with the modes of
//! GOST R 34.13-2015 ([`crate::modes::gost`]), the MGM AEAD of RFC 9058 ([`mgm`]) and
//! ACPKM re-keying of R 1323565.1.017-2018 ([`acpkm`]).
//!
//! Backends, best first, all constant time except the last: `avx512` (64 blocks at once;
//! AVX-512 BW/VL/VBMI and GFNI), `avx2` (32 blocks at once, the field arithmetic on GFNI
//! where the CPU has it), `neon` on AArch64 (16 blocks at once), `soft` (portable,
//! bitsliced), and `table-leaky` (table-driven and secret-indexed, NOT constant time; built
//! only with the cargo feature `table-backends`, never chosen automatically and never forced
//! through `VECRYPT_BACKEND`). Short calls and the chained modes (CBC and CFB encryption,
//! OFB, the CBC-MAC of OMAC and OMAC-ACPKM), which are bound by latency rather than
//! throughput, take per-block paths; CBC and CFB decryption see every input up front and run
//! in batches. Each backend's module states its representation; the design notes and the
//! measurements are in `docs/perf/kuznyechik.md`.
//!
//! CTR: through [`BlockModes`](crate::modes::BlockModes) and the registry, CTR is the
//! whole-block big-endian counter the crate uses for every cipher, with a one-block IV.
//! GOST R 34.13 CTR takes a half-block IV and counts from `IV || 0^64` with the same
//! whole-block increment, so the two agree when the IV is widened with zeros:
//! [`crate::modes::gost::ctr`] takes the GOST parameters directly, and `vecrypt cipher
//! kuznyechik --mode ctr` accepts either an 8-byte GOST IV or a 16-byte first counter block.
//!
//! ```
//! use vecrypt::kuznyechik::Kuznyechik;
//! use vecrypt::modes::BlockModes;
//!
//! let key = [0x42u8; 32];
//! let c = Kuznyechik::from_key(&key).unwrap();
//! let mut data = [7u8; 64];
//! c.encrypt_ecb(&mut data).unwrap();
//! c.decrypt_ecb(&mut data).unwrap();
//! assert_eq!(data, [7u8; 64]);
//! ```

pub mod acpkm;
// The field tables and constants; some serve only the SIMD kernels.
mod bitsliced;
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) mod consts;
mod dispatch;
pub mod mgm;
mod soft;
#[cfg(feature = "table-backends")]
mod table_leaky;

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86;

#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)]
mod aarch64;

/// The vector kernels of the architecture this library is built for: the one place where
/// the front names an architecture.
mod native {
    #[cfg(target_arch = "aarch64")]
    pub(super) use super::aarch64::Native;
    #[cfg(target_arch = "x86_64")]
    pub(super) use super::x86::Native;

    /// No vector kernels for this architecture: every key runs the portable code.
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    #[derive(Clone, Default)]
    pub(super) struct Native;

    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    impl super::dispatch::Kernels for Native {}
}

use core::fmt;

use cipher::consts::{U16, U32};
use cipher::{
    AlgorithmName, BlockCipherDecClosure, BlockCipherDecrypt, BlockCipherEncClosure,
    BlockCipherEncrypt, BlockSizeUser, Key, KeyInit, KeySizeUser,
};
use zeroize::ZeroizeOnDrop;

use crate::Error;
use crate::cpu::{self, Backend, Candidate, kernels};
#[cfg(feature = "std")]
use crate::modes::NamedCipher;
use crate::modes::{BlockKernel, Chain, KernelBackend};
use dispatch::Kernels;

pub use mgm::KuznyechikMgm;

/// Kuznyechik-GCM: GCM of NIST SP 800-38D over Kuznyechik, 12-byte nonce and 16-byte tag
/// through the `aead` traits (see [`crate::modes::gcm`]).
pub type KuznyechikGcm = crate::modes::Gcm<Kuznyechik>;

/// Block length in bytes.
pub const BLOCK: usize = 16;
/// Key length in bytes.
pub const KEY: usize = 32;

/// The ten round keys K_1..K_10, in memory order.
#[derive(Clone)]
pub(crate) struct RoundKeys(pub(crate) [[u8; 16]; 10]);

impl Drop for RoundKeys {
    fn drop(&mut self) {
        crate::wipe::value(&mut self.0);
    }
}

impl RoundKeys {
    /// The key schedule of GOST R 34.12-2015: eight Feistel rounds per pair of round keys,
    /// through the constant-time S and L (of the key's vector kernels when they have a key
    /// schedule: the AVX-512 backend, or the AVX2 one with GFNI).
    fn expand(key: &[u8; KEY], kernels: &native::Native) -> Self {
        if let Some(rk) = kernels.expand_key(key) {
            return rk;
        }
        let mut rk = [[0u8; 16]; 10];
        let mut a1 = u128::from_be_bytes(key[..16].try_into().expect("16 bytes"));
        let mut a0 = u128::from_be_bytes(key[16..].try_into().expect("16 bytes"));
        rk[0] = a1.to_be_bytes();
        rk[1] = a0.to_be_bytes();
        for pair in 0..4 {
            for c in &consts::ROUND_CONSTANTS[8 * pair..8 * pair + 8] {
                let f = soft::l(soft::s(a1 ^ u128::from_be_bytes(*c))) ^ a0;
                a0 = a1;
                a1 = f;
            }
            rk[2 * pair + 2] = a1.to_be_bytes();
            rk[2 * pair + 3] = a0.to_be_bytes();
        }
        crate::wipe::value(&mut a1);
        crate::wipe::value(&mut a0);
        RoundKeys(rk)
    }
}

/// The backends of Kuznyechik, best first.
pub(crate) const CANDIDATES: &[Candidate] = &[
    Candidate::new(Backend::Avx512, &[kernels::KUZNYECHIK_AVX512]),
    Candidate::new(Backend::Avx2, &[kernels::KUZNYECHIK_AVX2]),
    Candidate::new(Backend::Neon, &[kernels::KUZNYECHIK_NEON]),
    #[cfg(feature = "table-backends")]
    Candidate::portable(Backend::TableLeaky),
    Candidate::portable(Backend::Soft),
];

/// A keyed Kuznyechik cipher. The round keys are zeroized on drop and never handed out:
/// there is no public accessor for them.
///
/// ```compile_fail
/// let c = vecrypt::kuznyechik::Kuznyechik::from_key(&[0u8; 32]).unwrap();
/// let _secret = c.round_key(1);
/// ```
#[derive(Clone)]
pub struct Kuznyechik {
    rk: RoundKeys,
    /// The vector kernels of this key, chosen at keying, with their key material.
    kernels: native::Native,
    backend: Backend,
}

impl Kuznyechik {
    /// Keys the cipher on the best backend for this CPU (or the forced one, see [`cpu`]).
    pub fn from_key(key: &[u8]) -> Result<Self, Error> {
        Self::keyed_on(key, cpu::choose(CANDIDATES))
    }

    /// Keys the cipher on `backend`, or fails if this CPU cannot run it.
    pub fn with_backend(key: &[u8], backend: Backend) -> Result<Self, Error> {
        Self::keyed_on(key, cpu::require(CANDIDATES, backend)?)
    }

    /// The backends this CPU can run for Kuznyechik, best first.
    #[cfg(feature = "alloc")]
    pub fn backends() -> alloc::vec::Vec<Backend> {
        cpu::available(CANDIDATES)
    }

    /// The backend this key runs on.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    fn keyed_on(key: &[u8], backend: Backend) -> Result<Self, Error> {
        let key: &[u8; KEY] = key.try_into().map_err(|_| Error::KeyLength {
            expected: KEY,
            got: key.len(),
        })?;
        Ok(Self::keyed(key, backend))
    }

    fn keyed(key: &[u8; KEY], backend: Backend) -> Self {
        let kernels = native::Native::keyed(backend);
        Self {
            rk: RoundKeys::expand(key, &kernels),
            kernels,
            backend,
        }
    }

    /// Round key K_i for i in 1..=10, for the crate's known-answer tests of the key
    /// schedule. Not part of the public API: round keys are secret.
    #[cfg(test)]
    pub(crate) fn round_key(&self, i: usize) -> Option<&[u8; 16]> {
        i.checked_sub(1).and_then(|i| self.rk.0.get(i))
    }

    /// Encrypts one block in place.
    pub fn encrypt_block(&self, block: &mut [u8; BLOCK]) {
        self.kernel_encrypt(block);
    }

    /// Decrypts one block in place.
    pub fn decrypt_block(&self, block: &mut [u8; BLOCK]) {
        self.kernel_decrypt(block);
    }
}

impl crate::modes::gcm::private::Sealed for Kuznyechik {}
impl crate::modes::GcmCipher for Kuznyechik {
    const NAME: &'static str = "kuznyechik";
    // Kuznyechik's CTR of one more block measured faster than a separate encryption of the
    // mask on every backend (`docs/perf/kuznyechik.md`).
    const FUSED_TAG_MASK: usize = crate::modes::gcm::FUSED_TEXT;
    fn gcm_keyed(key: &[u8], backend: Option<Backend>) -> Result<Self, Error> {
        match backend {
            Some(b) => Self::with_backend(key, b),
            None => Self::from_key(key),
        }
    }
}

impl BlockKernel for Kuznyechik {
    const BLOCK: usize = BLOCK;

    fn kernel_backend(&self) -> Backend {
        self.backend
    }

    fn kernel_encrypt(&self, buf: &mut [u8]) {
        if self.kernels.encrypt(&self.rk, buf).done() {
            return;
        }
        #[cfg(feature = "table-backends")]
        if self.backend == Backend::TableLeaky {
            return table_leaky::encrypt_blocks(&self.rk, buf);
        }
        soft::encrypt_blocks(&self.rk, buf);
    }

    fn kernel_decrypt(&self, buf: &mut [u8]) {
        if self.kernels.decrypt(&self.rk, buf).done() {
            return;
        }
        #[cfg(feature = "table-backends")]
        if self.backend == Backend::TableLeaky {
            return table_leaky::decrypt_blocks(&self.rk, buf);
        }
        soft::decrypt_blocks(&self.rk, buf);
    }

    fn kernel_ctr(&self, counter: &mut [u8], buf: &mut [u8]) {
        let Ok(c) = <&mut [u8; BLOCK]>::try_from(&mut *counter) else {
            return crate::modes::ctr_apply_batched(self, counter, buf);
        };
        if self.kernels.ctr(&self.rk, c, buf).done() {
            return;
        }
        #[cfg(feature = "table-backends")]
        if self.backend == Backend::TableLeaky {
            return table_leaky::ctr(&self.rk, c, buf);
        }
        if self.backend == Backend::Soft {
            return soft::ctr(&self.rk, c, buf);
        }
        crate::modes::ctr_apply_batched(self, c, buf);
    }

    fn kernel_cbc_encrypt(&self, iv: &mut [u8], buf: &mut [u8]) {
        self.kernel_chain(Chain::CbcEncrypt, iv, buf);
    }

    fn kernel_chain(&self, mode: Chain, register: &mut [u8], buf: &mut [u8]) {
        if self.kernels.chain(&self.rk, mode, register, buf).done() {
            return;
        }
        crate::modes::chain_by_steps(self, mode, register, buf);
    }
}

// The registry shares ciphers between threads: with `std`, whose caches are `Sync`.
#[cfg(feature = "std")]
impl NamedCipher for Kuznyechik {
    const NAME: &'static str = "kuznyechik";
    const KEY_LEN: usize = KEY;

    fn backends() -> alloc::vec::Vec<Backend> {
        Self::backends()
    }

    fn keyed(key: &[u8], backend: Option<Backend>) -> Result<Self, Error> {
        match backend {
            Some(b) => Self::with_backend(key, b),
            None => Self::from_key(key),
        }
    }
}

impl ZeroizeOnDrop for Kuznyechik {}

impl fmt::Debug for Kuznyechik {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Kuznyechik {{ backend: {}, .. }}", self.backend)
    }
}

impl AlgorithmName for Kuznyechik {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Kuznyechik")
    }
}

impl KeySizeUser for Kuznyechik {
    type KeySize = U32;
}

impl BlockSizeUser for Kuznyechik {
    type BlockSize = U16;
}

impl KeyInit for Kuznyechik {
    fn new(key: &Key<Self>) -> Self {
        let key: &[u8; KEY] = key.as_ref();
        Self::keyed(key, cpu::choose(CANDIDATES))
    }
}

// 256 blocks per call: four whole batches of the AVX-512 sliced kernel.
impl BlockCipherEncrypt for Kuznyechik {
    fn encrypt_with_backend(&self, f: impl BlockCipherEncClosure<BlockSize = Self::BlockSize>) {
        f.call(&KernelBackend::<_, cipher::consts::U256>::new(self));
    }
}

impl BlockCipherDecrypt for Kuznyechik {
    fn decrypt_with_backend(&self, f: impl BlockCipherDecClosure<BlockSize = Self::BlockSize>) {
        f.call(&KernelBackend::<_, cipher::consts::U256>::new(self));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The round keys of RFC 7801, A.2.2, on every backend.
    #[test]
    fn rfc7801_round_keys_on_every_backend() {
        let key = hex::decode("8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef")
            .unwrap();
        let expected = [
            "8899aabbccddeeff0011223344556677",
            "fedcba98765432100123456789abcdef",
            "db31485315694343228d6aef8cc78c44",
            "3d4553d8e9cfec6815ebadc40a9ffd04",
            "57646468c44a5e28d3e59246f429f1ac",
            "bd079435165c6432b532e82834da581b",
            "51e640757e8745de705727265a0098b1",
            "5a7925017b9fdd3ed72a91a22286f984",
            "bb44e25378c73123a5f32f73cdb6e517",
            "72e9dd7416bcf45b755dbaa88e4a4043",
        ];
        for backend in Kuznyechik::backends() {
            let c = Kuznyechik::with_backend(&key, backend).unwrap();
            for (i, rk) in expected.iter().enumerate() {
                assert_eq!(hex::encode(c.round_key(i + 1).unwrap()), *rk, "{backend}");
            }
            assert!(c.round_key(0).is_none() && c.round_key(11).is_none());
        }
    }

    /// Every backend's key schedule (the vector ones have their own) against the portable
    /// one on pseudo-random keys.
    #[test]
    fn key_schedule_matches_portable_on_every_backend() {
        let mut state = 0x0bad_cafe_f00d_1234u64;
        for _ in 0..20 {
            let key: Vec<u8> = (0..KEY)
                .map(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (state >> 56) as u8
                })
                .collect();
            let soft = Kuznyechik::with_backend(&key, Backend::Soft).unwrap();
            for backend in Kuznyechik::backends() {
                let c = Kuznyechik::with_backend(&key, backend).unwrap();
                for i in 1..=10 {
                    assert_eq!(c.round_key(i), soft.round_key(i), "{backend} K{i}");
                }
            }
        }
    }
}
