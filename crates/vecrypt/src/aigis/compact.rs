//! The compact variant: the same bytes as [`Aigis`](super::Aigis) with a small stack.
//!
//! Nothing of size k x n is held: each matrix entry is generated when it is used, noise is
//! sampled 32 coefficients at a time from a streaming PRF, NTT(s) is read back from the
//! packed secret key, r is regenerated for every row, and decapsulation compares the
//! re-encryption with the ciphertext piece by piece instead of building a second
//! ciphertext. Matrix entries are never held either: each coefficient is multiplied into
//! the row's sum as the XOF yields it, one block at a time. Two polynomials plus the XOF
//! window are live while a matrix row is computed, three polynomials (1.5 KiB) during
//! decryption and the v half of encryption; the tests measure the peak stack of every
//! operation.

use subtle::{Choice, ConditionallySelectable};

use super::arith::Arith;
use super::cbd::cbd_into;
use super::compress::to_msg;
use super::hash::{HashMode, NoiseStream, ScalarKeccak, hash_h};
use super::indcpa::{Secret32, expand_seed};
use super::params::{N, POLY_BYTES, Params, SEED_BYTES};
use super::poly::{Poly, pack13, sub_msg, unpack13};
use super::reduce::{barrett_reduce, reduce_wide};
use super::sampling::parse_with;
use super::{ParamSet, check_len, check_other_len};
use crate::Error;
use crate::cpu::{self, Backend};

/// `M` working polynomials, wiped on drop.
struct Work<const M: usize>([Poly; M]);

impl<const M: usize> Work<M> {
    fn new() -> Self {
        // Written in place: building the array elsewhere and moving it costs its size again
        // in the frame.
        const ZERO: Poly = Poly([0; N]);
        Work([ZERO; M])
    }
}

impl<const M: usize> Drop for Work<M> {
    fn drop(&mut self) {
        for p in self.0.iter_mut() {
            crate::wipe::i16s(&mut p.0);
        }
    }
}

// The helpers below are never inlined on purpose: each one's buffers then live only while
// it runs, instead of all of them sitting in one large frame.

/// CBD_eta(PRF(seed, nonce)) sampled 32 coefficients (8 * eta bytes) at a time.
#[inline(never)]
fn noise_poly(mode: HashMode, seed: &[u8; SEED_BYTES], nonce: u8, eta: usize, p: &mut Poly) {
    let mut stream = NoiseStream::empty(mode);
    stream.start(seed, nonce);
    let mut buf = [0u8; 64];
    for chunk in p.0.chunks_mut(32) {
        stream.read(&mut buf[..8 * eta]);
        cbd_into(chunk, &buf[..8 * eta], eta);
    }
    crate::wipe::bytes(&mut buf);
}

/// acc += CBD_eta(PRF(seed, nonce)), 32 coefficients at a time (no reduction).
#[inline(never)]
fn add_noise(mode: HashMode, seed: &[u8; SEED_BYTES], nonce: u8, eta: usize, acc: &mut Poly) {
    let mut stream = NoiseStream::empty(mode);
    stream.start(seed, nonce);
    let mut buf = [0u8; 64];
    let mut e = [0i16; 32];
    for chunk in acc.0.chunks_mut(32) {
        stream.read(&mut buf[..8 * eta]);
        cbd_into(&mut e, &buf[..8 * eta], eta);
        for (a, x) in chunk.iter_mut().zip(e) {
            *a = a.wrapping_add(x);
        }
    }
    crate::wipe::bytes(&mut buf);
    crate::wipe::i16s(&mut e);
}

/// acc += (matrix entry Parse(XOF(ρ ‖ x ‖ y))) * b coefficient-wise, reduced, with each
/// entry coefficient used as it is parsed: the entry is never held.
#[inline(never)]
fn entry_mul_add(mode: HashMode, rho: &[u8; SEED_BYTES], x: u8, y: u8, b: &Poly, acc: &mut Poly) {
    parse_with(mode, rho, x, y, |i, v| {
        acc.0[i] = reduce_wide(i32::from(acc.0[i]) + i32::from(v) * i32::from(b.0[i]));
    });
}

