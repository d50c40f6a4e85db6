//! An OpenSSL 3 provider that runs vecrypt's kernels: Kuznyechik under gost-engine's names
//! and OIDs, uBlock, and AES, every algorithm with the property `provider=vecrypt`.
//!
//! Load it with `-provider-path DIR -provider libvecrypt_openssl` or by absolute path. The
//! dispatch tables are written out by hand against OpenSSL's stable provider ABI (the
//! `ossl` module); every entry point runs under `catch_unwind`, so no panic reaches
//! OpenSSL.

// This crate is a boundary to C: its unsafe code is the foreign calls and the pointers they
// hand over, each block with its SAFETY reason, each unsafe fn with its contract.
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks, clippy::missing_safety_doc)]

mod acpkm_omac;
mod aead;
mod ctx;
mod ossl;

use core::ffi::{CStr, c_int, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;

use ctx::{Alg, Kind};
use ossl::*;

/// Every algorithm of the provider: names (first the one listings show), block cipher,
/// mode, key and IV lengths.
pub(crate) static ALGS: &[Alg] = &[
    Alg::new(c"kuznyechik-ecb", "kuznyechik", Kind::Ecb, 32, 0),
    Alg::new(c"kuznyechik-cbc", "kuznyechik", Kind::Cbc, 32, 16),
    Alg::new(c"kuznyechik-cfb", "kuznyechik", Kind::Cfb, 32, 16),
    Alg::new(c"kuznyechik-ofb", "kuznyechik", Kind::Ofb, 32, 16),
    Alg::new(c"kuznyechik-ctr", "kuznyechik", Kind::GostCtr, 32, 8),
    Alg::new(
        c"kuznyechik-ctr-acpkm:1.2.643.7.1.1.5.2.1",
        "kuznyechik",
        Kind::CtrAcpkm,
        32,
        8,
    ),
    Alg::new(
        c"kuznyechik-ctr-acpkm-omac:1.2.643.7.1.1.5.2.2",
        "kuznyechik",
        Kind::CtrAcpkmOmac,
        32,
        8,
    ),
    Alg::new(c"kuznyechik-mgm", "kuznyechik", Kind::Mgm, 32, 16),
    Alg::new(c"ublock-128-128-ecb", "ublock-128-128", Kind::Ecb, 16, 0),
    Alg::new(c"ublock-128-128-cbc", "ublock-128-128", Kind::Cbc, 16, 16),
    Alg::new(c"ublock-128-128-ctr", "ublock-128-128", Kind::Ctr, 16, 16),
    Alg::new(c"ublock-128-256-ecb", "ublock-128-256", Kind::Ecb, 32, 0),
    Alg::new(c"ublock-128-256-cbc", "ublock-128-256", Kind::Cbc, 32, 16),
    Alg::new(c"ublock-128-256-ctr", "ublock-128-256", Kind::Ctr, 32, 16),
    Alg::new(c"ublock-256-256-ecb", "ublock-256-256", Kind::Ecb, 32, 0),
    Alg::new(c"ublock-256-256-cbc", "ublock-256-256", Kind::Cbc, 32, 32),
    Alg::new(c"ublock-256-256-ctr", "ublock-256-256", Kind::Ctr, 32, 32),
    Alg::new(c"ublock-128-128-gcm", "ublock-128-128", Kind::Gcm, 16, 12),
    Alg::new(
        c"AES-128-ECB:2.16.840.1.101.3.4.1.1",
        "aes-128",
        Kind::Ecb,
        16,
        0,
    ),
    Alg::new(
        c"AES-192-ECB:2.16.840.1.101.3.4.1.21",
        "aes-192",
        Kind::Ecb,
        24,
        0,
    ),
    Alg::new(
        c"AES-256-ECB:2.16.840.1.101.3.4.1.41",
        "aes-256",
        Kind::Ecb,
        32,
        0,
    ),
    Alg::new(
        c"AES-128-CBC:AES128:2.16.840.1.101.3.4.1.2",
        "aes-128",
        Kind::Cbc,
        16,
        16,
    ),
    Alg::new(
        c"AES-192-CBC:AES192:2.16.840.1.101.3.4.1.22",
        "aes-192",
        Kind::Cbc,
        24,
        16,
    ),
    Alg::new(
        c"AES-256-CBC:AES256:2.16.840.1.101.3.4.1.42",
        "aes-256",
        Kind::Cbc,
        32,
        16,
    ),
    Alg::new(c"AES-128-CTR", "aes-128", Kind::Ctr, 16, 16),
    Alg::new(c"AES-192-CTR", "aes-192", Kind::Ctr, 24, 16),
    Alg::new(c"AES-256-CTR", "aes-256", Kind::Ctr, 32, 16),
    Alg::new(
        c"AES-128-XTS:1.3.111.2.1619.0.1.1",
        "aes-128",
        Kind::Xts,
        32,
        16,
    ),
    Alg::new(
        c"AES-256-XTS:1.3.111.2.1619.0.1.2",
        "aes-256",
        Kind::Xts,
        64,
        16,
    ),
    Alg::new(
        c"AES-128-GCM:id-aes128-GCM:2.16.840.1.101.3.4.1.6",
        "aes-128",
        Kind::Gcm,
        16,
        12,
    ),
    Alg::new(
        c"AES-192-GCM:id-aes192-GCM:2.16.840.1.101.3.4.1.26",
        "aes-192",
        Kind::Gcm,
        24,
        12,
    ),
    Alg::new(
        c"AES-256-GCM:id-aes256-GCM:2.16.840.1.101.3.4.1.46",
        "aes-256",
        Kind::Gcm,
        32,
        12,
    ),
];

/// The property every algorithm is registered with.
const PROPERTIES: &CStr = c"provider=vecrypt";

/// Runs an entry point's body; a panic becomes `fail`.
pub(crate) fn guard<T>(fail: T, f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(fail)
}

/// One dispatch record.
fn entry(id: c_int, f: unsafe extern "C" fn()) -> Dispatch {
    Dispatch {
        id,
        function: Some(f),
    }
}

/// The dispatch tables and the algorithm list, made once.
struct Tables {
    _dispatch: Vec<Vec<Dispatch>>,
    algorithms: Vec<Algorithm>,
}

// SAFETY: built once, never changed, pointing only into itself and static data.
unsafe impl Send for Tables {}
// SAFETY: as above.
unsafe impl Sync for Tables {}

static TABLES: OnceLock<Tables> = OnceLock::new();

/// Casts an entry point to the untyped function pointer of a dispatch record.
macro_rules! f {
    ($e:expr) => {{
        // SAFETY: OpenSSL calls each function through the signature its number stands for,
        // which is the one it has here.
        unsafe { core::mem::transmute::<*const (), unsafe extern "C" fn()>($e as *const ()) }
    }};
}

/// The per-algorithm entry points: `newctx` and `get_params` know their algorithm by a
/// const index, the rest take it from the context.
macro_rules! tables {
    ($($i:literal)*) => {{
        let mut v: Vec<Vec<Dispatch>> = Vec::new();
        $(
            if $i < ALGS.len() {
                v.push(dispatch(
                    f!(ctx::newctx::<$i> as unsafe extern "C" fn(*mut c_void) -> *mut c_void),
                    f!(ctx::get_params::<$i> as unsafe extern "C" fn(*mut Param) -> c_int),
                ));
            }
        )*
        v
    }};
}

fn dispatch(newctx: unsafe extern "C" fn(), get_params: unsafe extern "C" fn()) -> Vec<Dispatch> {
    vec![
        entry(FUNC_CIPHER_NEWCTX, newctx),
        entry(FUNC_CIPHER_GET_PARAMS, get_params),
        entry(
            FUNC_CIPHER_ENCRYPT_INIT,
            f!(ctx::encrypt_init as ctx::InitFn),
        ),
        entry(
            FUNC_CIPHER_DECRYPT_INIT,
            f!(ctx::decrypt_init as ctx::InitFn),
        ),
        entry(FUNC_CIPHER_UPDATE, f!(ctx::update as ctx::UpdateFn)),
        entry(FUNC_CIPHER_FINAL, f!(ctx::finalize as ctx::FinalFn)),
        entry(FUNC_CIPHER_CIPHER, f!(ctx::cipher as ctx::UpdateFn)),
        entry(
            FUNC_CIPHER_FREECTX,
            f!(ctx::freectx as unsafe extern "C" fn(*mut c_void)),
        ),
        entry(
            FUNC_CIPHER_DUPCTX,
            f!(ctx::dupctx as unsafe extern "C" fn(*mut c_void) -> *mut c_void),
        ),
        entry(
            FUNC_CIPHER_GET_CTX_PARAMS,
            f!(ctx::get_ctx_params as unsafe extern "C" fn(*mut c_void, *mut Param) -> c_int),
        ),
        entry(
            FUNC_CIPHER_SET_CTX_PARAMS,
            f!(ctx::set_ctx_params as unsafe extern "C" fn(*mut c_void, *const Param) -> c_int),
        ),
        entry(
            FUNC_CIPHER_GETTABLE_PARAMS,
            f!(ctx::gettable_params as unsafe extern "C" fn(*mut c_void) -> *const Param),
        ),
        entry(
            FUNC_CIPHER_GETTABLE_CTX_PARAMS,
            f!(ctx::gettable_ctx_params
                as unsafe extern "C" fn(*mut c_void, *mut c_void) -> *const Param),
        ),
        entry(
            FUNC_CIPHER_SETTABLE_CTX_PARAMS,
            f!(ctx::settable_ctx_params
                as unsafe extern "C" fn(*mut c_void, *mut c_void) -> *const Param),
        ),
        Dispatch {
            id: 0,
            function: None,
        },
    ]
}

fn tables() -> &'static Tables {
    TABLES.get_or_init(|| {
        let dispatch = tables!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24
            25 26 27 28 29 30 31 32 33 34 35 36 37 38 39);
        assert_eq!(dispatch.len(), ALGS.len(), "one table per algorithm");
        let mut algorithms: Vec<Algorithm> = ALGS
            .iter()
            .zip(&dispatch)
            .map(|(a, d)| Algorithm {
                names: a.names.as_ptr(),
                properties: PROPERTIES.as_ptr(),
                implementation: d.as_ptr(),
                description: core::ptr::null(),
            })
            .collect();
        algorithms.push(Algorithm {
            names: core::ptr::null(),
            properties: core::ptr::null(),
            implementation: core::ptr::null(),
            description: core::ptr::null(),
        });
        Tables {
            _dispatch: dispatch,
            algorithms,
        }
    })
}

