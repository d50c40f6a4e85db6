//! What the front and every backend's kernels share: the round keys, the counter widths,
//! the XTS tweak step, and [`Kernels`], the table of entry points one SIMD backend gives the
//! front. The front looks a key's table up once, when it is keyed.

use crate::modes::Chain;

/// Encryption round keys and the round keys of the equivalent inverse cipher; for the
/// portable backend also the encryption keys in its bit planes (empty for the others).
#[derive(Clone)]
pub(crate) struct RoundKeys {
    pub(crate) enc: [[u8; 16]; 15],
    pub(crate) dec: [[u8; 16]; 15],
    pub(crate) rounds: usize,
    pub(crate) sliced: super::soft::SlicedKeys,
}

impl RoundKeys {
    /// All-zero keys for `rounds` rounds, to be filled by the key schedule.
    pub(crate) fn empty(rounds: usize) -> Self {
        Self {
            enc: [[0u8; 16]; 15],
            dec: [[0u8; 16]; 15],
            rounds,
            sliced: super::soft::SlicedKeys::empty(),
        }
    }
}

impl Drop for RoundKeys {
    fn drop(&mut self) {
        crate::wipe::value(&mut self.enc);
        crate::wipe::value(&mut self.dec);
        self.sliced.wipe();
    }
}

/// Which low part of the counter block a CTR kernel adds in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum CounterWidth {
    /// The last 32 bits, wrapping on their own (GCM, SP 800-38D `inc32`).
    Low32,
    /// The last 64 bits; the caller splits the data so that they never carry further.
    Low64,
}

impl CounterWidth {
    /// The bytes at the end of the counter block that count.
    pub(crate) const fn bytes(self) -> usize {
        match self {
            CounterWidth::Low32 => 4,
            CounterWidth::Low64 => 8,
        }
    }
}

/// Multiplication by x in GF(2^128) with XTS's little-endian convention, without a branch.
#[inline(always)]
pub(crate) fn next_tweak(t: u128) -> u128 {
    (t << 1) ^ (0x87 & 0u128.wrapping_sub(t >> 127))
}

pub(crate) use crate::ghash::HashPowers;

/// One-pass GCM: round keys, powers, whether to decrypt, first counter, GHASH state, data.
pub(crate) type GcmFn =
    fn(&RoundKeys, &HashPowers, bool, &[u8; 16], &mut [u8; 16], &mut [u8]) -> bool;

/// GCM of a whole message in one kernel call: round keys, powers, whether to decrypt, the
/// pre-counter block J0, associated data and text; the full tag (before any truncation),
/// or `None`, doing nothing, when the backend has no such kernel for this message.
pub(crate) type GcmMessageFn =
    fn(&RoundKeys, &HashPowers, bool, &[u8; 16], &[u8], &mut [u8]) -> Option<[u8; 16]>;

/// XTS: data round keys, the tweak key's (when the tweak is still to be encrypted), whether
/// to decrypt, the tweak, data.
pub(crate) type XtsFn = fn(&RoundKeys, Option<&RoundKeys>, bool, u128, &mut [u8]) -> Option<u128>;

/// CBC encryption of several streams: their round keys, chain values and data.
#[cfg(feature = "alloc")]
pub(crate) type StreamsFn = fn(&[&RoundKeys], &mut [[u8; 16]], &mut [&mut [u8]]) -> bool;

/// The entry points of one SIMD backend. Each runs its whole loop in one kernel and returns
/// `false` (or `None`), without touching the data, when this CPU cannot run that kernel or
/// the backend has no fused kernel for the job; the front then takes the portable path,
/// built on the ECB entries. Buffers are whole blocks.
pub(crate) struct Kernels {
    /// A chained mode with one chain, carried in and out by the block.
    pub(crate) chain: fn(&RoundKeys, Chain, &mut [u8; 16], &mut [u8]) -> bool,
    /// CFB decryption (whole-block feedback); the block ends as the last ciphertext block.
    pub(crate) cfb_decrypt: fn(&RoundKeys, &mut [u8; 16], &mut [u8]) -> bool,
    /// XTS under consecutive tweaks (decrypting if asked) from the given one, or from it
    /// encrypted under the tweak key when one is given; the next tweak.
    pub(crate) xts: XtsFn,
    /// GCM: CTR (32-bit counter) and GHASH of the ciphertext into the state, in one pass,
    /// with the powers of [`crate::ghash::Ghash::powers`].
    pub(crate) gcm: GcmFn,
    /// GCM of a whole message in one call, for the messages where that beats the general
    /// path; which those are, each backend decides (see the x86 module).
    pub(crate) gcm_message: GcmMessageFn,
    /// CBC encryption of several streams of one key size, one key and chain each, all done
    /// or none.
    #[cfg(feature = "alloc")]
    pub(crate) cbc_encrypt_streams: StreamsFn,
}
