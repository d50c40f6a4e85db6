//! `vecrypt cipher <ALG> encrypt|decrypt --mode ecb|cbc|ctr --key HEX [--iv HEX] ...`

use std::path::PathBuf;

use clap::ValueEnum;
use vecrypt::registry::{self, DynCipher};

use crate::Failure;
use crate::output::{read_input, write_public};

#[derive(clap::Args)]
pub struct Args {
    /// Algorithm, e.g. ublock-128-128, ublock-128-256, ublock-256-256 (`vecrypt info` lists all).
    alg: String,
    /// What to do.
    direction: Direction,
    /// Mode of operation. ECB and CBC take whole blocks (no padding); CTR any length.
    #[arg(long, value_enum)]
    mode: Mode,
    /// The key (see --key, --key-file, --key-env).
    #[command(flatten)]
    key: crate::key_args::KeyArgs,
    /// IV in hex: one block for CBC and CTR (the first counter block, big-endian over the block).
    #[arg(long)]
    iv: Option<String>,
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
    /// ECB only: apply the cipher N times, feeding each output back (Monte Carlo test);
    /// N is 1 to 2^32.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=MAX_ITERATE))]
    iterate: Option<u64>,
    /// Force a backend (see `vecrypt info`); the default is the fastest this CPU runs.
    #[arg(long)]
    backend: Option<String>,
}

/// The largest `--iterate` count, 2^32.
const MAX_ITERATE: u64 = 1 << 32;

#[derive(Copy, Clone, ValueEnum)]
enum Direction {
    Encrypt,
    Decrypt,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum Mode {
    Ecb,
    Cbc,
    Ctr,
}

fn parse_hex(what: &str, text: &str) -> Result<Vec<u8>, Failure> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    hex::decode(&compact).map_err(|e| Failure::usage(format!("{what} is not valid hex: {e}")))
}

fn keyed(args: &Args) -> Result<Box<dyn DynCipher>, Failure> {
    let info = registry::cipher(&args.alg).map_err(|_| {
        let known: Vec<&str> = registry::ciphers().iter().map(|c| c.name).collect();
        Failure::usage(format!(
            "unknown algorithm '{}' (known: {})",
            args.alg,
            known.join(", ")
        ))
    })?;
    let key = args.key.load()?;
    let backend = args
        .backend
        .as_deref()
        .map(crate::parse_backend)
        .transpose()?;
    (info.new)(&key, backend).map_err(|e| Failure::usage(format!("{}: {e}", info.name)))
}

pub fn run(args: &Args) -> Result<(), Failure> {
    let cipher = keyed(args)?;
    let iv = match (args.mode, &args.iv) {
        (Mode::Ecb, Some(_)) => return Err(Failure::usage("--iv is not used in ECB mode")),
        (Mode::Ecb, None) => Vec::new(),
        (mode, Some(iv)) => {
            crate::gost::widen_ctr_iv(&args.alg, mode == Mode::Ctr, parse_hex("--iv", iv)?)
        }
        (_, None) => return Err(Failure::usage("--iv is required in CBC and CTR modes")),
    };
    if args.iterate.is_some() && args.mode != Mode::Ecb {
        return Err(Failure::usage("--iterate works in ECB mode only"));
    }
    let mut data = match (&args.hex, &args.input) {
        (Some(h), _) => parse_hex("--hex", h)?,
        (None, Some(path)) => read_input(path)?,
        (None, None) => return Err(Failure::usage("give the input with --hex or --in")),
    };
    let encrypt = matches!(args.direction, Direction::Encrypt);
    for _ in 0..args.iterate.unwrap_or(1) {
        match (args.mode, encrypt) {
            (Mode::Ecb, true) => cipher.encrypt_ecb(&mut data),
            (Mode::Ecb, false) => cipher.decrypt_ecb(&mut data),
            (Mode::Cbc, true) => cipher.encrypt_cbc(&iv, &mut data),
            (Mode::Cbc, false) => cipher.decrypt_cbc(&iv, &mut data),
            (Mode::Ctr, _) => cipher.apply_ctr(&iv, &mut data),
        }
        .map_err(|e| Failure::usage(format!("{}: {e}", args.alg)))?;
    }
    match &args.output {
        Some(path) => write_public(path, &data, args.force),
        None => {
            println!("{}", hex::encode(&data));
            Ok(())
        }
    }
}
