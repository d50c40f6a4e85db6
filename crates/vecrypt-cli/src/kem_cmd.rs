//! `vecrypt kem <SET> keygen|encaps|decaps [--hash shake|sm3] ...`: Aigis-enc over files.
//!
//! Key files start with a nine-byte header naming the set and the hash mode (see
//! docs/format.md); files of raw key bytes are read too, with the set and mode given.
//! Ciphertexts are raw bytes; the shared secret is printed in hex unless `--ss FILE` is given. Coins come from the operating system unless `--coins HEX` fixes them
//! (64 bytes for keygen, 32 for encaps), which reproduces test vectors.

use std::path::PathBuf;

use clap::ValueEnum;
use vecrypt::aigis::{Aigis, AigisCompact, HashMode, ParamSet, SharedSecret};
use zeroize::Zeroizing;

use crate::Failure;
use crate::output::{Replace, Secrecy, read_input, write_all};
use crate::seal::{decode_kem_key, encode_kem_key};

#[derive(clap::Args)]
pub struct Args {
    /// Parameter set: aigis-enc-1 ... aigis-enc-4 (or just 1 ... 4).
    set: String,
    /// What to do.
    op: Op,
    /// Hash mode (default: the key file's, or shake).
    #[arg(long, value_enum)]
    hash: Option<Hash>,
    /// Public key file (written by keygen, read by encaps).
    #[arg(long, value_name = "FILE")]
    pk: Option<PathBuf>,
    /// Secret key file (written by keygen, read by decaps).
    #[arg(long, value_name = "FILE")]
    sk: Option<PathBuf>,
    /// Ciphertext file (written by encaps, read by decaps).
    #[arg(long, value_name = "FILE")]
    ct: Option<PathBuf>,
    /// Write the shared secret to this file instead of printing it in hex.
    #[arg(long, value_name = "FILE")]
    ss: Option<PathBuf>,
    /// Replace an existing output file.
    #[arg(long)]
    force: bool,
    /// Fixed coins in hex (64 bytes for keygen, 32 for encaps) instead of system randomness.
    #[arg(long)]
    coins: Option<Zeroizing<String>>,
    /// Use the small-stack variant (same results).
    #[arg(long)]
    compact: bool,
    /// Force a backend (see `vecrypt info`).
    #[arg(long)]
    backend: Option<String>,
}

#[derive(Copy, Clone, ValueEnum)]
enum Op {
    Keygen,
    Encaps,
    Decaps,
}

#[derive(Copy, Clone, ValueEnum)]
pub enum Hash {
    Shake,
    Sm3,
}

impl From<Hash> for HashMode {
    fn from(h: Hash) -> Self {
        match h {
            Hash::Shake => HashMode::Shake,
            Hash::Sm3 => HashMode::Sm3,
        }
    }
}

/// The set named on the command line.
pub fn parse_set(name: &str) -> Result<ParamSet, Failure> {
    ParamSet::parse(name).map_err(|_| {
        Failure::usage(format!(
            "unknown parameter set '{name}' (known: aigis-enc-1, aigis-enc-2, aigis-enc-3, aigis-enc-4)"
        ))
    })
}

/// `n` bytes from the operating system's generator.
fn system_coins(n: usize) -> Result<Zeroizing<Vec<u8>>, Failure> {
    let mut out = Zeroizing::new(vec![0u8; n]);
    getrandom::fill(&mut out)
        .map_err(|e| Failure::usage(format!("cannot read system randomness: {e}")))?;
    Ok(out)
}

fn coins(args: &Args, n: usize) -> Result<Zeroizing<Vec<u8>>, Failure> {
    match &args.coins {
        None => system_coins(n),
        Some(h) => {
            let c = Zeroizing::new(
                hex::decode(h.trim())
                    .map_err(|e| Failure::usage(format!("--coins is not valid hex: {e}")))?,
            );
            if c.len() != n {
                return Err(Failure::usage(format!(
                    "--coins must be {n} bytes here, got {}",
                    c.len()
                )));
            }
            Ok(c)
        }
    }
}

fn need<'a>(path: &'a Option<PathBuf>, flag: &str, op: &str) -> Result<&'a PathBuf, Failure> {
    path.as_ref()
        .ok_or_else(|| Failure::usage(format!("{op} needs {flag} FILE")))
}

/// The same three operations on either variant.
enum Engine {
    Fast(Aigis),
    Small(AigisCompact),
}

impl Engine {
    fn keypair(&self, coins: &[u8], pk: &mut [u8], sk: &mut [u8]) -> Result<(), vecrypt::Error> {
        match self {
            Engine::Fast(k) => k.keypair_into(coins, pk, sk),
            Engine::Small(k) => k.keypair_into(coins, pk, sk),
        }
    }
    fn encapsulate(
        &self,
        pk: &[u8],
        coins: &[u8],
        ct: &mut [u8],
    ) -> Result<SharedSecret, vecrypt::Error> {
        match self {
            Engine::Fast(k) => k.encapsulate_into(pk, coins, ct),
            Engine::Small(k) => k.encapsulate_into(pk, coins, ct),
        }
    }
    fn decapsulate(&self, sk: &[u8], ct: &[u8]) -> Result<SharedSecret, vecrypt::Error> {
        match self {
            Engine::Fast(k) => k.decapsulate(sk, ct),
            Engine::Small(k) => k.decapsulate(sk, ct),
        }
    }
}

