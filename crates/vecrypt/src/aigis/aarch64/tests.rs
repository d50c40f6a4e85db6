//! The NEON kernels against the portable code, both Keccak builds (the SHA3 one where the
//! CPU has it).

use super::super::ntt as portable;
use super::super::params::{N, Q, Set1, Set2, Set3, Set4};
use super::super::reduce::freeze;
use super::super::sponge::keccak_f1600;
use super::*;

fn neon() -> bool {
    kernels::AIGIS_NEON.runs()
}

fn sha3() -> bool {
    kernels::AIGIS_KECCAK_SHA3.runs()
}

fn sample_poly(seed: u32, bound: i16) -> Poly {
    let mut s = seed;
    let mut p = Poly::default();
    for x in p.0.iter_mut() {
        s = s.wrapping_mul(1_103_515_245).wrapping_add(12345);
        *x = ((s >> 8) % (2 * bound as u32 - 1)) as i16 - (bound - 1);
    }
    p
}

fn canonical(mut p: Poly) -> Poly {
    p.freeze();
    p
}

#[test]
fn barrett_and_freeze_are_exact_on_every_i16() {
    if !neon() {
        return;
    }
    for canon in [false, true] {
        let mut all: Vec<i16> = (i16::MIN..=i16::MAX).collect();
        // SAFETY: NEON was checked above.
        unsafe { ntt::reduce_all_i16(&mut all, canon) };
        for (a, r) in (i16::MIN..=i16::MAX).zip(all) {
            if canon {
                assert_eq!(r, freeze(a), "{a}");
            } else {
                assert!(r.abs() <= (Q + 3) / 2, "{a} -> {r}");
                assert_eq!(freeze(a), freeze(r), "{a}");
            }
        }
    }
}

#[test]
fn transforms_and_products_equal_portable() {
    if !neon() {
        return;
    }
    for seed in 0..20 {
        let a = sample_poly(seed, Q);
        let (mut x, mut y) = (a, a);
        portable::ntt(&mut x);
        // SAFETY: NEON was checked above.
        unsafe { ntt::ntt(&mut y) };
        assert!(y.0.iter().all(|c| c.abs() < Q));
        assert_eq!(canonical(x), canonical(y), "ntt, seed {seed}");
        let (mut x, mut y) = (a, a);
        portable::invntt(&mut x);
        // SAFETY: NEON was checked above.
        unsafe { ntt::invntt(&mut y) };
        assert!(y.0.iter().all(|c| c.abs() < Q));
        assert_eq!(canonical(x), canonical(y), "invntt, seed {seed}");
        let terms: Vec<Poly> = (0..8).map(|t| sample_poly(seed * 8 + t + 100, Q)).collect();
        for k in 1..=4 {
            let (mut x, mut y) = (Poly::default(), Poly::default());
            portable::mul_acc(&mut x, &terms[..k], &terms[4..4 + k]);
            // SAFETY: NEON was checked above.
            unsafe { ntt::mul_acc(&mut y, &terms[..k], &terms[4..4 + k]) };
            assert!(y.0.iter().all(|c| c.abs() < Q));
            assert_eq!(canonical(x), canonical(y), "mul_acc k={k}");
        }
        let (mut x, mut y) = (terms[0], terms[0]);
        compact::mul_add(&mut x, &terms[1], &terms[2]);
        // SAFETY: NEON was checked above.
        unsafe { ntt::mul_add(&mut y, &terms[1], &terms[2]) };
        assert!(y.0.iter().all(|c| c.abs() < Q));
        assert_eq!(canonical(x), canonical(y), "mul_add");
        let mut y = a;
        // SAFETY: NEON was checked above.
        unsafe { ntt::freeze(&mut y) };
        assert_eq!(canonical(a), y, "freeze");
    }
}

