//! The RustCrypto `kem` 0.3 traits: one Kem type per parameter set and hash mode.
//!
//! ```
//! use kem::{Decapsulate, Encapsulate, Kem};
//! use vecrypt::aigis::{AigisEnc, Set2, Shake};
//!
//! # struct Counter(u8);
//! # impl kem::common::rand_core::TryRng for Counter {
//! #     type Error = core::convert::Infallible;
//! #     fn try_next_u32(&mut self) -> Result<u32, Self::Error> { self.0 = self.0.wrapping_add(1); Ok(self.0.into()) }
//! #     fn try_next_u64(&mut self) -> Result<u64, Self::Error> { self.0 = self.0.wrapping_add(1); Ok(self.0.into()) }
//! #     fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), Self::Error> {
//! #         for b in d { self.0 = self.0.wrapping_add(1); *b = self.0; } Ok(()) }
//! # }
//! # impl kem::common::rand_core::TryCryptoRng for Counter {}
//! # let mut rng = Counter(0);
//! type Aigis2 = AigisEnc<Set2, Shake>;
//! let (dk, ek) = Aigis2::generate_keypair_from_rng(&mut rng);
//! let (ct, ss) = ek.encapsulate_with_rng(&mut rng);
//! assert_eq!(dk.decapsulate(&ct), ss);
//! ```

use core::fmt;
use core::marker::PhantomData;

use hybrid_array::sizes::{U672, U736, U896, U992, U1056, U1440, U1568, U2208, U2304, U3168};
use hybrid_array::{Array, ArraySize};
use kem::common::rand_core::{CryptoRng, TryCryptoRng};
use kem::consts::{U32, U64};
use kem::{
    Ciphertext, Decapsulate, Decapsulator, Encapsulate, Generate, InvalidKey, Kem, Key, KeyExport,
    KeyInit, KeySizeUser, SharedKey, TryKeyInit,
};
use zeroize::ZeroizeOnDrop;

use super::params::sealed::Sealed;
use super::{Aigis, HashMode, ParamSet, Params, Set1, Set2, Set3, Set4};
use crate::Error;

/// A hash mode as a type. Sealed: [`Shake`] and [`Sm3`].
pub trait HashFamily:
    Copy + Clone + fmt::Debug + Default + Eq + Ord + Send + Sync + 'static + Sealed
{
    const MODE: HashMode;
}

/// SHA-3/SHAKE mode, as a type.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Shake;
/// SM3 mode, as a type.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Sm3;

impl Sealed for Shake {}
impl Sealed for Sm3 {}
impl HashFamily for Shake {
    const MODE: HashMode = HashMode::Shake;
}
impl HashFamily for Sm3 {
    const MODE: HashMode = HashMode::Sm3;
}

/// A parameter set with its sizes as types. Sealed, as [`Params`] is.
pub trait TypedSet: Params + fmt::Debug + Default + Eq + Ord {
    const SET: ParamSet;
    type PkSize: ArraySize;
    type SkSize: ArraySize;
    type CtSize: ArraySize;
}

macro_rules! typed {
    ($set:ty, $id:ident, $pk:ty, $sk:ty, $ct:ty) => {
        impl TypedSet for $set {
            const SET: ParamSet = ParamSet::$id;
            type PkSize = $pk;
            type SkSize = $sk;
            type CtSize = $ct;
        }
    };
}
typed!(Set1, Aigis1, U672, U1568, U736);
typed!(Set2, Aigis2, U896, U2208, U992);
typed!(Set3, Aigis3, U992, U2304, U1056);
typed!(Set4, Aigis4, U1440, U3168, U1568);

/// Aigis-enc with parameter set `P` and hash mode `H`, as a `kem::Kem`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct AigisEnc<P, H = Shake>(PhantomData<(P, H)>);

fn engine<P: TypedSet, H: HashFamily>() -> Aigis {
    Aigis::new(P::SET, H::MODE)
}

/// A ciphertext and its shared secret.
pub type Encapsulated<P, H> = (Ciphertext<AigisEnc<P, H>>, SharedKey<AigisEnc<P, H>>);

/// The public key.
pub struct EncapsulationKey<P: TypedSet, H: HashFamily> {
    bytes: Array<u8, P::PkSize>,
    _mode: PhantomData<H>,
}

impl<P: TypedSet, H: HashFamily> Clone for EncapsulationKey<P, H> {
    fn clone(&self) -> Self {
        EncapsulationKey {
            bytes: self.bytes.clone(),
            _mode: PhantomData,
        }
    }
}

impl<P: TypedSet, H: HashFamily> PartialEq for EncapsulationKey<P, H> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes == other.bytes
    }
}
impl<P: TypedSet, H: HashFamily> Eq for EncapsulationKey<P, H> {}

impl<P: TypedSet, H: HashFamily> fmt::Debug for EncapsulationKey<P, H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "EncapsulationKey<{}, {}>", P::NAME, H::MODE.name())
    }
}

impl<P: TypedSet, H: HashFamily> EncapsulationKey<P, H> {
    /// The public key bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Deterministic encapsulation from 32 coins: (ciphertext, shared secret).
    pub fn encapsulate_deterministic(&self, coins: &[u8; 32]) -> Encapsulated<P, H> {
        let mut ct = Array::<u8, P::CtSize>::default();
        let ss = engine::<P, H>()
            .encapsulate_into(&self.bytes, coins, &mut ct)
            .expect("sizes are fixed by the types");
        // The trait's `SharedKey` is a plain array; `ss` itself is wiped when dropped here.
        (ct, Array::from(*ss))
    }
}

