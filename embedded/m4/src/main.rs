//! vecrypt on a Cortex-M4. The firmware checks, one line each:
//! - every block cipher's official vector (`<cipher> vectors=ok insns/block=<n>`);
//! - the Aigis-enc known-answer file of every set and hash mode, made on the board, by its
//!   SHA-256 against the one the library makes on a server (`aigis-enc-<set> <mode>
//!   kat-sha256=<hex>`);
//! - each function of Aigis-enc-2 alone, its instructions, and the kernels' results against
//!   the portable code's (`aigis-enc-2 part <name> insns=<n>`);
//! - the stack (by painting) and the instructions of each operation of the compact KEM
//!   (`aigis-enc-<set> <mode> <op> stack=<bytes> insns=<n>`).
//!
//! It exits with status 0 only if every check passed. Instructions are counted with the
//! SysTick timer under QEMU's `-icount shift=0` (one nanosecond per instruction); the ratio
//! of instructions to ticks is measured first on a loop of known length, not assumed.

#![no_std]
#![no_main]

use core::fmt::Write;

use cortex_m::peripheral::SYST;
use cortex_m::peripheral::syst::SystClkSource;
use cortex_m_rt::entry;
use cortex_m_semihosting::{debug, hio};
use sha2::{Digest, Sha256};
use vecrypt::aes::{Aes128, Aes256};
use vecrypt::aigis::{AigisCompact, HashMode, ParamSet, kat};
use vecrypt::kuznyechik::Kuznyechik;
use vecrypt::modes::BlockModes;
use vecrypt::ublock::{Ublock, V128_128, V128_256, V256_256};

mod measure;
mod parts;

use measure::{Counter, stack_used};

/// The SHA-256 of `vecrypt kat <set> --hash <mode>` as the library prints it on x86-64, for
/// sets 1 to 4, SHAKE then SM3.
const KAT_SHA256: [[&str; 2]; 4] = [
    [
        "ed27429f68846b58ad24d9dc8ea7cce03bef805ae4dba6d4e2293853bfb900a9",
        "fcee9e90a9c67563e8e7cf9486071c93cfaaac6097855b7c18556ec57f7d2504",
    ],
    [
        "3c97478e8330b3658951ff6effd1868ed8ae6d99034dc1a8d5a91479bfbf1411",
        "479ffbe9f2482a78ca94340b3de461f7728b3d744acce157553cddd7e9e44f81",
    ],
    [
        "a49f0039dc995c72b3d77479dfb067025e5061ef01cc5577aa9859ebb7509f2b",
        "297c4c1b3d7c2f57b7db8e31bc66dcf9314856b695247bf6eacf591c5fd3c332",
    ],
    [
        "4cc43cf04f68c626898d0665039e777eb3e059568c930633f40bae5cf98369a7",
        "b0bdba4e9e4877b5e62314ff0eb8d0e701ecef2e3df2348062df667d9c022096",
    ],
];

/// One official vector: key, plaintext, ciphertext, in hex.
struct Vector {
    name: &'static str,
    key: &'static str,
    pt: &'static str,
    ct: &'static str,
}

const VECTORS: [Vector; 6] = [
    // The uBlock design document's examples.
    Vector {
        name: "ublock-128-128",
        key: "0123456789abcdeffedcba9876543210",
        pt: "0123456789abcdeffedcba9876543210",
        ct: "32122bedd023c429023470e1158c147d",
    },
    Vector {
        name: "ublock-128-256",
        key: "0123456789abcdeffedcba9876543210000102030405060708090a0b0c0d0e0f",
        pt: "0123456789abcdeffedcba9876543210",
        ct: "64accd6e34cac84d384cd4ba7aeadd19",
    },
    Vector {
        name: "ublock-256-256",
        key: "0123456789abcdeffedcba9876543210000102030405060708090a0b0c0d0e0f",
        pt: "0123456789abcdeffedcba9876543210000102030405060708090a0b0c0d0e0f",
        ct: "d8e9351c5f4d27ea842135ca1640ad4b0ce119bc25c03e7c329ea8fe93e7bdfe",
    },
    // GOST R 34.12-2015, A.1.
    Vector {
        name: "kuznyechik",
        key: "8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef",
        pt: "1122334455667700ffeeddccbbaa9988",
        ct: "7f679d90bebc24305a468d42b9d4edcd",
    },
    // FIPS 197, C.1 and C.3.
    Vector {
        name: "aes-128",
        key: "000102030405060708090a0b0c0d0e0f",
        pt: "00112233445566778899aabbccddeeff",
        ct: "69c4e0d86a7b0430d8cdb78070b4c55a",
    },
    Vector {
        name: "aes-256",
        key: "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        pt: "00112233445566778899aabbccddeeff",
        ct: "8ea2b7ca516745bfeafc49904b496089",
    },
];

