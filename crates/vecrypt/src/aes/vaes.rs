//! VAES on 256-bit (two blocks per register) and 512-bit (four blocks) registers.
//!
//! One body of kernels, written once over a small set of width-specific primitives, is
//! instantiated for each width. Enough registers are kept in flight to cover the three-cycle
//! latency at the issue rate of each width (ymm: two per cycle, zmm: one). Every public
//! function re-checks the CPU and falls back to AES-NI, which itself falls back to software.

use super::ghash::{MAX_BATCH, POWERS};
use super::{CounterWidth, RoundKeys, aesni};

macro_rules! by_rounds {
    ($rounds:expr, $f:ident $(:: <$($g:literal),*>)? ($($arg:expr),*)) => {
        match $rounds {
            10 => $f::<10 $($(, $g)*)?>($($arg),*),
            12 => $f::<12 $($(, $g)*)?>($($arg),*),
            _ => $f::<14 $($(, $g)*)?>($($arg),*),
        }
    };
}

/// The kernels, in terms of `V`, `LANES`, `UNROLL`, `FEATURES` and the primitives of the
/// module that expands it.
macro_rules! vaes_kernels {
    ($features:literal) => {
        const BYTES: usize = 16 * LANES;

        #[target_feature(enable = $features)]
        #[inline]
        fn round_keys(keys: &[[u8; 16]; 15]) -> [V; 15] {
            core::array::from_fn(|r| bcast(&keys[r]))
        }

        #[target_feature(enable = $features)]
        #[inline]
        fn encrypt_n<const NR: usize, const N: usize>(k: &[V; 15], b: &mut [V; N]) {
            for x in b.iter_mut() {
                *x = xor(*x, k[0]);
            }
            for key in &k[1..NR] {
                for x in b.iter_mut() {
                    *x = enc(*x, *key);
                }
            }
            for x in b.iter_mut() {
                *x = enclast(*x, k[NR]);
            }
        }

        #[target_feature(enable = $features)]
        #[inline]
        fn decrypt_n<const NR: usize, const N: usize>(k: &[V; 15], b: &mut [V; N]) {
            for x in b.iter_mut() {
                *x = xor(*x, k[0]);
            }
            for key in &k[1..NR] {
                for x in b.iter_mut() {
                    *x = dec(*x, *key);
                }
            }
            for x in b.iter_mut() {
                *x = declast(*x, k[NR]);
            }
        }

        /// Runs `f` on the last, partial register's worth of blocks through a stack buffer.
        #[target_feature(enable = $features)]
        #[inline]
        fn with_padded(tail: &mut [u8], f: impl FnOnce(V) -> V) {
            let mut pad = [0u8; BYTES];
            pad[..tail.len()].copy_from_slice(tail);
            let out = f(ld(&pad, 0));
            st(&mut pad, 0, out);
            tail.copy_from_slice(&pad[..tail.len()]);
            pad.fill(0);
        }

        #[target_feature(enable = $features)]
        fn ecb<const NR: usize, const DECRYPT: bool>(keys: &[[u8; 16]; 15], buf: &mut [u8]) {
            let k = round_keys(keys);
            let mut wide = buf.chunks_exact_mut(BYTES * UNROLL);
            for chunk in &mut wide {
                let mut b: [V; UNROLL] = core::array::from_fn(|i| ld(chunk, i * BYTES));
                if DECRYPT {
                    decrypt_n::<NR, UNROLL>(&k, &mut b);
                } else {
                    encrypt_n::<NR, UNROLL>(&k, &mut b);
                }
                for (i, v) in b.into_iter().enumerate() {
                    st(chunk, i * BYTES, v);
                }
            }
            let rest = wide.into_remainder();
            let mut one = rest.chunks_exact_mut(BYTES);
            for chunk in &mut one {
                let mut b = [ld(chunk, 0)];
                if DECRYPT {
                    decrypt_n::<NR, 1>(&k, &mut b);
                } else {
                    encrypt_n::<NR, 1>(&k, &mut b);
                }
                st(chunk, 0, b[0]);
            }
            let tail = one.into_remainder();
            if !tail.is_empty() {
                with_padded(tail, |v| {
                    let mut b = [v];
                    if DECRYPT {
                        decrypt_n::<NR, 1>(&k, &mut b);
                    } else {
                        encrypt_n::<NR, 1>(&k, &mut b);
                    }
                    b[0]
                });
            }
        }

        /// Lane `j` holds `first + j` in its low 64 bits.
        #[target_feature(enable = $features)]
        #[inline]
        fn lane_counts(first: u64) -> V {
            let mut bytes = [0u8; BYTES];
            for (j, lane) in bytes.chunks_exact_mut(16).enumerate() {
                lane[..8].copy_from_slice(&(first + j as u64).to_le_bytes());
            }
            ld(&bytes, 0)
        }

        #[target_feature(enable = $features)]
        #[inline]
        fn counter_add<const C32: bool>(a: V, b: V) -> V {
            if C32 { add32(a, b) } else { add64(a, b) }
        }

        #[target_feature(enable = $features)]
        fn ctr<const NR: usize, const C32: bool>(
            keys: &[[u8; 16]; 15],
            counter: &[u8; 16],
            buf: &mut [u8],
        ) {
            let k = round_keys(keys);
            let rev = bcast(&REVERSE);
            let mut base = counter_add::<C32>(shuf(bcast(counter), rev), lane_counts(0));
            let offsets: [V; UNROLL] =
                core::array::from_fn(|u| lane_counts_flat((u * LANES) as u64));
            let step_wide = lane_counts_flat((UNROLL * LANES) as u64);
            let step_one = lane_counts_flat(LANES as u64);
            let mut wide = buf.chunks_exact_mut(BYTES * UNROLL);
            for chunk in &mut wide {
                let mut b: [V; UNROLL] =
                    core::array::from_fn(|u| shuf(counter_add::<C32>(base, offsets[u]), rev));
                encrypt_n::<NR, UNROLL>(&k, &mut b);
                for (i, v) in b.into_iter().enumerate() {
                    st(chunk, i * BYTES, xor(v, ld(chunk, i * BYTES)));
                }
                base = counter_add::<C32>(base, step_wide);
            }
            let rest = wide.into_remainder();
            let mut one = rest.chunks_exact_mut(BYTES);
            for chunk in &mut one {
                let mut b = [shuf(base, rev)];
                encrypt_n::<NR, 1>(&k, &mut b);
                st(chunk, 0, xor(b[0], ld(chunk, 0)));
                base = counter_add::<C32>(base, step_one);
            }
            let tail = one.into_remainder();
            if !tail.is_empty() {
                with_padded(tail, |v| {
                    let mut b = [shuf(base, rev)];
                    encrypt_n::<NR, 1>(&k, &mut b);
                    xor(b[0], v)
                });
            }
        }

        /// Every lane holds `n` in its low 64 bits: the step between registers of counters.
        #[target_feature(enable = $features)]
        #[inline]
        fn lane_counts_flat(n: u64) -> V {
            let mut block = [0u8; 16];
            block[..8].copy_from_slice(&n.to_le_bytes());
            bcast(&block)
        }

        /// One register of the feedback decryptions: CBC decrypts each ciphertext block and
        /// adds its predecessor; CFB encrypts the predecessor and adds the block.
        #[target_feature(enable = $features)]
        #[inline]
        fn feedback_n<const NR: usize, const CFB: bool, const N: usize>(
            k: &[V; 15],
            c: &[V; N],
            prev: &[V; N],
        ) -> [V; N] {
            let mut b = if CFB { *prev } else { *c };
            if CFB {
                encrypt_n::<NR, N>(k, &mut b);
            } else {
                decrypt_n::<NR, N>(k, &mut b);
            }
            core::array::from_fn(|i| xor(b[i], if CFB { c[i] } else { prev[i] }))
        }

        /// CBC or CFB decryption of whole blocks; `iv` ends as the last ciphertext block.
        #[target_feature(enable = $features)]
        fn feedback_decrypt<const NR: usize, const CFB: bool>(
            keys: &[[u8; 16]; 15],
            iv: &mut [u8; 16],
            buf: &mut [u8],
        ) {
            let k = round_keys(keys);
            // Only the top lane of `last` matters: it is the ciphertext block before the next.
            let mut last = bcast(iv);
            let mut wide = buf.chunks_exact_mut(BYTES * UNROLL);
            for chunk in &mut wide {
                let c: [V; UNROLL] = core::array::from_fn(|i| ld(chunk, i * BYTES));
                let prev: [V; UNROLL] =
                    core::array::from_fn(|i| shift_in(c[i], if i == 0 { last } else { c[i - 1] }));
                let out = feedback_n::<NR, CFB, UNROLL>(&k, &c, &prev);
                for (i, v) in out.into_iter().enumerate() {
                    st(chunk, i * BYTES, v);
                }
                last = c[UNROLL - 1];
            }
            let rest = wide.into_remainder();
            let mut one = rest.chunks_exact_mut(BYTES);
            for chunk in &mut one {
                let c = [ld(chunk, 0)];
                let out = feedback_n::<NR, CFB, 1>(&k, &c, &[shift_in(c[0], last)]);
                st(chunk, 0, out[0]);
                last = c[0];
            }
            let tail = one.into_remainder();
            let mut top = [0u8; BYTES];
            st(&mut top, 0, last);
            let mut chain = [0u8; 16];
            chain.copy_from_slice(&top[BYTES - 16..]);
            if !tail.is_empty() {
                // Each tail block's predecessor: the chain value, then the tail shifted up.
                let mut prev = [0u8; BYTES];
                prev[..16].copy_from_slice(&chain);
                prev[16..tail.len()].copy_from_slice(&tail[..tail.len() - 16]);
                chain.copy_from_slice(&tail[tail.len() - 16..]);
                let p = [ld(&prev, 0)];
                with_padded(tail, |c| feedback_n::<NR, CFB, 1>(&k, &[c], &p)[0]);
            }
            *iv = chain;
        }

        /// CBC encryption of `U * LANES` streams, lane `j` of register `u` being stream
        /// `u * LANES + j`; `blocks` blocks each.
        #[target_feature(enable = $features)]
        #[allow(clippy::needless_range_loop)] // lanes and rounds index two arrays in step
        fn cbc_encrypt_streams<const NR: usize, const U: usize>(
            keys: &[&RoundKeys],
            ivs: &mut [[u8; 16]],
            bufs: &mut [&mut [u8]],
            blocks: usize,
        ) {
            let k: [[V; 15]; U] = core::array::from_fn(|u| {
                core::array::from_fn(|r| {
                    gather(core::array::from_fn(|j| {
                        xmm_load(&keys[u * LANES + j].enc[r], 0)
                    }))
                })
            });
            let mut chain: [V; U] = core::array::from_fn(|u| {
                gather(core::array::from_fn(|j| xmm_load(&ivs[u * LANES + j], 0)))
            });
            for blk in 0..blocks {
                for u in 0..U {
                    let p = gather(core::array::from_fn(|j| xmm_load(bufs[u * LANES + j], blk)));
                    chain[u] = xor(xor(chain[u], p), k[u][0]);
                }
                for r in 1..NR {
                    for u in 0..U {
                        chain[u] = enc(chain[u], k[u][r]);
                    }
                }
                for u in 0..U {
                    chain[u] = enclast(chain[u], k[u][NR]);
                    for (j, c) in scatter(chain[u]).into_iter().enumerate() {
                        xmm_store(bufs[u * LANES + j], blk, c);
                    }
                }
            }
            for u in 0..U {
                for (j, c) in scatter(chain[u]).into_iter().enumerate() {
                    xmm_store(&mut ivs[u * LANES + j], 0, c);
                }
            }
        }

        /// Adds the carry-less product of `x` and `p` (lane by lane, Karatsuba-free: four
        /// products) into the unreduced sums `lo`, `mid` and `hi`.
        #[target_feature(enable = $features)]
        #[inline]
        fn ghash_multiply(x: V, p: V, sums: &mut [V; 3]) {
            sums[0] = xor(sums[0], clmul::<0x00>(x, p));
            sums[1] = xor(sums[1], xor(clmul::<0x01>(x, p), clmul::<0x10>(x, p)));
            sums[2] = xor(sums[2], clmul::<0x11>(x, p));
        }

        /// Reduces the unreduced sums on every lane at once, then adds the lanes up.
        #[target_feature(enable = $features)]
        #[inline]
        fn ghash_reduce(sums: &[V; 3]) -> __m128i {
            let low = xor(sums[0], lane_shl8(sums[1]));
            let high = xor(sums[2], lane_shr8(sums[1]));
            let poly = bcast(&POLY);
            let low = xor(swap_halves(low), clmul::<0x10>(low, poly));
            let low = xor(swap_halves(low), clmul::<0x10>(low, poly));
            fold(xor(high, low))
        }

        /// GHASH of up to `GCM_REGS` registers of blocks (GCM byte order), folded into the
        /// state `s` (carry-less domain). Block `i` of the batch is multiplied by the power of H
        /// read at `first + 16 * i` bytes into `powers`, so one reduction serves the batch;
        /// the reduction runs on every lane at once before the lanes are added up.
        #[target_feature(enable = $features)]
        #[inline]
        fn ghash_regs(s: __m128i, data: &[V], powers: &[u8], first: usize, rev: V) -> __m128i {
            let mut sums = [zero(); 3];
            for (u, d) in data.iter().enumerate() {
                let mut x = shuf(*d, rev);
                if u == 0 {
                    x = xor(x, zext(s));
                }
                ghash_multiply(x, ld(powers, first + u * BYTES), &mut sums);
            }
            ghash_reduce(&sums)
        }

        /// Encrypts the counter registers `ks` while GHASHing a full batch `c` into `s`: the
        /// multiplication of register `u` of `c` is placed after AES round `u + 1`, so the
        /// carry-less multiplier and the AES unit work side by side. Returns the new state.
        #[target_feature(enable = $features)]
        #[inline]
        fn encrypt_while_hashing<const NR: usize>(
            k: &[V; 15],
            ks: &mut [V; GCM_REGS],
            c: &[V; GCM_REGS],
            s: __m128i,
            powers: &[u8],
            first: usize,
            rev: V,
        ) -> __m128i {
            let mut sums = [zero(); 3];
            let mut hashed = 0;
            for x in ks.iter_mut() {
                *x = xor(*x, k[0]);
            }
            for key in &k[1..NR] {
                for x in ks.iter_mut() {
                    *x = enc(*x, *key);
                }
                if hashed < GCM_REGS {
                    let mut x = shuf(c[hashed], rev);
                    if hashed == 0 {
                        x = xor(x, zext(s));
                    }
                    ghash_multiply(x, ld(powers, first + hashed * BYTES), &mut sums);
                    hashed += 1;
                }
            }
            while hashed < GCM_REGS {
                let x = shuf(c[hashed], rev);
                ghash_multiply(x, ld(powers, first + hashed * BYTES), &mut sums);
                hashed += 1;
            }
            for x in ks.iter_mut() {
                *x = enclast(*x, k[NR]);
            }
            ghash_reduce(&sums)
        }

        /// GCM over whole blocks: CTR with a 32-bit counter from `counter` and GHASH of the
        /// ciphertext into `acc`, in one pass; `GCM_REGS` registers of blocks per reduction.
        /// Decryption hashes a batch while decrypting it (its ciphertext is already there);
        /// encryption hashes the previous batch's ciphertext, still in registers, while
        /// encrypting the next, so neither waits for the other.
        #[target_feature(enable = $features)]
        fn gcm<const NR: usize, const DECRYPT: bool>(
            keys: &[[u8; 16]; 15],
            powers: &[[u8; 16]; POWERS],
            counter: &[u8; 16],
            acc: &mut [u8; 16],
            buf: &mut [u8],
        ) {
            const BATCH: usize = GCM_REGS * LANES;
            let k = round_keys(keys);
            // The mask is opaque to the optimiser: seeing a constant byte reversal of loaded
            // data, it once rebuilt each register from scalar loads and 64 byte inserts.
            let rev = bcast(&core::hint::black_box(REVERSE));
            let table = powers.as_flattened();
            let full_batch_first = 16 * (MAX_BATCH - BATCH);
            let mut s = _mm_shuffle_epi8(xmm_load(acc, 0), xmm_load(&REVERSE, 0));
            let mut base = add32(shuf(bcast(counter), rev), lane_counts(0));
            let offsets: [V; GCM_REGS] =
                core::array::from_fn(|u| lane_counts_flat((u * LANES) as u64));
            let step_wide = lane_counts_flat(BATCH as u64);
            let step_one = lane_counts_flat(LANES as u64);
            let mut pending: Option<[V; GCM_REGS]> = None;
            let mut wide = buf.chunks_exact_mut(BYTES * GCM_REGS);
            for chunk in &mut wide {
                let mut ks: [V; GCM_REGS] =
                    core::array::from_fn(|u| shuf(add32(base, offsets[u]), rev));
                base = add32(base, step_wide);
                let input: [V; GCM_REGS] = core::array::from_fn(|u| ld(chunk, u * BYTES));
                if DECRYPT {
                    s = encrypt_while_hashing::<NR>(
                        &k,
                        &mut ks,
                        &input,
                        s,
                        table,
                        full_batch_first,
                        rev,
                    );
                } else if let Some(previous) = pending {
                    s = encrypt_while_hashing::<NR>(
                        &k,
                        &mut ks,
                        &previous,
                        s,
                        table,
                        full_batch_first,
                        rev,
                    );
                } else {
                    encrypt_n::<NR, GCM_REGS>(&k, &mut ks);
                }
                let out: [V; GCM_REGS] = core::array::from_fn(|u| xor(ks[u], input[u]));
                for (u, v) in out.iter().enumerate() {
                    st(chunk, u * BYTES, *v);
                }
                if !DECRYPT {
                    pending = Some(out);
                }
            }
            if let Some(previous) = pending {
                s = ghash_regs(s, &previous, table, full_batch_first, rev);
            }
            let rest = wide.into_remainder();
            let blocks = rest.len() / 16;
            if blocks > 0 {
                let regs = blocks.div_ceil(LANES);
                let mut pad = [0u8; BYTES * GCM_REGS];
                pad[..rest.len()].copy_from_slice(rest);
                let mut c = [zero(); GCM_REGS];
                for u in 0..regs {
                    let mut ks = [shuf(base, rev)];
                    encrypt_n::<NR, 1>(&k, &mut ks);
                    let input = ld(&pad, u * BYTES);
                    c[u] = input;
                    st(&mut pad, u * BYTES, xor(ks[0], input));
                    base = add32(base, step_one);
                }
                rest.copy_from_slice(&pad[..rest.len()]);
                if !DECRYPT {
                    pad[rest.len()..].fill(0);
                    for u in 0..regs {
                        c[u] = ld(&pad, u * BYTES);
                    }
                }
                s = ghash_regs(s, &c[..regs], table, 16 * (MAX_BATCH - blocks), rev);
                pad.fill(0);
            }
            xmm_store(acc, 0, _mm_shuffle_epi8(s, xmm_load(&REVERSE, 0)));
        }

        /// GCM encryption (or decryption) of whole blocks with GHASH of the ciphertext.
        pub(crate) fn gcm_blocks(
            rk: &RoundKeys,
            h: &[u8; 16],
            powers: &[[u8; 16]; POWERS],
            decrypt: bool,
            counter: &[u8; 16],
            acc: &mut [u8; 16],
            buf: &mut [u8],
        ) {
            if !runnable() {
                return super::super::gcm_blocks_with(
                    rk,
                    h,
                    powers,
                    decrypt,
                    counter,
                    acc,
                    buf,
                    aesni::ctr_blocks,
                    aesni::ghash,
                );
            }
            // SAFETY: runnable() confirmed the features this kernel is compiled for.
            unsafe {
                if decrypt {
                    by_rounds!(rk.rounds, gcm::<true>(&rk.enc, powers, counter, acc, buf))
                } else {
                    by_rounds!(rk.rounds, gcm::<false>(&rk.enc, powers, counter, acc, buf))
                }
            }
        }

        /// XTS over whole blocks: block `i` is whitened before and after the cipher with
        /// `tweak * x^i`. Lane `j` of a register of tweaks holds the tweak of its block; the
        /// next register is every lane times x^LANES. Returns the tweak after the last block.
        #[target_feature(enable = $features)]
        fn xts<const NR: usize, const DECRYPT: bool>(
            keys: &[[u8; 16]; 15],
            tweak: u128,
            buf: &mut [u8],
        ) -> u128 {
            let k = round_keys(keys);
            let mut lanes = [0u8; BYTES];
            let mut t = tweak;
            for lane in lanes.chunks_exact_mut(16) {
                lane.copy_from_slice(&t.to_le_bytes());
                t = super::super::xts::next_tweak(t);
            }
            let mut tw = ld(&lanes, 0);
            let mut wide = buf.chunks_exact_mut(BYTES * UNROLL);
            for chunk in &mut wide {
                let mut tws = [tw; UNROLL];
                for u in 1..UNROLL {
                    tws[u] = times_x_lanes(tws[u - 1]);
                }
                tw = times_x_lanes(tws[UNROLL - 1]);
                let mut b: [V; UNROLL] =
                    core::array::from_fn(|u| xor(ld(chunk, u * BYTES), tws[u]));
                if DECRYPT {
                    decrypt_n::<NR, UNROLL>(&k, &mut b);
                } else {
                    encrypt_n::<NR, UNROLL>(&k, &mut b);
                }
                for u in 0..UNROLL {
                    st(chunk, u * BYTES, xor(b[u], tws[u]));
                }
            }
            let rest = wide.into_remainder();
            let mut one = rest.chunks_exact_mut(BYTES);
            for chunk in &mut one {
                let mut b = [xor(ld(chunk, 0), tw)];
                if DECRYPT {
                    decrypt_n::<NR, 1>(&k, &mut b);
                } else {
                    encrypt_n::<NR, 1>(&k, &mut b);
                }
                st(chunk, 0, xor(b[0], tw));
                tw = times_x_lanes(tw);
            }
            let tail = one.into_remainder();
            let used = tail.len() / 16;
            if used > 0 {
                with_padded(tail, |v| {
                    let mut b = [xor(v, tw)];
                    if DECRYPT {
                        decrypt_n::<NR, 1>(&k, &mut b);
                    } else {
                        encrypt_n::<NR, 1>(&k, &mut b);
                    }
                    xor(b[0], tw)
                });
            }
            // The next tweak is lane `used` of the current register.
            st(&mut lanes, 0, tw);
            let mut next = [0u8; 16];
            next.copy_from_slice(&lanes[16 * used..16 * used + 16]);
            lanes.fill(0);
            u128::from_le_bytes(next)
        }

        /// XTS over whole blocks on this module's registers; returns the next tweak.
        pub(crate) fn xts_blocks(
            rk: &RoundKeys,
            decrypt: bool,
            tweak: u128,
            buf: &mut [u8],
        ) -> u128 {
            if !runnable() {
                return super::super::xts::xts_blocks_with(rk, decrypt, tweak, buf);
            }
            // SAFETY: runnable() confirmed the features this kernel is compiled for.
            unsafe {
                if decrypt {
                    by_rounds!(rk.rounds, xts::<true>(&rk.dec, tweak, buf))
                } else {
                    by_rounds!(rk.rounds, xts::<false>(&rk.enc, tweak, buf))
                }
            }
        }

        /// Whether this CPU runs the code of this module.
        pub(crate) fn runnable() -> bool {
            aesni::runnable() && features_present()
        }

        pub(crate) fn encrypt(rk: &RoundKeys, buf: &mut [u8]) {
            if !runnable() {
                return aesni::encrypt(rk, buf);
            }
            // SAFETY: runnable() confirmed the features this kernel is compiled for.
            unsafe { by_rounds!(rk.rounds, ecb::<false>(&rk.enc, buf)) }
        }

        pub(crate) fn decrypt(rk: &RoundKeys, buf: &mut [u8]) {
            if !runnable() {
                return aesni::decrypt(rk, buf);
            }
            // SAFETY: runnable() confirmed the features this kernel is compiled for.
            unsafe { by_rounds!(rk.rounds, ecb::<true>(&rk.dec, buf)) }
        }

        pub(crate) fn ctr_blocks(
            rk: &RoundKeys,
            width: CounterWidth,
            counter: &[u8; 16],
            buf: &mut [u8],
        ) {
            if !runnable() {
                return aesni::ctr_blocks(rk, width, counter, buf);
            }
            // SAFETY: runnable() confirmed the features this kernel is compiled for.
            unsafe {
                match width {
                    CounterWidth::Low32 => {
                        by_rounds!(rk.rounds, ctr::<true>(&rk.enc, counter, buf))
                    }
                    CounterWidth::Low64 => {
                        by_rounds!(rk.rounds, ctr::<false>(&rk.enc, counter, buf))
                    }
                }
            }
        }

        pub(crate) fn decrypt_cbc(rk: &RoundKeys, iv: &mut [u8; 16], buf: &mut [u8]) {
            if !runnable() {
                return aesni::decrypt_cbc(rk, iv, buf);
            }
            // SAFETY: runnable() confirmed the features this kernel is compiled for.
            unsafe { by_rounds!(rk.rounds, feedback_decrypt::<false>(&rk.dec, iv, buf)) }
        }

        /// CFB decryption of whole blocks.
        pub(crate) fn decrypt_cfb(rk: &RoundKeys, iv: &mut [u8; 16], buf: &mut [u8]) {
            if !runnable() {
                return super::super::cfb_decrypt_with(rk, iv, buf, aesni::encrypt);
            }
            // SAFETY: runnable() confirmed the features this kernel is compiled for.
            unsafe { by_rounds!(rk.rounds, feedback_decrypt::<true>(&rk.enc, iv, buf)) }
        }

        /// Streams interleaved at most by [`encrypt_cbc_streams`].
        pub(crate) const MAX_STREAMS: usize = MAX_REGS * LANES;

        /// CBC encryption of a multiple of `LANES` streams (at most [`MAX_STREAMS`]) of the
        /// same key size, `blocks` blocks each. Returns false, doing nothing, otherwise.
        pub(crate) fn encrypt_cbc_streams(
            keys: &[&RoundKeys],
            ivs: &mut [[u8; 16]],
            bufs: &mut [&mut [u8]],
            blocks: usize,
        ) -> bool {
            let n = keys.len();
            let rounds = keys.first().map_or(10, |k| k.rounds);
            if !runnable()
                || n == 0
                || n % LANES != 0
                || n > MAX_STREAMS
                || keys.iter().any(|k| k.rounds != rounds)
                || bufs.iter().any(|b| b.len() < 16 * blocks)
                || ivs.len() != n
                || bufs.len() != n
            {
                return false;
            }
            // SAFETY: runnable() confirmed the features this kernel is compiled for.
            unsafe {
                match n / LANES {
                    1 => by_rounds!(rounds, cbc_encrypt_streams::<1>(keys, ivs, bufs, blocks)),
                    2 => by_rounds!(rounds, cbc_encrypt_streams::<2>(keys, ivs, bufs, blocks)),
                    3 => by_rounds!(rounds, cbc_encrypt_streams::<3>(keys, ivs, bufs, blocks)),
                    4 => by_rounds!(rounds, cbc_encrypt_streams::<4>(keys, ivs, bufs, blocks)),
                    5 => by_rounds!(rounds, cbc_encrypt_streams::<5>(keys, ivs, bufs, blocks)),
                    6 => by_rounds!(rounds, cbc_encrypt_streams::<6>(keys, ivs, bufs, blocks)),
                    7 => by_rounds!(rounds, cbc_encrypt_streams::<7>(keys, ivs, bufs, blocks)),
                    8 => by_rounds!(rounds, cbc_encrypt_streams::<8>(keys, ivs, bufs, blocks)),
                    _ => return false,
                }
            }
            true
        }
    };
}

