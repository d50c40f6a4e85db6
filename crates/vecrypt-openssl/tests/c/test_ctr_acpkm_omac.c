/*
 * kuznyechik-ctr-acpkm-omac through EVP, against gost-engine's own code for it.
 *
 * gost-engine's provider (gostprov 3.0.1) lists the name but cannot key it: its key setup
 * looks for a `kuznyechik-mac` digest that exists only under the engine. The engine
 * (gost.so, same package) runs the very same cipher code and keys it, so the comparison is
 * made with the engine: its KDF seed is read and set through the cipher's ASN.1 parameters
 * (UKM = IV || seed) and its tag through the CMS control that carries it.
 *
 * - The engine encrypts under a random seed; we encrypt under that seed (set through our
 *   "kdf-seed" parameter) and must give the same ciphertext and tag, and decrypt the
 *   engine's message.
 * - We encrypt under a random seed (read back through "kdf-seed"); the engine decrypts and
 *   accepts our tag; with one tag bit changed it refuses.
 * - Both decrypt with an all-zero seed when none is set.
 * - Our own round trips with data in odd-sized pieces, lengths around the 4096-byte ACPKM
 *   section (the tag crossing it too); a changed tag, ciphertext byte or seed makes the
 *   final call fail; each encryption draws a new seed.
 *
 * Usage: test_ctr_acpkm_omac /absolute/path/libvecrypt_openssl.so
 */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/engine.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <openssl/rand.h>
#include <openssl/x509.h>

#include "check.h"

#define NAME "kuznyechik-ctr-acpkm-omac"
/* The attribute gost-engine carries the tag in (id-gostr3412-2015-...-cms-mac). */
#define CMS_MAC_OID "1.2.643.7.1.0.6.1.1"
#define MAXLEN 70016

static EVP_CIPHER *ours;
static ENGINE *engine;
static const EVP_CIPHER *theirs;

/* Piece sizes that cross block and section boundaries at odd places. */
static const size_t pieces[] = {1, 5, 17, 3, 4095, 32, 2, 100000};

/*
 * One message through our provider in pieces. `seed` NULL: none set (encryption draws one,
 * written to `seed_out`). Returns the result of the final call; `*ups` whether every update
 * went through.
 */
static int ours_run(int enc, const unsigned char *key, const unsigned char *iv,
                    const unsigned char *seed, unsigned char *seed_out,
                    const unsigned char *in, size_t len, unsigned char *out,
                    unsigned char *tag, size_t taglen, size_t start, int *ups) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    OSSL_PARAM set[2] = {OSSL_PARAM_construct_end(), OSSL_PARAM_construct_end()};
    if (seed) set[0] = OSSL_PARAM_construct_octet_string("kdf-seed", (void *)seed, 8);
    int ok = ctx && EVP_CipherInit_ex2(ctx, ours, key, iv, enc, set);
    if (ok && seed_out) {
        OSSL_PARAM get[2] = {OSSL_PARAM_construct_octet_string("kdf-seed", seed_out, 8),
                             OSSL_PARAM_construct_end()};
        ok = EVP_CIPHER_CTX_get_params(ctx, get) && get[0].return_size == 8;
    }
    if (ok && !enc) ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)taglen, tag) > 0;
    size_t total = 0;
    for (size_t i = 0, p = start; ok && i < len; p++) {
        size_t n = pieces[p % (sizeof pieces / sizeof pieces[0])];
        int outl = 0;
        if (n > len - i) n = len - i;
        ok = EVP_CipherUpdate(ctx, out + total, &outl, in + i, (int)n) && (size_t)outl == n;
        total += (size_t)outl;
        i += n;
    }
    *ups = ok;
    int outl = 0;
    int fin = ok && EVP_CipherFinal_ex(ctx, out + total, &outl) && outl == 0;
    if (fin && enc) fin = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)taglen, tag) > 0;
    EVP_CIPHER_CTX_free(ctx);
    return fin;
}

