//! The Aigis-enc KEM by name, with SHAKE or SM3: sizes, key generation, encapsulation
//! (each from the system's random generator or, for known-answer tests, from given coins)
//! and decapsulation.

use core::ffi::{c_char, c_int};

use vecrypt_core::aigis::{Aigis, HashMode, ParamSet};
use zeroize::Zeroizing;

use crate::ptr::{input, name_of, output};
use crate::status::{FAIL, guard};
use crate::{
    VECRYPT_AIGIS_ENC_BYTES, VECRYPT_AIGIS_ENC_COINBYTES, VECRYPT_AIGIS_KEYPAIR_COINBYTES,
};

/// The scheme named `name`: `"aigis-enc-1"` to `"aigis-enc-4"` (SHAKE) or the same followed
/// by `"-sm3"`.
fn kem_of(name: &str) -> Result<Aigis, ()> {
    let lower = name.to_ascii_lowercase();
    let (set, mode) = match lower.strip_suffix("-sm3") {
        Some(head) => (head, HashMode::Sm3),
        None => (lower.as_str(), HashMode::Shake),
    };
    if !set.starts_with("aigis-enc-") {
        return Err(());
    }
    Ok(Aigis::new(ParamSet::parse(set).map_err(|_| ())?, mode))
}

/// The public key, secret key, ciphertext and shared secret lengths of the KEM `name`, each
/// written where its pointer is not NULL.
///
/// # Safety
/// `name` is a NUL-terminated string; each non-NULL pointer is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vecrypt_kem_sizes(
    name: *const c_char,
    pklen: *mut usize,
    sklen: *mut usize,
    ctlen: *mut usize,
    sslen: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY: the caller's contract for `name`.
        let set = kem_of(unsafe { name_of(name) }?)?.set();
        let vals = [
            (pklen, set.public_key_bytes()),
            (sklen, set.secret_key_bytes()),
            (ctlen, set.ciphertext_bytes()),
            (sslen, VECRYPT_AIGIS_ENC_BYTES),
        ];
        for (p, v) in vals {
            // SAFETY: NULL or writable.
            if let Some(p) = unsafe { p.as_mut() } {
                *p = v;
            }
        }
        Ok(())
    })
}

/// Key generation from `coinslen` bytes of coins (`VECRYPT_AIGIS_KEYPAIR_COINBYTES`, 64:
/// `d || z`, as the known-answer files list them). For tests: secret coins give a secret
/// key. Writes the public key to `pk` and the secret key to `sk`, sized by
/// `vecrypt_kem_sizes`.
///
/// # Safety
/// `name` is a NUL-terminated string; `pk` and `sk` point to the public and secret key
/// lengths of writable bytes, `coins` to `coinslen` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vecrypt_kem_keypair_derand(
    name: *const c_char,
    pk: *mut u8,
    sk: *mut u8,
    coins: *const u8,
    coinslen: usize,
) -> c_int {
    guard(|| {
        // SAFETY: the caller's contract for `name`.
        let kem = kem_of(unsafe { name_of(name) }?)?;
        if coinslen != VECRYPT_AIGIS_KEYPAIR_COINBYTES || pk.is_null() || sk.is_null() {
            return Err(());
        }
        // SAFETY: the caller's contract for `coins`.
        let coins = unsafe { input(coins, coinslen) }?;
        let set = kem.set();
        let mut p = vec![0u8; set.public_key_bytes()];
        let mut s = Zeroizing::new(vec![0u8; set.secret_key_bytes()]);
        kem.keypair_into(coins, &mut p, &mut s).map_err(|_| ())?;
        // SAFETY: the caller's contract for `pk` and `sk`.
        unsafe { output(pk, p.len()) }?.copy_from_slice(&p);
        // SAFETY: as above.
        unsafe { output(sk, s.len()) }?.copy_from_slice(&s);
        Ok(())
    })
}

/// Key generation from the system's random generator: writes the public key to `pk` and the
/// secret key to `sk`, sized by `vecrypt_kem_sizes`.
///
/// # Safety
/// `name` is a NUL-terminated string; `pk` and `sk` point to the public and secret key
/// lengths of writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vecrypt_kem_keypair(
    name: *const c_char,
    pk: *mut u8,
    sk: *mut u8,
) -> c_int {
    let mut coins = Zeroizing::new([0u8; VECRYPT_AIGIS_KEYPAIR_COINBYTES]);
    if getrandom::fill(&mut coins[..]).is_err() {
        return FAIL;
    }
    // SAFETY: forwarded contract; `coins` is a local array.
    unsafe { vecrypt_kem_keypair_derand(name, pk, sk, coins.as_ptr(), coins.len()) }
}

