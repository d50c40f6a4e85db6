//! Bitsliced uBlock for wide registers, shared by the AVX2 and AVX-512 backends and by the
//! 128-bit NEON registers of AArch64.
//!
//! Layout ("bit-planes inside the nibble"): every 32-bit lane of a register holds one 32-bit
//! word of the state, one bit-plane `j` (bit `j` of each nibble), for four blocks. Bit
//! `4 * (7 - p) + b` of the lane is bit `j` of nibble `p` of the word in block `b`. Hence:
//!
//! - the S-box is a boolean formula over the four plane registers of a half;
//! - `<<<32 4k` of the cipher is a plain 32-bit rotation of every plane register;
//! - byte `k` of a word is byte `3 - k` of its lane (four blocks, one plane), so PL and PR
//!   are one in-lane byte shuffle per plane register.
//!
//! A state is eight registers: half `h` (X0 or X1), plane `j`. Each register carries
//! `8 * BYTES / BLOCK` blocks, and one batch is `8 * BYTES` bytes.
//!
//! Round keys are folded into the linear layer: with `A_i = PL^-1(RK_i.left) ^
//! PR^-1(RK_i.right)` and `B_i = PR^-1(RK_i.right)`, the last two XORs of each round become
//! `X1 = X1 ^ (X0 <<< 20) ^ B_i` and `X0 = X0 ^ X1 ^ A_i`, three-input XORs that AVX-512 does
//! in one instruction. Decryption uses the same `A_i`, `B_i`.
//!
//! No intrinsic is called here: the register types implement [`Lanes`] in their backend
//! files, and the generic code below is inlined into their `#[target_feature]` functions.
//! A register can only be made from its backend's [`Lanes::Token`], and a token only by a
//! function compiled for the backend's features, so the compiler checks that no register
//! operation runs where the CPU was not checked.

use super::{RoundKeys, StreamsMode, Variant};

/// Eight registers: `[half][plane]`.
pub(super) type State<L> = [[L; 4]; 2];

/// One SIMD register type and the few operations the bitsliced cipher needs.
pub(super) trait Lanes: Copy {
    /// Register width in bytes.
    const BYTES: usize;
    /// The proof that the CPU runs the backend, needed to make a register.
    type Token: Copy;

    /// The token a register was made with.
    fn token(self) -> Self::Token;
    /// `v` in every 32-bit lane.
    fn splat(t: Self::Token, v: u32) -> Self;
    /// `pattern` in every 128-bit lane.
    fn broadcast_lane(t: Self::Token, pattern: &[u8; 16]) -> Self;
    fn xor(self, o: Self) -> Self;
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    /// `!self & o`.
    fn andnot(self, o: Self) -> Self;
    fn rotl4(self) -> Self;
    fn rotl8(self) -> Self;
    fn rotl20(self) -> Self;
    fn shl32<const N: u32>(self) -> Self;
    fn shr32<const N: u32>(self) -> Self;
    /// Byte gather inside every 128-bit lane (`pshufb`).
    fn shuffle_bytes(self, idx: Self) -> Self;

    /// Loads one batch of `8 * BYTES` bytes of whole blocks into bit-planes.
    fn load_batch<V: Variant>(t: Self::Token, src: &[u8]) -> State<Self>;
    /// Stores a state back as `8 * BYTES` bytes of whole blocks.
    fn store_batch<V: Variant>(s: &State<Self>, dst: &mut [u8]);

    #[inline(always)]
    fn not(self) -> Self {
        self.xor(Self::splat(self.token(), !0))
    }

    #[inline(always)]
    fn xor3(self, b: Self, c: Self) -> Self {
        self.xor(b).xor(c)
    }

    /// `(self ^ b) & m`.
    #[inline(always)]
    fn xor_and(self, b: Self, m: Self) -> Self {
        self.xor(b).and(m)
    }

    /// The S-box on every nibble; `x[j]` is bit-plane `j`.
    #[inline(always)]
    fn sbox(x: [Self; 4]) -> [Self; 4] {
        let t = x[2].and(x[3]);
        let y3 = x[1].or(x[2]).xor(x[3]);
        let y0 = x[0].xor(t).not();
        let y1 = x[1].xor(t).xor(y3.andnot(x[0])).not();
        let y2 = x[2].xor(x[1].and(y0)).not();
        [y0, y1, y2, y3]
    }