/* The engine's cipher parameters: SEQUENCE { ukm OCTET STRING (IV || seed) }. */
static ASN1_TYPE *ukm_param(const unsigned char *iv, const unsigned char *seed) {
    unsigned char der[20] = {0x30, 18, 0x04, 16};
    memcpy(der + 4, iv, 8);
    memcpy(der + 12, seed, 8);
    ASN1_TYPE *t = ASN1_TYPE_new();
    ASN1_STRING *s = ASN1_STRING_new();
    if (!t || !s || !ASN1_STRING_set(s, der, sizeof der)) {
        ASN1_TYPE_free(t);
        ASN1_STRING_free(s);
        return NULL;
    }
    ASN1_TYPE_set(t, V_ASN1_SEQUENCE, s);
    return t;
}

/*
 * The engine encrypts (a seed of its own drawing, written to `seed`) or decrypts (under
 * `seed`, or the default when it is NULL, checking `tag`). Returns the final result.
 */
static int engine_run(int enc, const unsigned char *key, const unsigned char *iv,
                      unsigned char *seed, const unsigned char *in, size_t len,
                      unsigned char *out, unsigned char *tag) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    STACK_OF(X509_ATTRIBUTE) *attrs = sk_X509_ATTRIBUTE_new_null();
    ASN1_OBJECT *oid = OBJ_txt2obj(CMS_MAC_OID, 1);
    int ok = ctx && attrs && oid && EVP_CipherInit_ex(ctx, theirs, engine, NULL, NULL, enc);
    if (ok && !enc && seed) {
        ASN1_TYPE *t = ukm_param(iv, seed);
        ok = t && EVP_CIPHER_asn1_to_param(ctx, t) > 0;
        ASN1_TYPE_free(t);
    }
    ok = ok && EVP_CipherInit_ex(ctx, NULL, NULL, key, iv, enc);
    if (ok && !enc)
        ok = X509at_add1_attr_by_OBJ(&attrs, oid, V_ASN1_OCTET_STRING, tag, 16) &&
             EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_PROCESS_UNPROTECTED, 0, attrs) > 0;
    int outl = 0;
    ok = ok && EVP_CipherUpdate(ctx, out, &outl, in, (int)len) && (size_t)outl == len;
    int fin = ok && EVP_CipherFinal_ex(ctx, out + len, &outl) && outl == 0;
    if (fin && enc) {
        /* The tag, through the control CMS uses; then the seed, through the parameters. */
        ASN1_OCTET_STRING *os = NULL;
        ASN1_TYPE *t = ASN1_TYPE_new();
        fin = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_PROCESS_UNPROTECTED, 1, attrs) > 0 &&
              (os = X509at_get0_data_by_OBJ(attrs, oid, -1, V_ASN1_OCTET_STRING)) != NULL &&
              ASN1_STRING_length(os) == 16 && t && EVP_CIPHER_param_to_asn1(ctx, t) > 0 &&
              ASN1_TYPE_get(t) == V_ASN1_SEQUENCE && t->value.sequence->length == 20 &&
              memcmp(t->value.sequence->data, "\x30\x12\x04\x10", 4) == 0 &&
              memcmp(t->value.sequence->data + 4, iv, 8) == 0;
        if (fin) {
            memcpy(tag, ASN1_STRING_get0_data(os), 16);
            memcpy(seed, t->value.sequence->data + 12, 8);
        }
        ASN1_TYPE_free(t);
    }
    ASN1_OBJECT_free(oid);
    sk_X509_ATTRIBUTE_pop_free(attrs, X509_ATTRIBUTE_free);
    EVP_CIPHER_CTX_free(ctx);
    return fin;
}

static unsigned char pt[MAXLEN], ct[MAXLEN], ct2[MAXLEN], back[MAXLEN];

