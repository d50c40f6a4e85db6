//! `vecrypt.seal`: the sealed format of `vecrypt seal` and `vecrypt open`, through the CLI
//! crate's own stream functions, so that bytes sealed by either side open on the other.
//!
//! The wrapper only turns Python arguments into the CLI crate's `Lock` and `Unlock`, file
//! objects into its reader and writer, and its `Failure` into exceptions: status 1
//! (authentication, wrong key, corrupt input) is `InvalidTag`, status 2 `ValueError`.

use std::io::{BufReader, Cursor, Read};
use std::sync::{Arc, Mutex};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use zeroize::Zeroizing;

use vecrypt::aigis::{HashMode, ParamSet};
use vecrypt_cli::Failure;
use vecrypt_cli::keys;
use vecrypt_cli::seal::{self as format, Cost, Lock, NONCE_PREFIX, Suite, Unlock};

use crate::kem::{AigisEncPrivateKey, AigisEncPublicKey};
use crate::{InvalidTag, bytes_like, random_bytes};

/// Bytes read from a file object per call.
const READ_SIZE: usize = 1 << 20;

fn suite_named(name: &str) -> PyResult<Suite> {
    Suite::from_name(&name.to_ascii_lowercase()).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown suite {name:?}: use \"aes-256-gcm\" or \"kuznyechik-mgm\""
        ))
    })
}

fn random_array<const N: usize>() -> PyResult<[u8; N]> {
    let r = random_bytes(N)?;
    let mut out = [0u8; N];
    out.copy_from_slice(&r);
    Ok(out)
}

/// A secret given as `str` (UTF-8) or bytes-like.
fn secret_bytes(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Zeroizing<Vec<u8>>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Zeroizing::new(s.to_cow()?.as_bytes().to_vec()));
    }
    Ok(Zeroizing::new(bytes_like(obj, what)?.as_slice().to_vec()))
}

/// A symmetric key: 32 raw bytes, or the text of a key file (`vecrypt keygen`).
fn key_bytes(obj: &Bound<'_, PyAny>) -> PyResult<Zeroizing<Vec<u8>>> {
    let raw = secret_bytes(obj, "key")?;
    if raw.len() == format::KEY_BYTES && !obj.is_instance_of::<PyString>() {
        return Ok(raw);
    }
    keys::decode_seal_key_file(&raw).map_err(|e| PyValueError::new_err(format!("key: {e}")))
}

/// A passphrase, `str` or bytes; an empty one is refused, as the command does.
fn passphrase_bytes(obj: &Bound<'_, PyAny>) -> PyResult<Zeroizing<Vec<u8>>> {
    let pass = secret_bytes(obj, "passphrase")?;
    if pass.is_empty() {
        return Err(PyValueError::new_err("the passphrase is empty"));
    }
    Ok(pass)
}

/// What `seal` locks a stream with; owns the secrets that `Lock` borrows.
enum Sealer {
    Key(Zeroizing<Vec<u8>>),
    Passphrase(Zeroizing<Vec<u8>>, [u8; 16]),
    Kem(Vec<u8>, ParamSet, HashMode, Zeroizing<[u8; 32]>),
}

impl Sealer {
    fn from_args(
        key: Option<&Bound<'_, PyAny>>,
        passphrase: Option<&Bound<'_, PyAny>>,
        recipient: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        match (given(key), given(passphrase), given(recipient)) {
            (Some(k), None, None) => Ok(Sealer::Key(key_bytes(k)?)),
            (None, Some(p), None) => Ok(Sealer::Passphrase(passphrase_bytes(p)?, random_array()?)),
            (None, None, Some(r)) => {
                let coins = Zeroizing::new(random_array::<32>()?);
                if let Ok(pk) = r.cast::<AigisEncPublicKey>() {
                    let (pk, set, mode) = pk.get().parts();
                    return Ok(Sealer::Kem(pk.to_vec(), set, mode, coins));
                }
                let data = bytes_like(r, "recipient")?;
                let data = data.as_slice();
                let (set, mode, pk) = match format::decode_kem_key(data, false).map_err(failure)? {
                    Some(found) => found,
                    None => {
                        let set = ParamSet::ALL
                            .into_iter()
                            .find(|s| s.public_key_bytes() == data.len())
                            .ok_or_else(|| {
                                PyValueError::new_err("recipient is not an Aigis-enc public key")
                            })?;
                        (set, HashMode::Shake, data)
                    }
                };
                Ok(Sealer::Kem(pk.to_vec(), set, mode, coins))
            }
            _ => Err(PyValueError::new_err(
                "give exactly one of key, passphrase and recipient",
            )),
        }
    }

    fn lock(&self) -> Lock<'_> {
        match self {
            Sealer::Key(k) => Lock::Key(k),
            Sealer::Passphrase(pass, salt) => Lock::Passphrase {
                pass,
                salt: *salt,
                cost: Cost::DEFAULT,
            },
            Sealer::Kem(pk, set, mode, coins) => Lock::Kem {
                pk,
                set: *set,
                mode: *mode,
                coins: **coins,
            },
        }
    }
}