    /// The inverse S-box on every nibble.
    #[inline(always)]
    fn sbox_inv(x: [Self; 4]) -> [Self; 4] {
        let y1 = x[1].xor(x[0].or(x[3]));
        let y2 = x[1].andnot(x[0]).xor(x[2]).not();
        let y0 = x[3].andnot(x[0].and(x[1]).xor(x[2])).xor(x[0].andnot(x[3]));
        let y3 = x[3].xor(y1.andnot(x[2])).not();
        [y0, y1, y2, y3]
    }
}

/// Exchanges the bits of `b` selected by `m` with the bits of `a` `N` places above them.
#[inline(always)]
fn swap_move<L: Lanes, const N: u32>(a: &mut L, b: &mut L, m: L) {
    let t = a.shr32::<N>().xor_and(*b, m);
    *b = b.xor(t);
    *a = a.xor(t.shl32::<N>());
}

/// Transposes, inside every nibble, four registers of words (one block each) into four
/// bit-planes (four blocks each). The transposition is its own inverse.
#[inline(always)]
pub(super) fn transpose4<L: Lanes>(r: &mut [L; 4]) {
    let t = r[0].token();
    let m1 = L::splat(t, 0x5555_5555);
    let m2 = L::splat(t, 0x3333_3333);
    let [a, b, c, d] = r;
    swap_move::<L, 1>(a, b, m1);
    swap_move::<L, 1>(c, d, m1);
    swap_move::<L, 2>(a, c, m2);
    swap_move::<L, 2>(b, d, m2);
}

/// Register byte of state byte `k` of a half (and back: the map is an involution).
const fn lane_byte(k: usize) -> usize {
    4 * (k / 4) + 3 - k % 4
}

/// `pshufb` indices that apply the byte gather `p` (over halves of `p.len()` bytes) to every
/// half held in a 128-bit lane.
pub(super) const fn gather_index(p: &[usize]) -> [u8; 16] {
    let h = p.len();
    let mut idx = [0u8; 16];
    let mut q = 0;
    while q < 16 {
        let base = q / h * h;
        let k_out = lane_byte(q % h);
        idx[q] = (base + lane_byte(p[k_out])) as u8;
        q += 1;
    }
    idx
}

/// `pshufb` indices that reverse the bytes of every 32-bit lane (big-endian words in, native
/// words out, and back). AArch64 has `REV32` for it.
#[cfg_attr(target_arch = "aarch64", allow(dead_code))]
pub(super) const BSWAP32: [u8; 16] = [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12];

/// Where a backend finds round key `i` as bit-planes.
pub(super) trait KeySource<L: Lanes> {
    fn round(&self, t: L::Token, i: usize) -> State<L>;
}

/// The folded round keys of one cipher as 16-byte plane patterns, broadcast on use:
/// `[round][half][plane]`.
#[derive(Clone)]
pub(crate) struct PlaneKeys(pub(super) [[[[u8; 16]; 4]; 2]; 25]);

impl PlaneKeys {
    pub(crate) fn wipe(&mut self) {
        crate::wipe::bytes(
            self.0
                .as_flattened_mut()
                .as_flattened_mut()
                .as_flattened_mut(),
        );
    }
}

impl Drop for PlaneKeys {
    fn drop(&mut self) {
        self.wipe();
    }
}

impl<L: Lanes> KeySource<L> for PlaneKeys {
    #[inline(always)]
    fn round(&self, t: L::Token, i: usize) -> State<L> {
        let r = &self.0[i];
        [
            [
                L::broadcast_lane(t, &r[0][0]),
                L::broadcast_lane(t, &r[0][1]),
                L::broadcast_lane(t, &r[0][2]),
                L::broadcast_lane(t, &r[0][3]),
            ],
            [
                L::broadcast_lane(t, &r[1][0]),
                L::broadcast_lane(t, &r[1][1]),
                L::broadcast_lane(t, &r[1][2]),
                L::broadcast_lane(t, &r[1][3]),
            ],
        ]
    }
}

/// Round keys already in registers, one set per block slot (several keys at once).
impl<L: Lanes> KeySource<L> for [State<L>] {
    #[inline(always)]
    fn round(&self, _: L::Token, i: usize) -> State<L> {
        self[i]
    }
}

