//! `vecrypt.ciphers` and `vecrypt.cmac`: the block ciphers keyed from an algorithm object
//! (here), the modes (ECB, CBC, CTR and the GOST R 34.13 modes, in `modes`), streaming
//! contexts with pyca's `update` / `update_into` / `finalize` (`context`), and OMAC (`omac`).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use zeroize::Zeroizing;

use vecrypt::Error;
use vecrypt::aes::{Aes128, Aes192, Aes256};
use vecrypt::kuznyechik::Kuznyechik;
use vecrypt::modes::{BlockModes, Chain};
use vecrypt::ublock::{Ublock128_128, Ublock128_256, Ublock256_256};

use crate::{bytes_like, lib_err};

mod context;
mod modes;
mod omac;

use context::{Cipher, CipherContext};
use modes::*;
use omac::OMAC;

const MAX_BLOCK: usize = 32;

/// A keyed block cipher of any algorithm; its round keys are wiped when it is dropped.
pub(crate) enum Engine {
    Aes128(Aes128),
    Aes192(Aes192),
    Aes256(Aes256),
    Kuznyechik(Kuznyechik),
    Ublock128_128(Ublock128_128),
    Ublock128_256(Ublock128_256),
    Ublock256_256(Ublock256_256),
}

macro_rules! each {
    ($k:expr, $c:ident => $e:expr) => {
        match $k {
            Engine::Aes128($c) => $e,
            Engine::Aes192($c) => $e,
            Engine::Aes256($c) => $e,
            Engine::Kuznyechik($c) => $e,
            Engine::Ublock128_128($c) => $e,
            Engine::Ublock128_256($c) => $e,
            Engine::Ublock256_256($c) => $e,
        }
    };
}

/// The block cipher families of `vecrypt.ciphers.algorithms`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Family {
    Aes,
    Kuznyechik,
    Ublock128,
    Ublock256,
}

impl Family {
    fn name(self) -> &'static str {
        match self {
            Family::Aes => "AES",
            Family::Kuznyechik => "Kuznyechik",
            Family::Ublock128 => "UBlock128",
            Family::Ublock256 => "UBlock256",
        }
    }

    fn block(self) -> usize {
        if self == Family::Ublock256 { 32 } else { 16 }
    }

    fn key_sizes(self) -> &'static [usize] {
        match self {
            Family::Aes => &[16, 24, 32],
            Family::Kuznyechik | Family::Ublock256 => &[32],
            Family::Ublock128 => &[16, 32],
        }
    }
}

impl Engine {
    pub(crate) fn new(family: Family, key: &[u8]) -> Result<Self, vecrypt::Error> {
        Ok(match (family, key.len()) {
            (Family::Aes, 16) => Engine::Aes128(Aes128::from_key(key)?),
            (Family::Aes, 24) => Engine::Aes192(Aes192::from_key(key)?),
            (Family::Aes, _) => Engine::Aes256(Aes256::from_key(key)?),
            (Family::Kuznyechik, _) => Engine::Kuznyechik(Kuznyechik::from_key(key)?),
            (Family::Ublock128, 16) => Engine::Ublock128_128(Ublock128_128::from_key(key)?),
            (Family::Ublock128, _) => Engine::Ublock128_256(Ublock128_256::from_key(key)?),
            (Family::Ublock256, _) => Engine::Ublock256_256(Ublock256_256::from_key(key)?),
        })
    }

    fn block(&self) -> usize {
        each!(self, c => c.block_len())
    }

    // The binding hands the library whole blocks and one-block chaining values, so these
    // checks never fail; an error would still reach Python as an exception, not a panic.

    fn encrypt(&self, buf: &mut [u8]) -> Result<(), Error> {
        each!(self, c => c.encrypt_ecb(buf))
    }

    fn decrypt(&self, buf: &mut [u8]) -> Result<(), Error> {
        each!(self, c => c.decrypt_ecb(buf))
    }

    fn ctr(&self, counter: &mut [u8], buf: &mut [u8]) -> Result<(), Error> {
        each!(self, c => c.apply_ctr_from(counter, buf))
    }

    fn chain(&self, mode: Chain, register: &mut [u8], buf: &mut [u8]) -> Result<(), Error> {
        each!(self, c => c.apply_chain(mode, register, buf))
    }

    fn cbc_decrypt(&self, iv: &mut [u8], buf: &mut [u8]) -> Result<(), Error> {
        each!(self, c => c.decrypt_cbc_from(iv, buf))
    }

    fn cfb_decrypt(&self, iv: &mut [u8], buf: &mut [u8]) -> Result<(), Error> {
        each!(self, c => c.decrypt_cfb_from(iv, buf))
    }
}

fn xor(a: &mut [u8], b: &[u8]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x ^= *y;
    }
}

/// Shifts `fed` into the shift register `reg` from the end: `reg` becomes the last
/// `reg.len()` bytes of `reg || fed`.
fn shift_in(reg: &mut [u8], fed: &[u8]) {
    let m = reg.len();
    if fed.len() >= m {
        reg.copy_from_slice(&fed[fed.len() - m..]);
    } else {
        reg.copy_within(fed.len().., 0);
        reg[m - fed.len()..].copy_from_slice(fed);
    }
}

