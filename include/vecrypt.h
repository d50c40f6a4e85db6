/*
 * vecrypt: uBlock, Kuznyechik, AES and Aigis-enc for C.
 *
 * Generated from crates/vecrypt-c by cbindgen; do not edit. A test of that crate fails when
 * this file is stale; VECRYPT_WRITE_HEADER=1 cargo test -p vecrypt-c rewrites it.
 *
 * Conventions: every function returning int returns 0 on success and -1 on failure (unknown
 * name, NULL pointer, wrong length, failed authentication). Output buffers are written only
 * on success, except where a function says otherwise. Keyed objects are opaque handles made
 * by *_new and released (their key material wiped) by *_free. No call aborts the process.
 */

#ifndef VECRYPT_H
#define VECRYPT_H

#include <stddef.h>
#include <stdint.h>

// Bytes of every AEAD tag.
#define VECRYPT_AEAD_ABYTES 16

// Key bytes of AES-128-GCM.
#define VECRYPT_AES128GCM_KEYBYTES 16

// Nonce bytes of AES-128-GCM (the recommended length; 1 byte and up are accepted).
#define VECRYPT_AES128GCM_NPUBBYTES 12

// Tag bytes of AES-128-GCM.
#define VECRYPT_AES128GCM_ABYTES 16

// Key bytes of AES-192-GCM.
#define VECRYPT_AES192GCM_KEYBYTES 24

// Nonce bytes of AES-192-GCM (the recommended length; 1 byte and up are accepted).
#define VECRYPT_AES192GCM_NPUBBYTES 12

// Tag bytes of AES-192-GCM.
#define VECRYPT_AES192GCM_ABYTES 16

// Key bytes of AES-256-GCM.
#define VECRYPT_AES256GCM_KEYBYTES 32

// Nonce bytes of AES-256-GCM (the recommended length; 1 byte and up are accepted).
#define VECRYPT_AES256GCM_NPUBBYTES 12

// Tag bytes of AES-256-GCM.
#define VECRYPT_AES256GCM_ABYTES 16

// Key bytes of Kuznyechik-MGM.
#define VECRYPT_KUZNYECHIKMGM_KEYBYTES 32

// Nonce bytes of Kuznyechik-MGM.
#define VECRYPT_KUZNYECHIKMGM_NPUBBYTES 16

// Tag bytes of Kuznyechik-MGM.
#define VECRYPT_KUZNYECHIKMGM_ABYTES 16

// Key bytes of Kuznyechik-GCM.
#define VECRYPT_KUZNYECHIKGCM_KEYBYTES 32

// Nonce bytes of Kuznyechik-GCM (the recommended length; 1 byte and up are accepted).
#define VECRYPT_KUZNYECHIKGCM_NPUBBYTES 12

// Tag bytes of Kuznyechik-GCM.
#define VECRYPT_KUZNYECHIKGCM_ABYTES 16

// Key bytes of GCM over uBlock-128/128.
#define VECRYPT_UBLOCK128GCM_KEYBYTES 16

// Nonce bytes of GCM over uBlock-128/128 (the recommended length; 1 byte and up are accepted).
#define VECRYPT_UBLOCK128GCM_NPUBBYTES 12

// Tag bytes of GCM over uBlock-128/128.
#define VECRYPT_UBLOCK128GCM_ABYTES 16

// Key bytes of GCM over uBlock-128/256.
#define VECRYPT_UBLOCK128_256GCM_KEYBYTES 32

// Nonce bytes of GCM over uBlock-128/256 (the recommended length; 1 byte and up are accepted).
#define VECRYPT_UBLOCK128_256GCM_NPUBBYTES 12

// Tag bytes of GCM over uBlock-128/256.
#define VECRYPT_UBLOCK128_256GCM_ABYTES 16

// Bytes of an Aigis-enc shared secret.
#define VECRYPT_AIGIS_ENC_BYTES 32

// Bytes of coins that deterministic Aigis-enc key generation takes.
#define VECRYPT_AIGIS_KEYPAIR_COINBYTES 64

// Bytes of coins that deterministic Aigis-enc encapsulation takes.
#define VECRYPT_AIGIS_ENC_COINBYTES 32

