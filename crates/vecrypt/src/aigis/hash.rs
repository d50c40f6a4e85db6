//! The two hash modes of Aigis-enc, portable versions.
//!
//! | role | SHAKE mode | SM3 mode |
//! |---|---|---|
//! | H (32 bytes) | SHA3-256 | SM3(BE32(0) ‖ in) |
//! | G (64 bytes) | SHA3-512 | SM3(BE32(0) ‖ in) ‖ SM3(BE32(1) ‖ in) |
//! | matrix XOF | SHAKE128, 168-byte blocks | SM3(BE32(c) ‖ in), 32-byte blocks |
//! | noise PRF | SHAKE256 | SM3(BE32(c) ‖ in) for c = 0, 1, ... |

use zeroize::Zeroize;

use super::params::SEED_BYTES;

/// Which family of hash functions instantiates H, G, the XOF and the PRF.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HashMode {
    /// SHA-3 and SHAKE (the mode of the published test vectors).
    #[default]
    Shake,
    /// SM3 in counter mode (the default build of the reference code).
    Sm3,
}

impl HashMode {
    /// `shake` or `sm3`.
    pub const fn name(self) -> &'static str {
        match self {
            HashMode::Shake => "shake",
            HashMode::Sm3 => "sm3",
        }
    }

    /// Parses `shake` or `sm3` (any case).
    pub fn parse(s: &str) -> Option<Self> {
        let s = s.trim();
        [HashMode::Shake, HashMode::Sm3]
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(s))
    }

    /// Bytes per block of the matrix XOF.
    pub const fn xof_rate(self) -> usize {
        match self {
            HashMode::Shake => SHAKE128_RATE,
            HashMode::Sm3 => SM3_RATE,
        }
    }

    /// Blocks squeezed before the first rejection pass (the reference's 480 bytes, rounded up
    /// to whole blocks).
    pub const fn xof_first_blocks(self) -> usize {
        480usize.div_ceil(self.xof_rate())
    }
}

pub const SHAKE128_RATE: usize = 168;
pub const SHA3_256_RATE: usize = 136;
pub const SHA3_512_RATE: usize = 72;
pub const SHAKE256_RATE: usize = 136;
pub const SM3_RATE: usize = 32;

/// SHAKE128 (RATE = 168) or SHAKE256 (RATE = 136), absorbed once, squeezed as a stream.
#[derive(Clone)]
pub struct Shake<const RATE: usize> {
    state: [u64; 25],
    /// Bytes of the current output block already read.
    used: usize,
}

/// Round constants of Keccak-f\[1600\].
pub const KECCAK_RC: [u64; 24] = [
    0x0000_0000_0000_0001,
    0x0000_0000_0000_8082,
    0x8000_0000_0000_808a,
    0x8000_0000_8000_8000,
    0x0000_0000_0000_808b,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8009,
    0x0000_0000_0000_008a,
    0x0000_0000_0000_0088,
    0x0000_0000_8000_8009,
    0x0000_0000_8000_000a,
    0x0000_0000_8000_808b,
    0x8000_0000_0000_008b,
    0x8000_0000_0000_8089,
    0x8000_0000_0000_8003,
    0x8000_0000_0000_8002,
    0x8000_0000_0000_0080,
    0x0000_0000_0000_800a,
    0x8000_0000_8000_000a,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8080,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8008,
];

