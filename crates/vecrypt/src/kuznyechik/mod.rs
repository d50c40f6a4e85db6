//! Kuznyechik, the 128-bit block cipher of GOST R 34.12-2015 (RFC 7801), with the modes of
//! GOST R 34.13-2015, the MGM AEAD (RFC 9058) and ACPKM re-keying (R 1323565.1.017-2018).
//!
//! Backends, best first: `avx512` (byte-sliced, 64 blocks at once: the S-box by VPERMI2B
//! on the 256-byte table, L as sixteen R steps whose constant multiplications are
//! GF2P8AFFINEQB, with the palindromic coefficients folded), `avx2` (byte-sliced, 32 blocks,
//! S-box and multiplications by byte shuffles), and `soft` (portable). All three are constant
//! time. `table-leaky` is the classic table-driven construction, kept only for comparison and
//! never chosen automatically.
//!
//! Through [`BlockModes`](crate::modes::BlockModes) and the registry, CTR is the whole-block
//! big-endian counter the crate uses for every cipher: an IV of one block. GOST R 34.13 CTR
//! takes a half-block IV and starts at `IV || 0^64`, which is the same counter; it is
//! offered with its own parameters by [`gost::Ctr`] and by the CLI when given an 8-byte IV.
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

#[cfg(target_arch = "x86_64")]
mod avx512;
pub(crate) mod consts;
mod soft;
mod table_leaky;

use core::fmt;

use cipher::consts::{U16, U32};
use cipher::{
    AlgorithmName, BlockCipherDecClosure, BlockCipherDecrypt, BlockCipherEncClosure,
    BlockCipherEncrypt, BlockSizeUser, Key, KeyInit, KeySizeUser,
};
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::Error;
use crate::cpu::{self, Backend, Candidate};
use crate::modes::{BlockKernel, KernelBackend};
use crate::registry::NamedCipher;

/// Block length in bytes.
pub const BLOCK: usize = 16;
/// Key length in bytes.
pub const KEY: usize = 32;

/// The ten round keys K_1..K_10, in memory order.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct RoundKeys(pub(crate) [[u8; 16]; 10]);

impl RoundKeys {
    /// The key schedule of GOST R 34.12-2015: eight Feistel rounds per pair of round keys,
    /// through the constant-time S and L.
    fn expand(key: &[u8; KEY]) -> Self {
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
        a1.zeroize();
        a0.zeroize();
        RoundKeys(rk)
    }
}

/// The backends of Kuznyechik, best first.
const CANDIDATES: &[Candidate] = &[
    #[cfg(target_arch = "x86_64")]
    (Backend::Avx512, avx512::available),
    (Backend::TableLeaky, |_| true),
    (Backend::Soft, |_| true),
];

/// A keyed Kuznyechik cipher. The round keys are zeroized on drop.
#[derive(Clone)]
pub struct Kuznyechik {
    rk: RoundKeys,
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
    pub fn backends() -> Vec<Backend> {
        cpu::available(CANDIDATES)
    }

    fn keyed_on(key: &[u8], backend: Backend) -> Result<Self, Error> {
        let key: &[u8; KEY] = key.try_into().map_err(|_| Error::KeyLength {
            expected: KEY,
            got: key.len(),
        })?;
        Ok(Self {
            rk: RoundKeys::expand(key),
            backend,
        })
    }

    /// Round key K_i for i in 1..=10, for known-answer tests of the key schedule.
    pub fn round_key(&self, i: usize) -> Option<&[u8; 16]> {
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

impl BlockKernel for Kuznyechik {
    const BLOCK: usize = BLOCK;

    fn backend(&self) -> Backend {
        self.backend
    }

    fn kernel_encrypt(&self, buf: &mut [u8]) {
        let done = match self.backend {
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => avx512::encrypt_blocks(&self.rk, buf),
            Backend::TableLeaky => {
                table_leaky::encrypt_blocks(&self.rk, buf);
                true
            }
            _ => false,
        };
        if !done {
            soft::encrypt_blocks(&self.rk, buf);
        }
    }

    fn kernel_decrypt(&self, buf: &mut [u8]) {
        let done = match self.backend {
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => avx512::decrypt_blocks(&self.rk, buf),
            Backend::TableLeaky => {
                table_leaky::decrypt_blocks(&self.rk, buf);
                true
            }
            _ => false,
        };
        if !done {
            soft::decrypt_blocks(&self.rk, buf);
        }
    }

    fn kernel_ctr(&self, counter: &mut [u8], buf: &mut [u8]) {
        #[cfg(target_arch = "x86_64")]
        if self.backend == Backend::Avx512
            && let Ok(c) = <&mut [u8; BLOCK]>::try_from(&mut *counter)
            && avx512::ctr(&self.rk, c, buf)
        {
            return;
        }
        crate::modes::ctr_apply_batched(self, counter, buf);
    }
}

impl NamedCipher for Kuznyechik {
    const NAME: &'static str = "kuznyechik";
    const KEY_LEN: usize = KEY;

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
        Self {
            rk: RoundKeys::expand(key),
            backend: cpu::choose(CANDIDATES),
        }
    }
}

impl BlockCipherEncrypt for Kuznyechik {
    fn encrypt_with_backend(&self, f: impl BlockCipherEncClosure<BlockSize = Self::BlockSize>) {
        f.call(&KernelBackend::<_, cipher::consts::U64>::new(self));
    }
}

impl BlockCipherDecrypt for Kuznyechik {
    fn decrypt_with_backend(&self, f: impl BlockCipherDecClosure<BlockSize = Self::BlockSize>) {
        f.call(&KernelBackend::<_, cipher::consts::U64>::new(self));
    }
}
