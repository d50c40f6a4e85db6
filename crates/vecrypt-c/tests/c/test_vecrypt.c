/*
 * The C interface of vecrypt against published vectors: FIPS-197 and SP 800-38A (AES),
 * GOST R 34.12-2015 (Kuznyechik), the uBlock design document, the GCM paper's test cases,
 * RFC 9058 (MGM), the GCM vector files of the repository, and the Aigis-enc designers'
 * known-answer files. Then the refusals: unknown names, NULL pointers, wrong lengths and
 * forged tags, where the output buffers must stay untouched.
 *
 * Usage: test_vecrypt DATA_DIR, where DATA_DIR is crates/vecrypt/tests/data.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vecrypt.h"

static int failures;
static int checks;

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        checks++;                                                               \
        if (!(cond)) {                                                          \
            failures++;                                                         \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__,    \
                    #cond);                                                     \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
        }                                                                       \
    } while (0)

/* Hex (spaces ignored) to bytes; returns the byte count. */
static size_t unhex(const char *hex, uint8_t *out, size_t cap) {
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
            if (n >= cap) {
                fprintf(stderr, "hex longer than its buffer\n");
                exit(2);
            }
            out[n++] = (uint8_t)(hi << 4 | v);
            hi = -1;
        }
    }
    return n;
}

static int all_equal(const uint8_t *p, size_t n, uint8_t v) {
    for (size_t i = 0; i < n; i++)
        if (p[i] != v) return 0;
    return 1;
}

/* One block cipher: ECB known answer both ways, in place and out of place. */
static void ecb_kat(const char *name, const char *key_hex, const char *pt_hex,
                    const char *ct_hex) {
    uint8_t key[32], pt[32], ct[32], buf[32], buf2[32];
    size_t kl = unhex(key_hex, key, sizeof key);
    size_t n = unhex(pt_hex, pt, sizeof pt);
    unhex(ct_hex, ct, sizeof ct);
    vecrypt_cipher *c = vecrypt_cipher_new(name, key, kl);
    CHECK(c != NULL, "%s: new", name);
    if (!c) return;
    CHECK(vecrypt_cipher_block_bytes(c) == n, "%s: block bytes", name);
    CHECK(vecrypt_ecb_encrypt(c, buf, pt, n) == 0, "%s", name);
    CHECK(memcmp(buf, ct, n) == 0, "%s: ECB encrypt", name);
    memcpy(buf2, ct, n);
    CHECK(vecrypt_ecb_decrypt(c, buf2, buf2, n) == 0, "%s", name);
    CHECK(memcmp(buf2, pt, n) == 0, "%s: ECB decrypt in place", name);
    /* A length that is not whole blocks is refused and writes nothing. */
    memset(buf, 0xA5, sizeof buf);
    CHECK(vecrypt_ecb_encrypt(c, buf, pt, n - 1) == -1, "%s: partial block", name);
    CHECK(all_equal(buf, sizeof buf, 0xA5), "%s: output touched", name);
    /* A key one byte short is refused. */
    CHECK(vecrypt_cipher_new(name, key, kl - 1) == NULL, "%s: short key", name);
    vecrypt_cipher_free(c);
}