/// A block cipher algorithm with its key. The key is wiped when the object is dropped.
#[pyclass(
    subclass,
    frozen,
    module = "vecrypt.ciphers.algorithms",
    name = "BlockCipherAlgorithm"
)]
pub struct Algorithm {
    family: Family,
    key: Zeroizing<Vec<u8>>,
}

impl Algorithm {
    fn checked(family: Family, key: &Bound<'_, PyAny>) -> PyResult<Self> {
        let key = bytes_like(key, "key")?;
        let k = key.as_slice();
        if !family.key_sizes().contains(&k.len()) {
            let bits: Vec<String> = family
                .key_sizes()
                .iter()
                .map(|b| (8 * b).to_string())
                .collect();
            return Err(PyValueError::new_err(format!(
                "Invalid key size ({}) for {}: must be {} bits",
                8 * k.len(),
                family.name(),
                bits.join(" or ")
            )));
        }
        Ok(Algorithm {
            family,
            key: Zeroizing::new(k.to_vec()),
        })
    }

    pub(crate) fn engine(&self) -> PyResult<Engine> {
        Engine::new(self.family, &self.key).map_err(lib_err)
    }
}

#[pymethods]
impl Algorithm {
    /// The algorithm's name.
    #[getter]
    fn name(&self) -> &'static str {
        self.family.name()
    }

    /// The key size in bits.
    #[getter]
    fn key_size(&self) -> usize {
        8 * self.key.len()
    }

    /// The block size in bits.
    #[getter]
    fn block_size(&self) -> usize {
        8 * self.family.block()
    }
}

/// AES (FIPS 197) with a 128-, 192- or 256-bit key.
#[pyclass(extends = Algorithm, frozen, module = "vecrypt.ciphers.algorithms")]
pub struct AES;

#[pymethods]
impl AES {
    #[new]
    fn new(key: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        Ok(PyClassInitializer::from(Algorithm::checked(Family::Aes, key)?).add_subclass(AES))
    }
}

/// Kuznyechik (GOST R 34.12-2015), 128-bit blocks, a 256-bit key.
#[pyclass(extends = Algorithm, frozen, module = "vecrypt.ciphers.algorithms", name = "Kuznyechik")]
pub struct KuznyechikAlgorithm;

#[pymethods]
impl KuznyechikAlgorithm {
    #[new]
    fn new(key: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        Ok(
            PyClassInitializer::from(Algorithm::checked(Family::Kuznyechik, key)?)
                .add_subclass(KuznyechikAlgorithm),
        )
    }
}

/// uBlock with 128-bit blocks: uBlock-128/128 with a 128-bit key, uBlock-128/256 with a
/// 256-bit key.
#[pyclass(extends = Algorithm, frozen, module = "vecrypt.ciphers.algorithms")]
pub struct UBlock128;

#[pymethods]
impl UBlock128 {
    #[new]
    fn new(key: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        Ok(
            PyClassInitializer::from(Algorithm::checked(Family::Ublock128, key)?)
                .add_subclass(UBlock128),
        )
    }
}

/// uBlock-256/256: 256-bit blocks, a 256-bit key.
#[pyclass(extends = Algorithm, frozen, module = "vecrypt.ciphers.algorithms")]
pub struct UBlock256;

#[pymethods]
impl UBlock256 {
    #[new]
    fn new(key: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        Ok(
            PyClassInitializer::from(Algorithm::checked(Family::Ublock256, key)?)
                .add_subclass(UBlock256),
        )
    }
}

/// Seconds that `iterations` CTR passes over `size` bytes take in the library alone (no
/// Python objects on the way), for the benchmark script's comparison.
#[pyfunction]
fn _ctr_seconds(
    py: Python<'_>,
    algorithm: Bound<'_, Algorithm>,
    size: usize,
    iterations: usize,
) -> PyResult<f64> {
    let engine = algorithm.get().engine()?;
    let n = engine.block();
    py.detach(|| {
        let mut buf = vec![0u8; size];
        let mut counter = vec![0u8; n];
        let start = std::time::Instant::now();
        for _ in 0..iterations {
            engine.ctr(&mut counter, &mut buf)?;
        }
        Ok(start.elapsed().as_secs_f64())
    })
    .map_err(lib_err)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Algorithm>()?;
    m.add_class::<AES>()?;
    m.add_class::<KuznyechikAlgorithm>()?;
    m.add_class::<UBlock128>()?;
    m.add_class::<UBlock256>()?;
    m.add_class::<Mode>()?;
    m.add_class::<ECB>()?;
    m.add_class::<CBC>()?;
    m.add_class::<CTR>()?;
    m.add_class::<GostCTR>()?;
    m.add_class::<GostOFB>()?;
    m.add_class::<GostCBC>()?;
    m.add_class::<GostCFB>()?;
    m.add_class::<Cipher>()?;
    m.add_class::<CipherContext>()?;
    m.add_class::<OMAC>()?;
    m.add_function(wrap_pyfunction!(_ctr_seconds, m)?)?;
    Ok(())
}
