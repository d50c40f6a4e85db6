//! Valgrind client requests: the few this checker needs, written against the documented
//! protocol of `valgrind.h` for x86-64.
//!
//! A client request is a special no-op instruction sequence: four rotations of `rdi` that add
//! up to two full turns, then `xchg rbx, rbx`. Natively it does nothing and `rdx` keeps the
//! default value; under valgrind the core reads the request block whose address is in `rax`
//! (the request code and five arguments) and writes the answer to `rdx`.

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
fn request(default: usize, code: usize, args: [usize; 5]) -> usize {
    let block: [usize; 6] = [code, args[0], args[1], args[2], args[3], args[4]];
    let result: usize;
    // SAFETY: the sequence rotates `rdi` by 3 + 13 + 61 + 51 = 128 bits, which leaves it as
    // it was, and `xchg rbx, rbx` changes nothing, so natively no register but the flags is
    // altered. Under valgrind the core reads the six words of `block`, which live on this
    // stack frame for the whole statement, and may read or change the definedness of the
    // memory the request names, which the caller owns (see the callers); it writes only
    // `rdx`. Flags are clobbered (no `preserves_flags`) and memory is treated as clobbered.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            in("rax") block.as_ptr(),
            inout("rdx") default => result,
            out("rdi") _,
        );
    }
    core::hint::black_box(&block);
    result
}

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
