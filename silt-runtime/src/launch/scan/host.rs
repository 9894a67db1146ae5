//! The host backend of a scan, and `eval`'s scan of one row.

use rayon::prelude::*;

use crate::device::Device;
use crate::dtype::Element;
use crate::error::Result;
use crate::launch::reduce::order;
use crate::launch::reduce::plan::ReducePlan;
use crate::tensor::TensorT;

/// Every row of a plan scanned in silt's order, then finished; the values in
/// the reduction's order (row `r`'s element `k` at `r * len + k`).
/// `map(i, k)` maps element `k` of the row at logical index `i`.
///
/// # Errors
/// [`Error::OutOfMemory`](crate::Error::OutOfMemory) when the results do not
/// fit in the host's memory (checked before anything is computed).
pub fn host_scan<A, O>(
    plan: &ReducePlan,
    identity: impl Fn() -> A + Sync,
    map: impl Fn(usize, u64) -> A + Sync,
    combine: impl Fn(A, A) -> A + Sync,
    finish: impl Fn(A, u64) -> O + Sync,
    exclusive: bool,
) -> Result<Vec<O>>
where
    A: Clone + Send + Sync,
    O: Send,
{
    let len = plan.len;
    // `prepare_scan` checked that rows * len fits
    let total = plan.rows * len;
    let mut out = crate::launch::reduce::host::results::<O>(plan, total)?;
    let rows = (0..plan.rows).into_par_iter().flat_map_iter(|row| {
        let mut out = Vec::with_capacity(len);
        order::scan_row(
            len,
            &identity,
            |k| map(row * len + k, u64::try_from(k).unwrap_or(u64::MAX)),
            &combine,
            exclusive,
            |k, v| {
                let count = if exclusive { k } else { k + 1 };
                out.push(finish(v, u64::try_from(count).unwrap_or(u64::MAX)));
            },
        );
        out
    });
    out.par_extend(rows);
    Ok(out)
}

/// One row of `len` elements scanned in silt's order and finished (`map(k)` is
/// element `k`): what a launch computes along the axis.
pub fn scan_row<A: Clone, O>(
    len: usize,
    identity: impl Fn() -> A,
    map: impl Fn(usize) -> A,
    combine: impl Fn(A, A) -> A,
    finish: impl Fn(A, u64) -> O,
    exclusive: bool,
) -> Vec<O> {
    let mut out = Vec::with_capacity(len);
    order::scan_row(len, identity, map, combine, exclusive, |k, v| {
        let count = if exclusive { k } else { k + 1 };
        out.push(finish(v, u64::try_from(count).unwrap_or(u64::MAX)));
    });
    out
}

/// A host tensor of the scan's shape holding `values`, given in the plan's
/// order (kept axes, then the scanned one).
///
/// # Errors
/// Allocation errors.
pub fn host_scan_output<T: Element>(plan: &ReducePlan, values: &[T]) -> Result<TensorT<T>> {
    let permuted: Vec<usize> = plan.perm.iter().map(|&a| plan.broadcast[a]).collect();
    let t = TensorT::from_slice(&Device::host(), values, &permuted)?;
    // back to the axes' own order
    let mut inverse = vec![0; plan.perm.len()];
    for (i, &a) in plan.perm.iter().enumerate() {
        inverse[a] = i;
    }
    t.permute(&inverse)?.contiguous()?.reshape(&*plan.out_shape)
}
