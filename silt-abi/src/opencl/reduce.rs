//! A reduction's entry points' arguments and its order of combination.

use super::map::{MapArg, ParamArgs};
use super::types::Pass;

/// How many lanes fold one tile of a reduction's row, and so how many leaves
/// each tile gives the tree; also how many partial results one tree pass
/// combines. See [`ReduceArg`] for the whole order.
pub const REDUCE_LANES: usize = 64;

/// How many elements each lane folds in one tile (the tile is
/// `REDUCE_LANES * REDUCE_DEPTH` consecutive elements of a row).
pub const REDUCE_DEPTH: usize = 64;

/// The elements of a row one tile covers.
pub const REDUCE_TILE: usize = REDUCE_LANES * REDUCE_DEPTH;

/// A [`ReduceArg::Mapping`] flag: neighbouring work-items take neighbouring
/// rows (rather than neighbouring lanes or tiles of one row).
pub const ROWS_FASTEST: u32 = 1;

/// A [`ReduceArg::Mapping`] flag: a work-item computes all the lanes of a
/// tile (rather than one).
pub const WHOLE_TILES: u32 = 2;

/// A [`ReduceArg::Mapping`] flag: a work-item takes its lane of a tile in
/// each of [`ROW_BLOCK`] consecutive rows (rather than in one), and the
/// first pass writes the lanes' values lane-major: row `r`'s lane `j` of tile
/// `t` at `(t * REDUCE_LANES + j) * rows + r`, so a work-item's rows are
/// neighbours in the accumulator's buffers, which it folds into in place
/// (no array in private memory). Only for the strided entry with one kept
/// dimension, and not with [`WHOLE_TILES`]; what it is for: a sum down the
/// columns of a matrix, each of whose reads is then a run of neighbouring
/// elements. The first tree pass reads that layout ([`TreeArg::PartStride`]).
pub const ROW_BLOCKS: u32 = 4;

/// The rows a work-item takes with [`ROW_BLOCKS`].
pub const ROW_BLOCK: usize = 256;

/// A [`ReduceArg::Mapping`] flag: a work-item takes one lane in each of
/// [`TILE_BLOCK`] consecutive tiles of a row (rather than in one), holding
/// the tiles' lanes side by side. Only for the strided entry, with at least
/// two reduced dimensions, and only where the innermost reduced dimension's
/// size is a power of two that divides [`REDUCE_TILE`] and the next one's is
/// a multiple of the tile's runs of it: every tile of the row is then full
/// and its elements lie alike (element `e` of each tile at the same offset
/// from the tile's first). What it is for: a transpose, whose tiles are
/// neighbours in memory while a tile's own elements lie far apart. Not with
/// [`ROWS_FASTEST`] or [`ROW_BLOCKS`].
pub const TILE_BLOCKS: u32 = 8;

/// The tiles a work-item takes with [`TILE_BLOCKS`].
pub const TILE_BLOCK: usize = 16;

/// A [`ReduceArg::Mapping`] flag, with [`WHOLE_TILES`] and only where every
/// row is one tile (`1 <= len <= REDUCE_TILE`): the work-item that computes a
/// row's lanes also combines them by the tree (the same pairs in the same
/// order as the tree passes) and writes the row's finished result to the
/// outputs ([`ReduceArg::Out`]); no tree pass follows. What it is for: short
/// rows, which otherwise take a buffer of [`REDUCE_LANES`] partial results
/// each and a work-group of the tree pass each.
pub const WHOLE_ROWS: u32 = 16;

