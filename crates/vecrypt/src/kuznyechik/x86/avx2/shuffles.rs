//! The sliced batch on AVX2 without GFNI, with the state kept in a changed representation
//! so that π needs no linear map of its own.
//!
//! π is `ω ∘ core ∘ α`, with α and ω linear maps of bytes and `core` the nibble layer of
//! the decomposition in [`mod@super::tables`]. Encryption keeps `α(x)` instead of each byte
//! `x` between the S-boxes; L becomes `α̃ L α̃⁻¹` (α̃ is α on every byte), which is still a
//! ring of R steps whose multiplications by constants are other 8×8 bit maps, one VPSHUFB
//! per nibble as before. The S-box then reads the nibbles of its input directly and ends
//! with `α ∘ ω` of its two output nibbles, two lookups. Decryption does the same with
//! `ω⁻¹`, the map π⁻¹ starts with, and ends its S-box with `ω⁻¹ ∘ α⁻¹`.
//!
//! The round key after L is moved before it as `L⁻¹(K)` and folded into the lookup of the
//! high output nibble, one table per round and byte position, so encryption has no key XOR
//! inside the rounds. Products of nibbles are sums of logarithms, as in the plain kernel;
//! the lookups that follow a logarithm read tables indexed by it, so no exponential is
//! looked up on its own.
//!
//! Per register (32 blocks, one byte each) and round, π takes 16 instructions (and the
//! split of the byte into nibbles, 3) instead of 33, and π⁻¹ 15 instead of 31.
//!
//! The bound: a round of the batch compiles to about 1660 instructions, of which 352
//! VPSHUFB and some 670 memory operands (the fourteen product tables, the S-box tables and
//! the state do not fit sixteen registers, so tables are reloaded where they are used).
//! `llvm-mca -mcpu=znver3` on the compiled round puts it at 336 cycles, bound by the two
//! load ports with the four vector pipes close behind (about 300 to 330 cycles of work
//! each): some 94 cycles a block for nine rounds. Fewer loads alone would gain little; the
//! vector operations themselves (7 products of two lookups per R step) are the floor of
//! this representation (figures in `docs/perf/kuznyechik.md`).
//!
//! CTR: 32 consecutive counters whose last byte does not wrap share their first fifteen
//! bytes. Their S-boxes and their share of L in the first round are the same for every
//! counter with the same first fifteen bytes, so they are computed once per 256 counters
//! (one sliced round in which every lane holds the same block), and each batch adds the
//! last byte's S-box and its column of L.

use core::arch::x86_64::*;

use super::batch::{
    Pad, counter_blocks, for_each_batch, load, r_inv_step, r_step, store, xor_into, xor_into_part,
};
use super::tables::{
    ALPHA, BATCH, EXP, LANES, LOG, NU0, NU1, OMEGA, PHI, SIGMA, State, Tables, after_exp,
    broadcast16, invert16, invert256, map16, mod15, neg_log_of, nibble_map, tables, xor,
};
use crate::kuznyechik::RoundKeys;
use crate::kuznyechik::consts::{ELL, gf_mul, l_const};

/// The two nibble tables of a linear map of bytes: `f(x) = low[x & 15] ^ high[x >> 4]`.
type Nibbles = [[u8; 16]; 2];

const fn nibbles_of(f: &[u8; 256]) -> Nibbles {
    let mut t = [[0u8; 16]; 2];
    let mut i = 0;
    while i < 16 {
        t[0][i] = f[i];
        t[1][i] = f[i << 4];
        i += 1;
    }
    t
}

/// `outer ∘ inner` as a table.
const fn compose(outer: &[u8; 256], inner: &[u8; 256]) -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut x = 0;
    while x < 256 {
        t[x] = outer[inner[x] as usize];
        x += 1;
    }
    t
}

/// Multiplication by `c` seen through the representation `rep`: `rep(c · rep⁻¹(x))`.
const fn conjugated(rep: &[u8; 256], rep_inv: &[u8; 256], c: u8) -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut x = 0;
    while x < 256 {
        t[x] = rep[gf_mul(rep_inv[x], c) as usize];
        x += 1;
    }
    t
}

