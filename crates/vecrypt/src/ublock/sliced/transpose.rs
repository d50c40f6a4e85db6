//! Batches of whole blocks into the one-register-per-bit form of [`super`] and
//! back, for any register width.
//!
//! A batch of `8 * BYTES` blocks of `n` bytes is `8n` registers, and so is its sliced form:
//! register `8k + t` holds bit `t` of byte `k` of every block. The transposition exchanges
//! the 7 (or 8) address bits that pick a register with address bits inside the registers.
//! A 64-bit lane holds 8 bytes of 8 bits, and the backends supply one operation per kind of
//! exchange ([`Exchanges`]); the passes below are the same for every width:
//! - pass A, on `NA` registers (8 for 16-byte blocks, 16 for 32-byte ones): the three byte
//!   bits `k % 8` cross into the register number, then the bit transpose swaps bit-in-byte
//!   with byte-in-lane, and for 32-byte blocks `k / 16` crosses with a 16-byte lane bit;
//! - pass B, on 16 registers: the bit number `t` crosses into the register number, and
//!   `k / 8 % 2` with the 64-bit lane bit.
//!
//! Every step is an involution and the steps of a pass commute except around the bit
//! transpose, so the inverse runs pass B, then pass A backwards.

use super::super::planes::Lanes;
use super::Variant;

/// State bits of the widest variant (uBlock-256/256), hence the registers of a state.
pub(in crate::ublock) const BITS: usize = 256;

/// One state: register `8k + t` is bit `t` (0 the least significant) of byte `k`.
pub(in crate::ublock) type Sliced<L> = [L; BITS];

/// The register operations a transposition is made of.
pub(in crate::ublock) trait Exchanges: Lanes {
    /// Whether [`Exchanges::bit_transpose`] puts bit `7 - b` of a byte in byte `b` of its
    /// lane (otherwise bit `b`).
    const REVERSED: bool;

    /// One register from `BYTES` bytes.
    fn load(t: Self::Token, b: &[u8]) -> Self;
    /// One register to `BYTES` bytes.
    fn store(self, b: &mut [u8]);
    /// Exchanges the pair bit with the byte-in-lane bit worth `D` bytes (`D` is 1, 2 or 4):
    /// the first register keeps the bytes whose bit is clear from both, the second those
    /// whose bit is set.
    fn byte_exchange<const D: usize>(x: Self, y: Self) -> (Self, Self);
    /// Swaps, in every 64-bit lane, the bit-in-byte and byte-in-lane address bits.
    fn bit_transpose(self) -> Self;
    /// Exchanges the pair bit with bit 0 of the 64-bit lane number.
    fn qword_exchange(x: Self, y: Self) -> (Self, Self);
    /// Exchanges the pair bit with bit 1 of the 64-bit lane number.
    fn pair_exchange(x: Self, y: Self) -> (Self, Self);
}

/// What [`unslice`] XORs the blocks with as it stores them.
#[derive(Copy, Clone)]
pub(in crate::ublock) enum XorWith<'a> {
    Nothing,
    /// What `dst` held (CTR: the keystream onto the data).
    Output,
    /// These bytes, as long as `dst` (CBC decryption: the ciphertext one block back).
    Bytes(&'a [u8]),
}

/// Every register pair `r[m]`, `r[m + D]` (`m & D == 0`) through `f`.
#[inline(always)]
fn pairs<L: Copy, const N: usize, const D: usize>(r: &mut [L; N], f: impl Fn(L, L) -> (L, L)) {
    for m in 0..N {
        if m & D == 0 && m + D < N {
            (r[m], r[m + D]) = f(r[m], r[m + D]);
        }
    }
}

/// All three byte-in-lane bits against register bits 1, 2 and 4 of `r`'s index.
#[inline(always)]
fn bytes_exchange<L: Exchanges, const N: usize>(r: &mut [L; N]) {
    pairs::<L, N, 1>(r, L::byte_exchange::<1>);
    pairs::<L, N, 2>(r, L::byte_exchange::<2>);
    pairs::<L, N, 4>(r, L::byte_exchange::<4>);
}

/// Pass A on `NA` registers of whole blocks; `INVERSE` runs its steps backwards.
#[inline(always)]
fn pass_a<L: Exchanges, const NA: usize, const INVERSE: bool>(r: &mut [L; NA]) {
    if INVERSE && NA == 16 {
        pairs::<L, NA, 8>(r, L::pair_exchange);
    }
    if INVERSE {
        for x in r.iter_mut() {
            *x = x.bit_transpose();
        }
    }
    bytes_exchange(r);
    if !INVERSE {
        for x in r.iter_mut() {
            *x = x.bit_transpose();
        }
    }
    if !INVERSE && NA == 16 {
        pairs::<L, NA, 8>(r, L::pair_exchange);
    }
}

