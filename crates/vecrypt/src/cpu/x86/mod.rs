//! x86-64 helpers shared by the kernels of several algorithms.

/// Makes the listed register variables (places of a SIMD type, e.g. `*a` for `a: &mut
/// __m512i`) outputs of one point in the code, an empty `asm!` that reads and writes them
/// in registers of class `$class` (`ymm_reg`, `zmm_reg`): the compiler can then neither
/// move work across that point nor merge the work of both sides, so a kernel keeps the
/// interleaving it is written with. `$template` names every operand (`"/* {0} {1} */"`).
macro_rules! pin_registers {
    ($template:literal, $class:ident; $($r:expr),+ $(,)?) => {
        // SAFETY: the assembly is empty; it only marks the registers as read and written.
        unsafe {
            core::arch::asm!(
                $template,
                $(inout($class) $r,)+
                options(pure, nomem, nostack, preserves_flags)
            );
        }
    };
}
pub(crate) use pin_registers;

/// Whether the core is AMD family 0x1A or later: four 512-bit vector pipes, two of them
/// with AES units, where the other cores with AVX-512 issue 512-bit work on two pipes, AES
/// on one (the models of each class are listed in `docs/perf/aes.md`). The kernels' choices
/// that differ between the two (how many blocks a path is worth, which instructions to use)
/// are made from this in `crate::cpu::tuning`. CPUID is read once and the answer kept (in a virtual machine each CPUID traps
/// to the host).
pub(crate) fn zen5_class() -> bool {
    use core::arch::x86_64::__cpuid;
    use core::sync::atomic::{AtomicU8, Ordering};
    // 0: not read yet; 1: no; 2: yes.
    static ANSWER: AtomicU8 = AtomicU8::new(0);
    match ANSWER.load(Ordering::Relaxed) {
        0 => {
            let vendor = __cpuid(0);
            let amd = [vendor.ebx, vendor.edx, vendor.ecx]
                == [*b"Auth", *b"enti", *b"cAMD"].map(u32::from_le_bytes);
            let eax = __cpuid(1).eax;
            let base = (eax >> 8) & 0xf;
            let family = base + if base == 0xf { (eax >> 20) & 0xff } else { 0 };
            let yes = amd && family >= 0x1a;
            ANSWER.store(1 + u8::from(yes), Ordering::Relaxed);
            yes
        }
        answer => answer == 2,
    }
}
