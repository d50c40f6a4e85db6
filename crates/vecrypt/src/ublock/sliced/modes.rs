//! The modes over the fully bitsliced kernel: ECB, CBC decryption and CTR on whole batches,
//! the counters made directly in sliced form.

use super::super::Variant;
use super::super::planes::Lanes;
use super::transpose::{self, Exchanges, XorWith};
use super::{BITS, Sliced};
use super::{SliceKeys, batch_bytes, decrypt, encrypt, key, mask, wipe_state};

/// The largest batch: 512-bit registers, 256-bit blocks.
const MAX_BATCH: usize = 8 * 64 * 32;

/// The state of a batch and its scratch, as the two halves of one array.
///
/// One array rather than two is a measured choice. With two separate arrays the compiler
/// schedules the encryption round differently: it loads the S-box inputs of a word early,
/// runs out of registers and spills. The uBlock-128/128 round on 512-bit registers then has
/// 248 stores and 150 register copies instead of 146 and 57, and ECB encryption and CTR
/// over 1 MiB take 10 to 15% longer.
#[inline(always)]
fn new_states<L: Lanes>(t: L::Token) -> [Sliced<L>; 2] {
    [[L::splat(t, 0); BITS]; 2]
}

/// ECB over the whole batches at the front of `buf`; returns how many bytes it covered.
#[inline(always)]
pub(in crate::ublock) fn ecb<L: Exchanges, V: Variant, const DECRYPT: bool>(
    tk: L::Token,
    keys: &SliceKeys,
    buf: &mut [u8],
) -> usize {
    let batch = batch_bytes::<L, V>();
    let mut states = new_states::<L>(tk);
    let [s, t] = &mut states;
    let mut done = 0;
    for chunk in buf.chunks_exact_mut(batch) {
        transpose::slice::<L, V>(chunk, s, t);
        if DECRYPT {
            decrypt::<L, V>(s, t, keys);
        } else {
            encrypt::<L, V>(s, t, keys);
        }
        transpose::unslice::<L, V>(s, chunk, t, XorWith::Nothing);
        done += batch;
    }
    wipe_state(s);
    wipe_state(t);
    done
}

/// One part of [`ecb`] alone over the whole batches at the front of `buf`, for timing:
/// `PART` 1 is the encryption rounds and 2 the decryption rounds, on the batch's bytes taken
/// as a sliced state as they are (plain loads and stores); 0 is the transposition into the
/// sliced form and back, with no rounds. Returns how many bytes it covered; what it writes
/// is not ciphertext.
#[cfg(feature = "kernel-parts")]
#[inline(always)]
pub(in crate::ublock) fn ecb_part<L: Exchanges, V: Variant, const PART: u8>(
    tk: L::Token,
    keys: &SliceKeys,
    buf: &mut [u8],
) -> usize {
    let batch = batch_bytes::<L, V>();
    let bits = 8 * V::BLOCK;
    let mut states = new_states::<L>(tk);
    let [s, t] = &mut states;
    let mut done = 0;
    for chunk in buf.chunks_exact_mut(batch) {
        if PART > 0 {
            for (x, b) in s[..bits].iter_mut().zip(chunk.chunks_exact(L::BYTES)) {
                *x = L::load(tk, b);
            }
            if PART == 1 {
                encrypt::<L, V>(s, t, keys);
            } else {
                decrypt::<L, V>(s, t, keys);
            }
            for (x, b) in s[..bits].iter().zip(chunk.chunks_exact_mut(L::BYTES)) {
                x.store(b);
            }
        } else {
            transpose::slice::<L, V>(chunk, s, t);
            transpose::unslice::<L, V>(s, chunk, t, XorWith::Nothing);
        }
        done += batch;
    }
    wipe_state(s);
    wipe_state(t);
    done
}

