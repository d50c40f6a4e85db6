//! Matrix and noise sampling over Keccak lanes (SHAKE mode) and eight SM3 lanes (SM3
//! mode), and the jobs that spread matrix entries over the lanes.

use super::*;

/// Matrix and noise sampling over W Keccak lanes; instantiated for 4 lanes here and for 8
/// in the AVX-512 backend.
macro_rules! lane_sampling {
    ($w:literal, $kernel:ident, $parse:path) => {
        $crate::aigis::x86::avx2::lane_sampling!($w, $kernel, $parse, permute, permute_busy);
    };
    ($w:literal, $kernel:ident, $parse:path, $permute:ident, $permute_busy:ident) => {
        /// Matrix entries: job (x, y, at) writes Parse(SHAKE128(ρ ‖ x ‖ y)) to `out[at]`,
        /// W streams at a time.
        #[kernel($kernel)]
        pub fn gen_entries(rho: &[u8; SEED_BYTES], jobs: &[(u8, u8, usize)], out: &mut [Poly]) {
            let mut bufs = [[0u8; FIRST_SQUEEZE_MAX]; $w];
            for batch in jobs.chunks($w) {
                let ext: [[u8; 2]; $w] =
                    core::array::from_fn(|l| batch.get(l).map_or([0, 0], |c| [c.0, c.1]));
                let parts: [[&[u8]; 2]; $w] = core::array::from_fn(|l| [&rho[..], &ext[l][..]]);
                let mut lanes = ShakeLanes::<$w, SHAKE128_RATE>::absorb(&parts);
                for blk in 0..3 {
                    lanes.$permute();
                    for (l, buf) in bufs.iter_mut().enumerate().take(batch.len()) {
                        lanes.block(l, &mut buf[blk * SHAKE128_RATE..(blk + 1) * SHAKE128_RATE]);
                    }
                }
                for (&(x, y, at), buf) in batch.iter().zip(bufs.iter()) {
                    if !$parse(buf, &mut out[at]) {
                        parse_exact(HashMode::Shake, rho, x, y, &mut out[at]);
                    }
                }
            }
        }

        /// Matrix entries (as [`gen_entries`]) and SHA3-256 hashes (`hashes[i].1 =
        /// H(hashes[i].0)`) together: each lane takes its next job as soon as its current one
        /// ends, so a long hash (of pk or ct) runs beside the entries instead of after them.
        #[kernel($kernel)]
        pub fn entries_and_hashes(
            rho: &[u8; SEED_BYTES],
            entries: &[(u8, u8, usize)],
            out: &mut [Poly],
            hashes: &mut [(&[u8], &mut [u8; SEED_BYTES])],
        ) {
            use $crate::aigis::x86::keccak::{LaneJob, LanePlan, MAX_LANE_HASHES};
            let mut lens = [0usize; MAX_LANE_HASHES];
            for (len, h) in lens.iter_mut().zip(hashes.iter()) {
                *len = h.0.len();
            }
            let plan = LanePlan::<$w>::new(entries, &lens[..hashes.len()]);
            let mut lanes = ShakeLanes::<$w, SHAKE128_RATE>::zeroed();
            let mut bufs = [[0u8; FIRST_SQUEEZE_MAX]; $w];
            let mut next = [0usize; $w];
            let mut step = [0usize; $w];
            loop {
                let mut busy = 0usize;
                for l in 0..$w {
                    let Some(job) = plan.job(l, next[l]) else {
                        continue;
                    };
                    busy |= 1 << l;
                    if step[l] >= job.shape().0 {
                        continue;
                    }
                    match job {
                        LaneJob::Entry { x, y, .. } => {
                            let mut input = [0u8; SEED_BYTES + 2];
                            input[..SEED_BYTES].copy_from_slice(rho);
                            input[SEED_BYTES..].copy_from_slice(&[x, y]);
                            lanes.xor_padded_block(l, &input, 0, SHAKE128_RATE, 0x1f);
                        }
                        LaneJob::Hash { i, .. } => lanes.xor_padded_block(
                            l,
                            hashes[i].0,
                            step[l],
                            $crate::aigis::hash::SHA3_256_RATE,
                            0x06,
                        ),
                    }
                }
                if busy == 0 {
                    break;
                }
                lanes.$permute_busy(busy);
                for l in 0..$w {
                    let Some(job) = plan.job(l, next[l]) else {
                        continue;
                    };
                    let (absorbed, squeezed, rate) = job.shape();
                    step[l] += 1;
                    if step[l] < absorbed {
                        continue;
                    }
                    let s = step[l] - absorbed;
                    match job {
                        LaneJob::Entry { x, y, at } => {
                            lanes.block(l, &mut bufs[l][s * rate..(s + 1) * rate]);
                            if s + 1 == squeezed
                                && !$parse(&bufs[l][..squeezed * rate], &mut out[at])
                            {
                                parse_exact(HashMode::Shake, rho, x, y, &mut out[at]);
                            }
                        }
                        LaneJob::Hash { i, .. } => lanes.block(l, &mut hashes[i].1[..]),
                    }
                    if s + 1 == squeezed {
                        lanes.clear(l);
                        next[l] += 1;
                        step[l] = 0;
                    }
                }
            }
            lanes.wipe();
        }

        /// Noise polynomials with nonces 0, 1, ..., W SHAKE256 streams at a time.
        #[kernel($kernel)]
        pub fn noise_shake(seed: &[u8; SEED_BYTES], etas: &[usize], out: &mut [Poly]) {
            let blocks_of = |i: usize| noise_bytes(etas[i]).div_ceil(SHAKE256_RATE);
            // Widest first, so that the lanes still squeezing after the narrow ones finish
            // are the first ones (see `permute_busy`).
            let mut order = [0usize; $crate::aigis::indcpa::MAX_NOISE];
            let n = etas.len();
            for (i, o) in order.iter_mut().enumerate().take(n) {
                *o = i;
            }
            $crate::aigis::x86::sort_widest_first(&mut order[..n], |&i| blocks_of(i));
            let mut bufs = [[0u8; 4 * SHAKE256_RATE]; $w];
            for chunk in order[..n].chunks($w) {
                let mut nonces = [[0u8; 1]; $w];
                for (nonce, &i) in nonces.iter_mut().zip(chunk) {
                    *nonce = [i as u8];
                }
                let parts: [[&[u8]; 2]; $w] = core::array::from_fn(|l| [&seed[..], &nonces[l][..]]);
                let mut lanes = ShakeLanes::<$w, SHAKE256_RATE>::absorb(&parts);
                for blk in 0..blocks_of(chunk[0]) {
                    let mut busy = 0usize;
                    for (l, &i) in chunk.iter().enumerate() {
                        if blocks_of(i) > blk {
                            busy |= 1 << l;
                        }
                    }
                    lanes.$permute_busy(busy);
                    for (l, &i) in chunk.iter().enumerate() {
                        if blocks_of(i) > blk {
                            lanes.block(
                                l,
                                &mut bufs[l][blk * SHAKE256_RATE..(blk + 1) * SHAKE256_RATE],
                            );
                        }
                    }
                }
                lanes.wipe();
                for (&i, buf) in chunk.iter().zip(bufs.iter()) {
                    $crate::aigis::x86::avx2::cbd_vec(
                        &mut out[i],
                        &buf[..noise_bytes(etas[i])],
                        etas[i],
                    );
                }
            }
            $crate::wipe::bytes(bufs.as_flattened_mut());
        }
    };
}
pub(crate) use lane_sampling;

