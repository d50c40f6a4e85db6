//! Aigis-enc behaviour beyond the vectors: every backend equals the portable one on random
//! coins (all sets, both hash modes), implicit rejection, typed errors, and the `kem` traits.

use kem::{Decapsulate, Encapsulate, FromSeed, Kem, KeyExport, TryKeyInit};
use vecrypt::Backend;
use vecrypt::aigis::{
    self, Aigis, AigisEnc, HashMode, ParamSet, Set1, Set2, Set3, Set4, Shake, Sm3,
};

/// A small deterministic generator for test coins.
struct Coins(u64);

impl Coins {
    fn fill(&mut self, out: &mut [u8]) {
        for b in out {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            *b = (self.0 >> 24) as u8;
        }
    }
    fn bytes<const N: usize>(&mut self) -> [u8; N] {
        let mut a = [0u8; N];
        self.fill(&mut a);
        a
    }
}

#[test]
fn every_backend_matches_portable_on_random_coins() {
    let mut rng = Coins(0x1234_5678_9abc_def1);
    for set in ParamSet::ALL {
        for mode in [HashMode::Shake, HashMode::Sm3] {
            let soft = Aigis::with_backend(set, mode, Backend::Soft).unwrap();
            for _ in 0..6 {
                let kc: [u8; 64] = rng.bytes();
                let ec: [u8; 32] = rng.bytes();
                let (pk, sk) = soft.keypair_from_coins(&kc).unwrap();
                let (ct, ss) = soft.encapsulate_from_coins(&pk, &ec).unwrap();
                assert_eq!(soft.decapsulate(&sk, &ct).unwrap(), ss);
                let mut bad = ct.clone();
                bad[rng.bytes::<1>()[0] as usize % ct.len()] ^= 1 << (rng.bytes::<1>()[0] % 8);
                let rejected = soft.decapsulate(&sk, &bad).unwrap();
                for backend in aigis::backends() {
                    let what = format!("{} {} on {backend}", set.name(), mode.name());
                    let kem = Aigis::with_backend(set, mode, backend).unwrap();
                    let (pk2, sk2) = kem.keypair_from_coins(&kc).unwrap();
                    assert_eq!(pk2, pk, "pk, {what}");
                    assert_eq!(*sk2, *sk, "sk, {what}");
                    let (ct2, ss2) = kem.encapsulate_from_coins(&pk, &ec).unwrap();
                    assert_eq!(ct2, ct, "ct, {what}");
                    assert_eq!(ss2, ss, "ss, {what}");
                    assert_eq!(kem.decapsulate(&sk, &ct).unwrap(), ss, "decaps, {what}");
                    assert_eq!(
                        kem.decapsulate(&sk, &bad).unwrap(),
                        rejected,
                        "reject, {what}"
                    );
                }
            }
        }
    }
}

#[test]
fn modified_ciphertext_gives_the_implicit_rejection_secret() {
    let mut rng = Coins(42);
    for set in ParamSet::ALL {
        for mode in [HashMode::Shake, HashMode::Sm3] {
            let kem = Aigis::new(set, mode);
            let kc: [u8; 64] = rng.bytes();
            let (pk, sk) = kem.keypair_from_coins(&kc).unwrap();
            let (ct, ss) = kem.encapsulate_from_coins(&pk, &rng.bytes::<32>()).unwrap();
            for pos in [0, ct.len() / 2, ct.len() - 1] {
                let mut bad = ct.clone();
                bad[pos] ^= 0x80;
                let got = kem.decapsulate(&sk, &bad).unwrap();
                assert_ne!(got, ss);
                // The rejection secret depends on z (the last 32 bytes of sk) and on ct.
                let mut sk_other_z = sk.to_vec();
                let n = sk_other_z.len();
                sk_other_z[n - 1] ^= 1;
                assert_ne!(kem.decapsulate(&sk_other_z, &bad).unwrap(), got);
                assert_eq!(kem.decapsulate(&sk_other_z, &ct).unwrap(), ss);
            }
            // Arbitrary bytes are a valid input too.
            let junk = vec![0xffu8; set.ciphertext_bytes()];
            assert!(kem.decapsulate(&sk, &junk).is_ok());
            let junk_sk = vec![0xffu8; set.secret_key_bytes()];
            assert!(kem.decapsulate(&junk_sk, &ct).is_ok());
        }
    }
}

