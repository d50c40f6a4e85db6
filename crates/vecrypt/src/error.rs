//! The one error type of the library.

use core::fmt;

use crate::cpu::Backend;

/// Why a call was refused. Nothing in the public API panics on input a caller controls.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A key of the wrong length.
    KeyLength { expected: usize, got: usize },
    /// An IV or nonce of the wrong length.
    IvLength { expected: usize, got: usize },
    /// An IV or nonce whose length is outside the range the algorithm accepts (GCM: 1 byte
    /// up to 2^61 - 1 bytes).
    NonceLength { min: usize, max: usize, got: usize },
    /// A nonce that has the right length but a value the algorithm forbids.
    InvalidNonce,
    /// Data that must be whole blocks is not.
    NotWholeBlocks { block: usize, got: usize },
    /// A two-part key (XTS: data key and tweak key) whose parts are equal.
    EqualKeyHalves,
    /// A length out of the algorithm's range (tag, segment, section or message size).
    InvalidLength,
    /// An argument out of its allowed range (a mode parameter, a count of keys).
    InvalidParameter,
    /// Authentication failed: the tag does not match. No plaintext is released.
    AuthenticationFailed,
    /// The backend exists but this CPU cannot run it, or this algorithm has no such backend.
    BackendUnavailable(Backend),
    /// A backend name that means nothing (in this build: table-driven backends exist only
    /// with the `table-backends` feature).
    UnknownBackend,
    /// A backend that is not constant time, where only constant-time ones are allowed (the
    /// `VECRYPT_BACKEND` environment variable).
    NotConstantTime(Backend),
    /// An algorithm name that means nothing.
    UnknownAlgorithm,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::KeyLength { expected, got } => {
                write!(f, "key must be {expected} bytes, got {got}")
            }
            Error::IvLength { expected, got } => {
                write!(f, "IV/nonce must be {expected} bytes, got {got}")
            }
            Error::NonceLength { min, max, got } => {
                write!(f, "IV/nonce must be {min} to {max} bytes, got {got}")
            }
            Error::InvalidNonce => f.write_str("nonce value not allowed by the algorithm"),
            Error::NotWholeBlocks { block, got } => {
                write!(
                    f,
                    "data must be a whole number of {block}-byte blocks, got {got} bytes"
                )
            }
            Error::EqualKeyHalves => f.write_str("the two halves of the key must differ"),
            Error::InvalidLength => f.write_str("length out of range for the algorithm"),
            Error::InvalidParameter => f.write_str("parameter out of range"),
            Error::AuthenticationFailed => f.write_str("authentication failed"),
            Error::BackendUnavailable(b) => {
                write!(
                    f,
                    "backend '{b}' is not available for this algorithm on this CPU"
                )
            }
            Error::UnknownBackend => f.write_str("unknown backend name"),
            Error::NotConstantTime(b) => {
                write!(
                    f,
                    "backend '{b}' is not constant time and cannot be forced here"
                )
            }
            Error::UnknownAlgorithm => f.write_str("unknown algorithm name"),
        }
    }
}

impl core::error::Error for Error {}
