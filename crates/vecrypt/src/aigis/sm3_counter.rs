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

/// The 64 rounds of SM3 from chaining value `v` over the message words `w`, with the
/// message schedule kept as a rolling window of 16 words (overwriting `w`) instead of the
/// 132 words of the textbook form; the caller XORs the result into `v`.
#[inline(always)]
fn sm3_rounds(v: [u32; 8], w: &mut [u32; 16]) -> [u32; 8] {
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = v;
    for j in 0..64 {
        // Slot (j + 4) mod 16 holds W[j - 12] and becomes W[j + 4], which needs it.
        let next = j + 4;
        if next >= 16 {
            let at = |i: usize| w[i % 16];
            w[next % 16] = sm3_p1(at(next - 16) ^ at(next - 9) ^ at(next - 3).rotate_left(15))
                ^ at(next - 13).rotate_left(7)
                ^ at(next - 6);
        }
        let wj = w[j % 16];
        let wj4 = w[next % 16];
        let t: u32 = if j < 16 { 0x79cc_4519 } else { 0x7a87_9d8a };
        let a12 = a.rotate_left(12);
        let ss1 = a12
            .wrapping_add(e)
            .wrapping_add(t.rotate_left((j % 32) as u32))
            .rotate_left(7);
        let ss2 = ss1 ^ a12;
        let (ff, gg) = if j < 16 {
            (a ^ b ^ c, e ^ f ^ g)
        } else {
            ((a & b) | (a & c) | (b & c), (e & f) | (!e & g))
        };
        let tt1 = ff.wrapping_add(d).wrapping_add(ss2).wrapping_add(wj ^ wj4);
        let tt2 = gg.wrapping_add(h).wrapping_add(ss1).wrapping_add(wj);
        d = c;
        c = b.rotate_left(9);
        b = a;
        a = tt1;
        h = g;
        g = f.rotate_left(19);
        f = e;
        e = sm3_p0(tt2);
    }
    [a, b, c, d, e, f, g, h]
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
