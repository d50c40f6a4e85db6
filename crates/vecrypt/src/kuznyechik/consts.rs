//! The constants of GOST R 34.12-2015 (Kuznyechik), and the tables derived from them at
//! compile time. Everything here is public data; none of it is indexed by secrets outside
//! the table-driven comparison backend.

/// The S-box π (RFC 7801, section 4.1.1).
pub(crate) const PI: [u8; 256] = [
    0xfc, 0xee, 0xdd, 0x11, 0xcf, 0x6e, 0x31, 0x16, 0xfb, 0xc4, 0xfa, 0xda, 0x23, 0xc5, 0x04, 0x4d,
    0xe9, 0x77, 0xf0, 0xdb, 0x93, 0x2e, 0x99, 0xba, 0x17, 0x36, 0xf1, 0xbb, 0x14, 0xcd, 0x5f, 0xc1,
    0xf9, 0x18, 0x65, 0x5a, 0xe2, 0x5c, 0xef, 0x21, 0x81, 0x1c, 0x3c, 0x42, 0x8b, 0x01, 0x8e, 0x4f,
    0x05, 0x84, 0x02, 0xae, 0xe3, 0x6a, 0x8f, 0xa0, 0x06, 0x0b, 0xed, 0x98, 0x7f, 0xd4, 0xd3, 0x1f,
    0xeb, 0x34, 0x2c, 0x51, 0xea, 0xc8, 0x48, 0xab, 0xf2, 0x2a, 0x68, 0xa2, 0xfd, 0x3a, 0xce, 0xcc,
    0xb5, 0x70, 0x0e, 0x56, 0x08, 0x0c, 0x76, 0x12, 0xbf, 0x72, 0x13, 0x47, 0x9c, 0xb7, 0x5d, 0x87,
    0x15, 0xa1, 0x96, 0x29, 0x10, 0x7b, 0x9a, 0xc7, 0xf3, 0x91, 0x78, 0x6f, 0x9d, 0x9e, 0xb2, 0xb1,
    0x32, 0x75, 0x19, 0x3d, 0xff, 0x35, 0x8a, 0x7e, 0x6d, 0x54, 0xc6, 0x80, 0xc3, 0xbd, 0x0d, 0x57,
    0xdf, 0xf5, 0x24, 0xa9, 0x3e, 0xa8, 0x43, 0xc9, 0xd7, 0x79, 0xd6, 0xf6, 0x7c, 0x22, 0xb9, 0x03,
    0xe0, 0x0f, 0xec, 0xde, 0x7a, 0x94, 0xb0, 0xbc, 0xdc, 0xe8, 0x28, 0x50, 0x4e, 0x33, 0x0a, 0x4a,
    0xa7, 0x97, 0x60, 0x73, 0x1e, 0x00, 0x62, 0x44, 0x1a, 0xb8, 0x38, 0x82, 0x64, 0x9f, 0x26, 0x41,
    0xad, 0x45, 0x46, 0x92, 0x27, 0x5e, 0x55, 0x2f, 0x8c, 0xa3, 0xa5, 0x7d, 0x69, 0xd5, 0x95, 0x3b,
    0x07, 0x58, 0xb3, 0x40, 0x86, 0xac, 0x1d, 0xf7, 0x30, 0x37, 0x6b, 0xe4, 0x88, 0xd9, 0xe7, 0x89,
    0xe1, 0x1b, 0x83, 0x49, 0x4c, 0x3f, 0xf8, 0xfe, 0x8d, 0x53, 0xaa, 0x90, 0xca, 0xd8, 0x85, 0x61,
    0x20, 0x71, 0x67, 0xa4, 0x2d, 0x2b, 0x09, 0x5b, 0xcb, 0x9b, 0x25, 0xd0, 0xbe, 0xe5, 0x6c, 0x52,
    0x59, 0xa6, 0x74, 0xd2, 0xe6, 0xf4, 0xb4, 0xc0, 0xd1, 0x66, 0xaf, 0xc2, 0x39, 0x4b, 0x63, 0xb6,
];

/// π⁻¹.
pub(crate) const PI_INV: [u8; 256] = {
    let mut inv = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        inv[PI[i] as usize] = i as u8;
        i += 1;
    }
    inv
};

/// The coefficients of ℓ for memory bytes 0..16 (a15 first). Positions 0..15 read the same
/// backwards, which the SIMD backends use to halve the multiplications.
pub(crate) const ELL: [u8; 16] = [
    148, 32, 133, 16, 194, 192, 1, 251, 1, 192, 194, 16, 133, 32, 148, 1,
];

