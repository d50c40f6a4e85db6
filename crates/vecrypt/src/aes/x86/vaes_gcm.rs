//! GCM on VAES registers: CTR and GHASH in one pass, the carry-less multiplications of one
//! batch placed between the AES rounds of the next. Written once over the primitives of a
//! register width and expanded by each width's module as `vaes_gcm!(KERNEL,
//! REGISTER_CLASS)` after `vaes_blocks!`, whose round and counter helpers it uses. Its
//! core is `gcm_batches`, the whole batches of a message; `gcm_blocks` builds the
//! whole-block kernel of both widths on it (the caller does the tail, the length block and
//! the tag: the streaming GCM of every caller, and every message on ymm), and the zmm module
//! its whole-message kernel. `powers` makes a key's powers of H on the same registers, a
//! register of powers per multiplication.
//!
//! A batch is `GCM_REGS` registers (eight: 32 blocks on zmm, 16 on ymm); the hashed batches go in
//! twos with one reduction, the first multiplied by the powers of H above the second's (so the
//! powers table runs to H^64), and an odd last batch alone. GHASH multiplies by Karatsuba, three
//! 64-bit carry-less products per block instead of four, two registers at a time: their halves'
//! XORs share one register, multiplied by the two powers' Karatsuba keys side by side (a table
//! after the powers of H), and each sum takes both registers' products in one three-way XOR. The
//! pairs are spread over the AES rounds, the pair that carries the GHASH state last; an empty
//! `asm!` pin after each round keeps the compiler from gathering the multiplications in one place
//! (without the pins it does, and the kernel runs about a sixth slower). When no counter of a batch
//! carries out of its low byte, each register of whitened counters is one XOR: the whitened common
//! part of the batch's counter blocks (remade when the low byte wraps) and their low bytes loaded
//! from a table. Otherwise each register is added, byte-reversed and whitened on its own. Against
//! the earlier form (one byte reversal per batch, an addition to the last byte and the whitening
//! XOR per register) that is nine vector operations fewer per batch of eight registers. Each
//! batch's sums also start from its first pair's products instead of three XORs into zeros.
//!
//! The bound, per batch of eight zmm registers with AES-128: 80 AES rounds, 25 carry-less
//! multiplications (one reduction per two batches) and about 60 other vector operations.
//! On a core with two 512-bit AES units the multiplier, which issues at half their rate and
//! takes pipe slots from the other vector operations, is the limit and the rounds hide under
//! the multiplications; on a core with one AES unit the rounds are the limit and the
//! multiplications fit beside them. A reduction costs mainly its dependent tail, not its
//! operations, hence one per two batches, which keeps the powers table at 2 KiB per key.
//! `vecrypt speed --bounds` measures the bound and the kernel's fraction of it on the CPU it
//! runs on; the figures measured so far are in `docs/perf/aes.md`.

/// Blocks whose last byte counts from 0 to 255, the rest zero: the low bytes of the
/// counter blocks of a GCM batch, read a register at a time (see `batch_counters`).
pub(super) static LOW_BYTES: [[u8; 16]; 256] = {
    let mut t = [[0u8; 16]; 256];
    let mut j = 0;
    while j < 256 {
        t[j][15] = j as u8;
        j += 1;
    }
    t
};

/// The POLYVAL reduction constant in each lane: x^0 in the low half, x^127+x^126+x^121 folded
/// into the high half's top byte.
pub(super) const POLY: [u8; 16] = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xc2];

