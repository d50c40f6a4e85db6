//! CPU feature detection and backend choice, in one place.
//!
//! Every kernel states the CPU features it needs once, in the kernel table of the
//! `vecrypt-features` crate: [`kernels`] holds one [`Kernel`] per entry, and the attribute
//! `#[kernel(NAME)]` enables the same features on the kernel's functions. An algorithm lists
//! its backends best-first, each with the kernels it runs ([`Candidate`]); [`choose`] turns
//! that list into one backend, honouring a forced choice from [`force_backend`] or the
//! `VECRYPT_BACKEND` environment variable.
//!
//! Features are detected once per process with the standard library; without it (`no_std`)
//! they are the ones the build enables (`-C target-feature`).

use core::fmt;
use core::str::FromStr;
use core::sync::atomic::{AtomicU8, Ordering};

use crate::Error;

pub use vecrypt_features::kernel;

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
        let s = s.trim();
        Backend::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(s))
            .ok_or(Error::UnknownBackend)
    }
}

/// Declares the features an architecture's kernels may name, each once: the names (as
/// `#[target_feature]` spells them), their detection on this CPU with `std` (`$runtime!`),
/// and whether the build itself enables them. `"pmull" as "aes"` is a name whose build
/// check reads another one (`target_feature` has no name of its own for PMULL, which comes
/// with the AES extension).
macro_rules! detectable {
    ($arch:literal, $names:ident, $detect:ident, $built:ident, $runtime:ident,
     [$($name:tt $(as $cfg:tt)?),* $(,)?]) => {
        /// The features of this architecture that kernels may name, one bit each.
        const $names: &[&str] = &[$($name),*];

        /// Whether this CPU has the feature `name`; `None` for a name it cannot detect.
        #[cfg(all(target_arch = $arch, any(feature = "std", test)))]
        fn $detect(name: &str) -> Option<bool> {
            match name {
                $(
                    #[cfg(feature = "std")]
                    $name => Some($runtime!($name)),
                    #[cfg(not(feature = "std"))]
                    $name => Some(built_feature!($name $(, $cfg)?)),
                )*
                _ => None,
            }
        }

        /// Whether this build enables the feature `name` at compile time.
        #[cfg_attr(any(feature = "std", not(target_arch = $arch)), allow(dead_code))]
        const fn $built(name: &str) -> bool {
            $(
                if str_eq(name, $name) {
                    return built_feature!($name $(, $cfg)?);
                }
            )*
            false
        }
    };
}

/// `cfg!(target_feature = ...)` of a feature, or of the one its build check reads.
macro_rules! built_feature {
    ($name:tt) => {
        cfg!(target_feature = $name)
    };
    ($name:tt, $cfg:tt) => {
        cfg!(target_feature = $cfg)
    };
}

#[cfg(all(target_arch = "x86_64", feature = "std"))]
macro_rules! x86_64_runtime {
    ($name:tt) => {
        std::arch::is_x86_feature_detected!($name)
    };
}

#[cfg(all(target_arch = "aarch64", feature = "std"))]
macro_rules! aarch64_runtime {
    ($name:tt) => {
        std::arch::is_aarch64_feature_detected!($name)
    };
}

/// Cortex-M has no run-time detection: a feature is there when the build enables it.
#[cfg(all(target_arch = "arm", feature = "std"))]
macro_rules! arm_runtime {
    ($name:tt) => {
        cfg!(target_feature = $name)
    };
}

detectable!(
    "x86_64",
    X86_64,
    detect_x86_64,
    built_x86_64,
    x86_64_runtime,
    [
        "sse2",
        "ssse3",
        "sse4.1",
        "pclmulqdq",
        "aes",
        "avx",
        "avx2",
        "bmi1",
        "bmi2",
        "popcnt",
        "avx512f",
        "avx512bw",
        "avx512vl",
        "avx512dq",
        "avx512vbmi",
        "gfni",
        "vaes",
        "vpclmulqdq",
    ]
);

detectable!(
    "aarch64",
    AARCH64,
    detect_aarch64,
    built_aarch64,
    aarch64_runtime,
    ["neon", "aes", "pmull" as "aes", "sha2", "sha3", "sm4"]
);

detectable!(
    "arm",
    ARM,
    detect_arm,
    built_arm,
    arm_runtime,
    ["dsp", "thumb2"]
);

/// The architecture this library is built for, as the kernel table names it.
pub const ARCH: &str = if cfg!(target_arch = "x86_64") {
    "x86_64"
} else if cfg!(target_arch = "aarch64") {
    "aarch64"
} else if cfg!(target_arch = "arm") {
    "arm"
} else {
    "other"
};

/// The feature names of `arch`, empty for an architecture without kernels.
const fn names_of(arch: &str) -> &'static [&'static str] {
    if str_eq(arch, "x86_64") {
        X86_64
    } else if str_eq(arch, "aarch64") {
        AARCH64
    } else if str_eq(arch, "arm") {
        ARM
    } else {
        &[]
    }
}

