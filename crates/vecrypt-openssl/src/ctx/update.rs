//! The entry points that move data, `update`, `final` and the one-call `cipher`: each
//! sends the context to its mode (the library's AEAD stream for GCM and MGM, the buffered
//! block modes, XTS one data unit a call, the stream modes) and writes to OpenSSL's output
//! buffer.

use core::ffi::{c_int, c_void};

use super::{Keyed, Kind, ctx_mut};
use crate::guard;

/// Copies the input to OpenSSL's output buffer (unless they are the same), runs `f` over it
/// there and reports as many bytes out as came in: the stream modes and the AEADs, whose
/// output is as long as their input.
///
/// # Safety
/// `input` points to `inl` readable bytes and `out` to `outsize` writable ones (they may
/// overlap); `outl` is null or writable; no reference to the input is used afterwards.
unsafe fn in_place(
    out: *mut u8,
    outl: *mut usize,
    outsize: usize,
    input: *const u8,
    inl: usize,
    f: impl FnOnce(&mut [u8]) -> bool,
) -> c_int {
    if inl > outsize || (inl > 0 && out.is_null()) {
        return 0;
    }
    let buf: &mut [u8] = if inl == 0 {
        &mut []
    } else {
        if !core::ptr::eq(out, input) {
            // SAFETY: both hold `inl` bytes; `copy` allows overlap.
            unsafe { core::ptr::copy(input, out, inl) };
        }
        // SAFETY: `out` holds `inl` writable bytes and nothing else refers to them now.
        unsafe { core::slice::from_raw_parts_mut(out, inl) }
    };
    if !f(buf) {
        return 0;
    }
    if !outl.is_null() {
        // SAFETY: writable by the contract above.
        unsafe { *outl = inl };
    }
    1
}

/// Writes `data` to `out` if it fits in `outsize`.
///
/// # Safety
/// `out` points to `outsize` writable bytes; `outl` is writable.
unsafe fn emit(out: *mut u8, outl: *mut usize, outsize: usize, data: &[u8]) -> bool {
    if data.len() > outsize || (out.is_null() && !data.is_empty()) {
        return false;
    }
    if !data.is_empty() {
        // SAFETY: room checked above; `data` is the context's own buffer.
        unsafe { core::ptr::copy(data.as_ptr(), out, data.len()) };
    }
    if !outl.is_null() {
        // SAFETY: writable by the caller's contract.
        unsafe { *outl = data.len() };
    }
    true
}

/// Runs `inl` bytes of `input` through the context (associated data when `out` is NULL for
/// an AEAD), writing the output and its length.
///
/// # Safety
/// `vctx` is NULL or a live context of this provider, used by one thread at a time.
/// `input` is NULL or `inl` readable bytes; `out` is NULL or `outsize` writable bytes, which
/// may be `input` itself but not overlap it otherwise; `outl` is NULL or writable.
pub(crate) unsafe extern "C" fn update(
    vctx: *mut c_void,
    out: *mut u8,
    outl: *mut usize,
    outsize: usize,
    input: *const u8,
    inl: usize,
) -> c_int {
    guard(0, || {
        // SAFETY: OpenSSL passes its live context.
        let Some(ctx) = (unsafe { ctx_mut(vctx) }) else {
            return 0;
        };
        if inl > 0 && input.is_null() {
            return 0;
        }
        let inp: &[u8] = if inl == 0 {
            &[]
        } else {
            // SAFETY: `inl` readable bytes; read before anything is written to `out`
            // except in the stream path below, which copies first.
            unsafe { core::slice::from_raw_parts(input, inl) }
        };
        if let Some(aead) = ctx.aead.as_mut() {
            if out.is_null() {
                // Associated data: no output.
                if !outl.is_null() {
                    // SAFETY: writable.
                    unsafe { *outl = 0 };
                }
                return c_int::from(aead.add_aad(inp));
            }
            // SAFETY: OpenSSL's buffers as `update` received them; `inp` is not used again.
            return unsafe { in_place(out, outl, outsize, input, inl, |b| aead.update(b)) };
        }
        match ctx.alg.kind {
            Kind::Ecb | Kind::Cbc => {
                let mut o = Vec::new();
                if !ctx.block_update(&mut o, inp) {
                    return 0;
                }
                // SAFETY: OpenSSL's output buffer of `outsize` bytes.
                c_int::from(unsafe { emit(out, outl, outsize, &o) })
            }
            Kind::Xts => {
                let mut o = inp.to_vec();
                let ok = match (&ctx.keyed, ctx.encrypt) {
                    (Some(Keyed::Xts128(x)), true) => x.encrypt_unit(&ctx.iv[..16], &mut o),
                    (Some(Keyed::Xts128(x)), false) => x.decrypt_unit(&ctx.iv[..16], &mut o),
                    (Some(Keyed::Xts256(x)), true) => x.encrypt_unit(&ctx.iv[..16], &mut o),
                    (Some(Keyed::Xts256(x)), false) => x.decrypt_unit(&ctx.iv[..16], &mut o),
                    _ => return 0,
                };
                if ok.is_err() {
                    return 0;
                }
                // SAFETY: OpenSSL's output buffer of `outsize` bytes.
                c_int::from(unsafe { emit(out, outl, outsize, &o) })
            }
            // SAFETY: OpenSSL's buffers as `update` received them; `inp` is not used again.
            Kind::CtrAcpkmOmac => unsafe {
                in_place(out, outl, outsize, input, inl, |b| ctx.omac_stream(b))
            },
            // SAFETY: OpenSSL's buffers as `update` received them; `inp` is not used again.
            _ => unsafe { in_place(out, outl, outsize, input, inl, |b| ctx.stream(b)) },
        }
    })
}

/// Ends the message: the last padded block, or the tag check of a decrypting AEAD.
///
/// # Safety
/// `vctx` is NULL or a live context of this provider, used by one thread at a time.
/// `out` is NULL or `outsize` writable bytes; `outl` is NULL or writable.
pub(crate) unsafe extern "C" fn finalize(
    vctx: *mut c_void,
    out: *mut u8,
    outl: *mut usize,
    outsize: usize,
) -> c_int {
    guard(0, || {
        // SAFETY: OpenSSL passes its live context.
        let Some(ctx) = (unsafe { ctx_mut(vctx) }) else {
            return 0;
        };
        let mut o = Vec::new();
        let ok = if let Some(aead) = ctx.aead.as_mut() {
            aead.finish()
        } else {
            match ctx.alg.kind {
                Kind::Ecb | Kind::Cbc => ctx.block_final(&mut o),
                Kind::CtrAcpkmOmac => ctx.omac_final(),
                _ => true,
            }
        };
        // SAFETY: OpenSSL's output buffer of `outsize` bytes.
        c_int::from(ok && unsafe { emit(out, outl, outsize, &o) })
    })
}

/// The one-call form: `update`, or `final` when `input` is NULL.
///
/// # Safety
/// As for [`update`].
pub(crate) unsafe extern "C" fn cipher(
    vctx: *mut c_void,
    out: *mut u8,
    outl: *mut usize,
    outsize: usize,
    input: *const u8,
    inl: usize,
) -> c_int {
    if input.is_null() && inl == 0 {
        // SAFETY: forwarded from OpenSSL.
        return unsafe { finalize(vctx, out, outl, outsize) };
    }
    // SAFETY: forwarded from OpenSSL.
    unsafe { update(vctx, out, outl, outsize, input, inl) }
}
