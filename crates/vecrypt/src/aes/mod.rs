//! AES-128, AES-192 and AES-256 (FIPS 197) with AES-NI and VAES kernels for every mode.
//!
//! Backends, best first: `vaes512` (four blocks per zmm register), `vaes256` (two per ymm),
//! `aesni` (xmm, eight blocks interleaved) and `soft` (portable, table-free, constant time:
//! the S-box is computed by inversion in GF(2^8) on bit planes). Each public call picks its
//! kernel once and runs the whole loop inside it.
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

#[allow(unsafe_code)]
mod aesni;
mod cmac;
mod feedback;
mod gcm;
mod ghash;
mod key_schedule;
mod soft;
#[allow(unsafe_code)]
mod vaes;
mod xts;

pub(crate) use aesni::Chain;
pub use cmac::AesCmac;
pub(crate) use feedback::cfb_decrypt_with;
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
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::Error;
use crate::cpu::{self, Backend, Candidate, kernels};
use crate::modes::NamedCipher;
use crate::modes::{BlockKernel, KernelBackend};

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

/// Encryption round keys and the round keys of the equivalent inverse cipher.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct RoundKeys {
    pub(crate) enc: [[u8; 16]; 15],
    pub(crate) dec: [[u8; 16]; 15],
    pub(crate) rounds: usize,
}

/// Which low part of the counter block a CTR kernel adds in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum CounterWidth {
    /// The last 32 bits, wrapping on their own (GCM, SP 800-38D `inc32`).
    Low32,
    /// The last 64 bits; the caller splits the data so that they never carry further.
    Low64,
}

/// The backends of AES, best first.
const CANDIDATES: &[Candidate] = &[
    Candidate::new(Backend::Vaes512, &[kernels::AES_VAES512, kernels::AES_NI]),
    Candidate::new(Backend::Vaes256, &[kernels::AES_VAES256, kernels::AES_NI]),
    Candidate::new(Backend::AesNi, &[kernels::AES_NI]),
    Candidate::portable(Backend::Soft),
];

/// A keyed AES cipher. The round keys are zeroized on drop.
#[derive(Clone)]
pub struct Aes<K: KeySize> {
    rk: RoundKeys,
    backend: Backend,
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
    pub fn backends() -> Vec<Backend> {
        cpu::available(CANDIDATES)
    }

    fn keyed_on(key: &[u8], backend: Backend) -> Result<Self, Error> {
        if key.len() != K::KEY {
            return Err(Error::KeyLength {
                expected: K::KEY,
                got: key.len(),
            });
        }
        Ok(Self {
            rk: key_schedule::expand(key, K::ROUNDS),
            backend,
            _size: PhantomData,
        })
    }

    /// CTR with a 32-bit counter (SP 800-38D `inc32`): only the last four bytes of the
    /// counter block count, big-endian, wrapping without carry into the rest. Any length.
    pub fn apply_ctr32(&self, iv: &[u8], buf: &mut [u8]) -> Result<(), Error> {
        let mut counter = block16(iv)?;
        self.ctr(CounterWidth::Low32, &mut counter, buf);
        Ok(())
    }

    /// Encrypts whole blocks in place on this key's backend.
    pub(crate) fn ecb_encrypt(&self, buf: &mut [u8]) {
        match self.backend {
            Backend::Vaes512 => vaes::zmm::encrypt(&self.rk, buf),
            Backend::Vaes256 => vaes::ymm::encrypt(&self.rk, buf),
            Backend::AesNi => aesni::encrypt(&self.rk, buf),
            _ => soft::encrypt_blocks(&self.rk, buf),
        }
    }

    pub(crate) fn ecb_decrypt(&self, buf: &mut [u8]) {
        match self.backend {
            Backend::Vaes512 => vaes::zmm::decrypt(&self.rk, buf),
            Backend::Vaes256 => vaes::ymm::decrypt(&self.rk, buf),
            Backend::AesNi => aesni::decrypt(&self.rk, buf),
            _ => soft::decrypt_blocks(&self.rk, buf),
        }
    }

    fn ctr_whole(&self, width: CounterWidth, counter: &[u8; 16], buf: &mut [u8]) {
        match self.backend {
            Backend::Vaes512 => vaes::zmm::ctr_blocks(&self.rk, width, counter, buf),
            Backend::Vaes256 => vaes::ymm::ctr_blocks(&self.rk, width, counter, buf),
            Backend::AesNi => aesni::ctr_blocks(&self.rk, width, counter, buf),
            _ => ctr_blocks_with(&self.rk, width, counter, buf, soft::encrypt_blocks),
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
            crate::modes::xor_in_place(tail, &ks);
            ks.zeroize();
            advance(width, counter, 1);
        }
    }

    /// A chained mode over whole blocks on this key's backend.
    pub(crate) fn chain(&self, mode: Chain, iv: &mut [u8; 16], buf: &mut [u8]) {
        match self.backend {
            Backend::Soft => chain_with(&self.rk, mode, iv, buf, soft::encrypt_blocks),
            _ => aesni::chain(&self.rk, mode, iv, buf),
        }
    }