/// A small number per architecture, so that the run-time check compares integers.
const fn arch_id(arch: &str) -> u8 {
    if str_eq(arch, "x86_64") {
        1
    } else if str_eq(arch, "aarch64") {
        2
    } else if str_eq(arch, "arm") {
        3
    } else {
        0
    }
}

const fn str_eq(a: &str, b: &str) -> bool {
    bytes_eq(a.as_bytes(), 0, a.len(), b.as_bytes())
}

/// Whether `a[start..end]` equals `b`.
const fn bytes_eq(a: &[u8], start: usize, end: usize, b: &[u8]) -> bool {
    if end - start != b.len() {
        return false;
    }
    let mut i = 0;
    while i < b.len() {
        if a[start + i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The bit of the feature `a[start..end]` among `names`; a compile-time error if unknown.
const fn bit_of(names: &[&str], a: &[u8], start: usize, end: usize) -> u64 {
    let mut i = 0;
    while i < names.len() {
        if bytes_eq(a, start, end, names[i].as_bytes()) {
            return 1 << i;
        }
        i += 1;
    }
    panic!("a kernel names a CPU feature that vecrypt::cpu cannot detect")
}

/// The mask of a comma-separated feature list.
const fn mask_of(arch: &str, features: &str) -> u64 {
    let names = names_of(arch);
    assert!(
        !names.is_empty(),
        "a kernel names an architecture without kernels"
    );
    let a = features.as_bytes();
    let (mut mask, mut start, mut i) = (0u64, 0usize, 0usize);
    while i <= a.len() {
        if i == a.len() || a[i] == b',' {
            assert!(i > start, "an empty feature name in the kernel table");
            mask |= bit_of(names, a, start, i);
            start = i + 1;
        }
        i += 1;
    }
    mask
}

/// One kernel of the table: a named set of CPU features on one architecture.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Kernel {
    name: &'static str,
    arch: &'static str,
    arch_id: u8,
    features: &'static str,
    mask: u64,
}

impl Kernel {
    /// A kernel needing `features` (comma-separated, as `#[target_feature]` spells them) on
    /// `arch`. A name this module cannot detect stops the build.
    pub const fn new(name: &'static str, arch: &'static str, features: &'static str) -> Self {
        Kernel {
            name,
            arch,
            arch_id: arch_id(arch),
            features,
            mask: mask_of(arch, features),
        }
    }

    /// The kernel's name in the table.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The architecture it runs on (`x86_64`, `aarch64`, `arm`).
    pub const fn arch(&self) -> &'static str {
        self.arch
    }

    /// The features it enables, as `#[target_feature]` spells them.
    pub fn features(&self) -> impl Iterator<Item = &'static str> + use<> {
        self.features.split(',')
    }

    /// Whether a CPU with `f` runs this kernel: same architecture, every feature present.
    #[inline]
    pub fn runs_on(&self, f: &Features) -> bool {
        self.arch_id == f.arch_id && self.mask & f.mask == self.mask
    }

    /// Whether this CPU runs this kernel.
    #[inline]
    pub fn runs(&self) -> bool {
        self.runs_on(features())
    }
}

/// The kernel table: one constant per kernel, and [`kernels::ALL`].
pub mod kernels {
    use super::Kernel;
    vecrypt_features::kernel_table!();
}

/// The CPU features the kernels care about, detected once.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Features {
    arch: &'static str,
    arch_id: u8,
    mask: u64,
}

impl Features {
    /// The features of this CPU.
    #[cfg(any(feature = "std", test))]
    fn detect() -> Self {
        let names = names_of(ARCH);
        let mut mask = 0u64;
        for (i, name) in names.iter().enumerate() {
            if detect_one(name) == Some(true) {
                mask |= 1 << i;
            }
        }
        Features {
            arch: ARCH,
            arch_id: arch_id(ARCH),
            mask,
        }
    }

    /// Features on `arch` with exactly the named ones present (for tests and reports).
    /// Unknown names are ignored.
    pub fn with(arch: &'static str, present: &[&str]) -> Self {
        let names = names_of(arch);
        let mask = names
            .iter()
            .enumerate()
            .filter(|(_, n)| present.contains(n))
            .fold(0u64, |m, (i, _)| m | 1 << i);
        Features {
            arch,
            arch_id: arch_id(arch),
            mask,
        }
    }

    /// Whether the feature `name` is present.
    pub fn has(&self, name: &str) -> bool {
        names_of(self.arch)
            .iter()
            .position(|n| *n == name)
            .is_some_and(|i| self.mask >> i & 1 == 1)
    }

    /// The names of the features present, for `vecrypt info`.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + use<> {
        let mask = self.mask;
        names_of(self.arch)
            .iter()
            .enumerate()
            .filter(move |(i, _)| mask >> i & 1 == 1)
            .map(|(_, n)| *n)
    }
}

