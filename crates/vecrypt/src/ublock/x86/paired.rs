//! The AVX2 kernel of Gao Ying et al. (J. NUDT 2024): two blocks per byte, four blocks (and
//! up to four keys) per call.
//!
//! The layout is the design document's one nibble per byte, with a second block in the
//! other nibble: byte `q` of a register holds nibble `q` of block A in its high half and of
//! block B in its low half. Each 128-bit lane holds one pair, so a 256-bit register holds one
//! half (`X0` or `X1`) of four blocks: the "left-left / right-right" layout, in which the
//! rotations and PL/PR are in-lane byte shuffles and nothing crosses lanes inside a round.
//! A 256-bit block's half is two such registers, as in [`super::nibbles`].
//!
//! Per round (128-bit block) the chain is the PX one of [`super::nibbles`] plus the paired
//! S-box, two table shuffles, a shift, two ANDs and an OR instead of one shuffle. With four
//! keys the round keys differ per block: the key byte of a pair is `(k_A << 4) | k_B`, which
//! is what makes four independent CBC streams run side by side.
//!
//! It serves short inputs (fewer blocks than a bitsliced batch pays for) and CBC encryption
//! of up to four streams; [`super::Ublock::with_paper_layout`] runs every call on it, so the
//! speed table can set it against the SSSE3 code as the paper does.

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::consts::{SBOX, SBOX_INV};
use super::nibbles::{Half, Ssse3, gather_tables, map, nibble_key, regs, rotation, zip};
use super::{RoundKeys, Variant};
use crate::cpu::{Ran, checked, kernel, kernels};

/// A half of the state of four blocks: one register for 128-bit blocks, two for 256-bit ones.
type Pair = [__m256i; 2];

/// Blocks per kernel call.
pub(super) const BLOCKS: usize = 4;

/// Most bytes one call holds (four 256-bit blocks).
const MAX_BYTES: usize = BLOCKS * 32;

#[inline(always)]
fn load16(b: &[u8]) -> __m128i {
    let b: &[u8; 16] = b[..16].try_into().unwrap_or(&[0; 16]);
    // SAFETY: reads 16 bytes from a 16-byte array; SSE2 is baseline on x86-64.
    unsafe { _mm_loadu_si128(b.as_ptr().cast()) }
}

#[inline(always)]
fn store16(v: __m128i, out: &mut [u8]) {
    let mut b = [0u8; 16];
    // SAFETY: writes 16 bytes into a 16-byte array.
    unsafe { _mm_storeu_si128(b.as_mut_ptr().cast(), v) };
    out[..16].copy_from_slice(&b);
}

/// The proof that the CPU runs AVX2: made only by [`Avx2::new`], which is compiled for the
/// kernel's features, so the compiler allows it only in such code or in an `unsafe` block
/// after the CPU check. The AVX2 operations of the kernel are its methods.
#[derive(Clone, Copy)]
struct Avx2(());

impl Avx2 {
    /// The token, inside code compiled for the kernel's features.
    #[kernel(UBLOCK_PAIRED_AVX2)]
    #[inline]
    fn new() -> Self {
        Avx2(())
    }

    /// The SSSE3 token of the nibble kernel, whose key helpers this kernel shares.
    #[inline(always)]
    fn ssse3(self) -> Ssse3 {
        // SAFETY: `self` proves AVX2, which includes SSSE3.
        unsafe { Ssse3::new() }
    }

