//! uBlock-128/128, uBlock-128/256 and uBlock-256/256 (Wu Wenling et al., 2019).
//!
//! Each key keeps the kernels its backend runs on this CPU, decided once at keying: one
//! `Native` per architecture behind the interface of `dispatch.rs`, made with the key, that
//! also holds the round keys in the forms its kernels take. Each call then picks among those
//! kernels by the data size:
//! - one block, two 128-bit blocks (and CBC encryption of one stream): the design
//!   document's one nibble per byte layout (`x86/nibbles/`), whose round is the shortest
//!   chain, a block at a time;
//! - CBC encryption of two to four streams on the AVX2 and AVX-512 backends, and every call
//!   of a key made for the paper's layout: two blocks per byte, four blocks and up to four
//!   keys per step (`x86/paired.rs`, the AVX2 kernel of Gao Ying et al., J. NUDT 2024);
//! - three 128-bit blocks or two 256-bit ones and more: bit-planes inside the nibble
//!   (`planes.rs`) on 256-bit registers (`x86/planes_ymm.rs`, 256 bytes a batch, a short
//!   last batch padded unless it would run slower than its blocks one at a time), and on
//!   512-bit registers above 256 bytes (`x86/planes_zmm.rs`, 512 bytes a batch);
//! - ECB, CTR and CBC decryption over 512 blocks or more on AVX-512 with VBMI and GFNI, and
//!   over 256 blocks or more on AVX2: one register per state bit (`sliced/`,
//!   `x86/sliced_*.rs`) for the whole batches, the rest by its own length;
//! - several keys at once ([`crate::modes::MultiKey`]): CBC encryption of several streams
//!   side by side, and ECB in both directions and CBC decryption of short streams that
//!   together fill a batch, block slot `s` of each batch under key `s % n`, on the
//!   bit-plane kernels.
//!
//! On AArch64 the `neon` backend has two kernels (`aarch64/`): the one nibble per byte
//! layout with `TBL` for one to four blocks and CBC encryption, and the bit-planes of
//! `planes.rs` on 128-bit registers from five blocks on and for several keys.
//!
//! CBC encryption of one uBlock-256/256 stream on the AVX-512 backend keeps each half in one
//! 256-bit register (`x86/wide_nibbles.rs`), which shortens its round to the chain.
//!
//! Keying stores the key; the schedule is expanded on first use, except that a first
//! one-block encryption runs the schedule alongside its rounds (the schedule's chain is a
//! third of the round's), so a fresh key per block costs little more than the block.
//!
//! ```
//! use vecrypt::ublock::Ublock128_128;
//! use vecrypt::modes::BlockModes;
//!
//! let key = hex_literal(b"0123456789abcdeffedcba9876543210");
//! let c = Ublock128_128::from_key(&key).unwrap();
//! let mut block = key;
//! c.encrypt_ecb(&mut block).unwrap();
//! assert_eq!(block[..4], [0x32, 0x12, 0x2b, 0xed]);
//! # fn hex_literal(h: &[u8; 32]) -> [u8; 16] {
//! #     let mut out = [0u8; 16];
//! #     for i in 0..16 {
//! #         out[i] = u8::from_str_radix(std::str::from_utf8(&h[2 * i..2 * i + 2]).unwrap(), 16).unwrap();
//! #     }
//! #     out
//! # }
//! ```

// NEON is part of every AArch64 target but the soft-float ones, which take the portable path.
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
#[allow(unsafe_code)]
mod aarch64;
pub(crate) mod consts;
mod dispatch;
mod key_schedule;
// The two bitsliced layouts, generic over the register type, that the kernels build on:
// bit-planes inside the nibble (x86-64 and AArch64), and one register per state bit with its
// transposition (x86-64).
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_feature = "neon")
))]
mod planes;
#[cfg(target_arch = "x86_64")]
mod sliced;
mod soft;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86;

