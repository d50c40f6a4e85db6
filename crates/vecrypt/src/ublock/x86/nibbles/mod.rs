//! SSSE3 uBlock in the design document's one-nibble-per-byte ("PX", pshufb-xor) layout, and
//! the key schedule in the same layout.
//!
//! A 64-bit half of the state is one register of 16 nibbles, one per byte (a 128-bit half
//! is two registers). The S-box is one `pshufb` into the S-box table, `<<<32 4k` is one
//! `pshufb` that rotates each 8-nibble word by `k` places, and PL/PR are nibble gathers.
//!
//! This is the backend the speed table calls the baseline. It also serves the wide backends
//! where latency matters more than throughput: single blocks, and CBC encryption of one
//! stream, which is a chain. Its length per round (128-bit block, one-cycle `pshufb`/`pxor`):
//! S-box 1, `X1 ^= X0` 1, four rotate-and-XOR steps 2 each, `X0 ^= X1` 1, PL 1: **12 cycles
//! per round**, so 16 x 12 + 1 = **193 cycles per block** for uBlock-128/128 and
//! 24 x 12 + 1 = 289 for uBlock-128/256. uBlock-256/256 gathers across two
//! registers (`pshufb`, `pshufb`, `por`), 13 cycles per round, 313 cycles per 32-byte block;
//! but its round also issues 20 `pshufb`, so a CPU with one shuffle port is bound at 20
//! cycles per round (481 per block) before the chain is. Round keys are folded as in
//! [`super::planes`], so no key XOR sits on the chain.
//!
//! On the AVX-512 backend, one uBlock-256/256 stream goes to `wide_nibbles.rs` instead,
//! whose round issues 12 shuffles (chain 337 cycles per block). The measured cycles per
//! block of this kernel are in `docs/perf/ublock.md`.
//!
//! A fresh key's first one-block encryption runs the schedule in registers next to the
//! rounds (`encrypt_one_with_key`): the schedule's chain is four cycles per update against
//! the round's twelve, so the two overlap.

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::consts::{SBOX, SBOX_INV};
use super::{RoundKeys, Variant};
use crate::cpu::{Ran, checked, kernel, kernels};

mod schedule;

use schedule::{encrypt_one_with_key_px, expand_key_px};

/// A half of the state: one register for 128-bit blocks, two for 256-bit ones.
pub(super) type Half = [__m128i; 2];

/// Registers per half.
pub(super) const fn regs<V: Variant>() -> usize {
    V::BLOCK / 16
}

/// The proof that the CPU runs SSSE3: made only by [`Ssse3::new`], which is compiled for the
/// kernel's features, so the compiler allows it only in such code (the SSSE3 and AVX2 entry
/// points) or in an `unsafe` block after the CPU check. The SSSE3 instructions are its
/// methods; the helpers below without one use SSE2, part of every x86-64 CPU.
#[derive(Clone, Copy)]
pub(super) struct Ssse3(());

impl Ssse3 {
    /// The token, inside code compiled for SSSE3.
    #[kernel(UBLOCK_NIBBLES_SSSE3)]
    #[inline]
    pub(super) fn new() -> Self {
        Ssse3(())
    }

    /// `pshufb`: byte `i` of the result is `table[idx[i]]` (0 where bit 7 of `idx[i]` is set).
    #[inline(always)]
    pub(super) fn shuffle(self, table: __m128i, idx: __m128i) -> __m128i {
        // SAFETY: `self` proves SSSE3.
        unsafe { _mm_shuffle_epi8(table, idx) }
    }

    /// The inverse of [`expand`].
    #[inline(always)]
    fn compact(self, a: __m128i, b: __m128i) -> __m128i {
        // SAFETY: `self` proves SSSE3; the rest is SSE2.
        unsafe {
            let w = _mm_set1_epi16(0x0110);
            _mm_packus_epi16(_mm_maddubs_epi16(a, w), _mm_maddubs_epi16(b, w))
        }
    }
}

#[inline(always)]
fn load16(b: &[u8; 16]) -> __m128i {
    // SAFETY: reads 16 bytes from a 16-byte array; SSE2 is baseline on x86-64.
    unsafe { _mm_loadu_si128(b.as_ptr().cast()) }
}

