//! The one constant-time comparison of byte strings: tags, and the re-encrypted ciphertext
//! of a KEM decapsulation.
//!
//! `subtle`'s slice comparison passes every byte through its optimization barrier, about
//! three cycles a byte: a thousand-byte ciphertext took longer to compare than a number
//! theoretic transform to compute. Here the differences are folded eight bytes at a time
//! into one word with XOR and OR (no branch and no index depends on the data), and only that
//! word goes through `subtle`'s barrier.

use subtle::{Choice, ConstantTimeEq};

/// Whether `a` and `b` are equal, in time that depends only on their lengths. Strings of
/// different lengths are unequal (lengths are public).
#[inline]
pub(crate) fn bytes_eq(a: &[u8], b: &[u8]) -> Choice {
    if a.len() != b.len() {
        return Choice::from(0);
    }
    let mut diff = 0u64;
    let (a8, a_tail) = a.as_chunks::<8>();
    let (b8, b_tail) = b.as_chunks::<8>();
    for (x, y) in a8.iter().zip(b8) {
        diff |= u64::from_ne_bytes(*x) ^ u64::from_ne_bytes(*y);
    }
    for (x, y) in a_tail.iter().zip(b_tail) {
        diff |= u64::from(x ^ y);
    }
    diff.ct_eq(&0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_only_when_every_byte_and_the_length_agree() {
        for len in [0usize, 1, 7, 8, 9, 16, 31, 64, 1000, 1571] {
            let a: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            assert!(bool::from(bytes_eq(&a, &a.clone())), "len {len}");
            for at in 0..len {
                for bit in [0x01u8, 0x80] {
                    let mut b = a.clone();
                    b[at] ^= bit;
                    assert!(!bool::from(bytes_eq(&a, &b)), "len {len}, byte {at}");
                }
            }
            if len > 0 {
                assert!(!bool::from(bytes_eq(&a, &a[..len - 1])), "len {len}");
                assert!(!bool::from(bytes_eq(&a[..len - 1], &a)), "len {len}");
            }
        }
    }
}
