//! CPU feature detection and backend choice, in one place.
//!
//! Features are read once per process. Every algorithm lists its backends best-first together
//! with the features each needs; [`choose`] turns that list into one backend, honouring a
//! forced choice from [`force_backend`] or the `VECRYPT_BACKEND` environment variable.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, Ordering};

use crate::Error;

/// An implementation strategy. Not every algorithm has every backend.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Backend {
    /// Portable Rust, constant time, runs everywhere.
    Soft,
    /// Table-driven, secret-indexed memory: NOT constant time, kept only for comparison.
    TableLeaky,
    /// x86 SSSE3 (128-bit byte shuffles).
    Ssse3,
    /// x86 AVX2 (256-bit).
    Avx2,
    /// x86 AVX-512 (BW, VL and, where an algorithm says so, VBMI and GFNI).
    Avx512,
    /// x86 AES-NI on 128-bit registers.
    AesNi,
    /// x86 VAES on 256-bit registers.
    Vaes256,
    /// x86 VAES on 512-bit registers.
    Vaes512,
}

impl Backend {
    /// Every backend, in declaration order.
    pub const ALL: [Backend; 8] = [
        Backend::Soft,
        Backend::TableLeaky,
        Backend::Ssse3,
        Backend::Avx2,
        Backend::Avx512,
        Backend::AesNi,
        Backend::Vaes256,
        Backend::Vaes512,
    ];

    /// The name used by `VECRYPT_BACKEND`, the CLI and reports.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Soft => "soft",
            Backend::TableLeaky => "table-leaky",
            Backend::Ssse3 => "ssse3",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
            Backend::AesNi => "aesni",
            Backend::Vaes256 => "vaes256",
            Backend::Vaes512 => "vaes512",
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Backend {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        let s = s.trim().to_ascii_lowercase();
        Backend::ALL
            .into_iter()
            .find(|b| b.name() == s)
            .ok_or(Error::UnknownBackend)
    }
}

/// The x86 features the backends care about, detected once.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Features {
    pub sse2: bool,
    pub ssse3: bool,
    pub sse41: bool,
    pub pclmulqdq: bool,
    pub aes: bool,
    pub avx: bool,
    pub avx2: bool,
    pub bmi2: bool,
    pub avx512f: bool,
    pub avx512bw: bool,
    pub avx512vl: bool,
    pub avx512dq: bool,
    pub avx512vbmi: bool,
    pub gfni: bool,
    pub vaes: bool,
    pub vpclmulqdq: bool,
}

impl Features {
    /// The names of the features present, for `vecrypt info`.
    pub fn names(&self) -> Vec<&'static str> {
        let all = [
            ("sse2", self.sse2),
            ("ssse3", self.ssse3),
            ("sse4.1", self.sse41),
            ("pclmulqdq", self.pclmulqdq),
            ("aes", self.aes),
            ("avx", self.avx),
            ("avx2", self.avx2),
            ("bmi2", self.bmi2),
            ("avx512f", self.avx512f),
            ("avx512bw", self.avx512bw),
            ("avx512vl", self.avx512vl),
            ("avx512dq", self.avx512dq),
            ("avx512vbmi", self.avx512vbmi),
            ("gfni", self.gfni),
            ("vaes", self.vaes),
            ("vpclmulqdq", self.vpclmulqdq),
        ];
        all.into_iter()
            .filter(|(_, on)| *on)
            .map(|(n, _)| n)
            .collect()
    }

    /// AVX-512 foundation plus the byte/word and 128/256-bit-length extensions.
    pub fn avx512_bw_vl(&self) -> bool {
        self.avx512f && self.avx512bw && self.avx512vl
    }
}

#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
fn detect() -> Features {
    Features {
        sse2: std::is_x86_feature_detected!("sse2"),
        ssse3: std::is_x86_feature_detected!("ssse3"),
        sse41: std::is_x86_feature_detected!("sse4.1"),
        pclmulqdq: std::is_x86_feature_detected!("pclmulqdq"),
        aes: std::is_x86_feature_detected!("aes"),
        avx: std::is_x86_feature_detected!("avx"),
        avx2: std::is_x86_feature_detected!("avx2"),
        bmi2: std::is_x86_feature_detected!("bmi2"),
        avx512f: std::is_x86_feature_detected!("avx512f"),
        avx512bw: std::is_x86_feature_detected!("avx512bw"),
        avx512vl: std::is_x86_feature_detected!("avx512vl"),
        avx512dq: std::is_x86_feature_detected!("avx512dq"),
        avx512vbmi: std::is_x86_feature_detected!("avx512vbmi"),
        gfni: std::is_x86_feature_detected!("gfni"),
        vaes: std::is_x86_feature_detected!("vaes"),
        vpclmulqdq: std::is_x86_feature_detected!("vpclmulqdq"),
    }
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "x86")))]
fn detect() -> Features {
    Features::default()
}

