//! CPU feature detection and backend choice, in one place.
//!
//! Every kernel states the CPU features it needs once, in the kernel table of the
//! `vecrypt-kernel-table` crate: [`kernels`] holds one [`Kernel`] per entry, and the attribute
//! `#[kernel(NAME)]` enables the same features on the kernel's functions. An algorithm lists
//! its backends best-first, each with the kernels it runs (a crate-private `Candidate`
//! list), and one choice turns that list into one backend, honouring a forced choice from
//! [`force_backend`] or the `VECRYPT_BACKEND` environment variable. [`backends_on`] tells
//! which backends the kernel table runs on a given set of features.
//!
//! Every backend is constant time except the table-driven ones (`table-leaky`), which exist
//! only with the cargo feature `table-backends` (off by default), are never chosen
//! automatically, and cannot be forced through the environment: a program that links the
//! library never moves onto secret-indexed tables unless its own code asks for them.
//! `VECRYPT_BACKEND` names a constant-time backend; any other value is an error that
//! [`env_backend`] reports (and the automatic choice then ignores the variable).
//!
//! Features are detected once per process with the standard library; without it (`no_std`)
//! they are the ones the build enables (`-C target-feature`).

use core::fmt;
use core::str::FromStr;
use core::sync::atomic::{AtomicU8, Ordering};

use crate::Error;

pub use vecrypt_kernel_table::kernel;

mod features;
#[cfg(target_arch = "x86_64")]
pub(crate) mod tuning;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
pub(crate) mod x86;

pub use features::{ARCH, Features, Kernel, features, kernels};
#[cfg(target_arch = "x86_64")]
pub(crate) use tuning::tuning;

/// What a kernel entry did with a call: all of the work, or none of it, its arguments left
/// untouched so that the caller runs the portable code instead.
#[must_use = "a declined call has done nothing; run the portable code"]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64", target_arch = "arm")),
    allow(dead_code, reason = "no kernel of this architecture ever runs")
)]
pub(crate) enum Ran {
    /// The kernel did the whole job.
    Done,
    /// This CPU or backend has no kernel for the job; nothing was touched.
    Declined,
}

impl Ran {
    /// Whether the kernel did the job.
    #[inline(always)]
    pub(crate) const fn done(self) -> bool {
        matches!(self, Ran::Done)
    }
}

/// The checked entry of a kernel: `checked!(kernels::NAME => expr)` evaluates `expr` (the
/// `unsafe` call of a `#[kernel(NAME)]` function, with its `// SAFETY:` line, written at the
/// call site inside an architecture folder) only when this CPU runs the kernel `NAME`, and
/// is [`Ran::Done`] after it, or [`Ran::Declined`] without evaluating it.
/// `checked!(kernels::NAME => Some expr)` gives `Some` of the value, or `None`.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(unused_macros, reason = "no kernel of this architecture to check")
)]
macro_rules! checked {
    ($kernel:expr => Some $call:expr) => {
        if $kernel.runs() { Some($call) } else { None }
    };
    ($kernel:expr => $call:expr) => {
        if $kernel.runs() {
            $call;
            $crate::cpu::Ran::Done
        } else {
            $crate::cpu::Ran::Declined
        }
    };
}
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(unused_imports, reason = "no kernel of this architecture to check")
)]
pub(crate) use checked;

/// An implementation strategy. Not every algorithm has every backend.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Backend {
    /// Portable Rust, constant time, runs everywhere.
    Soft,
    /// Table-driven, secret-indexed memory: NOT constant time, kept only for comparison.
    /// Exists only with the cargo feature `table-backends`.
    #[cfg(feature = "table-backends")]
    TableLeaky,
    /// x86 SSSE3 (128-bit byte shuffles).
    Ssse3,
    /// x86 AVX2 (256-bit).
    Avx2,
    /// x86 AVX-512 (BW, VL and, where an algorithm says so, VBMI, VBMI2 and GFNI).
    Avx512,
    /// x86 AES-NI on 128-bit registers.
    AesNi,
    /// x86 VAES on 256-bit registers.
    Vaes256,
    /// x86 VAES on 512-bit registers.
    Vaes512,
    /// AArch64 ARMv8 cryptography extension (AESE/AESD and PMULL) on 128-bit NEON registers.
    ArmAes,
    /// Arm Cortex-M4 (ARMv7E-M) DSP instructions on packed 16-bit halves.
    ArmDsp,
    /// AArch64 Advanced SIMD (NEON) on 128-bit registers; an algorithm's kernel may also use
    /// an ARMv8 extension its table entry names (PMULL, SHA3).
    Neon,
}