static void block_ciphers(void) {
    ecb_kat("aes-128", "000102030405060708090a0b0c0d0e0f",
            "00112233445566778899aabbccddeeff", "69c4e0d86a7b0430d8cdb78070b4c55a");
    ecb_kat("aes-192", "000102030405060708090a0b0c0d0e0f1011121314151617",
            "00112233445566778899aabbccddeeff", "dda97ca4864cdfe06eaf70a0ec0d7191");
    ecb_kat("AES-256",
            "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
            "00112233445566778899aabbccddeeff", "8ea2b7ca516745bfeafc49904b496089");
    ecb_kat("kuznyechik",
            "8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef",
            "1122334455667700ffeeddccbbaa9988", "7f679d90bebc24305a468d42b9d4edcd");
    ecb_kat("ublock-128-128", "0123456789abcdeffedcba9876543210",
            "0123456789abcdeffedcba9876543210", "32122bedd023c429023470e1158c147d");
    ecb_kat("ublock-128-256",
            "0123456789abcdeffedcba9876543210000102030405060708090a0b0c0d0e0f",
            "0123456789abcdeffedcba9876543210", "64accd6e34cac84d384cd4ba7aeadd19");
    ecb_kat("ublock-256-256",
            "0123456789abcdeffedcba9876543210000102030405060708090a0b0c0d0e0f",
            "0123456789abcdeffedcba9876543210000102030405060708090a0b0c0d0e0f",
            "d8e9351c5f4d27ea842135ca1640ad4b0ce119bc25c03e7c329ea8fe93e7bdfe");

    CHECK(vecrypt_cipher_new("aes-512", (const uint8_t *)"0123456789abcdef", 16) == NULL,
          "unknown name");
    CHECK(vecrypt_cipher_new(NULL, (const uint8_t *)"0123456789abcdef", 16) == NULL,
          "NULL name");
    CHECK(vecrypt_cipher_new("aes-128", NULL, 16) == NULL, "NULL key");
    vecrypt_cipher_free(NULL);

    /* SP 800-38A F.2.1 (CBC) and F.5.1 (CTR), AES-128. */
    uint8_t key[16], iv[16], ctr[16], pt[64], cbc[64], ctrct[64], buf[64], ivcopy[16];
    unhex("2b7e151628aed2a6abf7158809cf4f3c", key, 16);
    unhex("000102030405060708090a0b0c0d0e0f", iv, 16);
    unhex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff", ctr, 16);
    unhex("6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51"
          "30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710",
          pt, 64);
    unhex("7649abac8119b246cee98e9b12e9197d 5086cb9b507219ee95db113a917678b2"
          "73bed6b8e3c1743b7116e69e22229516 3ff1caa1681fac09120eca307586e1a7",
          cbc, 64);
    unhex("874d6191b620e3261bef6864990db6ce 9806f66b7970fdff8617187bb9fffdff"
          "5ae4df3edbd5d35e5b4f09020db03eab 1e031dda2fbe03d1792170a0f3009cee",
          ctrct, 64);
    vecrypt_cipher *c = vecrypt_cipher_new("aes-128", key, sizeof key);
    CHECK(c != NULL, "aes-128");
    if (!c) return;
    memcpy(ivcopy, iv, 16);
    CHECK(vecrypt_cbc_encrypt(c, buf, pt, 64, iv) == 0, "cbc");
    CHECK(memcmp(buf, cbc, 64) == 0, "CBC encrypt");
    CHECK(memcmp(iv, ivcopy, 16) == 0, "CBC changed the IV");
    CHECK(vecrypt_cbc_decrypt(c, buf, buf, 64, iv) == 0, "cbc");
    CHECK(memcmp(buf, pt, 64) == 0, "CBC decrypt in place");
    CHECK(vecrypt_cbc_encrypt(c, buf, pt, 64, NULL) == -1, "CBC without IV");
    memset(buf, 0x5A, sizeof buf);
    CHECK(vecrypt_cbc_decrypt(c, buf, cbc, 40, iv) == -1, "CBC partial block");
    CHECK(all_equal(buf, sizeof buf, 0x5A), "CBC refused but wrote");
    /* CTR takes any length: 37 bytes, then the rest from the third counter block. */
    CHECK(vecrypt_ctr_xor(c, buf, pt, 37, ctr) == 0, "ctr");
    CHECK(memcmp(buf, ctrct, 37) == 0, "CTR 37 bytes");
    memcpy(buf, ctrct, 64);
    CHECK(vecrypt_ctr_xor(c, buf, buf, 64, ctr) == 0, "ctr");
    CHECK(memcmp(buf, pt, 64) == 0, "CTR in place");
    CHECK(vecrypt_ctr_xor(c, buf, pt, 0, ctr) == 0, "CTR of nothing");
    CHECK(vecrypt_ctr_xor(c, buf, pt, 16, NULL) == -1, "CTR without IV");
    CHECK(vecrypt_ctr_xor(NULL, buf, pt, 16, ctr) == -1, "CTR without cipher");
    CHECK(vecrypt_ecb_encrypt(c, NULL, pt, 16) == -1, "ECB to NULL");
    CHECK(vecrypt_ecb_encrypt(c, buf, NULL, 16) == -1, "ECB from NULL");
    vecrypt_cipher_free(c);

    /* CTR wraps the whole block: the counter after ff..ff is 00..00. */
    uint8_t zero16[16] = {0}, ones[16], two[32] = {0}, first[16];
    memset(ones, 0xff, 16);
    c = vecrypt_cipher_new("kuznyechik",
                           (const uint8_t *)"0123456789abcdef0123456789abcdef", 32);
    CHECK(c != NULL, "kuznyechik");
    if (!c) return;
    CHECK(vecrypt_ctr_xor(c, two, two, 32, ones) == 0, "ctr wrap");
    CHECK(vecrypt_ecb_encrypt(c, first, zero16, 16) == 0, "ecb");
    CHECK(memcmp(two + 16, first, 16) == 0, "CTR counter wraps over the whole block");
    vecrypt_cipher_free(c);
}

