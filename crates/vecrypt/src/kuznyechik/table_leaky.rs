//! Table-driven Kuznyechik: NOT constant time, kept only as a speed reference.
//!
//! This is the classic construction every earlier x86 implementation uses: sixteen 4 KiB
//! tables give L(S(byte at position k)) directly, so a round is sixteen lookups and XORs.
//! The lookups are indexed by key-dependent data, which leaks through the cache. The
//! automatic backend choice never picks this backend.

use std::sync::OnceLock;

use super::RoundKeys;
use super::consts::{L_COLUMNS, L_INV_COLUMNS, PI, PI_INV};

struct Tables {
    /// `forward[k][b]` = L(S(block with byte k = b, zero elsewhere)).
    forward: Vec<[u128; 256]>,
    /// `inverse[k][b]` = L⁻¹(block with byte k = b, zero elsewhere).
    inverse: Vec<[u128; 256]>,
}

fn apply(x: u128, columns: &[u128; 128]) -> u128 {
    (0..128)
        .filter(|j| (x >> j) & 1 == 1)
        .fold(0, |acc, j| acc ^ columns[j])
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let build = |columns: &[u128; 128], sbox: Option<&[u8; 256]>| {
            (0..16)
                .map(|k| {
                    let mut t = [0u128; 256];
                    for (b, entry) in t.iter_mut().enumerate() {
                        let v = sbox.map_or(b as u8, |s| s[b]);
                        *entry = apply(u128::from(v) << (8 * (15 - k)), columns);
                    }
                    t
                })
                .collect()
        };
        Tables {
            forward: build(&L_COLUMNS, Some(&PI)),
            inverse: build(&L_INV_COLUMNS, None),
        }
    })
}

#[inline(always)]
fn lookup(tables: &[[u128; 256]], x: u128) -> u128 {
    x.to_be_bytes()
        .iter()
        .zip(tables)
        .fold(0, |acc, (b, t)| acc ^ t[usize::from(*b)])
}

/// Encrypts whole blocks in place, through secret-indexed tables.
pub(super) fn encrypt_blocks(rk: &RoundKeys, buf: &mut [u8]) {
    let t = tables();
    for block in buf.chunks_exact_mut(16) {
        let mut x = u128::from_be_bytes(block.try_into().expect("16-byte chunk"));
        for k in &rk.0[..9] {
            x = lookup(&t.forward, x ^ u128::from_be_bytes(*k));
        }
        x ^= u128::from_be_bytes(rk.0[9]);
        block.copy_from_slice(&x.to_be_bytes());
    }
}

/// Decrypts whole blocks in place, through secret-indexed tables.
pub(super) fn decrypt_blocks(rk: &RoundKeys, buf: &mut [u8]) {
    let t = tables();
    for block in buf.chunks_exact_mut(16) {
        let mut x = u128::from_be_bytes(block.try_into().expect("16-byte chunk"));
        x ^= u128::from_be_bytes(rk.0[9]);
        for k in rk.0[..9].iter().rev() {
            let mut b = lookup(&t.inverse, x).to_be_bytes();
            for v in &mut b {
                *v = PI_INV[usize::from(*v)];
            }
            x = u128::from_be_bytes(b) ^ u128::from_be_bytes(*k);
        }
        block.copy_from_slice(&x.to_be_bytes());
    }
}
