//! Keccak-f\[1600\] for ARMv7-M (Cortex-M3/M4), Thumb-2 assembly on bit-interleaved lanes.
//!
//! Each 64-bit lane is kept as two 32-bit words, its even bits and its odd bits, so a 64-bit
//! rotation is two 32-bit rotations (by ⌈r/2⌉ and ⌊r/2⌋, the halves crossing when `r` is
//! odd), and every 32-bit rotation is folded into the barrel shifter of an `EOR` or `BIC`
//! operand: a round has no rotate instruction of its own except eight in θ.
//!
//! **Lazy rotations.** The word at each position is stored rotated right by a fixed amount
//! ([`OFFSETS`], the ρ amount of the lane that χ writes there), so the output of χ never
//! has to be turned back: θ reads each stored word through a rotation that gives its true
//! value (column parities and `a ^ D` are in true form), ρ becomes the frame of that word, and
//! χ combines words of different frames with shifted operands. The offsets are the same in
//! every round, so one round text serves all 24.
//!
//! **Layout.** The 50 words are stored by half-rows ([`WORDS`]): the five words that χ
//! computes together (one row, one half) are adjacent, so they are stored by one `STM`, and
//! θ reads whole half-rows with `LDM`. The sponge keeps its state in this form on this target
//! (`sponge.rs` converts only the lanes it absorbs or squeezes, about 40 instructions a
//! lane): converting the whole state at every permutation would cost about 2,500
//! instructions more. The rounds run out of place between the caller's state and one copy
//! on the stack: even rounds read the state and write the copy, odd rounds read the copy
//! and write the state, so after 24 rounds the result is where the input was and nothing is
//! copied in or out. The frame is 260 bytes (296 with the saved registers).
//!
//! **A round**: θ (15 `LDM`, 40 `EOR`, 8 `ROR`, then the ten `D` words, stored), then per
//! half-row five loads, five `EOR` with `D`, five `BIC`+`EOR` and one `STM`, with five
//! registers caching `D` words (18 reloads a round in the chosen row order).
//!
//! **Cost** (instructions, which is what the QEMU board counts; `embedded/m4`): 313 a round
//! from the copy, 323 from the state (its half-rows are stored through `ADD` and `STM` with
//! a scratch register, the state's address taking the register the copy's pointer held),
//! 7,708 for the whole call with the zeroing of the frame, against 14,528 for the portable
//! permutation on 64-bit words (the compiler's pairs of 32-bit registers). Code: about
//! 2,500 bytes.
//!
//! Constant time: no branch or address depends on the state; the only branch is the loop
//! over the rounds.

use crate::aigis::sponge::KECCAK_RC;

/// The right rotation of each stored word, `[even, odd]` per lane position, fixed by ρ and π:
/// the word at position `p` is the χ output of the lane π brings there, in the frame of
/// that lane's ρ rotation.
pub(crate) const OFFSETS: [[u32; 2]; 25] = [
    [0, 0],
    [22, 22],
    [22, 21],
    [11, 10],
    [7, 7],
    [14, 14],
    [10, 10],
    [2, 1],
    [23, 22],
    [31, 30],
    [1, 0],
    [3, 3],
    [13, 12],
    [4, 4],
    [9, 9],
    [14, 13],
    [18, 18],
    [5, 5],
    [8, 7],
    [28, 28],
    [31, 31],
    [28, 27],
    [20, 19],
    [21, 20],
    [1, 1],
];

/// Where lane `i` is stored: the indices of its `[even, odd]` words among the 50.
pub(crate) const WORDS: [[u8; 2]; 25] = [
    [5, 45],
    [6, 46],
    [7, 47],
    [8, 48],
    [9, 49],
    [0, 30],
    [1, 31],
    [2, 32],
    [3, 33],
    [4, 34],
    [10, 25],
    [11, 26],
    [12, 27],
    [13, 28],
    [14, 29],
    [20, 40],
    [21, 41],
    [22, 42],
    [23, 43],
    [24, 44],
    [15, 35],
    [16, 36],
    [17, 37],
    [18, 38],
    [19, 39],
];

