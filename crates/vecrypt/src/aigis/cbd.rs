//! Centred binomial sampling for every width the sets use (1, 2, 3, 4, 8), portable.
//!
//! Each coefficient is the difference of two sums of `eta` bits; the bytes come from the
//! noise PRF (`eta * 256 / 4` of them). Bit sums are formed in parallel inside machine words,
//! so nothing depends on the secret bits except arithmetic.

use super::params::N;
use super::poly::Poly;

/// Bytes of PRF output that one polynomial of width `eta` consumes.
pub const fn noise_bytes(eta: usize) -> usize {
    eta * N / 4
}

/// Fills `p` from `buf` (at least `noise_bytes(eta)` long).
#[inline(always)]
pub fn cbd(p: &mut Poly, buf: &[u8], eta: usize) {
    cbd_into(&mut p.0, buf, eta);
}

/// Fills `c` (a multiple of 32 coefficients) from the next `c.len() * eta / 4` bytes of
/// `buf`; lets the compact variant sample a polynomial in pieces.
#[inline(always)]
pub fn cbd_into(c: &mut [i16], buf: &[u8], eta: usize) {
    match eta {
        1 => cbd1(c, buf),
        2 => cbd2(c, buf),
        3 => cbd3(c, buf),
        4 => cbd4(c, buf),
        _ => cbd8(c, buf),
    }
}

#[inline(always)]
fn load64(b: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[..8]);
    u64::from_le_bytes(w)
}

/// bit0 - bit1 of every 2-bit field.
#[inline(always)]
fn cbd1(c: &mut [i16], buf: &[u8]) {
    for (i, &byte) in buf[..c.len() / 4].iter().enumerate() {
        for j in 0..4 {
            let f = byte >> (2 * j);
            c[4 * i + j] = i16::from(f & 1) - i16::from((f >> 1) & 1);
        }
    }
}

/// popcount of each 2-bit half of every nibble, subtracted.
#[inline(always)]
fn cbd2(c: &mut [i16], buf: &[u8]) {
    for i in 0..c.len() / 16 {
        let d = load64(&buf[8 * i..]);
        let t = (d & 0x5555_5555_5555_5555) + ((d >> 1) & 0x5555_5555_5555_5555);
        for j in 0..16 {
            let a = ((t >> (4 * j)) & 3) as i16;
            let b = ((t >> (4 * j + 2)) & 3) as i16;
            c[16 * i + j] = a - b;
        }
    }
}

/// Two sums of three bits per 6-bit field, four fields per 3 bytes.
#[inline(always)]
fn cbd3(c: &mut [i16], buf: &[u8]) {
    for i in 0..c.len() / 4 {
        let t = u32::from(buf[3 * i])
            | (u32::from(buf[3 * i + 1]) << 8)
            | (u32::from(buf[3 * i + 2]) << 16);
        let mut d = t & 0x0024_9249;
        d += (t >> 1) & 0x0024_9249;
        d += (t >> 2) & 0x0024_9249;
        for j in 0..4 {
            let a = ((d >> (6 * j)) & 7) as i16;
            let b = ((d >> (6 * j + 3)) & 7) as i16;
            c[4 * i + j] = a - b;
        }
    }
}

/// popcount(low nibble) - popcount(high nibble) of every byte.
#[inline(always)]
fn cbd4(c: &mut [i16], buf: &[u8]) {
    for i in 0..c.len() / 8 {
        let d = load64(&buf[8 * i..]);
        let mut t = (d & 0x5555_5555_5555_5555) + ((d >> 1) & 0x5555_5555_5555_5555);
        t = (t & 0x3333_3333_3333_3333) + ((t >> 2) & 0x3333_3333_3333_3333);
        for j in 0..8 {
            let a = ((t >> (8 * j)) & 0xf) as i16;
            let b = ((t >> (8 * j + 4)) & 0xf) as i16;
            c[8 * i + j] = a - b;
        }
    }
}

/// popcount(first byte) - popcount(second byte) of every byte pair.
#[inline(always)]
fn cbd8(c: &mut [i16], buf: &[u8]) {
    for i in 0..c.len() / 4 {
        let d = load64(&buf[8 * i..]);
        let mut t = (d & 0x5555_5555_5555_5555) + ((d >> 1) & 0x5555_5555_5555_5555);
        t = (t & 0x3333_3333_3333_3333) + ((t >> 2) & 0x3333_3333_3333_3333);
        t = (t & 0x0f0f_0f0f_0f0f_0f0f) + ((t >> 4) & 0x0f0f_0f0f_0f0f_0f0f);
        for j in 0..4 {
            let a = ((t >> (16 * j)) & 0xff) as i16;
            let b = ((t >> (16 * j + 8)) & 0xff) as i16;
            c[4 * i + j] = a - b;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition, one bit at a time.
    fn by_definition(buf: &[u8], eta: usize) -> Poly {
        let bit = |i: usize| i16::from((buf[i / 8] >> (i % 8)) & 1);
        let mut p = Poly::default();
        for (c, x) in p.0.iter_mut().enumerate() {
            let base = 2 * eta * c;
            let a: i16 = (0..eta).map(|k| bit(base + k)).sum();
            let b: i16 = (0..eta).map(|k| bit(base + eta + k)).sum();
            *x = a - b;
        }
        p
    }

    #[test]
    fn every_width_matches_the_definition() {
        for eta in [1usize, 2, 3, 4, 8] {
            let buf: Vec<u8> = (0..noise_bytes(eta))
                .map(|i| (i as u32).wrapping_mul(2_654_435_761).to_le_bytes()[3])
                .collect();
            let mut p = Poly::default();
            cbd(&mut p, &buf, eta);
            assert_eq!(p, by_definition(&buf, eta), "eta {eta}");
        }
    }
}
