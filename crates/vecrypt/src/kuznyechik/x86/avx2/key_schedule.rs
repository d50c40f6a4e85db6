//! The key schedule of the AVX2 backend, on the two-block path with GFNI.

use core::arch::x86_64::*;

use super::pair::{L_COLUMNS_AES, lane_linear};
use super::tables::{broadcast16, substitute, tables, xor};
use crate::cpu::kernel;
use crate::kuznyechik::RoundKeys;
use crate::kuznyechik::consts::ROUND_CONSTANTS;

/// The key schedule on one block: 32 Feistel rounds through the GFNI S-box and L of the
/// two-block path, where the portable code takes about 7 microseconds (so the ACPKM key
/// change of every section cost more than the section's keystream).
///
/// # Safety
/// The CPU runs [`KUZNYECHIK_AVX2_GFNI`](crate::cpu::kernels::KUZNYECHIK_AVX2_GFNI).
#[kernel(KUZNYECHIK_AVX2_GFNI)]
pub(in super::super) unsafe fn expand_key_gfni(key: &[u8; 32]) -> RoundKeys {
    // SAFETY: AVX2 and GFNI are enabled on this function; the loads read the two 16-byte
    // halves of the key and 16-byte constants, the stores write 16-byte round keys.
    unsafe {
        let t = tables(false);
        let mut columns = [_mm256_setzero_si256(); 16];
        for (c, row) in columns.iter_mut().zip(&L_COLUMNS_AES) {
            *c = broadcast16(row);
        }
        let mut a1 = _mm256_zextsi128_si256(_mm_loadu_si128(key.as_ptr().cast()));
        let mut a0 = _mm256_zextsi128_si256(_mm_loadu_si128(key.as_ptr().add(16).cast()));
        let mut rk = RoundKeys([[0u8; 16]; 10]);
        _mm_storeu_si128(rk.0[0].as_mut_ptr().cast(), _mm256_castsi256_si128(a1));
        _mm_storeu_si128(rk.0[1].as_mut_ptr().cast(), _mm256_castsi256_si128(a0));
        for pair in 0..4 {
            for c in &ROUND_CONSTANTS[8 * pair..8 * pair + 8] {
                let c = _mm256_zextsi128_si256(_mm_loadu_si128(c.as_ptr().cast()));
                let f = lane_linear(substitute::<true>(xor(a1, c), &t), &columns);
                a0 = xor(f, a0);
                core::mem::swap(&mut a0, &mut a1);
            }
            _mm_storeu_si128(
                rk.0[2 * pair + 2].as_mut_ptr().cast(),
                _mm256_castsi256_si128(a1),
            );
            _mm_storeu_si128(
                rk.0[2 * pair + 3].as_mut_ptr().cast(),
                _mm256_castsi256_si128(a0),
            );
        }
        rk
    }
}