/// Round keys with the linear-layer fold applied: row 0 is `RK_0`, row `i >= 1` is
/// `A_i || B_i` (see the module notes). Bytes, big-endian, `V::BLOCK` per row.
pub(super) fn folded<V: Variant>(rk: &RoundKeys) -> RoundKeys {
    let h = V::BLOCK / 2;
    let mut out = RoundKeys([[0u8; 32]; 25]);
    out.0[0] = rk.0[0];
    for i in 1..=V::ROUNDS {
        let (l, r) = rk.0[i][..V::BLOCK].split_at(h);
        let row = &mut out.0[i];
        for k in 0..h {
            let b = r[V::PR_INV[k]];
            row[k] = l[V::PL_INV[k]] ^ b;
            row[h + k] = b;
        }
    }
    out
}

/// Spreads bit `j` of every nibble of `w` over the whole nibble.
#[inline(always)]
fn spread(w: u32, j: u32) -> u32 {
    ((w >> j) & 0x1111_1111) * 0xf
}

/// The plane patterns of the folded round keys of one cipher.
pub(super) fn plane_keys<V: Variant>(rk: &RoundKeys) -> PlaneKeys {
    let f = folded::<V>(rk);
    let h = V::BLOCK / 2;
    let mut out = PlaneKeys([[[[0u8; 16]; 4]; 2]; 25]);
    for (row, planes) in f.0.iter().zip(out.0.iter_mut()).take(V::ROUNDS + 1) {
        for (half, half_planes) in planes.iter_mut().enumerate() {
            for (j, pattern) in half_planes.iter_mut().enumerate() {
                for (lane, chunk) in pattern.chunks_exact_mut(4).enumerate() {
                    let at = half * h + (4 * lane) % h;
                    let w = u32::from_be_bytes([row[at], row[at + 1], row[at + 2], row[at + 3]]);
                    chunk.copy_from_slice(&spread(w, j as u32).to_le_bytes());
                }
            }
        }
    }
    out
}

#[inline(always)]
fn xor_planes<L: Lanes>(x: [L; 4], k: [L; 4]) -> [L; 4] {
    [
        x[0].xor(k[0]),
        x[1].xor(k[1]),
        x[2].xor(k[2]),
        x[3].xor(k[3]),
    ]
}

/// Encrypts one batch in bit-plane form.
#[inline(always)]
pub(super) fn encrypt<L: Lanes, V: Variant, K: KeySource<L> + ?Sized>(s: &mut State<L>, keys: &K) {
    let t = s[0][0].token();
    let pl = L::broadcast_lane(t, &const { gather_index(V::PL) });
    let pr = L::broadcast_lane(t, &const { gather_index(V::PR) });
    let k = keys.round(t, 0);
    let mut x0 = xor_planes(s[0], k[0]);
    let mut x1 = xor_planes(s[1], k[1]);
    for i in 1..=V::ROUNDS {
        let k = keys.round(t, i);
        let a = L::sbox(x0);
        let b = L::sbox(x1);
        for j in 0..4 {
            let b1 = b[j].xor(a[j]);
            let a1 = a[j].xor(b1.rotl4());
            let b2 = b1.xor(a1.rotl8());
            let a2 = a1.xor(b2.rotl8());
            let b3 = b2.xor3(a2.rotl20(), k[1][j]);
            let a3 = a2.xor3(b3, k[0][j]);
            x0[j] = a3.shuffle_bytes(pl);
            x1[j] = b3.shuffle_bytes(pr);
        }
    }
    *s = [x0, x1];
}

/// Decrypts one batch in bit-plane form.
#[inline(always)]
pub(super) fn decrypt<L: Lanes, V: Variant, K: KeySource<L> + ?Sized>(s: &mut State<L>, keys: &K) {
    let t = s[0][0].token();
    let pl_inv = L::broadcast_lane(t, &const { gather_index(V::PL_INV) });
    let pr_inv = L::broadcast_lane(t, &const { gather_index(V::PR_INV) });
    let [mut x0, mut x1] = *s;
    for i in (1..=V::ROUNDS).rev() {
        let k = keys.round(t, i);
        let mut a = [x0[0]; 4];
        let mut b = [x1[0]; 4];
        for j in 0..4 {
            let p0 = x0[j].shuffle_bytes(pl_inv);
            let p1 = x1[j].shuffle_bytes(pr_inv);
            let a1 = p0.xor3(p1, k[0][j]);
            let b1 = p1.xor3(a1.rotl20(), k[1][j]);
            let a2 = a1.xor(b1.rotl8());
            let b2 = b1.xor(a2.rotl8());
            let a3 = a2.xor(b2.rotl4());
            a[j] = a3;
            b[j] = b2.xor(a3);
        }
        x0 = L::sbox_inv(a);
        x1 = L::sbox_inv(b);
    }
    let k = keys.round(t, 0);
    *s = [xor_planes(x0, k[0]), xor_planes(x1, k[1])];
}