/// Whether this CPU has the feature `name` of its architecture; `None` if not detectable.
#[cfg(any(feature = "std", test))]
fn detect_one(name: &str) -> Option<bool> {
    #[cfg(target_arch = "x86_64")]
    return detect_x86_64(name);
    #[cfg(target_arch = "aarch64")]
    return detect_aarch64(name);
    #[cfg(target_arch = "arm")]
    return detect_arm(name);
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64", target_arch = "arm")))]
    {
        let _ = name;
        None
    }
}

/// The features of this CPU, detected on first use.
#[cfg(feature = "std")]
#[inline]
pub fn features() -> &'static Features {
    static FEATURES: std::sync::OnceLock<Features> = std::sync::OnceLock::new();
    FEATURES.get_or_init(Features::detect)
}

/// The features of this build (without `std` there is no run-time detection).
#[cfg(not(feature = "std"))]
pub fn features() -> &'static Features {
    struct Built;
    impl Built {
        const FEATURES: Features = Features {
            arch: ARCH,
            arch_id: arch_id(ARCH),
            mask: built_mask(),
        };
    }
    &Built::FEATURES
}

/// The mask of the features this build enables, known at compile time.
#[cfg(not(feature = "std"))]
const fn built_mask() -> u64 {
    let names = names_of(ARCH);
    let mut mask = 0u64;
    let mut i = 0;
    while i < names.len() {
        if built_has(names[i]) {
            mask |= 1 << i;
        }
        i += 1;
    }
    mask
}

/// Whether this build enables the feature `name` of its architecture.
#[cfg(not(feature = "std"))]
const fn built_has(name: &str) -> bool {
    if str_eq(ARCH, "x86_64") {
        built_x86_64(name)
    } else if str_eq(ARCH, "aarch64") {
        built_aarch64(name)
    } else if str_eq(ARCH, "arm") {
        built_arm(name)
    } else {
        false
    }
}

/// One entry of an algorithm's backend list: the backend and the kernels it runs. The
/// backend runs on a CPU that runs all of them; a portable backend lists none.
#[derive(Copy, Clone, Debug)]
pub struct Candidate {
    pub backend: Backend,
    pub kernels: &'static [Kernel],
}

impl Candidate {
    /// `backend`, running `kernels`.
    pub const fn new(backend: Backend, kernels: &'static [Kernel]) -> Self {
        Candidate { backend, kernels }
    }

    /// A backend of portable code, which runs everywhere.
    pub const fn portable(backend: Backend) -> Self {
        Candidate {
            backend,
            kernels: &[],
        }
    }

    /// Whether a CPU with `f` runs every kernel of this backend.
    pub fn runs_on(&self, f: &Features) -> bool {
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
pub fn force_backend(backend: Option<Backend>) {
    FORCED.store(backend.map_or(NOT_FORCED, backend_index), Ordering::Relaxed);
}

/// The backend forced through [`force_backend`], else through `VECRYPT_BACKEND`, if any.
pub fn forced_backend() -> Option<Backend> {
    match FORCED.load(Ordering::Relaxed) {
        NOT_FORCED => env_forced(),
        i => Backend::ALL.get(usize::from(i)).copied(),
    }
}

#[cfg(feature = "std")]
fn env_forced() -> Option<Backend> {
    static ENV_FORCED: std::sync::OnceLock<Option<Backend>> = std::sync::OnceLock::new();
    *ENV_FORCED.get_or_init(|| {
        std::env::var("VECRYPT_BACKEND")
            .ok()
            .and_then(|v| v.parse().ok())
    })
}

#[cfg(not(feature = "std"))]
fn env_forced() -> Option<Backend> {
    None
}

/// The backends of `candidates` this CPU can run, best first.
pub fn runnable(candidates: &[Candidate]) -> impl Iterator<Item = Backend> + '_ {
    let f = features();
    candidates
        .iter()
        .filter(move |c| c.runs_on(f))
        .map(|c| c.backend)
}

/// The backends of `candidates` this CPU can run, best first.
#[cfg(feature = "alloc")]
pub fn available(candidates: &[Candidate]) -> alloc::vec::Vec<Backend> {
    runnable(candidates).collect()
}

/// Whether `backend` is in `candidates` and this CPU can run it.
pub fn can_run(candidates: &[Candidate], backend: Backend) -> bool {
    runnable(candidates).any(|b| b == backend)
}

/// The backend to use: the forced one when it is listed and runnable, else the first runnable
/// one that is not a table backend. `candidates` is best-first and should end with `Soft`.
pub fn choose(candidates: &[Candidate]) -> Backend {
    if let Some(b) = forced_backend().filter(|b| can_run(candidates, *b)) {
        return b;
    }
    runnable(candidates)
        .find(|b| *b != Backend::TableLeaky)
        .unwrap_or(Backend::Soft)
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
    use alloc::vec::Vec;

    #[test]
    fn names_round_trip() {
        for b in Backend::ALL {
            assert_eq!(b.name().parse::<Backend>().unwrap(), b);
        }
        assert!("nonsense".parse::<Backend>().is_err());
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
        assert_eq!(
            require(&list, Backend::TableLeaky).unwrap(),
            Backend::TableLeaky
        );
    }
}
