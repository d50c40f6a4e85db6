//! `vecrypt keygen`, `vecrypt seal` and `vecrypt open`: the command-line side of the sealed
//! format (its options, where keys and passphrases come from, the output file and the
//! progress bar); the format itself is `vecrypt_cli::seal`.

use std::io::{self, IsTerminal, Read};
use std::path::{Path, PathBuf};

use vecrypt::aigis::ParamSet;
use vecrypt_cli::seal::{self, Cost, Lock, Suite, Unlock};
use vecrypt_cli::{Failure, keys, output};
use zeroize::Zeroizing;

use output::{Replace, Secrecy, Sink};

/// Inputs at least this large get a progress bar when stderr is a terminal.
const PROGRESS_FROM: u64 = 64 * 1024 * 1024;

fn parse_suite(s: &str) -> Result<Suite, String> {
    Suite::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = Suite::ALL.iter().map(|(_, n)| *n).collect();
        format!("expected one of {}", names.join(", "))
    })
}

#[derive(clap::Args)]
pub struct KeygenArgs {
    /// Where to write the key file (created with mode 0600).
    #[arg(long = "out", value_name = "FILE")]
    output: PathBuf,
    /// Replace an existing output file.
    #[arg(long)]
    force: bool,
}

#[derive(clap::Args)]
#[group(id = "seal_key", multiple = false)]
pub struct SealKey {
    /// A key file written by `vecrypt keygen` (or exactly 32 raw bytes).
    #[arg(long, value_name = "FILE")]
    key_file: Option<PathBuf>,
    /// The key in hex, from this environment variable.
    #[arg(long, value_name = "VAR")]
    key_env: Option<String>,
    /// A file holding the passphrase (one trailing newline is dropped; `-`: standard input).
    /// With no key option at all, the passphrase is asked for on the terminal.
    #[arg(long, value_name = "FILE")]
    passphrase_file: Option<PathBuf>,
    /// Seal to this Aigis-enc public key (from `vecrypt kem aigis-enc-N keygen`).
    #[arg(long, value_name = "PUBLIC_KEY_FILE")]
    to: Option<PathBuf>,
}

#[derive(clap::Args)]
pub struct SealArgs {
    #[command(flatten)]
    key: SealKey,
    /// The AEAD for the chunks: aes-256-gcm or kuznyechik-mgm.
    #[arg(long, value_name = "SUITE", default_value = "aes-256-gcm", value_parser = parse_suite)]
    suite: Suite,
    /// Argon2id cost for a passphrase: memory in KiB, passes, lanes.
    #[arg(long, value_name = "M,T,P", default_value = "65536,3,1", value_parser = Cost::parse)]
    argon2: Cost,
    /// Input file (`-` or none: standard input).
    #[arg(long = "in", value_name = "FILE")]
    input: Option<PathBuf>,
    /// Output file (`-` or none: standard output, which must not be a terminal).
    #[arg(long = "out", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Replace an existing output file.
    #[arg(long)]
    force: bool,
}

#[derive(clap::Args)]
#[group(id = "open_key", multiple = false)]
pub struct OpenKey {
    /// The key file the input was sealed with.
    #[arg(long, value_name = "FILE")]
    key_file: Option<PathBuf>,
    /// The key in hex, from this environment variable.
    #[arg(long, value_name = "VAR")]
    key_env: Option<String>,
    /// A file holding the passphrase (one trailing newline is dropped; `-`: standard input).
    /// With no key option at all, the passphrase is asked for on the terminal.
    #[arg(long, value_name = "FILE")]
    passphrase_file: Option<PathBuf>,
    /// The Aigis-enc secret key file whose public key the input was sealed to.
    #[arg(long, value_name = "SECRET_KEY_FILE")]
    sk: Option<PathBuf>,
}

#[derive(clap::Args)]
pub struct OpenArgs {
    #[command(flatten)]
    key: OpenKey,
    /// The most Argon2id cost a passphrase-sealed input may ask for: memory in KiB, passes,
    /// lanes. The cost is read before anything is authenticated, so it is bounded.
    #[arg(long, value_name = "M,T,P", default_value = "2097152,8,16", value_parser = Cost::parse)]
    max_argon2: Cost,
    /// Input file (`-` or none: standard input).
    #[arg(long = "in", value_name = "FILE")]
    input: Option<PathBuf>,
    /// Output file (`-` or none: standard output). A file appears only once every chunk
    /// has been authenticated.
    #[arg(long = "out", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Replace an existing output file.
    #[arg(long)]
    force: bool,
}

