//! The C interface of vecrypt: block ciphers with ECB, CBC and CTR, the AEADs, and
//! Aigis-enc, behind a small ABI that `include/vecrypt.h` declares.
//!
//! Every exported function checks its pointers and lengths before it builds a slice, runs
//! its body under `catch_unwind` so that no panic crosses into C, and returns 0 on success
//! and -1 on failure (functions returning pointers return NULL on failure).

// This crate is a boundary to C: its unsafe code is the foreign calls and the pointers they
// hand over, each block with its SAFETY reason, each unsafe fn with its contract.
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks, clippy::missing_safety_doc)]

use core::ffi::{c_char, c_int};
use std::ffi::CStr;
use std::panic::{AssertUnwindSafe, catch_unwind};

use vecrypt_core::aigis::{Aigis, HashMode, ParamSet};
use vecrypt_core::registry::{self, DynAead, DynCipher};
use zeroize::Zeroizing;

mod consts;
pub use consts::*;

/// The result of a call: 0 on success.
const OK: c_int = 0;
/// The result of a failed call.
const FAIL: c_int = -1;

/// A keyed block cipher of any algorithm. Opaque: made by `vecrypt_cipher_new`, released by
/// `vecrypt_cipher_free`, which wipes its key schedule. One handle may be used by several
/// threads at once; calls do not change it.
#[allow(non_camel_case_types)]
pub struct vecrypt_cipher {
    inner: Box<dyn DynCipher>,
}

/// Runs `f` and turns its outcome, or a panic, into 0 or -1.
fn guard(f: impl FnOnce() -> Result<(), ()>) -> c_int {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => OK,
        _ => FAIL,
    }
}

/// The text of a C string, or an error if it is NULL or not UTF-8.
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string.
unsafe fn name_of<'a>(p: *const c_char) -> Result<&'a str, ()> {
    if p.is_null() {
        return Err(());
    }
    // SAFETY: non-null and NUL-terminated by the caller's contract.
    let s = unsafe { CStr::from_ptr(p) };
    s.to_str().map_err(|_| ())
}

/// A read-only slice of `len` bytes at `p`; NULL is accepted only for an empty slice.
///
/// # Safety
/// When `len > 0`, `p` points to `len` readable bytes that stay valid for `'a`.
unsafe fn input<'a>(p: *const u8, len: usize) -> Result<&'a [u8], ()> {
    if len == 0 {
        return Ok(&[]);
    }
    if p.is_null() || len > isize::MAX as usize {
        return Err(());
    }
    // SAFETY: non-null, `len` readable bytes by the caller's contract.
    Ok(unsafe { core::slice::from_raw_parts(p, len) })
}

/// A writable slice of `len` bytes at `p`; NULL is accepted only for an empty slice.
///
/// # Safety
/// When `len > 0`, `p` points to `len` writable bytes that nothing else reads or writes
/// while the slice lives.
unsafe fn output<'a>(p: *mut u8, len: usize) -> Result<&'a mut [u8], ()> {
    if len == 0 {
        return Ok(&mut []);
    }
    if p.is_null() || len > isize::MAX as usize {
        return Err(());
    }
    // SAFETY: non-null, `len` writable bytes, not aliased, by the caller's contract.
    Ok(unsafe { core::slice::from_raw_parts_mut(p, len) })
}

/// Copies `len` bytes from `src` to `dst` (which may be the same buffer or overlap) and
/// returns `dst` as a slice, so that a mode can run in place on it.
///
/// # Safety
/// `src` and `dst` each point to `len` valid bytes (readable, and writable for `dst`).
unsafe fn staged<'a>(dst: *mut u8, src: *const u8, len: usize) -> Result<&'a mut [u8], ()> {
    if len > 0 && (src.is_null() || dst.is_null()) {
        return Err(());
    }
    if len > 0 && !core::ptr::eq(src, dst) {
        // SAFETY: both valid for `len` bytes; `copy` allows overlap.
        unsafe { core::ptr::copy(src, dst, len) };
    }
    // SAFETY: as for `output`; `src` is not read again.
    unsafe { output(dst, len) }
}

