//! Wiping secret polynomials (see [`crate::wipe`]).

use super::poly::Poly;

/// Zeroes every coefficient of `ps`.
#[inline(always)]
pub fn polys(ps: &mut [Poly]) {
    for p in ps.iter_mut() {
        crate::wipe::i16s(&mut p.0);
    }
}

pub use crate::wipe::bytes;
