//! Measures every algorithm, backend, mode and direction of vecrypt on this CPU: the timing
//! loop (medians of several samples after a warm-up, since machines are shared and noisy),
//! the time-stamp counter rate for cycle counts, the speed table that `vecrypt speed` prints,
//! the peer implementations measured in the same run, and the published figures of each
//! seed paper set beside this machine's.
//!
//! With the `bench` feature, also the comparison report of the `vecrypt-bench` program
//! (the `compare` module), whose ML-KEM-768 peers build C code, and a Criterion benchmark.
//! Every row, of the table or of the report, is a [`SpeedRow`], printed by [`print_table`]
//! and written as JSON by [`to_json`].

#![deny(unsafe_code)]

pub mod aigis;
pub mod bounds;
#[cfg(feature = "bench")]
pub mod compare;
mod modes;
pub mod papers;
mod peers;
mod table;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86;

use std::hint::black_box;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

pub use aigis::aigis_rows;
pub use modes::{AeadUnderTest, aead_rows, extra_rows};
pub use peers::peer_rows;
pub use table::{
    LONG_MESSAGE, Layout, Plan, SpeedRow, cipher_rows, print_speed_table, print_table,
    ratio_to_peer, rows_per_backend, to_json,
};

/// How long each timed sample runs, and how many samples give the median.
#[derive(Copy, Clone, Debug)]
pub struct Budget {
    pub sample: Duration,
    pub samples: usize,
}

impl Budget {
    /// Short samples: the default of `vecrypt speed`, which measures everything.
    pub const SHORT: Budget = Budget {
        sample: Duration::from_millis(8),
        samples: 5,
    };
    pub const QUICK: Budget = Budget {
        sample: Duration::from_millis(20),
        samples: 5,
    };
    pub const FULL: Budget = Budget {
        sample: Duration::from_millis(100),
        samples: 11,
    };
}

/// Median nanoseconds per call of `f`, after a warm-up.
pub fn time_per_call(budget: Budget, mut f: impl FnMut()) -> f64 {
    let warm = Instant::now();
    let mut calls: u64 = 0;
    while warm.elapsed() < budget.sample / 2 || calls == 0 {
        f();
        calls += 1;
    }
    let per_sample = ((calls as f64 * 2.0).max(1.0)) as u64;
    let mut samples: Vec<f64> = (0..budget.samples.max(1))
        .map(|_| {
            let t = Instant::now();
            for _ in 0..per_sample {
                f();
            }
            t.elapsed().as_nanos() as f64 / per_sample as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    black_box(samples[samples.len() / 2])
}

/// Time-stamp counter ticks per nanosecond, measured over `span` (None off x86-64).
pub fn ticks_per_ns(span: Duration) -> Option<f64> {
    #[cfg(target_arch = "x86_64")]
    {
        let t0 = Instant::now();
        let c0 = x86::ticks();
        while t0.elapsed() < span {
            std::hint::spin_loop();
        }
        let c1 = x86::ticks();
        let ns = t0.elapsed().as_nanos() as f64;
        Some(c1.wrapping_sub(c0) as f64 / ns)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = span;
        None
    }
}

/// [`ticks_per_ns`] over 50 ms, measured once per process: what turns the median nanoseconds
/// of every row into cycles.
pub fn cycles_per_ns() -> Option<f64> {
    static RATE: OnceLock<Option<f64>> = OnceLock::new();
    *RATE.get_or_init(|| ticks_per_ns(Duration::from_millis(50)))
}

/// The CPU's model name from `/proc/cpuinfo`, or `unknown CPU`.
pub fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown CPU".to_string())
}
