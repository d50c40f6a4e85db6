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
use super::params::{N, Q, SEED_BYTES};
use super::poly::Poly;

/// The most bytes a first squeeze has (SHAKE128: 3 blocks of 168), for the kernels that
/// squeeze it whole.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
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

/// The bytes a rejection pass reads: `len` bytes, read forwards as 13-byte groups.
trait Bytes {
    fn len(&self) -> usize;
    /// The 13 bytes from `pos`, zero past the end. `pos` never decreases between calls.
    fn group(&mut self, pos: usize) -> [u8; 13];
}

impl Bytes for &[u8] {
    #[inline(always)]
    fn len(&self) -> usize {
        <[u8]>::len(self)
    }

    #[inline(always)]
    fn group(&mut self, pos: usize) -> [u8; 13] {
        let mut g = [0u8; 13];
        let avail = (<[u8]>::len(self) - pos).min(13);
        g[..avail].copy_from_slice(&self[pos..pos + avail]);
        g
    }
}

/// The largest rate of a matrix XOF (SHAKE128), plus room for one partial group.
const WINDOW: usize = 168 + 13;

/// The reference's first squeeze (`len` bytes of the XOF, whose next block `next` writes),
/// read one block at a time into a window that keeps the partial group at the end of the
/// previous block.
struct FirstSqueeze<F: FnMut(&mut [u8])> {
    next: F,
    rate: usize,
    len: usize,
    window: [u8; WINDOW],
    /// The XOF position of `window[0]`.
    base: usize,
    /// Bytes of `window` holding XOF output.
    filled: usize,
}

impl<F: FnMut(&mut [u8])> Bytes for FirstSqueeze<F> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    fn group(&mut self, pos: usize) -> [u8; 13] {
        let end = (pos + 13).min(self.len);
        while self.base + self.filled < end {
            // Fewer than 13 bytes from `pos` are held: move them to the front, then append
            // the next block.
            let keep = self.base + self.filled - pos;
            self.window.copy_within(self.filled - keep..self.filled, 0);
            self.base = pos;
            (self.next)(&mut self.window[keep..keep + self.rate]);
            self.filled = keep + self.rate;
        }
        let mut g = [0u8; 13];
        g[..end - pos].copy_from_slice(&self.window[pos - self.base..end - self.base]);
        g
    }
}

impl<F: FnMut(&mut [u8])> Drop for FirstSqueeze<F> {
    fn drop(&mut self) {
        crate::wipe::bytes(&mut self.window);
    }
}