/// The vector kernels of the architecture this library is built for: the one place where
/// the front names an architecture.
mod native {
    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    pub(super) use super::aarch64::Native;
    #[cfg(target_arch = "x86_64")]
    pub(super) use super::x86::Native;

    /// No vector kernels for this architecture: every key runs the portable code.
    #[cfg(not(any(
        target_arch = "x86_64",
        all(target_arch = "aarch64", target_feature = "neon")
    )))]
    #[derive(Clone, Default)]
    pub(super) struct Native;

    #[cfg(not(any(
        target_arch = "x86_64",
        all(target_arch = "aarch64", target_feature = "neon")
    )))]
    impl super::dispatch::Kernels for Native {}
}

use core::fmt;
use core::marker::PhantomData;

use cipher::array::ArraySize;
use cipher::consts::{U16, U32};
use cipher::{
    AlgorithmName, BlockCipherDecClosure, BlockCipherDecrypt, BlockCipherEncClosure,
    BlockCipherEncrypt, BlockSizeUser, Key, KeyInit, KeySizeUser,
};
use zeroize::ZeroizeOnDrop;

use crate::Error;
use crate::cache::Cache;
use crate::cpu::{self, Backend, Candidate, kernels};
#[cfg(feature = "std")]
use crate::modes::NamedCipher;
use crate::modes::{self, BlockKernel, KernelBackend};
use dispatch::Kernels;

/// One member of the uBlock family: its sizes and tables.
pub trait Variant: Copy + Send + Sync + 'static + private::Sealed {
    const NAME: &'static str;
    /// Block length in bytes (16 or 32).
    const BLOCK: usize;
    /// Key length in bytes (16 or 32).
    const KEY: usize;
    const ROUNDS: usize;
    const PK: &'static [usize];
    const PL: &'static [usize];
    const PR: &'static [usize];
    const PL_INV: &'static [usize];
    const PR_INV: &'static [usize];
    type BlockSize: ArraySize;
    type KeySize: ArraySize;
}

mod private {
    pub trait Sealed {}
}

