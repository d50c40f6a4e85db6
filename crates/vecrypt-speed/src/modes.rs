//! The modes beyond ECB, CBC and CTR, per cipher and backend: CFB and OFB (the AES ones of
//! SP 800-38A, the GOST R 34.13 ones with a two-block register elsewhere), CMAC/OMAC, XTS,
//! CTR-ACPKM and OMAC-ACPKM, and the AEADs through one generic row builder.

use std::hint::black_box;

use vecrypt::Backend;
use vecrypt::aes::{Aes, AesCmac, AesGcm, AesXts, K128, K192, K256, KeySize};
use vecrypt::kuznyechik::{Kuznyechik, KuznyechikMgm, acpkm};
use vecrypt::modes::{Gcm, GcmCipher, NamedCipher, gost};
use vecrypt::ublock::{Ublock128_128, Ublock128_256, Ublock256_256};

use crate::{Plan, SpeedRow, time_per_call};

/// The two message sizes of the mode and AEAD rows: a short packet and a 16 KiB buffer.
pub const MODE_SIZES: [(&str, usize); 2] = [("short", 64), ("long", 16 * 1024)];

/// Where rows go, with the progress callback.
struct Sink<'a> {
    plan: &'a Plan,
    algorithm: &'a str,
    backend: String,
    rows: Vec<SpeedRow>,
    progress: &'a mut dyn FnMut(),
}

impl Sink<'_> {
    /// Seal and open rows of one AEAD, through [`aead_rows`].
    fn aead(
        &mut self,
        mode: &'static str,
        seal: &dyn Fn(&mut [u8]) -> [u8; 16],
        open: &dyn Fn(&mut [u8], &[u8; 16]) -> bool,
    ) {
        let rows = aead_rows(
            self.plan,
            &AeadUnderTest {
                algorithm: self.algorithm,
                mode,
                backend: &self.backend,
                seal,
                open,
            },
            self.progress,
        );
        self.rows.extend(rows);
    }

    /// Times `f` over a buffer of each size and adds one row per size.
    fn both_sizes(
        &mut self,
        mode: &'static str,
        direction: &'static str,
        f: &mut dyn FnMut(&mut [u8]),
    ) {
        for (message, len) in MODE_SIZES {
            let mut buf = vec![0u8; len];
            let ns = time_per_call(self.plan.budget, || f(&mut buf));
            self.rows.push(SpeedRow::measured(
                self.algorithm,
                &self.backend,
                false,
                1,
                mode,
                direction,
                message,
                len,
                ns,
            ));
            (self.progress)();
        }
    }
}

/// An AEAD keyed on one backend, as the generic row builder sees it: seal in place returning
/// the tag, open in place checking it. Any AEAD over any cipher (AES-GCM, Kuznyechik-MGM, a
/// GCM over Kuznyechik or uBlock) gets its rows through [`aead_rows`].
pub struct AeadUnderTest<'a> {
    pub algorithm: &'a str,
    /// `gcm`, `mgm`, ...
    pub mode: &'static str,
    pub backend: &'a str,
    pub seal: &'a dyn Fn(&mut [u8]) -> [u8; 16],
    /// Opens a sealed buffer; false when the tag does not match.
    pub open: &'a dyn Fn(&mut [u8], &[u8; 16]) -> bool,
}

/// Seal and open rows of one AEAD at both message sizes.
pub fn aead_rows(plan: &Plan, a: &AeadUnderTest, progress: &mut dyn FnMut()) -> Vec<SpeedRow> {
    let mut rows = Vec::new();
    for (message, len) in MODE_SIZES {
        let mut buf = vec![0u8; len];
        let ns = time_per_call(plan.budget, || {
            black_box((a.seal)(&mut buf));
        });
        rows.push(SpeedRow::measured(
            a.algorithm,
            a.backend,
            false,
            1,
            a.mode,
            "seal",
            message,
            len,
            ns,
        ));
        progress();
        let mut sealed = vec![0u8; len];
        let tag = (a.seal)(&mut sealed);
        let ns = time_per_call(plan.budget, || {
            buf.copy_from_slice(&sealed);
            assert!((a.open)(&mut buf, &tag), "a sealed message opens");
        });
        rows.push(SpeedRow::measured(
            a.algorithm,
            a.backend,
            false,
            1,
            a.mode,
            "open",
            message,
            len,
            ns,
        ));
        progress();
    }
    rows
}

/// The GOST R 34.13 modes with a two-block register (CFB and OFB with s = n) and OMAC.
fn gost_rows<T: NamedCipher>(sink: &mut Sink, c: &T) {
    let iv = vec![0x33u8; 2 * T::BLOCK];
    let half = vec![0x44u8; T::BLOCK / 2];
    sink.both_sizes("gost-ctr", "encrypt", &mut |b| {
        gost::ctr(c, &half, T::BLOCK, b).expect("valid iv")
    });
    sink.both_sizes("gost-cbc", "encrypt", &mut |b| {
        gost::cbc_encrypt(c, &iv, b).expect("whole blocks")
    });
    sink.both_sizes("gost-cbc", "decrypt", &mut |b| {
        gost::cbc_decrypt(c, &iv, b).expect("whole blocks")
    });
    sink.both_sizes("cfb", "encrypt", &mut |b| {
        gost::cfb_encrypt(c, &iv, T::BLOCK, b).expect("valid register")
    });
    sink.both_sizes("cfb", "decrypt", &mut |b| {
        gost::cfb_decrypt(c, &iv, T::BLOCK, b).expect("valid register")
    });
    sink.both_sizes("ofb", "encrypt", &mut |b| {
        gost::ofb(c, &iv, T::BLOCK, b).expect("valid register")
    });
    sink.both_sizes("omac", "mac", &mut |b| {
        black_box(gost::mac(c, b, T::BLOCK).expect("valid tag length"));
    });
}