/// Encrypts or decrypts one batch: a plain function rather than a closure, so that it is
/// inlined into the caller's `#[target_feature]` code.
#[inline(always)]
fn run_batch<L: Lanes, V: Variant, const DECRYPT: bool>(
    t: L::Token,
    keys: &PlaneKeys,
    batch: &mut [u8],
) {
    let mut s = L::load_batch::<V>(t, batch);
    if DECRYPT {
        decrypt::<L, V, _>(&mut s, keys);
    } else {
        encrypt::<L, V, _>(&mut s, keys);
    }
    L::store_batch::<V>(&s, batch);
}

/// ECB over whole blocks in place, padding the last partial batch.
#[inline(always)]
fn ecb<L: Lanes, V: Variant, const DECRYPT: bool>(t: L::Token, keys: &PlaneKeys, buf: &mut [u8]) {
    let batch = 8 * L::BYTES;
    let mut chunks = buf.chunks_exact_mut(batch);
    for chunk in &mut chunks {
        run_batch::<L, V, DECRYPT>(t, keys, chunk);
    }
    let tail = chunks.into_remainder();
    if !tail.is_empty() {
        let mut pad = [0u8; 1024];
        let pad = &mut pad[..batch];
        pad[..tail.len()].copy_from_slice(tail);
        run_batch::<L, V, DECRYPT>(t, keys, pad);
        tail.copy_from_slice(&pad[..tail.len()]);
        crate::wipe::bytes(pad);
    }
}

/// ECB encryption of whole blocks.
#[inline(always)]
pub(super) fn ecb_encrypt<L: Lanes, V: Variant>(t: L::Token, keys: &PlaneKeys, buf: &mut [u8]) {
    ecb::<L, V, false>(t, keys, buf);
}

/// ECB decryption of whole blocks.
#[inline(always)]
pub(super) fn ecb_decrypt<L: Lanes, V: Variant>(t: L::Token, keys: &PlaneKeys, buf: &mut [u8]) {
    ecb::<L, V, true>(t, keys, buf);
}

/// A big-endian block counter as two native halves (the high one is used for 32-byte blocks).
#[inline(always)]
pub(super) fn counter_load<V: Variant>(c: &[u8]) -> (u128, u128) {
    let mut hi = [0u8; 16];
    let mut lo = [0u8; 16];
    if V::BLOCK == 16 {
        lo.copy_from_slice(&c[..16]);
    } else {
        hi.copy_from_slice(&c[..16]);
        lo.copy_from_slice(&c[16..32]);
    }
    (u128::from_be_bytes(hi), u128::from_be_bytes(lo))
}

#[inline(always)]
pub(super) fn counter_store<V: Variant>(c: (u128, u128), out: &mut [u8]) {
    if V::BLOCK == 16 {
        out[..16].copy_from_slice(&c.1.to_be_bytes());
    } else {
        out[..16].copy_from_slice(&c.0.to_be_bytes());
        out[16..32].copy_from_slice(&c.1.to_be_bytes());
    }
}

#[inline(always)]
pub(super) fn counter_add(c: (u128, u128), n: u128) -> (u128, u128) {
    let (lo, carry) = c.1.overflowing_add(n);
    (c.0.wrapping_add(u128::from(carry)), lo)
}

/// CTR over any length: encrypts a batch of counter blocks, XORs it in.
#[inline(always)]
pub(super) fn ctr<L: Lanes, V: Variant>(
    t: L::Token,
    keys: &PlaneKeys,
    counter: &mut [u8],
    buf: &mut [u8],
) {
    let n = V::BLOCK;
    let batch = 8 * L::BYTES;
    let mut c = counter_load::<V>(counter);
    let mut ks = [0u8; 1024];
    let ks = &mut ks[..batch];
    for chunk in buf.chunks_mut(batch) {
        let blocks = chunk.len().div_ceil(n);
        for block in ks.chunks_exact_mut(n).take(blocks) {
            counter_store::<V>(c, block);
            c = counter_add(c, 1);
        }
        run_batch::<L, V, false>(t, keys, ks);
        for (d, k) in chunk.iter_mut().zip(ks.iter()) {
            *d ^= k;
        }
    }
    crate::wipe::bytes(ks);
    counter_store::<V>(c, counter);
}

