//! The parts of the `vecrypt` command that other programs build on: the sealed-stream
//! format of `vecrypt seal` and `vecrypt open` ([`seal`], described in `docs/format.md`),
//! the key files it reads ([`keys`]) and its safe output files ([`output`]). The command
//! itself is `src/main.rs`.

#![forbid(unsafe_code)]

pub mod keys;
pub mod output;
pub mod seal;

/// A failure, already worded for the user, with the exit status it ends in.
#[derive(Debug)]
pub struct Failure {
    pub msg: String,
    pub code: u8,
}

impl Failure {
    /// A usage or I/O error: exit status 2.
    pub fn usage(msg: impl Into<String>) -> Self {
        Failure {
            msg: msg.into(),
            code: 2,
        }
    }

    /// Authentication failed, the key is wrong or the input is corrupt: exit status 1.
    pub fn rejected(msg: impl Into<String>) -> Self {
        Failure {
            msg: msg.into(),
            code: 1,
        }
    }

    /// A library error about `what`: a failed tag check is status 1, the rest status 2.
    pub fn lib(what: &str, e: vecrypt::Error) -> Self {
        let msg = format!("{what}: {e}");
        if matches!(e, vecrypt::Error::AuthenticationFailed) {
            Failure::rejected(msg)
        } else {
            Failure::usage(msg)
        }
    }
}

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure::usage(e.to_string())
    }
}
