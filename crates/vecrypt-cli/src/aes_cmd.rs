//! `vecrypt aes <OPERATION> --key HEX ...`: the AES modes beyond ECB, CBC and CTR (which
//! `vecrypt cipher aes-128|aes-192|aes-256` covers). The key length picks AES-128, -192 or
//! -256 (for XTS, the two keys together).

use std::path::PathBuf;

use clap::ValueEnum;
use vecrypt::aes::{Aes, AesCmac, AesGcm, AesXts, K128, K192, K256, KeySize};
use vecrypt::{Backend, Error};

use crate::Failure;
use crate::output::{read_input, write_public};

#[derive(clap::Args)]
pub struct Args {
    /// What to do.
    operation: Operation,
    /// The key (see --key, --key-file, --key-env).
    #[command(flatten)]
    key: crate::key_args::KeyArgs,
    /// IV in hex. GCM: the nonce, any length (12 bytes is usual). CFB, OFB, CTR32: one block.
    /// XTS: the data unit number, 1 to 16 bytes, little-endian.
    #[arg(long)]
    iv: Option<String>,
    /// GCM only: associated data in hex (authenticated, not encrypted).
    #[arg(long, alias = "aad", default_value = "")]
    ad: String,
    /// GCM only: tag length in bytes, 12 to 16. The tag follows the ciphertext.
    #[arg(long, default_value_t = 16)]
    tag_len: usize,
    /// Input data in hex.
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
enum Operation {
    /// AES-GCM encryption: prints the ciphertext followed by the tag.
    GcmSeal,
    /// AES-GCM decryption of ciphertext followed by the tag; fails, printing nothing, if the
    /// tag does not match.
    GcmOpen,
    /// AES-CMAC: prints the 16-byte tag.
    Cmac,
    /// CFB128 encryption (any length).
    CfbEncrypt,
    /// CFB128 decryption.
    CfbDecrypt,
    /// OFB (the same both ways).
    Ofb,
    /// CTR with a 32-bit counter in the last four bytes (GCM's), the same both ways.
    Ctr32,
    /// XTS encryption of one data unit (at least 16 bytes).
    XtsEncrypt,
    /// XTS decryption of one data unit.
    XtsDecrypt,
}

fn parse_hex(what: &str, text: &str) -> Result<Vec<u8>, Failure> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    hex::decode(&compact).map_err(|e| Failure::usage(format!("{what} is not valid hex: {e}")))
}

/// Everything one operation needs, parsed.
struct Job<'a> {
    op: Operation,
    key: &'a [u8],
    iv: Option<&'a [u8]>,
    aad: &'a [u8],
    tag_len: usize,
    backend: Option<Backend>,
}

impl Job<'_> {
    fn iv(&self) -> Result<&[u8], Failure> {
        self.iv
            .ok_or_else(|| Failure::usage("--iv is required for this operation"))
    }

    fn run<K: KeySize>(&self, data: &mut Vec<u8>) -> Result<(), Failure> {
        let named = |e: Error| Failure::lib(K::NAME, e);
        match self.op {
            Operation::GcmSeal | Operation::GcmOpen => {
                let gcm = match self.backend {
                    Some(b) => AesGcm::<K>::with_backend(self.key, b),
                    None => AesGcm::<K>::from_key(self.key),
                }
                .map_err(named)?;
                if !(12..=16).contains(&self.tag_len) {
                    return Err(Failure::usage("--tag-len must be 12 to 16"));
                }
                if self.op == Operation::GcmSeal {
                    let tag = gcm
                        .encrypt_detached(self.iv()?, self.aad, data)
                        .map_err(named)?;
                    data.extend_from_slice(&tag[..self.tag_len]);
                } else {
                    let split = data
                        .len()
                        .checked_sub(self.tag_len)
                        .ok_or_else(|| Failure::usage("input is shorter than the tag"))?;
                    let tag = data.split_off(split);
                    gcm.decrypt_detached(self.iv()?, self.aad, data, &tag)
                        .map_err(named)?;
                }
            }
            Operation::Cmac => {
                let mac = match self.backend {
                    Some(b) => AesCmac::<K>::with_backend(self.key, b),
                    None => AesCmac::<K>::from_key(self.key),
                }
                .map_err(named)?;
                *data = mac.mac(data).to_vec();
            }
            Operation::XtsEncrypt | Operation::XtsDecrypt => {
                let xts = match self.backend {
                    Some(b) => AesXts::<K>::with_backend(self.key, b),
                    None => AesXts::<K>::from_key(self.key),
                }
                .map_err(named)?;
                if self.op == Operation::XtsEncrypt {
                    xts.encrypt_unit(self.iv()?, data).map_err(named)?;
                } else {
                    xts.decrypt_unit(self.iv()?, data).map_err(named)?;
                }
            }
            Operation::CfbEncrypt | Operation::CfbDecrypt | Operation::Ofb | Operation::Ctr32 => {
                let aes = match self.backend {
                    Some(b) => Aes::<K>::with_backend(self.key, b),
                    None => Aes::<K>::from_key(self.key),
                }
                .map_err(named)?;
                let iv = self.iv()?;
                match self.op {
                    Operation::CfbEncrypt => aes.encrypt_cfb(iv, data),
                    Operation::CfbDecrypt => aes.decrypt_cfb(iv, data),
                    Operation::Ofb => aes.apply_ofb(iv, data),
                    _ => aes.apply_ctr32(iv, data),
                }
                .map_err(named)?;
            }
        }
        Ok(())
    }
}

pub fn run(args: &Args) -> Result<(), Failure> {
    let key = args.key.load()?;
    let iv = args
        .iv
        .as_deref()
        .map(|v| parse_hex("--iv", v))
        .transpose()?;
    let aad = parse_hex("--ad", &args.ad)?;
    let backend = args
        .backend
        .as_deref()
        .map(crate::parse_backend)
        .transpose()?;
    let mut data = match (&args.hex, &args.input) {
        (Some(h), _) => parse_hex("--hex", h)?,
        (None, Some(path)) => read_input(path)?,
        (None, None) => return Err(Failure::usage("give the input with --hex or --in")),
    };
    let job = Job {
        op: args.operation,
        key: &key,
        iv: iv.as_deref(),
        aad: &aad,
        tag_len: args.tag_len,
        backend,
    };
    let xts = matches!(
        args.operation,
        Operation::XtsEncrypt | Operation::XtsDecrypt
    );
    let size = if xts { key.len() / 2 } else { key.len() };
    match (size, xts && key.len() % 2 != 0) {
        (16, false) => job.run::<K128>(&mut data)?,
        (24, false) => job.run::<K192>(&mut data)?,
        (32, false) => job.run::<K256>(&mut data)?,
        _ => {
            let want = if xts { "32, 48 or 64" } else { "16, 24 or 32" };
            return Err(Failure::usage(format!(
                "--key must be {want} bytes, got {}",
                key.len()
            )));
        }
    }
    match &args.output {
        Some(path) => write_public(path, &data, args.force),
        None => {
            println!("{}", hex::encode(&data));
            Ok(())
        }
    }
}
