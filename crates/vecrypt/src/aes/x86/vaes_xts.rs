//! XTS on VAES registers, written once over the primitives of a register width and
//! expanded by each width's module as `vaes_xts!(KERNEL)` after `vaes_blocks!`, whose ECB
//! round helpers it uses. Each lane carries its block's tweak; the next register of tweaks
//! is every lane times x^LANES, so no tweak waits for the one before it.

macro_rules! vaes_xts {
    ($k:ident) => {
        /// XTS over whole blocks: block `i` is whitened before and after the cipher with
        /// `tweak * x^i`. Lane `j` of a register of tweaks holds the tweak of its block; the
        /// next register is every lane times x^LANES. Returns the tweak after the last block.
        #[kernel($k)]
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
                t = next_tweak(t);
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
            crate::wipe::array(&mut lanes);
            u128::from_le_bytes(next)
        }

        /// XTS over whole blocks on this module's registers; returns the next tweak, or
        /// `None`, doing nothing, if the CPU cannot run the kernel.
        pub(super) fn xts_blocks(
            rk: &RoundKeys,
            decrypt: bool,
            tweak: u128,
            buf: &mut [u8],
        ) -> Option<u128> {
            if !runs() {
                return None;
            }
            // SAFETY: runs() confirmed the features this kernel is compiled for.
            unsafe {
                Some(if decrypt {
                    by_rounds!(rk.rounds, xts::<true>(&rk.dec, tweak, buf))
                } else {
                    by_rounds!(rk.rounds, xts::<false>(&rk.enc, tweak, buf))
                })
            }
        }
    };
}
pub(super) use vaes_xts;