/// H of the concatenation of `parts`.
#[inline(never)]
fn hash(mode: HashMode, parts: &[&[u8]]) -> [u8; SEED_BYTES] {
    hash_h(mode, parts)
}

/// (ρ, σ) = G(d).
#[inline(never)]
fn seeds(mode: HashMode, d: &[u8; SEED_BYTES]) -> ([u8; SEED_BYTES], Secret32) {
    expand_seed(ScalarKeccak, mode, d)
}

/// Compresses `p` at d bits and hands the bytes to `sink` at `offset`.
#[inline(never)]
fn emit<A: Arith>(
    arith: A,
    p: &Poly,
    d: usize,
    offset: usize,
    sink: &mut impl FnMut(usize, &[u8]),
) {
    let mut chunk = [0u8; N * 11 / 8];
    let len = N * d / 8;
    arith.compress(&mut chunk[..len], p, d);
    sink(offset, &chunk[..len]);
    crate::wipe::bytes(&mut chunk);
}

/// acc += a * b coefficient-wise, reduced, in place (inputs below q in absolute value).
#[inline(always)]
pub(crate) fn mul_add(acc: &mut Poly, a: &Poly, b: &Poly) {
    for ((r, x), y) in acc.0.iter_mut().zip(a.0.iter()).zip(b.0.iter()) {
        *r = reduce_wide(i32::from(*r) + i32::from(*x) * i32::from(*y));
    }
}

#[inline(always)]
pub(crate) fn keypair<P: Params, A: Arith>(
    arith: A,
    mode: HashMode,
    coins: &[u8; 64],
    pk: &mut [u8],
    sk: &mut [u8],
) {
    let mut d = Secret32([0; SEED_BYTES]);
    d.0.copy_from_slice(&coins[..SEED_BYTES]);
    let (rho, sigma) = seeds(mode, &d.0);
    keypair_polys::<P, A>(arith, mode, &rho, &sigma.0, pk, sk);
    pk[P::PK_POLYVEC_BYTES..P::PK_BYTES].copy_from_slice(&rho);
    let pk_end = P::SK_POLYVEC_BYTES + P::PK_BYTES;
    sk[P::SK_POLYVEC_BYTES..pk_end].copy_from_slice(pk);
    sk[pk_end..pk_end + SEED_BYTES].copy_from_slice(&hash(mode, &[pk]));
    sk[pk_end + SEED_BYTES..].copy_from_slice(&coins[SEED_BYTES..]);
}

/// The packed NTT(s) into `sk` and t into `pk`, in a frame of its own, so that its two
/// polynomials are not live while the seeds are hashed.
#[inline(never)]
fn keypair_polys<P: Params, A: Arith>(
    arith: A,
    mode: HashMode,
    rho: &[u8; SEED_BYTES],
    sigma: &[u8; SEED_BYTES],
    pk: &mut [u8],
    sk: &mut [u8],
) {
    let k = P::K;
    let mut w = Work::<2>::new();
    let [acc, s] = &mut w.0;
    for j in 0..k {
        noise_poly(mode, sigma, j as u8, P::ETA_S, s);
        arith.ntt(s);
        s.freeze();
        pack13(&mut sk[j * POLY_BYTES..(j + 1) * POLY_BYTES], s);
    }
    let bytes = N * P::D_T / 8;
    for i in 0..k {
        *acc = Poly::default();
        for j in 0..k {
            unpack13(s, &sk[j * POLY_BYTES..(j + 1) * POLY_BYTES]);
            entry_mul_add(mode, rho, i as u8, j as u8, s, acc);
        }
        arith.invntt(acc);
        add_noise(mode, sigma, (k + i) as u8, P::ETA_E, acc);
        acc.freeze();
        arith.compress(&mut pk[i * bytes..(i + 1) * bytes], acc, P::D_T);
    }
}