impl<P: TypedSet, H: HashFamily> KeySizeUser for EncapsulationKey<P, H> {
    type KeySize = P::PkSize;
}

impl<P: TypedSet, H: HashFamily> KeyExport for EncapsulationKey<P, H> {
    fn to_bytes(&self) -> Key<Self> {
        self.bytes.clone()
    }
}

impl<P: TypedSet, H: HashFamily> TryKeyInit for EncapsulationKey<P, H> {
    /// Every byte string of the right length is a usable public key.
    fn new(key: &Key<Self>) -> Result<Self, InvalidKey> {
        Ok(EncapsulationKey {
            bytes: key.clone(),
            _mode: PhantomData,
        })
    }
}

impl<P: TypedSet, H: HashFamily> Encapsulate for EncapsulationKey<P, H> {
    type Kem = AigisEnc<P, H>;

    fn encapsulate_with_rng<R>(&self, rng: &mut R) -> (Ciphertext<Self::Kem>, SharedKey<Self::Kem>)
    where
        R: CryptoRng + ?Sized,
    {
        let mut coins = [0u8; 32];
        rng.fill_bytes(&mut coins);
        let out = self.encapsulate_deterministic(&coins);
        crate::wipe::array(&mut coins);
        out
    }
}

/// The secret key (expanded form: Pack13(NTT(s)) ‖ pk ‖ H(pk) ‖ z), wiped on drop.
pub struct DecapsulationKey<P: TypedSet, H: HashFamily> {
    sk: Array<u8, P::SkSize>,
    ek: EncapsulationKey<P, H>,
}

impl<P: TypedSet, H: HashFamily> Drop for DecapsulationKey<P, H> {
    fn drop(&mut self) {
        crate::wipe::bytes(self.sk.as_mut_slice());
    }
}

impl<P: TypedSet, H: HashFamily> ZeroizeOnDrop for DecapsulationKey<P, H> {}

impl<P: TypedSet, H: HashFamily> fmt::Debug for DecapsulationKey<P, H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "DecapsulationKey<{}, {}> {{ .. }}",
            P::NAME,
            H::MODE.name()
        )
    }
}

impl<P: TypedSet, H: HashFamily> DecapsulationKey<P, H> {
    /// Deterministic key generation from 64 coins (d ‖ z).
    pub fn from_coins(coins: &[u8; 64]) -> Self {
        let mut sk = Array::<u8, P::SkSize>::default();
        let mut pk = Array::<u8, P::PkSize>::default();
        engine::<P, H>()
            .keypair_into(coins, &mut pk, &mut sk)
            .expect("sizes are fixed by the types");
        DecapsulationKey {
            sk,
            ek: EncapsulationKey {
                bytes: pk,
                _mode: PhantomData,
            },
        }
    }

    /// A secret key in its byte format; the public key inside it is taken as is.
    pub fn from_expanded_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let sk = Array::<u8, P::SkSize>::try_from(bytes).map_err(|_| Error::KeyLength {
            expected: P::SK_BYTES,
            got: bytes.len(),
        })?;
        let mut pk = Array::<u8, P::PkSize>::default();
        pk.copy_from_slice(&bytes[P::SK_POLYVEC_BYTES..P::SK_POLYVEC_BYTES + P::PK_BYTES]);
        Ok(DecapsulationKey {
            sk,
            ek: EncapsulationKey {
                bytes: pk,
                _mode: PhantomData,
            },
        })
    }

    /// The secret key bytes.
    pub fn as_expanded_bytes(&self) -> &[u8] {
        &self.sk
    }
}

impl<P: TypedSet, H: HashFamily> Decapsulator for DecapsulationKey<P, H> {
    type Kem = AigisEnc<P, H>;

    fn encapsulation_key(&self) -> &EncapsulationKey<P, H> {
        &self.ek
    }
}

impl<P: TypedSet, H: HashFamily> Decapsulate for DecapsulationKey<P, H> {
    fn decapsulate(&self, ct: &Ciphertext<Self::Kem>) -> SharedKey<Self::Kem> {
        // The trait's `SharedKey` is a plain array; the returned secret is wiped on drop.
        let ss = engine::<P, H>()
            .decapsulate(&self.sk, ct)
            .expect("sizes are fixed by the types");
        Array::from(*ss)
    }
}

impl<P: TypedSet, H: HashFamily> Generate for DecapsulationKey<P, H> {
    fn try_generate_from_rng<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self, R::Error> {
        let mut coins = [0u8; 64];
        rng.try_fill_bytes(&mut coins)?;
        let dk = Self::from_coins(&coins);
        crate::wipe::array(&mut coins);
        Ok(dk)
    }
}

impl<P: TypedSet, H: HashFamily> KeySizeUser for DecapsulationKey<P, H> {
    /// The 64 key-generation coins act as the seed.
    type KeySize = U64;
}

impl<P: TypedSet, H: HashFamily> KeyInit for DecapsulationKey<P, H> {
    fn new(seed: &Key<Self>) -> Self {
        Self::from_coins(&seed.0)
    }
}

impl<P: TypedSet, H: HashFamily> Kem for AigisEnc<P, H> {
    type DecapsulationKey = DecapsulationKey<P, H>;
    type EncapsulationKey = EncapsulationKey<P, H>;
    type SharedKeySize = U32;
    type CiphertextSize = P::CtSize;
}
