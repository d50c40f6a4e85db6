//! Criterion benchmarks of every registered block cipher on every backend this CPU runs:
//! ECB, CTR and CBC over 16 KiB and 1 MiB. `cargo bench -p vecrypt-speed --features
//! bench --bench block_ciphers -- <filter>`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use vecrypt::registry;

fn block_ciphers(c: &mut Criterion) {
    for info in registry::ciphers() {
        let mut group = c.benchmark_group(info.name);
        let key = vec![0x11u8; info.key_len];
        let iv = vec![0u8; info.block_len];
        for backend in (info.backends)() {
            let cipher = (info.new)(&key, Some(backend)).expect("listed backends run");
            for size in [16 * 1024, 1 << 20] {
                let mut buf = vec![0u8; size];
                group.throughput(Throughput::Bytes(size as u64));
                let id = |op: &str| BenchmarkId::new(format!("{op}/{backend}"), size);
                group.bench_function(id("ecb-encrypt"), |b| {
                    b.iter(|| cipher.encrypt_ecb(&mut buf).unwrap())
                });
                group.bench_function(id("ecb-decrypt"), |b| {
                    b.iter(|| cipher.decrypt_ecb(&mut buf).unwrap())
                });
                group.bench_function(id("ctr"), |b| {
                    b.iter(|| cipher.apply_ctr(&iv, &mut buf).unwrap())
                });
                group.bench_function(id("cbc-encrypt"), |b| {
                    b.iter(|| cipher.encrypt_cbc(&iv, &mut buf).unwrap())
                });
                group.bench_function(id("cbc-decrypt"), |b| {
                    b.iter(|| cipher.decrypt_cbc(&iv, &mut buf).unwrap())
                });
            }
        }
        group.finish();
    }
}

criterion_group!(benches, block_ciphers);
criterion_main!(benches);
