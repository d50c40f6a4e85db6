//! Peak stack use of a call, measured by painting the stack below the caller with a pattern
//! and finding the deepest word the call overwrote. Used by the compact-mode tests.

use core::arch::asm;

const PATTERN: u64 = 0x5a5a_c3c3_a5a5_3c3c;
/// Room left untouched under the painting function's own frame.
const MARGIN: usize = 256;

#[inline(always)]
fn stack_pointer() -> usize {
    let sp: usize;
    // SAFETY: reads the stack pointer register only.
    unsafe { asm!("mov {}, rsp", out(reg) sp, options(nomem, nostack, preserves_flags)) };
    sp
}

#[inline(never)]
fn paint(bottom: usize) {
    let top = stack_pointer() - MARGIN;
    let mut a = bottom & !7;
    while a < top {
        // SAFETY: [bottom, top) is unused stack of this thread, below every live frame; the
        // caller keeps `depth` well inside the thread's stack size.
        unsafe { core::ptr::write_volatile(a as *mut u64, PATTERN) };
        a += 8;
    }
}

#[inline(never)]
fn deepest_written(bottom: usize, top: usize) -> usize {
    let mut a = bottom & !7;
    while a < top {
        // SAFETY: the same region, painted just before; volatile so the reads happen.
        if unsafe { core::ptr::read_volatile(a as *const u64) } != PATTERN {
            return a;
        }
        a += 8;
    }
    top
}

#[inline(never)]
fn run<F: FnOnce()>(f: F) {
    f();
}

/// Bytes of stack `f` used below this function's frame (at most `depth`). Call it on a
/// thread whose stack is much larger than `depth`.
#[inline(never)]
pub fn peak_stack_bytes<F: FnOnce()>(depth: usize, f: F) -> usize {
    let top = stack_pointer();
    let bottom = top - depth;
    paint(bottom);
    run(f);
    top - deepest_written(bottom, top)
}