#[inline(always)]
fn load(b: &[u8]) -> __m128i {
    let b: &[u8; 16] = b[..16].try_into().unwrap_or(&[0; 16]);
    load16(b)
}

#[inline(always)]
fn store(v: __m128i, out: &mut [u8]) {
    let mut b = [0u8; 16];
    // SAFETY: writes 16 bytes into a 16-byte array.
    unsafe { _mm_storeu_si128(b.as_mut_ptr().cast(), v) };
    out[..16].copy_from_slice(&b);
}

#[inline(always)]
fn xor(a: __m128i, b: __m128i) -> __m128i {
    // SAFETY: SSE2 is part of every x86-64 CPU.
    unsafe { _mm_xor_si128(a, b) }
}

#[inline(always)]
fn or(a: __m128i, b: __m128i) -> __m128i {
    // SAFETY: SSE2 is part of every x86-64 CPU.
    unsafe { _mm_or_si128(a, b) }
}

#[inline(always)]
fn zero() -> __m128i {
    // SAFETY: SSE2 is part of every x86-64 CPU.
    unsafe { _mm_setzero_si128() }
}

/// 16 bytes to 32 nibbles, one per byte: (nibbles of bytes 0..8, nibbles of bytes 8..16).
#[inline(always)]
fn expand(v: __m128i) -> (__m128i, __m128i) {
    // SAFETY: SSE2 is part of every x86-64 CPU.
    unsafe {
        let m = _mm_set1_epi8(0x0f);
        let hi = _mm_and_si128(_mm_srli_epi16::<4>(v), m);
        let lo = _mm_and_si128(v, m);
        (_mm_unpacklo_epi8(hi, lo), _mm_unpackhi_epi8(hi, lo))
    }
}

/// Nibble gathers `out[q] = in[src]` over halves of `2 * p.len()` nibbles, split into
/// per-register `pshufb` tables `[out register][in register]` (0x80 clears a byte).
pub(super) const fn gather_tables(p: &[usize]) -> [[[u8; 16]; 2]; 2] {
    let mut t = [[[0x80u8; 16]; 2]; 2];
    let mut q = 0;
    while q < 2 * p.len() {
        let src = 2 * p[q / 2] + q % 2;
        t[q / 16][src / 16][q % 16] = (src % 16) as u8;
        q += 1;
    }
    t
}

/// `pshufb` indices that rotate every 8-nibble word left by `r` nibbles.
pub(super) const fn rotation(r: usize) -> [u8; 16] {
    let mut t = [0u8; 16];
    let mut q = 0;
    while q < 16 {
        t[q] = (q / 8 * 8 + (q % 8 + r) % 8) as u8;
        q += 1;
    }
    t
}

const fn table16(t: [u8; 16]) -> [u8; 16] {
    t
}

/// The constant registers of the round function.
struct Tables {
    s3: Ssse3,
    sbox: __m128i,
    sbox_inv: __m128i,
    rot4: __m128i,
    rot8: __m128i,
    rot20: __m128i,
}

impl Tables {
    /// The rotations go through `black_box`: seeing the constant, the compiler would turn
    /// the one-cycle `pshufb` for `<<< 8` into `pshuflw` + `pshufhw`, two cycles on the chain.
    #[inline(always)]
    fn new(s3: Ssse3) -> Self {
        Tables {
            s3,
            sbox: load16(&const { table16(SBOX) }),
            sbox_inv: load16(&const { table16(SBOX_INV) }),
            rot4: load16(core::hint::black_box(&const { rotation(1) })),
            rot8: load16(core::hint::black_box(&const { rotation(2) })),
            rot20: load16(core::hint::black_box(&const { rotation(5) })),
        }
    }
}

#[inline(always)]
fn gather<V: Variant>(s3: Ssse3, x: &Half, t: &[[[u8; 16]; 2]; 2]) -> Half {
    if regs::<V>() == 1 {
        [s3.shuffle(x[0], load16(&t[0][0])), zero()]
    } else {
        [
            or(
                s3.shuffle(x[0], load16(&t[0][0])),
                s3.shuffle(x[1], load16(&t[0][1])),
            ),
            or(
                s3.shuffle(x[0], load16(&t[1][0])),
                s3.shuffle(x[1], load16(&t[1][1])),
            ),
        ]
    }
}