/// The rounds of Keccak-f\[1600\] written out lane by lane (theta, then rho and pi folded into
/// the chi inputs) so the 25 state words stay in registers; one text for the scalar
/// permutation and the multi-lane ones, each passing its own word operations.
/// `$rol::<L, R>` rotates left by `L` (`R = 64 - L`, for shift-based rotations).
macro_rules! keccak_f1600_rounds {
    ($s:expr, $rcs:expr, $xor:ident, $xor5:ident, $chi:ident, $rol:ident, $splat:ident) => {{
        let [
            mut a0,
            mut a1,
            mut a2,
            mut a3,
            mut a4,
            mut a5,
            mut a6,
            mut a7,
            mut a8,
            mut a9,
            mut a10,
            mut a11,
            mut a12,
            mut a13,
            mut a14,
            mut a15,
            mut a16,
            mut a17,
            mut a18,
            mut a19,
            mut a20,
            mut a21,
            mut a22,
            mut a23,
            mut a24,
        ] = *$s;
        for rc in $rcs {
            let c0 = $xor5(a0, a5, a10, a15, a20);
            let c1 = $xor5(a1, a6, a11, a16, a21);
            let c2 = $xor5(a2, a7, a12, a17, a22);
            let c3 = $xor5(a3, a8, a13, a18, a23);
            let c4 = $xor5(a4, a9, a14, a19, a24);
            let d0 = $xor(c4, $rol::<1, 63>(c1));
            let d1 = $xor(c0, $rol::<1, 63>(c2));
            let d2 = $xor(c1, $rol::<1, 63>(c3));
            let d3 = $xor(c2, $rol::<1, 63>(c4));
            let d4 = $xor(c3, $rol::<1, 63>(c0));
            let b0 = $xor(a0, d0);
            let b10 = $rol::<1, 63>($xor(a1, d1));
            let b20 = $rol::<62, 2>($xor(a2, d2));
            let b5 = $rol::<28, 36>($xor(a3, d3));
            let b15 = $rol::<27, 37>($xor(a4, d4));
            let b16 = $rol::<36, 28>($xor(a5, d0));
            let b1 = $rol::<44, 20>($xor(a6, d1));
            let b11 = $rol::<6, 58>($xor(a7, d2));
            let b21 = $rol::<55, 9>($xor(a8, d3));
            let b6 = $rol::<20, 44>($xor(a9, d4));
            let b7 = $rol::<3, 61>($xor(a10, d0));
            let b17 = $rol::<10, 54>($xor(a11, d1));
            let b2 = $rol::<43, 21>($xor(a12, d2));
            let b12 = $rol::<25, 39>($xor(a13, d3));
            let b22 = $rol::<39, 25>($xor(a14, d4));
            let b23 = $rol::<41, 23>($xor(a15, d0));
            let b8 = $rol::<45, 19>($xor(a16, d1));
            let b18 = $rol::<15, 49>($xor(a17, d2));
            let b3 = $rol::<21, 43>($xor(a18, d3));
            let b13 = $rol::<8, 56>($xor(a19, d4));
            let b14 = $rol::<18, 46>($xor(a20, d0));
            let b24 = $rol::<2, 62>($xor(a21, d1));
            let b9 = $rol::<61, 3>($xor(a22, d2));
            let b19 = $rol::<56, 8>($xor(a23, d3));
            let b4 = $rol::<14, 50>($xor(a24, d4));
            a0 = $chi(b0, b1, b2);
            a1 = $chi(b1, b2, b3);
            a2 = $chi(b2, b3, b4);
            a3 = $chi(b3, b4, b0);
            a4 = $chi(b4, b0, b1);
            a5 = $chi(b5, b6, b7);
            a6 = $chi(b6, b7, b8);
            a7 = $chi(b7, b8, b9);
            a8 = $chi(b8, b9, b5);
            a9 = $chi(b9, b5, b6);
            a10 = $chi(b10, b11, b12);
            a11 = $chi(b11, b12, b13);
            a12 = $chi(b12, b13, b14);
            a13 = $chi(b13, b14, b10);
            a14 = $chi(b14, b10, b11);
            a15 = $chi(b15, b16, b17);
            a16 = $chi(b16, b17, b18);
            a17 = $chi(b17, b18, b19);
            a18 = $chi(b18, b19, b15);
            a19 = $chi(b19, b15, b16);
            a20 = $chi(b20, b21, b22);
            a21 = $chi(b21, b22, b23);
            a22 = $chi(b22, b23, b24);
            a23 = $chi(b23, b24, b20);
            a24 = $chi(b24, b20, b21);
            a0 = $xor(a0, $splat(rc));
        }
        *$s = [
            a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18,
            a19, a20, a21, a22, a23, a24,
        ];
    }};
}
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_imports))]
pub(crate) use keccak_f1600_rounds;

