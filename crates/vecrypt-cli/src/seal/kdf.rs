//! The keys of a sealed stream: the file key from what the user holds (a key, a passphrase
//! through Argon2id, an Aigis-enc shared secret), and from the file key, by HKDF-SHA256
//! salted with the stream's nonce prefix, the header MAC key and the payload key.

use hkdf::Hkdf;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use zeroize::Zeroizing;

use super::header::{Cost, MAC_BYTES};
use crate::Failure;

/// Bytes of the file key, the MAC key and the payload key.
pub const KEY_BYTES: usize = 32;

/// A 32-byte secret, wiped when dropped.
pub(crate) type Key = Zeroizing<[u8; KEY_BYTES]>;

const MAC_LABEL: &[u8] = b"vecrypt seal v2 header mac key";
const PAYLOAD_LABEL: &[u8] = b"vecrypt seal v2 payload key";
const KEM_LABEL: &[u8] = b"vecrypt seal v2 aigis-enc file key";

/// Argon2id (version 0x13) of `pass` under `salt` and `cost`, 32 bytes.
pub(crate) fn argon2(pass: &[u8], salt: &[u8], cost: Cost) -> Result<Key, Failure> {
    let params = argon2::Params::new(cost.m_kib, cost.t, cost.p, Some(KEY_BYTES))
        .map_err(|e| Failure::rejected(format!("passphrase cost: {e}")))?;
    let a = argon2::Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params);
    let mut out = Zeroizing::new([0u8; KEY_BYTES]);
    a.hash_password_into(pass, salt, &mut *out)
        .map_err(|e| Failure::usage(format!("argon2: {e}")))?;
    Ok(out)
}

/// The file key of an Aigis-enc stream: the shared secret bound to the recipient's public
/// key, so that a ciphertext cannot open under another key pair's secret key.
pub(crate) fn kem_file_key(shared: &[u8], public_key: &[u8]) -> Result<Key, Failure> {
    let mut key = Zeroizing::new([0u8; KEY_BYTES]);
    Hkdf::<Sha256>::new(None, shared)
        .expand_multi_info(&[KEM_LABEL, public_key], &mut *key)
        .map_err(|_| Failure::usage("key derivation failed"))?;
    Ok(key)
}

fn expand(file_key: &[u8], nonce_prefix: &[u8], info: &[&[u8]]) -> Result<Key, Failure> {
    let mut key = Zeroizing::new([0u8; KEY_BYTES]);
    Hkdf::<Sha256>::new(Some(nonce_prefix), file_key)
        .expand_multi_info(info, &mut *key)
        .map_err(|_| Failure::usage("key derivation failed"))?;
    Ok(key)
}

fn header_mac(file_key: &[u8], nonce_prefix: &[u8], body: &[u8]) -> Result<Hmac<Sha256>, Failure> {
    let mac_key = expand(file_key, nonce_prefix, &[MAC_LABEL])?;
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&*mac_key)
        .map_err(|_| Failure::usage("key derivation failed"))?;
    mac.update(body);
    Ok(mac)
}

/// The MAC that ends the header: HMAC-SHA256 of the header's body under the MAC key.
pub(crate) fn seal_header(
    file_key: &[u8],
    nonce_prefix: &[u8],
    body: &[u8],
) -> Result<[u8; MAC_BYTES], Failure> {
    Ok(header_mac(file_key, nonce_prefix, body)?
        .finalize()
        .into_bytes()
        .into())
}

/// Whether `mac` is the header MAC of `body` under `file_key`, compared in constant time.
pub(crate) fn header_checks(
    file_key: &[u8],
    nonce_prefix: &[u8],
    body: &[u8],
    mac: &[u8],
) -> Result<bool, Failure> {
    Ok(header_mac(file_key, nonce_prefix, body)?
        .verify_slice(mac)
        .is_ok())
}

/// The key of the chunk AEAD, bound to the whole header, MAC included.
pub(crate) fn payload_key(
    file_key: &[u8],
    nonce_prefix: &[u8],
    header: &[u8],
) -> Result<Key, Failure> {
    expand(file_key, nonce_prefix, &[PAYLOAD_LABEL, header])
}