#[test]
fn wrong_lengths_are_typed_errors() {
    let kem = Aigis::new(ParamSet::Aigis2, HashMode::Shake);
    let (pk, sk) = kem.keypair_from_coins(&[3u8; 64]).unwrap();
    let (ct, _) = kem.encapsulate_from_coins(&pk, &[4u8; 32]).unwrap();
    assert_eq!(
        kem.encapsulate_from_coins(&pk[1..], &[0; 32]).unwrap_err(),
        vecrypt::Error::KeyLength {
            expected: 896,
            got: 895
        }
    );
    assert_eq!(
        kem.decapsulate(&sk[..100], &ct).unwrap_err(),
        vecrypt::Error::KeyLength {
            expected: 2208,
            got: 100
        }
    );
    assert_eq!(
        kem.decapsulate(&sk, &ct[1..]).unwrap_err(),
        vecrypt::Error::InvalidLength
    );
    assert_eq!(
        kem.keypair_from_coins(&[0; 63]).unwrap_err(),
        vecrypt::Error::InvalidLength
    );
    assert_eq!(
        kem.encapsulate_from_coins(&pk, &[0; 31]).unwrap_err(),
        vecrypt::Error::InvalidLength
    );
    assert!(ParamSet::parse("Aigis-enc-5").is_err());
    assert_eq!(ParamSet::parse("aigis-enc-3").unwrap(), ParamSet::Aigis3);
    assert!(Aigis::with_backend(ParamSet::Aigis1, HashMode::Sm3, Backend::Vaes512).is_err());
}

fn kem_traits_round_trip<K: Kem + FromSeed>(seed: &kem::Seed<K>) {
    let (dk, ek) = K::from_seed(seed);
    let bytes = ek.to_bytes();
    let ek2 = K::EncapsulationKey::new(&bytes).unwrap();
    assert_eq!(ek, ek2);
    let mut rng = TestRng(7);
    let (ct, ss) = ek2.encapsulate_with_rng(&mut rng);
    assert_eq!(kem::TryDecapsulate::try_decapsulate(&dk, &ct).unwrap(), ss);
}

struct TestRng(u8);
impl kem::common::rand_core::TryRng for TestRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
    fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), Self::Error> {
        for b in d {
            self.0 = self.0.wrapping_mul(5).wrapping_add(1);
            *b = self.0;
        }
        Ok(())
    }
}
impl kem::common::rand_core::TryCryptoRng for TestRng {}

#[test]
fn kem_traits_work_for_every_set_and_mode() {
    let seed = [9u8; 64].into();
    kem_traits_round_trip::<AigisEnc<Set1, Shake>>(&seed);
    kem_traits_round_trip::<AigisEnc<Set2, Shake>>(&seed);
    kem_traits_round_trip::<AigisEnc<Set3, Shake>>(&seed);
    kem_traits_round_trip::<AigisEnc<Set4, Shake>>(&seed);
    kem_traits_round_trip::<AigisEnc<Set1, Sm3>>(&seed);
    kem_traits_round_trip::<AigisEnc<Set2, Sm3>>(&seed);
    kem_traits_round_trip::<AigisEnc<Set3, Sm3>>(&seed);
    kem_traits_round_trip::<AigisEnc<Set4, Sm3>>(&seed);
}

#[test]
fn typed_keys_match_the_runtime_interface() {
    let coins = [5u8; 64];
    let dk = aigis::DecapsulationKey::<Set2, Shake>::from_coins(&coins);
    let kem = Aigis::new(ParamSet::Aigis2, HashMode::Shake);
    let (pk, sk) = kem.keypair_from_coins(&coins).unwrap();
    assert_eq!(dk.as_expanded_bytes(), &sk[..]);
    assert_eq!(
        kem::Decapsulator::encapsulation_key(&dk).as_bytes(),
        &pk[..]
    );
    let (ct, ss) = kem::Decapsulator::encapsulation_key(&dk).encapsulate_deterministic(&[6; 32]);
    assert_eq!(dk.decapsulate(&ct), ss);
    let again = aigis::DecapsulationKey::<Set2, Shake>::from_expanded_bytes(&sk).unwrap();
    assert_eq!(again.decapsulate(&ct), ss);
    assert!(aigis::DecapsulationKey::<Set2, Shake>::from_expanded_bytes(&sk[1..]).is_err());
    // The SM3 mode gives different keys from the same coins.
    let sm3 = Aigis::new(ParamSet::Aigis2, HashMode::Sm3);
    assert_ne!(sm3.keypair_from_coins(&coins).unwrap().0, pk);
}

