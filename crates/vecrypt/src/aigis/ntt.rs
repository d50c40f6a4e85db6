//! The full 8-layer negacyclic NTT of Aigis-enc, portable version.
//!
//! psi = 62 is a primitive 512th root of unity mod q, so X^256 + 1 splits into linear
//! factors and products in the NTT domain are coefficient-wise. The forward transform is
//! Cooley-Tukey with bit-reversed output in the normal (not Montgomery) domain: the secret
//! key stores exactly these values, so every backend must produce the same order.

use super::params::{N, Q};
use super::poly::Poly;
use super::reduce::{R2_MOD_Q, barrett_reduce, fqmul, montgomery_reduce};

/// A primitive 512th root of unity mod q.
pub const PSI: i16 = 62;

/// `base^e mod q`, in [0, q).
pub(crate) const fn pow_mod(base: i64, mut e: u32) -> i64 {
    let q = Q as i64;
    let mut b = base.rem_euclid(q);
    let mut r = 1i64;
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % q;
        }
        b = b * b % q;
        e >>= 1;
    }
    r
}

/// `x mod q` as the representative in [-q/2, q/2].
pub(crate) const fn centered(x: i64) -> i16 {
    let q = Q as i64;
    let r = x.rem_euclid(q);
    (if r > q / 2 { r - q } else { r }) as i16
}

const fn bitrev8(x: usize) -> u32 {
    (x as u8).reverse_bits() as u32
}

/// `ZETAS[k] = psi^bitrev8(k) * 2^16 mod q` (centred): the twiddle of butterfly group k, in
/// Montgomery form so that one Montgomery product applies it.
pub const ZETAS: [i16; N] = {
    let mut z = [0i16; N];
    let mut k = 0;
    while k < N {
        z[k] = centered(pow_mod(PSI as i64, bitrev8(k)) * 65536);
        k += 1;
    }
    z
};

/// 256^-1 * 2^16 mod q: the final scaling of the inverse transform, as a Montgomery factor.
pub const INV_N_MONT: i16 = centered(pow_mod(256, 7679) * 65536);

/// Forward NTT. Input coefficients of absolute value below q; output likewise.
pub fn ntt(p: &mut Poly) {
    let a = &mut p.0;
    let mut k = 1;
    let mut len = N / 2;
    while len >= 1 {
        let mut start = 0;
        while start < N {
            let zeta = ZETAS[k];
            k += 1;
            for j in start..start + len {
                let t = fqmul(zeta, a[j + len]);
                a[j + len] = barrett_reduce(a[j] - t);
                a[j] = barrett_reduce(a[j] + t);
            }
            start += 2 * len;
        }
        len >>= 1;
    }
}

/// Inverse NTT (Gentleman-Sande), including the division by 256. Input coefficients of
/// absolute value below q; output likewise.
pub fn invntt(p: &mut Poly) {
    let a = &mut p.0;
    let mut k = N - 1;
    let mut len = 1;
    while len < N {
        let mut start = 0;
        while start < N {
            let zeta = ZETAS[k];
            k -= 1;
            for j in start..start + len {
                let t = a[j];
                a[j] = barrett_reduce(t + a[j + len]);
                a[j + len] = fqmul(zeta, a[j + len] - t);
            }
            start += 2 * len;
        }
        len <<= 1;
    }
    for x in a.iter_mut() {
        *x = fqmul(*x, INV_N_MONT);
    }
}

/// r = sum_i a_i * b_i coefficient-wise (in the normal domain), with |r| < q.
/// Inputs must be below q in absolute value; at most four terms.
pub fn mul_acc(r: &mut Poly, a: &[Poly], b: &[Poly]) {
    for j in 0..N {
        let mut acc: i32 = 0;
        for (x, y) in a.iter().zip(b.iter()) {
            acc += i32::from(x.0[j]) * i32::from(y.0[j]);
        }
        r.0[j] = fqmul(montgomery_reduce(acc), R2_MOD_Q);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aigis::reduce::freeze;

    fn sample(seed: u32) -> Poly {
        let mut s = seed;
        let mut p = Poly::default();
        for x in p.0.iter_mut() {
            s = s.wrapping_mul(1_103_515_245).wrapping_add(12345);
            *x = ((s >> 8) % (2 * Q as u32 - 1)) as i16 - (Q - 1);
        }
        p
    }

    fn schoolbook(a: &Poly, b: &Poly) -> Poly {
        let q = i64::from(Q);
        let mut r = [0i64; N];
        for i in 0..N {
            for j in 0..N {
                let prod = i64::from(a.0[i]) * i64::from(b.0[j]);
                if i + j < N {
                    r[i + j] += prod;
                } else {
                    r[i + j - N] -= prod;
                }
            }
        }
        let mut p = Poly::default();
        for (x, v) in p.0.iter_mut().zip(r.iter()) {
            *x = v.rem_euclid(q) as i16;
        }
        p
    }

    #[test]
    fn tables_match_known_values() {
        assert_eq!(&ZETAS[1..6], &[3777, -3182, 3625, -3696, -1100]);
        assert_eq!(pow_mod(62, 256), 7680);
    }

    #[test]
    fn inverse_undoes_forward() {
        for seed in 0..8 {
            let a = sample(seed);
            let mut b = a;
            ntt(&mut b);
            assert!(b.0.iter().all(|x| x.abs() < Q));
            invntt(&mut b);
            assert!(b.0.iter().all(|x| x.abs() < Q));
            for (x, y) in a.0.iter().zip(b.0.iter()) {
                assert_eq!(freeze(*x), freeze(*y));
            }
        }
    }

    #[test]
    fn pointwise_product_is_negacyclic_multiplication() {
        let a = sample(1);
        let b = sample(2);
        let (mut ah, mut bh) = (a, b);
        ntt(&mut ah);
        ntt(&mut bh);
        let mut r = Poly::default();
        mul_acc(&mut r, &[ah], &[bh]);
        invntt(&mut r);
        r.freeze();
        assert_eq!(r, schoolbook(&a, &b));
    }

    #[test]
    fn forward_transform_evaluates_at_odd_powers_in_bit_reversed_order() {
        let a = sample(3);
        let mut ah = a;
        ntt(&mut ah);
        let q = i64::from(Q);
        for i in [0usize, 1, 77, 255] {
            let root = pow_mod(i64::from(PSI), 2 * bitrev8(i) + 1);
            let mut acc = 0i64;
            let mut x = 1i64;
            for c in a.0.iter() {
                acc = (acc + i64::from(*c) * x).rem_euclid(q);
                x = x * root % q;
            }
            assert_eq!(i64::from(freeze(ah.0[i])), acc, "index {i}");
        }
    }
}
