//! The operations checked, one [`Case`] per algorithm and backend.
//!
//! Each case marks its keys, coins and plaintexts secret before the library sees them, and
//! marks public only ciphertexts, tags and public keys, which the library hands out by
//! design. At the end of each step the case also marks its own results public so that it can
//! check that they round-trip; by then the library has finished with them.

use cipher::{Block, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
use vecrypt::aes::{Aes, AesCmac, AesGcm, AesXts, K128, K192, K256, KeySize};
use vecrypt::aigis::{self, Aigis, HashMode, ParamSet};
use vecrypt::kuznyechik::{Kuznyechik, KuznyechikMgm, acpkm};
use vecrypt::modes::{BlockModes, Gcm, GcmCipher, gost};
use vecrypt::registry::{self, CipherInfo};
use vecrypt::ublock::{Ublock, Ublock128_128, Ublock128_256, Ublock256_256, Variant};
use vecrypt::{Backend, Error};

use crate::memcheck;

/// What a case returns when a result is wrong (memcheck reports are counted separately).
type Outcome = Result<(), String>;

/// One algorithm on one backend.
pub struct Case {
    pub algorithm: String,
    pub backend: Backend,
    /// The operations the case runs, for the report.
    pub operations: &'static str,
    pub run: Box<dyn Fn(Backend) -> Outcome>,
}

/// Message lengths in blocks: one, the short batches, around the bulk kernels' batch sizes,
/// and more than 256 blocks (where the widest bitsliced kernels start).
const BLOCKS: &[usize] = &[1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 64, 300];
/// Byte lengths for the modes that take any length.
const LENGTHS: &[usize] = &[0, 1, 15, 16, 17, 63, 64, 65, 200, 1029];

/// Deterministic filler bytes (a 64-bit xorshift), different for every `seed`.
fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 32) as u8
        })
        .collect()
}

/// Bytes that memcheck treats as secret.
fn secret(seed: u64, len: usize) -> Vec<u8> {
    let mut v = bytes(seed, len);
    memcheck::secret(&mut v);
    v
}

/// A copy of `v` marked secret.
fn secret_copy(v: &[u8]) -> Vec<u8> {
    let mut c = v.to_vec();
    memcheck::secret(&mut c);
    c
}

/// Checks, after the library is done with it, that `got` equals `want`.
fn same(what: &str, got: &mut [u8], want: &[u8]) -> Outcome {
    memcheck::public(got);
    if got == want {
        Ok(())
    } else {
        Err(format!("{what} does not round-trip"))
    }
}

fn lib(what: &'static str) -> impl Fn(Error) -> String {
    move |e| format!("{what}: {e}")
}

/// Whether a tag check passed. Its result is public by design, so it is marked public
/// before anything branches on it.
#[inline(never)]
fn accepted(check: impl FnOnce() -> Result<(), Error>) -> bool {
    let mut ok = [u8::from(check().is_ok())];
    memcheck::public(&mut ok);
    ok[0] == 1
}

/// Every backend of the algorithm this CPU runs, except the table-driven one that is never a
/// default.
fn constant_time(backends: Vec<Backend>) -> Vec<Backend> {
    backends
        .into_iter()
        .filter(|b| b.is_constant_time())
        .collect()
}

/// The backends this CPU runs for each algorithm, for `vecrypt-ctcheck list`.
pub fn backends() -> Vec<(String, Vec<Backend>)> {
    let mut all: Vec<(String, Vec<Backend>)> = registry::ciphers()
        .into_iter()
        .map(|c| (c.name.to_string(), constant_time((c.backends)())))
        .collect();
    all.push(("aigis-enc".into(), constant_time(aigis::backends())));
    all
}

