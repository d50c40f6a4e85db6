//! T-table AES: NOT constant time, kept only as a speed reference.
//!
//! The classic 32-bit construction: a round of SubBytes, ShiftRows, MixColumns and
//! AddRoundKey is, per output column, four lookups in the tables `TE[0..4]` (256 words
//! each, the S-box output times the MixColumns column, rotated by row) XORed with a round-key
//! word; the last round, without MixColumns, looks up the S-box bytes. Decryption is the
//! equivalent inverse cipher (FIPS 197, 5.3.5) on `TD[0..4]` (InvMixColumns times the inverse
//! S-box) with the InvMixColumns-transformed round keys the key schedule keeps, and the
//! inverse S-box for its last round. The tables are computed at compile time from the field
//! arithmetic.
//!
//! Every lookup is indexed by a byte of key-dependent state, so the cache lines a call
//! touches depend on key and data: this backend is secret-indexed, NOT constant time,
//! exists only with the cargo feature `table-backends`, and is never chosen automatically
//! nor through `VECRYPT_BACKEND`. It is here for speed comparisons (the table column next to
//! AES-NI) and as a canary of the constant-time checks.
//!
//! Words are little-endian: word `c` of a block is its column `c`, byte `r` of the word the
//! row `r`. Blocks run four at a time, round by round.

use super::common::RoundKeys;

/// Product in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1.
const fn mul(mut a: u8, mut b: u8) -> u8 {
    let mut p = 0;
    while b != 0 {
        if b & 1 == 1 {
            p ^= a;
        }
        a = (a << 1) ^ if a & 0x80 != 0 { 0x1b } else { 0 };
        b >>= 1;
    }
    p
}

/// The S-box and its inverse: the multiplicative inverse (0 for 0), then the affine map.
const fn sboxes() -> ([u8; 256], [u8; 256]) {
    let mut s = [0u8; 256];
    let mut inv = [0u8; 256];
    // Walk the field by powers of the generator 3: p = 3^i, q = 3^(255 - i) = p⁻¹.
    let mut log_inverse = [0u8; 256];
    let mut p = 1u8;
    let mut i = 0;
    while i < 255 {
        log_inverse[p as usize] = i as u8;
        p = mul(p, 3);
        i += 1;
    }
    let mut x = 0;
    while x < 256 {
        let y = if x == 0 {
            0
        } else {
            let mut q = 1u8;
            let mut n = (255 - log_inverse[x] as usize) % 255;
            while n > 0 {
                q = mul(q, 3);
                n -= 1;
            }
            q
        };
        let v =
            y ^ y.rotate_left(1) ^ y.rotate_left(2) ^ y.rotate_left(3) ^ y.rotate_left(4) ^ 0x63;
        s[x] = v;
        inv[v as usize] = x as u8;
        x += 1;
    }
    (s, inv)
}

const SBOXES: ([u8; 256], [u8; 256]) = sboxes();
/// SubBytes, for the last encryption round.
static SBOX: [u8; 256] = SBOXES.0;
/// InvSubBytes, for the last decryption round.
static INV_SBOX: [u8; 256] = SBOXES.1;

/// `t[r][x]`: the column that a byte `x` in row `r` contributes after the S-box `sbox` and
/// the column multiplication by `coeffs` (the matrix's first column, top to bottom).
const fn t_tables(sbox: &[u8; 256], coeffs: [u8; 4]) -> [[u32; 256]; 4] {
    let mut t = [[0u32; 256]; 4];
    let mut x = 0;
    while x < 256 {
        let s = sbox[x];
        let w = u32::from_le_bytes([
            mul(s, coeffs[0]),
            mul(s, coeffs[1]),
            mul(s, coeffs[2]),
            mul(s, coeffs[3]),
        ]);
        let mut r = 0;
        while r < 4 {
            t[r][x] = w.rotate_left(8 * r as u32);
            r += 1;
        }
        x += 1;
    }
    t
}

/// Te0..Te3: S-box then MixColumns (2, 1, 1, 3).
static TE: [[u32; 256]; 4] = t_tables(&SBOXES.0, [2, 1, 1, 3]);
/// Td0..Td3: inverse S-box then InvMixColumns (14, 9, 13, 11).
static TD: [[u32; 256]; 4] = t_tables(&SBOXES.1, [14, 9, 13, 11]);

type State = [u32; 4];
/// Round keys as words, 15 of them for every key size.
type Words = [[u32; 4]; 15];

/// Byte `r` of `w`, as an index.
#[inline(always)]
fn byte(w: u32, r: usize) -> usize {
    usize::from((w >> (8 * r)) as u8)
}

/// A full round: output column `c` takes row `r` from column `c + step·r`, through the
/// tables `t`, and the round key.
#[inline(always)]
fn round(t: &[[u32; 256]; 4], step: usize, s: &State, k: &[u32; 4]) -> State {
    let col = |c: usize| {
        t[0][byte(s[c], 0)]
            ^ t[1][byte(s[(c + step) % 4], 1)]
            ^ t[2][byte(s[(c + 2 * step) % 4], 2)]
            ^ t[3][byte(s[(c + 3 * step) % 4], 3)]
            ^ k[c]
    };
    [col(0), col(1), col(2), col(3)]
}

