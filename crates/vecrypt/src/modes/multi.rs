//! Several independent streams, each with its own key (and IV), in one call.

use alloc::vec::Vec;

use super::{BlockKernel, MAX_BLOCK, block_copy, check_blocks};
use crate::Error;

/// Keys up to which a call keeps its references and chains on the stack.
const ON_STACK: usize = 16;

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

    fn check(&self, bufs: &[&mut [u8]]) -> Result<(), Error> {
        if bufs.len() != self.ciphers.len() {
            return Err(Error::InvalidParameter);
        }
        bufs.iter().try_for_each(|b| check_blocks::<C>(b.len()))
    }

    /// Runs `f` with the ciphers as a slice of references: on the stack for up to
    /// [`ON_STACK`] keys (a call over a few one-block streams is short enough that an
    /// allocation shows in its speed).
    fn with_refs<R>(&self, f: impl FnOnce(&[&C]) -> R) -> R {
        let n = self.ciphers.len();
        match self.ciphers.first() {
            Some(first) if n <= ON_STACK => {
                let mut refs = [first; ON_STACK];
                for (r, c) in refs.iter_mut().zip(&self.ciphers) {
                    *r = c;
                }
                f(&refs[..n])
            }
            _ => f(&self.ciphers.iter().collect::<Vec<_>>()),
        }
    }

    /// Runs a chained mode: copies of the IVs as chain registers, on the stack for up to
    /// [`ON_STACK`] keys.
    fn with_chains(
        &self,
        ivs: &[&[u8]],
        bufs: &mut [&mut [u8]],
        run: impl FnOnce(&[&C], &mut [&mut [u8]], &mut [&mut [u8]]),
    ) -> Result<(), Error> {
        self.check(bufs)?;
        let n = self.ciphers.len();
        if ivs.len() != n {
            return Err(Error::InvalidParameter);
        }
        if n <= ON_STACK {
            let mut chains = [[0u8; MAX_BLOCK]; ON_STACK];
            for (c, iv) in chains.iter_mut().zip(ivs) {
                *c = block_copy::<C>(iv)?;
            }
            let mut regs: [&mut [u8]; ON_STACK] = core::array::from_fn(|_| &mut [][..]);
            for (r, c) in regs.iter_mut().zip(chains.iter_mut()) {
                *r = &mut c[..C::BLOCK];
            }
            self.with_refs(|refs| run(refs, &mut regs[..n], bufs));
        } else {
            let mut chains = ivs
                .iter()
                .map(|iv| block_copy::<C>(iv))
                .collect::<Result<Vec<_>, _>>()?;
            let mut regs: Vec<&mut [u8]> = chains.iter_mut().map(|c| &mut c[..C::BLOCK]).collect();
            self.with_refs(|refs| run(refs, &mut regs, bufs));
        }
        Ok(())
    }

    /// ECB encryption of `bufs[i]` under key `i`; the streams may differ in length.
    pub fn encrypt_ecb(&self, bufs: &mut [&mut [u8]]) -> Result<(), Error> {
        self.check(bufs)?;
        self.with_refs(|refs| C::kernel_encrypt_multi(refs, bufs));
        Ok(())
    }

    /// ECB decryption of `bufs[i]` under key `i`.
    pub fn decrypt_ecb(&self, bufs: &mut [&mut [u8]]) -> Result<(), Error> {
        self.check(bufs)?;
        self.with_refs(|refs| C::kernel_decrypt_multi(refs, bufs));
        Ok(())
    }

    /// CBC encryption of `bufs[i]` under key `i` and IV `ivs[i]`.
    pub fn encrypt_cbc(&self, ivs: &[&[u8]], bufs: &mut [&mut [u8]]) -> Result<(), Error> {
        self.with_chains(ivs, bufs, |refs, regs, bufs| {
            C::kernel_cbc_encrypt_multi(refs, regs, bufs)
        })
    }

    /// CBC decryption of `bufs[i]` under key `i` and IV `ivs[i]`.
    pub fn decrypt_cbc(&self, ivs: &[&[u8]], bufs: &mut [&mut [u8]]) -> Result<(), Error> {
        self.with_chains(ivs, bufs, |refs, regs, bufs| {
            C::kernel_cbc_decrypt_multi(refs, regs, bufs)
        })
    }
}