macro_rules! variant {
    ($(#[$doc:meta])* $v:ident, $name:literal, $block:ty, $key:ty, $rounds:literal,
     $pk:ident, $pl:ident, $pr:ident, $pli:ident, $pri:ident) => {
        $(#[$doc])*
        #[derive(Copy, Clone, Debug)]
        pub struct $v;
        impl private::Sealed for $v {}
        impl Variant for $v {
            const NAME: &'static str = $name;
            const BLOCK: usize = <$block as cipher::typenum::Unsigned>::USIZE;
            const KEY: usize = <$key as cipher::typenum::Unsigned>::USIZE;
            const ROUNDS: usize = $rounds;
            const PK: &'static [usize] = &consts::$pk;
            const PL: &'static [usize] = &consts::$pl;
            const PR: &'static [usize] = &consts::$pr;
            const PL_INV: &'static [usize] = &consts::$pli;
            const PR_INV: &'static [usize] = &consts::$pri;
            type BlockSize = $block;
            type KeySize = $key;
        }
    };
}

variant!(
    /// 128-bit block, 128-bit key, 16 rounds.
    V128_128, "ublock-128-128", U16, U16, 16, PK1, PL128, PR128, PL128_INV, PR128_INV
);
variant!(
    /// 128-bit block, 256-bit key, 24 rounds.
    V128_256, "ublock-128-256", U16, U32, 24, PK2, PL128, PR128, PL128_INV, PR128_INV
);
variant!(
    /// 256-bit block, 256-bit key, 24 rounds.
    V256_256, "ublock-256-256", U32, U32, 24, PK3, PL256, PR256, PL256_INV, PR256_INV
);

/// uBlock with a 128-bit block and a 128-bit key.
pub type Ublock128_128 = Ublock<V128_128>;
/// uBlock with a 128-bit block and a 256-bit key.
pub type Ublock128_256 = Ublock<V128_256>;
/// uBlock with a 256-bit block and a 256-bit key.
pub type Ublock256_256 = Ublock<V256_256>;

/// GCM (NIST SP 800-38D) over uBlock-128/128, 12-byte nonce and 16-byte tag through the
/// `aead` traits (see [`crate::modes::gcm`]). uBlock-256/256 has no GCM: its blocks are 32
/// bytes.
pub type Ublock128Gcm = modes::Gcm<Ublock128_128>;
/// GCM over uBlock-128/256, as [`Ublock128Gcm`].
pub type Ublock128_256Gcm = modes::Gcm<Ublock128_256>;

/// Round keys RK_0..RK_r as big-endian bytes (the first `BLOCK` bytes of each row are used).
#[derive(Clone)]
pub(crate) struct RoundKeys(pub(crate) [[u8; 32]; 25]);

impl Drop for RoundKeys {
    fn drop(&mut self) {
        crate::wipe::value(&mut self.0);
    }
}

impl ZeroizeOnDrop for RoundKeys {}

/// The backends of uBlock, best first.
pub(crate) const CANDIDATES: &[Candidate] = &[
    Candidate::new(
        Backend::Avx512,
        &[
            kernels::UBLOCK_PLANES_AVX512,
            kernels::UBLOCK_PAIRED_AVX2,
            kernels::UBLOCK_NIBBLES_AVX2,
            kernels::UBLOCK_NIBBLES_SSSE3,
        ],
    ),
    Candidate::new(
        Backend::Avx2,
        &[
            kernels::UBLOCK_PLANES_AVX2,
            kernels::UBLOCK_SLICED_AVX2,
            kernels::UBLOCK_PAIRED_AVX2,
            kernels::UBLOCK_NIBBLES_AVX2,
            kernels::UBLOCK_NIBBLES_SSSE3,
        ],
    ),
    Candidate::new(Backend::Ssse3, &[kernels::UBLOCK_NIBBLES_SSSE3]),
    Candidate::new(Backend::Neon, &[kernels::UBLOCK_NEON]),
    Candidate::portable(Backend::Soft),
];

/// What a multi-key call does to the blocks of each stream.
#[derive(Copy, Clone, PartialEq, Eq)]
enum StreamsMode {
    EcbEncrypt,
    EcbDecrypt,
    /// CBC decryption: each block is XORed with the stream's previous ciphertext block (its
    /// IV for the first), and the IV advances to the last ciphertext block.
    CbcDecrypt,
}

/// A keyed uBlock cipher. The round keys (in every form) are zeroized on drop and never
/// handed out: there is no public accessor for them.
///
/// ```compile_fail
/// let c = vecrypt::ublock::Ublock128_128::from_key(&[0u8; 16]).unwrap();
/// let _secret = c.round_key(1);
/// ```
#[derive(Clone)]
pub struct Ublock<V: Variant> {
    /// The key, zero-padded: keying stores it and defers the schedule, so that a fresh key
    /// for one block runs the schedule alongside the rounds.
    key: [u8; 32],
    /// Round keys, expanded on first use that needs them; on the heap so that moving the
    /// cipher copies a pointer, not 800 bytes.
    rk: Cache<RoundKeys>,
    /// The kernels this key's backend runs on this CPU, chosen at keying, with the round
    /// keys in the forms they take, made on first use (nothing where no kernel needs them).
    kernels: native::Native,
    backend: Backend,
    /// Every call on the paired-nibble kernel ([`Ublock::with_paper_layout`]).
    paper_layout: bool,
    _variant: PhantomData<V>,
}

impl<V: Variant> Ublock<V> {
    /// Keys the cipher on the best backend for this CPU (or the forced one, see [`cpu`]).
    pub fn from_key(key: &[u8]) -> Result<Self, Error> {
        Self::keyed_on(key, cpu::choose(CANDIDATES))
    }

    /// Keys the cipher on `backend`, or fails if this CPU cannot run it.
    pub fn with_backend(key: &[u8], backend: Backend) -> Result<Self, Error> {
        Self::keyed_on(key, cpu::require(CANDIDATES, backend)?)
    }

    /// Keys the cipher on the AVX2 backend with every call on the kernel of Gao Ying et al.
    /// (J. NUDT 2024): two blocks per byte, four blocks per step. The default backends use
    /// it only for short inputs and CBC over up to four keys; this constructor exists to
    /// compare it with the other kernels. Fails if this CPU lacks AVX2.
    pub fn with_paper_layout(key: &[u8]) -> Result<Self, Error> {
        let mut cipher = Self::keyed_on(key, cpu::require(CANDIDATES, Backend::Avx2)?)?;
        cipher.paper_layout = true;
        Ok(cipher)
    }

    /// Whether every call runs on the paired-nibble kernel (see [`Self::with_paper_layout`]).
    pub fn is_paper_layout(&self) -> bool {
        self.paper_layout
    }

    /// The backends this CPU can run for uBlock, best first.
    #[cfg(feature = "alloc")]
    pub fn backends() -> alloc::vec::Vec<Backend> {
        cpu::available(CANDIDATES)
    }

    /// The backend this key runs on.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    fn keyed_on(key: &[u8], backend: Backend) -> Result<Self, Error> {
        if key.len() != V::KEY {
            return Err(Error::KeyLength {
                expected: V::KEY,
                got: key.len(),
            });
        }
        Ok(Self::keyed_unchecked(key, backend))
    }

    fn keyed_unchecked(key: &[u8], backend: Backend) -> Self {
        Self {
            key: {
                let mut k = [0u8; 32];
                k[..V::KEY].copy_from_slice(key);
                k
            },
            rk: Cache::default(),
            kernels: native::Native::keyed(backend),
            backend,
            paper_layout: false,
            _variant: PhantomData,
        }
    }

    /// The key schedule: in registers on the SIMD backends, portable on the portable one.
    fn schedule(kernels: &native::Native, key: &[u8]) -> RoundKeys {
        let mut rk = RoundKeys([[0u8; 32]; 25]);
        if !kernels.expand_key::<V>(key, &mut rk).done() {
            rk = key_schedule::expand::<V>(key);
        }
        rk
    }

    fn rk(&self) -> &RoundKeys {
        self.rk
            .get_or_init(|| Self::schedule(&self.kernels, &self.key[..V::KEY]))
    }

    /// Round key `i` (0..=rounds), for the crate's known-answer tests of the key schedule.
    /// Not part of the public API: round keys are secret.
    #[cfg(test)]
    pub(crate) fn round_key(&self, i: usize) -> Option<&[u8]> {
        (i <= V::ROUNDS).then(|| &self.rk().0[i][..V::BLOCK])
    }

    /// Runs one part of this backend's fully bitsliced ECB kernel alone over the whole
    /// batches at the front of `buf`, to time how that kernel's cost splits: the rounds of
    /// either direction on the bytes as they are, or the transposition into the sliced form
    /// and back. What it writes is **not ciphertext**. Returns the bytes covered: 0 on
    /// backends without that kernel (and with the paper layout), or when `buf` is shorter
    /// than a batch.
    #[cfg(feature = "kernel-parts")]
    pub fn run_kernel_part(&self, part: KernelPart, buf: &mut [u8]) -> usize {
        self.kernels.kernel_part(self, part, buf).unwrap_or(0)
    }
}

/// A part of the fully bitsliced kernel, for [`Ublock::run_kernel_part`].
#[cfg(feature = "kernel-parts")]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum KernelPart {
    /// The encryption rounds (with the first key), on data taken as already sliced.
    Rounds,
    /// The decryption rounds, likewise.
    DecryptionRounds,
    /// Slicing the blocks and unslicing them, with no rounds between.
    Transposition,
}

