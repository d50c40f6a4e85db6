//! `vecrypt.ciphers` and `vecrypt.cmac`: the block ciphers keyed from an algorithm object,
//! the modes (ECB, CBC, CTR and the GOST R 34.13 modes), streaming contexts with pyca's
//! `update` / `update_into` / `finalize`, and OMAC.
//!
//! A context keeps its mode's state between calls: the counter of CTR, the register of
//! the chained modes, an unused part of the last keystream block, and the part of a block
//! that ECB and CBC hold back until it is whole. The GOST modes' register may be several
//! blocks long (`z` chains side by side); it is kept as a shift register whose first block
//! is the one the next data block uses.

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PySlice};
use self_cell::self_cell;
use zeroize::Zeroizing;

use vecrypt::Error;
use vecrypt::aes::{Aes128, Aes192, Aes256};
use vecrypt::kuznyechik::Kuznyechik;
use vecrypt::modes::gost::Omac;
use vecrypt::modes::{BlockModes, Chain};
use vecrypt::ublock::{Ublock128_128, Ublock128_256, Ublock256_256};

use crate::{AlreadyFinalized, InvalidSignature, bytes_like, detach_over, lib_err, new_bytes};

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

/// The modes of `vecrypt.ciphers.modes`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum ModeKind {
    Ecb,
    Cbc,
    Ctr,
    GostCtr,
    GostOfb,
    GostCbc,
    GostCfb,
}

impl ModeKind {
    fn name(self) -> &'static str {
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
    fn whole_blocks(self) -> bool {
        matches!(self, ModeKind::Ecb | ModeKind::Cbc | ModeKind::GostCbc)
    }