/// Gathers the even bits of `x` in the low half and the odd bits in the high half.
#[inline(always)]
const fn unshuffle(mut x: u32) -> u32 {
    let mut t = (x ^ (x >> 1)) & 0x2222_2222;
    x ^= t ^ (t << 1);
    t = (x ^ (x >> 2)) & 0x0c0c_0c0c;
    x ^= t ^ (t << 2);
    t = (x ^ (x >> 4)) & 0x00f0_00f0;
    x ^= t ^ (t << 4);
    t = (x ^ (x >> 8)) & 0x0000_ff00;
    x ^ t ^ (t << 8)
}

/// The inverse of [`unshuffle`].
#[inline(always)]
const fn shuffle(mut x: u32) -> u32 {
    let mut t = (x ^ (x >> 8)) & 0x0000_ff00;
    x ^= t ^ (t << 8);
    t = (x ^ (x >> 4)) & 0x00f0_00f0;
    x ^= t ^ (t << 4);
    t = (x ^ (x >> 2)) & 0x0c0c_0c0c;
    x ^= t ^ (t << 2);
    t = (x ^ (x >> 1)) & 0x2222_2222;
    x ^ t ^ (t << 1)
}

/// A 64-bit lane as its even and odd bits, `[even, odd]`.
#[inline(always)]
const fn interleave(x: u64) -> [u32; 2] {
    let lo = unshuffle(x as u32);
    let hi = unshuffle((x >> 32) as u32);
    [(lo & 0xffff) | (hi << 16), (lo >> 16) | (hi & 0xffff_0000)]
}

/// The inverse of [`interleave`].
#[inline(always)]
const fn deinterleave(w: [u32; 2]) -> u64 {
    let lo = shuffle((w[0] & 0xffff) | (w[1] << 16));
    let hi = shuffle((w[0] >> 16) | (w[1] & 0xffff_0000));
    lo as u64 | (hi as u64) << 32
}

/// Lane `i` of the state in the stored form of the permutation, `[even, odd]`.
#[inline(always)]
fn to_words(x: u64, i: usize) -> [u32; 2] {
    let [e, o] = interleave(x);
    [e.rotate_right(OFFSETS[i][0]), o.rotate_right(OFFSETS[i][1])]
}

/// Lane `i` of the state from the stored form of the permutation.
#[inline(always)]
fn from_words(w: [u32; 2], i: usize) -> u64 {
    deinterleave([
        w[0].rotate_left(OFFSETS[i][0]),
        w[1].rotate_left(OFFSETS[i][1]),
    ])
}

/// The 50 words of a state held as 25 `u64` (word `2k` is the low half of `s[k]` on this
/// little-endian target), as the assembly reads them.
#[inline(always)]
fn words(s: &[u64; 25]) -> &[u32; 50] {
    // SAFETY: `[u32; 50]` has the size of `[u64; 25]`, no stricter alignment, and every bit
    // pattern is a valid value of both; the borrow is shared like `s`.
    unsafe { &*(s as *const [u64; 25]).cast::<[u32; 50]>() }
}

/// [`words`], writable.
#[inline(always)]
fn words_mut(s: &mut [u64; 25]) -> &mut [u32; 50] {
    // SAFETY: as in `words`; the borrow is exclusive like `s`.
    unsafe { &mut *(s as *mut [u64; 25]).cast::<[u32; 50]>() }
}

/// XORs the plain 64-bit lane `x` into lane `i` of a state in the stored form. Not inlined,
/// like the functions below: the conversions would otherwise be copied into every sponge.
#[inline(never)]
pub(crate) fn xor_lane(s: &mut [u64; 25], i: usize, x: u64) {
    let [e, o] = to_words(x, i);
    let w = words_mut(s);
    w[usize::from(WORDS[i][0])] ^= e;
    w[usize::from(WORDS[i][1])] ^= o;
}

/// Lane `i` of a state in the stored form, as a plain 64-bit lane.
#[inline(always)]
fn lane(s: &[u64; 25], i: usize) -> u64 {
    let w = words(s);
    from_words(
        [w[usize::from(WORDS[i][0])], w[usize::from(WORDS[i][1])]],
        i,
    )
}

