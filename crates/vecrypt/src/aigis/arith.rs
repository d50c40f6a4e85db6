//! What a backend provides: the polynomial arithmetic and the batched sampling. The scheme
//! itself (`indcpa`, `kem`) is written once, generic over this trait, and each backend
//! instantiates it inside one function compiled for its CPU features.

use super::hash::{HashMode, KeccakF, hash_h_by};
use super::params::{MAX_K, SEED_BYTES};
use super::poly::Poly;

/// A k x k matrix of polynomials in the NTT domain (only the top-left k x k is used).
pub type Matrix = [[Poly; MAX_K]; MAX_K];

/// Coefficient ranges: every function accepts and returns coefficients of absolute value
/// below q unless it says otherwise.
///
/// A value of an implementing type is the proof that the CPU runs the backend: each SIMD
/// backend's type is only made by a function compiled for that backend's features, so the
/// compiler checks every place that can create one.
pub trait Arith: Copy {
    /// The permutation of the one-state hashes H and G.
    type Keccak: KeccakF;
    /// That permutation, on this backend.
    fn keccak(self) -> Self::Keccak;
    /// Forward NTT, bit-reversed output, normal domain.
    fn ntt(self, p: &mut Poly);
    /// Inverse NTT including the division by 256.
    fn invntt(self, p: &mut Poly);
    /// r = sum_i a_i * b_i coefficient-wise, for up to four terms.
    fn mul_acc(self, r: &mut Poly, a: &[Poly], b: &[Poly]);
    /// acc = acc + a * b coefficient-wise, modulo q (|acc| < q before and after; the
    /// portable code returns representatives of absolute value below 0.505 q): the compact
    /// variant's product, one term at a time.
    #[inline(always)]
    fn mul_add(self, acc: &mut Poly, a: &Poly, b: &Poly) {
        super::compact::mul_add(acc, a, b);
    }
    /// Â (or Âᵀ when `transposed`): entry `[i][j]` = Parse(XOF(ρ ‖ i ‖ j)), or ρ ‖ j ‖ i.
    /// Coefficients in [0, q).
    fn gen_matrix(
        self,
        mode: HashMode,
        rho: &[u8; SEED_BYTES],
        k: usize,
        transposed: bool,
        a: &mut Matrix,
    );
    /// Row i of Â (or of Âᵀ), for the compact variant that never holds the whole matrix.
    fn gen_row(
        self,
        mode: HashMode,
        rho: &[u8; SEED_BYTES],
        k: usize,
        i: usize,
        transposed: bool,
        row: &mut [Poly; MAX_K],
    );
    /// [`Arith::gen_matrix`], and H of each `hashes[i].0` into `hashes[i].1` (at most
    /// two): the hashes of one operation that do not depend on the matrix, which a
    /// multi-lane backend computes beside it.
    #[inline(always)]
    fn matrix_and_hashes(
        self,
        mode: HashMode,
        rho: &[u8; SEED_BYTES],
        k: usize,
        transposed: bool,
        a: &mut Matrix,
        hashes: &mut [(&[u8], &mut [u8; SEED_BYTES])],
    ) {
        default_matrix_and_hashes(self, mode, rho, k, transposed, a, hashes)
    }
    /// Âᵀ with the hashes, as [`Arith::matrix_and_hashes`], and the noise `noise` asks
    /// for, as [`Arith::noise`]: decapsulation knows the seed of its re-encryption's noise
    /// before it needs the matrix, so a multi-lane backend can fill its lanes with both.
    #[inline(always)]
    fn transposed_matrix_noise_and_hashes(
        self,
        mode: HashMode,
        rho: &[u8; SEED_BYTES],
        k: usize,
        at: &mut Matrix,
        noise: NoiseRequest<'_>,
        hashes: &mut [(&[u8], &mut [u8; SEED_BYTES])],
    ) {
        self.matrix_and_hashes(mode, rho, k, true, at, hashes);
        self.noise(mode, noise.seed, noise.etas, noise.out);
    }
    /// `out[i] = CBD_{etas[i]}(PRF(seed, i))` for every i < etas.len(): the nonces of one
    /// operation are always 0, 1, 2, ...
    fn noise(self, mode: HashMode, seed: &[u8; SEED_BYTES], etas: &[usize], out: &mut [Poly]);
    /// Every coefficient to its representative in [0, q) (any i16 input).
    #[inline(always)]
    fn freeze(self, p: &mut Poly) {
        p.freeze();
    }
    /// A secret-key polynomial: 13-bit values (a malformed key may hold up to 8191),
    /// unpacked and reduced below q in absolute value.
    #[inline(always)]
    fn unpack_sk(self, p: &mut Poly, bytes: &[u8]) {
        super::poly::unpack13(p, bytes);
        for x in p.0.iter_mut() {
            *x = super::reduce::barrett_reduce(*x);
        }
    }
    /// Compress_d of canonical coefficients, packed at d bits.
    fn compress(self, out: &mut [u8], p: &Poly, d: usize);
    /// Unpack d-bit values and decompress (result in [0, q)).
    fn decompress(self, p: &mut Poly, bytes: &[u8], d: usize);
}

/// The arguments of one [`Arith::noise`] call: `out[i] = CBD_{etas[i]}(PRF(seed, i))`.
pub struct NoiseRequest<'a> {
    pub seed: &'a [u8; SEED_BYTES],
    pub etas: &'a [usize],
    pub out: &'a mut [Poly],
}

/// [`Arith::matrix_and_hashes`] one after the other.
#[inline(always)]
pub fn default_matrix_and_hashes<A: Arith>(
    arith: A,
    mode: HashMode,
    rho: &[u8; SEED_BYTES],
    k: usize,
    transposed: bool,
    a: &mut Matrix,
    hashes: &mut [(&[u8], &mut [u8; SEED_BYTES])],
) {
    for (input, out) in hashes.iter_mut() {
        **out = hash_h_by(arith.keccak(), mode, &[input]);
    }
    arith.gen_matrix(mode, rho, k, transposed, a);
}
