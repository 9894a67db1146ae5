//! A scan's entry point's arguments and its order of combination.

use super::map::{MapArg, ParamArgs};
use super::types::Pass;

/// The elements of a scan's chunk: a scan's row is cut into chunks of this many
/// consecutive elements.
///
/// silt fixes the order of a scan's combinations: in chunk `c`, the running
/// value of element `i` folds the chunk from its first element to `i` in order
/// (`local = map(first)`, then `local = combine(local, map(next))`); chunk
/// totals fold left to right into prefixes (`P_1 = T_0`, `P_{c+1} =
/// combine(P_c, T_c)`), and element `i` of chunk `c > 0` is
/// `combine(P_c, local_i)`. Each output is `finish(value, i + 1)`; the
/// exclusive scan's element `i` is the inclusive one's `i - 1` (`P_c` at a
/// chunk's start, `finish(identity(), 0)` at the row's start).
pub const SCAN_CHUNK: usize = 1024;

/// A [`ScanArg::Mapping`] flag: neighbouring work-items take neighbouring
/// rows, or blocks of rows, of one chunk (work-item `g` takes chunk `g /
/// units` of unit `g % units`), rather than neighbouring chunks of one row
/// (chunk `g % chunks` of unit `g / chunks`).
pub const SCAN_ROWS_FASTEST: u32 = 1;

/// A [`ScanArg::Mapping`] flag: a work-item takes one chunk of each of
/// [`SCAN_ROW_BLOCK`] consecutive rows, holding the rows' running values side
/// by side, rather than one chunk of one row. The totals and the scan written
/// are then launched through the scan's second entry point,
/// `NAME_TYPE_scan_blocks` (the same arguments; the prefixes stay with
/// `NAME_TYPE_scan`). Only where the innermost kept
/// dimension holds at least [`SCAN_ROW_BLOCK`] rows (`d`, the shape's lane
/// `ndim - 2`): a run of it is cut into `ceil(d / SCAN_ROW_BLOCK)` blocks, the
/// last of which ends at the run's end (overlapping the one before where
/// `SCAN_ROW_BLOCK` does not divide `d`: the rows they share are computed
/// twice and written twice with the same bits), so the units are `rows / d *
/// ceil(d / SCAN_ROW_BLOCK)` blocks. Each row still folds its chunk in its
/// own order, so the bits are those of any other mapping.
pub const SCAN_ROW_BLOCKS: u32 = 2;

/// The rows a work-item takes with [`SCAN_ROW_BLOCKS`].
pub const SCAN_ROW_BLOCK: usize = 16;

/// What a scan's entry point does in one launch ([`ScanArg::Phase`]).
pub mod scan_phase {
    /// One work-item per (row, chunk): each chunk's total into the partial
    /// buffers, at `row * chunks + chunk`.
    pub const TOTALS: u32 = 0;
    /// One work-item per row: the totals turned into prefixes in place (slot
    /// `c` holds `P_c`; slot 0 is not read).
    pub const PREFIXES: u32 = 1;
    /// One work-item per (row, chunk): the inclusive scan written.
    pub const INCLUSIVE: u32 = 2;
    /// One work-item per (row, chunk): the exclusive scan written.
    pub const EXCLUSIVE: u32 = 3;
}

/// One argument of a scan's entry point (`NAME_TYPE_scan`). Every tensor is a
/// view over the shape of kept dimensions then the scanned one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScanArg {
    /// A scalar parameter of `map` ([`storage_type`](super::storage_type)).
    Scalar {
        /// Which parameter of `map`.
        param: usize,
    },
    /// A tensor parameter's buffer.
    Buffer {
        /// Which parameter of `map`.
        param: usize,
    },
    /// Where its view starts, in elements ([`COUNT_TYPE`](super::COUNT_TYPE)).
    Offset {
        /// Which parameter of `map`.
        param: usize,
    },
    /// Its strides ([`DIMS_TYPE`](super::DIMS_TYPE)): the kept dimensions', then the scanned one's.
    Strides {
        /// Which parameter of `map`.
        param: usize,
        /// Which tensor parameter.
        view: usize,
    },
    /// A component of the chunks' totals and prefixes: `rows * chunks` of them.
    Acc {
        /// Which component of the accumulator.
        component: usize,
    },
    /// An output buffer.
    Out {
        /// Which output of `finish`.
        output: usize,
    },
    /// The output's strides over the same shape ([`DIMS_TYPE`](super::DIMS_TYPE)), one set for
    /// all outputs (they are contiguous tensors of one shape).
    OutStrides,
    /// The shape: kept dimensions, then the scanned one ([`DIMS_TYPE`](super::DIMS_TYPE)).
    Shape,
    /// How many dimensions of the shape are used, the scanned one included
    /// ([`NDIM_TYPE`](super::NDIM_TYPE)).
    Ndim,
    /// The number of rows ([`COUNT_TYPE`](super::COUNT_TYPE)).
    Rows,
    /// The number of elements in a row ([`COUNT_TYPE`](super::COUNT_TYPE)).
    Len,
    /// Chunks per row, `ceil(len / SCAN_CHUNK)` ([`COUNT_TYPE`](super::COUNT_TYPE)).
    Chunks,
    /// What this launch does ([`NDIM_TYPE`](super::NDIM_TYPE), one of [`scan_phase`]).
    Phase,
    /// How the (row, chunk) cells are given to work-items
    /// ([`NDIM_TYPE`](super::NDIM_TYPE)): [`SCAN_ROWS_FASTEST`] and
    /// [`SCAN_ROW_BLOCKS`] or'd together, 0 for neither. The prefix phase
    /// ignores it (a work-item per row).
    Mapping,
}

/// The arguments of a scan's entry point, in order: each parameter of `map`
/// (a scalar's value; a tensor's buffer, offset and strides), each accumulator component's buffer,
/// each output's buffer, then the output strides, shape, ndim, rows, len,
/// chunks, phase and mapping.
pub fn scan_args<I>(params: I, accs: usize, outputs: usize) -> impl Iterator<Item = ScanArg>
where
    I: IntoIterator<Item = Pass>,
{
    ParamArgs::new(params.into_iter(), true)
        .map(|a| match a {
            MapArg::Scalar { param } => ScanArg::Scalar { param },
            MapArg::Buffer { param } => ScanArg::Buffer { param },
            MapArg::Offset { param } => ScanArg::Offset { param },
            MapArg::Strides { param, view } => ScanArg::Strides { param, view },
            // per-parameter arguments only
            MapArg::Output { .. } | MapArg::Shape | MapArg::Ndim | MapArg::Len => ScanArg::Phase,
        })
        .chain((0..accs).map(|component| ScanArg::Acc { component }))
        .chain((0..outputs).map(|output| ScanArg::Out { output }))
        .chain([
            ScanArg::OutStrides,
            ScanArg::Shape,
            ScanArg::Ndim,
            ScanArg::Rows,
            ScanArg::Len,
            ScanArg::Chunks,
            ScanArg::Phase,
            ScanArg::Mapping,
        ])
}
