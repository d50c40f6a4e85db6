//! VAES on 512-bit registers, four blocks each: the width's primitives, then the kernels of
//! `vaes_blocks`, `vaes_gcm` and `vaes_xts` expanded over them, and [`gcm_message`], GCM of
//! a whole message in one call.
//!
//! Four registers are kept in flight to cover VAESENC's latency; ECB, with nothing to do
//! between the rounds, takes sixteen registers (64 blocks) a step. Per 512 bytes with
//! AES-128, ECB is 80 AES rounds; CTR adds eight counter additions, eight byte reversals and
//! sixteen XORs, which issue beside the rounds, so both are bound by the AES units. GCM adds
//! 25 carry-less multiplications (one reduction per two batches): on a core with two 512-bit
//! AES units they, not the rounds, are the bound; on a core with one unit the rounds still
//! are. `vecrypt speed --bounds` replays each loop's instructions without dependencies and
//! prints how close the kernel comes to that bound on the CPU it runs on.
//!
//! GCM picks its kernel by length, here and only here ([`gcm_message`]): messages of at most
//! [`short_text_limit`] bytes (by core class, from `crate::cpu::tuning`; with at most one
//! register of associated data) take
//! [`gcm_short_kernel`] with four, eight or twelve registers of counters, the fewest that
//! cover the text; longer ones [`gcm_message_kernel`], the one-pass loop of `vaes_gcm` with
//! the associated data, the tail, the length block and the tag mask inside the same call.
//! The short kernel's AES rounds and its one GHASH reduction are latency-bound, so its time
//! hardly grows with the length within its registers, but each register it has costs time;
//! on one AES unit the twelve-register form's rounds queue, hence the lower limit there.
//! Past 768 bytes the short kernel would need more powers of H than the table holds with a
//! full register of associated data. The measurements behind these limits are in
//! `docs/perf/aes.md`.

use core::arch::x86_64::*;

use super::vaes_blocks::{REVERSE, vaes_blocks};
use super::vaes_gcm::{POLY, vaes_gcm};
use super::vaes_xts::vaes_xts;
use crate::aes::common::{CounterWidth, RoundKeys};
use crate::aes::rounds::by_rounds;
use crate::cpu::kernel;
use crate::ghash::{KARATSUBA, MAX_BATCH, POWERS};

type V = __m512i;
const LANES: usize = 4;
const UNROLL: usize = 4;
/// Registers of blocks per ECB loop step.
const ECB_REGS: usize = 16;
const MAX_REGS: usize = 4;
/// Registers of blocks per XTS loop step: 32 blocks, the tweaks stepping by x^32.
const XTS_REGS: usize = 8;
/// Registers of blocks per GHASH reduction in GCM: 32 blocks.
const GCM_REGS: usize = 8;

#[kernel(AES_VAES512)]
#[inline]
fn ld(bytes: &[u8], off: usize) -> V {
    assert!(bytes.len() >= off + 64);
    // SAFETY: the assertion keeps the 64 bytes read inside `bytes`; no alignment needed.
    unsafe { _mm512_loadu_si512(bytes.as_ptr().add(off).cast()) }
}

#[kernel(AES_VAES512)]
#[inline]
fn st(bytes: &mut [u8], off: usize, v: V) {
    assert!(bytes.len() >= off + 64);
    // SAFETY: the assertion keeps the 64 bytes written inside `bytes`; no alignment needed.
    unsafe { _mm512_storeu_si512(bytes.as_mut_ptr().add(off).cast(), v) }
}

/// The whole blocks of `bytes` from `off` on, at most a register's worth, the lanes past
/// them zero.
#[kernel(AES_VAES512)]
#[inline]
fn ld_upto(bytes: &[u8], off: usize) -> V {
    let off = off.min(bytes.len());
    let blocks = ((bytes.len() - off) / 16).min(LANES);
    let mask = ((1u16 << (2 * blocks)) - 1) as __mmask8;
    // SAFETY: `off` is at most the length; the mask enables the 64-bit words of the
    // `blocks` whole blocks after it, all inside `bytes`, and masked-off words are not read.
    unsafe { _mm512_maskz_loadu_epi64(mask, bytes.as_ptr().add(off).cast()) }
}