#[test]
fn vector_cbd_equals_portable() {
    if !neon() {
        return;
    }
    for eta in [1usize, 2, 3, 4, 8] {
        for seed in 0..16u32 {
            let buf: Vec<u8> = (0..super::super::cbd::noise_bytes(eta) as u32)
                .map(|i| (i.wrapping_mul(2_654_435_761) ^ seed.wrapping_mul(40_503)) as u8)
                .collect();
            let mut want = Poly::default();
            let mut got = Poly::default();
            super::super::cbd::cbd(&mut want, &buf, eta);
            // SAFETY: NEON was checked above.
            unsafe { cbd::cbd_vec(&mut got, &buf, eta) };
            assert_eq!(got, want, "eta {eta}, seed {seed}");
        }
    }
}

#[test]
fn vector_compression_equals_the_division_and_the_portable_packing() {
    if !neon() {
        return;
    }
    use super::super::compress::compress_by_division;
    use super::super::poly::unpack_bits;
    for start in (0..Q).step_by(N) {
        let mut p = Poly::default();
        for (i, x) in p.0.iter_mut().enumerate() {
            *x = (start + i as i16).min(Q - 1);
        }
        for d in [3usize, 4, 5, 9, 10, 11] {
            let mut want = [0u8; N * 11 / 8];
            let mut got = [0xa5u8; N * 11 / 8 + 1];
            Soft.compress(&mut want[..N * d / 8], &p, d);
            // SAFETY: NEON was checked above.
            unsafe { compress::compress(&mut got[..N * d / 8], &p, d) };
            assert_eq!(got[..N * d / 8], want[..N * d / 8], "d = {d}, from {start}");
            assert!(
                got[N * d / 8..].iter().all(|&b| b == 0xa5),
                "d = {d}: wrote past"
            );
            let mut vals = [0i16; N];
            unpack_bits(&mut vals, &got[..N * d / 8], d);
            for (&x, &y) in p.0.iter().zip(vals.iter()) {
                assert_eq!(y as u16, compress_by_division(x, d), "d = {d}, x = {x}");
            }
        }
    }
}