/// Applies `f` to the registers of a half that hold state (the second one only for
/// 256-bit blocks); shared with the paired-block kernel, whose halves are wider registers.
#[inline(always)]
pub(super) fn map<V: Variant, R: Copy>(x: &[R; 2], f: impl Fn(R) -> R) -> [R; 2] {
    if regs::<V>() == 1 {
        [f(x[0]), x[1]]
    } else {
        [f(x[0]), f(x[1])]
    }
}

/// Combines two halves register by register, as [`map`] does for one.
#[inline(always)]
pub(super) fn zip<V: Variant, R: Copy>(x: &[R; 2], y: &[R; 2], f: impl Fn(R, R) -> R) -> [R; 2] {
    if regs::<V>() == 1 {
        [f(x[0], y[0]), x[1]]
    } else {
        [f(x[0], y[0]), f(x[1], y[1])]
    }
}

/// One block's bytes as two halves of nibbles.
#[inline(always)]
fn load_block<V: Variant>(b: &[u8]) -> (Half, Half) {
    if regs::<V>() == 1 {
        let (l, r) = expand(load(b));
        ([l, zero()], [r, zero()])
    } else {
        let (l0, l1) = expand(load(&b[..16]));
        let (r0, r1) = expand(load(&b[16..32]));
        ([l0, l1], [r0, r1])
    }
}

#[inline(always)]
fn store_block<V: Variant>(s3: Ssse3, x0: &Half, x1: &Half, out: &mut [u8]) {
    if regs::<V>() == 1 {
        store(s3.compact(x0[0], x1[0]), out);
    } else {
        store(s3.compact(x0[0], x0[1]), &mut out[..16]);
        store(s3.compact(x1[0], x1[1]), &mut out[16..32]);
    }
}

/// Folded round key `i` in nibble form: round 0 is `RK_0`, round `i >= 1` is `(A_i, B_i)`
/// as in [`super::planes`].
#[inline(always)]
pub(super) fn nibble_key<V: Variant>(s3: Ssse3, rk: &RoundKeys, i: usize) -> (Half, Half) {
    let (l, r) = load_block::<V>(&rk.0[i]);
    if i == 0 {
        return (l, r);
    }
    fold::<V>(s3, &l, &r)
}

/// A round key's halves as nibbles to the folded `(A_i, B_i)`.
#[inline(always)]
fn fold<V: Variant>(s3: Ssse3, l: &Half, r: &Half) -> (Half, Half) {
    let b = gather::<V>(s3, r, &const { gather_tables(V::PR_INV) });
    let a = zip::<V, _>(
        &gather::<V>(s3, l, &const { gather_tables(V::PL_INV) }),
        &b,
        xor,
    );
    (a, b)
}

/// Where the rounds find their keys.
trait KeyRounds {
    fn round(&self, i: usize) -> (Half, Half);
}

/// Keys made when needed: cheapest for one or two blocks.
struct KeysOnTheFly<'a, V: Variant>(Ssse3, &'a RoundKeys, core::marker::PhantomData<V>);

impl<V: Variant> KeyRounds for KeysOnTheFly<'_, V> {
    #[inline(always)]
    fn round(&self, i: usize) -> (Half, Half) {
        nibble_key::<V>(self.0, self.1, i)
    }
}

/// Keys made once per call, for many blocks.
struct NibbleKeys([(Half, Half); 25]);

impl NibbleKeys {
    #[inline(always)]
    fn new<V: Variant>(s3: Ssse3, rk: &RoundKeys) -> Self {
        // A plain loop, not `array::from_fn`, so that the shuffles stay inline (see
        // `paired::PairedKeys::new`).
        let mut keys = [([zero(); 2], [zero(); 2]); 25];
        for (i, k) in keys.iter_mut().enumerate().take(V::ROUNDS + 1) {
            *k = nibble_key::<V>(s3, rk, i);
        }
        NibbleKeys(keys)
    }
}

