//! The C interface of vecrypt: block ciphers with ECB, CBC and CTR, the AEADs, and
//! Aigis-enc, behind a small ABI that `include/vecrypt.h` declares.
//!
//! Every exported function checks its pointers and lengths before it builds a slice, runs
//! its body under `catch_unwind` so that no panic crosses into C, and returns 0 on success
//! and -1 on failure (functions returning pointers return NULL on failure).
//!
//! The modules:
//!
//! - `consts`: the sizes, `#define`s in the header;
//! - `ptr`: the checks of the pointers and lengths C hands over, and the slices made of them;
//! - `status`: the return codes and the panic guard every function runs under;
//! - `cipher`: the block cipher handle (`vecrypt_cipher_*`) and ECB, CBC and CTR;
//! - `aead`: the AEADs (`vecrypt_aead_*`);
//! - `kem`: Aigis-enc (`vecrypt_kem_*`);
//! - `version`: `vecrypt_version`.
//!
//! cbindgen reads a crate's modules in the order they are declared, so the last four are
//! declared in the order the header lists their functions.

// This crate is a boundary to C: its unsafe code is the foreign calls and the pointers they
// hand over, each block with its SAFETY reason, each unsafe fn with its contract.
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks, clippy::missing_safety_doc)]

mod consts;
mod ptr;
mod status;

// The modules that export functions, each apart so that rustfmt keeps them in the header's
// order.
mod cipher;

mod aead;

mod kem;

mod version;

pub use aead::*;
pub use cipher::*;
pub use consts::*;
pub use kem::*;
pub use version::*;
