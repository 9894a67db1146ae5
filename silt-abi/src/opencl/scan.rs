//! A scan's entry point's arguments and its order of combination.

use super::map::{MapArg, ParamArgs};
use super::types::Pass;

/// The elements of a scan's chunk: a scan's row is cut into chunks of this many
/// consecutive elements, and each chunk into segments of [`SCAN_SEGMENT`].
///
/// silt fixes the order of a scan's combinations, at three levels. In a
/// segment, the running value `local_i` of element `i` folds the segment from
/// its first element to `i` in order (`local = map(first)`, then `local =
/// combine(local, map(next))`); its last is the segment's total `t_s`. In a
/// chunk, the segments' totals fold left to right (`Q_1 = t_0`, `Q_{s+1} =
/// combine(Q_s, t_s)`), and the chunk's total `T_c` is the fold of all of
/// them. In a row, the chunks' totals fold left to right into prefixes (`P_1
/// = T_0`, `P_{c+1} = combine(P_c, T_c)`). Segment `s` of chunk `c` has the
/// prefix `B = combine(P_c, Q_s)` (`P_c` alone for a chunk's first segment,
/// `Q_s` alone in a row's first chunk, none for the row's first segment),
/// and element `i` of it is `combine(B, local_i)` (`local_i` without a
/// prefix). Each output is `finish(value, i + 1)`; the exclusive scan's
/// element `i` is the inclusive one's `i - 1` within a segment, and `B` at a
/// segment's first element (`finish(identity(), 0)` at the row's start).
pub const SCAN_CHUNK: usize = 1024;

/// The elements of a scan's segment (see [`SCAN_CHUNK`]): a chunk holds
/// `SCAN_CHUNK / SCAN_SEGMENT` segments. Short segments let a work-item's
/// loads and combines run as independent chains, and let neighbouring
/// work-items take neighbouring segments ([`SCAN_SEGMENTS`]).
pub const SCAN_SEGMENT: usize = 16;

/// The segments of a full chunk, `SCAN_CHUNK / SCAN_SEGMENT`.
pub const SCAN_SEGMENTS_PER_CHUNK: usize = SCAN_CHUNK / SCAN_SEGMENT;

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

/// A [`ScanArg::Mapping`] flag: a work-item takes one segment of one chunk
/// of one row ([`SCAN_SEGMENT`] elements), neighbouring work-items the
/// neighbouring segments of the chunk, rather than a work-item a whole chunk:
/// on a GPU, neighbouring work-items then read neighbouring elements. The
/// cells are `rows * chunks * per_chunk`, `per_chunk = min(SCAN_CHUNK, len)
/// / SCAN_SEGMENT` rounded up (work-item `g` takes segment `g % per_chunk`
/// of cell `g / per_chunk`, of which a row's last chunk may not have every
/// segment). The totals phase then writes each segment's total into the
/// segment slots ([`ScanArg::Acc`]), and [`scan_phase::SEGMENT_PREFIXES`]
/// turns them into the chunks' `Q_s` and totals before the prefixes. Not
/// with [`SCAN_ROWS_FASTEST`] or [`SCAN_ROW_BLOCKS`].
pub const SCAN_SEGMENTS: u32 = 4;

/// What a scan's entry point does in one launch ([`ScanArg::Phase`]). A cell
/// is a (row, chunk), or with [`SCAN_SEGMENTS`](super::SCAN_SEGMENTS) a (row,
/// chunk, segment).
pub mod scan_phase {
    /// One work-item per cell: each chunk's total into its chunk slot (with
    /// [`SCAN_SEGMENTS`](super::SCAN_SEGMENTS), each segment's total into its
    /// segment slot).
    pub const TOTALS: u32 = 0;
    /// One work-item per row: the totals turned into prefixes in place (slot
    /// `c` holds `P_c`; slot 0 is not read).
    pub const PREFIXES: u32 = 1;
    /// One work-item per cell: the inclusive scan written.
    pub const INCLUSIVE: u32 = 2;
    /// One work-item per cell: the exclusive scan written.
    pub const EXCLUSIVE: u32 = 3;
    /// With [`SCAN_SEGMENTS`](super::SCAN_SEGMENTS), between the totals and
    /// the prefixes, one work-item per (row, chunk): the chunk's segment
    /// totals turned into `Q_s` in place (segment slot `s` holds `Q_s`; slot
    /// 0 is not read) and the chunk's total into its chunk slot.
    pub const SEGMENT_PREFIXES: u32 = 4;
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
    /// A component of the chunks' totals and prefixes: `rows * chunks` chunk
    /// slots (at `row * chunks + chunk`), then with [`SCAN_SEGMENTS`] as
    /// many times [`SCAN_SEGMENTS_PER_CHUNK`] segment slots (segment `s` of
    /// chunk slot `c` at `rows * chunks + c * SCAN_SEGMENTS_PER_CHUNK + s`).
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
    /// [`SCAN_ROW_BLOCKS`] or'd together, [`SCAN_SEGMENTS`] alone, or 0 for
    /// none. The prefix phases ignore it (a work-item per row, per chunk).
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