static void against_engine(size_t len, size_t start) {
    unsigned char key[32], iv[8], seed[8], seed2[8], tag[16], tag2[16];
    int ups;
    RAND_bytes(key, sizeof key);
    RAND_bytes(iv, sizeof iv);
    RAND_bytes(pt, (int)len);
    /* The engine encrypts; we give its bytes under its seed and read its message. */
    CHECK(engine_run(1, key, iv, seed, pt, len, ct, tag), "%zu: engine encrypts", len);
    CHECK(ours_run(1, key, iv, seed, NULL, pt, len, ct2, tag2, 16, start, &ups),
          "%zu: encrypt with the engine's seed", len);
    CHECK(memcmp(ct, ct2, len) == 0, "%zu: ciphertext differs from the engine's", len);
    CHECK(memcmp(tag, tag2, 16) == 0, "%zu: tag differs from the engine's", len);
    CHECK(ours_run(0, key, iv, seed, NULL, ct, len, back, tag, 16, start + 1, &ups) &&
              memcmp(back, pt, len) == 0,
          "%zu: decrypt the engine's message", len);
    /* We encrypt under a seed of our drawing; the engine checks our tag. */
    CHECK(ours_run(1, key, iv, NULL, seed2, pt, len, ct2, tag2, 16, start + 2, &ups),
          "%zu: encrypt", len);
    CHECK(memcmp(seed, seed2, 8) != 0, "%zu: the same seed drawn twice", len);
    CHECK(engine_run(0, key, iv, seed2, ct2, len, back, tag2) && memcmp(back, pt, len) == 0,
          "%zu: the engine refuses our message", len);
    tag2[len % 16] ^= 0x20;
    CHECK(!engine_run(0, key, iv, seed2, ct2, len, back, tag2),
          "%zu: the engine accepts a changed tag", len);
}

/* With no seed set, decryption on both sides uses an all-zero one. */
static void zero_seed(void) {
    unsigned char key[32], iv[8], zero[8] = {0}, tag[16], tag2[16];
    size_t len = 5000;
    int ups;
    RAND_bytes(key, sizeof key);
    RAND_bytes(iv, sizeof iv);
    RAND_bytes(pt, (int)len);
    CHECK(ours_run(1, key, iv, zero, NULL, pt, len, ct, tag, 16, 0, &ups), "zero seed: encrypt");
    CHECK(engine_run(0, key, iv, NULL, ct, len, back, tag) && memcmp(back, pt, len) == 0,
          "zero seed: the engine's default");
    CHECK(ours_run(0, key, iv, NULL, NULL, ct, len, back, tag, 16, 1, &ups) &&
              memcmp(back, pt, len) == 0,
          "zero seed: our default");
    /* A seed set after keying takes effect too, and one of ours is not the zero seed. */
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    OSSL_PARAM set[2] = {OSSL_PARAM_construct_octet_string("kdf-seed", zero, 8),
                         OSSL_PARAM_construct_end()};
    int outl = 0, fin = 0;
    int ok = ctx && EVP_EncryptInit_ex2(ctx, ours, key, iv, NULL) &&
             EVP_CIPHER_CTX_set_params(ctx, set) &&
             EVP_EncryptUpdate(ctx, ct2, &outl, pt, (int)len) && (size_t)outl == len &&
             EVP_EncryptFinal_ex(ctx, ct2 + len, &fin) &&
             EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag2) > 0;
    CHECK(ok && memcmp(ct, ct2, len) == 0 && memcmp(tag, tag2, 16) == 0,
          "zero seed: set after keying");
    EVP_CIPHER_CTX_free(ctx);
}

