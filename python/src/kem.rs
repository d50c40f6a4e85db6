//! `vecrypt.kem`: Aigis-enc keys, shaped like pyca's ML-KEM keys.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyType};
use zeroize::Zeroizing;

use vecrypt::aigis::{Aigis, ENCAPS_COINS_BYTES, HashMode, KEYPAIR_COINS_BYTES, ParamSet};

use crate::{bytes_like, lib_err, random_bytes};

/// The parameter set from `1`..`4` or a name such as `"Aigis-enc-2"`.
fn param_set(set: &Bound<'_, PyAny>) -> PyResult<ParamSet> {
    let parsed = if let Ok(n) = set.extract::<i64>() {
        ParamSet::parse(&n.to_string()).ok()
    } else if let Ok(s) = set.extract::<String>() {
        ParamSet::parse(&s).ok()
    } else {
        return Err(PyTypeError::new_err(
            "set must be an int (1 to 4) or a name",
        ));
    };
    parsed.ok_or_else(|| PyValueError::new_err("set must be 1, 2, 3 or 4"))
}

fn hash_mode(hash: &str) -> PyResult<HashMode> {
    HashMode::parse(hash).ok_or_else(|| PyValueError::new_err("hash must be \"shake\" or \"sm3\""))
}

fn scheme(set: &Bound<'_, PyAny>, hash: &str) -> PyResult<Aigis> {
    Ok(Aigis::new(param_set(set)?, hash_mode(hash)?))
}

fn set_number(set: ParamSet) -> u8 {
    match set {
        ParamSet::Aigis1 => 1,
        ParamSet::Aigis2 => 2,
        ParamSet::Aigis3 => 3,
        ParamSet::Aigis4 => 4,
    }
}

/// Where the public key starts in a secret key: after the packed secret vector.
fn public_key_in_secret(set: ParamSet) -> std::ops::Range<usize> {
    let pk = set.public_key_bytes();
    let start = set.secret_key_bytes() - pk - 64;
    start..start + pk
}

/// An Aigis-enc public (encapsulation) key.
#[pyclass(frozen, module = "vecrypt.kem")]
pub struct AigisEncPublicKey {
    scheme: Aigis,
    pk: Vec<u8>,
}

impl AigisEncPublicKey {
    /// The key's bytes, set and hash mode.
    pub(crate) fn parts(&self) -> (&[u8], ParamSet, HashMode) {
        (&self.pk, self.scheme.set(), self.scheme.hash_mode())
    }
}

#[pymethods]
impl AigisEncPublicKey {
    /// The key from its bytes, for parameter set `set` (1 to 4) and hash mode `hash`
    /// (`"shake"` or `"sm3"`). A wrong length is `ValueError`.
    #[classmethod]
    #[pyo3(signature = (data, set = None, hash = "shake"))]
    fn from_bytes(
        _cls: &Bound<'_, PyType>,
        data: &Bound<'_, PyAny>,
        set: Option<&Bound<'_, PyAny>>,
        hash: &str,
    ) -> PyResult<Self> {
        let scheme = scheme_or_default(set, hash)?;
        let data = bytes_like(data, "data")?;
        let want = scheme.set().public_key_bytes();
        if data.len() != want {
            return Err(PyValueError::new_err(format!(
                "{} public key must be {want} bytes, got {}",
                scheme.set().name(),
                data.len()
            )));
        }
        Ok(AigisEncPublicKey {
            scheme,
            pk: data.as_slice().to_vec(),
        })
    }

    /// The key's bytes.
    fn public_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.pk)
    }

    /// A fresh shared secret and its ciphertext for the holder of the private key, as
    /// `(shared_secret, ciphertext)`.
    fn encapsulate<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        let coins = random_bytes(ENCAPS_COINS_BYTES)?;
        self._encapsulate_with_coins(py, PyBytes::new(py, &coins).as_any())
    }

    /// Deterministic encapsulation from 32 bytes of coins, for known-answer tests only:
    /// coins that repeat or can be guessed give away the shared secret.
    fn _encapsulate_with_coins<'py>(
        &self,
        py: Python<'py>,
        coins: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        let coins = bytes_like(coins, "coins")?;
        let coins = coins.as_slice();
        let (ct, ss) = py
            .detach(|| self.scheme.encapsulate_from_coins(&self.pk, coins))
            .map_err(lib_err)?;
        Ok((PyBytes::new(py, &ss[..]), PyBytes::new(py, &ct)))
    }

    /// The parameter set, 1 to 4.
    #[getter]
    fn set(&self) -> u8 {
        set_number(self.scheme.set())
    }

    /// The hash mode, `"shake"` or `"sm3"`.
    #[getter]
    fn hash(&self) -> &'static str {
        self.scheme.hash_mode().name()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<AigisEncPublicKey>() {
            Ok(o) => {
                let o = o.get();
                o.scheme.set() == self.scheme.set()
                    && o.scheme.hash_mode() == self.scheme.hash_mode()
                    && o.pk == self.pk
            }
            Err(_) => false,
        }
    }
}