/// The POLYVAL reduction constant in each lane: x^0 in the low half, x^127+x^126+x^121 folded
/// into the high half's top byte.
const POLY: [u8; 16] = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xc2];

/// Byte reversal within each block.
const REVERSE: [u8; 16] = [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0];

/// 512-bit registers, four blocks each.
pub(crate) mod zmm {
    #[cfg(target_arch = "x86")]
    use core::arch::x86::*;
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::*;

    use super::{CounterWidth, MAX_BATCH, POLY, POWERS, REVERSE, RoundKeys, aesni};
    use crate::cpu;

    type V = __m512i;
    const LANES: usize = 4;
    const UNROLL: usize = 4;
    const MAX_REGS: usize = 4;
    /// Registers of blocks per GHASH reduction in GCM: 32 blocks.
    const GCM_REGS: usize = 8;

    fn features_present() -> bool {
        let f = cpu::features();
        f.has("vaes")
            && f.has("vpclmulqdq")
            && f.has("avx512f")
            && f.has("avx512bw")
            && f.has("avx512vl")
            && f.has("avx2")
    }

    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3"
    )]
    #[inline]
    fn ld(bytes: &[u8], off: usize) -> V {
        assert!(bytes.len() >= off + 64);
        // SAFETY: the assertion keeps the 64 bytes read inside `bytes`; no alignment needed.
        unsafe { _mm512_loadu_si512(bytes.as_ptr().add(off).cast()) }
    }

    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3"
    )]
    #[inline]
    fn st(bytes: &mut [u8], off: usize, v: V) {
        assert!(bytes.len() >= off + 64);
        // SAFETY: the assertion keeps the 64 bytes written inside `bytes`; no alignment needed.
        unsafe { _mm512_storeu_si512(bytes.as_mut_ptr().add(off).cast(), v) }
    }

    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3"
    )]
    #[inline]
    fn xmm_load(bytes: &[u8], i: usize) -> __m128i {
        assert!(bytes.len() >= 16 * (i + 1));
        // SAFETY: the assertion keeps the 16 bytes read inside `bytes`; no alignment needed.
        unsafe { _mm_loadu_si128(bytes.as_ptr().add(16 * i).cast()) }
    }

    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3"
    )]
    #[inline]
    fn xmm_store(bytes: &mut [u8], i: usize, v: __m128i) {
        assert!(bytes.len() >= 16 * (i + 1));
        // SAFETY: the assertion keeps the 16 bytes written inside `bytes`; no alignment needed.
        unsafe { _mm_storeu_si128(bytes.as_mut_ptr().add(16 * i).cast(), v) }
    }

    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3"
    )]
    #[inline]
    fn bcast(block: &[u8; 16]) -> V {
        _mm512_broadcast_i32x4(xmm_load(block, 0))
    }

    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3"
    )]
    #[inline]
    fn gather(b: [__m128i; LANES]) -> V {
        let v = _mm512_castsi128_si512(b[0]);
        let v = _mm512_inserti32x4::<1>(v, b[1]);
        let v = _mm512_inserti32x4::<2>(v, b[2]);
        _mm512_inserti32x4::<3>(v, b[3])
    }

    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3"
    )]
    #[inline]
    fn scatter(v: V) -> [__m128i; LANES] {
        [
            _mm512_castsi512_si128(v),
            _mm512_extracti32x4_epi32::<1>(v),
            _mm512_extracti32x4_epi32::<2>(v),
            _mm512_extracti32x4_epi32::<3>(v),
        ]
    }

    /// `[prev.lane3, cur.lane0, cur.lane1, cur.lane2]`: each block's predecessor.
    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3"
    )]
    #[inline]
    fn shift_in(cur: V, prev: V) -> V {
        _mm512_alignr_epi64::<6>(cur, prev)
    }

    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3"
    )]
    #[inline]
    fn xor(a: V, b: V) -> V {
        _mm512_xor_si512(a, b)
    }

    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3"
    )]
    #[inline]
    fn enc(a: V, k: V) -> V {
        _mm512_aesenc_epi128(a, k)
    }

    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3"
    )]
    #[inline]
    fn enclast(a: V, k: V) -> V {
        _mm512_aesenclast_epi128(a, k)
    }

    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3"
    )]
    #[inline]
    fn dec(a: V, k: V) -> V {
        _mm512_aesdec_epi128(a, k)
    }

    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3"
    )]
    #[inline]
    fn declast(a: V, k: V) -> V {
        _mm512_aesdeclast_epi128(a, k)
    }

    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3"
    )]
    #[inline]
    fn shuf(a: V, m: V) -> V {
        _mm512_shuffle_epi8(a, m)
    }

    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3"
    )]
    #[inline]
    fn add32(a: V, b: V) -> V {
        _mm512_add_epi32(a, b)
    }

    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3"
    )]
    #[inline]
    fn add64(a: V, b: V) -> V {
        _mm512_add_epi64(a, b)
    }

    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3"
    )]
    #[inline]
    fn zero() -> V {
        _mm512_setzero_si512()
    }

    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3"
    )]
    #[inline]
    fn zext(x: __m128i) -> V {
        _mm512_zextsi128_si512(x)
    }

    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3"
    )]
    #[inline]
    fn clmul<const IMM: i32>(a: V, b: V) -> V {
        _mm512_clmulepi64_epi128::<IMM>(a, b)
    }

    /// XOR of the four lanes.
    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3"
    )]
    #[inline]
    fn fold(v: V) -> __m128i {
        let half = _mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64::<1>(v));
        _mm_xor_si128(
            _mm256_castsi256_si128(half),
            _mm256_extracti128_si256::<1>(half),
        )
    }

    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3"
    )]
    #[inline]
    fn lane_shl8(v: V) -> V {
        _mm512_bslli_epi128::<8>(v)
    }

    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3"
    )]
    #[inline]
    fn lane_shr8(v: V) -> V {
        _mm512_bsrli_epi128::<8>(v)
    }

    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3"
    )]
    #[inline]
    fn swap_halves(v: V) -> V {
        _mm512_shuffle_epi32::<78>(v)
    }

    /// Every lane times x^4 in XTS's field: a 4-bit shift of each 128-bit lane, the bits
    /// shifted out folded back with the polynomial 0x87.
    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3"
    )]
    #[inline]
    fn times_x_lanes(v: V) -> V {
        let carry = _mm512_srli_epi64::<60>(v);
        let poly = _mm512_set1_epi64(0x87);
        let reduced = _mm512_clmulepi64_epi128::<0x01>(carry, poly);
        xor(
            xor(_mm512_slli_epi64::<4>(v), _mm512_bslli_epi128::<8>(carry)),
            reduced,
        )
    }

    vaes_kernels!("avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,sse4.1,ssse3");
}

