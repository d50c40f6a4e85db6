//! Output files appear whole or not at all: data goes to a temporary file beside the target,
//! which is renamed over it only once everything is written.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::Failure;

/// Writes `data` to `path` atomically.
pub fn write_atomic(path: &Path, data: &[u8]) -> Result<(), Failure> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| Failure(format!("{}: not a file name", path.display())))?;
    let tmp = dir.join(format!(
        ".{}.vecrypt-{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let written = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(data)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    written.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        Failure(format!("cannot write {}: {e}", path.display()))
    })
}

/// Reads a whole input file.
pub fn read_input(path: &Path) -> Result<Vec<u8>, Failure> {
    fs::read(path).map_err(|e| Failure(format!("cannot read {}: {e}", path.display())))
}
