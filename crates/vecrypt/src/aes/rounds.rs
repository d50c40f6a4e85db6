//! The one dispatch on the key size that every AES kernel entry makes.

/// Calls the kernel `f` instantiated for the round count `rounds` (10, 12 or 14), then the
/// generic arguments given (literals or const parameters).
macro_rules! by_rounds {
    ($rounds:expr, $f:ident $(:: <$($g:tt),*>)? ($($arg:expr),*)) => {
        match $rounds {
            10 => $f::<10 $($(, $g)*)?>($($arg),*),
            12 => $f::<12 $($(, $g)*)?>($($arg),*),
            _ => $f::<14 $($(, $g)*)?>($($arg),*),
        }
    };
}
pub(super) use by_rounds;
