//! The two hash modes of Aigis-enc, portable versions.
//!
//! | role | SHAKE mode | SM3 mode |
//! |---|---|---|
//! | H (32 bytes) | SHA3-256 | SM3(BE32(0) ‖ in) |
//! | G (64 bytes) | SHA3-512 | SM3(BE32(0) ‖ in) ‖ SM3(BE32(1) ‖ in) |
//! | matrix XOF | SHAKE128, 168-byte blocks | SM3(BE32(c) ‖ in), 32-byte blocks |
//! | noise PRF | SHAKE256 | SM3(BE32(c) ‖ in) for c = 0, 1, ... |

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

pub use super::sm3_counter::{sm3_counter_block, sm3_short_counter_block};
use super::sm3_counter::{sm3_counter0_first_block, sm3_counter0_resume};
pub use super::sponge::{
    KeccakF, SHA3_256_RATE, SHA3_512_RATE, SHAKE128_RATE, SHAKE256_RATE, SM3_RATE, ScalarKeccak,
    Shake,
};

/// H: 32 bytes from the concatenation of `parts`.
#[inline(always)]
pub fn hash_h(mode: HashMode, parts: &[&[u8]]) -> [u8; SEED_BYTES] {
    hash_h_by(ScalarKeccak, mode, parts)
}

/// [`hash_h`] with the permutation `K` in SHAKE mode.
#[inline(always)]
pub fn hash_h_by<K: KeccakF>(k: K, mode: HashMode, parts: &[&[u8]]) -> [u8; SEED_BYTES] {
    match mode {
        HashMode::Shake => {
            let mut out = [0u8; SEED_BYTES];
            let mut sponge = Shake::<SHA3_256_RATE>::absorb_with_domain_by(k, parts, 0x06);
            sponge.squeeze_by(k, &mut out);
            // The inputs include secrets (coins, m); the state is wiped, not just dropped.
            crate::wipe::u64s(&mut sponge.state);
            out
        }
        HashMode::Sm3 => sm3_counter_block(0, parts),
    }
}

/// What H(a ‖ b) and H(a ‖ b ‖ c) share: in SM3 mode, with a ‖ b at least 60 bytes (the
/// KEM's m ‖ H(pk)), the chaining value of their common first block; in SHAKE mode nothing
/// (a ‖ b fits the first block, whose padding differs). Wiped on drop.
pub struct SharedPrefix(Option<[u32; 8]>);

impl Drop for SharedPrefix {
    fn drop(&mut self) {
        if let Some(v) = self.0.as_mut() {
            crate::wipe::array(v);
        }
    }
}

/// H(a ‖ b), and what [`hash_h_extended`] needs to compute H(a ‖ b ‖ c) from it.
#[inline(always)]
pub fn hash_h_shared<K: KeccakF>(
    k: K,
    mode: HashMode,
    a: &[u8],
    b: &[u8],
) -> ([u8; SEED_BYTES], SharedPrefix) {
    match mode {
        HashMode::Shake => (hash_h_by(k, mode, &[a, b]), SharedPrefix(None)),
        HashMode::Sm3 => match sm3_counter0_first_block(&[a, b]) {
            Some(v) => (sm3_counter0_resume(&v, &[a, b]), SharedPrefix(Some(v))),
            None => (hash_h_by(k, mode, &[a, b]), SharedPrefix(None)),
        },
    }
}

/// H(a ‖ b ‖ c), with `prefix` from [`hash_h_shared`] on the same a and b.
#[inline(always)]
pub fn hash_h_extended<K: KeccakF>(
    k: K,
    mode: HashMode,
    prefix: &SharedPrefix,
    a: &[u8],
    b: &[u8],
    c: &[u8],
) -> [u8; SEED_BYTES] {
    match &prefix.0 {
        Some(v) => sm3_counter0_resume(v, &[a, b, c]),
        None => hash_h_by(k, mode, &[a, b, c]),
    }
}

