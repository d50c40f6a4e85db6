//! Aigis-enc-2 function by function, in both hash modes: the instructions of each part of
//! the scheme alone, on the default backend and on the portable one (`aigis-enc-2 <mode>
//! part <name> insns=<n> portable=<n>`), and a check that the kernels of this build give
//! the same results as the portable code on pseudo-random polynomials (`aigis-enc-2 <mode>
//! parts kernels=ok`); and the sponges' Keccak-f\[1600\] against the portable one on pseudo-random
//! states, with the instructions of one permutation of each (`keccak-f1600 insns=<n>
//! portable=<n>`).

use core::fmt::Write;

use vecrypt::Backend;
use vecrypt::aigis::{Aigis, HashMode, KernelPart, ParamSet, run_keccak};

use crate::measure::Counter;

/// Runs of each part compared between the backends: repeated transforms feed each output
/// back as the next input, so the later runs see coefficients of both signs.
const CHECK_RUNS: [u32; 3] = [1, 2, 5];

/// Prints the instructions of one run of each part of Aigis-enc-2 on the default backend,
/// in both hash modes, and compares every part's result with the portable backend's;
/// `false` on a mismatch.
pub fn report(out: &mut impl Write, counter: &Counter) -> bool {
    let mut ok = true;
    for mode in [HashMode::Shake, HashMode::Sm3] {
        ok &= report_mode(out, counter, mode);
    }
    ok
}

/// [`report`] for one hash mode.
fn report_mode(out: &mut impl Write, counter: &Counter, mode: HashMode) -> bool {
    let set = ParamSet::Aigis2;
    let name = crate::mode_name(mode);
    let fast = Aigis::new(set, mode);
    let Ok(soft) = Aigis::with_backend(set, mode, Backend::Soft) else {
        return false;
    };
    let mut ok = true;
    for part in KernelPart::ALL {
        // The setup of the inputs and the fingerprint are the same in both runs: the
        // difference is ten runs of the part.
        let one = counter.count(|| {
            fast.run_kernel_part(part, 1);
        });
        let eleven = counter.count(|| {
            fast.run_kernel_part(part, 11);
        });
        let insns = eleven.saturating_sub(one) / 10;
        let soft_one = counter.count(|| {
            soft.run_kernel_part(part, 1);
        });
        let soft_eleven = counter.count(|| {
            soft.run_kernel_part(part, 11);
        });
        let portable = soft_eleven.saturating_sub(soft_one) / 10;
        let same = CHECK_RUNS
            .iter()
            .all(|&n| fast.run_kernel_part(part, n) == soft.run_kernel_part(part, n));
        ok &= same;
        let _ = writeln!(
            out,
            "aigis-enc-2 {name} part {} insns={insns} portable={portable}{}",
            part.name(),
            if same {
                ""
            } else {
                " FAILED (differs from the portable code)"
            }
        );
    }
    let _ = writeln!(
        out,
        "aigis-enc-2 {name} parts backend={} kernels={}",
        fast.backend(),
        if ok { "ok" } else { "FAILED" }
    );
    ok
}

/// States compared between the sponges' permutation and the portable one.
const KECCAK_STATES: u32 = 64;

/// Prints the instructions of one Keccak-f\[1600\] of the sponges and of the portable one,
/// and checks that they agree on pseudo-random states, once and three times in a row;
/// `false` on a mismatch.
pub fn keccak(out: &mut impl Write, counter: &Counter) -> bool {
    let mut seed = 0x0123_4567_89ab_cdefu64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut same = true;
    for n in 0..KECCAK_STATES {
        let start: [u64; 25] = core::array::from_fn(|_| next());
        let iterations = 1 + 2 * (n % 2);
        let (mut fast, mut portable) = (start, start);
        run_keccak(false, &mut fast, iterations);
        run_keccak(true, &mut portable, iterations);
        same &= fast == portable;
    }
    let cost = |portable: bool| {
        let mut s = [0x5a5a_5a5a_5a5a_5a5au64; 25];
        let one = counter.count(|| run_keccak(portable, &mut s, 1));
        let eleven = counter.count(|| run_keccak(portable, &mut s, 11));
        eleven.saturating_sub(one) / 10
    };
    let _ = writeln!(
        out,
        "keccak-f1600 insns={} portable={}{}",
        cost(false),
        cost(true),
        if same {
            ""
        } else {
            " FAILED (differs from the portable code)"
        }
    );
    same
}
