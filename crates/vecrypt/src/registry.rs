//! Every block cipher and every AEAD of the crate by name, each behind one object-safe
//! interface, so that the CLI, the speed table and the C, OpenSSL and Python bindings treat
//! them alike. Adding a cipher means one line in [`ciphers`], an AEAD one in [`aeads`].

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

/// One keyed AEAD, any algorithm: [`AesGcm`](crate::aes::AesGcm),
/// [`Gcm`](crate::modes::Gcm) over Kuznyechik or uBlock-128, and
/// [`KuznyechikMgm`](crate::kuznyechik::KuznyechikMgm). Tags are 16 bytes; nonces and
/// shortened tags as [`AeadInfo`] says.
pub trait DynAead: Send + Sync {
    /// The backend of the underlying cipher.
    fn backend(&self) -> Backend;
    /// Encrypts `buf` in place and returns the 16-byte tag.
    fn encrypt_detached(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8]) -> Result<[u8; 16], Error>;
    /// Checks `tag` in constant time and only then decrypts `buf` in place; on any failure
    /// `buf` is left as it was.
    fn decrypt_detached(
        &self,
        nonce: &[u8],
        ad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error>;

    /// Starts a message to be given in pieces (see [`AeadStream`](crate::modes::AeadStream):
    /// its decryption releases plaintext before the tag is checked).
    #[cfg(feature = "release-unverified")]
    fn start(&self, nonce: &[u8], decrypt: bool) -> Result<crate::modes::AeadStream, Error>;
    /// Associated data, before any text.
    #[cfg(feature = "release-unverified")]
    fn update_aad(&self, s: &mut crate::modes::AeadStream, ad: &[u8]) -> Result<(), Error>;
    /// Encrypts or decrypts the next piece of text in place.
    #[cfg(feature = "release-unverified")]
    fn update(&self, s: &mut crate::modes::AeadStream, buf: &mut [u8]) -> Result<(), Error>;
    /// Ends an encryption: the full 16-byte tag.
    #[cfg(feature = "release-unverified")]
    fn finish(&self, s: &mut crate::modes::AeadStream) -> Result<[u8; 16], Error>;
    /// Ends a decryption: checks `tag` in constant time.
    #[cfg(feature = "release-unverified")]
    fn verify(&self, s: &mut crate::modes::AeadStream, tag: &[u8]) -> Result<(), Error>;
}

macro_rules! dyn_aead {
    ($(impl[$($g:tt)*] $ty:ty;)*) => {$(
        impl<$($g)*> DynAead for $ty {
            fn backend(&self) -> Backend {
                <$ty>::backend(self)
            }
            fn encrypt_detached(
                &self,
                nonce: &[u8],
                ad: &[u8],
                buf: &mut [u8],
            ) -> Result<[u8; 16], Error> {
                <$ty>::encrypt_detached(self, nonce, ad, buf)
            }
            fn decrypt_detached(
                &self,
                nonce: &[u8],
                ad: &[u8],
                buf: &mut [u8],
                tag: &[u8],
            ) -> Result<(), Error> {
                <$ty>::decrypt_detached(self, nonce, ad, buf, tag)
            }
            #[cfg(feature = "release-unverified")]
            fn start(
                &self,
                nonce: &[u8],
                decrypt: bool,
            ) -> Result<crate::modes::AeadStream, Error> {
                crate::modes::AeadStream::start(self, nonce, decrypt)
            }
            #[cfg(feature = "release-unverified")]
            fn update_aad(
                &self,
                s: &mut crate::modes::AeadStream,
                ad: &[u8],
            ) -> Result<(), Error> {
                s.update_aad(self, ad)
            }
            #[cfg(feature = "release-unverified")]
            fn update(
                &self,
                s: &mut crate::modes::AeadStream,
                buf: &mut [u8],
            ) -> Result<(), Error> {
                s.update(self, buf)
            }
            #[cfg(feature = "release-unverified")]
            fn finish(&self, s: &mut crate::modes::AeadStream) -> Result<[u8; 16], Error> {
                s.finish(self)
            }
            #[cfg(feature = "release-unverified")]
            fn verify(&self, s: &mut crate::modes::AeadStream, tag: &[u8]) -> Result<(), Error> {
                s.verify(self, tag)
            }
        }
    )*};
}