/// Pass B on 16 registers; its own inverse.
#[inline(always)]
fn pass_b<L: Exchanges>(r: &mut [L; 16]) {
    bytes_exchange(r);
    pairs::<L, 16, 8>(r, L::qword_exchange);
}

/// Register of the sliced state for pass B's group `m` (the register bits pass A set: the
/// byte bits `k % 8`, and `k / 16`) and position `g` in the group (the bit number in bits
/// 0..2, possibly reversed, and `k / 8 % 2` in bit 3).
#[inline(always)]
fn sliced_index<L: Exchanges>(m: usize, g: usize) -> usize {
    let k = (m % 8) + 8 * (g / 8) + 16 * (m / 8);
    let t = if L::REVERSED { 7 - g % 8 } else { g % 8 };
    8 * k + t
}

/// Blocks of `NA` registers per group through pass A into `mid`, then pass B into `s`.
#[inline(always)]
fn slice_groups<L: Exchanges, const NA: usize>(src: &[u8], s: &mut Sliced<L>, mid: &mut Sliced<L>) {
    let w = L::BYTES;
    let t = s[0].token();
    for (group, chunk) in src.chunks_exact(w * NA).take(16).enumerate() {
        let mut r = [L::splat(t, 0); NA];
        for (x, b) in r.iter_mut().zip(chunk.chunks_exact(w)) {
            *x = L::load(t, b);
        }
        pass_a::<L, NA, false>(&mut r);
        mid[NA * group..NA * group + NA].copy_from_slice(&r);
    }
    for m in 0..NA {
        let mut r = [L::splat(t, 0); 16];
        for (g, x) in r.iter_mut().enumerate() {
            *x = mid[NA * g + m];
        }
        pass_b(&mut r);
        for (g, x) in r.iter().enumerate() {
            s[sliced_index::<L>(m, g)] = *x;
        }
    }
}

/// The inverse of [`slice_groups`].
#[inline(always)]
fn unslice_groups<L: Exchanges, const NA: usize>(
    s: &Sliced<L>,
    dst: &mut [u8],
    mid: &mut Sliced<L>,
    xor: XorWith,
) {
    let w = L::BYTES;
    let t = s[0].token();
    for m in 0..NA {
        let mut r = [L::splat(t, 0); 16];
        for (g, x) in r.iter_mut().enumerate() {
            *x = s[sliced_index::<L>(m, g)];
        }
        pass_b(&mut r);
        for (g, x) in r.iter().enumerate() {
            mid[NA * g + m] = *x;
        }
    }
    for (group, chunk) in dst.chunks_exact_mut(w * NA).take(16).enumerate() {
        let mut r = [L::splat(t, 0); NA];
        r.copy_from_slice(&mid[NA * group..NA * group + NA]);
        pass_a::<L, NA, true>(&mut r);
        for (i, (x, b)) in r.iter().zip(chunk.chunks_exact_mut(w)).enumerate() {
            let y = match xor {
                XorWith::Nothing => *x,
                XorWith::Output => x.xor(L::load(t, b)),
                XorWith::Bytes(src) => x.xor(L::load(t, &src[w * (NA * group + i)..])),
            };
            y.store(b);
        }
    }
}

/// One batch of whole blocks from `src` into `s`; `mid` is left holding data of the batch.
#[inline(always)]
pub(in crate::ublock) fn slice<L: Exchanges, V: Variant>(
    src: &[u8],
    s: &mut Sliced<L>,
    mid: &mut Sliced<L>,
) {
    if V::BLOCK == 16 {
        slice_groups::<L, 8>(src, s, mid);
    } else {
        slice_groups::<L, 16>(src, s, mid);
    }
}

/// The inverse of [`slice()`], each block XORed with what `xor` says as it is stored.
#[inline(always)]
pub(in crate::ublock) fn unslice<L: Exchanges, V: Variant>(
    s: &Sliced<L>,
    dst: &mut [u8],
    mid: &mut Sliced<L>,
    xor: XorWith,
) {
    if V::BLOCK == 16 {
        unslice_groups::<L, 8>(s, dst, mid, xor);
    } else {
        unslice_groups::<L, 16>(s, dst, mid, xor);
    }
}