impl Backend {
    /// Every backend of this build, in declaration order (`TableLeaky` only with the
    /// `table-backends` feature).
    pub const ALL: &'static [Backend] = &[
        Backend::Soft,
        #[cfg(feature = "table-backends")]
        Backend::TableLeaky,
        Backend::Ssse3,
        Backend::Avx2,
        Backend::Avx512,
        Backend::AesNi,
        Backend::Vaes256,
        Backend::Vaes512,
        Backend::ArmAes,
        Backend::ArmDsp,
        Backend::Neon,
    ];

    /// The name used by `VECRYPT_BACKEND`, the CLI and reports.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Soft => "soft",
            #[cfg(feature = "table-backends")]
            Backend::TableLeaky => "table-leaky",
            Backend::Ssse3 => "ssse3",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
            Backend::AesNi => "aesni",
            Backend::Vaes256 => "vaes256",
            Backend::Vaes512 => "vaes512",
            Backend::ArmAes => "armv8-aes",
            Backend::ArmDsp => "arm-dsp",
            Backend::Neon => "neon",
        }
    }

    /// Whether the backend runs in constant time (no secret-dependent branches or memory
    /// indices): every backend but the table-driven ones.
    pub const fn is_constant_time(self) -> bool {
        #[cfg(feature = "table-backends")]
        {
            !matches!(self, Backend::TableLeaky)
        }
        #[cfg(not(feature = "table-backends"))]
        {
            let _ = self;
            true
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
        let s = s.trim();
        Backend::ALL
            .iter()
            .copied()
            .find(|b| b.name().eq_ignore_ascii_case(s))
            .ok_or(Error::UnknownBackend)
    }
}

/// One entry of an algorithm's backend list: the backend and the kernels it runs. The
/// backend runs on a CPU that runs all of them; a portable backend lists none.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Candidate {
    pub(crate) backend: Backend,
    pub(crate) kernels: &'static [Kernel],
}

impl Candidate {
    /// `backend`, running `kernels`.
    pub(crate) const fn new(backend: Backend, kernels: &'static [Kernel]) -> Self {
        Candidate { backend, kernels }
    }

    /// A backend of portable code, which runs everywhere.
    pub(crate) const fn portable(backend: Backend) -> Self {
        Candidate {
            backend,
            kernels: &[],
        }
    }

    /// Whether a CPU with `f` runs every kernel of this backend.
    pub(crate) fn runs_on(&self, f: &Features) -> bool {
        self.kernels.iter().all(|k| k.runs_on(f))
    }
}

const NOT_FORCED: u8 = u8::MAX;
static FORCED: AtomicU8 = AtomicU8::new(NOT_FORCED);

fn backend_index(b: Backend) -> u8 {
    Backend::ALL.iter().position(|x| *x == b).unwrap_or(0) as u8
}

/// Forces (or with `None`, stops forcing) the backend used by objects created from now on.
/// An algorithm that lacks the forced backend, or a CPU that cannot run it, keeps the
/// algorithm's best choice; use each type's `with_backend` constructor to get an error instead.
/// A table-driven backend can be forced only here, and only with the `table-backends` feature.
pub fn force_backend(backend: Option<Backend>) {
    FORCED.store(backend.map_or(NOT_FORCED, backend_index), Ordering::Relaxed);
}

/// The backend forced through [`force_backend`], else through a valid `VECRYPT_BACKEND`,
/// if any. An invalid `VECRYPT_BACKEND` forces nothing; [`env_backend`] says why.
pub fn forced_backend() -> Option<Backend> {
    match FORCED.load(Ordering::Relaxed) {
        NOT_FORCED => env_backend().ok().flatten(),
        i => Backend::ALL.get(usize::from(i)).copied(),
    }
}

