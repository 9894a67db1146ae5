//! The counting operations, as PyTorch's: [`bincount`](crate::bincount)
//! and [`histc`](crate::histc), on grid kernels (counts in work-group
//! memory, then added to the result by atomics), and on the host in plain
//! Rust (`host.rs`, tasks counting in parallel). Their rules are in
//! `docs/semantics.md`, "Counting".

pub mod bincount;
pub(crate) mod device;
pub mod histc;
mod host;

use silt::{Axes, Result, Tensor};

/// The smallest and largest element of `x` (non-empty) as `f64`s (NaN when
/// `x` holds one), from silt-kernels' `amin` and `amax`.
pub(crate) fn extremes(x: &Tensor) -> Result<(f64, f64)> {
    let one = |t: Tensor| -> Result<f64> { Ok(crate::to_f64::dispatch(&t)?.to_vec::<f64>()?[0]) };
    let lo = one(crate::amin::dispatch(x, Axes::all())?)?;
    let hi = one(crate::amax::dispatch(x, Axes::all())?)?;
    Ok((lo, hi))
}

/// The work-items to count `n` elements, about `PER_ITEM` each.
pub(crate) fn items(n: usize) -> usize {
    n.div_ceil(device::PER_ITEM).max(1)
}
