//! The pointers C hands over, checked and turned into Rust values: a name from a C string,
//! read-only and writable byte slices (NULL allowed only for an empty one), and the staging
//! of an input into an output buffer that a mode then runs over in place.

use core::ffi::c_char;
use std::ffi::CStr;

/// The text of a C string, or an error if it is NULL or not UTF-8.
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string.
pub(crate) unsafe fn name_of<'a>(p: *const c_char) -> Result<&'a str, ()> {
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
pub(crate) unsafe fn input<'a>(p: *const u8, len: usize) -> Result<&'a [u8], ()> {
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
pub(crate) unsafe fn output<'a>(p: *mut u8, len: usize) -> Result<&'a mut [u8], ()> {
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
pub(crate) unsafe fn staged<'a>(
    dst: *mut u8,
    src: *const u8,
    len: usize,
) -> Result<&'a mut [u8], ()> {
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
