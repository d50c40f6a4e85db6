//! Portable constant-time AES without tables.
//!
//! The S-box is computed, not looked up: four blocks (64 bytes) are transposed into eight
//! bit planes, inverted in GF(2^8) as x^254 with plane-wise AND/XOR, passed through the affine
//! map and transposed back. ShiftRows and MixColumns work on bytes with fixed indices and
//! masked doubling. No memory index and no branch depends on key or data.

use super::common::RoundKeys;

/// Blocks handled together by one bit-sliced S-box evaluation.
const LANES: usize = 4;
const CHUNK: usize = LANES * 16;

/// Transposes the 8x8 bit matrix held in `x` (row r is byte r).
#[inline(always)]
fn transpose8(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^ t ^ (t << 28)
}

/// Plane `i` holds bit `i` of byte `j` at bit position `j`.
#[inline(always)]
fn to_planes(bytes: &[u8; CHUNK]) -> [u64; 8] {
    let mut rows = [0u64; 8];
    for (k, row) in rows.iter_mut().enumerate() {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[8 * k..8 * k + 8]);
        *row = transpose8(u64::from_le_bytes(w));
    }
    let mut planes = [0u64; 8];
    for (i, plane) in planes.iter_mut().enumerate() {
        for (k, row) in rows.iter().enumerate() {
            *plane |= ((row >> (8 * i)) & 0xff) << (8 * k);
        }
    }
    planes
}

#[inline(always)]
fn from_planes(planes: &[u64; 8], bytes: &mut [u8; CHUNK]) {
    for k in 0..8 {
        let mut row = 0u64;
        for (i, plane) in planes.iter().enumerate() {
            row |= ((plane >> (8 * k)) & 0xff) << (8 * i);
        }
        bytes[8 * k..8 * k + 8].copy_from_slice(&transpose8(row).to_le_bytes());
    }
}

/// Reduces a product of degree up to 14 modulo x^8 + x^4 + x^3 + x + 1.
#[inline(always)]
fn reduce(mut c: [u64; 15]) -> [u64; 8] {
    for k in (8..15).rev() {
        let top = c[k];
        c[k - 4] ^= top;
        c[k - 5] ^= top;
        c[k - 7] ^= top;
        c[k - 8] ^= top;
    }
    let mut out = [0u64; 8];
    out.copy_from_slice(&c[..8]);
    out
}

#[inline(always)]
fn gf_mul(a: &[u64; 8], b: &[u64; 8]) -> [u64; 8] {
    let mut c = [0u64; 15];
    for i in 0..8 {
        for j in 0..8 {
            c[i + j] ^= a[i] & b[j];
        }
    }
    reduce(c)
}

#[inline(always)]
fn gf_square(a: &[u64; 8]) -> [u64; 8] {
    let mut c = [0u64; 15];
    for i in 0..8 {
        c[2 * i] = a[i];
    }
    reduce(c)
}

/// x^254, which is x^-1 for x != 0 and 0 for 0.
#[inline(always)]
fn gf_invert(x: &[u64; 8]) -> [u64; 8] {
    let x2 = gf_square(x);
    let x3 = gf_mul(&x2, x);
    let x12 = gf_square(&gf_square(&x3));
    let x15 = gf_mul(&x12, &x3);
    let mut x240 = x15;
    for _ in 0..4 {
        x240 = gf_square(&x240);
    }
    let x252 = gf_mul(&x240, &x12);
    gf_mul(&x252, &x2)
}

#[inline(always)]
fn constant_plane(c: u8, i: usize) -> u64 {
    0u64.wrapping_sub(u64::from((c >> i) & 1))
}

fn sub_bytes(state: &mut [u8; CHUNK]) {
    let inv = gf_invert(&to_planes(state));
    let mut out = [0u64; 8];
    for (i, o) in out.iter_mut().enumerate() {
        *o = inv[i]
            ^ inv[(i + 7) % 8]
            ^ inv[(i + 6) % 8]
            ^ inv[(i + 5) % 8]
            ^ inv[(i + 4) % 8]
            ^ constant_plane(0x63, i);
    }
    from_planes(&out, state);
}

fn inv_sub_bytes(state: &mut [u8; CHUNK]) {
    let s = to_planes(state);
    let mut pre = [0u64; 8];
    for (i, p) in pre.iter_mut().enumerate() {
        *p = s[(i + 7) % 8] ^ s[(i + 5) % 8] ^ s[(i + 2) % 8] ^ constant_plane(0x05, i);
    }
    from_planes(&gf_invert(&pre), state);
}

/// The S-box of one word, for the key schedule.
pub(crate) fn sub_word(word: [u8; 4]) -> [u8; 4] {
    let mut buf = [0u8; CHUNK];
    buf[..4].copy_from_slice(&word);
    sub_bytes(&mut buf);
    [buf[0], buf[1], buf[2], buf[3]]
}

