//! Wiping secrets in bulk. `zeroize` writes one volatile store per element, which for the
//! kilobytes of keystream, multipliers, noise and secret polynomials of one call costs
//! thousands of cycles (an 8 KiB byte buffer alone is about 8000 stores); the vector path
//! writes whole registers instead, still volatile, so the stores cannot be removed as dead.

use zeroize::{DefaultIsZeroes, Zeroize};

/// Zeroes `bytes`.
#[inline(always)]
pub fn bytes(bytes: &mut [u8]) {
    integers(bytes);
}

/// Zeroes `words`.
#[inline(always)]
pub fn u32s(words: &mut [u32]) {
    integers(words);
}

/// Zeroes `words`.
#[inline(always)]
pub fn i16s(words: &mut [i16]) {
    integers(words);
}

/// Only for the integer types above: the vector path views them as registers.
#[inline(always)]
fn integers<T: DefaultIsZeroes>(s: &mut [T])
where
    [T]: Zeroize,
{
    #[cfg(target_arch = "x86_64")]
    if crate::x86_wipe::integers(s) {
        return;
    }
    s.zeroize();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_and_word_becomes_zero_and_nothing_else() {
        for len in [0usize, 1, 15, 31, 32, 33, 95, 200, 4352, 8192] {
            for skew in 0..3 {
                let mut buf = vec![0xa5u8; len + skew + 1];
                bytes(&mut buf[skew..skew + len]);
                assert!(buf[skew..skew + len].iter().all(|&b| b == 0), "len {len}");
                assert!(buf[..skew].iter().all(|&b| b == 0xa5), "before, len {len}");
                assert_eq!(buf[skew + len], 0xa5, "after, len {len}");
                let mut w = vec![-7i16; len + skew + 1];
                i16s(&mut w[skew..skew + len]);
                assert!(w[skew..skew + len].iter().all(|&x| x == 0), "len {len}");
                assert!(w[..skew].iter().all(|&x| x == -7), "before, len {len}");
                assert_eq!(w[skew + len], -7, "after, len {len}");
                let mut d = vec![u32::MAX; len + skew + 1];
                u32s(&mut d[skew..skew + len]);
                assert!(d[skew..skew + len].iter().all(|&x| x == 0), "len {len}");
                assert!(
                    d[..skew].iter().all(|&x| x == u32::MAX),
                    "before, len {len}"
                );
                assert_eq!(d[skew + len], u32::MAX, "after, len {len}");
            }
        }
    }
}