/// Stores the lanes of `v` over the whole blocks of `bytes` from `off` on, at most a
/// register's worth; the lanes past them are dropped.
#[kernel(AES_VAES512)]
#[inline]
fn st_upto(bytes: &mut [u8], off: usize, v: V) {
    let off = off.min(bytes.len());
    let blocks = ((bytes.len() - off) / 16).min(LANES);
    let mask = ((1u16 << (2 * blocks)) - 1) as __mmask8;
    // SAFETY: `off` is at most the length; the mask enables the 64-bit words of the
    // `blocks` whole blocks after it, all inside `bytes`, and masked-off words are not
    // written.
    unsafe { _mm512_mask_storeu_epi64(bytes.as_mut_ptr().add(off).cast(), mask, v) }
}

#[kernel(AES_VAES512)]
#[inline]
fn xmm_load(bytes: &[u8], i: usize) -> __m128i {
    assert!(bytes.len() >= 16 * (i + 1));
    // SAFETY: the assertion keeps the 16 bytes read inside `bytes`; no alignment needed.
    unsafe { _mm_loadu_si128(bytes.as_ptr().add(16 * i).cast()) }
}

#[kernel(AES_VAES512)]
#[inline]
fn xmm_store(bytes: &mut [u8], i: usize, v: __m128i) {
    assert!(bytes.len() >= 16 * (i + 1));
    // SAFETY: the assertion keeps the 16 bytes written inside `bytes`; no alignment needed.
    unsafe { _mm_storeu_si128(bytes.as_mut_ptr().add(16 * i).cast(), v) }
}

#[kernel(AES_VAES512)]
#[inline]
fn bcast(block: &[u8; 16]) -> V {
    splat(xmm_load(block, 0))
}

/// `x` in every lane.
#[kernel(AES_VAES512)]
#[inline]
fn splat(x: __m128i) -> V {
    _mm512_broadcast_i32x4(x)
}

#[kernel(AES_VAES512)]
#[inline]
fn gather(b: [__m128i; LANES]) -> V {
    let v = _mm512_castsi128_si512(b[0]);
    let v = _mm512_inserti32x4::<1>(v, b[1]);
    let v = _mm512_inserti32x4::<2>(v, b[2]);
    _mm512_inserti32x4::<3>(v, b[3])
}

#[kernel(AES_VAES512)]
#[inline]
fn scatter(v: V) -> [__m128i; LANES] {
    [
        _mm512_castsi512_si128(v),
        _mm512_extracti32x4_epi32::<1>(v),
        _mm512_extracti32x4_epi32::<2>(v),
        _mm512_extracti32x4_epi32::<3>(v),
    ]
}

/// `[prev.lane3, cur.lane0, cur.lane1, cur.lane2]`: each block's predecessor.
#[kernel(AES_VAES512)]
#[inline]
fn shift_in(cur: V, prev: V) -> V {
    _mm512_alignr_epi64::<6>(cur, prev)
}

#[kernel(AES_VAES512)]
#[inline]
fn xor(a: V, b: V) -> V {
    _mm512_xor_si512(a, b)
}

/// Nothing: with 32 zmm registers the compiler keeps the AES rounds of a step's
/// registers in step by itself (see the ymm module's `in_step`).
#[kernel(AES_VAES512)]
#[inline]
fn in_step<const N: usize>(_: &mut [V; N]) {}

#[kernel(AES_VAES512)]
#[inline]
fn enc(a: V, k: V) -> V {
    _mm512_aesenc_epi128(a, k)
}

#[kernel(AES_VAES512)]
#[inline]
fn enclast(a: V, k: V) -> V {
    _mm512_aesenclast_epi128(a, k)
}

#[kernel(AES_VAES512)]
#[inline]
fn dec(a: V, k: V) -> V {
    _mm512_aesdec_epi128(a, k)
}

#[kernel(AES_VAES512)]
#[inline]
fn declast(a: V, k: V) -> V {
    _mm512_aesdeclast_epi128(a, k)
}

#[kernel(AES_VAES512)]
#[inline]
fn shuf(a: V, m: V) -> V {
    _mm512_shuffle_epi8(a, m)
}

#[kernel(AES_VAES512)]
#[inline]
fn add32(a: V, b: V) -> V {
    _mm512_add_epi32(a, b)
}

#[kernel(AES_VAES512)]
#[inline]
fn add64(a: V, b: V) -> V {
    _mm512_add_epi64(a, b)
}