/// The seven coefficients of ℓ the R steps multiply by, in the order of
/// [`super::tables::COEFFICIENTS`], as nibble tables in a representation.
const fn ring_products(rep: &[u8; 256], rep_inv: &[u8; 256]) -> [Nibbles; 7] {
    let coefficients = [ELL[0], ELL[1], ELL[2], ELL[3], ELL[4], ELL[5], ELL[7]];
    let mut t = [[[0u8; 16]; 2]; 7];
    let mut c = 0;
    while c < 7 {
        t[c] = nibbles_of(&conjugated(rep, rep_inv, coefficients[c]));
        c += 1;
    }
    t
}

const ALPHA_INV: [u8; 256] = invert256(&ALPHA);
const OMEGA_INV: [u8; 256] = invert256(&OMEGA);
/// What the forward S-box adds after its lookups: `α(ω(l' ‖ r'))`.
const ALPHA_OMEGA: [u8; 256] = compose(&ALPHA, &OMEGA);
/// What the inverse S-box adds after its lookups: `ω⁻¹(α⁻¹(l ‖ r))`.
const OMEGA_INV_ALPHA_INV: [u8; 256] = compose(&OMEGA_INV, &ALPHA_INV);

/// ν1(0): the forward kernel carries l' XORed with it (see [`FORWARD_NIBBLES`]).
const NU1_OF_ZERO: u8 = NU1[0];

/// The nibble tables of the forward S-box, in the order [`substitute`] reads them:
/// log, log of the inverse, ν1 after an exponential (XOR ν1(0)), ν0 (XOR ν1(0)),
/// log φ of l' (given XOR ν1(0)), and `αω(σ(exp d)) ^ αω(σ(0))`.
const FORWARD_NIBBLES: [[u8; 16]; 6] = {
    let identity = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
    let mut nu0 = [0u8; 16];
    let mut log_phi = [0u8; 16];
    let mut sigma = [0u8; 16];
    let sigma_of_zero = ALPHA_OMEGA[SIGMA[0] as usize];
    let mut n = 0;
    while n < 16 {
        nu0[n] = NU0[n] ^ NU1_OF_ZERO;
        log_phi[n] = LOG[PHI[n ^ NU1_OF_ZERO as usize] as usize];
        if n < 15 {
            sigma[n] = ALPHA_OMEGA[SIGMA[EXP[n] as usize] as usize] ^ sigma_of_zero;
        }
        n += 1;
    }
    [
        LOG,
        neg_log_of(&identity),
        after_exp(&NU1),
        nu0,
        log_phi,
        sigma,
    ]
};

/// The high-nibble table of the forward S-box before a round's key is added:
/// `αω((l ^ ν1(0)) << 4) ^ αω(σ(0))`, the last term standing in for a zero product.
const FORWARD_HIGH: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut n = 0;
    while n < 16 {
        t[n] = ALPHA_OMEGA[(n ^ NU1_OF_ZERO as usize) << 4] ^ ALPHA_OMEGA[SIGMA[0] as usize];
        n += 1;
    }
    t
};

/// The nibble tables of the inverse S-box, in the order [`substitute_inverse`] reads them:
/// log σ⁻¹, minus log φ, log ν1⁻¹, then `γ(exp d << 4)`, `γ(ν0⁻¹(l') << 4)` and `γ(exp d)`,
/// γ = ω⁻¹ ∘ α⁻¹.
const INVERSE_NIBBLES: [[u8; 16]; 6] = {
    let nu0_inv = invert16(&NU0);
    let mut exp_high = [0u8; 16];
    let mut nu0_high = [0u8; 16];
    let mut exp_low = [0u8; 16];
    let mut n = 0;
    while n < 16 {
        if n < 15 {
            exp_high[n] = OMEGA_INV_ALPHA_INV[(EXP[n] as usize) << 4];
            exp_low[n] = OMEGA_INV_ALPHA_INV[EXP[n] as usize];
        }
        nu0_high[n] = OMEGA_INV_ALPHA_INV[(nu0_inv[n] as usize) << 4];
        n += 1;
    }
    [
        map16(&LOG, &invert16(&SIGMA)),
        neg_log_of(&PHI),
        map16(&LOG, &invert16(&NU1)),
        exp_high,
        nu0_high,
        exp_low,
    ]
};

