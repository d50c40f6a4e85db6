//! SM3 (GB/T 32905-2016) on four independent messages at once, one per 32-bit lane of a
//! NEON register, and the SM3 mode's matrix and noise on it.
//!
//! The SM3 hash mode of Aigis-enc expands the matrix and the noise in counter mode: every
//! 32-byte output block is the digest of a one-block message BE32(c) ‖ seed ‖ indices, so
//! the blocks are independent and four of them advance together. All the counter blocks
//! of one call (15 per matrix entry, `noise_bytes(eta) / 32` per noise polynomial) form
//! one queue that fills the four lanes in order; an entry or polynomial is parsed or
//! sampled as soon as its last block is out, so only four of them are ever held.
//!
//! Rotations are a shift left and a shift right with insert (`SHL` + `SRI`, which LLVM
//! emits as `SHL` + `USRA`); the majority and choice of rounds 16-63 are built on `BSL`.
//! The message schedule is a rolling window of sixteen registers and the rounds are
//! unrolled sixteen at a time, so no register moves are needed between rounds and the
//! expansion of each word runs among the rounds.
//!
//! A compression of four blocks is about 2,900 instructions: 692 for the loads, transposes
//! and rounds 0-15, and 739 for each pass of sixteen of rounds 16-63. The rounds are bound
//! by their dependency chain, and the expansion of the schedule runs in its shadow. The
//! llvm-mca estimates and the instruction counts under `qemu-aarch64` are in
//! `docs/perf/aigis.md`.

use core::arch::aarch64::*;

use super::super::hash::{HashMode, SM3_RATE};
use super::super::params::SEED_BYTES;
use super::super::poly::Poly;
use super::super::sampling::{parse_exact_sm3_after, parse_fast};
use crate::aigis::cbd::noise_bytes;
use crate::cpu::kernel;

use crate::aigis::sm3_counter::{
    SM3_IV as IV, SM3_T as T_ROTATED, padded_counter_block, sm3_expand_window, sm3_sixteen_rounds,
};

/// Bytes of one SM3 block.
pub(super) const BLOCK: usize = 64;

/// Lanes of one compression.
pub(super) const LANES: usize = 4;

macro_rules! rotl {
    ($x:expr, $n:literal) => {
        vsriq_n_u32::<{ 32 - $n }>(vshlq_n_u32::<$n>($x), $x)
    };
}

#[kernel(AIGIS_NEON)]
#[inline]
fn xor3(a: uint32x4_t, b: uint32x4_t, c: uint32x4_t) -> uint32x4_t {
    veorq_u32(veorq_u32(a, b), c)
}

/// Rows `r[l]` (four words of lane l) to columns: word i of every lane in result i.
#[kernel(AIGIS_NEON)]
#[inline]
fn transpose4(r: [uint32x4_t; 4]) -> [uint32x4_t; 4] {
    let t0 = vreinterpretq_u64_u32(vtrn1q_u32(r[0], r[1]));
    let t1 = vreinterpretq_u64_u32(vtrn2q_u32(r[0], r[1]));
    let t2 = vreinterpretq_u64_u32(vtrn1q_u32(r[2], r[3]));
    let t3 = vreinterpretq_u64_u32(vtrn2q_u32(r[2], r[3]));
    [
        vreinterpretq_u32_u64(vtrn1q_u64(t0, t2)),
        vreinterpretq_u32_u64(vtrn1q_u64(t1, t3)),
        vreinterpretq_u32_u64(vtrn2q_u64(t0, t2)),
        vreinterpretq_u32_u64(vtrn2q_u64(t1, t3)),
    ]
}

