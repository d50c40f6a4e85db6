//! Modes of operation over any cipher of this crate.
//!
//! Inside the crate a cipher implements `BlockKernel`: raw whole-block encryption and
//! decryption, plus optional fused versions of the common modes that a SIMD backend runs in
//! one kernel call. Its defaults are correct for every cipher and batch blocks so that a wide
//! `kernel_encrypt` keeps its lanes full. It checks no length, so it is sealed: outside the
//! crate it can be neither named nor called. [`BlockModes`] is the checked public face, and
//! every length it takes is checked before a kernel runs.

mod aead_traits;
mod cipher_traits;
pub mod gcm;
pub mod gost;
#[cfg(feature = "alloc")]
mod multi;
pub(crate) mod omac;
#[cfg(feature = "release-unverified")]
pub(crate) mod stream;

pub(crate) use aead_traits::aead_traits;
pub(crate) use cipher_traits::KernelBackend;
pub use gcm::{Gcm, GcmCipher};
pub(crate) use kernel::BlockKernel;
#[cfg(feature = "alloc")]
pub use multi::MultiKey;
#[cfg(feature = "release-unverified")]
pub use stream::AeadStream;

use crate::Error;
use crate::cpu::Backend;

/// Blocks per batch in the default CTR and CBC-decrypt paths: enough to fill the widest
/// backend several times over, small enough to stay in L1.
const BATCH_BLOCKS: usize = 64;
/// Largest block size of any cipher in the crate.
pub(crate) const MAX_BLOCK: usize = 32;

/// Holds the sealed kernel trait: public within a private module, so that it can bound the
/// public traits without being nameable outside the crate.
mod kernel {
    use super::{
        Chain, cbc_decrypt_batched, cfb_decrypt_batched, chain_by_steps, ctr_apply_batched,
    };
    use crate::cpu::Backend;

    /// The raw block interface every cipher of the crate provides.
    ///
    /// Lengths are the caller's duty here: every `buf` is a whole number of blocks, every
    /// `iv`/`counter` exactly one block and every chain register a non-zero number of
    /// blocks. [`BlockModes`](super::BlockModes) checks them for public callers.
    pub trait BlockKernel: Sized {
        /// Block length in bytes.
        const BLOCK: usize;

        /// The backend this key object runs on.
        fn kernel_backend(&self) -> Backend;

        /// Encrypts whole blocks in place (ECB).
        fn kernel_encrypt(&self, buf: &mut [u8]);

        /// Decrypts whole blocks in place (ECB).
        fn kernel_decrypt(&self, buf: &mut [u8]);

        /// CTR: XORs the keystream of `counter`, `counter + 1`, ... into `buf` (any length) and
        /// leaves `counter` at the next unused value. The counter is one big-endian integer over
        /// the whole block, wrapping modulo 2^(8*BLOCK).
        fn kernel_ctr(&self, counter: &mut [u8], buf: &mut [u8]) {
            ctr_apply_batched(self, counter, buf);
        }

        /// CBC encryption in place; `iv` becomes the last ciphertext block.
        fn kernel_cbc_encrypt(&self, iv: &mut [u8], buf: &mut [u8]) {
            chain_by_steps(self, Chain::CbcEncrypt, iv, buf);
        }

        /// One of the chained modes over the whole blocks of `buf`, with a register of `z`
        /// blocks (`register.len() / BLOCK`): block `i` belongs to chain `i % z`, whose value is
        /// block `i % z` of the register, and the register ends holding every chain's last
        /// value. The default takes one CBC chain to `kernel_cbc_encrypt` and
        /// otherwise encrypts one step of all chains per call.
        fn kernel_chain(&self, mode: Chain, register: &mut [u8], buf: &mut [u8]) {
            if mode == Chain::CbcEncrypt && register.len() == Self::BLOCK {
                self.kernel_cbc_encrypt(register, buf);
            } else {
                chain_by_steps(self, mode, register, buf);
            }
        }

