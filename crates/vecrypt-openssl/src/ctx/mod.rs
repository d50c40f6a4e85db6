//! One cipher context: its algorithm, keyed cipher and streaming state, and its lifecycle
//! (made, duplicated and freed by OpenSSL, keyed and given an IV by the init calls). The
//! rest is in the submodules:
//!
//! - `update`: the `update`, `final` and `cipher` entry points, which hand each mode its
//!   data (GCM and MGM to `crate::aead`'s state);
//! - `block`: ECB and CBC, with partial blocks buffered and the padding;
//! - `stream`: the CTR, CTR-ACPKM, CFB and OFB keystreams;
//! - `omac`: the MAC and tag of `kuznyechik-ctr-acpkm-omac`;
//! - `params`: the parameters OpenSSL reads and sets.

mod block;
mod omac;
mod params;
mod stream;
mod update;

pub(crate) use params::{
    get_ctx_params, get_params, gettable_ctx_params, gettable_params, set_ctx_params,
    settable_ctx_params,
};
pub(crate) use update::{cipher, finalize, update};

use core::ffi::{CStr, c_int, c_uint, c_void};

use vecrypt::aes::{AesXts, K128, K256};
use vecrypt::kuznyechik::Kuznyechik;
use vecrypt::registry::{self, DynCipher};
use zeroize::Zeroize;

use crate::acpkm_omac::OmacState;
use crate::aead::AeadState;
use crate::ossl::*;
use crate::{ALGS, guard};
use params::set_params;

/// The largest block of any cipher here (uBlock-256/256).
const MAX_BLOCK: usize = 32;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    Ecb,
    Cbc,
    Cfb,
    Ofb,
    /// Full-block IV, big-endian counter over the whole block.
    Ctr,
    /// GOST R 34.13 CTR: a half-block IV, the first counter `IV || 0`.
    GostCtr,
    /// GOST CTR with ACPKM key meshing every section.
    CtrAcpkm,
    /// CTR-ACPKM under a derived key with an OMAC tag (gost-engine's
    /// `kuznyechik-ctr-acpkm-omac`).
    CtrAcpkmOmac,
    Xts,
    Gcm,
    Mgm,
}

/// One algorithm: its names, the registry name of its block cipher, mode and sizes.
pub(crate) struct Alg {
    pub names: &'static CStr,
    pub cipher: &'static str,
    pub kind: Kind,
    pub key_len: usize,
    pub iv_len: usize,
}

impl Alg {
    pub const fn new(
        names: &'static CStr,
        cipher: &'static str,
        kind: Kind,
        key_len: usize,
        iv_len: usize,
    ) -> Self {
        Alg {
            names,
            cipher,
            kind,
            key_len,
            iv_len,
        }
    }

    /// The block length of the cipher.
    fn block(&self) -> usize {
        if self.cipher == "ublock-256-256" {
            32
        } else {
            16
        }
    }

    /// The block size OpenSSL sees: 1 for the stream modes.
    fn evp_block(&self) -> usize {
        match self.kind {
            Kind::Ecb | Kind::Cbc => self.block(),
            _ => 1,
        }
    }

    fn mode(&self) -> c_uint {
        match self.kind {
            Kind::Ecb => MODE_ECB,
            Kind::Cbc => MODE_CBC,
            Kind::Cfb => MODE_CFB,
            Kind::Ofb => MODE_OFB,
            Kind::Ctr | Kind::GostCtr | Kind::CtrAcpkm | Kind::CtrAcpkmOmac => MODE_CTR,
            Kind::Xts => MODE_XTS,
            Kind::Gcm | Kind::Mgm => MODE_GCM,
        }
    }

    /// Whether OpenSSL sees an AEAD: a tag to read after encryption and to set before
    /// decryption's final call.
    fn is_aead(&self) -> bool {
        matches!(self.kind, Kind::Gcm | Kind::Mgm | Kind::CtrAcpkmOmac)
    }

    /// Whether the library's AEAD streams run it (GCM and MGM).
    fn is_library_aead(&self) -> bool {
        matches!(self.kind, Kind::Gcm | Kind::Mgm)
    }

    /// CTR-ACPKM, with or without the OMAC.
    fn is_acpkm(&self) -> bool {
        matches!(self.kind, Kind::CtrAcpkm | Kind::CtrAcpkmOmac)
    }
}

/// The keyed cipher of a context.
#[derive(Clone)]
enum Keyed {
    Block(std::sync::Arc<dyn DynCipher>),
    /// Kuznyechik by type, for ACPKM's re-keying.
    Kuz(Box<Kuznyechik>),
    Xts128(Box<AesXts<K128>>),
    Xts256(Box<AesXts<K256>>),
}