impl KeyRounds for NibbleKeys {
    #[inline(always)]
    fn round(&self, i: usize) -> (Half, Half) {
        self.0[i]
    }
}

impl Drop for NibbleKeys {
    fn drop(&mut self) {
        for round in self.0.iter_mut() {
            crate::wipe::set(round, ([zero(); 2], [zero(); 2]));
        }
    }
}

/// Encrypts one block held as nibbles, `x` already XORed with `RK_0`.
#[inline(always)]
fn encrypt_rounds<V: Variant>(t: &Tables, k: &impl KeyRounds, x: (Half, Half)) -> (Half, Half) {
    let (mut x0, mut x1) = x;
    for i in 1..=V::ROUNDS {
        (x0, x1) = encrypt_round::<V>(t, &k.round(i), &x0, &x1);
    }
    (x0, x1)
}

/// One round with the folded key `(ka, kb)`.
#[inline(always)]
fn encrypt_round<V: Variant>(t: &Tables, k: &(Half, Half), x0: &Half, x1: &Half) -> (Half, Half) {
    let s3 = t.s3;
    let pl = const { gather_tables(V::PL) };
    let pr = const { gather_tables(V::PR) };
    let (ka, kb) = k;
    {
        let a = map::<V, _>(x0, |v| s3.shuffle(t.sbox, v));
        let b = map::<V, _>(x1, |v| s3.shuffle(t.sbox, v));
        let b = zip::<V, _>(&b, &a, xor);
        let a = zip::<V, _>(&a, &map::<V, _>(&b, |v| s3.shuffle(v, t.rot4)), xor);
        let b = zip::<V, _>(&b, &map::<V, _>(&a, |v| s3.shuffle(v, t.rot8)), xor);
        let a = zip::<V, _>(&a, &map::<V, _>(&b, |v| s3.shuffle(v, t.rot8)), xor);
        let b = zip::<V, _>(
            &zip::<V, _>(&b, kb, xor),
            &map::<V, _>(&a, |v| s3.shuffle(v, t.rot20)),
            xor,
        );
        let a = zip::<V, _>(&zip::<V, _>(&a, ka, xor), &b, xor);
        (gather::<V>(s3, &a, &pl), gather::<V>(s3, &b, &pr))
    }
}

/// Decrypts one block held as nibbles, up to (not including) the final XOR with `RK_0`.
#[inline(always)]
fn decrypt_rounds<V: Variant>(t: &Tables, k: &impl KeyRounds, x: (Half, Half)) -> (Half, Half) {
    let s3 = t.s3;
    let pl_inv = const { gather_tables(V::PL_INV) };
    let pr_inv = const { gather_tables(V::PR_INV) };
    let (mut x0, mut x1) = x;
    for i in (1..=V::ROUNDS).rev() {
        let (ka, kb) = &k.round(i);
        let p0 = gather::<V>(s3, &x0, &pl_inv);
        let p1 = gather::<V>(s3, &x1, &pr_inv);
        let a = zip::<V, _>(&zip::<V, _>(&p0, ka, xor), &p1, xor);
        let b = zip::<V, _>(
            &zip::<V, _>(&p1, kb, xor),
            &map::<V, _>(&a, |v| s3.shuffle(v, t.rot20)),
            xor,
        );
        let a = zip::<V, _>(&a, &map::<V, _>(&b, |v| s3.shuffle(v, t.rot8)), xor);
        let b = zip::<V, _>(&b, &map::<V, _>(&a, |v| s3.shuffle(v, t.rot8)), xor);
        let a = zip::<V, _>(&a, &map::<V, _>(&b, |v| s3.shuffle(v, t.rot4)), xor);
        let b = zip::<V, _>(&b, &a, xor);
        x0 = map::<V, _>(&a, |v| s3.shuffle(t.sbox_inv, v));
        x1 = map::<V, _>(&b, |v| s3.shuffle(t.sbox_inv, v));
    }
    (x0, x1)
}

#[inline(always)]
fn xor_block<V: Variant>(x: &(Half, Half), k: &(Half, Half)) -> (Half, Half) {
    (zip::<V, _>(&x.0, &k.0, xor), zip::<V, _>(&x.1, &k.1, xor))
}

