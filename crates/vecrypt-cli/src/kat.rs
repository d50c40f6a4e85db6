//! `vecrypt kat <SET> [--hash shake|sm3]`: the NIST-style known-answer file of the standard
//! PQCgenKAT_kem flow, on stdout.
//!
//! The file is made by the library ([`vecrypt::aigis::kat`]): a master AES-256 CTR-DRBG
//! seeded with bytes 0..47 draws 100 seeds of 48 bytes; each record reseeds the DRBG with
//! its seed, then key generation draws 64 bytes and encapsulation 32.

use std::io::Write as _;

use vecrypt::aigis::{Aigis, HashMode, kat};

use crate::Failure;
use crate::kem_cmd::{Hash, parse_set};

#[derive(clap::Args)]
pub struct Args {
    /// Parameter set: aigis-enc-1 ... aigis-enc-4.
    set: String,
    /// Hash mode.
    #[arg(long, value_enum, default_value = "shake")]
    hash: Hash,
}

pub fn run(args: &Args) -> Result<(), Failure> {
    let set = parse_set(&args.set)?;
    let kem = Aigis::new(set, HashMode::from(args.hash));
    let mut text = Vec::new();
    kat::write_kat(&kem, |piece| text.extend_from_slice(piece))
        .map_err(|_| Failure::usage(format!("{}: a decapsulation disagrees", set.name())))?;
    match std::io::stdout().lock().write_all(&text) {
        // A reader that stops early (`| head`) is not a failure of the command.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r.map_err(|e| Failure::usage(format!("cannot write the output: {e}"))),
    }
}
