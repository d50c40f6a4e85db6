//! The bridge from this crate's whole-buffer kernels to the RustCrypto `cipher` traits.
//!
//! The `cipher` crate drives a backend block by block or `ParBlocksSize` blocks at a time.
//! [`KernelBackend`] gathers those blocks into one buffer and makes one kernel call for them,
//! so that `ctr`, `cbc` decryption, `cmac` and friends keep the SIMD lanes busy.

use core::marker::PhantomData;

use cipher::array::ArraySize;
use cipher::{
    Block, BlockCipherDecBackend, BlockCipherEncBackend, BlockSizeUser, InOut, ParBlocks,
    ParBlocksSizeUser,
};
use zeroize::Zeroize;

use super::{BlockKernel, MAX_BLOCK};

/// The most blocks a backend may ask to be handed at once.
const MAX_PAR: usize = 64;

/// A keyed cipher seen as a `cipher` backend that takes `P` blocks at a time (pick the
/// widest kernel's natural batch). Use it from `encrypt_with_backend` and
/// `decrypt_with_backend` as `f.call(&KernelBackend::<_, U32>::new(self))`.
pub(crate) struct KernelBackend<'a, K, P> {
    cipher: &'a K,
    _par: PhantomData<P>,
}

impl<'a, K, P> KernelBackend<'a, K, P> {
    pub(crate) fn new(cipher: &'a K) -> Self {
        Self {
            cipher,
            _par: PhantomData,
        }
    }
}

impl<K: BlockKernel + BlockSizeUser, P: ArraySize> BlockSizeUser for KernelBackend<'_, K, P> {
    type BlockSize = K::BlockSize;
}

impl<K: BlockKernel + BlockSizeUser, P: ArraySize> ParBlocksSizeUser for KernelBackend<'_, K, P> {
    type ParBlocksSize = P;
}

impl<K: BlockKernel + BlockSizeUser, P: ArraySize> KernelBackend<'_, K, P> {
    fn many(&self, mut blocks: InOut<'_, '_, ParBlocks<Self>>, decrypt: bool) {
        let (n, par) = (K::BLOCK, P::USIZE);
        assert!(par <= MAX_PAR, "at most {MAX_PAR} blocks at once");
        let mut buf = [0u8; MAX_PAR * MAX_BLOCK];
        let data = &mut buf[..par * n];
        for (i, chunk) in data.chunks_exact_mut(n).enumerate() {
            chunk.copy_from_slice(blocks.get(i).get_in());
        }
        self.run(data, decrypt);
        for (i, chunk) in data.chunks_exact(n).enumerate() {
            blocks.get(i).get_out().copy_from_slice(chunk);
        }
        buf.zeroize();
    }

    fn one(&self, mut block: InOut<'_, '_, Block<Self>>, decrypt: bool) {
        let mut buf = [0u8; MAX_BLOCK];
        let data = &mut buf[..K::BLOCK];
        data.copy_from_slice(block.get_in());
        self.run(data, decrypt);
        block.get_out().copy_from_slice(data);
        buf.zeroize();
    }

    fn run(&self, data: &mut [u8], decrypt: bool) {
        if decrypt {
            self.cipher.kernel_decrypt(data);
        } else {
            self.cipher.kernel_encrypt(data);
        }
    }
}

impl<K: BlockKernel + BlockSizeUser, P: ArraySize> BlockCipherEncBackend
    for KernelBackend<'_, K, P>
{
    fn encrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        self.one(block, false);
    }

    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        self.many(blocks, false);
    }
}

impl<K: BlockKernel + BlockSizeUser, P: ArraySize> BlockCipherDecBackend
    for KernelBackend<'_, K, P>
{
    fn decrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        self.one(block, true);
    }

    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        self.many(blocks, true);
    }
}
