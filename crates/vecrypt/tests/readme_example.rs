//! The README's library example: the code between the markers below is run here, and the
//! README's `rust` block must show exactly these lines, so the example cannot drift from
//! what compiles.

// README example begins
use vecrypt::aes::Aes256Gcm;
use vecrypt::modes::BlockModes;
use vecrypt::ublock::Ublock128_128;

fn main() -> Result<(), vecrypt::Error> {
    // AES-256-GCM; never use a nonce twice under one key.
    let gcm = Aes256Gcm::from_key(&[0x42; 32])?;
    let nonce = [7u8; 12];
    let sealed = gcm.seal(&nonce, b"header", b"attack at dawn")?;
    assert_eq!(gcm.open(&nonce, b"header", &sealed)?, b"attack at dawn");

    // uBlock-128/128 in CTR mode, which takes any length.
    let cipher = Ublock128_128::from_key(&[0x17; 16])?;
    let mut data = *b"CTR takes any length";
    cipher.apply_ctr(&[0; 16], &mut data)?;
    cipher.apply_ctr(&[0; 16], &mut data)?;
    assert_eq!(&data, b"CTR takes any length");

    // Bad input is a typed error, never a panic.
    assert!(Ublock128_128::from_key(&[0; 15]).is_err());
    Ok(())
}
// README example ends

#[test]
fn the_readme_example_runs() {
    main().expect("the README example returned an error");
}

#[test]
fn the_example_encrypts_and_authenticates() {
    // The example's assertions hold for a cipher that did nothing, so check that it did.
    let gcm = Aes256Gcm::from_key(&[0x42; 32]).unwrap();
    let sealed = gcm.seal(&[7u8; 12], b"header", b"attack at dawn").unwrap();
    assert_eq!(sealed.len(), 14 + 16);
    assert_ne!(&sealed[..14], b"attack at dawn");
    assert!(gcm.open(&[7u8; 12], b"other header", &sealed).is_err());

    let cipher = Ublock128_128::from_key(&[0x17; 16]).unwrap();
    let mut data = *b"CTR takes any length";
    cipher.apply_ctr(&[0; 16], &mut data).unwrap();
    assert_ne!(&data, b"CTR takes any length");
}

#[test]
fn the_readme_shows_this_code() {
    let this = include_str!("readme_example.rs");
    let begin = this.find("// README example begins\n").unwrap();
    let end = this.find("// README example ends\n").unwrap();
    let example = &this[begin + "// README example begins\n".len()..end];

    let readme = include_str!("../../../README.md");
    let start = readme
        .find("```rust\n")
        .expect("the README has no rust block");
    let body = &readme[start + "```rust\n".len()..];
    let shown = &body[..body.find("```\n").expect("the rust block is not closed")];
    assert_eq!(
        shown, example,
        "README.md's rust block differs from tests/readme_example.rs"
    );
}
