//! The checks behind vecrypt's fuzz targets. Each takes the fuzzer's bytes, derives
//! parameters and data from them, runs the operation on every backend this CPU has and
//! panics if any result (output bytes or error) differs from the portable backend's, or if a
//! round trip fails. The cargo-fuzz targets in `fuzz/` call them, and `tests/corpus.rs`
//! replays the committed corpora through them on stable.
//!
//! The targets:
//! - [`block_ciphers`]: every cipher of the registry, ECB, CBC and CTR in both directions,
//!   one key and several keys at once;
//! - [`aes_modes`]: AES CTR32, GCM, CMAC and XTS;
//! - [`aead_open`]: AES-GCM and Kuznyechik-MGM opening garbage and altered messages;
//! - [`gost_modes`]: the GOST R 34.13 modes and ACPKM with any segment, register and
//!   section lengths, valid or not;
//! - [`aigis_decaps`]: Aigis-enc decapsulation of garbage keys and ciphertexts;
//! - [`sealed_file`]: the sealed-stream format of `vecrypt seal` and `vecrypt open`, opening
//!   garbage and round trips whose sealed bytes are then altered.

#![forbid(unsafe_code)]

use vecrypt::aes::{Aes, AesCmac, AesGcm, AesXts, K128, K192, K256, KeySize};
use vecrypt::aigis::{self, Aigis, HashMode, ParamSet};
use vecrypt::kuznyechik::{Kuznyechik, KuznyechikMgm, acpkm};
use vecrypt::modes::{NamedCipher, gost};
use vecrypt::registry;
use vecrypt::ublock::Ublock128_128;
use vecrypt::{Backend, Error};
use vecrypt_cli::seal::{self, Lock, Suite, Unlock};

/// A check: panics on a finding.
pub type Check = fn(&[u8]);

/// The fuzz targets by name, as `fuzz/` and the corpus directories name them.
pub const TARGETS: [(&str, Check); 6] = [
    ("block_ciphers", block_ciphers),
    ("aes_modes", aes_modes),
    ("aead_open", aead_open),
    ("gost_modes", gost_modes),
    ("aigis_decaps", aigis_decaps),
    ("sealed_file", sealed_file),
];

/// The largest message the checks build, past the widest bulk kernels (256 blocks and more).
const MAX_LEN: usize = 5000;

/// Reads parameters from the front of the fuzzer's bytes; past the end it reads zeros.
struct Input<'a>(&'a [u8]);

impl<'a> Input<'a> {
    fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    /// A number below `n`.
    fn below(&mut self, n: usize) -> usize {
        usize::from(self.u16()) % n
    }

    /// `len` bytes, zero-padded past the end.
    fn bytes(&mut self, len: usize) -> Vec<u8> {
        let take = len.min(self.0.len());
        let (head, rest) = self.0.split_at(take);
        self.0 = rest;
        let mut v = head.to_vec();
        v.resize(len, 0);
        v
    }

    /// Up to `max` bytes as the fuzzer gave them, their number read first.
    fn short(&mut self, max: usize) -> Vec<u8> {
        let len = self.below(max + 1);
        self.bytes(len)
    }

    /// A message of a length read from the input (up to [`MAX_LEN`]), filled by repeating
    /// the rest of the input under a counter, so that short inputs reach the long kernels.
    fn message(&mut self) -> Vec<u8> {
        let len = self.below(MAX_LEN + 1);
        self.fill(len)
    }

    /// `len` bytes from the rest of the input, repeated under a counter.
    fn fill(&mut self, len: usize) -> Vec<u8> {
        let seed = self.0;
        (0..len)
            .map(|i| {
                let b = if seed.is_empty() {
                    0
                } else {
                    seed[i % seed.len()]
                };
                b ^ ((i / seed.len().max(1)) as u8).wrapping_mul(0x9d)
            })
            .collect()
    }
}

/// The backends to compare with the portable one: every one this CPU runs.
fn others(backends: Vec<Backend>) -> impl Iterator<Item = Backend> {
    backends.into_iter().filter(|b| *b != Backend::Soft)
}

/// Panics unless `got` on `backend` equals the portable result `want`.
#[track_caller]
fn agree<T: PartialEq + std::fmt::Debug>(what: &str, backend: Backend, got: &T, want: &T) {
    assert!(
        got == want,
        "{what}: {backend} differs from the portable backend\n  {backend}: {got:?}\n  soft: {want:?}"
    );
}