/// Dec(sk, ct) into `m`. Out of line, so its polynomials are gone before re-encryption
/// allocates its own.
#[inline(never)]
fn decrypt<P: Params, A: Arith>(arith: A, sk: &[u8], ct: &[u8], m: &mut [u8; SEED_BYTES]) {
    let mut w = Work::<3>::new();
    let [acc, a, b] = &mut w.0;
    let u_bytes = N * P::D_U / 8;
    for j in 0..P::K {
        unpack13(a, &sk[j * POLY_BYTES..(j + 1) * POLY_BYTES]);
        for x in a.0.iter_mut() {
            *x = barrett_reduce(*x);
        }
        arith.decompress(b, &ct[j * u_bytes..(j + 1) * u_bytes], P::D_U);
        arith.ntt(b);
        arith.mul_add(acc, a, b);
    }
    arith.invntt(acc);
    arith.decompress(a, &ct[P::CT_U_BYTES..P::CT_BYTES], P::D_V);
    acc.sub_assign(a);
    acc.freeze();
    to_msg(m, acc);
}

/// Enc(pk, m; coins), handing each compressed polynomial to `sink(offset, bytes)`. The
/// two halves run in frames of their own: u needs two polynomials and the matrix parse,
/// v three polynomials and no parse.
#[inline(always)]
fn encrypt<P: Params, A: Arith>(
    arith: A,
    mode: HashMode,
    pk: &[u8],
    m: &[u8; SEED_BYTES],
    coins: &[u8; SEED_BYTES],
    mut sink: impl FnMut(usize, &[u8]),
) {
    encrypt_u::<P, A>(arith, mode, pk, coins, &mut sink);
    encrypt_v::<P, A>(arith, mode, pk, m, coins, &mut sink);
}

/// u = invNTT(Âᵀ r) + e1, row by row, r regenerated for every row.
#[inline(never)]
fn encrypt_u<P: Params, A: Arith>(
    arith: A,
    mode: HashMode,
    pk: &[u8],
    coins: &[u8; SEED_BYTES],
    sink: &mut impl FnMut(usize, &[u8]),
) {
    let k = P::K;
    let mut rho = [0u8; SEED_BYTES];
    rho.copy_from_slice(&pk[P::PK_POLYVEC_BYTES..P::PK_BYTES]);
    let mut w = Work::<2>::new();
    let [acc, r] = &mut w.0;
    let u_bytes = N * P::D_U / 8;
    for i in 0..k {
        *acc = Poly::default();
        for j in 0..k {
            noise_poly(mode, coins, j as u8, P::ETA_S, r);
            arith.ntt(r);
            entry_mul_add(mode, &rho, j as u8, i as u8, r, acc);
        }
        arith.invntt(acc);
        add_noise(mode, coins, (k + i) as u8, P::ETA_E, acc);
        acc.freeze();
        emit::<A>(arith, acc, P::D_U, i * u_bytes, sink);
    }
}

/// v = invNTT(t̂ᵀ r) + e2 + Decompress_1(m): r_j is sampled while only the sum is held, and
/// t̂_j lives in [`v_term`]'s frame, so three polynomials are live only around its NTT.
#[inline(never)]
fn encrypt_v<P: Params, A: Arith>(
    arith: A,
    mode: HashMode,
    pk: &[u8],
    m: &[u8; SEED_BYTES],
    coins: &[u8; SEED_BYTES],
    sink: &mut impl FnMut(usize, &[u8]),
) {
    let k = P::K;
    let mut w = Work::<2>::new();
    let [acc, r] = &mut w.0;
    let t_bytes = N * P::D_T / 8;
    for j in 0..k {
        noise_poly(mode, coins, j as u8, P::ETA_S, r);
        arith.ntt(r);
        v_term(arith, &pk[j * t_bytes..(j + 1) * t_bytes], P::D_T, r, acc);
    }
    arith.invntt(acc);
    add_noise(mode, coins, (2 * k) as u8, P::ETA_E, acc);
    sub_msg(acc, m);
    acc.freeze();
    emit::<A>(arith, acc, P::D_V, P::CT_U_BYTES, sink);
}

/// acc += NTT(Decompress_d(bytes)) * r̂.
#[inline(never)]
fn v_term<A: Arith>(arith: A, bytes: &[u8], d: usize, r: &Poly, acc: &mut Poly) {
    let mut w = Work::<1>::new();
    let [t] = &mut w.0;
    arith.decompress(t, bytes, d);
    arith.ntt(t);
    arith.mul_add(acc, t, r);
}