#[kernel(AES_VAES512)]
#[inline]
fn zero() -> V {
    _mm512_setzero_si512()
}

#[kernel(AES_VAES512)]
#[inline]
fn zext(x: __m128i) -> V {
    _mm512_zextsi128_si512(x)
}

#[kernel(AES_VAES512)]
#[inline]
fn clmul<const IMM: i32>(a: V, b: V) -> V {
    _mm512_clmulepi64_epi128::<IMM>(a, b)
}

#[kernel(AES_VAES512)]
#[inline]
fn xor3(a: V, b: V, c: V) -> V {
    _mm512_ternarylogic_epi64::<0x96>(a, b, c)
}

/// The low 64-bit halves of each lane of `a` and `b`: `[a.lo, b.lo]` per lane.
#[kernel(AES_VAES512)]
#[inline]
fn unpack_lo(a: V, b: V) -> V {
    _mm512_unpacklo_epi64(a, b)
}

/// The high 64-bit halves of each lane of `a` and `b`: `[a.hi, b.hi]` per lane.
#[kernel(AES_VAES512)]
#[inline]
fn unpack_hi(a: V, b: V) -> V {
    _mm512_unpackhi_epi64(a, b)
}

/// XOR of the four lanes.
#[kernel(AES_VAES512)]
#[inline]
fn fold(v: V) -> __m128i {
    let half = _mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64::<1>(v));
    _mm_xor_si128(
        _mm256_castsi256_si128(half),
        _mm256_extracti128_si256::<1>(half),
    )
}

#[kernel(AES_VAES512)]
#[inline]
fn lane_shl8(v: V) -> V {
    _mm512_bslli_epi128::<8>(v)
}

#[kernel(AES_VAES512)]
#[inline]
fn lane_shr8(v: V) -> V {
    _mm512_bsrli_epi128::<8>(v)
}

#[kernel(AES_VAES512)]
#[inline]
fn swap_halves(v: V) -> V {
    _mm512_shuffle_epi32::<78>(v)
}

/// The type of the shift counts of this width's shift intrinsics.
type Shift = u32;

/// Every lane times x^K in XTS's field (`C = 64 - K`, K at most 56): each 128-bit lane
/// shifted left by K bits, the K bits shifted out multiplied by the polynomial 0x87 (a
/// product below 2^64) and folded back into the low half.
#[kernel(AES_VAES512)]
#[inline]
fn times_x_pow<const K: Shift, const C: Shift>(v: V) -> V {
    let carry = _mm512_srli_epi64::<C>(v);
    let poly = _mm512_set1_epi64(0x87);
    let reduced = _mm512_clmulepi64_epi128::<0x01>(carry, poly);
    xor(
        xor(_mm512_slli_epi64::<K>(v), _mm512_bslli_epi128::<8>(carry)),
        reduced,
    )
}

/// Lane `j` holds `t * x^j` in XTS's field: per-lane shifts by `j`, the bits shifted out
/// folded back as in [`times_x_pow`].
#[kernel(AES_VAES512)]
#[inline]
fn first_tweaks(t: __m128i) -> V {
    let v = _mm512_broadcast_i32x4(t);
    let carry = _mm512_srlv_epi64(v, _mm512_set_epi64(61, 61, 62, 62, 63, 63, 64, 64));
    let reduced = _mm512_clmulepi64_epi128::<0x01>(carry, _mm512_set1_epi64(0x87));
    xor(
        xor(
            _mm512_sllv_epi64(v, _mm512_set_epi64(3, 3, 2, 2, 1, 1, 0, 0)),
            _mm512_bslli_epi128::<8>(carry),
        ),
        reduced,
    )
}

/// Every lane times x^32 in XTS's field, the step of the XTS loop: the lane's 32-bit words
/// rotated up by one brings its top word round to the bottom (times 1); the top word times
/// 0x86, by one carry-less multiplication, completes its fold by the polynomial 0x87.
/// Four operations. The top word reaches the multiplication by a 64-bit shift
/// (`BYTE_SHIFT = false`) or a byte shift of the lane (`true`): cores with two 512-bit AES
/// units run the first form faster (their byte shifts share the AES units' ports), cores
/// with one the second (they issue 512-bit shifts only on the port of their one AES unit,
/// byte shifts on the shuffle port); [`xts_byte_shift`] picks one per core.
#[kernel(AES_VAES512)]
#[inline]
fn xts_step<const BYTE_SHIFT: bool>(v: V) -> V {
    let rotated = _mm512_shuffle_epi32::<0x93>(v);
    let poly = _mm512_set1_epi64(0x86);
    let reduced = if BYTE_SHIFT {
        _mm512_clmulepi64_epi128::<0x00>(_mm512_bsrli_epi128::<12>(v), poly)
    } else {
        _mm512_clmulepi64_epi128::<0x01>(_mm512_srli_epi64::<32>(v), poly)
    };
    xor(rotated, reduced)
}

