//! Aigis-enc, the module-lattice KEM of Zhang, Yu, Fan, Zhang and Yang (PKC 2020), in its four
//! parameter sets and both hash modes, byte-exact with the designers' reference code.
//!
//! Two interfaces:
//!
//! * [`Aigis`]: chosen at run time (set, hash mode, backend), deterministic functions over
//!   byte slices with typed errors — what the CLI, the test vectors and the benchmarks use;
//! * [`AigisEnc`]: the RustCrypto `kem` 0.3 traits, one type per set and hash mode.
//!
//! ```
//! use vecrypt::aigis::{Aigis, HashMode, ParamSet};
//!
//! let kem = Aigis::new(ParamSet::Aigis2, HashMode::Shake);
//! let (pk, sk) = kem.keypair_from_coins(&[1u8; 64]).unwrap();
//! let (ct, ss) = kem.encapsulate_from_coins(&pk, &[2u8; 32]).unwrap();
//! assert_eq!(kem.decapsulate(&sk, &ct).unwrap(), ss);
//! ```
//!
//! Every backend is constant time with respect to secrets: the only data-dependent control
//! flow is rejection sampling of the public matrix.
//!
//! The kernels of each architecture (`x86/`, `aarch64/`, `arm/`) sit behind one trait,
//! `Kernels` (`dispatch.rs`): each operation makes the architecture's `Native` from its
//! backend, which decides there, once, which kernel runs on this CPU; when it declines, the
//! operation runs the portable code.

/// Calls `$f::<SetN>(args)` for the run-time parameter set: one monomorphised function per
/// set, for the normal and the compact paths alike. Defined before the modules that use it.
macro_rules! by_set {
    ($set:expr, $f:ident, $($arg:expr),*) => {
        match $set {
            ParamSet::Aigis1 => $f::<Set1>($($arg),*),
            ParamSet::Aigis2 => $f::<Set2>($($arg),*),
            ParamSet::Aigis3 => $f::<Set3>($($arg),*),
            ParamSet::Aigis4 => $f::<Set4>($($arg),*),
        }
    };
}

#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)]
mod aarch64;
mod arith;
#[cfg(target_arch = "arm")]
#[allow(unsafe_code)]
mod arm;
mod cbd;
pub mod compact;
mod compress;
mod dispatch;
mod hash;
mod indcpa;
pub mod kat;
mod kem;
mod kem_traits;
mod ntt;
mod params;
#[cfg(feature = "kernel-parts")]
mod parts;
mod poly;
mod reduce;
mod sampling;
mod sm3_counter;
mod soft;
mod sponge;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86;

/// The kernels of the architecture this is built for, behind [`dispatch::Kernels`].
mod native {
    #[cfg(target_arch = "aarch64")]
    pub(super) use super::aarch64::Native;
    #[cfg(target_arch = "arm")]
    pub(super) use super::arm::Native;
    #[cfg(target_arch = "x86_64")]
    pub(super) use super::x86::Native;

    /// No kernels for this architecture: every operation runs the portable code.
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64", target_arch = "arm")))]
    #[derive(Clone, Default)]
    pub(super) struct Native;

    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64", target_arch = "arm")))]
    impl super::dispatch::Kernels for Native {}
}

use zeroize::Zeroizing;

use crate::Error;
use crate::cpu::{self, Backend, Candidate, kernels};
use dispatch::Kernels;
use native::Native;

pub use compact::AigisCompact;
pub use hash::HashMode;
pub use kem_traits::{
    AigisEnc, DecapsulationKey, EncapsulationKey, HashFamily, Shake, Sm3, TypedSet,
};
pub use params::{Params, Set1, Set2, Set3, Set4};
#[cfg(feature = "kernel-parts")]
pub use parts::{KernelPart, run_keccak, run_keccak_x4, run_keccak_x8};

/// A 32-byte shared secret that wipes itself (volatile stores, through `zeroize`) when
/// dropped. It dereferences to `[u8; 32]`: use `&*ss` or `ss.as_slice()` for the bytes, and
/// copy them out only into storage that is wiped as well.
pub type SharedSecret = Zeroizing<[u8; 32]>;