    #[inline(always)]
    fn broadcast(self, t: &[u8; 16]) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_broadcastsi128_si256(load16(t)) }
    }

    #[inline(always)]
    fn lanes(self, lo: __m128i, hi: __m128i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_set_m128i(hi, lo) }
    }

    #[inline(always)]
    fn lane_halves(self, v: __m256i) -> (__m128i, __m128i) {
        // SAFETY: `self` proves AVX2.
        unsafe { (_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v)) }
    }

    #[inline(always)]
    fn xor(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_xor_si256(a, b) }
    }

    #[inline(always)]
    fn or(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_or_si256(a, b) }
    }

    #[inline(always)]
    fn and(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_and_si256(a, b) }
    }

    #[inline(always)]
    fn shuffle(self, table: __m256i, idx: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_shuffle_epi8(table, idx) }
    }

    #[inline(always)]
    fn shr4(self, v: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_srli_epi16::<4>(v) }
    }

    #[inline(always)]
    fn shl4(self, v: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_slli_epi16::<4>(v) }
    }

    #[inline(always)]
    fn splat8(self, v: u8) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_set1_epi8(v as i8) }
    }

    #[inline(always)]
    fn zero(self) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_setzero_si256() }
    }

    /// Two registers of 16-byte chunks (block A's in `a`, block B's in `b`, lane by lane) to
    /// paired nibbles: (nibbles of bytes 0..8, nibbles of bytes 8..16) of each chunk.
    #[inline(always)]
    fn pair(self, a: __m256i, b: __m256i) -> (__m256i, __m256i) {
        let high = self.splat8(0xf0);
        let low = self.splat8(0x0f);
        let even = self.or(self.and(a, high), self.and(self.shr4(b), low));
        let odd = self.or(self.and(self.shl4(a), high), self.and(b, low));
        // SAFETY: `self` proves AVX2.
        unsafe {
            (
                _mm256_unpacklo_epi8(even, odd),
                _mm256_unpackhi_epi8(even, odd),
            )
        }
    }

    /// 32 nibbles, one per byte (values below 16), to 16 bytes, lane by lane.
    #[inline(always)]
    fn compact(self, x: __m256i, y: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe {
            let w = _mm256_set1_epi16(0x0110);
            _mm256_packus_epi16(_mm256_maddubs_epi16(x, w), _mm256_maddubs_epi16(y, w))
        }
    }

    /// The inverse of [`Self::pair`].
    #[inline(always)]
    fn unpair(self, x: __m256i, y: __m256i) -> (__m256i, __m256i) {
        let low = self.splat8(0x0f);
        (
            self.compact(self.and(self.shr4(x), low), self.and(self.shr4(y), low)),
            self.compact(self.and(x, low), self.and(y, low)),
        )
    }
}

/// The four blocks of `b` (`4 * V::BLOCK` bytes) as two halves: blocks 0 and 1 in lane 0,
/// 2 and 3 in lane 1, the even block in the high nibbles.
#[inline(always)]
fn load_blocks<V: Variant>(av: Avx2, b: &[u8]) -> (Pair, Pair) {
    let (l0, l1) = load_chunk::<V>(av, b, 0);
    if regs::<V>() == 1 {
        ([l0, av.zero()], [l1, av.zero()])
    } else {
        let (r0, r1) = load_chunk::<V>(av, b, 1);
        ([l0, l1], [r0, r1])
    }
}

/// Bytes `16c..16c + 16` of the four blocks, paired.
#[inline(always)]
fn load_chunk<V: Variant>(av: Avx2, b: &[u8], c: usize) -> (__m256i, __m256i) {
    let n = V::BLOCK;
    let a = av.lanes(load16(&b[16 * c..]), load16(&b[2 * n + 16 * c..]));
    let bb = av.lanes(load16(&b[n + 16 * c..]), load16(&b[3 * n + 16 * c..]));
    av.pair(a, bb)
}

#[inline(always)]
fn store_chunk<V: Variant>(av: Avx2, out: &mut [u8], c: usize, x: __m256i, y: __m256i) {
    let n = V::BLOCK;
    let (a, b) = av.unpair(x, y);
    let (a0, a2) = av.lane_halves(a);
    let (b1, b3) = av.lane_halves(b);
    store16(a0, &mut out[16 * c..]);
    store16(b1, &mut out[n + 16 * c..]);
    store16(a2, &mut out[2 * n + 16 * c..]);
    store16(b3, &mut out[3 * n + 16 * c..]);
}

#[inline(always)]
fn store_blocks<V: Variant>(av: Avx2, x0: &Pair, x1: &Pair, out: &mut [u8]) {
    if regs::<V>() == 1 {
        store_chunk::<V>(av, out, 0, x0[0], x1[0]);
    } else {
        store_chunk::<V>(av, out, 0, x0[0], x0[1]);
        store_chunk::<V>(av, out, 1, x1[0], x1[1]);
    }
}

/// The constant registers of the round function.
struct Tables {
    av: Avx2,
    sbox_low: __m256i,
    sbox_high: __m256i,
    inv_low: __m256i,
    inv_high: __m256i,
    low: __m256i,
    rot4: __m256i,
    rot8: __m256i,
    rot20: __m256i,
}

const fn shifted(t: [u8; 16]) -> [u8; 16] {
    let mut out = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        out[i] = t[i] << 4;
        i += 1;
    }
    out
}