/// The provider's algorithms for one operation (ciphers only), or NULL.
///
/// # Safety
/// `no_cache` is NULL or writable; the other arguments are not read.
unsafe extern "C" fn query_operation(
    _provctx: *mut c_void,
    operation: c_int,
    no_cache: *mut c_int,
) -> *const Algorithm {
    guard(core::ptr::null(), || {
        if !no_cache.is_null() {
            // SAFETY: OpenSSL passes a writable int.
            unsafe { *no_cache = 0 };
        }
        if operation == OP_CIPHER {
            tables().algorithms.as_ptr()
        } else {
            core::ptr::null()
        }
    })
}

static PROVIDER_GETTABLE: [Param; 4] = [
    describe(c"name", PARAM_UTF8_PTR),
    describe(c"version", PARAM_UTF8_PTR),
    describe(c"status", PARAM_INTEGER),
    END,
];

/// The parameters [`provider_get_params`] answers.
///
/// # Safety
/// None of its arguments is read: any values may be given. It is `unsafe` only to have the
/// type of its dispatch-table slot.
unsafe extern "C" fn provider_gettable_params(_provctx: *mut c_void) -> *const Param {
    PROVIDER_GETTABLE.as_ptr()
}

const VERSION: &CStr =
    match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
        Ok(v) => v,
        Err(_) => c"0",
    };

