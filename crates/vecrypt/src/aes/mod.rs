//! AES-128, AES-192 and AES-256 (FIPS 197) with AES-NI and VAES kernels for every mode, and
//! kernels on the ARMv8 cryptography extension for aarch64.
//!
//! Backends, best first: `vaes512` (four blocks per zmm register), `vaes256` (two per ymm),
//! `aesni` (xmm, eight blocks interleaved), on aarch64 `armv8-aes` (AESE/AESD on NEON
//! registers, eight blocks interleaved, with GHASH on PMULL) and `soft` (portable,
//! table-free, constant time: fixsliced, four blocks in bit planes of `u64` words, two in
//! `u32` on 32-bit targets, the S-box a Boolean circuit).
//! Each key keeps the kernels of its backend, chosen once at keying by the architecture
//! folder (`x86`, `aarch64`) through the `Kernels` interface of `dispatch`; every call then
//! runs its whole loop inside one kernel, or the kernel declines and the portable code of
//! this module runs it. With the cargo feature `table-backends` there is also `table-leaky`,
//! the classic T-table AES (four 256-word tables per direction): secret-indexed, NOT
//! constant time, for speed comparisons only, never chosen automatically nor through
//! `VECRYPT_BACKEND`; its modes run on the portable paths.
//!
//! Modes: ECB, CBC, CTR (whole-block big-endian counter, as `openssl enc`) through
//! [`BlockModes`](crate::modes::BlockModes); [`Aes::apply_ctr32`] (SP 800-38D `inc32`);
//! [`Aes::encrypt_cfb`]/[`Aes::decrypt_cfb`] (CFB128); [`Aes::apply_ofb`]; [`AesCmac`];
//! [`AesXts`]; [`AesGcm`] (the `aead` traits); several independent CBC streams interleaved
//! through [`MultiKey`](crate::modes::MultiKey). The `cipher` block traits make the type
//! usable with the RustCrypto mode crates too.
//!
//! ```
//! use vecrypt::aes::Aes128;
//! use vecrypt::modes::BlockModes;
//!
//! // FIPS 197, Appendix C.1.
//! let key: Vec<u8> = (0u8..16).collect();
//! let cipher = Aes128::from_key(&key).unwrap();
//! let mut block: [u8; 16] = core::array::from_fn(|i| (i as u8) * 0x11);
//! cipher.encrypt_ecb(&mut block).unwrap();
//! assert_eq!(block[..4], [0x69, 0xc4, 0xe0, 0xd8]);
//! ```

mod cmac;
mod common;
mod dispatch;
mod feedback;
mod gcm;
mod key_schedule;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod rounds;
mod soft;
#[cfg(all(
    feature = "alloc",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod streams;
#[cfg(feature = "table-backends")]
mod table_leaky;
mod xts;

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86;

#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)]
mod aarch64;

/// The SIMD kernels of the architecture this library is built for: the one place where the
/// front names an architecture.
mod native {
    #[cfg(target_arch = "aarch64")]
    pub(super) use super::aarch64::Native;
    #[cfg(target_arch = "x86_64")]
    pub(super) use super::x86::Native;

    /// No SIMD kernels for this architecture: every key runs the portable code.
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    #[derive(Clone, Default)]
    pub(super) struct Native;

    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    impl super::dispatch::Kernels for Native {}
}

pub use cmac::AesCmac;
pub use gcm::{Aes128Gcm, Aes192Gcm, Aes256Gcm, AesGcm};
pub use xts::AesXts;

use core::fmt;
use core::marker::PhantomData;

use cipher::array::ArraySize;
use cipher::consts::{U16, U24, U32};
use cipher::{
    AlgorithmName, BlockCipherDecClosure, BlockCipherDecrypt, BlockCipherEncClosure,
    BlockCipherEncrypt, BlockSizeUser, Key, KeyInit, KeySizeUser,
};
use zeroize::ZeroizeOnDrop;

use crate::Error;
use crate::cpu::{self, Backend, Candidate, kernels};
#[cfg(feature = "alloc")]
use crate::modes::NamedCipher;
use crate::modes::{self as modes, BlockKernel, Chain, KernelBackend};
use common::{CounterWidth, RoundKeys};
use dispatch::Kernels;

/// One AES key size.
pub trait KeySize: Copy + Send + Sync + 'static + private::Sealed {
    const NAME: &'static str;
    /// Key length in bytes.
    const KEY: usize;
    const ROUNDS: usize;
    type Size: ArraySize;
}

mod private {
    pub trait Sealed {}
}

