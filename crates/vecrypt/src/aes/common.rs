//! What the front and every backend's kernels share: the round keys, the counter widths,
//! the XTS tweak step and the powers of a GHASH key.

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