impl<V: Variant> Ublock<V> {
    fn run_ecb(&self, buf: &mut [u8], decrypt: bool) {
        if self.kernels.ecb(self, buf, decrypt).done() {
        } else if decrypt {
            soft::decrypt_blocks::<V>(self.rk(), buf);
        } else {
            soft::encrypt_blocks::<V>(self.rk(), buf);
        }
    }

    fn run_ctr(&self, counter: &mut [u8], buf: &mut [u8]) {
        if !self.kernels.ctr(self, counter, buf).done() {
            modes::ctr_apply_batched(self, counter, buf);
        }
    }

    fn run_cbc_decrypt(&self, iv: &mut [u8], buf: &mut [u8]) {
        if !self.kernels.cbc_decrypt(self, iv, buf).done() {
            modes::cbc_decrypt_batched(self, iv, buf);
        }
    }
}

/// GCM over the two variants with 16-byte blocks. uBlock's CTR of one more block costs more
/// than its single block, so neither fuses the tag mask into the text's CTR call.
macro_rules! gcm_cipher {
    ($($v:ident = $name:literal),*) => {$(
        impl crate::modes::gcm::private::Sealed for Ublock<$v> {}
        impl crate::modes::GcmCipher for Ublock<$v> {
            const NAME: &'static str = $name;
            fn gcm_keyed(key: &[u8], backend: Option<Backend>) -> Result<Self, Error> {
                match backend {
                    Some(b) => Self::with_backend(key, b),
                    None => Self::from_key(key),
                }
            }
        }
    )*};
}
gcm_cipher!(V128_128 = "ublock-128-128", V128_256 = "ublock-128-256");