macro_rules! key_size {
    ($(#[$doc:meta])* $v:ident, $name:literal, $size:ty, $rounds:literal) => {
        $(#[$doc])*
        #[derive(Copy, Clone, Debug)]
        pub struct $v;
        impl private::Sealed for $v {}
        impl KeySize for $v {
            const NAME: &'static str = $name;
            const KEY: usize = <$size as cipher::typenum::Unsigned>::USIZE;
            const ROUNDS: usize = $rounds;
            type Size = $size;
        }
    };
}

key_size!(
    /// 128-bit key, 10 rounds.
    K128, "aes-128", U16, 10
);
key_size!(
    /// 192-bit key, 12 rounds.
    K192, "aes-192", U24, 12
);
key_size!(
    /// 256-bit key, 14 rounds.
    K256, "aes-256", U32, 14
);

/// AES with a 128-bit key.
pub type Aes128 = Aes<K128>;
/// AES with a 192-bit key.
pub type Aes192 = Aes<K192>;
/// AES with a 256-bit key.
pub type Aes256 = Aes<K256>;

/// The backends of AES, best first.
pub(crate) const CANDIDATES: &[Candidate] = &[
    Candidate::new(Backend::Vaes512, &[kernels::AES_VAES512, kernels::AES_NI]),
    Candidate::new(Backend::Vaes256, &[kernels::AES_VAES256, kernels::AES_NI]),
    Candidate::new(Backend::AesNi, &[kernels::AES_NI]),
    Candidate::new(Backend::ArmAes, &[kernels::AES_ARMV8]),
    #[cfg(feature = "table-backends")]
    Candidate::portable(Backend::TableLeaky),
    Candidate::portable(Backend::Soft),
];

/// A keyed AES cipher. The round keys are zeroized on drop.
#[derive(Clone)]
pub struct Aes<K: KeySize> {
    rk: RoundKeys,
    backend: Backend,
    /// The SIMD kernels `backend` runs on this CPU, chosen once at keying; they decline
    /// every call of a portable backend.
    kernels: native::Native,
    _size: PhantomData<K>,
}

impl<K: KeySize> Aes<K> {
    /// Keys the cipher on the best backend for this CPU (or the forced one, see [`cpu`]).
    pub fn from_key(key: &[u8]) -> Result<Self, Error> {
        Self::keyed_on(key, cpu::choose(CANDIDATES))
    }

    /// Keys the cipher on `backend`, or fails if this CPU cannot run it.
    pub fn with_backend(key: &[u8], backend: Backend) -> Result<Self, Error> {
        Self::keyed_on(key, cpu::require(CANDIDATES, backend)?)
    }

    /// The backends this CPU can run for AES, best first.
    #[cfg(feature = "alloc")]
    pub fn backends() -> alloc::vec::Vec<Backend> {
        cpu::available(CANDIDATES)
    }

    /// The backend this key runs on.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    fn keyed_on(key: &[u8], backend: Backend) -> Result<Self, Error> {
        Self::check_length(key)?;
        Ok(Self::keyed(key, backend))
    }

    /// [`Error::KeyLength`] unless `key` has this key size's length.
    fn check_length(key: &[u8]) -> Result<(), Error> {
        if key.len() == K::KEY {
            Ok(())
        } else {
            Err(Error::KeyLength {
                expected: K::KEY,
                got: key.len(),
            })
        }
    }

    /// Keys a key of the right length on `backend`.
    fn keyed(key: &[u8], backend: Backend) -> Self {
        let mut cipher = Self::unkeyed(backend);
        cipher.set_key(key);
        cipher
    }

    /// The cipher on `backend` with all-zero round keys, for [`Self::set_key`]: the keyed
    /// objects built on it (GCM, XTS) fill it in place, which spares them moving kilobytes
    /// of keys through their constructors.
    fn unkeyed(backend: Backend) -> Self {
        Self {
            rk: RoundKeys::empty(K::ROUNDS),
            backend,
            kernels: native::Native::keyed(backend),
            _size: PhantomData,
        }
    }

    /// Fills the round keys from a key of the right length, on the backend's AES
    /// instructions when it has them.
    fn set_key(&mut self, key: &[u8]) {
        if !self.kernels.expand_key(key, &mut self.rk).done() {
            key_schedule::expand_into(key, &mut self.rk);
        }
        if self.backend == Backend::Soft {
            soft::SlicedKeys::prepare(&mut self.rk);
        }
    }

    /// CTR with a 32-bit counter (SP 800-38D `inc32`): only the last four bytes of the
    /// counter block count, big-endian, wrapping without carry into the rest. Any length.
    pub fn apply_ctr32(&self, iv: &[u8], buf: &mut [u8]) -> Result<(), Error> {
        let mut counter = block16(iv)?;
        self.ctr(CounterWidth::Low32, &mut counter, buf);
        Ok(())
    }

    /// Encrypts whole blocks in place on this key's backend.
    #[inline]
    pub(crate) fn ecb_encrypt(&self, buf: &mut [u8]) {
        if self.kernels.encrypt(&self.rk, buf).done() {
            return;
        }
        #[cfg(feature = "table-backends")]
        if self.backend == Backend::TableLeaky {
            return table_leaky::encrypt_blocks(&self.rk, buf);
        }
        soft::encrypt_blocks(&self.rk, buf);
    }

    /// Decrypts whole blocks in place on this key's backend.
    #[inline]
    pub(crate) fn ecb_decrypt(&self, buf: &mut [u8]) {
        if self.kernels.decrypt(&self.rk, buf).done() {
            return;
        }
        #[cfg(feature = "table-backends")]
        if self.backend == Backend::TableLeaky {
            return table_leaky::decrypt_blocks(&self.rk, buf);
        }
        soft::decrypt_blocks(&self.rk, buf);
    }

    /// CTR over whole blocks whose counter part `width` does not carry further.
    fn ctr_whole(&self, width: CounterWidth, counter: &[u8; 16], buf: &mut [u8]) {
        if !self.kernels.ctr(&self.rk, width, counter, buf).done() {
            let mut c = *counter;
            modes::ctr_apply_counting(self, &mut c, width.bytes(), buf);
        }
    }

    /// CTR over any length; `counter` ends at the next unused value.
    pub(crate) fn ctr(&self, width: CounterWidth, counter: &mut [u8; 16], buf: &mut [u8]) {
        let whole = buf.len() / 16 * 16;
        let (mut body, tail) = buf.split_at_mut(whole);
        while !body.is_empty() {
            let blocks = (body.len() / 16) as u128;
            let n = match width {
                CounterWidth::Low32 => blocks,
                // The counter is public, so splitting where its low half wraps leaks nothing.
                CounterWidth::Low64 => {
                    let low = u64::from_be_bytes(counter[8..].try_into().unwrap_or([0; 8]));
                    blocks.min(u128::from(u64::MAX - low) + 1)
                }
            };
            let (now, later) = body.split_at_mut(16 * n as usize);
            self.ctr_whole(width, counter, now);
            advance(width, counter, n);
            body = later;
        }
        if !tail.is_empty() {
            let mut ks = *counter;
            self.ecb_encrypt(&mut ks);
            modes::xor_in_place(tail, &ks);
            crate::wipe::array(&mut ks);
            advance(width, counter, 1);
        }
    }
}

/// Adds `n` to the counter block in the part `width` names.
pub(crate) fn advance(width: CounterWidth, counter: &mut [u8; 16], n: u128) {
    match width {
        CounterWidth::Low32 => {
            let low = u32::from_be_bytes(counter[12..].try_into().unwrap_or([0; 4]));
            counter[12..].copy_from_slice(&low.wrapping_add(n as u32).to_be_bytes());
        }
        CounterWidth::Low64 => {
            *counter = u128::from_be_bytes(*counter).wrapping_add(n).to_be_bytes();
        }
    }
}

pub(crate) fn block16(iv: &[u8]) -> Result<[u8; 16], Error> {
    iv.try_into().map_err(|_| Error::IvLength {
        expected: 16,
        got: iv.len(),
    })
}

/// Whether `backend` runs on AES instructions, as against the portable code: its keys take
/// the carry-less GHASH and its streams the multi-stream kernels.
fn on_kernels(backend: Backend) -> bool {
    matches!(
        backend,
        Backend::AesNi | Backend::Vaes256 | Backend::Vaes512 | Backend::ArmAes
    )
}

/// The one-block chain register of a kernel call, as an array.
fn register16(register: &mut [u8]) -> Option<&mut [u8; 16]> {
    register.try_into().ok()
}

impl<K: KeySize> BlockKernel for Aes<K> {
    const BLOCK: usize = 16;

    fn kernel_backend(&self) -> Backend {
        self.backend
    }

    fn kernel_encrypt(&self, buf: &mut [u8]) {
        self.ecb_encrypt(buf);
    }

    fn kernel_decrypt(&self, buf: &mut [u8]) {
        self.ecb_decrypt(buf);
    }

    fn kernel_ctr(&self, counter: &mut [u8], buf: &mut [u8]) {
        let mut c = block16(counter).unwrap_or([0; 16]);
        self.ctr(CounterWidth::Low64, &mut c, buf);
        counter.copy_from_slice(&c);
    }

    fn kernel_cbc_encrypt(&self, iv: &mut [u8], buf: &mut [u8]) {
        self.kernel_chain(Chain::CbcEncrypt, iv, buf);
    }

    /// One chain runs on the backend's chain kernel, folded so that only AES rounds lie on
    /// it; several chains go one step of all of them per ECB call.
    fn kernel_chain(&self, mode: Chain, register: &mut [u8], buf: &mut [u8]) {
        let fused = register16(register)
            .is_some_and(|iv| self.kernels.chain(&self.rk, mode, iv, buf).done());
        if !fused {
            modes::chain_by_steps(self, mode, register, buf);
        }
    }

    fn kernel_cbc_decrypt(&self, iv: &mut [u8], buf: &mut [u8]) {
        let fused =
            register16(iv).is_some_and(|c| self.kernels.cbc_decrypt(&self.rk, c, buf).done());
        if !fused {
            modes::cbc_decrypt_batched(self, iv, buf);
        }
    }

    fn kernel_cfb_decrypt(&self, iv: &mut [u8], buf: &mut [u8]) {
        let fused =
            register16(iv).is_some_and(|c| self.kernels.cfb_decrypt(&self.rk, c, buf).done());
        if !fused {
            modes::cfb_decrypt_batched(self, iv, buf);
        }
    }

    /// Streams of one backend are interleaved by its kernels; otherwise each runs alone.
    #[cfg(feature = "alloc")]
    fn kernel_cbc_encrypt_multi(keys: &[&Self], ivs: &mut [&mut [u8]], bufs: &mut [&mut [u8]]) {
        /// Streams whose keys and chains fit on the stack: a call over a few one-block
        /// streams is short enough that two allocations show in its speed.
        const ON_STACK: usize = 16;
        let backend = keys.first().map(|k| k.backend);
        let first = keys
            .first()
            .filter(|k| on_kernels(k.backend))
            .filter(|_| keys.iter().all(|k| Some(k.backend) == backend));
        if let Some(first) = first {
            let kernels = &first.kernels;
            let done = if keys.len() <= ON_STACK {
                let mut rks = [&keys[0].rk; ON_STACK];
                let mut chains = [[0u8; 16]; ON_STACK];
                for ((r, c), (k, iv)) in rks
                    .iter_mut()
                    .zip(chains.iter_mut())
                    .zip(keys.iter().zip(ivs.iter()))
                {
                    *r = &k.rk;
                    *c = block16(iv).unwrap_or([0; 16]);
                }
                let n = keys.len();
                let done = kernels
                    .cbc_encrypt_streams(&rks[..n], &mut chains[..n], bufs)
                    .done();
                if done {
                    for (iv, c) in ivs.iter_mut().zip(&chains[..n]) {
                        iv.copy_from_slice(c);
                    }
                }
                done
            } else {
                let rks: alloc::vec::Vec<&RoundKeys> = keys.iter().map(|k| &k.rk).collect();
                let mut chains: alloc::vec::Vec<[u8; 16]> = ivs
                    .iter()
                    .map(|iv| block16(iv).unwrap_or([0; 16]))
                    .collect();
                let done = kernels.cbc_encrypt_streams(&rks, &mut chains, bufs).done();
                if done {
                    for (iv, c) in ivs.iter_mut().zip(&chains) {
                        iv.copy_from_slice(c);
                    }
                }
                done
            };
            if done {
                return;
            }
        }
        for ((k, iv), b) in keys.iter().zip(ivs.iter_mut()).zip(bufs.iter_mut()) {
            k.kernel_cbc_encrypt(iv, b);
        }
    }
}

#[cfg(feature = "alloc")]
impl<K: KeySize> NamedCipher for Aes<K> {
    const NAME: &'static str = K::NAME;
    const KEY_LEN: usize = K::KEY;

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

impl<K: KeySize> ZeroizeOnDrop for Aes<K> {}

impl<K: KeySize> fmt::Debug for Aes<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {{ backend: {}, .. }}", K::NAME, self.backend)
    }
}

impl<K: KeySize> AlgorithmName for Aes<K> {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(K::NAME)
    }
}

impl<K: KeySize> KeySizeUser for Aes<K> {
    type KeySize = K::Size;
}

impl<K: KeySize> BlockSizeUser for Aes<K> {
    type BlockSize = U16;
}

impl<K: KeySize> KeyInit for Aes<K> {
    fn new(key: &Key<Self>) -> Self {
        Self::keyed(key, cpu::choose(CANDIDATES))
    }
}

impl<K: KeySize> BlockCipherEncrypt for Aes<K> {
    fn encrypt_with_backend(&self, f: impl BlockCipherEncClosure<BlockSize = Self::BlockSize>) {
        f.call(&KernelBackend::<_, cipher::consts::U32>::new(self));
    }
}

impl<K: KeySize> BlockCipherDecrypt for Aes<K> {
    fn decrypt_with_backend(&self, f: impl BlockCipherDecClosure<BlockSize = Self::BlockSize>) {
        f.call(&KernelBackend::<_, cipher::consts::U32>::new(self));
    }
}