#[test]
fn two_state_permutations_equal_the_scalar_one() {
    if !neon() {
        return;
    }
    let mut s: keccak::State2 = core::array::from_fn(|i| {
        [
            (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            (i as u64 + 77).wrapping_mul(0xc2b2_ae3d_27d4_eb4f),
        ]
    });
    for round in 0..3 {
        let mut want: [[u64; 25]; 2] = core::array::from_fn(|l| core::array::from_fn(|i| s[i][l]));
        keccak_f1600(&mut want[0]);
        keccak_f1600(&mut want[1]);
        let mut plain = s;
        // SAFETY: NEON was checked above.
        unsafe { keccak::permute2(&mut plain) };
        for l in 0..2 {
            let got: [u64; 25] = core::array::from_fn(|i| plain[i][l]);
            assert_eq!(got, want[l], "plain, lane {l}, round {round}");
        }
        if sha3() {
            let mut fast = s;
            // SAFETY: SHA3 was checked just above.
            unsafe { keccak::permute2_sha3(&mut fast) };
            assert_eq!(fast, plain, "sha3, round {round}");
        }
        s = plain;
    }
}

/// The sampling of both builds against the portable one, every k and orientation.
fn sampling_equals_portable<const SHA3: bool>(arith: Neon<SHA3>) {
    for mode in [HashMode::Shake, HashMode::Sm3] {
        for k in 2..=MAX_K {
            for transposed in [false, true] {
                let rho: [u8; SEED_BYTES] = core::array::from_fn(|i| (i * 7 + k) as u8);
                let mut want: Matrix = Default::default();
                let mut got: Matrix = Default::default();
                Soft.gen_matrix(mode, &rho, k, transposed, &mut want);
                arith.gen_matrix(mode, &rho, k, transposed, &mut got);
                assert_eq!(got, want, "matrix, k = {k}, sha3 {SHA3}");
                for (i, want_row) in want.iter().enumerate().take(k) {
                    let mut row = [Poly::default(); MAX_K];
                    arith.gen_row(mode, &rho, k, i, transposed, &mut row);
                    assert_eq!(row[..k], want_row[..k], "row {i}, k = {k}, sha3 {SHA3}");
                }
            }
            for first in [1usize, 2, 3, 4, 8] {
                for second in [4usize, 8] {
                    let etas: Vec<usize> = (0..2 * k + 1)
                        .map(|i| if i < k { first } else { second })
                        .collect();
                    let seed: [u8; SEED_BYTES] = core::array::from_fn(|i| (i * 13 + first) as u8);
                    let mut want = vec![Poly::default(); etas.len()];
                    let mut got = vec![Poly::default(); etas.len()];
                    Soft.noise(mode, &seed, &etas, &mut want);
                    arith.noise(mode, &seed, &etas, &mut got);
                    assert_eq!(got, want, "noise {etas:?}, sha3 {SHA3}");
                }
            }
        }
    }
}

#[test]
fn sampling_of_both_builds_equals_portable() {
    if !neon() {
        return;
    }
    // SAFETY: NEON was checked above.
    sampling_equals_portable(unsafe { Neon::<false>::new() });
    if sha3() {
        // SAFETY: SHA3 was checked just above.
        sampling_equals_portable(unsafe { Neon::<true>::new() });
    }
}

/// The whole KEM, normal and compact, of one build against the portable backend.
fn kem_equals_portable<P: Params, const SHA3: bool>(arith: Neon<SHA3>) {
    for mode in [HashMode::Shake, HashMode::Sm3] {
        for t in 0..2u8 {
            let coins: [u8; 64] = core::array::from_fn(|i| (i as u8).wrapping_mul(29) ^ t);
            let ec: [u8; 32] = core::array::from_fn(|i| (i as u8) ^ 0x5a ^ t);
            let (mut pk, mut sk) = (vec![0u8; P::PK_BYTES], vec![0u8; P::SK_BYTES]);
            kem::keypair::<P, Soft>(Soft, mode, &coins, &mut pk, &mut sk);
            let (mut pk2, mut sk2) = (vec![0u8; P::PK_BYTES], vec![0u8; P::SK_BYTES]);
            kem::keypair::<P, Neon<SHA3>>(arith, mode, &coins, &mut pk2, &mut sk2);
            assert_eq!((&pk, &sk), (&pk2, &sk2), "{} keypair", P::NAME);
            compact::keypair::<P, Neon<SHA3>>(arith, mode, &coins, &mut pk2, &mut sk2);
            assert_eq!((&pk, &sk), (&pk2, &sk2), "{} compact keypair", P::NAME);
            let mut ct = vec![0u8; P::CT_BYTES];
            let ss = kem::encapsulate::<P, Soft>(Soft, mode, &pk, &ec, &mut ct);
            let mut ct2 = vec![0u8; P::CT_BYTES];
            let ss2 = kem::encapsulate::<P, Neon<SHA3>>(arith, mode, &pk, &ec, &mut ct2);
            assert_eq!((&ct, ss), (&ct2, ss2), "{} encapsulate", P::NAME);
            let ss2 = compact::encapsulate::<P, Neon<SHA3>>(arith, mode, &pk, &ec, &mut ct2);
            assert_eq!((&ct, ss), (&ct2, ss2), "{} compact encapsulate", P::NAME);
            assert_eq!(kem::decapsulate::<P, Neon<SHA3>>(arith, mode, &sk, &ct), ss);
            assert_eq!(
                compact::decapsulate::<P, Neon<SHA3>>(arith, mode, &sk, &ct),
                ss
            );
            ct[3] ^= 1;
            assert_eq!(
                kem::decapsulate::<P, Neon<SHA3>>(arith, mode, &sk, &ct),
                kem::decapsulate::<P, Soft>(Soft, mode, &sk, &ct)
            );
        }
    }
}

fn kem_of_every_set<const SHA3: bool>(arith: Neon<SHA3>) {
    kem_equals_portable::<Set1, SHA3>(arith);
    kem_equals_portable::<Set2, SHA3>(arith);
    kem_equals_portable::<Set3, SHA3>(arith);
    kem_equals_portable::<Set4, SHA3>(arith);
}

#[test]
fn kem_of_both_builds_equals_portable() {
    if !neon() {
        return;
    }
    assert_eq!(N % 32, 0);
    // SAFETY: NEON was checked above.
    kem_of_every_set(unsafe { Neon::<false>::new() });
    if sha3() {
        // SAFETY: SHA3 was checked just above.
        kem_of_every_set(unsafe { Neon::<true>::new() });
    }
}
