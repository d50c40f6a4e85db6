//! The speed table of every block cipher and backend on this CPU, following the test plan of
//! the uBlock AVX2 paper: short messages (one block per call, repeated) and long messages
//! (2 Mbit buffers), one key and several keys, ECB, CBC and CTR, both directions.

use serde::Serialize;
use vecrypt::Backend;
use vecrypt::registry::{CipherInfo, DynCipher, DynMulti};

use crate::{Budget, time_per_call};

/// Bytes of one long message: 2 Mbit.
pub const LONG_MESSAGE: usize = 2 * 1024 * 1024 / 8;

/// One measured line of the speed table.
#[derive(Clone, Debug, Serialize)]
pub struct SpeedRow {
    pub algorithm: String,
    pub backend: String,
    /// Keys (and streams) per call.
    pub keys: usize,
    pub mode: &'static str,
    pub direction: &'static str,
    /// `short` (one block per stream) or `long` (2 Mbit per stream).
    pub message: &'static str,
    /// Bytes processed per call, all streams together.
    pub bytes: usize,
    /// Median throughput, 10^6 bytes per second.
    pub mb_per_s: f64,
    /// The same in 10^6 bits per second, as the papers quote it.
    pub mbit_per_s: f64,
}

/// What to measure.
#[derive(Clone, Debug)]
pub struct Plan {
    pub budget: Budget,
    /// Streams for the multi-key rows.
    pub keys: usize,
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            budget: Budget::QUICK,
            keys: 4,
        }
    }
}

#[derive(Copy, Clone)]
enum Mode {
    Ecb,
    Cbc,
    Ctr,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Ecb => "ecb",
            Mode::Cbc => "cbc",
            Mode::Ctr => "ctr",
        }
    }
}

fn run_single(c: &dyn DynCipher, mode: Mode, encrypt: bool, iv: &[u8], buf: &mut [u8]) {
    let r = match (mode, encrypt) {
        (Mode::Ecb, true) => c.encrypt_ecb(buf),
        (Mode::Ecb, false) => c.decrypt_ecb(buf),
        (Mode::Cbc, true) => c.encrypt_cbc(iv, buf),
        (Mode::Cbc, false) => c.decrypt_cbc(iv, buf),
        (Mode::Ctr, _) => c.apply_ctr(iv, buf),
    };
    r.expect("whole blocks and a one-block IV are always valid");
}

fn run_multi(m: &dyn DynMulti, mode: Mode, encrypt: bool, ivs: &[&[u8]], bufs: &mut [Vec<u8>]) {
    let mut refs: Vec<&mut [u8]> = bufs.iter_mut().map(|b| b.as_mut_slice()).collect();
    let r = match (mode, encrypt) {
        (Mode::Ecb, true) => m.encrypt_ecb(&mut refs),
        (Mode::Ecb, false) => m.decrypt_ecb(&mut refs),
        (Mode::Cbc, true) => m.encrypt_cbc(ivs, &mut refs),
        (Mode::Cbc, false) => m.decrypt_cbc(ivs, &mut refs),
        (Mode::Ctr, _) => unreachable!("the multi-key API has no CTR rows"),
    };
    r.expect("whole blocks and one-block IVs are always valid");
}

/// Measures every row of one cipher on one backend, calling `progress` after each row.
pub fn cipher_rows(
    plan: &Plan,
    info: &CipherInfo,
    backend: Backend,
    progress: &mut dyn FnMut(),
) -> Vec<SpeedRow> {
    let n = info.block_len;
    let keys: Vec<Vec<u8>> = (0..plan.keys.max(1))
        .map(|i| vec![0x5a ^ i as u8; info.key_len])
        .collect();
    let iv = vec![0u8; n];
    let ivs: Vec<&[u8]> = keys.iter().map(|_| iv.as_slice()).collect();
    let Ok(single) = (info.new)(&keys[0], Some(backend)) else {
        return Vec::new();
    };
    let key_refs: Vec<&[u8]> = keys.iter().map(|k| k.as_slice()).collect();
    let multi = (info.new_multi)(&key_refs, Some(backend)).ok();
    let mut rows = Vec::new();
    let mut push = |keys: usize, mode: Mode, encrypt: bool, message, bytes, ns: f64| {
        let mb = bytes as f64 * 1e3 / ns;
        rows.push(SpeedRow {
            algorithm: info.name.into(),
            backend: backend.name().into(),
            keys,
            mode: mode.name(),
            direction: if encrypt { "encrypt" } else { "decrypt" },
            message,
            bytes,
            mb_per_s: mb,
            mbit_per_s: mb * 8.0,
        });
        progress();
    };
    for (message, len) in [("short", n), ("long", LONG_MESSAGE)] {
        for mode in [Mode::Ecb, Mode::Cbc, Mode::Ctr] {
            for encrypt in [true, false] {
                if matches!(mode, Mode::Ctr) && !encrypt {
                    continue;
                }
                let mut buf = vec![0u8; len];
                let ns = time_per_call(plan.budget, || {
                    run_single(single.as_ref(), mode, encrypt, &iv, &mut buf)
                });
                push(1, mode, encrypt, message, len, ns);
                if let (Some(m), false) = (&multi, matches!(mode, Mode::Ctr)) {
                    let mut bufs = vec![vec![0u8; len]; keys.len()];
                    let ns = time_per_call(plan.budget, || {
                        run_multi(m.as_ref(), mode, encrypt, &ivs, &mut bufs)
                    });
                    push(keys.len(), mode, encrypt, message, len * keys.len(), ns);
                }
            }
        }
    }
    rows
}

/// Rows each cipher and backend will produce, for progress bars.
pub fn rows_per_backend() -> usize {
    // 2 message sizes x (ECB and CBC both ways, one and several keys, + CTR one key).
    2 * (2 * 2 * 2 + 1)
}

/// Prints the speed table.
pub fn print_speed_table(rows: &[SpeedRow]) {
    println!(
        "{:<16} {:<12} {:>4} {:<4} {:<8} {:<6} {:>10} {:>10}",
        "algorithm", "backend", "keys", "mode", "dir", "msg", "MB/s", "Mbit/s"
    );
    for r in rows {
        println!(
            "{:<16} {:<12} {:>4} {:<4} {:<8} {:<6} {:>10.1} {:>10.1}",
            r.algorithm,
            r.backend,
            r.keys,
            r.mode,
            r.direction,
            r.message,
            r.mb_per_s,
            r.mbit_per_s
        );
    }
}