static void own(void) {
    unsigned char key[32], iv[8], seed[8], seed2[8], tag[16], bad[16];
    int ups;
    static const size_t lens[] = {0, 1, 16, 100, 4080, 4081, 4090, 4096, 4097, 12345};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        size_t len = lens[i];
        RAND_bytes(key, sizeof key);
        RAND_bytes(iv, sizeof iv);
        RAND_bytes(pt, (int)len);
        CHECK(ours_run(1, key, iv, NULL, seed, pt, len, ct, tag, 16, i, &ups),
              "%zu: encrypt", len);
        CHECK(ours_run(0, key, iv, seed, NULL, ct, len, back, tag, 16, i + 3, &ups) &&
                  memcmp(back, pt, len) == 0,
              "%zu: round trip", len);
        memcpy(bad, tag, 16);
        bad[15 - i % 16] ^= 1;
        CHECK(!ours_run(0, key, iv, seed, NULL, ct, len, back, bad, 16, i, &ups) && ups,
              "%zu: changed tag accepted", len);
        if (len) {
            ct[len / 3] ^= 0x80;
            CHECK(!ours_run(0, key, iv, seed, NULL, ct, len, back, tag, 16, i, &ups) && ups,
                  "%zu: changed ciphertext accepted", len);
            ct[len / 3] ^= 0x80;
        }
        memcpy(seed2, seed, 8);
        seed2[i % 8] ^= 4;
        CHECK(!ours_run(0, key, iv, seed2, NULL, ct, len, back, tag, 16, i, &ups) && ups,
              "%zu: other seed accepted", len);
        /* A second encryption draws a new seed, so other bytes. */
        CHECK(ours_run(1, key, iv, NULL, seed2, pt, len, ct2, bad, 16, i, &ups) &&
                  memcmp(seed, seed2, 8) != 0 && memcmp(tag, bad, 16) != 0,
              "%zu: seed drawn again", len);
    }
    /* Only 16-byte tags and 8-byte seeds; no tag before the final call. */
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    unsigned char t15[15] = {0};
    int ok = ctx && EVP_DecryptInit_ex2(ctx, ours, key, iv, NULL);
    CHECK(ok && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 15, t15) <= 0,
          "15-byte tag accepted");
    OSSL_PARAM s7[2] = {OSSL_PARAM_construct_octet_string("kdf-seed", seed, 7),
                        OSSL_PARAM_construct_end()};
    CHECK(ok && !EVP_CIPHER_CTX_set_params(ctx, s7), "7-byte seed accepted");
    int outl = 0;
    CHECK(ok && EVP_DecryptUpdate(ctx, back, &outl, ct, 16) &&
              !EVP_DecryptFinal_ex(ctx, back, &outl),
          "final without a tag succeeded");
    CHECK(ok && EVP_EncryptInit_ex2(ctx, ours, key, iv, NULL) &&
              EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) <= 0,
          "tag before final");
    EVP_CIPHER_CTX_free(ctx);
    CHECK(EVP_CIPHER_get_iv_length(ours) == 8 && EVP_CIPHER_get_key_length(ours) == 32,
          "IV and key lengths");
    EVP_CIPHER *by_oid = EVP_CIPHER_fetch(NULL, "1.2.643.7.1.1.5.2.2", "provider=vecrypt");
    CHECK(by_oid != NULL, "fetch by OID");
    EVP_CIPHER_free(by_oid);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s PROVIDER.so\n", argv[0]);
        return 2;
    }
    OSSL_PROVIDER *prov = OSSL_PROVIDER_load(NULL, argv[1]);
    OSSL_PROVIDER *dflt = OSSL_PROVIDER_load(NULL, "default");
    ours = prov ? EVP_CIPHER_fetch(NULL, NAME, "provider=vecrypt") : NULL;
    engine = ENGINE_by_id("gost");
    /* As `-engine gost` does: the engine's digests serve its key derivation and MAC. */
    if (engine && (!ENGINE_init(engine) || !ENGINE_set_default(engine, ENGINE_METHOD_ALL))) {
        ENGINE_free(engine);
        engine = NULL;
    }
    theirs = engine ? ENGINE_get_cipher(engine, OBJ_sn2nid(NAME)) : NULL;
    if (!dflt || !ours || !theirs) {
        fprintf(stderr, "cannot load %s: %s\n", !dflt || !ours ? "the provider" : "gost-engine",
                NAME);
        ERR_print_errors_fp(stderr);
        return 1;
    }
    static const size_t lens[] = {0, 1, 15, 16, 17, 31, 4079, 4080, 4090, 4095, 4096,
                                  4097, 8192, 12345, 70001};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) against_engine(lens[i], i);
    zero_seed();
    own();
    EVP_CIPHER_free(ours);
    ENGINE_finish(engine);
    ENGINE_free(engine);
    OSSL_PROVIDER_unload(prov);
    OSSL_PROVIDER_unload(dflt);
    printf("%s: %d checks, %d failed\n", NAME, checks, failures);
    return failures ? 1 : 0;
}
