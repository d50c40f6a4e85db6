//! `vecrypt gost encrypt|decrypt|mac --mode ... --key HEX ...`: Kuznyechik in the modes of
//! GOST R 34.13-2015 with their own parameters, MGM (RFC 9058), GCM (NIST SP 800-38D over
//! Kuznyechik) and ACPKM re-keying.

use std::path::PathBuf;

use clap::ValueEnum;
use vecrypt::kuznyechik::{Kuznyechik, KuznyechikGcm, KuznyechikMgm, acpkm};
use vecrypt::modes::BlockModes;
use vecrypt::modes::gost;

use crate::Failure;
use crate::output::{read_input, write_public};

#[derive(clap::Args)]
pub struct Args {
    /// What to do; `mac` takes the `omac` and `omac-acpkm` modes.
    op: Op,
    /// Mode of operation.
    #[arg(long, value_enum)]
    mode: GostMode,
    /// The key (see --key, --key-file, --key-env).
    #[command(flatten)]
    key: crate::key_args::KeyArgs,
    /// IV in hex: half a block for CTR and CTR-ACPKM, one or more whole blocks for OFB and
    /// CBC, at least one block for CFB; the 16-byte nonce for MGM; the nonce for GCM (any
    /// length from 1 byte, 12 usual).
    #[arg(long)]
    iv: Option<String>,
    /// Segment size s in bytes (1 to 16) for CTR, OFB and CFB.
    #[arg(long, default_value_t = 16)]
    segment: usize,
    /// Tag length in bytes: 1 to 16 for the MACs, 4 to 16 for MGM, 12 to 16 for GCM.
    #[arg(long, default_value_t = 16)]
    tag_len: usize,
    /// ACPKM section size N in bytes (a multiple of 16).
    #[arg(long)]
    section: Option<usize>,
    /// OMAC-ACPKM: the section size T* of ACPKM-Master in bytes (a multiple of 16).
    #[arg(long)]
    master_section: Option<usize>,
    /// MGM and GCM associated data, in hex.
    #[arg(long, default_value = "")]
    ad: String,
    /// Input data in hex (for MGM and GCM decryption: ciphertext followed by the tag).
    #[arg(long, conflicts_with = "input", required_unless_present = "input")]
    hex: Option<String>,
    /// Read the input from a file instead of --hex.
    #[arg(long = "in", value_name = "FILE")]
    input: Option<PathBuf>,
    /// Write the output to a file (created whole or not at all) instead of printing hex.
    #[arg(long = "out", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Replace an existing output file.
    #[arg(long)]
    force: bool,
    /// Force a backend (see `vecrypt info`); the default is the fastest this CPU runs.
    #[arg(long)]
    backend: Option<String>,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum Op {
    Encrypt,
    Decrypt,
    Mac,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum GostMode {
    Ecb,
    Ctr,
    Ofb,
    Cbc,
    Cfb,
    Mgm,
    Gcm,
    CtrAcpkm,
    Omac,
    OmacAcpkm,
}

fn parse_hex(what: &str, text: &str) -> Result<Vec<u8>, Failure> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    hex::decode(&compact).map_err(|e| Failure::usage(format!("{what} is not valid hex: {e}")))
}

/// For `vecrypt cipher kuznyechik --mode ctr`: GOST R 34.13 CTR takes a half-block IV and
/// starts from `IV || 0`, so an 8-byte IV is widened to that counter block. A 16-byte IV is
/// the first counter block itself, as for every other cipher.
pub fn widen_ctr_iv(alg: &str, ctr: bool, iv: Vec<u8>) -> Vec<u8> {
    if ctr && alg.eq_ignore_ascii_case("kuznyechik") && iv.len() == 8 {
        let mut block = iv;
        block.resize(16, 0);
        block
    } else {
        iv
    }
}

fn required<T: Copy>(value: Option<T>, flag: &str, mode: &str) -> Result<T, Failure> {
    value.ok_or_else(|| Failure::usage(format!("{flag} is required in {mode} mode")))
}

pub fn run(args: &Args) -> Result<(), Failure> {
    let key = args.key.load()?;
    let backend = args
        .backend
        .as_deref()
        .map(crate::parse_backend)
        .transpose()?;
    let cipher = match backend {
        Some(b) => Kuznyechik::with_backend(&key, b),
        None => Kuznyechik::from_key(&key),
    }
    .map_err(|e| Failure::usage(format!("kuznyechik: {e}")))?;
    let mut data = match (&args.hex, &args.input) {
        (Some(h), _) => parse_hex("--hex", h)?,
        (None, Some(path)) => read_input(path)?,
        (None, None) => return Err(Failure::usage("give the input with --hex or --in")),
    };
    let iv = args
        .iv
        .as_deref()
        .map(|v| parse_hex("--iv", v))
        .transpose()?;
    let need_iv = || {
        iv.clone()
            .ok_or_else(|| Failure::usage("--iv is required in this mode"))
    };
    let is_mac_mode = matches!(args.mode, GostMode::Omac | GostMode::OmacAcpkm);
    if (args.op == Op::Mac) != is_mac_mode {
        return Err(Failure::usage(
            "use `mac` with the omac and omac-acpkm modes, encrypt/decrypt with the others",
        ));
    }
    let encrypt = args.op == Op::Encrypt;
    let s = args.segment;
    let result = match args.mode {
        GostMode::Ecb if encrypt => cipher.encrypt_ecb(&mut data),
        GostMode::Ecb => cipher.decrypt_ecb(&mut data),
        GostMode::Ctr => gost::ctr(&cipher, &need_iv()?, s, &mut data),
        GostMode::Ofb => gost::ofb(&cipher, &need_iv()?, s, &mut data),
        GostMode::Cbc if encrypt => gost::cbc_encrypt(&cipher, &need_iv()?, &mut data),
        GostMode::Cbc => gost::cbc_decrypt(&cipher, &need_iv()?, &mut data),
        GostMode::Cfb if encrypt => gost::cfb_encrypt(&cipher, &need_iv()?, s, &mut data),
        GostMode::Cfb => gost::cfb_decrypt(&cipher, &need_iv()?, s, &mut data),
        GostMode::CtrAcpkm => {
            let n = required(args.section, "--section", "ctr-acpkm")?;
            acpkm::ctr_acpkm(&cipher, &need_iv()?, n, &mut data)
        }
        GostMode::Omac => gost::mac(&cipher, &data, args.tag_len).map(|t| data = t),
        GostMode::OmacAcpkm => {
            let n = required(args.section, "--section", "omac-acpkm")?;
            let t = required(args.master_section, "--master-section", "omac-acpkm")?;
            acpkm::omac_acpkm(&cipher, n, t, &data, args.tag_len).map(|tag| data = tag)
        }
        GostMode::Mgm => {
            let aead = KuznyechikMgm::new(cipher.clone());
            let nonce = need_iv()?;
            tagged(
                args,
                &mut data,
                encrypt,
                vecrypt::kuznyechik::mgm::MIN_TAG,
                |ad, buf| aead.encrypt_detached(&nonce, ad, buf),
                |ad, buf, tag| aead.decrypt_detached(&nonce, ad, buf, tag),
            )
        }
        GostMode::Gcm => {
            let aead = KuznyechikGcm::from_cipher(cipher.clone());
            let nonce = need_iv()?;
            tagged(
                args,
                &mut data,
                encrypt,
                GCM_MIN_TAG,
                |ad, buf| aead.encrypt_detached(&nonce, ad, buf),
                |ad, buf, tag| aead.decrypt_detached(&nonce, ad, buf, tag),
            )
        }
    };
    result.map_err(|e| Failure::lib("kuznyechik", e))?;
    match &args.output {
        Some(path) => write_public(path, &data, args.force),
        None => {
            println!("{}", hex::encode(&data));
            Ok(())
        }
    }
}

/// Shortest GCM tag the command takes, in bytes (as `AesGcm` and `Gcm` check them).
const GCM_MIN_TAG: usize = 12;

/// MGM and GCM, which share their conventions: encryption (`seal`, with the associated data
/// and the buffer) appends the tag (`--tag-len` bytes, `min_tag` to 16); decryption takes it
/// from the end of the input and (`open`) leaves the plaintext only when it verifies.
fn tagged(
    args: &Args,
    data: &mut Vec<u8>,
    encrypt: bool,
    min_tag: usize,
    seal: impl FnOnce(&[u8], &mut [u8]) -> Result<[u8; 16], vecrypt::Error>,
    open: impl FnOnce(&[u8], &mut [u8], &[u8]) -> Result<(), vecrypt::Error>,
) -> Result<(), vecrypt::Error> {
    let ad = parse_hex("--ad", &args.ad).map_err(|_| vecrypt::Error::InvalidParameter)?;
    if !(min_tag..=16).contains(&args.tag_len) {
        return Err(vecrypt::Error::InvalidLength);
    }
    if encrypt {
        let tag = seal(&ad, data)?;
        data.extend_from_slice(&tag[..args.tag_len]);
        Ok(())
    } else {
        let body = data
            .len()
            .checked_sub(args.tag_len)
            .ok_or(vecrypt::Error::InvalidLength)?;
        let tag = data.split_off(body);
        open(&ad, data, &tag)
    }
}
