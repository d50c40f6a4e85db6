//! The sealed-stream format of `vecrypt seal` and `vecrypt open` (version 2,
//! `docs/format.md`): a key-committing header, then 64 KiB chunks sealed and opened in
//! parallel batches of bounded size.
//!
//! [`seal_stream`] and [`open_stream`] read any input and hand what they make to a callback.
//! `open_stream` checks the header MAC before it reads any chunk, so a wrong key, passphrase
//! or secret key is reported at once, and it hands over a chunk only after its tag checks.

mod header;
mod kdf;
mod pipeline;

use std::io::Read;

use rayon::prelude::*;
use vecrypt::aes::{AesGcm, K256};
use vecrypt::aigis::{Aigis, HashMode, ParamSet};
use vecrypt::kuznyechik::KuznyechikMgm;
use zeroize::Zeroizing;

pub use header::{
    Cost, KEM_KEY_MAGIC, KemKey, MAC_BYTES, MAGIC, NONCE_PREFIX, Suite, VERSION, decode_kem_key,
    encode_kem_key, mode_name,
};
pub use kdf::KEY_BYTES;

use crate::Failure;
use header::{Header, KIND_KEM, KIND_KEY, KIND_PASSPHRASE, corrupt, mode_id, set_id};
use kdf::Key;
use pipeline::Input;

/// Plaintext bytes in every chunk but the last.
pub const CHUNK: usize = 64 * 1024;
/// Tag bytes after each chunk.
pub const TAG: usize = 16;
/// Bytes of a stored chunk: a full body and its tag.
const SEALED: usize = CHUNK + TAG;

/// Where a stream's output goes, a piece at a time.
pub type Out<'a> = dyn FnMut(&[u8]) -> Result<(), Failure> + 'a;

/// Told how many more input bytes have been handled, for a progress display.
pub type Progress<'a> = dyn Fn(u64) + 'a;

/// How a stream is locked: what `seal` needs besides the data, randomness included.
pub enum Lock<'a> {
    Key(&'a [u8]),
    Passphrase {
        pass: &'a [u8],
        salt: [u8; 16],
        cost: Cost,
    },
    Kem {
        pk: &'a [u8],
        set: ParamSet,
        mode: HashMode,
        coins: [u8; 32],
    },
}

