//! Other implementations measured in the same run, on the same tasks as vecrypt's rows so
//! that the table can show a ratio: the `aes`, `ctr`, `aes-gcm`, `cmac` and `kuznyechik`
//! crates, and the system OpenSSL with the `openssl` feature.

use std::hint::black_box;

use aead::AeadInOut;
use cipher::{BlockCipherDecrypt, BlockCipherEncrypt, KeyInit, KeyIvInit, StreamCipher};

use crate::modes::MODE_SIZES;
use crate::table::LONG_MESSAGE;
use vecrypt::aes::{K128, K192, K256, KeySize};

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

/// The peer implementations of one AES key size: the RustCrypto types, and OpenSSL's cipher
/// of each mode with the `openssl` feature.
pub(crate) trait AesPeers: KeySize {
    type Block: KeyInit
        + BlockCipherEncrypt<BlockSize = cipher::consts::U16>
        + BlockCipherDecrypt
        + Clone;
    type Gcm: KeyInit + AeadInOut;
    /// OpenSSL's cipher of `mode` (`ecb`, `cbc`, `ctr`, `gcm`, `cfb`, `ofb`, `xts`) for this
    /// key size, None where OpenSSL has none (XTS with 192-bit keys).
    #[cfg(feature = "openssl")]
    fn openssl(mode: &str) -> Option<&'static openssl::cipher::CipherRef>;
}

impl AesPeers for K128 {
    type Block = aes::Aes128;
    type Gcm = aes_gcm::Aes128Gcm;
    #[cfg(feature = "openssl")]
    fn openssl(mode: &str) -> Option<&'static openssl::cipher::CipherRef> {
        use openssl::cipher::Cipher;
        Some(match mode {
            "ecb" => Cipher::aes_128_ecb(),
            "cbc" => Cipher::aes_128_cbc(),
            "ctr" => Cipher::aes_128_ctr(),
            "gcm" => Cipher::aes_128_gcm(),
            "cfb" => Cipher::aes_128_cfb128(),
            "ofb" => Cipher::aes_128_ofb(),
            "xts" => Cipher::aes_128_xts(),
            _ => return None,
        })
    }
}

impl AesPeers for K192 {
    type Block = aes::Aes192;
    type Gcm = aes_gcm::AesGcm<aes::Aes192, aes_gcm::aead::consts::U12>;
    #[cfg(feature = "openssl")]
    fn openssl(mode: &str) -> Option<&'static openssl::cipher::CipherRef> {
        use openssl::cipher::Cipher;
        Some(match mode {
            "ecb" => Cipher::aes_192_ecb(),
            "cbc" => Cipher::aes_192_cbc(),
            "ctr" => Cipher::aes_192_ctr(),
            "gcm" => Cipher::aes_192_gcm(),
            "cfb" => Cipher::aes_192_cfb128(),
            "ofb" => Cipher::aes_192_ofb(),
            _ => return None,
        })
    }
}

impl AesPeers for K256 {
    type Block = aes::Aes256;
    type Gcm = aes_gcm::Aes256Gcm;
    #[cfg(feature = "openssl")]
    fn openssl(mode: &str) -> Option<&'static openssl::cipher::CipherRef> {
        use openssl::cipher::Cipher;
        Some(match mode {
            "ecb" => Cipher::aes_256_ecb(),
            "cbc" => Cipher::aes_256_cbc(),
            "ctr" => Cipher::aes_256_ctr(),
            "gcm" => Cipher::aes_256_gcm(),
            "cfb" => Cipher::aes_256_cfb128(),
            "ofb" => Cipher::aes_256_ofb(),
            "xts" => Cipher::aes_256_xts(),
            _ => return None,
        })
    }
}

/// A buffer of whole 16-byte blocks as the blocks of a RustCrypto cipher.
pub(crate) fn blocks<C: cipher::BlockSizeUser<BlockSize = cipher::consts::U16>>(
    b: &mut [u8],
) -> &mut [cipher::Block<C>] {
    cipher::Array::cast_slice_from_core_mut(b.as_chunks_mut::<16>().0)
}

