//! The entry points of the fully bitsliced kernel, the same for every register width: one
//! `#[target_feature]` function per operation around the generic code of
//! [`super::sliced`], and a safe wrapper that checks the CPU first (`checked!`).

/// Defines `batch`, `ecb`, `ctr` and `cbc_decrypt` for register type `$reg`, whose
/// operations need the features of the kernel `$kernel`; `$token` makes the register type's
/// token, inside the kernel's functions. Each wrapper gives `None`, doing nothing, when the
/// CPU does not run the kernel.
macro_rules! sliced_entry_points {
    ($kernel:ident, $reg:ty, $token:expr) => {
        #[kernel($kernel)]
        fn ecb_full<V: Variant, const DECRYPT: bool>(keys: &SliceKeys, buf: &mut [u8]) -> usize {
            sliced::ecb::<$reg, V, DECRYPT>($token, keys, buf)
        }

        #[kernel($kernel)]
        fn cbc_decrypt_full<V: Variant>(keys: &SliceKeys, iv: &mut [u8], buf: &mut [u8]) -> usize {
            sliced::cbc_decrypt::<$reg, V>($token, keys, iv, buf)
        }

        #[kernel($kernel)]
        fn ctr_full<V: Variant>(keys: &SliceKeys, counter: &mut [u8], buf: &mut [u8]) -> usize {
            sliced::ctr::<$reg, V>($token, keys, counter, buf)
        }

        #[cfg(feature = "kernel-parts")]
        #[kernel($kernel)]
        fn ecb_part_full<V: Variant, const PART: u8>(keys: &SliceKeys, buf: &mut [u8]) -> usize {
            sliced::ecb_part::<$reg, V, PART>($token, keys, buf)
        }

        /// One part of ECB alone (see `sliced::ecb_part`). Returns the bytes done; the
        /// output is not ciphertext.
        #[cfg(feature = "kernel-parts")]
        pub(super) fn ecb_part<V: Variant>(
            keys: &SliceKeys,
            buf: &mut [u8],
            part: crate::ublock::KernelPart,
        ) -> Option<usize> {
            crate::cpu::checked!(kernels::$kernel => Some {
                // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
                unsafe {
                    match part {
                        crate::ublock::KernelPart::Transposition => ecb_part_full::<V, 0>(keys, buf),
                        crate::ublock::KernelPart::Rounds => ecb_part_full::<V, 1>(keys, buf),
                        crate::ublock::KernelPart::DecryptionRounds => ecb_part_full::<V, 2>(keys, buf),
                    }
                }
            })
        }

        /// Bytes of one batch: calls shorter than this take the other kernels.
        pub(super) const fn batch<V: Variant>() -> usize {
            sliced::batch_bytes::<$reg, V>()
        }

        /// ECB over the whole batches at the front of `buf`; returns the bytes done.
        pub(super) fn ecb<V: Variant>(
            keys: &SliceKeys,
            buf: &mut [u8],
            decrypt: bool,
        ) -> Option<usize> {
            crate::cpu::checked!(kernels::$kernel => Some {
                // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
                unsafe {
                    if decrypt {
                        ecb_full::<V, true>(keys, buf)
                    } else {
                        ecb_full::<V, false>(keys, buf)
                    }
                }
            })
        }

        /// CTR over the whole batches at the front of `buf`; returns the bytes done and
        /// advances `counter` past them.
        pub(super) fn ctr<V: Variant>(
            keys: &SliceKeys,
            counter: &mut [u8],
            buf: &mut [u8],
        ) -> Option<usize> {
            crate::cpu::checked!(kernels::$kernel => Some {
                // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
                unsafe { ctr_full::<V>(keys, counter, buf) }
            })
        }

        /// CBC decryption over the whole batches at the front of `buf`; returns the bytes
        /// done and leaves the last ciphertext block in `iv`.
        pub(super) fn cbc_decrypt<V: Variant>(
            keys: &SliceKeys,
            iv: &mut [u8],
            buf: &mut [u8],
        ) -> Option<usize> {
            crate::cpu::checked!(kernels::$kernel => Some {
                // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
                unsafe { cbc_decrypt_full::<V>(keys, iv, buf) }
            })
        }
    };
}

pub(super) use sliced_entry_points;