/// The last round: S-box bytes, shifted as in [`round`], and the round key.
#[inline(always)]
fn last(sbox: &[u8; 256], step: usize, s: &State, k: &[u32; 4]) -> State {
    let col = |c: usize| {
        u32::from_le_bytes([
            sbox[byte(s[c], 0)],
            sbox[byte(s[(c + step) % 4], 1)],
            sbox[byte(s[(c + 2 * step) % 4], 2)],
            sbox[byte(s[(c + 3 * step) % 4], 3)],
        ]) ^ k[c]
    };
    [col(0), col(1), col(2), col(3)]
}

#[inline(always)]
fn load(bytes: &[u8], k: &[u32; 4]) -> State {
    core::array::from_fn(|c| {
        let w = bytes.get(4 * c..4 * c + 4).and_then(|w| w.try_into().ok());
        u32::from_le_bytes(w.unwrap_or([0; 4])) ^ k[c]
    })
}

#[inline(always)]
fn store(s: &State, bytes: &mut [u8]) {
    for (c, w) in s.iter().enumerate() {
        bytes[4 * c..4 * c + 4].copy_from_slice(&w.to_le_bytes());
    }
}

fn words(keys: &[[u8; 16]; 15]) -> Words {
    keys.map(|k| {
        core::array::from_fn(|c| {
            u32::from_le_bytes([k[4 * c], k[4 * c + 1], k[4 * c + 2], k[4 * c + 3]])
        })
    })
}

/// The whole cipher over whole blocks, with the tables and row step of one direction:
/// four blocks at a time, round by round, then one by one.
#[inline(always)]
fn run(
    t: &[[u32; 256]; 4],
    sbox: &[u8; 256],
    step: usize,
    keys: &[[u8; 16]; 15],
    rounds: usize,
    buf: &mut [u8],
) {
    let mut w = words(keys);
    let nr = rounds.clamp(1, 14);
    let (first, middle, final_key) = (&w[0], &w[1..nr], &w[nr]);
    let (groups, rest) = buf.as_chunks_mut::<64>();
    for group in groups {
        let mut s: [State; 4] = core::array::from_fn(|i| load(&group[16 * i..], first));
        for k in middle {
            // Written out block by block, so that the four rounds are straight-line code
            // the CPU overlaps.
            s = [
                round(t, step, &s[0], k),
                round(t, step, &s[1], k),
                round(t, step, &s[2], k),
                round(t, step, &s[3], k),
            ];
        }
        for (i, x) in s.iter().enumerate() {
            store(&last(sbox, step, x, final_key), &mut group[16 * i..]);
        }
    }
    for block in rest.chunks_exact_mut(16) {
        let mut s = load(block, first);
        for k in middle {
            s = round(t, step, &s, k);
        }
        store(&last(sbox, step, &s, final_key), block);
    }
    crate::wipe::value(&mut w);
}

/// Encrypts whole blocks in place, through secret-indexed tables.
pub(crate) fn encrypt_blocks(rk: &RoundKeys, buf: &mut [u8]) {
    run(&TE, &SBOX, 1, &rk.enc, rk.rounds, buf);
}

/// Decrypts whole blocks in place, through secret-indexed tables (the equivalent inverse
/// cipher: InvShiftRows takes row `r` from column `c - r`, that is `c + 3r`).
pub(crate) fn decrypt_blocks(rk: &RoundKeys, buf: &mut [u8]) {
    run(&TD, &INV_SBOX, 3, &rk.dec, rk.rounds, buf);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The S-box of FIPS 197 at a few points, and the inverse as its inverse.
    #[test]
    fn sboxes_match_fips_197() {
        assert_eq!(
            [SBOX[0x00], SBOX[0x01], SBOX[0x53], SBOX[0xff]],
            [0x63, 0x7c, 0xed, 0x16]
        );
        for x in 0..=255u8 {
            assert_eq!(INV_SBOX[usize::from(SBOX[usize::from(x)])], x);
        }
    }

    /// FIPS 197, Appendix C, for the three key sizes, both directions.
    #[test]
    fn fips_197_appendix_c() {
        let pt: Vec<u8> = (0..16u8).map(|i| i * 0x11).collect();
        for (key_len, rounds, ct) in [
            (16, 10, "69c4e0d86a7b0430d8cdb78070b4c55a"),
            (24, 12, "dda97ca4864cdfe06eaf70a0ec0d7191"),
            (32, 14, "8ea2b7ca516745bfeafc49904b496089"),
        ] {
            let key: Vec<u8> = (0..key_len as u8).collect();
            let rk = super::super::key_schedule::expand(&key, rounds);
            // Five blocks: one group of four and one alone.
            let mut buf = pt.repeat(5);
            encrypt_blocks(&rk, &mut buf);
            for block in buf.chunks(16) {
                assert_eq!(hex::encode(block), ct, "aes-{}", 8 * key_len);
            }
            decrypt_blocks(&rk, &mut buf);
            assert_eq!(buf, pt.repeat(5));
        }
    }
}