impl<V: Variant> BlockKernel for Ublock<V> {
    const BLOCK: usize = V::BLOCK;

    fn kernel_backend(&self) -> Backend {
        self.backend
    }

    fn kernel_encrypt(&self, buf: &mut [u8]) {
        self.run_ecb(buf, false);
    }

    fn kernel_decrypt(&self, buf: &mut [u8]) {
        self.run_ecb(buf, true);
    }

    fn kernel_ctr(&self, counter: &mut [u8], buf: &mut [u8]) {
        self.run_ctr(counter, buf);
    }

    fn kernel_cbc_encrypt(&self, iv: &mut [u8], buf: &mut [u8]) {
        if !self.kernels.cbc_encrypt(self, iv, buf).done() {
            for block in buf.chunks_exact_mut(V::BLOCK) {
                modes::xor_in_place(block, iv);
                soft::encrypt_blocks::<V>(self.rk(), block);
                iv.copy_from_slice(block);
            }
        }
    }

    fn kernel_cbc_decrypt(&self, iv: &mut [u8], buf: &mut [u8]) {
        self.run_cbc_decrypt(iv, buf);
    }

    fn kernel_encrypt_multi(keys: &[&Self], bufs: &mut [&mut [u8]]) {
        if !native::Native::streams(keys, StreamsMode::EcbEncrypt, &mut [], bufs).done() {
            for (k, b) in keys.iter().zip(bufs.iter_mut()) {
                k.kernel_encrypt(b);
            }
        }
    }

    fn kernel_decrypt_multi(keys: &[&Self], bufs: &mut [&mut [u8]]) {
        if !native::Native::streams(keys, StreamsMode::EcbDecrypt, &mut [], bufs).done() {
            for (k, b) in keys.iter().zip(bufs.iter_mut()) {
                k.kernel_decrypt(b);
            }
        }
    }

    fn kernel_cbc_decrypt_multi(keys: &[&Self], ivs: &mut [&mut [u8]], bufs: &mut [&mut [u8]]) {
        if !native::Native::streams(keys, StreamsMode::CbcDecrypt, ivs, bufs).done() {
            for ((k, iv), b) in keys.iter().zip(ivs.iter_mut()).zip(bufs.iter_mut()) {
                k.kernel_cbc_decrypt(iv, b);
            }
        }
    }

