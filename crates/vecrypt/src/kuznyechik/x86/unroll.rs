//! `unroll16!`, which the sliced kernels use to keep every register index a constant.

/// Calls `$f::<i>($args)` (or `$f::<i, G>` for `$f[G](...)`) for i = 0..16, spelled out so
/// that every register index is a constant and the state never leaves registers.
macro_rules! unroll16 {
    ($f:ident $([$($g:tt)*])? ($($arg:expr),*)) => {
        $f::<0 $(, $($g)*)?>($($arg),*); $f::<1 $(, $($g)*)?>($($arg),*); $f::<2 $(, $($g)*)?>($($arg),*); $f::<3 $(, $($g)*)?>($($arg),*);
        $f::<4 $(, $($g)*)?>($($arg),*); $f::<5 $(, $($g)*)?>($($arg),*); $f::<6 $(, $($g)*)?>($($arg),*); $f::<7 $(, $($g)*)?>($($arg),*);
        $f::<8 $(, $($g)*)?>($($arg),*); $f::<9 $(, $($g)*)?>($($arg),*); $f::<10 $(, $($g)*)?>($($arg),*); $f::<11 $(, $($g)*)?>($($arg),*);
        $f::<12 $(, $($g)*)?>($($arg),*); $f::<13 $(, $($g)*)?>($($arg),*); $f::<14 $(, $($g)*)?>($($arg),*); $f::<15 $(, $($g)*)?>($($arg),*);
    };
}