/// [`lane`], not inlined.
#[inline(never)]
pub(crate) fn read_lane(s: &[u64; 25], i: usize) -> u64 {
    lane(s, i)
}

/// XORs the little-endian lanes of `data` (a multiple of 8 bytes) into the lanes from
/// `first` on of a state in the stored form.
#[inline(never)]
pub(crate) fn xor_lanes(s: &mut [u64; 25], first: usize, data: &[u8]) {
    for (i, b) in data.chunks_exact(8).enumerate() {
        let mut le = [0u8; 8];
        le.copy_from_slice(b);
        let [e, o] = to_words(u64::from_le_bytes(le), first + i);
        let w = words_mut(s);
        w[usize::from(WORDS[first + i][0])] ^= e;
        w[usize::from(WORDS[first + i][1])] ^= o;
    }
}

/// Writes the lanes from `first` on of a state in the stored form to `out` (a multiple of 8
/// bytes), little-endian.
#[inline(never)]
pub(crate) fn read_lanes(s: &[u64; 25], first: usize, out: &mut [u8]) {
    for (i, o) in out.chunks_exact_mut(8).enumerate() {
        o.copy_from_slice(&lane(s, first + i).to_le_bytes());
    }
}

/// The round constants, interleaved (lane 0 is stored unrotated).
static RC_WORDS: [[u32; 2]; 24] = {
    let mut rc = [[0u32; 2]; 24];
    let mut r = 0;
    while r < 24 {
        rc[r] = interleave(KECCAK_RC[r]);
        r += 1;
    }
    rc
};

/// Keccak-f\[1600\] on a state in the stored form ([`xor_lane`], [`read_lane`]).
#[inline(always)]
pub(crate) fn permute_lanes(s: &mut [u64; 25]) {
    // SAFETY: `s` is 200 readable and writable bytes (50 aligned words) and `RC_WORDS` 48
    // readable words, as `rounds` needs; the target runs Thumb-2 (`vecrypt_arm_thumb2`).
    unsafe { rounds(s.as_mut_ptr().cast(), RC_WORDS.as_ptr().cast()) }
}