/// An in-place operation's result: the error, or the buffer it produced.
fn in_place(
    mut buf: Vec<u8>,
    op: impl FnOnce(&mut [u8]) -> Result<(), Error>,
) -> Result<Vec<u8>, Error> {
    op(&mut buf).map(|()| buf)
}

/// Every cipher of the registry on every backend: ECB, CBC and CTR encryption and decryption
/// of one message (as plaintext and as ciphertext), and ECB and CBC on up to 17 keys at once
/// with messages of different lengths.
pub fn block_ciphers(data: &[u8]) {
    let mut input = Input(data);
    let ciphers = registry::ciphers();
    let info = ciphers[input.below(ciphers.len())];
    let n = info.block_len;
    let key = input.bytes(info.key_len);
    let iv = input.bytes(n);
    let keys: Vec<Vec<u8>> = (0..1 + input.below(17))
        .map(|i| key.iter().map(|b| b ^ (i as u8)).collect())
        .collect();
    let lengths: Vec<usize> = keys.iter().map(|_| input.below(300) * n).collect();
    let message = input.message();
    let whole = &message[..message.len() / n * n];

    let run = |backend: Backend| {
        let c = (info.new)(&key, Some(backend)).expect("a listed backend runs");
        let ops: Vec<Result<Vec<u8>, Error>> = vec![
            in_place(whole.to_vec(), |b| c.encrypt_ecb(b)),
            in_place(whole.to_vec(), |b| c.decrypt_ecb(b)),
            in_place(whole.to_vec(), |b| c.encrypt_cbc(&iv, b)),
            in_place(whole.to_vec(), |b| c.decrypt_cbc(&iv, b)),
            in_place(message.clone(), |b| c.apply_ctr(&iv, b)),
            // A message that is not whole blocks must be refused alike.
            in_place(message.clone(), |b| c.encrypt_ecb(b)),
        ];
        let keys: Vec<&[u8]> = keys.iter().map(Vec::as_slice).collect();
        let set = (info.new_multi)(&keys, Some(backend)).expect("a listed backend runs");
        let ivs: Vec<Vec<u8>> = (0..keys.len())
            .map(|i| iv.iter().map(|b| b.wrapping_add(i as u8)).collect())
            .collect();
        let ivs: Vec<&[u8]> = ivs.iter().map(Vec::as_slice).collect();
        let mut multi = Vec::new();
        for op in 0..4 {
            let mut bufs: Vec<Vec<u8>> = lengths
                .iter()
                .enumerate()
                .map(|(i, &len)| {
                    (0..len)
                        .map(|j| whole.get(j).copied().unwrap_or(0) ^ i as u8)
                        .collect()
                })
                .collect();
            let mut views: Vec<&mut [u8]> = bufs.iter_mut().map(Vec::as_mut_slice).collect();
            let r = match op {
                0 => set.encrypt_ecb(&mut views),
                1 => set.decrypt_ecb(&mut views),
                2 => set.encrypt_cbc(&ivs, &mut views),
                _ => set.decrypt_cbc(&ivs, &mut views),
            };
            multi.push(r.map(|()| bufs));
        }
        (ops, multi)
    };

    let (want, want_multi) = run(Backend::Soft);
    // The portable results are right: decryption inverts encryption, and each key of the
    // set gives what it gives alone.
    let soft = (info.new)(&key, Some(Backend::Soft)).expect("soft runs");
    let mut back = want[0].clone().expect("whole blocks");
    soft.decrypt_ecb(&mut back).expect("whole blocks");
    assert_eq!(back, whole, "{}: ecb does not round-trip", info.name);
    let mut back = want[2].clone().expect("whole blocks");
    soft.decrypt_cbc(&iv, &mut back).expect("whole blocks");
    assert_eq!(back, whole, "{}: cbc does not round-trip", info.name);
    if let Ok(sets) = &want_multi[0] {
        let one = (info.new)(&keys[0], Some(Backend::Soft)).expect("soft runs");
        let mut alone: Vec<u8> = (0..lengths[0])
            .map(|j| whole.get(j).copied().unwrap_or(0))
            .collect();
        one.encrypt_ecb(&mut alone).expect("whole blocks");
        assert_eq!(
            sets[0], alone,
            "{}: multi-key ecb differs from one key",
            info.name
        );
    }
    for backend in others((info.backends)()) {
        let (got, got_multi) = run(backend);
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            agree(&format!("{} operation {i}", info.name), backend, g, w);
        }
        for (i, (g, w)) in got_multi.iter().zip(&want_multi).enumerate() {
            agree(
                &format!("{} multi-key operation {i}", info.name),
                backend,
                g,
                w,
            );
        }
    }
}