/// CBC decryption: a batch is decrypted at once, then XORed with the ciphertext before it.
#[inline(always)]
pub(super) fn cbc_decrypt<L: Lanes, V: Variant>(
    t: L::Token,
    keys: &PlaneKeys,
    iv: &mut [u8],
    buf: &mut [u8],
) {
    let n = V::BLOCK;
    let batch = 8 * L::BYTES;
    let mut prev = [0u8; 32];
    prev[..n].copy_from_slice(iv);
    let mut saved = [0u8; 1024];
    for chunk in buf.chunks_mut(batch) {
        let len = chunk.len();
        saved[..len].copy_from_slice(chunk);
        if len == batch {
            run_batch::<L, V, true>(t, keys, chunk);
        } else {
            let mut pad = [0u8; 1024];
            pad[..len].copy_from_slice(chunk);
            run_batch::<L, V, true>(t, keys, &mut pad[..batch]);
            chunk.copy_from_slice(&pad[..len]);
            crate::wipe::bytes(&mut pad);
        }
        for (d, p) in chunk[..n].iter_mut().zip(&prev[..n]) {
            *d ^= p;
        }
        for (d, p) in chunk[n..].iter_mut().zip(&saved[..len - n]) {
            *d ^= p;
        }
        prev[..n].copy_from_slice(&saved[len - n..len]);
    }
    iv.copy_from_slice(&prev[..n]);
}

/// `dst ^= src` over one block, a 16-byte word at a time.
#[inline(always)]
fn xor_block(dst: &mut [u8], src: &[u8]) {
    for (d, s) in dst.chunks_exact_mut(16).zip(src.chunks_exact(16)) {
        let mut a = [0u8; 16];
        let mut b = [0u8; 16];
        a.copy_from_slice(d);
        b.copy_from_slice(s);
        d.copy_from_slice(&(u128::from_ne_bytes(a) ^ u128::from_ne_bytes(b)).to_ne_bytes());
    }
}

