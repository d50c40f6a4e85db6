//! The parameters OpenSSL reads and sets: an algorithm's fixed ones (mode, key and IV
//! lengths, flags), the lists of the known ones, and a context's (lengths, padding, IV,
//! and the tag and its length of GCM, MGM and `kuznyechik-ctr-acpkm-omac`, whose KDF seed
//! is one too).

use core::ffi::{CStr, c_int, c_void};

use super::{Ctx, Keyed, Kind, ctx_mut};
use crate::acpkm_omac::TAG;
use crate::ossl::*;
use crate::{ALGS, guard};

/// The `I`-th cipher's fixed parameters (mode, key and IV length, block size, flags).
///
/// # Safety
/// `params` is NULL or an `OSSL_PARAM` array ended by an entry with a NULL key, each entry's data valid for its size.
pub(crate) unsafe extern "C" fn get_params<const I: usize>(params: *mut Param) -> c_int {
    guard(0, || {
        let alg = &ALGS[I];
        let flags: [(&CStr, u64); 9] = [
            (c"mode", u64::from(alg.mode())),
            (c"keylen", alg.key_len as u64),
            (c"ivlen", alg.iv_len as u64),
            (c"blocksize", alg.evp_block() as u64),
            (c"aead", u64::from(alg.is_aead())),
            (c"custom-iv", u64::from(alg.is_aead())),
            (c"cts", 0),
            (c"tls-multi", 0),
            (c"has-randkey", 0),
        ];
        for (name, v) in flags {
            // SAFETY: OpenSSL passes a parameter array ended by a NULL key.
            if let Some(p) = unsafe { locate(params, name) }
                && !set_uint(p, v)
            {
                return 0;
            }
        }
        1
    })
}

static GETTABLE: [Param; 10] = [
    describe(c"mode", PARAM_UNSIGNED_INTEGER),
    describe(c"keylen", PARAM_UNSIGNED_INTEGER),
    describe(c"ivlen", PARAM_UNSIGNED_INTEGER),
    describe(c"blocksize", PARAM_UNSIGNED_INTEGER),
    describe(c"aead", PARAM_INTEGER),
    describe(c"custom-iv", PARAM_INTEGER),
    describe(c"cts", PARAM_INTEGER),
    describe(c"tls-multi", PARAM_INTEGER),
    describe(c"has-randkey", PARAM_INTEGER),
    END,
];

/// The parameters [`get_params`] answers.
///
/// # Safety
/// None of its arguments is read: any values may be given. It is `unsafe` only to have the
/// type of its dispatch-table slot.
pub(crate) unsafe extern "C" fn gettable_params(_provctx: *mut c_void) -> *const Param {
    GETTABLE.as_ptr()
}

static GETTABLE_CTX: [Param; 10] = [
    describe(c"keylen", PARAM_UNSIGNED_INTEGER),
    describe(c"ivlen", PARAM_UNSIGNED_INTEGER),
    describe(c"padding", PARAM_UNSIGNED_INTEGER),
    describe(c"num", PARAM_UNSIGNED_INTEGER),
    describe(c"iv", PARAM_OCTET_STRING),
    describe(c"updated-iv", PARAM_OCTET_STRING),
    describe(c"tag", PARAM_OCTET_STRING),
    describe(c"taglen", PARAM_UNSIGNED_INTEGER),
    describe(c"kdf-seed", PARAM_OCTET_STRING),
    END,
];

/// The parameters [`get_ctx_params`] answers.
///
/// # Safety
/// None of its arguments is read: any values may be given. It is `unsafe` only to have the
/// type of its dispatch-table slot.
pub(crate) unsafe extern "C" fn gettable_ctx_params(
    _vctx: *mut c_void,
    _provctx: *mut c_void,
) -> *const Param {
    GETTABLE_CTX.as_ptr()
}

static SETTABLE_CTX: [Param; 7] = [
    describe(c"keylen", PARAM_UNSIGNED_INTEGER),
    describe(c"ivlen", PARAM_UNSIGNED_INTEGER),
    describe(c"padding", PARAM_UNSIGNED_INTEGER),
    describe(c"tag", PARAM_OCTET_STRING),
    describe(c"taglen", PARAM_UNSIGNED_INTEGER),
    describe(c"kdf-seed", PARAM_OCTET_STRING),
    END,
];

/// The parameters [`set_ctx_params`] takes.
///
/// # Safety
/// None of its arguments is read: any values may be given. It is `unsafe` only to have the
/// type of its dispatch-table slot.
pub(crate) unsafe extern "C" fn settable_ctx_params(
    _vctx: *mut c_void,
    _provctx: *mut c_void,
) -> *const Param {
    SETTABLE_CTX.as_ptr()
}

