/*
 * The provider's AEADs through OpenSSL's EVP interface: RFC 9058's MGM example and GCM test
 * cases (AES-128, AES-256 with 12- and 8-byte IVs, uBlock-128/128), fed in odd-sized
 * pieces; a changed tag, ciphertext or AD makes the final call fail. uBlock-256/256's CBC
 * and CTR with their 32-byte IVs. Also the provider's name, version and status parameters.
 *
 * Usage: test_evp /absolute/path/libvecrypt_openssl.so
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "check.h"

static size_t unhex(const char *hex, unsigned char *out, size_t cap) {
    size_t n = 0;
    int hi = -1;
    for (; *hex; hex++) {
        int v;
        char c = *hex;
        if (c >= '0' && c <= '9') v = c - '0';
        else if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
        else continue;
        if (hi < 0) {
            hi = v;
        } else {
            if (n >= cap) exit(2);
            out[n++] = (unsigned char)(hi << 4 | v);
            hi = -1;
        }
    }
    return n;
}

struct vec {
    const char *name;
    const char *key, *iv, *ad, *pt, *ct, *tag;
};

/* Piece sizes that cross block boundaries at odd places. */
static const size_t pieces[] = {1, 5, 17, 3, 32, 2, 100000};

/* Runs one direction in pieces; returns the result of the final call. */
static int run(EVP_CIPHER *cipher, int enc, const unsigned char *key, const unsigned char *iv,
               size_t ivlen, const unsigned char *ad, size_t adlen, const unsigned char *in,
               size_t inlen, unsigned char *out, unsigned char *tag, size_t taglen,
               int *ok_updates) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int ok = ctx != NULL;
    int outl = 0, total = 0;
    *ok_updates = 0;
    ok = ok && EVP_CipherInit_ex2(ctx, cipher, NULL, NULL, enc, NULL);
    ok = ok && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, (int)ivlen, NULL) > 0;
    ok = ok && EVP_CipherInit_ex2(ctx, NULL, key, iv, enc, NULL);
    if (!enc) ok = ok && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)taglen, tag) > 0;
    for (size_t i = 0, p = 0; ok && i < adlen; p++) {
        size_t n = pieces[p % (sizeof pieces / sizeof pieces[0])];
        if (n > adlen - i) n = adlen - i;
        ok = EVP_CipherUpdate(ctx, NULL, &outl, ad + i, (int)n) && outl == 0;
        i += n;
    }
    for (size_t i = 0, p = 0; ok && i < inlen; p++) {
        size_t n = pieces[(p + 3) % (sizeof pieces / sizeof pieces[0])];
        if (n > inlen - i) n = inlen - i;
        ok = EVP_CipherUpdate(ctx, out + total, &outl, in + i, (int)n) && (size_t)outl == n;
        total += outl;
        i += n;
    }
    *ok_updates = ok;
    int fin = ok && EVP_CipherFinal_ex(ctx, out + total, &outl) && outl == 0;
    if (fin && enc) fin = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)taglen, tag) > 0;
    EVP_CIPHER_CTX_free(ctx);
    return fin;
}

static void aead(const struct vec *v) {
    unsigned char key[32], iv[64], ad[128], pt[256], ct[256], tag[16];
    unsigned char out[256], back[256], got_tag[16];
    size_t kl = unhex(v->key, key, sizeof key), il = unhex(v->iv, iv, sizeof iv);
    size_t al = unhex(v->ad, ad, sizeof ad), pl = unhex(v->pt, pt, sizeof pt);
    size_t cl = unhex(v->ct, ct, sizeof ct), tl = unhex(v->tag, tag, sizeof tag);
    (void)kl;
    CHECK(cl == pl && tl == 16, "%s vector shape", v->name);
    EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, v->name, "provider=vecrypt");
    CHECK(c != NULL, "%s: fetch", v->name);
    if (!c) return;
    CHECK(EVP_CIPHER_get_flags(c) & EVP_CIPH_FLAG_AEAD_CIPHER, "%s: AEAD flag", v->name);
    int ups;
    CHECK(run(c, 1, key, iv, il, ad, al, pt, pl, out, got_tag, 16, &ups), "%s: encrypt",
          v->name);
    CHECK(memcmp(out, ct, pl) == 0, "%s: ciphertext", v->name);
    CHECK(memcmp(got_tag, tag, 16) == 0, "%s: tag", v->name);
    CHECK(run(c, 0, key, iv, il, ad, al, ct, pl, back, tag, 16, &ups), "%s: decrypt", v->name);
    CHECK(memcmp(back, pt, pl) == 0, "%s: plaintext", v->name);
    /* A changed tag, ciphertext byte or AD byte: the final call fails. */
    unsigned char bad[256];
    memcpy(bad, tag, 16);
    bad[15] ^= 1;
    CHECK(!run(c, 0, key, iv, il, ad, al, ct, pl, back, bad, 16, &ups) && ups,
          "%s: changed tag accepted", v->name);
    memcpy(bad, ct, pl);
    bad[pl / 2] ^= 4;
    CHECK(!run(c, 0, key, iv, il, ad, al, bad, pl, back, tag, 16, &ups) && ups,
          "%s: changed ciphertext accepted", v->name);
    if (al) {
        memcpy(bad, ad, al);
        bad[0] ^= 0x10;
        CHECK(!run(c, 0, key, iv, il, bad, al, ct, pl, back, tag, 16, &ups) && ups,
              "%s: changed AD accepted", v->name);
    }
    /* A truncated tag of 12 bytes is checked as a prefix. */
    CHECK(run(c, 0, key, iv, il, ad, al, ct, pl, back, tag, 12, &ups), "%s: 12-byte tag",
          v->name);
    EVP_CIPHER_free(c);
}

