//! The time-stamp counter, to report cycles next to nanoseconds, and the instruction-mix
//! loops of `crate::bounds`.

pub mod mix;

/// The current time-stamp counter.
pub fn ticks() -> u64 {
    // SAFETY: RDTSC exists on every x86-64 CPU, reads no memory and has no preconditions.
    unsafe { core::arch::x86_64::_rdtsc() }
}