impl Keyed {
    fn block(&self) -> Option<&dyn DynCipher> {
        match self {
            Keyed::Block(c) => Some(&**c),
            Keyed::Kuz(k) => Some(&**k),
            _ => None,
        }
    }
}

/// A cipher context.
#[derive(Clone)]
pub(crate) struct Ctx {
    alg: &'static Alg,
    encrypt: bool,
    keyed: Option<Keyed>,
    /// The IV as given (the chaining value for CBC, the register for CFB and OFB).
    iv: [u8; MAX_BLOCK],
    iv_set: bool,
    /// The counter block of the CTR modes.
    counter: [u8; MAX_BLOCK],
    /// Keystream or buffered input not used yet.
    buf: [u8; MAX_BLOCK],
    /// Bytes of `buf` in use: buffered input (ECB, CBC), or the position in the keystream
    /// block (CTR, CFB, OFB; `block` when empty).
    num: usize,
    /// The current ACPKM section key (CTR-ACPKM only).
    section_key: Option<Kuznyechik>,
    /// Keystream bytes made under the current ACPKM section key.
    section_used: usize,
    padding: bool,
    aead: Option<Box<AeadState>>,
    /// The key derivation and MAC of `kuznyechik-ctr-acpkm-omac`.
    omac: Option<Box<OmacState>>,
}

impl Drop for Ctx {
    fn drop(&mut self) {
        self.iv.zeroize();
        self.counter.zeroize();
        self.buf.zeroize();
    }
}

pub(crate) type InitFn =
    unsafe extern "C" fn(*mut c_void, *const u8, usize, *const u8, usize, *const Param) -> c_int;
pub(crate) type UpdateFn =
    unsafe extern "C" fn(*mut c_void, *mut u8, *mut usize, usize, *const u8, usize) -> c_int;
pub(crate) type FinalFn = unsafe extern "C" fn(*mut c_void, *mut u8, *mut usize, usize) -> c_int;

/// A new context for the `I`-th cipher of the table, or NULL.
///
/// # Safety
/// Its argument is not read: any value may be given. It is `unsafe` only to have the type
/// of its dispatch-table slot.
pub(crate) unsafe extern "C" fn newctx<const I: usize>(_provctx: *mut c_void) -> *mut c_void {
    guard(core::ptr::null_mut(), || {
        let alg = &ALGS[I];
        let ctx = Ctx {
            alg,
            encrypt: true,
            keyed: None,
            iv: [0; MAX_BLOCK],
            iv_set: false,
            counter: [0; MAX_BLOCK],
            buf: [0; MAX_BLOCK],
            num: 0,
            section_key: None,
            section_used: 0,
            padding: true,
            aead: alg
                .is_library_aead()
                .then(|| Box::new(AeadState::new(alg.iv_len))),
            omac: (alg.kind == Kind::CtrAcpkmOmac).then(|| Box::new(OmacState::new())),
        };
        Box::into_raw(Box::new(ctx)).cast()
    })
}

/// Frees a context, wiping its keys.
///
/// # Safety
/// `vctx` is NULL or a context made by [`newctx`] or [`dupctx`], not freed before and not
/// used after this call.
pub(crate) unsafe extern "C" fn freectx(vctx: *mut c_void) {
    if vctx.is_null() {
        return;
    }
    guard((), || {
        // SAFETY: made by `newctx`/`dupctx` with `Box::into_raw`, freed once by OpenSSL.
        drop(unsafe { Box::from_raw(vctx.cast::<Ctx>()) });
    })
}

/// A copy of a context, keys and stream state included, or NULL.
///
/// # Safety
/// `vctx` is NULL or a live context of this provider, used by one thread at a time.
pub(crate) unsafe extern "C" fn dupctx(vctx: *mut c_void) -> *mut c_void {
    guard(core::ptr::null_mut(), || {
        // SAFETY: a live context of this provider.
        match unsafe { vctx.cast::<Ctx>().as_ref() } {
            Some(c) => Box::into_raw(Box::new(c.clone())).cast(),
            None => core::ptr::null_mut(),
        }
    })
}

/// The context behind `vctx`.
///
/// # Safety
/// `vctx` is NULL or a live context of this provider, used by one thread at a time.
unsafe fn ctx_mut<'a>(vctx: *mut c_void) -> Option<&'a mut Ctx> {
    // SAFETY: as the function's contract says.
    unsafe { vctx.cast::<Ctx>().as_mut() }
}

fn key_cipher(alg: &Alg, key: &[u8]) -> Option<Keyed> {
    if key.len() != alg.key_len {
        return None;
    }
    Some(match alg.kind {
        Kind::CtrAcpkm => Keyed::Kuz(Box::new(Kuznyechik::from_key(key).ok()?)),
        Kind::Xts if alg.key_len == 32 => Keyed::Xts128(Box::new(AesXts::from_key(key).ok()?)),
        Kind::Xts => Keyed::Xts256(Box::new(AesXts::from_key(key).ok()?)),
        _ => {
            let info = registry::cipher(alg.cipher).ok()?;
            Keyed::Block((info.new)(key, None).ok()?.into())
        }
    })
}

