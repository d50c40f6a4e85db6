//! The four parameter sets and the sizes that follow from them.

/// Ring degree.
pub const N: usize = 256;
/// The modulus.
pub const Q: i16 = 7681;
/// Seeds, messages, hashes and the shared secret are all this long.
pub const SEED_BYTES: usize = 32;
/// Bytes of one polynomial packed at 13 bits per coefficient (the secret key format).
pub const POLY_BYTES: usize = N * 13 / 8;
/// The largest module rank of any set; fixed-size buffers are sized for it.
pub const MAX_K: usize = 4;

/// The seal of [`Params`] and of the KEM traits' type-level sets and hash modes: only the
/// crate's four sets and two modes implement them.
pub(crate) mod sealed {
    pub trait Sealed {}
}

/// The numbers that define one Aigis-enc parameter set. Sealed: the four sets of the
/// specification are [`Set1`] to [`Set4`].
pub trait Params: Copy + Send + Sync + 'static + sealed::Sealed {
    const NAME: &'static str;
    /// Module rank.
    const K: usize;
    /// Binomial width of the secrets s and r.
    const ETA_S: usize;
    /// Binomial width of the errors e, e1 and e2.
    const ETA_E: usize;
    /// Bits per coefficient of t in the public key.
    const D_T: usize;
    /// Bits per coefficient of u in the ciphertext.
    const D_U: usize;
    /// Bits per coefficient of v in the ciphertext.
    const D_V: usize;

    const PK_POLYVEC_BYTES: usize = Self::K * N * Self::D_T / 8;
    const PK_BYTES: usize = Self::PK_POLYVEC_BYTES + SEED_BYTES;
    const SK_POLYVEC_BYTES: usize = Self::K * POLY_BYTES;
    const SK_BYTES: usize = Self::SK_POLYVEC_BYTES + Self::PK_BYTES + 2 * SEED_BYTES;
    const CT_U_BYTES: usize = Self::K * N * Self::D_U / 8;
    const CT_BYTES: usize = Self::CT_U_BYTES + N * Self::D_V / 8;
}

macro_rules! params {
    ($(#[$doc:meta])* $ty:ident, $name:literal, $k:literal, $es:literal, $ee:literal, $dt:literal, $du:literal, $dv:literal) => {
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $ty;
        impl sealed::Sealed for $ty {}
        impl Params for $ty {
            const NAME: &'static str = $name;
            const K: usize = $k;
            const ETA_S: usize = $es;
            const ETA_E: usize = $ee;
            const D_T: usize = $dt;
            const D_U: usize = $du;
            const D_V: usize = $dv;
        }
    };
}

params!(
    /// Aigis-enc-1: k = 2, eta_s = 4, eta_e = 8, d = (10, 10, 3).
    Set1, "Aigis-enc-1", 2, 4, 8, 10, 10, 3
);
params!(
    /// Aigis-enc-2: k = 3, eta_s = 1, eta_e = 4, d = (9, 9, 4).
    Set2, "Aigis-enc-2", 3, 1, 4, 9, 9, 4
);
params!(
    /// Aigis-enc-3: k = 3, eta_s = 2, eta_e = 4, d = (10, 10, 3).
    Set3, "Aigis-enc-3", 3, 2, 4, 10, 10, 3
);
params!(
    /// Aigis-enc-4: k = 4, eta_s = 3, eta_e = 8, d = (11, 11, 5).
    Set4, "Aigis-enc-4", 4, 3, 8, 11, 11, 5
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_match_the_specification() {
        assert_eq!(
            (Set1::PK_BYTES, Set1::SK_BYTES, Set1::CT_BYTES),
            (672, 1568, 736)
        );
        assert_eq!(
            (Set2::PK_BYTES, Set2::SK_BYTES, Set2::CT_BYTES),
            (896, 2208, 992)
        );
        assert_eq!(
            (Set3::PK_BYTES, Set3::SK_BYTES, Set3::CT_BYTES),
            (992, 2304, 1056)
        );
        assert_eq!(
            (Set4::PK_BYTES, Set4::SK_BYTES, Set4::CT_BYTES),
            (1440, 3168, 1568)
        );
    }
}
