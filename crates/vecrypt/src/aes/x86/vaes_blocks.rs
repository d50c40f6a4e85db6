//! The block kernels of VAES, written once over the primitives of a register width and
//! expanded by each width's module (`vaes_blocks!(KERNEL)`, with the kernel table's name of
//! that width): ECB, CTR, CBC and CFB decryption, and CBC encryption of several streams at
//! once. The module expanding it provides `V`, `LANES`, `UNROLL`, `ECB_REGS`, `MAX_REGS`,
//! the register primitives and the imports.

/// Byte reversal within each block.
pub(super) const REVERSE: [u8; 16] = [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0];

macro_rules! vaes_blocks {
    ($k:ident) => {
        const BYTES: usize = 16 * LANES;

        #[kernel($k)]
        #[inline]
        fn round_keys(keys: &[[u8; 16]; 15]) -> [V; 15] {
            core::array::from_fn(|r| bcast(&keys[r]))
        }

        #[kernel($k)]
        #[inline]
        fn encrypt_n<const NR: usize, const N: usize>(k: &[V; 15], b: &mut [V; N]) {
            for x in b.iter_mut() {
                *x = xor(*x, k[0]);
            }
            encrypt_whitened::<NR, N>(k, b);
        }

        /// The AES rounds of [`encrypt_n`] after the whitening (the XOR with `k[0]`), for
        /// registers that come whitened. With more than ten rounds the registers' rounds are
        /// kept in step (`in_step`, which only the ymm width needs): with fourteen, each
        /// register run through all its rounds before the next left the AES units idle, where
        /// with ten the compiler's order is the faster (`docs/perf/aes.md`).
        #[kernel($k)]
        #[inline]
        fn encrypt_whitened<const NR: usize, const N: usize>(k: &[V; 15], b: &mut [V; N]) {
            for key in &k[1..NR] {
                for x in b.iter_mut() {
                    *x = enc(*x, *key);
                }
                if NR > 10 {
                    in_step(b);
                }
            }
            for x in b.iter_mut() {
                *x = enclast(*x, k[NR]);
            }
        }

        /// Decryption of `b`, its rounds kept in step as [`encrypt_whitened`]'s.
        #[kernel($k)]
        #[inline]
        fn decrypt_n<const NR: usize, const N: usize>(k: &[V; 15], b: &mut [V; N]) {
            for x in b.iter_mut() {
                *x = xor(*x, k[0]);
            }
            for key in &k[1..NR] {
                for x in b.iter_mut() {
                    *x = dec(*x, *key);
                }
                if NR > 10 {
                    in_step(b);
                }
            }
            for x in b.iter_mut() {
                *x = declast(*x, k[NR]);
            }
        }

        /// Runs `f` on the last, partial register's worth of blocks, loaded and stored under
        /// a mask (the lanes past them are zero going in and dropped coming out).
        #[kernel($k)]
        #[inline]
        fn with_padded(tail: &mut [u8], f: impl FnOnce(V) -> V) {
            let out = f(ld_upto(tail, 0));
            st_upto(tail, 0, out);
        }

        #[kernel($k)]
        fn ecb<const NR: usize, const DECRYPT: bool>(keys: &[[u8; 16]; 15], buf: &mut [u8]) {
            let k = round_keys(keys);
            let mut wide = buf.chunks_exact_mut(BYTES * ECB_REGS);
            for chunk in &mut wide {
                let mut b: [V; ECB_REGS] = core::array::from_fn(|i| ld(chunk, i * BYTES));
                if DECRYPT {
                    decrypt_n::<NR, ECB_REGS>(&k, &mut b);
                } else {
                    encrypt_n::<NR, ECB_REGS>(&k, &mut b);
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
        #[kernel($k)]
        #[inline]
        fn lane_counts(first: u64) -> V {
            let mut bytes = [0u8; BYTES];
            for (j, lane) in bytes.chunks_exact_mut(16).enumerate() {
                lane[..8].copy_from_slice(&(first + j as u64).to_le_bytes());
            }
            ld(&bytes, 0)
        }

        #[kernel($k)]
        #[inline]
        fn counter_add<const C32: bool>(a: V, b: V) -> V {
            if C32 { add32(a, b) } else { add64(a, b) }
        }

        #[kernel($k)]
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
        #[kernel($k)]
        #[inline]
        fn lane_counts_flat(n: u64) -> V {
            let mut block = [0u8; 16];
            block[..8].copy_from_slice(&n.to_le_bytes());
            bcast(&block)
        }

        /// One register of the feedback decryptions: CBC decrypts each ciphertext block and
        /// adds its predecessor; CFB encrypts the predecessor and adds the block.
        #[kernel($k)]
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
        #[kernel($k)]
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
        #[kernel($k)]
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

        /// ECB encryption of whole blocks.
        #[kernel($k)]
        pub(super) fn encrypt(rk: &RoundKeys, buf: &mut [u8]) {
            by_rounds!(rk.rounds, ecb::<false>(&rk.enc, buf));
        }

        /// ECB decryption of whole blocks.
        #[kernel($k)]
        pub(super) fn decrypt(rk: &RoundKeys, buf: &mut [u8]) {
            by_rounds!(rk.rounds, ecb::<true>(&rk.dec, buf));
        }

        /// CTR over whole blocks, the counter adding in the part `width` names.
        #[kernel($k)]
        pub(super) fn ctr_blocks(
            rk: &RoundKeys,
            width: CounterWidth,
            counter: &[u8; 16],
            buf: &mut [u8],
        ) {
            match width {
                CounterWidth::Low32 => by_rounds!(rk.rounds, ctr::<true>(&rk.enc, counter, buf)),
                CounterWidth::Low64 => {
                    by_rounds!(rk.rounds, ctr::<false>(&rk.enc, counter, buf))
                }
            }
        }

        /// CBC decryption of whole blocks.
        #[kernel($k)]
        pub(super) fn decrypt_cbc(rk: &RoundKeys, iv: &mut [u8; 16], buf: &mut [u8]) {
            by_rounds!(rk.rounds, feedback_decrypt::<false>(&rk.dec, iv, buf));
        }

        /// CFB decryption of whole blocks.
        #[kernel($k)]
        pub(super) fn decrypt_cfb(rk: &RoundKeys, iv: &mut [u8; 16], buf: &mut [u8]) {
            by_rounds!(rk.rounds, feedback_decrypt::<true>(&rk.enc, iv, buf));
        }

        /// Streams interleaved at most by [`encrypt_cbc_streams`].
        pub(super) const MAX_STREAMS: usize = MAX_REGS * LANES;

        /// CBC encryption of a multiple of `LANES` streams (at most [`MAX_STREAMS`]) of the
        /// same key size, `blocks` blocks each. Declined, doing nothing, otherwise or when
        /// this CPU cannot run the kernel: it is called through a function pointer, so it
        /// checks the CPU on each call.
        pub(super) fn encrypt_cbc_streams(
            keys: &[&RoundKeys],
            ivs: &mut [[u8; 16]],
            bufs: &mut [&mut [u8]],
            blocks: usize,
        ) -> crate::cpu::Ran {
            let n = keys.len();
            let rounds = keys.first().map_or(10, |k| k.rounds);
            if n == 0
                || n % LANES != 0
                || n > MAX_STREAMS
                || keys.iter().any(|k| k.rounds != rounds)
                || bufs.iter().any(|b| b.len() < 16 * blocks)
                || ivs.len() != n
                || bufs.len() != n
            {
                return crate::cpu::Ran::Declined;
            }
            crate::cpu::checked!(crate::cpu::kernels::$k => {
                // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
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
                        _ => return crate::cpu::Ran::Declined,
                    }
                }
            })
        }
    };
}
pub(super) use vaes_blocks;
