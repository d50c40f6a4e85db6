//! `vecrypt`: encrypt and decrypt with every algorithm of the library, and measure them.
//!
//! Every failure prints one line to stderr. The exit status is 0 on success, 1 when
//! authentication fails, the key is wrong or the input is corrupt, and 2 for usage and I/O
//! errors.

#![forbid(unsafe_code)]

mod aes_cmd;
mod chart;
mod cipher_cmd;
mod gost;
mod info;
mod kat;
mod kem_cmd;
mod key_args;
mod seal_cmd;
mod speed;
mod speedup;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use vecrypt_cli::{Failure, output, seal};

#[derive(Parser)]
#[command(
    name = "vecrypt",
    version,
    about = "Fast constant-time uBlock, Kuznyechik, AES and Aigis-enc",
    after_help = "Exit status: 0 success, 1 authentication failure, wrong key or corrupt input, \
2 usage or I/O error."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write a new random key file for `seal` and `open` (mode 0600).
    Keygen(seal_cmd::KeygenArgs),
    /// Encrypt and authenticate a file or stream (see docs/format.md).
    Seal(seal_cmd::SealArgs),
    /// Check and decrypt what `seal` wrote.
    Open(seal_cmd::OpenArgs),
    /// Encrypt or decrypt with a block cipher (ECB, CBC or CTR).
    Cipher(cipher_cmd::Args),
    /// Kuznyechik in the GOST R 34.13 modes with their own parameters, MGM and ACPKM.
    Gost(gost::Args),
    /// Measure every algorithm, backend, mode and direction this CPU runs.
    Speed(speed::Args),
    /// Show the CPU features found and the backend each algorithm uses.
    Info,
    /// One cipher's speed table with each backend's speed-up over a baseline backend.
    Speedup(speedup::Args),
    /// AES-GCM, CMAC, CFB, OFB, 32-bit-counter CTR and XTS (the key length picks the AES).
    Aes(aes_cmd::Args),
    /// Aigis-enc key generation, encapsulation and decapsulation over files.
    Kem(kem_cmd::Args),
    /// Print the NIST-style known-answer file of an Aigis-enc set.
    Kat(kat::Args),
}

fn main() -> ExitCode {
    quiet_when_the_reader_leaves();
    if std::env::args_os().len() <= 1 {
        let mut cmd = <Cli as clap::CommandFactory>::command();
        let _ = cmd.print_long_help();
        return ExitCode::SUCCESS;
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.exit_code() == 0 => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => return fail(&one_line(&e.render().to_string())),
    };
    // An unusable VECRYPT_BACKEND is refused, not silently ignored.
    if let Err(e) = vecrypt::cpu::env_backend() {
        return fail(&format!("VECRYPT_BACKEND: {e}"));
    }
    let result = match cli.command {
        Command::Keygen(args) => seal_cmd::keygen(&args),
        Command::Seal(args) => seal_cmd::seal(&args),
        Command::Open(args) => seal_cmd::open(&args),
        Command::Cipher(args) => cipher_cmd::run(&args),
        Command::Gost(args) => gost::run(&args),
        Command::Speed(args) => speed::run(&args),
        Command::Info => info::run(),
        Command::Speedup(args) => speedup::run(&args),
        Command::Aes(args) => aes_cmd::run(&args),
        Command::Kem(args) => kem_cmd::run(&args),
        Command::Kat(args) => kat::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("vecrypt: {}", one_line(&f.msg));
            ExitCode::from(f.code)
        }
    }
}

/// The backend called `name`, for `--backend`: constant-time backends only.
pub fn parse_backend(name: &str) -> Result<vecrypt::Backend, Failure> {
    let backend: vecrypt::Backend = name
        .parse()
        .map_err(|_| Failure::usage(format!("unknown backend '{name}'")))?;
    if !backend.is_constant_time() {
        return Err(Failure::usage(format!(
            "backend '{name}' is not constant time and is not offered here"
        )));
    }
    Ok(backend)
}

/// `vecrypt kat ... | head` closes stdout early; that ends the command quietly instead of
/// with a panic message from `println!`.
fn quiet_when_the_reader_leaves() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let msg = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if msg.contains("failed printing to stdout") && msg.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}

fn fail(msg: &str) -> ExitCode {
    eprintln!("vecrypt: {msg}");
    ExitCode::from(2)
}

/// clap's usage errors span several lines; keep the message, drop the usage hints.
fn one_line(rendered: &str) -> String {
    let first_paragraph = rendered.split("\n\n").next().unwrap_or(rendered);
    let joined: Vec<&str> = first_paragraph.split_whitespace().collect();
    joined.join(" ").trim_start_matches("error: ").to_string()
}
