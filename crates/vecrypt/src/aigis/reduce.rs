//! Modular reductions for q = 7681 on signed 16-bit coefficients.
//!
//! All of them are branch-free: they run on secret coefficients.

use super::params::Q;

/// q^-1 mod 2^16.
pub const QINV: i16 = 57857u16 as i16;
/// 2^32 mod q: a Montgomery product with it turns x/2^16 back into x.
pub const R2_MOD_Q: i16 = 5569;
/// round(2^26 / q), for Barrett reduction.
const BARRETT_V: i32 = 8737;

/// a * 2^-16 mod q, in (-q, q) when |a| < q * 2^15.
#[inline(always)]
pub fn montgomery_reduce(a: i32) -> i16 {
    let t = (a as i16).wrapping_mul(QINV);
    ((a - i32::from(t) * i32::from(Q)) >> 16) as i16
}

/// a * b * 2^-16 mod q.
#[inline(always)]
pub fn fqmul(a: i16, b: i16) -> i16 {
    montgomery_reduce(i32::from(a) * i32::from(b))
}

/// The representative of a in [-(q-1)/2, (q-1)/2] for any 16-bit a.
#[inline(always)]
pub fn barrett_reduce(a: i16) -> i16 {
    // round(a * v / 2^26) as (high half of a * v, plus 2^9) >> 10: the same value, in
    // 16-bit lanes only (a multiply-high), so loops over polynomials vectorise.
    let t = ((((BARRETT_V * i32::from(a)) >> 16) as i16) + (1 << 9)) >> 10;
    a.wrapping_sub(t.wrapping_mul(Q))
}

/// round(2^32 / q), for [`reduce_wide`].
const ROUND_INV_Q: i64 = ((1i64 << 32) + Q as i64 / 2) / Q as i64;

/// a modulo q for a 32-bit a with |a| < 2^28 (a sum of products): a - q * t, t the
/// rounded multiply-high by round(2^32 / q), which is round(a / q) up to |a| * 2^-34, so
/// the result is below 0.52 q in absolute value (below 0.505 q for |a| < 2^26).
#[inline(always)]
pub fn reduce_wide(a: i32) -> i16 {
    let t = ((i64::from(a) * ROUND_INV_Q + (1 << 31)) >> 32) as i32;
    a.wrapping_sub(t.wrapping_mul(i32::from(Q))) as i16
}

/// Adds q to a negative value: maps (-q, q) to [0, q).
#[inline(always)]
pub fn caddq(a: i16) -> i16 {
    a + ((a >> 15) & Q)
}

/// The canonical representative in [0, q) of any 16-bit a.
#[inline(always)]
pub fn freeze(a: i16) -> i16 {
    caddq(barrett_reduce(a))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn barrett_and_freeze_are_exact_on_every_i16() {
        for a in i16::MIN..=i16::MAX {
            let r = barrett_reduce(a);
            assert!(r.abs() <= (Q - 1) / 2);
            assert_eq!((i32::from(a) - i32::from(r)) % i32::from(Q), 0);
            let f = freeze(a);
            assert!((0..Q).contains(&f));
            assert_eq!(i32::from(f), i32::from(a).rem_euclid(i32::from(Q)));
        }
    }

    #[test]
    fn reduce_wide_is_exact_on_sums_of_products() {
        let q = i64::from(Q);
        let check = |a: i64| {
            let r = i64::from(reduce_wide(a as i32));
            let bound = if a.abs() < 1 << 26 { 505 } else { 520 };
            assert!(r.abs() * 1000 < q * bound, "{a} -> {r}");
            assert_eq!((a - r).rem_euclid(q), 0);
        };
        for a in (-(1i64 << 28) + 1..1 << 28).step_by(997) {
            check(a);
        }
        for a in -70000..70000 {
            check(a);
        }
        check((1 << 28) - 1);
        check(-(1 << 28) + 1);
    }

    #[test]
    fn montgomery_divides_by_two_to_the_sixteen() {
        let q = i64::from(Q);
        for a in (-(q * 32767)..q * 32767).step_by(9973) {
            let r = i64::from(montgomery_reduce(a as i32));
            assert!(r.abs() < q);
            assert_eq!((r * 65536 - a).rem_euclid(q), 0);
        }
        assert_eq!(i64::from(QINV).wrapping_mul(q) & 0xffff, 1);
        assert_eq!(i64::from(R2_MOD_Q), (1i64 << 32) % q);
    }
}
