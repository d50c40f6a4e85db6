//! SM3 in counter mode, portable: one digest of `BE32(counter) ‖ parts...` at a time, the
//! SM3 mode's hashing.

/// One SM3 digest of `BE32(counter) ‖ parts...`. Never inlined: its state then lives in
/// its own frame, only on the SM3 path, not in every caller's frame.
#[inline(never)]
pub fn sm3_counter_block(counter: u32, parts: &[&[u8]]) -> [u8; 32] {
    use sm3::Digest;
    let mut h = sm3::Sm3::new();
    Digest::update(&mut h, counter.to_be_bytes());
    for p in parts {
        Digest::update(&mut h, p);
    }
    h.finalize().into()
}

/// SM3(BE32(counter) ‖ parts) for a message that fits one block (at most 55 bytes), written
/// to `out`: one compression, no streaming state, the message built directly as the 16
/// schedule words. The matrix and noise streams use it; it is never inlined so that its
/// small frame is not part of theirs (the compact mode counts every byte).
#[inline(never)]
pub fn sm3_short_counter_block(counter: u32, parts: &[&[u8]], out: &mut [u8]) {
    let mut w = [0u32; 16];
    w[0] = counter;
    let mut at = 4;
    for p in parts {
        for &b in p.iter() {
            w[at / 4] |= u32::from(b) << (24 - 8 * (at % 4));
            at += 1;
        }
    }
    assert!(at < 56, "one block");
    w[at / 4] |= 0x80 << (24 - 8 * (at % 4));
    w[15] = (at * 8) as u32;
    let v = sm3_rounds(SM3_IV, &mut w);
    for ((o, x), iv) in out.chunks_exact_mut(4).zip(v).zip(SM3_IV) {
        o.copy_from_slice(&(x ^ iv).to_be_bytes());
    }
    crate::wipe::u32s(&mut w);
}

/// The initial chaining value of SM3 (GB/T 32905-2016).
pub(crate) const SM3_IV: [u32; 8] = [
    0x7380_166f,
    0x4914_b2b9,
    0x1724_42d7,
    0xda8a_0600,
    0xa96f_30bc,
    0x1631_38aa,
    0xe38d_ee4d,
    0xb0fb_0e4e,
];

#[inline(always)]
fn sm3_p0(x: u32) -> u32 {
    x ^ x.rotate_left(9) ^ x.rotate_left(17)
}

#[inline(always)]
fn sm3_p1(x: u32) -> u32 {
    x ^ x.rotate_left(15) ^ x.rotate_left(23)
}

/// Rounds 16 `group` to 16 `group` + 15 of an SM3 compression, unrolled: `$round!(j, i,
/// late)` for each, with `i = j mod 16` a literal (the slot of W\[j\] in a rolling window of
/// sixteen message words, so that every index is a constant) and `late` whether the round
/// uses the Boolean functions of rounds 16 to 63. Every SM3 kernel of the library (one
/// lane, eight, sixteen) runs its rounds through it.
macro_rules! sm3_sixteen_rounds {
    ($group:expr, $late:literal, $round:ident) => {
        sm3_sixteen_rounds!(@ $group, $late, $round; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)
    };
    (@ $group:expr, $late:literal, $round:ident; $($i:literal)*) => {
        $($round!(16 * $group + $i, $i, $late);)*
    };
}
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(unused_imports)
)]
pub(crate) use sm3_sixteen_rounds;

/// W\[j + 4\] of the message schedule written over W\[j - 12\] in slot `($i + 4) % 16` of
/// the rolling window `$w`, for round j with `j % 16 == $i`, with the caller's `xor3` and
/// `rotl!` for its register type: the expansion step of the lane kernels.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(unused_macros)
)]
macro_rules! sm3_expand_window {
    ($w:ident, $i:literal) => {{
        let at = |k: usize| $w[($i + k) % 16];
        let x = xor3(at(4), at(11), rotl!(at(1), 15));
        let p1 = xor3(x, rotl!(x, 15), rotl!(x, 23));
        $w[($i + 4) % 16] = xor3(p1, rotl!(at(7), 7), at(14));
    }};
}
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(unused_imports)
)]
pub(crate) use sm3_expand_window;

/// T_j rotated left by j mod 32: the constant round `j` adds (public, read by round number).
pub(crate) const SM3_T: [u32; 64] = {
    let mut t = [0u32; 64];
    let mut j = 0;
    while j < 64 {
        let c: u32 = if j < 16 { 0x79cc_4519 } else { 0x7a87_9d8a };
        t[j] = c.rotate_left((j % 32) as u32);
        j += 1;
    }
    t
};

/// W\[j + 4\] of the message schedule, written over W\[j - 12\] in the rolling window of 16
/// words, for a round `j` with `j % 16 == i` (a constant once the rounds are unrolled, so
/// every index is fixed).
#[inline(always)]
pub(crate) fn sm3_expand(w: &mut [u32; 16], i: usize) {
    let at = |k: usize| w[(i + k) % 16];
    w[(i + 4) % 16] =
        sm3_p1(at(4) ^ at(11) ^ at(1).rotate_left(15)) ^ at(7).rotate_left(7) ^ at(14);
}