#[inline(always)]
fn xor64(a: u64, b: u64) -> u64 {
    a ^ b
}

#[inline(always)]
fn xor5_64(a: u64, b: u64, c: u64, d: u64, e: u64) -> u64 {
    a ^ b ^ c ^ d ^ e
}

#[inline(always)]
fn chi64(a: u64, b: u64, c: u64) -> u64 {
    a ^ (!b & c)
}

#[inline(always)]
fn rol64<const L: i32, const R: i32>(x: u64) -> u64 {
    x.rotate_left(L as u32)
}

#[inline(always)]
fn splat64(v: u64) -> u64 {
    v
}

/// Keccak-f\[1600\] on one state: `keccak_f1600_rounds` on 64-bit words, so the state stays
/// in registers; inlined into each backend's entry point, where the compiler may use BMI
/// instructions.
#[inline(always)]
pub fn keccak_f1600(s: &mut [u64; 25]) {
    keccak_f1600_rounds!(s, KECCAK_RC, xor64, xor5_64, chi64, rol64, splat64);
}

/// A Keccak-f\[1600\] for the one-state sponges (the hashes H and G); a backend may bring a
/// faster one than [`keccak_f1600`].
pub trait KeccakF {
    fn permute(s: &mut [u64; 25]);
}

/// [`keccak_f1600`] on general-purpose registers.
pub struct ScalarKeccak;

impl KeccakF for ScalarKeccak {
    #[inline(always)]
    fn permute(s: &mut [u64; 25]) {
        keccak_f1600(s);
    }
}

#[inline(always)]
fn xor_byte(state: &mut [u64; 25], at: usize, b: u8) {
    state[at / 8] ^= u64::from(b) << (8 * (at % 8));
}

impl<const RATE: usize> Shake<RATE> {
    /// Absorbs the concatenation of `parts` and pads (domain byte 0x1F).
    #[inline(always)]
    pub fn absorb(parts: &[&[u8]]) -> Self {
        Self::absorb_with_domain(parts, 0x1f)
    }

    /// Absorbs an input shorter than one block (no permutation runs yet), SHAKE padding.
    /// Keeps the caller's frame small: the permutation is not inlined here.
    #[inline(always)]
    pub fn absorb_short(parts: &[&[u8]]) -> Self {
        let mut state = [0u64; 25];
        let mut at = 0;
        for p in parts {
            for &b in p.iter() {
                xor_byte(&mut state, at, b);
                at += 1;
            }
        }
        assert!(at < RATE, "input must be shorter than one block");
        xor_byte(&mut state, at, 0x1f);
        xor_byte(&mut state, RATE - 1, 0x80);
        Shake { state, used: RATE }
    }

    /// Absorbs and pads with `domain` (0x1F for SHAKE, 0x06 for SHA-3).
    #[inline(always)]
    fn absorb_with_domain(parts: &[&[u8]], domain: u8) -> Self {
        Self::absorb_with_domain_by::<ScalarKeccak>(parts, domain)
    }

    /// [`Self::absorb_with_domain`] with the permutation `K`.
    #[inline(always)]
    fn absorb_with_domain_by<K: KeccakF>(parts: &[&[u8]], domain: u8) -> Self {
        let mut state = [0u64; 25];
        let mut at = 0;
        for p in parts {
            absorb_bytes::<RATE, K>(&mut state, &mut at, p);
        }
        xor_byte(&mut state, at, domain);
        xor_byte(&mut state, RATE - 1, 0x80);
        Shake { state, used: RATE }
    }

    /// Next `out.len()` bytes of output, whole 64-bit words where they line up.
    #[inline(always)]
    pub fn squeeze(&mut self, out: &mut [u8]) {
        self.squeeze_by::<ScalarKeccak>(out);
    }

