//! Inputs and outputs.
//!
//! Every decision about an output is made from `fstat` of a descriptor, never from how its
//! path is spelled: the name is opened with `O_PATH | O_NOFOLLOW` in its directory (which
//! the kernel resolves, so `/dev/../tmp/x` is `/tmp/x` and `/dev/shm/x` an ordinary file).
//!
//! - A regular file appears whole or not at all. Data goes to an anonymous file made with
//!   `O_TMPFILE` in the target's directory (mode 0600 for secrets, 0666 less the umask
//!   otherwise), so a process killed by any signal leaves nothing behind. Its writeback to
//!   the disk is started every few MiB while it is written, so the sync at its end waits
//!   only for the last part. Once written and synced it is linked in under the target's
//!   name; replacing an existing file (only with `--force`) links it under a fresh random
//!   name and renames that over the target. Then the directory is synced. Where the file
//!   system has no `O_TMPFILE`, an exclusively created random name (`O_CREAT | O_EXCL |
//!   O_NOFOLLOW`) stands in for the anonymous file and is removed when the command fails.
//! - Without `--force` an existing name is never replaced: linking fails on it.
//! - A FIFO, device or socket is never opened for writing, so another user's FIFO in a
//!   shared directory gets nothing. The exceptions: this process's own standard output
//!   (`-`, no option, `/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`, or any name of the
//!   very pipe, terminal or socket that is descriptor 1), which is written through
//!   descriptor 1 and never replaced, even when it is a regular file; and the null device
//!   (`/dev/null`, or a link to it), which harmlessly discards what it is given, so that
//!   `--out /dev/null` keeps working for timing runs.
//! - A symbolic link (ours or root's) is followed only to a regular file of ours: that file
//!   is replaced (with `--force`) in its own directory and the link is kept. A link to
//!   anything else that is not our standard output or the null device, a dangling link and a
//!   link of another user are refused.
//! - Existing outputs owned by another user are refused, even with `--force`, and so is a
//!   directory.
//!
//! Every refusal is a usage failure (exit status 2) with one line naming the path.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::num::NonZeroU64;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, CWD, FileType, Mode, OFlags, Stat};
use rustix::io::Errno;

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

impl Replace {
    /// What `--force` asks for.
    pub fn forced(force: bool) -> Self {
        if force {
            Replace::Allow
        } else {
            Replace::Refuse
        }
    }
}

/// Writes a public output of a command: `data` to `path` as a new file (an existing one
/// only with `force`).
pub fn write_public(path: &Path, data: &[u8], force: bool) -> Result<(), Failure> {
    write_all(&[(path, data, Secrecy::Public, Replace::forced(force))])
}

/// `-` (or no option at all) stands for standard input or output.
pub fn is_std(path: Option<&Path>) -> bool {
    path.is_none_or(|p| p.as_os_str() == "-")
}

/// The names that mean "this process's standard output" whatever descriptor 1 is.
fn names_stdout(path: &Path) -> bool {
    ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"]
        .iter()
        .any(|n| path.as_os_str() == *n)
}

/// A file being written: standard output, the null device, or a new file that becomes the
/// target on [`Sink::commit`].
pub enum Sink {
    Stdout(io::Stdout),
    Null,
    Staged(Staged),
}

/// The temporary file behind a [`Sink::Staged`].
enum Temp {
    /// Made with `O_TMPFILE`: it has no name until it is linked in.
    Anonymous,
    /// Made under this random name in the target's directory (no `O_TMPFILE` there).
    Named(OsString),
}

/// A new file in its target's directory; nothing of it is left when dropped uncommitted.
pub struct Staged {
    file: File,
    synced: bool,
    /// Bytes written, and how many of them have been handed to the disk's writeback.
    written: u64,
    started: u64,
    dir: OwnedFd,
    /// Whether `dir` was opened for reading, so that it can be synced.
    dir_syncable: bool,
    name: OsString,
    shown: PathBuf,
    temp: Temp,
    replace: Replace,
    placed: bool,
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let (Temp::Named(tmp), false) = (&self.temp, self.placed) {
            let _ = rustix::fs::unlinkat(&self.dir, tmp.as_os_str(), AtFlags::empty());
        }
    }
}