/// Encapsulation from `coinslen` bytes of coins (`VECRYPT_AIGIS_ENC_COINBYTES`, 32), for
/// known-answer tests: coins that repeat or can be guessed give away the shared secret.
/// Writes the ciphertext to `ct` and the 32-byte shared secret to `ss`.
///
/// # Safety
/// `name` is a NUL-terminated string; `ct`, `ss` and `pk` point to the ciphertext, shared
/// secret and public key lengths of bytes, `coins` to `coinslen` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vecrypt_kem_enc_derand(
    name: *const c_char,
    ct: *mut u8,
    ss: *mut u8,
    pk: *const u8,
    coins: *const u8,
    coinslen: usize,
) -> c_int {
    guard(|| {
        // SAFETY: the caller's contract for `name`.
        let kem = kem_of(unsafe { name_of(name) }?)?;
        let set = kem.set();
        if coinslen != VECRYPT_AIGIS_ENC_COINBYTES || pk.is_null() || ct.is_null() || ss.is_null() {
            return Err(());
        }
        // SAFETY: the caller's contract for `pk` and `coins`.
        let (pk, coins) = unsafe { (input(pk, set.public_key_bytes())?, input(coins, coinslen)?) };
        let mut c = vec![0u8; set.ciphertext_bytes()];
        let secret = kem.encapsulate_into(pk, coins, &mut c).map_err(|_| ())?;
        // SAFETY: the caller's contract for `ct` and `ss`.
        unsafe { output(ct, c.len()) }?.copy_from_slice(&c);
        // SAFETY: as above.
        unsafe { output(ss, VECRYPT_AIGIS_ENC_BYTES) }?.copy_from_slice(&secret[..]);
        Ok(())
    })
}

/// Encapsulation to the public key `pk` with fresh randomness: writes the ciphertext to
/// `ct` and the 32-byte shared secret to `ss`.
///
/// # Safety
/// `name` is a NUL-terminated string; `ct`, `ss` and `pk` point to the ciphertext, shared
/// secret and public key lengths of bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vecrypt_kem_enc(
    name: *const c_char,
    ct: *mut u8,
    ss: *mut u8,
    pk: *const u8,
) -> c_int {
    let mut coins = Zeroizing::new([0u8; VECRYPT_AIGIS_ENC_COINBYTES]);
    if getrandom::fill(&mut coins[..]).is_err() {
        return FAIL;
    }
    // SAFETY: forwarded contract; `coins` is a local array.
    unsafe { vecrypt_kem_enc_derand(name, ct, ss, pk, coins.as_ptr(), coins.len()) }
}

/// Decapsulation: writes the 32-byte shared secret of `ct` under the secret key `sk` to
/// `ss`. A well-formed ciphertext made for another key gives an unrelated secret (implicit
/// rejection), not an error.
///
/// # Safety
/// `name` is a NUL-terminated string; `ss`, `ct` and `sk` point to the shared secret,
/// ciphertext and secret key lengths of bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vecrypt_kem_dec(
    name: *const c_char,
    ss: *mut u8,
    ct: *const u8,
    sk: *const u8,
) -> c_int {
    guard(|| {
        // SAFETY: the caller's contract for `name`.
        let kem = kem_of(unsafe { name_of(name) }?)?;
        let set = kem.set();
        if ct.is_null() || sk.is_null() || ss.is_null() {
            return Err(());
        }
        // SAFETY: the caller's contract for `ct` and `sk`.
        let (c, s) = unsafe {
            (
                input(ct, set.ciphertext_bytes())?,
                input(sk, set.secret_key_bytes())?,
            )
        };
        let secret = kem.decapsulate(s, c).map_err(|_| ())?;
        // SAFETY: the caller's contract for `ss`.
        unsafe { output(ss, VECRYPT_AIGIS_ENC_BYTES) }?.copy_from_slice(&secret[..]);
        Ok(())
    })
}
