//! MGM, the Multilinear Galois Mode AEAD of RFC 9058, over Kuznyechik.
//!
//! Two counters run from one nonce: `Y` (its right half incremented) gives the CTR
//! keystream, `Z` (its left half incremented) gives a fresh multiplier `H_i = E(Z_i)` for
//! every block of associated data and ciphertext. The tag is `E(sum H_i * block_i)` in
//! GF(2^128) mod x^128 + x^7 + x^2 + x + 1, big-endian, with no bit reflection.
//!
//! On the AVX-512 backend (with VPCLMULQDQ) the whole 64-block batches run fused: both
//! counters start at their second round from per-key tables, the keystream is XORed in as
//! it leaves the sliced layout and the multipliers go from it straight into the carry-less
//! products (`x86::avx512::mgm`); decryption's keystream is the CTR kernel counting in the right
//! half. Elsewhere, and for the last partial batch, both counters of a batch go to the
//! cipher in one call (256 `Y` and 256 `Z` blocks, eight batches of the widest backend; a
//! short last batch is packed the same way). The products of a call are summed unreduced
//! and reduced once. Decryption checks the tag before it writes any plaintext.
//!
//! Speed bound: every data block needs two block encryptions (its `Y` keystream block and
//! its `Z` multiplier), so MGM runs at most at half the CTR speed of the backend; the
//! products (four blocks per VPCLMULQDQ on AVX-512) and taking the multipliers out of the
//! sliced layout add about 4% on top.

use aead::consts::U16;
use cipher::{Key, KeyInit, KeySizeUser};

use super::dispatch::Kernels;
use super::native::Native;
use super::{BLOCK, Kuznyechik};
use crate::Error;
use crate::cpu::Backend;
use crate::modes::BlockKernel;
#[cfg(feature = "release-unverified")]
use crate::modes::stream::{Inner, StreamCore};

/// Data blocks per batch: their `Y` and `Z` counter blocks go to one cipher call of eight
/// 64-block batches of the widest backend, so that the per-call set-up is amortized.
const BATCH: usize = 256;
/// Shortest tag accepted, in bytes (RFC 9058 allows 32 to 128 bits).
pub const MIN_TAG: usize = 4;

/// Kuznyechik-MGM with a 16-byte nonce (its top bit must be zero) and a 16-byte tag.
#[derive(Clone, Debug)]
pub struct KuznyechikMgm {
    cipher: Kuznyechik,
}

impl KuznyechikMgm {
    /// MGM over an already keyed cipher.
    pub fn new(cipher: Kuznyechik) -> Self {
        Self { cipher }
    }

    /// Keys MGM on the best backend for this CPU.
    pub fn from_key(key: &[u8]) -> Result<Self, Error> {
        Ok(Self::new(Kuznyechik::from_key(key)?))
    }

    /// Keys MGM on `backend`, or fails if this CPU cannot run it.
    pub fn with_backend(key: &[u8], backend: Backend) -> Result<Self, Error> {
        Ok(Self::new(Kuznyechik::with_backend(key, backend)?))
    }

    /// The backend of the underlying cipher.
    pub fn backend(&self) -> Backend {
        self.cipher.backend()
    }

    /// Encrypts `buf` in place and returns the full 16-byte tag (truncate it to the
    /// protocol's length if that is shorter).
    pub fn encrypt_detached(
        &self,
        nonce: &[u8],
        ad: &[u8],
        buf: &mut [u8],
    ) -> Result<[u8; BLOCK], Error> {
        let start = Counters::new(&self.cipher, nonce, ad.len(), buf.len())?;
        let mut mac = Accumulator::default();
        let mut z = start.z;
        self.absorb(&mut z, ad, &mut mac);
        let mut y = start.y;
        self.seal_text(&mut y, &mut z, buf, &mut mac);
        Ok(self.finish(&mut z, &mut mac, ad.len() as u64, buf.len() as u64))
    }

