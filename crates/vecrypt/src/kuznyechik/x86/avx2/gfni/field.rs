//! The field arithmetic behind the GFNI kernel, all computed at compile time: the embedding
//! of the decomposition's GF(16) into the AES field, the representations of the state in
//! each direction, and the matrices and tables the kernel loads.

use super::super::tables::{ALPHA, NU0, NU1, OMEGA, PHI, SIGMA, invert16, invert256};
use crate::kuznyechik::consts::{ELL, aes_mul, gf_mul, matrix_of};

/// The byte with the low four bits of `n` as coefficients of 1, β, β², β³, where β is a
/// root of x^4 + x^3 + 1 in the AES field: the embedding E of GF(16) onto the subfield S.
pub(super) const fn embed(n: u8) -> u8 {
    let mut powers = [1u8; 4];
    let mut i = 1;
    while i < 4 {
        powers[i] = aes_mul(powers[i - 1], BETA);
        i += 1;
    }
    let mut v = 0;
    let mut bit = 0;
    while bit < 4 {
        if (n >> bit) & 1 != 0 {
            v ^= powers[bit];
        }
        bit += 1;
    }
    v
}

/// A root of x^4 + x^3 + 1 in the AES field (it lies in S, as every root of an irreducible
/// quartic does).
pub(super) const BETA: u8 = {
    let mut b = 2u16;
    let mut found = 0u8;
    while b < 256 && found == 0 {
        let x = b as u8;
        let x2 = aes_mul(x, x);
        let x3 = aes_mul(x2, x);
        if aes_mul(x3, x) ^ x3 ^ 1 == 0 {
            found = x;
        }
        b += 1;
    }
    found
};

/// The multiplier g of the first coset g·S whose elements have bit 7 clear and distinct low
/// nibbles: such a byte is a VPSHUFB index that identifies the element.
pub(super) const COSET: u8 = {
    let mut g = 2u16;
    let mut found = 0u8;
    while g < 256 && found == 0 {
        let mut seen = 0u16;
        let mut fits = true;
        let mut n = 0;
        while n < 16 {
            let v = aes_mul(g as u8, embed(n));
            if v & 0x80 != 0 || seen & (1 << (v & 15)) != 0 {
                fits = false;
            }
            seen |= 1 << (v & 15);
            n += 1;
        }
        if fits {
            found = g as u8;
        }
        g += 1;
    }
    assert!(found != 0, "some coset of GF(16) indexes VPSHUFB");
    found
};

/// The VPSHUFB index of g·E(n).
pub(super) const fn slot(n: u8) -> usize {
    (aes_mul(COSET, embed(n)) & 15) as usize
}

/// Product in GF(16) modulo x^4 + x^3 + 1.
pub(super) const fn gf16_mul(a: u8, b: u8) -> u8 {
    let mut r = 0;
    let mut bit = 0;
    while bit < 4 {
        if (b >> bit) & 1 != 0 {
            let mut s = a;
            let mut k = 0;
            while k < bit {
                s <<= 1;
                if s & 0x10 != 0 {
                    s ^= 0x19;
                }
                k += 1;
            }
            r ^= s;
        }
        bit += 1;
    }
    r
}

pub(super) const fn gf16_inv(a: u8) -> u8 {
    let mut b = 1;
    while b < 16 {
        if gf16_mul(a, b) == 1 {
            return b;
        }
        b += 1;
    }
    0
}

pub(super) const fn swap_nibbles(v: u8) -> u8 {
    v.rotate_left(4)
}

/// The encryption representation Ť: `Ť(ω(l' ‖ r')) = r' << 4 | l'`.
pub(super) const FORWARD_REP: [u8; 256] = {
    let omega_inv = invert256(&OMEGA);
    let mut t = [0u8; 256];
    let mut v = 0;
    while v < 256 {
        t[v] = swap_nibbles(omega_inv[v]);
        v += 1;
    }
    t
};
pub(super) const FORWARD_REP_INV: [u8; 256] = invert256(&FORWARD_REP);

/// The decryption representation D: `D(α⁻¹(l ‖ r)) = g²·E(l) ⊕ g·E(r)`.
pub(super) const INVERSE_REP: [u8; 256] = {
    let alpha_inv = invert256(&ALPHA);
    let mut t = [0u8; 256];
    let mut v = 0;
    while v < 256 {
        let (l, r) = ((v >> 4) as u8, (v & 15) as u8);
        t[alpha_inv[v] as usize] = aes_mul(COSET_SQUARED, embed(l)) ^ aes_mul(COSET, embed(r));
        v += 1;
    }
    t
};
pub(super) const INVERSE_REP_INV: [u8; 256] = invert256(&INVERSE_REP);

/// The table of `f(rep⁻¹(x))` for a linear `f` given per byte by `select`.
pub(super) const fn from_rep(rep_inv: &[u8; 256], select: u8) -> [u8; 256] {
    let omega_inv = invert256(&OMEGA);
    let mut t = [0u8; 256];
    let mut x = 0;
    while x < 256 {
        let plain = rep_inv[x];
        t[x] = match select {
            // g·E(r) and g·E(l) with (l, r) = α(x).
            0 => aes_mul(COSET, embed(ALPHA[plain as usize] & 15)),
            1 => aes_mul(COSET, embed(ALPHA[plain as usize] >> 4)),
            // l' and r' as plain nibbles, with (l', r') = ω⁻¹(x).
            2 => omega_inv[plain as usize] >> 4,
            _ => omega_inv[plain as usize] & 15,
        };
        x += 1;
    }
    t
}

