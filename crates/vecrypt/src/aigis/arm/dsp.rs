//! The NTT, the inverse NTT and the pointwise products on the Cortex-M4's DSP instructions.
//!
//! A polynomial is read as 128 words of two signed 16-bit coefficients (the even one in
//! the low half). A butterfly of two words multiplies both halves by the twiddle (SMULBB,
//! SMULTB), reduces both products with a signed Montgomery step (SMULBB by -q^-1, SMLABT by
//! q, both constants in one register: the result sits in the top half), packs them (PKHTB)
//! and adds and subtracts two coefficients at once (SADD16, SSUB16). The last forward layer
//! and the first inverse one pair coefficients of the same word, and exchange the halves
//! with SASX. Each pass over the polynomial does two layers (four words loaded, four
//! butterflies, four stored), with the twiddles of a pass's second layer two per register.
//!
//! The products reduce their 32-bit sums with one rounded high multiply by 2^32 / q
//! (SMMULR) and a multiply-subtract, instead of two Montgomery steps.
//!
//! Reductions are lazy: a Montgomery product is below 0.76q, so the forward transform
//! grows by less than 0.76q a layer and needs a Barrett reduction only after its fourth and
//! its eighth layer; the inverse one reduces the sums of every second layer and folds the
//! division by 256 into its last layer. Outputs are the portable code's values modulo q,
//! each of absolute value below q (the representatives may differ; every consumer reduces).

use super::ntt::{INV_N_MONT, ZETAS, centered, pow_mod};
use super::params::{N, Q};
use super::poly::Poly;
use super::reduce::QINV;

/// -q^-1 mod 2^16 in the bottom half and q in the top half: one register for both
/// constants of a Montgomery reduction.
const MONT: u32 = ((QINV as i32).wrapping_neg() as u32 & 0xffff) | (Q as u32) << 16;
/// round(2^26 / q) and the rounding term of Barrett reduction (as in `reduce`).
const BARRETT_V: u32 = 8737;
const BARRETT_ROUND: u32 = 1 << 25;

/// The twiddles negated, for the layers that pair the two halves of a word.
const NEG_ZETAS: [i16; N] = {
    let mut z = [0i16; N];
    let mut k = 0;
    while k < N {
        z[k] = -ZETAS[k];
        k += 1;
    }
    z
};

/// Twiddles two by two, `[2 i]` in the bottom half and `[2 i + 1]` in the top half: one
/// load for the two groups of a layer that a pass handles together.
const fn pairs(z: &[i16; N]) -> [u32; N / 2] {
    let mut p = [0u32; N / 2];
    let mut i = 0;
    while i < N / 2 {
        p[i] = z[2 * i] as u16 as u32 | (z[2 * i + 1] as u16 as u32) << 16;
        i += 1;
    }
    p
}

/// [`ZETAS`] in pairs.
const ZETA_PAIRS: [u32; N / 2] = pairs(&ZETAS);
/// [`NEG_ZETAS`] in pairs.
const NEG_ZETA_PAIRS: [u32; N / 2] = pairs(&NEG_ZETAS);

/// 2^-16 mod q.
const R_INV: i64 = pow_mod(65536, Q as u32 - 2);

/// The last inverse layer's twiddle times the division by 256, so that one Montgomery
/// product applies both: `ZETAS[1]` * INV_N_MONT * 2^-16 mod q.
const LAST_ZETA_SCALED: i16 =
    centered(ZETAS[1] as i64 * INV_N_MONT as i64 % Q as i64 * R_INV % Q as i64);

/// A 16-bit constant in the bottom half of a register operand.
#[inline(always)]
const fn low(x: i16) -> u32 {
    x as u16 as u32
}

macro_rules! dsp2 {
    ($(#[$doc:meta] $name:ident = $insn:literal;)*) => {$(
        #[$doc]
        #[inline(always)]
        fn $name(a: u32, b: u32) -> u32 {
            let r: u32;
            // SAFETY: one DSP instruction of ARMv7E-M (which every build of this module
            // targets) on registers only: no memory, no stack, no flags read.
            unsafe {
                core::arch::asm!(
                    concat!($insn, " {r}, {a}, {b}"),
                    r = lateout(reg) r,
                    a = in(reg) a,
                    b = in(reg) b,
                    options(pure, nomem, nostack),
                );
            }
            r
        }
    )*};
}

macro_rules! dsp3 {
    ($(#[$doc:meta] $name:ident = $insn:literal;)*) => {$(
        #[$doc]
        #[inline(always)]
        fn $name(a: u32, b: u32, c: u32) -> u32 {
            let r: u32;
            // SAFETY: one DSP instruction of ARMv7E-M (which every build of this module
            // targets) on registers only: no memory, no stack, no flags read.
            unsafe {
                core::arch::asm!(
                    concat!($insn, " {r}, {a}, {b}, {c}"),
                    r = lateout(reg) r,
                    a = in(reg) a,
                    b = in(reg) b,
                    c = in(reg) c,
                    options(pure, nomem, nostack),
                );
            }
            r
        }
    )*};
}