fn warn(msg: &str) {
    eprintln!("vecrypt: warning: {msg}");
}

/// Warns when a secret file can be read by other users.
fn check_exposure(path: &Path) {
    if keys::readable_by_others(path) {
        warn(&format!(
            "{} is readable by other users (chmod 600 it)",
            path.display()
        ));
    }
}

fn random<const N: usize>() -> Result<[u8; N], Failure> {
    let mut b = [0u8; N];
    getrandom::fill(&mut b).map_err(|e| Failure::usage(format!("no system randomness: {e}")))?;
    Ok(b)
}

fn env_key(var: &str) -> Result<Zeroizing<Vec<u8>>, Failure> {
    let v = Zeroizing::new(
        std::env::var(var)
            .map_err(|_| Failure::usage(format!("--key-env: {var} is not set or not UTF-8")))?,
    );
    let key = keys::parse_hex(&format!("--key-env {var}"), v.trim())?;
    if key.len() != keys::SEAL_KEY_BYTES {
        return Err(Failure::usage(format!(
            "--key-env {var}: the key must be {} bytes, got {}",
            keys::SEAL_KEY_BYTES,
            key.len()
        )));
    }
    Ok(key)
}

fn key_file(path: &Path) -> Result<Zeroizing<Vec<u8>>, Failure> {
    check_exposure(path);
    keys::read_seal_key_file(path)
}

/// A passphrase from a file, from standard input (`-`), or asked for on the terminal.
fn passphrase(
    file: Option<&Path>,
    input: Option<&Path>,
    confirm: bool,
) -> Result<Zeroizing<Vec<u8>>, Failure> {
    match file {
        Some(p) if output::is_std(Some(p)) => {
            if output::is_std(input) {
                return Err(Failure::usage(
                    "--passphrase-file - reads standard input, so the data must come from --in",
                ));
            }
            let mut data = Zeroizing::new(Vec::new());
            io::stdin()
                .read_to_end(&mut data)
                .map_err(|e| Failure::usage(format!("cannot read the passphrase: {e}")))?;
            keys::passphrase_from("standard input", &data)
        }
        Some(p) => {
            check_exposure(p);
            keys::read_passphrase_file(p)
        }
        None => prompt(confirm),
    }
}

/// Asks for a passphrase on the terminal without echo (twice with `confirm`).
fn prompt(confirm: bool) -> Result<Zeroizing<Vec<u8>>, Failure> {
    let no_terminal = || {
        Failure::usage(
            "no key given and no terminal to ask for a passphrase: give --key-file, --key-env, \
             --passphrase-file or a recipient",
        )
    };
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
        .map_err(|_| no_terminal())?;
    let ask = |what: &str| {
        rpassword::prompt_password(what)
            .map(|s| Zeroizing::new(s.into_bytes()))
            .map_err(|e| Failure::usage(format!("cannot read the passphrase: {e}")))
    };
    let pass = ask("Passphrase: ")?;
    if pass.is_empty() {
        return Err(Failure::usage("the passphrase is empty"));
    }
    if confirm && *ask("Passphrase again: ")? != *pass {
        return Err(Failure::usage("the passphrases differ"));
    }
    Ok(pass)
}

fn progress_bar(len: Option<u64>) -> Option<indicatif::ProgressBar> {
    let len = len.filter(|&l| l >= PROGRESS_FROM)?;
    if !io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(len);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{bytes}/{total_bytes} {wide_bar} {eta}")
    {
        bar.set_style(style);
    }
    Some(bar)
}

type Body<'a> = dyn FnOnce(Box<dyn Read + Send>, &mut seal::Out, Option<&seal::Progress>) -> Result<(), Failure>
    + 'a;