/// One argument of a reduction's first pass (`NAME_TYPE_reduce` and
/// `NAME_TYPE_reduce_strided`).
///
/// silt fixes the order in which a reduction combines the elements of a row
/// (the reduced elements of one output element, in row-major order), so that
/// every device gives the same bits: the row is cut into tiles of
/// [`REDUCE_TILE`] elements; in a tile, lane `j` folds elements `j`,
/// `j + REDUCE_LANES`, `j + 2 * REDUCE_LANES`, ... in that order, starting
/// from the first (`acc = map(first)`, then `acc = combine(acc, map(next))`).
/// The lanes that hold elements, `REDUCE_LANES` per tile in order, are the
/// leaves of a pairwise tree (leaf `2k` with `2k + 1`, an odd last leaf carried
/// up, level by level) until one value per row is left. `identity` is only
/// the value of an empty row.
///
/// The first pass computes the lanes and writes each lane's value at `(row *
/// tiles + tile) * REDUCE_LANES + lane` of the accumulator's buffers (or,
/// with [`ROW_BLOCKS`], at `(tile * REDUCE_LANES + lane) * rows + row`); the
/// tree passes ([`tree_args`]) do the rest (or, with [`WHOLE_ROWS`], the
/// first pass itself, writing the outputs). How work-items share the lanes is the
/// [`ReduceArg::Mapping`], which changes the speed and never the result: a
/// work-item per lane (what suits a GPU: neighbouring work-items read
/// neighbouring elements), or with [`WHOLE_TILES`] a work-item per tile,
/// holding its lanes side by side and reading the tile in order (what suits a
/// CPU). Work-item `g` takes part `g % P` of tile `g / P % tiles` of row `g /
/// P / tiles`, `P` being the parts of a tile (`REDUCE_LANES`, or 1 for whole
/// tiles); or, with [`ROWS_FASTEST`], row `g % rows` of part `g / rows % P` of
/// tile `g / rows / P` (neighbouring work-items then read neighbouring elements
/// when the kept dimensions are the innermost in memory). With
/// [`ROW_BLOCKS`], "row" in these reads "block of [`ROW_BLOCK`] rows" (`rows`
/// then counting the blocks, the last maybe partial). With
/// [`TILE_BLOCKS`], work-item `g` takes lane `g % REDUCE_LANES` of the tiles
/// of block `g / REDUCE_LANES % blocks` of row `g / REDUCE_LANES / blocks`,
/// `blocks` being `ceil(tiles / TILE_BLOCK)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReduceArg {
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
    /// Its strides over [`ReduceArg::Shape`] ([`DIMS_TYPE`](super::DIMS_TYPE);
    /// strided entry only).
    Strides {
        /// Which parameter of `map`.
        param: usize,
        /// Which tensor parameter.
        view: usize,
    },
    /// A component of the accumulator: the lanes' values, `rows * tiles *
    /// REDUCE_LANES` of them (a lane without elements writes nothing; with
    /// [`WHOLE_ROWS`] nothing is written, and the buffer may be of one).
    Acc {
        /// Which component of the accumulator.
        component: usize,
    },
    /// An output buffer, one value per row, written only with [`WHOLE_ROWS`].
    Out {
        /// Which output of `finish`.
        output: usize,
    },
    /// The shape the inputs are viewed in: the kept dimensions, then the
    /// reduced ones ([`DIMS_TYPE`](super::DIMS_TYPE); strided entry only).
    Shape,
    /// How many dimensions of the shape are used
    /// ([`NDIM_TYPE`](super::NDIM_TYPE); strided only).
    Ndim,
    /// How many leading dimensions of the shape are kept
    /// ([`NDIM_TYPE`](super::NDIM_TYPE); strided only).
    Kept,
    /// The number of rows (output elements) ([`COUNT_TYPE`](super::COUNT_TYPE)).
    Rows,
    /// The number of elements in a row ([`COUNT_TYPE`](super::COUNT_TYPE)); in
    /// the contiguous entry, element `k` of row `r` of a view is at `offset +
    /// r * len + k`.
    Len,
    /// The number of tiles in a row, `ceil(len / REDUCE_TILE)`
    /// ([`COUNT_TYPE`](super::COUNT_TYPE)).
    Tiles,
    /// How work-items share the lanes: [`ROWS_FASTEST`], [`WHOLE_TILES`],
    /// [`ROW_BLOCKS`], [`TILE_BLOCKS`] and [`WHOLE_ROWS`] or'd together (as each allows), 0
    /// for a work-item per lane, lanes fastest ([`NDIM_TYPE`](super::NDIM_TYPE)).
    Mapping,
}

/// The arguments of a reduction's first pass, in order: each parameter of
/// `map` (a scalar's value; a tensor's buffer, offset and, when `strided`,
/// its strides), each accumulator component's buffer, each output's buffer,
/// then (when `strided`) the shape, the dimension count and the kept count,
/// then rows, len, tiles and the mapping.
pub fn reduce_args<I>(
    params: I,
    accs: usize,
    outputs: usize,
    strided: bool,
) -> impl Iterator<Item = ReduceArg>
where
    I: IntoIterator<Item = Pass>,
{
    let params = ParamArgs::new(params.into_iter(), strided).map(|a| match a {
        MapArg::Scalar { param } => ReduceArg::Scalar { param },
        MapArg::Buffer { param } => ReduceArg::Buffer { param },
        MapArg::Offset { param } => ReduceArg::Offset { param },
        MapArg::Strides { param, view } => ReduceArg::Strides { param, view },
        // per-parameter arguments only
        MapArg::Output { .. } | MapArg::Shape | MapArg::Ndim | MapArg::Len => ReduceArg::Rows,
    });
    let dims: &[ReduceArg] = if strided {
        &[ReduceArg::Shape, ReduceArg::Ndim, ReduceArg::Kept]
    } else {
        &[]
    };
    params
        .chain((0..accs).map(|component| ReduceArg::Acc { component }))
        .chain((0..outputs).map(|output| ReduceArg::Out { output }))
        .chain(dims.iter().copied())
        .chain([
            ReduceArg::Rows,
            ReduceArg::Len,
            ReduceArg::Tiles,
            ReduceArg::Mapping,
        ])
}