#[inline(always)]
pub(crate) fn encapsulate<P: Params, A: Arith>(
    arith: A,
    mode: HashMode,
    pk: &[u8],
    coins: &[u8; 32],
    ct: &mut [u8],
) -> [u8; 32] {
    let m = Secret32(hash(mode, &[coins]));
    let h = hash(mode, &[pk]);
    let seed = Secret32(hash(mode, &[&m.0, &h]));
    encrypt::<P, A>(arith, mode, pk, &m.0, &seed.0, |at, bytes| {
        ct[at..at + bytes.len()].copy_from_slice(bytes)
    });
    let hc = hash(mode, &[ct]);
    hash(mode, &[&m.0, &h, &hc])
}

#[inline(always)]
pub(crate) fn decapsulate<P: Params, A: Arith>(
    arith: A,
    mode: HashMode,
    sk: &[u8],
    ct: &[u8],
) -> [u8; 32] {
    let pk = &sk[P::SK_POLYVEC_BYTES..P::SK_POLYVEC_BYTES + P::PK_BYTES];
    let hpk_at = P::SK_POLYVEC_BYTES + P::PK_BYTES;
    let h = &sk[hpk_at..hpk_at + SEED_BYTES];
    let z = &sk[hpk_at + SEED_BYTES..hpk_at + 2 * SEED_BYTES];
    let mut m = Secret32([0; SEED_BYTES]);
    decrypt::<P, A>(arith, sk, ct, &mut m.0);
    let seed = Secret32(hash(mode, &[&m.0, h]));
    let mut same = Choice::from(1);
    encrypt::<P, A>(arith, mode, pk, &m.0, &seed.0, |at, bytes| {
        same &= crate::ct::bytes_eq(&ct[at..at + bytes.len()], bytes);
    });
    for (mi, zi) in m.0.iter_mut().zip(z.iter()) {
        *mi = u8::conditional_select(zi, mi, same);
    }
    let hc = hash(mode, &[ct]);
    hash(mode, &[&m.0, h, &hc])
}

/// Aigis-enc with a small stack: same inputs, outputs and errors as
/// [`Aigis`](super::Aigis), slower (the matrix rows and r are recomputed).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AigisCompact {
    set: ParamSet,
    mode: HashMode,
    backend: Backend,
}

impl AigisCompact {
    /// The set and mode on the best backend for this CPU (or the forced one).
    pub fn new(set: ParamSet, mode: HashMode) -> Self {
        AigisCompact {
            set,
            mode,
            backend: cpu::choose(super::CANDIDATES),
        }
    }

    /// The set and mode on `backend`, or an error if this CPU cannot run it.
    pub fn with_backend(set: ParamSet, mode: HashMode, backend: Backend) -> Result<Self, Error> {
        Ok(AigisCompact {
            set,
            mode,
            backend: cpu::require(super::CANDIDATES, backend)?,
        })
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Deterministic key generation from 64 coins into caller buffers.
    pub fn keypair_into(&self, coins: &[u8], pk: &mut [u8], sk: &mut [u8]) -> Result<(), Error> {
        check_other_len(super::KEYPAIR_COINS_BYTES, coins.len())?;
        check_len(self.set.public_key_bytes(), pk.len())?;
        check_len(self.set.secret_key_bytes(), sk.len())?;
        // The caller's coins are read where they are: a copy would cost 64 bytes of stack.
        let c: &[u8; 64] = coins.try_into().map_err(|_| Error::InvalidLength)?;
        run::keypair(self.set, self.mode, self.backend, c, pk, sk);
        Ok(())
    }

    /// Deterministic encapsulation from 32 coins into a caller buffer; returns the secret,
    /// wiped on drop ([`super::SharedSecret`]).
    pub fn encapsulate_into(
        &self,
        pk: &[u8],
        coins: &[u8],
        ct: &mut [u8],
    ) -> Result<super::SharedSecret, Error> {
        check_len(self.set.public_key_bytes(), pk.len())?;
        check_other_len(super::ENCAPS_COINS_BYTES, coins.len())?;
        check_other_len(self.set.ciphertext_bytes(), ct.len())?;
        let c: &[u8; 32] = coins.try_into().map_err(|_| Error::InvalidLength)?;
        let ss = run::encapsulate(self.set, self.mode, self.backend, pk, c, ct);
        Ok(zeroize::Zeroizing::new(ss))
    }

    /// Decapsulation with implicit rejection; only wrong lengths are errors. The secret is
    /// wiped on drop ([`super::SharedSecret`]).
    pub fn decapsulate(&self, sk: &[u8], ct: &[u8]) -> Result<super::SharedSecret, Error> {
        check_len(self.set.secret_key_bytes(), sk.len())?;
        check_other_len(self.set.ciphertext_bytes(), ct.len())?;
        Ok(zeroize::Zeroizing::new(run::decapsulate(
            self.set,
            self.mode,
            self.backend,
            sk,
            ct,
        )))
    }
}

/// From (set, backend) to the one monomorphised compact operation: the kernels
/// `Native::keyed` chooses for the backend, or the portable code if they decline.
mod run {
    use super::super::dispatch::Kernels;
    use super::super::native::Native;
    use super::super::soft::Soft;
    use super::super::{Set1, Set2, Set3, Set4};
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

