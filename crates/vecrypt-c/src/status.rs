//! What every exported function returns, and the guard that turns a body's outcome, or a
//! panic, into that return code so that no panic unwinds into C.

use core::ffi::c_int;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The result of a call: 0 on success.
pub(crate) const OK: c_int = 0;
/// The result of a failed call.
pub(crate) const FAIL: c_int = -1;

/// Runs `f` and turns its outcome, or a panic, into 0 or -1.
pub(crate) fn guard(f: impl FnOnce() -> Result<(), ()>) -> c_int {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => OK,
        _ => FAIL,
    }
}
