//! CFB (full-block feedback, CFB128) and OFB, SP 800-38A. Both take any length; the last
//! block may be partial. CFB encryption and OFB are chains and run at the latency of one
//! block; CFB decryption is parallel and runs on the ECB kernels.

use zeroize::Zeroize;

use super::{Aes, Chain, KeySize, block16};
use crate::Error;
use crate::modes::xor_in_place;

/// Blocks per batch of CFB decryption.
const BATCH: usize = 64;

impl<K: KeySize> Aes<K> {
    /// CFB128 encryption in place.
    pub fn encrypt_cfb(&self, iv: &[u8], buf: &mut [u8]) -> Result<(), Error> {
        let mut chain = block16(iv)?;
        let whole = buf.len() / 16 * 16;
        let (body, tail) = buf.split_at_mut(whole);
        self.chain(Chain::CfbEncrypt, &mut chain, body);
        self.keystream_tail(&chain, tail);
        Ok(())
    }

    /// CFB128 decryption in place.
    pub fn decrypt_cfb(&self, iv: &[u8], buf: &mut [u8]) -> Result<(), Error> {
        let mut chain = block16(iv)?;
        let mut ks = [0u8; 16 * BATCH];
        for chunk in buf.chunks_mut(16 * BATCH) {
            let blocks = chunk.len().div_ceil(16);
            let ks = &mut ks[..16 * blocks];
            ks[..16].copy_from_slice(&chain);
            ks[16..].copy_from_slice(&chunk[..16 * (blocks - 1)]);
            if chunk.len() == 16 * blocks {
                chain.copy_from_slice(&chunk[chunk.len() - 16..]);
            }
            self.ecb_encrypt(ks);
            xor_in_place(chunk, ks);
        }
        ks.zeroize();
        Ok(())
    }

    /// OFB in place (encryption and decryption are the same).
    pub fn apply_ofb(&self, iv: &[u8], buf: &mut [u8]) -> Result<(), Error> {
        let mut chain = block16(iv)?;
        let whole = buf.len() / 16 * 16;
        let (body, tail) = buf.split_at_mut(whole);
        self.chain(Chain::Ofb, &mut chain, body);
        self.keystream_tail(&chain, tail);
        Ok(())
    }

    /// XORs E(chain) into a partial last block.
    fn keystream_tail(&self, chain: &[u8; 16], tail: &mut [u8]) {
        if tail.is_empty() {
            return;
        }
        let mut ks = *chain;
        self.ecb_encrypt(&mut ks);
        xor_in_place(tail, &ks);
        ks.zeroize();
    }
}
