//! Parse: uniform polynomials from the matrix XOF by 13-bit rejection sampling.
//!
//! Values are 13 bits, packed little-endian eight to 13 bytes, and kept when below q. The
//! reference's buffer handling is unusual, and a byte-exact implementation has to follow it:
//!
//! * the first pass reads whole 13-byte groups while at least 8 coefficients are missing,
//!   then single values, where reading value v of a group needs a given number of bytes
//!   left and stopping early consumes a fixed, partly unused, number of bytes;
//! * when the first squeeze is not enough (about 2^-30 per polynomial) the next block is
//!   placed IN FRONT of the unused leftover bytes and parsing resumes there.
//!
//! [`parse_exact`] reproduces that. Fast paths decode the whole groups of the first squeeze
//! and fall back to [`parse_exact`] when they hold fewer than 256 accepted values; both agree
//! because, in that case, the reference also just takes the first 256 accepted values.

use super::hash::{HashMode, MatrixXof};
use super::params::{N, Q};
use super::poly::Poly;

/// The most bytes a first squeeze has (SHAKE128: 3 blocks of 168).
pub const FIRST_SQUEEZE_MAX: usize = 504;

/// The eight 13-bit values of one 13-byte group.
#[inline(always)]
pub fn decode_group(b: &[u8]) -> [u16; 8] {
    let w = |i: usize| u16::from(b[i]);
    [
        (w(0) | (w(1) << 8)) & 0x1fff,
        ((w(1) >> 5) | (w(2) << 3) | (w(3) << 11)) & 0x1fff,
        ((w(3) >> 2) | (w(4) << 6)) & 0x1fff,
        ((w(4) >> 7) | (w(5) << 1) | (w(6) << 9)) & 0x1fff,
        ((w(6) >> 4) | (w(7) << 4) | (w(8) << 12)) & 0x1fff,
        ((w(8) >> 1) | (w(9) << 7)) & 0x1fff,
        ((w(9) >> 6) | (w(10) << 2) | (w(11) << 10)) & 0x1fff,
        (w(11) >> 3) | (w(12) << 5),
    ]
}

/// One rejection pass exactly as the reference runs it: appends accepted values to
/// `r[*ctr..]` and returns the bytes of `buf` consumed.
fn rej_pass(r: &mut Poly, ctr: &mut usize, buf: &[u8]) -> usize {
    let len = buf.len();
    let mut pos = 0;
    let mut c = *ctr;
    let mut push = |c: &mut usize, v: u16| {
        if v < Q as u16 {
            r.0[*c] = v as i16;
            *c += 1;
        }
    };
    while c + 8 <= N && pos + 13 <= len {
        for v in decode_group(&buf[pos..pos + 13]) {
            push(&mut c, v);
        }
        pos += 13;
    }
    if c + 8 <= N {
        *ctr = c;
        return pos;
    }
    // Fewer than 8 values missing: one value at a time. Each step needs `need` bytes after
    // `pos` to exist; if it stops there it consumes `skip` bytes. (need, skip) per value,
    // for values 1..=7 of the group; value 0 only needs two bytes.
    const STEPS: [(usize, usize); 7] = [(3, 2), (4, 4), (6, 5), (8, 7), (9, 9), (11, 10), (12, 12)];
    while c < N && pos + 2 <= len {
        let mut g = [0u8; 13];
        let avail = (len - pos).min(13);
        g[..avail].copy_from_slice(&buf[pos..pos + avail]);
        let vals = decode_group(&g);
        push(&mut c, vals[0]);
        let mut stopped = false;
        for (v, &(need, skip)) in STEPS.iter().enumerate() {
            if c >= N || pos + need >= len {
                pos += skip;
                stopped = true;
                break;
            }
            push(&mut c, vals[v + 1]);
        }
        if stopped {
            break;
        }
        pos += 13;
    }
    *ctr = c;
    pos
}