/// Whether this core's XTS loop steps its tweaks with the byte-shift form of [`xts_step`]:
/// everywhere but on cores with two 512-bit AES units, where the 64-bit shift is faster.
fn xts_byte_shift() -> bool {
    crate::cpu::tuning().aes_xts_zmm_byte_shift
}

vaes_blocks!(AES_VAES512);
vaes_gcm!(AES_VAES512, zmm_reg);
vaes_xts!(AES_VAES512);

/// Longest text [`gcm_short_kernel`] takes on this core: up to there one call that
/// encrypts every counter block and the tag mask at once and hashes the message with one
/// reduction beats [`gcm_message_kernel`]. Fewer bytes where the core has one 512-bit AES
/// unit, on which the short kernel's twelve registers of AES rounds queue.
fn short_text_limit() -> usize {
    crate::cpu::tuning()
        .aes_gcm_zmm_short_text
        .min(GCM_SHORT_TEXT_MAX)
}

/// Most text [`gcm_short_kernel`] can take: twelve registers.
const GCM_SHORT_TEXT_MAX: usize = 12 * BYTES;

/// Longest associated data [`gcm_short_kernel`] takes, in bytes: one register.
const GCM_SHORT_AAD: usize = BYTES;

/// The byte mask of the bytes of `bytes` from `off` on, at most a register's worth.
#[kernel(AES_VAES512)]
#[inline]
fn bytes_upto(bytes: &[u8], off: usize) -> __mmask64 {
    let n = bytes.len().saturating_sub(off).min(BYTES);
    if n == BYTES { !0 } else { (1u64 << n) - 1 }
}

/// The bytes of `bytes` from `off` on, at most a register's worth, the rest zero.
#[kernel(AES_VAES512)]
#[inline]
fn ld_bytes(bytes: &[u8], off: usize) -> V {
    let mask = bytes_upto(bytes, off);
    let off = off.min(bytes.len());
    // SAFETY: `off` is at most the length; the mask enables only the bytes after it that
    // lie inside `bytes`, and masked-off bytes are not read.
    unsafe { _mm512_maskz_loadu_epi8(mask, bytes.as_ptr().add(off).cast()) }
}

/// Stores the bytes of `v` over those of `bytes` from `off` on, at most a register's
/// worth; returns `v` with the bytes past the end zeroed.
#[kernel(AES_VAES512)]
#[inline]
fn st_bytes(bytes: &mut [u8], off: usize, v: V) -> V {
    let mask = bytes_upto(bytes, off);
    let off = off.min(bytes.len());
    // SAFETY: `off` is at most the length; the mask enables only the bytes after it that
    // lie inside `bytes`, and masked-off bytes are not written.
    unsafe { _mm512_mask_storeu_epi8(bytes.as_mut_ptr().add(off).cast(), mask, v) }
    _mm512_maskz_mov_epi8(mask, v)
}

/// The tag mask E(J0) on one block, its rounds independent of everything else in the call.
#[kernel(AES_VAES512)]
#[inline]
fn tag_mask<const NR: usize>(keys: &[[u8; 16]; 15], j0: &[u8; 16]) -> __m128i {
    let mut mask = _mm_xor_si128(xmm_load(j0, 0), xmm_load(&keys[0], 0));
    for key in &keys[1..NR] {
        mask = _mm_aesenc_si128(mask, xmm_load(key, 0));
    }
    _mm_aesenclast_si128(mask, xmm_load(&keys[NR], 0))
}

