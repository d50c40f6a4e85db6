//! Bitsliced Kuznyechik: the portable throughput path of the `soft` backend.
//!
//! A batch holds one block per bit lane of a machine word ([`Word`]: `u64` on 64-bit
//! targets and wasm32, `u32` elsewhere), in 128 words: word `8k + b` holds bit `b` of
//! memory byte `k` of every block. On x86-64 and AArch64 a batch of more than 64 blocks
//! runs on [`Pair`]s of `u64` (128 blocks), which the compiler may keep in vector registers.
//! The state goes in and out by transposing square bit matrices. In that form every round
//! is a fixed sequence of word operations with no branch and no memory address that
//! depends on key or data:
//! - the round key is XORed as 128 masks of all ones or all zeros;
//! - S runs the Boolean circuit of π (or π⁻¹) on the eight words of each byte position
//!   ([`gates`], 232 and 174 gates);
//! - L is sixteen R steps on the sixteen byte slots kept in a ring, so that a step writes
//!   one slot and moves none: the step's ℓ adds the seven pairs of bytes whose
//!   coefficients match (the coefficients read the same backwards), then the seven products
//!   by constants as one XOR network of 103 gates ([`gates::ell`]), 175 XORs in all. L⁻¹ is
//!   the same step with the ring turning the other way.
//!
//! Cost per batch and round: 16 · 232 + 16 · 175 + 128 = 6640 word operations for
//! encryption (16 · 174 for π⁻¹ in decryption), about 60,000 per batch with the
//! transpositions: some 58 operations per byte with 64-bit words, 29 with pairs (measured
//! speeds in `docs/perf/kuznyechik.md`). On the Cortex-M4 (32 blocks per batch) ECB takes
//! 5,308 instructions per block.

pub(super) mod gates;

use core::ops::{BitAnd, BitOr, BitXor, Not, Shl, Shr};

use super::RoundKeys;

/// A word of bit lanes, one block per lane: what the rounds compute on.
pub(super) trait Lane:
    Copy
    + Default
    + BitXor<Output = Self>
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
{
    /// All ones when `bit` is 1, zero when it is 0 (`bit` is 0 or 1).
    fn mask(bit: u8) -> Self;
}

/// A machine word of lanes, which also loads and transposes blocks.
pub(super) trait Row: Lane + Shl<u32, Output = Self> + Shr<u32, Output = Self> {
    /// Lanes per word.
    const LANES: usize;
    /// The word of the little-endian bytes at the start of `b`.
    fn load(b: &[u8]) -> Self;
    /// Writes the word as little-endian bytes at the start of `b`.
    fn store(self, b: &mut [u8]);
    /// The low bits of `v`.
    fn truncate(v: u64) -> Self;
    /// The word as a `u64`.
    fn widen(self) -> u64;
}

