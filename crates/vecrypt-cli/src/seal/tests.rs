//! The known-answer files of `tests/data/format-v2`, made again from their fixed keys and
//! "random" values and compared byte for byte (`VECRYPT_WRITE_KAT=1` rewrites them); the
//! header MAC checked before any chunk is read; and every failure of a reader or a writer,
//! at every call over a stream of many batches, ending the stream at once.

use std::io::{self, Cursor, Read};
use std::path::{Path, PathBuf};
use std::sync::mpsc::channel;
use std::time::Duration;

use super::*;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/format-v2")
}

fn plaintext() -> Vec<u8> {
    (0..70_000u32).map(|i| (i * 31 + i / 251) as u8).collect()
}

const NONCE_PREFIX_KAT: [u8; NONCE_PREFIX] = [
    0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf,
];

fn sealed_with(how: &Lock, suite: Suite, prefix: &[u8; NONCE_PREFIX], plain: &[u8]) -> Vec<u8> {
    sealed_from(how, suite, prefix, Cursor::new(plain.to_vec()))
}

/// The sealed stream of what `input` gives.
fn sealed_from(
    how: &Lock,
    suite: Suite,
    prefix: &[u8; NONCE_PREFIX],
    input: impl Read + Send + 'static,
) -> Vec<u8> {
    let mut out = Vec::new();
    seal_stream(
        how,
        suite,
        prefix,
        input,
        &mut |d: &[u8]| {
            out.extend_from_slice(d);
            Ok(())
        },
        None,
    )
    .map_err(|f| f.msg)
    .unwrap();
    out
}

fn sealed(how: &Lock, suite: Suite, plain: &[u8]) -> Vec<u8> {
    sealed_with(how, suite, &NONCE_PREFIX_KAT, plain)
}

/// Opens `data`; returns the status code of a failure and what was released.
fn open_all(how: &Unlock, data: impl Read + Send + 'static) -> (Result<(), (u8, String)>, Vec<u8>) {
    let mut out = Vec::new();
    let r = open_stream(
        how,
        data,
        &mut |d: &[u8]| {
            out.extend_from_slice(d);
            Ok(())
        },
        None,
    );
    (r.map_err(|f| (f.code, f.msg)), out)
}

fn kat_key() -> Vec<u8> {
    (0u8..32).collect()
}

const KAT_PASS: &[u8] = b"correct horse battery staple";

fn kat_cost() -> Cost {
    Cost {
        m_kib: 256,
        t: 2,
        p: 1,
    }
}

/// Every known-answer file, by name.
fn files() -> Vec<(&'static str, Vec<u8>)> {
    let plain = plaintext();
    let key = kat_key();
    let salt: [u8; 16] = core::array::from_fn(|i| 0x50 + i as u8);
    let set = ParamSet::Aigis2;
    let kem = Aigis::new(set, HashMode::Shake);
    let mut pk = vec![0u8; set.public_key_bytes()];
    let mut sk = vec![0u8; set.secret_key_bytes()];
    kem.keypair_into(&[0x11; 64], &mut pk, &mut sk).unwrap();
    let to = Lock::Kem {
        pk: &pk,
        set,
        mode: HashMode::Shake,
        coins: [0x33; 32],
    };
    let pass = Lock::Passphrase {
        pass: KAT_PASS,
        salt,
        cost: kat_cost(),
    };
    vec![
        ("plain.bin", plain.clone()),
        ("key.txt", crate::keys::encode_key_file(&key).to_vec()),
        ("passphrase.txt", [KAT_PASS, b"\n"].concat()),
        (
            "aigis-enc-2.pk",
            encode_kem_key(false, set, HashMode::Shake, &pk),
        ),
        (
            "aigis-enc-2.sk",
            encode_kem_key(true, set, HashMode::Shake, &sk),
        ),
        (
            "key-aes-256-gcm.vcr",
            sealed(&Lock::Key(&key), Suite::Aes256Gcm, &plain),
        ),
        (
            "key-kuznyechik-mgm.vcr",
            sealed(&Lock::Key(&key), Suite::KuznyechikMgm, &plain),
        ),
        (
            "empty-aes-256-gcm.vcr",
            sealed(&Lock::Key(&key), Suite::Aes256Gcm, &[]),
        ),
        (
            "passphrase-aes-256-gcm.vcr",
            sealed(&pass, Suite::Aes256Gcm, &plain),
        ),
        (
            "aigis-enc-2-kuznyechik-mgm.vcr",
            sealed(&to, Suite::KuznyechikMgm, &plain),
        ),
    ]
}

