#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| vecrypt_fuzzcheck::block_ciphers(data));