/// Parse(XOF(ρ ‖ first ‖ second)) with the reference's exact buffer behaviour.
pub fn parse_exact(mode: HashMode, rho: &[u8; 32], first: u8, second: u8, r: &mut Poly) {
    let rate = mode.xof_rate();
    let mut xof = MatrixXof::new(mode, rho, first, second);
    let mut buf = [0u8; FIRST_SQUEEZE_MAX];
    let len = mode.xof_first_blocks() * rate;
    xof.squeeze(&mut buf[..len]);
    parse_from(&buf[..len], &mut xof, rate, r);
}

/// Continues [`parse_exact`] from an already squeezed first buffer.
pub fn parse_from(first: &[u8], xof: &mut MatrixXof, rate: usize, r: &mut Poly) {
    let mut ctr = 0;
    let pos = rej_pass(r, &mut ctr, first);
    if ctr == N {
        return;
    }
    // A pass that ends short of 256 values leaves less than one group unused.
    let mut work = [0u8; 168 + 13];
    let mut left = first.len() - pos;
    work[rate..rate + left].copy_from_slice(&first[pos..]);
    while ctr < N {
        xof.squeeze(&mut work[..rate]);
        let total = rate + left;
        let step = rej_pass(r, &mut ctr, &work[..total]);
        left = total - step;
        work.copy_within(step..total, rate);
    }
}

/// Decodes the whole groups of `buf` and keeps the first 256 accepted values. Returns
/// `false` (leaving `r` partly written) when there are fewer than 256 of them.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
pub fn parse_fast(buf: &[u8], r: &mut Poly) -> bool {
    let mut c = 0;
    for g in buf.chunks_exact(13) {
        for v in decode_group(g) {
            if c < N && v < Q as u16 {
                r.0[c] = v as i16;
                c += 1;
            }
        }
        if c == N {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy XOF over a fixed byte string, to drive the refill path on purpose.
    fn scripted(bytes: &[u8]) -> Poly {
        // Build a buffer where most values are rejected (13-bit values >= q), so that the
        // first squeeze runs dry and the refill path runs.
        let mut r = Poly::default();
        let mut ctr = 0;
        let pos = rej_pass(&mut r, &mut ctr, bytes);
        assert!(pos <= bytes.len());
        r
    }

    #[test]
    fn fast_and_exact_agree_on_many_seeds() {
        for mode in [HashMode::Shake, HashMode::Sm3] {
            for s in 0..64u8 {
                let rho = [s; 32];
                let mut exact = Poly::default();
                parse_exact(mode, &rho, s, 1, &mut exact);
                let mut xof = MatrixXof::new(mode, &rho, s, 1);
                let mut buf = [0u8; FIRST_SQUEEZE_MAX];
                let len = mode.xof_first_blocks() * mode.xof_rate();
                xof.squeeze(&mut buf[..len]);
                let mut fast = Poly::default();
                assert!(parse_fast(&buf[..len], &mut fast));
                assert_eq!(exact, fast);
                assert!(exact.0.iter().all(|&x| (0..Q).contains(&x)));
            }
        }
    }

    #[test]
    fn refill_path_consumes_new_block_then_leftover() {
        // 0xff bytes decode to 8191 (rejected); the pass must stop with bytes left over.
        let all_rejected = [0xffu8; 40];
        let p = scripted(&all_rejected);
        assert_eq!(p, Poly::default());
        let mut r = Poly::default();
        let mut ctr = 0;
        let pos = rej_pass(&mut r, &mut ctr, &all_rejected);
        assert_eq!((ctr, pos), (0, 39));
        // With 250 values already present, the single-value path runs and stops early.
        let mut ctr = 250;
        let zeros = [0u8; 5];
        let pos = rej_pass(&mut r, &mut ctr, &zeros);
        // values 0, 1, 2 fit (need 2, 4, 5 bytes), value 3 needs pos + 6 < 5: stop, skip 5.
        assert_eq!((ctr, pos), (253, 5));
    }
}
