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