        /// CBC decryption in place; `iv` becomes the last ciphertext block.
        fn kernel_cbc_decrypt(&self, iv: &mut [u8], buf: &mut [u8]) {
            cbc_decrypt_batched(self, iv, buf);
        }

        /// CFB decryption (whole-block feedback, one chain) of whole blocks in place; `iv`
        /// becomes the last ciphertext block.
        fn kernel_cfb_decrypt(&self, iv: &mut [u8], buf: &mut [u8]) {
            cfb_decrypt_batched(self, iv, buf);
        }

        /// ECB encryption of several streams, one key each (`keys[i]` for `bufs[i]`).
        /// Backends that interleave keys override this; the default runs each stream alone.
        fn kernel_encrypt_multi(keys: &[&Self], bufs: &mut [&mut [u8]]) {
            for (k, b) in keys.iter().zip(bufs.iter_mut()) {
                k.kernel_encrypt(b);
            }
        }

        /// ECB decryption of several streams, one key each.
        fn kernel_decrypt_multi(keys: &[&Self], bufs: &mut [&mut [u8]]) {
            for (k, b) in keys.iter().zip(bufs.iter_mut()) {
                k.kernel_decrypt(b);
            }
        }

        /// CBC encryption of several streams, one key and IV each. This is where interleaving
        /// pays most: one CBC stream is a chain, several are independent.
        fn kernel_cbc_encrypt_multi(keys: &[&Self], ivs: &mut [&mut [u8]], bufs: &mut [&mut [u8]]) {
            for ((k, iv), b) in keys.iter().zip(ivs.iter_mut()).zip(bufs.iter_mut()) {
                k.kernel_cbc_encrypt(iv, b);
            }
        }

        /// CBC decryption of several streams, one key and IV each.
        fn kernel_cbc_decrypt_multi(keys: &[&Self], ivs: &mut [&mut [u8]], bufs: &mut [&mut [u8]]) {
            for ((k, iv), b) in keys.iter().zip(ivs.iter_mut()).zip(bufs.iter_mut()) {
                k.kernel_cbc_decrypt(iv, b);
            }
        }
    }
}

/// ECB, CBC, CTR and the chained modes for every block cipher of the crate, every length
/// checked. ECB and CBC take whole blocks (no padding); CTR takes any length. The IV is one
/// block in CBC and CTR.
///
/// The `*_from` methods are the same modes for a stream cut into pieces: the chaining value
/// (counter, IV or register) is read from the caller's buffer and left there for the next
/// piece, so that calling them piece by piece gives what one call over the whole gives.
pub trait BlockModes: BlockKernel {
    /// The backend this key runs on.
    fn backend(&self) -> Backend {
        self.kernel_backend()
    }

    /// The block length in bytes.
    fn block_len(&self) -> usize {
        Self::BLOCK
    }

    /// ECB encryption in place.
    fn encrypt_ecb(&self, buf: &mut [u8]) -> Result<(), Error> {
        check_blocks::<Self>(buf.len())?;
        self.kernel_encrypt(buf);
        Ok(())
    }

    /// ECB decryption in place.
    fn decrypt_ecb(&self, buf: &mut [u8]) -> Result<(), Error> {
        check_blocks::<Self>(buf.len())?;
        self.kernel_decrypt(buf);
        Ok(())
    }

    /// CBC encryption in place.
    fn encrypt_cbc(&self, iv: &[u8], buf: &mut [u8]) -> Result<(), Error> {
        let mut chain = block_copy::<Self>(iv)?;
        self.encrypt_cbc_from(&mut chain[..Self::BLOCK], buf)
    }

    /// CBC decryption in place.
    fn decrypt_cbc(&self, iv: &[u8], buf: &mut [u8]) -> Result<(), Error> {
        let mut chain = block_copy::<Self>(iv)?;
        self.decrypt_cbc_from(&mut chain[..Self::BLOCK], buf)
    }

    /// CTR in place (encryption and decryption are the same). The IV is the first counter
    /// block; the counter is big-endian over the whole block; the last block may be partial.
    fn apply_ctr(&self, iv: &[u8], buf: &mut [u8]) -> Result<(), Error> {
        let mut counter = block_copy::<Self>(iv)?;
        self.apply_ctr_from(&mut counter[..Self::BLOCK], buf)
    }

