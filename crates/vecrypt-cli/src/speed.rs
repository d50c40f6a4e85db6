//! `vecrypt speed [ALG...]`: the speed table of every algorithm, mode, direction and backend
//! on this CPU, with peer implementations beside; `--paper` lays out one seed paper's table
//! with its published figures, `--svg` draws the rows measured, `--bounds` compares the
//! VAES-512 AES kernels and the eight-lane Keccak permutation with what this CPU's pipes
//! allow.

use std::path::PathBuf;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use vecrypt::registry;
use vecrypt_speed::papers::Paper;
use vecrypt_speed::{
    Budget, Plan, SpeedRow, aigis_rows, cipher_rows, extra_rows, peer_rows, print_speed_table,
};

use crate::Failure;

#[derive(clap::Args)]
pub struct Args {
    /// Algorithms to measure, by name or prefix (e.g. `ublock`, `aigis`); all when none is
    /// given.
    algs: Vec<String>,
    /// Print the rows as JSON instead (one object per measurement).
    #[arg(long)]
    json: bool,
    /// Measure longer for steadier medians.
    #[arg(long)]
    full: bool,
    /// Streams (and keys) in the multi-key rows.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64))]
    keys: u16,
    /// Only this backend (peer implementations are measured all the same).
    #[arg(long)]
    backend: Option<String>,
    /// Leave out the peer implementations.
    #[arg(long)]
    no_peers: bool,
    /// Print one seed paper's table with its published figures beside this machine's.
    #[arg(long, value_name = "PAPER", value_parser = Paper::NAMES)]
    paper: Option<String>,
    /// Print how close the AES kernels (VAES-512, VAES-256, AES-NI) and the Keccak
    /// permutations (AVX-512, AVX2) this CPU runs come to their bounds on it (the time of
    /// each loop's instructions without dependencies) instead of the speed table.
    #[arg(long, conflicts_with_all = ["paper", "svg", "algs", "backend", "no_peers", "keys"])]
    bounds: bool,
    /// Also draw the measured rows as an SVG bar chart into FILE.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Replace an existing output file.
    #[arg(long)]
    force: bool,
    /// Milliseconds per timed sample (3 samples), for quick checks.
    #[arg(long, hide = true, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    sample_ms: Option<u64>,
}

/// Every name a filter may match: the block ciphers and the Aigis-enc sets.
fn known_names() -> Vec<String> {
    let mut names: Vec<String> = registry::ciphers()
        .iter()
        .map(|c| c.name.to_string())
        .collect();
    names.extend(
        vecrypt::aigis::ParamSet::ALL
            .iter()
            .map(|s| vecrypt_speed::aigis::set_name(*s)),
    );
    names
}

pub fn run(args: &Args) -> Result<(), Failure> {
    let only_backend = args
        .backend
        .as_deref()
        .map(crate::parse_backend)
        .transpose()?;
    let names = known_names();
    for a in &args.algs {
        if !names.iter().any(|n| n.starts_with(a.as_str())) {
            return Err(Failure::usage(format!("unknown algorithm '{a}'")));
        }
    }
    let plan = Plan {
        budget: match (args.sample_ms, args.full) {
            (Some(ms), _) => Budget {
                sample: Duration::from_millis(ms),
                samples: 3,
            },
            (None, true) => Budget::FULL,
            (None, false) => Budget::SHORT,
        },
        keys: usize::from(args.keys),
        backend: only_backend,
        peers: !args.no_peers,
    };
    if args.bounds {
        return bounds(&plan, args.json);
    }
    let replace = crate::output::Replace::forced(args.force);
    // Refused before minutes of measuring, not after.
    if let Some(path) = &args.svg
        && replace == crate::output::Replace::Refuse
        && std::fs::symlink_metadata(path).is_ok()
    {
        return Err(Failure::usage(format!(
            "{} exists (use --force to replace it)",
            path.display()
        )));
    }
    let wanted =
        |name: &str| args.algs.is_empty() || args.algs.iter().any(|a| name.starts_with(a.as_str()));
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {pos} rows {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    let rows = match args.paper.as_deref().and_then(Paper::parse) {
        Some(paper) => {
            let rows = paper.measure(&plan, &mut |what| {
                bar.set_message(what.to_string());
                bar.inc(1);
            });
            bar.finish_and_clear();
            paper.print(&rows);
            rows
        }
        None => {
            let rows = measure(&plan, &wanted, &bar);
            bar.finish_and_clear();
            if args.json {
                println!("{}", vecrypt_speed::to_json(&rows)?);
            } else {
                print_speed_table(&rows);
            }
            rows
        }
    };
    if let Some(path) = &args.svg {
        let svg = crate::chart::svg(&rows, &vecrypt_speed::cpu_name())?;
        crate::output::write_all(&[(
            path,
            svg.as_bytes(),
            crate::output::Secrecy::Public,
            replace,
        )])?;
    }
    Ok(())
}

/// `--bounds`: the table of `vecrypt_speed::bounds`, or a usage error where none of its
/// kernels runs.
fn bounds(plan: &Plan, json: bool) -> Result<(), Failure> {
    let bar = ProgressBar::new_spinner();
    let Some((ghz, rows)) = vecrypt_speed::bounds::bound_rows(plan.budget, &mut || bar.inc(1))
    else {
        bar.finish_and_clear();
        return Err(Failure::usage(
            "--bounds measures the AES-NI, VAES and AVX2 kernels, none of which this CPU runs"
                .to_string(),
        ));
    };
    bar.finish_and_clear();
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({ "core_ghz": ghz, "rows": rows }))?
        );
    } else {
        vecrypt_speed::bounds::print_bounds(ghz, &rows);
    }
    Ok(())
}

/// Every row of the wanted algorithms: each cipher's block, mode and AEAD rows per backend
/// with its peers after them, then Aigis-enc.
fn measure(plan: &Plan, wanted: &dyn Fn(&str) -> bool, bar: &ProgressBar) -> Vec<SpeedRow> {
    let mut rows: Vec<SpeedRow> = Vec::new();
    let mut tick = || bar.inc(1);
    for info in registry::ciphers().iter().filter(|c| wanted(c.name)) {
        for backend in (info.backends)() {
            if !plan.wants(backend) {
                continue;
            }
            bar.set_message(format!("{} {backend}", info.name));
            rows.extend(cipher_rows(plan, info, backend, &mut tick));
            rows.extend(extra_rows(plan, info.name, backend, &mut tick));
        }
        bar.set_message(format!("{} peers", info.name));
        rows.extend(peer_rows(plan, info.name, &mut tick));
    }
    bar.set_message("aigis-enc");
    rows.extend(aigis_rows(plan, wanted, &mut tick));
    rows
}