#[test]
fn known_answer_files_are_reproduced_byte_for_byte() {
    let write = std::env::var_os("VECRYPT_WRITE_KAT").is_some();
    for (name, want) in files() {
        let path = dir().join(name);
        if write {
            std::fs::create_dir_all(dir()).unwrap();
            std::fs::write(&path, &want).unwrap();
        }
        let got = std::fs::read(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(got == want, "{name} differs from what seal makes now");
    }
}

#[test]
fn a_format_1_stream_is_refused_by_its_version() {
    let old = std::fs::read(dir().join("retired-v1-key-aes-256-gcm.vcr")).unwrap();
    let (r, out) = open_all(&Unlock::Key(&kat_key()), Cursor::new(old));
    let (code, msg) = r.unwrap_err();
    assert_eq!(code, 1);
    assert!(msg.contains("version 1"), "{msg}");
    assert!(out.is_empty());
}

#[test]
fn chunk_nonces_carry_index_and_last_flag() {
    let aead = Aead::new(Suite::Aes256Gcm, &[7; 32])
        .map_err(|f| f.msg)
        .unwrap();
    let (n, len) = aead.nonce(0x0102, true);
    assert_eq!(&n[..len], &[0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 1]);
    let aead = Aead::new(Suite::KuznyechikMgm, &[7; 32])
        .map_err(|f| f.msg)
        .unwrap();
    let (n, len) = aead.nonce(5, false);
    assert_eq!(len, 16);
    assert_eq!(&n[8..], &[0, 0, 0, 0, 0, 0, 5, 0]);
    assert_eq!(n[0] & 0x80, 0, "MGM nonces have their top bit clear");
}

#[test]
fn costs_out_of_bounds_are_refused() {
    assert_eq!(Cost::parse("65536,3,1"), Ok(Cost::DEFAULT));
    for bad in [
        "0,1,1",
        "4194305,1,1",
        "1024,0,1",
        "1024,65,1",
        "1024,1,17",
        "x",
        "1,2",
    ] {
        assert!(Cost::parse(bad).is_err(), "{bad}");
    }
    assert!(Cost::DEFAULT.meets_rfc9106());
    assert!(!kat_cost().meets_rfc9106());
    assert!(Cost::DEFAULT.within(Cost::DEFAULT_MAX));
}

/// Gives the header, then fails any further read: what a check that reads no chunk needs.
struct HeaderOnly {
    data: Vec<u8>,
    pos: usize,
    header: usize,
}

impl Read for HeaderOnly {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos >= self.header {
            return Err(io::Error::other("a chunk was read"));
        }
        let n = buf.len().min(self.header - self.pos);
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

#[test]
fn a_wrong_key_or_passphrase_fails_at_the_header_before_any_chunk() {
    let plain = plaintext();
    let key = kat_key();
    let other: Vec<u8> = (1u8..33).collect();
    let sealed = sealed(&Lock::Key(&key), Suite::Aes256Gcm, &plain);
    let header = 12 + NONCE_PREFIX + MAC_BYTES;
    let input = HeaderOnly {
        data: sealed.clone(),
        pos: 0,
        header,
    };
    let (r, out) = open_all(&Unlock::Key(&other), input);
    let (code, msg) = r.unwrap_err();
    assert_eq!((code, out.len()), (1, 0));
    assert!(msg.contains("wrong key"), "{msg}");

    let salt = [9u8; 16];
    let how = Lock::Passphrase {
        pass: b"right",
        salt,
        cost: kat_cost(),
    };
    let sealed = sealed_with(&how, Suite::KuznyechikMgm, &[3; 16], &plain);
    let input = HeaderOnly {
        data: sealed,
        pos: 0,
        header: header + 28,
    };
    let (r, _) = open_all(&Unlock::Passphrase(b"wrong", Cost::DEFAULT_MAX), input);
    let (code, msg) = r.unwrap_err();
    assert_eq!(code, 1);
    assert!(msg.contains("wrong key, passphrase"), "{msg}");
}

#[test]
fn every_header_byte_is_authenticated_before_any_chunk() {
    let key = kat_key();
    let sealed = sealed(&Lock::Key(&key), Suite::Aes256Gcm, b"short");
    let header = 12 + NONCE_PREFIX + MAC_BYTES;
    for i in 0..header {
        for bit in [0x01u8, 0x80] {
            let mut bad = sealed.clone();
            bad[i] ^= bit;
            let (r, out) = open_all(&Unlock::Key(&key), Cursor::new(bad));
            assert_eq!(r.map_err(|(c, _)| c), Err(1), "byte {i}");
            assert!(out.is_empty(), "byte {i}: released plaintext");
        }
    }
}

#[test]
fn a_header_cost_above_the_limit_is_refused_before_argon2_runs() {
    let how = Lock::Passphrase {
        pass: b"pw",
        salt: [1; 16],
        cost: kat_cost(),
    };
    let sealed = sealed_with(&how, Suite::Aes256Gcm, &[2; 16], b"x");
    // Memory is the word after the 12 fixed bytes and the 16-byte salt: 4 GiB, a valid
    // format value, above the default limit; its MAC no longer checks, but the limit comes
    // first, so no 4 GiB is ever asked for.
    let mut huge = sealed.clone();
    huge[28..32].copy_from_slice(&(4u32 * 1024 * 1024).to_be_bytes());
    let started = std::time::Instant::now();
    let (r, _) = open_all(
        &Unlock::Passphrase(b"pw", Cost::DEFAULT_MAX),
        Cursor::new(huge),
    );
    let (code, msg) = r.unwrap_err();
    assert_eq!(code, 1);
    assert!(msg.contains("--max-argon2"), "{msg}");
    assert!(started.elapsed() < Duration::from_secs(5));
    // A lower limit refuses even the stream's own cost; the right limit opens it.
    let low = Cost {
        m_kib: 128,
        t: 8,
        p: 1,
    };
    let (r, _) = open_all(&Unlock::Passphrase(b"pw", low), Cursor::new(sealed.clone()));
    assert_eq!(r.map_err(|(c, _)| c), Err(1));
    let (r, out) = open_all(&Unlock::Passphrase(b"pw", kat_cost()), Cursor::new(sealed));
    assert!(r.is_ok());
    assert_eq!(out, b"x");
}

#[test]
fn an_empty_last_chunk_after_a_full_one_is_refused() {
    // Build the non-canonical stream with the stream's own keys: one full chunk sealed as a
    // middle chunk, then an empty last chunk.
    let key = kat_key();
    let prefix = [5u8; NONCE_PREFIX];
    let (header, file_key) = lock(&Lock::Key(&key), Suite::Aes256Gcm, &prefix).unwrap();
    let aead = Aead::new(
        Suite::Aes256Gcm,
        &*kdf::payload_key(&*file_key, &prefix, &header).unwrap(),
    )
    .unwrap();
    let mut chunk0 = vec![0x42u8; CHUNK + TAG];
    aead.seal(0, false, &mut chunk0).unwrap();
    let mut chunk1 = [0u8; TAG];
    aead.seal(1, true, &mut chunk1).unwrap();
    let stream = [&header[..], &chunk0, &chunk1].concat();
    let (r, out) = open_all(&Unlock::Key(&key), Cursor::new(stream));
    assert_eq!(r.map_err(|(c, _)| c), Err(1));
    assert_eq!(out.len(), CHUNK, "the full chunk checks and is released");
}

/// A reader of `data` that gives at most `piece` bytes a call and fails at call `fail_at`.
struct FailingReader {
    data: Vec<u8>,
    pos: usize,
    piece: usize,
    calls: usize,
    fail_at: usize,
}

impl Read for FailingReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.calls == self.fail_at {
            return Err(io::Error::other("injected read failure"));
        }
        let n = buf.len().min(self.piece).min(self.data.len() - self.pos);
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// Runs `f` on its own thread; fails the test if it takes longer than `secs` (six times
/// that under an emulator, `VECRYPT_TEST_RUNNER`).
fn within<T: Send + 'static>(secs: u64, what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let secs = if std::env::var_os("VECRYPT_TEST_RUNNER").is_some() {
        secs * 6
    } else {
        secs
    };
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(secs))
        .unwrap_or_else(|_| panic!("{what}: no result within {secs} s (a hang)"))
}

