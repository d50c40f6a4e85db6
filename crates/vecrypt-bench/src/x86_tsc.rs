//! Time-stamp counter ticks per nanosecond, to report cycle counts next to nanoseconds.

use std::time::{Duration, Instant};

#[cfg(target_arch = "x86_64")]
fn ticks() -> u64 {
    // SAFETY: RDTSC exists on every x86-64 CPU and has no preconditions.
    unsafe { core::arch::x86_64::_rdtsc() }
}

/// TSC ticks per nanosecond, measured over `span` (None off x86-64).
pub fn ticks_per_ns(span: Duration) -> Option<f64> {
    #[cfg(target_arch = "x86_64")]
    {
        let t0 = Instant::now();
        let c0 = ticks();
        while t0.elapsed() < span {
            std::hint::spin_loop();
        }
        let c1 = ticks();
        let ns = t0.elapsed().as_nanos() as f64;
        Some((c1 - c0) as f64 / ns)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = span;
        None
    }
}
