//! Byte-sliced Kuznyechik on AVX2: 32 blocks per batch, constant time, byte shuffles only.
//!
//! The layout and the R-step ring are those of the AVX-512 backend, on YMM registers (one
//! byte of 32 blocks each). Without VPERMI2B and GF2P8AFFINEQB:
//! - S reads all sixteen 16-entry rows of π with VPSHUFB, indexed by the low nibble, and
//!   picks the row by the high nibble: VPSHUFB gives zero where the index has its top bit
//!   set, so rows 0-7 looked up with `x` and rows 8-15 with `x ^ 0x80` cover disjoint lanes;
//!   within each half a tree of VPBLENDVB on bits 4, 5 and 6 chooses among the eight rows.
//! - A multiplication by a constant is two VPSHUFB lookups, one per nibble, XORed; where the
//!   CPU has GFNI (as many without AVX-512 do) it is one GF2P8AFFINEQB on YMM instead.

use core::arch::x86_64::*;

use super::RoundKeys;
use super::consts::{ELL, PI, PI_INV, affine_matrix, gf_mul};
use crate::cpu::Features;

/// Blocks per batch: one byte of each in every lane of a YMM register.
const LANES: usize = 32;
/// Bytes per batch.
const BATCH: usize = LANES * 16;

/// Whether this CPU can run the backend.
pub(super) fn available(f: &Features) -> bool {
    f.avx2
}

type State = [__m256i; 16];

/// The distinct non-trivial coefficients of ℓ, in the order the R steps use them.
const COEFFICIENTS: [u8; 7] = [ELL[0], ELL[1], ELL[2], ELL[3], ELL[4], ELL[5], ELL[7]];

/// `c * i` and `c * (i << 4)` for i = 0..16, for every coefficient.
const NIBBLE_PRODUCTS: [[[u8; 16]; 2]; 7] = {
    let mut t = [[[0u8; 16]; 2]; 7];
    let mut c = 0;
    while c < 7 {
        let mut i = 0;
        while i < 16 {
            t[c][0][i] = gf_mul(i as u8, COEFFICIENTS[c]);
            t[c][1][i] = gf_mul((i as u8) << 4, COEFFICIENTS[c]);
            i += 1;
        }
        c += 1;
    }
    t
};

/// The coefficients as GF2P8AFFINEQB matrices, computed at compile time.
const MATRICES: [u64; 7] = {
    let mut m = [0u64; 7];
    let mut c = 0;
    while c < 7 {
        m[c] = affine_matrix(COEFFICIENTS[c]);
        c += 1;
    }
    m
};

/// The public constants of one direction and the broadcast round keys.
struct Tables {
    /// Row `h` of the S-box (entries `16h..16h+16`) in both lanes.
    rows: [__m256i; 16],
    /// Low-nibble and high-nibble product tables per coefficient.
    mul: [[__m256i; 2]; 7],
    /// The same multiplications as GF2P8AFFINEQB matrices.
    affine: [__m256i; 7],
    low_nibble: __m256i,
    top_bit: __m256i,
}

#[inline(always)]
unsafe fn broadcast16(row: &[u8]) -> __m256i {
    // SAFETY: AVX2 is enabled by the caller; the load reads 16 bytes of a 16-byte slice.
    unsafe {
        let r: &[u8; 16] = row.try_into().expect("16-byte row");
        _mm256_broadcastsi128_si256(_mm_loadu_si128(r.as_ptr().cast()))
    }
}

#[inline(always)]
unsafe fn tables(sbox: &[u8; 256]) -> Tables {
    // SAFETY: AVX2 is enabled by the caller; the helpers only read whole rows.
    unsafe {
        let zero = _mm256_setzero_si256();
        let mut t = Tables {
            rows: [zero; 16],
            mul: [[zero; 2]; 7],
            affine: [zero; 7],
            low_nibble: _mm256_set1_epi8(0x0f),
            top_bit: _mm256_set1_epi8(-128),
        };
        for h in 0..16 {
            t.rows[h] = broadcast16(&sbox[16 * h..16 * h + 16]);
        }
        for (a, m) in t.affine.iter_mut().zip(MATRICES) {
            *a = _mm256_set1_epi64x(m as i64);
        }
        for (m, products) in t.mul.iter_mut().zip(&NIBBLE_PRODUCTS) {
            m[0] = broadcast16(&products[0]);
            m[1] = broadcast16(&products[1]);
        }
        t
    }
}

