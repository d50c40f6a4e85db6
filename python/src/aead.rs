//! `vecrypt.aead`: the AEADs, each `encrypt(nonce, data, associated_data)` returning the
//! ciphertext followed by a 16-byte tag, and `decrypt` raising `InvalidTag`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyType};

use vecrypt::registry::{self, DynAead};

use crate::{InvalidTag, bytes_like, lib_err, new_bytes, opt_bytes_like, random_bytes};

const TAG: usize = 16;

/// One keyed AEAD of any algorithm, from the library's table; the key schedules are wiped
/// when it is dropped.
struct Keyed(Box<dyn DynAead>);

impl Keyed {
    /// The AEAD the library calls `name`, keyed with `key` (whose length the caller checked).
    fn new(name: &str, key: &[u8]) -> PyResult<Self> {
        let info = registry::aead(name).map_err(lib_err)?;
        Ok(Keyed((info.new)(key, None).map_err(lib_err)?))
    }

    fn encrypt(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<[u8; 16], vecrypt::Error> {
        self.0.encrypt_detached(nonce, aad, buf)
    }

    fn decrypt(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<(), vecrypt::Error> {
        self.0.decrypt_detached(nonce, aad, buf, tag)
    }

    fn backend(&self) -> vecrypt::Backend {
        self.0.backend()
    }
}

/// What every AEAD class shares: `encrypt` and `decrypt`.
#[pyclass(subclass, frozen, module = "vecrypt.aead", name = "AEAD")]
pub struct Aead {
    keyed: Keyed,
}

#[pymethods]
impl Aead {
    /// Encrypts and authenticates `data`, authenticates `associated_data` (or nothing when it
    /// is None), and returns the ciphertext followed by the 16-byte tag. A nonce must never
    /// repeat under one key.
    #[pyo3(signature = (nonce, data, associated_data = None))]
    fn encrypt<'py>(
        &self,
        py: Python<'py>,
        nonce: &Bound<'py, PyAny>,
        data: &Bound<'py, PyAny>,
        associated_data: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let nonce = bytes_like(nonce, "nonce")?;
        let data = bytes_like(data, "data")?;
        let aad = opt_bytes_like(associated_data, "associated_data")?;
        let (nonce, text) = (nonce.as_slice(), data.as_slice());
        let aad = aad.as_ref().map_or(&[][..], |a| a.as_slice());
        let n = text.len();
        let len = n
            .checked_add(TAG)
            .ok_or_else(|| PyValueError::new_err("data too long"))?;
        new_bytes(py, &[text], len, |out| {
            let (body, tag_out) = out.split_at_mut(n);
            let tag = self.keyed.encrypt(nonce, aad, body)?;
            tag_out.copy_from_slice(&tag);
            Ok(())
        })?
        .map_err(lib_err)
    }

    /// Checks the tag at the end of `data` against the nonce, the ciphertext and
    /// `associated_data`, and returns the plaintext. Raises `InvalidTag` when they do not
    /// match (or `data` is shorter than a tag); no plaintext is released then.
    #[pyo3(signature = (nonce, data, associated_data = None))]
    fn decrypt<'py>(
        &self,
        py: Python<'py>,
        nonce: &Bound<'py, PyAny>,
        data: &Bound<'py, PyAny>,
        associated_data: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let nonce = bytes_like(nonce, "nonce")?;
        let data = bytes_like(data, "data")?;
        let aad = opt_bytes_like(associated_data, "associated_data")?;
        let (nonce, sealed) = (nonce.as_slice(), data.as_slice());
        let aad = aad.as_ref().map_or(&[][..], |a| a.as_slice());
        let Some(n) = sealed.len().checked_sub(TAG) else {
            return Err(InvalidTag::new_err(()));
        };
        let (text, tag) = sealed.split_at(n);
        new_bytes(py, &[text], n, |out| {
            self.keyed.decrypt(nonce, aad, out, tag)
        })?
        .map_err(lib_err)
    }

    /// The backend this key runs on.
    #[getter]
    fn backend(&self) -> &'static str {
        self.keyed.backend().name()
    }
}

fn key_of<'py>(key: &Bound<'py, PyAny>) -> PyResult<crate::Input<'py>> {
    bytes_like(key, "key")
}

/// AES-GCM (NIST SP 800-38D) with a 128-, 192- or 256-bit key. Nonces of any length from
/// 1 byte (12 recommended: other lengths are hashed into the counter block), 16-byte tags.
#[pyclass(extends = Aead, frozen, module = "vecrypt.aead")]
pub struct AESGCM;