// Public key bytes of Aigis-enc-1 (both hash modes).
#define VECRYPT_AIGIS_ENC_1_PUBLICKEYBYTES 672

// Secret key bytes of Aigis-enc-1.
#define VECRYPT_AIGIS_ENC_1_SECRETKEYBYTES 1568

// Ciphertext bytes of Aigis-enc-1.
#define VECRYPT_AIGIS_ENC_1_CIPHERTEXTBYTES 736

// Public key bytes of Aigis-enc-2 (both hash modes).
#define VECRYPT_AIGIS_ENC_2_PUBLICKEYBYTES 896

// Secret key bytes of Aigis-enc-2.
#define VECRYPT_AIGIS_ENC_2_SECRETKEYBYTES 2208

// Ciphertext bytes of Aigis-enc-2.
#define VECRYPT_AIGIS_ENC_2_CIPHERTEXTBYTES 992

// Public key bytes of Aigis-enc-3 (both hash modes).
#define VECRYPT_AIGIS_ENC_3_PUBLICKEYBYTES 992

// Secret key bytes of Aigis-enc-3.
#define VECRYPT_AIGIS_ENC_3_SECRETKEYBYTES 2304

// Ciphertext bytes of Aigis-enc-3.
#define VECRYPT_AIGIS_ENC_3_CIPHERTEXTBYTES 1056

// Public key bytes of Aigis-enc-4 (both hash modes).
#define VECRYPT_AIGIS_ENC_4_PUBLICKEYBYTES 1440

// Secret key bytes of Aigis-enc-4.
#define VECRYPT_AIGIS_ENC_4_SECRETKEYBYTES 3168

// Ciphertext bytes of Aigis-enc-4.
#define VECRYPT_AIGIS_ENC_4_CIPHERTEXTBYTES 1568

// Key bytes of uBlock-128/128.
#define VECRYPT_UBLOCK128_128_KEYBYTES 16

// Block bytes of uBlock-128/128.
#define VECRYPT_UBLOCK128_128_BLOCKBYTES 16

// Key bytes of uBlock-128/256.
#define VECRYPT_UBLOCK128_256_KEYBYTES 32

// Block bytes of uBlock-128/256.
#define VECRYPT_UBLOCK128_256_BLOCKBYTES 16

// Key bytes of uBlock-256/256.
#define VECRYPT_UBLOCK256_256_KEYBYTES 32

// Block bytes of uBlock-256/256.
#define VECRYPT_UBLOCK256_256_BLOCKBYTES 32

// Key bytes of Kuznyechik.
#define VECRYPT_KUZNYECHIK_KEYBYTES 32

// Block bytes of Kuznyechik.
#define VECRYPT_KUZNYECHIK_BLOCKBYTES 16

// Key bytes of AES-128.
#define VECRYPT_AES128_KEYBYTES 16

// Block bytes of AES-128.
#define VECRYPT_AES128_BLOCKBYTES 16

// Key bytes of AES-192.
#define VECRYPT_AES192_KEYBYTES 24

// Block bytes of AES-192.
#define VECRYPT_AES192_BLOCKBYTES 16

// Key bytes of AES-256.
#define VECRYPT_AES256_KEYBYTES 32

// Block bytes of AES-256.
#define VECRYPT_AES256_BLOCKBYTES 16

// A keyed block cipher of any algorithm. Opaque: made by `vecrypt_cipher_new`, released by
// `vecrypt_cipher_free`, which wipes its key schedule. One handle may be used by several
// threads at once; calls do not change it.
typedef struct vecrypt_cipher vecrypt_cipher;

