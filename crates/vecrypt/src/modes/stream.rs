//! Incremental GCM and MGM, for interfaces that hand a message over in pieces and want each
//! piece's output at once (OpenSSL's EVP update/final).
//!
//! Built only with the cargo feature `release-unverified`, because decryption through it
//! releases plaintext before the tag is checked: each piece is decrypted as it arrives and
//! the tag is compared only in [`AeadStream`]'s final step. A caller must discard every
//! piece of plaintext when that step fails. Everything else in the crate checks first and
//! decrypts after; prefer `decrypt_detached` wherever the whole message is at hand.
//!
//! Encryption through a stream gives the same bytes and tag as `encrypt_detached` over the
//! whole message, however the message is cut: the state keeps the keystream of an
//! unfinished block and the text of a block not yet hashed, and runs whole blocks through
//! the same bulk kernels as the one-shot calls.

use crate::Error;

/// Where a stream is: the per-algorithm counters and MAC, plus the cut between calls.
#[derive(Clone)]
pub(crate) enum Inner {
    /// GCM: the pre-counter block, the last counter word used, whether the counter may show
    /// in the timing (a 12-byte nonce), and the GHASH accumulator.
    Gcm {
        j0: [u8; 16],
        low: u32,
        public: bool,
        acc: [u8; 16],
    },
    /// MGM: the keystream counter `y`, the multiplier counter `z` and the unreduced sum.
    Mgm {
        y: u128,
        z: u128,
        low: u128,
        high: u128,
    },
}

/// One message in progress of an AEAD of the registry; see the module doc. Made by
/// `DynAead::start`, fed with `update_aad` and `update`, closed by `finish` (encryption)
/// or `verify` (decryption) of the same AEAD. Its counters and partial blocks are wiped on
/// drop; a clone carries on the same message independently.
#[derive(Clone)]
pub struct AeadStream {
    pub(crate) inner: Inner,
    pub(crate) decrypt: bool,
    aad_len: u64,
    text_len: u64,
    /// Associated data or text of the block in progress (ciphertext for text).
    part: [u8; 16],
    part_len: usize,
    /// The keystream of the text block in progress.
    ks: [u8; 16],
    in_text: bool,
    done: bool,
}

impl Drop for AeadStream {
    fn drop(&mut self) {
        match &mut self.inner {
            Inner::Gcm { j0, low, acc, .. } => {
                crate::wipe::array(j0);
                crate::wipe::value(low);
                crate::wipe::array(acc);
            }
            Inner::Mgm { y, z, low, high } => {
                crate::wipe::value(y);
                crate::wipe::value(z);
                crate::wipe::value(low);
                crate::wipe::value(high);
            }
        }
        crate::wipe::array(&mut self.part);
        crate::wipe::array(&mut self.ks);
    }
}

impl core::fmt::Debug for AeadStream {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AeadStream")
            .field("decrypt", &self.decrypt)
            .field("aad_len", &self.aad_len)
            .field("text_len", &self.text_len)
            .finish_non_exhaustive()
    }
}

/// What an AEAD provides for a stream: whole blocks through its bulk paths, single blocks
/// for the cut between calls, and the tag. Each method fails with
/// [`Error::InvalidParameter`] when handed another algorithm's state.
pub(crate) trait StreamCore {
    /// Longest associated data and text, in bytes.
    const MAX_AAD: u64;
    const MAX_TEXT: u64;
    /// Shortest tag a decryption checks.
    const MIN_TAG: usize;
    /// A fresh state for `nonce`.
    fn start_inner(&self, nonce: &[u8]) -> Result<Inner, Error>;
    /// MACs whole blocks of associated data.
    fn aad_blocks(&self, s: &mut Inner, data: &[u8]) -> Result<(), Error>;
    /// MACs one block of associated data or ciphertext (zero-padded by the caller).
    fn mac_block(&self, s: &mut Inner, block: &[u8; 16]) -> Result<(), Error>;
    /// Encrypts or decrypts whole blocks and MACs their ciphertext.
    fn text_blocks(&self, s: &mut Inner, decrypt: bool, buf: &mut [u8]) -> Result<(), Error>;
    /// The keystream of the next text block, the keystream counter moving past it.
    fn next_keystream(&self, s: &mut Inner) -> Result<[u8; 16], Error>;
    /// The full tag after the lengths block.
    fn tag(&self, s: &mut Inner, aad: u64, text: u64) -> Result<[u8; 16], Error>;
}

impl AeadStream {
    pub(crate) fn start<G: StreamCore>(g: &G, nonce: &[u8], decrypt: bool) -> Result<Self, Error> {
        Ok(Self {
            inner: g.start_inner(nonce)?,
            decrypt,
            aad_len: 0,
            text_len: 0,
            part: [0; 16],
            part_len: 0,
            ks: [0; 16],
            in_text: false,
            done: false,
        })
    }

    /// Whether this stream decrypts.
    pub fn decrypts(&self) -> bool {
        self.decrypt
    }

    pub(crate) fn update_aad<G: StreamCore>(&mut self, g: &G, mut ad: &[u8]) -> Result<(), Error> {
        if self.in_text || self.done {
            return Err(Error::InvalidParameter);
        }
        let total = self.aad_len.checked_add(ad.len() as u64);
        let Some(total) = total.filter(|&t| t <= G::MAX_AAD) else {
            return Err(Error::InvalidLength);
        };
        if self.part_len > 0 {
            let n = ad.len().min(16 - self.part_len);
            self.part[self.part_len..self.part_len + n].copy_from_slice(&ad[..n]);
            self.part_len += n;
            ad = &ad[n..];
            if self.part_len == 16 {
                g.mac_block(&mut self.inner, &self.part)?;
                self.part_len = 0;
            }
        }
        let whole = ad.len() / 16 * 16;
        g.aad_blocks(&mut self.inner, &ad[..whole])?;
        let tail = &ad[whole..];
        self.part[..tail.len()].copy_from_slice(tail);
        if !tail.is_empty() {
            self.part_len = tail.len();
        }
        self.aad_len = total;
        Ok(())
    }

