//! XTS on VAES registers, written once over the primitives of a register width and
//! expanded by each width's module as `vaes_xts!(KERNEL)` after `vaes_blocks!`, whose ECB
//! round helpers it uses. The width's module provides `XTS_REGS` (registers of blocks per
//! loop step, a power of two up to eight), `first_tweaks` (lane `j` times x^j),
//! `times_x_pow::<K, C>` (every lane times x^K, `C = 64 - K`, counts of type `Shift`),
//! `xts_step::<BYTE_SHIFT>` (every lane times x^(LANES * XTS_REGS), the loop's step,
//! written for its one stride, in one or two forms) and `xts_byte_shift` (the form this
//! core takes).
//!
//! Each lane carries its block's tweak. `XTS_REGS` registers of tweaks are live, and each
//! steps on by x^(LANES * XTS_REGS) once per loop step: the registers advance side by side,
//! so no tweak waits for the one before it and the step's latency hides under the AES
//! rounds. The tweak is folded into the first and last round keys (whitening before the
//! cipher is one three-way XOR, and the XOR after it rides in the last round's key), so XTS
//! costs the AES rounds of ECB plus, per register, the tweak step: two shift or shuffle
//! operations, one carry-less multiplication and one XOR. The tweak key's encryption of
//! the first tweak runs inside the kernel too, on an xmm register, and the last, partly
//! filled step is loaded and stored under masks.
//! Per 512 bytes with AES-128 the loop is ECB's 80 AES rounds plus 8 carry-less
//! multiplications, about 40 other vector operations, 8 loads and 8 stores; the tweak step
//! runs beside the AES units, not in their slots, as long as it avoids their ports. Cores
//! with one 512-bit AES unit issue 512-bit 64-bit shifts only on that unit's port, so there
//! the step takes a byte shift of the lane instead (`xts_byte_shift`). The measurements
//! behind both forms are in `docs/perf/aes.md`.

