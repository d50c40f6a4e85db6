//! uBlock on NEON, bitsliced: the bit-planes-inside-the-nibble kernel of
//! [`super::super::planes`] on 128-bit registers.
//!
//! A batch is 128 bytes: eight 128-bit blocks or four 256-bit ones, eight registers (half,
//! plane). `<<<32 4` and `<<<32 20` are `SHL` and `SRI` (shift right and insert), `<<<32 8`
//! and PL/PR are one `TBL` each, the byte order of each word is one `REV32`. The S-box is
//! the two-input formula of [`generic::Lanes`], whose AND-NOT is `BIC`.
//!
//! Loading a batch: for 128-bit blocks, registers `0..4` and `4..8` (one block each) are
//! transposed into planes per nibble (four blocks per plane register) and the 64-bit halves
//! of the two groups are zipped, so that each plane register holds X0 (or X1) of four
//! blocks of one group next to four of the other. For 256-bit blocks, X0 of the four
//! blocks and X1 of the four blocks are transposed each on their own.

use core::arch::aarch64::*;

use super::super::planes::{self as generic, Lanes, PlaneKeys, State};
use super::super::{StreamsMode, Variant};
use crate::cpu::{Ran, checked, kernel, kernels};

/// The proof that the CPU runs NEON: made only by [`Neon::new`], which is compiled for the
/// kernel's features.
#[derive(Copy, Clone)]
pub(super) struct Neon(());

impl Neon {
    #[kernel(UBLOCK_NEON)]
    #[inline]
    pub(super) fn new() -> Self {
        Neon(())
    }
}

/// A 128-bit register of four 32-bit lanes.
#[derive(Copy, Clone)]
pub(super) struct Q(uint32x4_t);

/// `TBL` indices that rotate every 32-bit lane left by 8 bits.
const ROTL8: [u8; 16] = [3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14];

#[inline(always)]
fn load16(b: &[u8]) -> uint32x4_t {
    let b: &[u8; 16] = b[..16].try_into().unwrap_or(&[0; 16]);
    // SAFETY: reads 16 bytes from a 16-byte array; NEON per the kernel that inlines this.
    unsafe { vreinterpretq_u32_u8(vld1q_u8(b.as_ptr())) }
}

#[inline(always)]
fn store16(v: uint32x4_t, out: &mut [u8]) {
    let out: &mut [u8; 16] = (&mut out[..16])
        .try_into()
        .unwrap_or_else(|_| unreachable!());
    // SAFETY: writes 16 bytes into a 16-byte array.
    unsafe { vst1q_u8(out.as_mut_ptr(), vreinterpretq_u8_u32(v)) }
}

/// The byte order of every 32-bit lane reversed (big-endian words to native and back).
#[inline(always)]
fn bswap(v: uint32x4_t) -> uint32x4_t {
    // SAFETY: NEON is enabled wherever this module is built (the gate on `mod aarch64`).
    unsafe { vreinterpretq_u32_u8(vrev32q_u8(vreinterpretq_u8_u32(v))) }
}

/// The low 64-bit halves of `a` and `b` side by side, and the high ones.
#[inline(always)]
fn zip64(a: Q, b: Q) -> (Q, Q) {
    // SAFETY: NEON is enabled wherever this module is built (the gate on `mod aarch64`).
    unsafe {
        let (x, y) = (vreinterpretq_u64_u32(a.0), vreinterpretq_u64_u32(b.0));
        (
            Q(vreinterpretq_u32_u64(vzip1q_u64(x, y))),
            Q(vreinterpretq_u32_u64(vzip2q_u64(x, y))),
        )
    }
}

impl Lanes for Q {
    const BYTES: usize = 16;
    type Token = Neon;

    #[inline(always)]
    fn token(self) -> Neon {
        Neon(())
    }

    #[inline(always)]
    fn splat(_: Neon, v: u32) -> Self {
        // SAFETY: NEON is enabled wherever this module is built (the gate on `mod aarch64`).
        Q(unsafe { vdupq_n_u32(v) })
    }

