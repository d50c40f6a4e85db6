#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| vecrypt_fuzzcheck::aead_open(data));