/// With the `getrandom` feature (on by default) the KEM traits draw their coins from the
/// operating system: two key pairs differ, and each round trip agrees.
#[cfg(feature = "getrandom")]
#[test]
fn system_randomness_keys_and_encapsulates() {
    type K = AigisEnc<Set2, Shake>;
    let (dk1, ek1) = K::generate_keypair();
    let (_, ek2) = K::generate_keypair();
    assert_ne!(ek1.to_bytes(), ek2.to_bytes());
    let (ct1, ss1) = ek1.encapsulate();
    let (ct2, ss2) = ek1.encapsulate();
    assert_ne!(ct1, ct2);
    assert_ne!(ss1, ss2);
    assert_eq!(
        kem::TryDecapsulate::try_decapsulate(&dk1, &ct1).unwrap(),
        ss1
    );
    assert_eq!(
        kem::TryDecapsulate::try_decapsulate(&dk1, &ct2).unwrap(),
        ss2
    );
}

/// Every shared secret the inherent API hands out wipes itself on drop: encapsulation
/// (both forms), decapsulation, and the compact engine's.
#[test]
fn shared_secrets_are_wiped_on_drop() {
    fn wiped_on_drop<T: zeroize::ZeroizeOnDrop + core::ops::Deref<Target = [u8; 32]>>(
        ss: T,
    ) -> [u8; 32] {
        *ss
    }
    let mut rng = Coins(0x5eed_0024);
    let kc: [u8; 64] = rng.bytes();
    let ec: [u8; 32] = rng.bytes();
    let kem = Aigis::new(ParamSet::ALL[0], HashMode::Shake);
    let (pk, sk) = kem.keypair_from_coins(&kc).unwrap();
    let (ct, ss) = kem.encapsulate_from_coins(&pk, &ec).unwrap();
    let mut ct2 = vec![0u8; ct.len()];
    let into = wiped_on_drop(kem.encapsulate_into(&pk, &ec, &mut ct2).unwrap());
    let back = wiped_on_drop(kem.decapsulate(&sk, &ct).unwrap());
    let ss: aigis::SharedSecret = ss;
    assert_eq!((into, back), (*ss, *ss));
    let compact = aigis::AigisCompact::new(ParamSet::ALL[0], HashMode::Shake);
    let small = wiped_on_drop(compact.decapsulate(&sk, &ct).unwrap());
    assert_eq!(small, *ss);
    let small = wiped_on_drop(compact.encapsulate_into(&pk, &ec, &mut ct2).unwrap());
    assert_eq!(small, *ss);
}

/// Each function timed alone gives the same result on every backend as on the portable
/// one, for every set and hash mode, and its result depends on the number of runs where the
/// function feeds itself (the NTTs) or the inputs (everything else) are what it computes.
#[cfg(feature = "kernel-parts")]
#[test]
fn kernel_parts_match_portable_on_every_backend() {
    use vecrypt::aigis::KernelPart;
    for set in ParamSet::ALL {
        for mode in [HashMode::Shake, HashMode::Sm3] {
            let soft = Aigis::with_backend(set, mode, Backend::Soft).unwrap();
            for part in KernelPart::ALL {
                let want = soft.run_kernel_part(part, 3);
                if matches!(part, KernelPart::Ntt | KernelPart::InvNtt) {
                    assert_ne!(soft.run_kernel_part(part, 2), want, "{part:?} repeats");
                } else {
                    assert_ne!(soft.run_kernel_part(part, 0), want, "{part:?} ran");
                }
                for backend in aigis::backends() {
                    let kem = Aigis::with_backend(set, mode, backend).unwrap();
                    assert_eq!(
                        kem.run_kernel_part(part, 3),
                        want,
                        "{part:?}, {} {} on {backend}",
                        set.name(),
                        mode.name()
                    );
                }
            }
        }
    }
}
