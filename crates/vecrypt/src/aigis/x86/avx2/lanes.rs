//! Matrix and noise sampling over Keccak lanes (SHAKE mode) and SM3 lanes (SM3 mode), and
//! the jobs that spread matrix entries over the lanes.

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

/// What one SM3 lane is doing: nothing, counter block `c` of template `t`, or block
/// `step` of the `blocks`-block hash `i`.
#[derive(Clone, Copy)]
pub enum Sm3Job {
    Idle,
    Single {
        t: usize,
        c: usize,
    },
    Hash {
        i: usize,
        step: usize,
        blocks: usize,
    },
}

/// Blocks of SM3(BE32(0) ‖ data) for `len` bytes of data.
#[inline(always)]
pub const fn sm3_hash_blocks(len: usize) -> usize {
    (4 + len + 9).div_ceil(sm3::BLOCK)
}

/// Block `i` of the padded message BE32(0) ‖ `data`. Branches only on lengths.
#[inline(always)]
pub fn sm3_hash_block(data: &[u8], i: usize, out: &mut [u8; sm3::BLOCK]) {
    let len = 4 + data.len();
    let start = i * sm3::BLOCK;
    *out = [0; sm3::BLOCK];
    let (from, to) = (start.max(4), (start + sm3::BLOCK).min(len));
    if from < to {
        out[from - start..to - start].copy_from_slice(&data[from - 4..to - 4]);
    }
    if (start..start + sm3::BLOCK).contains(&len) {
        out[len - start] = 0x80;
    }
    if i + 1 == sm3_hash_blocks(data.len()) {
        out[sm3::BLOCK - 8..].copy_from_slice(&((len as u64) * 8).to_be_bytes());
    }
}

