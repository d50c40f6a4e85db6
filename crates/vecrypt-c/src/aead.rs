//! The AEADs of the library's table (GCM over AES, Kuznyechik and uBlock, and
//! Kuznyechik-MGM), in one call each: sizes, encryption with the tag appended, and
//! decryption that writes nothing unless the tag checks.

use core::ffi::{c_char, c_int};

use vecrypt_core::registry::{self, DynAead};
use zeroize::Zeroizing;

use crate::VECRYPT_AEAD_ABYTES;
use crate::ptr::{input, name_of, output};
use crate::status::guard;

/// The AEAD `name` of the library's table, keyed with `key`; its key schedule is wiped when
/// it is dropped.
fn aead_new(name: &str, key: &[u8]) -> Result<Box<dyn DynAead>, ()> {
    let info = registry::aead(name).map_err(|_| ())?;
    (info.new)(key, None).map_err(|_| ())
}

/// The key and recommended nonce lengths of the AEAD `name`, each written where its pointer
/// is not NULL. Tags are always `VECRYPT_AEAD_ABYTES` (16) bytes.
///
/// # Safety
/// `name` is a NUL-terminated string; each non-NULL pointer is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vecrypt_aead_sizes(
    name: *const c_char,
    keylen: *mut usize,
    npublen: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY: the caller's contract for `name`.
        let s = registry::aead(unsafe { name_of(name) }?).map_err(|_| ())?;
        // SAFETY: each pointer is NULL or writable.
        unsafe {
            if let Some(p) = keylen.as_mut() {
                *p = s.key_len;
            }
            if let Some(p) = npublen.as_mut() {
                *p = s.nonce_len;
            }
        }
        Ok(())
    })
}

/// Encrypts `mlen` bytes of `m` with the AEAD `name` (`"aes-128-gcm"`, `"aes-192-gcm"`,
/// `"aes-256-gcm"`, `"kuznyechik-mgm"`, `"kuznyechik-gcm"`, `"ublock-128-gcm"`,
/// `"ublock-128-256-gcm"`), authenticating `adlen` bytes of `ad` as well, under the key `k`
/// and the nonce `npub`. Writes the ciphertext followed by the 16-byte tag to `c`
/// (`mlen + VECRYPT_AEAD_ABYTES` bytes) and that length to `*clen` (when `clen` is not
/// NULL). `c` may equal `m`. GCM takes nonces of any length from 1 byte (12 recommended);
/// MGM takes 16 bytes whose top bit is zero. A nonce must never repeat under one key.
///
/// # Safety
/// Every pointer points to as many bytes as its length says (`c` to `mlen + 16` writable
/// bytes); `clen` is NULL or writable.
#[allow(clippy::too_many_arguments)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vecrypt_aead_encrypt(
    name: *const c_char,
    c: *mut u8,
    clen: *mut usize,
    m: *const u8,
    mlen: usize,
    ad: *const u8,
    adlen: usize,
    npub: *const u8,
    npublen: usize,
    k: *const u8,
    klen: usize,
) -> c_int {
    guard(|| {
        // SAFETY: the caller's contract for `name`.
        let name = unsafe { name_of(name) }?;
        // SAFETY: the caller's contract for `k`, `ad` and `npub`.
        let (key, ad, npub) =
            unsafe { (input(k, klen)?, input(ad, adlen)?, input(npub, npublen)?) };
        let aead = aead_new(name, key)?;
        let total = mlen.checked_add(VECRYPT_AEAD_ABYTES).ok_or(())?;
        if c.is_null() {
            return Err(());
        }
        // The message is encrypted in a wiped scratch copy first, so that a refused nonce
        // leaves `c` untouched.
        // SAFETY: the caller's contract for `m`.
        let mut body = Zeroizing::new(unsafe { input(m, mlen) }?.to_vec());
        let tag = aead.encrypt_detached(npub, ad, &mut body).map_err(|_| ())?;
        // SAFETY: `c` has `mlen + 16` writable bytes; `m` is no longer read.
        let out = unsafe { output(c, total) }?;
        out[..mlen].copy_from_slice(&body);
        out[mlen..].copy_from_slice(&tag);
        // SAFETY: `clen` is NULL or writable.
        if let Some(p) = unsafe { clen.as_mut() } {
            *p = total;
        }
        Ok(())
    })
}

/// Checks and decrypts `clen` bytes of `c` (ciphertext followed by the 16-byte tag) with the
/// AEAD `name`, the associated data `ad`, the nonce `npub` and the key `k`. On success writes
/// `clen - 16` bytes of plaintext to `m` and that length to `*mlen` (when not NULL). On any
/// failure, a wrong tag included, returns -1 and writes nothing to `m` or `*mlen`. `m` may
/// equal `c`.
///
/// # Safety
/// Every pointer points to as many bytes as its length says (`m` to `clen - 16` writable
/// bytes); `mlen` is NULL or writable.
#[allow(clippy::too_many_arguments)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vecrypt_aead_decrypt(
    name: *const c_char,
    m: *mut u8,
    mlen: *mut usize,
    c: *const u8,
    clen: usize,
    ad: *const u8,
    adlen: usize,
    npub: *const u8,
    npublen: usize,
    k: *const u8,
    klen: usize,
) -> c_int {
    guard(|| {
        // SAFETY: the caller's contract for `name`.
        let name = unsafe { name_of(name) }?;
        // SAFETY: the caller's contract for `k`, `ad` and `npub`.
        let (key, ad, npub) =
            unsafe { (input(k, klen)?, input(ad, adlen)?, input(npub, npublen)?) };
        let aead = aead_new(name, key)?;
        let n = clen.checked_sub(VECRYPT_AEAD_ABYTES).ok_or(())?;
        // SAFETY: the caller's contract for `c`.
        let sealed = unsafe { input(c, clen) }?;
        let (body, tag) = sealed.split_at(n);
        let mut plain = Zeroizing::new(body.to_vec());
        aead.decrypt_detached(npub, ad, &mut plain, tag)
            .map_err(|_| ())?;
        if m.is_null() && n > 0 {
            return Err(());
        }
        // SAFETY: `m` has `clen - 16` writable bytes; `c` is no longer read.
        let out = unsafe { output(m, n) }?;
        out.copy_from_slice(&plain);
        // SAFETY: `mlen` is NULL or writable.
        if let Some(p) = unsafe { mlen.as_mut() } {
            *p = n;
        }
        Ok(())
    })
}