/// The 24 rounds of Keccak-f\[1600\] on the stored form.
///
/// The frame (260 bytes): the copy of the state at `sp`, the ten `D` words at `sp + 200`,
/// the round's constant pair at `sp + 240`, then the next constant pair's address, the end
/// of the constants and `state` (at `sp + 256`). One round text, `keccak_round src,
/// to_stack`, serves both directions: `keccak_round r8, 1` goes from `state` (read through
/// `r8`) to the copy, storing each half-row through `keccak_store`, and `keccak_round sp,
/// 0` back; one pass of the loop runs both. The copy, `D` and the constants are zeroed
/// before returning (the state may be secret).
///
/// # Safety
///
/// `state` must point to 50 readable and writable `u32`, `rc` to the 48 words of
/// [`RC_WORDS`]; the CPU must run Thumb-2 (ARMv7-M or later).
#[unsafe(naked)]
unsafe extern "C" fn rounds(state: *mut u32, rc: *const u32) {
    core::arch::naked_asm!(
        ".macro keccak_store to_stack, offset",
        ".if \\to_stack",
        "    add r0, sp, #\\offset",
        "    stm r0, {{r3, r4, r5, r6, r7}}",
        ".else",
        "    stm r8!, {{r3, r4, r5, r6, r7}}",
        ".endif",
        ".endm",
        ".macro keccak_round src, to_stack",
        ".if \\to_stack",
        "    ldr lr, [sp, #256]",
        ".else",
        "    add lr, sp, #0",
        ".endif",
        "    ldm lr!, {{r0, r1, r2, r3, r4}}",
        "    ldm lr!, {{r5, r6, r7, r8, r9}}",
        "    eor r0, r5, r0, ror #18",
        "    ror r1, r1, #22",
        "    eor r1, r1, r6, ror #10",
        "    ror r2, r2, #30",
        "    eor r2, r2, r7, ror #10",
        "    ror r3, r3, #9",
        "    eor r3, r3, r8, ror #21",
        "    ror r4, r4, #1",
        "    eor r4, r4, r9, ror #25",
        "    ldm lr!, {{r5, r6, r7, r8, r9}}",
        "    eor r0, r0, r5, ror #31",
        "    eor r1, r1, r6, ror #29",
        "    eor r2, r2, r7, ror #19",
        "    eor r3, r3, r8, ror #28",
        "    eor r4, r4, r9, ror #23",
        "    ldm lr!, {{r5, r6, r7, r8, r9}}",
        "    eor r0, r0, r5, ror #1",
        "    eor r1, r1, r6, ror #4",
        "    eor r2, r2, r7, ror #12",
        "    eor r3, r3, r8, ror #11",
        "    eor r4, r4, r9, ror #31",
        "    ldm lr!, {{r5, r6, r7, r8, r9}}",
        "    eor r0, r0, r5, ror #18",
        "    eor r1, r1, r6, ror #14",
        "    eor r2, r2, r7, ror #27",
        "    eor r3, r3, r8, ror #24",
        "    eor r4, r4, r9, ror #4",
        "    ldm lr!, {{r5, r6, r7, r8, r9}}",
        "    ldm lr!, {{r10, r11, r12}}",
        "    eor r5, r5, r10, ror #18",
        "    ror r6, r6, #29",
        "    eor r6, r6, r11, ror #22",
        "    ror r7, r7, #20",
        "    eor r7, r7, r12, ror #31",
        "    ldm lr!, {{r10, r11}}",
        "    ror r8, r8, #28",
        "    eor r8, r8, r10, ror #10",
        "    ror r9, r9, #23",
        "    eor r9, r9, r11, ror #2",
        "    ldm lr!, {{r10, r11, r12}}",
        "    eor r5, r5, r10, ror #1",
        "    eor r6, r6, r11, ror #5",
        "    eor r7, r7, r12, ror #13",
        "    ldm lr!, {{r10, r11}}",
        "    eor r8, r8, r10, ror #12",
        "    eor r9, r9, r11, ror #31",
        "    ldm lr!, {{r10, r11, r12}}",
        "    eor r5, r5, r10, ror #19",
        "    eor r6, r6, r11, ror #14",
        "    eor r7, r7, r12, ror #27",
        "    ldm lr!, {{r10, r11}}",
        "    eor r8, r8, r10, ror #25",
        "    eor r9, r9, r11, ror #4",
        "    ldm lr!, {{r10, r11, r12}}",
        "    eor r5, r5, r10",
        "    eor r6, r6, r11, ror #10",
        "    eor r7, r7, r12, ror #11",
        "    ldm lr!, {{r10, r11}}",
        "    eor r8, r8, r10, ror #22",
        "    eor r9, r9, r11, ror #25",
        "    eor r10, r4, r6, ror #31",
        "    eor r11, r9, r1",
        "    strd r10, r11, [sp, #200]",
        "    eor r12, r0, r7, ror #31",
        "    eor lr, r5, r2",
        "    strd r12, lr, [sp, #208]",
        "    eor r1, r1, r8, ror #31",
        "    eor r6, r6, r3",
        "    strd r1, r6, [sp, #216]",
        "    eor r9, r2, r9, ror #31",
        "    eor r2, r7, r4",
        "    strd r9, r2, [sp, #224]",
        "    eor r7, r3, r5, ror #31",
        "    eor r4, r8, r0",
        "    strd r7, r4, [sp, #232]",
        "    ldr r0, [sp, #248]",
        "    ldrd r3, r5, [r0], #8",
        "    str r0, [sp, #248]",
        "    strd r3, r5, [sp, #240]",
        "    ldr r8, [sp, #256]",
        "    ldr r0, [\\src, #32]",
        "    eor r0, r9, r0, ror #21",
        "    ldr r9, [sp, #232]",
        "    ldr r1, [\\src, #16]",
        "    eor r1, r9, r1, ror #1",
        "    ldr r2, [\\src, #100]",
        "    eor r2, r11, r2",
        "    ldr r3, [\\src, #164]",
        "    eor r3, lr, r3, ror #14",
        "    ldr r11, [sp, #220]",
        "    ldr r4, [\\src, #148]",
        "    eor r4, r11, r4, ror #13",
        "    bic r5, r4, r3, ror #8",
        "    eor r5, r2, r5, ror #3",
        "    bic r6, r0, r4, ror #15",
        "    eor r6, r3, r6, ror #9",
        "    bic r7, r1, r0, ror #28",
        "    eor r7, r4, r7, ror #21",
        "    bic r4, r3, r2, ror #21",
        "    eor r4, r1, r4, ror #19",
        "    bic r3, r2, r1, ror #24",
        "    eor r3, r0, r3, ror #12",
        "    keccak_store \\to_stack, 0",
        "    ldr r0, [\\src, #20]",
        "    eor r0, r10, r0",
        "    ldr r1, [\\src, #4]",
        "    eor r1, r12, r1, ror #22",
        "    ldr r2, [\\src, #108]",
        "    eor r2, r11, r2, ror #20",
        "    ldr r11, [sp, #228]",
        "    ldr r3, [\\src, #172]",
        "    eor r3, r11, r3, ror #25",
        "    ldr r4, [\\src, #76]",
        "    eor r4, r9, r4, ror #31",
        "    bic r5, r4, r3, ror #28",
        "    eor r5, r2, r5, ror #15",
        "    bic r6, r0, r4, ror #25",
        "    eor r6, r3, r6, ror #11",
        "    bic r7, r1, r0, ror #22",
        "    eor r7, r4, r7, ror #17",
        "    bic r4, r3, r2, ror #21",
        "    eor r4, r1, r4, ror #11",
        "    bic r3, r2, r1",
        "    eor r3, r0, r3, ror #10",
        "    ldr r12, [sp, #240]",
        "    eor r3, r3, r12",
        "    keccak_store \\to_stack, 20",
        "    ldr r0, [\\src, #184]",
        "    eor r0, lr, r0, ror #10",
        "    ldr r12, [sp, #216]",
        "    ldr r1, [\\src, #8]",
        "    eor r1, r12, r1, ror #30",
        "    ldr r2, [\\src, #112]",
        "    eor r2, r11, r2, ror #28",
        "    ldr r3, [\\src, #96]",
        "    eor r3, r9, r3, ror #4",
        "    ldr r4, [\\src, #60]",
        "    eor r4, r10, r4, ror #1",
        "    bic r5, r4, r3, ror #5",
        "    eor r5, r2, r5, ror #4",
        "    bic r6, r0, r4, ror #24",
        "    eor r6, r3, r6, ror #3",
        "    bic r7, r1, r0, ror #2",
        "    eor r7, r4, r7, ror #6",
        "    bic r4, r3, r2, ror #23",
        "    eor r4, r1, r4, ror #31",
        "    bic r3, r2, r1, ror #10",
        "    eor r3, r0, r3, ror #20",
        "    keccak_store \\to_stack, 40",
        "    ldr r0, [\\src, #28]",
        "    eor r0, r12, r0, ror #10",
        "    ldr r1, [\\src, #132]",
        "    eor r1, r11, r1, ror #10",
        "    ldr lr, [sp, #236]",
        "    ldr r2, [\\src, #116]",
        "    eor r2, lr, r2, ror #23",
        "    ldr r9, [sp, #204]",
        "    ldr r3, [\\src, #160]",
        "    eor r3, r9, r3, ror #19",
        "    ldr r12, [sp, #208]",
        "    ldr r4, [\\src, #64]",
        "    eor r4, r12, r4, ror #4",
        "    bic r5, r4, r3, ror #12",
        "    eor r5, r2, r5, ror #19",
        "    bic r6, r0, r4, ror #30",
        "    eor r6, r3, r6, ror #22",
        "    bic r7, r1, r0, ror #29",
        "    eor r7, r4, r7, ror #5",
        "    bic r4, r3, r2, ror #1",
        "    eor r4, r1, r4, ror #7",
        "    bic r3, r2, r1, ror #24",
        "    eor r3, r0, r3, ror #11",
        "    keccak_store \\to_stack, 60",
        "    ldr r0, [\\src, #196]",
        "    eor r0, lr, r0, ror #25",
        "    ldr r1, [\\src, #0]",
        "    eor r1, r10, r1, ror #18",
        "    ldr r2, [\\src, #44]",
        "    eor r2, r12, r2, ror #29",
        "    ldr r10, [sp, #220]",
        "    ldr r3, [\\src, #168]",
        "    eor r3, r10, r3, ror #27",
        "    ldr r11, [sp, #224]",
        "    ldr r4, [\\src, #72]",
        "    eor r4, r11, r4, ror #11",
        "    bic r5, r4, r3, ror #20",
        "    eor r5, r2, r5, ror #9",
        "    bic r6, r0, r4, ror #18",
        "    eor r6, r3, r6, ror #26",
        "    bic r7, r1, r0, ror #4",
        "    eor r7, r4, r7, ror #10",
        "    bic r4, r3, r2, ror #3",
        "    eor r4, r1, r4, ror #10",
        "    bic r3, r2, r1, ror #19",
        "    eor r3, r0, r3, ror #9",
        "    keccak_store \\to_stack, 80",
        "    ldr r0, [\\src, #24]",
        "    eor r0, r12, r0, ror #10",
        "    ldr r1, [\\src, #128]",
        "    eor r1, r10, r1, ror #31",
        "    ldr r2, [\\src, #52]",
        "    eor r2, r11, r2, ror #28",
        "    ldr r3, [\\src, #176]",
        "    eor r3, lr, r3, ror #4",
        "    ldr r4, [\\src, #140]",
        "    eor r4, r9, r4, ror #1",
        "    bic r5, r4, r3, ror #5",
        "    eor r5, r2, r5, ror #3",
        "    bic r6, r0, r4, ror #23",
        "    eor r6, r3, r6, ror #4",
        "    bic r7, r1, r0, ror #3",
        "    eor r7, r4, r7, ror #6",
        "    bic r4, r3, r2, ror #24",
        "    eor r4, r1, r4, ror #31",
        "    bic r3, r2, r1, ror #9",
        "    eor r3, r0, r3, ror #20",
        "    keccak_store \\to_stack, 100",
        "    ldr r9, [sp, #228]",
        "    ldr r0, [\\src, #192]",
        "    eor r0, r9, r0, ror #22",
        "    ldr r1, [\\src, #136]",
        "    eor r1, lr, r1, ror #2",
        "    ldr lr, [sp, #200]",
        "    ldr r2, [\\src, #40]",
        "    eor r2, lr, r2, ror #31",
        "    ldr r3, [\\src, #84]",
        "    eor r3, r12, r3, ror #14",
        "    ldr r12, [sp, #216]",
        "    ldr r4, [\\src, #68]",
        "    eor r4, r12, r4, ror #12",
        "    bic r5, r4, r3, ror #8",
        "    eor r5, r2, r5, ror #3",
        "    bic r6, r0, r4, ror #16",
        "    eor r6, r3, r6, ror #8",
        "    bic r7, r1, r0, ror #28",
        "    eor r7, r4, r7, ror #20",
        "    bic r4, r3, r2, ror #21",
        "    eor r4, r1, r4, ror #20",
        "    bic r3, r2, r1, ror #23",
        "    eor r3, r0, r3, ror #13",
        "    keccak_store \\to_stack, 120",
        "    ldr r0, [\\src, #188]",
        "    eor r0, r10, r0, ror #11",
        "    ldr r1, [\\src, #12]",
        "    eor r1, r11, r1, ror #9",
        "    ldr r10, [sp, #232]",
        "    ldr r2, [\\src, #56]",
        "    eor r2, r10, r2, ror #23",
        "    ldr r3, [\\src, #80]",
        "    eor r3, lr, r3, ror #18",
        "    ldr lr, [sp, #212]",
        "    ldr r4, [\\src, #144]",
        "    eor r4, lr, r4, ror #5",
        "    bic r5, r4, r3, ror #13",
        "    eor r5, r2, r5, ror #18",
        "    bic r6, r0, r4, ror #30",
        "    eor r6, r3, r6, ror #21",
        "    bic r7, r1, r0, ror #28",
        "    eor r7, r4, r7, ror #6",
        "    bic r4, r3, r2, ror #1",
        "    eor r4, r1, r4, ror #7",
        "    bic r3, r2, r1, ror #24",
        "    eor r3, r0, r3, ror #12",
        "    keccak_store \\to_stack, 140",
        "    ldr r0, [\\src, #36]",
        "    eor r0, r10, r0, ror #25",
        "    ldr r10, [sp, #204]",
        "    ldr r1, [\\src, #120]",
        "    eor r1, r10, r1, ror #18",
        "    ldr r2, [\\src, #104]",
        "    eor r2, lr, r2, ror #29",
        "    ldr r3, [\\src, #88]",
        "    eor r3, r12, r3, ror #27",
        "    ldr r4, [\\src, #152]",
        "    eor r4, r9, r4, ror #12",
        "    bic r5, r4, r3, ror #21",
        "    eor r5, r2, r5, ror #9",
        "    bic r6, r0, r4, ror #17",
        "    eor r6, r3, r6, ror #26",
        "    bic r7, r1, r0, ror #5",
        "    eor r7, r4, r7, ror #10",
        "    bic r4, r3, r2, ror #2",
        "    eor r4, r1, r4, ror #11",
        "    bic r3, r2, r1, ror #19",
        "    eor r3, r0, r3, ror #8",
        "    keccak_store \\to_stack, 160",
        "    ldr r0, [\\src, #180]",
        "    eor r0, r10, r0",
        "    ldr r1, [\\src, #124]",
        "    eor r1, lr, r1, ror #22",
        "    ldr r2, [\\src, #48]",
        "    eor r2, r12, r2, ror #19",
        "    ldr r3, [\\src, #92]",
        "    eor r3, r11, r3, ror #24",
        "    ldr r9, [sp, #236]",
        "    ldr r4, [\\src, #156]",
        "    eor r4, r9, r4, ror #31",
        "    bic r5, r4, r3, ror #29",
        "    eor r5, r2, r5, ror #14",
        "    bic r6, r0, r4, ror #25",
        "    eor r6, r3, r6, ror #10",
        "    bic r7, r1, r0, ror #22",
        "    eor r7, r4, r7, ror #17",
        "    bic r4, r3, r2, ror #21",
        "    eor r4, r1, r4, ror #12",
        "    bic r3, r2, r1, ror #31",
        "    eor r3, r0, r3, ror #11",
        "    ldr r9, [sp, #244]",
        "    eor r3, r3, r9",
        "    keccak_store \\to_stack, 180",
        ".endm",
        "push {{r4-r11, lr}}",
        "sub sp, sp, #260",
        "str r0, [sp, #256]",
        "str r1, [sp, #248]",
        "add r1, r1, #192",
        "str r1, [sp, #252]",
        "2:",
        "keccak_round r8, 1",
        "keccak_round sp, 0",
        "ldr r0, [sp, #248]",
        "ldr r1, [sp, #252]",
        "cmp r0, r1",
        "bne 2b",
        "movs r1, #0",
        "movs r2, #0",
        "movs r3, #0",
        "movs r4, #0",
        "movs r5, #0",
        "movs r6, #0",
        "movs r7, #0",
        "movs r8, #0",
        "movs r9, #0",
        "movs r10, #0",
        "mov lr, sp",
        "stm lr!, {{r1-r10}}",
        "stm lr!, {{r1-r10}}",
        "stm lr!, {{r1-r10}}",
        "stm lr!, {{r1-r10}}",
        "stm lr!, {{r1-r10}}",
        "stm lr!, {{r1-r10}}",
        "stm lr!, {{r1-r5}}",
        "add sp, sp, #260",
        "pop {{r4-r11, pc}}",
        ".purgem keccak_store",
        ".purgem keccak_round",
    )
}