/// The SM3 mode's matrix, noise and hashes on W lanes of `$compress`; instantiated for 8
/// lanes (AVX2) here and 16 (AVX-512) in the AVX-512 backend.
macro_rules! sm3_lanes {
    ($w:literal, $kernel:ident, $compress:path, $parse:path) => {
        /// SM3 counter blocks and hashes, W compressions at a time. Template `t` is a
        /// padded one-block message BE32(c) ‖ ...; its counter blocks c = 0 ..
        /// `counts[t]` go to `out[t stride + 32 c ..]`. `hashes[i].1 = SM3(BE32(0) ‖
        /// hashes[i].0)`, each hash one lane for its whole length, started first so that
        /// the counter blocks fill the other lanes around them; hashes longer than
        /// `max_hash_blocks` blocks are left to the caller, except `hashes[side]`, which
        /// advances one block a call on the scalar units beside the lanes (`$compress`
        /// takes it) and is finished on the scalar code if the lanes finish first.
        #[kernel($kernel)]
        pub fn sm3_tasks(
            templates: &[[u8; $crate::aigis::x86::sm3::BLOCK]],
            counts: &[usize],
            stride: usize,
            out: &mut [u8],
            hashes: &mut [(&[u8], &mut [u8; SEED_BYTES])],
            max_hash_blocks: usize,
            side: Option<usize>,
        ) {
            use $crate::aigis::x86::avx2::{Sm3Job, sm3_hash_block, sm3_hash_blocks};
            use $crate::aigis::x86::sm3::{BLOCK, IV, Sm3Step};
            let mut state = [[0u32; $w]; 8];
            let mut blocks = [[0u8; BLOCK]; $w];
            let mut jobs = [Sm3Job::Idle; $w];
            let mut step_io = Sm3Step::<$w>::new();
            // The template each lane's block holds, so that a counter block is copied in
            // only when its lane moves to another template.
            let mut holds = [usize::MAX; $w];
            let mut next_hash = 0;
            let (mut t, mut c) = (0, 0);
            let mut side_v = IV;
            let mut side_step = 0;
            let side_total = side.map_or(0, |i| sm3_hash_blocks(hashes[i].0.len()));
            let mut side_blocks = [[0u8; BLOCK]; 1];
            while t < counts.len() && counts[t] == 0 {
                t += 1;
            }
            loop {
                let mut busy = false;
                step_io.restart = 0;
                step_io.counted = 0;
                for l in 0..$w {
                    let carry_on = matches!(jobs[l], Sm3Job::Hash { step, blocks, .. } if step < blocks);
                    if !carry_on {
                        while next_hash < hashes.len()
                            && sm3_hash_blocks(hashes[next_hash].0.len()) > max_hash_blocks
                        {
                            next_hash += 1;
                        }
                        jobs[l] = if next_hash < hashes.len() {
                            next_hash += 1;
                            Sm3Job::Hash {
                                i: next_hash - 1,
                                step: 0,
                                blocks: sm3_hash_blocks(hashes[next_hash - 1].0.len()),
                            }
                        } else if t < counts.len() {
                            let job = Sm3Job::Single { t, c };
                            c += 1;
                            while t < counts.len() && c >= counts[t] {
                                t += 1;
                                c = 0;
                            }
                            job
                        } else {
                            Sm3Job::Idle
                        };
                        step_io.restart |= 1 << l;
                    }
                    match jobs[l] {
                        Sm3Job::Idle => {}
                        Sm3Job::Single { t, c } => {
                            busy = true;
                            if holds[l] != t {
                                blocks[l] = templates[t];
                                holds[l] = t;
                            }
                            step_io.counted |= 1 << l;
                            step_io.counters[l] = c as u32;
                        }
                        Sm3Job::Hash { i, step, .. } => {
                            busy = true;
                            sm3_hash_block(hashes[i].0, step, &mut blocks[l]);
                            holds[l] = usize::MAX;
                        }
                    }
                }
                if !busy {
                    break;
                }
                let beside = (side_total - side_step).min(1);
                if let Some(i) = side {
                    for (h, b) in side_blocks[..beside].iter_mut().enumerate() {
                        sm3_hash_block(hashes[i].0, side_step + h, b);
                    }
                }
                $compress(&mut state, &blocks, &mut step_io, &mut side_v, &side_blocks[..beside]);
                side_step += beside;
                for l in 0..$w {
                    let dst: &mut [u8] = match &mut jobs[l] {
                        Sm3Job::Idle => continue,
                        Sm3Job::Single { t, c } => {
                            let at = *t * stride + *c * 32;
                            &mut out[at..at + 32]
                        }
                        Sm3Job::Hash { i, step, blocks } => {
                            *step += 1;
                            if *step < *blocks {
                                continue;
                            }
                            &mut hashes[*i].1[..]
                        }
                    };
                    dst.copy_from_slice(&step_io.digests[l]);
                }
            }
            if let Some(i) = side {
                for step in side_step..side_total {
                    sm3_hash_block(hashes[i].0, step, &mut side_blocks[0]);
                    $crate::aigis::sm3_counter::sm3_compress(&mut side_v, &side_blocks[0]);
                }
                for (d, x) in hashes[i].1.chunks_exact_mut(4).zip(side_v) {
                    d.copy_from_slice(&x.to_be_bytes());
                }
            }
            $crate::wipe::u32s(state.as_flattened_mut());
            $crate::wipe::bytes(blocks.as_flattened_mut());
            $crate::wipe::bytes(side_blocks.as_flattened_mut());
        }

        /// Matrix entries in SM3 mode: job (x, y, at) writes Parse of the counter blocks
        /// SM3(BE32(c) ‖ ρ ‖ x ‖ y) to `out[at]`, with the hashes `hashes[i].1 =
        /// H(hashes[i].0)` beside them (see [`sm3_tasks`]).
        #[kernel($kernel)]
        pub fn gen_entries_sm3(
            rho: &[u8; SEED_BYTES],
            jobs: &[(u8, u8, usize)],
            out: &mut [Poly],
            hashes: &mut [(&[u8], &mut [u8; SEED_BYTES])],
        ) {
            const BYTES: usize = HashMode::Sm3.xof_first_blocks() * SM3_RATE;
            let seed = &[0; SEED_BYTES];
            entries_and_noise_sm3::<{ MAX_K * MAX_K }, BYTES>(rho, jobs, out, seed, &[], &mut [], hashes);
        }

        /// [`gen_entries_sm3`] and, in the same lanes, `noise[i] =
        /// CBD_{etas[i]}(PRF(seed, i))` as [`noise_sm3`] computes it: when the noise's seed
        /// is known before the matrix (decapsulation), one batch of lanes does both, with
        /// fewer partly filled steps and more of a long hash beside them. Up to `TASKS`
        /// polynomials, each output at `STRIDE` bytes (enough for either kind).
        #[kernel($kernel)]
        pub fn entries_and_noise_sm3<const TASKS: usize, const STRIDE: usize>(
            rho: &[u8; SEED_BYTES],
            jobs: &[(u8, u8, usize)],
            out: &mut [Poly],
            seed: &[u8; SEED_BYTES],
            etas: &[usize],
            noise: &mut [Poly],
            hashes: &mut [(&[u8], &mut [u8; SEED_BYTES])],
        ) {
            use $crate::aigis::x86::avx2::sm3_hash_blocks;
            use $crate::aigis::x86::sm3::{BLOCK, padded_counter_block};
            const BLOCKS: usize = HashMode::Sm3.xof_first_blocks();
            const BYTES: usize = BLOCKS * SM3_RATE;
            let (n, m) = (jobs.len(), etas.len());
            assert!(n + m <= TASKS && BYTES <= STRIDE);
            assert!(etas.iter().all(|&e| noise_bytes(e) <= STRIDE));
            let mut templates = [[0u8; BLOCK]; TASKS];
            let mut counts = [0usize; TASKS];
            for ((t, c), &(x, y, _)) in templates.iter_mut().zip(counts.iter_mut()).zip(jobs) {
                *t = padded_counter_block(0, &[rho, &[x, y]]);
                *c = BLOCKS;
            }
            for (i, &e) in etas.iter().enumerate() {
                templates[n + i] = padded_counter_block(0, &[seed, &[i as u8]]);
                counts[n + i] = noise_bytes(e) / SM3_RATE;
            }
            let mut bufs = [[0u8; STRIDE]; TASKS];
            let bufs = bufs.as_flattened_mut();
            // A hash longer than the counter blocks' own steps would keep the other lanes
            // waiting: the first runs beside the lanes on the scalar units, any other on
            // the one-lane code.
            let steps = counts[..n + m].iter().sum::<usize>().div_ceil($w);
            let side = hashes
                .iter()
                .position(|(input, _)| sm3_hash_blocks(input.len()) > steps);
            for (i, (input, h)) in hashes.iter_mut().enumerate() {
                if sm3_hash_blocks(input.len()) > steps && Some(i) != side {
                    **h = $crate::aigis::hash::sm3_counter_block(0, &[input]);
                }
            }
            let (t, c) = (&templates[..n + m], &counts[..n + m]);
            sm3_tasks(t, c, STRIDE, bufs, hashes, steps, side);
            let (entry_bufs, noise_bufs) = bufs.split_at_mut(n * STRIDE);
            for (&(x, y, at), buf) in jobs.iter().zip(entry_bufs.chunks_exact(STRIDE)) {
                let first_squeeze = &buf[..BYTES];
                if !$parse(first_squeeze, &mut out[at]) {
                    $crate::aigis::sampling::parse_exact_sm3_after(rho, x, y, first_squeeze, &mut out[at]);
                }
            }
            for ((&e, p), buf) in etas.iter().zip(noise.iter_mut()).zip(noise_bufs.chunks_exact(STRIDE)) {
                $crate::aigis::x86::avx2::cbd_vec(p, &buf[..noise_bytes(e)], e);
            }
            // The noise's templates and PRF output are secret.
            $crate::wipe::bytes(templates[n..].as_flattened_mut());
            $crate::wipe::bytes(noise_bufs);
        }

        /// Noise polynomials with nonces 0, 1, ... in SM3 mode: every 32-byte counter
        /// block of every polynomial's PRF output is one task of [`sm3_tasks`]
        /// ([`entries_and_noise_sm3`] without matrix entries).
        #[kernel($kernel)]
        pub fn noise_sm3(seed: &[u8; SEED_BYTES], etas: &[usize], out: &mut [Poly]) {
            use $crate::aigis::indcpa::MAX_NOISE;
            const STRIDE: usize = noise_bytes(8);
            let rho = &[0; SEED_BYTES];
            entries_and_noise_sm3::<MAX_NOISE, STRIDE>(rho, &[], &mut [], seed, etas, out, &mut []);
        }
    };
}
pub(crate) use sm3_lanes;

