//! The header's sizes are the library's.

use vecrypt_core::aigis::ParamSet;
use vecrypt_core::registry;

#[test]
fn kem_sizes_match_the_library() {
    let table = [
        (
            ParamSet::Aigis1,
            vecrypt::VECRYPT_AIGIS_ENC_1_PUBLICKEYBYTES,
            vecrypt::VECRYPT_AIGIS_ENC_1_SECRETKEYBYTES,
            vecrypt::VECRYPT_AIGIS_ENC_1_CIPHERTEXTBYTES,
        ),
        (
            ParamSet::Aigis2,
            vecrypt::VECRYPT_AIGIS_ENC_2_PUBLICKEYBYTES,
            vecrypt::VECRYPT_AIGIS_ENC_2_SECRETKEYBYTES,
            vecrypt::VECRYPT_AIGIS_ENC_2_CIPHERTEXTBYTES,
        ),
        (
            ParamSet::Aigis3,
            vecrypt::VECRYPT_AIGIS_ENC_3_PUBLICKEYBYTES,
            vecrypt::VECRYPT_AIGIS_ENC_3_SECRETKEYBYTES,
            vecrypt::VECRYPT_AIGIS_ENC_3_CIPHERTEXTBYTES,
        ),
        (
            ParamSet::Aigis4,
            vecrypt::VECRYPT_AIGIS_ENC_4_PUBLICKEYBYTES,
            vecrypt::VECRYPT_AIGIS_ENC_4_SECRETKEYBYTES,
            vecrypt::VECRYPT_AIGIS_ENC_4_CIPHERTEXTBYTES,
        ),
    ];
    for (set, pk, sk, ct) in table {
        assert_eq!(set.public_key_bytes(), pk, "{}", set.name());
        assert_eq!(set.secret_key_bytes(), sk, "{}", set.name());
        assert_eq!(set.ciphertext_bytes(), ct, "{}", set.name());
    }
    assert_eq!(
        vecrypt::VECRYPT_AIGIS_ENC_BYTES,
        vecrypt_core::aigis::SHARED_SECRET_BYTES
    );
    assert_eq!(
        vecrypt::VECRYPT_AIGIS_KEYPAIR_COINBYTES,
        vecrypt_core::aigis::KEYPAIR_COINS_BYTES
    );
    assert_eq!(
        vecrypt::VECRYPT_AIGIS_ENC_COINBYTES,
        vecrypt_core::aigis::ENCAPS_COINS_BYTES
    );
}

#[test]
fn cipher_sizes_match_the_registry() {
    let table = [
        (
            "ublock-128-128",
            vecrypt::VECRYPT_UBLOCK128_128_KEYBYTES,
            vecrypt::VECRYPT_UBLOCK128_128_BLOCKBYTES,
        ),
        (
            "ublock-128-256",
            vecrypt::VECRYPT_UBLOCK128_256_KEYBYTES,
            vecrypt::VECRYPT_UBLOCK128_256_BLOCKBYTES,
        ),
        (
            "ublock-256-256",
            vecrypt::VECRYPT_UBLOCK256_256_KEYBYTES,
            vecrypt::VECRYPT_UBLOCK256_256_BLOCKBYTES,
        ),
        (
            "kuznyechik",
            vecrypt::VECRYPT_KUZNYECHIK_KEYBYTES,
            vecrypt::VECRYPT_KUZNYECHIK_BLOCKBYTES,
        ),
        (
            "aes-128",
            vecrypt::VECRYPT_AES128_KEYBYTES,
            vecrypt::VECRYPT_AES128_BLOCKBYTES,
        ),
        (
            "aes-192",
            vecrypt::VECRYPT_AES192_KEYBYTES,
            vecrypt::VECRYPT_AES192_BLOCKBYTES,
        ),
        (
            "aes-256",
            vecrypt::VECRYPT_AES256_KEYBYTES,
            vecrypt::VECRYPT_AES256_BLOCKBYTES,
        ),
    ];
    assert_eq!(table.len(), registry::ciphers().len());
    for (name, key, block) in table {
        let info = registry::cipher(name).unwrap();
        assert_eq!(info.key_len, key, "{name}");
        assert_eq!(info.block_len, block, "{name}");
    }
}

#[test]
fn aead_sizes_match_the_registry() {
    use vecrypt as c;
    let table = [
        (
            "aes-128-gcm",
            c::VECRYPT_AES128GCM_KEYBYTES,
            c::VECRYPT_AES128GCM_NPUBBYTES,
        ),
        (
            "aes-192-gcm",
            c::VECRYPT_AES192GCM_KEYBYTES,
            c::VECRYPT_AES192GCM_NPUBBYTES,
        ),
        (
            "aes-256-gcm",
            c::VECRYPT_AES256GCM_KEYBYTES,
            c::VECRYPT_AES256GCM_NPUBBYTES,
        ),
        (
            "kuznyechik-mgm",
            c::VECRYPT_KUZNYECHIKMGM_KEYBYTES,
            c::VECRYPT_KUZNYECHIKMGM_NPUBBYTES,
        ),
        (
            "kuznyechik-gcm",
            c::VECRYPT_KUZNYECHIKGCM_KEYBYTES,
            c::VECRYPT_KUZNYECHIKGCM_NPUBBYTES,
        ),
        (
            "ublock-128-gcm",
            c::VECRYPT_UBLOCK128GCM_KEYBYTES,
            c::VECRYPT_UBLOCK128GCM_NPUBBYTES,
        ),
        (
            "ublock-128-256-gcm",
            c::VECRYPT_UBLOCK128_256GCM_KEYBYTES,
            c::VECRYPT_UBLOCK128_256GCM_NPUBBYTES,
        ),
    ];
    let entries = vecrypt_core::registry::aeads();
    assert_eq!(entries.len(), table.len());
    for (name, key, npub) in table {
        let info = vecrypt_core::registry::aead(name).unwrap();
        assert_eq!((info.key_len, info.nonce_len), (key, npub), "{name}");
    }
}
