//! The cycle counter of the timing test on x86-64.

/// The cycle counter, fenced so that the timed work neither starts before it nor ends after.
#[inline(always)]
pub(crate) fn cycles() -> u64 {
    use std::arch::x86_64::{_mm_lfence, _rdtsc};
    // SAFETY: `lfence` and `rdtsc` exist on every x86-64 CPU and touch no memory.
    unsafe {
        _mm_lfence();
        let t = _rdtsc();
        _mm_lfence();
        t
    }
}