    /// Encrypts `buf` with the keystream of `y` and adds the products of its (zero-padded)
    /// ciphertext blocks with the multipliers of `z`, both counters advancing.
    fn seal_text(&self, y: &mut u128, z: &mut u128, buf: &mut [u8], mac: &mut Accumulator) {
        let done = self.seal_wide(y, z, buf, mac);
        if done < buf.len() {
            let mut both = [0u8; 2 * BATCH * BLOCK];
            for chunk in buf[done..].chunks_mut(BATCH * BLOCK) {
                let blocks = chunk.len().div_ceil(BLOCK);
                let stream_len = blocks * BLOCK;
                // One call: the keystream and the multipliers of the batch side by side.
                let both = &mut both[..2 * stream_len];
                let (ys, zs) = both.split_at_mut(stream_len);
                fill(ys, blocks, y, Half::Right);
                fill(zs, blocks, z, Half::Left);
                self.cipher.kernel_encrypt(both);
                let (ys, zs) = both.split_at(stream_len);
                for (d, k) in chunk.iter_mut().zip(ys) {
                    *d ^= *k;
                }
                mac.add_padded(zs, chunk);
            }
            crate::wipe::bytes(&mut both);
        }
    }

    /// Checks `tag` (4 to 16 bytes, compared in constant time with the start of the
    /// computed tag) and only then decrypts `buf` in place. On failure `buf` is untouched.
    pub fn decrypt_detached(
        &self,
        nonce: &[u8],
        ad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        if !(MIN_TAG..=BLOCK).contains(&tag.len()) {
            return Err(Error::InvalidLength);
        }
        let start = Counters::new(&self.cipher, nonce, ad.len(), buf.len())?;
        let mut mac = Accumulator::default();
        let mut z = start.z;
        self.absorb(&mut z, ad, &mut mac);
        self.absorb(&mut z, buf, &mut mac);
        let expected = self.finish(&mut z, &mut mac, ad.len() as u64, buf.len() as u64);
        if !bool::from(crate::ct::bytes_eq(&expected[..tag.len()], tag)) {
            return Err(Error::AuthenticationFailed);
        }
        let mut y = start.y;
        self.keystream(&mut y, buf);
        Ok(())
    }

    /// XORs the keystream of `y` into `buf`, leaving `y` past its (last, maybe partial)
    /// block.
    fn keystream(&self, y: &mut u128, buf: &mut [u8]) {
        let start = *y;
        let mut counter = y.to_be_bytes();
        let (rk, kernels) = (&self.cipher.rk, &self.cipher.kernels);
        if kernels.mgm_keystream(rk, &mut counter, buf).done() {
            let blocks = buf.len().div_ceil(BLOCK) as u64;
            *y = (start >> 64 << 64) | u128::from((start as u64).wrapping_add(blocks));
            crate::wipe::array(&mut counter);
            return;
        }
        let mut stream = [0u8; 2 * BATCH * BLOCK];
        for chunk in buf.chunks_mut(2 * BATCH * BLOCK) {
            let blocks = chunk.len().div_ceil(BLOCK);
            fill(&mut stream, blocks, y, Half::Right);
            self.cipher.kernel_encrypt(&mut stream[..blocks * BLOCK]);
            for (d, k) in chunk.iter_mut().zip(stream.iter()) {
                *d ^= *k;
            }
        }
        crate::wipe::bytes(&mut stream);
    }

    /// Adds `H_i * block` for every (zero-padded) block of `data`, advancing `z`.
    fn absorb(&self, z: &mut u128, data: &[u8], mac: &mut Accumulator) {
        let done = self.absorb_wide(z, data, mac);
        if done == data.len() {
            return;
        }
        let mut hs = [0u8; 2 * BATCH * BLOCK];
        for chunk in data[done..].chunks(2 * BATCH * BLOCK) {
            let blocks = chunk.len().div_ceil(BLOCK);
            fill(&mut hs, blocks, z, Half::Left);
            self.cipher.kernel_encrypt(&mut hs[..blocks * BLOCK]);
            mac.add_padded(&hs[..blocks * BLOCK], chunk);
        }
        crate::wipe::bytes(&mut hs);
    }

    /// [`Self::absorb`] over the whole 64-block batches at the front of `data` on the fused
    /// AVX-512 kernel, when the cipher runs there; returns the bytes covered.
    fn absorb_wide(&self, z: &mut u128, data: &[u8], mac: &mut Accumulator) -> usize {
        let (rk, kernels) = (&self.cipher.rk, &self.cipher.kernels);
        match kernels.mgm_absorb(rk, z, data) {
            Some((done, (low, high))) => {
                mac.low ^= low;
                mac.high ^= high;
                done
            }
            None => 0,
        }
    }

