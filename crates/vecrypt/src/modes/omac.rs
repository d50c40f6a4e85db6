//! OMAC1 (CMAC, NIST SP 800-38B; the MAC of GOST R 34.13-2015) for every cipher of the
//! crate: a CBC-MAC whose last block is whitened with one of two subkeys. The whole blocks
//! go to the cipher's chained-mode kernel ([`BlockKernel::kernel_chain`]).

use super::{BlockKernel, MAX_BLOCK, xor_in_place};
use crate::Error;

/// The two OMAC subkeys of a cipher: K1 = dbl(E(0)), K2 = dbl(K1).
pub(crate) fn omac_subkeys<K: BlockKernel>(cipher: &K) -> ([u8; MAX_BLOCK], [u8; MAX_BLOCK]) {
    let n = K::BLOCK;
    let mut l = [0u8; MAX_BLOCK];
    cipher.kernel_encrypt(&mut l[..n]);
    let k1 = dbl(&l[..n]);
    let k2 = dbl(&k1[..n]);
    crate::wipe::bytes(&mut l);
    (k1, k2)
}

/// Doubling in GF(2^n) for n = 64 (x^64 + x^4 + x^3 + x + 1) or n = 128 (x^128 + x^7 + x^2
/// + x + 1), big-endian, constant time.
pub(crate) fn dbl(x: &[u8]) -> [u8; MAX_BLOCK] {
    let n = x.len();
    let reduction: u8 = if n == 8 { 0x1b } else { 0x87 };
    let mut out = [0u8; MAX_BLOCK];
    let carry = x[0] >> 7;
    for i in 0..n {
        let next = if i + 1 < n { x[i + 1] >> 7 } else { 0 };
        out[i] = (x[i] << 1) | next;
    }
    out[n - 1] ^= reduction & carry.wrapping_neg();
    out
}

/// OMAC1 over data given in pieces. Its subkeys are secret and never handed out.
///
/// It borrows its cipher ([`Omac::new`]) or owns it ([`Omac::owning`]); an owning one can
/// be cloned, for a caller that copies a MAC in progress.
///
/// ```compile_fail
/// let c = vecrypt::kuznyechik::Kuznyechik::from_key(&[0u8; 32]).unwrap();
/// let m = vecrypt::modes::gost::Omac::new(&c);
/// let _secret = m.subkeys();
/// ```
pub struct Omac<'a, K: BlockKernel> {
    cipher: Held<'a, K>,
    k1: [u8; MAX_BLOCK],
    k2: [u8; MAX_BLOCK],
    state: [u8; MAX_BLOCK],
    /// The last block seen, held back until we know whether it is the final one.
    pending: [u8; MAX_BLOCK],
    pending_len: usize,
}

/// The cipher of a MAC, borrowed or owned.
#[derive(Clone)]
enum Held<'a, K> {
    Borrowed(&'a K),
    Owned(K),
}

impl<K> Held<'_, K> {
    fn get(&self) -> &K {
        match self {
            Held::Borrowed(k) => k,
            Held::Owned(k) => k,
        }
    }
}

impl<K: BlockKernel> Omac<'static, K> {
    /// Starts a MAC that owns `cipher`.
    pub fn owning(cipher: K) -> Self {
        let (k1, k2) = omac_subkeys(&cipher);
        Self::with_subkeys_of(Held::Owned(cipher), k1, k2)
    }
}

impl<K: BlockKernel + Clone> Clone for Omac<'_, K> {
    /// A copy of the MAC in progress, subkeys included (each copy wipes its own).
    fn clone(&self) -> Self {
        Self {
            cipher: self.cipher.clone(),
            k1: self.k1,
            k2: self.k2,
            state: self.state,
            pending: self.pending,
            pending_len: self.pending_len,
        }
    }
}

impl<'a, K: BlockKernel> Omac<'a, K> {
    /// Starts a MAC under `cipher`.
    pub fn new(cipher: &'a K) -> Self {
        let (k1, k2) = omac_subkeys(cipher);
        Self::with_subkeys_of(Held::Borrowed(cipher), k1, k2)
    }

    /// Starts a MAC under `cipher` with its subkeys computed before ([`omac_subkeys`]),
    /// for a caller that keeps them with the key.
    pub(crate) fn with_subkeys(cipher: &'a K, k1: &[u8], k2: &[u8]) -> Self {
        let mut a = [0u8; MAX_BLOCK];
        let mut b = [0u8; MAX_BLOCK];
        a[..K::BLOCK].copy_from_slice(&k1[..K::BLOCK]);
        b[..K::BLOCK].copy_from_slice(&k2[..K::BLOCK]);
        Self::with_subkeys_of(Held::Borrowed(cipher), a, b)
    }

    fn with_subkeys_of(cipher: Held<'a, K>, k1: [u8; MAX_BLOCK], k2: [u8; MAX_BLOCK]) -> Self {
        Self {
            cipher,
            k1,
            k2,
            state: [0; MAX_BLOCK],
            pending: [0; MAX_BLOCK],
            pending_len: 0,
        }
    }