/// The features of this CPU, detected on first use.
pub fn features() -> &'static Features {
    static FEATURES: OnceLock<Features> = OnceLock::new();
    FEATURES.get_or_init(detect)
}

/// One entry of an algorithm's backend list: the backend and whether this CPU can run it.
pub type Candidate = (Backend, fn(&Features) -> bool);

const NOT_FORCED: u8 = u8::MAX;
static FORCED: AtomicU8 = AtomicU8::new(NOT_FORCED);
static ENV_FORCED: OnceLock<Option<Backend>> = OnceLock::new();

fn backend_index(b: Backend) -> u8 {
    Backend::ALL.iter().position(|x| *x == b).unwrap_or(0) as u8
}

/// Forces (or with `None`, stops forcing) the backend used by objects created from now on.
/// An algorithm that lacks the forced backend, or a CPU that cannot run it, keeps the
/// algorithm's best choice; use each type's `with_backend` constructor to get an error instead.
pub fn force_backend(backend: Option<Backend>) {
    FORCED.store(backend.map_or(NOT_FORCED, backend_index), Ordering::Relaxed);
}

/// The backend forced through [`force_backend`], else through `VECRYPT_BACKEND`, if any.
pub fn forced_backend() -> Option<Backend> {
    match FORCED.load(Ordering::Relaxed) {
        NOT_FORCED => *ENV_FORCED.get_or_init(|| {
            std::env::var("VECRYPT_BACKEND")
                .ok()
                .and_then(|v| v.parse().ok())
        }),
        i => Backend::ALL.get(usize::from(i)).copied(),
    }
}

/// The backends of `candidates` this CPU can run, best first.
pub fn available(candidates: &[Candidate]) -> Vec<Backend> {
    let f = features();
    candidates
        .iter()
        .filter(|(_, runs)| runs(f))
        .map(|(b, _)| *b)
        .collect()
}

/// Whether `backend` is in `candidates` and this CPU can run it.
pub fn can_run(candidates: &[Candidate], backend: Backend) -> bool {
    let f = features();
    candidates.iter().any(|(b, runs)| *b == backend && runs(f))
}

/// The backend to use: the forced one when it is listed and runnable, else the first runnable
/// one that is not a table backend. `candidates` is best-first and should end with `Soft`.
pub fn choose(candidates: &[Candidate]) -> Backend {
    if let Some(b) = forced_backend().filter(|b| can_run(candidates, *b)) {
        return b;
    }
    let f = features();
    candidates
        .iter()
        .find(|(b, runs)| *b != Backend::TableLeaky && runs(f))
        .map_or(Backend::Soft, |(b, _)| *b)
}

/// `Ok(backend)` when this CPU can run it for the algorithm, else a typed error.
pub fn require(candidates: &[Candidate], backend: Backend) -> Result<Backend, Error> {
    if can_run(candidates, backend) {
        Ok(backend)
    } else {
        Err(Error::BackendUnavailable(backend))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for b in Backend::ALL {
            assert_eq!(b.name().parse::<Backend>().unwrap(), b);
        }
        assert!("nonsense".parse::<Backend>().is_err());
    }

    #[test]
    fn choose_skips_table_and_unrunnable() {
        let list: [Candidate; 3] = [
            (Backend::Avx512, |_| false),
            (Backend::TableLeaky, |_| true),
            (Backend::Soft, |_| true),
        ];
        if forced_backend().is_none() {
            assert_eq!(choose(&list), Backend::Soft);
        }
        assert!(require(&list, Backend::Avx512).is_err());
        assert_eq!(
            require(&list, Backend::TableLeaky).unwrap(),
            Backend::TableLeaky
        );
    }
}