    /// Encryption and its products over the whole 64-block batches at the front of `buf` on
    /// the fused AVX-512 kernel, when the cipher runs there; returns the bytes covered.
    fn seal_wide(
        &self,
        y: &mut u128,
        z: &mut u128,
        buf: &mut [u8],
        mac: &mut Accumulator,
    ) -> usize {
        let (rk, kernels) = (&self.cipher.rk, &self.cipher.kernels);
        match kernels.mgm_seal(rk, y, z, buf) {
            Some((done, (low, high))) => {
                mac.low ^= low;
                mac.high ^= high;
                done
            }
            None => 0,
        }
    }

    /// The last block `len(A) || len(C)` in bits, then the tag.
    fn finish(&self, z: &mut u128, mac: &mut Accumulator, ad: u64, text: u64) -> [u8; 16] {
        let mut h = z.to_be_bytes();
        self.cipher.kernel_encrypt(&mut h);
        let mut lengths = [0u8; BLOCK];
        lengths[..8].copy_from_slice(&(ad * 8).to_be_bytes());
        lengths[8..].copy_from_slice(&(text * 8).to_be_bytes());
        mac.add_padded(&h, &lengths);
        let mut tag = mac.reduce().to_be_bytes();
        self.cipher.kernel_encrypt(&mut tag);
        crate::wipe::array(&mut h);
        mac.clear();
        tag
    }
}

/// The starting values of both counters.
struct Counters {
    y: u128,
    z: u128,
}

impl Counters {
    fn new(cipher: &Kuznyechik, nonce: &[u8], ad: usize, text: usize) -> Result<Self, Error> {
        let nonce: [u8; BLOCK] = nonce.try_into().map_err(|_| Error::IvLength {
            expected: BLOCK,
            got: nonce.len(),
        })?;
        if nonce[0] & 0x80 != 0 {
            return Err(Error::InvalidNonce);
        }
        // Each length must fit the 64-bit bit count of the last block, and the Z counter must
        // not wrap: at most 2^64 - 1 multipliers.
        let bits = |len: usize| (len as u128) * 8;
        let blocks = (ad.div_ceil(BLOCK) + text.div_ceil(BLOCK)) as u128 + 1;
        if bits(ad) > u128::from(u64::MAX) || bits(text) > u128::from(u64::MAX) || blocks >= 1 << 64
        {
            return Err(Error::InvalidLength);
        }
        // Y_1 = E(0 || N) and Z_1 = E(1 || N) in one call: on the vector backends they share
        // a register, and the call's latency.
        let mut both = [0u8; 2 * BLOCK];
        both[..BLOCK].copy_from_slice(&nonce);
        both[BLOCK..].copy_from_slice(&nonce);
        both[BLOCK] |= 0x80;
        cipher.kernel_encrypt(&mut both);
        let (y, z) = both.split_at(BLOCK);
        let start = Self {
            y: u128::from_be_bytes(y.try_into().expect("one block")),
            z: u128::from_be_bytes(z.try_into().expect("one block")),
        };
        crate::wipe::array(&mut both);
        Ok(start)
    }
}

/// `incr_r`: the right (low) 64 bits plus one, modulo 2^64.
fn increment_right(v: u128) -> u128 {
    let left = v >> 64 << 64;
    left | u128::from((v as u64).wrapping_add(1))
}

/// `incr_l`: the left (high) 64 bits plus one, modulo 2^64.
fn increment_left(v: u128) -> u128 {
    let right = v & u128::from(u64::MAX);
    (u128::from(((v >> 64) as u64).wrapping_add(1)) << 64) | right
}

/// Which half of a counter block moves: Y counts in the right (low) half, Z in the left.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Half {
    Left,
    Right,
}

/// Writes `blocks` successive counter values into `out`, advancing `counter`.
fn fill(out: &mut [u8], blocks: usize, counter: &mut u128, half: Half) {
    if Native::mgm_fill_counters(out, blocks, counter, half == Half::Left).done() {
        return;
    }
    let next = match half {
        Half::Left => increment_left,
        Half::Right => increment_right,
    };
    for block in out.chunks_exact_mut(BLOCK).take(blocks) {
        block.copy_from_slice(&counter.to_be_bytes());
        *counter = next(*counter);
    }
}

