//! All of a kernel's instantiations ([`KernelRef`], `NAME::KERNEL` in a
//! kernel's module): what a chain fused at run time names.

use super::text::KernelInfo;

/// Every instantiation of one kernel: what a [`Fusion`](crate::Fusion) call
/// names, picking the instantiation by its arguments' types. Each kernel's
/// module has one, `NAME::KERNEL`.
#[derive(Debug)]
pub struct KernelRef {
    name: &'static str,
    infos: &'static [&'static KernelInfo],
}

impl KernelRef {
    /// The instantiations `infos` of the kernel `name` (called by generated
    /// code).
    pub const fn new(name: &'static str, infos: &'static [&'static KernelInfo]) -> Self {
        KernelRef { name, infos }
    }

    /// The kernel's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Its instantiations.
    pub(crate) fn infos(&self) -> &'static [&'static KernelInfo] {
        self.infos
    }
}