macro_rules! vaes_gcm {
    ($k:ident, $class:ident) => {
        /// Makes the counter registers of a GCM batch, the GHASH sums and the next two
        /// registers to hash outputs of one point in the code: placed after each AES round,
        /// it keeps the compiler from gathering the carry-less multiplications of a batch in
        /// one place, away from the AES rounds they are meant to run beside.
        #[kernel($k)]
        #[inline]
        fn gcm_pin(ks: &mut [V; GCM_REGS], sums: &mut [V; 3], next: &mut [V; 2]) {
            let [a, b, c, d, e, f, g, h] = ks;
            let [lo, mid, hi] = sums;
            let [n0, n1] = next;
            crate::cpu::x86::pin_registers!(
                "/* {0} {1} {2} {3} {4} {5} {6} {7} {8} {9} {10} {11} {12} */",
                $class;
                *a, *b, *c, *d, *e, *f, *g, *h, *lo, *mid, *hi, *n0, *n1
            );
        }

        /// Adds the carry-less product of `x` and the powers of H read at `off` bytes into
        /// `table` (lane by lane) into the unreduced sums `lo`, `mid` and `hi`, by Karatsuba:
        /// three products, the halves' and that of the halves' XORs by the power's Karatsuba
        /// key (`mid` then lacks `lo ^ hi`, added once by [`ghash_reduce`]).
        #[kernel($k)]
        #[inline]
        fn ghash_multiply(x: V, table: &[u8], off: usize, sums: &mut [V; 3]) {
            let p = ld(table, off);
            let pk = ld(table, 16 * KARATSUBA + off);
            sums[0] = xor(sums[0], clmul::<0x00>(x, p));
            sums[2] = xor(sums[2], clmul::<0x11>(x, p));
            sums[1] = xor(sums[1], clmul::<0x00>(xor(x, swap_halves(x)), pk));
        }

        /// [`ghash_multiply`] of two registers `x` and `y` with their powers `p` and `q`:
        /// the halves' XORs of both go into one register, `[x.lo ^ x.hi, y.lo ^ y.hi]` per
        /// lane, multiplied by `keys`, their Karatsuba keys side by side (see
        /// [`pair_keys`]); each sum takes both registers' products in one three-way XOR, or
        /// is set to their XOR when `fresh` (the sums not yet started).
        #[kernel($k)]
        #[inline]
        fn ghash_multiply_pair(x: V, y: V, p: V, q: V, keys: V, sums: &mut [V; 3], fresh: bool) {
            let t = xor(unpack_lo(x, y), unpack_hi(x, y));
            let add = |sum: V, a: V, b: V| if fresh { xor(a, b) } else { xor3(sum, a, b) };
            sums[0] = add(sums[0], clmul::<0x00>(x, p), clmul::<0x00>(y, q));
            sums[2] = add(sums[2], clmul::<0x11>(x, p), clmul::<0x11>(y, q));
            sums[1] = add(sums[1], clmul::<0x00>(t, keys), clmul::<0x11>(t, keys));
        }

        /// The Karatsuba keys of the powers at `a` and `b` bytes into `table`, side by side in
        /// each lane, for [`ghash_multiply_pair`].
        #[kernel($k)]
        #[inline]
        fn pair_keys(table: &[u8], a: usize, b: usize) -> V {
            let k = 16 * KARATSUBA;
            unpack_lo(ld(table, k + a), ld(table, k + b))
        }

        /// Reduces the unreduced sums (low, Karatsuba middle, high) lane by lane.
        #[kernel($k)]
        #[inline]
        fn reduce_lanes(sums: &[V; 3]) -> V {
            let mid = xor3(sums[1], sums[0], sums[2]);
            let low = xor(sums[0], lane_shl8(mid));
            let high = xor(sums[2], lane_shr8(mid));
            let poly = bcast(&POLY);
            let low = xor(swap_halves(low), clmul::<0x10>(low, poly));
            let low = xor(swap_halves(low), clmul::<0x10>(low, poly));
            xor(high, low)
        }

        /// Reduces the unreduced sums on every lane at once, then adds the lanes up.
        #[kernel($k)]
        #[inline]
        fn ghash_reduce(sums: &[V; 3]) -> __m128i {
            fold(reduce_lanes(sums))
        }

        /// GHASH of up to `GCM_REGS` registers of blocks (GCM byte order), folded into the
        /// state `s` (carry-less domain). Block `i` of the batch is multiplied by the power of H
        /// read at `first + 16 * i` bytes into `powers`, so one reduction serves the batch;
        /// the reduction runs on every lane at once before the lanes are added up.
        #[kernel($k)]
        #[inline]
        fn ghash_regs(s: __m128i, data: &[V], powers: &[u8], first: usize, rev: V) -> __m128i {
            let mut sums = [zero(); 3];
            for (u, d) in data.iter().enumerate() {
                let mut x = shuf(*d, rev);
                if u == 0 {
                    x = xor(x, zext(s));
                }
                ghash_multiply(x, powers, first + u * BYTES, &mut sums);
            }
            ghash_reduce(&sums)
        }

        /// The powers of H of each register of a batch and the Karatsuba keys of each pair
        /// (see [`hash_pair`]).
        struct BatchPowers {
            powers: [V; GCM_REGS],
            keys: [V; GCM_REGS / 2],
        }

        /// The [`BatchPowers`] of a batch whose first block is multiplied by the power read
        /// at `first` bytes into `table`.
        #[kernel($k)]
        #[inline]
        fn batch_powers(table: &[u8], first: usize) -> BatchPowers {
            BatchPowers {
                powers: core::array::from_fn(|u| ld(table, first + u * BYTES)),
                keys: core::array::from_fn(|p| {
                    let u = 2 * p + 1;
                    let v = (2 * p + 2) % GCM_REGS;
                    pair_keys(table, first + u * BYTES, first + v * BYTES)
                }),
            }
        }

        /// What the multiplications of a batch read: the state `s` (added to register 0) in
        /// the first batch of a reduction, zero in the second; the batch's powers; the byte
        /// reversal; whether the batch opens a reduction (its first pair then sets the sums
        /// instead of adding to zeros).
        struct HashBatch<'a> {
            s: __m128i,
            powers: &'a BatchPowers,
            rev: V,
            opens: bool,
        }

        /// Multiplies pair `p` of the batch `raw` (GCM byte order) into `sums`: registers
        /// `2p + 1` and `2p + 2` (mod `GCM_REGS`), so that register 0, which carries the state
        /// `s`, goes with the last pair.
        #[kernel($k)]
        #[inline]
        fn hash_pair(sums: &mut [V; 3], raw: [V; 2], p: usize, h: &HashBatch) {
            let u = 2 * p + 1;
            let v = (2 * p + 2) % GCM_REGS;
            let x = shuf(raw[0], h.rev);
            let mut y = shuf(raw[1], h.rev);
            if v == 0 {
                y = xor(y, zext(h.s));
            }
            let w = h.powers;
            let fresh = h.opens && p == 0;
            ghash_multiply_pair(x, y, w.powers[u], w.powers[v], w.keys[p], sums, fresh);
        }

        /// The two registers of pair `p` of `c` (see [`hash_pair`]).
        #[kernel($k)]
        #[inline]
        fn pair_of(c: &[V; GCM_REGS], p: usize) -> [V; 2] {
            [c[(2 * p + 1) % GCM_REGS], c[(2 * p + 2) % GCM_REGS]]
        }

        /// AES round `r` (if the key size has it) of the counter registers `ks`; after
        /// every `GCM_SPACING::<NR>()`-th round, the multiplication of the next pair of
        /// registers of the batch, `next`, then the pin that keeps them together; `next`
        /// becomes the pair after it.
        #[kernel($k)]
        #[inline]
        fn round_and_hash<const NR: usize>(
            r: usize,
            k: &[V; 15],
            ks: &mut [V; GCM_REGS],
            sums: &mut [V; 3],
            next: &mut [V; 2],
            c: &[V; GCM_REGS],
            h: &HashBatch,
        ) {
            if r < NR {
                for x in ks.iter_mut() {
                    *x = enc(*x, k[r]);
                }
                let spacing = pair_spacing(NR);
                if (r - 1) % spacing == 0 && (r - 1) / spacing < GCM_REGS / 2 {
                    let p = (r - 1) / spacing;
                    hash_pair(sums, *next, p, h);
                    *next = pair_of(c, (p + 1) % (GCM_REGS / 2));
                }
                gcm_pin(ks, sums, next);
            }
        }

        /// Rounds between the pairs of registers hashed in a batch: the pairs spread over the
        /// AES rounds of the key size.
        const fn pair_spacing(nr: usize) -> usize {
            let s = (nr - 2) / (GCM_REGS / 2);
            if s == 0 { 1 } else { s }
        }

        /// The counter registers of one batch, whitened (XORed with the first round key),
        /// and `run` advanced past them. `run.base` holds the batch's first counters in the
        /// little-endian form of [`lane_counts`]; `run.low` is the low byte of the batch's
        /// first counter (public). When no counter of the batch carries out of its low byte,
        /// each register is one XOR: the whitened common part `run.white` and the low bytes
        /// read from [`LOW_BYTES`](super::vaes_gcm::LOW_BYTES) (the load folds into the
        /// XOR). Otherwise each register is added, reversed and whitened on its own, and
        /// `run.white` is remade for the batches after.
        #[kernel($k)]
        #[inline]
        fn batch_counters(run: &mut GcmRun, g: &GcmKeys) -> [V; GCM_REGS] {
            const BATCH: usize = GCM_REGS * LANES;
            let low = run.low;
            let ks = if low + BATCH <= 256 {
                let bytes = super::vaes_gcm::LOW_BYTES.as_flattened();
                core::array::from_fn(|u| xor(run.white, ld(bytes, 16 * (low + u * LANES))))
            } else {
                core::array::from_fn(|u| xor(shuf(add32(run.base, g.offsets[u]), g.rev), g.k[0]))
            };
            run.base = add32(run.base, g.step);
            run.low = (low + BATCH) % 256;
            if run.low < low {
                run.white = white_prefix(run.base, g);
            }
            ks
        }

        /// The whitened common part of a batch's counter blocks: lane 0 of `base` (the form
        /// of [`batch_counters`]) in GCM byte order, its low byte cleared, in every lane,
        /// XORed with the first round key.
        #[kernel($k)]
        #[inline]
        fn white_prefix(base: V, g: &GcmKeys) -> V {
            let first = scatter(shuf(base, g.rev))[0];
            xor(splat(_mm_insert_epi8::<15>(first, 0)), g.k[0])
        }

        /// What every batch of [`gcm_batches`] reads: the round keys, the byte reversal and
        /// the counter steps (see [`batch_counters`]). It lives in the kernel's stack frame;
        /// [`wipe_gcm`] clears it.
        #[derive(Clone)]
        struct GcmKeys {
            k: [V; 15],
            rev: V,
            offsets: [V; GCM_REGS],
            step: V,
        }

        /// Where [`gcm_batches`] stands between batches: the next batch's first counters and
        /// their whitened common part (see [`batch_counters`]) and, for encryption, the batch
        /// encrypted last, to be hashed while the next is encrypted. `white` is a counter
        /// block XORed with the first round key (for AES-128, the key itself): [`wipe_gcm`]
        /// clears it.
        #[derive(Clone)]
        struct GcmRun {
            base: V,
            low: usize,
            white: V,
            previous: [V; GCM_REGS],
        }

        /// One batch of [`gcm_batches`]: encrypts (or decrypts) `chunk` in place and adds the
        /// GHASH products of the batch hashed with it (`chunk` itself when decrypting, the
        /// batch before when encrypting) into `sums`, under the powers and state of `h`.
        /// `ROLE` tells the three calls of [`gcm_batches`] apart (first and second of two, or
        /// alone) only so that each is an instance of its own, called once, which the
        /// compiler inlines: one instance called three times it kept out of line, and the
        /// kernel ran 13% slower.
        #[kernel($k)]
        #[inline]
        fn gcm_batch<const NR: usize, const DECRYPT: bool, const ROLE: usize>(
            chunk: &mut [u8],
            g: &GcmKeys,
            run: &mut GcmRun,
            h: &HashBatch,
            sums: &mut [V; 3],
        ) {
            let k = &g.k;
            let mut ks = batch_counters(run, g);
            let input: [V; GCM_REGS] = core::array::from_fn(|u| ld(chunk, u * BYTES));
            let c = if DECRYPT { input } else { run.previous };
            // Two registers' multiplications after every few AES rounds, the pair with the
            // register that carries the state `s` last, so that the reduction of the batch
            // before has the most time to finish; the pins of `round_and_hash` hold this
            // order in the generated code. The rounds are written out with literal indices:
            // a loop over them is not unrolled once they carry the pins.
            let mut next = pair_of(&c, 0);
            round_and_hash::<NR>(1, k, &mut ks, sums, &mut next, &c, h);
            round_and_hash::<NR>(2, k, &mut ks, sums, &mut next, &c, h);
            round_and_hash::<NR>(3, k, &mut ks, sums, &mut next, &c, h);
            round_and_hash::<NR>(4, k, &mut ks, sums, &mut next, &c, h);
            round_and_hash::<NR>(5, k, &mut ks, sums, &mut next, &c, h);
            round_and_hash::<NR>(6, k, &mut ks, sums, &mut next, &c, h);
            round_and_hash::<NR>(7, k, &mut ks, sums, &mut next, &c, h);
            round_and_hash::<NR>(8, k, &mut ks, sums, &mut next, &c, h);
            round_and_hash::<NR>(9, k, &mut ks, sums, &mut next, &c, h);
            round_and_hash::<NR>(10, k, &mut ks, sums, &mut next, &c, h);
            round_and_hash::<NR>(11, k, &mut ks, sums, &mut next, &c, h);
            round_and_hash::<NR>(12, k, &mut ks, sums, &mut next, &c, h);
            round_and_hash::<NR>(13, k, &mut ks, sums, &mut next, &c, h);
            let spacing = pair_spacing(NR);
            for p in (NR - 2) / spacing + 1..GCM_REGS / 2 {
                hash_pair(sums, pair_of(&c, p), p, h);
            }
            for x in ks.iter_mut() {
                *x = enclast(*x, k[NR]);
            }
            for (u, x) in ks.iter().enumerate() {
                run.previous[u] = xor(*x, input[u]);
                st(chunk, u * BYTES, run.previous[u]);
            }
        }

        /// The [`GcmKeys`] of the round keys `keys`, with the byte reversal `rev`.
        #[kernel($k)]
        #[inline]
        fn gcm_keys(keys: &[[u8; 16]; 15], rev: V) -> GcmKeys {
            GcmKeys {
                k: round_keys(keys),
                rev,
                offsets: core::array::from_fn(|u| lane_counts_flat((u * LANES) as u64)),
                step: lane_counts_flat((GCM_REGS * LANES) as u64),
            }
        }

        /// Zeroes the broadcast round keys of `g` and the whitened counters of `run` (both
        /// in the stack frame of the kernel that made them, passed by reference to
        /// [`gcm_batches`]) before that kernel returns; the rest of both is public. The
        /// round keys past round `NR` are unused and stay zero.
        #[kernel($k)]
        #[inline]
        fn wipe_gcm<const NR: usize>(g: &mut GcmKeys, run: &mut GcmRun) {
            for key in &mut g.k[..=NR] {
                crate::wipe::set(key, zero());
            }
            crate::wipe::set(&mut run.white, zero());
        }

        /// The [`GcmRun`] of a pass whose first counter block is `counter`.
        #[kernel($k)]
        #[inline]
        fn gcm_start(counter: &[u8; 16], g: &GcmKeys) -> GcmRun {
            let base = add32(shuf(bcast(counter), g.rev), lane_counts(0));
            GcmRun {
                base,
                low: usize::from(counter[15]),
                white: white_prefix(base, g),
                previous: [zero(); GCM_REGS],
            }
        }

        /// The whole batches of `whole` (its length a multiple of a batch's bytes; any
        /// bytes past the last whole batch are left alone) in a GCM pass: CTR from `state`'s
        /// counters and GHASH of the ciphertext into the state `s` (carry-less domain). Decryption
        /// hashes a batch while decrypting it (its ciphertext is already there); encryption
        /// hashes the previous batch's ciphertext while encrypting the next, so neither waits
        /// for the other. Returns the state and whether the last batch encrypted, in
        /// `run.previous`, is still to be hashed (by the caller, with what follows it). The
        /// hashed batches go in twos, `2 * GCM_REGS` registers per reduction: the first by
        /// the powers H^(2n) down to H^(n+1) of a batch of n blocks, the second by H^n down
        /// to H^1, the reduction after it (a reduction per batch measured slower; see
        /// `docs/perf/aes.md`).
        #[kernel($k)]
        fn gcm_batches<const NR: usize, const DECRYPT: bool>(
            keys: &GcmKeys,
            table: &[u8],
            state: &mut GcmRun,
            mut s: __m128i,
            whole: &mut [u8],
        ) -> (__m128i, bool) {
            const BATCH: usize = GCM_REGS * LANES;
            const { assert!(2 * BATCH <= MAX_BATCH) };
            // A local copy, written back at the end: through the reference, the compiler
            // kept the counters and the last batch in memory, a load and a store a register.
            let g = keys;
            let mut local = state.clone();
            let run = &mut local;
            let mut wide = whole.chunks_exact_mut(GCM_REGS * BYTES);
            let first_of_two = batch_powers(table, 16 * (MAX_BATCH - 2 * BATCH));
            let second_of_two = batch_powers(table, 16 * (MAX_BATCH - BATCH));
            // Encryption hashes each batch's ciphertext while encrypting the next: the first
            // batch is only encrypted, the last only hashed.
            let mut pending = false;
            if !DECRYPT && let Some(chunk) = wide.next() {
                let mut ks = batch_counters(run, g);
                encrypt_whitened::<NR, GCM_REGS>(&g.k, &mut ks);
                for (u, x) in ks.iter().enumerate() {
                    run.previous[u] = xor(*x, ld(chunk, u * BYTES));
                    st(chunk, u * BYTES, run.previous[u]);
                }
                pending = true;
            }
            while let Some(chunk) = wide.next() {
                let mut sums = [zero(); 3];
                let first = HashBatch {
                    s,
                    powers: &first_of_two,
                    rev: g.rev,
                    opens: true,
                };
                let second = HashBatch {
                    s: _mm_setzero_si128(),
                    powers: &second_of_two,
                    rev: g.rev,
                    opens: false,
                };
                if let Some(next) = wide.next() {
                    gcm_batch::<NR, DECRYPT, 0>(chunk, g, run, &first, &mut sums);
                    gcm_batch::<NR, DECRYPT, 1>(next, g, run, &second, &mut sums);
                } else {
                    // The last hashed batch goes alone when their number is odd.
                    let alone = HashBatch {
                        s,
                        opens: true,
                        ..second
                    };
                    gcm_batch::<NR, DECRYPT, 2>(chunk, g, run, &alone, &mut sums);
                }
                s = ghash_reduce(&sums);
            }
            *state = local;
            (s, pending)
        }

        /// The product of each lane of `a` by the same lane of `b`, reduced lane by lane
        /// (carry-less domain, Karatsuba: three 64-bit products per lane).
        #[kernel($k)]
        #[inline]
        fn mul_lanes(a: V, b: V) -> V {
            let mid = clmul::<0x00>(xor(a, swap_halves(a)), xor(b, swap_halves(b)));
            reduce_lanes(&[clmul::<0x00>(a, b), mid, clmul::<0x11>(a, b)])
        }

        /// H^1 (carry-less domain, `key`) to H^[`MAX_BATCH`] into the first blocks of `out`,
        /// H^k at block `MAX_BATCH - k`, all in registers until the end: H^1 to H^`LANES`
        /// one by one into the first register (highest power in lane 0), then by doubling,
        /// the registers after the first m are the first m times the highest power so far,
        /// in every lane (m independent multiplications, `LANES` powers each). Each
        /// register's Karatsuba keys go out with it.
        #[kernel($k)]
        fn powers_kernel(key: &[u8; 16], out: &mut [[u8; 16]; POWERS]) {
            const REGS: usize = MAX_BATCH / LANES;
            let h = xmm_load(key, 0);
            let mut low = [h; LANES];
            for i in 1..LANES {
                // H^(i + 1) = H^j * H^(i + 1 - j), j the highest power of two up to i.
                let j = 1 << i.ilog2();
                let p = mul_lanes(splat(low[j - 1]), splat(low[i - j]));
                low[i] = scatter(p)[0];
            }
            low.reverse();
            let mut regs = [zero(); REGS];
            regs[0] = gather(low);
            let mut m = 1;
            while m < REGS {
                let top = splat(scatter(regs[m - 1])[0]);
                for i in 0..m {
                    regs[m + i] = mul_lanes(regs[i], top);
                }
                m *= 2;
            }
            let table = out.as_flattened_mut();
            for (i, r) in regs.iter().enumerate() {
                let at = 16 * (MAX_BATCH - (i + 1) * LANES);
                st(table, at, *r);
                st(table, 16 * KARATSUBA + at, xor(*r, swap_halves(*r)));
            }
            crate::wipe::set(&mut regs, [zero(); REGS]);
            crate::wipe::set(&mut low, [_mm_setzero_si128(); LANES]);
        }

        /// GCM over whole blocks: CTR with a 32-bit counter from `counter` and GHASH of the
        /// ciphertext into `acc`, in one pass (see [`gcm_batches`]).
        #[kernel($k)]
        fn gcm<const NR: usize, const DECRYPT: bool>(
            keys: &[[u8; 16]; 15],
            powers: &[[u8; 16]; POWERS],
            counter: &[u8; 16],
            acc: &mut [u8; 16],
            buf: &mut [u8],
        ) {
            // The mask is opaque to the optimiser: seeing a constant byte reversal of loaded
            // data, it once rebuilt each register from scalar loads and 64 byte inserts.
            let rev = bcast(&core::hint::black_box(REVERSE));
            let mut g = gcm_keys(keys, rev);
            let table = powers.as_flattened();
            let s = _mm_shuffle_epi8(xmm_load(acc, 0), xmm_load(&REVERSE, 0));
            let mut run = gcm_start(counter, &g);
            let batches = buf.len() / (GCM_REGS * BYTES) * (GCM_REGS * BYTES);
            let (whole, rest) = buf.split_at_mut(batches);
            let (mut s, pending) = gcm_batches::<NR, DECRYPT>(&g, table, &mut run, s, whole);
            if pending {
                let first = 16 * (MAX_BATCH - GCM_REGS * LANES);
                s = ghash_regs(s, &run.previous, table, first, rev);
            }
            let blocks = rest.len() / 16;
            if blocks > 0 {
                let regs = blocks.div_ceil(LANES);
                // Lanes past the end hold keystream or zeros; GHASH multiplies them by the
                // zero blocks after H^1.
                let mut c = [zero(); GCM_REGS];
                let step_one = lane_counts_flat(LANES as u64);
                for (u, hashed) in c.iter_mut().enumerate().take(regs) {
                    let mut ks = [shuf(run.base, rev)];
                    encrypt_n::<NR, 1>(&g.k, &mut ks);
                    let input = ld_upto(rest, u * BYTES);
                    let out = xor(ks[0], input);
                    st_upto(rest, u * BYTES, out);
                    *hashed = if DECRYPT { input } else { out };
                    run.base = add32(run.base, step_one);
                }
                s = ghash_regs(s, &c[..regs], table, 16 * (MAX_BATCH - blocks), rev);
            }
            xmm_store(acc, 0, _mm_shuffle_epi8(s, xmm_load(&REVERSE, 0)));
            wipe_gcm::<NR>(&mut g, &mut run);
        }

        /// GCM encryption (or decryption) of whole blocks with GHASH of the ciphertext.
        #[kernel($k)]
        pub(super) fn gcm_blocks(
            rk: &RoundKeys,
            powers: &[[u8; 16]; POWERS],
            decrypt: bool,
            counter: &[u8; 16],
            acc: &mut [u8; 16],
            buf: &mut [u8],
        ) {
            if decrypt {
                by_rounds!(rk.rounds, gcm::<true>(&rk.enc, powers, counter, acc, buf))
            } else {
                by_rounds!(rk.rounds, gcm::<false>(&rk.enc, powers, counter, acc, buf))
            }
        }

        /// Writes H^[`MAX_BATCH`] .. H^1 in the carry-less domain into the first
        /// [`MAX_BATCH`] blocks of `out` and their Karatsuba keys from block [`KARATSUBA`]
        /// on (the rest stays as it is) for the GHASH kernels.
        #[kernel($k)]
        pub(super) fn powers(h: &[u8; 16], out: &mut [[u8; 16]; POWERS]) {
            let mut key = crate::ghash::polyval_key(h);
            powers_kernel(&key, out);
            crate::wipe::array(&mut key);
        }
    };
}
pub(super) use vaes_gcm;