/// The backend `VECRYPT_BACKEND` forces: `Ok(None)` when the variable is unset or empty,
/// `Ok(Some(_))` for the name of a constant-time backend, else an error:
/// [`Error::UnknownBackend`] for a name that means nothing (or is not valid Unicode) and
/// [`Error::NotConstantTime`] for a table-driven backend, which only [`force_backend`] can
/// select. Read once per process; without `std` there is no environment and it is always
/// `Ok(None)`. A program should check it at start and refuse to run on an error, as the
/// `vecrypt` command does.
pub fn env_backend() -> Result<Option<Backend>, Error> {
    #[cfg(feature = "std")]
    {
        static ENV: std::sync::OnceLock<Result<Option<Backend>, Error>> =
            std::sync::OnceLock::new();
        *ENV.get_or_init(|| match std::env::var("VECRYPT_BACKEND") {
            Err(std::env::VarError::NotPresent) => Ok(None),
            Err(std::env::VarError::NotUnicode(_)) => Err(Error::UnknownBackend),
            Ok(v) => parse_env_value(&v),
        })
    }
    #[cfg(not(feature = "std"))]
    {
        Ok(None)
    }
}

/// What a `VECRYPT_BACKEND` value `v` forces (see [`env_backend`]).
#[cfg_attr(not(feature = "std"), allow(dead_code))]
fn parse_env_value(v: &str) -> Result<Option<Backend>, Error> {
    if v.trim().is_empty() {
        return Ok(None);
    }
    let b: Backend = v.parse()?;
    if b.is_constant_time() {
        Ok(Some(b))
    } else {
        Err(Error::NotConstantTime(b))
    }
}

/// The backends of `candidates` this CPU can run, best first.
pub(crate) fn runnable(candidates: &[Candidate]) -> impl Iterator<Item = Backend> + '_ {
    let f = features();
    candidates
        .iter()
        .filter(move |c| c.runs_on(f))
        .map(|c| c.backend)
}

/// The backends of `candidates` this CPU can run, best first.
#[cfg(feature = "alloc")]
pub(crate) fn available(candidates: &[Candidate]) -> alloc::vec::Vec<Backend> {
    runnable(candidates).collect()
}

/// Whether `backend` is in `candidates` and this CPU can run it.
pub(crate) fn can_run(candidates: &[Candidate], backend: Backend) -> bool {
    runnable(candidates).any(|b| b == backend)
}

/// The backend to use: the forced one when it is listed and runnable, else the first runnable
/// one that is not a table backend. `candidates` is best-first and should end with `Soft`.
pub(crate) fn choose(candidates: &[Candidate]) -> Backend {
    if let Some(b) = forced_backend().filter(|b| can_run(candidates, *b)) {
        return b;
    }
    runnable(candidates)
        .find(|b| b.is_constant_time())
        .unwrap_or(Backend::Soft)
}

/// Every backend that some algorithm of the crate runs on a CPU with the features `f`, in
/// [`Backend::ALL`]'s order. With the features a report of the CPU lists (Linux's
/// `/proc/cpuinfo`, say), it tells which backends a test run on that CPU must exercise,
/// independently of this crate's own detection.
#[cfg(feature = "alloc")]
pub fn backends_on(f: &Features) -> alloc::vec::Vec<Backend> {
    let lists = [
        crate::aes::CANDIDATES,
        crate::kuznyechik::CANDIDATES,
        crate::ublock::CANDIDATES,
        crate::aigis::CANDIDATES,
    ];
    Backend::ALL
        .iter()
        .copied()
        .filter(|b| {
            lists
                .iter()
                .flat_map(|l| l.iter())
                .any(|c| c.backend == *b && c.runs_on(f))
        })
        .collect()
}

/// `Ok(backend)` when this CPU can run it for the algorithm, else a typed error.
pub(crate) fn require(candidates: &[Candidate], backend: Backend) -> Result<Backend, Error> {
    if can_run(candidates, backend) {
        Ok(backend)
    } else {
        Err(Error::BackendUnavailable(backend))
    }
}

#[cfg(test)]
mod tests {
    use super::features::{detect_one, names_of};
    use super::*;
    use alloc::vec::Vec;

