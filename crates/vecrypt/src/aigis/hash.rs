//! The two hash modes of Aigis-enc, portable versions.
//!
//! | role | SHAKE mode | SM3 mode |
//! |---|---|---|
//! | H (32 bytes) | SHA3-256 | SM3(BE32(0) ‖ in) |
//! | G (64 bytes) | SHA3-512 | SM3(BE32(0) ‖ in) ‖ SM3(BE32(1) ‖ in) |
//! | matrix XOF | SHAKE128, 168-byte blocks | SM3(BE32(c) ‖ in), 32-byte blocks |
//! | noise PRF | SHAKE256 | SM3(BE32(c) ‖ in) for c = 0, 1, ... |

use sha3::digest::Digest;
use sha3::{Sha3_256, Sha3_512};
use sm3::Sm3;

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
        match s.trim().to_ascii_lowercase().as_str() {
            "shake" => Some(HashMode::Shake),
            "sm3" => Some(HashMode::Sm3),
            _ => None,
        }
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
pub const SHAKE256_RATE: usize = 136;
pub const SM3_RATE: usize = 32;

/// SHAKE128 (RATE = 168) or SHAKE256 (RATE = 136), absorbed once, squeezed as a stream.
#[derive(Clone)]
pub struct Shake<const RATE: usize> {
    state: [u64; 25],
    /// Bytes of the current output block already read.
    used: usize,
}

/// The Keccak-f[1600] permutation (the `keccak` crate picks the implementation).
pub fn keccak_f1600(state: &mut [u64; 25]) {
    keccak::Keccak::new().with_f1600(|f| f(state));
}

fn xor_byte(state: &mut [u64; 25], at: usize, b: u8) {
    state[at / 8] ^= u64::from(b) << (8 * (at % 8));
}

impl<const RATE: usize> Shake<RATE> {
    /// Absorbs the concatenation of `parts` and pads (domain byte 0x1F).
    pub fn absorb(parts: &[&[u8]]) -> Self {
        let mut state = [0u64; 25];
        let mut at = 0;
        for p in parts {
            for &b in p.iter() {
                xor_byte(&mut state, at, b);
                at += 1;
                if at == RATE {
                    keccak_f1600(&mut state);
                    at = 0;
                }
            }
        }
        xor_byte(&mut state, at, 0x1f);
        xor_byte(&mut state, RATE - 1, 0x80);
        Shake { state, used: RATE }
    }

    /// Next `out.len()` bytes of output.
    pub fn squeeze(&mut self, out: &mut [u8]) {
        for o in out.iter_mut() {
            if self.used == RATE {
                keccak_f1600(&mut self.state);
                self.used = 0;
            }
            *o = (self.state[self.used / 8] >> (8 * (self.used % 8))) as u8;
            self.used += 1;
        }
    }
}

/// One SM3 digest of `BE32(counter) ‖ parts...`.
pub fn sm3_counter_block(counter: u32, parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sm3::new();
    Digest::update(&mut h, counter.to_be_bytes());
    for p in parts {
        Digest::update(&mut h, p);
    }
    h.finalize().into()
}

/// H: 32 bytes from the concatenation of `parts`.
pub fn hash_h(mode: HashMode, parts: &[&[u8]]) -> [u8; SEED_BYTES] {
    match mode {
        HashMode::Shake => {
            let mut h = Sha3_256::new();
            for p in parts {
                Digest::update(&mut h, p);
            }
            h.finalize().into()
        }
        HashMode::Sm3 => sm3_counter_block(0, parts),
    }
}

/// G: 64 bytes from `input`.
pub fn hash_g(mode: HashMode, input: &[u8]) -> [u8; 2 * SEED_BYTES] {
    let mut out = [0u8; 2 * SEED_BYTES];
    match mode {
        HashMode::Shake => out.copy_from_slice(&Sha3_512::digest(input)),
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
            HashMode::Shake => MatrixXof::Shake(Shake::absorb(&[rho, &[first, second]])),
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
    pub fn squeeze(&mut self, out: &mut [u8]) {
        match self {
            MatrixXof::Shake(x) => x.squeeze(out),
            MatrixXof::Sm3 { input, counter } => {
                for chunk in out.chunks_mut(SM3_RATE) {
                    chunk.copy_from_slice(&sm3_counter_block(*counter, &[input]));
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
        let g = hash_g(HashMode::Sm3, b"abc");
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
    fn sm3_known_answer() {
        // GB/T 32905-2016 example 1: SM3("abc").
        let mut h = Sm3::new();
        Digest::update(&mut h, b"abc");
        let d: [u8; 32] = h.finalize().into();
        assert_eq!(d[..4], [0x66, 0xc7, 0xf0, 0xf4]);
    }
}
