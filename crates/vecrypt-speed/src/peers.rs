//! Other implementations measured in the same run, on the same tasks as vecrypt's rows so
//! that the table can show a ratio: the `aes`, `ctr`, `aes-gcm`, `cmac` and `kuznyechik`
//! crates, and the system OpenSSL with the `openssl` feature.

use std::hint::black_box;

use aead::AeadInOut;
use cipher::{BlockCipherDecrypt, BlockCipherEncrypt, KeyInit, KeyIvInit, StreamCipher};

use crate::modes::MODE_SIZES;
use crate::table::LONG_MESSAGE;
use crate::{Plan, SpeedRow, time_per_call};

/// The block-row sizes: one block, and 2 Mbit.
fn block_sizes(block: usize) -> [(&'static str, usize); 2] {
    [("short", block), ("long", LONG_MESSAGE)]
}

struct Sink<'a> {
    plan: &'a Plan,
    algorithm: &'a str,
    rows: Vec<SpeedRow>,
    progress: &'a mut dyn FnMut(),
}

impl Sink<'_> {
    fn row(
        &mut self,
        peer: &str,
        mode: &'static str,
        direction: &'static str,
        sizes: &[(&'static str, usize)],
        f: &mut dyn FnMut(&mut [u8]),
    ) {
        for &(message, len) in sizes {
            let mut buf = vec![0u8; len];
            let ns = time_per_call(self.plan.budget, || f(&mut buf));
            self.rows.push(SpeedRow::measured(
                self.algorithm,
                peer,
                true,
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

/// The RustCrypto types of one AES key size.
trait RustCryptoAes {
    const KEY: usize;
    type Block: KeyInit + BlockCipherEncrypt<BlockSize = cipher::consts::U16> + BlockCipherDecrypt;
    type Gcm: KeyInit + AeadInOut;
}

impl RustCryptoAes for vecrypt::aes::K128 {
    const KEY: usize = 16;
    type Block = aes::Aes128;
    type Gcm = aes_gcm::Aes128Gcm;
}

impl RustCryptoAes for vecrypt::aes::K192 {
    const KEY: usize = 24;
    type Block = aes::Aes192;
    type Gcm = aes_gcm::AesGcm<aes::Aes192, aes_gcm::aead::consts::U12>;
}

impl RustCryptoAes for vecrypt::aes::K256 {
    const KEY: usize = 32;
    type Block = aes::Aes256;
    type Gcm = aes_gcm::Aes256Gcm;
}

fn blocks<C: cipher::BlockSizeUser<BlockSize = cipher::consts::U16>>(
    b: &mut [u8],
) -> &mut [cipher::Block<C>] {
    cipher::Array::cast_slice_from_core_mut(b.as_chunks_mut::<16>().0)
}

fn rustcrypto_aes<K: RustCryptoAes>(sink: &mut Sink) {
    let key = vec![0x42u8; K::KEY];
    let iv = [0x24u8; 16];
    let c = K::Block::new_from_slice(&key).expect("key length");
    let name = "aes crate";
    sink.row(name, "ecb", "encrypt", &block_sizes(16), &mut |b| {
        c.encrypt_blocks(blocks::<K::Block>(b))
    });
    sink.row(name, "ecb", "decrypt", &block_sizes(16), &mut |b| {
        c.decrypt_blocks(blocks::<K::Block>(b))
    });
    sink.row(
        "aes+ctr crates",
        "ctr",
        "encrypt",
        &block_sizes(16),
        &mut |b| {
            ctr::Ctr128BE::<K::Block>::new_from_slices(&key, &iv)
                .expect("key length")
                .apply_keystream(b)
        },
    );
    let gcm = K::Gcm::new_from_slice(&key).expect("key length");
    let nonce = aead::Nonce::<K::Gcm>::try_from([0x24u8; 12].as_slice()).expect("nonce");
    sink.row("aes-gcm crate", "gcm", "seal", &MODE_SIZES, &mut |b| {
        black_box(
            gcm.encrypt_inout_detached(&nonce, &[], b.into())
                .expect("seal"),
        );
    });
}

fn cmac_crate<C: cmac::block_api::CmacCipher + KeyInit>(sink: &mut Sink, key: &[u8]) {
    use cmac::Mac;
    sink.row("cmac crate", "cmac", "mac", &MODE_SIZES, &mut |b| {
        let mut m = <cmac::Cmac<C> as KeyInit>::new_from_slice(key).expect("key length");
        m.update(b);
        black_box(m.finalize());
    });
}

fn kuznyechik_crate(sink: &mut Sink, sizes: &[(&'static str, usize)], decrypt: bool) {
    let key = [0x5au8; 32];
    let c = kuznyechik::Kuznyechik::new(&key.into());
    let name = "kuznyechik crate";
    sink.row(name, "ecb", "encrypt", sizes, &mut |b| {
        c.encrypt_blocks(blocks::<kuznyechik::Kuznyechik>(b))
    });
    if decrypt {
        sink.row(name, "ecb", "decrypt", sizes, &mut |b| {
            c.decrypt_blocks(blocks::<kuznyechik::Kuznyechik>(b))
        });
    }
    sink.row("kuznyechik+ctr crates", "ctr", "encrypt", sizes, &mut |b| {
        ctr::Ctr128BE::<kuznyechik::Kuznyechik>::new(&key.into(), &[0u8; 16].into())
            .apply_keystream(b)
    });
    if decrypt {
        // The generic GCM of the `aes-gcm` crate over the `kuznyechik` crate: the composition
        // of the seeds' Kuznyechik-GCM.
        type KuznyechikGcm = aes_gcm::AesGcm<kuznyechik::Kuznyechik, aes_gcm::aead::consts::U12>;
        let gcm = KuznyechikGcm::new_from_slice(&key).expect("key length");
        let nonce = aead::Nonce::<KuznyechikGcm>::try_from([0x11u8; 12].as_slice()).expect("nonce");
        sink.row(
            "aes-gcm+kuznyechik crates",
            "gcm",
            "seal",
            &MODE_SIZES,
            &mut |b| {
                black_box(
                    gcm.encrypt_inout_detached(&nonce, &[], b.into())
                        .expect("seal"),
                );
            },
        );
    }
}

#[cfg(feature = "openssl")]
mod ossl {
    use std::hint::black_box;

    use openssl::cipher::{Cipher, CipherRef};
    use openssl::cipher_ctx::CipherCtx;

    use super::{Sink, block_sizes};
    use crate::modes::MODE_SIZES;

    fn ctx(c: &CipherRef, key: &[u8], iv: Option<&[u8]>, decrypt: bool) -> CipherCtx {
        let mut ctx = CipherCtx::new().expect("openssl context");
        if decrypt {
            ctx.decrypt_init(Some(c), Some(key), iv)
        } else {
            ctx.encrypt_init(Some(c), Some(key), iv)
        }
        .expect("openssl init");
        ctx.set_padding(false);
        ctx
    }

    /// One context per row, keyed once, as `openssl speed -evp` does.
    fn stream(
        sink: &mut Sink,
        c: &CipherRef,
        key: &[u8],
        iv: Option<&[u8]>,
        mode: &'static str,
        direction: &'static str,
        sizes: &[(&'static str, usize)],
    ) {
        let mut ctx = ctx(c, key, iv, direction == "decrypt");
        let mut out = vec![0u8; sizes.iter().map(|s| s.1).max().unwrap_or(0) + 32];
        sink.row("openssl", mode, direction, sizes, &mut |b| {
            black_box(
                ctx.cipher_update(b, Some(&mut out))
                    .expect("openssl update"),
            );
        });
    }

    pub(super) fn aes(sink: &mut Sink, bits: usize) {
        let key = vec![0x42u8; bits / 8];
        let iv = [0x24u8; 16];
        let pick = |m: &str| -> &'static CipherRef {
            match (bits, m) {
                (128, "ecb") => Cipher::aes_128_ecb(),
                (128, "cbc") => Cipher::aes_128_cbc(),
                (128, "ctr") => Cipher::aes_128_ctr(),
                (128, _) => Cipher::aes_128_gcm(),
                (192, "ecb") => Cipher::aes_192_ecb(),
                (192, "cbc") => Cipher::aes_192_cbc(),
                (192, "ctr") => Cipher::aes_192_ctr(),
                (192, _) => Cipher::aes_192_gcm(),
                (_, "ecb") => Cipher::aes_256_ecb(),
                (_, "cbc") => Cipher::aes_256_cbc(),
                (_, "ctr") => Cipher::aes_256_ctr(),
                _ => Cipher::aes_256_gcm(),
            }
        };
        let sizes = block_sizes(16);
        for dir in ["encrypt", "decrypt"] {
            stream(sink, pick("ecb"), &key, None, "ecb", dir, &sizes);
            stream(sink, pick("cbc"), &key, Some(&iv), "cbc", dir, &sizes);
        }
        stream(sink, pick("ctr"), &key, Some(&iv), "ctr", "encrypt", &sizes);
        let nonce = [0x24u8; 12];
        let mut ctx = ctx(pick("gcm"), &key, Some(&nonce), false);
        let mut out = vec![0u8; MODE_SIZES[1].1 + 32];
        sink.row("openssl", "gcm", "seal", &MODE_SIZES, &mut |b| {
            ctx.encrypt_init(None, None, Some(&nonce))
                .expect("openssl nonce");
            black_box(ctx.cipher_update(b, Some(&mut out)).expect("update"));
            black_box(ctx.cipher_final(&mut out).expect("final"));
            let mut tag = [0u8; 16];
            ctx.tag(&mut tag).expect("tag");
            black_box(tag);
        });
        if bits == 128 {
            stream(
                sink,
                Cipher::aes_128_cfb128(),
                &key,
                Some(&iv),
                "cfb",
                "encrypt",
                &MODE_SIZES,
            );
            stream(
                sink,
                Cipher::aes_128_ofb(),
                &key,
                Some(&iv),
                "ofb",
                "encrypt",
                &MODE_SIZES,
            );
            let xts_key: Vec<u8> = (0..32).map(|i| i as u8 ^ 0x42).collect();
            stream(
                sink,
                Cipher::aes_128_xts(),
                &xts_key,
                Some(&iv),
                "xts",
                "encrypt",
                &MODE_SIZES,
            );
        }
    }
}

/// The peer rows of the registry cipher `name` (none for uBlock: no other implementation
/// exists to compare with).
pub fn peer_rows(plan: &Plan, name: &str, progress: &mut dyn FnMut()) -> Vec<SpeedRow> {
    let mut sink = Sink {
        plan,
        algorithm: name,
        rows: Vec::new(),
        progress,
    };
    if !plan.peers {
        return sink.rows;
    }
    match name {
        "kuznyechik" => kuznyechik_crate(&mut sink, &block_sizes(16), true),
        "aes-128" => {
            rustcrypto_aes::<vecrypt::aes::K128>(&mut sink);
            cmac_crate::<aes::Aes128>(&mut sink, &[0x42; 16]);
        }
        "aes-192" => rustcrypto_aes::<vecrypt::aes::K192>(&mut sink),
        "aes-256" => {
            rustcrypto_aes::<vecrypt::aes::K256>(&mut sink);
            cmac_crate::<aes::Aes256>(&mut sink, &[0x42; 32]);
        }
        _ => {}
    }
    #[cfg(feature = "openssl")]
    if let Some(bits) = name.strip_prefix("aes-").and_then(|b| b.parse().ok()) {
        ossl::aes(&mut sink, bits);
    }
    sink.rows
}

/// The `kuznyechik` crate's ECB encryption and CTR rows over `bytes` per call.
pub(crate) fn kuznyechik_sized(plan: &Plan, bytes: usize) -> Vec<SpeedRow> {
    let mut sink = Sink {
        plan,
        algorithm: "kuznyechik",
        rows: Vec::new(),
        progress: &mut || {},
    };
    kuznyechik_crate(&mut sink, &[("long", bytes)], false);
    sink.rows
}
