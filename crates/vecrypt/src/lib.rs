//! Fast, verified, constant-time implementations of uBlock, Kuznyechik, AES and Aigis-enc.
//!
//! Every algorithm has a portable constant-time backend and SIMD backends chosen at run time
//! (see [`cpu`]). Block ciphers implement the RustCrypto `cipher` traits, and also offer
//! fused modes through [`modes::BlockModes`] and several keys at once through
//! [`modes::MultiKey`].
//!
//! ```
//! use vecrypt::modes::BlockModes;
//! use vecrypt::ublock::Ublock128_128;
//!
//! let cipher = Ublock128_128::from_key(&[7u8; 16]).unwrap();
//! let mut data = *b"any length at all in CTR mode";
//! cipher.apply_ctr(&[0u8; 16], &mut data).unwrap();
//! cipher.apply_ctr(&[0u8; 16], &mut data).unwrap();
//! assert_eq!(&data, b"any length at all in CTR mode");
//! ```

#![cfg_attr(not(feature = "std"), no_std)]
#![deny(unsafe_code, unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks, clippy::missing_safety_doc)]
// Some docs link items that exist only with `alloc` (the multi-key modes, the one-shot
// OMAC-ACPKM, `backends_on`); builds with `alloc`, the default among them, check those links.
#![cfg_attr(not(feature = "alloc"), allow(rustdoc::broken_intra_doc_links))]

#[cfg(feature = "alloc")]
extern crate alloc;

pub mod aes;
pub mod aigis;
mod cache;
pub mod cpu;
mod ct;
mod error;
pub(crate) mod ghash;
pub mod kuznyechik;
pub mod modes;
#[cfg(feature = "std")]
pub mod registry;
pub mod ublock;
mod wipe;

pub use cpu::Backend;
pub use error::Error;

/// The README's examples, compiled and run as tests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeExamples;