/// Keys the block cipher `name` (one of `"ublock-128-128"`, `"ublock-128-256"`,
/// `"ublock-256-256"`, `"kuznyechik"`, `"aes-128"`, `"aes-192"`, `"aes-256"`, any case)
/// with `keylen` bytes at `key`. Returns NULL for an unknown name or a wrong key length.
///
/// # Safety
/// `name` is a NUL-terminated string; `key` points to `keylen` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vecrypt_cipher_new(
    name: *const c_char,
    key: *const u8,
    keylen: usize,
) -> *mut vecrypt_cipher {
    let made = catch_unwind(AssertUnwindSafe(|| -> Result<Box<vecrypt_cipher>, ()> {
        // SAFETY: the caller's contract for `name`.
        let name = unsafe { name_of(name) }?;
        // SAFETY: the caller's contract for `key`.
        let key = unsafe { input(key, keylen) }?;
        let info = registry::cipher(name).map_err(|_| ())?;
        let inner = (info.new)(key, None).map_err(|_| ())?;
        Ok(Box::new(vecrypt_cipher { inner }))
    }));
    match made {
        Ok(Ok(b)) => Box::into_raw(b),
        _ => core::ptr::null_mut(),
    }
}

/// Releases a cipher made by `vecrypt_cipher_new`, wiping its key schedule. NULL is
/// accepted and does nothing.
///
/// # Safety
/// `cipher` is NULL or a handle from `vecrypt_cipher_new` not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vecrypt_cipher_free(cipher: *mut vecrypt_cipher) {
    if cipher.is_null() {
        return;
    }
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the handle came from `Box::into_raw` and is freed once.
        drop(unsafe { Box::from_raw(cipher) });
    }));
}

/// The block length in bytes of `cipher` (16, or 32 for uBlock-256/256); 0 for NULL.
///
/// # Safety
/// `cipher` is NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vecrypt_cipher_block_bytes(cipher: *const vecrypt_cipher) -> usize {
    // SAFETY: NULL or a live handle.
    match unsafe { cipher.as_ref() } {
        Some(c) => c.inner.block_len(),
        None => 0,
    }
}

/// The handle behind `cipher`, or an error for NULL.
///
/// # Safety
/// `cipher` is NULL or a live handle.
unsafe fn handle<'a>(cipher: *const vecrypt_cipher) -> Result<&'a dyn DynCipher, ()> {
    // SAFETY: NULL or a live handle.
    unsafe { cipher.as_ref() }.map(|c| &*c.inner).ok_or(())
}

/// The IV of `cipher`'s block length at `iv`.
///
/// # Safety
/// `iv` points to one block of readable bytes.
unsafe fn block_iv<'a>(c: &dyn DynCipher, iv: *const u8) -> Result<&'a [u8], ()> {
    if iv.is_null() {
        return Err(());
    }
    // SAFETY: one block readable by the caller's contract.
    unsafe { input(iv, c.block_len()) }
}

/// One call of a whole-block mode: stage `inp` into `out`, then run `f` on it in place.
///
/// # Safety
/// The pointers' contracts of the mode functions.
unsafe fn run_mode(
    cipher: *const vecrypt_cipher,
    out: *mut u8,
    inp: *const u8,
    len: usize,
    iv: *const u8,
    f: impl FnOnce(&dyn DynCipher, &[u8], &mut [u8]) -> Result<(), vecrypt_core::Error>,
) -> c_int {
    guard(|| {
        // SAFETY: the caller's contract for `cipher`.
        let c = unsafe { handle(cipher) }?;
        let iv = if iv.is_null() {
            &[][..]
        } else {
            // SAFETY: the caller's contract for `iv`.
            unsafe { block_iv(c, iv) }?
        };
        // Checked before the input is copied into the output, so that a refused call
        // writes nothing.
        if !len.is_multiple_of(c.block_len()) {
            return Err(());
        }
        // SAFETY: the caller's contract for `out` and `inp`.
        let buf = unsafe { staged(out, inp, len) }?;
        f(c, iv, buf).map_err(|_| ())
    })
}

