//! CBC encryption of several streams on x86, through [`crate::aes::streams::interleave`]:
//! wide registers take the streams a multiple of their lanes at a time; the rest go to
//! AES-NI. [`super::Native`] calls these only for engines whose CPU runs AES-NI.

use super::{aesni, vaes_ymm, vaes_zmm};
use crate::aes::common::RoundKeys;
use crate::aes::streams::{Group, Narrow, interleave};
use crate::cpu::Ran;

/// AES-NI, which takes every group the wide kernels leave.
fn narrow() -> Narrow {
    Narrow {
        kernel: aesni::encrypt_cbc_streams,
        max: aesni::MAX_STREAMS,
    }
}

/// The streams on AES-NI alone.
pub(super) fn aesni(keys: &[&RoundKeys], ivs: &mut [[u8; 16]], bufs: &mut [&mut [u8]]) -> Ran {
    interleave(narrow(), 1, aesni::MAX_STREAMS, None, keys, ivs, bufs)
}

/// The streams on ymm registers, two per register, and AES-NI for an odd one out.
pub(super) fn vaes256(keys: &[&RoundKeys], ivs: &mut [[u8; 16]], bufs: &mut [&mut [u8]]) -> Ran {
    let wide: Group = vaes_ymm::encrypt_cbc_streams;
    interleave(
        narrow(),
        2,
        vaes_ymm::MAX_STREAMS,
        Some(wide),
        keys,
        ivs,
        bufs,
    )
}

/// The streams on zmm registers, four per register, and AES-NI for the rest.
pub(super) fn vaes512(keys: &[&RoundKeys], ivs: &mut [[u8; 16]], bufs: &mut [&mut [u8]]) -> Ran {
    let wide: Group = vaes_zmm::encrypt_cbc_streams;
    interleave(
        narrow(),
        4,
        vaes_zmm::MAX_STREAMS,
        Some(wide),
        keys,
        ivs,
        bufs,
    )
}