dyn_aead! {
    impl[K: crate::aes::KeySize] crate::aes::AesGcm<K>;
    impl[C: crate::modes::GcmCipher + Send + Sync] crate::modes::Gcm<C>;
    impl[] crate::kuznyechik::KuznyechikMgm;
}

/// Keys an AEAD of an entry, on a given backend or the automatic choice.
pub type NewAead = fn(&[u8], Option<Backend>) -> Result<Box<dyn DynAead>, Error>;

/// An AEAD's entry in the registry.
#[derive(Copy, Clone)]
pub struct AeadInfo {
    /// Its name, as in `aes-256-gcm` or `kuznyechik-mgm`.
    pub name: &'static str,
    pub key_len: usize,
    /// The nonce length to use: 12 for GCM (which also takes any other length from one
    /// byte), 16 for MGM (its only one, with the top bit clear).
    pub nonce_len: usize,
    /// Whether nonces of other lengths than `nonce_len` are accepted (GCM's).
    pub any_nonce_len: bool,
    /// The shortest tag `decrypt_detached` accepts (12 for GCM, 4 for MGM); every tag made
    /// is 16 bytes.
    pub min_tag_len: usize,
    /// The backends this CPU can run, best first.
    pub backends: fn() -> Vec<Backend>,
    /// Keys one AEAD.
    pub new: NewAead,
}

/// Every AEAD of the crate.
pub fn aeads() -> Vec<AeadInfo> {
    use crate::aes::{Aes128, Aes128Gcm, Aes192, Aes192Gcm, Aes256, Aes256Gcm};
    use crate::kuznyechik::{Kuznyechik, KuznyechikGcm, KuznyechikMgm};
    use crate::ublock::{Ublock128_128, Ublock128_256, Ublock128_256Gcm, Ublock128Gcm};
    macro_rules! gcm {
        ($name:literal, $key:literal, $aead:ty, $cipher:ty) => {
            AeadInfo {
                name: $name,
                key_len: $key,
                nonce_len: 12,
                any_nonce_len: true,
                min_tag_len: 12,
                backends: <$cipher>::backends,
                new: |key, backend| {
                    Ok(Box::new(match backend {
                        Some(b) => <$aead>::with_backend(key, b)?,
                        None => <$aead>::from_key(key)?,
                    }))
                },
            }
        };
    }
    vec![
        gcm!("aes-128-gcm", 16, Aes128Gcm, Aes128),
        gcm!("aes-192-gcm", 24, Aes192Gcm, Aes192),
        gcm!("aes-256-gcm", 32, Aes256Gcm, Aes256),
        AeadInfo {
            name: "kuznyechik-mgm",
            key_len: 32,
            nonce_len: 16,
            any_nonce_len: false,
            min_tag_len: crate::kuznyechik::mgm::MIN_TAG,
            backends: Kuznyechik::backends,
            new: |key, backend| {
                Ok(Box::new(match backend {
                    Some(b) => KuznyechikMgm::with_backend(key, b)?,
                    None => KuznyechikMgm::from_key(key)?,
                }))
            },
        },
        gcm!("kuznyechik-gcm", 32, KuznyechikGcm, Kuznyechik),
        gcm!("ublock-128-gcm", 16, Ublock128Gcm, Ublock128_128),
        gcm!("ublock-128-256-gcm", 32, Ublock128_256Gcm, Ublock128_256),
    ]
}

/// The AEAD called `name` (case-insensitive).
pub fn aead(name: &str) -> Result<AeadInfo, Error> {
    aeads()
        .into_iter()
        .find(|a| a.name.eq_ignore_ascii_case(name))
        .ok_or(Error::UnknownAlgorithm)
}