macro_rules! row {
    ($t:ty) => {
        impl Lane for $t {
            #[inline(always)]
            fn mask(bit: u8) -> Self {
                <$t>::from(bit).wrapping_neg()
            }
        }

        impl Row for $t {
            const LANES: usize = <$t>::BITS as usize;
            #[inline(always)]
            fn load(b: &[u8]) -> Self {
                <$t>::from_le_bytes(
                    b[..core::mem::size_of::<Self>()]
                        .try_into()
                        .expect("word bytes"),
                )
            }
            #[inline(always)]
            fn store(self, b: &mut [u8]) {
                b[..core::mem::size_of::<Self>()].copy_from_slice(&self.to_le_bytes());
            }
            #[inline(always)]
            fn truncate(v: u64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn widen(self) -> u64 {
                self.into()
            }
        }
    };
}

row!(u64);
row!(u32);

/// Two `u64` of lanes side by side, 128 blocks: written element by element, so that the
/// compiler can keep each pair in one 128-bit vector register where the target has them
/// (SSE2 on x86-64, Advanced SIMD on AArch64) and in two registers elsewhere.
#[derive(Clone, Copy, Default)]
#[repr(align(16))]
pub(super) struct Pair([u64; 2]);

macro_rules! pair_op {
    ($tr:ident, $f:ident, $op:tt) => {
        impl $tr for Pair {
            type Output = Pair;
            #[inline(always)]
            fn $f(self, o: Pair) -> Pair {
                Pair([self.0[0] $op o.0[0], self.0[1] $op o.0[1]])
            }
        }
    };
}

pair_op!(BitXor, bitxor, ^);
pair_op!(BitAnd, bitand, &);
pair_op!(BitOr, bitor, |);

impl Not for Pair {
    type Output = Pair;
    #[inline(always)]
    fn not(self) -> Pair {
        Pair([!self.0[0], !self.0[1]])
    }
}

impl Lane for Pair {
    #[inline(always)]
    fn mask(bit: u8) -> Self {
        let m = u64::mask(bit);
        Pair([m, m])
    }
}

/// The word of this target: 64-bit where the machine has 64-bit registers, 32-bit elsewhere.
#[cfg(any(target_pointer_width = "64", target_arch = "wasm32"))]
pub(super) type Word = u64;
/// The word of this target: 64-bit where the machine has 64-bit registers, 32-bit elsewhere.
#[cfg(not(any(target_pointer_width = "64", target_arch = "wasm32")))]
pub(super) type Word = u32;

/// The state of a batch: sixteen byte slots of eight bit slices.
type State<W> = [[W; 8]; 16];

/// Transposes the square bit matrix `rows` (`W::LANES` words) in place: bit `j` of row `i`
/// goes to bit `i` of row `j`.
#[inline(always)]
fn transpose<W: Row>(rows: &mut [W]) {
    // For each distance d, the mask of the low d bits of every group of 2d.
    const MASKS: [(u32, u64); 6] = [
        (32, 0x0000_0000_ffff_ffff),
        (16, 0x0000_ffff_0000_ffff),
        (8, 0x00ff_00ff_00ff_00ff),
        (4, 0x0f0f_0f0f_0f0f_0f0f),
        (2, 0x3333_3333_3333_3333),
        (1, 0x5555_5555_5555_5555),
    ];
    for (d, m) in MASKS {
        let d = d as usize;
        if d >= W::LANES {
            continue;
        }
        let m = W::truncate(m);
        for k in 0..W::LANES {
            if k & d == 0 {
                // Swap bits d.. of each 2d group of row k with bits ..d of row k + d.
                let t = ((rows[k] >> d as u32) ^ rows[k + d]) & m;
                rows[k] = rows[k] ^ (t << d as u32);
                rows[k + d] = rows[k + d] ^ t;
            }
        }
    }
}

/// Loads up to `W::LANES` blocks (the rest of the lanes zero) into sliced form.
#[inline(always)]
fn load<W: Row>(blocks: &[u8]) -> State<W> {
    let mut flat = [W::default(); 128];
    let chunk = W::LANES / 8;
    for (i, block) in blocks.chunks_exact(16).enumerate() {
        for (c, bytes) in block.chunks_exact(chunk).enumerate() {
            flat[c * W::LANES + i] = W::load(bytes);
        }
    }
    for rows in flat.chunks_exact_mut(W::LANES) {
        transpose(rows);
    }
    let mut s = [[W::default(); 8]; 16];
    for (slot, bits) in s.iter_mut().zip(flat.chunks_exact(8)) {
        slot.copy_from_slice(bits);
    }
    crate::wipe::set(&mut flat, [W::default(); 128]);
    s
}

/// Writes the blocks of the lanes back, as many as `blocks` holds.
#[inline(always)]
fn store<W: Row>(s: &State<W>, blocks: &mut [u8]) {
    let mut flat = [W::default(); 128];
    for (bits, slot) in flat.chunks_exact_mut(8).zip(s) {
        bits.copy_from_slice(slot);
    }
    for rows in flat.chunks_exact_mut(W::LANES) {
        transpose(rows);
    }
    let chunk = W::LANES / 8;
    for (i, block) in blocks.chunks_exact_mut(16).enumerate() {
        for (c, bytes) in block.chunks_exact_mut(chunk).enumerate() {
            flat[c * W::LANES + i].store(bytes);
        }
    }
    crate::wipe::set(&mut flat, [W::default(); 128]);
}

/// XORs a round key into every lane.
#[inline(always)]
fn add_key<W: Lane>(s: &mut State<W>, key: &[u8; 16]) {
    let mut masks = [[W::default(); 8]; 16];
    for (slot, byte) in masks.iter_mut().zip(key) {
        for (b, m) in slot.iter_mut().enumerate() {
            *m = W::mask((byte >> b) & 1);
        }
    }
    // The masks go through `black_box` as a whole, so that the compiler cannot see that
    // they are all ones or all zeros and turn an XOR into a branch on a key bit.
    core::hint::black_box(&mut masks);
    for (slot, m) in s.iter_mut().zip(&masks) {
        for (w, m) in slot.iter_mut().zip(m) {
            *w = *w ^ *m;
        }
    }
    crate::wipe::set(&mut masks, [[W::default(); 8]; 16]);
}

/// π, or π⁻¹, on every byte slot.
#[inline(always)]
fn substitute<W: Lane>(s: &mut State<W>, inverse: bool) {
    for slot in s.iter_mut() {
        *slot = if inverse {
            gates::pi_inv(*slot)
        } else {
            gates::pi(*slot)
        };
    }
}

#[inline(always)]
fn xor8<W: Lane>(a: [W; 8], b: [W; 8]) -> [W; 8] {
    core::array::from_fn(|i| a[i] ^ b[i])
}

/// One R step on the ring: ℓ of the bytes in slots `base, base + 1, ..` (mod 16), written
/// into the last of them. R with `base` turning down from 0 is R; R⁻¹ with `base` turning
/// up from 1.
#[inline(always)]
fn r_step<W: Lane>(s: &mut State<W>, base: usize) {
    let at = |k: usize| s[(base + k) & 15];
    let mut p = [[W::default(); 8]; 7];
    for (k, pk) in p.iter_mut().enumerate().take(6) {
        *pk = xor8(at(k), at(14 - k));
    }
    p[6] = at(7);
    let t = xor8(xor8(gates::ell(&p), xor8(at(6), at(8))), at(15));
    s[(base + 15) & 15] = t;
}

/// L, or L⁻¹, as sixteen R steps.
#[inline(always)]
fn linear<W: Lane>(s: &mut State<W>, inverse: bool) {
    for t in 0..16 {
        let base = if inverse { t + 1 } else { 16 - t };
        r_step(s, base & 15);
    }
}

/// The rounds of encryption on a batch.
#[inline(always)]
fn encrypt_rounds<W: Lane>(rk: &RoundKeys, s: &mut State<W>) {
    for k in &rk.0[..9] {
        add_key(s, k);
        substitute(s, false);
        linear(s, false);
    }
    add_key(s, &rk.0[9]);
}

/// The rounds of decryption on a batch.
#[inline(always)]
fn decrypt_rounds<W: Lane>(rk: &RoundKeys, s: &mut State<W>) {
    add_key(s, &rk.0[9]);
    for k in rk.0[..9].iter().rev() {
        linear(s, true);
        substitute(s, true);
        add_key(s, k);
    }
}

/// The rounds of one direction.
type Rounds<W> = fn(&RoundKeys, &mut State<W>);

/// Runs the blocks of `blocks` (at most `W::LANES`) through `rounds` in one batch.
#[inline(always)]
fn batch<W: Row>(rk: &RoundKeys, blocks: &mut [u8], rounds: Rounds<W>) {
    let mut s = load::<W>(blocks);
    rounds(rk, &mut s);
    store(&s, blocks);
    crate::wipe::set(&mut s, [[W::default(); 8]; 16]);
}

/// Runs the blocks of `blocks` (at most 128) through `rounds` in one batch of [`Pair`]s.
#[inline(always)]
fn wide_batch(rk: &RoundKeys, blocks: &mut [u8], rounds: Rounds<Pair>) {
    let (low, high) = blocks.split_at_mut(blocks.len().min(16 * 64));
    let (mut a, mut b) = (load::<u64>(low), load::<u64>(high));
    let mut s: State<Pair> =
        core::array::from_fn(|k| core::array::from_fn(|i| Pair([a[k][i], b[k][i]])));
    rounds(rk, &mut s);
    for ((sa, sb), sp) in a.iter_mut().zip(b.iter_mut()).zip(&s) {
        for ((wa, wb), p) in sa.iter_mut().zip(sb.iter_mut()).zip(sp) {
            (*wa, *wb) = (p.0[0], p.0[1]);
        }
    }
    store(&a, low);
    store(&b, high);
    crate::wipe::set(&mut s, [[Pair::default(); 8]; 16]);
    crate::wipe::set(&mut a, [[0; 8]; 16]);
    crate::wipe::set(&mut b, [[0; 8]; 16]);
}

/// Whether batches run on [`Pair`]s: on targets whose baseline has 128-bit vector
/// registers.
const WIDE: bool = cfg!(any(target_arch = "x86_64", target_arch = "aarch64"));

/// Blocks per batch on this target.
pub(super) const BLOCKS: usize = if WIDE { 128 } else { Word::LANES };

/// Runs whole blocks through the rounds, [`BLOCKS`] at a time; a shorter last batch runs
/// with its other lanes empty (on a narrower word when it fits one).
#[inline(always)]
fn batches(rk: &RoundKeys, buf: &mut [u8], narrow: Rounds<Word>, wide: Rounds<Pair>) {
    for chunk in buf.chunks_mut(16 * BLOCKS) {
        if WIDE && chunk.len() > 16 * Word::LANES {
            wide_batch(rk, chunk, wide);
        } else {
            batch::<Word>(rk, chunk, narrow);
        }
    }
}

/// Encrypts whole blocks in place.
pub(super) fn encrypt(rk: &RoundKeys, buf: &mut [u8]) {
    batches(rk, buf, encrypt_rounds, encrypt_rounds);
}

/// Decrypts whole blocks in place.
pub(super) fn decrypt(rk: &RoundKeys, buf: &mut [u8]) {
    batches(rk, buf, decrypt_rounds, decrypt_rounds);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpose_moves_bit_j_of_row_i_to_bit_i_of_row_j() {
        let mut state = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state
        };
        let rows: [u64; 64] = core::array::from_fn(|_| next());
        let mut t = rows;
        transpose(&mut t);
        let rows32: [u32; 32] = core::array::from_fn(|i| rows[i] as u32);
        let mut t32 = rows32;
        transpose(&mut t32);
        for i in 0..64 {
            for j in 0..64 {
                assert_eq!((rows[i] >> j) & 1, (t[j] >> i) & 1);
                if i < 32 && j < 32 {
                    assert_eq!((rows32[i] >> j) & 1, (t32[j] >> i) & 1);
                }
            }
        }
    }

    /// Batches of both word widths, full and partial, against the one-block path.
    #[test]
    fn batches_match_one_block_path() {
        let key: [u8; 32] = core::array::from_fn(|i| (i * 37 + 5) as u8);
        let c = crate::kuznyechik::Kuznyechik::with_backend(&key, crate::Backend::Soft).unwrap();
        let rk = &c.rk;
        let data: Vec<u8> = (0..128 * 16).map(|i| (i * 131 + 7) as u8).collect();
        for n in [1, 2, 31, 32, 33, 63, 64, 65, 127, 128] {
            let mut want = data[..16 * n].to_vec();
            for block in want.chunks_exact_mut(16) {
                super::super::soft::encrypt_one(rk, block);
            }
            let mut wide = data[..16 * n].to_vec();
            wide_batch(rk, &mut wide, encrypt_rounds);
            assert_eq!(wide, want, "pairs, {n} blocks");
            wide_batch(rk, &mut wide, decrypt_rounds);
            assert_eq!(wide, &data[..16 * n], "pairs decryption, {n} blocks");
            for (part, want) in data[..16 * n].chunks(16 * 64).zip(want.chunks(16 * 64)) {
                let mut got64 = part.to_vec();
                batch::<u64>(rk, &mut got64, encrypt_rounds);
                assert_eq!(got64, want, "u64, {n} blocks");
                batch::<u64>(rk, &mut got64, decrypt_rounds);
                assert_eq!(got64, part, "u64 decryption, {n} blocks");
            }
            for (half, want) in data[..16 * n].chunks(16 * 32).zip(want.chunks(16 * 32)) {
                let mut got32 = half.to_vec();
                batch::<u32>(rk, &mut got32, encrypt_rounds);
                assert_eq!(got32, want, "u32, {n} blocks");
                batch::<u32>(rk, &mut got32, decrypt_rounds);
                assert_eq!(got32, half, "u32 decryption, {n} blocks");
            }
        }
    }
}