    fn keypair_p<P: Params>(
        mode: HashMode,
        b: Backend,
        coins: &[u8; 64],
        pk: &mut [u8],
        sk: &mut [u8],
    ) {
        if Native::keyed(b)
            .compact_keypair::<P>(mode, coins, pk, sk)
            .done()
        {
            return;
        }
        soft_keypair::<P>(mode, coins, pk, sk)
    }

    // The portable versions get frames of their own, so that choosing a vector backend
    // does not also reserve the portable one's stack.
    #[inline(never)]
    fn soft_keypair<P: Params>(mode: HashMode, coins: &[u8; 64], pk: &mut [u8], sk: &mut [u8]) {
        super::keypair::<P, Soft>(Soft, mode, coins, pk, sk)
    }

    #[inline(never)]
    fn soft_encapsulate<P: Params>(
        mode: HashMode,
        pk: &[u8],
        coins: &[u8; 32],
        ct: &mut [u8],
    ) -> [u8; 32] {
        super::encapsulate::<P, Soft>(Soft, mode, pk, coins, ct)
    }

    #[inline(never)]
    fn soft_decapsulate<P: Params>(mode: HashMode, sk: &[u8], ct: &[u8]) -> [u8; 32] {
        super::decapsulate::<P, Soft>(Soft, mode, sk, ct)
    }

    fn encapsulate_p<P: Params>(
        mode: HashMode,
        b: Backend,
        pk: &[u8],
        coins: &[u8; 32],
        ct: &mut [u8],
    ) -> [u8; 32] {
        if let Some(ss) = Native::keyed(b).compact_encapsulate::<P>(mode, pk, coins, ct) {
            return ss;
        }
        soft_encapsulate::<P>(mode, pk, coins, ct)
    }