    /// [`Self::squeeze`] with the permutation `K`.
    #[inline(always)]
    fn squeeze_by<K: KeccakF>(&mut self, mut out: &mut [u8]) {
        while !out.is_empty() {
            if self.used == RATE {
                K::permute(&mut self.state);
                self.used = 0;
            }
            if self.used.is_multiple_of(8) && out.len() >= 8 {
                let words = ((RATE - self.used) / 8).min(out.len() / 8);
                let (head, tail) = out.split_at_mut(8 * words);
                for (o, w) in head
                    .chunks_exact_mut(8)
                    .zip(&self.state[self.used / 8..self.used / 8 + words])
                {
                    o.copy_from_slice(&w.to_le_bytes());
                }
                self.used += 8 * words;
                out = tail;
            } else {
                out[0] = (self.state[self.used / 8] >> (8 * (self.used % 8))) as u8;
                self.used += 1;
                out = &mut out[1..];
            }
        }
    }
}

/// XORs `data` into the rate part of `state` from byte `*at`, permuting after each full
/// block; whole 64-bit words where they line up, which is the common case.
#[inline(always)]
fn absorb_bytes<const RATE: usize, K: KeccakF>(
    state: &mut [u64; 25],
    at: &mut usize,
    mut data: &[u8],
) {
    while !data.is_empty() {
        if at.is_multiple_of(8) && data.len() >= 8 {
            let words = ((RATE - *at) / 8).min(data.len() / 8);
            let (head, tail) = data.split_at(8 * words);
            for (w, b) in state[*at / 8..*at / 8 + words]
                .iter_mut()
                .zip(head.chunks_exact(8))
            {
                let mut le = [0u8; 8];
                le.copy_from_slice(b);
                *w ^= u64::from_le_bytes(le);
            }
            *at += 8 * words;
            data = tail;
        } else {
            xor_byte(state, *at, data[0]);
            *at += 1;
            data = &data[1..];
        }
        if *at == RATE {
            K::permute(state);
            *at = 0;
        }
    }
}

/// One SM3 digest of `BE32(counter) ‖ parts...`. Never inlined: its state then lives in
/// its own frame, only on the SM3 path, not in every caller's frame.
#[inline(never)]
pub fn sm3_counter_block(counter: u32, parts: &[&[u8]]) -> [u8; 32] {
    use sm3::Digest;
    let mut h = sm3::Sm3::new();
    Digest::update(&mut h, counter.to_be_bytes());
    for p in parts {
        Digest::update(&mut h, p);
    }
    h.finalize().into()
}

/// SM3(BE32(counter) ‖ parts) for a message that fits one block (at most 55 bytes), written
/// to `out`: one compression, no streaming state, the message built directly as the 16
/// schedule words. The matrix and noise streams use it; it is never inlined so that its
/// small frame is not part of theirs (the compact mode counts every byte).
#[inline(never)]
pub fn sm3_short_counter_block(counter: u32, parts: &[&[u8]], out: &mut [u8]) {
    let mut w = [0u32; 16];
    w[0] = counter;
    let mut at = 4;
    for p in parts {
        for &b in p.iter() {
            w[at / 4] |= u32::from(b) << (24 - 8 * (at % 4));
            at += 1;
        }
    }
    assert!(at < 56, "one block");
    w[at / 4] |= 0x80 << (24 - 8 * (at % 4));
    w[15] = (at * 8) as u32;
    let v = sm3_rounds(SM3_IV, &mut w);
    for ((o, x), iv) in out.chunks_exact_mut(4).zip(v).zip(SM3_IV) {
        o.copy_from_slice(&(x ^ iv).to_be_bytes());
    }
    w.zeroize();
}

/// The initial chaining value of SM3 (GB/T 32905-2016).
const SM3_IV: [u32; 8] = [
    0x7380_166f,
    0x4914_b2b9,
    0x1724_42d7,
    0xda8a_0600,
    0xa96f_30bc,
    0x1631_38aa,
    0xe38d_ee4d,
    0xb0fb_0e4e,
];

#[inline(always)]
fn sm3_p0(x: u32) -> u32 {
    x ^ x.rotate_left(9) ^ x.rotate_left(17)
}