/// AES with each key size: CTR32, GCM seal and open, CMAC and verify, XTS both ways.
pub fn aes_modes(data: &[u8]) {
    let mut input = Input(data);
    match input.u8() % 3 {
        0 => aes_modes_of::<K128>(input),
        1 => aes_modes_of::<K192>(input),
        _ => aes_modes_of::<K256>(input),
    }
}

fn aes_modes_of<K: KeySize>(mut input: Input<'_>) {
    let key = input.bytes(K::KEY);
    let xts_key = input.bytes(2 * K::KEY);
    let iv = input.bytes(16);
    let nonce = input.short(20);
    let aad = input.short(64);
    let message = input.message();

    type Results = Vec<Result<Vec<u8>, Error>>;
    let run = |backend: Backend| -> Results {
        let aes = Aes::<K>::with_backend(&key, backend).expect("a listed backend runs");
        let gcm = AesGcm::<K>::with_backend(&key, backend).expect("a listed backend runs");
        let cmac = AesCmac::<K>::with_backend(&key, backend).expect("a listed backend runs");
        let mut out = vec![
            in_place(message.clone(), |b| aes.apply_ctr32(&iv, b)),
            gcm.encrypt_detached(&nonce, &aad, &mut message.clone())
                .map(|t| t.to_vec()),
            Ok(cmac.mac(&message).to_vec()),
        ];
        let sealed = gcm.seal(&nonce, &aad, &message);
        if let Ok(sealed) = &sealed {
            let opened = gcm.open(&nonce, &aad, sealed);
            assert_eq!(
                opened.as_ref(),
                Ok(&message),
                "aes-gcm on {backend}: open(seal) fails"
            );
        }
        out.push(sealed);
        let tag = cmac.mac(&message);
        assert_eq!(
            cmac.verify(&message, &tag),
            Ok(()),
            "cmac on {backend}: own tag rejected"
        );
        // XTS with data and tweak halves from the input (equal halves included when given).
        match AesXts::<K>::with_backend(&xts_key, backend) {
            Ok(xts) => {
                let enc = in_place(message.clone(), |b| xts.encrypt_unit(&iv, b));
                if let Ok(ct) = &enc {
                    let back = in_place(ct.clone(), |b| xts.decrypt_unit(&iv, b));
                    assert_eq!(
                        back.as_ref(),
                        Ok(&message),
                        "xts on {backend}: no round trip"
                    );
                }
                out.push(enc);
                out.push(in_place(message.clone(), |b| xts.decrypt_unit(&iv, b)));
            }
            Err(e) => out.push(Err(e)),
        }
        out
    };
    let want = run(Backend::Soft);
    for backend in others(Aes::<K>::backends()) {
        let got = run(backend);
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            agree(&format!("aes-{} operation {i}", K::KEY * 8), backend, g, w);
        }
    }
}

/// Seals a buffer in place, returning the tag.
type Seal = Box<dyn Fn(&mut [u8]) -> Result<[u8; 16], Error>>;
/// Opens a buffer in place under a tag.
type Open = Box<dyn Fn(&[u8], &mut [u8]) -> Result<(), Error>>;