    /// CBC encryption in place from the chaining value `iv` (one block), which ends as the
    /// last ciphertext block.
    fn encrypt_cbc_from(&self, iv: &mut [u8], buf: &mut [u8]) -> Result<(), Error> {
        check_blocks::<Self>(buf.len())?;
        check_iv::<Self>(iv.len())?;
        self.kernel_cbc_encrypt(iv, buf);
        Ok(())
    }

    /// CBC decryption in place from the chaining value `iv` (one block), which ends as the
    /// last ciphertext block.
    fn decrypt_cbc_from(&self, iv: &mut [u8], buf: &mut [u8]) -> Result<(), Error> {
        check_blocks::<Self>(buf.len())?;
        check_iv::<Self>(iv.len())?;
        self.kernel_cbc_decrypt(iv, buf);
        Ok(())
    }

    /// CTR in place from `counter` (one block, big-endian over the whole block, wrapping),
    /// which ends at the first counter value not used. `buf` may end in a partial block, whose
    /// keystream's unused part is dropped: only the last piece of a stream may be partial.
    fn apply_ctr_from(&self, counter: &mut [u8], buf: &mut [u8]) -> Result<(), Error> {
        check_iv::<Self>(counter.len())?;
        self.kernel_ctr(counter, buf);
        Ok(())
    }

    /// Whole-block CFB decryption in place from `iv` (one block, one chain), which ends as
    /// the last ciphertext block.
    fn decrypt_cfb_from(&self, iv: &mut [u8], buf: &mut [u8]) -> Result<(), Error> {
        check_blocks::<Self>(buf.len())?;
        check_iv::<Self>(iv.len())?;
        self.kernel_cfb_decrypt(iv, buf);
        Ok(())
    }

    /// One of the [`Chain`] modes in place over whole blocks, with `register` holding `z`
    /// chains side by side (`z` = its length in blocks, at least one): block `i` of `buf`
    /// belongs to chain `i % z`, and the register ends holding every chain's last value.
    /// This is GOST R 34.13's OFB, CFB and CBC with an `m = z * n` bit register, and the
    /// CBC-MAC of OMAC with one chain.
    fn apply_chain(&self, mode: Chain, register: &mut [u8], buf: &mut [u8]) -> Result<(), Error> {
        check_blocks::<Self>(buf.len())?;
        if register.is_empty() || !register.len().is_multiple_of(Self::BLOCK) {
            return Err(Error::IvLength {
                expected: Self::BLOCK,
                got: register.len(),
            });
        }
        self.kernel_chain(mode, register, buf);
        Ok(())
    }
}

impl<T: BlockKernel> BlockModes for T {}

fn check_iv<K: BlockKernel>(len: usize) -> Result<(), Error> {
    if len == K::BLOCK {
        Ok(())
    } else {
        Err(Error::IvLength {
            expected: K::BLOCK,
            got: len,
        })
    }
}

fn check_blocks<K: BlockKernel>(len: usize) -> Result<(), Error> {
    if len.is_multiple_of(K::BLOCK) {
        Ok(())
    } else {
        Err(Error::NotWholeBlocks {
            block: K::BLOCK,
            got: len,
        })
    }
}

/// A cipher that can be named and keyed at run time.
#[cfg(feature = "alloc")]
pub trait NamedCipher: BlockKernel + Send + Sync + 'static {
    /// The name used by the CLI and reports, e.g. `ublock-128-128`.
    const NAME: &'static str;
    /// Key length in bytes.
    const KEY_LEN: usize;
    /// The backends this CPU can run for this cipher, best first.
    fn backends() -> alloc::vec::Vec<Backend>;
    /// Keys the cipher on `backend`, or on the automatic choice with `None`.
    fn keyed(key: &[u8], backend: Option<Backend>) -> Result<Self, Error>;
}