impl Tables {
    #[inline(always)]
    fn new(av: Avx2) -> Self {
        Tables {
            av,
            sbox_low: av.broadcast(&SBOX),
            sbox_high: av.broadcast(&const { shifted(SBOX) }),
            inv_low: av.broadcast(&SBOX_INV),
            inv_high: av.broadcast(&const { shifted(SBOX_INV) }),
            low: av.splat8(0x0f),
            rot4: av.broadcast(&const { rotation(1) }),
            rot8: av.broadcast(&const { rotation(2) }),
            rot20: av.broadcast(&const { rotation(5) }),
        }
    }

    /// The S-box on both nibbles of every byte: one table shuffle per nibble.
    #[inline(always)]
    fn sbox(&self, v: __m256i, low: __m256i, high: __m256i) -> __m256i {
        let av = self.av;
        av.or(
            av.shuffle(high, av.and(av.shr4(v), self.low)),
            av.shuffle(low, av.and(v, self.low)),
        )
    }
}

#[inline(always)]
fn gather<V: Variant>(av: Avx2, x: &Pair, t: &[[[u8; 16]; 2]; 2]) -> Pair {
    if regs::<V>() == 1 {
        [av.shuffle(x[0], av.broadcast(&t[0][0])), av.zero()]
    } else {
        [
            av.or(
                av.shuffle(x[0], av.broadcast(&t[0][0])),
                av.shuffle(x[1], av.broadcast(&t[0][1])),
            ),
            av.or(
                av.shuffle(x[0], av.broadcast(&t[1][0])),
                av.shuffle(x[1], av.broadcast(&t[1][1])),
            ),
        ]
    }
}

#[inline(always)]
fn xor_state<V: Variant>(av: Avx2, x: &(Pair, Pair), k: &(Pair, Pair)) -> (Pair, Pair) {
    let xor = |a, b| av.xor(a, b);
    (zip::<V, _>(&x.0, &k.0, xor), zip::<V, _>(&x.1, &k.1, xor))
}

/// Folded round keys (as in [`super::nibbles`]) of the four blocks, paired like the state.
struct PairedKeys(Avx2, [(Pair, Pair); 25]);

impl PairedKeys {
    /// `keys[j]` keys block `j`; the same key four times is the single-key case.
    #[inline(always)]
    fn new<V: Variant>(av: Avx2, keys: [&RoundKeys; BLOCKS]) -> Self {
        let s3 = av.ssse3();
        // Plain loops, not `array::from_fn`: a generic helper that is not inlined runs without
        // the caller's target features, and every intrinsic inside it becomes a call.
        let same = keys.iter().all(|k| core::ptr::eq(*k, keys[0]));
        let mut out = [([av.zero(); 2], [av.zero(); 2]); 25];
        for (i, slot) in out.iter_mut().enumerate().take(V::ROUNDS + 1) {
            let mut k = [nibble_key::<V>(s3, keys[0], i); BLOCKS];
            if !same {
                for (j, kj) in k.iter_mut().enumerate().skip(1) {
                    *kj = nibble_key::<V>(s3, keys[j], i);
                }
            }
            let join = |half: fn(&(Half, Half)) -> &Half| -> Pair {
                let mut pair = [av.zero(); 2];
                for (r, p) in pair.iter_mut().enumerate() {
                    let byte = |a: usize, b: usize| {
                        // SAFETY: SSE2; nibble values are below 16, so the 16-bit shift
                        // moves each into the high half of its own byte.
                        unsafe { _mm_or_si128(_mm_slli_epi16::<4>(half(&k[a])[r]), half(&k[b])[r]) }
                    };
                    *p = av.lanes(byte(0, 1), byte(2, 3));
                }
                pair
            };
            *slot = (join(|k| &k.0), join(|k| &k.1));
        }
        PairedKeys(av, out)
    }

    #[inline(always)]
    fn round(&self, i: usize) -> &(Pair, Pair) {
        &self.1[i]
    }
}

impl Drop for PairedKeys {
    fn drop(&mut self) {
        let av = self.0;
        for round in self.1.iter_mut() {
            crate::wipe::set(round, ([av.zero(); 2], [av.zero(); 2]));
        }
    }
}