fn rustcrypto_aes<K: AesPeers>(sink: &mut Sink) {
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

/// One OpenSSL cipher context kept across calls (the key schedule done once), as `openssl
/// speed -evp` does, with its output buffer.
#[cfg(feature = "openssl")]
pub(crate) struct Ossl {
    ctx: openssl::cipher_ctx::CipherCtx,
    out: Vec<u8>,
}

#[cfg(feature = "openssl")]
impl Ossl {
    /// A context of `cipher` keyed for encryption (or decryption), for calls of up to `len`
    /// bytes.
    pub(crate) fn new(
        cipher: &openssl::cipher::CipherRef,
        key: &[u8],
        iv: Option<&[u8]>,
        decrypt: bool,
        len: usize,
    ) -> Self {
        let mut ctx = openssl::cipher_ctx::CipherCtx::new().expect("openssl context");
        if decrypt {
            ctx.decrypt_init(Some(cipher), Some(key), iv)
        } else {
            ctx.encrypt_init(Some(cipher), Some(key), iv)
        }
        .expect("openssl init");
        ctx.set_padding(false);
        Ossl {
            ctx,
            out: vec![0u8; len + 32],
        }
    }

    /// `data` through the context, continuing the stream.
    pub(crate) fn update(&mut self, data: &[u8]) {
        let n = self
            .ctx
            .cipher_update(data, Some(&mut self.out))
            .expect("openssl update");
        black_box(n);
    }

    /// A whole GCM message: new IV, data, tag.
    pub(crate) fn gcm_seal(&mut self, iv: &[u8], data: &[u8]) {
        self.ctx
            .encrypt_init(None, None, Some(iv))
            .expect("openssl iv");
        self.update(data);
        let n = self.ctx.cipher_final(&mut self.out).expect("openssl final");
        let mut tag = [0u8; 16];
        self.ctx.tag(&mut tag).expect("openssl tag");
        black_box((n, tag));
    }
}

/// The speed table's OpenSSL rows of one AES key size.
#[cfg(feature = "openssl")]
mod ossl {
    use super::{AesPeers, Ossl, Sink, block_sizes};
    use crate::modes::MODE_SIZES;

    /// One context per row, keyed once.
    fn stream(
        sink: &mut Sink,
        c: &openssl::cipher::CipherRef,
        key: &[u8],
        iv: Option<&[u8]>,
        mode: &'static str,
        direction: &'static str,
        sizes: &[(&'static str, usize)],
    ) {
        let len = sizes.iter().map(|s| s.1).max().unwrap_or(0);
        let mut o = Ossl::new(c, key, iv, direction == "decrypt", len);
        sink.row("openssl", mode, direction, sizes, &mut |b| o.update(b));
    }

    pub(super) fn aes<K: AesPeers>(sink: &mut Sink) {
        let key = vec![0x42u8; K::KEY];
        let iv = [0x24u8; 16];
        let pick =
            |m: &str| K::openssl(m).expect("OpenSSL has each mode measured for this key size");
        let sizes = block_sizes(16);
        for dir in ["encrypt", "decrypt"] {
            stream(sink, pick("ecb"), &key, None, "ecb", dir, &sizes);
            stream(sink, pick("cbc"), &key, Some(&iv), "cbc", dir, &sizes);
        }
        stream(sink, pick("ctr"), &key, Some(&iv), "ctr", "encrypt", &sizes);
        let nonce = [0x24u8; 12];
        let mut o = Ossl::new(pick("gcm"), &key, Some(&nonce), false, MODE_SIZES[1].1);
        sink.row("openssl", "gcm", "seal", &MODE_SIZES, &mut |b| {
            o.gcm_seal(&nonce, b)
        });
        if K::KEY == 16 {
            for mode in ["cfb", "ofb"] {
                stream(
                    sink,
                    pick(mode),
                    &key,
                    Some(&iv),
                    mode,
                    "encrypt",
                    &MODE_SIZES,
                );
            }
            let xts_key: Vec<u8> = (0..32).map(|i| i as u8 ^ 0x42).collect();
            let xts = pick("xts");
            stream(
                sink,
                xts,
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
            rustcrypto_aes::<K128>(&mut sink);
            cmac_crate::<aes::Aes128>(&mut sink, &[0x42; 16]);
            #[cfg(feature = "openssl")]
            ossl::aes::<K128>(&mut sink);
        }
        "aes-192" => {
            rustcrypto_aes::<K192>(&mut sink);
            #[cfg(feature = "openssl")]
            ossl::aes::<K192>(&mut sink);
        }
        "aes-256" => {
            rustcrypto_aes::<K256>(&mut sink);
            cmac_crate::<aes::Aes256>(&mut sink, &[0x42; 32]);
            #[cfg(feature = "openssl")]
            ossl::aes::<K256>(&mut sink);
        }
        _ => {}
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
