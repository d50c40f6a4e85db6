//! The RustCrypto `aead` traits, written once for every AEAD of the crate.
//!
//! Each AEAD has its own checked, in-place `encrypt_detached` (giving its full 16-byte tag)
//! and `decrypt_detached` (which releases nothing unless the tag matches); [`aead_traits!`]
//! builds `AeadCore` and `AeadInOut` on them.

/// `aead_traits!([generics] Type, nonce = N, tag = T, tags = range)` implements `AeadCore`
/// (postfix tag) and `AeadInOut` for `Type` over its inherent
/// `encrypt_detached(&self, nonce, aad, buf) -> Result<[u8; 16], Error>` and
/// `decrypt_detached(&self, nonce, aad, buf, tag) -> Result<(), Error>`. Sealing gives the
/// first `T` bytes of the full tag, which is then wiped, and fails, writing nothing, when `T`
/// is outside `range` (the tag lengths the AEAD defines). The input is copied to the output
/// first when they differ; on failure the output holds the ciphertext, never plaintext.
macro_rules! aead_traits {
    ([$($generics:tt)*] $ty:ty, nonce = $nonce:ty, tag = $tag:ty, tags = $tags:expr) => {
        impl<$($generics)*> aead::AeadCore for $ty {
            type NonceSize = $nonce;
            type TagSize = $tag;
            const TAG_POSITION: aead::TagPosition = aead::TagPosition::Postfix;
        }

        impl<$($generics)*> aead::AeadInOut for $ty {
            fn encrypt_inout_detached(
                &self,
                nonce: &aead::Nonce<Self>,
                associated_data: &[u8],
                buffer: aead::inout::InOutBuf<'_, '_, u8>,
            ) -> aead::Result<aead::Tag<Self>> {
                let len = <$tag as aead::array::typenum::Unsigned>::USIZE;
                if !($tags).contains(&len) {
                    return Err(aead::Error);
                }
                let buf = buffer.into_out_with_copied_in();
                let mut full = self
                    .encrypt_detached(nonce, associated_data, buf)
                    .map_err(|_| aead::Error)?;
                let mut tag = aead::Tag::<Self>::default();
                tag.copy_from_slice(&full[..len]);
                crate::wipe::array(&mut full);
                Ok(tag)
            }

            fn decrypt_inout_detached(
                &self,
                nonce: &aead::Nonce<Self>,
                associated_data: &[u8],
                buffer: aead::inout::InOutBuf<'_, '_, u8>,
                tag: &aead::Tag<Self>,
            ) -> aead::Result<()> {
                let buf = buffer.into_out_with_copied_in();
                self.decrypt_detached(nonce, associated_data, buf, tag)
                    .map_err(|_| aead::Error)
            }
        }
    };
}
pub(crate) use aead_traits;