/// Encrypts four blocks, `x` already XORed with `RK_0`.
#[inline(always)]
fn encrypt_rounds<V: Variant>(t: &Tables, k: &PairedKeys, x: (Pair, Pair)) -> (Pair, Pair) {
    let av = t.av;
    let xor = |a, b| av.xor(a, b);
    let pl = const { gather_tables(V::PL) };
    let pr = const { gather_tables(V::PR) };
    let (mut x0, mut x1) = x;
    for i in 1..=V::ROUNDS {
        let (ka, kb) = k.round(i);
        let a = map::<V, _>(&x0, |v| t.sbox(v, t.sbox_low, t.sbox_high));
        let b = map::<V, _>(&x1, |v| t.sbox(v, t.sbox_low, t.sbox_high));
        let b = zip::<V, _>(&b, &a, xor);
        let a = zip::<V, _>(&a, &map::<V, _>(&b, |v| av.shuffle(v, t.rot4)), xor);
        let b = zip::<V, _>(&b, &map::<V, _>(&a, |v| av.shuffle(v, t.rot8)), xor);
        let a = zip::<V, _>(&a, &map::<V, _>(&b, |v| av.shuffle(v, t.rot8)), xor);
        let b = zip::<V, _>(
            &zip::<V, _>(&b, kb, xor),
            &map::<V, _>(&a, |v| av.shuffle(v, t.rot20)),
            xor,
        );
        let a = zip::<V, _>(&zip::<V, _>(&a, ka, xor), &b, xor);
        x0 = gather::<V>(av, &a, &pl);
        x1 = gather::<V>(av, &b, &pr);
    }
    (x0, x1)
}

/// Decrypts four blocks, up to (not including) the final XOR with `RK_0`.
#[inline(always)]
fn decrypt_rounds<V: Variant>(t: &Tables, k: &PairedKeys, x: (Pair, Pair)) -> (Pair, Pair) {
    let av = t.av;
    let xor = |a, b| av.xor(a, b);
    let pl_inv = const { gather_tables(V::PL_INV) };
    let pr_inv = const { gather_tables(V::PR_INV) };
    let (mut x0, mut x1) = x;
    for i in (1..=V::ROUNDS).rev() {
        let (ka, kb) = k.round(i);
        let p0 = gather::<V>(av, &x0, &pl_inv);
        let p1 = gather::<V>(av, &x1, &pr_inv);
        let a = zip::<V, _>(&zip::<V, _>(&p0, ka, xor), &p1, xor);
        let b = zip::<V, _>(
            &zip::<V, _>(&p1, kb, xor),
            &map::<V, _>(&a, |v| av.shuffle(v, t.rot20)),
            xor,
        );
        let a = zip::<V, _>(&a, &map::<V, _>(&b, |v| av.shuffle(v, t.rot8)), xor);
        let b = zip::<V, _>(&b, &map::<V, _>(&a, |v| av.shuffle(v, t.rot8)), xor);
        let a = zip::<V, _>(&a, &map::<V, _>(&b, |v| av.shuffle(v, t.rot4)), xor);
        let b = zip::<V, _>(&b, &a, xor);
        x0 = map::<V, _>(&a, |v| t.sbox(v, t.inv_low, t.inv_high));
        x1 = map::<V, _>(&b, |v| t.sbox(v, t.inv_low, t.inv_high));
    }
    (x0, x1)
}

/// Runs `f` over `buf` four blocks at a time; a short tail goes through a zero-padded copy.
#[inline(always)]
fn by_fours<V: Variant>(buf: &mut [u8], mut f: impl FnMut(&mut [u8])) {
    let step = BLOCKS * V::BLOCK;
    let mut chunks = buf.chunks_exact_mut(step);
    for chunk in &mut chunks {
        f(chunk);
    }
    let tail = chunks.into_remainder();
    if !tail.is_empty() {
        let mut padded = [0u8; MAX_BYTES];
        padded[..tail.len()].copy_from_slice(tail);
        f(&mut padded[..step]);
        tail.copy_from_slice(&padded[..tail.len()]);
        crate::wipe::array(&mut padded);
    }
}

#[kernel(UBLOCK_PAIRED_AVX2)]
fn ecb_encrypt_avx2<V: Variant>(rk: &RoundKeys, buf: &mut [u8]) {
    let av = Avx2::new();
    let t = Tables::new(av);
    let k = PairedKeys::new::<V>(av, [rk; BLOCKS]);
    let k0 = *k.round(0);
    by_fours::<V>(
        buf,
        #[inline(always)]
        |chunk| {
            let x = xor_state::<V>(av, &load_blocks::<V>(av, chunk), &k0);
            let (x0, x1) = encrypt_rounds::<V>(&t, &k, x);
            store_blocks::<V>(av, &x0, &x1, chunk);
        },
    );
}