    pub(crate) fn cbc_encrypt(&self, iv: &mut [u8; 16], buf: &mut [u8]) {
        match self.backend {
            Backend::Vaes512 | Backend::Vaes256 | Backend::AesNi => {
                aesni::encrypt_cbc(&self.rk, iv, buf)
            }
            _ => cbc_encrypt_with(&self.rk, iv, buf, soft::encrypt_blocks),
        }
    }

    pub(crate) fn cbc_decrypt(&self, iv: &mut [u8; 16], buf: &mut [u8]) {
        match self.backend {
            Backend::Vaes512 => vaes::zmm::decrypt_cbc(&self.rk, iv, buf),
            Backend::Vaes256 => vaes::ymm::decrypt_cbc(&self.rk, iv, buf),
            Backend::AesNi => aesni::decrypt_cbc(&self.rk, iv, buf),
            _ => cbc_decrypt_with(&self.rk, iv, buf, soft::decrypt_blocks),
        }
    }
}

/// Adds `n` to the counter block in the part `width` names.
fn advance(width: CounterWidth, counter: &mut [u8; 16], n: u128) {
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

/// Blocks per batch when a mode is built on a whole-buffer ECB function.
const BATCH: usize = 32;

/// CTR over whole blocks from an ECB function: batches of counter blocks, encrypted at once.
pub(crate) fn ctr_blocks_with(
    rk: &RoundKeys,
    width: CounterWidth,
    counter: &[u8; 16],
    buf: &mut [u8],
    ecb: fn(&RoundKeys, &mut [u8]),
) {
    let mut c = *counter;
    let mut ks = [0u8; 16 * BATCH];
    for chunk in buf.chunks_mut(16 * BATCH) {
        let ks = &mut ks[..chunk.len()];
        for block in ks.chunks_exact_mut(16) {
            block.copy_from_slice(&c);
            advance(width, &mut c, 1);
        }
        ecb(rk, ks);
        crate::modes::xor_in_place(chunk, ks);
    }
    ks.zeroize();
}

pub(crate) fn cbc_encrypt_with(
    rk: &RoundKeys,
    iv: &mut [u8; 16],
    buf: &mut [u8],
    ecb: fn(&RoundKeys, &mut [u8]),
) {
    for block in buf.chunks_exact_mut(16) {
        crate::modes::xor_in_place(block, iv);
        ecb(rk, block);
        iv.copy_from_slice(block);
    }
}

pub(crate) fn cbc_decrypt_with(
    rk: &RoundKeys,
    iv: &mut [u8; 16],
    buf: &mut [u8],
    ecb: fn(&RoundKeys, &mut [u8]),
) {
    let mut saved = [0u8; 16 * BATCH];
    for chunk in buf.chunks_mut(16 * BATCH) {
        let saved = &mut saved[..chunk.len()];
        saved.copy_from_slice(chunk);
        ecb(rk, chunk);
        crate::modes::xor_in_place(&mut chunk[..16], iv);
        crate::modes::xor_in_place(&mut chunk[16..], &saved[..saved.len() - 16]);
        iv.copy_from_slice(&saved[saved.len() - 16..]);
    }
}

/// A chained mode over whole blocks from a one-block ECB function.
pub(crate) fn chain_with(
    rk: &RoundKeys,
    mode: Chain,
    iv: &mut [u8; 16],
    buf: &mut [u8],
    ecb: fn(&RoundKeys, &mut [u8]),
) {
    for block in buf.chunks_exact_mut(16) {
        let mut b = *iv;
        if mode == Chain::CbcMac {
            crate::modes::xor_in_place(&mut b, block);
        }
        ecb(rk, &mut b);
        match mode {
            Chain::CfbEncrypt => {
                crate::modes::xor_in_place(block, &b);
                iv.copy_from_slice(block);
            }
            Chain::Ofb => {
                crate::modes::xor_in_place(block, &b);
                *iv = b;
            }
            Chain::CbcMac => *iv = b,
        }
    }
}

/// CTR on the portable backend, shaped like the SIMD kernels.
pub(crate) fn soft_ctr_blocks(
    rk: &RoundKeys,
    width: CounterWidth,
    counter: &[u8; 16],
    buf: &mut [u8],
) {
    ctr_blocks_with(rk, width, counter, buf, soft::encrypt_blocks);
}

/// GHASH on the portable backend, shaped like the carry-less kernels.
pub(crate) fn soft_ghash(
    h: &[u8; 16],
    _powers: &[[u8; 16]; ghash::POWERS],
    acc: &mut [u8; 16],
    data: &[u8],
) {
    ghash::update(h, acc, data);
}

type CtrFn = fn(&RoundKeys, CounterWidth, &[u8; 16], &mut [u8]);
type GhashFn = fn(&[u8; 16], &[[u8; 16]; ghash::POWERS], &mut [u8; 16], &[u8]);

/// GCM over whole blocks in two passes (CTR, then GHASH of the ciphertext), a few KiB at a
/// time so that the second pass reads from cache.
#[allow(clippy::too_many_arguments)]
pub(crate) fn gcm_blocks_with(
    rk: &RoundKeys,
    h: &[u8; 16],
    powers: &[[u8; 16]; ghash::POWERS],
    decrypt: bool,
    counter: &[u8; 16],
    acc: &mut [u8; 16],
    buf: &mut [u8],
    ctr: CtrFn,
    ghash: GhashFn,
) {
    let mut c = *counter;
    for chunk in buf.chunks_mut(16 * 256) {
        if decrypt {
            ghash(h, powers, acc, chunk);
            ctr(rk, CounterWidth::Low32, &c, chunk);
        } else {
            ctr(rk, CounterWidth::Low32, &c, chunk);
            ghash(h, powers, acc, chunk);
        }
        advance(CounterWidth::Low32, &mut c, (chunk.len() / 16) as u128);
    }
}

/// CBC encryption of several streams: runs of streams are interleaved, each run for as many
/// blocks as its shortest stream has left, until every stream is done.
fn cbc_encrypt_streams<K: KeySize>(keys: &[&Aes<K>], ivs: &mut [[u8; 16]], bufs: &mut [&mut [u8]]) {
    let backend = keys.first().map_or(Backend::Soft, |k| k.backend);
    if keys.iter().any(|k| k.backend != backend) || backend == Backend::Soft {
        for ((k, iv), buf) in keys.iter().zip(ivs.iter_mut()).zip(bufs.iter_mut()) {
            k.cbc_encrypt(iv, buf);
        }
        return;
    }
    let mut done = vec![0usize; keys.len()];
    loop {
        let active: Vec<usize> = (0..keys.len())
            .filter(|&i| done[i] < bufs[i].len() / 16)
            .collect();
        if active.is_empty() {
            return;
        }
        let (lanes, max) = match backend {
            Backend::Vaes512 => (4, vaes::zmm::MAX_STREAMS),
            Backend::Vaes256 => (2, vaes::ymm::MAX_STREAMS),
            _ => (1, aesni::MAX_STREAMS),
        };
        let mut take = active.len().min(max);
        let wide = take >= lanes && lanes > 1;
        if wide {
            take -= take % lanes;
        } else {
            take = take.min(aesni::MAX_STREAMS);
        }
        let group = &active[..take];
        let blocks = group
            .iter()
            .map(|&i| bufs[i].len() / 16 - done[i])
            .min()
            .unwrap_or(0);
        let rks: Vec<&RoundKeys> = group.iter().map(|&i| &keys[i].rk).collect();
        let mut chains: Vec<[u8; 16]> = group.iter().map(|&i| ivs[i]).collect();
        let mut parts: Vec<&mut [u8]> = bufs
            .iter_mut()
            .enumerate()
            .filter(|(i, _)| group.contains(i))
            .map(|(i, b)| &mut b[16 * done[i]..16 * (done[i] + blocks)])
            .collect();
        let ran = wide
            && match backend {
                Backend::Vaes512 => {
                    vaes::zmm::encrypt_cbc_streams(&rks, &mut chains, &mut parts, blocks)
                }
                _ => vaes::ymm::encrypt_cbc_streams(&rks, &mut chains, &mut parts, blocks),
            };
        if !ran {
            aesni::encrypt_cbc_streams(&rks, &mut chains, &mut parts, blocks);
        }
        for (slot, &i) in group.iter().enumerate() {
            ivs[i] = chains[slot];
            done[i] += blocks;
        }
    }
}

impl<K: KeySize> BlockKernel for Aes<K> {
    const BLOCK: usize = 16;

    fn backend(&self) -> Backend {
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
        let mut c = block16(iv).unwrap_or([0; 16]);
        self.cbc_encrypt(&mut c, buf);
        iv.copy_from_slice(&c);
    }

    fn kernel_cbc_decrypt(&self, iv: &mut [u8], buf: &mut [u8]) {
        let mut c = block16(iv).unwrap_or([0; 16]);
        self.cbc_decrypt(&mut c, buf);
        iv.copy_from_slice(&c);
    }

    fn kernel_cbc_encrypt_multi(keys: &[&Self], ivs: &mut [&mut [u8]], bufs: &mut [&mut [u8]]) {
        let mut chains: Vec<[u8; 16]> = ivs
            .iter()
            .map(|iv| block16(iv).unwrap_or([0; 16]))
            .collect();
        cbc_encrypt_streams(keys, &mut chains, bufs);
        for (iv, c) in ivs.iter_mut().zip(&chains) {
            iv.copy_from_slice(c);
        }
    }
}

impl<K: KeySize> NamedCipher for Aes<K> {
    const NAME: &'static str = K::NAME;
    const KEY_LEN: usize = K::KEY;

    fn backends() -> Vec<Backend> {
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
        Self {
            rk: key_schedule::expand(key, K::ROUNDS),
            backend: cpu::choose(CANDIDATES),
            _size: PhantomData,
        }
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
