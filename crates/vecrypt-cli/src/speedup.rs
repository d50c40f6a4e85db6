//! `vecrypt speedup ALG [--baseline BACKEND]`: the speed table of one cipher with every row's
//! speed-up over the same row on a baseline backend (by default the SSSE3 one, the layout of
//! the reference code the literature compares against).

use vecrypt::Backend;
use vecrypt::registry;
use vecrypt_speed::Budget;
use vecrypt_speed::{Plan, SpeedRow, cipher_rows};

use crate::Failure;

#[derive(clap::Args)]
pub struct Args {
    /// The cipher, e.g. `ublock-128-128`.
    alg: String,
    /// The backend every other one is compared with.
    #[arg(long, default_value = "ssse3")]
    baseline: String,
    /// Streams (and keys) in the multi-key rows.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u16).range(1..=64))]
    keys: u16,
    /// Measure longer for steadier medians.
    #[arg(long)]
    full: bool,
}

pub fn run(args: &Args) -> Result<(), Failure> {
    let info = registry::cipher(&args.alg)
        .map_err(|_| Failure::usage(format!("unknown algorithm '{}'", args.alg)))?;
    let baseline = crate::parse_backend(&args.baseline)?;
    let backends = (info.backends)();
    if !backends.contains(&baseline) {
        return Err(Failure::usage(format!(
            "{} has no backend '{baseline}' on this CPU",
            info.name
        )));
    }
    let plan = Plan {
        budget: if args.full {
            Budget::FULL
        } else {
            Budget::QUICK
        },
        keys: usize::from(args.keys),
        backend: None,
        peers: false,
    };
    let ordered = std::iter::once(baseline).chain(backends.into_iter().filter(|b| *b != baseline));
    let rows: Vec<SpeedRow> = ordered
        .flat_map(|b| cipher_rows(&plan, &info, b, &mut || {}))
        .collect();
    print_with_speedup(&rows, baseline);
    Ok(())
}

fn same_case(a: &SpeedRow, b: &SpeedRow) -> bool {
    a.keys == b.keys && a.mode == b.mode && a.direction == b.direction && a.message == b.message
}

fn print_with_speedup(rows: &[SpeedRow], baseline: Backend) {
    println!(
        "{:<16} {:<12} {:>4} {:<4} {:<8} {:<6} {:>10} {:>10} {:>9}",
        "algorithm", "backend", "keys", "mode", "dir", "msg", "MB/s", "Mbit/s", "speed-up"
    );
    for r in rows {
        let base = rows
            .iter()
            .find(|b| b.backend == baseline.name() && same_case(b, r))
            .map_or(r.ops_per_s, |b| b.ops_per_s);
        println!(
            "{:<16} {:<12} {:>4} {:<4} {:<8} {:<6} {:>10.1} {:>10.1} {:>8.2}x",
            r.algorithm,
            r.backend,
            r.keys,
            r.mode,
            r.direction,
            r.message,
            r.mb_per_s.unwrap_or(0.0),
            r.mbit_per_s.unwrap_or(0.0),
            r.ops_per_s / base
        );
    }
}
