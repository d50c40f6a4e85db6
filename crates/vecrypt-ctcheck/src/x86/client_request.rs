//! The valgrind client request on x86-64, written against the documented protocol of
//! `valgrind.h`.
//!
//! A client request is a special no-op instruction sequence: four rotations of `rdi` that add
//! up to two full turns, then `xchg rbx, rbx`. Natively it does nothing and `rdx` keeps the
//! default value; under valgrind the core reads the request block whose address is in `rax`
//! (the request code and five arguments) and writes the answer to `rdx`.

/// Sends request `code` with `args`; `default` is the answer when not under valgrind.
pub(crate) fn request(default: usize, code: usize, args: [usize; 5]) -> usize {
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
