//! The header of a sealed stream (format version 2, `docs/format.md`): its fields, how it is
//! written, and how it is read back and checked for shape before any key is derived.

use std::io::Read;

use vecrypt::aigis::{HashMode, ParamSet};

use super::pipeline::Input;
use crate::Failure;

/// The first seven bytes of a sealed stream; the eighth is the version.
pub const MAGIC: &[u8; 7] = b"VECRYPT";
/// The format version this program writes and reads.
pub const VERSION: u8 = 2;
/// Bytes of the random nonce prefix.
pub const NONCE_PREFIX: usize = 16;
/// Bytes of the header MAC (HMAC-SHA256) that ends the header.
pub const MAC_BYTES: usize = 32;
/// Longest key-type parameter block accepted.
const MAX_PARAMS: usize = 4096;
/// Bytes before the key parameters: magic, version, suite, key type, parameter length.
const FIXED: usize = 12;

pub(crate) const KIND_KEY: u8 = 1;
pub(crate) const KIND_PASSPHRASE: u8 = 2;
pub(crate) const KIND_KEM: u8 = 3;

/// Bytes of the passphrase key type's parameters: the salt and three 32-bit cost words.
pub(crate) const PASSPHRASE_PARAMS: usize = 28;

/// The AEAD that seals the chunks.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Suite {
    /// AES-256-GCM.
    Aes256Gcm,
    /// Kuznyechik-MGM (RFC 9058).
    KuznyechikMgm,
}

impl Suite {
    /// Every suite, by its name on the command line.
    pub const ALL: [(Suite, &'static str); 2] = [
        (Suite::Aes256Gcm, "aes-256-gcm"),
        (Suite::KuznyechikMgm, "kuznyechik-mgm"),
    ];

    /// The suite named `name` (`aes-256-gcm` or `kuznyechik-mgm`).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().find(|(_, n)| *n == name).map(|(s, _)| *s)
    }

    /// The suite's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Suite::Aes256Gcm => "aes-256-gcm",
            Suite::KuznyechikMgm => "kuznyechik-mgm",
        }
    }

    fn id(self) -> u8 {
        match self {
            Suite::Aes256Gcm => 1,
            Suite::KuznyechikMgm => 2,
        }
    }

    fn from_id(id: u8) -> Option<Self> {
        match id {
            1 => Some(Suite::Aes256Gcm),
            2 => Some(Suite::KuznyechikMgm),
            _ => None,
        }
    }
}

/// Argon2id cost: memory in KiB, passes, lanes.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Cost {
    pub m_kib: u32,
    pub t: u32,
    pub p: u32,
}

impl Cost {
    /// What `seal` uses unless told otherwise: 64 MiB, 3 passes, 1 lane.
    pub const DEFAULT: Cost = Cost {
        m_kib: 64 * 1024,
        t: 3,
        p: 1,
    };

    /// The most `open` spends on a header's passphrase cost unless raised: 2 GiB, 8 passes,
    /// 16 lanes. The cost is read before anything is authenticated, so it is bounded.
    pub const DEFAULT_MAX: Cost = Cost {
        m_kib: 2 * 1024 * 1024,
        t: 8,
        p: 16,
    };

    /// Within the format's bounds: 8 KiB per lane to 4 GiB, 1 to 64 passes, 1 to 16 lanes.
    pub fn in_format(self) -> bool {
        (1..=16).contains(&self.p)
            && (1..=64).contains(&self.t)
            && self.m_kib >= 8 * self.p
            && self.m_kib <= 4 * 1024 * 1024
    }

    /// At most `max` in each of memory, passes and lanes.
    pub fn within(self, max: Cost) -> bool {
        self.m_kib <= max.m_kib && self.t <= max.t && self.p <= max.p
    }

    /// At least one of RFC 9106's two recommended settings in memory and passes: 2 GiB with
    /// one pass, or 64 MiB with three.
    pub fn meets_rfc9106(self) -> bool {
        self.m_kib >= 2 * 1024 * 1024 || (self.m_kib >= 64 * 1024 && self.t >= 3)
    }