/// Bytes of the shared secret.
pub const SHARED_SECRET_BYTES: usize = 32;
/// Bytes of coins that key generation takes.
pub const KEYPAIR_COINS_BYTES: usize = 64;
/// Bytes of coins that encapsulation takes.
pub const ENCAPS_COINS_BYTES: usize = 32;

/// One of the four parameter sets, chosen at run time.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ParamSet {
    Aigis1,
    Aigis2,
    Aigis3,
    Aigis4,
}

impl ParamSet {
    /// All four, in order.
    pub const ALL: [ParamSet; 4] = [
        ParamSet::Aigis1,
        ParamSet::Aigis2,
        ParamSet::Aigis3,
        ParamSet::Aigis4,
    ];

    /// `Aigis-enc-1` ... `Aigis-enc-4`.
    pub const fn name(self) -> &'static str {
        match self {
            ParamSet::Aigis1 => Set1::NAME,
            ParamSet::Aigis2 => Set2::NAME,
            ParamSet::Aigis3 => Set3::NAME,
            ParamSet::Aigis4 => Set4::NAME,
        }
    }

    /// Accepts `Aigis-enc-2`, `aigis-enc-2`, `aigis2` or `2` (and likewise for 1, 3, 4).
    pub fn parse(s: &str) -> Result<Self, Error> {
        let t = s.trim();
        let strip = |prefix: &str| {
            t.get(..prefix.len())
                .filter(|head| head.eq_ignore_ascii_case(prefix))
                .map(|_| &t[prefix.len()..])
        };
        let digit = strip("aigis-enc-").or_else(|| strip("aigis")).unwrap_or(t);
        match digit {
            "1" => Ok(ParamSet::Aigis1),
            "2" => Ok(ParamSet::Aigis2),
            "3" => Ok(ParamSet::Aigis3),
            "4" => Ok(ParamSet::Aigis4),
            _ => Err(Error::UnknownAlgorithm),
        }
    }

    const fn sizes(self) -> (usize, usize, usize) {
        match self {
            ParamSet::Aigis1 => (Set1::PK_BYTES, Set1::SK_BYTES, Set1::CT_BYTES),
            ParamSet::Aigis2 => (Set2::PK_BYTES, Set2::SK_BYTES, Set2::CT_BYTES),
            ParamSet::Aigis3 => (Set3::PK_BYTES, Set3::SK_BYTES, Set3::CT_BYTES),
            ParamSet::Aigis4 => (Set4::PK_BYTES, Set4::SK_BYTES, Set4::CT_BYTES),
        }
    }

    /// Public key bytes.
    pub const fn public_key_bytes(self) -> usize {
        self.sizes().0
    }

    /// Secret key bytes.
    pub const fn secret_key_bytes(self) -> usize {
        self.sizes().1
    }

    /// Ciphertext bytes.
    pub const fn ciphertext_bytes(self) -> usize {
        self.sizes().2
    }
}

/// The backends of Aigis-enc, best first.
pub(crate) const CANDIDATES: &[Candidate] = &[
    Candidate::new(
        Backend::Avx512,
        &[
            kernels::AIGIS_AVX512,
            kernels::AIGIS_KECCAK_AVX512,
            kernels::AIGIS_SM3_AVX512,
        ],
    ),
    Candidate::new(
        Backend::Avx2,
        &[
            kernels::AIGIS_AVX2,
            kernels::AIGIS_KECCAK_AVX2,
            kernels::AIGIS_SM3_AVX2,
        ],
    ),
    Candidate::new(Backend::ArmDsp, &[kernels::AIGIS_DSP]),
    Candidate::new(Backend::Neon, &[kernels::AIGIS_NEON]),
    Candidate::portable(Backend::Soft),
];

/// The backends this CPU can run for Aigis-enc, best first.
#[cfg(feature = "alloc")]
pub fn backends() -> alloc::vec::Vec<Backend> {
    cpu::available(CANDIDATES)
}

