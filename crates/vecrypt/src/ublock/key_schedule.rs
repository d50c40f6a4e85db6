//! The uBlock key schedule, with the register update the journal's pseudo-code leaves out
//! (step 4: K <- K2 || K3 || K1 || K0). Works on one nibble per byte; the S-box is the same
//! boolean formula as the cipher's, so no table is indexed by key material.

use super::consts::RC;
use super::soft::sbox;
use super::{RoundKeys, Variant};

/// Multiplication by x in GF(2^4) modulo x^4 + x + 1, branch-free.
#[inline(always)]
fn times_two(x: u8) -> u8 {
    ((x << 1) & 0x0e) ^ (((x >> 3) & 1) * 0x03)
}

/// Expands `key` (exactly `V::KEY` bytes) into `V::ROUNDS + 1` round keys.
pub(super) fn expand<V: Variant>(key: &[u8]) -> RoundKeys {
    let n = V::BLOCK;
    let q = V::KEY / 2; // nibbles in each of K0..K3
    let mut rk = RoundKeys([[0u8; 32]; 25]);
    let mut reg = [0u8; 64];
    let mut tmp = [0u8; 64];
    for (i, b) in key.iter().enumerate() {
        reg[2 * i] = b >> 4;
        reg[2 * i + 1] = b & 15;
    }
    rk.0[0][..n].copy_from_slice(&key[..n]);
    for (round, rc) in RC.iter().enumerate().take(V::ROUNDS) {
        for (t, &p) in tmp.iter_mut().zip(V::PK) {
            *t = reg[p];
        }
        reg[..2 * q].copy_from_slice(&tmp[..2 * q]);
        for j in 0..q {
            let rc_nibble = if j < 8 {
                (rc >> (28 - 4 * j)) as u8 & 15
            } else {
                0
            };
            reg[2 * q + j] ^= sbox(reg[j] ^ rc_nibble) & 15;
            reg[3 * q + j] ^= times_two(reg[q + j]);
        }
        tmp[..q].copy_from_slice(&reg[2 * q..3 * q]);
        tmp[q..2 * q].copy_from_slice(&reg[3 * q..4 * q]);
        tmp[2 * q..3 * q].copy_from_slice(&reg[q..2 * q]);
        tmp[3 * q..4 * q].copy_from_slice(&reg[..q]);
        reg[..4 * q].copy_from_slice(&tmp[..4 * q]);
        for (j, byte) in rk.0[round + 1][..n].iter_mut().enumerate() {
            *byte = (reg[2 * j] << 4) | reg[2 * j + 1];
        }
    }
    crate::wipe::array(&mut reg);
    crate::wipe::array(&mut tmp);
    rk
}

#[cfg(test)]
mod tests {
    use super::times_two;

    #[test]
    fn times_two_matches_table() {
        let table = [0, 2, 4, 6, 8, 10, 12, 14, 3, 1, 7, 5, 11, 9, 15, 13];
        for x in 0..16u8 {
            assert_eq!(times_two(x), table[usize::from(x)]);
        }
    }
}
