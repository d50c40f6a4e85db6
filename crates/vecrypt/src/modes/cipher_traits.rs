//! The bridge from this crate's whole-buffer kernels to the RustCrypto `cipher` traits.
//!
//! The `cipher` crate drives a backend `ParBlocksSize` blocks at a time, then hands it the
//! shorter tail, or block by block. [`KernelBackend`] makes one kernel call for each batch
//! and for the whole tail (the trait's default would take the tail one block at a time), so
//! that `ctr`, `cbc` decryption, `cmac` and friends keep the SIMD lanes busy.

use core::marker::PhantomData;

use super::BlockKernel;
use cipher::array::Array;
use cipher::array::ArraySize;
use cipher::{
    Block, BlockCipherDecBackend, BlockCipherEncBackend, BlockSizeUser, InOut, InOutBuf, ParBlocks,
    ParBlocksSizeUser,
};

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
    /// The kernel runs on the output blocks themselves, the input copied there block by
    /// block first (onto itself when in place): no scratch copy of the data, hence none to
    /// wipe.
    fn many(&self, mut blocks: InOutBuf<'_, '_, Block<Self>>, decrypt: bool) {
        for i in 0..blocks.len() {
            let mut block = blocks.get(i);
            let copy = block.clone_in();
            *block.get_out() = copy;
        }
        self.run(Array::slice_as_flattened_mut(blocks.get_out()), decrypt);
    }

    fn one(&self, mut block: InOut<'_, '_, Block<Self>>, decrypt: bool) {
        let copy = block.clone_in();
        let out = block.get_out();
        *out = copy;
        self.run(out, decrypt);
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
        self.many(blocks.into_buf(), false);
    }

    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
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
        self.many(blocks.into_buf(), true);
    }

    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        self.many(blocks, true);
    }
}
