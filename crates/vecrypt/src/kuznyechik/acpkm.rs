//! ACPKM re-keying (R 1323565.1.017-2018, RFC 8645): CTR-ACPKM and OMAC-ACPKM.
//!
//! A long message is cut into sections; each section is processed under its own key, the
//! next key being `ACPKM(K) = E_K(D_1) || E_K(D_2)` with `D = 80 81 ... 9f`. The counter of
//! CTR-ACPKM runs on across sections; OMAC-ACPKM takes its per-section keys from
//! ACPKM-Master, a CTR-ACPKM keystream under the IV `ff..ff`.
//!
//! A re-key costs two block encryptions and the key schedule's 32 Feistel round
//! functions. On the AVX-512 backend both run on its per-block path (well under a
//! microsecond together), so even short sections run close to the speed of plain CTR.

use super::{BLOCK, KEY, Kuznyechik};
use crate::Error;
use crate::modes::BlockKernel;
use crate::modes::omac::dbl;
use crate::modes::xor_in_place;

/// The constant D of ACPKM: the bytes 0x80 to 0x9f.
const D: [u8; KEY] = {
    let mut d = [0u8; KEY];
    let mut i = 0;
    while i < KEY {
        d[i] = 0x80 + i as u8;
        i += 1;
    }
    d
};

/// The next section key, `E_K(D_1) || E_K(D_2)`, as bytes.
pub fn next_key_bytes(cipher: &Kuznyechik) -> [u8; KEY] {
    let mut k = D;
    cipher.kernel_encrypt(&mut k);
    k
}

/// The cipher keyed with the next section key, on the same backend.
pub fn next_key(cipher: &Kuznyechik) -> Kuznyechik {
    let mut k = next_key_bytes(cipher);
    let next = Kuznyechik::keyed_on(&k, cipher.backend).expect("32-byte key");
    crate::wipe::array(&mut k);
    next
}

fn check_section(bytes: usize) -> Result<(), Error> {
    if bytes > 0 && bytes.is_multiple_of(BLOCK) {
        Ok(())
    } else {
        Err(Error::InvalidParameter)
    }
}

/// A CTR-ACPKM keystream that can be drawn in several calls (each but the last a whole
/// number of blocks).
struct Stream {
    cipher: Kuznyechik,
    counter: [u8; BLOCK],
    section: usize,
    used: usize,
}

impl Stream {
    fn new(cipher: Kuznyechik, iv: &[u8], section: usize) -> Result<Self, Error> {
        check_section(section)?;
        if iv.len() != BLOCK / 2 {
            return Err(Error::IvLength {
                expected: BLOCK / 2,
                got: iv.len(),
            });
        }
        let mut counter = [0u8; BLOCK];
        counter[..BLOCK / 2].copy_from_slice(iv);
        Ok(Self {
            cipher,
            counter,
            section,
            used: 0,
        })
    }

    fn apply(&mut self, mut buf: &mut [u8]) {
        while !buf.is_empty() {
            if self.used == self.section {
                self.cipher = next_key(&self.cipher);
                self.used = 0;
            }
            let take = (self.section - self.used).min(buf.len());
            let (now, rest) = buf.split_at_mut(take);
            self.cipher.kernel_ctr(&mut self.counter, now);
            self.used += take;
            buf = rest;
        }
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        crate::wipe::array(&mut self.counter);
    }
}

/// CTR-ACPKM: GOST R 34.13 CTR (half-block IV, first counter `IV || 0`) where every
/// `section` bytes (a positive multiple of 16) the key moves on by ACPKM; the counter is
/// not reset. Encryption and decryption are the same operation.
pub fn ctr_acpkm(
    cipher: &Kuznyechik,
    iv: &[u8],
    section: usize,
    buf: &mut [u8],
) -> Result<(), Error> {
    Stream::new(cipher.clone(), iv, section)?.apply(buf);
    Ok(())
}