pub fn of_family(family: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut add = |algorithm: String,
                   backends: Vec<Backend>,
                   operations: &'static str,
                   run: fn(Backend) -> Outcome| {
        for backend in constant_time(backends) {
            cases.push(Case {
                algorithm: algorithm.clone(),
                backend,
                operations,
                run: Box::new(run),
            });
        }
    };
    const MODES: &str = "ecb, cbc, ctr, multi-key ecb and cbc, one block by the cipher traits";
    const GCM: &str = "gcm seal, open, reject";
    match family {
        "ublock" => {
            add(
                "ublock-128-128".into(),
                Ublock128_128::backends(),
                MODES,
                |b| registered::<Ublock128_128>("ublock-128-128", b),
            );
            add(
                "ublock-128-128 gcm".into(),
                Ublock128_128::backends(),
                GCM,
                |b| block_gcm::<Ublock128_128>(16, b),
            );
            add(
                "ublock-128-256".into(),
                Ublock128_256::backends(),
                MODES,
                |b| registered::<Ublock128_256>("ublock-128-256", b),
            );
            add(
                "ublock-256-256".into(),
                Ublock256_256::backends(),
                MODES,
                |b| registered::<Ublock256_256>("ublock-256-256", b),
            );
            let paper: Vec<Backend> = Ublock128_128::backends()
                .into_iter()
                .filter(|b| *b == Backend::Avx2)
                .collect();
            const PAPER: &str = "paper layout: ecb, cbc, ctr";
            add("ublock-128-128 paper".into(), paper.clone(), PAPER, |_| {
                paper_layout::<vecrypt::ublock::V128_128>()
            });
            add("ublock-128-256 paper".into(), paper.clone(), PAPER, |_| {
                paper_layout::<vecrypt::ublock::V128_256>()
            });
            add("ublock-256-256 paper".into(), paper, PAPER, |_| {
                paper_layout::<vecrypt::ublock::V256_256>()
            });
        }
        "kuznyechik" => {
            add("kuznyechik".into(), Kuznyechik::backends(), MODES, |b| {
                registered::<Kuznyechik>("kuznyechik", b)
            });
            add(
                "kuznyechik gost".into(),
                Kuznyechik::backends(),
                "GOST ctr, ofb, cbc, cfb, mac; ctr-acpkm, omac-acpkm; mgm seal, open, reject",
                kuznyechik_modes,
            );
            add("kuznyechik gcm".into(), Kuznyechik::backends(), GCM, |b| {
                block_gcm::<Kuznyechik>(32, b)
            });
        }
        "aes" => {
            const AES: &str = "ctr32, gcm seal, open, reject, cmac, verify, reject, xts";
            add("aes-128".into(), Aes::<K128>::backends(), MODES, |b| {
                registered::<Aes<K128>>("aes-128", b)
            });
            add("aes-192".into(), Aes::<K192>::backends(), MODES, |b| {
                registered::<Aes<K192>>("aes-192", b)
            });
            add("aes-256".into(), Aes::<K256>::backends(), MODES, |b| {
                registered::<Aes<K256>>("aes-256", b)
            });
            add(
                "aes-128 modes".into(),
                Aes::<K128>::backends(),
                AES,
                aes_modes::<K128>,
            );
            add(
                "aes-192 modes".into(),
                Aes::<K192>::backends(),
                AES,
                aes_modes::<K192>,
            );
            add(
                "aes-256 modes".into(),
                Aes::<K256>::backends(),
                AES,
                aes_modes::<K256>,
            );
        }
        "aigis" => {
            const KEM: &str = "keygen, encaps, decaps (valid and altered ciphertext)";
            for set in ParamSet::ALL {
                for (mode, name) in [(HashMode::Shake, "shake"), (HashMode::Sm3, "sm3")] {
                    let algorithm = format!("{} {name}", set.name().to_ascii_lowercase());
                    for backend in constant_time(aigis::backends()) {
                        cases.push(Case {
                            algorithm: algorithm.clone(),
                            backend,
                            operations: KEM,
                            run: Box::new(move |b| kem(set, mode, b)),
                        });
                    }
                }
            }
        }
        _ => {}
    }
    cases
}

