//! The library's version string.

use core::ffi::c_char;

/// The library's version, a static NUL-terminated string such as `"0.1.0"`.
#[unsafe(no_mangle)]
pub extern "C" fn vecrypt_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}
