//! The stream modes' keystreams: CTR (full-block and GOST's half-block counters), CTR-ACPKM
//! with its key meshing at each section end, and CFB and OFB, with the position in the
//! last keystream block carried between updates.

use vecrypt::kuznyechik::acpkm;
use vecrypt::registry::DynCipher;

use super::{Ctx, Keyed, Kind, MAX_BLOCK};

/// The section of CTR-ACPKM, as gost-engine sets it for `kuznyechik-ctr-acpkm`.
const ACPKM_SECTION: usize = 4096;

impl Ctx {
    /// XORs whole blocks of CTR keystream into `data`, moving the counter on (and the key,
    /// at each ACPKM section end).
    fn ctr_blocks(&mut self, mut data: &mut [u8]) -> bool {
        let bs = self.alg.block();
        while !data.is_empty() {
            let take = if self.alg.is_acpkm() {
                if self.section_used == ACPKM_SECTION {
                    let Some(k) = &self.section_key else {
                        return false;
                    };
                    self.section_key = Some(acpkm::next_key(k));
                    self.section_used = 0;
                }
                (ACPKM_SECTION - self.section_used).min(data.len())
            } else {
                data.len()
            };
            let c: &dyn DynCipher = match (&self.section_key, &self.keyed) {
                (Some(k), _) => k,
                (None, Some(k)) => match k.block() {
                    Some(c) => c,
                    None => return false,
                },
                (None, None) => return false,
            };
            let (now, rest) = data.split_at_mut(take);
            if c.apply_ctr(&self.counter[..bs], now).is_err() {
                return false;
            }
            add_counter(&mut self.counter[..bs], (take / bs) as u64);
            self.section_used += take;
            data = rest;
        }
        true
    }

    /// One stream-mode update in place.
    pub(super) fn stream(&mut self, data: &mut [u8]) -> bool {
        let bs = self.alg.block();
        match self.alg.kind {
            Kind::Ctr | Kind::GostCtr | Kind::CtrAcpkm | Kind::CtrAcpkmOmac => {
                let mut i = 0;
                while self.num < bs && i < data.len() {
                    data[i] ^= self.buf[self.num];
                    self.num += 1;
                    i += 1;
                }
                let whole = (data.len() - i) / bs * bs;
                if !self.ctr_blocks(&mut data[i..i + whole]) {
                    return false;
                }
                i += whole;
                if i < data.len() {
                    let mut ks = [0u8; MAX_BLOCK];
                    if !self.ctr_blocks(&mut ks[..bs]) {
                        return false;
                    }
                    self.buf = ks;
                    self.num = 0;
                    while i < data.len() {
                        data[i] ^= self.buf[self.num];
                        self.num += 1;
                        i += 1;
                    }
                }
                true
            }
            Kind::Ofb | Kind::Cfb => {
                let Some(c) = self.keyed.as_ref().and_then(Keyed::block) else {
                    return false;
                };
                let ofb = self.alg.kind == Kind::Ofb;
                for b in data.iter_mut() {
                    if self.num == bs {
                        // The register (the IV, then the last output or ciphertext block).
                        let mut r = [0u8; MAX_BLOCK];
                        r[..bs].copy_from_slice(&self.iv[..bs]);
                        if c.encrypt_ecb(&mut r[..bs]).is_err() {
                            return false;
                        }
                        self.buf = r;
                        if ofb {
                            self.iv = r;
                        }
                        self.num = 0;
                    }
                    let input = *b;
                    *b ^= self.buf[self.num];
                    if !ofb {
                        self.iv[self.num] = if self.encrypt { *b } else { input };
                    }
                    self.num += 1;
                }
                true
            }
            _ => false,
        }
    }
}

/// Adds `n` to a big-endian counter, modulo its width.
fn add_counter(counter: &mut [u8], mut n: u64) {
    for b in counter.iter_mut().rev() {
        if n == 0 {
            break;
        }
        let s = u64::from(*b) + (n & 0xff);
        *b = s as u8;
        n = (n >> 8) + (s >> 8);
    }
}