/// G: 64 bytes from `input`, with the permutation `K` in SHAKE mode.
#[inline(always)]
pub fn hash_g_by<K: KeccakF>(k: K, mode: HashMode, input: &[u8]) -> [u8; 2 * SEED_BYTES] {
    let mut out = [0u8; 2 * SEED_BYTES];
    match mode {
        HashMode::Shake => {
            let mut sponge = Shake::<SHA3_512_RATE>::absorb_with_domain_by(k, &[input], 0x06);
            sponge.squeeze_by(k, &mut out);
            crate::wipe::u64s(&mut sponge.state);
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
    /// A stream that has absorbed nothing; [`Self::start`] absorbs its input. The two
    /// steps let a caller build the stream in its own frame: a value returned after its
    /// address was taken is copied, and the sponge is 200 bytes.
    #[inline(always)]
    pub fn empty(mode: HashMode) -> Self {
        match mode {
            HashMode::Shake => NoiseStream::Shake(Shake::zero()),
            HashMode::Sm3 => NoiseStream::Sm3 {
                input: [0; SEED_BYTES + 1],
                counter: 0,
                block: [0; SM3_RATE],
                used: SM3_RATE,
            },
        }
    }

    /// Absorbs (seed, nonce) into a stream made by [`Self::empty`].
    #[inline(always)]
    pub fn start(&mut self, seed: &[u8; SEED_BYTES], nonce: u8) {
        match self {
            NoiseStream::Shake(sponge) => sponge.absorb_short_in_place(&[seed, &[nonce]]),
            NoiseStream::Sm3 { input, .. } => {
                input[..SEED_BYTES].copy_from_slice(seed);
                input[SEED_BYTES] = nonce;
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
            NoiseStream::Shake(x) => crate::wipe::u64s(&mut x.state),
            NoiseStream::Sm3 { input, block, .. } => {
                crate::wipe::bytes(input);
                crate::wipe::bytes(block);
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
    /// An XOF that has absorbed nothing; [`Self::start`] absorbs (built in two steps, for
    /// the reason given at [`NoiseStream::empty`]).
    #[inline(always)]
    pub fn empty(mode: HashMode) -> Self {
        match mode {
            HashMode::Shake => MatrixXof::Shake(Shake::zero()),
            HashMode::Sm3 => MatrixXof::Sm3 {
                input: [0; SEED_BYTES + 2],
                counter: 0,
            },
        }
    }

    /// Absorbs ρ ‖ first ‖ second into an XOF made by [`Self::empty`].
    #[inline(always)]
    pub fn start(&mut self, rho: &[u8; SEED_BYTES], first: u8, second: u8) {
        match self {
            MatrixXof::Shake(sponge) => sponge.absorb_short_in_place(&[rho, &[first, second]]),
            MatrixXof::Sm3 { input, .. } => {
                input[..SEED_BYTES].copy_from_slice(rho);
                input[SEED_BYTES] = first;
                input[SEED_BYTES + 1] = second;
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
    use crate::aigis::sponge::keccak_f1600;

    #[test]
    fn first_squeeze_lengths_match_the_reference() {
        assert_eq!(HashMode::Shake.xof_first_blocks() * SHAKE128_RATE, 504);
        assert_eq!(HashMode::Sm3.xof_first_blocks() * SM3_RATE, 480);
    }

    #[test]
    fn shared_prefix_hashes_equal_the_plain_ones() {
        let data: Vec<u8> = (0..300u32).map(|i| (i * 73 + 5) as u8).collect();
        for mode in [HashMode::Shake, HashMode::Sm3] {
            for (la, lb) in [
                (32usize, 32usize),
                (0, 59),
                (0, 60),
                (30, 30),
                (61, 0),
                (64, 64),
            ] {
                let (a, b) = (&data[..la], &data[100..100 + lb]);
                let (h, prefix) = hash_h_shared(ScalarKeccak, mode, a, b);
                assert_eq!(h, hash_h(mode, &[a, b]), "{} {la} {lb}", mode.name());
                assert_eq!(prefix.0.is_some(), mode == HashMode::Sm3 && la + lb >= 60);
                for lc in [0usize, 1, 32, 55, 56, 63, 64, 65, 130] {
                    let c = &data[170..170 + lc];
                    let got = hash_h_extended(ScalarKeccak, mode, &prefix, a, b, c);
                    assert_eq!(
                        got,
                        hash_h(mode, &[a, b, c]),
                        "{} {la} {lb} {lc}",
                        mode.name()
                    );
                }
            }
        }
    }

    #[test]
    fn sm3_mode_g_is_two_counter_blocks() {
        let g = hash_g_by(ScalarKeccak, HashMode::Sm3, b"abc");
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
            let g = hash_g_by(ScalarKeccak, HashMode::Shake, &data);
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
            let mut s = NoiseStream::empty(mode);
            s.start(&[9; 32], 5);
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