#[test]
fn chunk_and_batch_boundaries_lay_out_and_open() {
    // Every length where a chunk or a batch ends, and one byte either side, read whole and
    // in small pieces: each chunk's tag follows its body, the last chunk alone is short (or
    // empty if the stream is), and open gives the input back.
    let b = batch_chunks() * CHUNK;
    let key = kat_key();
    let header = 12 + NONCE_PREFIX + MAC_BYTES;
    for n in [
        0,
        1,
        CHUNK - 1,
        CHUNK,
        CHUNK + 1,
        3 * CHUNK,
        b - 1,
        b,
        b + 1,
        2 * b,
        2 * b + 7,
    ] {
        let plain: Vec<u8> = (0..n).map(|i| (i * 7 + i / 1009) as u8).collect();
        let whole = sealed(&Lock::Key(&key), Suite::Aes256Gcm, &plain);
        let chunks = n.div_ceil(CHUNK).max(1);
        assert_eq!(whole.len(), header + n + chunks * TAG, "{n} bytes");
        let pieces = sealed_from(
            &Lock::Key(&key),
            Suite::Aes256Gcm,
            &NONCE_PREFIX_KAT,
            FailingReader {
                data: plain.clone(),
                pos: 0,
                piece: 1000,
                calls: 0,
                fail_at: 0,
            },
        );
        assert!(
            pieces == whole,
            "{n} bytes: read in pieces, sealed otherwise"
        );
        let (r, out) = open_all(&Unlock::Key(&key), Cursor::new(whole));
        assert_eq!(r, Ok(()), "{n} bytes");
        assert!(out == plain, "{n} bytes: opened otherwise");
    }
}