/// How a stream is unlocked.
pub enum Unlock<'a> {
    Key(&'a [u8]),
    /// A passphrase, and the most Argon2id cost the header may ask for.
    Passphrase(&'a [u8], Cost),
    /// The secret key file's bytes, with its key-file header.
    Kem(&'a [u8]),
}

fn file_key_from(key: &[u8]) -> Result<Key, Failure> {
    let k: [u8; KEY_BYTES] = key.try_into().map_err(|_| {
        Failure::usage(format!(
            "the key must be {KEY_BYTES} bytes, got {}",
            key.len()
        ))
    })?;
    Ok(Zeroizing::new(k))
}

/// The public key inside an Aigis-enc secret key: `s ‖ pk ‖ H(pk) ‖ z`.
fn public_key_in(set: ParamSet, sk: &[u8]) -> Option<&[u8]> {
    let end = sk.len().checked_sub(64)?;
    sk.get(end.checked_sub(set.public_key_bytes())?..end)
}

/// The whole header (body and MAC) and the file key.
fn lock(
    how: &Lock,
    suite: Suite,
    nonce_prefix: &[u8; NONCE_PREFIX],
) -> Result<(Vec<u8>, Key), Failure> {
    let (kind, params, file_key) = match how {
        Lock::Key(k) => (KIND_KEY, Vec::new(), file_key_from(k)?),
        Lock::Passphrase { pass, salt, cost } => {
            if !cost.in_format() {
                return Err(Failure::usage(format!(
                    "Argon2id cost {cost} out of bounds"
                )));
            }
            let mut p = salt.to_vec();
            for v in [cost.m_kib, cost.t, cost.p] {
                p.extend_from_slice(&v.to_be_bytes());
            }
            (KIND_PASSPHRASE, p, kdf::argon2(pass, salt, *cost)?)
        }
        Lock::Kem {
            pk,
            set,
            mode,
            coins,
        } => {
            let kem = Aigis::new(*set, *mode);
            let mut ct = vec![0u8; set.ciphertext_bytes()];
            let ss = kem
                .encapsulate_into(pk, coins, &mut ct)
                .map_err(|e| Failure::usage(format!("{} public key: {e}", set.name())))?;
            let mut p = vec![set_id(*set), mode_id(*mode)];
            p.extend_from_slice(&ct);
            (KIND_KEM, p, kdf::kem_file_key(&*ss, pk)?)
        }
    };
    let mut header = header::encode_body(suite, kind, &params, nonce_prefix)?;
    let mac = kdf::seal_header(&*file_key, nonce_prefix, &header)?;
    header.extend_from_slice(&mac);
    Ok((header, file_key))
}

fn kind_name(kind: u8) -> &'static str {
    match kind {
        KIND_KEY => "a key file (--key-file or --key-env)",
        KIND_PASSPHRASE => "a passphrase (--passphrase-file)",
        _ => "an Aigis-enc public key (open with --sk)",
    }
}

/// The file key from the header and what the user gave, before the header MAC is checked.
fn unlock(h: &Header, how: &Unlock) -> Result<Key, Failure> {
    let wanted = match how {
        Unlock::Key(_) => KIND_KEY,
        Unlock::Passphrase(..) => KIND_PASSPHRASE,
        Unlock::Kem(_) => KIND_KEM,
    };
    if wanted != h.kind {
        return Err(Failure::rejected(format!(
            "wrong kind of key: the input was sealed with {}",
            kind_name(h.kind)
        )));
    }
    match how {
        Unlock::Key(k) => file_key_from(k),
        Unlock::Passphrase(pass, max) => {
            let (salt, cost) = h
                .passphrase()
                .ok_or_else(|| corrupt("bad key parameters"))?;
            if !cost.in_format() {
                return Err(corrupt("unreasonable passphrase cost"));
            }
            if !cost.within(*max) {
                return Err(Failure::rejected(format!(
                    "the input asks for an Argon2id cost of {cost} (memory KiB, passes, lanes), \
                     above the limit {max}; give --max-argon2 {cost} if you trust its source"
                )));
            }
            kdf::argon2(pass, salt, cost)
        }
        Unlock::Kem(file) => {
            let (set, mode, ct) = h.kem().ok_or_else(|| corrupt("bad key parameters"))?;
            let (s, m, sk) = decode_kem_key(file, true)?.ok_or_else(|| {
                Failure::usage(
                    "the secret key file has no Aigis-enc key header naming its set and hash \
                     mode (write key files with `vecrypt kem aigis-enc-N keygen`)",
                )
            })?;
            if s != set || m != mode {
                return Err(Failure::rejected(format!(
                    "wrong key: the secret key is {} ({}), the input was sealed to {} ({})",
                    s.name(),
                    mode_name(m),
                    set.name(),
                    mode_name(mode)
                )));
            }
            let pk = public_key_in(set, sk).ok_or_else(|| corrupt("bad secret key"))?;
            let ss = Aigis::new(set, mode)
                .decapsulate(sk, ct)
                .map_err(|e| Failure::rejected(format!("{}: {e}", set.name())))?;
            kdf::kem_file_key(&*ss, pk)
        }
    }
}

/// The chunk AEAD under the payload key.
enum Aead {
    Gcm(Box<AesGcm<K256>>),
    Mgm(Box<KuznyechikMgm>),
}

impl Aead {
    fn new(suite: Suite, payload_key: &[u8]) -> Result<Self, Failure> {
        Ok(match suite {
            Suite::Aes256Gcm => Aead::Gcm(Box::new(
                AesGcm::<K256>::from_key(payload_key)
                    .map_err(|e| Failure::lib("aes-256-gcm", e))?,
            )),
            Suite::KuznyechikMgm => Aead::Mgm(Box::new(
                KuznyechikMgm::from_key(payload_key)
                    .map_err(|e| Failure::lib("kuznyechik-mgm", e))?,
            )),
        })
    }

    /// Chunk `index`'s nonce: zeros, the index (64 bits, big-endian), the last-chunk flag.
    fn nonce(&self, index: u64, last: bool) -> ([u8; 16], usize) {
        let len = match self {
            Aead::Gcm(_) => 12,
            Aead::Mgm(_) => 16,
        };
        let mut n = [0u8; 16];
        n[len - 9..len - 1].copy_from_slice(&index.to_be_bytes());
        n[len - 1] = u8::from(last);
        (n, len)
    }

    /// Seals a chunk in place, its body followed by the room for its tag.
    fn seal(&self, index: u64, last: bool, sealed: &mut [u8]) -> Result<(), vecrypt::Error> {
        let split = sealed.len().saturating_sub(TAG);
        let (n, len) = self.nonce(index, last);
        let (body, room) = sealed.split_at_mut(split);
        let tag = match self {
            Aead::Gcm(g) => g.encrypt_detached(&n[..len], &[], body)?,
            Aead::Mgm(m) => m.encrypt_detached(&n[..len], &[], body)?,
        };
        room.copy_from_slice(&tag);
        Ok(())
    }

    /// Checks and opens a chunk followed by its tag, in place.
    fn open(&self, index: u64, last: bool, sealed: &mut [u8]) -> bool {
        let Some(split) = sealed.len().checked_sub(TAG) else {
            return false;
        };
        let (n, len) = self.nonce(index, last);
        let (body, tag) = sealed.split_at_mut(split);
        match self {
            Aead::Gcm(g) => g.decrypt_detached(&n[..len], &[], body, tag).is_ok(),
            Aead::Mgm(m) => m.decrypt_detached(&n[..len], &[], body, tag).is_ok(),
        }
    }
}

/// Chunks handled together: enough to keep every core busy, few enough to bound memory.
fn batch_chunks() -> usize {
    (rayon::current_num_threads() * 4).clamp(8, 64)
}

/// Seals `input` and hands the header and the sealed chunks to `out`. Nothing reaches `out`
/// before the first batch of input has been read.
pub fn seal_stream<R: Read + Send + 'static>(
    how: &Lock,
    suite: Suite,
    nonce_prefix: &[u8; NONCE_PREFIX],
    input: R,
    out: &mut Out,
    progress: Option<&Progress>,
) -> Result<(), Failure> {
    let (header, file_key) = lock(how, suite, nonce_prefix)?;
    let aead = Aead::new(
        suite,
        &*kdf::payload_key(&*file_key, nonce_prefix, &header)?,
    )?;
    drop(file_key);
    let mut header = Some(header);
    pipeline::run(
        Input::new(input),
        batch_chunks() * SEALED,
        |input, b| {
            // Each body is read to its place in the sealed stream, before the room for its
            // tag. The stream's last chunk may be short, and empty only if the stream is.
            (b.len, b.chunks, b.last) = (0, 0, false);
            for room in b.data.chunks_exact_mut(SEALED) {
                let got = input.read_full(&mut room[..CHUNK])?;
                if got > 0 || b.first + b.chunks as u64 == 0 {
                    b.len += got + TAG;
                    b.chunks += 1;
                }
                if got < CHUNK {
                    b.last = true;
                    return Ok(());
                }
            }
            b.last = input.at_eof()?;
            Ok(())
        },
        |b| {
            let (chunks, last, first) = (b.chunks, b.last, b.first);
            b.data[..b.len]
                .par_chunks_mut(SEALED)
                .enumerate()
                .try_for_each(|(j, sealed)| {
                    let final_chunk = last && j + 1 == chunks;
                    aead.seal(first + j as u64, final_chunk, sealed)
                })
                .map_err(|e: vecrypt::Error| Failure::lib("seal", e))
        },
        |b| {
            if let Some(h) = header.take() {
                out(&h)?;
            }
            out(&b.data[..b.len])?;
            if let Some(p) = progress {
                p((b.len - b.chunks * TAG) as u64);
            }
            Ok(())
        },
    )
}

