//! ECB and CBC, which OpenSSL sees as block ciphers: partial blocks buffered between
//! updates, the CBC chain moved on, and the padding added or checked and stripped in
//! `final`.

use super::{Ctx, Keyed, Kind, MAX_BLOCK};

impl Ctx {
    /// Runs the block mode on whole blocks in place, moving the CBC chain on.
    fn blocks(&mut self, data: &mut [u8]) -> bool {
        if data.is_empty() {
            return true;
        }
        let bs = self.alg.block();
        let Some(c) = self.keyed.as_ref().and_then(Keyed::block) else {
            return false;
        };
        match (self.alg.kind, self.encrypt) {
            (Kind::Ecb, true) => c.encrypt_ecb(data).is_ok(),
            (Kind::Ecb, false) => c.decrypt_ecb(data).is_ok(),
            (Kind::Cbc, true) => {
                let ok = c.encrypt_cbc(&self.iv[..bs], data).is_ok();
                self.iv[..bs].copy_from_slice(&data[data.len() - bs..]);
                ok
            }
            (Kind::Cbc, false) => {
                let mut last = [0u8; MAX_BLOCK];
                last[..bs].copy_from_slice(&data[data.len() - bs..]);
                let ok = c.decrypt_cbc(&self.iv[..bs], data).is_ok();
                self.iv = last;
                ok
            }
            _ => false,
        }
    }

    /// ECB or CBC update: buffers partial blocks (and, when decrypting with padding, the
    /// last whole block until `final`). Returns the output length.
    pub(super) fn block_update(&mut self, out: &mut Vec<u8>, input: &[u8]) -> bool {
        let bs = self.alg.block();
        let total = self.num + input.len();
        let mut process = total / bs * bs;
        if !self.encrypt && self.padding && process == total && process > 0 {
            process -= bs;
        }
        if process == 0 {
            self.buf[self.num..self.num + input.len()].copy_from_slice(input);
            self.num += input.len();
            return true;
        }
        out.clear();
        out.extend_from_slice(&self.buf[..self.num]);
        let from_input = process - self.num;
        out.extend_from_slice(&input[..from_input]);
        let rest = &input[from_input..];
        self.buf[..rest.len()].copy_from_slice(rest);
        self.num = rest.len();
        self.blocks(out)
    }

    /// ECB or CBC final: pads (encryption) or checks and strips the padding (decryption).
    pub(super) fn block_final(&mut self, out: &mut Vec<u8>) -> bool {
        let bs = self.alg.block();
        out.clear();
        if self.encrypt {
            if !self.padding {
                return self.num == 0;
            }
            let pad = (bs - self.num) as u8;
            let mut block = [0u8; MAX_BLOCK];
            block[..self.num].copy_from_slice(&self.buf[..self.num]);
            block[self.num..bs].fill(pad);
            out.extend_from_slice(&block[..bs]);
            self.num = 0;
            return self.blocks(out);
        }
        if !self.padding {
            return self.num == 0;
        }
        if self.num != bs {
            return false;
        }
        out.extend_from_slice(&self.buf[..bs]);
        self.num = 0;
        if !self.blocks(out) {
            return false;
        }
        let pad = usize::from(out[bs - 1]);
        if pad == 0 || pad > bs || out[bs - pad..].iter().any(|&b| usize::from(b) != pad) {
            out.clear();
            return false;
        }
        out.truncate(bs - pad);
        true
    }
}