/// A stream of this many bytes spans more batches than are in flight.
fn many_batches() -> usize {
    batch_chunks() * CHUNK * (pipeline::IN_FLIGHT + 4) + 12345
}

/// How many reads a whole stream takes with this piece size (the last, at the end, too).
fn reads_needed(data: &[u8], piece: usize, run: impl Fn(FailingReader) -> bool) -> usize {
    let reader = FailingReader {
        data: data.to_vec(),
        pos: 0,
        piece,
        calls: 0,
        fail_at: usize::MAX,
    };
    assert!(run(reader), "the stream without failures works");
    // Count by failing ever later until a run succeeds.
    let mut n = 1;
    while !run(FailingReader {
        data: data.to_vec(),
        pos: 0,
        piece,
        calls: 0,
        fail_at: n,
    }) {
        n += 1;
    }
    n
}

#[test]
fn a_reader_failing_at_any_call_ends_seal_and_open_with_status_2() {
    let plain: Vec<u8> = (0..many_batches())
        .map(|i| (i * 7 + i / 991) as u8)
        .collect();
    let key = kat_key();
    let stream = sealed(&Lock::Key(&key), Suite::Aes256Gcm, &plain);
    let piece = 100_003;
    for (what, data) in [("seal", plain.clone()), ("open", stream.clone())] {
        let key = key.clone();
        let run = move |reader: FailingReader| -> (Result<(), u8>, Vec<u8>) {
            let mut out = Vec::new();
            let r = if what == "seal" {
                seal_stream(
                    &Lock::Key(&key),
                    Suite::Aes256Gcm,
                    &NONCE_PREFIX_KAT,
                    reader,
                    &mut |d: &[u8]| {
                        out.extend_from_slice(d);
                        Ok(())
                    },
                    None,
                )
            } else {
                open_stream(
                    &Unlock::Key(&key),
                    reader,
                    &mut |d: &[u8]| {
                        out.extend_from_slice(d);
                        Ok(())
                    },
                    None,
                )
            };
            (r.map_err(|f| f.code), out)
        };
        let run = std::sync::Arc::new(run);
        let calls = {
            let run = run.clone();
            reads_needed(&data, piece, move |r| run(r).0.is_ok())
        };
        assert!(
            calls > 10,
            "{what}: {calls} reads is too few to cover many batches"
        );
        let full = if what == "seal" {
            stream.clone()
        } else {
            plain.clone()
        };
        for fail_at in 1..calls {
            let (run, data) = (run.clone(), data.clone());
            let (r, out) = within(20, what, move || {
                run(FailingReader {
                    data,
                    pos: 0,
                    piece,
                    calls: 0,
                    fail_at,
                })
            });
            assert_eq!(r, Err(2), "{what}: read {fail_at} failed");
            assert!(
                full.starts_with(&out),
                "{what}: read {fail_at}: output not a prefix"
            );
            assert!(
                out.len() < full.len(),
                "{what}: read {fail_at}: all released"
            );
        }
    }
}