    /// The `M,T,P` form of the command line.
    pub fn parse(s: &str) -> Result<Cost, String> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        let nums: Result<Vec<u32>, _> = parts.iter().map(|p| p.parse::<u32>()).collect();
        match nums.as_deref() {
            Ok([m_kib, t, p]) => {
                let c = Cost {
                    m_kib: *m_kib,
                    t: *t,
                    p: *p,
                };
                if c.in_format() {
                    Ok(c)
                } else {
                    Err(
                        "out of bounds (memory 8 KiB per lane to 4 GiB, 1-64 passes, 1-16 lanes)"
                            .into(),
                    )
                }
            }
            _ => Err("expected MEMORY_KIB,PASSES,LANES".into()),
        }
    }
}

impl std::fmt::Display for Cost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{},{}", self.m_kib, self.t, self.p)
    }
}

pub(crate) fn set_id(set: ParamSet) -> u8 {
    match set {
        ParamSet::Aigis1 => 1,
        ParamSet::Aigis2 => 2,
        ParamSet::Aigis3 => 3,
        ParamSet::Aigis4 => 4,
    }
}

pub(crate) fn set_from_id(id: u8) -> Option<ParamSet> {
    ParamSet::ALL.get(usize::from(id).checked_sub(1)?).copied()
}

pub(crate) fn mode_id(mode: HashMode) -> u8 {
    match mode {
        HashMode::Shake => 1,
        HashMode::Sm3 => 2,
    }
}

pub(crate) fn mode_from_id(id: u8) -> Option<HashMode> {
    match id {
        1 => Some(HashMode::Shake),
        2 => Some(HashMode::Sm3),
        _ => None,
    }
}

/// The hash mode's name on the command line.
pub fn mode_name(mode: HashMode) -> &'static str {
    match mode {
        HashMode::Shake => "shake",
        HashMode::Sm3 => "sm3",
    }
}

/// The header's fields before its MAC, laid out in order.
pub(crate) fn encode_body(
    suite: Suite,
    kind: u8,
    params: &[u8],
    nonce_prefix: &[u8; NONCE_PREFIX],
) -> Result<Vec<u8>, Failure> {
    let len = u16::try_from(params.len())
        .ok()
        .filter(|&l| usize::from(l) <= MAX_PARAMS)
        .ok_or_else(|| Failure::usage("key parameters too long"))?;
    let mut body = Vec::with_capacity(FIXED + params.len() + NONCE_PREFIX + MAC_BYTES);
    body.extend_from_slice(MAGIC);
    body.push(VERSION);
    body.push(suite.id());
    body.push(kind);
    body.extend_from_slice(&len.to_be_bytes());
    body.extend_from_slice(params);
    body.extend_from_slice(nonce_prefix);
    Ok(body)
}

/// A header read back, its shape checked but nothing authenticated yet.
pub(crate) struct Header {
    /// Everything the MAC covers: from the magic to the end of the nonce prefix.
    pub body: Vec<u8>,
    pub mac: [u8; MAC_BYTES],
    pub suite: Suite,
    pub kind: u8,
    pub params: Vec<u8>,
    pub nonce_prefix: [u8; NONCE_PREFIX],
}

impl Header {
    /// The whole header as stored: body then MAC.
    pub fn bytes(&self) -> Vec<u8> {
        [&self.body[..], &self.mac[..]].concat()
    }

    /// The passphrase key type's salt and cost.
    pub fn passphrase(&self) -> Option<(&[u8], Cost)> {
        if self.kind != KIND_PASSPHRASE || self.params.len() != PASSPHRASE_PARAMS {
            return None;
        }
        let p = &self.params;
        let word = |i: usize| u32::from_be_bytes([p[i], p[i + 1], p[i + 2], p[i + 3]]);
        let cost = Cost {
            m_kib: word(16),
            t: word(20),
            p: word(24),
        };
        Some((&p[..16], cost))
    }

    /// The Aigis-enc key type's set, hash mode and KEM ciphertext.
    pub fn kem(&self) -> Option<(ParamSet, HashMode, &[u8])> {
        if self.kind != KIND_KEM || self.params.len() < 2 {
            return None;
        }
        let set = set_from_id(self.params[0])?;
        let mode = mode_from_id(self.params[1])?;
        Some((set, mode, &self.params[2..]))
    }
}

pub(crate) fn corrupt(what: &str) -> Failure {
    Failure::rejected(format!("input is not a vecrypt sealed stream: {what}"))
}

