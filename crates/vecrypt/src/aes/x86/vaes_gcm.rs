//! GCM on VAES registers: CTR and GHASH in one pass, the carry-less multiplications of one
//! batch placed between the AES rounds of the next. Written once over the primitives of a
//! register width and expanded by each width's module as `vaes_gcm!(KERNEL)` after
//! `vaes_blocks!`, whose round and counter helpers it uses.

/// The POLYVAL reduction constant in each lane: x^0 in the low half, x^127+x^126+x^121 folded
/// into the high half's top byte.
pub(super) const POLY: [u8; 16] = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xc2];

macro_rules! vaes_gcm {
    ($k:ident) => {
        /// Adds the carry-less product of `x` and `p` (lane by lane, Karatsuba-free: four
        /// products) into the unreduced sums `lo`, `mid` and `hi`.
        #[kernel($k)]
        #[inline]
        fn ghash_multiply(x: V, p: V, sums: &mut [V; 3]) {
            sums[0] = xor(sums[0], clmul::<0x00>(x, p));
            sums[1] = xor(sums[1], xor(clmul::<0x01>(x, p), clmul::<0x10>(x, p)));
            sums[2] = xor(sums[2], clmul::<0x11>(x, p));
        }

        /// Reduces the unreduced sums on every lane at once, then adds the lanes up.
        #[kernel($k)]
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
        #[kernel($k)]
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
        #[kernel($k)]
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
        #[kernel($k)]
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