/// What `open` unlocks a stream with.
enum Opener {
    Key(Zeroizing<Vec<u8>>),
    Passphrase(Zeroizing<Vec<u8>>),
    Kem(Zeroizing<Vec<u8>>),
}

impl Opener {
    fn from_args(
        key: Option<&Bound<'_, PyAny>>,
        passphrase: Option<&Bound<'_, PyAny>>,
        identity: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        match (given(key), given(passphrase), given(identity)) {
            (Some(k), None, None) => Ok(Opener::Key(key_bytes(k)?)),
            (None, Some(p), None) => Ok(Opener::Passphrase(passphrase_bytes(p)?)),
            (None, None, Some(i)) => {
                if let Ok(sk) = i.cast::<AigisEncPrivateKey>() {
                    let (sk, set, mode) = sk.get().parts();
                    return Ok(Opener::Kem(Zeroizing::new(format::encode_kem_key(
                        true, set, mode, sk,
                    ))));
                }
                Ok(Opener::Kem(secret_bytes(i, "identity")?))
            }
            _ => Err(PyValueError::new_err(
                "give exactly one of key, passphrase and identity",
            )),
        }
    }

    fn unlock(&self) -> Unlock<'_> {
        match self {
            Opener::Key(k) => Unlock::Key(k),
            Opener::Passphrase(p) => Unlock::Passphrase(p, Cost::DEFAULT_MAX),
            Opener::Kem(sk) => Unlock::Kem(sk),
        }
    }
}

fn given<'a, 'py>(obj: Option<&'a Bound<'py, PyAny>>) -> Option<&'a Bound<'py, PyAny>> {
    obj.filter(|o| !o.is_none())
}

fn failure(f: Failure) -> PyErr {
    if f.code == 1 {
        InvalidTag::new_err(f.msg)
    } else {
        PyValueError::new_err(f.msg)
    }
}

/// The first Python exception that a file object raised, to raise again in its place.
#[derive(Default)]
struct Raised(Mutex<Option<PyErr>>);

impl Raised {
    fn keep(&self, e: PyErr) {
        let mut slot = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if slot.is_none() {
            *slot = Some(e);
        }
    }

    /// The exception of a file object if there was one, else the format's failure.
    fn take_or(&self, f: Failure) -> PyErr {
        let kept = self.0.lock().unwrap_or_else(|p| p.into_inner()).take();
        kept.unwrap_or_else(|| failure(f))
    }
}

/// A binary file object read through its `read` method.
struct PyReader {
    file: Py<PyAny>,
    raised: Arc<Raised>,
}

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        Python::attach(|py| {
            let got = self.file.bind(py).call_method1("read", (buf.len(),));
            let got = got.and_then(|b| bytes_like(&b, "the data read"));
            match got.as_ref().map(|b| b.as_slice()) {
                Ok(b) if b.len() <= buf.len() => {
                    buf[..b.len()].copy_from_slice(b);
                    Ok(b.len())
                }
                Ok(_) => Err(std::io::Error::other("read() returned more than asked")),
                Err(_) => {
                    if let Err(e) = got {
                        self.raised.keep(e);
                    }
                    Err(std::io::Error::other("the source file object raised"))
                }
            }
        })
    }
}

/// Writes to a binary file object through its `write` method.
fn py_writer<'a>(
    file: &'a Py<PyAny>,
    raised: &'a Raised,
) -> impl FnMut(&[u8]) -> Result<(), Failure> + 'a {
    move |data: &[u8]| {
        if data.is_empty() {
            return Ok(());
        }
        Python::attach(|py| {
            let chunk = PyBytes::new(py, data);
            file.bind(py).call_method1("write", (chunk,)).map(|_| ())
        })
        .map_err(|e| {
            raised.keep(e);
            Failure::usage("the destination file object raised")
        })
    }
}

/// Seals `data` and returns the sealed bytes: exactly one of `key` (32 bytes, or the text
/// of a key file from `generate_key` or `vecrypt keygen`), `passphrase` (`str` or bytes;
/// Argon2id at the command's default cost) and `recipient` (an `AigisEncPublicKey`, or
/// the bytes of a public key file of `vecrypt kem keygen` or a raw public key). `suite` is
/// `"aes-256-gcm"` or `"kuznyechik-mgm"`.
#[pyfunction]
#[pyo3(signature = (data, *, key = None, passphrase = None, recipient = None, suite = "aes-256-gcm"))]
fn seal<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    key: Option<&Bound<'py, PyAny>>,
    passphrase: Option<&Bound<'py, PyAny>>,
    recipient: Option<&Bound<'py, PyAny>>,
    suite: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let suite = suite_named(suite)?;
    let sealer = Sealer::from_args(key, passphrase, recipient)?;
    let prefix: [u8; NONCE_PREFIX] = random_array()?;
    let data = bytes_like(data, "data")?;
    let size = data.len();
    let input = Cursor::new(Zeroizing::new(data.as_slice().to_vec()));
    let mut sealed = Vec::with_capacity(size + size / 1000 + 256);
    py.detach(|| {
        let mut out = |b: &[u8]| -> Result<(), Failure> {
            sealed.extend_from_slice(b);
            Ok(())
        };
        format::seal_stream(&sealer.lock(), suite, &prefix, input, &mut out, None)
    })
    .map_err(failure)?;
    Ok(PyBytes::new(py, &sealed))
}