    /// Checks the IV's length for a cipher of `n`-byte blocks.
    fn check_iv(self, n: usize, iv: &[u8]) -> PyResult<()> {
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
    kind: ModeKind,
    iv: Vec<u8>,
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

/// A block cipher in a mode: `encryptor()` and `decryptor()` give streaming contexts.
#[pyclass(frozen, module = "vecrypt.ciphers")]
pub struct Cipher {
    engine: Arc<Engine>,
    kind: ModeKind,
    iv: Vec<u8>,
    algorithm: Py<Algorithm>,
    mode: Py<Mode>,
}

#[pymethods]
impl Cipher {
    #[new]
    fn new(algorithm: Bound<'_, Algorithm>, mode: Bound<'_, Mode>) -> PyResult<Self> {
        let alg = algorithm.get();
        let m = mode.get();
        m.kind.check_iv(alg.family.block(), &m.iv)?;
        let engine = alg.engine()?;
        Ok(Cipher {
            engine: Arc::new(engine),
            kind: m.kind,
            iv: m.iv.clone(),
            algorithm: algorithm.unbind(),
            mode: mode.unbind(),
        })
    }

    /// The algorithm object this cipher was made with.
    #[getter]
    fn algorithm(&self, py: Python<'_>) -> Py<Algorithm> {
        self.algorithm.clone_ref(py)
    }

    /// The mode object this cipher was made with.
    #[getter]
    fn mode(&self, py: Python<'_>) -> Py<Mode> {
        self.mode.clone_ref(py)
    }

    /// A context that encrypts.
    fn encryptor(&self) -> CipherContext {
        CipherContext::new(self, false)
    }

    /// A context that decrypts.
    fn decryptor(&self) -> CipherContext {
        CipherContext::new(self, true)
    }
}

/// The state of one encryption or decryption, wiped when dropped.
struct Stream {
    engine: Arc<Engine>,
    kind: ModeKind,
    decrypt: bool,
    n: usize,
    /// CTR: the next counter block. The chained modes: the register, its first block the
    /// one the next data block uses.
    reg: Zeroizing<Vec<u8>>,
    /// ECB and CBC: the start of a block held back until it is whole. CFB: the feedback
    /// of the block whose keystream is in use.
    part: Zeroizing<[u8; MAX_BLOCK]>,
    part_len: usize,
    /// The last keystream block, of which `ks_used` bytes are used (`n` when none is left).
    ks: Zeroizing<[u8; MAX_BLOCK]>,
    ks_used: usize,
}

impl Stream {
    /// Output bytes of an update with `len` input bytes.
    fn out_len(&self, len: usize) -> usize {
        if self.kind.whole_blocks() {
            (self.part_len + len) / self.n * self.n
        } else {
            len
        }
    }

    /// Keeps the start of a block (ECB and CBC) for the next update.
    fn hold(&mut self, input: &[u8]) {
        self.part[self.part_len..self.part_len + input.len()].copy_from_slice(input);
        self.part_len += input.len();
    }

    /// ECB and the CBCs over whole blocks in place.
    fn blocks(&mut self, buf: &mut [u8]) -> Result<(), Error> {
        let n = self.n;
        let m = self.reg.len();
        match (self.kind, self.decrypt) {
            (ModeKind::Ecb, false) => self.engine.encrypt(buf)?,
            (ModeKind::Ecb, true) => self.engine.decrypt(buf)?,
            (_, false) => {
                self.engine.chain(Chain::CbcEncrypt, &mut self.reg, buf)?;
                self.reg.rotate_left((buf.len() % m / n) * n);
            }
            (_, true) if m == n => self.engine.cbc_decrypt(&mut self.reg, buf)?,
            (_, true) => {
                let saved = Zeroizing::new(buf.to_vec());
                self.engine.decrypt(buf)?;
                let head = m.min(buf.len());
                xor(&mut buf[..head], &self.reg[..head]);
                if buf.len() > m {
                    xor(&mut buf[m..], &saved[..saved.len() - m]);
                }
                shift_in(&mut self.reg, &saved);
            }
        }
        Ok(())
    }

    /// The keystream modes (CTR, OFB, CFB) over any length in place.
    fn stream(&mut self, buf: &mut [u8]) -> Result<(), Error> {
        let n = self.n;
        let m = self.reg.len();
        let used = self.leftover(buf);
        let buf = &mut buf[used..];
        if buf.is_empty() {
            return Ok(());
        }
        let whole = buf.len() / n * n;
        let (head, tail) = buf.split_at_mut(whole);
        let rotation = (whole % m / n) * n;
        match (self.kind, self.decrypt) {
            (ModeKind::Ctr | ModeKind::GostCtr, _) => self.engine.ctr(&mut self.reg, head)?,
            (ModeKind::GostOfb, _) => {
                self.engine.chain(Chain::Ofb, &mut self.reg, head)?;
                self.reg.rotate_left(rotation);
            }
            (_, false) => {
                self.engine.chain(Chain::CfbEncrypt, &mut self.reg, head)?;
                self.reg.rotate_left(rotation);
            }
            (_, true) if m == n => self.engine.cfb_decrypt(&mut self.reg, head)?,
            (_, true) => {
                for group in head.chunks_mut(m) {
                    let mut ks = Zeroizing::new(self.reg[..group.len()].to_vec());
                    self.engine.encrypt(&mut ks)?;
                    let saved = Zeroizing::new(group.to_vec());
                    xor(group, &ks);
                    shift_in(&mut self.reg, &saved);
                }
            }
        }
        if tail.is_empty() {
            return Ok(());
        }
        // A new keystream block for the short end.
        let ks = &mut self.ks[..n];
        match self.kind {
            ModeKind::Ctr | ModeKind::GostCtr => {
                ks.fill(0);
                self.engine.ctr(&mut self.reg, ks)?;
            }
            ModeKind::GostOfb => {
                ks.copy_from_slice(&self.reg[..n]);
                self.engine.encrypt(ks)?;
                shift_in(&mut self.reg, ks);
            }
            _ => {
                ks.copy_from_slice(&self.reg[..n]);
                self.engine.encrypt(ks)?;
                self.part_len = 0;
            }
        }
        self.ks_used = 0;
        self.leftover(tail);
        Ok(())
    }

    /// Uses what is left of the last keystream block on the start of `buf`; returns how
    /// many bytes it covered. CFB completes its feedback block when the keystream runs out.
    fn leftover(&mut self, buf: &mut [u8]) -> usize {
        let n = self.n;
        let take = (n - self.ks_used).min(buf.len());
        if take == 0 {
            return 0;
        }
        let part = &mut buf[..take];
        let cfb = self.kind == ModeKind::GostCfb;
        if cfb && self.decrypt {
            self.part[self.part_len..self.part_len + take].copy_from_slice(part);
        }
        xor(part, &self.ks[self.ks_used..self.ks_used + take]);
        if cfb && !self.decrypt {
            self.part[self.part_len..self.part_len + take].copy_from_slice(part);
        }
        self.ks_used += take;
        if cfb {
            self.part_len += take;
            if self.part_len == n {
                shift_in(&mut self.reg, &self.part[..n]);
                self.part_len = 0;
            }
        }
        take
    }
}

/// A streaming encryption or decryption: `update` as often as needed, then `finalize`.
#[pyclass(module = "vecrypt.ciphers")]
pub struct CipherContext {
    stream: Option<Stream>,
}

impl CipherContext {
    fn new(cipher: &Cipher, decrypt: bool) -> Self {
        let n = cipher.engine.block();
        let reg = match cipher.kind {
            ModeKind::Ecb => vec![0u8; n],
            ModeKind::GostCtr => {
                let mut c = vec![0u8; n];
                c[..n / 2].copy_from_slice(&cipher.iv);
                c
            }
            _ => cipher.iv.clone(),
        };
        CipherContext {
            stream: Some(Stream {
                engine: cipher.engine.clone(),
                kind: cipher.kind,
                decrypt,
                n,
                reg: Zeroizing::new(reg),
                part: Zeroizing::new([0u8; MAX_BLOCK]),
                part_len: 0,
                ks: Zeroizing::new([0u8; MAX_BLOCK]),
                ks_used: n,
            }),
        }
    }

    fn live(&mut self) -> PyResult<&mut Stream> {
        self.stream
            .as_mut()
            .ok_or_else(|| AlreadyFinalized::new_err("Context was already finalized."))
    }
}

#[pymethods]
impl CipherContext {
    /// Processes `data` and returns what it gives now. ECB and CBC return whole blocks and
    /// keep a partial one for the next call.
    fn update<'py>(
        &mut self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let data = bytes_like(data, "data")?;
        let input = data.as_slice();
        let stream = self.live()?;
        let len = stream.out_len(input.len());
        if !stream.kind.whole_blocks() {
            let out = new_bytes(py, &[input], len, |out| stream.stream(out))?;
            return out.map_err(lib_err);
        }
        if len == 0 {
            stream.hold(input);
            return Ok(PyBytes::new(py, b""));
        }
        // The held start of a block, then the input up to the last whole block; the rest
        // is held for the next call.
        let held = stream.part_len;
        let head = Zeroizing::new(*stream.part);
        let (now, later) = input.split_at(len - held);
        stream.part_len = 0;
        stream.hold(later);
        let out = new_bytes(py, &[&head[..held], now], len, |out| stream.blocks(out))?;
        out.map_err(lib_err)
    }

    /// As `update`, but writes the output into the writable buffer `buf` and returns the
    /// number of bytes written. `buf` must hold at least that many bytes.
    fn update_into(
        &mut self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        buf: &Bound<'_, PyAny>,
    ) -> PyResult<usize> {
        let view = pyo3::types::PyMemoryView::from(buf)?.call_method1("cast", ("B",))?;
        let room = view.len()?;
        let len = {
            let data_len = bytes_like(data, "data")?.len();
            self.live()?.out_len(data_len)
        };
        if room < len {
            return Err(PyValueError::new_err(format!(
                "buffer must be at least {len} bytes for this payload"
            )));
        }
        let out = self.update(py, data)?;
        view.set_item(PySlice::new(py, 0, len as isize, 1), out)?;
        Ok(len)
    }

    /// Ends the operation. ECB and CBC raise `ValueError` when the data was not a whole
    /// number of blocks. Returns `b""`: every byte came out of `update`.
    fn finalize<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let stream = self.live()?;
        if stream.kind.whole_blocks() && stream.part_len != 0 {
            return Err(PyValueError::new_err(
                "The length of the provided data is not a multiple of the block length.",
            ));
        }
        self.stream = None;
        Ok(PyBytes::new(py, b""))
    }
}

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