/// ACPKM-Master: `len` bytes of CTR-ACPKM keystream under the IV `ff..ff` with section
/// `master_section` bytes.
pub fn acpkm_master(
    cipher: &Kuznyechik,
    master_section: usize,
    out: &mut [u8],
) -> Result<(), Error> {
    out.fill(0);
    Stream::new(cipher.clone(), &[0xff; BLOCK / 2], master_section)?.apply(out);
    Ok(())
}

/// OMAC-ACPKM: OMAC1 where each `section` bytes of message (a positive multiple of 16) use
/// their own key K^i and final-block subkey K1^i, the 48-byte pieces of ACPKM-Master with
/// section `master_section`. The tag is truncated to its first `s` bytes (1 to 16).
#[cfg(feature = "alloc")]
pub fn omac_acpkm(
    cipher: &Kuznyechik,
    section: usize,
    master_section: usize,
    data: &[u8],
    s: usize,
) -> Result<alloc::vec::Vec<u8>, Error> {
    if !(1..=BLOCK).contains(&s) {
        return Err(Error::InvalidParameter);
    }
    let mut full = omac_acpkm_full(cipher, section, master_section, data)?;
    let tag = full[..s].to_vec();
    crate::wipe::array(&mut full);
    Ok(tag)
}

/// Checks an OMAC-ACPKM tag of 1 to 16 bytes (a prefix of the full tag, as [`omac_acpkm`]
/// truncates it) in constant time. `Err(Error::AuthenticationFailed)` when it does not
/// match, `Err(Error::InvalidLength)` for an empty or too long tag, and the errors of
/// [`omac_acpkm`] for bad section lengths.
pub fn verify_omac_acpkm(
    cipher: &Kuznyechik,
    section: usize,
    master_section: usize,
    data: &[u8],
    tag: &[u8],
) -> Result<(), Error> {
    if !(1..=BLOCK).contains(&tag.len()) {
        return Err(Error::InvalidLength);
    }
    let mut full = omac_acpkm_full(cipher, section, master_section, data)?;
    let ok = bool::from(crate::ct::bytes_eq(&full[..tag.len()], tag));
    crate::wipe::array(&mut full);
    if ok {
        Ok(())
    } else {
        Err(Error::AuthenticationFailed)
    }
}

/// The full 16-byte OMAC-ACPKM tag.
fn omac_acpkm_full(
    cipher: &Kuznyechik,
    section: usize,
    master_section: usize,
    data: &[u8],
) -> Result<[u8; BLOCK], Error> {
    check_section(section)?;
    let mut master = Stream::new(cipher.clone(), &[0xff; BLOCK / 2], master_section)?;
    let sections = data.len().div_ceil(section).max(1);
    let mut state = [0u8; BLOCK];
    let mut material = [0u8; KEY + BLOCK];
    for i in 0..sections {
        let part = &data[(i * section).min(data.len())..((i + 1) * section).min(data.len())];
        material.fill(0);
        master.apply(&mut material);
        let key = Kuznyechik::keyed_on(&material[..KEY], cipher.backend)?;
        let last_section = i + 1 == sections;
        let whole = if last_section {
            // Keep the final block (complete or not) for the subkey step.
            part.len().saturating_sub(1) / BLOCK * BLOCK
        } else {
            part.len()
        };
        crate::modes::cbc_mac(&key, &mut state, &part[..whole]);
        if last_section {
            let tail = &part[whole..];
            let k1 = &material[KEY..];
            let mut subkey = [0u8; BLOCK];
            if tail.len() == BLOCK {
                subkey.copy_from_slice(k1);
            } else {
                subkey.copy_from_slice(&dbl(k1)[..BLOCK]);
            }
            let mut last = [0u8; BLOCK];
            last[..tail.len()].copy_from_slice(tail);
            if tail.len() < BLOCK {
                last[tail.len()] = 0x80;
            }
            xor_in_place(&mut state, &last);
            xor_in_place(&mut state, &subkey);
            key.kernel_encrypt(&mut state);
            crate::wipe::array(&mut subkey);
        }
    }
    crate::wipe::array(&mut material);
    Ok(state)
}
