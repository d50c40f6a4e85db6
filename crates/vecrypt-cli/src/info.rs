//! `vecrypt info`: what this CPU offers and what each algorithm runs on.

use vecrypt::aigis;
use vecrypt::cpu;
use vecrypt::registry;

use crate::Failure;

pub fn run() -> Result<(), Failure> {
    println!(
        "cpu features: {}",
        cpu::features().names().collect::<Vec<_>>().join(" ")
    );
    match cpu::forced_backend() {
        Some(b) => println!("forced backend: {b} (VECRYPT_BACKEND or the API)"),
        None => println!("forced backend: none"),
    }
    println!();
    println!("{:<18} {:<12} available (best first)", "algorithm", "uses");
    for info in registry::ciphers() {
        let uses = (info.new)(&vec![0u8; info.key_len], None)
            .map(|c| c.backend().name().to_string())
            .unwrap_or_else(|e| format!("error: {e}"));
        let all: Vec<&str> = (info.backends)().iter().map(|b| b.name()).collect();
        println!("{:<18} {:<12} {}", info.name, uses, all.join(", "));
    }
    let all: Vec<&str> = aigis::backends().iter().map(|b| b.name()).collect();
    for set in aigis::ParamSet::ALL {
        // Both hash modes run on the same backend.
        let uses = aigis::Aigis::new(set, aigis::HashMode::Shake).backend();
        let name = format!("{} (shake, sm3)", set.name().to_ascii_lowercase());
        println!("{:<18} {:<12} {}", name, uses.name(), all.join(", "));
    }
    Ok(())
}
