//! The modes of GOST R 34.13-2015 with their own parameters, for any cipher of the crate.
//!
//! `n` is the block length. Lengths here are in bytes: the segment size `s` (how much
//! keystream each block gives, or how much ciphertext feeds back) is `1..=n` bytes, and the
//! register of OFB, CBC and CFB is the IV, `m` bytes long. With `m = z*n` the mode runs `z`
//! independent chains side by side. Whole-block OFB, CBC encryption and CFB encryption go
//! to the cipher's chained-mode kernel ([`BlockKernel::kernel_chain`]) in one call, so a
//! backend can keep its chains in registers for the whole message; CBC and CFB decryption,
//! whose inputs are all known, run in batches. CTR, OFB and CFB take any message
//! length (the last segment may be short); ECB and CBC take whole blocks, without padding.

use super::{BlockKernel, Chain, MAX_BLOCK, increment_be, xor_in_place};
use crate::Error;

/// Blocks per call to the cipher in the keystream paths.
const BATCH: usize = 64;

fn check_segment<K: BlockKernel>(s: usize) -> Result<(), Error> {
    if (1..=K::BLOCK).contains(&s) {
        Ok(())
    } else {
        Err(Error::InvalidParameter)
    }
}

/// An IV that is a whole, non-zero number of blocks (OFB and CBC).
fn check_block_register<K: BlockKernel>(iv: &[u8]) -> Result<(), Error> {
    if !iv.is_empty() && iv.len().is_multiple_of(K::BLOCK) {
        Ok(())
    } else {
        Err(Error::IvLength {
            expected: K::BLOCK,
            got: iv.len(),
        })
    }
}

fn check_whole_blocks<K: BlockKernel>(len: usize) -> Result<(), Error> {
    if len.is_multiple_of(K::BLOCK) {
        Ok(())
    } else {
        Err(Error::NotWholeBlocks {
            block: K::BLOCK,
            got: len,
        })
    }
}

/// CTR: the IV is half a block; the first counter block is `IV || 0`, incremented as one
/// big-endian integer per block; each block of keystream gives its first `s` bytes.
/// Encryption and decryption are the same operation.
pub fn ctr<K: BlockKernel>(cipher: &K, iv: &[u8], s: usize, buf: &mut [u8]) -> Result<(), Error> {
    let n = K::BLOCK;
    if iv.len() != n / 2 {
        return Err(Error::IvLength {
            expected: n / 2,
            got: iv.len(),
        });
    }
    check_segment::<K>(s)?;
    let mut counter = [0u8; MAX_BLOCK];
    counter[..n / 2].copy_from_slice(iv);
    let counter = &mut counter[..n];
    if s == n {
        cipher.kernel_ctr(counter, buf);
        return Ok(());
    }
    let mut stream = [0u8; BATCH * MAX_BLOCK];
    for chunk in buf.chunks_mut(BATCH * s) {
        let blocks = chunk.len().div_ceil(s);
        let stream = &mut stream[..blocks * n];
        for block in stream.chunks_exact_mut(n) {
            block.copy_from_slice(counter);
            increment_be(counter);
        }
        cipher.kernel_encrypt(stream);
        for (segment, block) in chunk.chunks_mut(s).zip(stream.chunks_exact(n)) {
            xor_in_place(segment, block);
        }
    }
    Ok(())
}

/// OFB with an IV of `z` blocks: each of the `z` chains encrypts its own last output; every
/// output block gives its first `s` bytes of keystream. Encryption and decryption are the
/// same operation.
pub fn ofb<K: BlockKernel>(cipher: &K, iv: &[u8], s: usize, buf: &mut [u8]) -> Result<(), Error> {
    check_block_register::<K>(iv)?;
    check_segment::<K>(s)?;
    let n = K::BLOCK;
    let z = iv.len() / n;
    let mut register = iv.to_vec();
    if s == n {
        chain_with_tail(cipher, Chain::Ofb, &mut register, buf);
    } else {
        for chunk in buf.chunks_mut(z * s) {
            cipher.kernel_encrypt(&mut register);
            for (segment, block) in chunk.chunks_mut(s).zip(register.chunks_exact(n)) {
                xor_in_place(segment, block);
            }
        }
    }
    zeroize::Zeroize::zeroize(&mut register);
    Ok(())
}

/// Whole-block OFB or CFB encryption over any length: the whole blocks through
/// [`BlockKernel::kernel_chain`], then a short last block through a padded copy on its chain.
fn chain_with_tail<K: BlockKernel>(cipher: &K, mode: Chain, register: &mut [u8], buf: &mut [u8]) {
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
        zeroize::Zeroize::zeroize(&mut block);
    }
}