/// One argument of a reduction's tree pass (`NAME_TYPE_tree`), which combines
/// the partial results of each row `REDUCE_LANES` at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TreeArg {
    /// A component of the partial results read: `rows * parts` of them.
    Src {
        /// Which component of the accumulator.
        component: usize,
    },
    /// A component of the partial results written: `rows * blocks` (when not
    /// final).
    Dst {
        /// Which component of the accumulator.
        component: usize,
    },
    /// An output buffer, one value per row (when final).
    Out {
        /// Which output of `finish`.
        output: usize,
    },
    /// The number of rows ([`COUNT_TYPE`](super::COUNT_TYPE)).
    Rows,
    /// Partial results per row read, the leaves of this pass
    /// ([`COUNT_TYPE`](super::COUNT_TYPE)); 0 for an empty row, whose result
    /// is `identity()`.
    Parts,
    /// Where row `r`'s partial results start in the buffers read: at
    /// `r * stride` ([`COUNT_TYPE`](super::COUNT_TYPE)).
    Stride,
    /// How far apart a row's partial results lie in the buffers read: its
    /// `p`-th at `r * stride + p * part_stride` ([`COUNT_TYPE`](super::COUNT_TYPE));
    /// 1, or the number of rows where the first pass wrote lane-major
    /// ([`ROW_BLOCKS`]).
    PartStride,
    /// Blocks per row, `ceil(parts / REDUCE_LANES)` ([`COUNT_TYPE`](super::COUNT_TYPE));
    /// work-group `g` takes block `g % blocks` of row `g / blocks`.
    Blocks,
    /// Whether this pass is the last ([`NDIM_TYPE`](super::NDIM_TYPE), 0 or 1).
    Final,
    /// The number of elements each row reduced, for `finish` ([`COUNT_TYPE`](super::COUNT_TYPE)).
    Count,
}

/// The arguments of a tree pass, in order: the accumulator's components read,
/// those written, the outputs, then rows, parts, stride, part stride,
/// blocks, final and count. Work-group `g` (of `REDUCE_LANES` work-items) combines block `g %
/// blocks` of row `g / blocks`, and writes it at `g` (or, when final, the row's
/// output).
pub fn tree_args(accs: usize, outputs: usize) -> impl Iterator<Item = TreeArg> {
    (0..accs)
        .map(|component| TreeArg::Src { component })
        .chain((0..accs).map(|component| TreeArg::Dst { component }))
        .chain((0..outputs).map(|output| TreeArg::Out { output }))
        .chain([
            TreeArg::Rows,
            TreeArg::Parts,
            TreeArg::Stride,
            TreeArg::PartStride,
            TreeArg::Blocks,
            TreeArg::Final,
            TreeArg::Count,
        ])
}

/// The entry points of a reduction and of a scan, named by what each adds to
/// the instantiation's entry name (`NAME_TYPE`), as [`MapEntry::suffix`](super::MapEntry::suffix)
/// names a map's: the code generator's entry templates and the description
/// that names them to the runtime form the names here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FoldEntry {
    /// A reduction's first pass over contiguous views (`_reduce`).
    Reduce,
    /// A reduction's first pass over any views (`_reduce_strided`).
    ReduceStrided,
    /// A reduction's tree passes (`_tree`).
    Tree,
    /// A scan's phases (`_scan`).
    Scan,
    /// A scan's totals and scan in blocks of rows (`_scan_blocks`).
    ScanBlocks,
}

impl FoldEntry {
    /// What the entry point's name adds to the entry name.
    pub fn suffix(self) -> &'static str {
        match self {
            FoldEntry::Reduce => "_reduce",
            FoldEntry::ReduceStrided => "_reduce_strided",
            FoldEntry::Tree => "_tree",
            FoldEntry::Scan => "_scan",
            FoldEntry::ScanBlocks => "_scan_blocks",
        }
    }
}
