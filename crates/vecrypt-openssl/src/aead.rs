//! GCM and MGM behind OpenSSL's streaming AEAD interface: associated data through `update`
//! with no output, data through `update`, the tag made (encryption) or checked (decryption)
//! in `final`.
//!
//! The library's AEADs take a whole message at once. Each data update therefore runs the
//! one-shot encryption over the whole message so far and releases the part not yet
//! released: a message given in one update (the usual case, and what `openssl speed -aead`
//! does) costs one pass; a message given in n pieces costs n passes over a growing prefix.
//! GCM and MGM make their keystream independently of the data, so decryption releases
//! `encrypt(ciphertext)`, which is the plaintext, and checks the tag in `final` against
//! the whole ciphertext. As with OpenSSL's own GCM, plaintext is released before the tag
//! is checked; a caller must discard it when `final` fails.

use std::sync::Arc;

use vecrypt::registry::{self, DynAead};
use zeroize::{Zeroize, Zeroizing};

use crate::ctx::{Alg, Kind};

const TAG: usize = 16;

/// A keyed AEAD from the library's table, shared by a context and its duplicates (keying
/// never changes it).
#[derive(Clone)]
struct Keyed(Arc<dyn DynAead>);

impl Keyed {
    /// The library's name of the AEAD an algorithm of the provider runs.
    fn name(alg: &Alg) -> Option<&'static str> {
        Some(match (alg.kind, alg.cipher) {
            (Kind::Gcm, "aes-128") => "aes-128-gcm",
            (Kind::Gcm, "aes-192") => "aes-192-gcm",
            (Kind::Gcm, "aes-256") => "aes-256-gcm",
            (Kind::Gcm, "ublock-128-128") => "ublock-128-gcm",
            (Kind::Mgm, "kuznyechik") => "kuznyechik-mgm",
            _ => return None,
        })
    }

    fn new(alg: &Alg, key: &[u8]) -> Option<Keyed> {
        if key.len() != alg.key_len {
            return None;
        }
        let info = registry::aead(Self::name(alg)?).ok()?;
        Some(Keyed(Arc::from((info.new)(key, None).ok()?)))
    }

    fn seal(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8]) -> Option<[u8; TAG]> {
        self.0.encrypt_detached(nonce, ad, buf).ok()
    }

    fn open(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8], tag: &[u8]) -> bool {
        self.0.decrypt_detached(nonce, ad, buf, tag).is_ok()
    }
}

/// The AEAD part of a context.
#[derive(Clone)]
pub(crate) struct AeadState {
    keyed: Option<Keyed>,
    mgm: bool,
    encrypt: bool,
    iv: Vec<u8>,
    iv_len: usize,
    iv_set: bool,
    aad: Vec<u8>,
    /// The message so far: plaintext when encrypting, ciphertext when decrypting.
    data: Zeroizing<Vec<u8>>,
    data_started: bool,
    /// The tag of the message so far (encryption), valid after `final`.
    tag: [u8; TAG],
    tag_ready: bool,
    tag_len: usize,
    /// The tag to check (decryption).
    expected: Option<Vec<u8>>,
}

impl AeadState {
    pub fn new(iv_len: usize) -> Self {
        AeadState {
            keyed: None,
            mgm: false,
            encrypt: true,
            iv: vec![0; iv_len],
            iv_len,
            iv_set: false,
            aad: Vec::new(),
            data: Zeroizing::new(Vec::new()),
            data_started: false,
            tag: [0; TAG],
            tag_ready: false,
            tag_len: TAG,
            expected: None,
        }
    }

    fn reset_message(&mut self) {
        self.aad.clear();
        self.data.zeroize();
        self.data.clear();
        self.data_started = false;
        self.tag_ready = false;
    }

    pub fn init(
        &mut self,
        alg: &Alg,
        encrypt: bool,
        key: Option<&[u8]>,
        iv: Option<&[u8]>,
    ) -> bool {
        self.encrypt = encrypt;
        self.mgm = alg.kind == Kind::Mgm;
        if let Some(k) = key {
            match Keyed::new(alg, k) {
                Some(c) => self.keyed = Some(c),
                None => return false,
            }
        }
        if let Some(iv) = iv {
            if iv.len() < self.iv_len {
                return false;
            }
            self.iv = iv[..self.iv_len].to_vec();
            self.iv_set = true;
        }
        self.expected = None;
        self.reset_message();
        true
    }

    pub fn iv_len(&self) -> usize {
        self.iv_len
    }

    pub fn iv(&self) -> &[u8] {
        &self.iv
    }

    pub fn tag_len(&self) -> usize {
        self.tag_len
    }

    /// GCM takes IVs of 1 to 128 bytes here; MGM only 16.
    pub fn set_iv_len(&mut self, alg: &Alg, len: usize) -> bool {
        let ok = match alg.kind {
            Kind::Mgm => len == 16,
            _ => (1..=128).contains(&len),
        };
        if ok {
            self.iv_len = len;
            self.iv = vec![0; len];
            self.iv_set = false;
        }
        ok
    }

    fn tag_range(&self) -> core::ops::RangeInclusive<usize> {
        if self.mgm { 4..=TAG } else { 12..=TAG }
    }

    pub fn set_tag_len(&mut self, len: usize) -> bool {
        let ok = self.tag_range().contains(&len);
        if ok {
            self.tag_len = len;
        }
        ok
    }

    /// The tag to check when decrypting.
    pub fn set_tag(&mut self, tag: &[u8]) -> bool {
        if self.encrypt || !self.tag_range().contains(&tag.len()) {
            return false;
        }
        self.tag_len = tag.len();
        self.expected = Some(tag.to_vec());
        true
    }

    /// The first `len` bytes of the tag, once encryption is final.
    pub fn tag(&self, len: usize) -> Option<Vec<u8>> {
        if !self.encrypt || !self.tag_ready || !(1..=TAG).contains(&len) {
            return None;
        }
        Some(self.tag[..len].to_vec())
    }

    pub fn add_aad(&mut self, ad: &[u8]) -> bool {
        if self.data_started || self.keyed.is_none() {
            return false;
        }
        self.aad.extend_from_slice(ad);
        true
    }

    /// One data update: `out` receives as many bytes as `input` has.
    pub fn update(&mut self, input: &[u8], out: &mut Vec<u8>) -> bool {
        let Some(k) = &self.keyed else {
            return false;
        };
        if !self.iv_set {
            return false;
        }
        let done = self.data.len();
        self.data.extend_from_slice(input);
        self.data_started = true;
        let mut all = Zeroizing::new(self.data.to_vec());
        let Some(tag) = k.seal(&self.iv, &self.aad, &mut all) else {
            return false;
        };
        self.tag = tag;
        out.clear();
        out.extend_from_slice(&all[done..]);
        true
    }

    /// Encryption: makes the tag. Decryption: checks it.
    pub fn finish(&mut self) -> bool {
        let Some(k) = &self.keyed else {
            return false;
        };
        if !self.iv_set {
            return false;
        }
        if self.encrypt {
            if !self.data_started {
                let Some(tag) = k.seal(&self.iv, &self.aad, &mut []) else {
                    return false;
                };
                self.tag = tag;
            }
            self.tag_ready = true;
            return true;
        }
        let Some(expected) = &self.expected else {
            return false;
        };
        let mut copy = Zeroizing::new(self.data.to_vec());
        let ok = k.open(&self.iv, &self.aad, &mut copy, expected);
        self.reset_message();
        ok
    }
}
