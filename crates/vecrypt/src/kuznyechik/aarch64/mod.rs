//! The AArch64 kernels of Kuznyechik go here: the byte-sliced rounds on NEON registers (TBL
//! lookups for π, PMULL for MGM's products), in the shape of the x86 kernels: one file per
//! stage, chosen once per key behind the front's [`Kernels`](super::dispatch::Kernels)
//! interface. Until then every key runs the portable code.