pub(crate) fn block_copy<K: BlockKernel>(iv: &[u8]) -> Result<[u8; MAX_BLOCK], Error> {
    if iv.len() != K::BLOCK {
        return Err(Error::IvLength {
            expected: K::BLOCK,
            got: iv.len(),
        });
    }
    let mut out = [0u8; MAX_BLOCK];
    out[..K::BLOCK].copy_from_slice(iv);
    Ok(out)
}

/// `a ^= b` over the shorter length.
#[inline(always)]
pub(crate) fn xor_in_place(a: &mut [u8], b: &[u8]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x ^= *y;
    }
}

/// Adds one to a big-endian integer of any length, wrapping. Constant time in the value.
#[inline(always)]
pub(crate) fn increment_be(counter: &mut [u8]) {
    let mut carry = 1u16;
    for byte in counter.iter_mut().rev() {
        let sum = u16::from(*byte) + carry;
        *byte = sum as u8;
        carry = sum >> 8;
    }
}

/// The chained modes of [`BlockModes::apply_chain`]. With `v` a chain's value, `d` a
/// data block and `E` the encryption:
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Chain {
    /// `v = E(v ^ d)`, and `d` is replaced by `v` (CBC encryption).
    CbcEncrypt,
    /// `v = E(v ^ d)`, `d` left as it is (the CBC-MAC inside OMAC).
    Mac,
    /// `v = E(v)`, and `d ^= v` (OFB, whole blocks).
    Ofb,
    /// `d ^= E(v)`, then `v = d` (CFB encryption, whole blocks).
    CfbEncrypt,
}

/// [`Chain`] modes one step of all chains per `kernel_encrypt` call. `register` is a
/// non-zero number of blocks.
pub(crate) fn chain_by_steps<K: BlockKernel>(
    cipher: &K,
    mode: Chain,
    register: &mut [u8],
    buf: &mut [u8],
) {
    let n = K::BLOCK;
    let whole = buf.len() - buf.len() % n;
    for group in buf[..whole].chunks_mut(register.len()) {
        let v = &mut register[..group.len()];
        match mode {
            Chain::CbcEncrypt => {
                xor_in_place(group, v);
                cipher.kernel_encrypt(group);
                v.copy_from_slice(group);
            }
            Chain::Mac => {
                xor_in_place(v, group);
                cipher.kernel_encrypt(v);
            }
            Chain::Ofb => {
                cipher.kernel_encrypt(v);
                xor_in_place(group, v);
            }
            Chain::CfbEncrypt => {
                cipher.kernel_encrypt(v);
                xor_in_place(group, v);
                v.copy_from_slice(group);
            }
        }
    }
}

/// The CBC-MAC of whole blocks into `state` ([`Chain::Mac`]), for data the caller only
/// lends: it goes to the cipher through a copy, a batch at a time.
pub(crate) fn cbc_mac<K: BlockKernel>(cipher: &K, state: &mut [u8], data: &[u8]) {
    if data.is_empty() {
        return;
    }
    let mut copy = [0u8; BATCH_BLOCKS * MAX_BLOCK];
    // Every block size divides the copy's length.
    for piece in data.chunks(copy.len()) {
        let copy = &mut copy[..piece.len()];
        copy.copy_from_slice(piece);
        cipher.kernel_chain(Chain::Mac, state, copy);
    }
    crate::wipe::bytes(&mut copy);
}

/// Default CTR: fills a batch of counter blocks, encrypts them in one call, XORs.
pub(crate) fn ctr_apply_batched<K: BlockKernel>(cipher: &K, counter: &mut [u8], buf: &mut [u8]) {
    ctr_apply_counting(cipher, counter, K::BLOCK, buf);
}