/// CBC encryption with an IV of `z` blocks: block `i` is chained to ciphertext block `i - z`.
pub fn cbc_encrypt<K: BlockKernel>(cipher: &K, iv: &[u8], buf: &mut [u8]) -> Result<(), Error> {
    check_block_register::<K>(iv)?;
    check_whole_blocks::<K>(buf.len())?;
    let mut register = iv.to_vec();
    cipher.kernel_chain(Chain::CbcEncrypt, &mut register, buf);
    Ok(())
}

/// CBC decryption with an IV of `z` blocks. Every block is independent here, so the whole
/// message goes to the cipher in large batches.
pub fn cbc_decrypt<K: BlockKernel>(cipher: &K, iv: &[u8], buf: &mut [u8]) -> Result<(), Error> {
    check_block_register::<K>(iv)?;
    check_whole_blocks::<K>(buf.len())?;
    let m = iv.len();
    let batch = (BATCH * K::BLOCK).max(m).next_multiple_of(m);
    let mut previous = iv.to_vec();
    let mut saved = vec![0u8; batch];
    for chunk in buf.chunks_mut(batch) {
        let saved = &mut saved[..chunk.len()];
        saved.copy_from_slice(chunk);
        cipher.kernel_decrypt(chunk);
        let head = m.min(chunk.len());
        xor_in_place(&mut chunk[..head], &previous);
        if chunk.len() > m {
            xor_in_place(&mut chunk[m..], &saved[..saved.len() - m]);
        }
        // The next batch starts on a multiple of m, so it needs the last m ciphertext blocks.
        if saved.len() >= m {
            previous.copy_from_slice(&saved[saved.len() - m..]);
        }
    }
    Ok(())
}

/// CFB encryption: the IV is an `m`-byte register (`m >= n`); each step encrypts its first
/// `n` bytes, XORs the first `s` bytes of that into the message, and shifts the ciphertext
/// segment into the register.
pub fn cfb_encrypt<K: BlockKernel>(
    cipher: &K,
    iv: &[u8],
    s: usize,
    buf: &mut [u8],
) -> Result<(), Error> {
    cfb(cipher, iv, s, buf, false)
}

/// CFB decryption, the inverse of [`cfb_encrypt`] with the same parameters.
pub fn cfb_decrypt<K: BlockKernel>(
    cipher: &K,
    iv: &[u8],
    s: usize,
    buf: &mut [u8],
) -> Result<(), Error> {
    cfb(cipher, iv, s, buf, true)
}

fn cfb<K: BlockKernel>(
    cipher: &K,
    iv: &[u8],
    s: usize,
    buf: &mut [u8],
    decrypt: bool,
) -> Result<(), Error> {
    let n = K::BLOCK;
    check_segment::<K>(s)?;
    if iv.len() < n {
        return Err(Error::IvLength {
            expected: n,
            got: iv.len(),
        });
    }
    let m = iv.len();
    let mut register = iv.to_vec();
    if s == n && m.is_multiple_of(n) && !decrypt {
        // z chains of whole blocks, each fed back its own ciphertext.
        chain_with_tail(cipher, Chain::CfbEncrypt, &mut register, buf);
    } else if s == n && m.is_multiple_of(n) {
        // Decryption knows every ciphertext block up front: block `i` is XORed with the
        // encryption of ciphertext block `i - z` (of the IV for the first `z`), so the
        // whole message is encrypted in batches, as in CBC decryption.
        let batch = (BATCH * n).max(m).next_multiple_of(m);
        let mut stream = vec![0u8; batch];
        for chunk in buf.chunks_mut(batch) {
            let len = chunk.len();
            let stream = &mut stream[..len.next_multiple_of(n)];
            let head = m.min(stream.len());
            stream[..head].copy_from_slice(&register[..head]);
            let fed = stream.len().saturating_sub(m);
            stream[head..].copy_from_slice(&chunk[..fed]);
            // The next batch starts on a multiple of m: keep the last m ciphertext bytes.
            if len == batch {
                register.copy_from_slice(&chunk[len - m..]);
            }
            cipher.kernel_encrypt(stream);
            xor_in_place(chunk, stream);
        }
        zeroize::Zeroize::zeroize(&mut stream);
    } else {
        let mut block = [0u8; MAX_BLOCK];
        for segment in buf.chunks_mut(s) {
            let block = &mut block[..n];
            block.copy_from_slice(&register[..n]);
            cipher.kernel_encrypt(block);
            let mut fed_back = [0u8; MAX_BLOCK];
            if decrypt {
                fed_back[..segment.len()].copy_from_slice(segment);
            }
            xor_in_place(segment, block);
            if !decrypt {
                fed_back[..segment.len()].copy_from_slice(segment);
            }
            register.copy_within(s.., 0);
            register[m - s..].copy_from_slice(&fed_back[..s]);
        }
    }
    zeroize::Zeroize::zeroize(&mut register);
    Ok(())
}

