//! The x86-64 kernels' choices that depend on the core's class rather than on its features,
//! in one place. Features say which kernels run; the class says which of two correct paths is worth
//! more (how many blocks a short path is worth, which form of a step to use). The class is
//! read once from CPUID (`crate::cpu::x86::zen5_class`) and the kernels' entries ask
//! [`tuning`]; the measurements behind each value are in `docs/perf/aes.md` and
//! `docs/perf/kuznyechik.md`. Tests run every choice on any CPU through `forced`, which
//! sets the answer for the calling thread only.

/// The class-dependent choices of the kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tuning {
    /// AES-GCM on VAES-512: the longest text, in bytes, the one-call short kernel takes.
    pub(crate) aes_gcm_zmm_short_text: usize,
    /// AES-XTS on VAES-512: the tweak step by whole-register byte shifts rather than by
    /// 64-bit shifts with a carry.
    pub(crate) aes_xts_zmm_byte_shift: bool,
    /// Kuznyechik on AVX-512: below this many blocks a call takes the per-block path.
    pub(crate) kuznyechik_zmm_small_blocks: usize,
}

/// Cores that issue two 512-bit AES rounds a cycle on four 512-bit vector pipes (AMD from
/// family 0x1A on).
pub(crate) const TWO_ZMM_AES_UNITS: Tuning = Tuning {
    aes_gcm_zmm_short_text: 768,
    aes_xts_zmm_byte_shift: false,
    kuznyechik_zmm_small_blocks: 21,
};

/// The other cores with AVX-512: 512-bit work on two pipes, AES on one. The short GCM
/// kernel's twelve registers of rounds queue on that unit, and a padded Kuznyechik batch
/// costs more.
pub(crate) const ONE_ZMM_AES_UNIT: Tuning = Tuning {
    aes_gcm_zmm_short_text: 512,
    aes_xts_zmm_byte_shift: true,
    kuznyechik_zmm_small_blocks: 29,
};

#[cfg(test)]
std::thread_local! {
    static FORCED: core::cell::Cell<Option<Tuning>> = const { core::cell::Cell::new(None) };
}

/// The choices for this core.
#[inline]
pub(crate) fn tuning() -> Tuning {
    #[cfg(test)]
    if let Some(t) = FORCED.with(core::cell::Cell::get) {
        return t;
    }
    if crate::cpu::x86::zen5_class() {
        TWO_ZMM_AES_UNITS
    } else {
        ONE_ZMM_AES_UNIT
    }
}

/// Runs `f` with [`tuning`] answering `t` on this thread.
#[cfg(test)]
pub(crate) fn forced<R>(t: Tuning, f: impl FnOnce() -> R) -> R {
    FORCED.with(|c| c.set(Some(t)));
    let r = f();
    FORCED.with(|c| c.set(None));
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_class_picks_a_table_and_a_test_may_force_another() {
        let own = if crate::cpu::x86::zen5_class() {
            TWO_ZMM_AES_UNITS
        } else {
            ONE_ZMM_AES_UNIT
        };
        assert_eq!(tuning(), own);
        let other = Tuning {
            kuznyechik_zmm_small_blocks: 3,
            ..own
        };
        assert_eq!(forced(other, tuning), other);
        assert_eq!(tuning(), own);
        // Forcing is per thread: another thread sees the core's own choices meanwhile.
        forced(other, || {
            assert_eq!(std::thread::spawn(tuning).join().unwrap(), own);
        });
    }
}