/// Reads and checks the shape of a header: magic, version, suite, key type and parameters.
pub(crate) fn read<R: Read>(input: &mut Input<R>) -> Result<Header, Failure> {
    let mut fixed = [0u8; FIXED];
    let got = input.read_full(&mut fixed)?;
    if got < 8 || &fixed[..7] != MAGIC {
        return Err(corrupt(if got < 8 { "too short" } else { "wrong magic" }));
    }
    match fixed[7] {
        VERSION => {}
        1 => {
            return Err(Failure::rejected(
                "sealed stream of format version 1, which this program no longer opens \
                 (it reads version 2); open it with an older vecrypt and seal it again",
            ));
        }
        v => {
            return Err(Failure::rejected(format!(
                "sealed stream of format version {v}, this program reads version {VERSION}"
            )));
        }
    }
    if got < FIXED {
        return Err(corrupt("truncated header"));
    }
    let suite = Suite::from_id(fixed[8]).ok_or_else(|| corrupt("unknown suite"))?;
    let kind = fixed[9];
    let len = usize::from(u16::from_be_bytes([fixed[10], fixed[11]]));
    if len > MAX_PARAMS {
        return Err(corrupt("key parameters too long"));
    }
    let mut params = vec![0u8; len];
    let mut nonce_prefix = [0u8; NONCE_PREFIX];
    let mut mac = [0u8; MAC_BYTES];
    if input.read_full(&mut params)? < len
        || input.read_full(&mut nonce_prefix)? < NONCE_PREFIX
        || input.read_full(&mut mac)? < MAC_BYTES
    {
        return Err(corrupt("truncated header"));
    }
    let ok = match kind {
        KIND_KEY => len == 0,
        KIND_PASSPHRASE => len == PASSPHRASE_PARAMS,
        KIND_KEM => {
            len >= 2
                && set_from_id(params[0]).is_some_and(|s| s.ciphertext_bytes() == len - 2)
                && mode_from_id(params[1]).is_some()
        }
        _ => return Err(corrupt("unknown key type")),
    };
    if !ok {
        return Err(corrupt("bad key parameters"));
    }
    let mut body = fixed.to_vec();
    body.extend_from_slice(&params);
    body.extend_from_slice(&nonce_prefix);
    Ok(Header {
        body,
        mac,
        suite,
        kind,
        params,
        nonce_prefix,
    })
}

/// The header of a KEM key file: `VCKEM`, version 1, `p` or `s`, set, hash mode.
pub const KEM_KEY_MAGIC: &[u8; 5] = b"VCKEM";
const KEM_KEY_HEADER: usize = 9;

/// A KEM key file's bytes: its header then the key.
pub fn encode_kem_key(secret: bool, set: ParamSet, mode: HashMode, key: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(KEM_KEY_HEADER + key.len());
    out.extend_from_slice(KEM_KEY_MAGIC);
    out.push(1);
    out.push(if secret { b's' } else { b'p' });
    out.push(set_id(set));
    out.push(mode_id(mode));
    out.extend_from_slice(key);
    out
}

/// What a KEM key file's header names, and the key after it.
pub type KemKey<'a> = (ParamSet, HashMode, &'a [u8]);

/// A KEM key file read back: `Some((set, mode, key))` if it has a header, `None` if raw.
pub fn decode_kem_key(data: &[u8], secret: bool) -> Result<Option<KemKey<'_>>, Failure> {
    let Some(rest) = data.strip_prefix(KEM_KEY_MAGIC) else {
        return Ok(None);
    };
    let what = if secret { "secret" } else { "public" };
    let bad = || Failure::rejected(format!("damaged Aigis-enc {what} key file header"));
    let [version, kind, set, mode, key @ ..] = rest else {
        return Err(bad());
    };
    if *version != 1 {
        return Err(bad());
    }
    let want = if secret { b's' } else { b'p' };
    if *kind != want {
        let got = if secret { "public" } else { "secret" };
        return Err(Failure::usage(format!(
            "expected an Aigis-enc {what} key file, got a {got} one"
        )));
    }
    let set = set_from_id(*set).ok_or_else(bad)?;
    let mode = mode_from_id(*mode).ok_or_else(bad)?;
    let len = if secret {
        set.secret_key_bytes()
    } else {
        set.public_key_bytes()
    };
    if key.len() != len {
        return Err(bad());
    }
    Ok(Some((set, mode, key)))
}
