//! Portable constant-time uBlock.
//!
//! Each half of the state is one integer (u64 for 128-bit blocks, u128 for 256-bit ones)
//! holding big-endian bytes. The S-box is a boolean formula over the four bit-planes of every
//! nibble at once, rotations and byte permutations are fixed shifts and moves: nothing here
//! branches on or indexes memory by secret data.

use core::ops::{BitAnd, BitOr, BitXor, BitXorAssign, Shl, Shr};

use super::{RoundKeys, Variant};

/// An integer that holds one half of the state (or, as `u8`, one key-schedule byte).
pub(super) trait Half:
    Copy
    + BitXor<Output = Self>
    + BitXorAssign
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    const BYTES: usize;
    /// `byte` repeated over every byte.
    fn splat(byte: u8) -> Self;
    /// `word` repeated over every 32-bit lane (only meaningful for u64 and u128).
    fn splat_word(word: u32) -> Self;
    fn load(bytes: &[u8]) -> Self;
    fn store(self, bytes: &mut [u8]);
}

macro_rules! half {
    ($t:ty) => {
        impl Half for $t {
            const BYTES: usize = core::mem::size_of::<$t>();
            #[inline(always)]
            fn splat(byte: u8) -> Self {
                <$t>::from_ne_bytes([byte; core::mem::size_of::<$t>()])
            }
            #[inline(always)]
            fn splat_word(word: u32) -> Self {
                let mut v: $t = 0;
                let mut i = 0;
                while i < core::mem::size_of::<$t>() / 4 {
                    v = v.wrapping_shl(16).wrapping_shl(16) | (word as $t);
                    i += 1;
                }
                v
            }
            #[inline(always)]
            fn load(bytes: &[u8]) -> Self {
                let mut b = [0u8; core::mem::size_of::<$t>()];
                b.copy_from_slice(&bytes[..core::mem::size_of::<$t>()]);
                <$t>::from_be_bytes(b)
            }
            #[inline(always)]
            fn store(self, bytes: &mut [u8]) {
                bytes[..core::mem::size_of::<$t>()].copy_from_slice(&self.to_be_bytes());
            }
        }
    };
}
half!(u8);
half!(u64);
half!(u128);

/// The S-box on every nibble: `y = s[x]` with `x = x3x2x1x0`.
#[inline(always)]
pub(super) fn sbox<H: Half>(v: H) -> H {
    let m = H::splat(0x11);
    let (x0, x1, x2, x3) = (v & m, (v >> 1) & m, (v >> 2) & m, (v >> 3) & m);
    let t = x2 & x3;
    let y3 = (x1 | x2) ^ x3;
    let y0 = x0 ^ t ^ m;
    let y1 = x1 ^ t ^ (x0 & (y3 ^ m)) ^ m;
    let y2 = x2 ^ (x1 & y0) ^ m;
    y0 | (y1 << 1) | (y2 << 2) | (y3 << 3)
}

/// The inverse S-box on every nibble.
#[inline(always)]
pub(super) fn sbox_inv<H: Half>(v: H) -> H {
    let m = H::splat(0x11);
    let (x0, x1, x2, x3) = (v & m, (v >> 1) & m, (v >> 2) & m, (v >> 3) & m);
    let y1 = x1 ^ (x0 | x3);
    let y2 = (x0 & (x1 ^ m)) ^ x2 ^ m;
    let y0 = ((x3 ^ m) & ((x0 & x1) ^ x2)) ^ (x3 & (x0 ^ m));
    let y3 = x3 ^ (x2 & (y1 ^ m)) ^ m;
    y0 | (y1 << 1) | (y2 << 2) | (y3 << 3)
}

/// Rotates every big-endian 32-bit word left by `b` (0 < b < 32).
#[inline(always)]
fn rotl32<H: Half>(v: H, b: u32) -> H {
    let low = H::splat_word((1u32 << b) - 1);
    let high = H::splat_word(!((1u32 << b) - 1));
    ((v << b) & high) | ((v >> (32 - b)) & low)
}