/// The tag from the unreduced GHASH sums of a message: its length block (with `state`, the
/// state not yet added to any block, or zero) times H^1, the reduction, and the mask E(J0).
#[kernel(AES_VAES512)]
#[inline]
fn tag_of(
    mut sums: [V; 3],
    state: V,
    aad_len: usize,
    text_len: usize,
    table: &[u8],
    mask: __m128i,
) -> [u8; 16] {
    let bits = |n: usize| (8 * n as u64) as i64;
    let lengths = zext(_mm_set_epi64x(bits(aad_len), bits(text_len)));
    ghash_multiply(xor(lengths, state), table, 16 * (MAX_BATCH - 1), &mut sums);
    let s = ghash_reduce(&sums);
    let mut tag = [0u8; 16];
    xmm_store(
        &mut tag,
        0,
        _mm_xor_si128(_mm_shuffle_epi8(s, xmm_load(&REVERSE, 0)), mask),
    );
    tag
}

/// GCM of a whole message of at most `REGS` registers of text (at most
/// [`GCM_SHORT_TEXT_MAX`] bytes) with at most [`GCM_SHORT_AAD`] bytes of associated data,
/// returning the full tag. Every counter block of the `REGS` registers (whatever the
/// length within them: the rounds are latency-bound here, so the unused lanes cost no time)
/// and the tag mask E(J0) go through AES together; the associated data, the text and the
/// length block are multiplied by their powers of H and reduced once. Data is loaded and
/// stored under byte masks.
#[kernel(AES_VAES512)]
fn gcm_short_kernel<const NR: usize, const DECRYPT: bool, const REGS: usize>(
    keys: &[[u8; 16]; 15],
    powers: &[[u8; 16]; POWERS],
    j0: &[u8; 16],
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; 16] {
    const {
        assert!(REGS * BYTES <= GCM_SHORT_TEXT_MAX);
        // Associated data, text and the length block within the powers of H.
        assert!((GCM_SHORT_AAD + GCM_SHORT_TEXT_MAX) / 16 < MAX_BATCH);
    };
    let k = round_keys(keys);
    let rev = bcast(&core::hint::black_box(REVERSE));
    let table = powers.as_flattened();
    let base = add32(shuf(bcast(j0), rev), lane_counts(1));
    let mut ks: [V; REGS] =
        core::array::from_fn(|u| shuf(add32(base, lane_counts_flat((u * LANES) as u64)), rev));
    let mask = tag_mask::<NR>(keys, j0);
    encrypt_n::<NR, REGS>(&k, &mut ks);
    // Block `i` of the hashed message (associated data, text, lengths) is multiplied by
    // H^(total - i), read at `first + 16 i` bytes into the table.
    let aad_blocks = aad.len().div_ceil(16);
    let total = aad_blocks + buf.len().div_ceil(16) + 1;
    let first = 16 * (MAX_BATCH - total);
    let mut sums = [zero(); 3];
    if !aad.is_empty() {
        ghash_multiply(shuf(ld_bytes(aad, 0), rev), table, first, &mut sums);
    }
    for (u, key) in ks.iter().enumerate() {
        let off = u * BYTES;
        if off >= buf.len() {
            break;
        }
        let input = ld_bytes(buf, off);
        let out = st_bytes(buf, off, xor(input, *key));
        let c = if DECRYPT { input } else { out };
        let p = first + 16 * (aad_blocks + u * LANES);
        ghash_multiply(shuf(c, rev), table, p, &mut sums);
    }
    tag_of(sums, zero(), aad.len(), buf.len(), table, mask)
}

