//! `vecrypt kat <SET> [--hash shake|sm3]`: the NIST-style known-answer file of the standard
//! PQCgenKAT_kem flow, on stdout.
//!
//! A master AES-256 CTR-DRBG seeded with bytes 0..47 draws 100 seeds of 48 bytes; each record
//! reseeds the DRBG with its seed, then key generation draws 64 bytes and encapsulation 32.

use std::fmt::Write as _;
use std::io::Write as _;

use vecrypt::aes::Aes256;
use vecrypt::aigis::{Aigis, HashMode};
use vecrypt::modes::BlockModes;
use zeroize::Zeroizing;

use crate::Failure;
use crate::kem_cmd::{Hash, parse_set};

#[derive(clap::Args)]
pub struct Args {
    /// Parameter set: aigis-enc-1 ... aigis-enc-4.
    set: String,
    /// Hash mode.
    #[arg(long, value_enum, default_value = "shake")]
    hash: Hash,
}

/// The AES-256 CTR-DRBG without derivation function of the NIST submission kits.
struct CtrDrbg {
    key: Zeroizing<[u8; 32]>,
    v: [u8; 16],
}

impl CtrDrbg {
    fn new(entropy: &[u8; 48]) -> Self {
        let mut d = CtrDrbg {
            key: Zeroizing::new([0; 32]),
            v: [0; 16],
        };
        d.update(Some(entropy));
        d
    }

    fn increment_v(&mut self) {
        for b in self.v.iter_mut().rev() {
            let (next, carry) = b.overflowing_add(1);
            *b = next;
            if !carry {
                break;
            }
        }
    }

    fn block(&mut self) -> [u8; 16] {
        self.increment_v();
        let mut out = self.v;
        Aes256::from_key(&self.key[..])
            .and_then(|c| c.encrypt_ecb(&mut out))
            .expect("a 32-byte key and one whole block");
        out
    }

    fn update(&mut self, provided: Option<&[u8; 48]>) {
        let mut temp = Zeroizing::new([0u8; 48]);
        for chunk in temp.chunks_mut(16) {
            chunk.copy_from_slice(&self.block());
        }
        if let Some(p) = provided {
            for (t, x) in temp.iter_mut().zip(p.iter()) {
                *t ^= x;
            }
        }
        self.key.copy_from_slice(&temp[..32]);
        self.v.copy_from_slice(&temp[32..]);
    }

    fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(16) {
            let b = self.block();
            chunk.copy_from_slice(&b[..chunk.len()]);
        }
        self.update(None);
    }
}

fn line(text: &mut String, label: &str, bytes: &[u8]) {
    let _ = writeln!(text, "{label} = {}", hex::encode_upper(bytes));
}

pub fn run(args: &Args) -> Result<(), Failure> {
    let set = parse_set(&args.set)?;
    let kem = Aigis::new(set, HashMode::from(args.hash));
    let entropy: [u8; 48] = core::array::from_fn(|i| i as u8);
    let mut master = CtrDrbg::new(&entropy);
    let mut text = format!("# {}\n\n", set.name());
    for count in 0..100 {
        let mut seed = [0u8; 48];
        master.fill(&mut seed);
        let mut drbg = CtrDrbg::new(&seed);
        let mut kc = Zeroizing::new([0u8; 64]);
        drbg.fill(&mut kc[..]);
        let (pk, sk) = kem.keypair_from_coins(&kc[..])?;
        let mut ec = Zeroizing::new([0u8; 32]);
        drbg.fill(&mut ec[..]);
        let (ct, ss) = kem.encapsulate_from_coins(&pk, &ec[..])?;
        if kem.decapsulate(&sk, &ct)? != ss {
            return Err(Failure::usage(format!(
                "{}: decapsulation disagrees at count {count}",
                set.name()
            )));
        }
        let _ = writeln!(text, "count = {count}");
        line(&mut text, "seed", &seed);
        line(&mut text, "pk", &pk);
        line(&mut text, "sk", &sk);
        line(&mut text, "ct", &ct);
        line(&mut text, "ss", &ss[..]);
        text.push('\n');
    }
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        // A reader that stops early (`| head`) is not a failure of the command.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r.map_err(|e| Failure::usage(format!("cannot write the output: {e}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first seed of every NIST KAT file (entropy 0..47).
    #[test]
    fn drbg_gives_the_well_known_first_seed() {
        let entropy: [u8; 48] = core::array::from_fn(|i| i as u8);
        let mut d = CtrDrbg::new(&entropy);
        let mut seed = [0u8; 48];
        d.fill(&mut seed);
        assert_eq!(
            hex::encode_upper(seed),
            "061550234D158C5EC95595FE04EF7A25767F2E24CC2BC479D09D86DC9ABCFDE7056A8C266F9EF97ED08541DBD2E1FFA1"
        );
    }
}