/// CTR as [`ctr_apply_batched`] with only the last `low` bytes of the counter block counting:
/// they wrap on their own, the rest stays as it is (GCM's `inc32` with `low = 4`).
pub(crate) fn ctr_apply_counting<K: BlockKernel>(
    cipher: &K,
    counter: &mut [u8],
    low: usize,
    buf: &mut [u8],
) {
    let n = K::BLOCK;
    let mut ks = [0u8; BATCH_BLOCKS * MAX_BLOCK];
    for chunk in buf.chunks_mut(BATCH_BLOCKS * n) {
        let blocks = chunk.len().div_ceil(n);
        let ks = &mut ks[..blocks * n];
        fill_counters(ks, counter, low);
        cipher.kernel_encrypt(ks);
        xor_in_place(chunk, ks);
    }
    crate::wipe::bytes(&mut ks);
}

/// The AEADs' `seal`: the plaintext copied out, sealed in place by `detached`, and its
/// 16-byte tag appended.
#[cfg(feature = "alloc")]
pub(crate) fn seal_to_vec(
    plaintext: &[u8],
    detached: impl FnOnce(&mut [u8]) -> Result<[u8; 16], Error>,
) -> Result<alloc::vec::Vec<u8>, Error> {
    let mut out = alloc::vec::Vec::with_capacity(plaintext.len() + 16);
    out.extend_from_slice(plaintext);
    let tag = detached(&mut out)?;
    out.extend_from_slice(&tag);
    Ok(out)
}

/// The AEADs' `open`: the ciphertext before the last 16 bytes copied out and opened in place
/// by `detached` with those bytes as the tag.
#[cfg(feature = "alloc")]
pub(crate) fn open_to_vec(
    sealed: &[u8],
    detached: impl FnOnce(&mut [u8], &[u8]) -> Result<(), Error>,
) -> Result<alloc::vec::Vec<u8>, Error> {
    let split = sealed.len().checked_sub(16).ok_or(Error::InvalidLength)?;
    let mut out = sealed[..split].to_vec();
    detached(&mut out, &sealed[split..])?;
    Ok(out)
}

/// Writes `counter`, `counter + 1`, ... into the blocks of `ks` and leaves `counter` at the
/// next value; only its last `low` bytes (at most 32) count, wrapping on their own. They are
/// two 128-bit words here, so that each step is an add with carry rather than a loop over
/// bytes; constant time in the value, like [`increment_be`].
fn fill_counters(ks: &mut [u8], counter: &mut [u8], low: usize) {
    let n = counter.len();
    let low = low.min(n).min(32);
    let lo_w = low.min(16);
    let hi_w = low - lo_w;
    let word = |b: &[u8]| {
        let mut x = [0u8; 16];
        x[16 - b.len()..].copy_from_slice(b);
        u128::from_be_bytes(x)
    };
    let mask = |w: usize| {
        if w == 16 {
            u128::MAX
        } else {
            (1u128 << (8 * w)) - 1
        }
    };
    let (lo_mask, hi_mask) = (mask(lo_w), mask(hi_w));
    let mut lo = word(&counter[n - lo_w..]);
    let mut hi = word(&counter[n - low..n - lo_w]);
    for block in ks.chunks_exact_mut(n) {
        block[..n - low].copy_from_slice(&counter[..n - low]);
        block[n - low..n - lo_w].copy_from_slice(&hi.to_be_bytes()[16 - hi_w..]);
        block[n - lo_w..].copy_from_slice(&lo.to_be_bytes()[16 - lo_w..]);
        let next = lo.wrapping_add(1) & lo_mask;
        hi = hi.wrapping_add(u128::from(next == 0)) & hi_mask;
        lo = next;
    }
    counter[n - low..n - lo_w].copy_from_slice(&hi.to_be_bytes()[16 - hi_w..]);
    counter[n - lo_w..].copy_from_slice(&lo.to_be_bytes()[16 - lo_w..]);
}

/// Default CBC decryption: decrypts a batch in one call, then XORs each block with the
/// ciphertext before it.
pub(crate) fn cbc_decrypt_batched<K: BlockKernel>(cipher: &K, iv: &mut [u8], buf: &mut [u8]) {
    let n = K::BLOCK;
    let mut saved = [0u8; BATCH_BLOCKS * MAX_BLOCK];
    for chunk in buf.chunks_mut(BATCH_BLOCKS * n) {
        let saved = &mut saved[..chunk.len()];
        saved.copy_from_slice(chunk);
        cipher.kernel_decrypt(chunk);
        xor_in_place(&mut chunk[..n], iv);
        xor_in_place(&mut chunk[n..], &saved[..saved.len() - n]);
        iv.copy_from_slice(&saved[saved.len() - n..]);
    }
    crate::wipe::bytes(&mut saved);
}

