//! Table-driven Kuznyechik: NOT constant time, kept only as a speed reference.
//!
//! The classic construction: a round `X[K]·S·L` is, for a state of sixteen bytes, the XOR of
//! sixteen table entries, entry `T[k][b]` being L(S(block with byte k = b, zero elsewhere)).
//! The sixteen tables of 256 entries of 16 bytes make 64 KiB, built at compile time from
//! the S-box and the columns of L. Every lookup is indexed by a byte of key-dependent
//! state, so the cache footprint of a call depends on key and data: this backend is
//! secret-indexed, NOT constant time, exists only with the cargo feature `table-backends`,
//! and is never chosen automatically nor through `VECRYPT_BACKEND`. It is here for speed
//! comparisons and as a canary of the constant-time checks.
//!
//! Decryption runs the inverse rounds L⁻¹ then S⁻¹ with the key addition moved across L⁻¹:
//! after a first L⁻¹ (an S lookup per byte, then the inverse table, whose entries are
//! L⁻¹(S⁻¹(byte))), each middle round is one pass through the inverse tables and the
//! round key L⁻¹(K_i); a last S⁻¹ per byte and K_1 end it.
//!
//! Blocks are processed four at a time, round by round, so that the lookups of independent
//! blocks overlap. On x86-64 a pass XORs the entries in SSE2 registers, one aligned load
//! each (`x86/table_leaky.rs`); elsewhere in pairs of 64-bit words.
//!
//! This backend is secret-indexed: NOT constant time, for comparison only (its measured
//! speed against the `kuznyechik` crate is in `docs/perf/kuznyechik.md`). CTR makes its
//! counter blocks in registers rather than through the generic batch of counters.

use super::RoundKeys;
use super::consts::{L_COLUMNS, L_INV_COLUMNS, PI, PI_INV};

/// A block as two little-endian words of its memory bytes 0..8 and 8..16.
pub(super) type Block = [u64; 2];

/// One table entry: a block, aligned so that a vector register loads it whole.
#[derive(Copy, Clone)]
#[repr(C, align(16))]
pub(super) struct Entry(pub(super) Block);

/// Sixteen tables of 256 entries, one per byte position.
#[repr(C, align(64))]
pub(super) struct Tables(pub(super) [[Entry; 256]; 16]);

/// `columns` (a linear map, by the images of the bits of the big-endian block integer)
/// applied to every byte value at every position, after `sbox`.
const fn build(columns: &[u128; 128], sbox: &[u8; 256]) -> Tables {
    let mut t = [[Entry([0u64; 2]); 256]; 16];
    let mut k = 0;
    while k < 16 {
        // Byte k of the block holds bits 8(15-k)..8(15-k)+8 of its big-endian integer.
        let mut b = 0;
        while b < 256 {
            let v = sbox[b];
            let mut image = 0u128;
            let mut i = 0;
            while i < 8 {
                if (v >> i) & 1 == 1 {
                    image ^= columns[8 * (15 - k) + i];
                }
                i += 1;
            }
            let bytes = image.to_be_bytes();
            let (lo, hi) = bytes.split_at(8);
            t[k][b] = Entry([
                u64::from_le_bytes(*lo.first_chunk().expect("8 bytes")),
                u64::from_le_bytes(*hi.first_chunk().expect("8 bytes")),
            ]);
            b += 1;
        }
        k += 1;
    }
    Tables(t)
}

/// `T[k][b]` = L(S(b at byte k)).
static FORWARD: Tables = build(&L_COLUMNS, &PI);
/// `T[k][b]` = L⁻¹(S⁻¹(b at byte k)).
static INVERSE: Tables = build(&L_INV_COLUMNS, &PI_INV);

/// Blocks per interleaved group.
const LANES: usize = 4;

#[inline(always)]
fn load(bytes: &[u8]) -> Block {
    let word = |i: usize| bytes.get(i..i + 8).and_then(|w| w.try_into().ok());
    [
        u64::from_le_bytes(word(0).unwrap_or([0; 8])),
        u64::from_le_bytes(word(8).unwrap_or([0; 8])),
    ]
}

#[inline(always)]
fn store(x: Block, bytes: &mut [u8]) {
    bytes[..8].copy_from_slice(&x[0].to_le_bytes());
    bytes[8..16].copy_from_slice(&x[1].to_le_bytes());
}

/// One table round: the XOR of the sixteen entries the state bytes select, and `key`; on
/// x86-64, in vector registers.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn round(t: &Tables, x: Block, key: Block) -> Block {
    super::x86::table_leaky::pass(t, x, key)
}

/// One table round: the XOR of the sixteen entries the state bytes select, and `key`.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn round(t: &Tables, x: Block, key: Block) -> Block {
    let mut acc = key;
    for (half, word) in x.iter().enumerate() {
        for j in 0..8 {
            let e = &t.0[8 * half + j][usize::from((word >> (8 * j)) as u8)].0;
            acc[0] ^= e[0];
            acc[1] ^= e[1];
        }
    }
    acc
}