#[inline(always)]
unsafe fn xor(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: register-only AVX2 operation, enabled by the caller.
    unsafe { _mm256_xor_si256(a, b) }
}

/// Rows `rows[0..8]` looked up with `index`, the one for bits 6..4 of `x` kept.
#[inline(always)]
unsafe fn eight_rows(rows: &[__m256i], index: __m256i, bits: [__m256i; 3]) -> __m256i {
    // SAFETY: register-only AVX2 operations, enabled by the caller.
    unsafe {
        let pick = |a: usize, b: usize| {
            _mm256_blendv_epi8(
                _mm256_shuffle_epi8(rows[a], index),
                _mm256_shuffle_epi8(rows[b], index),
                bits[0],
            )
        };
        let (r0, r1, r2, r3) = (pick(0, 1), pick(2, 3), pick(4, 5), pick(6, 7));
        let q0 = _mm256_blendv_epi8(r0, r1, bits[1]);
        let q1 = _mm256_blendv_epi8(r2, r3, bits[1]);
        _mm256_blendv_epi8(q0, q1, bits[2])
    }
}

/// The 256-entry lookup on every byte of `x`, reading every row.
#[inline(always)]
unsafe fn substitute(x: __m256i, t: &Tables) -> __m256i {
    // SAFETY: register-only AVX2 operations, enabled by the caller.
    unsafe {
        // VPBLENDVB looks at the top bit of each byte: shifting left by 3, 2 and 1 brings
        // bits 4, 5 and 6 of every byte there (what crosses from the byte below lands low).
        let bits = [
            _mm256_slli_epi16::<3>(x),
            _mm256_slli_epi16::<2>(x),
            _mm256_slli_epi16::<1>(x),
        ];
        let low = eight_rows(&t.rows[..8], x, bits);
        let high = eight_rows(&t.rows[8..], xor(x, t.top_bit), bits);
        xor(low, high)
    }
}

/// `x` times coefficient number `c`: by GF2P8AFFINEQB when `GFNI` (the caller then runs
/// with GFNI enabled), else by one lookup per nibble.
#[inline(always)]
unsafe fn mul<const GFNI: bool>(x: __m256i, c: usize, t: &Tables) -> __m256i {
    // SAFETY: register-only AVX2 (and, when `GFNI`, GFNI) operations, enabled by the caller.
    unsafe {
        if GFNI {
            return _mm256_gf2p8affine_epi64_epi8::<0>(x, t.affine[c]);
        }
        let low = _mm256_and_si256(x, t.low_nibble);
        let high = _mm256_and_si256(_mm256_srli_epi16::<4>(x), t.low_nibble);
        xor(
            _mm256_shuffle_epi8(t.mul[c][0], low),
            _mm256_shuffle_epi8(t.mul[c][1], high),
        )
    }
}

/// One R step; see the AVX-512 backend for the ring of registers.
#[inline(always)]
unsafe fn r_step<const STEP: usize, const GFNI: bool>(s: &mut State, t: &Tables) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let x = |k: usize| s[(k + 16 - STEP) % 16];
        let others = xor(
            xor(
                xor(
                    mul::<GFNI>(xor(x(1), x(13)), 1, t),
                    mul::<GFNI>(xor(x(2), x(12)), 2, t),
                ),
                xor(
                    mul::<GFNI>(xor(x(3), x(11)), 3, t),
                    mul::<GFNI>(xor(x(4), x(10)), 4, t),
                ),
            ),
            xor(
                xor(mul::<GFNI>(xor(x(5), x(9)), 5, t), mul::<GFNI>(x(7), 6, t)),
                xor(xor(x(6), x(8)), x(15)),
            ),
        );
        s[(15 + 16 - STEP) % 16] = xor(others, mul::<GFNI>(xor(x(0), x(14)), 0, t));
    }
}