/// CBC decryption over the whole batches at the front of `buf`; returns how many bytes it
/// covered, and leaves the last ciphertext block it read in `iv`.
#[inline(always)]
pub(in crate::ublock) fn cbc_decrypt<L: Exchanges, V: Variant>(
    tk: L::Token,
    keys: &SliceKeys,
    iv: &mut [u8],
    buf: &mut [u8],
) -> usize {
    let n = V::BLOCK;
    let batch = batch_bytes::<L, V>();
    let mut states = new_states::<L>(tk);
    let [s, t] = &mut states;
    let mut previous = [0u8; MAX_BATCH];
    let previous = &mut previous[..batch];
    let mut done = 0;
    for chunk in buf.chunks_exact_mut(batch) {
        previous[..n].copy_from_slice(iv);
        previous[n..].copy_from_slice(&chunk[..batch - n]);
        iv.copy_from_slice(&chunk[batch - n..]);
        transpose::slice::<L, V>(chunk, s, t);
        decrypt::<L, V>(s, t, keys);
        transpose::unslice::<L, V>(s, chunk, t, XorWith::Bytes(previous));
        done += batch;
    }
    wipe_state(s);
    wipe_state(t);
    done
}

/// Most bits of a block's number inside a batch (512 blocks).
const INDEX_BITS: usize = 9;

/// CTR over the whole batches at the front of `buf`, advancing `counter`; returns how many
/// bytes it covered.
///
/// The counter blocks are made in sliced form, not transposed. With `2^b` blocks per batch
/// (512 on 512-bit registers), block `i` of a batch is `c + i = A + (l + i)` with `l` the
/// counter's low `b` bits and `A = c - l`. The low `b` bits of `l + i` come from the sliced
/// block numbers (one transposed batch of `0, 1, ...` per call) by a sliced addition of
/// `l`, whose carry `C` says where `A` becomes `A + 2^b`; every higher bit register is then
/// the bit of `A` or of `A + 2^b` by `C`. Batches advance `c` by `2^b`, so `l`, the low
/// registers and `C` hold for the whole call and a batch's counters cost one selection per
/// higher bit.
#[inline(always)]
pub(in crate::ublock) fn ctr<L: Exchanges, V: Variant>(
    tk: L::Token,
    keys: &SliceKeys,
    counter: &mut [u8],
    buf: &mut [u8],
) -> usize {
    use super::super::planes::{counter_add, counter_load, counter_store};
    let n = V::BLOCK;
    let batch = batch_bytes::<L, V>();
    if buf.len() < batch {
        return 0;
    }
    let bit_reg = |b: usize| 8 * (n - 1 - b / 8) + b % 8;
    let mut states = new_states::<L>(tk);
    let [s, t] = &mut states;
    let mut c = counter_load::<V>(counter);

    let mut numbers = [0u8; MAX_BATCH];
    let numbers = &mut numbers[..batch];
    for (i, block) in numbers.chunks_exact_mut(n).enumerate() {
        block[n - 2..].copy_from_slice(&(i as u16).to_be_bytes());
    }
    transpose::slice::<L, V>(numbers, s, t);
    let index_bits = (8 * L::BYTES).trailing_zeros() as usize;
    let low = (c.1 % (1 << index_bits)) as usize;
    let mut sums = [s[0]; INDEX_BITS];
    let mut carry = L::splat(tk, 0);
    for (b, sum) in sums.iter_mut().enumerate().take(index_bits) {
        let (x, l) = (s[bit_reg(b)], key::<L>(tk, mask((low >> b) as u8, 0)));
        *sum = x.xor3(carry, l);
        carry = x.and(carry).or(l.and(x.xor(carry)));
    }

    let mut done = 0;
    for chunk in buf.chunks_exact_mut(batch) {
        let base = (c.0, c.1 - low as u128);
        let mut a = [0u8; 32];
        let mut b = [0u8; 32];
        counter_store::<V>(base, &mut a);
        counter_store::<V>(counter_add(base, 1 << index_bits), &mut b);
        for (bit, sum) in sums.iter().enumerate().take(index_bits) {
            s[bit_reg(bit)] = *sum;
        }
        for bit in index_bits..8 * n {
            let k = n - 1 - bit / 8;
            let (x, y) = (
                key::<L>(tk, mask(a[k], bit % 8)),
                key::<L>(tk, mask(b[k], bit % 8)),
            );
            s[bit_reg(bit)] = x.xor(x.xor_and(y, carry));
        }
        c = counter_add(c, (8 * L::BYTES) as u128);
        encrypt::<L, V>(s, t, keys);
        transpose::unslice::<L, V>(s, chunk, t, XorWith::Output);
        done += batch;
    }
    counter_store::<V>(c, counter);
    wipe_state(s);
    wipe_state(t);
    done
}