#[inline(always)]
fn ecb_encrypt_with<V: Variant>(s3: Ssse3, k: &impl KeyRounds, buf: &mut [u8]) {
    let t = Tables::new(s3);
    let k0 = k.round(0);
    for block in buf.chunks_exact_mut(V::BLOCK) {
        let x = xor_block::<V>(&load_block::<V>(block), &k0);
        let (x0, x1) = encrypt_rounds::<V>(&t, k, x);
        store_block::<V>(s3, &x0, &x1, block);
    }
}

#[inline(always)]
fn ecb_decrypt_with<V: Variant>(s3: Ssse3, k: &impl KeyRounds, buf: &mut [u8]) {
    let t = Tables::new(s3);
    let k0 = k.round(0);
    for block in buf.chunks_exact_mut(V::BLOCK) {
        let x = decrypt_rounds::<V>(&t, k, load_block::<V>(block));
        let (x0, x1) = xor_block::<V>(&x, &k0);
        store_block::<V>(s3, &x0, &x1, block);
    }
}

/// Blocks up to which keys are made on the fly rather than once per call.
const FEW_BLOCKS: usize = 2;

#[inline(always)]
fn ecb_encrypt_px<V: Variant>(s3: Ssse3, rk: &RoundKeys, buf: &mut [u8]) {
    if buf.len() <= FEW_BLOCKS * V::BLOCK {
        ecb_encrypt_with::<V>(
            s3,
            &KeysOnTheFly::<V>(s3, rk, core::marker::PhantomData),
            buf,
        );
    } else {
        ecb_encrypt_with::<V>(s3, &NibbleKeys::new::<V>(s3, rk), buf);
    }
}

#[inline(always)]
fn ecb_decrypt_px<V: Variant>(s3: Ssse3, rk: &RoundKeys, buf: &mut [u8]) {
    if buf.len() <= FEW_BLOCKS * V::BLOCK {
        ecb_decrypt_with::<V>(
            s3,
            &KeysOnTheFly::<V>(s3, rk, core::marker::PhantomData),
            buf,
        );
    } else {
        ecb_decrypt_with::<V>(s3, &NibbleKeys::new::<V>(s3, rk), buf);
    }
}

/// CBC encryption with the chain kept in nibble form: per block the only work on the chain
/// is one XOR and the rounds.
#[inline(always)]
fn cbc_encrypt_px<V: Variant>(s3: Ssse3, rk: &RoundKeys, iv: &mut [u8], buf: &mut [u8]) {
    let t = Tables::new(s3);
    let k = NibbleKeys::new::<V>(s3, rk);
    let k0 = k.round(0);
    let mut chain = load_block::<V>(iv);
    for block in buf.chunks_exact_mut(V::BLOCK) {
        let p = xor_block::<V>(&load_block::<V>(block), &k0);
        chain = encrypt_rounds::<V>(&t, &k, xor_block::<V>(&p, &chain));
        store_block::<V>(s3, &chain.0, &chain.1, block);
    }
    store_block::<V>(s3, &chain.0, &chain.1, iv);
}

macro_rules! entry_points {
    ($kernel:ident, $ecb_enc:ident, $ecb_dec:ident, $cbc_enc:ident, $key:ident, $one:ident) => {
        #[kernel($kernel)]
        fn $ecb_enc<V: Variant>(rk: &RoundKeys, buf: &mut [u8]) {
            ecb_encrypt_px::<V>(Ssse3::new(), rk, buf);
        }

        #[kernel($kernel)]
        fn $ecb_dec<V: Variant>(rk: &RoundKeys, buf: &mut [u8]) {
            ecb_decrypt_px::<V>(Ssse3::new(), rk, buf);
        }

        #[kernel($kernel)]
        fn $cbc_enc<V: Variant>(rk: &RoundKeys, iv: &mut [u8], buf: &mut [u8]) {
            cbc_encrypt_px::<V>(Ssse3::new(), rk, iv, buf);
        }

        #[kernel($kernel)]
        fn $key<V: Variant>(key: &[u8], rk: &mut RoundKeys) {
            expand_key_px::<V>(Ssse3::new(), key, rk);
        }

        #[kernel($kernel)]
        fn $one<V: Variant>(key: &[u8], block: &mut [u8]) {
            encrypt_one_with_key_px::<V>(Ssse3::new(), key, block);
        }
    };
}