/// Every byte of the state through `sbox`.
#[inline(always)]
fn substitute(sbox: &[u8; 256], x: Block) -> Block {
    x.map(|w| {
        let b = w.to_le_bytes().map(|v| sbox[usize::from(v)]);
        u64::from_le_bytes(b)
    })
}

#[inline(always)]
fn xor(a: Block, b: Block) -> Block {
    [a[0] ^ b[0], a[1] ^ b[1]]
}

/// The table passes keyed by `keys` on four blocks, round by round.
#[inline(always)]
fn rounds(t: &Tables, keys: &[Block], mut x: [Block; LANES]) -> [Block; LANES] {
    for key in keys {
        // Written out lane by lane, so that the passes of the four blocks are straight-line
        // code the CPU overlaps.
        x = [
            round(t, x[0], *key),
            round(t, x[1], *key),
            round(t, x[2], *key),
            round(t, x[3], *key),
        ];
    }
    x
}

/// Runs `first`, the table passes keyed by `keys`, and `last` on every block: four blocks
/// at a time, round by round, then one by one.
#[inline(always)]
fn run(
    t: &Tables,
    keys: &[Block],
    first: impl Fn(Block) -> Block,
    last: impl Fn(Block) -> Block,
    buf: &mut [u8],
) {
    let (groups, rest) = buf.as_chunks_mut::<{ 16 * LANES }>();
    for group in groups {
        let x: [Block; LANES] = core::array::from_fn(|i| first(load(&group[16 * i..])));
        let x = rounds(t, keys, x);
        for (i, b) in x.iter().enumerate() {
            store(last(*b), &mut group[16 * i..]);
        }
    }
    for block in rest.chunks_exact_mut(16) {
        let mut x = first(load(block));
        for key in keys {
            x = round(t, x, *key);
        }
        store(last(x), block);
    }
}

/// Encrypts whole blocks in place, through secret-indexed tables: K_1 added, then nine
/// table passes keyed by K_2..K_10.
pub(super) fn encrypt_blocks(rk: &RoundKeys, buf: &mut [u8]) {
    let mut k = rk.0.map(|k| load(&k));
    let k1 = k[0];
    run(&FORWARD, &k[1..], |x| xor(x, k1), |x| x, buf);
    crate::wipe::value(&mut k);
}

/// Decrypts whole blocks in place, through secret-indexed tables: K_10 added and S applied,
/// nine inverse table passes keyed by 0, L⁻¹(K_9), .., L⁻¹(K_2), then S⁻¹ and K_1.
pub(super) fn decrypt_blocks(rk: &RoundKeys, buf: &mut [u8]) {
    let t = &INVERSE;
    let mut k = rk.0.map(|k| load(&k));
    let mut passes = [[0u64; 2]; 9];
    for (p, key) in passes[1..].iter_mut().zip(k[1..9].iter().rev()) {
        // L⁻¹(K) = L⁻¹(S⁻¹(S(K))).
        *p = round(t, substitute(&PI, *key), [0, 0]);
    }
    let (k1, k10) = (k[0], k[9]);
    run(
        t,
        &passes,
        |x| substitute(&PI, xor(x, k10)),
        |x| xor(substitute(&PI_INV, x), k1),
        buf,
    );
    crate::wipe::value(&mut k);
    crate::wipe::value(&mut passes);
}

/// CTR through the tables: the keystream of the 128-bit big-endian counter blocks
/// `counter`, `counter + 1`, ... (wrapping) XORed into `buf`, four blocks at a time, the
/// counters made in registers; a partial last block uses a whole counter. `counter` is left
/// at the next unused value.
pub(super) fn ctr(rk: &RoundKeys, counter: &mut [u8; 16], buf: &mut [u8]) {
    let t = &FORWARD;
    let mut k = rk.0.map(|k| load(&k));
    let k1 = k[0];
    let mut c = u128::from_be_bytes(*counter);
    // The counter block's memory bytes as the two little-endian words of a `Block`.
    let block = |c: u128| {
        let x = [((c >> 64) as u64).swap_bytes(), (c as u64).swap_bytes()];
        xor(x, k1)
    };
    let (groups, rest) = buf.as_chunks_mut::<{ 16 * LANES }>();
    for group in groups {
        let x = core::array::from_fn(|i| block(c.wrapping_add(i as u128)));
        c = c.wrapping_add(LANES as u128);
        for (i, ks) in rounds(t, &k[1..], x).iter().enumerate() {
            let b = &mut group[16 * i..16 * i + 16];
            store(xor(load(b), *ks), b);
        }
    }
    for piece in rest.chunks_mut(16) {
        let mut x = block(c);
        c = c.wrapping_add(1);
        for key in &k[1..] {
            x = round(t, x, *key);
        }
        let mut ks = [0u8; 16];
        store(x, &mut ks);
        for (b, s) in piece.iter_mut().zip(ks) {
            *b ^= s;
        }
        crate::wipe::value(&mut ks);
    }
    *counter = c.to_be_bytes();
    crate::wipe::value(&mut k);
}
