//! The CPU features the kernels may name, their detection, and the kernel table: each
//! feature name is written once, in `detectable!`'s lists, and every kernel's features
//! become a bit mask compared with the detected one.

/// Declares the features an architecture's kernels may name, each once: the names (as
/// `#[target_feature]` spells them), their detection on this CPU with `std` (`$runtime!`),
/// and whether the build itself enables them. `"pmull" as "aes"` is a name whose build
/// check reads another one (`target_feature` has no name of its own for PMULL, which comes
/// with the AES extension). `"dsp" if vecrypt_arm_dsp` is a name that the build also
/// enables through a `cfg` of its own (the build script's: Arm features are not visible to
/// `cfg(target_feature)` on a stable compiler).
macro_rules! detectable {
    ($arch:literal, $names:ident, $detect:ident, $built:ident, $runtime:ident,
     [$($name:tt $(as $cfg:tt)? $(if $flag:ident)?),* $(,)?]) => {
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
                    $name => Some(built_feature!($name $(, $cfg)? $(; $flag)?)),
                )*
                _ => None,
            }
        }

        /// Whether this build enables the feature `name` at compile time.
        #[cfg_attr(any(feature = "std", not(target_arch = $arch)), allow(dead_code))]
        const fn $built(name: &str) -> bool {
            $(
                if str_eq(name, $name) {
                    return built_feature!($name $(, $cfg)? $(; $flag)?);
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
    ($name:tt; $flag:ident) => {
        cfg!(target_feature = $name) || cfg!($flag)
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
        "avx512vbmi2",
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
    ["dsp" if vecrypt_arm_dsp, "thumb2"]
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
pub(super) const fn names_of(arch: &str) -> &'static [&'static str] {
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
    vecrypt_kernel_table::kernel_table!();
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
pub(super) fn detect_one(name: &str) -> Option<bool> {
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