/// ECB, CBC and CTR in both directions on one key, then ECB and CBC on four keys at once,
/// through the registry's interface; then single blocks through the RustCrypto traits.
fn registered<C>(name: &str, backend: Backend) -> Outcome
where
    C: KeyInit + BlockCipherEncrypt + BlockCipherDecrypt + BlockModes,
{
    let info: CipherInfo = registry::cipher(name).map_err(lib("registry"))?;
    let n = info.block_len;
    let key = secret(1, info.key_len);
    let cipher = (info.new)(&key, Some(backend)).map_err(lib("key"))?;
    for (i, &blocks) in BLOCKS.iter().enumerate() {
        let seed = 100 + 10 * i as u64;
        let iv = bytes(seed, n);
        let pt = bytes(seed + 1, blocks * n);

        let mut buf = secret_copy(&pt);
        cipher.encrypt_ecb(&mut buf).map_err(lib("ecb"))?;
        memcheck::public(&mut buf);
        cipher.decrypt_ecb(&mut buf).map_err(lib("ecb"))?;
        same("ecb", &mut buf, &pt)?;

        let mut buf = secret_copy(&pt);
        cipher.encrypt_cbc(&iv, &mut buf).map_err(lib("cbc"))?;
        memcheck::public(&mut buf);
        cipher.decrypt_cbc(&iv, &mut buf).map_err(lib("cbc"))?;
        same("cbc", &mut buf, &pt)?;

        for tail in [0, 5] {
            let pt = bytes(seed + 2, blocks * n + tail);
            let mut buf = secret_copy(&pt);
            cipher.apply_ctr(&iv, &mut buf).map_err(lib("ctr"))?;
            memcheck::public(&mut buf);
            cipher.apply_ctr(&iv, &mut buf).map_err(lib("ctr"))?;
            same("ctr", &mut buf, &pt)?;
        }
    }

    let keys: Vec<Vec<u8>> = (0..4).map(|i| secret(10 + i, info.key_len)).collect();
    let keys: Vec<&[u8]> = keys.iter().map(Vec::as_slice).collect();
    let set = (info.new_multi)(&keys, Some(backend)).map_err(lib("multi-key"))?;
    let ivs: Vec<Vec<u8>> = (0..4).map(|i| bytes(20 + i, n)).collect();
    let ivs: Vec<&[u8]> = ivs.iter().map(Vec::as_slice).collect();
    for lengths in [
        [1, 1, 1, 1],
        [3, 0, 8, 17],
        [64, 64, 64, 64],
        [300, 2, 33, 9],
    ] {
        let pts: Vec<Vec<u8>> = (0..4)
            .map(|i| bytes(30 + i as u64, lengths[i] * n))
            .collect();
        for cbc in [false, true] {
            let mut bufs: Vec<Vec<u8>> = pts.iter().map(|p| secret_copy(p)).collect();
            let mut views: Vec<&mut [u8]> = bufs.iter_mut().map(Vec::as_mut_slice).collect();
            if cbc {
                set.encrypt_cbc(&ivs, &mut views)
                    .map_err(lib("multi cbc"))?;
            } else {
                set.encrypt_ecb(&mut views).map_err(lib("multi ecb"))?;
            }
            for v in views.iter_mut() {
                memcheck::public(v);
            }
            if cbc {
                set.decrypt_cbc(&ivs, &mut views)
                    .map_err(lib("multi cbc"))?;
            } else {
                set.decrypt_ecb(&mut views).map_err(lib("multi ecb"))?;
            }
            for (v, p) in views.iter_mut().zip(&pts) {
                same("multi-key", v, p)?;
            }
        }
    }
    one_block::<C>(backend)
}

/// One block at a time through the RustCrypto traits, keyed by `KeyInit` on the forced
/// backend.
fn one_block<C>(backend: Backend) -> Outcome
where
    C: KeyInit + BlockCipherEncrypt + BlockCipherDecrypt + BlockModes,
{
    let key = secret(6, C::key_size());
    vecrypt::cpu::force_backend(Some(backend));
    let cipher = C::new_from_slice(&key).map_err(|_| "key length".to_string());
    vecrypt::cpu::force_backend(None);
    let cipher = cipher?;
    if cipher.backend() != backend {
        return Err(format!("keyed on {} instead", cipher.backend()));
    }
    for seed in 0..4 {
        let pt = bytes(700 + seed, C::block_size());
        let mut block = Block::<C>::try_from(&pt[..]).map_err(|_| "block length")?;
        memcheck::secret(&mut block);
        cipher.encrypt_block(&mut block);
        memcheck::public(&mut block);
        cipher.decrypt_block(&mut block);
        same("one block", &mut block, &pt)?;
    }
    Ok(())
}

