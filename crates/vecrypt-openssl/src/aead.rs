//! GCM and MGM behind OpenSSL's streaming AEAD interface: associated data through `update`
//! with no output, data through `update`, the tag made (encryption) or checked (decryption)
//! in `final`.
//!
//! Each message runs through one of the library's AEAD streams: every update costs what its
//! own bytes cost, however the message is cut, and gives the same bytes and tag as the
//! one-shot call over the whole message. As with OpenSSL's own GCM, decryption releases
//! plaintext in each update and checks the tag only in `final`; a caller must discard the
//! plaintext when `final` fails.

use std::sync::Arc;

use vecrypt::modes::AeadStream;
use vecrypt::registry::{self, DynAead};
use zeroize::Zeroizing;

use crate::ctx::{Alg, Kind};

const TAG: usize = 16;

/// A keyed AEAD from the library's table, shared by a context and its duplicates (keying
/// never changes it), and its key: a context re-initialised with the same key (one message
/// after another, as record layers do) keeps the keyed object instead of making its key
/// schedule and hash powers again.
#[derive(Clone)]
struct Keyed(Arc<dyn DynAead>, Arc<Zeroizing<Vec<u8>>>);

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
        Some(Keyed(
            Arc::from((info.new)(key, None).ok()?),
            Arc::new(Zeroizing::new(key.to_vec())),
        ))
    }

    /// Whether this is keyed with `key`, compared without a data-dependent branch or early
    /// exit.
    fn has_key(&self, key: &[u8]) -> bool {
        let own: &[u8] = &self.1;
        bool::from(subtle::ConstantTimeEq::ct_eq(own, key))
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
    /// The message in progress, started by its first associated data or text.
    stream: Option<AeadStream>,
    /// The tag of the last message (encryption), valid after `final`.
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
            stream: None,
            tag: [0; TAG],
            tag_ready: false,
            tag_len: TAG,
            expected: None,
        }
    }

    fn reset_message(&mut self) {
        self.stream = None;
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
        if let Some(k) = key.filter(|k| !self.keyed.as_ref().is_some_and(|c| c.has_key(k))) {
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
            self.reset_message();
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

    /// The keyed AEAD and the message in progress, started if it is not yet.
    fn message(&mut self) -> Option<(&dyn DynAead, &mut AeadStream)> {
        let k = self.keyed.as_ref()?;
        if !self.iv_set {
            return None;
        }
        if self.stream.is_none() {
            self.stream = Some(k.0.start(&self.iv, !self.encrypt).ok()?);
            self.tag_ready = false;
        }
        Some((&*k.0, self.stream.as_mut()?))
    }

    pub fn add_aad(&mut self, ad: &[u8]) -> bool {
        self.message()
            .is_some_and(|(k, s)| k.update_aad(s, ad).is_ok())
    }

    /// One data update, in place.
    pub fn update(&mut self, buf: &mut [u8]) -> bool {
        self.message()
            .is_some_and(|(k, s)| k.update(s, buf).is_ok())
    }

    /// Encryption: makes the tag. Decryption: checks it.
    pub fn finish(&mut self) -> bool {
        let encrypt = self.encrypt;
        let expected = self.expected.clone();
        let Some((k, s)) = self.message() else {
            return false;
        };
        let ok = if encrypt {
            match k.finish(s) {
                Ok(tag) => {
                    self.tag = tag;
                    self.stream = None;
                    self.tag_ready = true;
                    return true;
                }
                Err(_) => false,
            }
        } else {
            expected.is_some_and(|t| k.verify(s, &t).is_ok())
        };
        self.reset_message();
        ok
    }
}