/// 256-bit registers, two blocks each.
pub(crate) mod ymm {
    #[cfg(target_arch = "x86")]
    use core::arch::x86::*;
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::*;

    use super::{CounterWidth, MAX_BATCH, POLY, POWERS, REVERSE, RoundKeys, aesni};
    use crate::cpu;

    type V = __m256i;
    const LANES: usize = 2;
    const UNROLL: usize = 8;
    const MAX_REGS: usize = 8;
    /// Registers of blocks per GHASH reduction in GCM: 16 blocks.
    const GCM_REGS: usize = 8;

    fn features_present() -> bool {
        let f = cpu::features();
        f.has("vaes") && f.has("vpclmulqdq") && f.has("avx2") && f.has("avx")
    }

    #[target_feature(enable = "avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3")]
    #[inline]
    fn ld(bytes: &[u8], off: usize) -> V {
        assert!(bytes.len() >= off + 32);
        // SAFETY: the assertion keeps the 32 bytes read inside `bytes`; no alignment needed.
        unsafe { _mm256_loadu_si256(bytes.as_ptr().add(off).cast()) }
    }

    #[target_feature(enable = "avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3")]
    #[inline]
    fn st(bytes: &mut [u8], off: usize, v: V) {
        assert!(bytes.len() >= off + 32);
        // SAFETY: the assertion keeps the 32 bytes written inside `bytes`; no alignment needed.
        unsafe { _mm256_storeu_si256(bytes.as_mut_ptr().add(off).cast(), v) }
    }

