#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| vecrypt_fuzzcheck::sealed_file(data));