struct aead_case {
    const char *name;
    const char *key, *iv, *ad, *pt, *ct, *tag;
};

/* Encrypts, decrypts, and checks that forged tags, ciphertexts, AD and nonces fail
 * without writing the plaintext buffer. */
static void aead_check(const struct aead_case *t) {
    static uint8_t key[64], iv[64], ad[256], pt[512], ct[512], tag[16], out[600], back[600];
    size_t kl = unhex(t->key, key, sizeof key);
    size_t il = unhex(t->iv, iv, sizeof iv);
    size_t al = unhex(t->ad, ad, sizeof ad);
    size_t pl = unhex(t->pt, pt, sizeof pt);
    size_t cl = unhex(t->ct, ct, sizeof ct);
    size_t tl = unhex(t->tag, tag, sizeof tag);
    CHECK(cl == pl && tl == 16, "%s: vector shape", t->name);
    size_t outlen = 0, backlen = 0;
    CHECK(vecrypt_aead_encrypt(t->name, out, &outlen, pt, pl, ad, al, iv, il, key, kl) == 0,
          "%s: encrypt", t->name);
    CHECK(outlen == pl + VECRYPT_AEAD_ABYTES, "%s: clen", t->name);
    CHECK(memcmp(out, ct, pl) == 0, "%s: ciphertext", t->name);
    CHECK(memcmp(out + pl, tag, 16) == 0, "%s: tag", t->name);
    CHECK(vecrypt_aead_decrypt(t->name, back, &backlen, out, outlen, ad, al, iv, il, key, kl) == 0,
          "%s: decrypt", t->name);
    CHECK(backlen == pl && memcmp(back, pt, pl) == 0, "%s: plaintext", t->name);

    /* Every forgery fails and leaves `back` and `backlen` as they were. */
    for (int what = 0; what < 5; what++) {
        uint8_t forged[600];
        memcpy(forged, out, outlen);
        uint8_t ad2[256], iv2[64];
        memcpy(ad2, ad, al);
        memcpy(iv2, iv, il);
        size_t al2 = al;
        switch (what) {
        case 0: forged[outlen - 1] ^= 1; break;     /* tag */
        case 1: if (pl) forged[0] ^= 0x80; else forged[outlen - 16] ^= 2; break;
        case 2: if (al) ad2[al - 1] ^= 1; else al2 = 1, ad2[0] = 0; break;
        case 3: iv2[il - 1] ^= 1; break;
        case 4: break; /* truncated below */
        }
        size_t fl = what == 4 ? outlen - 1 : outlen;
        memset(back, 0xC3, sizeof back);
        backlen = 12345;
        CHECK(vecrypt_aead_decrypt(t->name, back, &backlen, forged, fl, ad2, al2, iv2, il, key,
                                   kl) == -1,
              "%s: forgery %d accepted", t->name, what);
        CHECK(all_equal(back, sizeof back, 0xC3) && backlen == 12345,
              "%s: forgery %d wrote the plaintext buffer", t->name, what);
    }
    /* Shorter than a tag, wrong key length. */
    CHECK(vecrypt_aead_decrypt(t->name, back, &backlen, out, 15, ad, al, iv, il, key, kl) == -1,
          "%s: short input", t->name);
    CHECK(vecrypt_aead_encrypt(t->name, out, &outlen, pt, pl, ad, al, iv, il, key, kl - 1) == -1,
          "%s: short key", t->name);
    /* In place: the ciphertext over the plaintext, then back. */
    memcpy(out, pt, pl);
    CHECK(vecrypt_aead_encrypt(t->name, out, &outlen, out, pl, ad, al, iv, il, key, kl) == 0 &&
              memcmp(out, ct, pl) == 0,
          "%s: encrypt in place", t->name);
    CHECK(vecrypt_aead_decrypt(t->name, out, &backlen, out, outlen, ad, al, iv, il, key, kl) == 0 &&
              memcmp(out, pt, pl) == 0,
          "%s: decrypt in place", t->name);
}