    /// Absorbs more data.
    pub fn update(&mut self, mut data: &[u8]) {
        let n = K::BLOCK;
        while !data.is_empty() {
            if self.pending_len == n {
                xor_in_place(&mut self.state[..n], &self.pending[..n]);
                self.cipher.get().kernel_encrypt(&mut self.state[..n]);
                self.pending_len = 0;
                // Every whole block but the last of what remains goes through the chain
                // in one call; the last is held back in case it ends the message.
                let run = data.len().saturating_sub(1) / n * n;
                let (blocks, rest) = data.split_at(run);
                super::cbc_mac(self.cipher.get(), &mut self.state[..n], blocks);
                data = rest;
            }
            let take = (n - self.pending_len).min(data.len());
            self.pending[self.pending_len..self.pending_len + take].copy_from_slice(&data[..take]);
            self.pending_len += take;
            data = &data[take..];
        }
    }

    /// The full `n`-byte tag; truncate it to the length the protocol wants.
    pub fn finalize(mut self) -> [u8; MAX_BLOCK] {
        let n = K::BLOCK;
        let (last, subkey) = if self.pending_len == n {
            (self.pending, self.k1)
        } else {
            let mut padded = [0u8; MAX_BLOCK];
            padded[..self.pending_len].copy_from_slice(&self.pending[..self.pending_len]);
            padded[self.pending_len] = 0x80;
            (padded, self.k2)
        };
        xor_in_place(&mut self.state[..n], &last[..n]);
        xor_in_place(&mut self.state[..n], &subkey[..n]);
        self.cipher.get().kernel_encrypt(&mut self.state[..n]);
        let mut tag = [0u8; MAX_BLOCK];
        tag[..n].copy_from_slice(&self.state[..n]);
        tag
    }

    /// Checks `tag`, 1 to `n` bytes (a prefix of the full tag), in constant time:
    /// `Err(Error::AuthenticationFailed)` when it does not match, `Err(Error::InvalidLength)`
    /// for an empty or too long tag.
    pub fn verify(self, tag: &[u8]) -> Result<(), Error> {
        if !(1..=K::BLOCK).contains(&tag.len()) {
            return Err(Error::InvalidLength);
        }
        let mut full = self.finalize();
        let ok = bool::from(crate::ct::bytes_eq(&full[..tag.len()], tag));
        crate::wipe::array(&mut full);
        if ok {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }

    /// The subkeys K1 and K2, for the crate's known-answer tests. Not part of the public
    /// API: the subkeys are secret.
    #[cfg(test)]
    pub(crate) fn subkeys(&self) -> (&[u8], &[u8]) {
        (&self.k1[..K::BLOCK], &self.k2[..K::BLOCK])
    }
}

impl<K: BlockKernel> Drop for Omac<'_, K> {
    fn drop(&mut self) {
        crate::wipe::bytes(&mut self.k1);
        crate::wipe::bytes(&mut self.k2);
        crate::wipe::bytes(&mut self.state);
        crate::wipe::bytes(&mut self.pending);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kuznyechik::Kuznyechik;

    /// An owning MAC gives the borrowing one's tag on every length up to five blocks fed in
    /// pieces, and a clone taken in the middle of a message goes on exactly as the original.
    #[test]
    fn owning_and_cloned_match_borrowing() {
        let key: [u8; 32] = core::array::from_fn(|i| (i as u8).wrapping_mul(37));
        let cipher = Kuznyechik::from_key(&key).unwrap();
        let data: [u8; 80] = core::array::from_fn(|i| (i as u8).wrapping_mul(13) ^ 0x5a);
        for len in 0..=data.len() {
            let mut borrowing = Omac::new(&cipher);
            borrowing.update(&data[..len]);
            let want = borrowing.finalize();
            let mut owning = Omac::owning(cipher.clone());
            let (front, back) = data[..len].split_at(len / 3);
            for piece in front.chunks(7) {
                owning.update(piece);
            }
            let mut copy = owning.clone();
            owning.update(back);
            copy.update(back);
            assert_eq!(owning.finalize(), want, "length {len}");
            assert_eq!(copy.finalize(), want, "length {len}, clone");
        }
    }

    /// GOST R 34.13-2015 appendix A.1.6: the subkeys K1 and K2 of the standard's key, on
    /// every backend this CPU runs.
    #[test]
    fn subkeys_of_the_standard() {
        let key = hex::decode("8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef")
            .unwrap();
        for backend in Kuznyechik::backends() {
            let c = Kuznyechik::with_backend(&key, backend).unwrap();
            let m = Omac::new(&c);
            let (k1, k2) = m.subkeys();
            assert_eq!(
                hex::encode(k1),
                "297d82bc4d39e3ca0de0573298151dc7",
                "{backend}"
            );
            assert_eq!(
                hex::encode(k2),
                "52fb05789a73c7941bc0ae65302a3b8e",
                "{backend}"
            );
        }
    }
}
