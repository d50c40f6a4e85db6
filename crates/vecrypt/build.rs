//! Tells the library whether the Arm target has the DSP instructions of ARMv7E-M.
//!
//! Arm target features are not visible to `cfg(target_feature)` on a stable compiler, so
//! the kernel table's `dsp` reads `cfg(vecrypt_arm_dsp)`, set here: on every `thumbv7em`
//! target (DSP is part of ARMv7E-M), or when the compiler reports the feature, unless the
//! flags turn it off. `cfg(vecrypt_arm_thumb2)` marks the Arm targets that run Thumb-2
//! (ARMv7-M, ARMv7E-M, ARMv8-M Mainline, Thumb on ARMv7-A), for the assembly Keccak.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(vecrypt_arm_dsp)");
    println!("cargo::rustc-check-cfg=cfg(vecrypt_arm_thumb2)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
    let target = std::env::var("TARGET").unwrap_or_default();
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let arm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|a| a == "arm");
    let has = target.starts_with("thumbv7em") || features.split(',').any(|f| f == "dsp");
    let off = flags.contains("-dsp");
    if arm && has && !off {
        println!("cargo::rustc-cfg=vecrypt_arm_dsp");
    }
    let thumb2 = ["thumbv7", "thumbv8m.main"]
        .iter()
        .any(|p| target.starts_with(p));
    if arm && thumb2 {
        println!("cargo::rustc-cfg=vecrypt_arm_thumb2");
    }
}