/// One round of SM3 with message words W\[j\] and W\[j + 4\] and the round's constant;
/// `LATE` selects the Boolean functions of rounds 16 to 63.
#[inline(always)]
pub(crate) fn sm3_round<const LATE: bool>(s: &mut [u32; 8], wj: u32, wj4: u32, t: u32) {
    let [a, b, c, d, e, f, g, h] = *s;
    let a12 = a.rotate_left(12);
    let ss1 = a12.wrapping_add(e).wrapping_add(t).rotate_left(7);
    let ss2 = ss1 ^ a12;
    let (ff, gg) = if LATE {
        ((a & b) | ((a | b) & c), ((f ^ g) & e) ^ g)
    } else {
        (a ^ b ^ c, e ^ f ^ g)
    };
    let tt1 = ff.wrapping_add(d).wrapping_add(ss2).wrapping_add(wj ^ wj4);
    let tt2 = gg.wrapping_add(h).wrapping_add(ss1).wrapping_add(wj);
    *s = [
        tt1,
        a,
        b.rotate_left(9),
        c,
        sm3_p0(tt2),
        e,
        f.rotate_left(19),
        g,
    ];
}

/// The 64 rounds of SM3 from chaining value `v` over the message words `w`, with the
/// message schedule kept as a rolling window of 16 words (overwriting `w`) instead of the
/// 132 words of the textbook form; the caller XORs the result into `v`. The rounds are
/// unrolled sixteen at a time, so that the window's indices are constants: rounds 0 to 15
/// once, then a loop of three passes over rounds 16 to 63.
#[inline(always)]
fn sm3_rounds(v: [u32; 8], w: &mut [u32; 16]) -> [u32; 8] {
    let mut s = v;
    macro_rules! round {
        ($j:expr, $i:literal, $late:literal) => {{
            let j: usize = $j;
            if j + 4 >= 16 {
                sm3_expand(w, $i);
            }
            sm3_round::<$late>(&mut s, w[$i], w[($i + 4) % 16], SM3_T[j]);
        }};
    }
    sm3_sixteen_rounds!(0, false, round);
    for group in 1..4 {
        sm3_sixteen_rounds!(group, true, round);
    }
    s
}

/// The sixteen big-endian message words of one block.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
pub(crate) fn sm3_words(block: &[u8; 64]) -> [u32; 16] {
    let mut w = [0u32; 16];
    for (x, b) in w.iter_mut().zip(block.chunks_exact(4)) {
        *x = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    }
    w
}

/// One compression: the chaining value `v` absorbs `block`.
#[inline(always)]
pub(crate) fn sm3_compress(v: &mut [u32; 8], block: &[u8; 64]) {
    let mut w = sm3_words(block);
    let s = sm3_rounds(*v, &mut w);
    for (x, y) in v.iter_mut().zip(s) {
        *x ^= y;
    }
    crate::wipe::u32s(&mut w);
}

/// The chaining value after the first block of `BE32(0) ‖ parts...`, when that message
/// fills it (at least 60 bytes of parts): messages that share these first 60 bytes share
/// it, and [`sm3_counter0_resume`] finishes each of them.
pub fn sm3_counter0_first_block(parts: &[&[u8]]) -> Option<[u32; 8]> {
    let mut block = [0u8; 64];
    let mut at = 4;
    for p in parts {
        let n = p.len().min(64 - at);
        block[at..at + n].copy_from_slice(&p[..n]);
        at += n;
    }
    if at < 64 {
        return None;
    }
    let mut v = SM3_IV;
    sm3_compress(&mut v, &block);
    crate::wipe::array(&mut block);
    Some(v)
}

/// SM3(BE32(0) ‖ parts...) given the chaining value `first` of its first block (from
/// [`sm3_counter0_first_block`] on the same first 60 bytes of parts).
pub fn sm3_counter0_resume(first: &[u32; 8], parts: &[&[u8]]) -> [u8; 32] {
    let mut v = *first;
    let mut block = [0u8; 64];
    let mut fill = 0;
    let mut total = 4;
    // The first 60 bytes of parts are in `first`.
    let mut skip = 60;
    for p in parts {
        total += p.len();
        let s = skip.min(p.len());
        skip -= s;
        let mut rest = &p[s..];
        while !rest.is_empty() {
            let n = rest.len().min(64 - fill);
            block[fill..fill + n].copy_from_slice(&rest[..n]);
            fill += n;
            rest = &rest[n..];
            if fill == 64 {
                sm3_compress(&mut v, &block);
                fill = 0;
            }
        }
    }
    block[fill] = 0x80;
    block[fill + 1..].fill(0);
    if fill >= 56 {
        sm3_compress(&mut v, &block);
        block = [0; 64];
    }
    block[56..].copy_from_slice(&((total as u64) * 8).to_be_bytes());
    sm3_compress(&mut v, &block);
    let mut out = [0u8; 32];
    for (o, x) in out.chunks_exact_mut(4).zip(v) {
        o.copy_from_slice(&x.to_be_bytes());
    }
    crate::wipe::array(&mut block);
    crate::wipe::array(&mut v);
    out
}

/// The padded single block of a message of at most 55 bytes given as `BE32(counter) ‖ parts`:
/// the template the multi-lane SM3 kernels fill with their counters.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
#[inline(always)]
pub(crate) fn padded_counter_block(counter: u32, parts: &[&[u8]]) -> [u8; 64] {
    let mut b = [0u8; 64];
    b[..4].copy_from_slice(&counter.to_be_bytes());
    let mut at = 4;
    for p in parts {
        b[at..at + p.len()].copy_from_slice(p);
        at += p.len();
    }
    debug_assert!(at <= 64 - 9);
    b[at] = 0x80;
    b[64 - 8..].copy_from_slice(&((at as u64) * 8).to_be_bytes());
    b
}
