//! CMAC (NIST SP 800-38B, also RFC 4493 for AES-128): a chained CBC-MAC with subkeys for the
//! last block. Tags are compared in constant time.

use core::fmt;

use subtle::ConstantTimeEq;
use zeroize::{Zeroize, ZeroizeOnDrop};

use super::{Aes, Chain, KeySize};
use crate::Error;
use crate::cpu::Backend;

/// AES-CMAC under one key. The subkeys are zeroized on drop.
#[derive(Clone)]
pub struct AesCmac<K: KeySize> {
    cipher: Aes<K>,
    k1: [u8; 16],
    k2: [u8; 16],
}

/// Doubling in GF(2^128) with CMAC's big-endian convention, without a branch on the key.
fn double(block: &[u8; 16]) -> [u8; 16] {
    let v = u128::from_be_bytes(*block);
    let carry = v >> 127;
    ((v << 1) ^ (0x87 & 0u128.wrapping_sub(carry))).to_be_bytes()
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
        let mut l = [0u8; 16];
        cipher.ecb_encrypt(&mut l);
        let k1 = double(&l);
        let k2 = double(&k1);
        l.zeroize();
        Self { cipher, k1, k2 }
    }

    /// The full 16-byte tag of `data`.
    pub fn mac(&self, data: &[u8]) -> [u8; 16] {
        // Every block but the last goes through the chain as it is.
        let body = if data.is_empty() {
            0
        } else {
            (data.len() - 1) / 16 * 16
        };
        let mut state = [0u8; 16];
        // The chain kernel takes a mutable buffer; CBC-MAC leaves it as it is, so feed it
        // copies a few KiB at a time.
        let mut scratch = [0u8; 4096];
        for chunk in data[..body].chunks(scratch.len()) {
            let part = &mut scratch[..chunk.len()];
            part.copy_from_slice(chunk);
            self.cipher.chain(Chain::CbcMac, &mut state, part);
        }
        let rest = &data[body..];
        let mut last = [0u8; 16];
        last[..rest.len()].copy_from_slice(rest);
        if rest.len() == 16 {
            crate::modes::xor_in_place(&mut last, &self.k1);
        } else {
            last[rest.len()] = 0x80;
            crate::modes::xor_in_place(&mut last, &self.k2);
        }
        self.cipher.chain(Chain::CbcMac, &mut state, &mut last);
        scratch.zeroize();
        state
    }

    /// Checks a tag of 1 to 16 bytes (a prefix of the full tag) in constant time.
    pub fn verify(&self, data: &[u8], tag: &[u8]) -> Result<(), Error> {
        if tag.is_empty() || tag.len() > 16 {
            return Err(Error::InvalidLength);
        }
        let full = self.mac(data);
        if bool::from(full[..tag.len()].ct_eq(tag)) {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }
}

impl<K: KeySize> Drop for AesCmac<K> {
    fn drop(&mut self) {
        self.k1.zeroize();
        self.k2.zeroize();
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