    #[target_feature(enable = "avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3")]
    #[inline]
    fn xmm_load(bytes: &[u8], i: usize) -> __m128i {
        assert!(bytes.len() >= 16 * (i + 1));
        // SAFETY: the assertion keeps the 16 bytes read inside `bytes`; no alignment needed.
        unsafe { _mm_loadu_si128(bytes.as_ptr().add(16 * i).cast()) }
    }

    #[target_feature(enable = "avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3")]
    #[inline]
    fn xmm_store(bytes: &mut [u8], i: usize, v: __m128i) {
        assert!(bytes.len() >= 16 * (i + 1));
        // SAFETY: the assertion keeps the 16 bytes written inside `bytes`; no alignment needed.
        unsafe { _mm_storeu_si128(bytes.as_mut_ptr().add(16 * i).cast(), v) }
    }

    #[target_feature(enable = "avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3")]
    #[inline]
    fn bcast(block: &[u8; 16]) -> V {
        _mm256_broadcastsi128_si256(xmm_load(block, 0))
    }

    #[target_feature(enable = "avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3")]
    #[inline]
    fn gather(b: [__m128i; LANES]) -> V {
        _mm256_set_m128i(b[1], b[0])
    }

    #[target_feature(enable = "avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3")]
    #[inline]
    fn scatter(v: V) -> [__m128i; LANES] {
        [_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v)]
    }

    /// `[prev.lane1, cur.lane0]`: each block's predecessor.
    #[target_feature(enable = "avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3")]
    #[inline]
    fn shift_in(cur: V, prev: V) -> V {
        _mm256_permute2x128_si256::<0x21>(prev, cur)
    }

    #[target_feature(enable = "avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3")]
    #[inline]
    fn xor(a: V, b: V) -> V {
        _mm256_xor_si256(a, b)
    }

    #[target_feature(enable = "avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3")]
    #[inline]
    fn enc(a: V, k: V) -> V {
        _mm256_aesenc_epi128(a, k)
    }

    #[target_feature(enable = "avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3")]
    #[inline]
    fn enclast(a: V, k: V) -> V {
        _mm256_aesenclast_epi128(a, k)
    }

    #[target_feature(enable = "avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3")]
    #[inline]
    fn dec(a: V, k: V) -> V {
        _mm256_aesdec_epi128(a, k)
    }

    #[target_feature(enable = "avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3")]
    #[inline]
    fn declast(a: V, k: V) -> V {
        _mm256_aesdeclast_epi128(a, k)
    }

    #[target_feature(enable = "avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3")]
    #[inline]
    fn shuf(a: V, m: V) -> V {
        _mm256_shuffle_epi8(a, m)
    }

    #[target_feature(enable = "avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3")]
    #[inline]
    fn add32(a: V, b: V) -> V {
        _mm256_add_epi32(a, b)
    }

    #[target_feature(enable = "avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3")]
    #[inline]
    fn add64(a: V, b: V) -> V {
        _mm256_add_epi64(a, b)
    }

    #[target_feature(enable = "avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3")]
    #[inline]
    fn zero() -> V {
        _mm256_setzero_si256()
    }

    #[target_feature(enable = "avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3")]
    #[inline]
    fn zext(x: __m128i) -> V {
        _mm256_zextsi128_si256(x)
    }

    #[target_feature(enable = "avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3")]
    #[inline]
    fn clmul<const IMM: i32>(a: V, b: V) -> V {
        _mm256_clmulepi64_epi128::<IMM>(a, b)
    }

    /// XOR of the two lanes.
    #[target_feature(enable = "avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3")]
    #[inline]
    fn fold(v: V) -> __m128i {
        let [a, b] = scatter(v);
        _mm_xor_si128(a, b)
    }

    #[target_feature(enable = "avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3")]
    #[inline]
    fn lane_shl8(v: V) -> V {
        _mm256_bslli_epi128::<8>(v)
    }

    #[target_feature(enable = "avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3")]
    #[inline]
    fn lane_shr8(v: V) -> V {
        _mm256_bsrli_epi128::<8>(v)
    }

    #[target_feature(enable = "avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3")]
    #[inline]
    fn swap_halves(v: V) -> V {
        _mm256_shuffle_epi32::<78>(v)
    }

    /// Every lane times x^2 in XTS's field: a 2-bit shift of each 128-bit lane, the bits
    /// shifted out folded back with the polynomial 0x87.
    #[target_feature(enable = "avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3")]
    #[inline]
    fn times_x_lanes(v: V) -> V {
        let carry = _mm256_srli_epi64::<62>(v);
        let poly = _mm256_set1_epi64x(0x87);
        let reduced = _mm256_clmulepi64_epi128::<0x01>(carry, poly);
        xor(
            xor(_mm256_slli_epi64::<2>(v), _mm256_bslli_epi128::<8>(carry)),
            reduced,
        )
    }

    vaes_kernels!("avx2,avx,vaes,vpclmulqdq,aes,pclmulqdq,sse4.1,ssse3");
}