/// ECB encryption of `len` bytes (a whole number of blocks) from `in` to `out`; `out` may
/// equal `in`.
///
/// # Safety
/// `cipher` is a live handle; `in` and `out` point to `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vecrypt_ecb_encrypt(
    cipher: *const vecrypt_cipher,
    out: *mut u8,
    r#in: *const u8,
    len: usize,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        run_mode(cipher, out, r#in, len, core::ptr::null(), |c, _, b| {
            c.encrypt_ecb(b)
        })
    }
}

/// ECB decryption of `len` bytes (a whole number of blocks) from `in` to `out`; `out` may
/// equal `in`.
///
/// # Safety
/// `cipher` is a live handle; `in` and `out` point to `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vecrypt_ecb_decrypt(
    cipher: *const vecrypt_cipher,
    out: *mut u8,
    r#in: *const u8,
    len: usize,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        run_mode(cipher, out, r#in, len, core::ptr::null(), |c, _, b| {
            c.decrypt_ecb(b)
        })
    }
}

/// CBC encryption of `len` bytes (a whole number of blocks) from `in` to `out` with the
/// one-block `iv`, which is not changed; `out` may equal `in`.
///
/// # Safety
/// `cipher` is a live handle; `in` and `out` point to `len` bytes, `iv` to one block.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vecrypt_cbc_encrypt(
    cipher: *const vecrypt_cipher,
    out: *mut u8,
    r#in: *const u8,
    len: usize,
    iv: *const u8,
) -> c_int {
    if iv.is_null() {
        return FAIL;
    }
    // SAFETY: forwarded contract.
    unsafe { run_mode(cipher, out, r#in, len, iv, |c, iv, b| c.encrypt_cbc(iv, b)) }
}

/// CBC decryption of `len` bytes (a whole number of blocks) from `in` to `out` with the
/// one-block `iv`, which is not changed; `out` may equal `in`.
///
/// # Safety
/// `cipher` is a live handle; `in` and `out` point to `len` bytes, `iv` to one block.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vecrypt_cbc_decrypt(
    cipher: *const vecrypt_cipher,
    out: *mut u8,
    r#in: *const u8,
    len: usize,
    iv: *const u8,
) -> c_int {
    if iv.is_null() {
        return FAIL;
    }
    // SAFETY: forwarded contract.
    unsafe { run_mode(cipher, out, r#in, len, iv, |c, iv, b| c.decrypt_cbc(iv, b)) }
}

/// CTR: XORs `len` bytes (any length) of `in` with the key stream into `out`. `iv` is the
/// first counter block, one block long, incremented as a big-endian number over the whole
/// block; it is not changed. Encryption and decryption are the same; `out` may equal `in`.
///
/// # Safety
/// `cipher` is a live handle; `in` and `out` point to `len` bytes, `iv` to one block.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vecrypt_ctr_xor(
    cipher: *const vecrypt_cipher,
    out: *mut u8,
    r#in: *const u8,
    len: usize,
    iv: *const u8,
) -> c_int {
    guard(|| {
        // SAFETY: the caller's contract for `cipher`.
        let c = unsafe { handle(cipher) }?;
        // SAFETY: the caller's contract for `iv`.
        let iv = unsafe { block_iv(c, iv) }?;
        // SAFETY: the caller's contract for `out` and `in`.
        let buf = unsafe { staged(out, r#in, len) }?;
        c.apply_ctr(iv, buf).map_err(|_| ())
    })
}

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

/// The scheme named `name`: `"aigis-enc-1"` to `"aigis-enc-4"` (SHAKE) or the same followed
/// by `"-sm3"`.
fn kem_of(name: &str) -> Result<Aigis, ()> {
    let lower = name.to_ascii_lowercase();
    let (set, mode) = match lower.strip_suffix("-sm3") {
        Some(head) => (head, HashMode::Sm3),
        None => (lower.as_str(), HashMode::Shake),
    };
    if !set.starts_with("aigis-enc-") {
        return Err(());
    }
    Ok(Aigis::new(ParamSet::parse(set).map_err(|_| ())?, mode))
}

/// The public key, secret key, ciphertext and shared secret lengths of the KEM `name`, each
/// written where its pointer is not NULL.
///
/// # Safety
/// `name` is a NUL-terminated string; each non-NULL pointer is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vecrypt_kem_sizes(
    name: *const c_char,
    pklen: *mut usize,
    sklen: *mut usize,
    ctlen: *mut usize,
    sslen: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY: the caller's contract for `name`.
        let set = kem_of(unsafe { name_of(name) }?)?.set();
        let vals = [
            (pklen, set.public_key_bytes()),
            (sklen, set.secret_key_bytes()),
            (ctlen, set.ciphertext_bytes()),
            (sslen, VECRYPT_AIGIS_ENC_BYTES),
        ];
        for (p, v) in vals {
            // SAFETY: NULL or writable.
            if let Some(p) = unsafe { p.as_mut() } {
                *p = v;
            }
        }
        Ok(())
    })
}

/// Key generation from `coinslen` bytes of coins (`VECRYPT_AIGIS_KEYPAIR_COINBYTES`, 64:
/// `d || z`, as the known-answer files list them). For tests: secret coins give a secret
/// key. Writes the public key to `pk` and the secret key to `sk`, sized by
/// `vecrypt_kem_sizes`.
///
/// # Safety
/// `name` is a NUL-terminated string; `pk` and `sk` point to the public and secret key
/// lengths of writable bytes, `coins` to `coinslen` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vecrypt_kem_keypair_derand(
    name: *const c_char,
    pk: *mut u8,
    sk: *mut u8,
    coins: *const u8,
    coinslen: usize,
) -> c_int {
    guard(|| {
        // SAFETY: the caller's contract for `name`.
        let kem = kem_of(unsafe { name_of(name) }?)?;
        if coinslen != VECRYPT_AIGIS_KEYPAIR_COINBYTES || pk.is_null() || sk.is_null() {
            return Err(());
        }
        // SAFETY: the caller's contract for `coins`.
        let coins = unsafe { input(coins, coinslen) }?;
        let set = kem.set();
        let mut p = vec![0u8; set.public_key_bytes()];
        let mut s = Zeroizing::new(vec![0u8; set.secret_key_bytes()]);
        kem.keypair_into(coins, &mut p, &mut s).map_err(|_| ())?;
        // SAFETY: the caller's contract for `pk` and `sk`.
        unsafe { output(pk, p.len()) }?.copy_from_slice(&p);
        // SAFETY: as above.
        unsafe { output(sk, s.len()) }?.copy_from_slice(&s);
        Ok(())
    })
}

