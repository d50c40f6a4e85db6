//! Aigis-enc: key generation, encapsulation and decapsulation for every parameter set, hash
//! mode and backend, on the normal path and on the compact (low-memory) path.

use std::hint::black_box;

use vecrypt::aigis::{self, Aigis, AigisCompact, HashMode, ParamSet};

use crate::{Plan, SpeedRow, time_per_call};

/// The row name of a set: `aigis-enc-1` ... `aigis-enc-4`.
pub fn set_name(set: ParamSet) -> String {
    set.name().to_ascii_lowercase()
}

/// The two ways of running the KEM, behind one signature.
trait Kem {
    fn keypair_into(&self, coins: &[u8], pk: &mut [u8], sk: &mut [u8]);
    fn encapsulate_into(&self, pk: &[u8], coins: &[u8], ct: &mut [u8]);
    fn decapsulate(&self, sk: &[u8], ct: &[u8]);
}

impl Kem for Aigis {
    fn keypair_into(&self, coins: &[u8], pk: &mut [u8], sk: &mut [u8]) {
        Aigis::keypair_into(self, coins, pk, sk).expect("sizes of the set");
    }
    fn encapsulate_into(&self, pk: &[u8], coins: &[u8], ct: &mut [u8]) {
        black_box(Aigis::encapsulate_into(self, pk, coins, ct).expect("sizes of the set"));
    }
    fn decapsulate(&self, sk: &[u8], ct: &[u8]) {
        black_box(Aigis::decapsulate(self, sk, ct).expect("sizes of the set"));
    }
}

impl Kem for AigisCompact {
    fn keypair_into(&self, coins: &[u8], pk: &mut [u8], sk: &mut [u8]) {
        AigisCompact::keypair_into(self, coins, pk, sk).expect("sizes of the set");
    }
    fn encapsulate_into(&self, pk: &[u8], coins: &[u8], ct: &mut [u8]) {
        black_box(AigisCompact::encapsulate_into(self, pk, coins, ct).expect("sizes of the set"));
    }
    fn decapsulate(&self, sk: &[u8], ct: &[u8]) {
        black_box(AigisCompact::decapsulate(self, sk, ct).expect("sizes of the set"));
    }
}

fn kem_rows(
    plan: &Plan,
    set: ParamSet,
    mode: &'static str,
    backend: &str,
    kem: &dyn Kem,
    rows: &mut Vec<SpeedRow>,
    progress: &mut dyn FnMut(),
) {
    let coins = [0x42u8; 64];
    let mut pk = vec![0u8; set.public_key_bytes()];
    let mut sk = vec![0u8; set.secret_key_bytes()];
    let mut ct = vec![0u8; set.ciphertext_bytes()];
    kem.keypair_into(&coins, &mut pk, &mut sk);
    kem.encapsulate_into(&pk, &coins[..32], &mut ct);
    let algorithm = set_name(set);
    let mut push = |op: &'static str, ns: f64| {
        rows.push(SpeedRow::measured(
            &algorithm, backend, false, 1, mode, op, "-", 0, ns,
        ));
        progress();
    };
    let ns = time_per_call(plan.budget, || {
        kem.keypair_into(black_box(&coins), &mut pk, &mut sk)
    });
    push("keygen", ns);
    let ns = time_per_call(plan.budget, || {
        kem.encapsulate_into(&pk, black_box(&coins[..32]), &mut ct)
    });
    push("encaps", ns);
    let ns = time_per_call(plan.budget, || kem.decapsulate(&sk, black_box(&ct)));
    push("decaps", ns);
}

/// The mode column of a hash mode, normal or compact.
pub fn mode_name(mode: HashMode, compact: bool) -> &'static str {
    match (mode, compact) {
        (HashMode::Shake, false) => "shake",
        (HashMode::Sm3, false) => "sm3",
        (HashMode::Shake, true) => "shake-compact",
        (HashMode::Sm3, true) => "sm3-compact",
    }
}

/// The rows of the sets `wanted` by name, on every backend the plan allows.
pub fn aigis_rows(
    plan: &Plan,
    wanted: &dyn Fn(&str) -> bool,
    progress: &mut dyn FnMut(),
) -> Vec<SpeedRow> {
    let mut rows = Vec::new();
    for set in ParamSet::ALL {
        if !wanted(&set_name(set)) {
            continue;
        }
        for mode in [HashMode::Shake, HashMode::Sm3] {
            for backend in aigis::backends() {
                if !plan.wants(backend) {
                    continue;
                }
                if let Ok(kem) = Aigis::with_backend(set, mode, backend) {
                    let m = mode_name(mode, false);
                    kem_rows(plan, set, m, backend.name(), &kem, &mut rows, progress);
                }
                if let Ok(kem) = AigisCompact::with_backend(set, mode, backend) {
                    let m = mode_name(mode, true);
                    kem_rows(plan, set, m, backend.name(), &kem, &mut rows, progress);
                }
            }
        }
    }
    rows
}
