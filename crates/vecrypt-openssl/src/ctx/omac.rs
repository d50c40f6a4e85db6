//! The context's side of `kuznyechik-ctr-acpkm-omac`: the MAC over the plaintext beside the
//! CTR-ACPKM stream, and the tag made or checked in `final`. The key derivation and the MAC
//! themselves are `crate::acpkm_omac`'s.

use zeroize::Zeroize;

use super::Ctx;

impl Ctx {
    /// One `kuznyechik-ctr-acpkm-omac` update in place: the MAC takes the plaintext, before
    /// encryption or after decryption.
    pub(super) fn omac_stream(&mut self, data: &mut [u8]) -> bool {
        let encrypt = self.encrypt;
        let Some(om) = self.omac.as_mut() else {
            return false;
        };
        if encrypt && !om.absorb(data) {
            return false;
        }
        if !self.stream(data) {
            return false;
        }
        match self.omac.as_mut() {
            Some(om) if !encrypt => om.absorb(data),
            _ => true,
        }
    }

    /// `kuznyechik-ctr-acpkm-omac`'s final call: the MAC encrypted by the keystream that
    /// goes on after the data is the tag; encryption keeps it, decryption compares it with
    /// the tag set.
    pub(super) fn omac_final(&mut self) -> bool {
        let Some(mut tag) = self.omac.as_mut().and_then(|om| om.take_mac()) else {
            return false;
        };
        let ok = self.stream(&mut tag);
        let encrypt = self.encrypt;
        let ok = ok
            && match self.omac.as_mut() {
                Some(om) if encrypt => {
                    om.set_made_tag(tag);
                    true
                }
                Some(om) => om.check(&tag),
                None => false,
            };
        tag.zeroize();
        ok
    }
}