/* XTS-AES-128, IEEE 1619 vector 2, against the default provider as well when loaded. */
static void xts(void) {
    unsigned char key[32], iv[16], pt[32], ct[32], out[32];
    int outl = 0, fin = 0;
    unhex("1111111111111111111111111111111122222222222222222222222222222222", key, 32);
    unhex("33333333330000000000000000000000", iv, 16);
    unhex("4444444444444444444444444444444444444444444444444444444444444444", pt, 32);
    unhex("c454185e6a16936e39334038acef838bfb186fff7480adc4289382ecd6d394f0", ct, 32);
    EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, "aes-128-xts", "provider=vecrypt");
    CHECK(c != NULL, "fetch aes-128-xts");
    if (!c) return;
    for (int enc = 1; enc >= 0; enc--) {
        EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
        int ok = ctx && EVP_CipherInit_ex2(ctx, c, key, iv, enc, NULL) &&
                 EVP_CipherUpdate(ctx, out, &outl, enc ? pt : ct, 32) && outl == 32 &&
                 EVP_CipherFinal_ex(ctx, out + 32, &fin) && fin == 0;
        CHECK(ok && memcmp(out, enc ? ct : pt, 32) == 0, "XTS %s", enc ? "encrypt" : "decrypt");
        EVP_CIPHER_CTX_free(ctx);
    }
    EVP_CIPHER_free(c);
}

static void provider_params(OSSL_PROVIDER *prov) {
    const char *name = NULL, *version = NULL;
    int status = 0;
    OSSL_PARAM req[] = {
        OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_NAME, (char **)&name, 0),
        OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_VERSION, (char **)&version, 0),
        OSSL_PARAM_construct_int(OSSL_PROV_PARAM_STATUS, &status),
        OSSL_PARAM_construct_end(),
    };
    CHECK(OSSL_PROVIDER_get_params(prov, req), "provider params");
    CHECK(name && strcmp(name, "vecrypt") == 0, "provider name");
    CHECK(version && strlen(version) > 0, "provider version");
    CHECK(status == 1, "provider status");
}

/* One call each way of a block mode without padding; returns the bytes out. */
static int once(const char *name, int enc, const unsigned char *key, const unsigned char *iv,
                const unsigned char *in, int len, unsigned char *out) {
    EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, name, "provider=vecrypt");
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int n = 0, m = 0, ok = c && ctx && EVP_CipherInit_ex2(ctx, c, key, iv, enc, NULL) &&
                           EVP_CIPHER_CTX_set_padding(ctx, 0) &&
                           EVP_CipherUpdate(ctx, out, &n, in, len) &&
                           EVP_CipherFinal_ex(ctx, out + n, &m);
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
    return ok ? n + m : -1;
}

/*
 * uBlock-256/256's CBC and CTR take 32-byte IVs, longer than `openssl enc` passes on: the
 * design document's vector through EVP. CBC from a zero IV and CTR from the plaintext as
 * counter block (over zeros) both give the block's encryption.
 */