fn scheme_or_default(set: Option<&Bound<'_, PyAny>>, hash: &str) -> PyResult<Aigis> {
    match set {
        Some(s) if !s.is_none() => scheme(s, hash),
        _ => Ok(Aigis::new(ParamSet::Aigis2, hash_mode(hash)?)),
    }
}

/// An Aigis-enc private (decapsulation) key. Its bytes are wiped when it is dropped.
#[pyclass(frozen, module = "vecrypt.kem")]
pub struct AigisEncPrivateKey {
    scheme: Aigis,
    sk: Zeroizing<Vec<u8>>,
}

impl AigisEncPrivateKey {
    /// The key's bytes, set and hash mode.
    pub(crate) fn parts(&self) -> (&[u8], ParamSet, HashMode) {
        (&self.sk, self.scheme.set(), self.scheme.hash_mode())
    }

    fn from_coins(scheme: Aigis, coins: &[u8]) -> PyResult<Self> {
        let (_pk, sk) = scheme.keypair_from_coins(coins).map_err(lib_err)?;
        Ok(AigisEncPrivateKey { scheme, sk })
    }
}

#[pymethods]
impl AigisEncPrivateKey {
    /// A new random key pair of parameter set `set` (1 to 4) and hash mode `hash`
    /// (`"shake"` or `"sm3"`).
    #[classmethod]
    #[pyo3(signature = (set = None, hash = "shake"))]
    fn generate(
        _cls: &Bound<'_, PyType>,
        set: Option<&Bound<'_, PyAny>>,
        hash: &str,
    ) -> PyResult<Self> {
        let scheme = scheme_or_default(set, hash)?;
        let coins = random_bytes(KEYPAIR_COINS_BYTES)?;
        Self::from_coins(scheme, &coins)
    }

    /// The key pair that 64 bytes of key-generation coins give (`d || z`), as the
    /// known-answer files list them. Secret coins give a secret key: keep them so.
    #[classmethod]
    #[pyo3(signature = (data, set = None, hash = "shake"))]
    fn from_seed_bytes(
        _cls: &Bound<'_, PyType>,
        data: &Bound<'_, PyAny>,
        set: Option<&Bound<'_, PyAny>>,
        hash: &str,
    ) -> PyResult<Self> {
        let scheme = scheme_or_default(set, hash)?;
        let data = bytes_like(data, "data")?;
        if data.len() != KEYPAIR_COINS_BYTES {
            return Err(PyValueError::new_err(format!(
                "seed must be {KEYPAIR_COINS_BYTES} bytes, got {}",
                data.len()
            )));
        }
        Self::from_coins(scheme, data.as_slice())
    }

    /// The key from its bytes (which hold the public key too), for parameter set `set` and
    /// hash mode `hash`. A wrong length is `ValueError`.
    #[classmethod]
    #[pyo3(signature = (data, set = None, hash = "shake"))]
    fn from_bytes(
        _cls: &Bound<'_, PyType>,
        data: &Bound<'_, PyAny>,
        set: Option<&Bound<'_, PyAny>>,
        hash: &str,
    ) -> PyResult<Self> {
        let scheme = scheme_or_default(set, hash)?;
        let data = bytes_like(data, "data")?;
        let want = scheme.set().secret_key_bytes();
        if data.len() != want {
            return Err(PyValueError::new_err(format!(
                "{} private key must be {want} bytes, got {}",
                scheme.set().name(),
                data.len()
            )));
        }
        Ok(AigisEncPrivateKey {
            scheme,
            sk: Zeroizing::new(data.as_slice().to_vec()),
        })
    }

    /// The matching public key.
    fn public_key(&self) -> AigisEncPublicKey {
        AigisEncPublicKey {
            scheme: self.scheme,
            pk: self.sk[public_key_in_secret(self.scheme.set())].to_vec(),
        }
    }

    /// The key's bytes. They are secret.
    fn private_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.sk)
    }

    /// The shared secret of `ciphertext`. A wrong length is `ValueError`; a well-formed
    /// ciphertext that was not made for this key gives an unrelated secret (implicit
    /// rejection), not an error.
    fn decapsulate<'py>(
        &self,
        py: Python<'py>,
        ciphertext: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let ct = bytes_like(ciphertext, "ciphertext")?;
        let want = self.scheme.set().ciphertext_bytes();
        if ct.len() != want {
            return Err(PyValueError::new_err(format!(
                "{} ciphertext must be {want} bytes, got {}",
                self.scheme.set().name(),
                ct.len()
            )));
        }
        let ct = ct.as_slice();
        let ss = py
            .detach(|| self.scheme.decapsulate(&self.sk, ct))
            .map_err(lib_err)?;
        Ok(PyBytes::new(py, &ss[..]))
    }

    /// The parameter set, 1 to 4.
    #[getter]
    fn set(&self) -> u8 {
        set_number(self.scheme.set())
    }

    /// The hash mode, `"shake"` or `"sm3"`.
    #[getter]
    fn hash(&self) -> &'static str {
        self.scheme.hash_mode().name()
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<AigisEncPublicKey>()?;
    m.add_class::<AigisEncPrivateKey>()?;
    Ok(())
}