/// GCM of a whole message of any length, returning the full tag: the associated data hashed
/// a batch (32 blocks) per reduction, the text's whole batches by the one-pass loop of
/// `vaes_gcm` ([`gcm_batches`]), then one reduction for what is left: the last batch that
/// loop encrypted (when sealing), the text after the whole batches, its last block
/// zero-padded under byte masks, and the length block. The tag mask E(J0) runs beside the
/// first batch. Against the one-pass kernel with the tail, the length block and the mask
/// done by the caller, this saves a reduction and three calls per message.
#[kernel(AES_VAES512)]
fn gcm_message_kernel<const NR: usize, const DECRYPT: bool>(
    keys: &[[u8; 16]; 15],
    powers: &[[u8; 16]; POWERS],
    j0: &[u8; 16],
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; 16] {
    const BATCH_BYTES: usize = GCM_REGS * BYTES;
    const BATCH: usize = GCM_REGS * LANES;
    let rev = bcast(&core::hint::black_box(REVERSE));
    let table = powers.as_flattened();
    let mut g = gcm_keys(keys, rev);
    let mask = tag_mask::<NR>(keys, j0);
    let mut s = _mm_setzero_si128();
    for chunk in aad.chunks(BATCH_BYTES) {
        let regs = chunk.len().div_ceil(BYTES);
        let data: [V; GCM_REGS] = core::array::from_fn(|u| ld_bytes(chunk, u * BYTES));
        let first = 16 * (MAX_BATCH - chunk.len().div_ceil(16));
        s = ghash_regs(s, &data[..regs], table, first, rev);
    }
    // The text's first counter block: J0 plus one.
    let mut counter = *j0;
    crate::aes::advance(CounterWidth::Low32, &mut counter, 1);
    let mut run = gcm_start(&counter, &g);
    let text_len = buf.len();
    let (whole, rest) = buf.split_at_mut(text_len / BATCH_BYTES * BATCH_BYTES);
    let (reduced, mut pending) = gcm_batches::<NR, DECRYPT>(&g, table, &mut run, s, whole);
    s = reduced;
    let rest_len = rest.len();
    let rest_blocks = rest_len.div_ceil(16);
    // What is left, the state added to its first block: the pending batch, the rest and
    // the length block, in one reduction when the powers reach that far.
    if pending && BATCH + rest_blocks + 1 > MAX_BATCH {
        s = ghash_regs(s, &run.previous, table, 16 * (MAX_BATCH - BATCH), rev);
        pending = false;
    }
    let done = if pending { BATCH } else { 0 };
    let first = 16 * (MAX_BATCH - (done + rest_blocks + 1));
    let mut sums = [zero(); 3];
    let mut state = zext(s);
    if pending {
        for (u, c) in run.previous.iter().enumerate() {
            ghash_multiply(
                xor(shuf(*c, rev), state),
                table,
                first + u * BYTES,
                &mut sums,
            );
            state = zero();
        }
    }
    let step_one = lane_counts_flat(LANES as u64);
    for u in 0..rest_len.div_ceil(BYTES) {
        let mut ks = [shuf(run.base, rev)];
        encrypt_n::<NR, 1>(&g.k, &mut ks);
        let input = ld_bytes(rest, u * BYTES);
        let out = st_bytes(rest, u * BYTES, xor(ks[0], input));
        let c = if DECRYPT { input } else { out };
        let off = first + 16 * (done + u * LANES);
        ghash_multiply(xor(shuf(c, rev), state), table, off, &mut sums);
        state = zero();
        run.base = add32(run.base, step_one);
    }
    wipe_gcm::<NR>(&mut g, &mut run);
    tag_of(sums, state, aad.len(), text_len, table, mask)
}

/// GCM of a whole message in one call: [`gcm_short_kernel`] up to [`short_text_limit`] bytes
/// of text and [`GCM_SHORT_AAD`] of associated data, else [`gcm_message_kernel`]; the full
/// tag.
#[kernel(AES_VAES512)]
pub(super) fn gcm_message(
    rk: &RoundKeys,
    powers: &[[u8; 16]; POWERS],
    decrypt: bool,
    j0: &[u8; 16],
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; 16] {
    if decrypt {
        whole_message::<true>(rk, powers, j0, aad, buf)
    } else {
        whole_message::<false>(rk, powers, j0, aad, buf)
    }
}

/// [`gcm_message`] in one direction: the short kernel with as few registers of counters as
/// cover the text (four for up to 256 bytes, eight or twelve; every register it has costs
/// time, used or not), else the whole-message kernel.
#[kernel(AES_VAES512)]
fn whole_message<const DECRYPT: bool>(
    rk: &RoundKeys,
    powers: &[[u8; 16]; POWERS],
    j0: &[u8; 16],
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; 16] {
    let short = buf.len() <= short_text_limit() && aad.len() <= GCM_SHORT_AAD;
    let keys = &rk.enc;
    match (short, buf.len().div_ceil(4 * BYTES)) {
        (true, 0 | 1) => by_rounds!(
            rk.rounds,
            gcm_short_kernel::<DECRYPT, 4>(keys, powers, j0, aad, buf)
        ),
        (true, 2) => by_rounds!(
            rk.rounds,
            gcm_short_kernel::<DECRYPT, 8>(keys, powers, j0, aad, buf)
        ),
        (true, _) => by_rounds!(
            rk.rounds,
            gcm_short_kernel::<DECRYPT, 12>(keys, powers, j0, aad, buf)
        ),
        (false, _) => by_rounds!(
            rk.rounds,
            gcm_message_kernel::<DECRYPT>(keys, powers, j0, aad, buf)
        ),
    }
}