entry_points!(
    UBLOCK_NIBBLES_SSSE3,
    ecb_encrypt_ssse3,
    ecb_decrypt_ssse3,
    cbc_encrypt_ssse3,
    key_ssse3,
    one_ssse3
);
// The same code with VEX encodings, for the AVX2 and AVX-512 backends.
entry_points!(
    UBLOCK_NIBBLES_AVX2,
    ecb_encrypt_avx2,
    ecb_decrypt_avx2,
    cbc_encrypt_avx2,
    key_avx2,
    one_avx2
);

/// ECB encryption one block at a time, VEX-encoded (AVX2) when `vex`, else in SSSE3
/// encodings; declined (nothing done) when the CPU does not run that kernel.
pub(super) fn ecb_encrypt<V: Variant>(rk: &RoundKeys, buf: &mut [u8], vex: bool) -> Ran {
    if vex {
        checked!(kernels::UBLOCK_NIBBLES_AVX2 => {
            // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
            unsafe { ecb_encrypt_avx2::<V>(rk, buf) }
        })
    } else {
        checked!(kernels::UBLOCK_NIBBLES_SSSE3 => {
            // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
            unsafe { ecb_encrypt_ssse3::<V>(rk, buf) }
        })
    }
}

/// ECB decryption one block at a time, as [`ecb_encrypt`].
pub(super) fn ecb_decrypt<V: Variant>(rk: &RoundKeys, buf: &mut [u8], vex: bool) -> Ran {
    if vex {
        checked!(kernels::UBLOCK_NIBBLES_AVX2 => {
            // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
            unsafe { ecb_decrypt_avx2::<V>(rk, buf) }
        })
    } else {
        checked!(kernels::UBLOCK_NIBBLES_SSSE3 => {
            // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
            unsafe { ecb_decrypt_ssse3::<V>(rk, buf) }
        })
    }
}

/// CBC encryption of one stream, as [`ecb_encrypt`].
pub(super) fn cbc_encrypt<V: Variant>(
    rk: &RoundKeys,
    iv: &mut [u8],
    buf: &mut [u8],
    vex: bool,
) -> Ran {
    if vex {
        checked!(kernels::UBLOCK_NIBBLES_AVX2 => {
            // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
            unsafe { cbc_encrypt_avx2::<V>(rk, iv, buf) }
        })
    } else {
        checked!(kernels::UBLOCK_NIBBLES_SSSE3 => {
            // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
            unsafe { cbc_encrypt_ssse3::<V>(rk, iv, buf) }
        })
    }
}

/// The key schedule into `rk`, as [`ecb_encrypt`].
pub(super) fn expand_key<V: Variant>(key: &[u8], rk: &mut RoundKeys, vex: bool) -> Ran {
    if vex {
        checked!(kernels::UBLOCK_NIBBLES_AVX2 => {
            // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
            unsafe { key_avx2::<V>(key, rk) }
        })
    } else {
        checked!(kernels::UBLOCK_NIBBLES_SSSE3 => {
            // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
            unsafe { key_ssse3::<V>(key, rk) }
        })
    }
}

/// Encrypts one block (`V::BLOCK` bytes of `block`) under `key` (`V::KEY` bytes) without a
/// stored schedule, as [`ecb_encrypt`]; declined also on other lengths.
pub(super) fn encrypt_one_with_key<V: Variant>(key: &[u8], block: &mut [u8], vex: bool) -> Ran {
    if key.len() != V::KEY || block.len() != V::BLOCK {
        return Ran::Declined;
    }
    if vex {
        checked!(kernels::UBLOCK_NIBBLES_AVX2 => {
            // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
            unsafe { one_avx2::<V>(key, block) }
        })
    } else {
        checked!(kernels::UBLOCK_NIBBLES_SSSE3 => {
            // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
            unsafe { one_ssse3::<V>(key, block) }
        })
    }
}
