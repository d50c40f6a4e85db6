//! Instruction-mix loops: the vector instructions of one kernel loop, in the same numbers,
//! with no dependencies between them beyond short chains of AES rounds, so that the time of
//! an iteration is what the CPU's pipes allow for that loop (see `crate::bounds`). There is
//! one loop per register width: zmm for the VAES-512 kernels (below), ymm for the VAES-256
//! kernels and the AVX2 Keccak permutation, xmm for the AES-NI kernels (`ymm_loop!` and
//! `xmm_mix_loop`).
//!
//! The zmm loop: one iteration runs the AES instructions of `ROUNDS` rounds on eight zmm registers, as
//! sixteen chains of `ROUNDS / 2` dependent rounds (even rounds on one set of eight
//! registers, odd rounds on another, each chain starting afresh in every iteration): the
//! AES unit's throughput, not its latency, limits them. Beside them, spread evenly over the
//! rounds, run `CLMUL` carry-less multiplications, `SHUFFLE` byte shuffles (`vpshufb`, which
//! shares a pipe with the AES unit on some cores), `SIMPLE` one-cycle vector operations
//! (`vpxorq`, which issues like `vpternlogq`, four a cycle on Zen 5, but unlike it does not
//! read its destination, so the operations stay independent), `ROTATE` 64-bit rotations
//! (`vprolq`), `SHIFT` 64-bit shifts (`vpsllq`), `LOADS` 64-byte loads and `STORES`
//! 64-byte stores. These write registers that
//! no other instruction reads. Without its AES instructions the same loop times a loop's
//! multiplications alone, or other kernels' mixes, the rounds then being steps.

use core::arch::asm;

use vecrypt::cpu::kernels::{AES_NI, AES_VAES256, AES_VAES512, AIGIS_KECCAK_AVX2};
use vecrypt::cpu::{Kernel, kernel};

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
    const SHIFT: usize,
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
            ".rept ((vecrypt_mix_round + 1) * {shift}) / {rounds} - (vecrypt_mix_round * {shift}) / {rounds}",
            "vpsllq zmm14, zmm16, 1",
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
            shift = const SHIFT,
            loads = const LOADS,
            stores = const STORES,
            out("zmm0") _, out("zmm1") _, out("zmm2") _, out("zmm3") _,
            out("zmm4") _, out("zmm5") _, out("zmm6") _, out("zmm7") _,
            out("zmm8") _, out("zmm9") _, out("zmm10") _, out("zmm11") _,
            out("zmm12") _, out("zmm13") _, out("zmm14") _, out("zmm16") _, out("zmm17") _, out("zmm18") _,
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

/// The loops a [`Mix`](crate::bounds::Mix) can run on: the register width and, for ymm,
/// whether the loop has AES instructions (the AVX2 Keccak mix has none and runs on every AVX2
/// CPU).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Loop {
    /// The VAES-512 loop, [`mix_loop`].
    Zmm,
    /// The VAES-256 loop, `ymm_aes_loop`.
    YmmAes,
    /// The AVX2 loop without AES instructions, `ymm_loop`.
    Ymm,
    /// The AES-NI loop on SSE registers, [`xmm_mix_loop`].
    Xmm,
}

impl Loop {
    /// The loop numbered `n` (`Loop as u8`, the form a const parameter takes).
    const fn of(n: u8) -> Loop {
        const ALL: [Loop; 4] = [Loop::Zmm, Loop::YmmAes, Loop::Ymm, Loop::Xmm];
        let mut i = 0;
        while i < ALL.len() {
            if ALL[i] as u8 == n {
                return ALL[i];
            }
            i += 1;
        }
        panic!("no such loop")
    }
}

/// Runs the mix loop of `LOOP` (a [`Loop`] as `u8`) `n` times; `AES` is 1 for a loop with
/// its AES instructions, 0 for one without. False, running nothing, if this CPU cannot run
/// that loop.
pub fn run<
    const LOOP: u8,
    const AES: usize,
    const ROUNDS: usize,
    const CLMUL: usize,
    const SHUFFLE: usize,
    const SIMPLE: usize,
    const ROTATE: usize,
    const SHIFT: usize,
    const LOADS: usize,
    const STORES: usize,