fn io_failure(what: &str, path: &Path, e: impl Into<io::Error>) -> Failure {
    Failure::usage(format!("cannot {what} {}: {}", path.display(), e.into()))
}

fn exists(path: &Path) -> Failure {
    Failure::usage(format!(
        "{} exists (use --force to replace it)",
        path.display()
    ))
}

fn random_hex(n: usize) -> Result<String, Failure> {
    let mut b = vec![0u8; n];
    getrandom::fill(&mut b).map_err(|e| Failure::usage(format!("no system randomness: {e}")))?;
    Ok(hex::encode(b))
}

fn temp_name(name: &std::ffi::OsStr) -> Result<OsString, Failure> {
    let mut t = OsString::from(".");
    t.push(name);
    t.push(format!(".{}.vecrypt-tmp", random_hex(8)?));
    Ok(t)
}

/// What a non-regular file is, for messages.
fn kind(t: FileType) -> &'static str {
    match t {
        FileType::Directory => "a directory",
        FileType::Fifo => "a FIFO (named pipe)",
        FileType::CharacterDevice => "a character device",
        FileType::BlockDevice => "a block device",
        FileType::Socket => "a socket",
        FileType::Symlink => "a symbolic link",
        _ => "not a regular file",
    }
}

fn file_type(st: &Stat) -> FileType {
    FileType::from_raw_mode(st.st_mode)
}

fn same_file(a: &Stat, b: &Stat) -> bool {
    a.st_dev == b.st_dev && a.st_ino == b.st_ino
}

/// The null device (character device 1:3).
fn is_null_device(st: &Stat) -> bool {
    file_type(st) == FileType::CharacterDevice
        && rustix::fs::major(st.st_rdev) == 1
        && rustix::fs::minor(st.st_rdev) == 3
}

/// Whether `st` is the pipe, terminal or socket that is this process's descriptor 1.
fn is_our_stdout(st: &Stat) -> bool {
    rustix::fs::fstat(io::stdout().as_fd()).is_ok_and(|out| same_file(st, &out))
}

fn owned_by_us(st: &Stat) -> bool {
    st.st_uid == rustix::process::geteuid().as_raw()
}

fn not_ours(path: &Path, st: &Stat) -> Failure {
    Failure::usage(format!(
        "{} belongs to another user (uid {}); not writing to it",
        path.display(),
        st.st_uid
    ))
}

/// What an existing non-regular output becomes: standard output, the null device, or a
/// refusal.
fn special(path: &Path, st: &Stat) -> Result<Sink, Failure> {
    let t = file_type(st);
    if t == FileType::Directory {
        return Err(Failure::usage(format!("{} is a directory", path.display())));
    }
    if is_our_stdout(st) {
        return Ok(Sink::Stdout(io::stdout()));
    }
    if is_null_device(st) {
        return Ok(Sink::Null);
    }
    Err(Failure::usage(format!(
        "{} is {}, not a regular file; not writing to it",
        path.display(),
        kind(t)
    )))
}

/// Opens a directory, for reading if possible (to sync it), else as a path only.
fn open_dir(dir: &Path) -> Result<(OwnedFd, bool), Failure> {
    let base = OFlags::DIRECTORY | OFlags::CLOEXEC;
    match rustix::fs::openat(CWD, dir, base | OFlags::RDONLY, Mode::empty()) {
        Ok(fd) => Ok((fd, true)),
        Err(Errno::ACCESS) => rustix::fs::openat(CWD, dir, base | OFlags::PATH, Mode::empty())
            .map(|fd| (fd, false))
            .map_err(|e| io_failure("use the directory", dir, e)),
        Err(e) => Err(io_failure("use the directory", dir, e)),
    }
}

/// The directory and the last component of `path`.
fn split(path: &Path) -> Option<(PathBuf, OsString)> {
    if path.as_os_str().as_bytes().ends_with(b"/") {
        return None;
    }
    let name = path.file_name()?.to_os_string();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Some((dir, name))
}