#[inline(always)]
fn sm3_p1(x: u32) -> u32 {
    x ^ x.rotate_left(15) ^ x.rotate_left(23)
}

/// The 64 rounds of SM3 from chaining value `v` over the message words `w`, with the
/// message schedule kept as a rolling window of 16 words (overwriting `w`) instead of the
/// 132 words of the textbook form; the caller XORs the result into `v`.
#[inline(always)]
fn sm3_rounds(v: [u32; 8], w: &mut [u32; 16]) -> [u32; 8] {
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = v;
    for j in 0..64 {
        // Slot (j + 4) mod 16 holds W[j - 12] and becomes W[j + 4], which needs it.
        let next = j + 4;
        if next >= 16 {
            let at = |i: usize| w[i % 16];
            w[next % 16] = sm3_p1(at(next - 16) ^ at(next - 9) ^ at(next - 3).rotate_left(15))
                ^ at(next - 13).rotate_left(7)
                ^ at(next - 6);
        }
        let wj = w[j % 16];
        let wj4 = w[next % 16];
        let t: u32 = if j < 16 { 0x79cc_4519 } else { 0x7a87_9d8a };
        let a12 = a.rotate_left(12);
        let ss1 = a12
            .wrapping_add(e)
            .wrapping_add(t.rotate_left((j % 32) as u32))
            .rotate_left(7);
        let ss2 = ss1 ^ a12;
        let (ff, gg) = if j < 16 {
            (a ^ b ^ c, e ^ f ^ g)
        } else {
            ((a & b) | (a & c) | (b & c), (e & f) | (!e & g))
        };
        let tt1 = ff.wrapping_add(d).wrapping_add(ss2).wrapping_add(wj ^ wj4);
        let tt2 = gg.wrapping_add(h).wrapping_add(ss1).wrapping_add(wj);
        d = c;
        c = b.rotate_left(9);
        b = a;
        a = tt1;
        h = g;
        g = f.rotate_left(19);
        f = e;
        e = sm3_p0(tt2);
    }
    [a, b, c, d, e, f, g, h]
}

/// H: 32 bytes from the concatenation of `parts`.
#[inline(always)]
pub fn hash_h(mode: HashMode, parts: &[&[u8]]) -> [u8; SEED_BYTES] {
    hash_h_by::<ScalarKeccak>(mode, parts)
}

/// [`hash_h`] with the permutation `K` in SHAKE mode.
#[inline(always)]
pub fn hash_h_by<K: KeccakF>(mode: HashMode, parts: &[&[u8]]) -> [u8; SEED_BYTES] {
    match mode {
        HashMode::Shake => {
            let mut out = [0u8; SEED_BYTES];
            let mut sponge = Shake::<SHA3_256_RATE>::absorb_with_domain_by::<K>(parts, 0x06);
            sponge.squeeze_by::<K>(&mut out);
            // The inputs include secrets (coins, m); the state is wiped, not just dropped.
            sponge.state.zeroize();
            out
        }
        HashMode::Sm3 => sm3_counter_block(0, parts),
    }
}

/// G: 64 bytes from `input`, with the permutation `K` in SHAKE mode.
#[inline(always)]
pub fn hash_g_by<K: KeccakF>(mode: HashMode, input: &[u8]) -> [u8; 2 * SEED_BYTES] {
    let mut out = [0u8; 2 * SEED_BYTES];
    match mode {
        HashMode::Shake => {
            let mut sponge = Shake::<SHA3_512_RATE>::absorb_with_domain_by::<K>(&[input], 0x06);
            sponge.squeeze_by::<K>(&mut out);
            sponge.state.zeroize();
        }
        HashMode::Sm3 => {
            out[..32].copy_from_slice(&sm3_counter_block(0, &[input]));
            out[32..].copy_from_slice(&sm3_counter_block(1, &[input]));
        }
    }
    out
}