/// The key in a key file, after checking its header against the set and mode in use.
fn key_in(data: &[u8], secret: bool, set: ParamSet, mode: HashMode) -> Result<&[u8], Failure> {
    let what = if secret { "secret" } else { "public" };
    match decode_kem_key(data, secret)? {
        Some((s, m, key)) => {
            if s != set || m != mode {
                let name = |m: HashMode| match m {
                    HashMode::Shake => "shake",
                    HashMode::Sm3 => "sm3",
                };
                return Err(Failure::rejected(format!(
                    "wrong key: the {what} key is for {} with --hash {}, not {} with --hash {}",
                    s.name(),
                    name(m),
                    set.name(),
                    name(mode)
                )));
            }
            Ok(key)
        }
        None => Ok(data),
    }
}

/// The hash mode: `--hash`, else the key file's; a new key pair is SHAKE unless told, but a
/// raw key file (one without the header naming its mode) needs `--hash`: guessing SHAKE for
/// an SM3 key gives a shared secret nobody else has.
fn hash_mode(args: &Args, key_file: Option<&[u8]>, secret: bool) -> Result<HashMode, Failure> {
    if let Some(h) = args.hash {
        return Ok(h.into());
    }
    let Some(data) = key_file else {
        return Ok(HashMode::Shake);
    };
    match decode_kem_key(data, secret)? {
        Some((_, m, _)) => Ok(m),
        None => Err(Failure::usage(
            "the key file has no header naming its hash mode: give --hash shake or --hash sm3",
        )),
    }
}

pub fn run(args: &Args) -> Result<(), Failure> {
    let set = parse_set(&args.set)?;
    let backend = args
        .backend
        .as_deref()
        .map(crate::parse_backend)
        .transpose()?;
    let engine = |mode: HashMode| -> Result<Engine, Failure> {
        Ok(match (args.compact, backend) {
            (false, None) => Engine::Fast(Aigis::new(set, mode)),
            (false, Some(b)) => Engine::Fast(Aigis::with_backend(set, mode, b)?),
            (true, None) => Engine::Small(AigisCompact::new(set, mode)),
            (true, Some(b)) => Engine::Small(AigisCompact::with_backend(set, mode, b)?),
        })
    };
    let name = set.name();
    let replace = Replace::forced(args.force);
    match args.op {
        Op::Keygen => {
            let pk_path = need(&args.pk, "--pk", "keygen")?;
            let sk_path = need(&args.sk, "--sk", "keygen")?;
            let mode = hash_mode(args, None, true)?;
            let c = coins(args, 64)?;
            let mut pk = vec![0u8; set.public_key_bytes()];
            let mut sk = Zeroizing::new(vec![0u8; set.secret_key_bytes()]);
            engine(mode)?
                .keypair(&c, &mut pk, &mut sk)
                .map_err(|e| Failure::usage(format!("{name}: {e}")))?;
            let sk_file = Zeroizing::new(encode_kem_key(true, set, mode, &sk));
            let pk_file = encode_kem_key(false, set, mode, &pk);
            write_all(&[
                (sk_path, &sk_file, Secrecy::Secret, replace),
                (pk_path, &pk_file, Secrecy::Public, replace),
            ])
        }
        Op::Encaps => {
            let pk_file = read_input(need(&args.pk, "--pk", "encaps")?)?;
            let mode = hash_mode(args, Some(&pk_file), false)?;
            let pk = key_in(&pk_file, false, set, mode)?;
            let ct_path = need(&args.ct, "--ct", "encaps")?;
            let c = coins(args, 32)?;
            let mut ct = vec![0u8; set.ciphertext_bytes()];
            let ss = engine(mode)?
                .encapsulate(pk, &c, &mut ct)
                .map_err(|e| Failure::usage(format!("{name} public key: {e}")))?;
            match &args.ss {
                Some(ss_path) => write_all(&[
                    (ct_path, &ct, Secrecy::Public, replace),
                    (ss_path, &ss[..], Secrecy::Secret, replace),
                ]),
                None => {
                    write_all(&[(ct_path, &ct, Secrecy::Public, replace)])?;
                    println!("{}", Zeroizing::new(hex::encode(&ss[..])).as_str());
                    Ok(())
                }
            }
        }
        Op::Decaps => {
            let sk_file = Zeroizing::new(read_input(need(&args.sk, "--sk", "decaps")?)?);
            let mode = hash_mode(args, Some(&sk_file), true)?;
            let sk = key_in(&sk_file, true, set, mode)?;
            let ct = read_input(need(&args.ct, "--ct", "decaps")?)?;
            if ct.len() != set.ciphertext_bytes() {
                return Err(Failure::rejected(format!(
                    "{name} ciphertext must be {} bytes, got {}",
                    set.ciphertext_bytes(),
                    ct.len()
                )));
            }
            let ss = engine(mode)?
                .decapsulate(sk, &ct)
                .map_err(|e| Failure::usage(format!("{name} secret key: {e}")))?;
            match &args.ss {
                Some(ss_path) => write_all(&[(ss_path, &ss[..], Secrecy::Secret, replace)]),
                None => {
                    println!("{}", Zeroizing::new(hex::encode(&ss[..])).as_str());
                    Ok(())
                }
            }
        }
    }
}
