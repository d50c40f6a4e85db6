//! GHASH (SP 800-38D, 6.4) in portable constant-time Rust: the bit-serial multiplication of
//! the specification with masks instead of branches. The x86 backends use carry-less
//! multiplication instead; this is the reference they are tested against.

/// Most blocks the x86 kernels fold into one GHASH reduction.
pub(crate) const MAX_BATCH: usize = 32;
/// Blocks of GHASH powers the x86 kernels keep: H^32 down to H^1, then zeros so that a
/// register loaded past H^1 multiplies padding lanes by zero.
pub(crate) const POWERS: usize = MAX_BATCH + 4;

/// `x * h` in GF(2^128) with GCM's bit order (the first bit of a block is the constant term).
fn mul(x: u128, h: u128) -> u128 {
    let mut z = 0u128;
    let mut v = h;
    for i in 0..128 {
        let bit = (x >> (127 - i)) & 1;
        z ^= v & 0u128.wrapping_sub(bit);
        let lsb = v & 1;
        v = (v >> 1) ^ ((0xe1u128 << 120) & 0u128.wrapping_sub(lsb));
    }
    z
}

/// Absorbs whole blocks of `data` into the GHASH state `acc` under the hash key `h`. Kept
/// out of line: inlined into GCM's two-pass loop, the bit-serial product compiled slower.
#[inline(never)]
pub(crate) fn update(h: &[u8; 16], acc: &mut [u8; 16], data: &[u8]) {
    let h = u128::from_be_bytes(*h);
    let mut y = u128::from_be_bytes(*acc);
    for block in data.chunks_exact(16) {
        let mut x = [0u8; 16];
        x.copy_from_slice(block);
        y = mul(y ^ u128::from_be_bytes(x), h);
    }
    *acc = y.to_be_bytes();
}