/// uBlock with every call on the AVX2 kernel of the paper's layout.
fn paper_layout<V: Variant>() -> Outcome {
    let key = secret(2, V::KEY);
    let cipher = Ublock::<V>::with_paper_layout(&key).map_err(lib("key"))?;
    let n = V::BLOCK;
    for (i, &blocks) in BLOCKS.iter().enumerate() {
        let seed = 200 + 10 * i as u64;
        let iv = bytes(seed, n);
        let pt = bytes(seed + 1, blocks * n);
        let mut buf = secret_copy(&pt);
        cipher.encrypt_ecb(&mut buf).map_err(lib("ecb"))?;
        memcheck::public(&mut buf);
        cipher.decrypt_ecb(&mut buf).map_err(lib("ecb"))?;
        same("ecb", &mut buf, &pt)?;
        let mut buf = secret_copy(&pt);
        cipher.encrypt_cbc(&iv, &mut buf).map_err(lib("cbc"))?;
        memcheck::public(&mut buf);
        cipher.decrypt_cbc(&iv, &mut buf).map_err(lib("cbc"))?;
        same("cbc", &mut buf, &pt)?;
        let mut buf = secret_copy(&pt);
        cipher.apply_ctr(&iv, &mut buf).map_err(lib("ctr"))?;
        memcheck::public(&mut buf);
        cipher.apply_ctr(&iv, &mut buf).map_err(lib("ctr"))?;
        same("ctr", &mut buf, &pt)?;
    }
    Ok(())
}

/// The GOST R 34.13 modes, ACPKM and MGM on Kuznyechik.
fn kuznyechik_modes(backend: Backend) -> Outcome {
    let key = secret(3, 32);
    let cipher = Kuznyechik::with_backend(&key, backend).map_err(lib("key"))?;
    for (i, &len) in LENGTHS.iter().enumerate() {
        let seed = 300 + 10 * i as u64;
        let pt = bytes(seed, len);
        let whole = bytes(seed + 1, len / 16 * 16);

        for s in [16, 5] {
            let iv = bytes(seed + 2, 8);
            let mut buf = secret_copy(&pt);
            gost::ctr(&cipher, &iv, s, &mut buf).map_err(lib("ctr"))?;
            memcheck::public(&mut buf);
            gost::ctr(&cipher, &iv, s, &mut buf).map_err(lib("ctr"))?;
            same("gost ctr", &mut buf, &pt)?;

            let iv = bytes(seed + 3, 32);
            let mut buf = secret_copy(&pt);
            gost::ofb(&cipher, &iv, s, &mut buf).map_err(lib("ofb"))?;
            memcheck::public(&mut buf);
            gost::ofb(&cipher, &iv, s, &mut buf).map_err(lib("ofb"))?;
            same("gost ofb", &mut buf, &pt)?;

            let mut buf = secret_copy(&pt);
            gost::cfb_encrypt(&cipher, &iv, s, &mut buf).map_err(lib("cfb"))?;
            memcheck::public(&mut buf);
            gost::cfb_decrypt(&cipher, &iv, s, &mut buf).map_err(lib("cfb"))?;
            same("gost cfb", &mut buf, &pt)?;
        }

        let iv = bytes(seed + 4, 32);
        let mut buf = secret_copy(&whole);
        gost::cbc_encrypt(&cipher, &iv, &mut buf).map_err(lib("cbc"))?;
        memcheck::public(&mut buf);
        gost::cbc_decrypt(&cipher, &iv, &mut buf).map_err(lib("cbc"))?;
        same("gost cbc", &mut buf, &whole)?;

        let data = secret_copy(&pt);
        for s in [16, 8] {
            let mut tag = gost::mac(&cipher, &data, s).map_err(lib("mac"))?;
            memcheck::public(&mut tag);
        }
        let mut tag = acpkm::omac_acpkm(&cipher, 32, 96, &data, 16).map_err(lib("omac-acpkm"))?;
        memcheck::public(&mut tag);

        let iv = bytes(seed + 5, 8);
        let mut buf = secret_copy(&pt);
        acpkm::ctr_acpkm(&cipher, &iv, 32, &mut buf).map_err(lib("ctr-acpkm"))?;
        memcheck::public(&mut buf);
        acpkm::ctr_acpkm(&cipher, &iv, 32, &mut buf).map_err(lib("ctr-acpkm"))?;
        same("ctr-acpkm", &mut buf, &pt)?;

        let mgm = KuznyechikMgm::with_backend(&key, backend).map_err(lib("mgm key"))?;
        let mut nonce = bytes(seed + 6, 16);
        nonce[0] &= 0x7f;
        let ad = bytes(seed + 7, len % 41);
        let mut buf = secret_copy(&pt);
        let mut tag = mgm
            .encrypt_detached(&nonce, &ad, &mut buf)
            .map_err(lib("mgm"))?;
        memcheck::public(&mut buf);
        memcheck::public(&mut tag);
        let ct = buf.clone();
        mgm.decrypt_detached(&nonce, &ad, &mut buf, &tag)
            .map_err(lib("mgm open"))?;
        same("mgm", &mut buf, &pt)?;
        let mut buf = ct.clone();
        let mut bad = tag;
        bad[3] ^= 1;
        match mgm.decrypt_detached(&nonce, &ad, &mut buf, &bad) {
            Err(Error::AuthenticationFailed) => same("mgm rejected", &mut buf, &ct)?,
            _ => return Err("mgm accepted an altered tag".into()),
        }
    }
    Ok(())
}