/// One R⁻¹ step; see the AVX-512 backend.
#[inline(always)]
unsafe fn r_inv_step<const STEP: usize, const GFNI: bool>(s: &mut State, t: &Tables) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        let y = |k: usize| s[(k + STEP) % 16];
        let others = xor(
            xor(
                xor(
                    mul::<GFNI>(xor(y(2), y(14)), 1, t),
                    mul::<GFNI>(xor(y(3), y(13)), 2, t),
                ),
                xor(
                    mul::<GFNI>(xor(y(4), y(12)), 3, t),
                    mul::<GFNI>(xor(y(5), y(11)), 4, t),
                ),
            ),
            xor(
                xor(mul::<GFNI>(xor(y(6), y(10)), 5, t), mul::<GFNI>(y(8), 6, t)),
                xor(xor(y(7), y(9)), y(0)),
            ),
        );
        s[STEP % 16] = xor(others, mul::<GFNI>(xor(y(1), y(15)), 0, t));
    }
}

#[inline(always)]
unsafe fn sbox<const I: usize>(s: &mut State, t: &Tables) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe { s[I] = substitute(s[I], t) }
}

#[inline(always)]
unsafe fn key<const I: usize>(s: &mut State, k: &[u8; 16]) {
    // SAFETY: register-only operations, enabled by the caller. The round key is broadcast
    // where it is used rather than kept expanded, so no copy of it outlives the call.
    unsafe { s[I] = xor(s[I], _mm256_set1_epi8(k[I] as i8)) }
}

#[inline(always)]
unsafe fn encrypt_state<const GFNI: bool>(s: &mut State, t: &Tables, rk: &RoundKeys) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        for round in 0..9 {
            unroll16!(key(s, &rk.0[round]));
            unroll16!(sbox(s, t));
            unroll16!(r_step[GFNI](s, t));
        }
        unroll16!(key(s, &rk.0[9]));
    }
}

#[inline(always)]
unsafe fn decrypt_state<const GFNI: bool>(s: &mut State, t: &Tables, rk: &RoundKeys) {
    // SAFETY: register-only operations, enabled by the caller.
    unsafe {
        for round in (1..10).rev() {
            unroll16!(key(s, &rk.0[round]));
            unroll16!(r_inv_step[GFNI](s, t));
            unroll16!(sbox(s, t));
        }
        unroll16!(key(s, &rk.0[0]));
    }
}

/// Transposes the 16x16 byte matrix held in the 128-bit lanes of sixteen registers (each
/// lane separately): four rounds of interleaving register `i` with register `i + 8`. The
/// transpose is its own inverse.
#[inline(always)]
unsafe fn transpose_bytes(s: &mut State) {
    // SAFETY: register-only AVX2 operations, enabled by the caller.
    unsafe {
        for _ in 0..4 {
            let a = *s;
            for i in 0..8 {
                s[2 * i] = _mm256_unpacklo_epi8(a[i], a[i + 8]);
                s[2 * i + 1] = _mm256_unpackhi_epi8(a[i], a[i + 8]);
            }
        }
    }
}

/// Loads 32 blocks into the sliced layout: register `j` holds byte `j` of blocks 0..16 in
/// its low lane and of blocks 16..32 in its high lane.
#[inline(always)]
unsafe fn load(src: &[u8; BATCH]) -> State {
    // SAFETY: each load reads 16 bytes at offset 16*r or 16*(r + 16), both below 512, of a
    // 512-byte array.
    unsafe {
        let p = src.as_ptr();
        let mut s = [_mm256_setzero_si256(); 16];
        for (r, x) in s.iter_mut().enumerate() {
            *x = _mm256_loadu2_m128i(p.add(16 * (r + 16)).cast(), p.add(16 * r).cast());
        }
        transpose_bytes(&mut s);
        s
    }
}

/// The inverse of [`load`].
#[inline(always)]
unsafe fn store(s: &State, dst: &mut [u8; BATCH]) {
    // SAFETY: each store writes 16 bytes at offset 16*r or 16*(r + 16) of a 512-byte array.
    unsafe {
        let mut s = *s;
        transpose_bytes(&mut s);
        let p = dst.as_mut_ptr();
        for (r, x) in s.iter().enumerate() {
            _mm256_storeu2_m128i(p.add(16 * (r + 16)).cast(), p.add(16 * r).cast(), *x);
        }
    }
}

