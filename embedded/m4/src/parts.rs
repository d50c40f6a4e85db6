//! Aigis-enc-2 function by function: the instructions of each part of the scheme alone, on
//! the default backend and on the portable one (`aigis-enc-2 part <name> insns=<n>
//! portable=<n>`), and a check that the kernels of this build give
//! the same results as the portable code on pseudo-random polynomials (`aigis-enc-2 parts
//! kernels=ok`).

use core::fmt::Write;

use vecrypt::Backend;
use vecrypt::aigis::{Aigis, HashMode, KernelPart, ParamSet};

use crate::measure::Counter;

/// Runs of each part compared between the backends: repeated transforms feed each output
/// back as the next input, so the later runs see coefficients of both signs.
const CHECK_RUNS: [u32; 3] = [1, 2, 5];

/// Prints the instructions of one run of each part of Aigis-enc-2 (SHAKE) on the default
/// backend, and compares every part's result with the portable backend's; `false` on a
/// mismatch.
pub fn report(out: &mut impl Write, counter: &Counter) -> bool {
    let set = ParamSet::Aigis2;
    let mode = HashMode::Shake;
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
            "aigis-enc-2 part {} insns={insns} portable={portable}{}",
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
        "aigis-enc-2 parts backend={} kernels={}",
        fast.backend(),
        if ok { "ok" } else { "FAILED" }
    );
    ok
}
