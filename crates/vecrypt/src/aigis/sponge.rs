//! Keccak-f\[1600\] and the SHA-3 / SHAKE sponge, portable: the SHAKE mode's hashing. On
//! Thumb-2 Arm cores the permutation is the assembly one of `arm/keccak.rs`, and the state
//! is kept in its bit-interleaved form.

pub const SHAKE128_RATE: usize = 168;
pub const SHA3_256_RATE: usize = 136;
pub const SHA3_512_RATE: usize = 72;
pub const SHAKE256_RATE: usize = 136;
pub const SM3_RATE: usize = 32;

/// SHAKE128 (RATE = 168) or SHAKE256 (RATE = 136), absorbed once, squeezed as a stream.
#[derive(Clone)]
pub struct Shake<const RATE: usize> {
    pub(super) state: [u64; 25],
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
/// `$theta(a, p, q)` is a ^ p ^ q, theta's step on one word with p = C\[x - 1\] and
/// q = C\[x + 1\] <<< 1: a form with a three-input XOR instruction does it in one, saving
/// the five D words; one without writes it as a ^ (p ^ q), and the compiler computes each
/// column's p ^ q once.
macro_rules! keccak_f1600_rounds {
    (
        $s:expr,
        $rcs:expr,
        $xor:ident,
        $xor5:ident,
        $theta:ident,
        $chi:ident,
        $rol:ident,
        $splat:ident
    ) => {{
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
            let (p0, q0) = (c4, $rol::<1, 63>(c1));
            let (p1, q1) = (c0, $rol::<1, 63>(c2));
            let (p2, q2) = (c1, $rol::<1, 63>(c3));
            let (p3, q3) = (c2, $rol::<1, 63>(c4));
            let (p4, q4) = (c3, $rol::<1, 63>(c0));
            let b0 = $theta(a0, p0, q0);
            let b10 = $rol::<1, 63>($theta(a1, p1, q1));
            let b20 = $rol::<62, 2>($theta(a2, p2, q2));
            let b5 = $rol::<28, 36>($theta(a3, p3, q3));
            let b15 = $rol::<27, 37>($theta(a4, p4, q4));
            let b16 = $rol::<36, 28>($theta(a5, p0, q0));
            let b1 = $rol::<44, 20>($theta(a6, p1, q1));
            let b11 = $rol::<6, 58>($theta(a7, p2, q2));
            let b21 = $rol::<55, 9>($theta(a8, p3, q3));
            let b6 = $rol::<20, 44>($theta(a9, p4, q4));
            let b7 = $rol::<3, 61>($theta(a10, p0, q0));
            let b17 = $rol::<10, 54>($theta(a11, p1, q1));
            let b2 = $rol::<43, 21>($theta(a12, p2, q2));
            let b12 = $rol::<25, 39>($theta(a13, p3, q3));
            let b22 = $rol::<39, 25>($theta(a14, p4, q4));
            let b23 = $rol::<41, 23>($theta(a15, p0, q0));
            let b8 = $rol::<45, 19>($theta(a16, p1, q1));
            let b18 = $rol::<15, 49>($theta(a17, p2, q2));
            let b3 = $rol::<21, 43>($theta(a18, p3, q3));
            let b13 = $rol::<8, 56>($theta(a19, p4, q4));
            let b14 = $rol::<18, 46>($theta(a20, p0, q0));
            let b24 = $rol::<2, 62>($theta(a21, p1, q1));
            let b9 = $rol::<61, 3>($theta(a22, p2, q2));
            let b19 = $rol::<56, 8>($theta(a23, p3, q3));
            let b4 = $rol::<14, 50>($theta(a24, p4, q4));
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
fn theta64(a: u64, p: u64, q: u64) -> u64 {
    a ^ (p ^ q)
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
///
/// On Thumb-2 Arm cores the sponges use the assembly one instead, and this stays as the
/// reference it is checked against (`kernel-parts`).
#[cfg_attr(
    all(vecrypt_arm_thumb2, not(feature = "kernel-parts")),
    allow(dead_code)
)]
#[inline(always)]
pub fn keccak_f1600(s: &mut [u64; 25]) {
    keccak_f1600_rounds!(s, KECCAK_RC, xor64, xor5_64, theta64, chi64, rol64, splat64);
}

/// A Keccak-f\[1600\] for the one-state sponges (the hashes H and G); a backend may bring a
/// faster one than [`keccak_f1600`]. It permutes a state in the sponge's form
/// ([`xor_lane`], [`read_lane`]): plain lanes, except on Thumb-2 Arm cores.
///
/// A value of the type is the proof that the CPU runs it: a backend's permutation is
/// only handed out by that backend's [`super::arith::Arith::keccak`].
pub trait KeccakF: Copy {
    fn permute(self, s: &mut [u64; 25]);
}

/// [`keccak_f1600`] on general-purpose registers.
#[derive(Clone, Copy)]
pub struct ScalarKeccak;

impl KeccakF for ScalarKeccak {
    #[inline(always)]
    fn permute(self, s: &mut [u64; 25]) {
        // On Thumb-2 Arm cores, the assembly on bit-interleaved words (`arm/keccak.rs`).
        #[cfg(vecrypt_arm_thumb2)]
        super::arm::keccak::permute_lanes(s);
        #[cfg(not(vecrypt_arm_thumb2))]
        keccak_f1600(s);
    }
}

// The form of the sponge's state. On Thumb-2 Arm cores it is the bit-interleaved, rotated
// form of the assembly permutation, so only the lanes read or written are converted, not
// the whole state at every permutation; elsewhere the plain lanes.
#[cfg(vecrypt_arm_thumb2)]
pub(super) use super::arm::keccak::{read_lane, read_lanes, xor_lane, xor_lanes};

/// XORs the plain lane `x` into lane `i` of the state (in the sponge's form).
#[cfg(not(vecrypt_arm_thumb2))]
#[inline(always)]
pub(super) fn xor_lane(s: &mut [u64; 25], i: usize, x: u64) {
    s[i] ^= x;
}

/// Lane `i` of the state (in the sponge's form), as a plain lane.
#[cfg(not(vecrypt_arm_thumb2))]
#[inline(always)]
pub(super) fn read_lane(s: &[u64; 25], i: usize) -> u64 {
    s[i]
}

/// XORs the little-endian lanes of `data` (a multiple of 8 bytes) into the lanes from
/// `first` on.
#[cfg(not(vecrypt_arm_thumb2))]
#[inline(always)]
fn xor_lanes(s: &mut [u64; 25], first: usize, data: &[u8]) {
    for (w, b) in s[first..].iter_mut().zip(data.chunks_exact(8)) {
        let mut le = [0u8; 8];
        le.copy_from_slice(b);
        *w ^= u64::from_le_bytes(le);
    }
}

/// Writes the lanes from `first` on to `out` (a multiple of 8 bytes), little-endian.
#[cfg(not(vecrypt_arm_thumb2))]
#[inline(always)]
fn read_lanes(s: &[u64; 25], first: usize, out: &mut [u8]) {
    for (o, w) in out.chunks_exact_mut(8).zip(&s[first..]) {
        o.copy_from_slice(&w.to_le_bytes());
    }
}

#[inline(always)]
fn xor_byte(state: &mut [u64; 25], at: usize, b: u8) {
    xor_lane(state, at / 8, u64::from(b) << (8 * (at % 8)));
}

impl<const RATE: usize> Shake<RATE> {
    /// Absorbs the concatenation of `parts` and pads (domain byte 0x1F).
    #[inline(always)]
    pub fn absorb(parts: &[&[u8]]) -> Self {
        Self::absorb_with_domain(parts, 0x1f)
    }

    /// A sponge with the all-zero state, ready for [`Self::absorb_short_in_place`].
    #[inline(always)]
    pub fn zero() -> Self {
        Shake {
            state: [0; 25],
            used: RATE,
        }
    }

    /// Absorbs an input shorter than one block (no permutation runs yet), SHAKE padding,
    /// into a sponge made by [`Self::zero`], so that an enclosing value is built in place.
    /// Keeps the caller's frame small: the permutation is not inlined here, and each lane
    /// is assembled on its own and XORed into the sponge's form, so no second copy of the
    /// state is made.
    #[inline(always)]
    pub fn absorb_short_in_place(&mut self, parts: &[&[u8]]) {
        let len: usize = parts.iter().map(|p| p.len()).sum();
        assert!(len < RATE, "input must be shorter than one block");
        let mut bytes = parts.iter().flat_map(|p| p.iter().copied());
        for i in 0..=len / 8 {
            let mut lane = [0u8; 8];
            for (j, b) in lane.iter_mut().enumerate() {
                let at = 8 * i + j;
                if at < len {
                    *b = bytes.next().unwrap_or(0);
                } else if at == len {
                    *b = 0x1f;
                }
            }
            xor_lane(&mut self.state, i, u64::from_le_bytes(lane));
            // The lanes may hold a secret seed.
            crate::wipe::bytes(&mut lane);
        }
        xor_lane(&mut self.state, RATE / 8 - 1, 0x80 << 56);
        self.used = RATE;
    }

    /// Absorbs and pads with `domain` (0x1F for SHAKE, 0x06 for SHA-3).
    #[inline(always)]
    fn absorb_with_domain(parts: &[&[u8]], domain: u8) -> Self {
        Self::absorb_with_domain_by(ScalarKeccak, parts, domain)
    }

    /// [`Self::absorb_with_domain`] with the permutation `K`.
    #[inline(always)]
    pub(super) fn absorb_with_domain_by<K: KeccakF>(k: K, parts: &[&[u8]], domain: u8) -> Self {
        let mut state = [0u64; 25];
        let mut at = 0;
        for p in parts {
            absorb_bytes::<RATE, K>(k, &mut state, &mut at, p);
        }
        xor_byte(&mut state, at, domain);
        xor_byte(&mut state, RATE - 1, 0x80);
        Shake { state, used: RATE }
    }

    /// Next `out.len()` bytes of output, whole 64-bit words where they line up.
    #[inline(always)]
    pub fn squeeze(&mut self, out: &mut [u8]) {
        self.squeeze_by(ScalarKeccak, out);
    }

    /// [`Self::squeeze`] with the permutation `K`.
    #[inline(always)]
    pub(super) fn squeeze_by<K: KeccakF>(&mut self, k: K, mut out: &mut [u8]) {
        while !out.is_empty() {
            if self.used == RATE {
                k.permute(&mut self.state);
                self.used = 0;
            }
            if self.used.is_multiple_of(8) && out.len() >= 8 {
                let words = ((RATE - self.used) / 8).min(out.len() / 8);
                let (head, tail) = out.split_at_mut(8 * words);
                read_lanes(&self.state, self.used / 8, head);
                self.used += 8 * words;
                out = tail;
            } else {
                let lane = read_lane(&self.state, self.used / 8);
                out[0] = (lane >> (8 * (self.used % 8))) as u8;
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
    k: K,
    state: &mut [u64; 25],
    at: &mut usize,
    mut data: &[u8],
) {
    while !data.is_empty() {
        if at.is_multiple_of(8) && data.len() >= 8 {
            let words = ((RATE - *at) / 8).min(data.len() / 8);
            let (head, tail) = data.split_at(8 * words);
            xor_lanes(state, *at / 8, head);
            *at += 8 * words;
            data = tail;
        } else {
            xor_byte(state, *at, data[0]);
            *at += 1;
            data = &data[1..];
        }
        if *at == RATE {
            k.permute(state);
            *at = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The short absorb (lane by lane, in place) squeezes what the general absorb does, for
    /// every input length below the rate and inputs split into two parts anywhere.
    fn short_absorb_matches<const RATE: usize>() {
        let data: [u8; 200] = core::array::from_fn(|i| (i as u8).wrapping_mul(151) ^ 0x5a);
        for len in 0..RATE {
            for cut in [0, len / 3, len] {
                let parts: [&[u8]; 2] = [&data[..cut], &data[cut..len]];
                let mut short = Shake::<RATE>::zero();
                short.absorb_short_in_place(&parts);
                let mut general = Shake::<RATE>::absorb(&parts);
                let mut a = [0u8; 2 * 168 + 5];
                let mut b = [0u8; 2 * 168 + 5];
                short.squeeze(&mut a);
                general.squeeze(&mut b);
                assert_eq!(a, b, "rate {RATE}, length {len}, cut {cut}");
            }
        }
    }

    #[test]
    fn short_absorb_matches_the_general_absorb() {
        short_absorb_matches::<SHAKE128_RATE>();
        short_absorb_matches::<SHAKE256_RATE>();
    }
}