/// Runs `$body` with `$batch` bound to every batch of `$buf` (whole blocks), the last one
/// padded with zeros. A macro rather than a function taking a closure, so the body is
/// compiled with the target features of the function it is written in.
macro_rules! for_each_batch {
    ($buf:expr, |$batch:ident| $body:block) => {{
        let mut chunks = $buf.chunks_exact_mut(BATCH);
        for chunk in &mut chunks {
            let $batch: &mut [u8; BATCH] = chunk.try_into().expect("whole batch");
            $body
        }
        let rest = chunks.into_remainder();
        if !rest.is_empty() {
            let mut pad = [0u8; BATCH];
            pad[..rest.len()].copy_from_slice(rest);
            {
                let $batch = &mut pad;
                $body
            }
            rest.copy_from_slice(&pad[..rest.len()]);
            zeroize::Zeroize::zeroize(&mut pad);
        }
    }};
}

#[inline(always)]
unsafe fn encrypt_body<const GFNI: bool>(rk: &RoundKeys, buf: &mut [u8]) {
    // SAFETY: AVX2 (and GFNI when `GFNI`) is enabled by the caller; the helpers only touch registers and
    // arrays whose bounds they check by type.
    unsafe {
        let t = tables(&PI);
        for_each_batch!(buf, |batch| {
            let mut s = load(batch);
            encrypt_state::<GFNI>(&mut s, &t, rk);
            store(&s, batch);
        });
    }
}

#[inline(always)]
unsafe fn decrypt_body<const GFNI: bool>(rk: &RoundKeys, buf: &mut [u8]) {
    // SAFETY: as in `encrypt_body`.
    unsafe {
        let t = tables(&PI_INV);
        for_each_batch!(buf, |batch| {
            let mut s = load(batch);
            decrypt_state::<GFNI>(&mut s, &t, rk);
            store(&s, batch);
        });
    }
}

#[inline(always)]
unsafe fn ctr_body<const GFNI: bool>(rk: &RoundKeys, counter: &mut [u8; 16], buf: &mut [u8]) {
    // SAFETY: as in `encrypt_body`.
    unsafe {
        let t = tables(&PI);
        let mut next = u128::from_be_bytes(*counter);
        let mut stream = [0u8; BATCH];
        for chunk in buf.chunks_mut(BATCH) {
            for (i, block) in stream.chunks_exact_mut(16).enumerate() {
                block.copy_from_slice(&next.wrapping_add(i as u128).to_be_bytes());
            }
            next = next.wrapping_add(chunk.len().div_ceil(16) as u128);
            let mut s = load(&stream);
            encrypt_state::<GFNI>(&mut s, &t, rk);
            store(&s, &mut stream);
            for (d, k) in chunk.iter_mut().zip(stream.iter()) {
                *d ^= *k;
            }
        }
        zeroize::Zeroize::zeroize(&mut stream);
        *counter = next.to_be_bytes();
    }
}

/// The hot loops, compiled once for AVX2 alone and once with GFNI.
macro_rules! entry_points {
    ($features:literal, $gfni:literal, $enc:ident, $dec:ident, $ctr:ident) => {
        #[target_feature(enable = $features)]
        unsafe fn $enc(rk: &RoundKeys, buf: &mut [u8]) {
            // SAFETY: the features the body needs are enabled on this function.
            unsafe { encrypt_body::<$gfni>(rk, buf) }
        }

        #[target_feature(enable = $features)]
        unsafe fn $dec(rk: &RoundKeys, buf: &mut [u8]) {
            // SAFETY: the features the body needs are enabled on this function.
            unsafe { decrypt_body::<$gfni>(rk, buf) }
        }

        #[target_feature(enable = $features)]
        unsafe fn $ctr(rk: &RoundKeys, counter: &mut [u8; 16], buf: &mut [u8]) {
            // SAFETY: the features the body needs are enabled on this function.
            unsafe { ctr_body::<$gfni>(rk, counter, buf) }
        }
    };
}