/// Checks and hands to `out` the plaintext of a sealed stream: the header MAC first (a wrong
/// key ends here, with status 1, before any chunk is read), then one authenticated chunk
/// at a time, in order; stops with status 1 at the first chunk that fails.
pub fn open_stream<R: Read + Send + 'static>(
    how: &Unlock,
    input: R,
    out: &mut Out,
    progress: Option<&Progress>,
) -> Result<(), Failure> {
    let mut input = Input::new(input);
    let header = header::read(&mut input)?;
    let file_key = unlock(&header, how)?;
    let (body, prefix) = (&header.body, &header.nonce_prefix);
    if !kdf::header_checks(&*file_key, prefix, body, &header.mac)? {
        return Err(Failure::rejected(
            "wrong key, passphrase or secret key, or a damaged header \
             (the header does not authenticate)",
        ));
    }
    let stored = header.bytes();
    if let Some(p) = progress {
        p(stored.len() as u64);
    }
    let payload_key = kdf::payload_key(&*file_key, prefix, &stored)?;
    drop(file_key);
    let aead = Aead::new(header.suite, &*payload_key)?;
    pipeline::run(
        input,
        batch_chunks() * SEALED,
        |input, b| {
            b.len = input.read_full(&mut b.data)?;
            b.last = b.len < b.data.len() || input.at_eof()?;
            // Chunks with at least a tag; a shorter remainder is a truncated stream.
            b.chunks = b.len / SEALED + usize::from(b.len % SEALED >= TAG);
            b.oks.resize(b.chunks, false);
            Ok(())
        },
        |b| {
            let (chunks, last, first) = (b.chunks, b.last, b.first);
            let (data, oks) = (&mut b.data[..b.len], &mut b.oks);
            data.par_chunks_mut(SEALED)
                .zip(oks.par_iter_mut())
                .enumerate()
                .for_each(|(j, (sealed, ok))| {
                    let final_chunk = last && j + 1 == chunks;
                    *ok = aead.open(first + j as u64, final_chunk, sealed);
                });
            Ok(())
        },
        |b| {
            for (j, (sealed, &ok)) in b.data[..b.len].chunks(SEALED).zip(&b.oks).enumerate() {
                let i = b.first + j as u64;
                // Only the first chunk of an empty stream may be empty.
                if !ok || (i > 0 && sealed.len() == TAG) {
                    return Err(Failure::rejected(format!(
                        "authentication failed at chunk {i}: damaged, truncated or reordered input"
                    )));
                }
                out(&sealed[..sealed.len() - TAG])?;
                if let Some(p) = progress {
                    p(sealed.len() as u64);
                }
            }
            if b.oks.len() * SEALED < b.len || b.len == 0 {
                return Err(Failure::rejected(
                    "authentication failed: the input is truncated",
                ));
            }
            Ok(())
        },
    )
}

#[cfg(test)]
mod tests;