/// GCM over a 128-bit cipher of the crate (the generic `Gcm`), with a secret key and message.
fn block_gcm<C: GcmCipher>(key_len: usize, backend: Backend) -> Outcome {
    let key = secret(6, key_len);
    let gcm = Gcm::<C>::with_backend(&key, backend).map_err(lib("gcm key"))?;
    for (i, &len) in LENGTHS.iter().enumerate() {
        let seed = 600 + 10 * i as u64;
        let pt = bytes(seed, len);
        let nonce = bytes(seed + 1, 12);
        let aad = bytes(seed + 2, len % 29);
        let mut buf = secret_copy(&pt);
        let mut tag = gcm
            .encrypt_detached(&nonce, &aad, &mut buf)
            .map_err(lib("gcm"))?;
        memcheck::public(&mut buf);
        memcheck::public(&mut tag);
        let ct = buf.clone();
        gcm.decrypt_detached(&nonce, &aad, &mut buf, &tag)
            .map_err(lib("gcm open"))?;
        same("gcm", &mut buf, &pt)?;
        let mut buf = ct.clone();
        let mut bad = tag;
        bad[7] ^= 4;
        match gcm.decrypt_detached(&nonce, &aad, &mut buf, &bad) {
            Err(Error::AuthenticationFailed) => same("gcm rejected", &mut buf, &ct)?,
            _ => return Err("gcm accepted an altered tag".into()),
        }
    }
    Ok(())
}

/// AES's own modes: CTR with a 32-bit counter, GCM, CMAC and XTS.
fn aes_modes<K: KeySize>(backend: Backend) -> Outcome {
    let key = secret(4, K::KEY);
    let cipher = Aes::<K>::with_backend(&key, backend).map_err(lib("key"))?;
    let gcm = AesGcm::<K>::with_backend(&key, backend).map_err(lib("gcm key"))?;
    let cmac = AesCmac::<K>::with_backend(&key, backend).map_err(lib("cmac key"))?;
    let xts_key = secret(5, 2 * K::KEY);
    let xts = AesXts::<K>::with_backend(&xts_key, backend).map_err(lib("xts key"))?;
    for (i, &len) in LENGTHS.iter().enumerate() {
        let seed = 400 + 10 * i as u64;
        let pt = bytes(seed, len);

        let mut iv = bytes(seed + 1, 16);
        iv[12..].fill(0xff);
        let mut buf = secret_copy(&pt);
        cipher.apply_ctr32(&iv, &mut buf).map_err(lib("ctr32"))?;
        memcheck::public(&mut buf);
        cipher.apply_ctr32(&iv, &mut buf).map_err(lib("ctr32"))?;
        same("ctr32", &mut buf, &pt)?;

        let nonce = bytes(seed + 2, 12);
        let aad = bytes(seed + 3, len % 37);
        let mut buf = secret_copy(&pt);
        let mut tag = gcm
            .encrypt_detached(&nonce, &aad, &mut buf)
            .map_err(lib("gcm"))?;
        memcheck::public(&mut buf);
        memcheck::public(&mut tag);
        let ct = buf.clone();
        gcm.decrypt_detached(&nonce, &aad, &mut buf, &tag)
            .map_err(lib("gcm open"))?;
        same("gcm", &mut buf, &pt)?;
        let mut buf = ct.clone();
        let mut bad = tag;
        bad[0] ^= 0x80;
        match gcm.decrypt_detached(&nonce, &aad, &mut buf, &bad) {
            Err(Error::AuthenticationFailed) => same("gcm rejected", &mut buf, &ct)?,
            _ => return Err("gcm accepted an altered tag".into()),
        }

        let data = secret_copy(&pt);
        let mut tag = cmac.mac(&data);
        memcheck::public(&mut tag);
        if !accepted(|| cmac.verify(&data, &tag)) {
            return Err("cmac rejected its own tag".into());
        }
        let mut bad = tag;
        bad[15] ^= 1;
        if accepted(|| cmac.verify(&data, &bad)) {
            return Err("cmac accepted an altered tag".into());
        }

        if len >= 16 {
            let tweak = bytes(seed + 4, 16);
            let mut buf = secret_copy(&pt);
            xts.encrypt_unit(&tweak, &mut buf).map_err(lib("xts"))?;
            memcheck::public(&mut buf);
            xts.decrypt_unit(&tweak, &mut buf).map_err(lib("xts"))?;
            same("xts", &mut buf, &pt)?;
        }
    }
    Ok(())
}

