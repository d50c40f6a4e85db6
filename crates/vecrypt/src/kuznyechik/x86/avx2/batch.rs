//! The sliced batch of 32 blocks on sixteen YMM registers (byte `j` of every block in
//! register `j`): the R steps, the rounds, and the way into and out of that layout.

use core::arch::x86_64::*;

use super::tables::{BATCH, LANES, State, Tables, nibble_map, xor};

/// `x` times coefficient number `c`: by GF2P8AFFINEQB when `GFNI` (the caller then runs
/// with GFNI enabled), else by one lookup per nibble.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn mul<const GFNI: bool>(x: __m256i, c: usize, t: &Tables) -> __m256i {
    // SAFETY: register-only AVX2 (and, when `GFNI`, GFNI) operations, enabled by the caller.
    unsafe {
        if GFNI {
            return _mm256_gf2p8affine_epi64_epi8::<0>(x, t.affine[c]);
        }
        nibble_map(x, t.mul[c][0], t.mul[c][1], t.low_nibble)
    }
}

/// One R step; see the AVX-512 backend for the ring of registers.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn r_step<const STEP: usize, const GFNI: bool>(s: &mut State, t: &Tables) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let x = |k: usize| s[(k + 16 - STEP) % 16];
        let others = xor(
            xor(
                xor(
                    mul::<GFNI>(xor(x(1), x(13)), 1, t),
                    mul::<GFNI>(xor(x(2), x(12)), 2, t),
                ),
                xor(
                    mul::<GFNI>(xor(x(3), x(11)), 3, t),
                    mul::<GFNI>(xor(x(4), x(10)), 4, t),
                ),
            ),
            xor(
                xor(mul::<GFNI>(xor(x(5), x(9)), 5, t), mul::<GFNI>(x(7), 6, t)),
                xor(xor(x(6), x(8)), x(15)),
            ),
        );
        s[(15 + 16 - STEP) % 16] = xor(others, mul::<GFNI>(xor(x(0), x(14)), 0, t));
    }
}

/// One R⁻¹ step; see the AVX-512 backend.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn r_inv_step<const STEP: usize, const GFNI: bool>(s: &mut State, t: &Tables) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let y = |k: usize| s[(k + STEP) % 16];
        let others = xor(
            xor(
                xor(
                    mul::<GFNI>(xor(y(2), y(14)), 1, t),
                    mul::<GFNI>(xor(y(3), y(13)), 2, t),
                ),
                xor(
                    mul::<GFNI>(xor(y(4), y(12)), 3, t),
                    mul::<GFNI>(xor(y(5), y(11)), 4, t),
                ),
            ),
            xor(
                xor(mul::<GFNI>(xor(y(6), y(10)), 5, t), mul::<GFNI>(y(8), 6, t)),
                xor(xor(y(7), y(9)), y(0)),
            ),
        );
        s[STEP % 16] = xor(others, mul::<GFNI>(xor(y(1), y(15)), 0, t));
    }
}

/// Transposes the 16x16 byte matrix held in the 128-bit lanes of sixteen registers (each
/// lane separately): four rounds of interleaving register `i` with register `i + 8`. The
/// transpose is its own inverse.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn transpose_bytes(s: &mut State) {
    // SAFETY: register-only AVX2 operations, enabled by the caller.
    unsafe {
        for _ in 0..4 {
            let a = *s;
            for i in 0..8 {
                s[2 * i] = _mm256_unpacklo_epi8(a[i], a[i + 8]);
                s[2 * i + 1] = _mm256_unpackhi_epi8(a[i], a[i + 8]);
            }
        }
    }
}

/// Loads 32 blocks into the sliced layout: register `j` holds byte `j` of blocks 0..16 in
/// its low lane and of blocks 16..32 in its high lane.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn load(src: &[u8; BATCH]) -> State {
    // SAFETY: each load reads 16 bytes at offset 16*r or 16*(r + 16), both below 512, of a
    // 512-byte array.
    unsafe {
        let p = src.as_ptr();
        let mut s = [_mm256_setzero_si256(); 16];
        for (r, x) in s.iter_mut().enumerate() {
            *x = _mm256_loadu2_m128i(p.add(16 * (r + 16)).cast(), p.add(16 * r).cast());
        }
        transpose_bytes(&mut s);
        s
    }
}

