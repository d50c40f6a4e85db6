//! Valgrind client requests: the few this checker needs. The request itself, an instruction
//! sequence in inline assembly, is in `x86/client_request.rs`.

/// `VG_USERREQ_TOOL_BASE('M', 'C')`: the first request code of memcheck.
const MEMCHECK_BASE: usize = (b'M' as usize) << 24 | (b'C' as usize) << 16;
/// Marks bytes addressable but undefined.
const MAKE_MEM_UNDEFINED: usize = MEMCHECK_BASE + 1;
/// Marks bytes addressable and defined.
const MAKE_MEM_DEFINED: usize = MEMCHECK_BASE + 2;
/// Returns 1 (or the nesting depth) under valgrind, 0 natively.
const RUNNING_ON_VALGRIND: usize = 0x1001;
/// Returns how many errors the tool has reported so far.
const COUNT_ERRORS: usize = 0x1201;

#[cfg(target_arch = "x86_64")]
use crate::x86::client_request::request;

#[cfg(not(target_arch = "x86_64"))]
fn request(default: usize, _code: usize, _args: [usize; 5]) -> usize {
    default
}

/// Whether this process runs under valgrind.
pub fn running_on_valgrind() -> bool {
    request(0, RUNNING_ON_VALGRIND, [0; 5]) != 0
}

/// How many errors valgrind has reported so far (0 natively).
pub fn error_count() -> usize {
    request(0, COUNT_ERRORS, [0; 5])
}

/// Marks `bytes` as secret: memcheck reports any branch or address computed from them.
///
/// Both markers take `&mut` so that the compiler reloads the bytes afterwards rather than
/// reuse a copy (or a constant) it held from before, which would keep the old marking.
pub fn secret(bytes: &mut [u8]) {
    request(
        0,
        MAKE_MEM_UNDEFINED,
        [bytes.as_mut_ptr() as usize, bytes.len(), 0, 0, 0],
    );
}

/// Marks `bytes` as public again: only for values that are public by design.
pub fn public(bytes: &mut [u8]) {
    request(
        0,
        MAKE_MEM_DEFINED,
        [bytes.as_mut_ptr() as usize, bytes.len(), 0, 0, 0],
    );
}