/// The running sum of products, as an unreduced 256-bit polynomial.
#[derive(Default)]
struct Accumulator {
    low: u128,
    high: u128,
}

impl Accumulator {
    /// Adds `H_i * X_i` for the blocks of `hs` and of `xs` zero-padded to as many blocks.
    fn add_padded(&mut self, hs: &[u8], xs: &[u8]) {
        let whole = xs.len() / BLOCK * BLOCK;
        self.add(&hs[..whole], &xs[..whole]);
        if whole < xs.len() {
            let mut last = [0u8; BLOCK];
            last[..xs.len() - whole].copy_from_slice(&xs[whole..]);
            self.add(&hs[whole..whole + BLOCK], &last);
            crate::wipe::array(&mut last);
        }
    }

    fn add(&mut self, hs: &[u8], xs: &[u8]) {
        if let Some((low, high)) = Native::mgm_mul_sum(hs, xs) {
            self.low ^= low;
            self.high ^= high;
            return;
        }
        for (h, x) in hs.chunks_exact(BLOCK).zip(xs.chunks_exact(BLOCK)) {
            let (low, high) = clmul_portable(
                u128::from_be_bytes(h.try_into().expect("16 bytes")),
                u128::from_be_bytes(x.try_into().expect("16 bytes")),
            );
            self.low ^= low;
            self.high ^= high;
        }
    }

    /// The sum modulo x^128 + x^7 + x^2 + x + 1.
    fn reduce(&self) -> u128 {
        reduce(self.low, self.high)
    }

    fn clear(&mut self) {
        crate::wipe::value(&mut self.low);
        crate::wipe::value(&mut self.high);
    }
}

/// Carry-less 128x128 multiplication without branches or secret-indexed memory.
fn clmul_portable(a: u128, b: u128) -> (u128, u128) {
    let (mut low, mut high) = (0u128, 0u128);
    for i in 0..128 {
        let mask = ((b >> i) & 1).wrapping_neg();
        low ^= (a << i) & mask;
        // The bits of `a << i` that leave the low half; `i = 0` leaves none.
        high ^= (a.checked_shr(128 - i).unwrap_or(0)) & mask;
    }
    (low, high)
}

/// `high * x^128 + low` modulo x^128 + x^7 + x^2 + x + 1: x^128 is x^7 + x^2 + x + 1, folded
/// twice (the first fold can overflow by seven bits).
fn reduce(low: u128, high: u128) -> u128 {
    let fold = |h: u128| h ^ (h << 1) ^ (h << 2) ^ (h << 7);
    let overflow = (high >> 127) ^ (high >> 126) ^ (high >> 121);
    low ^ fold(high) ^ fold(overflow)
}

#[cfg(feature = "release-unverified")]
impl KuznyechikMgm {
    /// Runs `f` on the stream's MGM state as the one-shot code holds it.
    fn with_state<R>(
        s: &mut Inner,
        f: impl FnOnce(&mut u128, &mut u128, &mut Accumulator) -> R,
    ) -> Result<R, Error> {
        let Inner::Mgm { y, z, low, high } = s else {
            return Err(Error::InvalidParameter);
        };
        let mut mac = Accumulator {
            low: *low,
            high: *high,
        };
        let r = f(y, z, &mut mac);
        (*low, *high) = (mac.low, mac.high);
        mac.clear();
        Ok(r)
    }
}

#[cfg(feature = "release-unverified")]
impl StreamCore for KuznyechikMgm {
    // The bit lengths fill 64 bits.
    const MAX_AAD: u64 = u64::MAX / 8;
    const MAX_TEXT: u64 = u64::MAX / 8;
    const MIN_TAG: usize = MIN_TAG;

    fn start_inner(&self, nonce: &[u8]) -> Result<Inner, Error> {
        let start = Counters::new(&self.cipher, nonce, 0, 0)?;
        Ok(Inner::Mgm {
            y: start.y,
            z: start.z,
            low: 0,
            high: 0,
        })
    }

    fn aad_blocks(&self, s: &mut Inner, data: &[u8]) -> Result<(), Error> {
        Self::with_state(s, |_, z, mac| self.absorb(z, data, mac))
    }