static void ublock256(void) {
    unsigned char key[32], p[32], c[32], zero[32] = {0}, out[64];
    unhex("0123456789abcdeffedcba9876543210000102030405060708090a0b0c0d0e0f", key, 32);
    unhex("0123456789abcdeffedcba9876543210000102030405060708090a0b0c0d0e0f", p, 32);
    unhex("d8e9351c5f4d27ea842135ca1640ad4b0ce119bc25c03e7c329ea8fe93e7bdfe", c, 32);
    EVP_CIPHER *cbc = EVP_CIPHER_fetch(NULL, "ublock-256-256-cbc", "provider=vecrypt");
    CHECK(cbc && EVP_CIPHER_get_iv_length(cbc) == 32, "ublock-256-256-cbc IV length");
    EVP_CIPHER_free(cbc);
    CHECK(once("ublock-256-256-cbc", 1, key, zero, p, 32, out) == 32 && !memcmp(out, c, 32),
          "ublock-256-256-cbc encryption");
    CHECK(once("ublock-256-256-cbc", 0, key, zero, c, 32, out) == 32 && !memcmp(out, p, 32),
          "ublock-256-256-cbc decryption");
    CHECK(once("ublock-256-256-ctr", 1, key, p, zero, 32, out) == 32 && !memcmp(out, c, 32),
          "ublock-256-256-ctr");
    CHECK(once("ublock-256-256-ctr", 0, key, p, c, 32, out) == 32 && !memcmp(out, zero, 32),
          "ublock-256-256-ctr back");
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s PROVIDER.so\n", argv[0]);
        return 2;
    }
    OSSL_PROVIDER *prov = OSSL_PROVIDER_load(NULL, argv[1]);
    if (!prov) {
        ERR_print_errors_fp(stderr);
        return 1;
    }
    provider_params(prov);
    static const char *P3 =
        "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
        "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39";
    static const char *A4 = "feedfacedeadbeeffeedfacedeadbeefabaddad2";
    const struct vec vecs[] = {
        {"kuznyechik-mgm",
         "8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef",
         "1122334455667700ffeeddccbbaa9988",
         "0202020202020202010101010101010104040404040404040303030303030303ea0505050505050505",
         "1122334455667700ffeeddccbbaa998800112233445566778899aabbcceeff0a"
         "112233445566778899aabbcceeff0a002233445566778899aabbcceeff0a0011aabbcc",
         "a9757b8147956e9055b8a33de89f42fc8075d2212bf9fd5bd3f7069aadc16b39"
         "497ab15915a6ba85936b5d0ea9f6851cc60c14d4d3f883d0ab94420695c76deb2c7552",
         "cf5d656f40c34f5c46e8bb0e29fcdb4c"},
        {"aes-128-gcm", "feffe9928665731c6d6a8f9467308308", "cafebabefacedbaddecaf888", A4, P3,
         "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
         "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
         "5bc94fbc3221a5db94fae95ae7121a47"},
        {"aes-128-gcm", "feffe9928665731c6d6a8f9467308308", "cafebabefacedbad", A4, P3,
         "61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c7423"
         "73806900e49f24b22b097544d4896b424989b5e1ebac0f07c23f4598",
         "3612d2e79e3b0785561be14aaca2fccb"},
        {"aes-256-gcm",
         "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308",
         "cafebabefacedbaddecaf888", A4, P3,
         "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
         "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
         "76fc6ece0f4e1768cddf8853bb2d551b"},
        {"ublock-128-128-gcm", "e49019b6a64a052dfb87bfa9f119b140", "e64bee92e21d14ebb4e37ab4",
         "24ff49e07a5de847db2f94ee90daf61a337eec7e",
         "e9a72a464ae13a219b14c8c7a80fe2c5f7f5a08d021cf35b4d97ba04008cdd6a"
         "16d7be79f86ff8f10a012f5672bc415527304babf164f199f44f193d",
         "abda4f64b3a0b19d0e8628d468d0e15ad76b549185e0974ec946216db0ba22ef"
         "27a540f6f9cd1b4eba5b045b0c0e9926af00b9aef502ae7b20206f62",
         "d39b1c45d06642c1717daa6911847441"},
    };
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++) aead(&vecs[i]);
    xts();
    ublock256();
    /* Every name of the provider can be fetched with the property query. */
    const char *names[] = {"kuznyechik-ecb", "kuznyechik-cbc", "kuznyechik-cfb",
                           "kuznyechik-ofb", "kuznyechik-ctr", "kuznyechik-ctr-acpkm",
                           "1.2.643.7.1.1.5.2.1", "kuznyechik-ctr-acpkm-omac",
                           "1.2.643.7.1.1.5.2.2", "ublock-128-128-ecb", "ublock-256-256-ctr",
                           "aes-128-xts", "aes-256-xts", "aes-192-gcm", "aes-192-ctr",
                           "aes-256-cbc", "aes-128-ecb"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, names[i], "provider=vecrypt");
        CHECK(c != NULL, "fetch %s", names[i]);
        EVP_CIPHER_free(c);
    }
    OSSL_PROVIDER_unload(prov);
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
