//! The key schedule on the per-block path of the AVX-512 backend.

use core::arch::x86_64::*;

use super::blocks::{small_linear, small_tables};
use super::tables::{FROM_PHI, L_PHI, PI_PHI, TO_PHI, substitute, xor};
use crate::cpu::kernel;
use crate::kuznyechik::RoundKeys;
use crate::kuznyechik::consts::ROUND_CONSTANTS;

/// The key schedule on the per-block path: the 32 Feistel round functions `L(S(a ^ C_i))`
/// in the φ domain, where the data stays from the first round to the last. One lane of a
/// register is used; the cost is the latency of 32 rounds, about a third of a
/// microsecond, instead of the portable S and L.
///
/// # Safety
/// The CPU must have the features of the kernel this belongs to (its `#[kernel]` entry
/// in the kernel table): callers check the kernel's `runs()` first, or are compiled for
/// those features themselves.
#[kernel(KUZNYECHIK_AVX512)]
pub(super) unsafe fn expand_key_impl(key: &[u8; 32]) -> RoundKeys {
    // SAFETY: the features are enabled on this function; the loads read 16 bytes of
    // 16-byte arrays or halves of the 32-byte key, the stores write 16-byte arrays.
    unsafe {
        let t = small_tables(&RoundKeys([[0u8; 16]; 10]), &PI_PHI, &L_PHI);
        let to_phi = _mm512_set1_epi64(TO_PHI as i64);
        let from_phi = _mm512_set1_epi64(FROM_PHI as i64);
        let half = |p: *const u8| {
            _mm512_gf2p8affine_epi64_epi8::<0>(
                _mm512_castsi128_si512(_mm_loadu_si128(p.cast())),
                to_phi,
            )
        };
        let mut a1 = half(key.as_ptr());
        let mut a0 = half(key.as_ptr().add(16));
        let mut rk = RoundKeys([[0u8; 16]; 10]);
        let mut put = |i: usize, x: __m512i| {
            let plain = _mm512_gf2p8affine_epi64_epi8::<0>(x, from_phi);
            _mm_storeu_si128(rk.0[i].as_mut_ptr().cast(), _mm512_castsi512_si128(plain));
        };
        put(0, a1);
        put(1, a0);
        for pair in 0..4 {
            for c in &ROUND_CONSTANTS[8 * pair..8 * pair + 8] {
                let f = small_linear(substitute(xor(a1, half(c.as_ptr())), &t.sbox), &t.columns);
                a0 = xor(f, a0);
                core::mem::swap(&mut a0, &mut a1);
            }
            put(2 * pair + 2, a1);
            put(2 * pair + 3, a0);
        }
        rk
    }
}
