//! The one way the library wipes secrets: volatile stores the compiler cannot drop as dead,
//! followed by a compiler fence.
//!
//! `zeroize` writes one volatile store per element, which for the kilobytes of keystream,
//! multipliers, noise and secret polynomials of one call costs thousands of cycles (an 8 KiB
//! byte buffer alone is about 8000 stores); on x86-64 with AVX2 the integer slices are
//! written whole registers at a time instead (the module `x86`), still volatile. [`value`] overwrites
//! one fixed-size value (round keys, a key) with a single volatile store of its default.

#![allow(unsafe_code)]

use core::sync::atomic::{Ordering, compiler_fence};

use zeroize::{DefaultIsZeroes, Zeroize};

#[cfg(target_arch = "x86_64")]
mod x86;

/// Overwrites `x` with `T::default()` through one volatile store. For plain data (integers
/// and arrays of them), where the default is all zeros.
#[inline(always)]
pub fn value<T: Copy + Default>(x: &mut T) {
    // SAFETY: `x` is a valid, aligned, exclusive reference; `T: Copy` has no drop glue, so
    // overwriting it without dropping the old value leaks nothing.
    unsafe { core::ptr::write_volatile(x, T::default()) };
    compiler_fence(Ordering::SeqCst);
}

/// Overwrites `x` with `v` (zero registers, say) through one volatile store: for values
/// without a [`Default`], such as SIMD registers and arrays of them.
#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub fn set<T: Copy>(x: &mut T, v: T) {
    // SAFETY: `x` is a valid, aligned, exclusive reference and `v` a valid `T`; `T: Copy`
    // has no drop glue, so overwriting without dropping leaks nothing.
    unsafe { core::ptr::write_volatile(x, v) };
    compiler_fence(Ordering::SeqCst);
}

/// Zeroes a fixed-size array of integers with one volatile store of the whole array, which
/// the compiler writes as a few register-wide stores: the cheap wipe for the blocks, pads
/// and keystream of one call.
#[inline(always)]
pub fn array<T: DefaultIsZeroes, const N: usize>(x: &mut [T; N]) {
    // SAFETY: `x` is a valid, aligned, exclusive reference; integers have no drop glue and
    // every bit pattern, zeros included, is a valid value.
    unsafe { core::ptr::write_volatile(x, [T::default(); N]) };
    compiler_fence(Ordering::SeqCst);
}

/// Zeroes `bytes`.
#[inline(always)]
pub fn bytes(bytes: &mut [u8]) {
    integers(bytes);
}

/// Zeroes `words`.
#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub fn u32s(words: &mut [u32]) {
    integers(words);
}

/// Zeroes `words`.
#[inline(always)]
pub fn u64s(words: &mut [u64]) {
    integers(words);
}

/// Zeroes `words`.
#[inline(always)]
pub fn i16s(words: &mut [i16]) {
    integers(words);
}

/// Bytes below which a slice is zeroed element by element.
#[cfg(target_arch = "x86_64")]
const SHORT: usize = 256;

/// Only for the integer types above: the vector path views them as registers.
#[inline(always)]
fn integers<T: DefaultIsZeroes>(s: &mut [T])
where
    [T]: Zeroize,
{
    // Short slices are cheap either way, and stay out of a call to the register kernel
    // (whose frame would deepen the stack of the compact KEM).
    #[cfg(target_arch = "x86_64")]
    if core::mem::size_of_val(s) >= SHORT && x86::integers(s).done() {
        return;
    }
    s.zeroize();
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn an_array_becomes_zero() {
        let mut pad = [0xa5u8; 64];
        array(&mut pad);
        assert_eq!(pad, [0u8; 64]);
        let mut words = [u32::MAX; 7];
        array(&mut words);
        assert_eq!(words, [0u32; 7]);
    }

    #[test]
    fn a_value_becomes_its_default() {
        let mut keys = [[0x5au8; 32]; 25];
        value(&mut keys);
        assert_eq!(keys, [[0u8; 32]; 25]);
        let mut word = u64::MAX;
        value(&mut word);
        assert_eq!(word, 0);
    }

    #[test]
    fn every_byte_and_word_becomes_zero_and_nothing_else() {
        for len in [0usize, 1, 15, 31, 32, 33, 95, 200, 4352, 8192] {
            for skew in 0..3 {
                let mut buf = vec![0xa5u8; len + skew + 1];
                bytes(&mut buf[skew..skew + len]);
                assert!(buf[skew..skew + len].iter().all(|&b| b == 0), "len {len}");
                assert!(buf[..skew].iter().all(|&b| b == 0xa5), "before, len {len}");
                assert_eq!(buf[skew + len], 0xa5, "after, len {len}");
                let mut w = vec![-7i16; len + skew + 1];
                i16s(&mut w[skew..skew + len]);
                assert!(w[skew..skew + len].iter().all(|&x| x == 0), "len {len}");
                assert!(w[..skew].iter().all(|&x| x == -7), "before, len {len}");
                assert_eq!(w[skew + len], -7, "after, len {len}");
                let mut d = vec![u32::MAX; len + skew + 1];
                u32s(&mut d[skew..skew + len]);
                assert!(d[skew..skew + len].iter().all(|&x| x == 0), "len {len}");
                assert!(
                    d[..skew].iter().all(|&x| x == u32::MAX),
                    "before, len {len}"
                );
                assert_eq!(d[skew + len], u32::MAX, "after, len {len}");
            }
        }
    }
}
