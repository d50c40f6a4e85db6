//! Block ciphers and their unauthenticated modes: the opaque `vecrypt_cipher` handle
//! (`vecrypt_cipher_new`, `_free`, `_block_bytes`) and ECB, CBC and CTR over it, each call
//! one whole message with the IV left unchanged.

use core::ffi::{c_char, c_int};
use std::panic::{AssertUnwindSafe, catch_unwind};

use vecrypt_core::registry::{self, DynCipher};

use crate::ptr::{input, name_of, staged};
use crate::status::{FAIL, guard};

/// A keyed block cipher of any algorithm. Opaque: made by `vecrypt_cipher_new`, released by
/// `vecrypt_cipher_free`, which wipes its key schedule. One handle may be used by several
/// threads at once; calls do not change it.
#[allow(non_camel_case_types)]
pub struct vecrypt_cipher {
    inner: Box<dyn DynCipher>,
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