macro_rules! vaes_xts {
    ($k:ident) => {
        /// The bytes of one XTS loop step.
        const XTS_STEP: usize = BYTES * XTS_REGS;
        const _: () = assert!(XTS_REGS.is_power_of_two() && XTS_REGS <= 8);

        /// `N` registers of blocks whitened with their tweaks `tw`, through the cipher, and
        /// whitened again: `b ^ t` is XORed with round key 0 in one step, and the XOR with
        /// `t` after the cipher goes into the last round's key.
        #[kernel($k)]
        #[inline]
        fn xts_n<const NR: usize, const DECRYPT: bool, const N: usize>(
            k: &[V; 15],
            tw: &[V],
            b: &mut [V; N],
        ) {
            for (x, t) in b.iter_mut().zip(tw) {
                *x = xor(xor(*x, *t), k[0]);
            }
            for key in &k[1..NR] {
                for x in b.iter_mut() {
                    *x = if DECRYPT {
                        dec(*x, *key)
                    } else {
                        enc(*x, *key)
                    };
                }
                in_step(b);
            }
            for (x, t) in b.iter_mut().zip(tw) {
                let last = xor(k[NR], *t);
                *x = if DECRYPT {
                    declast(*x, last)
                } else {
                    enclast(*x, last)
                };
            }
        }

        /// The last `rest` bytes (fewer than `XTS_STEP`, whole blocks) in `N` registers
        /// loaded and stored under masks, register `u` under the tweaks `tw[u]`.
        #[kernel($k)]
        #[inline]
        fn xts_rest<const NR: usize, const DECRYPT: bool, const N: usize>(
            k: &[V; 15],
            tw: &[V],
            rest: &mut [u8],
        ) {
            let mut b: [V; N] = core::array::from_fn(|u| ld_upto(rest, u * BYTES));
            xts_n::<NR, DECRYPT, N>(k, tw, &mut b);
            for (u, v) in b.into_iter().enumerate() {
                st_upto(rest, u * BYTES, v);
            }
        }

        /// XTS over whole blocks: block `i` is whitened before and after the cipher with
        /// `t * x^i`, where `t` is `tweak`, or `tweak` encrypted under `tweak_keys` (the
        /// encryption round keys of the tweak key, of this key's size) when they are given.
        /// Returns the tweak after the last block.
        #[kernel($k)]
        fn xts<const NR: usize, const DECRYPT: bool, const BYTE_SHIFT: bool>(
            keys: &[[u8; 16]; 15],
            tweak_keys: Option<&[[u8; 16]; 15]>,
            tweak: u128,
            buf: &mut [u8],
        ) -> u128 {
            let k = round_keys(keys);
            let mut t = xmm_load(&tweak.to_le_bytes(), 0);
            if let Some(tk) = tweak_keys {
                t = _mm_xor_si128(t, xmm_load(&tk[0], 0));
                for key in &tk[1..NR] {
                    t = _mm_aesenc_si128(t, xmm_load(key, 0));
                }
                t = _mm_aesenclast_si128(t, xmm_load(&tk[NR], 0));
            }
            // The first register's lanes from `t` at once, the others from it in a tree of
            // steps of x^LANES, x^(2 LANES) and x^(4 LANES).
            let mut tws = [first_tweaks(t); XTS_REGS];
            if XTS_REGS > 1 {
                tws[1] = times_x_pow::<{ LANES as Shift }, { 64 - LANES as Shift }>(tws[0]);
            }
            if XTS_REGS > 2 {
                for i in 0..2 {
                    tws[2 + i] =
                        times_x_pow::<{ 2 * LANES as Shift }, { 64 - 2 * LANES as Shift }>(tws[i]);
                }
            }
            if XTS_REGS > 4 {
                for i in 0..4 {
                    tws[4 + i] =
                        times_x_pow::<{ 4 * LANES as Shift }, { 64 - 4 * LANES as Shift }>(tws[i]);
                }
            }
            let mut wide = buf.chunks_exact_mut(XTS_STEP);
            for chunk in &mut wide {
                let mut b: [V; XTS_REGS] = core::array::from_fn(|u| ld(chunk, u * BYTES));
                xts_n::<NR, DECRYPT, XTS_REGS>(&k, &tws, &mut b);
                for (u, v) in b.into_iter().enumerate() {
                    st(chunk, u * BYTES, v);
                }
                for t in tws.iter_mut() {
                    *t = xts_step::<BYTE_SHIFT>(*t);
                }
            }
            // The rest runs under the tweaks of the next step, in as few registers as cover
            // it: one, half of a step's or a whole step's.
            let rest = wide.into_remainder();
            let regs = rest.len().div_ceil(BYTES);
            if regs == 1 {
                xts_rest::<NR, DECRYPT, 1>(&k, &tws, rest);
            } else if regs > 1 && regs <= XTS_REGS / 2 {
                xts_rest::<NR, DECRYPT, { XTS_REGS / 2 }>(&k, &tws, rest);
            } else if regs > 1 {
                xts_rest::<NR, DECRYPT, XTS_REGS>(&k, &tws, rest);
            }
            // The next tweak is lane `blocks % LANES` of register `blocks / LANES` of the
            // next step (at most `XTS_REGS - 1`, the rest being shorter than a step).
            let blocks = rest.len() / 16;
            let mut lanes = [0u8; BYTES];
            st(&mut lanes, 0, tws[blocks / LANES]);
            let lane = blocks % LANES;
            let mut next = [0u8; 16];
            next.copy_from_slice(&lanes[16 * lane..16 * lane + 16]);
            crate::wipe::array(&mut lanes);
            u128::from_le_bytes(next)
        }

        /// XTS over whole blocks on this module's registers, from the tweak `tweak`, or
        /// `tweak` encrypted under `tweak_key` when given; returns the next tweak, or `None`,
        /// doing nothing, if the two keys differ in size.
        #[kernel($k)]
        pub(super) fn xts_blocks(
            rk: &RoundKeys,
            tweak_key: Option<&RoundKeys>,
            decrypt: bool,
            tweak: u128,
            buf: &mut [u8],
        ) -> Option<u128> {
            if tweak_key.is_some_and(|t| t.rounds != rk.rounds) {
                return None;
            }
            let tk = tweak_key.map(|t| &t.enc);
            Some(match (decrypt, xts_byte_shift()) {
                (true, false) => {
                    by_rounds!(rk.rounds, xts::<true, false>(&rk.dec, tk, tweak, buf))
                }
                (true, true) => by_rounds!(rk.rounds, xts::<true, true>(&rk.dec, tk, tweak, buf)),
                (false, false) => {
                    by_rounds!(rk.rounds, xts::<false, false>(&rk.enc, tk, tweak, buf))
                }
                (false, true) => {
                    by_rounds!(rk.rounds, xts::<false, true>(&rk.enc, tk, tweak, buf))
                }
            })
        }
    };
}
pub(super) use vaes_xts;
