//! Entry templates: the `__kernel` functions that assign elements to
//! work-items and call a kernel's body. One file per form of [`Entry`].
//!
//! [`Entry`]: crate::ir::Entry

mod first_pass;
pub(super) mod map;
pub(super) mod reduce;
pub(super) mod scan;
