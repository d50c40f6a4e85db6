//! The parts of OpenSSL 3's provider ABI this provider uses: the dispatch, algorithm and
//! parameter records (stable since 3.0) and their numbers, from `core_dispatch.h`,
//! `core_names.h` and `evp.h`.

use core::ffi::{CStr, c_char, c_int, c_uint, c_void};

/// `OSSL_DISPATCH`: a function number and its function.
#[repr(C)]
pub struct Dispatch {
    pub id: c_int,
    pub function: Option<unsafe extern "C" fn()>,
}

/// `OSSL_ALGORITHM`.
#[repr(C)]
pub struct Algorithm {
    pub names: *const c_char,
    pub properties: *const c_char,
    pub implementation: *const Dispatch,
    pub description: *const c_char,
}

/// `OSSL_PARAM`.
#[repr(C)]
pub struct Param {
    pub key: *const c_char,
    pub data_type: c_uint,
    pub data: *mut c_void,
    pub data_size: usize,
    pub return_size: usize,
}

// SAFETY: the records this provider hands out are immutable and point only to static data.
unsafe impl Sync for Dispatch {}
// SAFETY: as above.
unsafe impl Sync for Algorithm {}
// SAFETY: the parameter descriptions handed out are immutable statics.
unsafe impl Sync for Param {}

pub const PARAM_INTEGER: c_uint = 1;
pub const PARAM_UNSIGNED_INTEGER: c_uint = 2;
pub const PARAM_UTF8_STRING: c_uint = 4;
pub const PARAM_OCTET_STRING: c_uint = 5;
pub const PARAM_UTF8_PTR: c_uint = 6;

/// `OSSL_PARAM_UNMODIFIED`: the return size of a parameter nobody set.
pub const UNMODIFIED: usize = usize::MAX;

pub const FUNC_PROVIDER_TEARDOWN: c_int = 1024;
pub const FUNC_PROVIDER_GETTABLE_PARAMS: c_int = 1025;
pub const FUNC_PROVIDER_GET_PARAMS: c_int = 1026;
pub const FUNC_PROVIDER_QUERY_OPERATION: c_int = 1027;

pub const OP_CIPHER: c_int = 2;

pub const FUNC_CIPHER_NEWCTX: c_int = 1;
pub const FUNC_CIPHER_ENCRYPT_INIT: c_int = 2;
pub const FUNC_CIPHER_DECRYPT_INIT: c_int = 3;
pub const FUNC_CIPHER_UPDATE: c_int = 4;
pub const FUNC_CIPHER_FINAL: c_int = 5;
pub const FUNC_CIPHER_CIPHER: c_int = 6;
pub const FUNC_CIPHER_FREECTX: c_int = 7;
pub const FUNC_CIPHER_DUPCTX: c_int = 8;
pub const FUNC_CIPHER_GET_PARAMS: c_int = 9;
pub const FUNC_CIPHER_GET_CTX_PARAMS: c_int = 10;
pub const FUNC_CIPHER_SET_CTX_PARAMS: c_int = 11;
pub const FUNC_CIPHER_GETTABLE_PARAMS: c_int = 12;
pub const FUNC_CIPHER_GETTABLE_CTX_PARAMS: c_int = 13;
pub const FUNC_CIPHER_SETTABLE_CTX_PARAMS: c_int = 14;

/// `EVP_CIPH_*_MODE`.
pub const MODE_ECB: c_uint = 1;
pub const MODE_CBC: c_uint = 2;
pub const MODE_CFB: c_uint = 3;
pub const MODE_OFB: c_uint = 4;
pub const MODE_CTR: c_uint = 5;
pub const MODE_GCM: c_uint = 6;
pub const MODE_XTS: c_uint = 0x10001;

/// The parameter at `p` (an array ended by a NULL key) called `name`, if any.
///
/// # Safety
/// `p` is NULL or a parameter array ended by a record whose key is NULL.
pub unsafe fn locate(p: *mut Param, name: &CStr) -> Option<&'static mut Param> {
    if p.is_null() {
        return None;
    }
    let mut i = 0;
    loop {
        // SAFETY: within the array, which ends at a NULL key.
        let rec = unsafe { &mut *p.add(i) };
        if rec.key.is_null() {
            return None;
        }
        // SAFETY: keys are NUL-terminated strings.
        if unsafe { CStr::from_ptr(rec.key) } == name {
            return Some(rec);
        }
        i += 1;
    }
}