    #[inline(always)]
    fn broadcast_lane(_: Neon, pattern: &[u8; 16]) -> Self {
        Q(load16(pattern))
    }

    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        // SAFETY: NEON is enabled wherever this module is built (the gate on `mod aarch64`).
        Q(unsafe { veorq_u32(self.0, o.0) })
    }

    #[inline(always)]
    fn and(self, o: Self) -> Self {
        // SAFETY: NEON is enabled wherever this module is built (the gate on `mod aarch64`).
        Q(unsafe { vandq_u32(self.0, o.0) })
    }

    #[inline(always)]
    fn or(self, o: Self) -> Self {
        // SAFETY: NEON is enabled wherever this module is built (the gate on `mod aarch64`).
        Q(unsafe { vorrq_u32(self.0, o.0) })
    }

    #[inline(always)]
    fn andnot(self, o: Self) -> Self {
        // SAFETY: NEON is enabled wherever this module is built (the gate on `mod aarch64`).
        Q(unsafe { vbicq_u32(o.0, self.0) })
    }

    #[inline(always)]
    fn not(self) -> Self {
        // SAFETY: NEON is enabled wherever this module is built (the gate on `mod aarch64`).
        Q(unsafe { vmvnq_u32(self.0) })
    }

    #[inline(always)]
    fn rotl4(self) -> Self {
        // SAFETY: NEON is enabled wherever this module is built (the gate on `mod aarch64`).
        Q(unsafe { vsriq_n_u32::<28>(vshlq_n_u32::<4>(self.0), self.0) })
    }

    #[inline(always)]
    fn rotl8(self) -> Self {
        self.shuffle_bytes(Q(load16(&ROTL8)))
    }

    #[inline(always)]
    fn rotl20(self) -> Self {
        // SAFETY: NEON is enabled wherever this module is built (the gate on `mod aarch64`).
        Q(unsafe { vsriq_n_u32::<12>(vshlq_n_u32::<20>(self.0), self.0) })
    }

    #[inline(always)]
    fn shl32<const N: u32>(self) -> Self {
        // SAFETY: NEON is enabled wherever this module is built (the gate on `mod aarch64`).
        Q(unsafe { vshlq_u32(self.0, vdupq_n_s32(N as i32)) })
    }

    #[inline(always)]
    fn shr32<const N: u32>(self) -> Self {
        // SAFETY: NEON is enabled wherever this module is built (the gate on `mod aarch64`).
        Q(unsafe { vshlq_u32(self.0, vdupq_n_s32(-(N as i32))) })
    }

    #[inline(always)]
    fn shuffle_bytes(self, idx: Self) -> Self {
        // SAFETY: NEON is enabled wherever this module is built (the gate on `mod aarch64`).
        Q(unsafe {
            vreinterpretq_u32_u8(vqtbl1q_u8(
                vreinterpretq_u8_u32(self.0),
                vreinterpretq_u8_u32(idx.0),
            ))
        })
    }

    #[inline(always)]
    fn load_batch<V: Variant>(_: Neon, src: &[u8]) -> State<Self> {
        let src = &src[..128];
        let mut z = [Q::splat(Neon(()), 0).0; 8];
        for (r, chunk) in z.iter_mut().zip(src.chunks_exact(16)) {
            *r = bswap(load16(chunk));
        }
        if V::BLOCK == 16 {
            let mut a = [Q(z[0]), Q(z[1]), Q(z[2]), Q(z[3])];
            let mut b = [Q(z[4]), Q(z[5]), Q(z[6]), Q(z[7])];
            generic::transpose4(&mut a);
            generic::transpose4(&mut b);
            let mut s = [a; 2];
            for j in 0..4 {
                (s[0][j], s[1][j]) = zip64(a[j], b[j]);
            }
            s
        } else {
            let mut a = [Q(z[0]), Q(z[2]), Q(z[4]), Q(z[6])];
            let mut b = [Q(z[1]), Q(z[3]), Q(z[5]), Q(z[7])];
            generic::transpose4(&mut a);
            generic::transpose4(&mut b);
            [a, b]
        }
    }

    #[inline(always)]
    fn store_batch<V: Variant>(s: &State<Self>, dst: &mut [u8]) {
        let dst = &mut dst[..128];
        let z = if V::BLOCK == 16 {
            let mut a = s[0];
            let mut b = s[1];
            for j in 0..4 {
                (a[j], b[j]) = zip64(s[0][j], s[1][j]);
            }
            generic::transpose4(&mut a);
            generic::transpose4(&mut b);
            [a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]]
        } else {
            let mut a = s[0];
            let mut b = s[1];
            generic::transpose4(&mut a);
            generic::transpose4(&mut b);
            [a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3]]
        };
        for (r, chunk) in z.iter().zip(dst.chunks_exact_mut(16)) {
            store16(bswap(r.0), chunk);
        }
    }
}

#[kernel(UBLOCK_NEON)]
fn ecb_encrypt_kernel<V: Variant>(keys: &PlaneKeys, buf: &mut [u8]) {
    generic::ecb_encrypt::<Q, V>(Neon::new(), keys, buf);
}

#[kernel(UBLOCK_NEON)]
fn ecb_decrypt_kernel<V: Variant>(keys: &PlaneKeys, buf: &mut [u8]) {
    generic::ecb_decrypt::<Q, V>(Neon::new(), keys, buf);
}