/// Opens the output `path` (`None` or `-`: standard output).
pub fn create(path: Option<&Path>, secrecy: Secrecy, replace: Replace) -> Result<Sink, Failure> {
    let path = match path {
        Some(p) if !is_std(Some(p)) => p,
        _ => return Ok(Sink::Stdout(io::stdout())),
    };
    if names_stdout(path) {
        return Ok(Sink::Stdout(io::stdout()));
    }
    let Some((dir_path, name)) = split(path) else {
        // `x/`, `..`, `/`: only a directory can be meant.
        return match rustix::fs::stat(path) {
            Ok(st) => special(path, &st),
            Err(e) => Err(io_failure("write", path, e)),
        };
    };
    let (dir, dir_syncable) = open_dir(&dir_path)?;
    let peek = OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let (dir, dir_syncable, name) =
        match rustix::fs::openat(&dir, name.as_os_str(), peek, Mode::empty()) {
            Err(Errno::NOENT) => (dir, dir_syncable, name),
            Err(e) => return Err(io_failure("use", path, e)),
            Ok(fd) => {
                let st = rustix::fs::fstat(&fd).map_err(|e| io_failure("use", path, e))?;
                match file_type(&st) {
                    FileType::RegularFile => {
                        if !owned_by_us(&st) {
                            return Err(not_ours(path, &st));
                        }
                        if replace == Replace::Refuse {
                            return Err(exists(path));
                        }
                        (dir, dir_syncable, name)
                    }
                    FileType::Symlink => {
                        // A link planted by someone else is not followed.
                        if !owned_by_us(&st) && st.st_uid != 0 {
                            return Err(Failure::usage(format!(
                                "{} is a symbolic link of another user (uid {}); not following it",
                                path.display(),
                                st.st_uid
                            )));
                        }
                        return through_link(path, secrecy, replace);
                    }
                    _ => return special(path, &st),
                }
            }
        };
    stage(dir, dir_syncable, name, path, secrecy, replace)
}

/// `path` is a symbolic link: what it finally names decides.
fn through_link(path: &Path, secrecy: Secrecy, replace: Replace) -> Result<Sink, Failure> {
    let followed = OFlags::PATH | OFlags::CLOEXEC;
    let fd = match rustix::fs::openat(CWD, path, followed, Mode::empty()) {
        Ok(fd) => fd,
        Err(Errno::NOENT) => {
            return Err(Failure::usage(format!(
                "{} is a symbolic link to nothing; not creating a file through it",
                path.display()
            )));
        }
        Err(e) => return Err(io_failure("use", path, e)),
    };
    let st = rustix::fs::fstat(&fd).map_err(|e| io_failure("use", path, e))?;
    if file_type(&st) != FileType::RegularFile {
        return special(path, &st);
    }
    if !owned_by_us(&st) {
        return Err(not_ours(path, &st));
    }
    if replace == Replace::Refuse {
        return Err(exists(path));
    }
    // Replace the file the link names, in its own directory, and check that the name found
    // there is that very file and no link.
    let real = std::fs::canonicalize(path).map_err(|e| io_failure("use", path, e))?;
    let (dir_path, name) =
        split(&real).ok_or_else(|| Failure::usage(format!("{}: not a file", path.display())))?;
    let (dir, dir_syncable) = open_dir(&dir_path)?;
    let peek = OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let again = rustix::fs::openat(&dir, name.as_os_str(), peek, Mode::empty())
        .and_then(rustix::fs::fstat)
        .map_err(|e| io_failure("use", path, e))?;
    if !same_file(&st, &again) {
        return Err(Failure::usage(format!(
            "{} changed while being opened",
            path.display()
        )));
    }
    stage(dir, dir_syncable, name, path, secrecy, replace)
}

