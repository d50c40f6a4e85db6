//! `vecrypt`: encrypt and decrypt with every algorithm of the library, and measure them.
//!
//! Every failure prints one line to stderr and exits with status 2.

mod aes_cmd;
mod cipher_cmd;
mod gost;
mod info;
mod kat;
mod kem_cmd;
mod output;
mod speed;
mod speedup;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "vecrypt",
    version,
    about = "Fast constant-time uBlock, Kuznyechik, AES and Aigis-enc"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
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

/// A failure, already worded for the user.
pub struct Failure(pub String);

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure(e.to_string())
    }
}

fn main() -> ExitCode {
    quiet_when_the_reader_leaves();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.exit_code() == 0 => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => return fail(&one_line(&e.render().to_string())),
    };
    let result = match cli.command {
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
        Err(Failure(msg)) => fail(&msg),
    }
}

/// The backend called `name`, for `--backend`.
pub fn parse_backend(name: &str) -> Result<vecrypt::Backend, Failure> {
    name.parse()
        .map_err(|_| Failure(format!("unknown backend '{name}'")))
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
