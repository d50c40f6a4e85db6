//! Every block cipher of the crate by name, behind one object-safe interface, so that the
//! CLI and the speed table treat them alike. Adding a cipher means one line in [`ciphers`].

use crate::Error;
use crate::cpu::Backend;
pub use crate::modes::NamedCipher;
use crate::modes::{BlockKernel, BlockModes, MultiKey};

/// One keyed cipher, any algorithm.
pub trait DynCipher: Send + Sync {
    fn backend(&self) -> Backend;
    fn block_len(&self) -> usize;
    fn encrypt_ecb(&self, buf: &mut [u8]) -> Result<(), Error>;
    fn decrypt_ecb(&self, buf: &mut [u8]) -> Result<(), Error>;
    fn encrypt_cbc(&self, iv: &[u8], buf: &mut [u8]) -> Result<(), Error>;
    fn decrypt_cbc(&self, iv: &[u8], buf: &mut [u8]) -> Result<(), Error>;
    fn apply_ctr(&self, iv: &[u8], buf: &mut [u8]) -> Result<(), Error>;
}

impl<T: NamedCipher> DynCipher for T {
    fn backend(&self) -> Backend {
        BlockKernel::kernel_backend(self)
    }
    fn block_len(&self) -> usize {
        T::BLOCK
    }
    fn encrypt_ecb(&self, buf: &mut [u8]) -> Result<(), Error> {
        BlockModes::encrypt_ecb(self, buf)
    }
    fn decrypt_ecb(&self, buf: &mut [u8]) -> Result<(), Error> {
        BlockModes::decrypt_ecb(self, buf)
    }
    fn encrypt_cbc(&self, iv: &[u8], buf: &mut [u8]) -> Result<(), Error> {
        BlockModes::encrypt_cbc(self, iv, buf)
    }
    fn decrypt_cbc(&self, iv: &[u8], buf: &mut [u8]) -> Result<(), Error> {
        BlockModes::decrypt_cbc(self, iv, buf)
    }
    fn apply_ctr(&self, iv: &[u8], buf: &mut [u8]) -> Result<(), Error> {
        BlockModes::apply_ctr(self, iv, buf)
    }
}

/// Several keys of one algorithm used together, any algorithm.
pub trait DynMulti: Send + Sync {
    fn encrypt_ecb(&self, bufs: &mut [&mut [u8]]) -> Result<(), Error>;
    fn decrypt_ecb(&self, bufs: &mut [&mut [u8]]) -> Result<(), Error>;
    fn encrypt_cbc(&self, ivs: &[&[u8]], bufs: &mut [&mut [u8]]) -> Result<(), Error>;
    fn decrypt_cbc(&self, ivs: &[&[u8]], bufs: &mut [&mut [u8]]) -> Result<(), Error>;
}

impl<T: NamedCipher> DynMulti for MultiKey<T> {
    fn encrypt_ecb(&self, bufs: &mut [&mut [u8]]) -> Result<(), Error> {
        MultiKey::encrypt_ecb(self, bufs)
    }
    fn decrypt_ecb(&self, bufs: &mut [&mut [u8]]) -> Result<(), Error> {
        MultiKey::decrypt_ecb(self, bufs)
    }
    fn encrypt_cbc(&self, ivs: &[&[u8]], bufs: &mut [&mut [u8]]) -> Result<(), Error> {
        MultiKey::encrypt_cbc(self, ivs, bufs)
    }
    fn decrypt_cbc(&self, ivs: &[&[u8]], bufs: &mut [&mut [u8]]) -> Result<(), Error> {
        MultiKey::decrypt_cbc(self, ivs, bufs)
    }
}

/// Keys one cipher of an entry, on a given backend or the automatic choice.
pub type NewCipher = fn(&[u8], Option<Backend>) -> Result<Box<dyn DynCipher>, Error>;
/// Keys several ciphers of an entry on one backend.
pub type NewMulti = fn(&[&[u8]], Option<Backend>) -> Result<Box<dyn DynMulti>, Error>;

/// A cipher's entry in the registry.
#[derive(Copy, Clone)]
pub struct CipherInfo {
    pub name: &'static str,
    pub block_len: usize,
    pub key_len: usize,
    /// The backends this CPU can run, best first.
    pub backends: fn() -> Vec<Backend>,
    /// Keys one cipher.
    pub new: NewCipher,
    /// Keys several ciphers on one backend, for the multi-key API.
    pub new_multi: NewMulti,
}

impl CipherInfo {
    /// The entry of `T`.
    pub fn of<T: NamedCipher>() -> Self {
        CipherInfo {
            name: T::NAME,
            block_len: T::BLOCK,
            key_len: T::KEY_LEN,
            backends: T::backends,
            new: |key, backend| Ok(Box::new(T::keyed(key, backend)?)),
            new_multi: |keys, backend| {
                let set = MultiKey::<T>::from_keys(keys, |k| T::keyed(k, backend))?;
                Ok(Box::new(set))
            },
        }
    }
}

/// Every block cipher of the crate.
pub fn ciphers() -> Vec<CipherInfo> {
    use crate::aes::*;
    use crate::ublock::*;
    vec![
        CipherInfo::of::<Ublock128_128>(),
        CipherInfo::of::<Ublock128_256>(),
        CipherInfo::of::<Ublock256_256>(),
        CipherInfo::of::<crate::kuznyechik::Kuznyechik>(),
        CipherInfo::of::<Aes128>(),
        CipherInfo::of::<Aes192>(),
        CipherInfo::of::<Aes256>(),
    ]
}

/// The cipher called `name` (case-insensitive).
pub fn cipher(name: &str) -> Result<CipherInfo, Error> {
    ciphers()
        .into_iter()
        .find(|c| c.name.eq_ignore_ascii_case(name))
        .ok_or(Error::UnknownAlgorithm)
}