/// Opening garbage: AES-GCM and Kuznyechik-MGM on a key, nonce, associated data, ciphertext
/// and tag all from the input, and on a valid message with one bit altered. Nothing may be
/// accepted but the unaltered message, and every backend must answer as the portable one
/// does, in its result and in what it leaves in the buffer.
pub fn aead_open(data: &[u8]) {
    let mut input = Input(data);
    let which = input.u8() % 4;
    let key = input.bytes(32);
    let nonce = input.short(20);
    let ad = input.short(64);
    let tag = input.short(20);
    let flip = input.u16();
    let message = input.message();

    let open = |backend: Backend| -> Vec<(Result<(), Error>, Vec<u8>)> {
        let (seal, open): (Seal, Open) = match which {
            0..=2 => {
                macro_rules! gcm {
                    ($k:ty) => {{
                        let Ok(g) = AesGcm::<$k>::with_backend(&key[..<$k>::KEY], backend) else {
                            return Vec::new();
                        };
                        let g2 = g.clone();
                        let (n1, n2, a1, a2) =
                            (nonce.clone(), nonce.clone(), ad.clone(), ad.clone());
                        (
                            Box::new(move |b: &mut [u8]| g.encrypt_detached(&n1, &a1, b)),
                            Box::new(move |t: &[u8], b: &mut [u8]| {
                                g2.decrypt_detached(&n2, &a2, b, t)
                            }),
                        )
                    }};
                }
                match which {
                    0 => gcm!(K128),
                    1 => gcm!(K192),
                    _ => gcm!(K256),
                }
            }
            _ => {
                let Ok(m) = KuznyechikMgm::with_backend(&key, backend) else {
                    return Vec::new();
                };
                let m2 = m.clone();
                let (n1, n2, a1, a2) = (nonce.clone(), nonce.clone(), ad.clone(), ad.clone());
                (
                    Box::new(move |b: &mut [u8]| m.encrypt_detached(&n1, &a1, b)),
                    Box::new(move |t: &[u8], b: &mut [u8]| m2.decrypt_detached(&n2, &a2, b, t)),
                )
            }
        };
        let mut results = Vec::new();
        // Garbage: the tag from the input.
        let mut buf = message.clone();
        let r = open(&tag, &mut buf);
        results.push((r, buf));
        // A valid message, and the same with one bit of ciphertext or tag altered.
        let mut ct = message.clone();
        if let Ok(right) = seal(&mut ct) {
            let mut buf = ct.clone();
            assert_eq!(
                open(&right, &mut buf),
                Ok(()),
                "aead {which} on {backend}: own message rejected"
            );
            assert_eq!(buf, message, "aead {which} on {backend}: wrong plaintext");
            let bit = usize::from(flip) % (8 * (ct.len() + 16));
            let (mut ct2, mut tag2) = (ct.clone(), right);
            if bit < 8 * ct.len() {
                ct2[bit / 8] ^= 1 << (bit % 8);
            } else {
                tag2[bit / 8 - ct.len()] ^= 1 << (bit % 8);
            }
            let r = open(&tag2, &mut ct2);
            assert_eq!(
                r,
                Err(Error::AuthenticationFailed),
                "aead {which} on {backend}: altered bit {bit} accepted"
            );
            results.push((r, ct2));
        }
        results
    };
    let want = open(Backend::Soft);
    let backends = if which < 3 {
        Aes::<K128>::backends()
    } else {
        Kuznyechik::backends()
    };
    for backend in others(backends) {
        agree(
            &format!("aead {which} open"),
            backend,
            &open(backend),
            &want,
        );
    }
}

/// The GOST R 34.13 modes on Kuznyechik and on uBlock-128-128 (64- and 128-bit segments
/// alike, any `s`, any register length `m`, valid or not), and CTR-ACPKM, ACPKM-Master and
/// OMAC-ACPKM on Kuznyechik with any section lengths: every backend must give the portable
/// result or the same error, and the portable modes must round-trip.
pub fn gost_modes(data: &[u8]) {
    let mut input = Input(data);
    if input.u8() & 1 == 0 {
        gost_modes_of::<Kuznyechik>(input, true);
    } else {
        gost_modes_of::<Ublock128_128>(input, false);
    }
}