#[test]
fn a_writer_failing_at_any_call_ends_seal_and_open_with_status_2() {
    let plain: Vec<u8> = (0..many_batches())
        .map(|i| (i * 13 + i / 577) as u8)
        .collect();
    let key = kat_key();
    // The pipeline does not depend on the suite; AES-GCM keeps the many runs quick under
    // an emulator too.
    let stream = sealed(&Lock::Key(&key), Suite::Aes256Gcm, &plain);
    let n = plain.len();
    for what in ["seal", "open"] {
        let mut fail_at = 1;
        loop {
            let (key, plain, stream) = (key.clone(), plain.clone(), stream.clone());
            let (r, writes) = within(20, what, move || {
                let mut writes = 0usize;
                let mut out = |_: &[u8]| {
                    writes += 1;
                    if writes == fail_at {
                        Err(Failure::usage("injected write failure"))
                    } else {
                        Ok(())
                    }
                };
                let r = if what == "seal" {
                    let how = Lock::Key(&key);
                    seal_stream(
                        &how,
                        Suite::Aes256Gcm,
                        &[1; 16],
                        Cursor::new(plain),
                        &mut out,
                        None,
                    )
                } else {
                    open_stream(&Unlock::Key(&key), Cursor::new(stream), &mut out, None)
                };
                (r.map_err(|f| f.code), writes)
            });
            if r.is_ok() {
                // seal writes the header and then each batch at once, open each chunk.
                let all = match what {
                    "seal" => 1 + n.div_ceil(batch_chunks() * CHUNK),
                    _ => n.div_ceil(CHUNK),
                };
                assert!(all > pipeline::IN_FLIGHT + 4, "{what}: {all} writes");
                assert_eq!(fail_at - 1, all, "{what}: the writes of the whole stream");
                break;
            }
            assert_eq!(r, Err(2), "{what}: write {fail_at} failed");
            assert_eq!(writes, fail_at, "{what}: a write after the failed one");
            fail_at += 1;
        }
    }
}

#[test]
fn a_bad_chunk_anywhere_releases_exactly_the_chunks_before_it() {
    let plain: Vec<u8> = (0..many_batches())
        .map(|i| (i * 5 + i / 313) as u8)
        .collect();
    let key = kat_key();
    let stream = sealed(&Lock::Key(&key), Suite::Aes256Gcm, &plain);
    let header = 12 + NONCE_PREFIX + MAC_BYTES;
    let chunks = plain.len().div_ceil(CHUNK);
    for k in 0..chunks {
        let mut bad = stream.clone();
        bad[header + k * SEALED + 100.min(plain.len() - k * CHUNK - 1)] ^= 4;
        let key = key.clone();
        let (r, out) = within(20, "open", move || {
            open_all(&Unlock::Key(&key), Cursor::new(bad))
        });
        assert_eq!(r.map_err(|(c, _)| c), Err(1), "chunk {k}");
        assert_eq!(out.len(), k * CHUNK, "chunk {k}: released");
    }
}