/// Bytes of hex, decoded into `out`; the number of bytes.
fn unhex(s: &str, out: &mut [u8]) -> usize {
    let digit = |c: u8| match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        _ => c - b'A' + 10,
    };
    let b = s.as_bytes();
    for (o, pair) in out.iter_mut().zip(b.chunks_exact(2)) {
        *o = digit(pair[0]) << 4 | digit(pair[1]);
    }
    b.len() / 2
}

/// Checks `v` both ways on `c` and counts the instructions of ECB encryption per block.
fn check_cipher<C: BlockModes>(c: &C, v: &Vector, counter: &Counter) -> (bool, u64) {
    let (mut pt, mut ct) = ([0u8; 32], [0u8; 32]);
    let n = unhex(v.pt, &mut pt);
    unhex(v.ct, &mut ct);
    let mut b = pt;
    let mut ok = c.encrypt_ecb(&mut b[..n]).is_ok() && b[..n] == ct[..n];
    ok &= c.decrypt_ecb(&mut b[..n]).is_ok() && b[..n] == pt[..n];
    let mut buf = [0x5au8; 1024];
    let insns = counter.count(|| {
        let _ = c.encrypt_ecb(&mut buf);
    });
    (ok, insns / (1024 / n) as u64)
}

fn mode_name(mode: HashMode) -> &'static str {
    match mode {
        HashMode::Shake => "shake",
        HashMode::Sm3 => "sm3",
    }
}

/// Lower-case hex of a digest.
fn hex32(d: &[u8], out: &mut [u8; 64]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for (pair, b) in out.chunks_exact_mut(2).zip(d) {
        pair[0] = DIGITS[usize::from(b >> 4)];
        pair[1] = DIGITS[usize::from(b & 15)];
    }
}

/// Buffers of the compact KEM's operations, outside the measured stack, and of the
/// default variant's, to compare with.
struct KemBuffers {
    pk: [u8; 2048],
    sk: [u8; 4096],
    ct: [u8; 2048],
    pk2: [u8; 2048],
    sk2: [u8; 4096],
    ct2: [u8; 2048],
}

static mut BUFFERS: KemBuffers = KemBuffers {
    pk: [0; 2048],
    sk: [0; 4096],
    ct: [0; 2048],
    pk2: [0; 2048],
    sk2: [0; 4096],
    ct2: [0; 2048],
};

#[entry]
fn main() -> ! {
    let mut out = match hio::hstdout() {
        Ok(o) => o,
        Err(()) => finish(false),
    };
    let Some(peripherals) = cortex_m::Peripherals::take() else {
        finish(false)
    };
    let mut syst: SYST = peripherals.SYST;
    syst.set_clock_source(SystClkSource::Core);
    syst.set_reload(0x00ff_ffff);
    syst.clear_current();
    syst.enable_counter();
    let counter = Counter::calibrate();
    let _ = writeln!(
        out,
        "board: MPS2-AN386 (Cortex-M4), {} instructions per SysTick tick",
        counter.per_tick()
    );
    let mut all = true;

    for v in &VECTORS {
        let mut key = [0u8; 32];
        let k = unhex(v.key, &mut key);
        let key = &key[..k];
        let (ok, per_block) = match v.name {
            "ublock-128-128" => {
                Ublock::<V128_128>::from_key(key).map(|c| check_cipher(&c, v, &counter))
            }
            "ublock-128-256" => {
                Ublock::<V128_256>::from_key(key).map(|c| check_cipher(&c, v, &counter))
            }
            "ublock-256-256" => {
                Ublock::<V256_256>::from_key(key).map(|c| check_cipher(&c, v, &counter))
            }
            "kuznyechik" => Kuznyechik::from_key(key).map(|c| check_cipher(&c, v, &counter)),
            "aes-128" => Aes128::from_key(key).map(|c| check_cipher(&c, v, &counter)),
            _ => Aes256::from_key(key).map(|c| check_cipher(&c, v, &counter)),
        }
        .unwrap_or((false, 0));
        all &= ok;
        let _ = writeln!(
            out,
            "{} vectors={} insns/block={per_block}",
            v.name,
            if ok { "ok" } else { "FAILED" }
        );
    }

    all &= parts::report(&mut out, &counter);
    all &= parts::keccak(&mut out, &counter);

    for (si, set) in ParamSet::ALL.into_iter().enumerate() {
        for (mi, mode) in [HashMode::Shake, HashMode::Sm3].into_iter().enumerate() {
            // `aigis-enc-<set>`, as `vecrypt` names the sets.
            let number = si + 1;
            let kem = vecrypt::aigis::Aigis::new(set, mode);
            let mut h = Sha256::new();
            let made = kat::write_kat(&kem, |piece| h.update(piece)).is_ok();
            let mut digest = [0u8; 64];
            hex32(&h.finalize(), &mut digest);
            let digest = core::str::from_utf8(&digest).unwrap_or("");
            let ok = made && digest == KAT_SHA256[si][mi];
            all &= ok;
            let _ = writeln!(
                out,
                "aigis-enc-{number} {} kat-sha256={digest}{}",
                mode_name(mode),
                if ok { "" } else { " FAILED" }
            );
            all &= compact_ops(&mut out, number, set, mode, &counter);
        }
    }
    let _ = writeln!(out, "{}", if all { "all checks passed" } else { "FAILED" });
    finish(all)
}