#[kernel(UBLOCK_PAIRED_AVX2)]
fn ecb_decrypt_avx2<V: Variant>(rk: &RoundKeys, buf: &mut [u8]) {
    let av = Avx2::new();
    let t = Tables::new(av);
    let k = PairedKeys::new::<V>(av, [rk; BLOCKS]);
    let k0 = *k.round(0);
    by_fours::<V>(
        buf,
        #[inline(always)]
        |chunk| {
            let x = decrypt_rounds::<V>(&t, &k, load_blocks::<V>(av, chunk));
            let (x0, x1) = xor_state::<V>(av, &x, &k0);
            store_blocks::<V>(av, &x0, &x1, chunk);
        },
    );
}

/// CBC encryption of up to four streams (one key each) in lockstep, the chains held in
/// registers; a stream that has ended keeps a slot whose output is dropped.
#[kernel(UBLOCK_PAIRED_AVX2)]
fn cbc_encrypt_streams_avx2<V: Variant>(
    keys: &[&RoundKeys],
    ivs: &mut [&mut [u8]],
    bufs: &mut [&mut [u8]],
) {
    let n = V::BLOCK;
    let av = Avx2::new();
    let t = Tables::new(av);
    let mut four = [keys[keys.len() - 1]; BLOCKS];
    for (slot, key) in four.iter_mut().zip(keys) {
        *slot = key;
    }
    let k = PairedKeys::new::<V>(av, four);
    let k0 = *k.round(0);
    let mut slots = [0u8; MAX_BYTES];
    let slots = &mut slots[..BLOCKS * n];
    for (slot, iv) in slots.chunks_exact_mut(n).zip(ivs.iter()) {
        slot.copy_from_slice(iv);
    }
    let mut chain = load_blocks::<V>(av, slots);
    let longest = bufs.iter().map(|b| b.len()).max().unwrap_or(0);
    for at in (0..longest).step_by(n) {
        for (slot, buf) in slots.chunks_exact_mut(n).zip(bufs.iter()) {
            if let Some(p) = buf.get(at..at + n) {
                slot.copy_from_slice(p);
            }
        }
        let p = xor_state::<V>(av, &load_blocks::<V>(av, slots), &k0);
        chain = encrypt_rounds::<V>(&t, &k, xor_state::<V>(av, &p, &chain));
        store_blocks::<V>(av, &chain.0, &chain.1, slots);
        for (slot, buf) in slots.chunks_exact(n).zip(bufs.iter_mut()) {
            if let Some(dst) = buf.get_mut(at..at + n) {
                dst.copy_from_slice(slot);
            }
        }
    }
    for (iv, buf) in ivs.iter_mut().zip(bufs.iter()) {
        if let Some(last) = buf.len().checked_sub(n) {
            iv.copy_from_slice(&buf[last..]);
        }
    }
    crate::wipe::bytes(slots);
}

/// ECB encryption; declined (nothing done) without AVX2.
pub(super) fn ecb_encrypt<V: Variant>(rk: &RoundKeys, buf: &mut [u8]) -> Ran {
    checked!(kernels::UBLOCK_PAIRED_AVX2 => {
        // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
        unsafe { ecb_encrypt_avx2::<V>(rk, buf) }
    })
}

/// ECB decryption; declined (nothing done) without AVX2.
pub(super) fn ecb_decrypt<V: Variant>(rk: &RoundKeys, buf: &mut [u8]) -> Ran {
    checked!(kernels::UBLOCK_PAIRED_AVX2 => {
        // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
        unsafe { ecb_decrypt_avx2::<V>(rk, buf) }
    })
}

/// CBC encryption of one to four streams; declined (nothing done) without AVX2 or with
/// another number of streams.
pub(super) fn cbc_encrypt_streams<V: Variant>(
    keys: &[&RoundKeys],
    ivs: &mut [&mut [u8]],
    bufs: &mut [&mut [u8]],
) -> Ran {
    let fits = (1..=BLOCKS).contains(&keys.len()) && ivs.len() == keys.len();
    if !fits || bufs.len() != keys.len() {
        return Ran::Declined;
    }
    checked!(kernels::UBLOCK_PAIRED_AVX2 => {
        // SAFETY: `checked!` runs this only on a CPU that runs the kernel's features.
        unsafe { cbc_encrypt_streams_avx2::<V>(keys, ivs, bufs) }
    })
}