/// Checks and opens sealed bytes, with exactly one of `key`, `passphrase` and `identity`
/// (an `AigisEncPrivateKey`, or the bytes of a secret key file). Raises `InvalidTag` when
/// the key is wrong or the data was changed, `ValueError` when it is not in the format.
#[pyfunction]
#[pyo3(signature = (data, *, key = None, passphrase = None, identity = None))]
fn open<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    key: Option<&Bound<'py, PyAny>>,
    passphrase: Option<&Bound<'py, PyAny>>,
    identity: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let opener = Opener::from_args(key, passphrase, identity)?;
    let data = bytes_like(data, "data")?;
    let size = data.len();
    let input = Cursor::new(data.as_slice().to_vec());
    let mut plain = Zeroizing::new(Vec::with_capacity(size));
    py.detach(|| {
        let mut out = |b: &[u8]| -> Result<(), Failure> {
            plain.extend_from_slice(b);
            Ok(())
        };
        format::open_stream(&opener.unlock(), input, &mut out, None)
    })
    .map_err(failure)?;
    Ok(PyBytes::new(py, &plain))
}

/// Seals the binary file object `src` (read with `read`) into `dst` (written with
/// `write`), a chunk at a time, with the same key arguments as `seal`.
#[pyfunction]
#[pyo3(signature = (src, dst, *, key = None, passphrase = None, recipient = None, suite = "aes-256-gcm"))]
fn seal_file(
    py: Python<'_>,
    src: &Bound<'_, PyAny>,
    dst: &Bound<'_, PyAny>,
    key: Option<&Bound<'_, PyAny>>,
    passphrase: Option<&Bound<'_, PyAny>>,
    recipient: Option<&Bound<'_, PyAny>>,
    suite: &str,
) -> PyResult<()> {
    let suite = suite_named(suite)?;
    let sealer = Sealer::from_args(key, passphrase, recipient)?;
    let prefix: [u8; NONCE_PREFIX] = random_array()?;
    let raised = Arc::new(Raised::default());
    let (src, dst) = (src.clone().unbind(), dst.clone().unbind());
    let result = py.detach(|| {
        let reader = PyReader {
            file: src,
            raised: raised.clone(),
        };
        let input = BufReader::with_capacity(READ_SIZE, reader);
        let mut out = py_writer(&dst, &raised);
        format::seal_stream(&sealer.lock(), suite, &prefix, input, &mut out, None)
    });
    result.map_err(|f| raised.take_or(f))
}

/// Checks and opens the sealed binary file object `src` into `dst`, with the same key
/// arguments as `open`. Every chunk is authenticated before it is written, and a failure
/// stops at the first bad chunk: what was written before it came from good chunks, but the
/// stream was not whole, so discard `dst` when this raises.
#[pyfunction]
#[pyo3(signature = (src, dst, *, key = None, passphrase = None, identity = None))]
fn open_file(
    py: Python<'_>,
    src: &Bound<'_, PyAny>,
    dst: &Bound<'_, PyAny>,
    key: Option<&Bound<'_, PyAny>>,
    passphrase: Option<&Bound<'_, PyAny>>,
    identity: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    let opener = Opener::from_args(key, passphrase, identity)?;
    let raised = Arc::new(Raised::default());
    let (src, dst) = (src.clone().unbind(), dst.clone().unbind());
    let result = py.detach(|| {
        let reader = PyReader {
            file: src,
            raised: raised.clone(),
        };
        let input = BufReader::with_capacity(READ_SIZE, reader);
        let mut out = py_writer(&dst, &raised);
        format::open_stream(&opener.unlock(), input, &mut out, None)
    });
    result.map_err(|f| raised.take_or(f))
}

/// A new random key as the text of a key file, the same as `vecrypt keygen` writes.
#[pyfunction]
fn generate_key() -> PyResult<String> {
    let key = random_bytes(format::KEY_BYTES)?;
    let text = keys::encode_key_file(&key);
    String::from_utf8(text.to_vec()).map_err(|e| PyValueError::new_err(e.to_string()))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(seal, m)?)?;
    m.add_function(wrap_pyfunction!(open, m)?)?;
    m.add_function(wrap_pyfunction!(seal_file, m)?)?;
    m.add_function(wrap_pyfunction!(open_file, m)?)?;
    m.add_function(wrap_pyfunction!(generate_key, m)?)?;
    m.add("SUITES", Suite::ALL.map(|(_, n)| n))?;
    Ok(())
}
