//! CFB (full-block feedback, CFB128) and OFB, SP 800-38A. Both take any length; the last
//! block may be partial. CFB encryption and OFB are chains and run at the latency of one
//! block; CFB decryption is parallel and runs on the ECB kernels.

use zeroize::Zeroize;

use super::{Aes, Chain, KeySize, RoundKeys, aesni, block16, soft, vaes};
use crate::Error;
use crate::cpu::Backend;
use crate::modes::xor_in_place;

/// Blocks per batch of CFB decryption.
const BATCH: usize = 64;

/// CFB decryption of whole blocks from an ECB function: the ciphertext shifted by one block
/// is encrypted in batches and added to the ciphertext.
pub(crate) fn cfb_decrypt_with(
    rk: &RoundKeys,
    chain: &mut [u8; 16],
    buf: &mut [u8],
    ecb: fn(&RoundKeys, &mut [u8]),
) {
    let mut ks = [0u8; 16 * BATCH];
    for chunk in buf.chunks_mut(16 * BATCH) {
        let ks = &mut ks[..chunk.len()];
        ks[..16].copy_from_slice(chain);
        ks[16..].copy_from_slice(&chunk[..chunk.len() - 16]);
        chain.copy_from_slice(&chunk[chunk.len() - 16..]);
        ecb(rk, ks);
        xor_in_place(chunk, ks);
    }
    ks.zeroize();
}

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
        let whole = buf.len() / 16 * 16;
        let (body, tail) = buf.split_at_mut(whole);
        match self.backend {
            Backend::Vaes512 => vaes::zmm::decrypt_cfb(&self.rk, &mut chain, body),
            Backend::Vaes256 => vaes::ymm::decrypt_cfb(&self.rk, &mut chain, body),
            Backend::AesNi => cfb_decrypt_with(&self.rk, &mut chain, body, aesni::encrypt),
            _ => cfb_decrypt_with(&self.rk, &mut chain, body, soft::encrypt_blocks),
        }
        self.keystream_tail(&chain, tail);
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