    fn mac_block(&self, s: &mut Inner, block: &[u8; 16]) -> Result<(), Error> {
        self.aad_blocks(s, block)
    }

    fn text_blocks(&self, s: &mut Inner, decrypt: bool, buf: &mut [u8]) -> Result<(), Error> {
        Self::with_state(s, |y, z, mac| {
            if decrypt {
                self.absorb(z, buf, mac);
                self.keystream(y, buf);
            } else {
                self.seal_text(y, z, buf, mac);
            }
        })
    }

    fn next_keystream(&self, s: &mut Inner) -> Result<[u8; 16], Error> {
        let mut block = [0u8; 16];
        Self::with_state(s, |y, _, _| self.keystream(y, &mut block))?;
        Ok(block)
    }

    fn tag(&self, s: &mut Inner, aad: u64, text: u64) -> Result<[u8; 16], Error> {
        Self::with_state(s, |_, z, mac| self.finish(z, mac, aad, text))
    }
}

impl KeySizeUser for KuznyechikMgm {
    type KeySize = cipher::consts::U32;
}

impl KeyInit for KuznyechikMgm {
    fn new(key: &Key<Self>) -> Self {
        Self::new(<Kuznyechik as KeyInit>::new(key))
    }
}

crate::modes::aead_traits!([] KuznyechikMgm, nonce = U16, tag = U16, tags = MIN_TAG..=BLOCK);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduction_matches_bitwise_multiplication() {
        // x^127 * x = x^128 = x^7 + x^2 + x + 1.
        let (l, h) = clmul_portable(1 << 127, 2);
        assert_eq!(reduce(l, h), 0x87);
        // x^127 * x^127 = x^254 = x^126 * (x^7 + x^2 + x + 1), which overflows once more.
        let (l, h) = clmul_portable(1 << 127, 1 << 127);
        let expect = {
            let (l2, h2) = clmul_portable(1 << 126, 0x87);
            reduce(l2, h2)
        };
        assert_eq!(reduce(l, h), expect);
    }

    #[test]
    fn portable_and_carry_less_products_agree() {
        let mut seed = 0x0123_4567_89ab_cdefu128;
        let mut next = || {
            seed = seed.wrapping_mul(0x2360_ed05_1fc6_5da4_4385_df64_9fcc_f645) + 1;
            seed
        };
        // Whole groups of four blocks and every remainder.
        for blocks in [0, 1, 3, 4, 5, 6, 7, 40, 41, 43] {
            let hs: Vec<u8> = (0..blocks).flat_map(|_| next().to_be_bytes()).collect();
            let xs: Vec<u8> = (0..blocks).flat_map(|_| next().to_be_bytes()).collect();
            let (mut low, mut high) = (0, 0);
            for (h, x) in hs.chunks(16).zip(xs.chunks(16)) {
                let (l, h) = clmul_portable(
                    u128::from_be_bytes(h.try_into().unwrap()),
                    u128::from_be_bytes(x.try_into().unwrap()),
                );
                low ^= l;
                high ^= h;
            }
            let mut acc = Accumulator::default();
            acc.add(&hs, &xs);
            assert_eq!((acc.low, acc.high), (low, high), "{blocks} blocks");
        }
    }

    /// The fused AVX-512 batches from counters whose low bytes wrap inside a batch, carry
    /// past the second byte (the general path) or wrap their 64-bit half, against block by
    /// block encryption on the portable cipher.
    #[test]
    fn fused_batches_follow_the_counters_across_carries() {
        if !crate::cpu::kernels::KUZNYECHIK_MGM_AVX512.runs() {
            return;
        }
        let key: Vec<u8> = (0..32u8).map(|i| i.wrapping_mul(37) ^ 0x5a).collect();
        let fast = Kuznyechik::with_backend(&key, Backend::Avx512).unwrap();
        let kernels = &fast.kernels;
        let soft = Kuznyechik::with_backend(&key, Backend::Soft).unwrap();
        let e = |v: u128| {
            let mut b = v.to_be_bytes();
            soft.encrypt_block(&mut b);
            u128::from_be_bytes(b)
        };
        let lows = [
            0x0000u64,
            0x00c1,
            0x0140,
            0xffc1,
            0xfff0,
            0xff00,
            u64::MAX - 0x30,
            u64::MAX,
        ];
        let batches = 3;
        let data: Vec<u8> = (0..BLOCK * 64 * batches + 40)
            .map(|i| (i * 131 + 7) as u8)
            .collect();
        let whole = BLOCK * 64 * batches;
        for (i, &y_low) in lows.iter().enumerate() {
            let z_low = lows[(3 * i + 1) % lows.len()];
            let y0 = (0x0123_4567_89ab_cdef_u128 << 64) | u128::from(y_low);
            let z0 = (u128::from(z_low) << 64) | 0xfedc_ba98_7654_3210;
            let (mut y, mut z) = (y0, z0);
            let mut want = data[..whole].to_vec();
            let (mut low, mut high) = (0, 0);
            for block in want.chunks_exact_mut(BLOCK) {
                let x = u128::from_be_bytes(block.try_into().unwrap()) ^ e(y);
                block.copy_from_slice(&x.to_be_bytes());
                let (l, h) = clmul_portable(e(z), x);
                low ^= l;
                high ^= h;
                y = increment_right(y);
                z = increment_left(z);
            }
            let what = format!("y from {y0:032x}, z from {z0:032x}");

            let (mut fy, mut fz) = (y0, z0);
            let mut got = data.clone();
            let (done, sum) = kernels
                .mgm_seal(&fast.rk, &mut fy, &mut fz, &mut got)
                .unwrap();
            assert_eq!(done, whole, "{what}");
            assert_eq!(got[..whole], want[..], "seal, {what}");
            assert_eq!(got[whole..], data[whole..], "seal leaves the tail, {what}");
            assert_eq!(sum, (low, high), "seal products, {what}");
            assert_eq!((fy, fz), (y, z), "counters after seal, {what}");

            let mut fz = z0;
            let (done, sum) = kernels.mgm_absorb(&fast.rk, &mut fz, &got).unwrap();
            assert_eq!((done, sum, fz), (whole, (low, high), z), "absorb, {what}");

            // The tail (past the batches seal covers) encrypted by the definition.
            for block in got[whole..].chunks_mut(BLOCK) {
                for (d, k) in block.iter_mut().zip(e(y).to_be_bytes()) {
                    *d ^= k;
                }
                y = increment_right(y);
            }
            let mut counter = y0.to_be_bytes();
            let ran = kernels.mgm_keystream(&fast.rk, &mut counter, &mut got);
            assert_eq!(ran, crate::cpu::Ran::Done, "keystream runs, {what}");
            assert_eq!(got, data, "keystream of open, {what}");
            assert_eq!(u128::from_be_bytes(counter), y, "{what}");
        }
    }

    #[test]
    fn counters_increment_their_own_half() {
        assert_eq!(increment_right(u128::MAX), u128::MAX << 64);
        assert_eq!(increment_left(u128::MAX), u128::from(u64::MAX));
        assert_eq!(increment_left(5), (1 << 64) | 5);
    }

    /// The vector fill (where the CPU has it) against the block-by-block definition, across
    /// the wrap of each half and for group tails.
    #[test]
    fn filled_counters_follow_the_increments() {
        let starts = [
            0u128,
            u128::MAX,
            u128::from(u64::MAX) - 2,
            (u128::from(u64::MAX - 1) << 64) | 7,
            0x0123_4567_89ab_cdef_fedc_ba98_7654_3210,
        ];
        for start in starts {
            for blocks in (0..=9).chain([63, 64, 65, 256]) {
                for (half, next) in [
                    (Half::Left, increment_left as fn(u128) -> u128),
                    (Half::Right, increment_right),
                ] {
                    let mut want = vec![0u8; 16 * blocks + 16];
                    let mut c = start;
                    for block in want.chunks_exact_mut(16).take(blocks) {
                        block.copy_from_slice(&c.to_be_bytes());
                        c = next(c);
                    }
                    let mut got = vec![0u8; 16 * blocks + 16];
                    let mut d = start;
                    fill(&mut got, blocks, &mut d, half);
                    assert_eq!(got, want, "start {start:x}, {blocks} blocks");
                    assert_eq!(d, c, "start {start:x}, {blocks} blocks");
                }
            }
        }
    }
}