fn gost_modes_of<C: NamedCipher>(mut input: Input<'_>, acpkm: bool) {
    let key = input.bytes(C::KEY_LEN);
    let s = input.below(2 * C::BLOCK + 2);
    let m = input.below(5 * C::BLOCK + 2);
    let section = input.below(260);
    let master = input.below(260);
    let iv = input.bytes(m);
    let half = input.bytes(C::BLOCK / 2);
    let message = input.message();
    let whole = message[..message.len() / C::BLOCK * C::BLOCK].to_vec();

    let run = |backend: Backend| -> Vec<Result<Vec<u8>, Error>> {
        let c = C::keyed(&key, Some(backend)).expect("a listed backend runs");
        let mut out = vec![
            in_place(message.clone(), |b| gost::ctr(&c, &half, s, b)),
            in_place(message.clone(), |b| gost::ofb(&c, &iv, s, b)),
            in_place(whole.clone(), |b| gost::cbc_encrypt(&c, &iv, b)),
            in_place(whole.clone(), |b| gost::cbc_decrypt(&c, &iv, b)),
            in_place(message.clone(), |b| gost::cfb_encrypt(&c, &iv, s, b)),
            in_place(message.clone(), |b| gost::cfb_decrypt(&c, &iv, s, b)),
            gost::mac(&c, &message, s),
        ];
        if acpkm {
            let k = Kuznyechik::with_backend(&key, backend).expect("a listed backend runs");
            out.push(in_place(message.clone(), |b| {
                acpkm::ctr_acpkm(&k, &half, section, b)
            }));
            let mut keystream = vec![0u8; message.len() % 1000];
            out.push(acpkm::acpkm_master(&k, master, &mut keystream).map(|()| keystream));
            out.push(acpkm::omac_acpkm(&k, section, master, &message, s));
        }
        out
    };
    let want = run(Backend::Soft);
    // Round trips of the portable modes, where the parameters are valid.
    let c = C::keyed(&key, Some(Backend::Soft)).expect("soft runs");
    let check =
        |name: &str, i: usize, inverse: &dyn Fn(&mut [u8]) -> Result<(), Error>, plain: &[u8]| {
            if let Ok(ct) = &want[i] {
                let mut back = ct.clone();
                inverse(&mut back).expect("the parameters were accepted");
                assert_eq!(back, plain, "{} gost {name}: no round trip", C::NAME);
            }
        };
    check("ctr", 0, &|b| gost::ctr(&c, &half, s, b), &message);
    check("ofb", 1, &|b| gost::ofb(&c, &iv, s, b), &message);
    check("cbc", 2, &|b| gost::cbc_decrypt(&c, &iv, b), &whole);
    check("cfb", 4, &|b| gost::cfb_decrypt(&c, &iv, s, b), &message);
    for backend in others(C::backends()) {
        let got = run(backend);
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            agree(&format!("{} gost operation {i}", C::NAME), backend, g, w);
        }
    }
}

/// Aigis-enc decapsulation, every set and hash mode: of a garbage ciphertext under a real
/// key, and of garbage (possibly of the wrong length) under a garbage secret key. Must not
/// panic, and every backend must give the portable result.
pub fn aigis_decaps(data: &[u8]) {
    let mut input = Input(data);
    let set = ParamSet::ALL[input.below(ParamSet::ALL.len())];
    let mode = if input.u8() & 1 == 0 {
        HashMode::Shake
    } else {
        HashMode::Sm3
    };
    let coins = input.bytes(aigis::KEYPAIR_COINS_BYTES);
    let encaps_coins = input.bytes(aigis::ENCAPS_COINS_BYTES);
    // Lengths off by up to two either way now and then.
    let off = |input: &mut Input<'_>, len: usize| {
        let d = input.u8();
        if d < 240 {
            len
        } else {
            (len + usize::from(d % 5)).saturating_sub(2)
        }
    };
    let sk_len = off(&mut input, set.secret_key_bytes());
    let ct_len = off(&mut input, set.ciphertext_bytes());
    let flip = input.u16();
    let sk_garbage = input.fill(sk_len);
    let ct_garbage: Vec<u8> = input
        .fill(ct_len)
        .iter()
        .map(|b| b.rotate_left(3) ^ 0x5c)
        .collect();

    let run = |backend: Backend| -> Vec<Result<Vec<u8>, Error>> {
        let kem = Aigis::with_backend(set, mode, backend).expect("a listed backend runs");
        let (pk, sk) = kem.keypair_from_coins(&coins).expect("keypair");
        let mut ct = vec![0u8; set.ciphertext_bytes()];
        let ss = kem
            .encapsulate_into(&pk, &encaps_coins, &mut ct)
            .expect("encaps");
        let ss = ss[..].to_vec();
        let got = kem.decapsulate(&sk, &ct).map(|s| s[..].to_vec());
        assert_eq!(
            got.as_ref(),
            Ok(&ss),
            "aigis on {backend}: decaps of a valid ciphertext"
        );
        let mut altered = ct.clone();
        let bit = usize::from(flip) % (8 * ct.len());
        altered[bit / 8] ^= 1 << (bit % 8);
        let rejected = kem.decapsulate(&sk, &altered).map(|s| s[..].to_vec());
        assert_ne!(
            rejected.as_ref(),
            Ok(&ss),
            "aigis on {backend}: altered ciphertext gave the secret"
        );
        vec![
            Ok(pk),
            Ok(ct.clone()),
            rejected,
            kem.decapsulate(&sk, &ct_garbage).map(|s| s[..].to_vec()),
            kem.decapsulate(&sk_garbage, &ct_garbage)
                .map(|s| s[..].to_vec()),
            kem.decapsulate(&sk_garbage, &ct).map(|s| s[..].to_vec()),
        ]
    };
    let want = run(Backend::Soft);
    for backend in others(aigis::backends()) {
        let got = run(backend);
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            agree(&format!("{} operation {i}", set.name()), backend, g, w);
        }
    }
}

