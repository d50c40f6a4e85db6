//! Measures every algorithm, backend, mode and direction of vecrypt on this CPU: the timing
//! loop (medians of several samples after a warm-up, since machines are shared and noisy)
//! and the speed table that `vecrypt speed` prints.

mod table;

use std::hint::black_box;
use std::time::{Duration, Instant};

pub use table::{Plan, SpeedRow, cipher_rows, print_speed_table, rows_per_backend};

/// How long each timed sample runs, and how many samples give the median.
#[derive(Copy, Clone, Debug)]
pub struct Budget {
    pub sample: Duration,
    pub samples: usize,
}

impl Budget {
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
