//! The key schedule of the nibble kernel: the whole schedule on registers of nibbles, and
//! the one-block encryption that steps the schedule beside the rounds.

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::super::consts::{PK1, RC};
use super::*;

/// Multiplication by 2 in GF(2^4) mod x^4 + x + 1, for the key schedule.
const TIMES_TWO: [u8; 16] = [0, 2, 4, 6, 8, 10, 12, 14, 3, 1, 7, 5, 11, 9, 15, 13];

/// RC_i as nibbles 0..8 of a register (the leftmost 32 bits of K0), zero elsewhere.
const fn rc_nibbles() -> [[u8; 16]; 24] {
    let mut t = [[0u8; 16]; 24];
    let mut i = 0;
    while i < 24 {
        let mut j = 0;
        while j < 8 {
            t[i][j] = ((RC[i] >> (28 - 4 * j)) & 15) as u8;
            j += 1;
        }
        i += 1;
    }
    t
}

/// The key schedule on registers of nibbles: `K0||K1` and `K2||K3` for 128-bit keys,
/// `K0`..`K3` one register each for 256-bit keys.
#[inline(always)]
pub(super) fn expand_key_px<V: Variant>(s3: Ssse3, key: &[u8], rk: &mut RoundKeys) {
    let sbox = load16(&const { table16(SBOX) });
    let times_two = load16(&TIMES_TWO);
    let rc = const { rc_nibbles() };
    rk.0[0][..V::BLOCK].copy_from_slice(&key[..V::BLOCK]);
    if V::KEY == 16 {
        let pk = load16(&const { pk_table(&PK1, 0) });
        let (mut k01, mut k23) = expand(load(key));
        for (i, row) in rk.0[1..=V::ROUNDS].iter_mut().enumerate() {
            k01 = s3.shuffle(k01, pk);
            let s = s3.shuffle(sbox, xor(k01, load16(&rc[i])));
            let t = s3.shuffle(times_two, k01);
            // SAFETY: SSE2 is part of every x86-64 CPU.
            let (mixed, k10) = unsafe {
                (
                    _mm_unpacklo_epi64(s, _mm_unpackhi_epi64(t, t)),
                    _mm_shuffle_epi32::<0x4e>(k01),
                )
            };
            k01 = xor(k23, mixed);
            k23 = k10;
            store(s3.compact(k01, k23), &mut row[..16]);
        }
    } else {
        let pk = load16(&const { pk_table(V::PK, 0) });
        let (mut k0, mut k1) = expand(load(&key[..16]));
        let (mut k2, mut k3) = expand(load(&key[16..32]));
        for (i, row) in rk.0[1..=V::ROUNDS].iter_mut().enumerate() {
            k0 = s3.shuffle(k0, pk);
            // SAFETY: SSE2 is part of every x86-64 CPU.
            k1 = unsafe { _mm_shuffle_epi32::<0x4e>(k1) };
            let n2 = xor(k2, s3.shuffle(sbox, xor(k0, load16(&rc[i]))));
            let n3 = xor(k3, s3.shuffle(times_two, k1));
            (k0, k1, k2, k3) = (n2, n3, k1, k0);
            store(s3.compact(k0, k1), &mut row[..16]);
            if V::BLOCK == 32 {
                store(s3.compact(k2, k3), &mut row[16..32]);
            }
        }
    }
}

/// The key register of the schedule as nibbles, stepped one update at a time: `K0||K1`
/// and `K2||K3` for 128-bit keys, `K0`..`K3` one register each for 256-bit keys.
struct KeyRegister([__m128i; 4]);

impl KeyRegister {
    #[inline(always)]
    fn new<V: Variant>(key: &[u8]) -> Self {
        if V::KEY == 16 {
            let (k01, k23) = expand(load(key));
            KeyRegister([k01, k23, zero(), zero()])
        } else {
            let (k0, k1) = expand(load(&key[..16]));
            let (k2, k3) = expand(load(&key[16..32]));
            KeyRegister([k0, k1, k2, k3])
        }
    }

    /// Update `i + 1` of the schedule (`RC[i]`).
    #[inline(always)]
    fn step<V: Variant>(&mut self, s3: Ssse3, i: usize, sbox: __m128i, times_two: __m128i) {
        let rc = const { rc_nibbles() };
        let [k0, k1, k2, k3] = self.0;
        if V::KEY == 16 {
            let k01 = s3.shuffle(k0, load16(&const { pk_table(&PK1, 0) }));
            let s = s3.shuffle(sbox, xor(k01, load16(&rc[i])));
            let t = s3.shuffle(times_two, k01);
            // SAFETY: SSE2 is part of every x86-64 CPU.
            let (mixed, k10) = unsafe {
                (
                    _mm_unpacklo_epi64(s, _mm_unpackhi_epi64(t, t)),
                    _mm_shuffle_epi32::<0x4e>(k01),
                )
            };
            self.0 = [xor(k1, mixed), k10, k2, k3];
        } else {
            let k0 = s3.shuffle(k0, load16(&const { pk_table(V::PK, 0) }));
            // SAFETY: SSE2 is part of every x86-64 CPU.
            let k1 = unsafe { _mm_shuffle_epi32::<0x4e>(k1) };
            let n2 = xor(k2, s3.shuffle(sbox, xor(k0, load16(&rc[i]))));
            let n3 = xor(k3, s3.shuffle(times_two, k1));
            self.0 = [n2, n3, k1, k0];
        }
    }

    /// The round key the register holds (its first `V::BLOCK` bytes) as nibble halves.
    #[inline(always)]
    fn round_key<V: Variant>(&self) -> (Half, Half) {
        let [k0, k1, k2, k3] = self.0;
        if V::BLOCK == 16 {
            ([k0, zero()], [k1, zero()])
        } else {
            ([k0, k1], [k2, k3])
        }
    }
}

/// Encrypts one block with the key schedule run alongside the rounds: its chain is a third
/// of the round's, so a fresh key costs almost nothing on top of the block.
#[inline(always)]
pub(super) fn encrypt_one_with_key_px<V: Variant>(s3: Ssse3, key: &[u8], block: &mut [u8]) {
    let t = Tables::new(s3);
    let sbox = load16(&const { table16(SBOX) });
    let times_two = load16(&TIMES_TWO);
    let mut reg = KeyRegister::new::<V>(key);
    let (x0, x1) = xor_block::<V>(&load_block::<V>(block), &reg.round_key::<V>());
    let (mut x0, mut x1) = (x0, x1);
    for i in 1..=V::ROUNDS {
        reg.step::<V>(s3, i - 1, sbox, times_two);
        let (l, r) = reg.round_key::<V>();
        (x0, x1) = encrypt_round::<V>(&t, &fold::<V>(s3, &l, &r), &x0, &x1);
    }
    store_block::<V>(s3, &x0, &x1, block);
    crate::wipe::set(&mut reg.0, [zero(); 4]);
}

/// The first 16 entries of a key-schedule nibble gather, starting at `from`, as `pshufb`
/// indices.
const fn pk_table(pk: &[usize], from: usize) -> [u8; 16] {
    let mut t = [0u8; 16];
    let mut q = 0;
    while q < 16 {
        t[q] = (pk[from + q] - from) as u8;
        q += 1;
    }
    t
}