/// Answers the provider's name, version, build information and status into `params`.
///
/// # Safety
/// `params` is NULL or an `OSSL_PARAM` array ended by an entry with a NULL key, each entry's data valid for its size.
unsafe extern "C" fn provider_get_params(_provctx: *mut c_void, params: *mut Param) -> c_int {
    guard(0, || {
        // SAFETY: OpenSSL passes a parameter array ended by a NULL key.
        unsafe {
            if let Some(p) = locate(params, c"name")
                && !set_utf8(p, c"vecrypt")
            {
                return 0;
            }
            if let Some(p) = locate(params, c"version")
                && !set_utf8(p, VERSION)
            {
                return 0;
            }
            if let Some(p) = locate(params, c"buildinfo")
                && !set_utf8(p, VERSION)
            {
                return 0;
            }
            if let Some(p) = locate(params, c"status")
                && !set_uint(p, 1)
            {
                return 0;
            }
        }
        1
    })
}

/// Nothing to release: the provider keeps no state of its own.
///
/// # Safety
/// None of its arguments is read: any values may be given. It is `unsafe` only to have the
/// type of its dispatch-table slot.
unsafe extern "C" fn teardown(_provctx: *mut c_void) {}

/// The provider's own dispatch table.
fn provider_dispatch() -> &'static [Dispatch] {
    static TABLE: OnceLock<Vec<Dispatch>> = OnceLock::new();
    TABLE.get_or_init(|| {
        vec![
            entry(
                FUNC_PROVIDER_TEARDOWN,
                f!(teardown as unsafe extern "C" fn(*mut c_void)),
            ),
            entry(
                FUNC_PROVIDER_GETTABLE_PARAMS,
                f!(provider_gettable_params as unsafe extern "C" fn(*mut c_void) -> *const Param),
            ),
            entry(
                FUNC_PROVIDER_GET_PARAMS,
                f!(provider_get_params as unsafe extern "C" fn(*mut c_void, *mut Param) -> c_int),
            ),
            entry(
                FUNC_PROVIDER_QUERY_OPERATION,
                f!(query_operation
                    as unsafe extern "C" fn(*mut c_void, c_int, *mut c_int) -> *const Algorithm),
            ),
            Dispatch {
                id: 0,
                function: None,
            },
        ]
    })
}

/// The provider's entry point, which OpenSSL looks up by name when it loads the module.
///
/// # Safety
/// Called by OpenSSL with writable `out` and `provctx`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn OSSL_provider_init(
    _handle: *const c_void,
    _in: *const Dispatch,
    out: *mut *const Dispatch,
    provctx: *mut *mut c_void,
) -> c_int {
    guard(0, || {
        if out.is_null() || provctx.is_null() {
            return 0;
        }
        let table = provider_dispatch().as_ptr();
        tables();
        // SAFETY: both pointers are writable, checked above.
        unsafe {
            *out = table;
            // The provider keeps no state of its own; any non-NULL value serves.
            *provctx = table as *mut c_void;
        }
        1
    })
}