#ifdef __cplusplus
extern "C" {
#endif // __cplusplus

// Keys the block cipher `name` (one of `"ublock-128-128"`, `"ublock-128-256"`,
// `"ublock-256-256"`, `"kuznyechik"`, `"aes-128"`, `"aes-192"`, `"aes-256"`, any case)
// with `keylen` bytes at `key`. Returns NULL for an unknown name or a wrong key length.
//
// # Safety
// `name` is a NUL-terminated string; `key` points to `keylen` readable bytes.
struct vecrypt_cipher *vecrypt_cipher_new(const char *name, const uint8_t *key, size_t keylen);

// Releases a cipher made by `vecrypt_cipher_new`, wiping its key schedule. NULL is
// accepted and does nothing.
//
// # Safety
// `cipher` is NULL or a handle from `vecrypt_cipher_new` not yet freed.
void vecrypt_cipher_free(struct vecrypt_cipher *cipher);

// The block length in bytes of `cipher` (16, or 32 for uBlock-256/256); 0 for NULL.
//
// # Safety
// `cipher` is NULL or a live handle.
size_t vecrypt_cipher_block_bytes(const struct vecrypt_cipher *cipher);

// ECB encryption of `len` bytes (a whole number of blocks) from `in` to `out`; `out` may
// equal `in`.
//
// # Safety
// `cipher` is a live handle; `in` and `out` point to `len` bytes.
int vecrypt_ecb_encrypt(const struct vecrypt_cipher *cipher,
                        uint8_t *out,
                        const uint8_t *in,
                        size_t len);

// ECB decryption of `len` bytes (a whole number of blocks) from `in` to `out`; `out` may
// equal `in`.
//
// # Safety
// `cipher` is a live handle; `in` and `out` point to `len` bytes.
int vecrypt_ecb_decrypt(const struct vecrypt_cipher *cipher,
                        uint8_t *out,
                        const uint8_t *in,
                        size_t len);

// CBC encryption of `len` bytes (a whole number of blocks) from `in` to `out` with the
// one-block `iv`, which is not changed; `out` may equal `in`.
//
// # Safety
// `cipher` is a live handle; `in` and `out` point to `len` bytes, `iv` to one block.
int vecrypt_cbc_encrypt(const struct vecrypt_cipher *cipher,
                        uint8_t *out,
                        const uint8_t *in,
                        size_t len,
                        const uint8_t *iv);

// CBC decryption of `len` bytes (a whole number of blocks) from `in` to `out` with the
// one-block `iv`, which is not changed; `out` may equal `in`.
//
// # Safety
// `cipher` is a live handle; `in` and `out` point to `len` bytes, `iv` to one block.
int vecrypt_cbc_decrypt(const struct vecrypt_cipher *cipher,
                        uint8_t *out,
                        const uint8_t *in,
                        size_t len,
                        const uint8_t *iv);

// CTR: XORs `len` bytes (any length) of `in` with the key stream into `out`. `iv` is the
// first counter block, one block long, incremented as a big-endian number over the whole
// block; it is not changed. Encryption and decryption are the same; `out` may equal `in`.
//
// # Safety
// `cipher` is a live handle; `in` and `out` point to `len` bytes, `iv` to one block.
int vecrypt_ctr_xor(const struct vecrypt_cipher *cipher,
                    uint8_t *out,
                    const uint8_t *in,
                    size_t len,
                    const uint8_t *iv);

// The key and recommended nonce lengths of the AEAD `name`, each written where its pointer
// is not NULL. Tags are always `VECRYPT_AEAD_ABYTES` (16) bytes.
//
// # Safety
// `name` is a NUL-terminated string; each non-NULL pointer is writable.
int vecrypt_aead_sizes(const char *name, size_t *keylen, size_t *npublen);

// Encrypts `mlen` bytes of `m` with the AEAD `name` (`"aes-128-gcm"`, `"aes-192-gcm"`,
// `"aes-256-gcm"`, `"kuznyechik-mgm"`, `"kuznyechik-gcm"`, `"ublock-128-gcm"`,
// `"ublock-128-256-gcm"`), authenticating `adlen` bytes of `ad` as well, under the key `k`
// and the nonce `npub`. Writes the ciphertext followed by the 16-byte tag to `c`
// (`mlen + VECRYPT_AEAD_ABYTES` bytes) and that length to `*clen` (when `clen` is not
// NULL). `c` may equal `m`. GCM takes nonces of any length from 1 byte (12 recommended);
// MGM takes 16 bytes whose top bit is zero. A nonce must never repeat under one key.
//
// # Safety
// Every pointer points to as many bytes as its length says (`c` to `mlen + 16` writable
// bytes); `clen` is NULL or writable.
int vecrypt_aead_encrypt(const char *name,
                         uint8_t *c,
                         size_t *clen,
                         const uint8_t *m,
                         size_t mlen,
                         const uint8_t *ad,
                         size_t adlen,
                         const uint8_t *npub,
                         size_t npublen,
                         const uint8_t *k,
                         size_t klen);

// Checks and decrypts `clen` bytes of `c` (ciphertext followed by the 16-byte tag) with the
// AEAD `name`, the associated data `ad`, the nonce `npub` and the key `k`. On success writes
// `clen - 16` bytes of plaintext to `m` and that length to `*mlen` (when not NULL). On any
// failure, a wrong tag included, returns -1 and writes nothing to `m` or `*mlen`. `m` may
// equal `c`.
//
// # Safety
// Every pointer points to as many bytes as its length says (`m` to `clen - 16` writable
// bytes); `mlen` is NULL or writable.
int vecrypt_aead_decrypt(const char *name,
                         uint8_t *m,
                         size_t *mlen,
                         const uint8_t *c,
                         size_t clen,
                         const uint8_t *ad,
                         size_t adlen,
                         const uint8_t *npub,
                         size_t npublen,
                         const uint8_t *k,
                         size_t klen);

// The public key, secret key, ciphertext and shared secret lengths of the KEM `name`, each
// written where its pointer is not NULL.
//
// # Safety
// `name` is a NUL-terminated string; each non-NULL pointer is writable.
int vecrypt_kem_sizes(const char *name, size_t *pklen, size_t *sklen, size_t *ctlen, size_t *sslen);

// Key generation from `coinslen` bytes of coins (`VECRYPT_AIGIS_KEYPAIR_COINBYTES`, 64:
// `d || z`, as the known-answer files list them). For tests: secret coins give a secret
// key. Writes the public key to `pk` and the secret key to `sk`, sized by
// `vecrypt_kem_sizes`.
//
// # Safety
// `name` is a NUL-terminated string; `pk` and `sk` point to the public and secret key
// lengths of writable bytes, `coins` to `coinslen` readable bytes.
int vecrypt_kem_keypair_derand(const char *name,
                               uint8_t *pk,
                               uint8_t *sk,
                               const uint8_t *coins,
                               size_t coinslen);

// Key generation from the system's random generator: writes the public key to `pk` and the
// secret key to `sk`, sized by `vecrypt_kem_sizes`.
//
// # Safety
// `name` is a NUL-terminated string; `pk` and `sk` point to the public and secret key
// lengths of writable bytes.
int vecrypt_kem_keypair(const char *name, uint8_t *pk, uint8_t *sk);

// Encapsulation from `coinslen` bytes of coins (`VECRYPT_AIGIS_ENC_COINBYTES`, 32), for
// known-answer tests: coins that repeat or can be guessed give away the shared secret.
// Writes the ciphertext to `ct` and the 32-byte shared secret to `ss`.
//
// # Safety
// `name` is a NUL-terminated string; `ct`, `ss` and `pk` point to the ciphertext, shared
// secret and public key lengths of bytes, `coins` to `coinslen` readable bytes.
int vecrypt_kem_enc_derand(const char *name,
                           uint8_t *ct,
                           uint8_t *ss,
                           const uint8_t *pk,
                           const uint8_t *coins,
                           size_t coinslen);

// Encapsulation to the public key `pk` with fresh randomness: writes the ciphertext to
// `ct` and the 32-byte shared secret to `ss`.
//
// # Safety
// `name` is a NUL-terminated string; `ct`, `ss` and `pk` point to the ciphertext, shared
// secret and public key lengths of bytes.
int vecrypt_kem_enc(const char *name, uint8_t *ct, uint8_t *ss, const uint8_t *pk);

// Decapsulation: writes the 32-byte shared secret of `ct` under the secret key `sk` to
// `ss`. A well-formed ciphertext made for another key gives an unrelated secret (implicit
// rejection), not an error.
//
// # Safety
// `name` is a NUL-terminated string; `ss`, `ct` and `sk` point to the shared secret,
// ciphertext and secret key lengths of bytes.
int vecrypt_kem_dec(const char *name, uint8_t *ss, const uint8_t *ct, const uint8_t *sk);

// The library's version, a static NUL-terminated string such as `"0.1.0"`.
const char *vecrypt_version(void);

#ifdef __cplusplus
}  // extern "C"
#endif  // __cplusplus

#endif  /* VECRYPT_H */