#[cfg(test)]
mod tests {
    use crate::Backend;
    use crate::aes::{AesGcm, AesXts, K128, K256, KeySize};
    use crate::cpu::tuning::{ONE_ZMM_AES_UNIT, TWO_ZMM_AES_UNITS, Tuning, forced};

    fn xts_agree<K: KeySize>(key: &[u8]) {
        let soft = AesXts::<K>::with_backend(key, Backend::Soft).unwrap();
        let vaes = AesXts::<K>::with_backend(key, Backend::Vaes512).unwrap();
        let data: Vec<u8> = (0..2200u32).map(|i| (i * 77 + 3) as u8).collect();
        for len in [
            16usize, 17, 64, 100, 511, 512, 513, 1024, 1040, 2048, 2067, 2200,
        ] {
            for sector in [0u128, 1, u128::MAX - 3] {
                let mut want = data[..len].to_vec();
                let mut got = want.clone();
                soft.encrypt_sector(sector, &mut want).unwrap();
                vaes.encrypt_sector(sector, &mut got).unwrap();
                assert_eq!(got, want, "len {len}, sector {sector}");
                vaes.decrypt_sector(sector, &mut got).unwrap();
                assert_eq!(got, data[..len], "len {len}, sector {sector}");
            }
        }
    }

    /// Both forms of the XTS tweak step, whichever this core takes, encrypt and decrypt as
    /// the portable backend does.
    #[test]
    fn both_xts_step_forms_equal_portable() {
        if !crate::cpu::kernels::AES_VAES512.runs() {
            return;
        }
        for byte_shift in [false, true] {
            let t = Tuning {
                aes_xts_zmm_byte_shift: byte_shift,
                ..ONE_ZMM_AES_UNIT
            };
            forced(t, || {
                let key: Vec<u8> = (0..64u8).map(|i| i.wrapping_mul(37) ^ 0x5c).collect();
                xts_agree::<K128>(&key[..32]);
                xts_agree::<K256>(&key);
            });
        }
    }

    fn agree<K: KeySize>(key: &[u8]) {
        let soft = AesGcm::<K>::with_backend(key, Backend::Soft).unwrap();
        let vaes = AesGcm::<K>::with_backend(key, Backend::Vaes512).unwrap();
        let nonce = [0x5au8; 12];
        let data: Vec<u8> = (0..1100u32).map(|i| (i * 131 + 7) as u8).collect();
        for len in [
            0usize, 1, 16, 63, 64, 65, 255, 256, 257, 300, 511, 512, 513, 600, 767, 768, 769, 1000,
        ] {
            for aad_len in [0usize, 13, 64, 65] {
                let aad = &data[1100 - aad_len..];
                let mut want = data[..len].to_vec();
                let mut got = want.clone();
                let want_tag = soft.encrypt_detached(&nonce, aad, &mut want).unwrap();
                let got_tag = vaes.encrypt_detached(&nonce, aad, &mut got).unwrap();
                assert_eq!(
                    (got_tag, &got),
                    (want_tag, &want),
                    "len {len}, aad {aad_len}"
                );
                vaes.decrypt_detached(&nonce, aad, &mut got, &want_tag)
                    .unwrap();
                assert_eq!(got, data[..len], "len {len}, aad {aad_len}");
                let mut bad = want_tag;
                bad[15] ^= 1;
                assert!(vaes.decrypt_detached(&nonce, aad, &mut want, &bad).is_err());
            }
        }
    }

    /// Every kernel choice by length (the short kernel with four, eight and twelve
    /// registers, the whole-message kernel), whichever limit this core picks, seals and
    /// opens as the portable backend does.
    #[test]
    fn every_length_choice_equals_portable() {
        if !crate::cpu::kernels::AES_VAES512.runs() {
            return;
        }
        let none = Tuning {
            aes_gcm_zmm_short_text: 0,
            ..ONE_ZMM_AES_UNIT
        };
        for t in [none, ONE_ZMM_AES_UNIT, TWO_ZMM_AES_UNITS] {
            forced(t, || {
                agree::<K128>(&[0x11; 16]);
                agree::<K256>(&[0x22; 32]);
            });
        }
    }
}