    #[test]
    fn names_round_trip() {
        for &b in Backend::ALL {
            assert_eq!(b.name().parse::<Backend>().unwrap(), b);
        }
        assert!("nonsense".parse::<Backend>().is_err());
    }

    #[test]
    fn the_environment_forces_only_constant_time_backends() {
        assert_eq!(parse_env_value(""), Ok(None));
        assert_eq!(parse_env_value(" "), Ok(None));
        assert_eq!(parse_env_value("soft"), Ok(Some(Backend::Soft)));
        assert_eq!(parse_env_value("AVX2"), Ok(Some(Backend::Avx2)));
        assert_eq!(parse_env_value("nonsense"), Err(Error::UnknownBackend));
        #[cfg(feature = "table-backends")]
        assert_eq!(
            parse_env_value("table-leaky"),
            Err(Error::NotConstantTime(Backend::TableLeaky))
        );
        #[cfg(not(feature = "table-backends"))]
        assert_eq!(parse_env_value("table-leaky"), Err(Error::UnknownBackend));
        for b in Backend::ALL {
            assert_eq!(
                parse_env_value(b.name()).is_ok(),
                b.is_constant_time(),
                "{b}"
            );
        }
    }

    /// Walks the kernel table: every kernel's check requires each feature it enables, and
    /// is met by exactly those features; and every feature the table names is one this
    /// module detects on the kernel's architecture.
    #[test]
    fn every_kernel_check_requires_every_feature_it_enables() {
        assert!(!kernels::ALL.is_empty());
        for k in kernels::ALL {
            let own: Vec<&str> = k.features().collect();
            assert!(!own.is_empty(), "{} enables no feature", k.name());
            let all = names_of(k.arch());
            for f in &own {
                assert!(all.contains(f), "{}: {f} is not detectable", k.name());
            }
            assert!(k.runs_on(&Features::with(k.arch(), &own)), "{}", k.name());
            assert!(k.runs_on(&Features::with(k.arch(), all)), "{}", k.name());
            for f in &own {
                let fewer: Vec<&str> = all.iter().copied().filter(|n| n != f).collect();
                assert!(
                    !k.runs_on(&Features::with(k.arch(), &fewer)),
                    "{} runs without {f}, which it enables",
                    k.name()
                );
            }
            let elsewhere = if k.arch() == "x86_64" {
                "aarch64"
            } else {
                "x86_64"
            };
            assert!(!k.runs_on(&Features::with(elsewhere, names_of(elsewhere))));
        }
    }

    /// Every feature name of this architecture has a detection, and on this machine a
    /// kernel runs exactly when each of its features is detected.
    #[test]
    fn detection_covers_every_name_and_agrees_with_the_kernels() {
        for name in names_of(ARCH) {
            assert!(detect_one(name).is_some(), "{name} has no detection");
        }
        for k in kernels::ALL.iter().filter(|k| k.arch() == ARCH) {
            let all_detected = k.features().all(|f| detect_one(f) == Some(true));
            assert_eq!(k.runs(), all_detected, "{}", k.name());
        }
    }

    #[test]
    fn choose_skips_table_and_unrunnable() {
        const NEVER: &[Kernel] = &[Kernel::new("TEST_NEVER", "aarch64", "sm4")];
        const ELSEWHERE: &[Kernel] = &[Kernel::new("TEST_ELSEWHERE", "arm", "dsp")];
        let list = [
            Candidate::new(Backend::Avx512, NEVER),
            Candidate::new(Backend::Avx2, ELSEWHERE),
            #[cfg(feature = "table-backends")]
            Candidate::portable(Backend::TableLeaky),
            Candidate::portable(Backend::Soft),
        ];
        if ARCH == "x86_64" {
            assert!(!can_run(&list, Backend::Avx512));
            assert!(!can_run(&list, Backend::Avx2));
            if forced_backend().is_none() {
                assert_eq!(choose(&list), Backend::Soft);
            }
            assert!(require(&list, Backend::Avx512).is_err());
        }
        #[cfg(feature = "table-backends")]
        assert_eq!(
            require(&list, Backend::TableLeaky).unwrap(),
            Backend::TableLeaky
        );
    }
}
