//! Keys from the command line, a file or the environment, and the key files of
//! `vecrypt keygen`. Every parsed copy is wiped when dropped.

use std::path::{Path, PathBuf};

use zeroize::Zeroizing;

use crate::Failure;

/// The first line of a `vecrypt keygen` file starts with this, then the key in hex.
pub const KEY_FILE_TAG: &str = "vecrypt-key-v1 ";

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

/// Hex with any whitespace, decoded; the intermediate copy is wiped.
pub fn parse_hex(what: &str, text: &str) -> Result<Zeroizing<Vec<u8>>, Failure> {
    let compact: Zeroizing<String> =
        Zeroizing::new(text.chars().filter(|c| !c.is_whitespace()).collect());
    hex::decode(compact.as_bytes())
        .map(Zeroizing::new)
        .map_err(|e| Failure::usage(format!("{what} is not valid hex: {e}")))
}

/// A key file: a `vecrypt keygen` file, hex with an optional trailing newline, or raw bytes.
pub fn read_key_file(path: &Path) -> Result<Zeroizing<Vec<u8>>, Failure> {
    let data = Zeroizing::new(
        std::fs::read(path)
            .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?,
    );
    let what = format!("key file {}", path.display());
    decode_key_file(&data).map_err(|msg| Failure::usage(format!("{what}: {msg}")))
}

fn strip_newline(b: &[u8]) -> &[u8] {
    let b = b.strip_suffix(b"\n").unwrap_or(b);
    b.strip_suffix(b"\r").unwrap_or(b)
}

/// The key in a key file's bytes.
pub fn decode_key_file(data: &[u8]) -> Result<Zeroizing<Vec<u8>>, String> {
    if let Some(rest) = data.strip_prefix(KEY_FILE_TAG.as_bytes()) {
        let hex_part = strip_newline(rest);
        return hex::decode(hex_part)
            .map(Zeroizing::new)
            .map_err(|e| format!("damaged key line: {e}"));
    }
    let text = strip_newline(data);
    if !text.is_empty() && text.len().is_multiple_of(2) && text.iter().all(u8::is_ascii_hexdigit) {
        return hex::decode(text)
            .map(Zeroizing::new)
            .map_err(|e| e.to_string());
    }
    if data.is_empty() {
        return Err("empty".into());
    }
    Ok(Zeroizing::new(data.to_vec()))
}

/// The text of a `vecrypt keygen` file for `key`.
pub fn encode_key_file(key: &[u8]) -> Zeroizing<Vec<u8>> {
    let mut s = Zeroizing::new(String::from(KEY_FILE_TAG));
    s.push_str(&Zeroizing::new(hex::encode(key)));
    s.push('\n');
    Zeroizing::new(s.as_bytes().to_vec())
}

/// A passphrase file: its bytes less one trailing newline.
pub fn read_passphrase_file(path: &Path) -> Result<Zeroizing<Vec<u8>>, Failure> {
    let data = Zeroizing::new(
        std::fs::read(path)
            .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?,
    );
    let pass = strip_newline(&data);
    if pass.is_empty() {
        return Err(Failure::usage(format!(
            "passphrase file {} is empty",
            path.display()
        )));
    }
    Ok(Zeroizing::new(pass.to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_file_forms() {
        let key: Vec<u8> = (0u8..32).collect();
        assert_eq!(&*decode_key_file(&encode_key_file(&key)).unwrap(), &key);
        let hex_nl = format!("{}\n", hex::encode(&key));
        assert_eq!(&*decode_key_file(hex_nl.as_bytes()).unwrap(), &key);
        assert_eq!(
            &*decode_key_file(hex::encode(&key).as_bytes()).unwrap(),
            &key
        );
        assert_eq!(&*decode_key_file(&key).unwrap(), &key);
        assert!(decode_key_file(b"").is_err());
    }
}