    /// Ends the associated data: its last block, zero-padded.
    fn close_aad<G: StreamCore>(&mut self, g: &G) -> Result<(), Error> {
        if !self.in_text {
            if self.part_len > 0 {
                self.part[self.part_len..].fill(0);
                g.mac_block(&mut self.inner, &self.part)?;
                self.part_len = 0;
            }
            self.in_text = true;
        }
        Ok(())
    }

    /// Runs the keystream of the block in progress over the front of `buf`, keeping its
    /// ciphertext; returns the bytes done.
    fn continue_block(&mut self, buf: &mut [u8]) -> usize {
        let n = buf.len().min(16 - self.part_len);
        for (i, b) in buf[..n].iter_mut().enumerate() {
            let at = self.part_len + i;
            let out = *b ^ self.ks[at];
            self.part[at] = if self.decrypt { *b } else { out };
            *b = out;
        }
        self.part_len += n;
        n
    }

    pub(crate) fn update<G: StreamCore>(&mut self, g: &G, buf: &mut [u8]) -> Result<(), Error> {
        if self.done {
            return Err(Error::InvalidParameter);
        }
        let total = self.text_len.checked_add(buf.len() as u64);
        let Some(total) = total.filter(|&t| t <= G::MAX_TEXT) else {
            return Err(Error::InvalidLength);
        };
        self.close_aad(g)?;
        let mut rest = buf;
        if self.part_len > 0 {
            let n = self.continue_block(rest);
            rest = &mut rest[n..];
            if self.part_len == 16 {
                g.mac_block(&mut self.inner, &self.part)?;
                self.part_len = 0;
            }
        }
        let whole = rest.len() / 16 * 16;
        let (body, tail) = rest.split_at_mut(whole);
        g.text_blocks(&mut self.inner, self.decrypt, body)?;
        if !tail.is_empty() {
            self.ks = g.next_keystream(&mut self.inner)?;
            self.continue_block(tail);
        }
        self.text_len = total;
        Ok(())
    }

    /// Encryption's last step: the full 16-byte tag of the message. The stream takes nothing
    /// more after it.
    pub(crate) fn finish<G: StreamCore>(&mut self, g: &G) -> Result<[u8; 16], Error> {
        if self.decrypt {
            return Err(Error::InvalidParameter);
        }
        self.close(g)
    }

    fn close<G: StreamCore>(&mut self, g: &G) -> Result<[u8; 16], Error> {
        if self.done {
            return Err(Error::InvalidParameter);
        }
        self.close_aad(g)?;
        if self.part_len > 0 {
            self.part[self.part_len..].fill(0);
            g.mac_block(&mut self.inner, &self.part)?;
            self.part_len = 0;
        }
        self.done = true;
        g.tag(&mut self.inner, self.aad_len, self.text_len)
    }

    /// Decryption's last step: checks `tag` (the AEAD's shortest to 16 bytes) in constant
    /// time against the message's.
    pub(crate) fn verify<G: StreamCore>(&mut self, g: &G, tag: &[u8]) -> Result<(), Error> {
        if !self.decrypt {
            return Err(Error::InvalidParameter);
        }
        if !(G::MIN_TAG..=16).contains(&tag.len()) {
            return Err(Error::InvalidLength);
        }
        let mut expected = self.close(g)?;
        let ok = bool::from(crate::ct::bytes_eq(&expected[..tag.len()], tag));
        crate::wipe::array(&mut expected);
        if ok {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }
}

/// GCM's state at the start of a message: the pre-counter block of `nonce`.
pub(crate) fn gcm_start(hash: &crate::ghash::Ghash, nonce: &[u8]) -> Result<Inner, Error> {
    let j0 = hash.pre_counter(nonce)?;
    Ok(Inner::Gcm {
        low: u32::from_be_bytes([j0[12], j0[13], j0[14], j0[15]]),
        j0,
        public: nonce.len() == 12,
        acc: [0; 16],
    })
}

/// GCM: hashes whole blocks of associated data or ciphertext.
pub(crate) fn gcm_absorb(
    hash: &crate::ghash::Ghash,
    s: &mut Inner,
    data: &[u8],
) -> Result<(), Error> {
    let Inner::Gcm { acc, .. } = s else {
        return Err(Error::InvalidParameter);
    };
    hash.update(acc, data);
    Ok(())
}

/// GCM's tag: the lengths block, then the hash masked with the encryption of J0.
pub(crate) fn gcm_tag(
    hash: &crate::ghash::Ghash,
    s: &mut Inner,
    aad: u64,
    text: u64,
    encrypt_block: impl FnOnce(&mut [u8; 16]),
) -> Result<[u8; 16], Error> {
    let Inner::Gcm { j0, acc, .. } = s else {
        return Err(Error::InvalidParameter);
    };
    hash.update_lengths(acc, aad, text);
    let mut mask = *j0;
    encrypt_block(&mut mask);
    let mut tag = *acc;
    for (t, m) in tag.iter_mut().zip(mask) {
        *t ^= m;
    }
    crate::wipe::array(&mut mask);
    Ok(tag)
}