impl Ctx {
    /// Sets the key and/or IV (either may be absent) and resets the streaming state.
    fn init(&mut self, encrypt: bool, key: Option<&[u8]>, iv: Option<&[u8]>) -> bool {
        self.encrypt = encrypt;
        if let Some(aead) = self.aead.as_mut() {
            return aead.init(self.alg, encrypt, key, iv);
        }
        if let Some(om) = self.omac.as_mut() {
            if let Some(k) = key {
                if !om.set_key(k, encrypt) {
                    return false;
                }
                match om.derive() {
                    Some(c) => self.keyed = Some(Keyed::Kuz(Box::new(c))),
                    None => return false,
                }
            }
        } else if let Some(k) = key {
            match key_cipher(self.alg, k) {
                Some(c) => self.keyed = Some(c),
                None => return false,
            }
        }
        if let Some(iv) = iv {
            if iv.len() < self.alg.iv_len {
                return false;
            }
            self.iv[..self.alg.iv_len].copy_from_slice(&iv[..self.alg.iv_len]);
            self.iv_set = true;
        }
        self.reset_stream();
        true
    }

    fn reset_stream(&mut self) {
        let bs = self.alg.block();
        self.counter = [0; MAX_BLOCK];
        match self.alg.kind {
            Kind::GostCtr | Kind::CtrAcpkm | Kind::CtrAcpkmOmac => {
                self.counter[..bs / 2].copy_from_slice(&self.iv[..bs / 2]);
            }
            _ => self.counter[..bs].copy_from_slice(&self.iv[..bs]),
        }
        // A new message starts from the first section's key.
        self.section_key = match &self.keyed {
            Some(Keyed::Kuz(k)) => Some((**k).clone()),
            _ => None,
        };
        self.section_used = 0;
        if let Some(om) = self.omac.as_mut() {
            om.restart();
        }
        self.num = match self.alg.kind {
            Kind::Ecb | Kind::Cbc => 0,
            _ => bs,
        };
    }
}

/// The init calls' common part: the parameters first, then the key and IV.
///
/// # Safety
/// `vctx` is NULL or a live context of this provider; `key` and `iv` are NULL or point to
/// `keylen` and `ivlen` readable bytes; `params` is NULL or a parameter array ended by a NULL
/// key.
unsafe fn init_common(
    vctx: *mut c_void,
    encrypt: bool,
    key: *const u8,
    keylen: usize,
    iv: *const u8,
    ivlen: usize,
    params: *const Param,
) -> c_int {
    guard(0, || {
        // SAFETY: OpenSSL passes its live context.
        let Some(ctx) = (unsafe { ctx_mut(vctx) }) else {
            return 0;
        };
        // SAFETY: OpenSSL passes `params` first so that an IV length set there applies.
        if unsafe { set_params(ctx, params) } == 0 {
            return 0;
        }
        let key = (!key.is_null()).then(|| {
            // SAFETY: `keylen` readable bytes.
            unsafe { core::slice::from_raw_parts(key, keylen) }
        });
        let iv = (!iv.is_null()).then(|| {
            // SAFETY: `ivlen` readable bytes.
            unsafe { core::slice::from_raw_parts(iv, ivlen) }
        });
        c_int::from(ctx.init(encrypt, key, iv))
    })
}

/// Starts encryption: the key, IV and parameters given (each may be NULL to keep the one set).
///
/// # Safety
/// `vctx` is NULL or a live context of this provider, used by one thread at a time.
/// `key` is NULL or `keylen` readable bytes, `iv` NULL or `ivlen` readable bytes;
/// `params` is NULL or an `OSSL_PARAM` array ended by an entry with a NULL key, each entry's data valid for its size.
pub(crate) unsafe extern "C" fn encrypt_init(
    vctx: *mut c_void,
    key: *const u8,
    keylen: usize,
    iv: *const u8,
    ivlen: usize,
    params: *const Param,
) -> c_int {
    // SAFETY: forwarded from OpenSSL.
    unsafe { init_common(vctx, true, key, keylen, iv, ivlen, params) }
}

/// Starts decryption, as [`encrypt_init`] does encryption.
///
/// # Safety
/// As for [`encrypt_init`].
pub(crate) unsafe extern "C" fn decrypt_init(
    vctx: *mut c_void,
    key: *const u8,
    keylen: usize,
    iv: *const u8,
    ivlen: usize,
    params: *const Param,
) -> c_int {
    // SAFETY: forwarded from OpenSSL.
    unsafe { init_common(vctx, false, key, keylen, iv, ivlen, params) }
}
