//! The CCA-secure KEM: the Fujisaki-Okamoto transform with implicit rejection, generic over
//! the backend.
//!
//! sk = Pack13(NTT(s)) ‖ pk ‖ H(pk) ‖ z. Encapsulation hashes its coins first, so the raw
//! randomness never appears in the output; decapsulation re-encrypts and, in constant time,
//! swaps in z for the message when the ciphertexts differ.

use super::arith::{Arith, Matrix, NoiseRequest};
use super::hash::{HashMode, hash_h_by, hash_h_extended, hash_h_shared};
use super::indcpa::{self, MAX_NOISE, Secret, Secret32};
use super::params::{MAX_K, N, Params, SEED_BYTES};
use subtle::ConditionallySelectable;

/// The largest ciphertext of any set (Aigis-enc-4).
pub const MAX_CT_BYTES: usize = MAX_K * N * 11 / 8 + N * 5 / 8;

/// Key generation from 64 coins: d = coins[..32] seeds the key, z = coins[32..] is kept for
/// implicit rejection.
#[inline(always)]
pub fn keypair<P: Params, A: Arith>(
    arith: A,
    mode: HashMode,
    coins: &[u8; 64],
    pk: &mut [u8],
    sk: &mut [u8],
) {
    let mut d = Secret32([0; SEED_BYTES]);
    d.0.copy_from_slice(&coins[..SEED_BYTES]);
    indcpa::keypair::<P, A>(arith, mode, &d.0, pk, &mut sk[..P::SK_POLYVEC_BYTES]);
    let pk_end = P::SK_POLYVEC_BYTES + P::PK_BYTES;
    sk[P::SK_POLYVEC_BYTES..pk_end].copy_from_slice(pk);
    sk[pk_end..pk_end + SEED_BYTES].copy_from_slice(&hash_h_by(arith.keccak(), mode, &[pk]));
    sk[pk_end + SEED_BYTES..].copy_from_slice(&coins[SEED_BYTES..]);
}

/// Âᵀ for `pk`, and the hashes `hashes` (which the backend may compute beside it).
#[inline(always)]
fn transposed_matrix<P: Params, A: Arith>(
    arith: A,
    mode: HashMode,
    pk: &[u8],
    hashes: &mut [(&[u8], &mut [u8; SEED_BYTES])],
) -> Matrix {
    let mut at: Matrix = Default::default();
    arith.matrix_and_hashes(mode, &indcpa::rho_of::<P>(pk), P::K, true, &mut at, hashes);
    at
}

/// Encapsulation from 32 coins: returns the shared secret.
#[inline(always)]
pub fn encapsulate<P: Params, A: Arith>(
    arith: A,
    mode: HashMode,
    pk: &[u8],
    coins: &[u8; SEED_BYTES],
    ct: &mut [u8],
) -> [u8; SEED_BYTES] {
    let mut m = Secret32([0; SEED_BYTES]);
    let mut h = [0u8; SEED_BYTES];
    let at = transposed_matrix::<P, A>(arith, mode, pk, &mut [(coins, &mut m.0), (pk, &mut h)]);
    let (seed, prefix) = hash_h_shared(arith.keccak(), mode, &m.0, &h);
    let seed = Secret32(seed);
    indcpa::encrypt_with_matrix::<P, A>(arith, mode, pk, &at, &m.0, &seed.0, ct);
    let hc = hash_h_by(arith.keccak(), mode, &[ct]);
    hash_h_extended(arith.keccak(), mode, &prefix, &m.0, &h, &hc)
}

/// Decapsulation. Never fails: a ciphertext that does not re-encrypt to itself yields
/// H(z ‖ H(pk) ‖ H(ct)), chosen without branching on the comparison.
#[inline(always)]
pub fn decapsulate<P: Params, A: Arith>(
    arith: A,
    mode: HashMode,
    sk: &[u8],
    ct: &[u8],
) -> [u8; SEED_BYTES] {
    let pk = &sk[P::SK_POLYVEC_BYTES..P::SK_POLYVEC_BYTES + P::PK_BYTES];
    let hpk_at = P::SK_POLYVEC_BYTES + P::PK_BYTES;
    let h = &sk[hpk_at..hpk_at + SEED_BYTES];
    let z = &sk[hpk_at + SEED_BYTES..hpk_at + 2 * SEED_BYTES];
    let mut m = Secret32([0; SEED_BYTES]);
    indcpa::decrypt::<P, A>(arith, &sk[..P::SK_POLYVEC_BYTES], ct, &mut m.0);
    // Not shared with the final hash as in encapsulation: that one may hash z instead of m.
    let seed = Secret32(hash_h_by(arith.keccak(), mode, &[&m.0, h]));
    let mut hc = [0u8; SEED_BYTES];
    // The re-encryption's seed is known already: its noise is sampled with the matrix.
    let mut at: Matrix = Default::default();
    let mut noise = Secret::<MAX_NOISE>::default();
    let noise_count = 2 * P::K + 1;
    arith.transposed_matrix_noise_and_hashes(
        mode,
        &indcpa::rho_of::<P>(pk),
        P::K,
        &mut at,
        NoiseRequest {
            seed: &seed.0,
            etas: &indcpa::encryption_widths::<P>()[..noise_count],
            out: &mut noise.0[..noise_count],
        },
        &mut [(ct, &mut hc)],
    );
    let mut again = [0u8; MAX_CT_BYTES];
    indcpa::encrypt_with_noise::<P, A>(arith, pk, &at, &m.0, &mut noise, &mut again[..P::CT_BYTES]);
    let same = crate::ct::bytes_eq(&again[..P::CT_BYTES], ct);
    for (mi, zi) in m.0.iter_mut().zip(z.iter()) {
        *mi = u8::conditional_select(zi, mi, same);
    }
    let ss = hash_h_by(arith.keccak(), mode, &[&m.0, h, &hc]);
    crate::wipe::bytes(&mut again);
    ss
}
