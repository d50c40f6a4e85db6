//! Key material a cipher makes on its first use of a kernel and keeps.

/// Key material made on first use: on the heap behind a lock with `std` (moving the cipher
/// copies a pointer, and threads share it), in a cell inside the cipher without.
#[cfg(feature = "std")]
#[derive(Clone)]
pub(crate) struct Cache<T>(std::sync::OnceLock<std::boxed::Box<T>>);

#[cfg(feature = "std")]
// `get` and `get_mut` serve the kernels of the architectures that keep key material.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
impl<T> Cache<T> {
    #[inline(always)]
    pub(crate) fn get_or_init(&self, make: impl FnOnce() -> T) -> &T {
        self.0.get_or_init(|| std::boxed::Box::new(make()))
    }
    #[inline(always)]
    pub(crate) fn get(&self) -> Option<&T> {
        self.0.get().map(|b| &**b)
    }
    #[inline(always)]
    pub(crate) fn get_mut(&mut self) -> Option<&mut T> {
        self.0.get_mut().map(|b| &mut **b)
    }
}

#[cfg(not(feature = "std"))]
#[derive(Clone)]
pub(crate) struct Cache<T>(core::cell::OnceCell<T>);

impl<T> Default for Cache<T> {
    fn default() -> Self {
        Self(Default::default())
    }
}

#[cfg(not(feature = "std"))]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
impl<T> Cache<T> {
    #[inline(always)]
    pub(crate) fn get_or_init(&self, make: impl FnOnce() -> T) -> &T {
        self.0.get_or_init(make)
    }
    #[inline(always)]
    pub(crate) fn get(&self) -> Option<&T> {
        self.0.get()
    }
    #[inline(always)]
    pub(crate) fn get_mut(&mut self) -> Option<&mut T> {
        self.0.get_mut()
    }
}

/// What a cipher's kernel state must be to share a cipher between threads: `Send + Sync`
/// with `std`; without it the cache is a cell and only `Send`.
#[cfg(feature = "std")]
pub(crate) trait Shareable: Send + Sync {}
#[cfg(feature = "std")]
impl<T: Send + Sync> Shareable for T {}

/// What a cipher's kernel state must be to share a cipher between threads: `Send + Sync`
/// with `std`; without it the cache is a cell and only `Send`.
#[cfg(not(feature = "std"))]
pub(crate) trait Shareable: Send {}
#[cfg(not(feature = "std"))]
impl<T: Send> Shareable for T {}
