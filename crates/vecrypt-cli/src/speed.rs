//! `vecrypt speed [ALG...]`: the speed table of every algorithm and backend on this CPU.

use indicatif::{ProgressBar, ProgressStyle};
use vecrypt::registry;
use vecrypt_speed::Budget;
use vecrypt_speed::{Plan, SpeedRow, cipher_rows, print_speed_table, rows_per_backend};

use crate::Failure;

#[derive(clap::Args)]
pub struct Args {
    /// Algorithms to measure, by name or prefix (e.g. `ublock`); all when none is given.
    algs: Vec<String>,
    /// Print the table as JSON instead.
    #[arg(long)]
    json: bool,
    /// Measure longer for steadier medians.
    #[arg(long)]
    full: bool,
    /// Streams (and keys) in the multi-key rows.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64))]
    keys: u16,
    /// Only this backend.
    #[arg(long)]
    backend: Option<String>,
}

pub fn run(args: &Args) -> Result<(), Failure> {
    let only_backend = args
        .backend
        .as_deref()
        .map(crate::parse_backend)
        .transpose()?;
    let all = registry::ciphers();
    for a in &args.algs {
        if !all.iter().any(|c| c.name.starts_with(a.as_str())) {
            return Err(Failure::usage(format!("unknown algorithm '{a}'")));
        }
    }
    let chosen: Vec<_> = all
        .into_iter()
        .filter(|c| {
            args.algs.is_empty() || args.algs.iter().any(|a| c.name.starts_with(a.as_str()))
        })
        .collect();
    let jobs: Vec<_> = chosen
        .iter()
        .flat_map(|c| (c.backends)().into_iter().map(move |b| (c, b)))
        .filter(|(_, b)| only_backend.is_none_or(|o| o == *b))
        .collect();
    let plan = Plan {
        budget: if args.full {
            Budget::FULL
        } else {
            Budget::QUICK
        },
        keys: usize::from(args.keys),
    };
    let bar = ProgressBar::new((jobs.len() * rows_per_backend()) as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut rows: Vec<SpeedRow> = Vec::new();
    for (info, backend) in jobs {
        bar.set_message(format!("{} {backend}", info.name));
        rows.extend(cipher_rows(&plan, info, backend, &mut || bar.inc(1)));
    }
    bar.finish_and_clear();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        print_speed_table(&rows);
    }
    Ok(())
}
