//! The native part of the `vecrypt` Python package. The public modules (`vecrypt.aead`,
//! `vecrypt.ciphers`, `vecrypt.cmac`, `vecrypt.kem`, `vecrypt.seal`) re-export the classes
//! and functions defined here.
//!
//! Conventions kept everywhere: any bytes-like object is accepted as input, `bytes` is
//! returned, a wrong length or key is `ValueError`, a failed authentication is
//! `vecrypt.InvalidTag`. Inputs that can change under us (anything but `bytes`) are copied
//! before the GIL is released, which every call on more than [`DETACH_AT`] bytes does.

// This crate is a boundary to C: its unsafe code is the foreign calls and the pointers they
// hand over, each block with its SAFETY reason, each unsafe fn with its contract.
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks, clippy::missing_safety_doc)]
// The Rust types carry the Python class names, which follow pyca's (`AESGCM`, `CBC`).
#![allow(clippy::upper_case_acronyms)]

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyMemoryView};
use zeroize::Zeroizing;

mod aead;
mod ciphers;
mod kem;
mod seal;

create_exception!(
    vecrypt,
    InvalidTag,
    PyException,
    "Authentication failed: the tag does not match the key, nonce, data and associated data."
);
create_exception!(
    vecrypt,
    InvalidSignature,
    PyException,
    "A MAC did not verify."
);
create_exception!(
    vecrypt,
    AlreadyFinalized,
    PyException,
    "The context was finalized and takes no more calls."
);

/// Calls on more bytes than this run with the GIL released.
pub(crate) const DETACH_AT: usize = 4096;

/// Runs `f` with the GIL released when the call handles more than [`DETACH_AT`] bytes.
pub(crate) fn detach_over<T: Send>(py: Python<'_>, len: usize, f: impl FnOnce() -> T + Send) -> T {
    if len > DETACH_AT { py.detach(f) } else { f() }
}

/// A new `bytes` object of `len` bytes: `parts` copied to its start one after the other,
/// zeros after them, then `work` run over the whole buffer. The copy and `work` run with the
/// GIL released when `len` is over [`DETACH_AT`], and the buffer is not zeroed first, so a
/// large output costs one pass of copying before `work` and nothing under the GIL. An error
/// of `work` is handed back (the object is dropped).
pub(crate) fn new_bytes<'py, E: Send>(
    py: Python<'py>,
    parts: &[&[u8]],
    len: usize,
    work: impl FnOnce(&mut [u8]) -> Result<(), E> + Send,
) -> PyResult<Result<Bound<'py, PyBytes>, E>> {
    let copied = parts.iter().map(|p| p.len()).sum::<usize>();
    let size = isize::try_from(len)
        .ok()
        .filter(|_| copied <= len)
        .ok_or_else(|| PyValueError::new_err("data too long"))?;
    // SAFETY: with a null source, PyBytes_FromStringAndSize allocates a bytes object of
    // `size` bytes whose contents we are to fill; it returns null with an exception set on
    // failure, which `from_owned_ptr_or_err` turns into the error.
    let obj = unsafe {
        Bound::from_owned_ptr_or_err(
            py,
            pyo3::ffi::PyBytes_FromStringAndSize(std::ptr::null(), size),
        )?
    };
    let obj = obj.cast_into::<PyBytes>()?;
    // SAFETY: `obj` is a bytes object, whose buffer PyBytes_AsString returns (never null).
    let dst = Dst(unsafe { pyo3::ffi::PyBytes_AsString(obj.as_ptr()) }.cast::<u8>());
    let result = detach_over(py, len, move || {
        let dst = dst;
        let mut at = 0;
        for p in parts {
            // SAFETY: the buffer holds `len` bytes and the parts add up to at most `len`
            // (checked above); the new object is referenced by no one else yet, so nothing
            // reads or writes the buffer meanwhile, and it never moves.
            unsafe { std::ptr::copy_nonoverlapping(p.as_ptr(), dst.0.add(at), p.len()) };
            at += p.len();
        }
        // SAFETY: as above; the bytes from `at` to `len` are inside the buffer.
        unsafe { std::ptr::write_bytes(dst.0.add(at), 0, len - at) };
        // SAFETY: all `len` bytes are initialised now, and this is the only reference.
        let buf = unsafe { std::slice::from_raw_parts_mut(dst.0, len) };
        work(buf)
    });
    Ok(result.map(|()| obj))
}

