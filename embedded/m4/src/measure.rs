//! Instructions by the SysTick timer, stack by painting.

use cortex_m::peripheral::SYST;

/// Counts the instructions of a call through SysTick, at a ratio of instructions to ticks
/// measured on a loop of known length.
pub struct Counter {
    per_tick: u64,
}

/// The timer's current value; it counts down through 24 bits.
fn now() -> u32 {
    SYST::get_current()
}

/// Ticks from `start` to `end`.
fn ticks(start: u32, end: u32) -> u64 {
    u64::from(start.wrapping_sub(end) & 0x00ff_ffff)
}

/// `n` iterations of a two-instruction loop.
#[inline(never)]
fn spin(n: u32) {
    // SAFETY: the loop touches only its register operand.
    unsafe {
        core::arch::asm!(
            "2:",
            "subs {0}, {0}, #1",
            "bne 2b",
            inout(reg) n => _,
            options(nomem, nostack),
        );
    }
}

impl Counter {
    /// Measures the ratio on 2 x 1,000,000 instructions.
    pub fn calibrate() -> Self {
        const N: u32 = 1_000_000;
        let start = now();
        spin(N);
        let t = ticks(start, now()).max(1);
        Counter {
            per_tick: (2 * u64::from(N) + t / 2) / t,
        }
    }

    /// Instructions per timer tick.
    pub fn per_tick(&self) -> u64 {
        self.per_tick
    }

    /// The instructions `f` runs (to within one tick).
    pub fn count(&self, mut f: impl FnMut()) -> u64 {
        let start = now();
        f();
        ticks(start, now()) * self.per_tick
    }
}

/// Bytes painted below the stack pointer before a measured call.
const PAINT: usize = 32 * 1024;
const MARK: u32 = 0x5ca1_ab1e;

/// The bytes of stack `f` uses below this function's frame: the stack under it is painted
/// with a mark, `f` runs, and the lowest word no longer marked is found.
#[inline(never)]
pub fn stack_used(f: &mut dyn FnMut()) -> usize {
    let sp = cortex_m::register::msp::read() as usize & !3;
    let low = sp - PAINT;
    let mut p = low;
    while p < sp {
        // SAFETY: [sp - PAINT, sp) is free stack: below the stack pointer, with no
        // interrupt handlers to use it, and inside the board's RAM.
        unsafe { core::ptr::write_volatile(p as *mut u32, MARK) };
        p += 4;
    }
    f();
    let mut p = low;
    // SAFETY: as above; the words are read after `f` returned.
    while p < sp && unsafe { core::ptr::read_volatile(p as *const u32) } == MARK {
        p += 4;
    }
    sp - p
}