entry_points!(
    "avx2",
    false,
    encrypt_shuffles,
    decrypt_shuffles,
    ctr_shuffles
);
entry_points!("avx2,gfni", true, encrypt_gfni, decrypt_gfni, ctr_gfni);

/// Encrypts whole blocks in place; `false` (and nothing done) if the CPU lacks AVX2.
pub(super) fn encrypt_blocks(rk: &RoundKeys, buf: &mut [u8]) -> bool {
    if !available(crate::cpu::features()) {
        return false;
    }
    // SAFETY: the required features were just checked.
    unsafe {
        if crate::cpu::features().gfni {
            encrypt_gfni(rk, buf)
        } else {
            encrypt_shuffles(rk, buf)
        }
    };
    true
}

/// Decrypts whole blocks in place; `false` (and nothing done) if the CPU lacks AVX2.
pub(super) fn decrypt_blocks(rk: &RoundKeys, buf: &mut [u8]) -> bool {
    if !available(crate::cpu::features()) {
        return false;
    }
    // SAFETY: the required features were just checked.
    unsafe {
        if crate::cpu::features().gfni {
            decrypt_gfni(rk, buf)
        } else {
            decrypt_shuffles(rk, buf)
        }
    };
    true
}

/// CTR with a whole-block big-endian counter; `false` (and nothing done) without AVX2.
pub(super) fn ctr(rk: &RoundKeys, counter: &mut [u8; 16], buf: &mut [u8]) -> bool {
    if !available(crate::cpu::features()) {
        return false;
    }
    // SAFETY: the required features were just checked.
    unsafe {
        if crate::cpu::features().gfni {
            ctr_gfni(rk, counter, buf)
        } else {
            ctr_shuffles(rk, counter, buf)
        }
    };
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// This CPU takes one of the two paths; both are checked here against the portable code.
    #[test]
    fn shuffle_and_gfni_paths_match_portable() {
        let f = crate::cpu::features();
        if !f.avx2 {
            return;
        }
        let mut rk = [[0u8; 16]; 10];
        for (i, k) in rk.iter_mut().flatten().enumerate() {
            *k = (i as u8).wrapping_mul(151).wrapping_add(7);
        }
        let rk = RoundKeys(rk);
        let data: Vec<u8> = (0..16 * 45).map(|i| (i as u8).wrapping_mul(29)).collect();
        let mut want = data.clone();
        super::super::soft::encrypt_blocks(&rk, &mut want);
        let mut paths: Vec<(&str, bool)> = vec![("shuffles", false)];
        if f.gfni {
            paths.push(("gfni", true));
        }
        for (name, gfni) in paths {
            let mut b = data.clone();
            // SAFETY: AVX2 (and GFNI for that path) was checked above.
            unsafe {
                if gfni {
                    encrypt_gfni(&rk, &mut b)
                } else {
                    encrypt_shuffles(&rk, &mut b)
                }
            };
            assert_eq!(b, want, "{name} encrypt");
            // SAFETY: as above.
            unsafe {
                if gfni {
                    decrypt_gfni(&rk, &mut b)
                } else {
                    decrypt_shuffles(&rk, &mut b)
                }
            };
            assert_eq!(b, data, "{name} decrypt");
            let mut counter = [0xffu8; 16];
            let mut c = data.clone();
            // SAFETY: as above.
            unsafe {
                if gfni {
                    ctr_gfni(&rk, &mut counter, &mut c)
                } else {
                    ctr_shuffles(&rk, &mut counter, &mut c)
                }
            };
            let mut stream: Vec<u8> = (0..45u128)
                .flat_map(|i| u128::MAX.wrapping_add(i).to_be_bytes())
                .collect();
            super::super::soft::encrypt_blocks(&rk, &mut stream);
            let expect: Vec<u8> = data.iter().zip(&stream).map(|(a, b)| a ^ b).collect();
            assert_eq!(c, expect, "{name} ctr");
            assert_eq!(counter, 44u128.to_be_bytes(), "{name} counter");
        }
    }
}
