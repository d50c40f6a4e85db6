//! The portable backend: plain Rust, constant time, the reference for every other backend.

use super::arith::{Arith, Matrix};
use super::cbd::{cbd, noise_bytes};
use super::compress::{compress_poly, decompress_poly};
use super::hash::{HashMode, prf};
use super::ntt;
use super::params::{MAX_K, SEED_BYTES};
use super::poly::Poly;
use super::sampling::parse_exact;

/// The portable backend.
#[derive(Clone, Copy)]
pub struct Soft;

impl Arith for Soft {
    type Keccak = super::hash::ScalarKeccak;

    #[inline(always)]
    fn keccak(self) -> Self::Keccak {
        super::hash::ScalarKeccak
    }

    #[inline(always)]
    fn ntt(self, p: &mut Poly) {
        ntt::ntt(p);
    }

    #[inline(always)]
    fn invntt(self, p: &mut Poly) {
        ntt::invntt(p);
    }

    #[inline(always)]
    fn mul_acc(self, r: &mut Poly, a: &[Poly], b: &[Poly]) {
        ntt::mul_acc(r, a, b);
    }

    #[inline(always)]
    fn gen_matrix(
        self,
        mode: HashMode,
        rho: &[u8; SEED_BYTES],
        k: usize,
        transposed: bool,
        a: &mut Matrix,
    ) {
        for (i, row) in a.iter_mut().enumerate().take(k) {
            self.gen_row(mode, rho, k, i, transposed, row);
        }
    }

    #[inline(always)]
    fn gen_row(
        self,
        mode: HashMode,
        rho: &[u8; SEED_BYTES],
        k: usize,
        i: usize,
        transposed: bool,
        row: &mut [Poly; MAX_K],
    ) {
        for (j, p) in row.iter_mut().enumerate().take(k) {
            let (x, y) = if transposed { (j, i) } else { (i, j) };
            parse_exact(mode, rho, x as u8, y as u8, p);
        }
    }

    #[inline(always)]
    fn noise(self, mode: HashMode, seed: &[u8; SEED_BYTES], etas: &[usize], out: &mut [Poly]) {
        let mut buf = [0u8; 8 * 256 / 4];
        for (nonce, (&eta, poly)) in etas.iter().zip(out.iter_mut()).enumerate() {
            let n = noise_bytes(eta);
            prf(mode, seed, nonce as u8, &mut buf[..n]);
            cbd(poly, &buf[..n], eta);
        }
        crate::wipe::array(&mut buf);
    }

    #[inline(always)]
    fn compress(self, out: &mut [u8], p: &Poly, d: usize) {
        compress_poly(out, p, d);
    }

    #[inline(always)]
    fn decompress(self, p: &mut Poly, bytes: &[u8], d: usize) {
        decompress_poly(p, bytes, d);
    }
}
