//! Round trips and consistency for every uBlock variant, mode and backend, on random keys,
//! IVs and lengths; the multi-key API against streams run one by one; typed errors.

use proptest::prelude::*;
use vecrypt::Error;
use vecrypt::modes::{BlockModes, MultiKey};
use vecrypt::ublock::{Ublock, Ublock128_128, V128_128, V128_256, V256_256, Variant};

fn round_trips<V: Variant>(key: &[u8], iv: &[u8], data: &[u8]) -> Result<(), TestCaseError> {
    let n = V::BLOCK;
    let key = &key[..V::KEY];
    let iv = &iv[..n];
    let whole = &data[..data.len() / n * n];
    for backend in Ublock::<V>::backends() {
        let c = Ublock::<V>::with_backend(key, backend).unwrap();

        let mut buf = whole.to_vec();
        c.encrypt_ecb(&mut buf).unwrap();
        prop_assert!(whole.is_empty() || buf != whole, "ECB changed nothing");
        c.decrypt_ecb(&mut buf).unwrap();
        prop_assert_eq!(&buf, whole);

        let mut buf = whole.to_vec();
        c.encrypt_cbc(iv, &mut buf).unwrap();
        let mut one_by_one = whole.to_vec();
        let mut chain = iv.to_vec();
        for block in one_by_one.chunks_mut(n) {
            block.iter_mut().zip(&chain).for_each(|(b, c)| *b ^= c);
            c.encrypt_ecb(block).unwrap();
            chain.copy_from_slice(block);
        }
        prop_assert_eq!(&buf, &one_by_one, "CBC is not the chain of ECB");
        c.decrypt_cbc(iv, &mut buf).unwrap();
        prop_assert_eq!(&buf, whole);

        let mut buf = data.to_vec();
        c.apply_ctr(iv, &mut buf).unwrap();
        c.apply_ctr(iv, &mut buf).unwrap();
        prop_assert_eq!(&buf, data);
    }
    Ok(())
}

fn multi_matches_single<V: Variant>(
    keys: &[Vec<u8>],
    data: &[u8],
    lens: &[usize],
) -> Result<(), TestCaseError> {
    let n = V::BLOCK;
    let keys: Vec<&[u8]> = keys.iter().map(|k| &k[..V::KEY]).collect();
    let ivs: Vec<Vec<u8>> = (0..keys.len()).map(|i| vec![i as u8 * 17; n]).collect();
    let ivs: Vec<&[u8]> = ivs.iter().map(|v| v.as_slice()).collect();
    let streams: Vec<Vec<u8>> = lens
        .iter()
        .map(|l| data[..(l % (data.len() + 1)) / n * n].to_vec())
        .collect();
    for backend in Ublock::<V>::backends() {
        let multi = MultiKey::from_keys(&keys, |k| Ublock::<V>::with_backend(k, backend)).unwrap();
        let singles = multi.ciphers();

        let mut bufs = streams.clone();
        let mut refs: Vec<&mut [u8]> = bufs.iter_mut().map(|b| b.as_mut_slice()).collect();
        multi.encrypt_cbc(&ivs, &mut refs).unwrap();
        for (i, s) in streams.iter().enumerate() {
            let mut want = s.clone();
            singles[i].encrypt_cbc(ivs[i], &mut want).unwrap();
            prop_assert_eq!(&bufs[i], &want, "multi CBC stream {}", i);
        }
        let mut refs: Vec<&mut [u8]> = bufs.iter_mut().map(|b| b.as_mut_slice()).collect();
        multi.decrypt_cbc(&ivs, &mut refs).unwrap();
        prop_assert_eq!(&bufs, &streams);

        let mut refs: Vec<&mut [u8]> = bufs.iter_mut().map(|b| b.as_mut_slice()).collect();
        multi.encrypt_ecb(&mut refs).unwrap();
        for (i, s) in streams.iter().enumerate() {
            let mut want = s.clone();
            singles[i].encrypt_ecb(&mut want).unwrap();
            prop_assert_eq!(&bufs[i], &want, "multi ECB stream {}", i);
        }
        let mut refs: Vec<&mut [u8]> = bufs.iter_mut().map(|b| b.as_mut_slice()).collect();
        multi.decrypt_ecb(&mut refs).unwrap();
        prop_assert_eq!(&bufs, &streams);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn round_trip_every_mode(
        key in prop::collection::vec(any::<u8>(), 32),
        iv in prop::collection::vec(any::<u8>(), 32),
        data in prop::collection::vec(any::<u8>(), 0..1500),
    ) {
        round_trips::<V128_128>(&key, &iv, &data)?;
        round_trips::<V128_256>(&key, &iv, &data)?;
        round_trips::<V256_256>(&key, &iv, &data)?;
    }

    #[test]
    fn multi_key_equals_streams_alone(
        keys in prop::collection::vec(prop::collection::vec(any::<u8>(), 32), 1..10),
        data in prop::collection::vec(any::<u8>(), 0..1200),
        lens in prop::collection::vec(any::<usize>(), 10),
    ) {
        let lens = &lens[..keys.len()];
        multi_matches_single::<V128_128>(&keys, &data, lens)?;
        multi_matches_single::<V128_256>(&keys, &data, lens)?;
        multi_matches_single::<V256_256>(&keys, &data, lens)?;
    }
}

#[test]
fn bad_lengths_are_typed_errors() {
    assert_eq!(
        Ublock128_128::from_key(&[0; 15]).unwrap_err(),
        Error::KeyLength {
            expected: 16,
            got: 15
        }
    );
    let c = Ublock128_128::from_key(&[0; 16]).unwrap();
    let mut odd = [0u8; 17];
    assert_eq!(
        c.encrypt_ecb(&mut odd).unwrap_err(),
        Error::NotWholeBlocks { block: 16, got: 17 }
    );
    assert!(matches!(
        c.decrypt_cbc(&[0; 16], &mut odd),
        Err(Error::NotWholeBlocks { .. })
    ));
    assert_eq!(
        c.apply_ctr(&[0; 8], &mut odd).unwrap_err(),
        Error::IvLength {
            expected: 16,
            got: 8
        }
    );
    let multi = MultiKey::new(vec![c.clone(), c]);
    let mut a = [0u8; 16];
    assert_eq!(
        multi.encrypt_ecb(&mut [&mut a]).unwrap_err(),
        Error::InvalidParameter
    );
}
