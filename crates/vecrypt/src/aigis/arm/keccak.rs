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
//! every round, so one round text serves all 24; the state enters and leaves in this
//! rotated, interleaved form.
//!
//! **Layout.** Out of place: even rounds read the caller's 50 words and write a copy on the
//! stack, odd rounds the other way, so after 24 rounds the result is back in place. θ loads
//! the lanes as pairs (`LDRD`), keeps the ten parities in registers, and stores the ten `D`
//! words; ρ, π, χ and ι then go plane by plane (one half at a time: five loads, five `EOR`
//! with `D`, five `BIC`+`EOR`, five stores), with six registers caching `D` words (nine
//! reloads a round in the chosen plane order).
//!
//! **Cost** (instructions, which is what the QEMU board counts; `embedded/m4`): 352 a round,
//! 8,448 for the 24 rounds plus a few dozen of entry, exit and loop. The conversion from and
//! to 64-bit lanes ([`to_words`], [`from_words`]) is about 36 instructions a lane.
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

/// Lane `i` in the form the sponge keeps on this target: the two stored words, even in the
/// low half. Linear, so data is XORed into the state after this conversion.
#[inline(always)]
pub(crate) fn lane_in(x: u64, i: usize) -> u64 {
    let [e, o] = to_words(x, i);
    u64::from(e) | u64::from(o) << 32
}