/// Aigis-enc with a parameter set, a hash mode and a backend fixed at run time.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Aigis {
    set: ParamSet,
    mode: HashMode,
    backend: Backend,
}

pub(crate) fn check_len(expected: usize, got: usize) -> Result<(), Error> {
    if expected == got {
        Ok(())
    } else {
        Err(Error::KeyLength { expected, got })
    }
}

pub(crate) fn check_other_len(expected: usize, got: usize) -> Result<(), Error> {
    if expected == got {
        Ok(())
    } else {
        Err(Error::InvalidLength)
    }
}

impl Aigis {
    /// The set and mode on the best backend for this CPU (or the forced one, see [`cpu`]).
    pub fn new(set: ParamSet, mode: HashMode) -> Self {
        Aigis {
            set,
            mode,
            backend: cpu::choose(CANDIDATES),
        }
    }

    /// The set and mode on `backend`, or an error if this CPU cannot run it.
    pub fn with_backend(set: ParamSet, mode: HashMode, backend: Backend) -> Result<Self, Error> {
        Ok(Aigis {
            set,
            mode,
            backend: cpu::require(CANDIDATES, backend)?,
        })
    }

    pub fn set(&self) -> ParamSet {
        self.set
    }

    pub fn hash_mode(&self) -> HashMode {
        self.mode
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Deterministic key generation into caller buffers: `coins` is 64 bytes (d ‖ z).
    pub fn keypair_into(&self, coins: &[u8], pk: &mut [u8], sk: &mut [u8]) -> Result<(), Error> {
        check_other_len(KEYPAIR_COINS_BYTES, coins.len())?;
        check_len(self.set.public_key_bytes(), pk.len())?;
        check_len(self.set.secret_key_bytes(), sk.len())?;
        let mut c = Zeroizing::new([0u8; KEYPAIR_COINS_BYTES]);
        c.copy_from_slice(coins);
        run::keypair(self.set, self.mode, self.backend, &c, pk, sk);
        Ok(())
    }

    /// Deterministic key generation: returns (public key, secret key).
    #[cfg(feature = "alloc")]
    pub fn keypair_from_coins(
        &self,
        coins: &[u8],
    ) -> Result<(alloc::vec::Vec<u8>, Zeroizing<alloc::vec::Vec<u8>>), Error> {
        let mut pk = alloc::vec![0u8; self.set.public_key_bytes()];
        let mut sk = Zeroizing::new(alloc::vec![0u8; self.set.secret_key_bytes()]);
        self.keypair_into(coins, &mut pk, &mut sk)?;
        Ok((pk, sk))
    }

    /// Deterministic encapsulation into a caller buffer: returns the shared secret, wiped
    /// on drop ([`SharedSecret`]).
    pub fn encapsulate_into(
        &self,
        pk: &[u8],
        coins: &[u8],
        ct: &mut [u8],
    ) -> Result<SharedSecret, Error> {
        check_len(self.set.public_key_bytes(), pk.len())?;
        check_other_len(ENCAPS_COINS_BYTES, coins.len())?;
        check_other_len(self.set.ciphertext_bytes(), ct.len())?;
        let mut c = Zeroizing::new([0u8; ENCAPS_COINS_BYTES]);
        c.copy_from_slice(coins);
        Ok(Zeroizing::new(run::encapsulate(
            self.set,
            self.mode,
            self.backend,
            pk,
            &c,
            ct,
        )))
    }

    /// Deterministic encapsulation: returns (ciphertext, shared secret wiped on drop).
    #[cfg(feature = "alloc")]
    pub fn encapsulate_from_coins(
        &self,
        pk: &[u8],
        coins: &[u8],
    ) -> Result<(alloc::vec::Vec<u8>, SharedSecret), Error> {
        let mut ct = alloc::vec![0u8; self.set.ciphertext_bytes()];
        let ss = self.encapsulate_into(pk, coins, &mut ct)?;
        Ok((ct, ss))
    }

    /// Decapsulation. A well-formed but wrong ciphertext gives the implicit-rejection secret,
    /// not an error; only wrong lengths are errors. The secret is wiped on drop
    /// ([`SharedSecret`]).
    pub fn decapsulate(&self, sk: &[u8], ct: &[u8]) -> Result<SharedSecret, Error> {
        check_len(self.set.secret_key_bytes(), sk.len())?;
        check_other_len(self.set.ciphertext_bytes(), ct.len())?;
        Ok(Zeroizing::new(run::decapsulate(
            self.set,
            self.mode,
            self.backend,
            sk,
            ct,
        )))
    }

    /// Runs one function of the scheme ([`KernelPart`]) `iterations` times on this
    /// backend, on fixed inputs of this set and hash mode, to time how an operation's cost
    /// splits. Returns a fingerprint of the last result, the same on every backend.
    #[cfg(feature = "kernel-parts")]
    pub fn run_kernel_part(&self, part: KernelPart, iterations: u32) -> u32 {
        run::kernel_part(self.set, self.mode, self.backend, part, iterations)
    }
}

/// From (set, backend) to the one monomorphised function that does the whole operation: the
/// kernels [`Native::keyed`] chooses for the backend, or the portable code if they decline.
mod run {
    use super::soft::Soft;
    use super::*;