/// CBC encryption of up to one batch of independent streams, one key each: stream `s`
/// occupies block slot `s` of every batch, so each step advances every stream by one block.
/// `keys` are the slot keys from [`slot_planes`] built for exactly these streams. The chain is
/// encrypted in place, so after a step each slot holds its stream's latest ciphertext.
#[inline(always)]
pub(super) fn cbc_encrypt_streams<L: Lanes, V: Variant>(
    t: L::Token,
    keys: &[State<L>],
    ivs: &mut [&mut [u8]],
    bufs: &mut [&mut [u8]],
) {
    let n = V::BLOCK;
    let batch = 8 * L::BYTES;
    let mut chain = [0u8; 1024];
    let chain = &mut chain[..batch];
    for (slot, iv) in chain.chunks_exact_mut(n).zip(ivs.iter()) {
        slot.copy_from_slice(iv);
    }
    let longest = bufs.iter().map(|b| b.len()).max().unwrap_or(0);
    for at in (0..longest).step_by(n) {
        for (slot, buf) in chain.chunks_exact_mut(n).zip(bufs.iter()) {
            if let Some(p) = buf.get(at..at + n) {
                xor_block(slot, p);
            }
        }
        let mut s = L::load_batch::<V>(t, chain);
        encrypt::<L, V, _>(&mut s, keys);
        L::store_batch::<V>(&s, chain);
        for (slot, buf) in chain.chunks_exact(n).zip(bufs.iter_mut()) {
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
    crate::wipe::bytes(chain);
}

/// The plane registers of several ciphers at once from their kept plane keys: block slot
/// `s` of a batch runs under `keys[s % keys.len()]`. The layout is a bit permutation of the
/// batch, so each key's broadcast planes, masked to the bits of its slots (its slots'
/// all-ones blocks taken into bit-plane form), are its part of every plane: one transposition
/// per key instead of one per round.
#[inline(always)]
pub(super) fn slot_planes<L: Lanes, V: Variant>(
    t: L::Token,
    keys: &[&PlaneKeys],
    out: &mut [State<L>],
) {
    let n = V::BLOCK;
    let bytes = 8 * L::BYTES;
    let zero = L::splat(t, 0);
    for planes in out.iter_mut().take(V::ROUNDS + 1) {
        *planes = [[zero; 4]; 2];
    }
    let mut pattern = [0u8; 512];
    for (k, key) in keys.iter().enumerate() {
        for (s, block) in pattern[..bytes].chunks_exact_mut(n).enumerate() {
            block.fill(if s % keys.len() == k { 0xff } else { 0 });
        }
        let mask = L::load_batch::<V>(t, &pattern[..bytes]);
        for (planes, round) in out.iter_mut().zip(key.0.iter()).take(V::ROUNDS + 1) {
            for (h, half) in planes.iter_mut().enumerate() {
                for (j, plane) in half.iter_mut().enumerate() {
                    let bits = L::broadcast_lane(t, &round[h][j]).and(mask[h][j]);
                    *plane = plane.or(bits);
                }
            }
        }
    }
}

/// ECB in either direction, or CBC decryption, of up to one batch's worth of independent
/// streams, one key each: block slot `s` of every batch carries the next block of stream
/// `s % n` under that stream's key (`keys` from [`slot_planes`] for exactly these streams), so
/// a batch advances every stream by one or more blocks, and short streams share batches
/// instead of each padding one of its own. `ivs` is used only by CBC decryption.
#[inline(always)]
pub(super) fn streams<L: Lanes, V: Variant>(
    t: L::Token,
    keys: &[State<L>],
    mode: StreamsMode,
    ivs: &mut [&mut [u8]],
    bufs: &mut [&mut [u8]],
) {
    let n = V::BLOCK;
    let batch = 8 * L::BYTES;
    let slots = batch / n;
    let count = bufs.len();
    if count == 0 || count > slots {
        return;
    }
    // Where each stream is, the slot map of the batch, and for CBC the input blocks and
    // each stream's last ciphertext block.
    let mut next = [0usize; 32];
    let mut map = [(0usize, 0usize); 32];
    let mut rows = [0u8; 512];
    let rows = &mut rows[..batch];
    let mut input = [0u8; 512];
    let input = &mut input[..batch];
    let mut last = [[0u8; 32]; 32];
    if mode == StreamsMode::CbcDecrypt {
        for (l, iv) in last.iter_mut().zip(ivs.iter()) {
            l[..n].copy_from_slice(&iv[..n]);
        }
    }
    loop {
        let mut filled = [false; 32];
        let mut any = false;
        for (s, block) in rows.chunks_exact_mut(n).enumerate() {
            let j = s % count;
            let at = next[j];
            if let Some(src) = bufs[j].get(at * n..(at + 1) * n) {
                block.copy_from_slice(src);
                map[s] = (j, at);
                filled[s] = true;
                next[j] += 1;
                any = true;
            }
        }
        if !any {
            break;
        }
        if mode == StreamsMode::CbcDecrypt {
            input.copy_from_slice(rows);
        }
        let mut state = L::load_batch::<V>(t, rows);
        if mode == StreamsMode::EcbEncrypt {
            encrypt::<L, V, _>(&mut state, keys);
        } else {
            decrypt::<L, V, _>(&mut state, keys);
        }
        L::store_batch::<V>(&state, rows);
        for (s, block) in rows.chunks_exact_mut(n).enumerate() {
            if !filled[s] {
                continue;
            }
            let (j, at) = map[s];
            if mode == StreamsMode::CbcDecrypt {
                xor_block(block, &last[j][..n]);
                last[j][..n].copy_from_slice(&input[s * n..(s + 1) * n]);
            }
            bufs[j][at * n..(at + 1) * n].copy_from_slice(block);
        }
    }
    if mode == StreamsMode::CbcDecrypt {
        for (iv, l) in ivs.iter_mut().zip(last.iter()) {
            iv[..n].copy_from_slice(&l[..n]);
        }
    }
    crate::wipe::bytes(rows);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ublock::consts::{PL128, PL256};

    #[test]
    fn gather_index_is_a_permutation_per_half() {
        for p in [&PL128[..], &PL256[..]] {
            let idx = gather_index(p);
            let mut seen = [false; 16];
            for (q, &i) in idx.iter().enumerate() {
                assert_eq!(usize::from(i) / p.len(), q / p.len());
                seen[usize::from(i)] = true;
            }
            assert!(seen.iter().all(|s| *s));
        }
    }

    #[test]
    fn spread_fills_nibbles() {
        assert_eq!(spread(0x1234_5678, 0), 0xf0f0_f0f0);
        assert_eq!(spread(0x1234_5678, 3), 0x0000_000f);
    }
}