/// Writes an unsigned number into an integer parameter of 4 or 8 bytes.
pub fn set_uint(p: &mut Param, v: u64) -> bool {
    if p.data_type != PARAM_UNSIGNED_INTEGER && p.data_type != PARAM_INTEGER {
        return false;
    }
    p.return_size = p.data_size;
    if p.data.is_null() {
        return true;
    }
    match p.data_size {
        4 => match u32::try_from(v) {
            // SAFETY: the parameter's buffer holds `data_size` bytes.
            Ok(x) => unsafe { p.data.cast::<u32>().write_unaligned(x) },
            Err(_) => return false,
        },
        // SAFETY: the parameter's buffer holds `data_size` bytes.
        8 => unsafe { p.data.cast::<u64>().write_unaligned(v) },
        _ => return false,
    }
    true
}

/// Reads an unsigned number from an integer parameter of 4 or 8 bytes.
pub fn get_uint(p: &Param) -> Option<u64> {
    if (p.data_type != PARAM_UNSIGNED_INTEGER && p.data_type != PARAM_INTEGER) || p.data.is_null() {
        return None;
    }
    match p.data_size {
        // SAFETY: the parameter's buffer holds `data_size` bytes.
        4 => Some(u64::from(unsafe { p.data.cast::<u32>().read_unaligned() })),
        // SAFETY: as above.
        8 => Some(unsafe { p.data.cast::<u64>().read_unaligned() }),
        _ => None,
    }
}

/// Copies `v` into an octet-string parameter with room for it.
pub fn set_octets(p: &mut Param, v: &[u8]) -> bool {
    if p.data_type != PARAM_OCTET_STRING {
        return false;
    }
    p.return_size = v.len();
    if p.data.is_null() {
        return true;
    }
    if p.data_size < v.len() {
        return false;
    }
    // SAFETY: the buffer holds `data_size >= v.len()` bytes and does not overlap `v`.
    unsafe { core::ptr::copy_nonoverlapping(v.as_ptr(), p.data.cast::<u8>(), v.len()) };
    true
}

/// The bytes of an octet-string parameter.
pub fn get_octets(p: &Param) -> Option<&[u8]> {
    if p.data_type != PARAM_OCTET_STRING {
        return None;
    }
    if p.data_size == 0 {
        return Some(&[]);
    }
    if p.data.is_null() {
        return None;
    }
    // SAFETY: the buffer holds `data_size` readable bytes.
    Some(unsafe { core::slice::from_raw_parts(p.data.cast::<u8>(), p.data_size) })
}

/// Writes a static string into a UTF-8 string or pointer parameter.
pub fn set_utf8(p: &mut Param, v: &'static CStr) -> bool {
    let bytes = v.to_bytes();
    match p.data_type {
        PARAM_UTF8_PTR => {
            p.return_size = bytes.len();
            if !p.data.is_null() {
                // SAFETY: a UTF8_PTR parameter's buffer holds one pointer.
                unsafe { p.data.cast::<*const c_char>().write_unaligned(v.as_ptr()) };
            }
            true
        }
        PARAM_UTF8_STRING => {
            p.return_size = bytes.len();
            if p.data.is_null() {
                return true;
            }
            if p.data_size <= bytes.len() {
                return false;
            }
            // SAFETY: room for the string and its NUL, checked above.
            unsafe {
                core::ptr::copy_nonoverlapping(v.as_ptr(), p.data.cast::<c_char>(), bytes.len() + 1)
            };
            true
        }
        _ => false,
    }
}

/// A parameter description for the gettable/settable lists.
pub const fn describe(key: &'static CStr, data_type: c_uint) -> Param {
    Param {
        key: key.as_ptr(),
        data_type,
        data: core::ptr::null_mut(),
        data_size: 0,
        return_size: UNMODIFIED,
    }
}

/// The end of a parameter list.
pub const END: Param = Param {
    key: core::ptr::null(),
    data_type: 0,
    data: core::ptr::null_mut(),
    data_size: 0,
    return_size: 0,
};
