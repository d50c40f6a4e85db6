//! Instruction-mix loops: the vector instructions of one kernel loop, in the same numbers,
//! with no dependencies between them beyond short chains of AES rounds, so that the time of
//! an iteration is what the CPU's pipes allow for that loop (see `crate::bounds`).
//!
//! One iteration runs the AES instructions of `ROUNDS` rounds on eight zmm registers, as
//! sixteen chains of `ROUNDS / 2` dependent rounds (even rounds on one set of eight
//! registers, odd rounds on another, each chain starting afresh in every iteration): the
//! AES unit's throughput, not its latency, limits them. Beside them, spread evenly over the
//! rounds, run `CLMUL` carry-less multiplications, `SHUFFLE` byte shuffles (`vpshufb`, which
//! shares a pipe with the AES unit on some cores), `SIMPLE` one-cycle vector operations
//! (`vpxorq`, which issues like `vpternlogq`, four a cycle on Zen 5, but unlike it does not
//! read its destination, so the operations stay independent), `ROTATE` 64-bit rotations
//! (`vprolq`), `LOADS` 64-byte loads and `STORES` 64-byte stores. These write registers that
//! no other instruction reads. Without its AES instructions the same loop times a loop's
//! multiplications alone, or other kernels' mixes, the rounds then being steps.

use core::arch::asm;

use vecrypt::cpu::kernel;
use vecrypt::cpu::kernels::AES_VAES512;

/// Runs the loop `n` times (at least once), without its AES instructions if `AES` is 0.
/// The assembler spreads each count over the rounds: round `i` gets
/// `((i + 1) * count) / ROUNDS - (i * count) / ROUNDS` of it.
///
/// # Safety
/// The CPU must run the `AES_VAES512` kernels (AVX-512F, VAES and VPCLMULQDQ).
#[kernel(AES_VAES512)]
unsafe fn mix_loop<
    const AES: usize,
    const ROUNDS: usize,
    const CLMUL: usize,
    const SHUFFLE: usize,
    const SIMPLE: usize,
    const ROTATE: usize,
    const LOADS: usize,
    const STORES: usize,
>(
    n: u64,
    buf: &mut [u8; 128],
) {
    // SAFETY: the caller guarantees the features of every instruction below. The loads read
    // the first 64 bytes of `buf` and the stores write its last 64, both inside it; the loop
    // writes only the registers named as outputs and leaves the stack alone.
    unsafe {
        asm!(
            "vpxorq zmm31, zmm31, zmm31",
            "2:",
            ".set vecrypt_mix_round, 0",
            ".rept {rounds}",
            ".if {aes} == 0",
            ".elseif vecrypt_mix_round % 2 == 0",
            ".irp q,0,1,2,3,4,5,6,7",
            ".if vecrypt_mix_round == 0",
            "vaesenc zmm\\q, zmm16, zmm31",
            ".else",
            "vaesenc zmm\\q, zmm\\q, zmm31",
            ".endif",
            ".endr",
            ".else",
            ".irp q,18,19,20,21,22,23,24,25",
            ".if vecrypt_mix_round == 1",
            "vaesenc zmm\\q, zmm16, zmm31",
            ".else",
            "vaesenc zmm\\q, zmm\\q, zmm31",
            ".endif",
            ".endr",
            ".endif",
            ".rept ((vecrypt_mix_round + 1) * {clmul}) / {rounds} - (vecrypt_mix_round * {clmul}) / {rounds}",
            "vpclmulqdq zmm8, zmm16, zmm17, 0",
            ".endr",
            ".rept ((vecrypt_mix_round + 1) * {shuffle}) / {rounds} - (vecrypt_mix_round * {shuffle}) / {rounds}",
            "vpshufb zmm9, zmm16, zmm17",
            ".endr",
            ".rept ((vecrypt_mix_round + 1) * {simple}) / {rounds} - (vecrypt_mix_round * {simple}) / {rounds}",
            "vpxorq zmm10, zmm16, zmm17",
            ".endr",
            ".rept ((vecrypt_mix_round + 1) * {rotate}) / {rounds} - (vecrypt_mix_round * {rotate}) / {rounds}",
            "vprolq zmm13, zmm16, 1",
            ".endr",
            ".rept ((vecrypt_mix_round + 1) * {loads}) / {rounds} - (vecrypt_mix_round * {loads}) / {rounds}",
            "vmovdqu64 zmm11, [{buf}]",
            ".endr",
            ".rept ((vecrypt_mix_round + 1) * {stores}) / {rounds} - (vecrypt_mix_round * {stores}) / {rounds}",
            "vmovdqu64 [{buf} + 64], zmm12",
            ".endr",
            ".set vecrypt_mix_round, vecrypt_mix_round + 1",
            ".endr",
            "dec {n}",
            "jnz 2b",
            n = inout(reg) n.max(1) => _,
            buf = in(reg) buf.as_mut_ptr(),
            aes = const AES,
            rounds = const ROUNDS,
            clmul = const CLMUL,
            shuffle = const SHUFFLE,
            simple = const SIMPLE,
            rotate = const ROTATE,
            loads = const LOADS,
            stores = const STORES,
            out("zmm0") _, out("zmm1") _, out("zmm2") _, out("zmm3") _,
            out("zmm4") _, out("zmm5") _, out("zmm6") _, out("zmm7") _,
            out("zmm8") _, out("zmm9") _, out("zmm10") _, out("zmm11") _,
            out("zmm12") _, out("zmm13") _, out("zmm16") _, out("zmm17") _, out("zmm18") _,
            out("zmm19") _, out("zmm20") _, out("zmm21") _, out("zmm22") _,
            out("zmm23") _, out("zmm24") _, out("zmm25") _, out("zmm31") _,
            options(nostack),
        );
    }
}

/// Two cache lines: the mix loop's loads read the first, its stores write the second, none
/// split across lines (on the stack unaligned, a loop's time moved by up to 15% from one run
/// to the next with where the buffer fell).
#[repr(align(64))]
struct Lines([u8; 128]);

/// Runs the mix loop `n` times (see [`mix_loop`]; `AES` is 1 for a loop with its AES
/// instructions, 0 for one without); false, running nothing, if this CPU cannot.
pub fn run<
    const AES: usize,
    const ROUNDS: usize,
    const CLMUL: usize,
    const SHUFFLE: usize,
    const SIMPLE: usize,
    const ROTATE: usize,
    const LOADS: usize,
    const STORES: usize,
>(
    n: u64,
) -> bool {
    const { assert!(ROUNDS > 0 && AES <= 1) };
    if !AES_VAES512.runs() {
        return false;
    }
    let mut buf = Lines([0u8; 128]);
    // SAFETY: `AES_VAES512.runs()` confirmed the features the loop is compiled for.
    unsafe {
        mix_loop::<AES, ROUNDS, CLMUL, SHUFFLE, SIMPLE, ROTATE, LOADS, STORES>(n, &mut buf.0)
    };
    true
}

/// Runs `n` times a chain of 100 dependent 64-bit additions, which takes 100 core cycles
/// an iteration on every x86-64 core: timed, it gives the core's clock.
pub fn addition_chain(n: u64) {
    // SAFETY: plain integer additions on registers, with no memory access.
    unsafe {
        asm!(
            "2:",
            ".rept 100",
            "add {a}, {b}",
            ".endr",
            "dec {n}",
            "jnz 2b",
            n = inout(reg) n.max(1) => _,
            a = inout(reg) 0u64 => _,
            b = in(reg) 1u64,
            options(nostack, nomem),
        );
    }
}