/// Multiplication by `c` in Kuznyechik's field, seen through a representation.
pub(super) const fn conjugated_mul(rep: &[u8; 256], rep_inv: &[u8; 256], c: u8) -> u64 {
    let mut t = [0u8; 256];
    let mut x = 0;
    while x < 256 {
        t[x] = rep[gf_mul(rep_inv[x], c) as usize];
        x += 1;
    }
    matrix_of(&t)
}

/// The coefficients of the R step, in the order
/// [`step_then_sbox`](super::step_then_sbox) uses them.
pub(super) const COEFFICIENTS: [u8; 7] = [ELL[0], ELL[1], ELL[2], ELL[3], ELL[4], ELL[5], ELL[7]];

pub(super) const fn conjugated_muls(rep: &[u8; 256], rep_inv: &[u8; 256]) -> [u64; 7] {
    let mut m = [0u64; 7];
    let mut c = 0;
    while c < 7 {
        m[c] = conjugated_mul(rep, rep_inv, COEFFICIENTS[c]);
        c += 1;
    }
    m
}

pub(super) const COSET_SQUARED: u8 = aes_mul(COSET, COSET);

/// Multiplication by g as a GF2P8AFFINEQB matrix: GF2P8AFFINEINVQB with it sends g·E(r) to
/// E(r)⁻¹.
pub(super) const TIMES_COSET: u64 = {
    let mut t = [0u8; 256];
    let mut x = 0;
    while x < 256 {
        t[x] = aes_mul(COSET, x as u8);
        x += 1;
    }
    matrix_of(&t)
};

/// `0x80` at every index but zero: looked up by an element of g·S, whose low nibble is zero
/// only for zero, it marks the non-zero ones.
pub(super) const TOP_BIT_UNLESS_ZERO: [u8; 16] = {
    let mut t = [0x80u8; 16];
    t[0] = 0;
    t
};

/// The matrices of one direction.
pub(super) struct Matrices {
    /// Plain bytes into the representation, and back.
    pub(super) to_rep: u64,
    pub(super) from_rep: u64,
    /// The two linear maps at the entry of the S-box, from the representation.
    pub(super) first: u64,
    pub(super) second: u64,
    /// The coefficients of the R step in the representation.
    pub(super) muls: [u64; 7],
}

pub(super) const FORWARD: Matrices = Matrices {
    to_rep: matrix_of(&FORWARD_REP),
    from_rep: matrix_of(&FORWARD_REP_INV),
    first: matrix_of(&from_rep(&FORWARD_REP_INV, 0)),
    second: matrix_of(&from_rep(&FORWARD_REP_INV, 1)),
    muls: conjugated_muls(&FORWARD_REP, &FORWARD_REP_INV),
};

pub(super) const INVERSE: Matrices = Matrices {
    to_rep: matrix_of(&INVERSE_REP),
    from_rep: matrix_of(&INVERSE_REP_INV),
    first: matrix_of(&from_rep(&INVERSE_REP_INV, 2)),
    second: matrix_of(&from_rep(&INVERSE_REP_INV, 3)),
    muls: conjugated_muls(&INVERSE_REP, &INVERSE_REP_INV),
};

/// The VPSHUFB tables of π: `[ν1, ν0 ⊕ ν1(0), E∘φ, σ << 4]`, the first, second and last
/// indexed by elements of g·S, the third by l'.
pub(super) const FORWARD_TABLES: [[u8; 16]; 4] = {
    let mut t = [[0u8; 16]; 4];
    let mut n = 0;
    while n < 16 {
        t[0][slot(n as u8)] = NU1[n];
        t[1][slot(n as u8)] = NU0[n] ^ NU1[0];
        t[2][n] = embed(PHI[n]);
        t[3][slot(n as u8)] = SIGMA[n] << 4;
        n += 1;
    }
    t
};

/// The VPSHUFB tables of π⁻¹: `[g·E∘σ⁻¹, E(φ)⁻¹, g·E∘ν1⁻¹, g²·E∘ν0⁻¹]`, the first indexed
/// by r', the others by l'.
pub(super) const INVERSE_TABLES: [[u8; 16]; 4] = {
    let sigma_inv = invert16(&SIGMA);
    let nu1_inv = invert16(&NU1);
    let nu0_inv = invert16(&NU0);
    let mut t = [[0u8; 16]; 4];
    let mut n = 0;
    while n < 16 {
        t[0][n] = aes_mul(COSET, embed(sigma_inv[n]));
        t[1][n] = embed(gf16_inv(PHI[n]));
        t[2][n] = aes_mul(COSET, embed(nu1_inv[n]));
        t[3][n] = aes_mul(COSET_SQUARED, embed(nu0_inv[n]));
        n += 1;
    }
    t
};
