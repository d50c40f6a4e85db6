//! uBlock tables from the design document (ISCAS, 2019). Byte and nibble indices are
//! big-endian: nibble 0 is the high nibble of byte 0.

/// The S-box and its inverse. Only tests and key-independent code may index these; the
/// cipher evaluates the S-box as a boolean formula or as an in-register shuffle.
#[allow(
    dead_code,
    reason = "shuffle constants for SIMD backends, reference for tests"
)]
pub const SBOX: [u8; 16] = [7, 4, 9, 12, 11, 10, 13, 8, 15, 14, 1, 6, 0, 3, 2, 5];
#[allow(
    dead_code,
    reason = "shuffle constants for SIMD backends, reference for tests"
)]
pub const SBOX_INV: [u8; 16] = [12, 10, 14, 13, 1, 15, 11, 0, 7, 2, 5, 4, 3, 6, 9, 8];

/// Byte gathers of the round function, `out[i] = in[P[i]]`, on halves of 8 or 16 bytes.
pub const PL128: [usize; 8] = [1, 3, 4, 6, 0, 2, 7, 5];
pub const PR128: [usize; 8] = [2, 7, 5, 0, 1, 6, 4, 3];
pub const PL128_INV: [usize; 8] = [4, 0, 5, 1, 2, 7, 3, 6];
pub const PR128_INV: [usize; 8] = [3, 4, 0, 7, 6, 2, 5, 1];
pub const PL256: [usize; 16] = [2, 7, 8, 13, 3, 6, 9, 12, 1, 4, 15, 10, 14, 11, 5, 0];
pub const PR256: [usize; 16] = [6, 11, 1, 12, 9, 4, 2, 15, 7, 0, 13, 10, 14, 3, 8, 5];
pub const PL256_INV: [usize; 16] = [15, 8, 0, 4, 9, 14, 5, 1, 2, 6, 11, 13, 7, 3, 12, 10];
pub const PR256_INV: [usize; 16] = [9, 2, 6, 13, 5, 15, 0, 8, 14, 4, 11, 1, 3, 10, 12, 7];

/// Nibble gathers of the key schedule over K0||K1.
pub const PK1: [usize; 16] = [6, 0, 8, 13, 1, 15, 5, 10, 4, 9, 12, 2, 11, 3, 7, 14];
pub const PK2: [usize; 32] = [
    10, 5, 15, 0, 2, 7, 8, 13, 14, 6, 4, 12, 1, 3, 11, 9, 24, 25, 26, 27, 28, 29, 30, 31, 16, 17,
    18, 19, 20, 21, 22, 23,
];
pub const PK3: [usize; 32] = [
    10, 5, 15, 0, 2, 7, 8, 13, 1, 14, 4, 12, 9, 11, 3, 6, 24, 25, 26, 27, 28, 29, 30, 31, 16, 17,
    18, 19, 20, 21, 22, 23,
];

/// Round constants RC_1..RC_24, XORed into the leftmost 32 bits of K0.
pub const RC: [u32; 24] = [
    0x988cc9dd, 0xf0e4a1b5, 0x21357064, 0x8397d2c6, 0xc7d39682, 0x4f5b1e0a, 0x5e4a0f1b, 0x7c682d39,
    0x392d687c, 0xb3a7e2f6, 0xa7b3f6e2, 0x8e9adfcb, 0xdcc88d99, 0x786c293d, 0x30246175, 0xa1b5f0e4,
    0x8296d3c7, 0xc5d19480, 0x4a5e1b0f, 0x55410410, 0x6b7f3a2e, 0x17034652, 0xeffbbeaa, 0x1f0b4e5a,
];