/// The inverse of [`load`].
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn store(s: &State, dst: &mut [u8; BATCH]) {
    // SAFETY: each store writes 16 bytes at offset 16*r or 16*(r + 16) of a 512-byte array.
    unsafe {
        let mut s = *s;
        transpose_bytes(&mut s);
        let p = dst.as_mut_ptr();
        for (r, x) in s.iter().enumerate() {
            _mm256_storeu2_m128i(p.add(16 * (r + 16)).cast(), p.add(16 * r).cast(), *x);
        }
    }
}

/// Transposes the sliced state back to 32 blocks and XORs them into `dst`.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn xor_into(s: &State, dst: &mut [u8; BATCH]) {
    // SAFETY: AVX2 is enabled by the caller; each access reads and writes 16 bytes at offset
    // 16*r or 16*(r + 16), both below 512, of a 512-byte array.
    unsafe {
        let mut s = *s;
        transpose_bytes(&mut s);
        let p = dst.as_mut_ptr();
        for (r, x) in s.iter().enumerate() {
            let (low, high) = (p.add(16 * r), p.add(16 * (r + 16)));
            let data = _mm256_loadu2_m128i(high.cast(), low.cast());
            _mm256_storeu2_m128i(high.cast(), low.cast(), xor(*x, data));
        }
    }
}

/// XORs the first `dst.len()` bytes of the state, transposed back to blocks, into `dst`
/// (fewer bytes than a batch: the last, partial batch of a CTR call).
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
pub(super) unsafe fn xor_into_part(s: &State, dst: &mut [u8]) {
    // SAFETY: AVX2 is enabled by the caller; `store` writes the 512-byte pad.
    unsafe {
        let mut stream = Pad::new();
        store(s, stream.bytes());
        for (d, k) in dst.iter_mut().zip(stream.bytes().iter()) {
            *d ^= *k;
        }
    }
}

/// Counter blocks `n..n + 32`, big-endian, in memory order.
pub(super) fn counter_blocks(n: u128) -> [u8; BATCH] {
    let mut stream = [0u8; BATCH];
    for (i, block) in stream.chunks_exact_mut(16).enumerate() {
        block.copy_from_slice(&n.wrapping_add(i as u128).to_be_bytes());
    }
    stream
}

/// Runs `$body` with `$batch` bound to every batch of `$buf` (whole blocks), the last one
/// padded with zeros. A macro rather than a function taking a closure, so the body is
/// compiled with the target features of the function it is written in. `BATCH` and `Pad`
/// are those in scope where it is used.
macro_rules! for_each_batch {
    ($buf:expr, |$batch:ident| $body:block) => {{
        let mut chunks = $buf.chunks_exact_mut(BATCH);
        for chunk in &mut chunks {
            let $batch: &mut [u8; BATCH] = chunk.try_into().expect("whole batch");
            $body
        }
        let rest = chunks.into_remainder();
        if !rest.is_empty() {
            let mut pad = Pad::new();
            pad.bytes()[..rest.len()].copy_from_slice(rest);
            {
                let $batch = pad.bytes();
                $body
            }
            rest.copy_from_slice(&pad.bytes()[..rest.len()]);
        }
    }};
}
pub(super) use for_each_batch;

/// A zeroed batch of scratch bytes, held as 16-byte words so that zeroizing it on drop
/// takes 32 writes rather than 512.
pub(super) struct Pad([u128; LANES]);

impl Pad {
    pub(super) fn new() -> Self {
        Pad([0; LANES])
    }

    pub(super) fn bytes(&mut self) -> &mut [u8; BATCH] {
        // SAFETY: 32 words of 16 bytes are 512 bytes with no padding, any byte pattern is a
        // valid u8 and u128, and u8 needs no alignment; the borrow of `self` covers the view.
        unsafe { &mut *(&raw mut self.0).cast::<[u8; BATCH]>() }
    }
}

impl Drop for Pad {
    fn drop(&mut self) {
        crate::wipe::array(&mut self.0);
    }
}