    pub fn keypair(
        set: ParamSet,
        mode: HashMode,
        b: Backend,
        coins: &[u8; 64],
        pk: &mut [u8],
        sk: &mut [u8],
    ) {
        by_set!(set, keypair_p, mode, b, coins, pk, sk)
    }

    pub fn encapsulate(
        set: ParamSet,
        mode: HashMode,
        b: Backend,
        pk: &[u8],
        coins: &[u8; 32],
        ct: &mut [u8],
    ) -> [u8; 32] {
        by_set!(set, encapsulate_p, mode, b, pk, coins, ct)
    }

    pub fn decapsulate(
        set: ParamSet,
        mode: HashMode,
        b: Backend,
        sk: &[u8],
        ct: &[u8],
    ) -> [u8; 32] {
        by_set!(set, decapsulate_p, mode, b, sk, ct)
    }

    #[cfg(feature = "kernel-parts")]
    pub fn kernel_part(
        set: ParamSet,
        mode: HashMode,
        b: Backend,
        part: KernelPart,
        iterations: u32,
    ) -> u32 {
        by_set!(set, kernel_part_p, mode, b, part, iterations)
    }

    #[cfg(feature = "kernel-parts")]
    fn kernel_part_p<P: Params>(
        mode: HashMode,
        b: Backend,
        part: KernelPart,
        iterations: u32,
    ) -> u32 {
        if let Some(f) = Native::keyed(b).kernel_part::<P>(mode, part, iterations) {
            return f;
        }
        super::parts::run::<P, Soft>(Soft, mode, part, iterations)
    }

    fn keypair_p<P: Params>(
        mode: HashMode,
        b: Backend,
        coins: &[u8; 64],
        pk: &mut [u8],
        sk: &mut [u8],
    ) {
        if Native::keyed(b).keypair::<P>(mode, coins, pk, sk).done() {
            return;
        }
        super::kem::keypair::<P, Soft>(Soft, mode, coins, pk, sk)
    }

    fn encapsulate_p<P: Params>(
        mode: HashMode,
        b: Backend,
        pk: &[u8],
        coins: &[u8; 32],
        ct: &mut [u8],
    ) -> [u8; 32] {
        if let Some(ss) = Native::keyed(b).encapsulate::<P>(mode, pk, coins, ct) {
            return ss;
        }
        super::kem::encapsulate::<P, Soft>(Soft, mode, pk, coins, ct)
    }

    fn decapsulate_p<P: Params>(mode: HashMode, b: Backend, sk: &[u8], ct: &[u8]) -> [u8; 32] {
        if let Some(ss) = Native::keyed(b).decapsulate::<P>(mode, sk, ct) {
            return ss;
        }
        super::kem::decapsulate::<P, Soft>(Soft, mode, sk, ct)
    }
}