/// The two OMAC subkeys of a cipher: K1 = dbl(E(0)), K2 = dbl(K1).
pub(crate) fn omac_subkeys<K: BlockKernel>(cipher: &K) -> ([u8; MAX_BLOCK], [u8; MAX_BLOCK]) {
    let n = K::BLOCK;
    let mut l = [0u8; MAX_BLOCK];
    cipher.kernel_encrypt(&mut l[..n]);
    let k1 = dbl(&l[..n]);
    let k2 = dbl(&k1[..n]);
    (k1, k2)
}

/// Doubling in GF(2^n) for n = 64 (x^64 + x^4 + x^3 + x + 1) or n = 128 (x^128 + x^7 + x^2
/// + x + 1), big-endian, constant time.
pub(crate) fn dbl(x: &[u8]) -> [u8; MAX_BLOCK] {
    let n = x.len();
    let reduction: u8 = if n == 8 { 0x1b } else { 0x87 };
    let mut out = [0u8; MAX_BLOCK];
    let carry = x[0] >> 7;
    for i in 0..n {
        let next = if i + 1 < n { x[i + 1] >> 7 } else { 0 };
        out[i] = (x[i] << 1) | next;
    }
    out[n - 1] ^= reduction & carry.wrapping_neg();
    out
}

/// The MAC of GOST R 34.13 (OMAC1, the same as CMAC), truncated to its first `s` bytes.
pub fn mac<K: BlockKernel>(cipher: &K, data: &[u8], s: usize) -> Result<Vec<u8>, Error> {
    check_segment::<K>(s)?;
    let mut m = Omac::new(cipher);
    m.update(data);
    let full = m.finalize();
    Ok(full[..s].to_vec())
}

/// OMAC1 over data given in pieces.
pub struct Omac<'a, K: BlockKernel> {
    cipher: &'a K,
    k1: [u8; MAX_BLOCK],
    k2: [u8; MAX_BLOCK],
    state: [u8; MAX_BLOCK],
    /// The last block seen, held back until we know whether it is the final one.
    pending: [u8; MAX_BLOCK],
    pending_len: usize,
}

impl<'a, K: BlockKernel> Omac<'a, K> {
    /// Starts a MAC under `cipher`.
    pub fn new(cipher: &'a K) -> Self {
        let (k1, k2) = omac_subkeys(cipher);
        Self {
            cipher,
            k1,
            k2,
            state: [0; MAX_BLOCK],
            pending: [0; MAX_BLOCK],
            pending_len: 0,
        }
    }

    /// Absorbs more data.
    pub fn update(&mut self, mut data: &[u8]) {
        let n = K::BLOCK;
        while !data.is_empty() {
            if self.pending_len == n {
                xor_in_place(&mut self.state[..n], &self.pending[..n]);
                self.cipher.kernel_encrypt(&mut self.state[..n]);
                self.pending_len = 0;
                // Every whole block but the last of what remains goes through the chain
                // in one call; the last is held back in case it ends the message.
                let run = data.len().saturating_sub(1) / n * n;
                let (blocks, rest) = data.split_at(run);
                super::cbc_mac(self.cipher, &mut self.state[..n], blocks);
                data = rest;
            }
            let take = (n - self.pending_len).min(data.len());
            self.pending[self.pending_len..self.pending_len + take].copy_from_slice(&data[..take]);
            self.pending_len += take;
            data = &data[take..];
        }
    }

    /// The full `n`-byte tag; truncate it to the length the protocol wants.
    pub fn finalize(mut self) -> [u8; MAX_BLOCK] {
        let n = K::BLOCK;
        let (last, subkey) = if self.pending_len == n {
            (self.pending, self.k1)
        } else {
            let mut padded = [0u8; MAX_BLOCK];
            padded[..self.pending_len].copy_from_slice(&self.pending[..self.pending_len]);
            padded[self.pending_len] = 0x80;
            (padded, self.k2)
        };
        xor_in_place(&mut self.state[..n], &last[..n]);
        xor_in_place(&mut self.state[..n], &subkey[..n]);
        self.cipher.kernel_encrypt(&mut self.state[..n]);
        let mut tag = [0u8; MAX_BLOCK];
        tag[..n].copy_from_slice(&self.state[..n]);
        tag
    }

    /// The subkeys K1 and K2, for known-answer tests.
    pub fn subkeys(&self) -> (&[u8], &[u8]) {
        (&self.k1[..K::BLOCK], &self.k2[..K::BLOCK])
    }
}

impl<K: BlockKernel> Drop for Omac<'_, K> {
    fn drop(&mut self) {
        use zeroize::Zeroize;
        self.k1.zeroize();
        self.k2.zeroize();
        self.state.zeroize();
        self.pending.zeroize();
    }
}