#[pymethods]
impl AESGCM {
    #[new]
    fn new(key: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let key = key_of(key)?;
        let k = key.as_slice();
        let keyed = match k.len() {
            16 => Keyed::new("aes-128-gcm", k)?,
            24 => Keyed::new("aes-192-gcm", k)?,
            32 => Keyed::new("aes-256-gcm", k)?,
            n => {
                return Err(PyValueError::new_err(format!(
                    "AESGCM key must be 128, 192, or 256 bits, got {} bits",
                    8 * n
                )));
            }
        };
        Ok(PyClassInitializer::from(Aead { keyed }).add_subclass(AESGCM))
    }

    /// A random key of `bit_length` bits (128, 192 or 256).
    #[classmethod]
    fn generate_key<'py>(
        _cls: &Bound<'py, PyType>,
        bit_length: usize,
    ) -> PyResult<Bound<'py, PyBytes>> {
        if ![128, 192, 256].contains(&bit_length) {
            return Err(PyValueError::new_err("bit_length must be 128, 192, or 256"));
        }
        let key = random_bytes(bit_length / 8)?;
        Ok(PyBytes::new(_cls.py(), &key))
    }
}

/// Kuznyechik-MGM (RFC 9058): a 256-bit key, a 16-byte nonce whose top bit is zero, and a
/// 16-byte tag.
#[pyclass(extends = Aead, frozen, module = "vecrypt.aead")]
pub struct KuznyechikMGM;

#[pymethods]
impl KuznyechikMGM {
    #[new]
    fn new(key: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let key = key_of(key)?;
        let keyed = Keyed::new("kuznyechik-mgm", key.as_slice())?;
        Ok(PyClassInitializer::from(Aead { keyed }).add_subclass(KuznyechikMGM))
    }

    /// A random 256-bit key.
    #[classmethod]
    fn generate_key<'py>(cls: &Bound<'py, PyType>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(cls.py(), &random_bytes(32)?))
    }
}

/// GCM over Kuznyechik: a 256-bit key, nonces of any length from 1 byte (12 recommended),
/// 16-byte tags.
#[pyclass(extends = Aead, frozen, module = "vecrypt.aead")]
pub struct KuznyechikGCM;

#[pymethods]
impl KuznyechikGCM {
    #[new]
    fn new(key: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let key = key_of(key)?;
        let keyed = Keyed::new("kuznyechik-gcm", key.as_slice())?;
        Ok(PyClassInitializer::from(Aead { keyed }).add_subclass(KuznyechikGCM))
    }

    /// A random 256-bit key.
    #[classmethod]
    fn generate_key<'py>(cls: &Bound<'py, PyType>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(cls.py(), &random_bytes(32)?))
    }
}

/// GCM over uBlock-128: uBlock-128/128 with a 16-byte key, uBlock-128/256 with a 32-byte
/// key; nonces of any length from 1 byte (12 recommended), 16-byte tags.
#[pyclass(extends = Aead, frozen, module = "vecrypt.aead")]
pub struct UBlockGCM;

#[pymethods]
impl UBlockGCM {
    #[new]
    fn new(key: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let key = key_of(key)?;
        let k = key.as_slice();
        let keyed = match k.len() {
            16 => Keyed::new("ublock-128-gcm", k)?,
            32 => Keyed::new("ublock-128-256-gcm", k)?,
            n => {
                return Err(PyValueError::new_err(format!(
                    "UBlockGCM key must be 128 or 256 bits, got {} bits",
                    8 * n
                )));
            }
        };
        Ok(PyClassInitializer::from(Aead { keyed }).add_subclass(UBlockGCM))
    }

    /// A random key of `bit_length` bits: 128 (uBlock-128/128) or 256 (uBlock-128/256).
    #[classmethod]
    #[pyo3(signature = (bit_length = 256))]
    fn generate_key<'py>(
        cls: &Bound<'py, PyType>,
        bit_length: usize,
    ) -> PyResult<Bound<'py, PyBytes>> {
        if ![128, 256].contains(&bit_length) {
            return Err(PyValueError::new_err("bit_length must be 128 or 256"));
        }
        Ok(PyBytes::new(cls.py(), &random_bytes(bit_length / 8)?))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Aead>()?;
    m.add_class::<AESGCM>()?;
    m.add_class::<KuznyechikMGM>()?;
    m.add_class::<KuznyechikGCM>()?;
    m.add_class::<UBlockGCM>()?;
    Ok(())
}