lane_sampling!(4, AIGIS_LANES_AVX2, parse_fast);

/// Matrix entries in SM3 mode: job (x, y, at) writes Parse of the counter blocks
/// SM3(BE32(c) ‖ ρ ‖ x ‖ y) to `out[at]`. The first-squeeze blocks of all entries are
/// independent, so they are hashed eight at a time across entries.
#[kernel(AIGIS_LANES_AVX2)]
pub fn gen_entries_sm3(rho: &[u8; SEED_BYTES], jobs: &[(u8, u8, usize)], out: &mut [Poly]) {
    const BLOCKS: usize = HashMode::Sm3.xof_first_blocks();
    let mut bufs = [[0u8; BLOCKS * SM3_RATE]; MAX_K * MAX_K];
    let total = jobs.len() * BLOCKS;
    for first in (0..total).step_by(8) {
        // Lanes past the last task repeat it; their digests are dropped.
        let blocks: [[u8; sm3::BLOCK]; 8] = core::array::from_fn(|l| {
            let task = (first + l).min(total - 1);
            let (x, y, _) = jobs[task / BLOCKS];
            sm3::padded_counter_block((task % BLOCKS) as u32, &[rho, &[x, y]])
        });
        let digests = sm3::digest_blocks_x8(&blocks);
        for (task, d) in (first..total).zip(digests.iter()) {
            let at = (task % BLOCKS) * SM3_RATE;
            bufs[task / BLOCKS][at..at + SM3_RATE].copy_from_slice(d);
        }
    }
    for (&(x, y, at), buf) in jobs.iter().zip(bufs.iter()) {
        if !parse_fast(buf, &mut out[at]) {
            parse_exact(HashMode::Sm3, rho, x, y, &mut out[at]);
        }
    }
}