/// Four compressions: lane l of the chaining value `v` absorbs `blocks[l]`. The message
/// schedule is a rolling window of sixteen registers (W\[j + 4\] written over W\[j - 12\]
/// as round j needs it) and the rounds are unrolled sixteen at a time
/// (`sm3_sixteen_rounds`), so the expansion runs among the rounds, whose dependency chain
/// leaves the pipes idle, and no schedule array is stored.
#[kernel(AIGIS_NEON)]
#[inline]
pub(super) fn compress_x4(v: &mut [uint32x4_t; 8], blocks: &[[u8; BLOCK]; LANES]) {
    let mut w = [vdupq_n_u32(0); 16];
    for q in 0..4 {
        // SAFETY: each block is 64 readable bytes and 16 q + 16 <= 64; `vld1q_u8` has no
        // alignment requirement.
        let rows: [uint32x4_t; 4] = core::array::from_fn(|l| unsafe {
            vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(blocks[l].as_ptr().add(16 * q))))
        });
        w[4 * q..4 * q + 4].copy_from_slice(&transpose4(rows));
    }
    // Majority: z where x and y differ, else x; choice: y where x, else z.
    let majority = |x, y, z| vbslq_u32(veorq_u32(x, y), z, x);
    let choice = |x, y, z| vbslq_u32(x, y, z);
    let mut s = *v;
    macro_rules! round {
        ($j:expr, $i:literal, $late:literal) => {{
            let j: usize = $j;
            if j + 4 >= 16 {
                sm3_expand_window!(w, $i);
            }
            let [a, b, c, d, e, f, g, h] = s;
            let (ff, gg) = if $late {
                (majority(a, b, c), choice(e, f, g))
            } else {
                (xor3(a, b, c), xor3(e, f, g))
            };
            let (wj, wj4) = (w[$i], w[($i + 4) % 16]);
            let a12 = rotl!(a, 12);
            let sum = vaddq_u32(vaddq_u32(a12, e), vdupq_n_u32(T_ROTATED[j]));
            let ss1 = rotl!(sum, 7);
            let ss2 = veorq_u32(ss1, a12);
            let tt1 = vaddq_u32(vaddq_u32(ff, d), vaddq_u32(ss2, veorq_u32(wj, wj4)));
            let tt2 = vaddq_u32(vaddq_u32(gg, h), vaddq_u32(ss1, wj));
            s = [
                tt1,
                a,
                rotl!(b, 9),
                c,
                xor3(tt2, rotl!(tt2, 9), rotl!(tt2, 17)),
                e,
                rotl!(f, 19),
                g,
            ];
        }};
    }
    sm3_sixteen_rounds!(0, false, round);
    for group in 1..4 {
        sm3_sixteen_rounds!(group, true, round);
    }
    for (vi, si) in v.iter_mut().zip(s) {
        *vi = veorq_u32(*vi, si);
    }
    crate::wipe::set(&mut w, [vdupq_n_u32(0); 16]);
}

/// The chaining value `v` as the four lanes' 32-byte digests.
#[kernel(AIGIS_NEON)]
#[inline]
pub(super) fn digests(v: &[uint32x4_t; 8]) -> [[u8; 32]; LANES] {
    let mut out = [[0u8; 32]; LANES];
    for h in 0..2 {
        let cols = transpose4([v[4 * h], v[4 * h + 1], v[4 * h + 2], v[4 * h + 3]]);
        for (o, col) in out.iter_mut().zip(cols) {
            // SAFETY: 16 h + 16 <= 32 writable bytes; `vst1q_u8` has no alignment requirement.
            unsafe {
                vst1q_u8(
                    o.as_mut_ptr().add(16 * h),
                    vrev32q_u8(vreinterpretq_u8_u32(col)),
                )
            };
        }
    }
    out
}

/// The counter blocks c = 0 .. `counts[t]` of every template t (a padded one-block message
/// BE32(0) ‖ ...), four compressions at a time, in order; `done(t, bytes)` receives the
/// `32 counts[t]` output bytes of template t as soon as its last block is out. `S` bytes
/// hold the largest output; an output is live only while one of its blocks is in the
/// four lanes, so four slots suffice.
#[kernel(AIGIS_NEON)]
#[inline]
fn counter_tasks<const S: usize>(
    templates: &[[u8; BLOCK]],
    counts: &[usize],
    mut done: impl FnMut(usize, &[u8]),
) {
    let mut slots = [[0u8; S]; LANES];
    let mut blocks = [[0u8; BLOCK]; LANES];
    let mut jobs = [(0usize, 0usize); LANES];
    let (mut t, mut c) = (0, 0);
    loop {
        while t < counts.len() && c >= counts[t] {
            t += 1;
            c = 0;
        }
        if t == counts.len() {
            break;
        }
        let mut used = 0;
        while used < LANES && t < counts.len() {
            jobs[used] = (t, c);
            blocks[used] = templates[t];
            blocks[used][..4].copy_from_slice(&(c as u32).to_be_bytes());
            used += 1;
            c += 1;
            while t < counts.len() && c >= counts[t] {
                t += 1;
                c = 0;
            }
        }
        let mut v = IV.map(|x| vdupq_n_u32(x));
        compress_x4(&mut v, &blocks);
        let mut out = digests(&v);
        for (&(jt, jc), o) in jobs.iter().zip(out.iter()).take(used) {
            let slot = &mut slots[jt % LANES];
            slot[jc * SM3_RATE..(jc + 1) * SM3_RATE].copy_from_slice(o);
            if jc + 1 == counts[jt] {
                done(jt, &slot[..counts[jt] * SM3_RATE]);
            }
        }
        crate::wipe::bytes(out.as_flattened_mut());
        crate::wipe::set(&mut v, [vdupq_n_u32(0); 8]);
    }
    crate::wipe::bytes(slots.as_flattened_mut());
    crate::wipe::bytes(blocks.as_flattened_mut());
}

