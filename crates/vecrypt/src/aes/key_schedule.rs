//! FIPS 197 key expansion, and the round keys of the equivalent inverse cipher.

use super::common::RoundKeys;
use super::soft;

const RCON: [u8; 10] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];

/// Expands a 16-, 24- or 32-byte key (the caller checks the length) into `rounds + 1`
/// encryption keys and the matching decryption keys.
pub(crate) fn expand(key: &[u8], rounds: usize) -> RoundKeys {
    let nk = key.len() / 4;
    let total = 4 * (rounds + 1);
    let mut words = [[0u8; 4]; 60];
    for (i, w) in words.iter_mut().take(nk).enumerate() {
        w.copy_from_slice(&key[4 * i..4 * i + 4]);
    }
    for i in nk..total {
        let mut temp = words[i - 1];
        if i % nk == 0 {
            temp.rotate_left(1);
            temp = soft::sub_word(temp);
            temp[0] ^= RCON[i / nk - 1];
        } else if nk > 6 && i % nk == 4 {
            temp = soft::sub_word(temp);
        }
        for j in 0..4 {
            words[i][j] = words[i - nk][j] ^ temp[j];
        }
    }
    let mut rk = RoundKeys {
        enc: [[0u8; 16]; 15],
        dec: [[0u8; 16]; 15],
        rounds,
        sliced: soft::SlicedKeys::empty(),
    };
    for (r, key) in rk.enc.iter_mut().take(rounds + 1).enumerate() {
        for j in 0..4 {
            key[4 * j..4 * j + 4].copy_from_slice(&words[4 * r + j]);
        }
    }
    rk.dec[0] = rk.enc[rounds];
    rk.dec[rounds] = rk.enc[0];
    for r in 1..rounds {
        rk.dec[r] = rk.enc[rounds - r];
        soft::inv_mix_column_key(&mut rk.dec[r]);
    }
    crate::wipe::bytes(words.as_flattened_mut());
    rk
}