#[inline(always)]
fn xtime(x: u8) -> u8 {
    (x << 1) ^ (0u8.wrapping_sub(x >> 7) & 0x1b)
}

fn shift_rows(state: &mut [u8; CHUNK]) {
    for block in state.chunks_exact_mut(16) {
        let old: [u8; 16] = block.try_into().unwrap_or([0; 16]);
        for c in 0..4 {
            for r in 0..4 {
                block[4 * c + r] = old[4 * ((c + r) % 4) + r];
            }
        }
    }
}

fn inv_shift_rows(state: &mut [u8; CHUNK]) {
    for block in state.chunks_exact_mut(16) {
        let old: [u8; 16] = block.try_into().unwrap_or([0; 16]);
        for c in 0..4 {
            for r in 0..4 {
                block[4 * ((c + r) % 4) + r] = old[4 * c + r];
            }
        }
    }
}

fn mix_columns(state: &mut [u8; CHUNK]) {
    for col in state.chunks_exact_mut(4) {
        let (a0, a1, a2, a3) = (col[0], col[1], col[2], col[3]);
        let all = a0 ^ a1 ^ a2 ^ a3;
        col[0] = a0 ^ all ^ xtime(a0 ^ a1);
        col[1] = a1 ^ all ^ xtime(a1 ^ a2);
        col[2] = a2 ^ all ^ xtime(a2 ^ a3);
        col[3] = a3 ^ all ^ xtime(a3 ^ a0);
    }
}

fn inv_mix_columns(state: &mut [u8]) {
    for col in state.chunks_exact_mut(4) {
        let u = xtime(xtime(col[0] ^ col[2]));
        let v = xtime(xtime(col[1] ^ col[3]));
        col[0] ^= u;
        col[1] ^= v;
        col[2] ^= u;
        col[3] ^= v;
    }
    for col in state.chunks_exact_mut(4) {
        let (a0, a1, a2, a3) = (col[0], col[1], col[2], col[3]);
        let all = a0 ^ a1 ^ a2 ^ a3;
        col[0] = a0 ^ all ^ xtime(a0 ^ a1);
        col[1] = a1 ^ all ^ xtime(a1 ^ a2);
        col[2] = a2 ^ all ^ xtime(a2 ^ a3);
        col[3] = a3 ^ all ^ xtime(a3 ^ a0);
    }
}

/// InvMixColumns of one round key, for the equivalent inverse cipher's key schedule.
pub(crate) fn inv_mix_column_key(key: &mut [u8; 16]) {
    inv_mix_columns(key);
}

fn add_round_key(state: &mut [u8; CHUNK], key: &[u8; 16]) {
    for (i, b) in state.iter_mut().enumerate() {
        *b ^= key[i % 16];
    }
}

fn encrypt_chunk(rk: &RoundKeys, state: &mut [u8; CHUNK]) {
    let nr = rk.rounds;
    add_round_key(state, &rk.enc[0]);
    for key in &rk.enc[1..nr] {
        sub_bytes(state);
        shift_rows(state);
        mix_columns(state);
        add_round_key(state, key);
    }
    sub_bytes(state);
    shift_rows(state);
    add_round_key(state, &rk.enc[nr]);
}

/// The equivalent inverse cipher (FIPS 197, 5.3.5), the same shape the AES instructions use.
fn decrypt_chunk(rk: &RoundKeys, state: &mut [u8; CHUNK]) {
    let nr = rk.rounds;
    add_round_key(state, &rk.dec[0]);
    for key in &rk.dec[1..nr] {
        inv_sub_bytes(state);
        inv_shift_rows(state);
        inv_mix_columns(state);
        add_round_key(state, key);
    }
    inv_sub_bytes(state);
    inv_shift_rows(state);
    add_round_key(state, &rk.dec[nr]);
}

fn each_chunk(buf: &mut [u8], mut f: impl FnMut(&mut [u8; CHUNK])) {
    let mut state = [0u8; CHUNK];
    for chunk in buf.chunks_mut(CHUNK) {
        state[..chunk.len()].copy_from_slice(chunk);
        f(&mut state);
        chunk.copy_from_slice(&state[..chunk.len()]);
    }
    state.fill(0);
}

/// Encrypts whole blocks in place.
pub(crate) fn encrypt_blocks(rk: &RoundKeys, buf: &mut [u8]) {
    each_chunk(buf, |s| encrypt_chunk(rk, s));
}

/// Decrypts whole blocks in place.
pub(crate) fn decrypt_blocks(rk: &RoundKeys, buf: &mut [u8]) {
    each_chunk(buf, |s| decrypt_chunk(rk, s));
}
