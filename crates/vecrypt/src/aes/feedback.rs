//! CFB (full-block feedback, CFB128) and OFB, SP 800-38A, on the shared modes layer. Both
//! take any length; the last block may be partial. CFB encryption and OFB are chains
//! ([`BlockKernel::kernel_chain`]) and run at the latency of one block; CFB decryption is
//! parallel ([`BlockKernel::kernel_cfb_decrypt`]).

use super::{Aes, KeySize, block16};
use crate::Error;
use crate::modes::{self, BlockKernel, Chain};

impl<K: KeySize> Aes<K> {
    /// CFB128 encryption in place.
    pub fn encrypt_cfb(&self, iv: &[u8], buf: &mut [u8]) -> Result<(), Error> {
        let mut chain = block16(iv)?;
        modes::chain_with_tail(self, Chain::CfbEncrypt, &mut chain, buf);
        Ok(())
    }

    /// CFB128 decryption in place.
    pub fn decrypt_cfb(&self, iv: &[u8], buf: &mut [u8]) -> Result<(), Error> {
        let mut chain = block16(iv)?;
        let whole = buf.len() / 16 * 16;
        let (body, tail) = buf.split_at_mut(whole);
        self.kernel_cfb_decrypt(&mut chain, body);
        // A short last segment is XORed with the encryption of the last ciphertext block:
        // one OFB step from the chain.
        modes::chain_with_tail(self, Chain::Ofb, &mut chain, tail);
        Ok(())
    }

    /// OFB in place (encryption and decryption are the same).
    pub fn apply_ofb(&self, iv: &[u8], buf: &mut [u8]) -> Result<(), Error> {
        let mut chain = block16(iv)?;
        modes::chain_with_tail(self, Chain::Ofb, &mut chain, buf);
        Ok(())
    }
}