/// The inverse of [`lane_in`].
#[inline(always)]
pub(crate) fn lane_out(x: u64, i: usize) -> u64 {
    from_words([x as u32, (x >> 32) as u32], i)
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

/// Keccak-f\[1600\] on a state whose lanes are in the form of [`lane_in`].
#[inline(always)]
pub(crate) fn permute_lanes(s: &mut [u64; 25]) {
    // SAFETY: `s` is 200 writable bytes, 50 aligned words (lane `i` at words `2i`, `2i + 1`,
    // even half first on this little-endian target), and `RC_WORDS` is 48 readable words, as
    // `rounds` needs; the target runs Thumb-2 (`vecrypt_arm_thumb2`).
    unsafe { rounds(s.as_mut_ptr().cast(), RC_WORDS.as_ptr().cast()) }
}

/// The 24 rounds of Keccak-f\[1600\] on the stored form.
///
/// Registers: `r0` the state, `lr` the next round constant pair; the stack holds the other
/// copy of the state (200 bytes), the ten `D` words and the end of the constants. One
/// macro is one round, from `src` to `dst`; two rounds make one pass of the loop.
///
/// # Safety
///
/// `state` must point to 50 writable `u32`, `rc` to the 48 words of [`RC_WORDS`]; the CPU
/// must run Thumb-2 (ARMv7-M or later).
#[unsafe(naked)]
unsafe extern "C" fn rounds(state: *mut u32, rc: *const u32) {
    core::arch::naked_asm!(
        ".macro keccak_round src, dst",
        "    ldrd r1, r2, [\\src, #0]",
        "    ldrd r11, r12, [\\src, #40]",
        "    eor r1, r1, r11, ror #18",
        "    eor r2, r2, r12, ror #18",
        "    ldrd r11, r12, [\\src, #80]",
        "    eor r1, r1, r11, ror #31",
        "    eor r2, r2, r12",
        "    ldrd r11, r12, [\\src, #120]",
        "    eor r1, r1, r11, ror #18",
        "    eor r2, r2, r12, ror #19",
        "    ldrd r11, r12, [\\src, #160]",
        "    eor r1, r1, r11, ror #1",
        "    eor r2, r2, r12, ror #1",
        "    ldrd r7, r8, [\\src, #8]",
        "    ldrd r11, r12, [\\src, #48]",
        "    ror r7, r7, #10",
        "    eor r7, r7, r11, ror #22",
        "    ror r8, r8, #10",
        "    eor r8, r8, r12, ror #22",
        "    ldrd r11, r12, [\\src, #88]",
        "    eor r7, r7, r11, ror #29",
        "    eor r8, r8, r12, ror #29",
        "    ldrd r11, r12, [\\src, #128]",
        "    eor r7, r7, r11, ror #14",
        "    eor r8, r8, r12, ror #14",
        "    ldrd r11, r12, [\\src, #168]",
        "    eor r7, r7, r11, ror #4",
        "    eor r8, r8, r12, ror #5",
        "    ldrd r9, r10, [\\src, #16]",
        "    ldrd r11, r12, [\\src, #56]",
        "    ror r9, r9, #10",
        "    eor r9, r9, r11, ror #30",
        "    ror r10, r10, #11",
        "    eor r10, r10, r12, ror #31",
        "    ldrd r11, r12, [\\src, #96]",
        "    eor r9, r9, r11, ror #19",
        "    eor r10, r10, r12, ror #20",
        "    ldrd r11, r12, [\\src, #136]",
        "    eor r9, r9, r11, ror #27",
        "    eor r10, r10, r12, ror #27",
        "    ldrd r11, r12, [\\src, #176]",
        "    eor r9, r9, r11, ror #12",
        "    eor r10, r10, r12, ror #13",
        "    ldrd r3, r4, [\\src, #24]",
        "    ldrd r11, r12, [\\src, #64]",
        "    ror r3, r3, #21",
        "    eor r3, r3, r11, ror #9",
        "    ror r4, r4, #22",
        "    eor r4, r4, r12, ror #10",
        "    ldrd r11, r12, [\\src, #104]",
        "    eor r3, r3, r11, ror #28",
        "    eor r4, r4, r12, ror #28",
        "    ldrd r11, r12, [\\src, #144]",
        "    eor r3, r3, r11, ror #24",
        "    eor r4, r4, r12, ror #25",
        "    ldrd r11, r12, [\\src, #184]",
        "    eor r3, r3, r11, ror #11",
        "    eor r4, r4, r12, ror #12",
        "    ldrd r5, r6, [\\src, #32]",
        "    ldrd r11, r12, [\\src, #72]",
        "    ror r5, r5, #25",
        "    eor r5, r5, r11, ror #1",
        "    ror r6, r6, #25",
        "    eor r6, r6, r12, ror #2",
        "    ldrd r11, r12, [\\src, #112]",
        "    eor r5, r5, r11, ror #23",
        "    eor r6, r6, r12, ror #23",
        "    ldrd r11, r12, [\\src, #152]",
        "    eor r5, r5, r11, ror #4",
        "    eor r6, r6, r12, ror #4",
        "    ldrd r11, r12, [\\src, #192]",
        "    eor r5, r5, r11, ror #31",
        "    eor r6, r6, r12, ror #31",
        "    eor r11, r5, r8, ror #31",
        "    eor r12, r6, r7",
        "    strd r11, r12, [sp, #200]",
        "    eor r11, r1, r10, ror #31",
        "    eor r12, r2, r9",
        "    strd r11, r12, [sp, #208]",
        "    eor r7, r7, r4, ror #31",
        "    eor r8, r8, r3",
        "    strd r7, r8, [sp, #216]",
        "    eor r9, r9, r6, ror #31",
        "    eor r10, r10, r5",
        "    strd r9, r10, [sp, #224]",
        "    eor r11, r3, r2, ror #31",
        "    eor r12, r4, r1",
        "    strd r11, r12, [sp, #232]",
        "    ldr r1, [\\src, #32]",
        "    eor r1, r11, r1, ror #25",
        "    ldr r8, [sp, #204]",
        "    ldr r2, [\\src, #44]",
        "    eor r2, r8, r2, ror #18",
        "    ldr r11, [sp, #212]",
        "    ldr r3, [\\src, #92]",
        "    eor r3, r11, r3, ror #29",
        "    ldr r4, [\\src, #136]",
        "    eor r4, r7, r4, ror #27",
        "    ldr r5, [\\src, #188]",
        "    eor r5, r10, r5, ror #12",
        "    bic r6, r1, r5, ror #17",
        "    eor r6, r4, r6, ror #26",
        "    str r6, [\\dst, #148]",
        "    bic r6, r2, r1, ror #5",
        "    eor r6, r5, r6, ror #10",
        "    str r6, [\\dst, #156]",
        "    bic r6, r3, r2, ror #19",
        "    eor r6, r1, r6, ror #8",
        "    str r6, [\\dst, #124]",
        "    bic r6, r4, r3, ror #2",
        "    eor r6, r2, r6, ror #11",
        "    str r6, [\\dst, #132]",
        "    bic r6, r5, r4, ror #21",
        "    eor r6, r3, r6, ror #9",
        "    str r6, [\\dst, #140]",
        "    ldr r1, [\\src, #4]",
        "    eor r1, r8, r1",
        "    ldr r2, [\\src, #52]",
        "    eor r2, r11, r2, ror #22",
        "    ldr r3, [\\src, #96]",
        "    eor r3, r7, r3, ror #19",
        "    ldr r4, [\\src, #144]",
        "    eor r4, r9, r4, ror #24",
        "    ldr r5, [\\src, #196]",
        "    eor r5, r12, r5, ror #31",
        "    bic r6, r1, r5, ror #25",
        "    eor r6, r4, r6, ror #10",
        "    str r6, [\\dst, #28]",
        "    bic r6, r2, r1, ror #22",
        "    eor r6, r5, r6, ror #17",
        "    str r6, [\\dst, #36]",
        "    bic r6, r3, r2, ror #31",
        "    eor r6, r1, r6, ror #11",
        "    ldr r1, [lr, #4]",
        "    eor r6, r6, r1",
        "    str r6, [\\dst, #4]",
        "    bic r6, r4, r3, ror #21",
        "    eor r6, r2, r6, ror #12",
        "    str r6, [\\dst, #12]",
        "    bic r6, r5, r4, ror #29",
        "    eor r6, r3, r6, ror #14",
        "    str r6, [\\dst, #20]",
        "    ldr r1, [\\src, #16]",
        "    eor r1, r7, r1, ror #10",
        "    ldr r2, [\\src, #68]",
        "    eor r2, r10, r2, ror #10",
        "    ldr r3, [\\src, #116]",
        "    eor r3, r12, r3, ror #23",
        "    ldr r4, [\\src, #124]",
        "    eor r4, r8, r4, ror #19",
        "    ldr r8, [sp, #208]",
        "    ldr r5, [\\src, #168]",
        "    eor r5, r8, r5, ror #4",
        "    bic r6, r1, r5, ror #30",
        "    eor r6, r4, r6, ror #22",
        "    str r6, [\\dst, #184]",
        "    bic r6, r2, r1, ror #29",
        "    eor r6, r5, r6, ror #5",
        "    str r6, [\\dst, #192]",
        "    bic r6, r3, r2, ror #24",
        "    eor r6, r1, r6, ror #11",
        "    str r6, [\\dst, #160]",
        "    bic r6, r4, r3, ror #1",
        "    eor r6, r2, r6, ror #7",
        "    str r6, [\\dst, #168]",
        "    bic r6, r5, r4, ror #12",
        "    eor r6, r3, r6, ror #19",
        "    str r6, [\\dst, #176]",
        "    ldr r1, [\\src, #12]",
        "    eor r1, r11, r1, ror #10",
        "    ldr r2, [\\src, #56]",
        "    eor r2, r7, r2, ror #30",
        "    ldr r3, [\\src, #108]",
        "    eor r3, r10, r3, ror #28",
        "    ldr r11, [sp, #232]",
        "    ldr r4, [\\src, #152]",
        "    eor r4, r11, r4, ror #4",
        "    ldr r11, [sp, #200]",
        "    ldr r5, [\\src, #160]",
        "    eor r5, r11, r5, ror #1",
        "    bic r6, r1, r5, ror #24",
        "    eor r6, r4, r6, ror #3",
        "    str r6, [\\dst, #104]",
        "    bic r6, r2, r1, ror #2",
        "    eor r6, r5, r6, ror #6",
        "    str r6, [\\dst, #112]",
        "    bic r6, r3, r2, ror #10",
        "    eor r6, r1, r6, ror #20",
        "    str r6, [\\dst, #80]",
        "    bic r6, r4, r3, ror #23",
        "    eor r6, r2, r6, ror #31",
        "    str r6, [\\dst, #88]",
        "    bic r6, r5, r4, ror #5",
        "    eor r6, r3, r6, ror #4",
        "    str r6, [\\dst, #96]",
        "    ldr r1, [\\src, #28]",
        "    eor r1, r10, r1, ror #22",
        "    ldr r2, [\\src, #76]",
        "    eor r2, r12, r2, ror #2",
        "    ldr r3, [\\src, #80]",
        "    eor r3, r11, r3, ror #31",
        "    ldr r4, [\\src, #128]",
        "    eor r4, r8, r4, ror #14",
        "    ldr r5, [\\src, #176]",
        "    eor r5, r7, r5, ror #12",
        "    bic r6, r1, r5, ror #16",
        "    eor r6, r4, r6, ror #8",
        "    str r6, [\\dst, #68]",
        "    bic r6, r2, r1, ror #28",
        "    eor r6, r5, r6, ror #20",
        "    str r6, [\\dst, #76]",
        "    bic r6, r3, r2, ror #23",
        "    eor r6, r1, r6, ror #13",
        "    str r6, [\\dst, #44]",
        "    bic r6, r4, r3, ror #21",
        "    eor r6, r2, r6, ror #20",
        "    str r6, [\\dst, #52]",
        "    bic r6, r5, r4, ror #8",
        "    eor r6, r3, r6, ror #3",
        "    str r6, [\\dst, #60]",
        "    ldr r1, [\\src, #36]",
        "    eor r1, r12, r1, ror #25",
        "    ldr r2, [\\src, #40]",
        "    eor r2, r11, r2, ror #18",
        "    ldr r3, [\\src, #88]",
        "    eor r3, r8, r3, ror #29",
        "    ldr r7, [sp, #220]",
        "    ldr r4, [\\src, #140]",
        "    eor r4, r7, r4, ror #27",
        "    ldr r5, [\\src, #184]",
        "    eor r5, r9, r5, ror #11",
        "    bic r6, r1, r5, ror #18",
        "    eor r6, r4, r6, ror #26",
        "    str r6, [\\dst, #144]",
        "    bic r6, r2, r1, ror #4",
        "    eor r6, r5, r6, ror #10",
        "    str r6, [\\dst, #152]",
        "    bic r6, r3, r2, ror #19",
        "    eor r6, r1, r6, ror #9",
        "    str r6, [\\dst, #120]",
        "    bic r6, r4, r3, ror #3",
        "    eor r6, r2, r6, ror #10",
        "    str r6, [\\dst, #128]",
        "    bic r6, r5, r4, ror #20",
        "    eor r6, r3, r6, ror #9",
        "    str r6, [\\dst, #136]",
        "    ldr r1, [\\src, #8]",
        "    eor r1, r8, r1, ror #10",
        "    ldr r2, [\\src, #60]",
        "    eor r2, r7, r2, ror #31",
        "    ldr r3, [\\src, #104]",
        "    eor r3, r9, r3, ror #28",
        "    ldr r4, [\\src, #156]",
        "    eor r4, r12, r4, ror #4",
        "    ldr r12, [sp, #204]",
        "    ldr r5, [\\src, #164]",
        "    eor r5, r12, r5, ror #1",
        "    bic r6, r1, r5, ror #23",
        "    eor r6, r4, r6, ror #4",
        "    str r6, [\\dst, #108]",
        "    bic r6, r2, r1, ror #3",
        "    eor r6, r5, r6, ror #6",
        "    str r6, [\\dst, #116]",
        "    bic r6, r3, r2, ror #9",
        "    eor r6, r1, r6, ror #20",
        "    str r6, [\\dst, #84]",
        "    bic r6, r4, r3, ror #24",
        "    eor r6, r2, r6, ror #31",
        "    str r6, [\\dst, #92]",
        "    bic r6, r5, r4, ror #5",
        "    eor r6, r3, r6, ror #3",
        "    str r6, [\\dst, #100]",
        "    ldr r1, [\\src, #0]",
        "    eor r1, r11, r1",
        "    ldr r2, [\\src, #48]",
        "    eor r2, r8, r2, ror #22",
        "    ldr r3, [\\src, #100]",
        "    eor r3, r7, r3, ror #20",
        "    ldr r4, [\\src, #148]",
        "    eor r4, r10, r4, ror #25",
        "    ldr r8, [sp, #232]",
        "    ldr r5, [\\src, #192]",
        "    eor r5, r8, r5, ror #31",
        "    bic r6, r1, r5, ror #25",
        "    eor r6, r4, r6, ror #11",
        "    str r6, [\\dst, #24]",
        "    bic r6, r2, r1, ror #22",
        "    eor r6, r5, r6, ror #17",
        "    str r6, [\\dst, #32]",
        "    bic r6, r3, r2",
        "    eor r6, r1, r6, ror #10",
        "    ldr r1, [lr, #0]",
        "    eor r6, r6, r1",
        "    str r6, [\\dst, #0]",
        "    bic r6, r4, r3, ror #21",
        "    eor r6, r2, r6, ror #11",
        "    str r6, [\\dst, #8]",
        "    bic r6, r5, r4, ror #28",
        "    eor r6, r3, r6, ror #15",
        "    str r6, [\\dst, #16]",
        "    ldr r1, [\\src, #24]",
        "    eor r1, r9, r1, ror #21",
        "    ldr r2, [\\src, #72]",
        "    eor r2, r8, r2, ror #1",
        "    ldr r3, [\\src, #84]",
        "    eor r3, r12, r3",
        "    ldr r10, [sp, #212]",
        "    ldr r4, [\\src, #132]",
        "    eor r4, r10, r4, ror #14",
        "    ldr r5, [\\src, #180]",
        "    eor r5, r7, r5, ror #13",
        "    bic r6, r1, r5, ror #15",
        "    eor r6, r4, r6, ror #9",
        "    str r6, [\\dst, #64]",
        "    bic r6, r2, r1, ror #28",
        "    eor r6, r5, r6, ror #21",
        "    str r6, [\\dst, #72]",
        "    bic r6, r3, r2, ror #24",
        "    eor r6, r1, r6, ror #12",
        "    str r6, [\\dst, #40]",
        "    bic r6, r4, r3, ror #21",
        "    eor r6, r2, r6, ror #19",
        "    str r6, [\\dst, #48]",
        "    bic r6, r5, r4, ror #8",
        "    eor r6, r3, r6, ror #3",
        "    str r6, [\\dst, #56]",
        "    ldr r1, [\\src, #20]",
        "    eor r1, r7, r1, ror #11",
        "    ldr r2, [\\src, #64]",
        "    eor r2, r9, r2, ror #9",
        "    ldr r3, [\\src, #112]",
        "    eor r3, r8, r3, ror #23",
        "    ldr r4, [\\src, #120]",
        "    eor r4, r11, r4, ror #18",
        "    ldr r5, [\\src, #172]",
        "    eor r5, r10, r5, ror #5",
        "    bic r6, r1, r5, ror #30",
        "    eor r6, r4, r6, ror #21",
        "    str r6, [\\dst, #188]",
        "    bic r6, r2, r1, ror #28",
        "    eor r6, r5, r6, ror #6",
        "    str r6, [\\dst, #196]",
        "    bic r6, r3, r2, ror #24",
        "    eor r6, r1, r6, ror #12",
        "    str r6, [\\dst, #164]",
        "    bic r6, r4, r3, ror #1",
        "    eor r6, r2, r6, ror #7",
        "    str r6, [\\dst, #172]",
        "    bic r6, r5, r4, ror #13",
        "    eor r6, r3, r6, ror #18",
        "    str r6, [\\dst, #180]",
        "    add lr, lr, #8",
        ".endm",
        "push {{r4-r11, lr}}",
        "sub sp, sp, #252",
        "add r2, r1, #192",
        "str r2, [sp, #240]",
        "mov lr, r1",
        "2:",
        "keccak_round r0, sp",
        "keccak_round sp, r0",
        "ldr r1, [sp, #240]",
        "cmp lr, r1",
        "bne 2b",
        "add sp, sp, #252",
        "pop {{r4-r11, pc}}",
        ".purgem keccak_round",
    )
}