/// Runs `body` from `input` to `output`: a regular output file appears only if `body`
/// succeeds; a live output (standard output) gets what `body` writes as it goes.
fn pipe(
    input: Option<&Path>,
    output: Option<&Path>,
    secrecy: Secrecy,
    force: bool,
    binary_out: bool,
    body: Box<Body>,
) -> Result<(), Failure> {
    output::check_in_out(input, output)?;
    if binary_out && output::is_std(output) && io::stdout().is_terminal() {
        return Err(Failure::usage(
            "refusing to write sealed bytes to a terminal: give --out or redirect standard output",
        ));
    }
    let (reader, len) = output::open_input(input)?;
    let replace = Replace::forced(force);
    let mut sink: Sink = output::create(output, secrecy, replace)?;
    let bar = progress_bar(len);
    let tick = |n: u64| {
        if let Some(b) = &bar {
            b.inc(n);
        }
    };
    let result = body(reader, &mut |d: &[u8]| sink.put(d), Some(&tick));
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    match result {
        Ok(()) => sink.commit(),
        Err(e) => {
            if sink.is_live() {
                let _ = sink.finish();
            }
            Err(e)
        }
    }
}

pub fn keygen(args: &KeygenArgs) -> Result<(), Failure> {
    let key = Zeroizing::new(random::<{ keys::SEAL_KEY_BYTES }>()?);
    let text = keys::encode_key_file(&*key);
    let replace = Replace::forced(args.force);
    output::write_all(&[(&args.output, &text, Secrecy::Secret, replace)])
}

/// A recipient's public key file: it must name its set and hash mode.
fn recipient(path: &Path, data: &[u8]) -> Result<(ParamSet, vecrypt::aigis::HashMode), Failure> {
    match seal::decode_kem_key(data, false)? {
        Some((set, mode, _)) => Ok((set, mode)),
        None => Err(Failure::usage(format!(
            "{} has no Aigis-enc key header naming its set and hash mode (write key files \
             with `vecrypt kem aigis-enc-N keygen`, or add the header described in \
             docs/format.md)",
            path.display()
        ))),
    }
}

pub fn seal(args: &SealArgs) -> Result<(), Failure> {
    let k = &args.key;
    let nonce_prefix = random::<{ seal::NONCE_PREFIX }>()?;
    let secret: Zeroizing<Vec<u8>>;
    let how = if let Some(path) = &k.key_file {
        secret = key_file(path)?;
        Lock::Key(&secret)
    } else if let Some(var) = &k.key_env {
        secret = env_key(var)?;
        Lock::Key(&secret)
    } else if let Some(path) = &k.to {
        secret = Zeroizing::new(output::read_input(path)?);
        let (set, mode) = recipient(path, &secret)?;
        Lock::Kem {
            pk: &secret[9..],
            set,
            mode,
            coins: random()?,
        }
    } else {
        secret = passphrase(k.passphrase_file.as_deref(), args.input.as_deref(), true)?;
        let cost = args.argon2;
        if !cost.meets_rfc9106() {
            warn(&format!(
                "Argon2id cost {cost} is below RFC 9106's recommendations \
                 (65536,3,P or 2097152,1,P)"
            ));
        }
        if !cost.within(Cost::DEFAULT_MAX) {
            warn(&format!(
                "Argon2id cost {cost} is above what `open` accepts by default \
                 ({}); opening will need --max-argon2",
                Cost::DEFAULT_MAX
            ));
        }
        Lock::Passphrase {
            pass: &secret,
            salt: random()?,
            cost,
        }
    };
    let suite = args.suite;
    pipe(
        args.input.as_deref(),
        args.output.as_deref(),
        Secrecy::Public,
        args.force,
        true,
        Box::new(|input, out, bar| seal::seal_stream(&how, suite, &nonce_prefix, input, out, bar)),
    )
}

pub fn open(args: &OpenArgs) -> Result<(), Failure> {
    let k = &args.key;
    let secret: Zeroizing<Vec<u8>>;
    let how = if let Some(path) = &k.key_file {
        secret = key_file(path)?;
        Unlock::Key(&secret)
    } else if let Some(var) = &k.key_env {
        secret = env_key(var)?;
        Unlock::Key(&secret)
    } else if let Some(path) = &k.sk {
        check_exposure(path);
        secret = keys::read_secret(path)?;
        Unlock::Kem(&secret)
    } else {
        secret = passphrase(k.passphrase_file.as_deref(), args.input.as_deref(), false)?;
        Unlock::Passphrase(&secret, args.max_argon2)
    };
    pipe(
        args.input.as_deref(),
        args.output.as_deref(),
        Secrecy::Secret,
        args.force,
        false,
        Box::new(|input, out, bar| seal::open_stream(&how, input, out, bar)),
    )
}
