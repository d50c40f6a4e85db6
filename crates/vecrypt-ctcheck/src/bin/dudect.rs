//! A statistical timing test in the manner of dudect, for the kernels valgrind cannot run
//! (AVX-512, VAES, and the GFNI paths of Kuznyechik's and uBlock's AVX2 backends).
//!
//! Each target times one operation on two classes of secret input, interleaved in a random
//! order: one fixed secret, and secrets drawn at random for every measurement. If the running
//! time depends on the secret, the two distributions of cycle counts differ, and Welch's
//! t-statistic grows with the number of measurements. As dudect does, the statistic is also
//! computed on measurements cropped at a range of percentiles (which removes the long tail
//! that interrupts and frequency changes add), and on the squared distances from the mean (a
//! second-order test); the largest |t| of these is reported.
//!
//! A canary, a comparison that stops at the first differing byte, must reach a large |t|, or
//! the measurement proves nothing.
//!
//! `dudect list` prints the targets this CPU runs; `dudect run [--seconds N | --measurements
//! N] [filter...]` measures every target whose name contains one of the filters, each for N
//! seconds (default 5) or N measurements, and prints one `result` line per target:
//! `result <target> <measurements> <max |t|> <test that reached it>`. `cargo xtask dudect`
//! builds and runs it and judges the results.

#![deny(unsafe_code)]

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
#[path = "../x86/cycles.rs"]
mod cycles;

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use vecrypt::Backend;
use vecrypt::aes::{AesGcm, AesXts, K128, K256, KeySize};
use vecrypt::aigis::{self, Aigis, HashMode, ParamSet};
use vecrypt::registry;

/// Measurements taken, and their inputs prepared, together.
const BATCH: usize = 2_000;
/// The number of cropping percentiles (dudect uses 100).
const PERCENTILES: usize = 100;
/// A test counts once it holds this many measurements (dudect's threshold).
const ENOUGH: u64 = 10_000;
/// Blocks of message for the bulk operations, past the point (256 blocks) where the widest
/// kernels start.
const BULK: usize = 300;

/// Fills a secret of the random class.
type Draw = Box<dyn FnMut(&mut Rng, &mut [u8])>;
/// The timed operation, on one secret, which it may overwrite.
type Operation = Box<dyn FnMut(&mut [u8])>;

/// One operation on one backend. `run` is timed on a buffer that holds the secret of one
/// class and works on it in place; `random` fills a secret of the random class.
struct Target {
    name: String,
    fixed: Vec<u8>,
    random: Draw,
    run: Operation,
}

/// A small xoshiro256** generator, seeded from the clock.
struct Rng([u64; 4]);