/// The buffer of a bytes object that only [`new_bytes`] references, handed to the closure
/// that runs without the GIL.
struct Dst(*mut u8);

// SAFETY: the pointer is used by one thread at a time: the closure of `new_bytes`, while the
// calling thread waits for it.
unsafe impl Send for Dst {}

/// A bytes-like argument: a `bytes` object borrowed as it is (it cannot change), or a copy
/// of anything else that exports bytes, wiped when dropped.
pub(crate) enum Input<'py> {
    Bytes(Bound<'py, PyBytes>),
    Owned(Zeroizing<Vec<u8>>),
}

impl Input<'_> {
    pub(crate) fn as_slice(&self) -> &[u8] {
        match self {
            Input::Bytes(b) => b.as_bytes(),
            Input::Owned(v) => v,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.as_slice().len()
    }
}

/// Reads a bytes-like argument called `what`: `bytes`, `bytearray`, `memoryview` or any
/// object with the buffer protocol. Anything else is a `TypeError`.
pub(crate) fn bytes_like<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Input<'py>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Input::Bytes(b.clone()));
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(Input::Owned(Zeroizing::new(b.to_vec())));
    }
    let view = PyMemoryView::from(obj)
        .map_err(|_| PyTypeError::new_err(format!("{what} must be bytes-like")))?;
    let copy = view.call_method0("tobytes")?;
    let copy = copy
        .cast_into::<PyBytes>()
        .map_err(|_| PyTypeError::new_err(format!("{what} must be bytes-like")))?;
    Ok(Input::Bytes(copy))
}

/// An optional bytes-like argument; `None` is empty.
pub(crate) fn opt_bytes_like<'py>(
    obj: Option<&Bound<'py, PyAny>>,
    what: &str,
) -> PyResult<Option<Input<'py>>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => bytes_like(o, what).map(Some),
    }
}

/// A library error as a Python exception: a failed tag check is `InvalidTag`, the rest
/// (lengths, keys, parameters) `ValueError`.
pub(crate) fn lib_err(e: vecrypt::Error) -> PyErr {
    match e {
        vecrypt::Error::AuthenticationFailed => InvalidTag::new_err(()),
        other => PyValueError::new_err(other.to_string()),
    }
}

/// `len` bytes from the operating system's random source.
pub(crate) fn random_bytes(len: usize) -> PyResult<Zeroizing<Vec<u8>>> {
    let mut out = Zeroizing::new(vec![0u8; len]);
    getrandom::fill(&mut out)
        .map_err(|e| PyErr::new::<pyo3::exceptions::PyOSError, _>(e.to_string()))?;
    Ok(out)
}

/// Which backend every algorithm runs on, on this CPU, as `{algorithm: backend}`: the
/// block ciphers (AES, Kuznyechik and uBlock, by key size) and Aigis-enc. The choice is the
/// library's automatic one, or the one forced by the `VECRYPT_BACKEND` environment variable.
#[pyfunction]
fn backends(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let out = PyDict::new(py);
    for info in vecrypt::registry::ciphers() {
        let key = Zeroizing::new(vec![0u8; info.key_len]);
        let cipher = (info.new)(&key, None).map_err(lib_err)?;
        out.set_item(info.name, cipher.backend().name())?;
    }
    let aigis = vecrypt::aigis::Aigis::new(
        vecrypt::aigis::ParamSet::Aigis2,
        vecrypt::aigis::HashMode::Shake,
    );
    out.set_item("aigis-enc", aigis.backend().name())?;
    Ok(out)
}

/// The native module, `vecrypt._vecrypt`.
#[pymodule]
fn _vecrypt(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("InvalidTag", py.get_type::<InvalidTag>())?;
    m.add("InvalidSignature", py.get_type::<InvalidSignature>())?;
    m.add("AlreadyFinalized", py.get_type::<AlreadyFinalized>())?;
    m.add_function(wrap_pyfunction!(backends, m)?)?;
    aead::register(m)?;
    ciphers::register(m)?;
    kem::register(m)?;
    seal::register(m)?;
    Ok(())
}