const FORWARD_RING: [Nibbles; 7] = ring_products(&ALPHA, &ALPHA_INV);
const INVERSE_RING: [Nibbles; 7] = ring_products(&OMEGA_INV, &OMEGA);

/// Byte `j` of L(e_15), e_15 the block whose last byte is 1: the column of L that the one
/// varying byte of a batch of counters goes through in the first round, as nibble tables
/// in the encryption representation.
const LAST_COLUMN: [Nibbles; 16] = {
    let mut unit = [0u8; 16];
    unit[15] = 1;
    let column = l_const(unit);
    let mut t = [[[0u8; 16]; 2]; 16];
    let mut j = 0;
    while j < 16 {
        t[j] = nibbles_of(&conjugated(&ALPHA, &ALPHA_INV, column[j]));
        j += 1;
    }
    t
};

/// The registers of one direction.
struct Kernel {
    low_nibble: __m256i,
    fifteen: __m256i,
    nibbles: [__m256i; 6],
    /// The representation: into it from plain bytes, and back.
    enter: [__m256i; 2],
    leave: [__m256i; 2],
    /// The R steps read their conjugated products from here.
    ring: Tables,
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn kernel(inverse: bool) -> Kernel {
    // SAFETY: AVX2 is enabled by the caller; the loads read whole 16-byte rows.
    unsafe {
        let (nibbles, ring, enter, leave) = if inverse {
            (&INVERSE_NIBBLES, &INVERSE_RING, OMEGA_INV, OMEGA)
        } else {
            (&FORWARD_NIBBLES, &FORWARD_RING, ALPHA, ALPHA_INV)
        };
        let mut k = Kernel {
            low_nibble: _mm256_set1_epi8(0x0f),
            fifteen: _mm256_set1_epi8(15),
            nibbles: [_mm256_setzero_si256(); 6],
            enter: pair(&nibbles_of(&enter)),
            leave: pair(&nibbles_of(&leave)),
            ring: tables(inverse),
        };
        for (r, n) in k.nibbles.iter_mut().zip(nibbles) {
            *r = broadcast16(n);
        }
        for (m, products) in k.ring.mul.iter_mut().zip(ring) {
            *m = pair(products);
        }
        k
    }
}

/// The two nibble tables of a map, broadcast.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn pair(t: &Nibbles) -> [__m256i; 2] {
    // SAFETY: AVX2 is enabled by the caller; the loads read whole 16-byte rows.
    unsafe { [broadcast16(&t[0]), broadcast16(&t[1])] }
}

/// The keys of one call, derived from the round keys and zeroized on drop.
struct CallKeys {
    /// Encryption: per round and byte position, [`FORWARD_HIGH`] XOR the byte of
    /// `α(L⁻¹(K_{i+1}))`. Decryption: per round and byte position, the byte of
    /// `ω⁻¹(K_i)` in all sixteen bytes. Whole 16-byte words, so that zeroizing takes one
    /// write per row.
    rows: [u128; 9 * 16],
}

