//! Runs one operation of one algorithm on one backend a given number of times, and nothing
//! else: the fixed workload whose instructions `cargo xtask arm-insns` counts under an
//! emulator (two runs that differ only in the repetitions differ by that many operations).
//!
//! ```text
//! workload <cipher> <backend> <ecb-enc|ecb-dec|ctr|cbc-dec> <bytes> <reps>
//! workload aigis-enc-<set> <backend> <shake|sm3> <keygen|encaps|decaps> <reps>
//! ```

use std::hint::black_box;
use std::process::ExitCode;

use vecrypt::Backend;
use vecrypt::aigis::{Aigis, HashMode, ParamSet};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("workload: {e}");
            ExitCode::from(2)
        }
    }
}

fn number(s: &str) -> Result<usize, String> {
    s.parse().map_err(|_| format!("not a number: {s}"))
}

fn run(args: &[String]) -> Result<(), String> {
    let [alg, backend, rest @ ..] = args else {
        return Err("usage: workload <algorithm> <backend> ...".into());
    };
    let backend: Backend = backend.parse().map_err(|e| format!("{e}"))?;
    if let Some(set) = alg.strip_prefix("aigis-enc-") {
        let [mode, op, reps] = rest else {
            return Err("usage: workload aigis-enc-<set> <backend> <mode> <op> <reps>".into());
        };
        let set = match set {
            "1" => ParamSet::Aigis1,
            "2" => ParamSet::Aigis2,
            "3" => ParamSet::Aigis3,
            "4" => ParamSet::Aigis4,
            _ => return Err(format!("no parameter set {set}")),
        };
        let mode = match mode.as_str() {
            "shake" => HashMode::Shake,
            "sm3" => HashMode::Sm3,
            _ => return Err(format!("no hash mode {mode}")),
        };
        return kem(set, mode, backend, op, number(reps)?);
    }
    let [op, bytes, reps] = rest else {
        return Err("usage: workload <cipher> <backend> <op> <bytes> <reps>".into());
    };
    let info = vecrypt::registry::cipher(alg).map_err(|e| format!("{e}"))?;
    let key = vec![0x5a; info.key_len];
    let cipher = (info.new)(&key, Some(backend)).map_err(|e| format!("{e}"))?;
    let iv = vec![0x33; info.block_len];
    let mut buf = vec![0x11u8; number(bytes)?];
    for _ in 0..number(reps)? {
        match op.as_str() {
            "ecb-enc" => cipher.encrypt_ecb(&mut buf),
            "ecb-dec" => cipher.decrypt_ecb(&mut buf),
            "ctr" => cipher.apply_ctr(&iv, &mut buf),
            "cbc-dec" => cipher.decrypt_cbc(&iv, &mut buf),
            _ => return Err(format!("no operation {op}")),
        }
        .map_err(|e| format!("{e}"))?;
        black_box(&buf);
    }
    Ok(())
}

fn kem(
    set: ParamSet,
    mode: HashMode,
    backend: Backend,
    op: &str,
    reps: usize,
) -> Result<(), String> {
    let kem = Aigis::with_backend(set, mode, backend).map_err(|e| format!("{e}"))?;
    let coins = [0x42u8; 64];
    let (pk, sk) = kem.keypair_from_coins(&coins).map_err(|e| format!("{e}"))?;
    let (ct, _) = kem
        .encapsulate_from_coins(&pk, &coins[..32])
        .map_err(|e| format!("{e}"))?;
    for _ in 0..reps {
        match op {
            "keygen" => drop(black_box(kem.keypair_from_coins(&coins))),
            "encaps" => drop(black_box(kem.encapsulate_from_coins(&pk, &coins[..32]))),
            "decaps" => drop(black_box(kem.decapsulate(&sk, &ct))),
            _ => return Err(format!("no operation {op}")),
        }
    }
    Ok(())
}
