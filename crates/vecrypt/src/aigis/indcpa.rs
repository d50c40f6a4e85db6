//! The CPA-secure public-key encryption underneath the KEM, generic over the backend.
//!
//! Differences from Kyber that matter for byte-exactness: `Â[i][j]` comes from ρ ‖ i ‖ j;
//! the public key holds t compressed in the normal domain (encryption runs k extra NTTs);
//! the message is subtracted from v (bit 1 encodes as (q + 1) / 2); secrets and errors use
//! different binomial widths.

use super::arith::{Arith, Matrix};
use super::compress::to_msg;
use super::hash::{HashMode, KeccakF, hash_g_by};
use super::params::{MAX_K, N, POLY_BYTES, Params, SEED_BYTES};
use super::poly::{Poly, from_msg, pack13, wipe_polys};

/// The most noise polynomials one operation samples (2k + 1).
pub const MAX_NOISE: usize = 2 * MAX_K + 1;

/// Polynomials that hold secrets, wiped on drop.
pub struct Secret<const M: usize>(pub [Poly; M]);

impl<const M: usize> Default for Secret<M> {
    fn default() -> Self {
        Secret([Poly::default(); M])
    }
}

impl<const M: usize> Drop for Secret<M> {
    fn drop(&mut self) {
        wipe_polys(&mut self.0);
    }
}

/// Widths of the noise polynomials by nonce: `k` of `first`, then `second` up to `count`.
#[inline(always)]
pub fn widths(k: usize, first: usize, second: usize) -> [usize; MAX_NOISE] {
    core::array::from_fn(|i| if i < k { first } else { second })
}

/// (ρ, σ) = G(d).
#[inline(always)]
pub fn expand_seed<K: KeccakF>(
    k: K,
    mode: HashMode,
    d: &[u8; SEED_BYTES],
) -> ([u8; SEED_BYTES], Secret32) {
    let mut g = hash_g_by(k, mode, d);
    let mut rho = [0u8; SEED_BYTES];
    rho.copy_from_slice(&g[..SEED_BYTES]);
    let mut sigma = Secret32([0; SEED_BYTES]);
    sigma.0.copy_from_slice(&g[SEED_BYTES..]);
    crate::wipe::array(&mut g);
    (rho, sigma)
}

/// 32 secret bytes, wiped on drop.
pub struct Secret32(pub [u8; SEED_BYTES]);

impl Drop for Secret32 {
    fn drop(&mut self) {
        crate::wipe::array(&mut self.0);
    }
}

/// Key generation from the first 32 coins: writes the public key and the packed NTT(s).
#[inline(always)]
pub fn keypair<P: Params, A: Arith>(
    arith: A,
    mode: HashMode,
    d: &[u8; SEED_BYTES],
    pk: &mut [u8],
    sk_poly: &mut [u8],
) {
    let k = P::K;
    let (rho, sigma) = expand_seed(arith.keccak(), mode, d);
    let mut a: Matrix = Default::default();
    arith.gen_matrix(mode, &rho, k, false, &mut a);
    let mut noise = Secret::<MAX_NOISE>::default();
    arith.noise(
        mode,
        &sigma.0,
        &widths(k, P::ETA_S, P::ETA_E)[..2 * k],
        &mut noise.0[..2 * k],
    );
    let (s, e) = noise.0.split_at_mut(k);
    for p in s.iter_mut() {
        arith.ntt(p);
    }
    let mut t = Poly::default();
    for i in 0..k {
        arith.mul_acc(&mut t, &a[i][..k], s);
        arith.invntt(&mut t);
        t.add_assign(&e[i]);
        arith.freeze(&mut t);
        arith.compress(
            &mut pk[i * N * P::D_T / 8..(i + 1) * N * P::D_T / 8],
            &t,
            P::D_T,
        );
    }
    pk[P::PK_POLYVEC_BYTES..P::PK_BYTES].copy_from_slice(&rho);
    for (i, p) in s.iter_mut().enumerate() {
        arith.freeze(p);
        pack13(&mut sk_poly[i * POLY_BYTES..(i + 1) * POLY_BYTES], p);
    }
    wipe_polys(core::slice::from_mut(&mut t));
}

