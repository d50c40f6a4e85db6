//! Wiping secrets. `zeroize` writes one volatile store per element, which for the
//! kilobytes of secret polynomials and noise bytes of one operation cost several thousand
//! cycles (more than a tenth of an encapsulation); the vector path below writes whole
//! registers instead, still volatile, so the stores cannot be removed as dead.

use zeroize::Zeroize;

use super::poly::Poly;

/// Zeroes every coefficient of `ps`.
#[inline(always)]
pub fn polys(ps: &mut [Poly]) {
    #[cfg(target_arch = "x86_64")]
    if super::x86_wipe::polys(ps) {
        return;
    }
    for p in ps.iter_mut() {
        p.zeroize();
    }
}

/// Zeroes `bytes`.
#[inline(always)]
pub fn bytes(bytes: &mut [u8]) {
    #[cfg(target_arch = "x86_64")]
    if super::x86_wipe::bytes(bytes) {
        return;
    }
    bytes.zeroize();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_and_coefficient_becomes_zero() {
        let mut ps = [Poly([-7; 256]); 3];
        polys(&mut ps);
        assert!(ps.iter().all(|p| p.0.iter().all(|&x| x == 0)));
        for len in [0usize, 1, 31, 32, 33, 95, 200, 4352] {
            for skew in 0..3 {
                let mut buf = vec![0xa5u8; len + skew + 1];
                bytes(&mut buf[skew..skew + len]);
                assert!(buf[skew..skew + len].iter().all(|&b| b == 0), "len {len}");
                assert!(buf[..skew].iter().all(|&b| b == 0xa5), "before, len {len}");
                assert_eq!(buf[skew + len], 0xa5, "after, len {len}");
            }
        }
    }
}