impl Rng {
    fn new() -> Self {
        let mut seed = Instant::now().elapsed().as_nanos() as u64
            ^ std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
        let mut next = || {
            seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        Rng([next(), next(), next(), next()])
    }

    fn next(&mut self) -> u64 {
        let s = &mut self.0;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(8) {
            let v = self.next().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        let mut v = vec![0u8; len];
        self.fill(&mut v);
        v
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[cfg(target_arch = "x86_64")]
use cycles::cycles;

/// Elsewhere, nanoseconds since the first call.
#[cfg(not(target_arch = "x86_64"))]
fn cycles() -> u64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

/// Welch's t-test, accumulated online (Welford's method) per class.
#[derive(Clone, Default)]
struct Welch {
    n: [f64; 2],
    mean: [f64; 2],
    m2: [f64; 2],
}

impl Welch {
    fn push(&mut self, class: usize, x: f64) {
        self.n[class] += 1.0;
        let delta = x - self.mean[class];
        self.mean[class] += delta / self.n[class];
        self.m2[class] += delta * (x - self.mean[class]);
    }

    fn count(&self) -> u64 {
        (self.n[0] + self.n[1]) as u64
    }

    fn t(&self) -> f64 {
        if self.n[0] < 2.0 || self.n[1] < 2.0 {
            return 0.0;
        }
        let var0 = self.m2[0] / (self.n[0] - 1.0);
        let var1 = self.m2[1] / (self.n[1] - 1.0);
        let se = (var0 / self.n[0] + var1 / self.n[1]).sqrt();
        if se == 0.0 {
            0.0
        } else {
            (self.mean[0] - self.mean[1]) / se
        }
    }
}

/// What a target reached.
struct Outcome {
    measurements: u64,
    t: f64,
    test: String,
}

/// How long a target measures.
#[derive(Copy, Clone)]
enum Budget {
    Seconds(f64),
    Measurements(u64),
}

fn measure(target: &mut Target, budget: Budget, rng: &mut Rng) -> Outcome {
    let len = target.fixed.len();
    let mut inputs = vec![0u8; BATCH * len];
    let mut classes = vec![0usize; BATCH];
    let mut times = vec![0u64; BATCH];
    let mut batch = |target: &mut Target, rng: &mut Rng, inputs: &mut [u8]| {
        for (class, input) in classes.iter_mut().zip(inputs.chunks_mut(len)) {
            *class = (rng.next() & 1) as usize;
            if *class == 0 {
                input.copy_from_slice(&target.fixed);
            } else {
                (target.random)(rng, input);
            }
        }
        let mut work = vec![0u8; len];
        for (time, input) in times.iter_mut().zip(inputs.chunks(len)) {
            // Every byte of the buffer changes before each measurement, in both classes
            // alike: a store of the value already in memory can take a different path.
            work.fill(rng.next() as u8);
            work.copy_from_slice(input);
            let start = cycles();
            (target.run)(&mut work);
            *time = cycles().wrapping_sub(start);
        }
        classes.clone().into_iter().zip(times.clone())
    };

    // The first batch warms up and sets the cropping thresholds; it is not counted.
    let mut first: Vec<u64> = batch(target, rng, &mut inputs).map(|(_, t)| t).collect();
    first.sort_unstable();
    let thresholds: Vec<f64> = (0..PERCENTILES)
        .map(|i| {
            let p = 1.0 - 0.5f64.powf(10.0 * (i + 1) as f64 / PERCENTILES as f64);
            first[((p * first.len() as f64) as usize).min(first.len() - 1)] as f64
        })
        .collect();

    // Test 0: every measurement; 1..=PERCENTILES: cropped; last: second order.
    let mut tests = vec![Welch::default(); PERCENTILES + 2];
    let start = Instant::now();
    let mut taken = 0u64;
    loop {
        let done = match budget {
            Budget::Seconds(s) => start.elapsed() >= Duration::from_secs_f64(s),
            Budget::Measurements(n) => taken >= n,
        };
        if done {
            break;
        }
        for (class, time) in batch(target, rng, &mut inputs) {
            let x = time as f64;
            taken += 1;
            if taken > 10_000 {
                let centred = x - tests[0].mean[class];
                tests[PERCENTILES + 1].push(class, centred * centred);
            }
            tests[0].push(class, x);
            for (test, &limit) in tests[1..=PERCENTILES].iter_mut().zip(&thresholds) {
                if x < limit {
                    test.push(class, x);
                }
            }
        }
    }

    let name = |i: usize| match i {
        0 => "uncropped".to_string(),
        i if i <= PERCENTILES => format!(
            "cropped at {:.1}%",
            100.0 * (1.0 - 0.5f64.powf(10.0 * i as f64 / PERCENTILES as f64))
        ),
        _ => "second order".to_string(),
    };
    // The largest |t| of the tests holding enough measurements (the uncropped test always
    // counts, so that a short run still reports something).
    let (mut best, mut best_t) = (0, tests[0].t().abs());
    for (i, test) in tests.iter().enumerate().skip(1) {
        if test.count() >= ENOUGH && test.t().abs() > best_t {
            (best, best_t) = (i, test.t().abs());
        }
    }
    Outcome {
        measurements: taken,
        t: best_t,
        test: name(best),
    }
}

/// A target whose secret is `len` random bytes.
fn uniform(name: String, fixed: Vec<u8>, run: Operation) -> Target {
    Target {
        name,
        fixed,
        random: Box::new(|rng, out| rng.fill(out)),
        run,
    }
}

/// The block-cipher targets of `cipher` on `backend`: bulk ECB encryption and decryption
/// with a secret message, and keying with a secret key followed by one block.
fn cipher_targets(rng: &mut Rng, name: &str, backend: Backend, out: &mut Vec<Target>) {
    let Ok(info) = registry::cipher(name) else {
        return;
    };
    if !(info.backends)().contains(&backend) {
        return;
    }
    let key = rng.bytes(info.key_len);
    let bulk = BULK * info.block_len;
    for decrypt in [false, true] {
        let cipher = (info.new)(&key, Some(backend)).expect("the backend runs here");
        let op = if decrypt { "decrypt" } else { "encrypt" };
        out.push(uniform(
            format!("{name} {backend} ecb-{op} (secret message)"),
            rng.bytes(bulk),
            Box::new(move |buf| {
                if decrypt {
                    cipher.decrypt_ecb(buf).expect("whole blocks");
                } else {
                    cipher.encrypt_ecb(buf).expect("whole blocks");
                }
                black_box(buf);
            }),
        ));
    }
    let mut block = vec![0u8; info.block_len];
    out.push(uniform(
        format!("{name} {backend} key setup and one block (secret key)"),
        rng.bytes(info.key_len),
        Box::new(move |input| {
            let cipher = (info.new)(input, Some(backend)).expect("the backend runs here");
            cipher.encrypt_ecb(&mut block).expect("one block");
            black_box(&block);
        }),
    ));
}

/// GCM seal with a secret message; open of valid ciphertexts (the message secret); and the
/// rejection of a tag that differs from the right one in its last byte against random tags
/// (the tag comparison).
fn gcm_targets<K: KeySize + 'static>(rng: &mut Rng, backend: Backend, out: &mut Vec<Target>) {
    let key = rng.bytes(K::KEY);
    let Ok(gcm) = AesGcm::<K>::with_backend(&key, backend) else {
        return;
    };
    let name = format!("aes-{}-gcm {backend}", K::KEY * 8);
    const LEN: usize = 1024;
    const SHORT: usize = 64;
    let nonce = rng.bytes(12);
    let aad = rng.bytes(20);

    // Long messages, and short ones that take the one-call path where a backend has it.
    for (len, what) in [(LEN, ""), (SHORT, " 64 B")] {
        let (seal, n, a) = (gcm.clone(), nonce.clone(), aad.clone());
        out.push(uniform(
            format!("{name} seal{what} (secret message)"),
            rng.bytes(len),
            Box::new(move |buf| {
                black_box(seal.encrypt_detached(&n, &a, buf).expect("seal"));
            }),
        ));
    }

    // A pool of valid sealed messages of random plaintexts; the input is nonce, ciphertext
    // and tag.
    let sealed = |rng: &mut Rng| {
        let nonce = rng.bytes(12);
        let mut buf = rng.bytes(LEN);
        let tag = gcm.encrypt_detached(&nonce, &aad, &mut buf).expect("seal");
        [nonce, buf, tag.to_vec()].concat()
    };
    let pool: Vec<Vec<u8>> = (0..256).map(|_| sealed(rng)).collect();
    let fixed = sealed(rng);
    let (open, a) = (gcm.clone(), aad.clone());
    out.push(Target {
        name: format!("{name} open (secret message)"),
        fixed,
        random: Box::new(move |rng, out| out.copy_from_slice(&pool[rng.below(pool.len())])),
        run: Box::new(move |input| {
            let (nonce, rest) = input.split_at_mut(12);
            let (buf, tag) = rest.split_at_mut(LEN);
            let ok = open.decrypt_detached(nonce, &a, buf, tag);
            black_box(ok.is_ok());
            black_box(buf);
        }),
    });

    let message = rng.bytes(LEN);
    let mut ct = message.clone();
    let right = gcm.encrypt_detached(&nonce, &aad, &mut ct).expect("seal");
    let mut near = right;
    near[15] ^= 1;
    let mut buf = vec![0u8; LEN];
    out.push(uniform(
        format!("{name} reject (secret tag: near miss vs random)"),
        near.to_vec(),
        Box::new(move |input| {
            buf.copy_from_slice(&ct);
            let ok = gcm.decrypt_detached(&nonce, &aad, &mut buf, input);
            black_box(ok.is_ok());
        }),
    ));
}

/// XTS both ways with a secret data unit of 300 blocks and a 7-byte partial block (the
/// masked tail and ciphertext stealing).
fn xts_targets<K: KeySize + 'static>(rng: &mut Rng, backend: Backend, out: &mut Vec<Target>) {
    let Ok(xts) = AesXts::<K>::with_backend(&rng.bytes(2 * K::KEY), backend) else {
        return;
    };
    let name = format!("aes-{}-xts {backend}", K::KEY * 8);
    let iv = rng.bytes(16);
    for decrypt in [false, true] {
        let (x, iv) = (xts.clone(), iv.clone());
        let op = if decrypt { "decrypt" } else { "encrypt" };
        out.push(uniform(
            format!("{name} {op} (secret message)"),
            rng.bytes(BULK * 16 + 7),
            Box::new(move |buf| {
                if decrypt {
                    x.decrypt_unit(&iv, buf).expect("a whole block at least");
                } else {
                    x.encrypt_unit(&iv, buf).expect("a whole block at least");
                }
                black_box(buf);
            }),
        ));
    }
}

/// Aigis-enc decapsulation of one valid ciphertext: the secret key that made it against
/// secret keys whose secret parts (the polynomial vector `s` and the rejection seed `z`) come
/// from random other keys while the public key in them stays the same (decapsulation then
/// rejects, which must not show either); and the valid ciphertext against random ciphertexts
/// (the implicit rejection). The public key is held fixed in both, since expanding its matrix
/// takes a time that depends on its (public) seed.
fn aigis_targets(
    rng: &mut Rng,
    set: ParamSet,
    mode: HashMode,
    backend: Backend,
    out: &mut Vec<Target>,
) {
    let Ok(kem) = Aigis::with_backend(set, mode, backend) else {
        return;
    };
    let name = format!(
        "{} {} {backend} decaps",
        set.name().to_ascii_lowercase(),
        mode.name()
    );
    let keypair = |rng: &mut Rng| {
        kem.keypair_from_coins(&rng.bytes(aigis::KEYPAIR_COINS_BYTES))
            .expect("keypair")
    };
    let (pk, sk) = keypair(rng);
    let mut ct = vec![0u8; set.ciphertext_bytes()];
    let _ = kem
        .encapsulate_into(&pk, &rng.bytes(aigis::ENCAPS_COINS_BYTES), &mut ct)
        .expect("encaps");
    // The secret key is s || pk || H(pk) || z.
    let s_len = sk.len() - pk.len() - 64;
    let pool: Vec<Vec<u8>> = (0..64)
        .map(|_| {
            let (_, other) = keypair(rng);
            let mut mixed = sk.to_vec();
            mixed[..s_len].copy_from_slice(&other[..s_len]);
            mixed[sk.len() - 32..].copy_from_slice(&other[sk.len() - 32..]);
            mixed
        })
        .collect();
    let (k, c) = (kem, ct.clone());
    out.push(Target {
        name: format!("{name} (secret key)"),
        fixed: sk.to_vec(),
        random: Box::new(move |rng, out| out.copy_from_slice(&pool[rng.below(pool.len())])),
        run: Box::new(move |input| {
            black_box(k.decapsulate(input, &c).is_ok());
        }),
    });
    out.push(uniform(
        format!("{name} (valid vs random ciphertext)"),
        ct,
        Box::new(move |input| {
            black_box(kem.decapsulate(&sk, input).is_ok());
        }),
    ));
}

/// A comparison that stops at the first differing byte, which the test must flag: the
/// fixed class equals the reference and runs to the end, random secrets stop early.
fn canary(rng: &mut Rng) -> Target {
    let reference = rng.bytes(512);
    let compared = reference.clone();
    uniform(
        "canary (early-exit comparison)".into(),
        reference,
        Box::new(move |input| {
            let mut equal = true;
            for (a, b) in black_box(input).iter().zip(&compared) {
                if a != b {
                    equal = false;
                    break;
                }
            }
            black_box(equal);
        }),
    )
}

/// Every target this CPU runs, the canary first.
fn targets(rng: &mut Rng) -> Vec<Target> {
    let mut out = vec![canary(rng)];
    for name in ["ublock-128-128", "ublock-128-256", "ublock-256-256"] {
        cipher_targets(rng, name, Backend::Avx512, &mut out);
    }
    cipher_targets(rng, "kuznyechik", Backend::Avx512, &mut out);
    // Where the CPU has GFNI, Kuznyechik's AVX2 backend runs its GFNI kernel, and uBlock's
    // transposes calls of 256 blocks or more with GFNI; without GFNI both run only code that
    // valgrind checks.
    if vecrypt::cpu::features().has("gfni") {
        cipher_targets(rng, "kuznyechik", Backend::Avx2, &mut out);
        for name in ["ublock-128-128", "ublock-128-256", "ublock-256-256"] {
            cipher_targets(rng, name, Backend::Avx2, &mut out);
        }
    }
    for backend in [Backend::Vaes512, Backend::Vaes256] {
        cipher_targets(rng, "aes-128", backend, &mut out);
        cipher_targets(rng, "aes-256", backend, &mut out);
        gcm_targets::<K128>(rng, backend, &mut out);
        gcm_targets::<K256>(rng, backend, &mut out);
        xts_targets::<K128>(rng, backend, &mut out);
        xts_targets::<K256>(rng, backend, &mut out);
    }
    for set in ParamSet::ALL {
        aigis_targets(rng, set, HashMode::Shake, Backend::Avx512, &mut out);
    }
    // The SM3 mode's lanes (16 on AVX-512), on the set of the speed tables.
    aigis_targets(
        rng,
        ParamSet::Aigis2,
        HashMode::Sm3,
        Backend::Avx512,
        &mut out,
    );
    out
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut rng = Rng::new();
    match args.first().map(String::as_str) {
        Some("list") => {
            for t in targets(&mut rng) {
                println!("target\t{}", t.name);
            }
            ExitCode::SUCCESS
        }
        Some("run") => match run(&args[1..], &mut rng) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("dudect: {e}");
                ExitCode::from(2)
            }
        },
        _ => {
            eprintln!("usage: dudect list | run [--seconds N | --measurements N] [filter...]");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String], rng: &mut Rng) -> Result<(), String> {
    let mut budget = Budget::Seconds(5.0);
    let mut filters = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = |what: &str| {
            args.next()
                .ok_or_else(|| format!("{what} needs a value"))
                .cloned()
        };
        match arg.as_str() {
            "--seconds" => {
                let s: f64 = value(arg)?.parse().map_err(|e| format!("--seconds: {e}"))?;
                budget = Budget::Seconds(s);
            }
            "--measurements" => {
                let n: u64 = value(arg)?
                    .parse()
                    .map_err(|e| format!("--measurements: {e}"))?;
                budget = Budget::Measurements(n);
            }
            filter => filters.push(filter.to_string()),
        }
    }
    let mut all = targets(rng);
    // The canary always runs: without it a pass means nothing.
    let mut first = true;
    all.retain(|t| {
        let canary = std::mem::replace(&mut first, false);
        canary || filters.is_empty() || filters.iter().any(|f| t.name.contains(f.as_str()))
    });
    if all.len() < 2 {
        return Err("no target matches (see `dudect list`)".into());
    }
    for (i, target) in all.iter_mut().enumerate() {
        // The canary shows itself within a second.
        let budget = match (i, budget) {
            (0, Budget::Seconds(s)) => Budget::Seconds(s.min(1.0)),
            (0, Budget::Measurements(n)) => Budget::Measurements(n.min(1_000_000)),
            (_, b) => b,
        };
        let outcome = measure(target, budget, rng);
        println!(
            "result\t{}\t{}\t{:.2}\t{}",
            target.name, outcome.measurements, outcome.t, outcome.test
        );
    }
    Ok(())
}