/// Multiplication in GF(2^8) mod x^8 + x^7 + x^6 + x + 1, for compile-time tables only
/// (it branches on its operands).
pub(crate) const fn gf_mul(mut a: u8, mut b: u8) -> u8 {
    let mut r = 0u8;
    while b != 0 {
        if b & 1 != 0 {
            r ^= a;
        }
        let carry = a & 0x80 != 0;
        a <<= 1;
        if carry {
            a ^= 0xc3;
        }
        b >>= 1;
    }
    r
}

/// One R step on a block in memory order: shift towards the end, ℓ enters at byte 0.
pub(crate) const fn r_step(b: [u8; 16]) -> [u8; 16] {
    let mut t = 0u8;
    let mut k = 0;
    while k < 16 {
        t ^= gf_mul(b[k], ELL[k]);
        k += 1;
    }
    let mut out = [0u8; 16];
    out[0] = t;
    let mut k = 1;
    while k < 16 {
        out[k] = b[k - 1];
        k += 1;
    }
    out
}

/// One R⁻¹ step: shift towards the start, ℓ of the rotated block enters at byte 15.
pub(crate) const fn r_inv_step(b: [u8; 16]) -> [u8; 16] {
    let mut t = b[0];
    let mut k = 0;
    while k < 15 {
        t ^= gf_mul(b[k + 1], ELL[k]);
        k += 1;
    }
    let mut out = [0u8; 16];
    let mut k = 0;
    while k < 15 {
        out[k] = b[k + 1];
        k += 1;
    }
    out[15] = t;
    out
}

/// L = R^16 on a block in memory order.
pub(crate) const fn l_const(mut b: [u8; 16]) -> [u8; 16] {
    let mut i = 0;
    while i < 16 {
        b = r_step(b);
        i += 1;
    }
    b
}

/// L⁻¹ = (R⁻¹)^16.
pub(crate) const fn l_inv_const(mut b: [u8; 16]) -> [u8; 16] {
    let mut i = 0;
    while i < 16 {
        b = r_inv_step(b);
        i += 1;
    }
    b
}

/// The image of every input bit under a linear map of blocks: `cols[j]` is the map applied to
/// the block whose big-endian integer is `1 << j`.
const fn bit_columns(inverse: bool) -> [u128; 128] {
    let mut cols = [0u128; 128];
    let mut j = 0;
    while j < 128 {
        let unit = (1u128 << j).to_be_bytes();
        let image = if inverse {
            l_inv_const(unit)
        } else {
            l_const(unit)
        };
        cols[j] = u128::from_be_bytes(image);
        j += 1;
    }
    cols
}

/// L as 128 columns over GF(2), for the portable backend.
pub(crate) const L_COLUMNS: [u128; 128] = bit_columns(false);
/// L⁻¹ as 128 columns over GF(2).
pub(crate) const L_INV_COLUMNS: [u128; 128] = bit_columns(true);

/// The key-schedule constants C_1..C_32, C_i = L(Vec128(i)), in memory order.
pub(crate) const ROUND_CONSTANTS: [[u8; 16]; 32] = {
    let mut c = [[0u8; 16]; 32];
    let mut i = 0;
    while i < 32 {
        let mut v = [0u8; 16];
        v[15] = (i + 1) as u8;
        c[i] = l_const(v);
        i += 1;
    }
    c
};

/// The 8x8 bit matrix, in the layout GF2P8AFFINEQB takes, that multiplies a byte by `c` in
/// Kuznyechik's field. Row `7 - i` of the qword (byte `i`) gives output bit `i` as a mask of
/// input bits.
pub(crate) const fn affine_matrix(c: u8) -> u64 {
    let mut m = 0u64;
    let mut out_bit = 0;
    while out_bit < 8 {
        let mut row = 0u8;
        let mut in_bit = 0;
        while in_bit < 8 {
            if gf_mul(1 << in_bit, c) >> out_bit & 1 != 0 {
                row |= 1 << in_bit;
            }
            in_bit += 1;
        }
        m |= (row as u64) << (8 * (7 - out_bit));
        out_bit += 1;
    }
    m
}

/// Multiplication in the AES field, GF(2^8) mod x^8 + x^4 + x^3 + x + 1, for compile-time
/// tables only.
pub(crate) const fn aes_mul(mut a: u8, mut b: u8) -> u8 {
    let mut r = 0u8;
    while b != 0 {
        if b & 1 != 0 {
            r ^= a;
        }
        let carry = a & 0x80 != 0;
        a <<= 1;
        if carry {
            a ^= 0x1b;
        }
        b >>= 1;
    }
    r
}

