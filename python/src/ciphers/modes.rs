//! `vecrypt.ciphers.modes`: the modes of operation with their IV or nonce, checked against
//! the algorithm when a `Cipher` is made.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::bytes_like;

/// The modes of `vecrypt.ciphers.modes`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum ModeKind {
    Ecb,
    Cbc,
    Ctr,
    GostCtr,
    GostOfb,
    GostCbc,
    GostCfb,
}

impl ModeKind {
    pub(super) fn name(self) -> &'static str {
        match self {
            ModeKind::Ecb => "ECB",
            ModeKind::Cbc => "CBC",
            ModeKind::Ctr => "CTR",
            ModeKind::GostCtr => "GostCTR",
            ModeKind::GostOfb => "GostOFB",
            ModeKind::GostCbc => "GostCBC",
            ModeKind::GostCfb => "GostCFB",
        }
    }

    /// Whether the data must be whole blocks.
    pub(super) fn whole_blocks(self) -> bool {
        matches!(self, ModeKind::Ecb | ModeKind::Cbc | ModeKind::GostCbc)
    }

    /// Checks the IV's length for a cipher of `n`-byte blocks.
    pub(super) fn check_iv(self, n: usize, iv: &[u8]) -> PyResult<()> {
        let ok = match self {
            ModeKind::Ecb => true,
            ModeKind::Cbc | ModeKind::Ctr => iv.len() == n,
            ModeKind::GostCtr => iv.len() == n / 2,
            ModeKind::GostOfb | ModeKind::GostCbc | ModeKind::GostCfb => {
                !iv.is_empty() && iv.len().is_multiple_of(n)
            }
        };
        if ok {
            return Ok(());
        }
        let want = match self {
            ModeKind::GostCtr => format!("{} bytes (half a block)", n / 2),
            ModeKind::GostOfb | ModeKind::GostCbc | ModeKind::GostCfb => {
                format!("a non-zero multiple of {n} bytes (the block)")
            }
            _ => format!("{n} bytes (one block)"),
        };
        Err(PyValueError::new_err(format!(
            "Invalid IV size ({}) for {}: must be {want}",
            iv.len(),
            self.name()
        )))
    }
}

/// A mode of operation with its IV or nonce.
#[pyclass(subclass, frozen, module = "vecrypt.ciphers.modes", name = "Mode")]
pub struct Mode {
    pub(super) kind: ModeKind,
    pub(super) iv: Vec<u8>,
}

impl Mode {
    fn with_iv(kind: ModeKind, iv: &Bound<'_, PyAny>, what: &str) -> PyResult<Self> {
        let iv = bytes_like(iv, what)?;
        Ok(Mode {
            kind,
            iv: iv.as_slice().to_vec(),
        })
    }
}

#[pymethods]
impl Mode {
    /// The mode's name.
    #[getter]
    fn name(&self) -> &'static str {
        self.kind.name()
    }

    /// The IV (the nonce of CTR): empty for ECB.
    #[getter]
    fn initialization_vector<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.iv)
    }

    /// The nonce (CTR's first counter block); the same as `initialization_vector`.
    #[getter]
    fn nonce<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.iv)
    }
}

/// Electronic codebook: each block on its own. Whole blocks only; it shows repeated blocks,
/// so use it only as a building block.
#[pyclass(extends = Mode, frozen, module = "vecrypt.ciphers.modes")]
pub struct ECB;

#[pymethods]
impl ECB {
    #[new]
    fn new() -> PyClassInitializer<Self> {
        PyClassInitializer::from(Mode {
            kind: ModeKind::Ecb,
            iv: Vec::new(),
        })
        .add_subclass(ECB)
    }
}

/// Cipher block chaining with a one-block IV. Whole blocks only (no padding).
#[pyclass(extends = Mode, frozen, module = "vecrypt.ciphers.modes")]
pub struct CBC;

#[pymethods]
impl CBC {
    #[new]
    fn new(initialization_vector: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        Ok(PyClassInitializer::from(Mode::with_iv(
            ModeKind::Cbc,
            initialization_vector,
            "initialization_vector",
        )?)
        .add_subclass(CBC))
    }
}

/// Counter mode: `nonce` is the whole first counter block, incremented as one big-endian
/// integer over the block. Any data length.
#[pyclass(extends = Mode, frozen, module = "vecrypt.ciphers.modes")]
pub struct CTR;

#[pymethods]
impl CTR {
    #[new]
    fn new(nonce: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        Ok(
            PyClassInitializer::from(Mode::with_iv(ModeKind::Ctr, nonce, "nonce")?)
                .add_subclass(CTR),
        )
    }
}

/// CTR of GOST R 34.13-2015: the IV is half a block, the first counter block is `IV || 0`.
/// Any data length.
#[pyclass(extends = Mode, frozen, module = "vecrypt.ciphers.modes")]
pub struct GostCTR;

#[pymethods]
impl GostCTR {
    #[new]
    fn new(initialization_vector: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        Ok(PyClassInitializer::from(Mode::with_iv(
            ModeKind::GostCtr,
            initialization_vector,
            "initialization_vector",
        )?)
        .add_subclass(GostCTR))
    }
}

/// OFB of GOST R 34.13-2015 with whole-block feedback: the IV is one or more blocks (as many
/// chains side by side). Any data length.
#[pyclass(extends = Mode, frozen, module = "vecrypt.ciphers.modes")]
pub struct GostOFB;

#[pymethods]
impl GostOFB {
    #[new]
    fn new(initialization_vector: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        Ok(PyClassInitializer::from(Mode::with_iv(
            ModeKind::GostOfb,
            initialization_vector,
            "initialization_vector",
        )?)
        .add_subclass(GostOFB))
    }
}

/// CBC of GOST R 34.13-2015: the IV is one or more blocks (block `i` is chained to
/// ciphertext block `i - z` for an IV of `z` blocks). Whole blocks only.
#[pyclass(extends = Mode, frozen, module = "vecrypt.ciphers.modes")]
pub struct GostCBC;

#[pymethods]
impl GostCBC {
    #[new]
    fn new(initialization_vector: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        Ok(PyClassInitializer::from(Mode::with_iv(
            ModeKind::GostCbc,
            initialization_vector,
            "initialization_vector",
        )?)
        .add_subclass(GostCBC))
    }
}

/// CFB of GOST R 34.13-2015 with whole-block feedback: the IV is one or more blocks. Any
/// data length.
#[pyclass(extends = Mode, frozen, module = "vecrypt.ciphers.modes")]
pub struct GostCFB;

#[pymethods]
impl GostCFB {
    #[new]
    fn new(initialization_vector: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        Ok(PyClassInitializer::from(Mode::with_iv(
            ModeKind::GostCfb,
            initialization_vector,
            "initialization_vector",
        )?)
        .add_subclass(GostCFB))
    }
}
