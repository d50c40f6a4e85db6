//! Helpers shared by the AES test files.
#![allow(dead_code)]

use vecrypt::Backend;
use vecrypt::aes::{Aes, Aes128, Aes192, Aes256, KeySize};

pub fn h(s: &str) -> Vec<u8> {
    hex::decode(s.replace([' ', '\n'], "")).unwrap()
}

/// A small deterministic generator, so failures reproduce.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Lengths that reach every kernel path: empty, single blocks, odd tails around the
/// register and unroll widths, and several KiB.
pub const LENGTHS: &[usize] = &[
    0,
    1,
    15,
    16,
    17,
    31,
    32,
    33,
    48,
    63,
    64,
    65,
    80,
    96,
    112,
    127,
    128,
    129,
    144,
    240,
    255,
    256,
    257,
    272,
    496,
    511,
    512,
    513,
    1000,
    1024,
    4096,
    4111,
    8192 + 48,
];

/// Keys `key` on every backend this CPU runs, the portable one first.
pub fn every_backend<K: KeySize>(key: &[u8]) -> Vec<Aes<K>> {
    let mut backends = Aes::<K>::backends();
    backends.sort();
    backends
        .into_iter()
        .map(|b| Aes::<K>::with_backend(key, b).unwrap())
        .collect()
}

/// Runs `f` once per key size with that size's key length.
pub fn each_size(mut f: impl FnMut(usize, &dyn Fn(&[u8]) -> Vec<Box<dyn Keyed>>)) {
    f(16, &|k| boxed(every_backend::<vecrypt::aes::K128>(k)));
    f(24, &|k| boxed(every_backend::<vecrypt::aes::K192>(k)));
    f(32, &|k| boxed(every_backend::<vecrypt::aes::K256>(k)));
}

fn boxed<K: KeySize>(v: Vec<Aes<K>>) -> Vec<Box<dyn Keyed>> {
    v.into_iter()
        .map(|c| Box::new(c) as Box<dyn Keyed>)
        .collect()
}

/// The calls the tests make, for any key size.
pub trait Keyed {
    fn backend(&self) -> Backend;
    fn ecb_enc(&self, b: &mut [u8]);
    fn ecb_dec(&self, b: &mut [u8]);
    fn cbc_enc(&self, iv: &[u8], b: &mut [u8]);
    fn cbc_dec(&self, iv: &[u8], b: &mut [u8]);
    fn ctr(&self, iv: &[u8], b: &mut [u8]);
    fn ctr32(&self, iv: &[u8], b: &mut [u8]);
}

impl<K: KeySize> Keyed for Aes<K> {
    fn backend(&self) -> Backend {
        Aes::backend(self)
    }
    fn ecb_enc(&self, b: &mut [u8]) {
        vecrypt::modes::BlockModes::encrypt_ecb(self, b).unwrap()
    }
    fn ecb_dec(&self, b: &mut [u8]) {
        vecrypt::modes::BlockModes::decrypt_ecb(self, b).unwrap()
    }
    fn cbc_enc(&self, iv: &[u8], b: &mut [u8]) {
        vecrypt::modes::BlockModes::encrypt_cbc(self, iv, b).unwrap()
    }
    fn cbc_dec(&self, iv: &[u8], b: &mut [u8]) {
        vecrypt::modes::BlockModes::decrypt_cbc(self, iv, b).unwrap()
    }
    fn ctr(&self, iv: &[u8], b: &mut [u8]) {
        vecrypt::modes::BlockModes::apply_ctr(self, iv, b).unwrap()
    }
    fn ctr32(&self, iv: &[u8], b: &mut [u8]) {
        self.apply_ctr32(iv, b).unwrap()
    }
}

pub type A128 = Aes128;
pub type A192 = Aes192;
pub type A256 = Aes256;
