//! The key options of the block-cipher commands (`cipher`, `gost`, `aes`): one of
//! `--key HEX`, `--key-file FILE`, `--key-env VAR`.

use std::path::PathBuf;

use vecrypt_cli::Failure;
use vecrypt_cli::keys::{parse_hex, read_key_file};
use zeroize::Zeroizing;

/// One of `--key HEX`, `--key-file FILE`, `--key-env VAR`.
#[derive(clap::Args)]
#[group(required = true, multiple = false)]
pub struct KeyArgs {
    /// Key in hex (visible to other users of the machine; prefer --key-file or --key-env).
    #[arg(long, value_name = "HEX")]
    key: Option<Zeroizing<String>>,
    /// Read the key from a file: raw bytes, hex (a trailing newline is fine) or a file
    /// written by `vecrypt keygen`.
    #[arg(long, value_name = "FILE")]
    key_file: Option<PathBuf>,
    /// Read the key in hex from this environment variable.
    #[arg(long, value_name = "VAR")]
    key_env: Option<String>,
}

impl KeyArgs {
    /// The key bytes.
    pub fn load(&self) -> Result<Zeroizing<Vec<u8>>, Failure> {
        if let Some(k) = &self.key {
            return parse_hex("--key", k);
        }
        if let Some(path) = &self.key_file {
            return read_key_file(path);
        }
        if let Some(var) = &self.key_env {
            let v = Zeroizing::new(std::env::var(var).map_err(|_| {
                Failure::usage(format!("--key-env: {var} is not set or not UTF-8"))
            })?);
            return parse_hex(&format!("--key-env {var}"), v.trim());
        }
        Err(Failure::usage(
            "give the key with --key, --key-file or --key-env",
        ))
    }
}
