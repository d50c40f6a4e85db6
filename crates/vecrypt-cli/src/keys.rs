//! Keys from the command line, a file or the environment, and the key files of
//! `vecrypt keygen`. Every parsed copy is wiped when dropped.

use std::path::Path;

use zeroize::Zeroizing;

use crate::Failure;

/// The first line of a `vecrypt keygen` file starts with this, then the key in hex.
pub const KEY_FILE_TAG: &str = "vecrypt-key-v1 ";

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

/// Bytes of the key that `seal` and `open` take.
pub const SEAL_KEY_BYTES: usize = 32;

/// Whether `data` reads as text: printable ASCII and white space only.
fn is_text(data: &[u8]) -> bool {
    data.iter()
        .all(|&b| (0x20..0x7f).contains(&b) || matches!(b, b'\t' | b'\n' | b'\r'))
}

/// The key of a `seal` or `open` key file: a `vecrypt keygen` file, or exactly 32 raw bytes
/// that do not read as text (a passphrase in a key file would otherwise be used unstretched).
pub fn decode_seal_key_file(data: &[u8]) -> Result<Zeroizing<Vec<u8>>, String> {
    let key = if data.starts_with(KEY_FILE_TAG.as_bytes()) {
        decode_key_file(data)?
    } else if data.len() == SEAL_KEY_BYTES && !is_text(data) {
        Zeroizing::new(data.to_vec())
    } else if is_text(data) {
        return Err(
            "text, not a key: give a passphrase with --passphrase-file, and make \
             key files with `vecrypt keygen`"
                .into(),
        );
    } else {
        return Err(format!(
            "not a key: expected a `vecrypt keygen` file or exactly {SEAL_KEY_BYTES} raw bytes, \
             got {} bytes",
            data.len()
        ));
    };
    if key.len() != SEAL_KEY_BYTES {
        return Err(format!(
            "the key must be {SEAL_KEY_BYTES} bytes, got {}",
            key.len()
        ));
    }
    Ok(key)
}

/// Reads a `seal` or `open` key file (see [`decode_seal_key_file`]).
pub fn read_seal_key_file(path: &Path) -> Result<Zeroizing<Vec<u8>>, Failure> {
    let data = read_secret(path)?;
    decode_seal_key_file(&data)
        .map_err(|msg| Failure::usage(format!("key file {}: {msg}", path.display())))
}

/// A secret file's bytes, wiped when dropped.
pub fn read_secret(path: &Path) -> Result<Zeroizing<Vec<u8>>, Failure> {
    std::fs::read(path)
        .map(Zeroizing::new)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))
}

/// Whether a regular file at `path` can be read by users other than its owner.
pub fn readable_by_others(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o044 != 0)
}

/// A passphrase: the bytes less one trailing newline; an empty one is refused.
pub fn passphrase_from(what: &str, data: &[u8]) -> Result<Zeroizing<Vec<u8>>, Failure> {
    let pass = strip_newline(data);
    if pass.is_empty() {
        return Err(Failure::usage(format!("{what}: the passphrase is empty")));
    }
    Ok(Zeroizing::new(pass.to_vec()))
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
    let data = read_secret(path)?;
    passphrase_from(&format!("passphrase file {}", path.display()), &data)
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

    #[test]
    fn seal_key_files_are_keygen_files_or_32_raw_bytes() {
        let key: Vec<u8> = (0u8..32).collect();
        assert_eq!(
            &*decode_seal_key_file(&encode_key_file(&key)).unwrap(),
            &key
        );
        assert_eq!(&*decode_seal_key_file(&key).unwrap(), &key);
        // A 32-character passphrase, with or without its newline, is text, not a key.
        assert!(decode_seal_key_file(b"correct horse battery staple 123").is_err());
        assert!(decode_seal_key_file(b"correct horse battery staple 12\n").is_err());
        // Hex without the keygen line, other lengths, and short keygen keys are refused.
        assert!(decode_seal_key_file(hex::encode(&key).as_bytes()).is_err());
        assert!(decode_seal_key_file(&key[..31]).is_err());
        assert!(decode_seal_key_file(&[&key[..], &[0xff]].concat()).is_err());
        assert!(decode_seal_key_file(&encode_key_file(&key[..16])).is_err());
    }
}
