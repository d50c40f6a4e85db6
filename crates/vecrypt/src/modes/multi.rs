//! Several independent streams, each with its own key (and IV), in one call.

use alloc::vec::Vec;

use super::{BlockKernel, MAX_BLOCK, block_copy, check_blocks};
use crate::Error;

/// A set of keys of one cipher, used together: stream `i` of every call is processed under
/// key `i`. Backends that can interleave keys (uBlock AVX2/AVX-512 and others) run the
/// streams side by side, which makes CBC encryption of several files parallel.
pub struct MultiKey<C: BlockKernel> {
    ciphers: Vec<C>,
}

impl<C: BlockKernel> MultiKey<C> {
    /// Groups already-keyed ciphers; all should share one backend to be interleaved.
    pub fn new(ciphers: Vec<C>) -> Self {
        Self { ciphers }
    }

    /// Builds one cipher per key with `init`.
    pub fn from_keys<K: AsRef<[u8]>>(
        keys: &[K],
        init: impl Fn(&[u8]) -> Result<C, Error>,
    ) -> Result<Self, Error> {
        let ciphers = keys
            .iter()
            .map(|k| init(k.as_ref()))
            .collect::<Result<_, _>>()?;
        Ok(Self { ciphers })
    }

    /// The number of keys, hence of streams every call takes.
    pub fn len(&self) -> usize {
        self.ciphers.len()
    }

    /// Whether the set holds no key.
    pub fn is_empty(&self) -> bool {
        self.ciphers.is_empty()
    }

    /// The keyed ciphers, in stream order.
    pub fn ciphers(&self) -> &[C] {
        &self.ciphers
    }

    fn refs(&self) -> Vec<&C> {
        self.ciphers.iter().collect()
    }

    fn check(&self, bufs: &[&mut [u8]]) -> Result<(), Error> {
        if bufs.len() != self.ciphers.len() {
            return Err(Error::InvalidParameter);
        }
        bufs.iter().try_for_each(|b| check_blocks::<C>(b.len()))
    }

    fn chains(&self, ivs: &[&[u8]]) -> Result<Vec<[u8; MAX_BLOCK]>, Error> {
        if ivs.len() != self.ciphers.len() {
            return Err(Error::InvalidParameter);
        }
        ivs.iter().map(|iv| block_copy::<C>(iv)).collect()
    }

    /// ECB encryption of `bufs[i]` under key `i`; the streams may differ in length.
    pub fn encrypt_ecb(&self, bufs: &mut [&mut [u8]]) -> Result<(), Error> {
        self.check(bufs)?;
        C::kernel_encrypt_multi(&self.refs(), bufs);
        Ok(())
    }

    /// ECB decryption of `bufs[i]` under key `i`.
    pub fn decrypt_ecb(&self, bufs: &mut [&mut [u8]]) -> Result<(), Error> {
        self.check(bufs)?;
        C::kernel_decrypt_multi(&self.refs(), bufs);
        Ok(())
    }

    /// CBC encryption of `bufs[i]` under key `i` and IV `ivs[i]`.
    pub fn encrypt_cbc(&self, ivs: &[&[u8]], bufs: &mut [&mut [u8]]) -> Result<(), Error> {
        self.check(bufs)?;
        let mut chains = self.chains(ivs)?;
        let mut ivs: Vec<&mut [u8]> = chains.iter_mut().map(|c| &mut c[..C::BLOCK]).collect();
        C::kernel_cbc_encrypt_multi(&self.refs(), &mut ivs, bufs);
        Ok(())
    }

    /// CBC decryption of `bufs[i]` under key `i` and IV `ivs[i]`.
    pub fn decrypt_cbc(&self, ivs: &[&[u8]], bufs: &mut [&mut [u8]]) -> Result<(), Error> {
        self.check(bufs)?;
        let mut chains = self.chains(ivs)?;
        let mut ivs: Vec<&mut [u8]> = chains.iter_mut().map(|c| &mut c[..C::BLOCK]).collect();
        C::kernel_cbc_decrypt_multi(&self.refs(), &mut ivs, bufs);
        Ok(())
    }
}