/// Default CFB decryption with one chain: the ciphertext shifted by one block is encrypted
/// a batch at a time and added to the ciphertext.
pub(crate) fn cfb_decrypt_batched<K: BlockKernel>(cipher: &K, iv: &mut [u8], buf: &mut [u8]) {
    let n = K::BLOCK;
    let mut ks = [0u8; BATCH_BLOCKS * MAX_BLOCK];
    for chunk in buf.chunks_mut(BATCH_BLOCKS * n) {
        let len = chunk.len();
        let ks = &mut ks[..len];
        ks[..n].copy_from_slice(iv);
        ks[n..].copy_from_slice(&chunk[..len - n]);
        iv.copy_from_slice(&chunk[len - n..]);
        cipher.kernel_encrypt(ks);
        xor_in_place(chunk, ks);
    }
    crate::wipe::bytes(&mut ks);
}

/// Whole-block OFB or CFB encryption over any length: the whole blocks through
/// `BlockKernel::kernel_chain`, then a short last block through a padded copy on its chain.
pub(crate) fn chain_with_tail<K: BlockKernel>(
    cipher: &K,
    mode: Chain,
    register: &mut [u8],
    buf: &mut [u8],
) {
    let n = K::BLOCK;
    let whole = buf.len() - buf.len() % n;
    let (head, tail) = buf.split_at_mut(whole);
    cipher.kernel_chain(mode, register, head);
    if !tail.is_empty() {
        let j = (whole / n) % (register.len() / n);
        let mut block = [0u8; MAX_BLOCK];
        block[..tail.len()].copy_from_slice(tail);
        cipher.kernel_chain(mode, &mut register[j * n..(j + 1) * n], &mut block[..n]);
        tail.copy_from_slice(&block[..tail.len()]);
        crate::wipe::bytes(&mut block);
    }
}

#[cfg(test)]
mod tests {
    use super::increment_be;

    #[test]
    fn increment_carries_and_wraps() {
        let mut c = [0x00, 0xff, 0xff];
        increment_be(&mut c);
        assert_eq!(c, [0x01, 0x00, 0x00]);
        let mut c = [0xff; 4];
        increment_be(&mut c);
        assert_eq!(c, [0; 4]);
    }
}

#[cfg(test)]
mod counter_tests {
    use super::*;

    /// Against one `increment_be` per block, for every counting width and block length,
    /// from values next to every carry and wrap.
    #[test]
    fn fill_counters_counts_as_increment_be() {
        for n in [8usize, 16, 32] {
            for low in [1usize, 2, 4, 8, 12, 16, 17, 24, 31, 32]
                .into_iter()
                .filter(|&l| l <= n)
            {
                for start in [0x00u8, 0x7f, 0xfe, 0xff] {
                    let mut a: alloc::vec::Vec<u8> =
                        (0..n as u8).map(|i| i.wrapping_mul(37)).collect();
                    // The counting bytes all `start`, but the last one a little lower so that
                    // the run crosses the carries.
                    for b in &mut a[n - low..] {
                        *b = start;
                    }
                    a[n - 1] = a[n - 1].wrapping_sub(3);
                    let mut b = a.clone();
                    let blocks = 40;
                    let mut got = alloc::vec![0u8; blocks * n];
                    fill_counters(&mut got, &mut a, low);
                    let mut want = alloc::vec![0u8; blocks * n];
                    for block in want.chunks_exact_mut(n) {
                        block.copy_from_slice(&b);
                        increment_be(&mut b[n - low..]);
                    }
                    assert_eq!(got, want, "n {n} low {low} start {start:#x}");
                    assert_eq!(a, b, "n {n} low {low} start {start:#x}: next counter");
                }
            }
        }
    }
}