/// What [`sealed_file`] does to the sealed bytes before opening them again.
#[derive(Debug)]
enum Alteration {
    Flip(usize),
    Truncate(usize),
    Append(Vec<u8>),
    Delete(usize, usize),
    /// Two chunks (or any two equal-length runs) exchanged.
    Swap(usize, usize, usize),
    /// A run of the stream written twice.
    Repeat(usize, usize),
}

impl Alteration {
    fn apply(&self, sealed: &[u8]) -> Vec<u8> {
        let mut v = sealed.to_vec();
        match *self {
            Alteration::Flip(bit) => v[bit / 8] ^= 1 << (bit % 8),
            Alteration::Truncate(at) => v.truncate(at),
            Alteration::Append(ref tail) => v.extend_from_slice(tail),
            Alteration::Delete(at, len) => {
                v.drain(at..at + len);
            }
            Alteration::Swap(a, b, len) => {
                let (x, y) = (v[a..a + len].to_vec(), v[b..b + len].to_vec());
                v[a..a + len].copy_from_slice(&y);
                v[b..b + len].copy_from_slice(&x);
            }
            Alteration::Repeat(at, len) => {
                let run = v[at..at + len].to_vec();
                v.splice(at..at, run);
            }
        }
        v
    }
}

/// Opens `sealed`, collecting what `open` releases.
fn open_sealed(how: &Unlock<'_>, sealed: &[u8]) -> (Result<(), u8>, Vec<u8>) {
    let mut released = Vec::new();
    let mut out = |b: &[u8]| -> Result<(), vecrypt_cli::Failure> {
        released.extend_from_slice(b);
        Ok(())
    };
    let input = std::io::Cursor::new(sealed.to_vec());
    let result = seal::open_stream(how, input, &mut out, None).map_err(|f| f.code);
    (result, released)
}