dsp2! {
    /// bottom(a) * bottom(b), signed.
    smulbb = "smulbb";
    /// top(a) * bottom(b), signed.
    smultb = "smultb";
    /// bottom(a) * top(b), signed.
    smulbt = "smulbt";
    /// top(a) * top(b), signed.
    smultt = "smultt";
    /// Halves added, wrapping.
    sadd16 = "sadd16";
    /// Halves subtracted, wrapping.
    ssub16 = "ssub16";
    /// top = top(a) + bottom(b), bottom = bottom(a) - top(b).
    sasx = "sasx";
    /// bottom from a, top from b.
    pkhbt = "pkhbt";
    /// The high word of the 64-bit signed product, rounded.
    smmulr = "smmulr";
}

dsp3! {
    /// bottom(a) * bottom(b) + c.
    smlabb = "smlabb";
    /// bottom(a) * top(b) + c.
    smlabt = "smlabt";
    /// top(a) * bottom(b) + c.
    smlatb = "smlatb";
    /// top(a) * top(b) + c.
    smlatt = "smlatt";
}

/// top from a, bottom from the top of b.
#[inline(always)]
fn pkhtb16(a: u32, b: u32) -> u32 {
    let r: u32;
    // SAFETY: one DSP instruction of ARMv7E-M on registers only.
    unsafe {
        core::arch::asm!(
            "pkhtb {r}, {a}, {b}, asr #16",
            r = lateout(reg) r,
            a = in(reg) a,
            b = in(reg) b,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    r
}

/// bottom from a, top from the bottom of b.
#[inline(always)]
fn pkhbt16(a: u32, b: u32) -> u32 {
    let r: u32;
    // SAFETY: one DSP instruction of ARMv7E-M on registers only.
    unsafe {
        core::arch::asm!(
            "pkhbt {r}, {a}, {b}, lsl #16",
            r = lateout(reg) r,
            a = in(reg) a,
            b = in(reg) b,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    r
}

/// round(2^32 / q).
const ROUND_INV_Q: u32 = (((1u64 << 32) + Q as u64 / 2) / Q as u64) as u32;

/// A 32-bit sum of products (|p| < 2^28) modulo q, of absolute value below q: p minus q
/// times round(p / q), the quotient from one rounded high multiply (its error is far
/// below one half for such p).
#[inline(always)]
fn reduce32(p: u32) -> u32 {
    let h = smmulr(p, ROUND_INV_Q) as i32;
    (p as i32).wrapping_sub(h.wrapping_mul(Q as i32)) as u32
}

/// Montgomery reduction of a 32-bit product p (|p| < q * 2^15): p * 2^-16 mod q, of
/// absolute value below q, in the top half (the bottom half is zero).
#[inline(always)]
fn mont(p: u32) -> u32 {
    smlabt(smulbb(p, MONT), MONT, p)
}

/// Both halves of `x` times the bottom half of `z`, Montgomery-reduced, packed.
#[inline(always)]
fn mont_pair(x: u32, z: u32) -> u32 {
    pkhtb16(mont(smultb(x, z)), mont(smulbb(x, z)))
}

/// Both halves of `x` times the top half of `z`, Montgomery-reduced, packed.
#[inline(always)]
fn mont_pair_top(x: u32, z: u32) -> u32 {
    pkhtb16(mont(smultt(x, z)), mont(smulbt(x, z)))
}

/// Barrett reduction of both halves (any 16-bit values) to [-(q-1)/2, (q-1)/2].
#[inline(always)]
fn barrett_pair(x: u32) -> u32 {
    let tl = (smlabb(x, BARRETT_V, BARRETT_ROUND) as i32) >> 26;
    let th = (smlatb(x, BARRETT_V, BARRETT_ROUND) as i32) >> 26;
    let ml = tl.wrapping_mul(Q as i32) as u32;
    let mh = th.wrapping_mul(Q as i32) as u32;
    ssub16(x, pkhbt16(ml, mh))
}

/// The polynomial as 128 words of two coefficients.
#[inline(always)]
fn words(p: &mut Poly) -> &mut [u32; N / 2] {
    // SAFETY: `Poly` is `repr(C)` over `[i16; 256]` and 64-byte aligned, so its 512 bytes
    // are also 128 aligned u32s, and the borrow of `p` covers the whole view.
    unsafe { &mut *p.0.as_mut_ptr().cast::<[u32; N / 2]>() }
}

/// The coefficients of `p` as words, read only.
#[inline(always)]
fn words_ref(p: &Poly) -> &[u32; N / 2] {
    // SAFETY: as in `words`.
    unsafe { &*p.0.as_ptr().cast::<[u32; N / 2]>() }
}

/// A Cooley-Tukey butterfly of two words: (a + zeta b, a - zeta b) in both halves.
#[inline(always)]
fn ct(a: u32, b: u32, z: u32) -> (u32, u32) {
    let t = mont_pair(b, z);
    (sadd16(a, t), ssub16(a, t))
}

/// [`ct`] with the twiddle in the top half of `z`.
#[inline(always)]
fn ct_top(a: u32, b: u32, z: u32) -> (u32, u32) {
    let t = mont_pair_top(b, z);
    (sadd16(a, t), ssub16(a, t))
}

/// A Gentleman-Sande butterfly of two words: (a + b, zeta (b - a)) in both halves.
#[inline(always)]
fn gs(a: u32, b: u32, z: u32) -> (u32, u32) {
    (sadd16(a, b), mont_pair(ssub16(b, a), z))
}

/// [`gs`] with the twiddle in the top half of `z`.
#[inline(always)]
fn gs_top(a: u32, b: u32, z: u32) -> (u32, u32) {
    (sadd16(a, b), mont_pair_top(ssub16(b, a), z))
}

/// The last forward layer on one word (a, b): with t = zeta b, the word (a, -t) becomes
/// (a + t, a - t) by one SASX. `nz` is the negated twiddle.
#[inline(always)]
fn ct_inside(x: u32, nz: u32) -> u32 {
    let y = pkhbt(x, mont(smultb(x, nz)));
    sasx(y, y)
}

/// [`ct_inside`] with the negated twiddle in the top half of `nz`.
#[inline(always)]
fn ct_inside_top(x: u32, nz: u32) -> u32 {
    let y = pkhbt(x, mont(smultt(x, nz)));
    sasx(y, y)
}

/// The first inverse layer on one word (a, b): SASX gives (a - b, a + b), and (a - b)
/// times the negated twiddle is zeta (b - a).
#[inline(always)]
fn gs_inside(x: u32, nz: u32) -> u32 {
    let s = sasx(x, x);
    pkhtb16(mont(smulbb(s, nz)), s)
}

/// [`gs_inside`] with the negated twiddle in the top half of `nz`.
#[inline(always)]
fn gs_inside_top(x: u32, nz: u32) -> u32 {
    let s = sasx(x, x);
    pkhtb16(mont(smulbt(s, nz)), s)
}

/// Two forward layers at once, at distances `d` and `d / 2` words (`2 d` and `d`
/// coefficients): each step loads four words, applies four butterflies and stores them. With `reduce`, the
/// results are Barrett-reduced.
#[inline(always)]
fn ntt_two_layers(w: &mut [u32; N / 2], d: usize, reduce: bool) {
    // Groups of the first layer (2 d words each).
    let groups = N / 4 / d;
    for (g, block) in w.chunks_exact_mut(2 * d).enumerate() {
        let z1 = low(ZETAS[groups + g]);
        // ZETAS[2 (groups + g)] below, ZETAS[2 (groups + g) + 1] above.
        let z2 = ZETA_PAIRS[groups + g];
        let (left, right) = block.split_at_mut(d);
        let (q0, q1) = left.split_at_mut(d / 2);
        let (q2, q3) = right.split_at_mut(d / 2);
        for (((x0, x1), x2), x3) in q0
            .iter_mut()
            .zip(q1.iter_mut())
            .zip(q2.iter_mut())
            .zip(q3.iter_mut())
        {
            let (a0, a2) = ct(*x0, *x2, z1);
            let (a1, a3) = ct(*x1, *x3, z1);
            let (b0, b1) = ct(a0, a1, z2);
            let (b2, b3) = ct_top(a2, a3, z2);
            if reduce {
                *x0 = barrett_pair(b0);
                *x1 = barrett_pair(b1);
                *x2 = barrett_pair(b2);
                *x3 = barrett_pair(b3);
            } else {
                *x0 = b0;
                *x1 = b1;
                *x2 = b2;
                *x3 = b3;
            }
        }
    }
}

/// Forward NTT (Cooley-Tukey, bit-reversed output); |input| < q, |output| < q.
pub(super) fn ntt(p: &mut Poly) {
    let w = words(p);
    ntt_two_layers(w, 64, false);
    ntt_two_layers(w, 16, true);
    ntt_two_layers(w, 4, false);
    // The layer at distance 2 and the one inside words, on two words at a time.
    for ((pair, &z), &nz) in w
        .chunks_exact_mut(2)
        .zip(ZETAS[64..128].iter())
        .zip(NEG_ZETA_PAIRS[64..].iter())
    {
        let (a, b) = ct(pair[0], pair[1], low(z));
        pair[0] = barrett_pair(ct_inside(a, nz));
        pair[1] = barrett_pair(ct_inside_top(b, nz));
    }
}

/// Two inverse layers at once, at distances `d` and `2 d` words (`2 d` and `4 d`
/// coefficients): with `reduce`, the sums
/// of the second are Barrett-reduced; with `last`, the second is the last layer and
/// applies the division by 256 too.
#[inline(always)]
fn invntt_two_layers(w: &mut [u32; N / 2], d: usize, reduce: bool, last: bool) {
    // Groups of the first layer (2 d words each).
    let groups = N / 4 / d;
    for (h, block) in w.chunks_exact_mut(4 * d).enumerate() {
        // ZETAS[2 groups - 2 - 2 h] (for the second pair of words) below,
        // ZETAS[2 groups - 1 - 2 h] (for the first) above.
        let zab = ZETA_PAIRS[groups - 1 - h];
        let (zc, f) = if last {
            (low(LAST_ZETA_SCALED), low(INV_N_MONT))
        } else {
            (low(ZETAS[groups - 1 - h]), 0)
        };
        let (left, right) = block.split_at_mut(2 * d);
        let (q0, q1) = left.split_at_mut(d);
        let (q2, q3) = right.split_at_mut(d);
        for (((x0, x1), x2), x3) in q0
            .iter_mut()
            .zip(q1.iter_mut())
            .zip(q2.iter_mut())
            .zip(q3.iter_mut())
        {
            let (a0, a1) = gs_top(*x0, *x1, zab);
            let (a2, a3) = gs(*x2, *x3, zab);
            let (b0, b2) = gs(a0, a2, zc);
            let (b1, b3) = gs(a1, a3, zc);
            if last {
                *x0 = mont_pair(b0, f);
                *x1 = mont_pair(b1, f);
            } else if reduce {
                *x0 = barrett_pair(b0);
                *x1 = barrett_pair(b1);
            } else {
                *x0 = b0;
                *x1 = b1;
            }
            *x2 = b2;
            *x3 = b3;
        }
    }
}

/// Inverse NTT (Gentleman-Sande) with the division by 256; |input| < q, |output| < q.
///
/// Sums double at each layer, so they are reduced after every second one; the last layer
/// multiplies its sums by 2^-8 and uses the twiddle premultiplied by 2^-8.
pub(super) fn invntt(p: &mut Poly) {
    let w = words(p);
    // The layer inside words and the one at distance 2, on two words at a time.
    // Word 2 g takes NEG_ZETAS[255 - 2 g] (the top half of pair 127 - g), word 2 g + 1
    // NEG_ZETAS[254 - 2 g] (its bottom half).
    for ((pair, &nz), &z) in w
        .chunks_exact_mut(2)
        .zip(NEG_ZETA_PAIRS.iter().rev())
        .zip(ZETAS[64..128].iter().rev())
    {
        let a = gs_inside_top(pair[0], nz);
        let b = gs_inside(pair[1], nz);
        let (s, t) = gs(a, b, low(z));
        pair[0] = barrett_pair(s);
        pair[1] = t;
    }
    invntt_two_layers(w, 2, true, false);
    invntt_two_layers(w, 8, true, false);
    invntt_two_layers(w, 32, false, true);
}

/// r = sum_i a_i * b_i coefficient-wise, at most four terms, |r| < q.
pub(super) fn mul_acc(r: &mut Poly, a: &[Poly], b: &[Poly]) {
    let out = words(r);
    let terms = a.len().min(b.len());
    for (i, o) in out.iter_mut().enumerate() {
        let (mut lo, mut hi) = (0u32, 0u32);
        for t in 0..terms {
            let (x, y) = (words_ref(&a[t])[i], words_ref(&b[t])[i]);
            lo = smlabb(x, y, lo);
            hi = smlatt(x, y, hi);
        }
        *o = pkhbt16(reduce32(lo), reduce32(hi));
    }
}

/// acc = acc + a * b coefficient-wise, modulo q, |acc| < q on both sides.
pub(super) fn mul_add(acc: &mut Poly, a: &Poly, b: &Poly) {
    let out = words(acc);
    for ((o, &x), &y) in out.iter_mut().zip(words_ref(a)).zip(words_ref(b)) {
        // The accumulator's halves, sign-extended, start the two sums.
        let lo = smlabb(x, y, *o as i16 as i32 as u32);
        let hi = smlatt(x, y, ((*o as i32) >> 16) as u32);
        *o = pkhbt16(reduce32(lo), reduce32(hi));
    }
}