/* The key = value blocks of a GCM vector file, one aead_check each; returns the count. */
static int aead_file(const char *dir, const char *file, const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f) return 0;
    static char line[4096];
    static char fields[6][1024];
    const char *keys[6] = {"key", "iv", "ad", "pt", "ct", "tag"};
    int have = 0, count = 0;
    for (;;) {
        char *got = fgets(line, sizeof line, f);
        if (got) {
            line[strcspn(line, "\r\n")] = 0;
            char *eq = strstr(line, " =");
            if (line[0] == '#' || !eq) continue;
            *eq = 0;
            char *val = eq + 2;
            while (*val == ' ') val++;
            for (int i = 0; i < 6; i++) {
                if (strcmp(line, keys[i]) == 0) {
                    snprintf(fields[i], sizeof fields[i], "%s", val);
                    have |= 1 << i;
                }
            }
        }
        if (have == 0x3f) {
            struct aead_case t = {name, fields[0], fields[1], fields[2],
                                  fields[3], fields[4], fields[5]};
            aead_check(&t);
            count++;
            have = 0;
        }
        if (!got) break;
    }
    fclose(f);
    return count;
}

static void aeads(const char *dir) {
    static const char *P3 =
        "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
        "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39";
    static const char *A4 = "feedfacedeadbeeffeedfacedeadbeefabaddad2";
    const struct aead_case cases[] = {
        {"aes-128-gcm", "00000000000000000000000000000000", "000000000000000000000000", "",
         "00000000000000000000000000000000", "0388dace60b6a392f328c2b971b2fe78",
         "ab6e47d42cec13bdf53a67b21257bddf"},
        {"aes-128-gcm", "feffe9928665731c6d6a8f9467308308", "cafebabefacedbaddecaf888", A4, P3,
         "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
         "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
         "5bc94fbc3221a5db94fae95ae7121a47"},
        {"aes-256-gcm",
         "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308",
         "cafebabefacedbaddecaf888", A4, P3,
         "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
         "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
         "76fc6ece0f4e1768cddf8853bb2d551b"},
        {"kuznyechik-mgm",
         "8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef",
         "1122334455667700ffeeddccbbaa9988",
         "0202020202020202010101010101010104040404040404040303030303030303ea0505050505050505",
         "1122334455667700ffeeddccbbaa998800112233445566778899aabbcceeff0a"
         "112233445566778899aabbcceeff0a002233445566778899aabbcceeff0a0011aabbcc",
         "a9757b8147956e9055b8a33de89f42fc8075d2212bf9fd5bd3f7069aadc16b39"
         "497ab15915a6ba85936b5d0ea9f6851cc60c14d4d3f883d0ab94420695c76deb2c7552",
         "cf5d656f40c34f5c46e8bb0e29fcdb4c"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) aead_check(&cases[i]);
    CHECK(aead_file(dir, "kuznyechik-gcm.txt", "kuznyechik-gcm") >= 4, "kuznyechik-gcm file");
    CHECK(aead_file(dir, "ublock128-gcm.txt", "ublock-128-gcm") >= 4, "ublock128-gcm file");

    /* MGM refuses a nonce with its top bit set, and writes nothing. */
    uint8_t key[32] = {0}, nonce[16] = {0}, out[40];
    size_t outlen = 777;
    nonce[0] = 0x80;
    memset(out, 0x11, sizeof out);
    CHECK(vecrypt_aead_encrypt("kuznyechik-mgm", out, &outlen, (const uint8_t *)"abc", 3, NULL,
                               0, nonce, 16, key, 32) == -1,
          "MGM nonce with top bit");
    CHECK(all_equal(out, sizeof out, 0x11) && outlen == 777, "refused MGM wrote");
    CHECK(vecrypt_aead_encrypt("chacha20-poly1305", out, &outlen, (const uint8_t *)"abc", 3,
                               NULL, 0, nonce, 12, key, 32) == -1,
          "unknown AEAD");
    CHECK(vecrypt_aead_encrypt("aes-128-gcm", out, &outlen, NULL, 3, NULL, 0, nonce, 12, key,
                               16) == -1,
          "NULL message");
    CHECK(vecrypt_aead_encrypt("aes-128-gcm", out, &outlen, NULL, 0, NULL, 0, nonce, 12, key,
                               16) == 0 && outlen == 16,
          "empty message");
    size_t kl = 0, nl = 0;
    CHECK(vecrypt_aead_sizes("kuznyechik-mgm", &kl, &nl) == 0 &&
              kl == VECRYPT_KUZNYECHIKMGM_KEYBYTES && nl == VECRYPT_KUZNYECHIKMGM_NPUBBYTES,
          "MGM sizes");
    CHECK(vecrypt_aead_sizes("aes-256-gcm", &kl, &nl) == 0 && kl == 32 && nl == 12,
          "GCM sizes");
    CHECK(vecrypt_aead_sizes("aes-257-gcm", &kl, &nl) == -1, "unknown sizes");
}

/* The designers' known answers of one Aigis-enc set (SHAKE), through the C interface. */
static int kem_file(const char *dir, int set) {
    char path[1024], name[32];
    snprintf(path, sizeof path, "%s/aigis/aigis_enc_%d_test_vectors.txt", dir, set);
    snprintf(name, sizeof name, "aigis-enc-%d", set);
    size_t pkl, skl, ctl, ssl;
    CHECK(vecrypt_kem_sizes(name, &pkl, &skl, &ctl, &ssl) == 0, "%s sizes", name);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f) return 0;
    static char line[16384];
    static uint8_t kc[64], ec[32], pk[4096], sk[8192], ct[4096], ss[32];
    static uint8_t pk2[4096], sk2[8192], ct2[4096], ss2[32], ss3[32];
    int have = 0, count = 0;
    for (;;) {
        char *got = fgets(line, sizeof line, f);
        if (got) {
            char *eq = strstr(line, " = ");
            if (!eq) continue;
            *eq = 0;
            const char *v = eq + 3;
            if (!strcmp(line, "keypair coins")) have |= unhex(v, kc, sizeof kc) == 64 ? 1 : 0;
            else if (!strcmp(line, "kem_enc coins")) have |= unhex(v, ec, sizeof ec) == 32 ? 2 : 0;
            else if (!strcmp(line, "pk")) have |= unhex(v, pk, sizeof pk) == pkl ? 4 : 0;
            else if (!strcmp(line, "sk")) have |= unhex(v, sk, sizeof sk) == skl ? 8 : 0;
            else if (!strcmp(line, "ct")) have |= unhex(v, ct, sizeof ct) == ctl ? 16 : 0;
            else if (!strcmp(line, "ss")) have |= unhex(v, ss, sizeof ss) == ssl ? 32 : 0;
        }
        if (have == 63) {
            CHECK(vecrypt_kem_keypair_derand(name, pk2, sk2, kc, 64) == 0, "%s keypair", name);
            CHECK(memcmp(pk2, pk, pkl) == 0, "%s vector %d: pk", name, count);
            CHECK(memcmp(sk2, sk, skl) == 0, "%s vector %d: sk", name, count);
            CHECK(vecrypt_kem_enc_derand(name, ct2, ss2, pk, ec, 32) == 0, "%s enc", name);
            CHECK(memcmp(ct2, ct, ctl) == 0, "%s vector %d: ct", name, count);
            CHECK(memcmp(ss2, ss, 32) == 0, "%s vector %d: ss", name, count);
            CHECK(vecrypt_kem_dec(name, ss3, ct, sk) == 0, "%s dec", name);
            CHECK(memcmp(ss3, ss, 32) == 0, "%s vector %d: decapsulated", name, count);
            count++;
            have = 0;
        }
        if (!got) break;
    }
    fclose(f);
    return count;
}

