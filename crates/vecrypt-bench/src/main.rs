//! `vecrypt-bench [--quick] [--json FILE] [FILTER...]`: vecrypt next to its peers, one run.

#![forbid(unsafe_code)]

use std::process::ExitCode;

use vecrypt_bench::{Budget, Row, print_table};

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
    let wanted =
        |group: &str| filters.is_empty() || filters.iter().any(|f| group.contains(f.as_str()));
    let mut rows: Vec<Row> = Vec::new();
    if wanted("aes") {
        rows.extend(vecrypt_bench::aes::rows(budget));
    }
    if wanted("aigis") {
        rows.extend(vecrypt_bench::aigis::rows(budget));
    }
    if wanted("ublock") {
        rows.extend(vecrypt_bench::ublock::rows(budget));
    }
    if wanted("kuznyechik") {
        rows.extend(vecrypt_bench::kuznyechik::rows(budget));
    }
    print_table(&rows);
    if let Some(path) = json {
        let text = serde_json::to_string_pretty(&rows).expect("rows serialise");
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("vecrypt-bench: cannot write {path}: {e}");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}