/// Answers a context's parameters (IV, lengths, tag, seed) into `params`.
///
/// # Safety
/// `vctx` is NULL or a live context of this provider, used by one thread at a time.
/// `params` is NULL or an `OSSL_PARAM` array ended by an entry with a NULL key, each entry's data valid for its size.
pub(crate) unsafe extern "C" fn get_ctx_params(vctx: *mut c_void, params: *mut Param) -> c_int {
    guard(0, || {
        // SAFETY: OpenSSL passes its live context.
        let Some(ctx) = (unsafe { ctx_mut(vctx) }) else {
            return 0;
        };
        let ivlen = match &ctx.aead {
            Some(a) => a.iv_len(),
            None => ctx.alg.iv_len,
        };
        let num = match ctx.alg.kind {
            Kind::Ecb | Kind::Cbc => ctx.num,
            _ => ctx.num % ctx.alg.block(),
        };
        let uints: [(&CStr, u64); 4] = [
            (c"keylen", ctx.alg.key_len as u64),
            (c"ivlen", ivlen as u64),
            (c"padding", u64::from(ctx.padding)),
            (c"num", num as u64),
        ];
        for (name, v) in uints {
            // SAFETY: a parameter array ended by a NULL key.
            if let Some(p) = unsafe { locate(params, name) }
                && !set_uint(p, v)
            {
                return 0;
            }
        }
        for name in [c"iv", c"updated-iv"] {
            // SAFETY: as above.
            if let Some(p) = unsafe { locate(params, name) } {
                let iv = match &ctx.aead {
                    Some(a) => a.iv().to_vec(),
                    None => ctx.iv[..ctx.alg.iv_len].to_vec(),
                };
                if !set_octets(p, &iv) {
                    return 0;
                }
            }
        }
        if let Some(aead) = &ctx.aead {
            // SAFETY: as above.
            if let Some(p) = unsafe { locate(params, c"tag") } {
                let Some(tag) = aead.tag(p.data_size) else {
                    return 0;
                };
                if !set_octets(p, &tag) {
                    return 0;
                }
            }
            // SAFETY: as above.
            if let Some(p) = unsafe { locate(params, c"taglen") }
                && !set_uint(p, aead.tag_len() as u64)
            {
                return 0;
            }
        }
        if let Some(om) = &ctx.omac {
            // SAFETY: as above.
            if let Some(p) = unsafe { locate(params, c"tag") } {
                match om.tag(p.data_size) {
                    Some(tag) if set_octets(p, tag) => {}
                    _ => return 0,
                }
            }
            // SAFETY: as above.
            if let Some(p) = unsafe { locate(params, c"taglen") }
                && !set_uint(p, TAG as u64)
            {
                return 0;
            }
            // SAFETY: as above.
            if let Some(p) = unsafe { locate(params, c"kdf-seed") }
                && !set_octets(p, om.seed())
            {
                return 0;
            }
        }
        1
    })
}

/// Sets a context's parameters from `params`.
///
/// # Safety
/// `vctx` is NULL or a live context of this provider, used by one thread at a time.
/// `params` is NULL or an `OSSL_PARAM` array ended by an entry with a NULL key, each entry's data valid for its size.
pub(crate) unsafe extern "C" fn set_ctx_params(vctx: *mut c_void, params: *const Param) -> c_int {
    guard(0, || {
        // SAFETY: OpenSSL passes its live context.
        match unsafe { ctx_mut(vctx) } {
            // SAFETY: a parameter array ended by a NULL key, or NULL.
            Some(ctx) => unsafe { set_params(ctx, params) },
            None => 0,
        }
    })
}

/// # Safety
/// `params` is NULL or a parameter array ended by a NULL key.
pub(super) unsafe fn set_params(ctx: &mut Ctx, params: *const Param) -> c_int {
    let params = params.cast_mut();
    // SAFETY: as the contract says; only read here.
    if let Some(p) = unsafe { locate(params, c"padding") } {
        match get_uint(p) {
            Some(v) => ctx.padding = v != 0,
            None => return 0,
        }
    }
    // SAFETY: as above.
    if let Some(p) = unsafe { locate(params, c"keylen") }
        && get_uint(p) != Some(ctx.alg.key_len as u64)
    {
        return 0;
    }
    if let Some(aead) = ctx.aead.as_mut() {
        // SAFETY: as above.
        if let Some(p) = unsafe { locate(params, c"ivlen") } {
            match get_uint(p) {
                Some(v) if aead.set_iv_len(ctx.alg, v as usize) => {}
                _ => return 0,
            }
        }
        // SAFETY: as above.
        if let Some(p) = unsafe { locate(params, c"tag") } {
            let ok = match get_octets(p) {
                // A NULL buffer sets only the tag length (EVP_CTRL_AEAD_SET_TAG without
                // a tag, before encryption).
                _ if p.data.is_null() => aead.set_tag_len(p.data_size),
                Some(t) => aead.set_tag(t),
                None => false,
            };
            if !ok {
                return 0;
            }
        }
        // SAFETY: as above.
        if let Some(p) = unsafe { locate(params, c"taglen") } {
            match get_uint(p) {
                Some(v) if aead.set_tag_len(v as usize) => {}
                _ => return 0,
            }
        }
    } else {
        // SAFETY: as above.
        if let Some(p) = unsafe { locate(params, c"ivlen") }
            && get_uint(p) != Some(ctx.alg.iv_len as u64)
        {
            return 0;
        }
    }
    if ctx.omac.is_some() {
        // SAFETY: as above.
        if let Some(p) = unsafe { locate(params, c"kdf-seed") } {
            let Some(om) = ctx.omac.as_mut() else {
                return 0;
            };
            if !get_octets(p).is_some_and(|s| om.set_seed(s)) {
                return 0;
            }
            // Keyed already: the keys follow the new seed and the message starts over.
            if om.is_keyed() {
                let Some(c) = om.derive() else {
                    return 0;
                };
                ctx.keyed = Some(Keyed::Kuz(Box::new(c)));
                ctx.reset_stream();
            }
        }
        // SAFETY: as above.
        if let Some(p) = unsafe { locate(params, c"tag") } {
            let ok = match get_octets(p) {
                // A NULL buffer sets only the tag length, which is always 16.
                _ if p.data.is_null() => p.data_size == TAG,
                Some(t) => !ctx.encrypt && ctx.omac.as_mut().is_some_and(|om| om.set_expected(t)),
                None => false,
            };
            if !ok {
                return 0;
            }
        }
        // SAFETY: as above.
        if let Some(p) = unsafe { locate(params, c"taglen") }
            && get_uint(p) != Some(TAG as u64)
        {
            return 0;
        }
    }
    1
}