/// Runs the compact KEM's three operations once each, printing their stack and
/// instructions; `false` if any output differs from the default variant's (whose bytes the
/// known-answer digest checks).
fn compact_ops(
    out: &mut impl Write,
    number: usize,
    set: ParamSet,
    mode: HashMode,
    counter: &Counter,
) -> bool {
    let kem = AigisCompact::new(set, mode);
    // SAFETY: the firmware is single-threaded and has no interrupt handlers, and this is
    // the only reference to the buffers while it lives.
    let b = unsafe { &mut *core::ptr::addr_of_mut!(BUFFERS) };
    let (pk, sk, ct) = (
        &mut b.pk[..set.public_key_bytes()],
        &mut b.sk[..set.secret_key_bytes()],
        &mut b.ct[..set.ciphertext_bytes()],
    );
    let (pk2, sk2, ct2) = (
        &mut b.pk2[..set.public_key_bytes()],
        &mut b.sk2[..set.secret_key_bytes()],
        &mut b.ct2[..set.ciphertext_bytes()],
    );
    let coins = [0x42u8; 64];
    let mut ss = [0u8; 32];
    let mut back = [1u8; 32];
    let mut ok = true;
    let mut report = |op: &str, f: &mut dyn FnMut()| {
        let stack = stack_used(f);
        let insns = counter.count(f);
        let _ = writeln!(
            out,
            "aigis-enc-{number} {} {op} stack={stack} insns={insns}",
            mode_name(mode)
        );
    };
    report("keygen", &mut || {
        ok &= kem.keypair_into(&coins, pk, sk).is_ok();
    });
    report(
        "encaps",
        &mut || match kem.encapsulate_into(pk, &coins[..32], ct) {
            Ok(s) => ss = *s,
            Err(_) => ok = false,
        },
    );
    report("decaps", &mut || match kem.decapsulate(sk, ct) {
        Ok(s) => back = *s,
        Err(_) => ok = false,
    });
    let full = vecrypt::aigis::Aigis::new(set, mode);
    let same = full.keypair_into(&coins, pk2, sk2).is_ok()
        && full
            .encapsulate_into(pk2, &coins[..32], ct2)
            .is_ok_and(|s| *s == ss)
        && pk == pk2
        && sk == sk2
        && ct == ct2;
    if !same {
        let _ = writeln!(
            out,
            "aigis-enc-{number} {} compact differs from default FAILED",
            mode_name(mode)
        );
    }
    ok && same && ss == back
}

/// Ends the run: status 0 if `ok`, 1 otherwise.
fn finish(ok: bool) -> ! {
    debug::exit(if ok {
        debug::EXIT_SUCCESS
    } else {
        debug::EXIT_FAILURE
    });
    loop {
        cortex_m::asm::wfi();
    }
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    if let Ok(mut out) = hio::hstderr() {
        let _ = writeln!(out, "panic: {info}");
    }
    finish(false)
}