/// PRF(seed, nonce): fills `out` (any length).
pub fn prf(mode: HashMode, seed: &[u8; SEED_BYTES], nonce: u8, out: &mut [u8]) {
    match mode {
        HashMode::Shake => Shake::<SHAKE256_RATE>::absorb(&[seed, &[nonce]]).squeeze(out),
        HashMode::Sm3 => {
            for (c, chunk) in out.chunks_mut(SM3_RATE).enumerate() {
                let block = sm3_counter_block(c as u32, &[seed, &[nonce]]);
                chunk.copy_from_slice(&block[..chunk.len()]);
            }
        }
    }
}

/// PRF(seed, nonce) read as a stream, for sampling noise a piece at a time.
pub enum NoiseStream {
    Shake(Shake<SHAKE256_RATE>),
    Sm3 {
        input: [u8; SEED_BYTES + 1],
        counter: u32,
        block: [u8; SM3_RATE],
        used: usize,
    },
}

impl NoiseStream {
    #[inline(always)]
    pub fn new(mode: HashMode, seed: &[u8; SEED_BYTES], nonce: u8) -> Self {
        match mode {
            HashMode::Shake => NoiseStream::Shake(Shake::absorb_short(&[seed, &[nonce]])),
            HashMode::Sm3 => {
                let mut input = [0u8; SEED_BYTES + 1];
                input[..SEED_BYTES].copy_from_slice(seed);
                input[SEED_BYTES] = nonce;
                NoiseStream::Sm3 {
                    input,
                    counter: 0,
                    block: [0; SM3_RATE],
                    used: SM3_RATE,
                }
            }
        }
    }

    /// The next `out.len()` bytes.
    #[inline(always)]
    pub fn read(&mut self, out: &mut [u8]) {
        match self {
            NoiseStream::Shake(x) => x.squeeze(out),
            NoiseStream::Sm3 {
                input,
                counter,
                block,
                used,
            } => {
                for o in out.iter_mut() {
                    if *used == SM3_RATE {
                        sm3_short_counter_block(*counter, &[input], block);
                        *counter += 1;
                        *used = 0;
                    }
                    *o = block[*used];
                    *used += 1;
                }
            }
        }
    }
}

impl Drop for NoiseStream {
    fn drop(&mut self) {
        match self {
            NoiseStream::Shake(x) => x.state.zeroize(),
            NoiseStream::Sm3 { input, block, .. } => {
                input.zeroize();
                block.zeroize();
            }
        }
    }
}

/// The matrix XOF, absorbed once (ρ ‖ i ‖ j) and squeezed block by block.
pub enum MatrixXof {
    Shake(Shake<SHAKE128_RATE>),
    Sm3 {
        input: [u8; SEED_BYTES + 2],
        counter: u32,
    },
}

impl MatrixXof {
    pub fn new(mode: HashMode, rho: &[u8; SEED_BYTES], first: u8, second: u8) -> Self {
        match mode {
            HashMode::Shake => MatrixXof::Shake(Shake::absorb_short(&[rho, &[first, second]])),
            HashMode::Sm3 => {
                let mut input = [0u8; SEED_BYTES + 2];
                input[..SEED_BYTES].copy_from_slice(rho);
                input[SEED_BYTES] = first;
                input[SEED_BYTES + 1] = second;
                MatrixXof::Sm3 { input, counter: 0 }
            }
        }
    }

