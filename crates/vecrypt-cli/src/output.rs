//! Inputs and outputs.
//!
//! A regular output file appears whole or not at all: data goes to a new temporary file
//! beside the target, created exclusively under a random name without following symbolic
//! links, and it is renamed over the target only once everything is written. An output
//! that exists and is not a regular file (a terminal, a pipe, `/dev/stdout`, `/dev/null`)
//! is written straight to and never replaced. Secret outputs are created with mode 0600.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use crate::Failure;

/// Whether an output holds a secret (mode 0600) or not (0666 less the umask).
#[derive(Copy, Clone, PartialEq, Eq)]
pub enum Secrecy {
    Public,
    Secret,
}

/// Whether an existing regular file may be replaced.
#[derive(Copy, Clone, PartialEq, Eq)]
pub enum Replace {
    Allow,
    Refuse,
}

/// `-` (or no option at all) stands for standard input or output.
pub fn is_std(path: Option<&Path>) -> bool {
    path.is_none_or(|p| p.as_os_str() == "-")
}

/// A file being written: to standard output, straight to a non-regular file, or to a
/// temporary file that becomes the target on [`Sink::commit`].
pub enum Sink {
    Stdout(io::Stdout),
    Direct(File, PathBuf),
    Staged(Staged),
}

/// A temporary file beside its target; removed when dropped uncommitted.
pub struct Staged {
    file: Option<File>,
    tmp: PathBuf,
    target: PathBuf,
    replace: Replace,
}

impl Drop for Staged {
    fn drop(&mut self) {
        self.file = None;
        if !self.tmp.as_os_str().is_empty() {
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

fn io_failure(what: &str, path: &Path, e: io::Error) -> Failure {
    Failure::usage(format!("cannot {what} {}: {e}", path.display()))
}

fn random_hex(n: usize) -> Result<String, Failure> {
    let mut b = vec![0u8; n];
    getrandom::fill(&mut b).map_err(|e| Failure::usage(format!("no system randomness: {e}")))?;
    Ok(hex::encode(b))
}

/// True for paths the kernel makes up (devices, `/proc/self/fd/N`): never replaced.
fn is_special_place(p: &Path) -> bool {
    p.starts_with("/dev") || p.starts_with("/proc")
}

/// Opens the output `path` (`None` or `-`: standard output).
pub fn create(path: Option<&Path>, secrecy: Secrecy, replace: Replace) -> Result<Sink, Failure> {
    let path = match path {
        Some(p) if !is_std(Some(p)) => p,
        _ => return Ok(Sink::Stdout(io::stdout())),
    };
    let mut target = path.to_path_buf();
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            // Keep the link: write to what it names, unless that is not a regular file.
            match fs::canonicalize(path) {
                Ok(real)
                    if !is_special_place(&real)
                        && fs::metadata(&real).map(|m| m.is_file()).unwrap_or(false) =>
                {
                    target = real
                }
                _ => return direct(path),
            }
        }
        Ok(m) if m.is_dir() => {
            return Err(Failure::usage(format!(
                "{}: is a directory",
                path.display()
            )));
        }
        Ok(m) if !m.is_file() => return direct(path),
        Ok(_) if is_special_place(path) => return direct(path),
        Ok(_) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(io_failure("use", path, e)),
    }
    if replace == Replace::Refuse && fs::symlink_metadata(&target).is_ok() {
        return Err(Failure::usage(format!(
            "{} exists (use --force to replace it)",
            path.display()
        )));
    }
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .ok_or_else(|| Failure::usage(format!("{}: not a file name", path.display())))?
        .to_string_lossy()
        .into_owned();
    let mode = match secrecy {
        Secrecy::Secret => 0o600,
        Secrecy::Public => 0o666,
    };
    let mut tries = 0;
    loop {
        let tmp = dir.join(format!(".{name}.{}.vecrypt-tmp", random_hex(8)?));
        let opened = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(&tmp);
        match opened {
            Ok(file) => {
                return Ok(Sink::Staged(Staged {
                    file: Some(file),
                    tmp,
                    target,
                    replace,
                }));
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && tries < 8 => tries += 1,
            Err(e) => return Err(io_failure("create a file in", &dir, e)),
        }
    }
}

fn direct(path: &Path) -> Result<Sink, Failure> {
    let file = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| io_failure("write", path, e))?;
    Ok(Sink::Direct(file, path.to_path_buf()))
}

impl Sink {
    /// True when what is written is seen at once (standard output or a device), so only
    /// checked data may be written to it.
    pub fn is_live(&self) -> bool {
        !matches!(self, Sink::Staged(_))
    }

