//! The entry points of the bit-plane kernel, the same for every register width: one
//! `#[target_feature]` function per operation around the generic code of
//! [`super::planes`], and a safe wrapper that checks the CPU first (`checked!`).

/// Defines `ecb_encrypt`, `ecb_decrypt`, `ctr`, `cbc_decrypt`, `streams`,
/// `cbc_encrypt_streams` and `run_streams` for register type `$reg`, whose operations need the
/// features of the kernel `$kernel` (named `$on` in the docs) and whose token is `$token`.
/// Each wrapper declines, doing nothing, when the CPU does not run the kernel.
macro_rules! planes_entry_points {
    ($kernel:ident, $reg:ident, $token:ident, $on:literal) => {
        #[kernel($kernel)]
        fn ecb_encrypt_kernel<V: Variant>(keys: &PlaneKeys, buf: &mut [u8]) {
            planes::ecb_encrypt::<$reg, V>($token::new(), keys, buf);
        }

        #[kernel($kernel)]
        fn ecb_decrypt_kernel<V: Variant>(keys: &PlaneKeys, buf: &mut [u8]) {
            planes::ecb_decrypt::<$reg, V>($token::new(), keys, buf);
        }

        #[kernel($kernel)]
        fn ctr_kernel<V: Variant>(keys: &PlaneKeys, counter: &mut [u8], buf: &mut [u8]) {
            planes::ctr::<$reg, V>($token::new(), keys, counter, buf);
        }

        #[kernel($kernel)]
        fn cbc_decrypt_kernel<V: Variant>(keys: &PlaneKeys, iv: &mut [u8], buf: &mut [u8]) {
            planes::cbc_decrypt::<$reg, V>($token::new(), keys, iv, buf);
        }

        #[kernel($kernel)]
        fn cbc_encrypt_streams_kernel<V: Variant>(
            keys: &[&PlaneKeys],
            ivs: &mut [&mut [u8]],
            bufs: &mut [&mut [u8]],
        ) {
            let t = $token::new();
            let mut planes = [[[$reg::splat(t, 0); 4]; 2]; 25];
            planes::slot_planes::<$reg, V>(t, keys, &mut planes);
            planes::cbc_encrypt_streams::<$reg, V>(t, &planes, ivs, bufs);
            // The planes are round keys.
            crate::wipe::set(&mut planes, [[[$reg::splat(t, 0); 4]; 2]; 25]);
        }

        /// Blocks of one batch, hence the most CBC streams one call interleaves.
        pub(super) fn streams<V: Variant>() -> usize {
            8 * <$reg as Lanes>::BYTES / V::BLOCK
        }

        #[doc = concat!("ECB encryption; declined (nothing done) when the CPU lacks ", $on, ".")]
        pub(super) fn ecb_encrypt<V: Variant>(keys: &PlaneKeys, buf: &mut [u8]) -> crate::cpu::Ran {
            crate::cpu::checked!(kernels::$kernel => {
                // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
                unsafe { ecb_encrypt_kernel::<V>(keys, buf) }
            })
        }

        #[doc = concat!("ECB decryption; declined (nothing done) when the CPU lacks ", $on, ".")]
        pub(super) fn ecb_decrypt<V: Variant>(keys: &PlaneKeys, buf: &mut [u8]) -> crate::cpu::Ran {
            crate::cpu::checked!(kernels::$kernel => {
                // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
                unsafe { ecb_decrypt_kernel::<V>(keys, buf) }
            })
        }

        #[doc = concat!("CTR; declined (nothing done) when the CPU lacks ", $on, ".")]
        pub(super) fn ctr<V: Variant>(
            keys: &PlaneKeys,
            counter: &mut [u8],
            buf: &mut [u8],
        ) -> crate::cpu::Ran {
            crate::cpu::checked!(kernels::$kernel => {
                // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
                unsafe { ctr_kernel::<V>(keys, counter, buf) }
            })
        }

        #[doc = concat!("CBC decryption; declined (nothing done) when the CPU lacks ", $on, ".")]
        pub(super) fn cbc_decrypt<V: Variant>(
            keys: &PlaneKeys,
            iv: &mut [u8],
            buf: &mut [u8],
        ) -> crate::cpu::Ran {
            crate::cpu::checked!(kernels::$kernel => {
                // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
                unsafe { cbc_decrypt_kernel::<V>(keys, iv, buf) }
            })
        }

        /// CBC encryption of at most `streams()` streams side by side; declined (nothing done) when
        /// the CPU lacks the features or there are too many streams.
        pub(super) fn cbc_encrypt_streams<V: Variant>(
            keys: &[&PlaneKeys],
            ivs: &mut [&mut [u8]],
            bufs: &mut [&mut [u8]],
        ) -> crate::cpu::Ran {
            let fits = !keys.is_empty() && keys.len() <= streams::<V>();
            if !fits {
                return crate::cpu::Ran::Declined;
            }
            crate::cpu::checked!(kernels::$kernel => {
                // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
                unsafe { cbc_encrypt_streams_kernel::<V>(keys, ivs, bufs) }
            })
        }

        #[kernel($kernel)]
        fn streams_kernel<V: Variant>(
            keys: &[&PlaneKeys],
            mode: StreamsMode,
            ivs: &mut [&mut [u8]],
            bufs: &mut [&mut [u8]],
        ) {
            let t = $token::new();
            let mut planes = [[[$reg::splat(t, 0); 4]; 2]; 25];
            planes::slot_planes::<$reg, V>(t, keys, &mut planes);
            planes::streams::<$reg, V>(t, &planes, mode, ivs, bufs);
            // The planes are round keys.
            crate::wipe::set(&mut planes, [[[$reg::splat(t, 0); 4]; 2]; 25]);
        }

        /// ECB in either direction or CBC decryption of at most `streams()` streams side by side,
        /// one key each (`ivs` only for CBC); declined (nothing done) when the CPU lacks the
        /// features or there are too many streams.
        pub(super) fn run_streams<V: Variant>(
            keys: &[&PlaneKeys],
            mode: StreamsMode,
            ivs: &mut [&mut [u8]],
            bufs: &mut [&mut [u8]],
        ) -> crate::cpu::Ran {
            let fits = !keys.is_empty() && keys.len() <= streams::<V>() && bufs.len() == keys.len();
            let ivs_fit = mode != StreamsMode::CbcDecrypt || ivs.len() == keys.len();
            if !fits || !ivs_fit {
                return crate::cpu::Ran::Declined;
            }
            crate::cpu::checked!(kernels::$kernel => {
                // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
                unsafe { streams_kernel::<V>(keys, mode, ivs, bufs) }
            })
        }
    };
}
pub(super) use planes_entry_points;
