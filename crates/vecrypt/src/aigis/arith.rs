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
pub trait Arith {
    /// The permutation of the one-state hashes H and G.
    type Keccak: KeccakF;
    /// Forward NTT, bit-reversed output, normal domain.
    fn ntt(p: &mut Poly);
    /// Inverse NTT including the division by 256.
    fn invntt(p: &mut Poly);
    /// r = sum_i a_i * b_i coefficient-wise, for up to four terms.
    fn mul_acc(r: &mut Poly, a: &[Poly], b: &[Poly]);
    /// Â (or Âᵀ when `transposed`): entry `[i][j]` = Parse(XOF(ρ ‖ i ‖ j)), or ρ ‖ j ‖ i.
    /// Coefficients in [0, q).
    fn gen_matrix(
        mode: HashMode,
        rho: &[u8; SEED_BYTES],
        k: usize,
        transposed: bool,
        a: &mut Matrix,
    );
    /// Row i of Â (or of Âᵀ), for the compact variant that never holds the whole matrix.
    fn gen_row(
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
        mode: HashMode,
        rho: &[u8; SEED_BYTES],
        k: usize,
        transposed: bool,
        a: &mut Matrix,
        hashes: &mut [(&[u8], &mut [u8; SEED_BYTES])],
    ) {
        default_matrix_and_hashes::<Self>(mode, rho, k, transposed, a, hashes)
    }
    /// `out[i] = CBD_{etas[i]}(PRF(seed, i))` for every i < etas.len(): the nonces of one
    /// operation are always 0, 1, 2, ...
    fn noise(mode: HashMode, seed: &[u8; SEED_BYTES], etas: &[usize], out: &mut [Poly]);
    /// Every coefficient to its representative in [0, q) (any i16 input).
    #[inline(always)]
    fn freeze(p: &mut Poly) {
        p.freeze();
    }
    /// A secret-key polynomial: 13-bit values (a malformed key may hold up to 8191),
    /// unpacked and reduced below q in absolute value.
    #[inline(always)]
    fn unpack_sk(p: &mut Poly, bytes: &[u8]) {
        super::poly::unpack13(p, bytes);
        for x in p.0.iter_mut() {
            *x = super::reduce::barrett_reduce(*x);
        }
    }
    /// Compress_d of canonical coefficients, packed at d bits.
    fn compress(out: &mut [u8], p: &Poly, d: usize);
    /// Unpack d-bit values and decompress (result in [0, q)).
    fn decompress(p: &mut Poly, bytes: &[u8], d: usize);
}

/// [`Arith::matrix_and_hashes`] one after the other.
#[inline(always)]
pub fn default_matrix_and_hashes<A: Arith + ?Sized>(
    mode: HashMode,
    rho: &[u8; SEED_BYTES],
    k: usize,
    transposed: bool,
    a: &mut Matrix,
    hashes: &mut [(&[u8], &mut [u8; SEED_BYTES])],
) {
    for (input, out) in hashes.iter_mut() {
        **out = hash_h_by::<A::Keccak>(mode, &[input]);
    }
    A::gen_matrix(mode, rho, k, transposed, a);
}