>(
    n: u64,
) -> bool {
    const { assert!(ROUNDS > 0 && AES <= 1 && LOOP <= Loop::Xmm as u8) };
    const { assert!(LOOP == Loop::Zmm as u8 || ROTATE == 0) };
    const { assert!(LOOP != Loop::Ymm as u8 || AES == 0) };
    // One match names both the kernel whose features are checked and the loop compiled for
    // exactly those features.
    type Body = unsafe fn(u64, &mut [u8; 128]);
    let (kernel, body): (Kernel, Body) = match Loop::of(LOOP) {
        Loop::Zmm => (
            AES_VAES512,
            mix_loop::<AES, ROUNDS, CLMUL, SHUFFLE, SIMPLE, ROTATE, SHIFT, LOADS, STORES>,
        ),
        Loop::YmmAes => (
            AES_VAES256,
            ymm_aes_loop::<AES, ROUNDS, CLMUL, SHUFFLE, SIMPLE, SHIFT, LOADS, STORES>,
        ),
        Loop::Ymm => (
            AIGIS_KECCAK_AVX2,
            ymm_loop::<AES, ROUNDS, CLMUL, SHUFFLE, SIMPLE, SHIFT, LOADS, STORES>,
        ),
        Loop::Xmm => (
            AES_NI,
            xmm_mix_loop::<AES, ROUNDS, CLMUL, SHUFFLE, SIMPLE, SHIFT, LOADS, STORES>,
        ),
    };
    if !kernel.runs() {
        return false;
    }
    let mut buf = Lines([0u8; 128]);
    // SAFETY: `kernel.runs()` confirmed the features `body` is compiled for.
    unsafe { body(n, &mut buf.0) };
    true
}

