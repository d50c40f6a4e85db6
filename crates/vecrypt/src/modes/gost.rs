//! The modes of GOST R 34.13-2015 with their own parameters, for any cipher of the crate.
//!
//! `n` is the block length. Lengths here are in bytes: the segment size `s` (how much
//! keystream each block gives, or how much ciphertext feeds back) is `1..=n` bytes, and the
//! register of OFB, CBC and CFB is the IV, `m` bytes long. With `m = z*n` the mode runs `z`
//! independent chains side by side. Whole-block OFB, CBC encryption and CFB encryption go
//! to the cipher's chained-mode kernel (as [`BlockModes::apply_chain`](super::BlockModes::apply_chain) does) in one call, so a
//! backend can keep its chains in registers for the whole message; CBC and CFB decryption,
//! whose inputs are all known, run in batches. CTR, OFB and CFB take any message
//! length (the last segment may be short); ECB and CBC take whole blocks, without padding.
//!
//! OFB, CBC, CFB and the truncated [`mac`] copy a register of any length (or return the
//! tag) on the heap, so they need the `alloc` feature; CTR and [`Omac`] do not.

#[cfg(feature = "alloc")]
use alloc::{vec, vec::Vec};

use super::{BlockKernel, MAX_BLOCK, increment_be, xor_in_place};
#[cfg(feature = "alloc")]
use super::{Chain, chain_with_tail};
use crate::Error;

pub use super::omac::Omac;

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
#[cfg(feature = "alloc")]
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

#[cfg(feature = "alloc")]
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
#[cfg(feature = "alloc")]
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
    crate::wipe::bytes(&mut register);
    Ok(())
}

/// CBC encryption with an IV of `z` blocks: block `i` is chained to ciphertext block `i - z`.
#[cfg(feature = "alloc")]
pub fn cbc_encrypt<K: BlockKernel>(cipher: &K, iv: &[u8], buf: &mut [u8]) -> Result<(), Error> {
    check_block_register::<K>(iv)?;
    check_whole_blocks::<K>(buf.len())?;
    let mut register = iv.to_vec();
    cipher.kernel_chain(Chain::CbcEncrypt, &mut register, buf);
    Ok(())
}

/// CBC decryption with an IV of `z` blocks. Every block is independent here, so the whole
/// message goes to the cipher in large batches.
#[cfg(feature = "alloc")]
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
#[cfg(feature = "alloc")]
pub fn cfb_encrypt<K: BlockKernel>(
    cipher: &K,
    iv: &[u8],
    s: usize,
    buf: &mut [u8],
) -> Result<(), Error> {
    cfb(cipher, iv, s, buf, false)
}

/// CFB decryption, the inverse of [`cfb_encrypt`] with the same parameters.
#[cfg(feature = "alloc")]
pub fn cfb_decrypt<K: BlockKernel>(
    cipher: &K,
    iv: &[u8],
    s: usize,
    buf: &mut [u8],
) -> Result<(), Error> {
    cfb(cipher, iv, s, buf, true)
}

#[cfg(feature = "alloc")]
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
        crate::wipe::bytes(&mut stream);
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
    crate::wipe::bytes(&mut register);
    Ok(())
}

/// Checks a GOST R 34.13 MAC of 1 to `n` bytes (a prefix of the full tag, as [`mac`]
/// truncates it) in constant time: `Err(Error::AuthenticationFailed)` when it does not
/// match, `Err(Error::InvalidLength)` for an empty or too long tag.
pub fn verify_mac<K: BlockKernel>(cipher: &K, data: &[u8], tag: &[u8]) -> Result<(), Error> {
    let mut m = Omac::new(cipher);
    m.update(data);
    m.verify(tag)
}

/// The MAC of GOST R 34.13 (OMAC1, the same as CMAC), truncated to its first `s` bytes.
#[cfg(feature = "alloc")]
pub fn mac<K: BlockKernel>(cipher: &K, data: &[u8], s: usize) -> Result<Vec<u8>, Error> {
    check_segment::<K>(s)?;
    let mut m = Omac::new(cipher);
    m.update(data);
    let full = m.finalize();
    Ok(full[..s].to_vec())
}