/// Noise polynomials with nonces 0, 1, ... in SM3 mode: every 32-byte counter block of
/// every polynomial's PRF output is one task, eight tasks per multi-buffer SM3 call.
#[kernel(AIGIS_LANES_AVX2)]
pub fn noise_sm3(seed: &[u8; SEED_BYTES], etas: &[usize], out: &mut [Poly]) {
    let mut bufs = [[0u8; noise_bytes(8)]; MAX_NOISE];
    let mut tasks = [(0u8, 0u8); MAX_NOISE * noise_bytes(8) / SM3_RATE];
    let mut total = 0;
    for (i, &e) in etas.iter().enumerate() {
        for c in 0..noise_bytes(e) / SM3_RATE {
            tasks[total] = (i as u8, c as u8);
            total += 1;
        }
    }
    for first in (0..total).step_by(8) {
        let mut blocks: [[u8; sm3::BLOCK]; 8] = core::array::from_fn(|l| {
            let (i, c) = tasks[(first + l).min(total - 1)];
            sm3::padded_counter_block(u32::from(c), &[seed, &[i]])
        });
        let mut digests = sm3::digest_blocks_x8(&blocks);
        for (&(i, c), d) in tasks[first..total].iter().zip(digests.iter()) {
            let at = usize::from(c) * SM3_RATE;
            bufs[usize::from(i)][at..at + SM3_RATE].copy_from_slice(d);
        }
        crate::wipe::bytes(blocks.as_flattened_mut());
        crate::wipe::bytes(digests.as_flattened_mut());
    }
    for ((&e, p), buf) in etas.iter().zip(out.iter_mut()).zip(bufs.iter()) {
        cbd_vec(p, &buf[..noise_bytes(e)], e);
    }
    crate::wipe::bytes(bufs.as_flattened_mut());
}

/// The jobs of `gen_entries` for a k x k matrix laid out MAX_K polynomials per row.
pub fn matrix_jobs(k: usize, transposed: bool) -> ([(u8, u8, usize); MAX_K * MAX_K], usize) {
    let mut jobs = [(0u8, 0u8, 0usize); MAX_K * MAX_K];
    let mut n = 0;
    for i in 0..k {
        for j in 0..k {
            let (x, y) = if transposed { (j, i) } else { (i, j) };
            jobs[n] = (x as u8, y as u8, i * MAX_K + j);
            n += 1;
        }
    }
    (jobs, n)
}

/// The jobs for row i alone.
pub fn row_jobs(k: usize, i: usize, transposed: bool) -> [(u8, u8, usize); MAX_K] {
    core::array::from_fn(|j| {
        let (x, y) = if transposed { (j, i) } else { (i, j) };
        (x as u8, y as u8, j)
    })
    .map(|job| if job.2 < k { job } else { (0, 0, job.2) })
}

/// `Arith::matrix_and_hashes` on the lane engine `entries_and_hashes` in scope (SHAKE
/// mode; SM3 mode runs the two one after the other).
macro_rules! matrix_and_hashes_on_lanes {
    () => {
        #[inline(always)]
        fn matrix_and_hashes(
            self,
            mode: HashMode,
            rho: &[u8; SEED_BYTES],
            k: usize,
            transposed: bool,
            a: &mut Matrix,
            hashes: &mut [(&[u8], &mut [u8; SEED_BYTES])],
        ) {
            if mode == HashMode::Sm3 {
                return $crate::aigis::arith::default_matrix_and_hashes(
                    self, mode, rho, k, transposed, a, hashes,
                );
            }
            let (jobs, n) = $crate::aigis::x86::avx2::matrix_jobs(k, transposed);
            // SAFETY: `self` exists, so the CPU runs the backend (see its type).
            unsafe { entries_and_hashes(rho, &jobs[..n], a.as_flattened_mut(), hashes) }
        }
    };
}
pub(crate) use matrix_and_hashes_on_lanes;