/// Key generation from the system's random generator: writes the public key to `pk` and the
/// secret key to `sk`, sized by `vecrypt_kem_sizes`.
///
/// # Safety
/// `name` is a NUL-terminated string; `pk` and `sk` point to the public and secret key
/// lengths of writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vecrypt_kem_keypair(
    name: *const c_char,
    pk: *mut u8,
    sk: *mut u8,
) -> c_int {
    let mut coins = Zeroizing::new([0u8; VECRYPT_AIGIS_KEYPAIR_COINBYTES]);
    if getrandom::fill(&mut coins[..]).is_err() {
        return FAIL;
    }
    // SAFETY: forwarded contract; `coins` is a local array.
    unsafe { vecrypt_kem_keypair_derand(name, pk, sk, coins.as_ptr(), coins.len()) }
}

/// Encapsulation from `coinslen` bytes of coins (`VECRYPT_AIGIS_ENC_COINBYTES`, 32), for
/// known-answer tests: coins that repeat or can be guessed give away the shared secret.
/// Writes the ciphertext to `ct` and the 32-byte shared secret to `ss`.
///
/// # Safety
/// `name` is a NUL-terminated string; `ct`, `ss` and `pk` point to the ciphertext, shared
/// secret and public key lengths of bytes, `coins` to `coinslen` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vecrypt_kem_enc_derand(
    name: *const c_char,
    ct: *mut u8,
    ss: *mut u8,
    pk: *const u8,
    coins: *const u8,
    coinslen: usize,
) -> c_int {
    guard(|| {
        // SAFETY: the caller's contract for `name`.
        let kem = kem_of(unsafe { name_of(name) }?)?;
        let set = kem.set();
        if coinslen != VECRYPT_AIGIS_ENC_COINBYTES || pk.is_null() || ct.is_null() || ss.is_null() {
            return Err(());
        }
        // SAFETY: the caller's contract for `pk` and `coins`.
        let (pk, coins) = unsafe { (input(pk, set.public_key_bytes())?, input(coins, coinslen)?) };
        let mut c = vec![0u8; set.ciphertext_bytes()];
        let secret = kem.encapsulate_into(pk, coins, &mut c).map_err(|_| ())?;
        // SAFETY: the caller's contract for `ct` and `ss`.
        unsafe { output(ct, c.len()) }?.copy_from_slice(&c);
        // SAFETY: as above.
        unsafe { output(ss, VECRYPT_AIGIS_ENC_BYTES) }?.copy_from_slice(&secret[..]);
        Ok(())
    })
}