/// The sealed-stream format: a round trip of a message of up to three chunks and a tail,
/// under a key file or an Aigis-enc public key, in either suite, must give the message back;
/// the same sealed bytes altered (a bit flipped, truncated, extended, a run deleted, two runs
/// swapped, a run repeated) must be refused with status 1, having released only whole
/// authenticated chunks of the message; and the fuzzer's bytes opened as a sealed stream must
/// be refused with status 1 without a panic.
pub fn sealed_file(data: &[u8]) {
    let mut input = Input(data);
    let key = input.bytes(seal::KEY_BYTES);
    let shape = input.u8();
    let suite = if shape & 1 == 0 {
        Suite::Aes256Gcm
    } else {
        Suite::KuznyechikMgm
    };
    let to_kem = shape & 6 == 6;
    let by_passphrase = shape & 6 == 2;
    let prefix: [u8; seal::NONCE_PREFIX] = input.bytes(seal::NONCE_PREFIX).try_into().unwrap();
    let kinds = input.u8();
    let (p1, p2, p3) = (input.u16(), input.u16(), input.u16());
    let tail = input.short(40);
    let garbage_len = input.below(400);
    let garbage = input.fill(garbage_len);
    let len = match kinds % 4 {
        0 => usize::from(p1) % 300,
        1 => seal::CHUNK - 2 + usize::from(p1) % 4,
        _ => usize::from(p1).wrapping_mul(7) % (3 * seal::CHUNK + 100),
    };
    let message = input.fill(len);

    // Garbage, and garbage behind a valid-looking magic and version, are refused.
    for junk in [
        garbage.clone(),
        [&b"VECRYPT\x01"[..], &garbage].concat(),
        [&b"VECRYPT\x02"[..], &garbage].concat(),
    ] {
        let (result, released) = open_sealed(&Unlock::Key(&key), &junk);
        assert_eq!(result, Err(1), "garbage opened: {junk:02x?}");
        assert!(released.is_empty(), "garbage released plaintext");
    }

    let kem_keys;
    let (lock, unlock) = if to_kem {
        let set = ParamSet::ALL[usize::from(kinds >> 2) % ParamSet::ALL.len()];
        let mode = if kinds & 0x40 == 0 {
            HashMode::Shake
        } else {
            HashMode::Sm3
        };
        let mut coins = key.clone();
        coins.extend_from_slice(&key);
        let (pk, sk) = Aigis::new(set, mode)
            .keypair_from_coins(&coins)
            .expect("keypair");
        kem_keys = (pk, seal::encode_kem_key(true, set, mode, &sk));
        let encaps: [u8; 32] = key[..32].try_into().unwrap();
        (
            Lock::Kem {
                pk: &kem_keys.0,
                set,
                mode,
                coins: encaps,
            },
            Unlock::Kem(&kem_keys.1),
        )
    } else if by_passphrase {
        // A small cost, so that a run stays fast; the limit given to `open` is the same.
        let cost = seal::Cost {
            m_kib: 8 + u32::from(p3 % 32),
            t: 1 + u32::from(p3 >> 15),
            p: 1,
        };
        let salt: [u8; 16] = key[..16].try_into().unwrap();
        (
            Lock::Passphrase {
                pass: &key,
                salt,
                cost,
            },
            Unlock::Passphrase(&key, cost),
        )
    } else {
        (Lock::Key(&key), Unlock::Key(&key))
    };

    let mut sealed = Vec::new();
    let mut out = |b: &[u8]| -> Result<(), vecrypt_cli::Failure> {
        sealed.extend_from_slice(b);
        Ok(())
    };
    let plain = std::io::Cursor::new(message.clone());
    if seal::seal_stream(&lock, suite, &prefix, plain, &mut out, None).is_err() {
        panic!("sealing failed");
    }
    let (result, opened) = open_sealed(&unlock, &sealed);
    assert_eq!(result, Ok(()), "a sealed message did not open");
    assert!(opened == message, "the round trip changed the message");

    // A header whose MAC checks but whose cost is above what `open` accepts is refused
    // before any chunk, whatever the cost.
    if let Lock::Passphrase { cost, .. } = lock {
        let below = seal::Cost {
            m_kib: cost.m_kib - 1,
            ..cost
        };
        for limit in [
            below,
            seal::Cost {
                t: cost.t - 1,
                ..cost
            },
        ] {
            let (result, released) = open_sealed(&Unlock::Passphrase(&key, limit), &sealed);
            assert_eq!(result, Err(1), "a cost above the limit was accepted");
            assert!(
                released.is_empty(),
                "a cost above the limit released plaintext"
            );
        }
    }

    let n = sealed.len();
    let at = |p: u16| usize::from(p) * 37 % n;
    let alteration = match kinds % 6 {
        0 => Alteration::Flip(usize::from(p2).wrapping_mul(131) % (8 * n)),
        1 => Alteration::Truncate(at(p2)),
        2 => Alteration::Append(if tail.is_empty() { vec![0] } else { tail }),
        3 => {
            let start = at(p2);
            Alteration::Delete(start, 1 + usize::from(p3) % (n - start))
        }
        4 => {
            let run = 1 + usize::from(p3) % (n / 2).max(1);
            let a = at(p2) % (n - run + 1);
            let b = (a + run + at(p3)) % (n - run + 1);
            if a + run <= b || b + run <= a {
                Alteration::Swap(a, b, run)
            } else {
                Alteration::Truncate(0)
            }
        }
        _ => {
            let start = at(p2);
            Alteration::Repeat(start, 1 + usize::from(p3) % (n - start))
        }
    };
    let altered = alteration.apply(&sealed);
    if altered == sealed {
        return;
    }
    let (result, released) = open_sealed(&unlock, &altered);
    assert_eq!(result, Err(1), "{alteration:?} was not refused");
    assert!(
        released.len() % seal::CHUNK == 0 && message.starts_with(&released),
        "{alteration:?}: released {} bytes that are not whole chunks of the message",
        released.len()
    );
}
