//! CMAC (NIST SP 800-38B, also RFC 4493 for AES-128) on the shared OMAC of
//! [`crate::modes`]: a chained CBC-MAC with subkeys for the last block, the subkeys kept
//! with the key. Tags are compared in constant time.

use core::fmt;

use zeroize::ZeroizeOnDrop;

use super::{Aes, KeySize};
use crate::Error;
use crate::cpu::Backend;
use crate::modes::omac::{Omac, omac_subkeys};

/// AES-CMAC under one key. The subkeys are zeroized on drop.
#[derive(Clone)]
pub struct AesCmac<K: KeySize> {
    cipher: Aes<K>,
    k1: [u8; 16],
    k2: [u8; 16],
}

impl<K: KeySize> AesCmac<K> {
    /// Keys CMAC on the best backend for this CPU.
    pub fn from_key(key: &[u8]) -> Result<Self, Error> {
        Ok(Self::from_cipher(Aes::<K>::from_key(key)?))
    }

    /// Keys CMAC on `backend`, or fails if this CPU cannot run it.
    pub fn with_backend(key: &[u8], backend: Backend) -> Result<Self, Error> {
        Ok(Self::from_cipher(Aes::<K>::with_backend(key, backend)?))
    }

    fn from_cipher(cipher: Aes<K>) -> Self {
        let (mut a, mut b) = omac_subkeys(&cipher);
        let mut k1 = [0u8; 16];
        let mut k2 = [0u8; 16];
        k1.copy_from_slice(&a[..16]);
        k2.copy_from_slice(&b[..16]);
        crate::wipe::array(&mut a);
        crate::wipe::array(&mut b);
        Self { cipher, k1, k2 }
    }

    /// The full 16-byte tag of `data`.
    pub fn mac(&self, data: &[u8]) -> [u8; 16] {
        let mut omac = Omac::with_subkeys(&self.cipher, &self.k1, &self.k2);
        omac.update(data);
        let full = omac.finalize();
        let mut tag = [0u8; 16];
        tag.copy_from_slice(&full[..16]);
        tag
    }

    /// Checks a tag of 1 to 16 bytes (a prefix of the full tag) in constant time.
    pub fn verify(&self, data: &[u8], tag: &[u8]) -> Result<(), Error> {
        if tag.is_empty() || tag.len() > 16 {
            return Err(Error::InvalidLength);
        }
        let full = self.mac(data);
        if bool::from(crate::ct::bytes_eq(&full[..tag.len()], tag)) {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }
}

impl<K: KeySize> Drop for AesCmac<K> {
    fn drop(&mut self) {
        crate::wipe::array(&mut self.k1);
        crate::wipe::array(&mut self.k2);
    }
}

impl<K: KeySize> ZeroizeOnDrop for AesCmac<K> {}

impl<K: KeySize> fmt::Debug for AesCmac<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}-cmac {{ backend: {}, .. }}",
            K::NAME,
            self.cipher.backend
        )
    }
}