/// Encapsulation to the public key `pk` with fresh randomness: writes the ciphertext to
/// `ct` and the 32-byte shared secret to `ss`.
///
/// # Safety
/// `name` is a NUL-terminated string; `ct`, `ss` and `pk` point to the ciphertext, shared
/// secret and public key lengths of bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vecrypt_kem_enc(
    name: *const c_char,
    ct: *mut u8,
    ss: *mut u8,
    pk: *const u8,
) -> c_int {
    let mut coins = Zeroizing::new([0u8; VECRYPT_AIGIS_ENC_COINBYTES]);
    if getrandom::fill(&mut coins[..]).is_err() {
        return FAIL;
    }
    // SAFETY: forwarded contract; `coins` is a local array.
    unsafe { vecrypt_kem_enc_derand(name, ct, ss, pk, coins.as_ptr(), coins.len()) }
}

/// Decapsulation: writes the 32-byte shared secret of `ct` under the secret key `sk` to
/// `ss`. A well-formed ciphertext made for another key gives an unrelated secret (implicit
/// rejection), not an error.
///
/// # Safety
/// `name` is a NUL-terminated string; `ss`, `ct` and `sk` point to the shared secret,
/// ciphertext and secret key lengths of bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vecrypt_kem_dec(
    name: *const c_char,
    ss: *mut u8,
    ct: *const u8,
    sk: *const u8,
) -> c_int {
    guard(|| {
        // SAFETY: the caller's contract for `name`.
        let kem = kem_of(unsafe { name_of(name) }?)?;
        let set = kem.set();
        if ct.is_null() || sk.is_null() || ss.is_null() {
            return Err(());
        }
        // SAFETY: the caller's contract for `ct` and `sk`.
        let (c, s) = unsafe {
            (
                input(ct, set.ciphertext_bytes())?,
                input(sk, set.secret_key_bytes())?,
            )
        };
        let secret = kem.decapsulate(s, c).map_err(|_| ())?;
        // SAFETY: the caller's contract for `ss`.
        unsafe { output(ss, VECRYPT_AIGIS_ENC_BYTES) }?.copy_from_slice(&secret[..]);
        Ok(())
    })
}

/// The library's version, a static NUL-terminated string such as `"0.1.0"`.
#[unsafe(no_mangle)]
pub extern "C" fn vecrypt_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}