/// Key generation, encapsulation and decapsulation of a valid and of an altered ciphertext
/// (the implicit-rejection path), twice with different coins.
fn kem(set: ParamSet, mode: HashMode, backend: Backend) -> Outcome {
    let kem = Aigis::with_backend(set, mode, backend).map_err(lib("kem"))?;
    for round in 0..2u64 {
        let coins = secret(500 + round, aigis::KEYPAIR_COINS_BYTES);
        let mut pk = vec![0u8; set.public_key_bytes()];
        let mut sk = vec![0u8; set.secret_key_bytes()];
        kem.keypair_into(&coins, &mut pk, &mut sk)
            .map_err(lib("keygen"))?;
        memcheck::public(&mut pk);
        // The secret key ends with the public key, its hash H(pk), and z; the first two are
        // public, only the polynomial vector at the start and z are secret.
        let pk_at = sk.len() - 2 * 32 - pk.len();
        memcheck::public(&mut sk[pk_at..pk_at + pk.len() + 32]);
        if sk[pk_at..pk_at + pk.len()] != pk[..] {
            return Err("the secret key does not hold the public key where expected".into());
        }

        let coins = secret(600 + round, aigis::ENCAPS_COINS_BYTES);
        let mut ct = vec![0u8; set.ciphertext_bytes()];
        let mut ss = kem
            .encapsulate_into(&pk, &coins, &mut ct)
            .map_err(lib("encaps"))?;
        memcheck::public(&mut ct);

        let mut got = kem.decapsulate(&sk, &ct).map_err(lib("decaps"))?;
        let mut altered = ct.clone();
        altered[round as usize * 7] ^= 4;
        let mut rejected = kem.decapsulate(&sk, &altered).map_err(lib("decaps"))?;

        memcheck::public(&mut ss[..]);
        same("shared secret", &mut got[..], &ss[..])?;
        memcheck::public(&mut rejected[..]);
        if rejected == ss {
            return Err("an altered ciphertext gave the same secret".into());
        }
    }
    Ok(())
}

/// How many reports one block of the table-driven Kuznyechik causes (0 where the CPU has no
/// such backend, which `vecrypt-ctcheck canary` then reports as not flagged).
pub fn table_leaky_reports() -> usize {
    let key = secret(7, 32);
    let before = memcheck::error_count();
    if let Ok(cipher) = Kuznyechik::with_backend(&key, Backend::TableLeaky) {
        let mut block = [0x5au8; 16];
        memcheck::secret(&mut block);
        cipher.encrypt_block(&mut block);
        memcheck::public(&mut block);
    }
    memcheck::error_count() - before
}

/// How many reports one block of the T-table AES-128 causes, in each direction (0 where
/// the CPU has no such backend).
pub fn table_leaky_aes_reports() -> usize {
    let key = secret(8, 16);
    let before = memcheck::error_count();
    if let Ok(cipher) = Aes::<K128>::with_backend(&key, Backend::TableLeaky) {
        let mut block = [0xa5u8; 16];
        memcheck::secret(&mut block);
        cipher.encrypt_ecb(&mut block).ok();
        cipher.decrypt_ecb(&mut block).ok();
        memcheck::public(&mut block);
    }
    memcheck::error_count() - before
}
