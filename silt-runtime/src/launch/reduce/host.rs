//! The host backend of a reduction, and `eval`'s fold of one row: rows and
//! tiles folded in parallel by rayon, each in silt's order ([`super::order`]).

use rayon::prelude::*;

use crate::device::Device;
use crate::dtype::Element;
use crate::error::{host_oom, Error, Result};
use crate::launch::host::{read_layout, HostRead};
use crate::tensor::TensorT;

use super::order::{tile_result, tiles, tree};
use super::plan::ReducePlan;

/// The rows of one tile a rayon task takes at least: a row of a few
/// elements is a few nanoseconds of work.
const SHORT_ROWS_A_TASK: usize = 1024;

/// The elements of input `t` in the reduction's order: row `r`'s element `k`
/// at `r * len + k`. Borrowed when the view allows, else a copy.
///
/// # Errors
/// Allocation errors when a copy is needed.
pub fn host_rows<'a, T: Element>(plan: &ReducePlan, t: &'a TensorT<T>) -> Result<HostRead<'a, T>> {
    read_layout(t, plan.view_of(t.as_tensor())?)
}

/// Every row of a plan folded in silt's order, then finished: `map(i, k)`
/// maps element `k` of the row at logical index `i = row * len + k`.
///
/// # Errors
/// [`Error::OutOfMemory`](crate::Error::OutOfMemory) when the results do not
/// fit in the host's memory (checked before anything is computed).
pub fn host_reduce<A, O>(
    plan: &ReducePlan,
    identity: impl Fn() -> A + Sync,
    map: impl Fn(usize, u64) -> A + Sync,
    combine: impl Fn(A, A) -> A + Sync,
    finish: impl Fn(A, u64) -> O + Sync,
) -> Result<Vec<O>>
where
    A: Clone + Send + Sync,
    O: Send,
{
    let (rows, len) = (plan.rows, plan.len);
    let count = u64::try_from(len).unwrap_or(u64::MAX);
    let mut out = results::<O>(plan, rows)?;
    if len == 0 {
        out.extend((0..rows).map(|_| finish(identity(), 0)));
        return Ok(out);
    }
    let per_row = tiles(len);
    let at_row = |row: usize| {
        let base = row * len;
        let map = &map;
        move |k: usize| map(base + k, u64::try_from(k).unwrap_or(u64::MAX))
    };
    // each task keeps its scratch for the lanes from tile to tile
    if per_row == 1 {
        (0..rows)
            .into_par_iter()
            .with_min_len(SHORT_ROWS_A_TASK)
            .map_init(Vec::new, |leaves, row| {
                finish(tile_result(len, 0, &at_row(row), &combine, leaves), count)
            })
            .collect_into_vec(&mut out);
        return Ok(out);
    }
    // rows * len elements are read, so rows * per_row (per_row <= len) fits
    let mut parts: Vec<A> = Vec::new();
    parts
        .try_reserve_exact(rows * per_row)
        .map_err(|_| host_oom((rows * per_row).saturating_mul(std::mem::size_of::<A>())))?;
    (0..rows * per_row)
        .into_par_iter()
        .map_init(Vec::new, |leaves, g| {
            let (row, tile) = (g / per_row, g % per_row);
            tile_result(len, tile, &at_row(row), &combine, leaves)
        })
        .collect_into_vec(&mut parts);
    parts
        .par_chunks(per_row)
        .map_init(Vec::new, |scratch, row| {
            scratch.clear();
            scratch.extend_from_slice(row);
            finish(tree(scratch, &combine), count)
        })
        .collect_into_vec(&mut out);
    Ok(out)
}

/// An empty vector with room for `n` results of the plan: an error when
/// their bytes do not fit in `usize` (as the device's output would be) or in
/// the host's memory, before anything is computed.
pub(crate) fn results<O>(plan: &ReducePlan, n: usize) -> Result<Vec<O>> {
    let size = std::mem::size_of::<O>();
    let bytes = n
        .checked_mul(size)
        .filter(|&b| b <= isize::MAX.unsigned_abs())
        .ok_or_else(|| Error::SizeOverflow {
            shape: plan.out_shape.to_vec(),
            elem_size: size,
        })?;
    let mut out = Vec::new();
    out.try_reserve_exact(n).map_err(|_| host_oom(bytes))?;
    Ok(out)
}

/// One row of `len` elements folded in silt's order and finished (`map(k)`
/// is element `k`): what a launch computes for each output element.
pub fn fold_row<A: Clone, O>(
    len: usize,
    identity: impl Fn() -> A,
    map: impl Fn(usize) -> A,
    combine: impl Fn(A, A) -> A,
    finish: impl Fn(A, u64) -> O,
) -> O {
    let acc = super::order::fold_row(len, identity, map, combine);
    finish(acc, u64::try_from(len).unwrap_or(u64::MAX))
}

/// A host tensor of the plan's output shape holding `values`.
///
/// # Errors
/// Allocation errors.
pub fn host_output<T: Element>(plan: &ReducePlan, values: &[T]) -> Result<TensorT<T>> {
    TensorT::from_slice(&Device::host(), values, &*plan.out_shape)
}
