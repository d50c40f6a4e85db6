//! The flash one algorithm takes: an image that uses only the algorithms its cargo features
//! name (`size-aigis`, `size-ublock`, `size-kuznyechik`, `size-aes`), for `flash-sizes` to
//! compare with the image that uses none. Run on the board it does each once and exits 0.

#![no_std]
#![no_main]

use core::hint::black_box;

use cortex_m_rt::entry;
use cortex_m_semihosting::debug;

#[entry]
fn main() -> ! {
    let key = black_box([7u8; 32]);
    let buf = &mut black_box([0u8; 64]);
    #[cfg(feature = "size-aigis")]
    {
        use vecrypt::aigis::{AigisCompact, HashMode, ParamSet};
        let set = black_box(ParamSet::Aigis2);
        let kem = AigisCompact::new(set, black_box(HashMode::Shake));
        let (mut pk, mut sk, mut ct) = ([0u8; 2048], [0u8; 4096], [0u8; 2048]);
        let (pk, sk, ct) = (
            &mut pk[..set.public_key_bytes()],
            &mut sk[..set.secret_key_bytes()],
            &mut ct[..set.ciphertext_bytes()],
        );
        let coins = [1u8; 64];
        let _ = kem.keypair_into(&coins, pk, sk);
        let _ = kem.encapsulate_into(pk, &coins[..32], ct);
        black_box(kem.decapsulate(sk, ct).ok());
    }
    #[cfg(feature = "size-ublock")]
    {
        use vecrypt::modes::BlockModes;
        use vecrypt::ublock::{Ublock, V128_128, V128_256, V256_256};
        fn both<C: BlockModes>(c: Result<C, vecrypt::Error>, buf: &mut [u8]) {
            if let Ok(c) = c {
                let _ = c.encrypt_ecb(buf);
                let _ = c.decrypt_ecb(buf);
            }
        }
        both(Ublock::<V128_128>::from_key(&key[..16]), buf);
        both(Ublock::<V128_256>::from_key(&key), buf);
        both(Ublock::<V256_256>::from_key(&key), buf);
    }
    #[cfg(feature = "size-kuznyechik")]
    {
        use vecrypt::modes::BlockModes;
        if let Ok(c) = vecrypt::kuznyechik::Kuznyechik::from_key(&key) {
            let _ = c.encrypt_ecb(buf);
            let _ = c.decrypt_ecb(buf);
        }
    }
    #[cfg(feature = "size-aes")]
    {
        use vecrypt::aes::{Aes128, Aes256};
        use vecrypt::modes::BlockModes;
        if let Ok(c) = Aes128::from_key(&key[..16]) {
            let _ = c.encrypt_ecb(buf);
            let _ = c.decrypt_ecb(buf);
        }
        if let Ok(c) = Aes256::from_key(&key) {
            let _ = c.encrypt_ecb(buf);
            let _ = c.decrypt_ecb(buf);
        }
    }
    black_box((&key, buf));
    debug::exit(debug::EXIT_SUCCESS);
    loop {
        cortex_m::asm::wfi();
    }
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    debug::exit(debug::EXIT_FAILURE);
    loop {
        cortex_m::asm::wfi();
    }
}