    fn kernel_cbc_encrypt_multi(keys: &[&Self], ivs: &mut [&mut [u8]], bufs: &mut [&mut [u8]]) {
        if !native::Native::cbc_encrypt_streams(keys, ivs, bufs).done() {
            for ((k, iv), b) in keys.iter().zip(ivs.iter_mut()).zip(bufs.iter_mut()) {
                k.kernel_cbc_encrypt(iv, b);
            }
        }
    }
}

// The registry shares ciphers between threads: with `std`, whose caches are `Sync`.
#[cfg(feature = "std")]
impl<V: Variant> NamedCipher for Ublock<V> {
    const NAME: &'static str = V::NAME;
    const KEY_LEN: usize = V::KEY;

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

impl<V: Variant> Drop for Ublock<V> {
    fn drop(&mut self) {
        crate::wipe::value(&mut self.key);
    }
}

impl<V: Variant> ZeroizeOnDrop for Ublock<V> {}

impl<V: Variant> fmt::Debug for Ublock<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {{ backend: {}, .. }}", V::NAME, self.backend)
    }
}

impl<V: Variant> AlgorithmName for Ublock<V> {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(V::NAME)
    }
}

impl<V: Variant> KeySizeUser for Ublock<V> {
    type KeySize = V::KeySize;
}

impl<V: Variant> BlockSizeUser for Ublock<V> {
    type BlockSize = V::BlockSize;
}

impl<V: Variant> KeyInit for Ublock<V> {
    fn new(key: &Key<Self>) -> Self {
        Self::keyed_unchecked(key, cpu::choose(CANDIDATES))
    }
}

// 512 blocks per call: one batch of the full-slice kernel on 512-bit registers, two on
// 256-bit ones; shorter tails still go to the kernel in one call.
impl<V: Variant> BlockCipherEncrypt for Ublock<V> {
    fn encrypt_with_backend(&self, f: impl BlockCipherEncClosure<BlockSize = Self::BlockSize>) {
        f.call(&KernelBackend::<_, cipher::consts::U512>::new(self));
    }
}

impl<V: Variant> BlockCipherDecrypt for Ublock<V> {
    fn decrypt_with_backend(&self, f: impl BlockCipherDecClosure<BlockSize = Self::BlockSize>) {
        f.call(&KernelBackend::<_, cipher::consts::U512>::new(self));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Round keys from the design document (ISCAS, 2019), for its example keys, on every
    /// backend this CPU runs.
    fn check<V: Variant>(key: &str, expected: &[(usize, &str)]) {
        let key = hex::decode(key).unwrap();
        for backend in Ublock::<V>::backends() {
            let c = Ublock::<V>::with_backend(&key, backend).unwrap();
            for (i, rk) in expected {
                assert_eq!(
                    hex::encode(c.round_key(*i).unwrap()),
                    *rk,
                    "{backend} RK{i}"
                );
            }
            assert!(c.round_key(V::ROUNDS + 1).is_none());
        }
    }

    #[test]
    fn round_keys_of_the_design_document() {
        check::<V128_128>(
            "0123456789abcdeffedcba9876543210",
            &[
                (0, "0123456789abcdeffedcba9876543210"),
                (1, "a1a88760f7e064ff49c2b37e608d1f5a"),
                (2, "a885d1785e4a1c57876a080f6af41f7e"),
                (16, "a5185fd1321d32ebc2a1c25b2e1c279c"),
            ],
        );
        check::<V128_256>(
            "0123456789abcdeffedcba9876543210000102030405060708090a0b0c0d0e0f",
            &[
                (1, "c38120a429b54a69e4a16e2bd396591c"),
                (24, "6270fb691e63aafddfcf87f97f644b5d"),
            ],
        );
        check::<V256_256>(
            "0123456789abcdeffedcba9876543210000102030405060708090a0b0c0d0e0f",
            &[(
                1,
                "c38120a446b5e0cae4a16e2bd396591c76543210fedcba98a5f0278d1e4c9b36",
            )],
        );
    }
}
