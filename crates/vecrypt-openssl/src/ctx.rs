//! One cipher context: keying, the streaming state of each mode (partial blocks carried
//! between updates, padding in the block modes), and the parameters OpenSSL asks about.

use core::ffi::{CStr, c_int, c_uint, c_void};

use vecrypt::aes::{AesXts, K128, K256};
use vecrypt::kuznyechik::{Kuznyechik, acpkm};
use vecrypt::registry::{self, DynCipher};
use zeroize::Zeroize;

use crate::acpkm_omac::{OmacState, TAG};
use crate::aead::AeadState;
use crate::ossl::*;
use crate::{ALGS, guard};

/// The largest block of any cipher here (uBlock-256/256).
const MAX_BLOCK: usize = 32;

/// The section of CTR-ACPKM, as gost-engine sets it for `kuznyechik-ctr-acpkm`.
const ACPKM_SECTION: usize = 4096;

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

pub(crate) unsafe extern "C" fn freectx(vctx: *mut c_void) {
    if vctx.is_null() {
        return;
    }
    guard((), || {
        // SAFETY: made by `newctx`/`dupctx` with `Box::into_raw`, freed once by OpenSSL.
        drop(unsafe { Box::from_raw(vctx.cast::<Ctx>()) });
    })
}

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

    /// XORs whole blocks of CTR keystream into `data`, moving the counter on (and the key,
    /// at each ACPKM section end).
    fn ctr_blocks(&mut self, mut data: &mut [u8]) -> bool {
        let bs = self.alg.block();
        while !data.is_empty() {
            let take = if self.alg.is_acpkm() {
                if self.section_used == ACPKM_SECTION {
                    let Some(k) = &self.section_key else {
                        return false;
                    };
                    self.section_key = Some(acpkm::next_key(k));
                    self.section_used = 0;
                }
                (ACPKM_SECTION - self.section_used).min(data.len())
            } else {
                data.len()
            };
            let c: &dyn DynCipher = match (&self.section_key, &self.keyed) {
                (Some(k), _) => k,
                (None, Some(k)) => match k.block() {
                    Some(c) => c,
                    None => return false,
                },
                (None, None) => return false,
            };
            let (now, rest) = data.split_at_mut(take);
            if c.apply_ctr(&self.counter[..bs], now).is_err() {
                return false;
            }
            add_counter(&mut self.counter[..bs], (take / bs) as u64);
            self.section_used += take;
            data = rest;
        }
        true
    }

    /// One stream-mode update in place.
    fn stream(&mut self, data: &mut [u8]) -> bool {
        let bs = self.alg.block();
        match self.alg.kind {
            Kind::Ctr | Kind::GostCtr | Kind::CtrAcpkm | Kind::CtrAcpkmOmac => {
                let mut i = 0;
                while self.num < bs && i < data.len() {
                    data[i] ^= self.buf[self.num];
                    self.num += 1;
                    i += 1;
                }
                let whole = (data.len() - i) / bs * bs;
                if !self.ctr_blocks(&mut data[i..i + whole]) {
                    return false;
                }
                i += whole;
                if i < data.len() {
                    let mut ks = [0u8; MAX_BLOCK];
                    if !self.ctr_blocks(&mut ks[..bs]) {
                        return false;
                    }
                    self.buf = ks;
                    self.num = 0;
                    while i < data.len() {
                        data[i] ^= self.buf[self.num];
                        self.num += 1;
                        i += 1;
                    }
                }
                true
            }
            Kind::Ofb | Kind::Cfb => {
                let Some(c) = self.keyed.as_ref().and_then(Keyed::block) else {
                    return false;
                };
                let ofb = self.alg.kind == Kind::Ofb;
                for b in data.iter_mut() {
                    if self.num == bs {
                        // The register (the IV, then the last output or ciphertext block).
                        let mut r = [0u8; MAX_BLOCK];
                        r[..bs].copy_from_slice(&self.iv[..bs]);
                        if c.encrypt_ecb(&mut r[..bs]).is_err() {
                            return false;
                        }
                        self.buf = r;
                        if ofb {
                            self.iv = r;
                        }
                        self.num = 0;
                    }
                    let input = *b;
                    *b ^= self.buf[self.num];
                    if !ofb {
                        self.iv[self.num] = if self.encrypt { *b } else { input };
                    }
                    self.num += 1;
                }
                true
            }
            _ => false,
        }
    }

    /// One `kuznyechik-ctr-acpkm-omac` update in place: the MAC takes the plaintext, before
    /// encryption or after decryption.
    fn omac_stream(&mut self, data: &mut [u8]) -> bool {
        let encrypt = self.encrypt;
        let Some(om) = self.omac.as_mut() else {
            return false;
        };
        if encrypt && !om.absorb(data) {
            return false;
        }
        if !self.stream(data) {
            return false;
        }
        match self.omac.as_mut() {
            Some(om) if !encrypt => om.absorb(data),
            _ => true,
        }
    }

    /// `kuznyechik-ctr-acpkm-omac`'s final call: the MAC encrypted by the keystream that
    /// goes on after the data is the tag; encryption keeps it, decryption compares it with
    /// the tag set.
    fn omac_final(&mut self) -> bool {
        let Some(mut tag) = self.omac.as_mut().and_then(|om| om.take_mac()) else {
            return false;
        };
        let ok = self.stream(&mut tag);
        let encrypt = self.encrypt;
        let ok = ok
            && match self.omac.as_mut() {
                Some(om) if encrypt => {
                    om.set_made_tag(tag);
                    true
                }
                Some(om) => om.check(&tag),
                None => false,
            };
        tag.zeroize();
        ok
    }

    /// Runs the block mode on whole blocks in place, moving the CBC chain on.
    fn blocks(&mut self, data: &mut [u8]) -> bool {
        if data.is_empty() {
            return true;
        }
        let bs = self.alg.block();
        let Some(c) = self.keyed.as_ref().and_then(Keyed::block) else {
            return false;
        };
        match (self.alg.kind, self.encrypt) {
            (Kind::Ecb, true) => c.encrypt_ecb(data).is_ok(),
            (Kind::Ecb, false) => c.decrypt_ecb(data).is_ok(),
            (Kind::Cbc, true) => {
                let ok = c.encrypt_cbc(&self.iv[..bs], data).is_ok();
                self.iv[..bs].copy_from_slice(&data[data.len() - bs..]);
                ok
            }
            (Kind::Cbc, false) => {
                let mut last = [0u8; MAX_BLOCK];
                last[..bs].copy_from_slice(&data[data.len() - bs..]);
                let ok = c.decrypt_cbc(&self.iv[..bs], data).is_ok();
                self.iv = last;
                ok
            }
            _ => false,
        }
    }

    /// ECB or CBC update: buffers partial blocks (and, when decrypting with padding, the
    /// last whole block until `final`). Returns the output length.
    fn block_update(&mut self, out: &mut Vec<u8>, input: &[u8]) -> bool {
        let bs = self.alg.block();
        let total = self.num + input.len();
        let mut process = total / bs * bs;
        if !self.encrypt && self.padding && process == total && process > 0 {
            process -= bs;
        }
        if process == 0 {
            self.buf[self.num..self.num + input.len()].copy_from_slice(input);
            self.num += input.len();
            return true;
        }
        out.clear();
        out.extend_from_slice(&self.buf[..self.num]);
        let from_input = process - self.num;
        out.extend_from_slice(&input[..from_input]);
        let rest = &input[from_input..];
        self.buf[..rest.len()].copy_from_slice(rest);
        self.num = rest.len();
        self.blocks(out)
    }

    /// ECB or CBC final: pads (encryption) or checks and strips the padding (decryption).
    fn block_final(&mut self, out: &mut Vec<u8>) -> bool {
        let bs = self.alg.block();
        out.clear();
        if self.encrypt {
            if !self.padding {
                return self.num == 0;
            }
            let pad = (bs - self.num) as u8;
            let mut block = [0u8; MAX_BLOCK];
            block[..self.num].copy_from_slice(&self.buf[..self.num]);
            block[self.num..bs].fill(pad);
            out.extend_from_slice(&block[..bs]);
            self.num = 0;
            return self.blocks(out);
        }
        if !self.padding {
            return self.num == 0;
        }
        if self.num != bs {
            return false;
        }
        out.extend_from_slice(&self.buf[..bs]);
        self.num = 0;
        if !self.blocks(out) {
            return false;
        }
        let pad = usize::from(out[bs - 1]);
        if pad == 0 || pad > bs || out[bs - pad..].iter().any(|&b| usize::from(b) != pad) {
            out.clear();
            return false;
        }
        out.truncate(bs - pad);
        true
    }
}

/// Adds `n` to a big-endian counter, modulo its width.
fn add_counter(counter: &mut [u8], mut n: u64) {
    for b in counter.iter_mut().rev() {
        if n == 0 {
            break;
        }
        let s = u64::from(*b) + (n & 0xff);
        *b = s as u8;
        n = (n >> 8) + (s >> 8);
    }
}

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

pub(crate) unsafe extern "C" fn settable_ctx_params(
    _vctx: *mut c_void,
    _provctx: *mut c_void,
) -> *const Param {
    SETTABLE_CTX.as_ptr()
}

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
unsafe fn set_params(ctx: &mut Ctx, params: *const Param) -> c_int {
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
