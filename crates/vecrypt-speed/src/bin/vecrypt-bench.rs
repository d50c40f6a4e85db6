//! `vecrypt-bench [--quick] [--json FILE] [FILTER...]`: vecrypt next to its peers, one run
//! (the comparison report of `vecrypt_speed::compare`).

#![forbid(unsafe_code)]

use std::process::ExitCode;

use vecrypt_speed::{Budget, Layout, compare, print_table, to_json};

fn main() -> ExitCode {
    let mut budget = Budget::FULL;
    let mut json = None;
    let mut filters = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--quick" => budget = Budget::QUICK,
            "--json" => match args.next() {
                Some(f) => json = Some(f),
                None => {
                    eprintln!("vecrypt-bench: --json needs a file name");
                    return ExitCode::from(2);
                }
            },
            _ => filters.push(a),
        }
    }
    let rows = compare::rows(budget, &filters);
    print_table(&rows, Layout::Comparison);
    if let Some(path) = json {
        let written = to_json(&rows)
            .map_err(|e| e.to_string())
            .and_then(|text| std::fs::write(&path, text).map_err(|e| e.to_string()));
        if let Err(e) = written {
            eprintln!("vecrypt-bench: cannot write {path}: {e}");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}
