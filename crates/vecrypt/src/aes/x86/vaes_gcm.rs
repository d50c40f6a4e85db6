//! GCM on VAES registers: CTR and GHASH in one pass, the carry-less multiplications of one
//! batch placed between the AES rounds of the next. Written once over the primitives of a
//! register width and expanded by each width's module as `vaes_gcm!(KERNEL,
//! REGISTER_CLASS)` after `vaes_blocks!`, whose round and counter helpers it uses.
//!
//! A batch is `GCM_REGS` registers (eight: 32 blocks on zmm, 16 on ymm) with one reduction.
//! GHASH multiplies by Karatsuba, three 64-bit carry-less products per block instead of
//! four, two registers at a time: their halves' XORs share one register, multiplied by the
//! two powers' Karatsuba keys side by side (a table after the powers of H), and each sum
//! takes both registers' products in one three-way XOR. The pairs are spread over the AES
//! rounds, the pair that carries the GHASH state last; an empty `asm!` pin after each round
//! keeps the compiler from gathering the multiplications in one place (without the pins
//! it does, and the kernel runs about a sixth slower).
//! The counters of a batch take one byte reversal when none of them carries out of its low
//! byte (the others add to the last byte of the big-endian block), else one per register.
//!
//! Bound on AMD Zen 5 (EPYC, 4.1 to 4.3 GHz), from loops of independent instructions on zmm
//! registers: VAESENC issues two a cycle (latency 4); VPCLMULQDQ one every two cycles at
//! every width, xmm, ymm or zmm (latency 5), beside the AES units (four VAESENC and one
//! VPCLMULQDQ in 2.08 cycles, ten and four in 7.96); VPSHUFB shares a pipe with VAESENC
//! (two and one in 1.32 cycles instead of 1.0) while VPSHUFD, VPADDD, VPXORD and VPTERNLOGD
//! do not; simple integer operations have a latency of 2. With XORs added, ten VAESENC,
//! three VPCLMULQDQ and 6, 9 or 12 XORs take 6.4, 7.1 and 7.8 cycles: the four vector pipes
//! are the limit, a VPCLMULQDQ taking about three pipe-cycles of them. A batch of AES-128
//! (80 AES rounds, 26 carry-less multiplications, about 70 other vector operations) then
//! needs about 57 cycles, 7.1 per register, where CTR needs 5 (its AES rounds): GCM can reach
//! about 0.70x CTR with AES-128 and 0.85x with AES-256.
//!
//! `vecrypt speed --bounds` measures that bound on the CPU it runs on: the loop's
//! instructions as compiled (per 512 bytes with AES-128: 80 AES rounds, 26 carry-less
//! multiplications, 9 VPSHUFB, 62 other vector operations, 36 loads, 8 stores) run without
//! dependencies. On Zen 5 at 4.3 GHz they take 56 to 57 core cycles, 38 to 39 GB/s (AES-256:
//! 65 cycles, 33.6 GB/s), and the kernel seals 16 KiB at 29.5 to 30.5 GB/s, 0.77 to 0.78 of
//! it (AES-256: 26.4 GB/s, 0.79); CTR's loop in the same runs reaches 0.90 to 0.92 of its
//! own bound. The 26 multiplications alone take 52 cycles, the multiplier's one every two
//! cycles, where the AES rounds alone take 40: on this core the multiplications do not hide
//! under the AES rounds, the rounds hide under them, and the multiplier sets a ceiling of
//! about 42 GB/s that no schedule passes. A batch of sixteen registers with one reduction
//! (25 multiplications per 512 bytes) would lower the loop's bound by about 4%. Two changes left that fraction where it was: feeding each batch a zero state
//! instead of the reduced one, which takes the reduction out of the loop-carried chain
//! (29.1 to 29.5 GB/s in two runs: its latency is not what holds the kernel back), and
//! spreading the hashing over every round, two multiplications after nearly every round
//! instead of six after every other (+0.5%, same-run A/B, medians of seven). Neither is
//! kept. Earlier measurements, on
//! 16 KiB messages (medians of 15, several runs, CTR in the same process): AES-128 sealed at
//! 27.6 to 30.0 GB/s, 0.57x to 0.60x CTR's 47 to 50 GB/s (22.5 GB/s, 0.46x, with the
//! schoolbook products and the multiplications gathered), AES-256 at 24.6 to 26.4 GB/s,
//! 0.75x to 0.79x CTR. Opening runs at the same speed (0.56x to 0.61x and 0.75x to 0.78x,
//! the copy of the message that restores it between calls left out).

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
        /// [`pair_keys`]); each sum takes both registers' products in one three-way XOR.
        #[kernel($k)]
        #[inline]
        fn ghash_multiply_pair(x: V, y: V, p: V, q: V, keys: V, sums: &mut [V; 3]) {
            let t = xor(unpack_lo(x, y), unpack_hi(x, y));
            sums[0] = xor3(sums[0], clmul::<0x00>(x, p), clmul::<0x00>(y, q));
            sums[2] = xor3(sums[2], clmul::<0x11>(x, p), clmul::<0x11>(y, q));
            sums[1] = xor3(sums[1], clmul::<0x00>(t, keys), clmul::<0x11>(t, keys));
        }

        /// The Karatsuba keys of the powers at `a` and `b` bytes into `table`, side by side in
        /// each lane, for [`ghash_multiply_pair`].
        #[kernel($k)]
        #[inline]
        fn pair_keys(table: &[u8], a: usize, b: usize) -> V {
            let k = 16 * KARATSUBA;
            unpack_lo(ld(table, k + a), ld(table, k + b))
        }

        /// Reduces the unreduced sums on every lane at once, then adds the lanes up.
        #[kernel($k)]
        #[inline]
        fn ghash_reduce(sums: &[V; 3]) -> __m128i {
            let mid = xor3(sums[1], sums[0], sums[2]);
            let low = xor(sums[0], lane_shl8(mid));
            let high = xor(sums[2], lane_shr8(mid));
            let poly = bcast(&POLY);
            let low = xor(swap_halves(low), clmul::<0x10>(low, poly));
            let low = xor(swap_halves(low), clmul::<0x10>(low, poly));
            fold(xor(high, low))
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

        /// What the multiplications of a batch read: the state `s` (added to register 0),
        /// the powers of H of each register, the Karatsuba keys of each pair (see
        /// [`hash_pair`]) and the byte reversal.
        struct HashBatch<'a> {
            s: __m128i,
            powers: &'a [V; GCM_REGS],
            keys: &'a [V; GCM_REGS / 2],
            rev: V,
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
            ghash_multiply_pair(x, y, h.powers[u], h.powers[v], h.keys[p], sums);
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

        /// The counter registers of one batch. `base` holds the batch's first counters in
        /// the little-endian form of [`lane_counts`]; `low` is the low byte of the batch's
        /// first counter (public). When no counter of the batch carries out of its low
        /// byte, one byte reversal serves the whole batch: the later registers add their
        /// offsets to the last byte of the big-endian block, `be_steps`. Otherwise each
        /// register is added and reversed on its own.
        #[kernel($k)]
        #[inline]
        fn batch_counters(
            base: V,
            low: usize,
            offsets: &[V; GCM_REGS],
            be_steps: &[V; GCM_REGS],
            rev: V,
        ) -> [V; GCM_REGS] {
            if low + GCM_REGS * LANES <= 256 {
                let first = shuf(base, rev);
                core::array::from_fn(|u| add32(first, be_steps[u]))
            } else {
                core::array::from_fn(|u| shuf(add32(base, offsets[u]), rev))
            }
        }

        /// GCM over whole blocks: CTR with a 32-bit counter from `counter` and GHASH of the
        /// ciphertext into `acc`, in one pass; `GCM_REGS` registers of blocks per reduction.
        /// Decryption hashes a batch while decrypting it (its ciphertext is already there);
        /// encryption hashes the previous batch's ciphertext, read back from the buffer,
        /// while encrypting the next, so neither waits for the other.
        #[kernel($k)]
        fn gcm<const NR: usize, const DECRYPT: bool>(
            keys: &[[u8; 16]; 15],
            powers: &[[u8; 16]; POWERS],
            counter: &[u8; 16],
            acc: &mut [u8; 16],
            buf: &mut [u8],
        ) {
            const BATCH: usize = GCM_REGS * LANES;
            const BATCH_BYTES: usize = GCM_REGS * BYTES;
            let k = round_keys(keys);
            // The mask is opaque to the optimiser: seeing a constant byte reversal of loaded
            // data, it once rebuilt each register from scalar loads and 64 byte inserts.
            let rev = bcast(&core::hint::black_box(REVERSE));
            let table = powers.as_flattened();
            let full_batch_first = 16 * (MAX_BATCH - BATCH);
            let mut s = _mm_shuffle_epi8(xmm_load(acc, 0), xmm_load(&REVERSE, 0));
            let mut base = add32(shuf(bcast(counter), rev), lane_counts(0));
            let mut low = usize::from(counter[15]);
            let offsets: [V; GCM_REGS] =
                core::array::from_fn(|u| lane_counts_flat((u * LANES) as u64));
            let be_steps: [V; GCM_REGS] = core::array::from_fn(|u| {
                let mut block = [0u8; 16];
                block[15] = (u * LANES) as u8;
                bcast(&block)
            });
            let step_wide = lane_counts_flat(BATCH as u64);
            let step_one = lane_counts_flat(LANES as u64);
            let pw: [V; GCM_REGS] =
                core::array::from_fn(|u| ld(table, full_batch_first + u * BYTES));
            let pk: [V; GCM_REGS / 2] = core::array::from_fn(|p| {
                let u = 2 * p + 1;
                let v = (2 * p + 2) % GCM_REGS;
                pair_keys(
                    table,
                    full_batch_first + u * BYTES,
                    full_batch_first + v * BYTES,
                )
            });
            let mut wide = buf.chunks_exact_mut(BATCH_BYTES);
            // Encryption hashes each batch's ciphertext while encrypting the next: the first
            // batch is only encrypted, the last only hashed.
            let mut previous = [zero(); GCM_REGS];
            let mut any = false;
            if !DECRYPT && let Some(chunk) = wide.next() {
                let mut ks = batch_counters(base, low, &offsets, &be_steps, rev);
                base = add32(base, step_wide);
                low = (low + BATCH) % 256;
                encrypt_n::<NR, GCM_REGS>(&k, &mut ks);
                for (u, x) in ks.iter().enumerate() {
                    previous[u] = xor(*x, ld(chunk, u * BYTES));
                    st(chunk, u * BYTES, previous[u]);
                }
                any = true;
            }
            for chunk in &mut wide {
                let mut ks = batch_counters(base, low, &offsets, &be_steps, rev);
                base = add32(base, step_wide);
                low = (low + BATCH) % 256;
                let input: [V; GCM_REGS] = core::array::from_fn(|u| ld(chunk, u * BYTES));
                let c = if DECRYPT { input } else { previous };
                // Two registers' multiplications after every few AES rounds, the pair with
                // the register that carries the state `s` last, so that the reduction of the
                // batch before has the most time to finish; the pins of `round_and_hash` hold
                // this order in the generated code. The rounds are written out with literal
                // indices: a loop over them is not unrolled once they carry the pins.
                let h = HashBatch {
                    s,
                    powers: &pw,
                    keys: &pk,
                    rev,
                };
                let mut sums = [zero(); 3];
                for x in ks.iter_mut() {
                    *x = xor(*x, k[0]);
                }
                let mut next = pair_of(&c, 0);
                round_and_hash::<NR>(1, &k, &mut ks, &mut sums, &mut next, &c, &h);
                round_and_hash::<NR>(2, &k, &mut ks, &mut sums, &mut next, &c, &h);
                round_and_hash::<NR>(3, &k, &mut ks, &mut sums, &mut next, &c, &h);
                round_and_hash::<NR>(4, &k, &mut ks, &mut sums, &mut next, &c, &h);
                round_and_hash::<NR>(5, &k, &mut ks, &mut sums, &mut next, &c, &h);
                round_and_hash::<NR>(6, &k, &mut ks, &mut sums, &mut next, &c, &h);
                round_and_hash::<NR>(7, &k, &mut ks, &mut sums, &mut next, &c, &h);
                round_and_hash::<NR>(8, &k, &mut ks, &mut sums, &mut next, &c, &h);
                round_and_hash::<NR>(9, &k, &mut ks, &mut sums, &mut next, &c, &h);
                round_and_hash::<NR>(10, &k, &mut ks, &mut sums, &mut next, &c, &h);
                round_and_hash::<NR>(11, &k, &mut ks, &mut sums, &mut next, &c, &h);
                round_and_hash::<NR>(12, &k, &mut ks, &mut sums, &mut next, &c, &h);
                round_and_hash::<NR>(13, &k, &mut ks, &mut sums, &mut next, &c, &h);
                let spacing = pair_spacing(NR);
                for p in (NR - 2) / spacing + 1..GCM_REGS / 2 {
                    hash_pair(&mut sums, pair_of(&c, p), p, &h);
                }
                for x in ks.iter_mut() {
                    *x = enclast(*x, k[NR]);
                }
                s = ghash_reduce(&sums);
                for (u, x) in ks.iter().enumerate() {
                    previous[u] = xor(*x, input[u]);
                    st(chunk, u * BYTES, previous[u]);
                }
            }
            if !DECRYPT && any {
                s = ghash_regs(s, &previous, table, full_batch_first, rev);
            }
            let rest = wide.into_remainder();
            let blocks = rest.len() / 16;
            if blocks > 0 {
                let regs = blocks.div_ceil(LANES);
                // Lanes past the end hold keystream or zeros; GHASH multiplies them by the
                // zero blocks after H^1.
                let mut c = [zero(); GCM_REGS];
                for u in 0..regs {
                    let mut ks = [shuf(base, rev)];
                    encrypt_n::<NR, 1>(&k, &mut ks);
                    let input = ld_upto(rest, u * BYTES);
                    let out = xor(ks[0], input);
                    st_upto(rest, u * BYTES, out);
                    c[u] = if DECRYPT { input } else { out };
                    base = add32(base, step_one);
                }
                s = ghash_regs(s, &c[..regs], table, 16 * (MAX_BATCH - blocks), rev);
            }
            xmm_store(acc, 0, _mm_shuffle_epi8(s, xmm_load(&REVERSE, 0)));
        }

        /// GCM encryption (or decryption) of whole blocks with GHASH of the ciphertext;
        /// false, doing nothing, if the CPU cannot run the kernel.
        pub(super) fn gcm_blocks(
            rk: &RoundKeys,
            powers: &[[u8; 16]; POWERS],
            decrypt: bool,
            counter: &[u8; 16],
            acc: &mut [u8; 16],
            buf: &mut [u8],
        ) -> bool {
            if !runs() {
                return false;
            }
            // SAFETY: runs() confirmed the features this kernel is compiled for.
            unsafe {
                if decrypt {
                    by_rounds!(rk.rounds, gcm::<true>(&rk.enc, powers, counter, acc, buf))
                } else {
                    by_rounds!(rk.rounds, gcm::<false>(&rk.enc, powers, counter, acc, buf))
                }
            }
            true
        }
    };
}
pub(super) use vaes_gcm;
