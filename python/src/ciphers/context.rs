//! `Cipher` and its streaming contexts: the state each mode keeps between `update` calls.
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
use vecrypt::Error;
use vecrypt::modes::Chain;
use zeroize::Zeroizing;

use super::modes::{Mode, ModeKind};
use super::{Algorithm, Engine, MAX_BLOCK, shift_in, xor};
use crate::{AlreadyFinalized, bytes_like, lib_err, new_bytes};

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