/// One rejection pass exactly as the reference runs it over `buf`: hands each accepted
/// value to `push(index, value)` and returns the bytes of `buf` consumed.
#[inline(always)]
fn rej_pass(push: &mut impl FnMut(usize, i16), ctr: &mut usize, buf: &mut impl Bytes) -> usize {
    let len = buf.len();
    let mut pos = 0;
    let mut c = *ctr;
    let mut keep = |c: &mut usize, v: u16| {
        if v < Q as u16 {
            push(*c, v as i16);
            *c += 1;
        }
    };
    while c + 8 <= N && pos + 13 <= len {
        for v in decode_group(&buf.group(pos)) {
            keep(&mut c, v);
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
        let vals = decode_group(&buf.group(pos));
        keep(&mut c, vals[0]);
        let mut stopped = false;
        for (v, &(need, skip)) in STEPS.iter().enumerate() {
            if c >= N || pos + need >= len {
                pos += skip;
                stopped = true;
                break;
            }
            keep(&mut c, vals[v + 1]);
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
    parse_with(mode, rho, first, second, |i, v| r.0[i] = v);
}

/// [`parse_exact`] in SM3 mode, given the XOF's first blocks `given` (whole blocks, at
/// most the first squeeze): for an entry whose first squeeze, computed by the lanes, held
/// fewer than 256 values in whole groups (about one entry in a thousand). The XOF's blocks
/// are independent counter blocks, so only those after `given` are computed (almost never
/// any: the reference's parse also reads the partial group at the end), not the whole XOF
/// again.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
pub fn parse_exact_sm3_after(rho: &[u8; 32], first: u8, second: u8, given: &[u8], r: &mut Poly) {
    let mode = HashMode::Sm3;
    let (rate, blocks) = (mode.xof_rate(), mode.xof_first_blocks());
    assert!(
        given.len().is_multiple_of(rate) && given.len() <= blocks * rate,
        "whole first blocks"
    );
    // The XOF from the first block after `given` on.
    let mut input = [0u8; SEED_BYTES + 2];
    input[..SEED_BYTES].copy_from_slice(rho);
    input[SEED_BYTES..].copy_from_slice(&[first, second]);
    let counter = (given.len() / rate) as u32;
    let mut xof = MatrixXof::Sm3 { input, counter };
    let mut given = given.chunks_exact(rate);
    let next = |out: &mut [u8]| match given.next() {
        Some(block) => out.copy_from_slice(block),
        None => xof.squeeze(out),
    };
    parse_stream(next, rate, blocks * rate, &mut |i, v| r.0[i] = v);
}

/// Parse(XOF(ρ ‖ first ‖ second)) handing coefficient i (in [0, q)) to `push(i, value)`,
/// for i = 0, 1, ..., 255 in order, without holding the polynomial: the XOF is read one
/// block at a time, so the frame holds one block instead of the reference's first squeeze.
#[inline(always)]
pub fn parse_with(
    mode: HashMode,
    rho: &[u8; 32],
    first: u8,
    second: u8,
    mut push: impl FnMut(usize, i16),
) {
    let rate = mode.xof_rate();
    let mut xof = MatrixXof::empty(mode);
    xof.start(rho, first, second);
    let len = mode.xof_first_blocks() * rate;
    parse_stream(|out| xof.squeeze(out), rate, len, &mut push);
}

/// The parse of [`parse_with`] over any XOF: `next` writes its next `rate` bytes, and the
/// reference's first squeeze is `len` bytes.
#[inline(always)]
fn parse_stream(
    next: impl FnMut(&mut [u8]),
    rate: usize,
    len: usize,
    push: &mut impl FnMut(usize, i16),
) {
    let mut src = FirstSqueeze {
        next,
        rate,
        len,
        window: [0; WINDOW],
        base: 0,
        filled: 0,
    };
    let mut ctr = 0;
    let pos = rej_pass(push, &mut ctr, &mut src);
    if ctr == N {
        return;
    }
    // A pass that ends short of 256 values leaves less than one group unused. The reference
    // then squeezes the next block IN FRONT of those bytes and parses again from there.
    let mut left = len - pos;
    let tail = src.group(pos);
    let work = &mut src.window;
    work[rate..rate + left].copy_from_slice(&tail[..left]);
    while ctr < N {
        (src.next)(&mut work[..rate]);
        let total = rate + left;
        let step = rej_pass(push, &mut ctr, &mut &work[..total]);
        if ctr == N {
            break;
        }
        // Short again: less than one group is left, to go after the next block.
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

    #[test]
    fn sm3_entries_continue_after_the_blocks_given() {
        // Entries (ρ, 1, 2) whose fifteen-block first squeeze holds fewer than 256 values in
        // whole groups, then two whose first squeeze suffices; each given its first 0, 1,
        // 7, 14 or 15 blocks.
        let short: [[u8; 32]; 2] = [
            [
                0xf6, 0xfa, 0xff, 0x7d, 0xbb, 0xda, 0x69, 0x30, 0x13, 0x84, 0xcc, 0x68, 0x3d, 0x95,
                0x42, 0xa9, 0x43, 0xb8, 0x46, 0x39, 0x01, 0x9f, 0xd3, 0x75, 0xee, 0xe2, 0xe7, 0x65,
                0xa3, 0xc2, 0x71, 0x28,
            ],
            [
                0xad, 0xd7, 0xe9, 0xf6, 0xfe, 0xf8, 0x78, 0xb8, 0x57, 0x26, 0x9d, 0x40, 0x29, 0x1f,
                0x07, 0x8b, 0xd2, 0x70, 0xa2, 0x4b, 0xb8, 0x43, 0x3d, 0x02, 0xb5, 0xcf, 0xf1, 0xee,
                0xe6, 0xe0, 0x60, 0xa0,
            ],
        ];
        for (t, rho) in short.iter().chain(&[[7u8; 32], [0x42; 32]]).enumerate() {
            let mut xof = MatrixXof::empty(HashMode::Sm3);
            xof.start(rho, 1, 2);
            let mut first = [0u8; 480];
            xof.squeeze(&mut first);
            let mut fast = Poly::default();
            assert_eq!(parse_fast(&first, &mut fast), t >= 2, "entry {t}");
            let mut want = Poly::default();
            parse_exact(HashMode::Sm3, rho, 1, 2, &mut want);
            for blocks in [0usize, 1, 7, 14, 15] {
                let mut got = Poly::default();
                parse_exact_sm3_after(rho, 1, 2, &first[..32 * blocks], &mut got);
                assert_eq!(got, want, "entry {t}, {blocks} blocks given");
            }
        }
    }

    /// A toy XOF over a fixed byte string, to drive the refill path on purpose.
    fn scripted(bytes: &[u8]) -> Poly {
        // Build a buffer where most values are rejected (13-bit values >= q), so that the
        // first squeeze runs dry and the refill path runs.
        let mut r = Poly::default();
        let mut ctr = 0;
        let pos = rej_pass(&mut |i, v| r.0[i] = v, &mut ctr, &mut &bytes[..]);
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
                let mut xof = MatrixXof::empty(mode);
                xof.start(&rho, s, 1);
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
        let pos = rej_pass(&mut |i, v| r.0[i] = v, &mut ctr, &mut &all_rejected[..]);
        assert_eq!((ctr, pos), (0, 39));
        // With 250 values already present, the single-value path runs and stops early.
        let mut ctr = 250;
        let zeros = [0u8; 5];
        let pos = rej_pass(&mut |i, v| r.0[i] = v, &mut ctr, &mut &zeros[..]);
        // values 0, 1, 2 fit (need 2, 4, 5 bytes), value 3 needs pos + 6 < 5: stop, skip 5.
        assert_eq!((ctr, pos), (253, 5));
    }

    /// The reference's parse with its whole first squeeze in one buffer, as a model.
    fn parse_whole(stream: &[u8], rate: usize, len: usize) -> Poly {
        let mut r = Poly::default();
        let mut push = |i: usize, v: i16| r.0[i] = v;
        let mut ctr = 0;
        let pos = rej_pass(&mut push, &mut ctr, &mut &stream[..len]);
        if ctr == N {
            return r;
        }
        let mut read = len;
        let mut left = len - pos;
        let mut work = [0u8; 168 + 13];
        work[rate..rate + left].copy_from_slice(&stream[pos..len]);
        while ctr < N {
            work[..rate].copy_from_slice(&stream[read..read + rate]);
            read += rate;
            let total = rate + left;
            let step = rej_pass(&mut push, &mut ctr, &mut &work[..total]);
            if ctr == N {
                break;
            }
            left = total - step;
            work.copy_within(step..total, rate);
        }
        r
    }

    /// The streaming parse equals the whole-buffer one on XOF outputs where the first
    /// squeeze runs out near its end or falls short (most 13-bit values rejected), so the
    /// single-value steps, the partial group at the end and the refill all run.
    #[test]
    fn streaming_parse_equals_whole_buffer_parse() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut rand = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut refills = 0;
        for (rate, blocks) in [(168usize, 3usize), (32, 15)] {
            let len = rate * blocks;
            for t in 0..400 {
                // Bytes of 0xff (values 8191, rejected) mixed with random ones, at a rate
                // that puts the 256th accepted value around the end of the first squeeze.
                let keep_in_256 = 200 + (t % 40) as u64;
                let stream: Vec<u8> = (0..len + 40 * rate)
                    .map(|_| {
                        let x = rand();
                        if x % 256 < keep_in_256 {
                            x as u8 >> 1
                        } else {
                            0xff
                        }
                    })
                    .collect();
                let whole = parse_whole(&stream, rate, len);
                let mut at = 0;
                let mut streamed = Poly::default();
                let mut calls = 0;
                parse_stream(
                    |out: &mut [u8]| {
                        out.copy_from_slice(&stream[at..at + out.len()]);
                        at += out.len();
                    },
                    rate,
                    len,
                    &mut |i, v| {
                        assert_eq!(i, calls, "coefficients come in order");
                        calls += 1;
                        streamed.0[i] = v;
                    },
                );
                assert_eq!(calls, N);
                assert_eq!(whole, streamed, "rate {rate}, trial {t}");
                if at > len {
                    refills += 1;
                }
            }
        }
        assert!(refills > 50, "the refill path ran {refills} times");
    }
}