/// Byte gather `out[i] = in[p[i]]` with big-endian byte indices.
#[inline(always)]
fn permute<H: Half>(v: H, p: &[usize]) -> H {
    let mut src = [0u8; 16];
    let mut dst = [0u8; 16];
    v.store(&mut src);
    for (d, &i) in dst.iter_mut().zip(p) {
        *d = src[i];
    }
    H::load(&dst)
}

#[inline(always)]
fn encrypt_half<H: Half, V: Variant>(rk: &RoundKeys, block: &mut [u8]) {
    let h = H::BYTES;
    let mut x0 = H::load(&block[..h]);
    let mut x1 = H::load(&block[h..]);
    for k in &rk.0[..V::ROUNDS] {
        x0 = sbox(x0 ^ H::load(&k[..h]));
        x1 = sbox(x1 ^ H::load(&k[h..]));
        x1 ^= x0;
        x0 ^= rotl32(x1, 4);
        x1 ^= rotl32(x0, 8);
        x0 ^= rotl32(x1, 8);
        x1 ^= rotl32(x0, 20);
        x0 ^= x1;
        x0 = permute(x0, V::PL);
        x1 = permute(x1, V::PR);
    }
    let last = &rk.0[V::ROUNDS];
    (x0 ^ H::load(&last[..h])).store(&mut block[..h]);
    (x1 ^ H::load(&last[h..])).store(&mut block[h..]);
}

#[inline(always)]
fn decrypt_half<H: Half, V: Variant>(rk: &RoundKeys, block: &mut [u8]) {
    let h = H::BYTES;
    let mut x0 = H::load(&block[..h]);
    let mut x1 = H::load(&block[h..]);
    for k in rk.0[1..=V::ROUNDS].iter().rev() {
        x0 = permute(x0 ^ H::load(&k[..h]), V::PL_INV);
        x1 = permute(x1 ^ H::load(&k[h..]), V::PR_INV);
        x0 ^= x1;
        x1 ^= rotl32(x0, 20);
        x0 ^= rotl32(x1, 8);
        x1 ^= rotl32(x0, 8);
        x0 ^= rotl32(x1, 4);
        x1 ^= x0;
        x0 = sbox_inv(x0);
        x1 = sbox_inv(x1);
    }
    let first = &rk.0[0];
    (x0 ^ H::load(&first[..h])).store(&mut block[..h]);
    (x1 ^ H::load(&first[h..])).store(&mut block[h..]);
}

/// Encrypts whole blocks in place.
pub(super) fn encrypt_blocks<V: Variant>(rk: &RoundKeys, buf: &mut [u8]) {
    for block in buf.chunks_exact_mut(V::BLOCK) {
        if V::BLOCK == 16 {
            encrypt_half::<u64, V>(rk, block);
        } else {
            encrypt_half::<u128, V>(rk, block);
        }
    }
}

/// Decrypts whole blocks in place.
pub(super) fn decrypt_blocks<V: Variant>(rk: &RoundKeys, buf: &mut [u8]) {
    for block in buf.chunks_exact_mut(V::BLOCK) {
        if V::BLOCK == 16 {
            decrypt_half::<u64, V>(rk, block);
        } else {
            decrypt_half::<u128, V>(rk, block);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ublock::consts::{SBOX, SBOX_INV};

    #[test]
    fn sbox_formula_matches_table() {
        for x in 0..=255u8 {
            let want = (SBOX[usize::from(x >> 4)] << 4) | SBOX[usize::from(x & 15)];
            assert_eq!(sbox(x), want, "s({x:#04x})");
            let want = (SBOX_INV[usize::from(x >> 4)] << 4) | SBOX_INV[usize::from(x & 15)];
            assert_eq!(sbox_inv(x), want, "s^-1({x:#04x})");
        }
    }

    #[test]
    fn rotation_is_per_big_endian_word() {
        let v = u64::from_be_bytes([0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0]);
        assert_eq!(rotl32(v, 8), 0x3456_7812_bcde_f09a);
        assert_eq!(rotl32(v, 4), 0x2345_6781_abcd_ef09);
        let w = (u128::from(v) << 64) | u128::from(v);
        assert_eq!(
            rotl32(w, 20),
            (u128::from(rotl32(v, 20)) << 64) | u128::from(rotl32(v, 20))
        );
    }
}
