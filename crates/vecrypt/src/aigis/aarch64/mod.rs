//! The ARMv8 kernels of Aigis-enc (NEON NTT, two-lane Keccak, SM3) go here. Until then this
//! architecture runs the portable code through the same dispatch as the others.

pub(super) use super::no_kernels::*;