/// GCM over a 16-byte-block cipher of the crate (its generic GCM), seal and open.
fn gcm_rows<T: GcmCipher>(sink: &mut Sink, c: T) {
    let gcm = Gcm::<T>::from_cipher(c);
    let nonce = [0x11u8; 12];
    sink.aead(
        "gcm",
        &|b| gcm.encrypt_detached(&nonce, &[], b).expect("valid nonce"),
        &|b, tag| gcm.decrypt_detached(&nonce, &[], b, tag).is_ok(),
    );
}

fn keyed<T: NamedCipher>(backend: Backend) -> Option<T> {
    T::keyed(&vec![0x5au8; T::KEY_LEN], Some(backend)).ok()
}

fn kuznyechik_rows(sink: &mut Sink, backend: Backend) {
    let Some(c) = keyed::<Kuznyechik>(backend) else {
        return;
    };
    gost_rows(sink, &c);
    gcm_rows(sink, c.clone());
    sink.both_sizes("ctr-acpkm", "encrypt", &mut |b| {
        acpkm::ctr_acpkm(&c, &[0u8; 8], 4096, b).expect("valid section")
    });
    sink.both_sizes("omac-acpkm", "mac", &mut |b| {
        black_box(acpkm::omac_acpkm(&c, 4096, 96, b, 16).expect("valid sections"));
    });
    let mgm = KuznyechikMgm::new(c.clone());
    let nonce = [0x11u8; 16];
    sink.aead(
        "mgm",
        &|b| mgm.encrypt_detached(&nonce, &[], b).expect("valid nonce"),
        &|b, tag| mgm.decrypt_detached(&nonce, &[], b, tag).is_ok(),
    );
}

fn aes_rows<K: KeySize>(sink: &mut Sink, backend: Backend) {
    let key = vec![0x42u8; K::KEY];
    let Ok(c) = Aes::<K>::with_backend(&key, backend) else {
        return;
    };
    let iv = [0x24u8; 16];
    sink.both_sizes("cfb", "encrypt", &mut |b| c.encrypt_cfb(&iv, b).unwrap());
    sink.both_sizes("cfb", "decrypt", &mut |b| c.decrypt_cfb(&iv, b).unwrap());
    sink.both_sizes("ofb", "encrypt", &mut |b| c.apply_ofb(&iv, b).unwrap());
    if let Ok(m) = AesCmac::<K>::with_backend(&key, backend) {
        sink.both_sizes("cmac", "mac", &mut |b| {
            black_box(m.mac(b));
        });
    }
    // Data key and tweak key differ, as XTS requires.
    let xts_key: Vec<u8> = (0..2 * K::KEY).map(|i| i as u8 ^ 0x42).collect();
    if let Ok(x) = AesXts::<K>::with_backend(&xts_key, backend) {
        sink.both_sizes("xts", "encrypt", &mut |b| x.encrypt_sector(7, b).unwrap());
        sink.both_sizes("xts", "decrypt", &mut |b| x.decrypt_sector(7, b).unwrap());
    }
    if let Ok(gcm) = AesGcm::<K>::with_backend(&key, backend) {
        let nonce = [0x24u8; 12];
        sink.aead(
            "gcm",
            &|b| gcm.encrypt_detached(&nonce, &[], b).expect("valid nonce"),
            &|b, tag| gcm.decrypt_detached(&nonce, &[], b, tag).is_ok(),
        );
    }
}

/// Every row beyond ECB/CBC/CTR of the registry cipher `name` on `backend`.
pub fn extra_rows(
    plan: &Plan,
    name: &str,
    backend: Backend,
    progress: &mut dyn FnMut(),
) -> Vec<SpeedRow> {
    let mut sink = Sink {
        plan,
        algorithm: name,
        backend: backend.name().to_string(),
        rows: Vec::new(),
        progress,
    };
    fn plain<T: NamedCipher>(sink: &mut Sink, backend: Backend) {
        if let Some(c) = keyed::<T>(backend) {
            gost_rows(sink, &c);
        }
    }
    fn with_gcm<T: NamedCipher + GcmCipher>(sink: &mut Sink, backend: Backend) {
        if let Some(c) = keyed::<T>(backend) {
            gost_rows(sink, &c);
            gcm_rows(sink, c);
        }
    }
    match name {
        "ublock-128-128" => with_gcm::<Ublock128_128>(&mut sink, backend),
        "ublock-128-256" => with_gcm::<Ublock128_256>(&mut sink, backend),
        "ublock-256-256" => plain::<Ublock256_256>(&mut sink, backend),
        "kuznyechik" => kuznyechik_rows(&mut sink, backend),
        "aes-128" => aes_rows::<K128>(&mut sink, backend),
        "aes-192" => aes_rows::<K192>(&mut sink, backend),
        "aes-256" => aes_rows::<K256>(&mut sink, backend),
        _ => {}
    }
    sink.rows
}