sm3_lanes!(8, AIGIS_LANES_AVX2, sm3::compress_x8_side, parse_fast);

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

/// `Arith::matrix_and_hashes` on the lane engines in scope: `entries_and_hashes` (SHAKE
/// mode) and `gen_entries_sm3` (SM3 mode); and `Arith::transposed_matrix_noise_and_hashes`,
/// which in SM3 mode runs the matrix and the noise in one batch of lanes
/// (`entries_and_noise_sm3`).
macro_rules! matrix_and_hashes_on_lanes {
    () => {
        #[inline(always)]
        fn transposed_matrix_noise_and_hashes(
            self,
            mode: HashMode,
            rho: &[u8; SEED_BYTES],
            k: usize,
            at: &mut Matrix,
            noise: $crate::aigis::arith::NoiseRequest<'_>,
            hashes: &mut [(&[u8], &mut [u8; SEED_BYTES])],
        ) {
            use $crate::aigis::cbd::noise_bytes;
            use $crate::aigis::indcpa::MAX_NOISE;
            if mode == HashMode::Shake {
                self.matrix_and_hashes(mode, rho, k, true, at, hashes);
                return self.noise(mode, noise.seed, noise.etas, noise.out);
            }
            const TASKS: usize = MAX_K * MAX_K + MAX_NOISE;
            const STRIDE: usize = noise_bytes(8);
            let (jobs, n) = $crate::aigis::x86::avx2::matrix_jobs(k, true);
            let flat = at.as_flattened_mut();
            let $crate::aigis::arith::NoiseRequest { seed, etas, out } = noise;
            // SAFETY: `self` exists, so the CPU runs the backend (see its type).
            unsafe {
                entries_and_noise_sm3::<TASKS, STRIDE>(
                    rho,
                    &jobs[..n],
                    flat,
                    seed,
                    etas,
                    out,
                    hashes,
                )
            }
        }

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
            let (jobs, n) = $crate::aigis::x86::avx2::matrix_jobs(k, transposed);
            let flat = a.as_flattened_mut();
            // SAFETY: `self` exists, so the CPU runs the backend (see its type).
            unsafe {
                match mode {
                    HashMode::Shake => entries_and_hashes(rho, &jobs[..n], flat, hashes),
                    HashMode::Sm3 => gen_entries_sm3(rho, &jobs[..n], flat, hashes),
                }
            }
        }
    };
}
pub(crate) use matrix_and_hashes_on_lanes;