/// A root of Kuznyechik's field polynomial x^8 + x^7 + x^6 + x + 1 inside the AES field.
/// Sending x to it is a field isomorphism φ, under which every multiplication of L becomes
/// one GF2P8MULB.
const BETA: u8 = {
    let mut b = 2u16;
    let mut found = 0u8;
    while b < 256 && found == 0 {
        let x = b as u8;
        let mut powers = [1u8; 9];
        let mut i = 1;
        while i < 9 {
            powers[i] = aes_mul(powers[i - 1], x);
            i += 1;
        }
        if powers[8] ^ powers[7] ^ powers[6] ^ powers[1] ^ powers[0] == 0 {
            found = x;
        }
        b += 1;
    }
    found
};

/// φ on every byte.
pub(crate) const PHI: [u8; 256] = {
    let mut basis = [1u8; 8];
    let mut i = 1;
    while i < 8 {
        basis[i] = aes_mul(basis[i - 1], BETA);
        i += 1;
    }
    let mut t = [0u8; 256];
    let mut a = 0;
    while a < 256 {
        let mut v = 0u8;
        let mut bit = 0;
        while bit < 8 {
            if (a >> bit) & 1 != 0 {
                v ^= basis[bit];
            }
            bit += 1;
        }
        t[a] = v;
        a += 1;
    }
    t
};

/// φ⁻¹ on every byte.
pub(crate) const PHI_INV: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut a = 0;
    while a < 256 {
        t[PHI[a] as usize] = a as u8;
        a += 1;
    }
    t
};

/// The GF2P8AFFINEQB matrix of a GF(2)-linear map of bytes given by a table.
pub(crate) const fn matrix_of(map: &[u8; 256]) -> u64 {
    let mut m = 0u64;
    let mut out_bit = 0;
    while out_bit < 8 {
        let mut row = 0u8;
        let mut in_bit = 0;
        while in_bit < 8 {
            if (map[1 << in_bit] >> out_bit) & 1 != 0 {
                row |= 1 << in_bit;
            }
            in_bit += 1;
        }
        m |= (row as u64) << (8 * (7 - out_bit));
        out_bit += 1;
    }
    m
}

/// A byte table conjugated by φ: `out[φ(v)] = φ(table[v])`.
pub(crate) const fn conjugate_by_phi(table: &[u8; 256]) -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut v = 0;
    while v < 256 {
        t[PHI[v] as usize] = PHI[table[v] as usize];
        v += 1;
    }
    t
}

/// The columns of a linear map of blocks, in the φ domain: `cols[k][j]` is φ of byte `j`
/// of the map applied to the block with byte `k` equal to 1.
pub(crate) const fn phi_columns(inverse: bool) -> [[u8; 16]; 16] {
    let mut cols = [[0u8; 16]; 16];
    let mut k = 0;
    while k < 16 {
        let mut unit = [0u8; 16];
        unit[k] = 1;
        let image = if inverse {
            l_inv_const(unit)
        } else {
            l_const(unit)
        };
        let mut j = 0;
        while j < 16 {
            cols[k][j] = PHI[image[j] as usize];
            j += 1;
        }
        k += 1;
    }
    cols
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r_and_l_match_rfc_7801() {
        let mut b = [0u8; 16];
        b[14] = 1;
        let r = r_step(b);
        assert_eq!(r[0], 0x94);
        assert_eq!(r[15], 0x01);
        assert_eq!(r_inv_step(r), b);
        let c1: [u8; 16] = [
            0x6e, 0xa2, 0x76, 0x72, 0x6c, 0x48, 0x7a, 0xb8, 0x5d, 0x27, 0xbd, 0x10, 0xdd, 0x84,
            0x94, 0x01,
        ];
        assert_eq!(ROUND_CONSTANTS[0], c1);
        assert_eq!(l_inv_const(c1)[15], 1);
    }

    #[test]
    fn phi_is_a_field_isomorphism() {
        for a in 0..=255u8 {
            for b in [1u8, 2, 3, 0x94, 0xfb, a.wrapping_mul(7)] {
                assert_eq!(
                    PHI[usize::from(gf_mul(a, b))],
                    aes_mul(PHI[usize::from(a)], PHI[usize::from(b)])
                );
            }
            assert_eq!(PHI_INV[usize::from(PHI[usize::from(a)])], a);
        }
    }

    #[test]
    fn pi_inverse_is_inverse() {
        for x in 0..=255u8 {
            assert_eq!(PI_INV[PI[usize::from(x)] as usize], x);
        }
    }
}