/// Defines a ymm mix loop compiled for the features of `$kernel`: the zmm loop's scheme on
/// the sixteen ymm registers, the AES instructions of each round on `ymm0` to `ymm7` (eight
/// chains of `ROUNDS` rounds, each starting afresh in every iteration: at two rounds a cycle
/// and a latency of four cycles, eight chains keep the units busy), the other instructions
/// writing registers that nothing reads. Each round is eight slots, one AES instruction
/// each, and every other count is spread over all the slots of the iteration: gathered by
/// kind, a hundred XORs followed by fifty stores, the loop measured up to twice as long as
/// the kernel it stands for. `SHIFT` counts `vpsllq`, as AVX2 has no rotation.
macro_rules! ymm_loop {
    ($(#[$doc:meta])* $name:ident, $kernel:ident) => {
        $(#[$doc])*
        ///
        /// # Safety
        #[doc = concat!("The CPU must run the `", stringify!($kernel), "` kernels.")]
        #[kernel($kernel)]
        unsafe fn $name<
            const AES: usize,
            const ROUNDS: usize,
            const CLMUL: usize,
            const SHUFFLE: usize,
            const SIMPLE: usize,
            const SHIFT: usize,
            const LOADS: usize,
            const STORES: usize,
        >(
            n: u64,
            buf: &mut [u8; 128],
        ) {
            // SAFETY: the caller guarantees the features of every instruction below. The
            // loads read the first 64 bytes of `buf` and the stores write its last 64, both
            // inside it; the loop writes only the registers named as outputs.
            unsafe {
                asm!(
                    "vpxor ymm15, ymm15, ymm15",
                    "2:",
                    ".set vecrypt_mix_round, 0",
                    ".set vecrypt_mix_slot, 0",
                    ".rept {rounds}",
                    ".irp q,0,1,2,3,4,5,6,7",
                    ".if {aes} != 0",
                    ".if vecrypt_mix_round == 0",
                    "vaesenc ymm\\q, ymm14, ymm15",
                    ".else",
                    "vaesenc ymm\\q, ymm\\q, ymm15",
                    ".endif",
                    ".endif",
                    ".rept ((vecrypt_mix_slot + 1) * {clmul}) / (8 * {rounds}) - (vecrypt_mix_slot * {clmul}) / (8 * {rounds})",
                    "vpclmulqdq ymm8, ymm14, ymm15, 0",
                    ".endr",
                    ".rept ((vecrypt_mix_slot + 1) * {shuffle}) / (8 * {rounds}) - (vecrypt_mix_slot * {shuffle}) / (8 * {rounds})",
                    "vpshufb ymm9, ymm14, ymm15",
                    ".endr",
                    ".rept ((vecrypt_mix_slot + 1) * {simple}) / (8 * {rounds}) - (vecrypt_mix_slot * {simple}) / (8 * {rounds})",
                    "vpxor ymm10, ymm14, ymm15",
                    ".endr",
                    ".rept ((vecrypt_mix_slot + 1) * {shift}) / (8 * {rounds}) - (vecrypt_mix_slot * {shift}) / (8 * {rounds})",
                    "vpsllq ymm13, ymm14, 1",
                    ".endr",
                    ".rept ((vecrypt_mix_slot + 1) * {loads}) / (8 * {rounds}) - (vecrypt_mix_slot * {loads}) / (8 * {rounds})",
                    "vmovdqu ymm11, [{buf}]",
                    ".endr",
                    ".rept ((vecrypt_mix_slot + 1) * {stores}) / (8 * {rounds}) - (vecrypt_mix_slot * {stores}) / (8 * {rounds})",
                    "vmovdqu [{buf} + 64], ymm12",
                    ".endr",
                    ".set vecrypt_mix_slot, vecrypt_mix_slot + 1",
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
                    shift = const SHIFT,
                    loads = const LOADS,
                    stores = const STORES,
                    out("ymm0") _, out("ymm1") _, out("ymm2") _, out("ymm3") _,
                    out("ymm4") _, out("ymm5") _, out("ymm6") _, out("ymm7") _,
                    out("ymm8") _, out("ymm9") _, out("ymm10") _, out("ymm11") _,
                    out("ymm12") _, out("ymm13") _, out("ymm14") _, out("ymm15") _,
                    options(nostack),
                );
            }
        }
    };
}

ymm_loop!(
    /// The mix loop of the VAES-256 kernels (`Loop::YmmAes`).
    ymm_aes_loop,
    AES_VAES256
);
ymm_loop!(
    /// The mix loop of the AVX2 kernels without AES instructions (`Loop::Ymm`); `AES` must
    /// be 0.
    ymm_loop,
    AIGIS_KECCAK_AVX2
);

/// The mix loop of the AES-NI kernels, in their SSE encoding: two-operand instructions,
/// each but the AES rounds preceded by a register copy (which the core renames away) so
/// that it does not read the result of the one before. As in the ymm loop, the AES rounds
/// run as eight chains on `xmm0` to `xmm7`.
///
/// # Safety
/// The CPU must run the `AES_NI` kernels.
#[kernel(AES_NI)]
unsafe fn xmm_mix_loop<
    const AES: usize,
    const ROUNDS: usize,
    const CLMUL: usize,
    const SHUFFLE: usize,
    const SIMPLE: usize,
    const SHIFT: usize,
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
            "pxor xmm15, xmm15",
            "2:",
            ".set vecrypt_mix_round, 0",
            ".set vecrypt_mix_slot, 0",
            ".rept {rounds}",
            ".irp q,0,1,2,3,4,5,6,7",
            ".if {aes} != 0",
            ".if vecrypt_mix_round == 0",
            "movdqa xmm\\q, xmm14",
            ".endif",
            "aesenc xmm\\q, xmm15",
            ".endif",
            ".rept ((vecrypt_mix_slot + 1) * {clmul}) / (8 * {rounds}) - (vecrypt_mix_slot * {clmul}) / (8 * {rounds})",
            "movdqa xmm8, xmm14",
            "pclmulqdq xmm8, xmm15, 0",
            ".endr",
            ".rept ((vecrypt_mix_slot + 1) * {shuffle}) / (8 * {rounds}) - (vecrypt_mix_slot * {shuffle}) / (8 * {rounds})",
            "movdqa xmm9, xmm14",
            "pshufb xmm9, xmm15",
            ".endr",
            ".rept ((vecrypt_mix_slot + 1) * {simple}) / (8 * {rounds}) - (vecrypt_mix_slot * {simple}) / (8 * {rounds})",
            "movdqa xmm10, xmm14",
            "pxor xmm10, xmm15",
            ".endr",
            ".rept ((vecrypt_mix_slot + 1) * {shift}) / (8 * {rounds}) - (vecrypt_mix_slot * {shift}) / (8 * {rounds})",
            "movdqa xmm13, xmm14",
            "psllq xmm13, 1",
            ".endr",
            ".rept ((vecrypt_mix_slot + 1) * {loads}) / (8 * {rounds}) - (vecrypt_mix_slot * {loads}) / (8 * {rounds})",
            "movdqu xmm11, [{buf}]",
            ".endr",
            ".rept ((vecrypt_mix_slot + 1) * {stores}) / (8 * {rounds}) - (vecrypt_mix_slot * {stores}) / (8 * {rounds})",
            "movdqu [{buf} + 64], xmm12",
            ".endr",
            ".set vecrypt_mix_slot, vecrypt_mix_slot + 1",
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
            shift = const SHIFT,
            loads = const LOADS,
            stores = const STORES,
            out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _,
            out("xmm4") _, out("xmm5") _, out("xmm6") _, out("xmm7") _,
            out("xmm8") _, out("xmm9") _, out("xmm10") _, out("xmm11") _,
            out("xmm12") _, out("xmm13") _, out("xmm14") _, out("xmm15") _,
            options(nostack),
        );
    }
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