    fn name(&self) -> PathBuf {
        match self {
            Sink::Stdout(_) => PathBuf::from("standard output"),
            Sink::Direct(_, p) => p.clone(),
            Sink::Staged(s) => s.target.clone(),
        }
    }

    /// Writes all of `data`.
    pub fn put(&mut self, data: &[u8]) -> Result<(), Failure> {
        let r = match self {
            Sink::Stdout(o) => o.write_all(data),
            Sink::Direct(f, _) => f.write_all(data),
            Sink::Staged(s) => match s.file.as_mut() {
                Some(f) => f.write_all(data),
                None => Err(io::Error::other("already closed")),
            },
        };
        r.map_err(|e| io_failure("write", &self.name(), e))
    }

    /// Flushes and syncs a staged file, leaving it ready to [`Sink::commit`].
    pub fn finish(&mut self) -> Result<(), Failure> {
        let r = match self {
            Sink::Stdout(o) => o.flush(),
            Sink::Direct(f, _) => f.flush(),
            Sink::Staged(s) => match s.file.take() {
                Some(f) => f.sync_all(),
                None => Ok(()),
            },
        };
        r.map_err(|e| io_failure("write", &self.name(), e))
    }

    /// Makes a staged file the target.
    pub fn commit(mut self) -> Result<(), Failure> {
        self.finish()?;
        let Sink::Staged(s) = &mut self else {
            return Ok(());
        };
        let placed = match s.replace {
            Replace::Allow => fs::rename(&s.tmp, &s.target),
            // A hard link never replaces an existing name.
            Replace::Refuse => fs::hard_link(&s.tmp, &s.target).map(|()| {
                let _ = fs::remove_file(&s.tmp);
            }),
        };
        match placed {
            Ok(()) => {
                s.tmp = PathBuf::new();
                Ok(())
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(Failure::usage(format!(
                "{} exists (use --force to replace it)",
                s.target.display()
            ))),
            Err(e) => Err(io_failure("write", &s.target.clone(), e)),
        }
    }
}

/// Writes several outputs: every temporary file first, then the renames, so a failure
/// while writing leaves none of them behind.
pub fn write_all(outputs: &[(&Path, &[u8], Secrecy, Replace)]) -> Result<(), Failure> {
    for (i, (a, ..)) in outputs.iter().enumerate() {
        for (b, ..) in &outputs[i + 1..] {
            if same_place(a, b) {
                return Err(Failure::usage(format!(
                    "{} is given for two outputs",
                    a.display()
                )));
            }
        }
    }
    let mut sinks = Vec::with_capacity(outputs.len());
    for (path, data, secrecy, replace) in outputs {
        let mut sink = create(Some(path), *secrecy, *replace)?;
        sink.put(data)?;
        sink.finish()?;
        sinks.push(sink);
    }
    for sink in sinks {
        sink.commit()?;
    }
    Ok(())
}

/// Writes `data` to `path` atomically (not a secret; replaces a regular file).
pub fn write_atomic(path: &Path, data: &[u8]) -> Result<(), Failure> {
    write_all(&[(path, data, Secrecy::Public, Replace::Allow)])
}

/// Whether two paths name the same file (or the same name, for files not yet there).
pub fn same_place(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    match (fs::metadata(a), fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => match (fs::canonicalize(a), fs::canonicalize(b)) {
            (Ok(x), Ok(y)) => x == y,
            _ => false,
        },
    }
}

/// Refuses `--in` and `--out` naming the same file.
pub fn check_in_out(input: Option<&Path>, output: Option<&Path>) -> Result<(), Failure> {
    if let (Some(i), Some(o)) = (input, output)
        && !is_std(Some(i))
        && !is_std(Some(o))
        && same_place(i, o)
        && fs::metadata(i).map(|m| m.is_file()).unwrap_or(true)
    {
        return Err(Failure::usage(format!(
            "--in and --out are the same file ({})",
            o.display()
        )));
    }
    Ok(())
}

/// Opens an input (`None` or `-`: standard input), with its size when known.
pub fn open_input(path: Option<&Path>) -> Result<(Box<dyn Read + Send>, Option<u64>), Failure> {
    match path {
        Some(p) if !is_std(Some(p)) => {
            let f = File::open(p).map_err(|e| io_failure("read", p, e))?;
            let len = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
            Ok((Box::new(f), len))
        }
        _ => Ok((Box::new(io::stdin()), None)),
    }
}

/// Reads a whole input file.
pub fn read_input(path: &Path) -> Result<Vec<u8>, Failure> {
    fs::read(path).map_err(|e| io_failure("read", path, e))
}
