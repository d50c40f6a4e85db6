//! The designers' test vectors (SHAKE mode, 10 per set): pk, sk, ct and ss from the given
//! coins, and decapsulation back to ss, on every backend this CPU runs.

use vecrypt::aigis::{self, Aigis, HashMode, ParamSet};

struct Vector {
    keypair_coins: Vec<u8>,
    encaps_coins: Vec<u8>,
    pk: Vec<u8>,
    sk: Vec<u8>,
    ct: Vec<u8>,
    ss: Vec<u8>,
}

fn load(set: ParamSet) -> Vec<Vector> {
    let n = set.name().rsplit('-').next().unwrap();
    let path = format!(
        "{}/tests/data/aigis/aigis_enc_{n}_test_vectors.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let mut out = Vec::new();
    let mut fields: Vec<(String, Vec<u8>)> = Vec::new();
    for line in text.lines().chain(std::iter::once("TEST VEC end")) {
        if line.starts_with("TEST VEC") {
            if !fields.is_empty() {
                let get = |k: &str| fields.iter().find(|(n, _)| n == k).unwrap().1.clone();
                out.push(Vector {
                    keypair_coins: get("keypair coins"),
                    encaps_coins: get("kem_enc coins"),
                    pk: get("pk"),
                    sk: get("sk"),
                    ct: get("ct"),
                    ss: get("ss"),
                });
                fields.clear();
            }
        } else if let Some((k, v)) = line.split_once(" = ")
            && k.trim() != "NUM"
        {
            fields.push((k.trim().to_string(), hex::decode(v.trim()).unwrap()));
        }
    }
    out
}

#[test]
fn all_vectors_on_every_backend() {
    let mut checked = 0;
    for set in ParamSet::ALL {
        let vectors = load(set);
        assert_eq!(vectors.len(), 10, "{}", set.name());
        for backend in aigis::backends() {
            let kem = Aigis::with_backend(set, HashMode::Shake, backend).unwrap();
            for (i, v) in vectors.iter().enumerate() {
                let what = format!("{} vector {i} on {backend}", set.name());
                let (pk, sk) = kem.keypair_from_coins(&v.keypair_coins).unwrap();
                assert_eq!(hex::encode(&pk), hex::encode(&v.pk), "pk, {what}");
                assert_eq!(hex::encode(&*sk), hex::encode(&v.sk), "sk, {what}");
                let (ct, ss) = kem.encapsulate_from_coins(&pk, &v.encaps_coins).unwrap();
                assert_eq!(hex::encode(&ct), hex::encode(&v.ct), "ct, {what}");
                assert_eq!(ss.as_slice(), v.ss.as_slice(), "ss, {what}");
                assert_eq!(
                    kem.decapsulate(&v.sk, &v.ct).unwrap().as_slice(),
                    v.ss.as_slice(),
                    "decaps, {what}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 40);
}

#[test]
fn aigis2_first_vector_shared_secret() {
    let v = &load(ParamSet::Aigis2)[0];
    assert_eq!(
        hex::encode_upper(&v.ss),
        "0F54C7321A3CB9950A243559E9D5E68C52645E640D8327F810BABE2112BF1166"
    );
    let kem =
        Aigis::with_backend(ParamSet::Aigis2, HashMode::Shake, vecrypt::Backend::Soft).unwrap();
    let (pk, _) = kem.keypair_from_coins(&v.keypair_coins).unwrap();
    let (_, ss) = kem.encapsulate_from_coins(&pk, &v.encaps_coins).unwrap();
    assert_eq!(ss.as_slice(), v.ss.as_slice());
}