/// The matrix seed ρ at the end of a public key.
#[inline(always)]
pub fn rho_of<P: Params>(pk: &[u8]) -> [u8; SEED_BYTES] {
    let mut rho = [0u8; SEED_BYTES];
    rho.copy_from_slice(&pk[P::PK_POLYVEC_BYTES..P::PK_BYTES]);
    rho
}

/// Encryption of the 32-byte message `m` under `pk` with randomness `coins`, given Âᵀ
/// generated from the ρ of `pk`.
#[inline(always)]
pub fn encrypt_with_matrix<P: Params, A: Arith>(
    arith: A,
    mode: HashMode,
    pk: &[u8],
    at: &Matrix,
    m: &[u8; SEED_BYTES],
    coins: &[u8; SEED_BYTES],
    ct: &mut [u8],
) {
    let k = P::K;
    let mut noise = Secret::<MAX_NOISE>::default();
    arith.noise(
        mode,
        coins,
        &encryption_widths::<P>()[..2 * k + 1],
        &mut noise.0[..2 * k + 1],
    );
    encrypt_with_noise::<P, A>(arith, pk, at, m, &mut noise, ct);
}

/// The binomial widths of encryption's noise r, e1 and e2 (nonces 0 to 2k).
#[inline(always)]
pub fn encryption_widths<P: Params>() -> [usize; MAX_NOISE] {
    widths(P::K, P::ETA_S, P::ETA_E)
}

/// [`encrypt_with_matrix`] with its noise (r, e1, e2 for nonces 0 to 2k) already sampled.
#[inline(always)]
pub fn encrypt_with_noise<P: Params, A: Arith>(
    arith: A,
    pk: &[u8],
    at: &Matrix,
    m: &[u8; SEED_BYTES],
    noise: &mut Secret<MAX_NOISE>,
    ct: &mut [u8],
) {
    let k = P::K;
    let mut that = [Poly::default(); MAX_K];
    for (i, p) in that.iter_mut().enumerate().take(k) {
        arith.decompress(p, &pk[i * N * P::D_T / 8..(i + 1) * N * P::D_T / 8], P::D_T);
        arith.ntt(p);
    }
    let (r, errors) = noise.0.split_at_mut(k);
    for p in r.iter_mut() {
        arith.ntt(p);
    }
    let mut u = Secret::<1>::default();
    for i in 0..k {
        arith.mul_acc(&mut u.0[0], &at[i][..k], r);
        arith.invntt(&mut u.0[0]);
        u.0[0].add_assign(&errors[i]);
        arith.freeze(&mut u.0[0]);
        arith.compress(
            &mut ct[i * N * P::D_U / 8..(i + 1) * N * P::D_U / 8],
            &u.0[0],
            P::D_U,
        );
    }
    let mut v = Secret::<2>::default();
    arith.mul_acc(&mut v.0[0], &that[..k], r);
    arith.invntt(&mut v.0[0]);
    v.0[0].add_assign(&errors[k]);
    from_msg(&mut v.0[1], m);
    let [v0, v1] = &mut v.0;
    v0.sub_assign(v1);
    arith.freeze(v0);
    arith.compress(&mut ct[P::CT_U_BYTES..P::CT_BYTES], v0, P::D_V);
}

/// Decryption: the message bits of `ct` under the packed NTT(s).
#[inline(always)]
pub fn decrypt<P: Params, A: Arith>(arith: A, sk_poly: &[u8], ct: &[u8], m: &mut [u8; SEED_BYTES]) {
    let k = P::K;
    let mut s = Secret::<MAX_K>::default();
    for (i, p) in s.0.iter_mut().enumerate().take(k) {
        arith.unpack_sk(p, &sk_poly[i * POLY_BYTES..(i + 1) * POLY_BYTES]);
    }
    let mut u = [Poly::default(); MAX_K];
    for (i, p) in u.iter_mut().enumerate().take(k) {
        arith.decompress(p, &ct[i * N * P::D_U / 8..(i + 1) * N * P::D_U / 8], P::D_U);
        arith.ntt(p);
    }
    let mut x = Secret::<2>::default();
    arith.mul_acc(&mut x.0[0], &s.0[..k], &u[..k]);
    arith.invntt(&mut x.0[0]);
    arith.decompress(&mut x.0[1], &ct[P::CT_U_BYTES..P::CT_BYTES], P::D_V);
    let [x0, x1] = &mut x.0;
    x0.sub_assign(x1);
    arith.freeze(x0);
    to_msg(m, x0);
}