    fn decapsulate_p<P: Params>(mode: HashMode, b: Backend, sk: &[u8], ct: &[u8]) -> [u8; 32] {
        if let Some(ss) = Native::keyed(b).compact_decapsulate::<P>(mode, sk, ct) {
            return ss;
        }
        soft_decapsulate::<P>(mode, sk, ct)
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::super::x86::stack::peak_stack_bytes;
    use super::super::{Aigis, backends};
    use super::*;

    /// Runs `f` on a fresh thread with a roomy stack and returns its peak stack use.
    fn measure(f: impl FnOnce() + Send + 'static) -> usize {
        std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(move || peak_stack_bytes(256 * 1024, f))
            .unwrap()
            .join()
            .unwrap()
    }

    fn peaks(set: ParamSet, mode: HashMode, backend: Backend, compact: bool) -> [usize; 3] {
        let coins = [0x24u8; 64];
        let (pk, sk) = Aigis::new(set, mode).keypair_from_coins(&coins).unwrap();
        let (ct, _) = Aigis::new(set, mode)
            .encapsulate_from_coins(&pk, &coins[..32])
            .unwrap();
        let (pk2, sk2, ct2) = (pk.clone(), sk.clone(), ct.clone());
        let kg = measure(move || {
            let mut pk = vec![0u8; set.public_key_bytes()];
            let mut sk = vec![0u8; set.secret_key_bytes()];
            if compact {
                let c = AigisCompact::with_backend(set, mode, backend).unwrap();
                c.keypair_into(&coins, &mut pk, &mut sk).unwrap();
            } else {
                let c = Aigis::with_backend(set, mode, backend).unwrap();
                c.keypair_into(&coins, &mut pk, &mut sk).unwrap();
            }
            std::hint::black_box((&pk, &sk));
        });
        let en = measure(move || {
            let mut ct = vec![0u8; set.ciphertext_bytes()];
            let ss = if compact {
                let c = AigisCompact::with_backend(set, mode, backend).unwrap();
                c.encapsulate_into(&pk2, &coins[..32], &mut ct).unwrap()
            } else {
                let c = Aigis::with_backend(set, mode, backend).unwrap();
                c.encapsulate_into(&pk2, &coins[..32], &mut ct).unwrap()
            };
            std::hint::black_box((&ct, ss));
        });
        let de = measure(move || {
            let ss = if compact {
                let c = AigisCompact::with_backend(set, mode, backend).unwrap();
                c.decapsulate(&sk2, &ct2).unwrap()
            } else {
                let c = Aigis::with_backend(set, mode, backend).unwrap();
                c.decapsulate(&sk2, &ct2).unwrap()
            };
            std::hint::black_box(ss);
        });
        [kg, en, de]
    }

    #[test]
    fn compact_mode_peak_stack() {
        for backend in backends() {
            for mode in [HashMode::Shake, HashMode::Sm3] {
                for set in ParamSet::ALL {
                    let c = peaks(set, mode, backend, true);
                    let f = peaks(set, mode, backend, false);
                    println!(
                        "peak stack {} {} {backend}: compact keygen {} encaps {} decaps {} bytes; default {} / {} / {}",
                        set.name(),
                        mode.name(),
                        c[0],
                        c[1],
                        c[2],
                        f[0],
                        f[1],
                        f[2]
                    );
                    assert!(
                        c.iter().all(|&b| b > 1024),
                        "the measurement sees the frames"
                    );
                    if set == ParamSet::Aigis2 {
                        assert!(c.iter().all(|&b| b <= 3840), "Aigis-enc-2 compact: {c:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn compact_equals_default_for_every_set_mode_and_backend() {
        for backend in backends() {
            for mode in [HashMode::Shake, HashMode::Sm3] {
                for set in ParamSet::ALL {
                    let full = Aigis::with_backend(set, mode, backend).unwrap();
                    let small = AigisCompact::with_backend(set, mode, backend).unwrap();
                    for t in 0..3u8 {
                        let coins: [u8; 64] =
                            core::array::from_fn(|i| (i as u8) ^ t.wrapping_mul(77));
                        let (pk, sk) = full.keypair_from_coins(&coins).unwrap();
                        let mut pk2 = vec![0u8; pk.len()];
                        let mut sk2 = vec![0u8; sk.len()];
                        small.keypair_into(&coins, &mut pk2, &mut sk2).unwrap();
                        assert_eq!(pk, pk2);
                        assert_eq!(&sk[..], &sk2[..]);
                        let (ct, ss) = full.encapsulate_from_coins(&pk, &coins[32..]).unwrap();
                        let mut ct2 = vec![0u8; ct.len()];
                        assert_eq!(
                            small.encapsulate_into(&pk, &coins[32..], &mut ct2).unwrap(),
                            ss
                        );
                        assert_eq!(ct, ct2);
                        assert_eq!(small.decapsulate(&sk, &ct).unwrap(), ss);
                        let mut bad = ct.clone();
                        bad[t as usize * 5] ^= 4;
                        assert_eq!(
                            small.decapsulate(&sk, &bad).unwrap(),
                            full.decapsulate(&sk, &bad).unwrap()
                        );
                    }
                }
            }
        }
    }
}