/// A new file for `name` in `dir`: anonymous where the file system allows it.
fn stage(
    dir: OwnedFd,
    dir_syncable: bool,
    name: OsString,
    shown: &Path,
    secrecy: Secrecy,
    replace: Replace,
) -> Result<Sink, Failure> {
    let mode = match secrecy {
        Secrecy::Secret => Mode::from_raw_mode(0o600),
        Secrecy::Public => Mode::from_raw_mode(0o666),
    };
    let where_ = || shown.parent().unwrap_or(Path::new(".")).to_path_buf();
    let anonymous = OFlags::TMPFILE | OFlags::WRONLY | OFlags::CLOEXEC;
    let (fd, temp) = match rustix::fs::openat(&dir, ".", anonymous, mode) {
        Ok(fd) => (fd, Temp::Anonymous),
        Err(Errno::OPNOTSUPP | Errno::ISDIR | Errno::INVAL | Errno::NOSYS) => {
            let exclusive =
                OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::WRONLY | OFlags::CLOEXEC;
            let mut tries = 0;
            loop {
                let tmp = temp_name(&name)?;
                match rustix::fs::openat(&dir, tmp.as_os_str(), exclusive, mode) {
                    Ok(fd) => break (fd, Temp::Named(tmp)),
                    Err(Errno::EXIST) if tries < 8 => tries += 1,
                    Err(e) => return Err(io_failure("create a file in", &where_(), e)),
                }
            }
        }
        Err(e) => return Err(io_failure("create a file in", &where_(), e)),
    };
    Ok(Sink::Staged(Staged {
        file: File::from(fd),
        synced: false,
        written: 0,
        started: 0,
        dir,
        dir_syncable,
        name,
        shown: shown.to_path_buf(),
        temp,
        replace,
        placed: false,
    }))
}

/// How much a new file takes before its writeback is started, so that the sync at its end
/// waits only for the last part.
const WRITEBACK_STEP: u64 = 8 << 20;

impl Staged {
    fn write(&mut self, data: &[u8]) -> io::Result<()> {
        self.file.write_all(data)?;
        self.written += data.len() as u64;
        let pending = self.written - self.started;
        if pending >= WRITEBACK_STEP {
            // Starts the writeback of what is written so far without waiting for it (pages
            // still dirty are not dropped). It is advice: a file system without it loses
            // nothing, and the sync at the end is what makes the file durable.
            let _ = rustix::fs::fadvise(
                &self.file,
                self.started,
                NonZeroU64::new(pending),
                rustix::fs::Advice::DontNeed,
            );
            self.started = self.written;
        }
        Ok(())
    }

    /// Gives the anonymous file the name `to` in its directory.
    fn link_anonymous(&self, to: &std::ffi::OsStr) -> rustix::io::Result<()> {
        match rustix::fs::linkat(&self.file, "", &self.dir, to, AtFlags::EMPTY_PATH) {
            Err(Errno::NOENT | Errno::PERM | Errno::ACCESS | Errno::INVAL) => {
                let proc_name = format!("/proc/self/fd/{}", self.file.as_raw_fd());
                rustix::fs::linkat(
                    CWD,
                    proc_name.as_str(),
                    &self.dir,
                    to,
                    AtFlags::SYMLINK_FOLLOW,
                )
            }
            other => other,
        }
    }

    /// Puts the synced file in place of its target.
    fn place(&mut self) -> Result<(), Failure> {
        let shown = self.shown.clone();
        let fail = |e: Errno| io_failure("write", &shown, e);
        let name = self.name.clone();
        match (&self.temp, self.replace) {
            (Temp::Anonymous, replace) => match self.link_anonymous(&name) {
                Ok(()) => {}
                Err(Errno::EXIST) if replace == Replace::Allow => {
                    let mut tries = 0;
                    let tmp = loop {
                        let tmp = temp_name(&name)?;
                        match self.link_anonymous(&tmp) {
                            Ok(()) => break tmp,
                            Err(Errno::EXIST) if tries < 8 => tries += 1,
                            Err(e) => return Err(fail(e)),
                        }
                    };
                    if let Err(e) = rustix::fs::renameat(&self.dir, &tmp, &self.dir, &name) {
                        let _ = rustix::fs::unlinkat(&self.dir, &tmp, AtFlags::empty());
                        return Err(fail(e));
                    }
                }
                Err(Errno::EXIST) => return Err(exists(&shown)),
                Err(e) => return Err(fail(e)),
            },
            (Temp::Named(tmp), Replace::Allow) => {
                rustix::fs::renameat(&self.dir, tmp, &self.dir, &name).map_err(fail)?
            }
            (Temp::Named(tmp), Replace::Refuse) => {
                // A hard link never replaces an existing name.
                match rustix::fs::linkat(&self.dir, tmp, &self.dir, &name, AtFlags::empty()) {
                    Ok(()) => {}
                    Err(Errno::EXIST) => return Err(exists(&shown)),
                    Err(e) => return Err(fail(e)),
                }
                let _ = rustix::fs::unlinkat(&self.dir, tmp, AtFlags::empty());
            }
        }
        self.placed = true;
        if self.dir_syncable {
            rustix::fs::fsync(&self.dir).map_err(fail)?;
        }
        Ok(())
    }
}

