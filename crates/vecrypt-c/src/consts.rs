//! The sizes of the C interface, as `#define`s in the header. The tests check them against
//! the library's own.

/// Bytes of every AEAD tag.
pub const VECRYPT_AEAD_ABYTES: usize = 16;

/// Key bytes of AES-128-GCM.
pub const VECRYPT_AES128GCM_KEYBYTES: usize = 16;
/// Nonce bytes of AES-128-GCM (the recommended length; 1 byte and up are accepted).
pub const VECRYPT_AES128GCM_NPUBBYTES: usize = 12;
/// Tag bytes of AES-128-GCM.
pub const VECRYPT_AES128GCM_ABYTES: usize = 16;

/// Key bytes of AES-192-GCM.
pub const VECRYPT_AES192GCM_KEYBYTES: usize = 24;
/// Nonce bytes of AES-192-GCM (the recommended length; 1 byte and up are accepted).
pub const VECRYPT_AES192GCM_NPUBBYTES: usize = 12;
/// Tag bytes of AES-192-GCM.
pub const VECRYPT_AES192GCM_ABYTES: usize = 16;

/// Key bytes of AES-256-GCM.
pub const VECRYPT_AES256GCM_KEYBYTES: usize = 32;
/// Nonce bytes of AES-256-GCM (the recommended length; 1 byte and up are accepted).
pub const VECRYPT_AES256GCM_NPUBBYTES: usize = 12;
/// Tag bytes of AES-256-GCM.
pub const VECRYPT_AES256GCM_ABYTES: usize = 16;

/// Key bytes of Kuznyechik-MGM.
pub const VECRYPT_KUZNYECHIKMGM_KEYBYTES: usize = 32;
/// Nonce bytes of Kuznyechik-MGM.
pub const VECRYPT_KUZNYECHIKMGM_NPUBBYTES: usize = 16;
/// Tag bytes of Kuznyechik-MGM.
pub const VECRYPT_KUZNYECHIKMGM_ABYTES: usize = 16;

/// Key bytes of Kuznyechik-GCM.
pub const VECRYPT_KUZNYECHIKGCM_KEYBYTES: usize = 32;
/// Nonce bytes of Kuznyechik-GCM (the recommended length; 1 byte and up are accepted).
pub const VECRYPT_KUZNYECHIKGCM_NPUBBYTES: usize = 12;
/// Tag bytes of Kuznyechik-GCM.
pub const VECRYPT_KUZNYECHIKGCM_ABYTES: usize = 16;

/// Key bytes of GCM over uBlock-128/128.
pub const VECRYPT_UBLOCK128GCM_KEYBYTES: usize = 16;
/// Nonce bytes of GCM over uBlock-128/128 (the recommended length; 1 byte and up are accepted).
pub const VECRYPT_UBLOCK128GCM_NPUBBYTES: usize = 12;
/// Tag bytes of GCM over uBlock-128/128.
pub const VECRYPT_UBLOCK128GCM_ABYTES: usize = 16;

/// Key bytes of GCM over uBlock-128/256.
pub const VECRYPT_UBLOCK128_256GCM_KEYBYTES: usize = 32;
/// Nonce bytes of GCM over uBlock-128/256 (the recommended length; 1 byte and up are accepted).
pub const VECRYPT_UBLOCK128_256GCM_NPUBBYTES: usize = 12;
/// Tag bytes of GCM over uBlock-128/256.
pub const VECRYPT_UBLOCK128_256GCM_ABYTES: usize = 16;

/// Bytes of an Aigis-enc shared secret.
pub const VECRYPT_AIGIS_ENC_BYTES: usize = 32;
/// Bytes of coins that deterministic Aigis-enc key generation takes.
pub const VECRYPT_AIGIS_KEYPAIR_COINBYTES: usize = 64;
/// Bytes of coins that deterministic Aigis-enc encapsulation takes.
pub const VECRYPT_AIGIS_ENC_COINBYTES: usize = 32;

/// Public key bytes of Aigis-enc-1 (both hash modes).
pub const VECRYPT_AIGIS_ENC_1_PUBLICKEYBYTES: usize = 672;
/// Secret key bytes of Aigis-enc-1.
pub const VECRYPT_AIGIS_ENC_1_SECRETKEYBYTES: usize = 1568;
/// Ciphertext bytes of Aigis-enc-1.
pub const VECRYPT_AIGIS_ENC_1_CIPHERTEXTBYTES: usize = 736;

/// Public key bytes of Aigis-enc-2 (both hash modes).
pub const VECRYPT_AIGIS_ENC_2_PUBLICKEYBYTES: usize = 896;
/// Secret key bytes of Aigis-enc-2.
pub const VECRYPT_AIGIS_ENC_2_SECRETKEYBYTES: usize = 2208;
/// Ciphertext bytes of Aigis-enc-2.
pub const VECRYPT_AIGIS_ENC_2_CIPHERTEXTBYTES: usize = 992;

/// Public key bytes of Aigis-enc-3 (both hash modes).
pub const VECRYPT_AIGIS_ENC_3_PUBLICKEYBYTES: usize = 992;
/// Secret key bytes of Aigis-enc-3.
pub const VECRYPT_AIGIS_ENC_3_SECRETKEYBYTES: usize = 2304;
/// Ciphertext bytes of Aigis-enc-3.
pub const VECRYPT_AIGIS_ENC_3_CIPHERTEXTBYTES: usize = 1056;

/// Public key bytes of Aigis-enc-4 (both hash modes).
pub const VECRYPT_AIGIS_ENC_4_PUBLICKEYBYTES: usize = 1440;
/// Secret key bytes of Aigis-enc-4.
pub const VECRYPT_AIGIS_ENC_4_SECRETKEYBYTES: usize = 3168;
/// Ciphertext bytes of Aigis-enc-4.
pub const VECRYPT_AIGIS_ENC_4_CIPHERTEXTBYTES: usize = 1568;

/// Key bytes of uBlock-128/128.
pub const VECRYPT_UBLOCK128_128_KEYBYTES: usize = 16;
/// Block bytes of uBlock-128/128.
pub const VECRYPT_UBLOCK128_128_BLOCKBYTES: usize = 16;

/// Key bytes of uBlock-128/256.
pub const VECRYPT_UBLOCK128_256_KEYBYTES: usize = 32;
/// Block bytes of uBlock-128/256.
pub const VECRYPT_UBLOCK128_256_BLOCKBYTES: usize = 16;

/// Key bytes of uBlock-256/256.
pub const VECRYPT_UBLOCK256_256_KEYBYTES: usize = 32;
/// Block bytes of uBlock-256/256.
pub const VECRYPT_UBLOCK256_256_BLOCKBYTES: usize = 32;

/// Key bytes of Kuznyechik.
pub const VECRYPT_KUZNYECHIK_KEYBYTES: usize = 32;
/// Block bytes of Kuznyechik.
pub const VECRYPT_KUZNYECHIK_BLOCKBYTES: usize = 16;

/// Key bytes of AES-128.
pub const VECRYPT_AES128_KEYBYTES: usize = 16;
/// Block bytes of AES-128.
pub const VECRYPT_AES128_BLOCKBYTES: usize = 16;

/// Key bytes of AES-192.
pub const VECRYPT_AES192_KEYBYTES: usize = 24;
/// Block bytes of AES-192.
pub const VECRYPT_AES192_BLOCKBYTES: usize = 16;

/// Key bytes of AES-256.
pub const VECRYPT_AES256_KEYBYTES: usize = 32;
/// Block bytes of AES-256.
pub const VECRYPT_AES256_BLOCKBYTES: usize = 16;