    /// Squeezes whole blocks into `out` (a multiple of the rate long).
    #[inline(always)]
    pub fn squeeze(&mut self, out: &mut [u8]) {
        match self {
            MatrixXof::Shake(x) => x.squeeze(out),
            MatrixXof::Sm3 { input, counter } => {
                for chunk in out.chunks_mut(SM3_RATE) {
                    sm3_short_counter_block(*counter, &[input], chunk);
                    *counter += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_squeeze_lengths_match_the_reference() {
        assert_eq!(HashMode::Shake.xof_first_blocks() * SHAKE128_RATE, 504);
        assert_eq!(HashMode::Sm3.xof_first_blocks() * SM3_RATE, 480);
    }

    #[test]
    fn sm3_mode_g_is_two_counter_blocks() {
        let g = hash_g_by::<ScalarKeccak>(HashMode::Sm3, b"abc");
        assert_eq!(g[..32], hash_h(HashMode::Sm3, &[b"abc"]));
        assert_ne!(g[..32], g[32..]);
        let mut p = [0u8; 40];
        prf(HashMode::Sm3, &[7; 32], 3, &mut p);
        assert_eq!(p[32..], sm3_counter_block(1, &[&[7; 32], &[3]])[..8]);
    }

    #[test]
    fn shake_known_answers() {
        // FIPS 202 examples: SHAKE128("") and SHAKE256("").
        let mut o = [0u8; 4];
        Shake::<SHAKE128_RATE>::absorb(&[]).squeeze(&mut o);
        assert_eq!(o, [0x7f, 0x9c, 0x2b, 0xa4]);
        Shake::<SHAKE256_RATE>::absorb(&[]).squeeze(&mut o);
        assert_eq!(o, [0x46, 0xb9, 0xdd, 0x2b]);
        // Output is one stream however it is read.
        let mut whole = [0u8; 400];
        Shake::<SHAKE128_RATE>::absorb(&[b"abc"]).squeeze(&mut whole);
        let mut x = Shake::<SHAKE128_RATE>::absorb(&[b"a", b"bc"]);
        let mut parts = [0u8; 400];
        x.squeeze(&mut parts[..5]);
        x.squeeze(&mut parts[5..200]);
        x.squeeze(&mut parts[200..]);
        assert_eq!(whole, parts);
    }

    #[test]
    fn sha3_matches_the_sha3_crate() {
        use sha3::Digest as _;
        for len in [0usize, 1, 71, 72, 135, 136, 137, 896, 1568] {
            let data: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
            let h = hash_h(HashMode::Shake, &[&data[..len / 2], &data[len / 2..]]);
            assert_eq!(
                h[..],
                sha3::Sha3_256::digest(&data)[..],
                "SHA3-256, {len} bytes"
            );
            let g = hash_g_by::<ScalarKeccak>(HashMode::Shake, &data);
            assert_eq!(
                g[..],
                sha3::Sha3_512::digest(&data)[..],
                "SHA3-512, {len} bytes"
            );
        }
    }

    #[test]
    fn keccak_matches_the_keccak_crate() {
        let mut a: [u64; 25] =
            core::array::from_fn(|i| (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut b = a;
        keccak_f1600(&mut a);
        keccak::Keccak::new().with_f1600(|f| f(&mut b));
        assert_eq!(a, b);
    }

    #[test]
    fn noise_stream_equals_prf_in_both_modes() {
        for mode in [HashMode::Shake, HashMode::Sm3] {
            let mut whole = [0u8; 512];
            prf(mode, &[9; 32], 5, &mut whole);
            let mut s = NoiseStream::new(mode, &[9; 32], 5);
            let mut pieces = [0u8; 512];
            for c in pieces.chunks_mut(24) {
                s.read(c);
            }
            assert_eq!(whole, pieces, "{}", mode.name());
        }
    }

    #[test]
    fn short_counter_blocks_equal_the_streaming_form() {
        for len in [0usize, 1, 33, 34, 51] {
            let data = [0xa5u8; 51];
            let mut short = [0u8; 32];
            sm3_short_counter_block(7, &[&data[..len]], &mut short);
            assert_eq!(short, sm3_counter_block(7, &[&data[..len]]), "{len} bytes");
        }
    }

    #[test]
    fn sm3_known_answer() {
        // GB/T 32905-2016 example 1: SM3("abc").
        use sm3::Digest as _;
        assert_eq!(sm3::Sm3::digest(b"abc")[..4], [0x66, 0xc7, 0xf0, 0xf4]);
        // The one-block form on a 4-byte message ("abcd" as the counter).
        let mut d = [0u8; 32];
        sm3_short_counter_block(u32::from_be_bytes(*b"abcd"), &[], &mut d);
        assert_eq!(d[..], sm3::Sm3::digest(b"abcd")[..]);
    }
}