static void kems(const char *dir) {
    for (int set = 1; set <= 4; set++)
        CHECK(kem_file(dir, set) == 10, "Aigis-enc-%d: ten known answers", set);

    const size_t want[4][3] = {
        {VECRYPT_AIGIS_ENC_1_PUBLICKEYBYTES, VECRYPT_AIGIS_ENC_1_SECRETKEYBYTES,
         VECRYPT_AIGIS_ENC_1_CIPHERTEXTBYTES},
        {VECRYPT_AIGIS_ENC_2_PUBLICKEYBYTES, VECRYPT_AIGIS_ENC_2_SECRETKEYBYTES,
         VECRYPT_AIGIS_ENC_2_CIPHERTEXTBYTES},
        {VECRYPT_AIGIS_ENC_3_PUBLICKEYBYTES, VECRYPT_AIGIS_ENC_3_SECRETKEYBYTES,
         VECRYPT_AIGIS_ENC_3_CIPHERTEXTBYTES},
        {VECRYPT_AIGIS_ENC_4_PUBLICKEYBYTES, VECRYPT_AIGIS_ENC_4_SECRETKEYBYTES,
         VECRYPT_AIGIS_ENC_4_CIPHERTEXTBYTES},
    };
    /* Both hash modes: random keys round-trip, a changed ciphertext gives another secret,
     * and the SM3 and SHAKE keys of the same coins differ. */
    for (int set = 1; set <= 4; set++) {
        for (int sm3 = 0; sm3 <= 1; sm3++) {
            char name[32];
            snprintf(name, sizeof name, "aigis-enc-%d%s", set, sm3 ? "-sm3" : "");
            size_t pkl, skl, ctl, ssl;
            CHECK(vecrypt_kem_sizes(name, &pkl, &skl, &ctl, &ssl) == 0, "%s", name);
            CHECK(pkl == want[set - 1][0] && skl == want[set - 1][1] &&
                      ctl == want[set - 1][2] && ssl == VECRYPT_AIGIS_ENC_BYTES,
                  "%s sizes", name);
            uint8_t *pk = malloc(pkl), *sk = malloc(skl), *ct = malloc(ctl);
            uint8_t ss1[32], ss2[32], ss3[32];
            if (!pk || !sk || !ct) exit(2);
            CHECK(vecrypt_kem_keypair(name, pk, sk) == 0, "%s keypair", name);
            CHECK(vecrypt_kem_enc(name, ct, ss1, pk) == 0, "%s enc", name);
            CHECK(vecrypt_kem_dec(name, ss2, ct, sk) == 0, "%s dec", name);
            CHECK(memcmp(ss1, ss2, 32) == 0, "%s round trip", name);
            ct[0] ^= 1;
            CHECK(vecrypt_kem_dec(name, ss3, ct, sk) == 0, "%s dec", name);
            CHECK(memcmp(ss1, ss3, 32) != 0, "%s: changed ciphertext, same secret", name);
            free(pk);
            free(sk);
            free(ct);
        }
    }
    uint8_t coins[64] = {1, 2, 3}, pk1[VECRYPT_AIGIS_ENC_2_PUBLICKEYBYTES],
            pk2[VECRYPT_AIGIS_ENC_2_PUBLICKEYBYTES], sk[VECRYPT_AIGIS_ENC_2_SECRETKEYBYTES];
    CHECK(vecrypt_kem_keypair_derand("aigis-enc-2", pk1, sk, coins, 64) == 0, "shake");
    CHECK(vecrypt_kem_keypair_derand("aigis-enc-2-sm3", pk2, sk, coins, 64) == 0, "sm3");
    CHECK(memcmp(pk1, pk2, sizeof pk1) != 0, "SM3 and SHAKE keys equal");
    CHECK(vecrypt_kem_keypair_derand("aigis-enc-2", pk1, sk, coins, 63) == -1, "short coins");
    CHECK(vecrypt_kem_keypair_derand("aigis-enc-5", pk1, sk, coins, 64) == -1, "set 5");
    CHECK(vecrypt_kem_keypair("aigis-enc-2-sha2", pk1, sk) == -1, "unknown hash");
    CHECK(vecrypt_kem_keypair("aigis-enc-2", NULL, sk) == -1, "NULL pk");
    CHECK(vecrypt_kem_sizes("kyber-512", NULL, NULL, NULL, NULL) == -1, "unknown KEM");
    uint8_t ss[32];
    CHECK(vecrypt_kem_dec("aigis-enc-2", ss, NULL, sk) == -1, "NULL ciphertext");
    CHECK(vecrypt_kem_enc_derand("aigis-enc-2", pk2, ss, pk1, coins, 31) == -1, "short coins");
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s DATA_DIR\n", argv[0]);
        return 2;
    }
    CHECK(strlen(vecrypt_version()) > 0, "version");
    block_ciphers();
    aeads(argv[1]);
    kems(argv[1]);
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