/// Matrix entries in SM3 mode: job (x, y, at) writes Parse of the counter blocks
/// SM3(BE32(c) ‖ ρ ‖ x ‖ y), c = 0 .. 15, to `out[at]`; the rare entry that needs more
/// takes the blocks after those on the one-lane code.
#[kernel(AIGIS_NEON)]
#[inline]
pub(super) fn gen_entries_sm3(rho: &[u8; SEED_BYTES], jobs: &[(u8, u8, usize)], out: &mut [Poly]) {
    const BLOCKS: usize = HashMode::Sm3.xof_first_blocks();
    const BYTES: usize = BLOCKS * SM3_RATE;
    const MAX: usize = super::super::params::MAX_K * super::super::params::MAX_K;
    let mut templates = [[0u8; BLOCK]; MAX];
    for (t, &(x, y, _)) in templates.iter_mut().zip(jobs) {
        *t = padded_counter_block(0, &[rho, &[x, y]]);
    }
    let n = jobs.len();
    counter_tasks::<BYTES>(&templates[..n], &[BLOCKS; MAX][..n], |t, buf| {
        let (x, y, at) = jobs[t];
        if !parse_fast(buf, &mut out[at]) {
            parse_exact_sm3_after(rho, x, y, &buf[..BYTES], &mut out[at]);
        }
    });
}

/// Noise polynomials `out[i] = CBD_{etas[i]}(PRF(seed, i))` in SM3 mode: every 32-byte
/// counter block of every polynomial is one task of the four lanes.
#[kernel(AIGIS_NEON)]
#[inline]
pub(super) fn noise_sm3(seed: &[u8; SEED_BYTES], etas: &[usize], out: &mut [Poly]) {
    use super::super::indcpa::MAX_NOISE;
    let mut templates = [[0u8; BLOCK]; MAX_NOISE];
    let mut counts = [0usize; MAX_NOISE];
    for (i, &e) in etas.iter().enumerate() {
        templates[i] = padded_counter_block(0, &[seed, &[i as u8]]);
        counts[i] = noise_bytes(e) / SM3_RATE;
    }
    let n = etas.len();
    counter_tasks::<{ noise_bytes(8) }>(&templates[..n], &counts[..n], |i, buf| {
        super::cbd::cbd_vec(&mut out[i], buf, etas[i]);
    });
    crate::wipe::bytes(templates.as_flattened_mut());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::kernels;
    use sm3::{Digest, Sm3};

    /// Four SM3 digests of four messages of one common length, block by block.
    fn digest_x4(msgs: &[Vec<u8>]) -> [[u8; 32]; LANES] {
        let padded: Vec<Vec<u8>> = msgs
            .iter()
            .map(|m| {
                let mut p = m.clone();
                p.push(0x80);
                while p.len() % BLOCK != BLOCK - 8 {
                    p.push(0);
                }
                p.extend_from_slice(&((m.len() as u64) * 8).to_be_bytes());
                p
            })
            .collect();
        // SAFETY: the callers check NEON first.
        let mut v = IV.map(|x| unsafe { vdupq_n_u32(x) });
        for i in 0..padded[0].len() / BLOCK {
            let blocks: [[u8; BLOCK]; LANES] =
                core::array::from_fn(|l| padded[l][i * BLOCK..(i + 1) * BLOCK].try_into().unwrap());
            // SAFETY: the callers check NEON first.
            unsafe { compress_x4(&mut v, &blocks) };
        }
        // SAFETY: the callers check NEON first.
        unsafe { digests(&v) }
    }

    #[test]
    fn four_lanes_equal_the_sm3_crate_for_many_lengths() {
        if !kernels::AIGIS_NEON.runs() {
            return;
        }
        let mut x = 0x1234_5678u32;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        };
        for len in (0..=130).chain([191, 192, 200, 255, 256, 480, 1000]) {
            let msgs: Vec<Vec<u8>> = (0..LANES)
                .map(|_| (0..len).map(|_| next()).collect())
                .collect();
            let got = digest_x4(&msgs);
            for (l, m) in msgs.iter().enumerate() {
                let want: [u8; 32] = Sm3::digest(m).into();
                assert_eq!(got[l], want, "length {len}, lane {l}");
            }
        }
    }

    #[test]
    fn counter_tasks_equal_the_one_lane_blocks() {
        if !kernels::AIGIS_NEON.runs() {
            return;
        }
        let seed = [0x5au8; 32];
        let counts = [2usize, 1, 7, 3, 16, 2];
        let templates: Vec<[u8; BLOCK]> = (0..counts.len())
            .map(|i| padded_counter_block(0, &[&seed, &[i as u8]]))
            .collect();
        let mut seen = 0;
        // SAFETY: NEON was checked above.
        unsafe {
            counter_tasks::<512>(&templates, &counts, |t, buf| {
                assert_eq!(t, seen, "in order");
                seen += 1;
                assert_eq!(buf.len(), 32 * counts[t]);
                for (c, got) in buf.chunks_exact(32).enumerate() {
                    let want =
                        crate::aigis::hash::sm3_counter_block(c as u32, &[&seed, &[t as u8]]);
                    assert_eq!(got, want, "template {t}, counter {c}");
                }
            })
        };
        assert_eq!(seen, counts.len());
    }
}