impl Sink {
    /// True when what is written is seen at once (standard output or the null device), so
    /// only checked data may be written to it.
    pub fn is_live(&self) -> bool {
        !matches!(self, Sink::Staged(_))
    }

    /// True when the output is a terminal.
    pub fn is_terminal(&self) -> bool {
        match self {
            Sink::Stdout(o) => o.is_terminal(),
            Sink::Null | Sink::Staged(_) => false,
        }
    }

    fn name(&self) -> PathBuf {
        match self {
            Sink::Stdout(_) => PathBuf::from("standard output"),
            Sink::Null => PathBuf::from("/dev/null"),
            Sink::Staged(s) => s.shown.clone(),
        }
    }

    /// Writes all of `data`.
    pub fn put(&mut self, data: &[u8]) -> Result<(), Failure> {
        let r = match self {
            Sink::Stdout(o) => o.write_all(data),
            Sink::Null => Ok(()),
            Sink::Staged(s) if s.synced => Err(io::Error::other("already closed")),
            Sink::Staged(s) => s.write(data),
        };
        r.map_err(|e| io_failure("write", &self.name(), e))
    }

    /// Flushes, and syncs a new file, leaving it ready to [`Sink::commit`].
    pub fn finish(&mut self) -> Result<(), Failure> {
        let r = match self {
            Sink::Stdout(o) => o.flush(),
            Sink::Null => Ok(()),
            Sink::Staged(s) if s.synced => Ok(()),
            Sink::Staged(s) => s.file.sync_all().map(|()| s.synced = true),
        };
        r.map_err(|e| io_failure("write", &self.name(), e))
    }

    /// Makes a new file the target.
    pub fn commit(mut self) -> Result<(), Failure> {
        self.finish()?;
        match &mut self {
            Sink::Staged(s) => s.place(),
            _ => Ok(()),
        }
    }
}

/// Writes several outputs: every new file first, then puts them in place, so a failure
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

/// Writes `data` to `path` whole or not at all (not a secret; replaces a regular file).
pub fn write_atomic(path: &Path, data: &[u8]) -> Result<(), Failure> {
    write_all(&[(path, data, Secrecy::Public, Replace::Allow)])
}

/// Whether two paths name the same file (or the same name, for files not yet there).
pub fn same_place(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
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
        && std::fs::metadata(i).map(|m| m.is_file()).unwrap_or(true)
    {
        return Err(Failure::usage(format!(
            "--in and --out are the same file ({})",
            o.display()
        )));
    }
    Ok(())
}

/// Opens an input file and refuses a directory, judged by the opened descriptor.
fn open_file(p: &Path) -> Result<(File, Option<u64>), Failure> {
    let f = File::open(p).map_err(|e| io_failure("read", p, e))?;
    let st = rustix::fs::fstat(&f).map_err(|e| io_failure("read", p, e))?;
    match file_type(&st) {
        FileType::Directory => Err(Failure::usage(format!("{} is a directory", p.display()))),
        FileType::RegularFile => Ok((f, u64::try_from(st.st_size).ok())),
        _ => Ok((f, None)),
    }
}

/// Opens an input (`None` or `-`: standard input), with its size when known.
pub fn open_input(path: Option<&Path>) -> Result<(Box<dyn Read + Send>, Option<u64>), Failure> {
    match path {
        Some(p) if !is_std(Some(p)) => {
            let (f, len) = open_file(p)?;
            Ok((Box::new(f), len))
        }
        _ => Ok((Box::new(io::stdin()), None)),
    }
}

/// Reads a whole input file.
pub fn read_input(path: &Path) -> Result<Vec<u8>, Failure> {
    let (mut f, len) = open_file(path)?;
    let mut data = Vec::with_capacity(len.and_then(|n| usize::try_from(n).ok()).unwrap_or(0));
    f.read_to_end(&mut data)
        .map_err(|e| io_failure("read", path, e))?;
    Ok(data)
}