#[kernel(UBLOCK_NEON)]
fn ctr_kernel<V: Variant>(keys: &PlaneKeys, counter: &mut [u8], buf: &mut [u8]) {
    generic::ctr::<Q, V>(Neon::new(), keys, counter, buf);
}

#[kernel(UBLOCK_NEON)]
fn cbc_decrypt_kernel<V: Variant>(keys: &PlaneKeys, iv: &mut [u8], buf: &mut [u8]) {
    generic::cbc_decrypt::<Q, V>(Neon::new(), keys, iv, buf);
}

#[kernel(UBLOCK_NEON)]
fn cbc_encrypt_streams_kernel<V: Variant>(
    keys: &[&PlaneKeys],
    ivs: &mut [&mut [u8]],
    bufs: &mut [&mut [u8]],
) {
    let t = Neon::new();
    let mut planes = [[[Q::splat(t, 0); 4]; 2]; 25];
    generic::slot_planes::<Q, V>(t, keys, &mut planes);
    generic::cbc_encrypt_streams::<Q, V>(t, &planes, ivs, bufs);
    // The planes are round keys.
    crate::wipe::set(&mut planes, [[[Q::splat(t, 0); 4]; 2]; 25]);
}

#[kernel(UBLOCK_NEON)]
fn streams_kernel<V: Variant>(
    keys: &[&PlaneKeys],
    mode: StreamsMode,
    ivs: &mut [&mut [u8]],
    bufs: &mut [&mut [u8]],
) {
    let t = Neon::new();
    let mut planes = [[[Q::splat(t, 0); 4]; 2]; 25];
    generic::slot_planes::<Q, V>(t, keys, &mut planes);
    generic::streams::<Q, V>(t, &planes, mode, ivs, bufs);
    // The planes are round keys.
    crate::wipe::set(&mut planes, [[[Q::splat(t, 0); 4]; 2]; 25]);
}

/// Blocks of one batch, hence the most streams one call interleaves.
pub(super) const fn streams<V: Variant>() -> usize {
    8 * Q::BYTES / V::BLOCK
}

/// ECB over whole blocks, either direction; declined (nothing done) without NEON.
pub(super) fn ecb<V: Variant>(keys: &PlaneKeys, buf: &mut [u8], decrypt: bool) -> Ran {
    checked!(kernels::UBLOCK_NEON => {
        // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
        unsafe {
            if decrypt {
                ecb_decrypt_kernel::<V>(keys, buf);
            } else {
                ecb_encrypt_kernel::<V>(keys, buf);
            }
        }
    })
}

/// CTR over any length; declined (nothing done) without NEON.
pub(super) fn ctr<V: Variant>(keys: &PlaneKeys, counter: &mut [u8], buf: &mut [u8]) -> Ran {
    checked!(kernels::UBLOCK_NEON => {
        // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
        unsafe { ctr_kernel::<V>(keys, counter, buf) }
    })
}

/// CBC decryption; declined (nothing done) without NEON.
pub(super) fn cbc_decrypt<V: Variant>(keys: &PlaneKeys, iv: &mut [u8], buf: &mut [u8]) -> Ran {
    checked!(kernels::UBLOCK_NEON => {
        // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
        unsafe { cbc_decrypt_kernel::<V>(keys, iv, buf) }
    })
}

/// CBC encryption of at most `streams()` streams side by side; declined (nothing done)
/// without NEON or with too many streams.
pub(super) fn cbc_encrypt_streams<V: Variant>(
    keys: &[&PlaneKeys],
    ivs: &mut [&mut [u8]],
    bufs: &mut [&mut [u8]],
) -> Ran {
    let fits = !keys.is_empty() && keys.len() <= streams::<V>();
    if !fits {
        return Ran::Declined;
    }
    checked!(kernels::UBLOCK_NEON => {
        // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
        unsafe { cbc_encrypt_streams_kernel::<V>(keys, ivs, bufs) }
    })
}

/// ECB in either direction or CBC decryption of at most `streams()` streams side by side,
/// one key each (`ivs` only for CBC); declined (nothing done) without NEON or when the
/// streams do not fit.
pub(super) fn run_streams<V: Variant>(
    keys: &[&PlaneKeys],
    mode: StreamsMode,
    ivs: &mut [&mut [u8]],
    bufs: &mut [&mut [u8]],
) -> Ran {
    let fits = !keys.is_empty() && keys.len() <= streams::<V>() && bufs.len() == keys.len();
    let ivs_fit = mode != StreamsMode::CbcDecrypt || ivs.len() == keys.len();
    if !fits || !ivs_fit {
        return Ran::Declined;
    }
    checked!(kernels::UBLOCK_NEON => {
        // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
        unsafe { streams_kernel::<V>(keys, mode, ivs, bufs) }
    })
}
