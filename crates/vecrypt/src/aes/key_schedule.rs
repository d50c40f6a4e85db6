//! FIPS 197 key expansion, and the round keys of the equivalent inverse cipher, written once
//! over two operations a backend supplies: the S-box on the bytes of a word, and
//! InvMixColumns of a round key. The portable ones are constant time and slow (the S-box of
//! a word goes through the bit-sliced S-box of a whole state); the AES instructions do each
//! in one instruction, so the native backends expand keys with them (see `native`).

use super::common::RoundKeys;
use super::soft;

/// The round constants of the schedule, one per `Nk` words.
pub(crate) const RCON: [u8; 10] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];

/// Expands a 16-, 24- or 32-byte key (the caller checks the length) into `rounds + 1`
/// encryption keys and the matching decryption keys, on the portable S-box.
#[cfg(test)]
pub(crate) fn expand(key: &[u8], rounds: usize) -> RoundKeys {
    let mut rk = RoundKeys::empty(rounds);
    expand_into(key, &mut rk);
    rk
}

/// `expand` into the keys of `rk`, for its number of rounds.
pub(crate) fn expand_into(key: &[u8], rk: &mut RoundKeys) {
    expand_with(
        key,
        rk,
        |w| u32::from_be_bytes(soft::sub_word(w.to_be_bytes())),
        soft::inv_mix_column_key,
    );
}

/// Fills the keys of `rk`, for its number of rounds, from `key` as `expand` does, on a
/// backend's S-box of a word (`sub_word`, which applies the S-box to each of its four
/// bytes, so their order does not matter) and InvMixColumns (`inv_mix`). Inlined into each
/// backend's kernel, so that both run with its instructions. The schedule is built in place
/// in the encryption keys: no other copy of it is left to wipe.
#[inline(always)]
pub(crate) fn expand_with(
    key: &[u8],
    rk: &mut RoundKeys,
    sub_word: impl Fn(u32) -> u32,
    inv_mix: impl Fn(&mut [u8; 16]),
) {
    let rounds = rk.rounds.min(14);
    let nk = (key.len() / 4).clamp(4, 8);
    let words = rk.enc.as_flattened_mut();
    let word = |w: &[u8], i: usize| {
        u32::from_be_bytes([w[4 * i], w[4 * i + 1], w[4 * i + 2], w[4 * i + 3]])
    };
    words[..4 * nk].copy_from_slice(&key[..4 * nk]);
    // `i % nk`, kept as a counter: a division per word would cost more than the S-box.
    let (mut j, mut rcon) = (0, RCON.iter());
    for i in nk..4 * (rounds + 1) {
        let mut temp = word(words, i - 1);
        if j == 0 {
            let c = rcon.next().copied().unwrap_or(0);
            temp = sub_word(temp.rotate_left(8)) ^ (u32::from(c) << 24);
        } else if nk > 6 && j == 4 {
            temp = sub_word(temp);
        }
        let w = word(words, i - nk) ^ temp;
        words[4 * i..4 * i + 4].copy_from_slice(&w.to_be_bytes());
        j = if j + 1 == nk { 0 } else { j + 1 };
    }
    rk.dec[0] = rk.enc[rounds];
    rk.dec[rounds] = rk.enc[0];
    for r in 1..rounds {
        rk.dec[r] = rk.enc[rounds - r];
        inv_mix(&mut rk.dec[r]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aes::{Aes, K128, K192, K256, KeySize};

    /// Every backend's round keys (encryption and decryption) are the portable schedule's,
    /// for keys of every size with every byte value in every position over the runs.
    fn every_backend_expands_like_the_portable_schedule<K: KeySize>() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for run in 0..64 {
            let key: Vec<u8> = (0..K::KEY)
                .map(|i| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    match run {
                        0 => 0,
                        1 => 0xff,
                        _ => (state >> 56) as u8 ^ (i as u8),
                    }
                })
                .collect();
            let want = expand(&key, K::ROUNDS);
            for b in Aes::<K>::backends() {
                let got = Aes::<K>::with_backend(&key, b).unwrap();
                assert_eq!(got.rk.enc, want.enc, "{b} {} encryption keys", K::NAME);
                assert_eq!(got.rk.dec, want.dec, "{b} {} decryption keys", K::NAME);
                assert_eq!(got.rk.rounds, K::ROUNDS);
            }
        }
    }

    #[test]
    fn aes128_keys_agree_across_backends() {
        every_backend_expands_like_the_portable_schedule::<K128>();
    }

    #[test]
    fn aes192_keys_agree_across_backends() {
        every_backend_expands_like_the_portable_schedule::<K192>();
    }

    #[test]
    fn aes256_keys_agree_across_backends() {
        every_backend_expands_like_the_portable_schedule::<K256>();
    }

    /// FIPS 197, Appendix A.1: the last round key of the example AES-128 key.
    #[test]
    fn the_fips_197_example_schedule_ends_as_published() {
        let key = [
            0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf,
            0x4f, 0x3c,
        ];
        let last = [
            0xd0, 0x14, 0xf9, 0xa8, 0xc9, 0xee, 0x25, 0x89, 0xe1, 0x3f, 0x0c, 0xc8, 0xb6, 0x63,
            0x0c, 0xa6,
        ];
        assert_eq!(expand(&key, 10).enc[10], last);
        for b in Aes::<K128>::backends() {
            assert_eq!(
                Aes::<K128>::with_backend(&key, b).unwrap().rk.enc[10],
                last,
                "{b}"
            );
        }
    }
}
