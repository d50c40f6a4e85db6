//! One function of the scheme alone, repeated, to time how an operation's cost splits
//! among the NTT, the products, the sampling and the compression (the per-function table of
//! the Aigis-enc implementation paper). The inputs are fixed pseudo-random values, not keys.

use core::hint::black_box;

use super::arith::{Arith, Matrix};
use super::dispatch::Kernels;
use super::hash::HashMode;
use super::native::Native;
use super::params::{MAX_K, N, Params, Q, SEED_BYTES};
use super::poly::Poly;
use super::sponge::{KeccakF, ScalarKeccak, keccak_f1600, read_lane, xor_lane};

/// A function of Aigis-enc, for [`super::Aigis::run_kernel_part`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum KernelPart {
    /// The forward NTT of one polynomial.
    Ntt,
    /// The inverse NTT of one polynomial, with the division by 256.
    InvNtt,
    /// One row of a matrix-vector product in the NTT domain: k pointwise products, summed.
    Product,
    /// The whole matrix Â (k² polynomials) expanded from its seed, in the hash mode.
    Matrix,
    /// The noise of key generation (k secret and k error polynomials), in the hash mode.
    Noise,
    /// Compression of one ciphertext polynomial to d_u bits per coefficient, packed.
    Compress,
    /// Unpacking and decompression of one ciphertext polynomial of d_u bits.
    Decompress,
}

impl KernelPart {
    /// Every part, in the order of the table.
    pub const ALL: [KernelPart; 7] = [
        KernelPart::Ntt,
        KernelPart::InvNtt,
        KernelPart::Product,
        KernelPart::Matrix,
        KernelPart::Noise,
        KernelPart::Compress,
        KernelPart::Decompress,
    ];

    /// The part's short name: `ntt`, `invntt`, `product`, `matrix`, `noise`, `compress`,
    /// `decompress`.
    pub fn name(self) -> &'static str {
        match self {
            KernelPart::Ntt => "ntt",
            KernelPart::InvNtt => "invntt",
            KernelPart::Product => "product",
            KernelPart::Matrix => "matrix",
            KernelPart::Noise => "noise",
            KernelPart::Compress => "compress",
            KernelPart::Decompress => "decompress",
        }
    }

    /// Whether the part depends on the hash mode (the matrix and the noise).
    pub fn hashes(self) -> bool {
        matches!(self, KernelPart::Matrix | KernelPart::Noise)
    }
}

/// A polynomial of fixed pseudo-random coefficients in [0, q), one per `salt`.
fn filled(salt: u32) -> Poly {
    let mut s = salt.wrapping_mul(0x9e37_79b9) | 1;
    let mut p = Poly::default();
    for x in p.0.iter_mut() {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        *x = (s % Q as u32) as i16;
    }
    p
}

/// FNV-1a over 16-bit values.
fn fnv(values: impl Iterator<Item = u16>) -> u32 {
    values.fold(0x811c_9dc5, |h, x| (h ^ x as u32).wrapping_mul(0x0100_0193))
}

/// A fingerprint of polynomials as canonical coefficients.
fn fingerprint(polys: &[Poly]) -> u32 {
    fnv(polys.iter().flat_map(|p| {
        let mut p = *p;
        p.freeze();
        p.0.map(|x| x as u16)
    }))
}

/// Runs `part` `iterations` times on `arith` and returns a fingerprint of the last
/// result (the same on every backend: results are compared as canonical values).
#[inline(always)]
pub(super) fn run<P: Params, A: Arith>(
    arith: A,
    mode: HashMode,
    part: KernelPart,
    iterations: u32,
) -> u32 {
    let k = P::K;
    let mut a: [Poly; MAX_K] = core::array::from_fn(|i| filled(i as u32 + 1));
    let b: [Poly; MAX_K] = core::array::from_fn(|i| filled(i as u32 + 11));
    let seed: [u8; SEED_BYTES] = core::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ 0x5c);
    match part {
        KernelPart::Ntt => {
            for _ in 0..iterations {
                arith.ntt(black_box(&mut a[0]));
            }
            fingerprint(&a[..1])
        }
        KernelPart::InvNtt => {
            for _ in 0..iterations {
                arith.invntt(black_box(&mut a[0]));
            }
            fingerprint(&a[..1])
        }
        KernelPart::Product => {
            let mut r = Poly::default();
            for _ in 0..iterations {
                arith.mul_acc(&mut r, black_box(&a[..k]), black_box(&b[..k]));
            }
            fingerprint(&[r])
        }
        KernelPart::Matrix => {
            let mut m: Matrix = Default::default();
            for _ in 0..iterations {
                arith.gen_matrix(mode, black_box(&seed), k, false, &mut m);
                black_box(&mut m);
            }
            fingerprint(m.as_flattened())
        }
        KernelPart::Noise => {
            let mut etas = [0usize; 2 * MAX_K];
            for (i, e) in etas[..2 * k].iter_mut().enumerate() {
                *e = if i < k { P::ETA_S } else { P::ETA_E };
            }
            let mut out = [Poly::default(); 2 * MAX_K];
            for _ in 0..iterations {
                arith.noise(mode, black_box(&seed), &etas[..2 * k], &mut out[..2 * k]);
                black_box(&mut out);
            }
            fingerprint(&out[..2 * k])
        }
        KernelPart::Compress => {
            let mut bytes = [0u8; N * 16 / 8];
            let out = &mut bytes[..N * P::D_U / 8];
            for _ in 0..iterations {
                arith.compress(out, black_box(&a[0]), P::D_U);
                black_box(&mut *out);
            }
            fnv(out.iter().map(|&x| x as u16))
        }
        KernelPart::Decompress => {
            let bytes: [u8; N * 16 / 8] = core::array::from_fn(|i| (i as u8).wrapping_mul(73));
            for _ in 0..iterations {
                arith.decompress(&mut a[0], black_box(&bytes[..N * P::D_U / 8]), P::D_U);
                black_box(&mut a[0]);
            }
            fingerprint(&a[..1])
        }
    }
}

/// Keccak-f\[1600\] `iterations` times on `state`: the permutation of this build's sponges
/// (`portable = false`; the assembly one on Thumb-2 Arm cores, in the sponge's form of the
/// lanes, converted once before and once after) or the portable one on 64-bit words, to
/// compare the two and count their instructions.
pub fn run_keccak(portable: bool, state: &mut [u64; 25], iterations: u32) {
    if portable {
        for _ in 0..iterations {
            keccak_f1600(black_box(&mut *state));
        }
        return;
    }
    let mut form = [0u64; 25];
    for (i, &x) in state.iter().enumerate() {
        xor_lane(&mut form, i, x);
    }
    for _ in 0..iterations {
        ScalarKeccak.permute(black_box(&mut form));
    }
    for (i, w) in state.iter_mut().enumerate() {
        *w = read_lane(&form, i);
    }
}

/// Keccak-f\[1600\] on eight states at once `iterations` times, on the eight-lane AVX-512
/// permutation of the SHAKE lanes; false, doing nothing, where it cannot run (other CPUs,
/// other architectures).
pub fn run_keccak_x8(states: &mut [[u64; 25]; 8], iterations: u32) -> bool {
    Native::keccak_x8(states, iterations).done()
}

/// Keccak-f\[1600\] on four states at once `iterations` times, on the four-lane AVX2
/// permutation of the SHAKE lanes; false, doing nothing, where it cannot run (other CPUs,
/// other architectures).
pub fn run_keccak_x4(states: &mut [[u64; 25]; 4], iterations: u32) -> bool {
    Native::keccak_x4(states, iterations).done()
}