impl Drop for CallKeys {
    fn drop(&mut self) {
        crate::wipe::array(&mut self.rows);
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn call_keys(rk: &RoundKeys, k: &Kernel, inverse: bool) -> CallKeys {
    // SAFETY: AVX2 is enabled by the caller; loads read 16-byte round keys and 32-byte
    // rows of `sliced`, and stores write 16-byte rows of `keys` and 32-byte rows of
    // `sliced`.
    unsafe {
        let mut keys = CallKeys { rows: [0; 9 * 16] };
        // Byte `j` of the nine keys the rounds add, key `i` in lane `i` of register `j`.
        let mut sliced = [[0u8; 32]; 16];
        let first = if inverse { 0 } else { 1 };
        for (i, key) in rk.0[first..first + 9].iter().enumerate() {
            for (j, b) in key.iter().enumerate() {
                sliced[j][i] = *b;
            }
        }
        let mut s = [_mm256_setzero_si256(); 16];
        for (x, row) in s.iter_mut().zip(&sliced) {
            *x = _mm256_loadu_si256(row.as_ptr().cast());
        }
        if !inverse {
            // L⁻¹ of every key at once, by the R⁻¹ steps of the plain representation.
            let plain = tables(true);
            unroll16!(r_inv_step[false](&mut s, &plain));
        }
        let base = if inverse {
            _mm_setzero_si128()
        } else {
            _mm_loadu_si128(FORWARD_HIGH.as_ptr().cast())
        };
        for (x, row) in s.iter_mut().zip(sliced.iter_mut()) {
            *x = linear(*x, &k.enter, k.low_nibble);
            _mm256_storeu_si256(row.as_mut_ptr().cast(), *x);
        }
        for round in 0..9 {
            for (position, row) in sliced.iter().enumerate() {
                let byte = _mm_set1_epi8(row[round] as i8);
                _mm_storeu_si128(
                    (&raw mut keys.rows[16 * round + position]).cast(),
                    _mm_xor_si128(base, byte),
                );
            }
        }
        crate::wipe::bytes(sliced.as_flattened_mut());
        crate::wipe::set(&mut s, [_mm256_setzero_si256(); 16]);
        keys
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn row(keys: &CallKeys, round: usize, position: usize) -> __m256i {
    // SAFETY: AVX2 is enabled by the caller; the load reads one 16-byte row.
    unsafe {
        _mm256_broadcastsi128_si256(_mm_loadu_si128(
            (&raw const keys.rows[16 * round + position]).cast(),
        ))
    }
}

/// A linear map of every byte by its two nibble tables.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn linear(x: __m256i, t: &[__m256i; 2], low_nibble: __m256i) -> __m256i {
    // SAFETY: register-only AVX2 operations, enabled by the caller.
    unsafe { nibble_map(x, t[0], t[1], low_nibble) }
}

/// π on every byte of `x` in the encryption representation, the next round's moved key
/// added by `high` (a row of [`CallKeys`]): with (l, r) the nibbles of `x`,
/// l' = ν1(l ⊙ r⁻¹), or ν0(l) where r = 0; r' = σ(r ⊙ φ(l')); out `αω(l' ‖ r') ^ key`.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn substitute(x: __m256i, k: &Kernel, high: __m256i) -> __m256i {
    // SAFETY: register-only AVX2 operations, enabled by the caller.
    unsafe {
        let [log, neg_log, nu1_exp, nu0, log_phi, sigma] = k.nibbles;
        let r = _mm256_and_si256(x, k.low_nibble);
        let l = _mm256_and_si256(_mm256_srli_epi16::<4>(x), k.low_nibble);
        // Top bit set exactly where r = 0: also the selector between the two branches.
        let log_r = _mm256_shuffle_epi8(log, r);
        let quotient = mod15(
            _mm256_add_epi8(_mm256_shuffle_epi8(log, l), _mm256_shuffle_epi8(neg_log, r)),
            k.fifteen,
        );
        // l' ^ ν1(0) on both branches.
        let l_out = _mm256_blendv_epi8(
            _mm256_shuffle_epi8(nu1_exp, quotient),
            _mm256_shuffle_epi8(nu0, l),
            log_r,
        );
        let product = mod15(
            _mm256_add_epi8(log_r, _mm256_shuffle_epi8(log_phi, l_out)),
            k.fifteen,
        );
        xor(
            _mm256_shuffle_epi8(high, l_out),
            _mm256_shuffle_epi8(sigma, product),
        )
    }
}

/// π⁻¹ on every byte of `x` in the decryption representation, plus `key`: with (l', r')
/// the nibbles of `x`, r = σ⁻¹(r') ⊙ φ(l')⁻¹; l = ν1⁻¹(l') ⊙ r, or ν0⁻¹(l') where r = 0;
/// out `γ(l ‖ r) ^ key`.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn substitute_inverse(x: __m256i, k: &Kernel, key: __m256i) -> __m256i {
    // SAFETY: register-only AVX2 operations, enabled by the caller.
    unsafe {
        let [
            log_sigma_inv,
            neg_log_phi,
            log_nu1_inv,
            exp_high,
            nu0_high,
            exp_low,
        ] = k.nibbles;
        let r_in = _mm256_and_si256(x, k.low_nibble);
        let l_in = _mm256_and_si256(_mm256_srli_epi16::<4>(x), k.low_nibble);
        // log r, with the top bit set exactly where r = 0.
        let log_r = mod15(
            _mm256_add_epi8(
                _mm256_shuffle_epi8(log_sigma_inv, r_in),
                _mm256_shuffle_epi8(neg_log_phi, l_in),
            ),
            k.fifteen,
        );
        let log_l = mod15(
            _mm256_add_epi8(_mm256_shuffle_epi8(log_nu1_inv, l_in), log_r),
            k.fifteen,
        );
        let high = _mm256_blendv_epi8(
            _mm256_shuffle_epi8(exp_high, log_l),
            _mm256_shuffle_epi8(nu0_high, l_in),
            log_r,
        );
        xor(xor(high, _mm256_shuffle_epi8(exp_low, log_r)), key)
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn sbox<const I: usize>(s: &mut State, k: &Kernel, keys: &CallKeys, round: usize) {
    // SAFETY: register-only operations and one row load, enabled by the caller.
    unsafe { s[I] = substitute(s[I], k, row(keys, round, I)) }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn sbox_inverse<const I: usize>(s: &mut State, k: &Kernel, keys: &CallKeys, round: usize) {
    // SAFETY: as in `sbox`.
    unsafe { s[I] = substitute_inverse(s[I], k, row(keys, round, I)) }
}

/// The first key in plain form, then the representation.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn enter<const I: usize>(s: &mut State, k: &Kernel, key: &[u8; 16]) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let keyed = xor(s[I], _mm256_set1_epi8(key[I] as i8));
        s[I] = linear(keyed, &k.enter, k.low_nibble);
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn leave<const I: usize>(s: &mut State, k: &Kernel) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe { s[I] = linear(s[I], &k.leave, k.low_nibble) }
}

/// Rounds `first..9` on the input of the S-boxes of round `first`, then back to plain bytes.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn rounds_from(s: &mut State, k: &Kernel, keys: &CallKeys, first: usize) {
    // SAFETY: register-only operations and row loads, enabled by the caller.
    unsafe {
        // S-boxes interleaved with the R steps, as the GFNI kernel runs them, measure slower
        // here (`docs/perf/kuznyechik.md`): the fourteen product tables of the R steps and
        // the S-box tables do not fit in the registers together.
        for round in first..9 {
            unroll16!(sbox(s, k, keys, round));
            unroll16!(r_step[false](s, &k.ring));
        }
        unroll16!(leave(s, k));
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn encrypt_state(s: &mut State, k: &Kernel, keys: &CallKeys, rk: &RoundKeys) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        unroll16!(enter(s, k, &rk.0[0]));
        rounds_from(s, k, keys, 0);
    }
}

/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn decrypt_state(s: &mut State, k: &Kernel, keys: &CallKeys, rk: &RoundKeys) {
    // SAFETY: register-only operations and row loads, enabled by the caller.
    unsafe {
        unroll16!(enter(s, k, &rk.0[9]));
        for round in (0..9).rev() {
            unroll16!(r_inv_step[false](s, &k.ring));
            unroll16!(sbox_inverse(s, k, keys, round));
        }
        unroll16!(leave(s, k));
    }
}

/// ECB encryption of whole blocks, batches of 32 (the last padded).
///
/// # Safety
/// The CPU must have AVX2.
#[inline(always)]
pub(super) unsafe fn encrypt(rk: &RoundKeys, buf: &mut [u8]) {
    // SAFETY: AVX2 is enabled by the caller.
    unsafe {
        let k = kernel(false);
        let keys = call_keys(rk, &k, false);
        for_each_batch!(buf, |batch| {
            let mut s = load(batch);
            encrypt_state(&mut s, &k, &keys, rk);
            store(&s, batch);
        });
    }
}

/// ECB decryption of whole blocks.
///
/// # Safety
/// The CPU must have AVX2.
#[inline(always)]
pub(super) unsafe fn decrypt(rk: &RoundKeys, buf: &mut [u8]) {
    // SAFETY: AVX2 is enabled by the caller.
    unsafe {
        let k = kernel(true);
        let keys = call_keys(rk, &k, true);
        for_each_batch!(buf, |batch| {
            let mut s = load(batch);
            decrypt_state(&mut s, &k, &keys, rk);
            store(&s, batch);
        });
    }
}

/// The input of round 1 for the counters whose first fifteen bytes are those of `n`, with
/// the last byte's share left out: the first round of a batch whose every lane is that
/// block with its last byte cleared, whose S-box output there is then cleared too.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn shared_first_round(n: u128, k: &Kernel, keys: &CallKeys, rk: &RoundKeys) -> State {
    // SAFETY: register-only AVX2 operations and row loads, enabled by the caller.
    unsafe {
        let common = n.to_be_bytes();
        let mut s = [_mm256_setzero_si256(); 16];
        for (x, b) in s.iter_mut().zip(common) {
            *x = _mm256_set1_epi8(b as i8);
        }
        unroll16!(enter(&mut s, k, &rk.0[0]));
        unroll16!(sbox(&mut s, k, keys, 0));
        s[15] = _mm256_setzero_si256();
        unroll16!(r_step[false](&mut s, &k.ring));
        s
    }
}

/// The first round of the 32 counters `n..n + 32`, whose last byte does not wrap, from
/// the share of their common bytes: the last byte through π and its column of L.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[inline(always)]
unsafe fn counter_first_round(
    n: u128,
    shared: &State,
    columns: &[[__m256i; 2]; 16],
    k: &Kernel,
    keys: &CallKeys,
    rk: &RoundKeys,
) -> State {
    // SAFETY: register-only AVX2 operations and row loads, enabled by the caller.
    unsafe {
        let lanes = _mm256_setr_epi8(
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
            24, 25, 26, 27, 28, 29, 30, 31,
        );
        let last = _mm256_add_epi8(_mm256_set1_epi8(n as u8 as i8), lanes);
        let keyed = xor(last, _mm256_set1_epi8(rk.0[0][15] as i8));
        let varying = substitute(linear(keyed, &k.enter, k.low_nibble), k, row(keys, 0, 15));
        let mut s = *shared;
        for (x, column) in s.iter_mut().zip(columns) {
            *x = xor(*x, linear(varying, column, k.low_nibble));
        }
        s
    }
}

/// CTR with a whole-block big-endian counter.
///
/// # Safety
/// The CPU must have AVX2.
#[inline(always)]
pub(super) unsafe fn ctr(rk: &RoundKeys, counter: &mut [u8; 16], buf: &mut [u8]) {
    // SAFETY: AVX2 is enabled by the caller.
    unsafe {
        let k = kernel(false);
        let keys = call_keys(rk, &k, false);
        let mut columns = [[_mm256_setzero_si256(); 2]; 16];
        for (c, t) in columns.iter_mut().zip(&LAST_COLUMN) {
            *c = pair(t);
        }
        let mut next = u128::from_be_bytes(*counter);
        // The shared first round of the counters with the first fifteen bytes of
        // `shared_prefix`, kept while batches keep them.
        let mut shared_prefix = None;
        let mut shared = [_mm256_setzero_si256(); 16];
        let mut chunks = buf.chunks_exact_mut(BATCH);
        for chunk in &mut chunks {
            let chunk: &mut [u8; BATCH] = chunk.try_into().expect("whole batch");
            // The last byte of the counter does not wrap inside the batch.
            let s = if next as u8 <= u8::MAX - (LANES as u8 - 1) {
                let prefix = next & !0xff;
                if shared_prefix != Some(prefix) {
                    shared = shared_first_round(prefix, &k, &keys, rk);
                    shared_prefix = Some(prefix);
                }
                let mut s = counter_first_round(next, &shared, &columns, &k, &keys, rk);
                rounds_from(&mut s, &k, &keys, 1);
                s
            } else {
                let mut s = load(&counter_blocks(next));
                encrypt_state(&mut s, &k, &keys, rk);
                s
            };
            xor_into(&s, chunk);
            next = next.wrapping_add(LANES as u128);
        }
        let rest = chunks.into_remainder();
        if !rest.is_empty() {
            let mut s = load(&counter_blocks(next));
            encrypt_state(&mut s, &k, &keys, rk);
            xor_into_part(&s, rest);
            next = next.wrapping_add(rest.len().div_ceil(16) as u128);
        }
        crate::wipe::set(&mut shared, [_mm256_setzero_si256(); 16]);
        *counter = next.to_be_bytes();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kuznyechik::consts::{PI, PI_INV};

    /// The kernel's S-box steps, byte by byte, give π and π⁻¹ in their representations.
    #[test]
    fn represented_sbox_is_pi() {
        let lookup = |table: &[u8; 16], i: u8| {
            if i & 0x80 != 0 {
                0
            } else {
                table[(i & 15) as usize]
            }
        };
        let mod15 = |d: u8| d.min(d.wrapping_sub(15));
        let [log, neg_log, nu1_exp, nu0, log_phi, sigma] = FORWARD_NIBBLES;
        let [
            log_sigma_inv,
            neg_log_phi,
            log_nu1_inv,
            exp_high,
            nu0_high,
            exp_low,
        ] = INVERSE_NIBBLES;
        for x in 0..=255u8 {
            // Encryption: α(x) in, α(π(x)) out.
            let y = ALPHA[x as usize];
            let (l, r) = (y >> 4, y & 15);
            let log_r = lookup(&log, r);
            let q = mod15(lookup(&log, l).wrapping_add(lookup(&neg_log, r)));
            let l_out = if log_r & 0x80 != 0 {
                lookup(&nu0, l)
            } else {
                lookup(&nu1_exp, q)
            };
            let p = mod15(log_r.wrapping_add(lookup(&log_phi, l_out)));
            let out = lookup(&FORWARD_HIGH, l_out) ^ lookup(&sigma, p);
            assert_eq!(out, ALPHA[PI[x as usize] as usize], "π({x})");

            // Decryption: ω⁻¹(x) in, ω⁻¹(π⁻¹(x)) out.
            let z = OMEGA_INV[x as usize];
            let (l_in, r_in) = (z >> 4, z & 15);
            let log_r =
                mod15(lookup(&log_sigma_inv, r_in).wrapping_add(lookup(&neg_log_phi, l_in)));
            let log_l = mod15(lookup(&log_nu1_inv, l_in).wrapping_add(log_r));
            let high = if log_r & 0x80 != 0 {
                lookup(&nu0_high, l_in)
            } else {
                lookup(&exp_high, log_l)
            };
            let out = high ^ lookup(&exp_low, log_r);
            assert_eq!(out, OMEGA_INV[PI_INV[x as usize] as usize], "π⁻¹({x})");
        }
    }

    /// The conjugated products are the multiplications of L seen through each
    /// representation.
    #[test]
    fn ring_products_conjugate() {
        for (c, &coefficient) in [ELL[0], ELL[1], ELL[2], ELL[3], ELL[4], ELL[5], ELL[7]]
            .iter()
            .enumerate()
        {
            for x in 0..=255u8 {
                let apply = |t: &Nibbles, v: u8| t[0][(v & 15) as usize] ^ t[1][(v >> 4) as usize];
                let forward = apply(&FORWARD_RING[c], ALPHA[x as usize]);
                assert_eq!(forward, ALPHA[gf_mul(x, coefficient) as usize]);
                let inverse = apply(&INVERSE_RING[c], OMEGA_INV[x as usize]);
                assert_eq!(inverse, OMEGA_INV[gf_mul(x, coefficient) as usize]);
            }
        }
    }
}
