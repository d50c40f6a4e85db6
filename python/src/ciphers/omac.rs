//! `vecrypt.cmac.OMAC`: OMAC (CMAC) of GOST R 34.13-2015 over any of the block ciphers.

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use self_cell::self_cell;
use vecrypt::aes::{Aes128, Aes192, Aes256};
use vecrypt::kuznyechik::Kuznyechik;
use vecrypt::modes::gost::Omac;
use vecrypt::ublock::{Ublock128_128, Ublock128_256, Ublock256_256};
use zeroize::Zeroizing;

use super::{Algorithm, Engine};
use crate::{AlreadyFinalized, InvalidSignature, bytes_like, detach_over, lib_err};

/// The OMAC of one keyed cipher, in the cipher's enum shape.
enum AnyOmac<'a> {
    Aes128(Omac<'a, Aes128>),
    Aes192(Omac<'a, Aes192>),
    Aes256(Omac<'a, Aes256>),
    Kuznyechik(Omac<'a, Kuznyechik>),
    Ublock128_128(Omac<'a, Ublock128_128>),
    Ublock128_256(Omac<'a, Ublock128_256>),
    Ublock256_256(Omac<'a, Ublock256_256>),
}

macro_rules! each_omac {
    ($k:expr, $c:ident => $e:expr) => {
        match $k {
            AnyOmac::Aes128($c) => $e,
            AnyOmac::Aes192($c) => $e,
            AnyOmac::Aes256($c) => $e,
            AnyOmac::Kuznyechik($c) => $e,
            AnyOmac::Ublock128_128($c) => $e,
            AnyOmac::Ublock128_256($c) => $e,
            AnyOmac::Ublock256_256($c) => $e,
        }
    };
}

impl<'a> AnyOmac<'a> {
    fn new(engine: &'a Engine) -> Self {
        match engine {
            Engine::Aes128(c) => AnyOmac::Aes128(Omac::new(c)),
            Engine::Aes192(c) => AnyOmac::Aes192(Omac::new(c)),
            Engine::Aes256(c) => AnyOmac::Aes256(Omac::new(c)),
            Engine::Kuznyechik(c) => AnyOmac::Kuznyechik(Omac::new(c)),
            Engine::Ublock128_128(c) => AnyOmac::Ublock128_128(Omac::new(c)),
            Engine::Ublock128_256(c) => AnyOmac::Ublock128_256(Omac::new(c)),
            Engine::Ublock256_256(c) => AnyOmac::Ublock256_256(Omac::new(c)),
        }
    }

    fn update(&mut self, data: &[u8]) {
        each_omac!(self, m => m.update(data))
    }

    /// The full tag; the state starts over.
    fn take_tag(&mut self, engine: &'a Engine) -> Zeroizing<Vec<u8>> {
        let n = engine.block();
        let done = std::mem::replace(self, AnyOmac::new(engine));
        let mut full = each_omac!(done, m => m.finalize());
        let tag = Zeroizing::new(full[..n].to_vec());
        zeroize::Zeroize::zeroize(&mut full);
        tag
    }
}

self_cell!(
    struct OmacCell {
        owner: Engine,
        #[covariant]
        dependent: AnyOmac,
    }
);

/// OMAC1 (CMAC, NIST SP 800-38B; the MAC of GOST R 34.13-2015) over a block cipher
/// algorithm: `update` as often as needed, then `finalize` for the full one-block tag, or
/// `verify` to check a tag.
#[pyclass(module = "vecrypt.cmac")]
pub struct OMAC {
    cell: Option<OmacCell>,
}

impl OMAC {
    fn live(&mut self) -> PyResult<&mut OmacCell> {
        self.cell
            .as_mut()
            .ok_or_else(|| AlreadyFinalized::new_err("Context was already finalized."))
    }
}

#[pymethods]
impl OMAC {
    #[new]
    fn new(algorithm: Bound<'_, Algorithm>) -> PyResult<Self> {
        let engine = algorithm.get().engine()?;
        Ok(OMAC {
            cell: Some(OmacCell::new(engine, |e| AnyOmac::new(e))),
        })
    }

    /// Absorbs more data.
    fn update(&mut self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let data = bytes_like(data, "data")?;
        let input = data.as_slice();
        let cell = self.live()?;
        detach_over(py, input.len(), || {
            cell.with_dependent_mut(|_, m| m.update(input))
        });
        Ok(())
    }

    /// The full tag (one block); the context takes no more calls.
    fn finalize<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let cell = self.live()?;
        let tag = cell.with_dependent_mut(|engine, m| m.take_tag(engine));
        self.cell = None;
        Ok(PyBytes::new(py, &tag))
    }

    /// Checks `signature`, 1 byte to a block (a prefix of the full tag), in constant time,
    /// and raises `vecrypt.InvalidSignature` when it does not match. The context takes no
    /// more calls.
    fn verify(&mut self, signature: &Bound<'_, PyAny>) -> PyResult<()> {
        let signature = bytes_like(signature, "signature")?;
        let cell = self.live()?;
        let result = cell.with_dependent_mut(|engine, m| {
            let done = std::mem::replace(m, AnyOmac::new(engine));
            each_omac!(done, o => o.verify(signature.as_slice()))
        });
        self.cell = None;
        match result {
            Ok(()) => Ok(()),
            Err(vecrypt::Error::AuthenticationFailed) => {
                Err(InvalidSignature::new_err("Signature did not match digest."))
            }
            Err(e) => Err(lib_err(e)),
        }
    }
}
