//! The OpenCL launch ABI: how the runtime passes a launch to a generated entry
//! point.
//!
//! The code generator declares every entry point's arguments by
//! [`map_args`], and the runtime sets them by the same function, so the order
//! lives here alone. For the elementwise map form, a kernel
//! `fn k(#[scalar] a: T, x: T, y: &mut T) -> T` has two entry points: the
//! contiguous one and the strided one (any views, broadcasts included).
//!
//! ```
//! use silt_abi::opencl::{map_args, MapArg, Pass};
//!
//! let params = [Pass::Scalar, Pass::Tensor, Pass::Tensor];
//! let contiguous: Vec<MapArg> = map_args(params, 1, false).collect();
//! assert_eq!(
//!     contiguous,
//!     [
//!         MapArg::Scalar { param: 0 },
//!         MapArg::Buffer { param: 1 },
//!         MapArg::Offset { param: 1 },
//!         MapArg::Buffer { param: 2 },
//!         MapArg::Offset { param: 2 },
//!         MapArg::Output { output: 0 },
//!         MapArg::Len,
//!     ]
//! );
//! let strided: Vec<MapArg> = map_args(params, 1, true).collect();
//! assert_eq!(strided.len(), contiguous.len() + 4); // two strides, shape, ndim
//! assert_eq!(strided[3], MapArg::Strides { param: 1, view: 0 });
//! ```

use crate::dtype::DType;

/// The OpenCL C type that carries one element in a buffer or as a scalar
/// argument of an entry point: `uchar` for `bool`, and `ushort` for `f16`,
/// whose bits travel unchanged (OpenCL C allows `half` values only with
/// `cl_khr_fp16`).
///
/// ```
/// # use silt_abi::{opencl::arg_type, DType};
/// assert_eq!(arg_type(DType::F16), "ushort");
/// assert_eq!(arg_type(DType::Bool), "uchar");
/// assert_eq!(arg_type(DType::F64), "double");
/// ```
pub const fn arg_type(d: DType) -> &'static str {
    match d {
        DType::F16 => "ushort",
        other => other.cl_name(),
    }
}

/// The OpenCL C type of a shape or strides argument: [`MAX_DIMS`](crate::MAX_DIMS)
/// `ulong`s, in elements, outermost dimension first; unused trailing entries are 0.
pub const DIMS_TYPE: &str = "ulong16";

const _: () = assert!(crate::MAX_DIMS == 16, "DIMS_TYPE holds MAX_DIMS ulongs");

/// The OpenCL C type of the dimension count argument ([`MapArg::Ndim`]).
pub const NDIM_TYPE: &str = "uint";

/// The OpenCL C type of offsets ([`MapArg::Offset`]) and of the element count
/// ([`MapArg::Len`]).
pub const COUNT_TYPE: &str = "ulong";

/// How a kernel parameter reaches an entry point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pass {
    /// A tensor view (an input or an in/out parameter): its buffer, its offset,
    /// and in the strided entry its strides.
    Tensor,
    /// One value for all elements, as [`arg_type`] of its dtype.
    Scalar,
    /// Nothing: the entry point computes it (`#[index]`).
    Index,
}

/// One argument of a map entry point.
///
/// `param` counts the parameters given to [`map_args`] (those passed as
/// [`Pass::Index`] included), `view` counts the tensor parameters only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapArg {
    /// A scalar parameter's value ([`arg_type`]).
    Scalar {
        /// Which parameter.
        param: usize,
    },
    /// A tensor parameter's buffer (`__global T*`).
    Buffer {
        /// Which parameter.
        param: usize,
    },
    /// Where the view starts in its buffer, in elements ([`COUNT_TYPE`]).
    Offset {
        /// Which parameter.
        param: usize,
    },
    /// The view's strides in elements, in the launch's coalesced dimensions
    /// ([`DIMS_TYPE`]; strided entry only).
    Strides {
        /// Which parameter.
        param: usize,
        /// Which tensor parameter (the `view`-th).
        view: usize,
    },
    /// The buffer of a returned tensor (contiguous, of the launch's shape).
    Output {
        /// Which return value.
        output: usize,
    },
    /// The launch's coalesced shape ([`DIMS_TYPE`]; strided entry only).
    Shape,
    /// How many dimensions of [`MapArg::Shape`] are used ([`NDIM_TYPE`];
    /// strided entry only).
    Ndim,
    /// The number of elements ([`COUNT_TYPE`]); work-items at or past it return.
    Len,
}

/// The arguments of a map entry point, in order: each parameter's (a scalar's
/// value; a tensor's buffer, offset and, when `strided`, strides), then each
/// output's buffer, then (when `strided`) the shape and the dimension count,
/// then the element count. Allocation-free, for the launch path.
pub fn map_args<I>(params: I, outputs: usize, strided: bool) -> MapArgs<I::IntoIter>
where
    I: IntoIterator<Item = Pass>,
{
    MapArgs {
        params: params.into_iter(),
        param: 0,
        view: 0,
        pending: [None; 3],
        next_pending: 3,
        output: 0,
        outputs,
        strided,
        tail: 0,
    }
}

/// The iterator of [`map_args`].
#[derive(Debug, Clone)]
pub struct MapArgs<I> {
    params: I,
    param: usize,
    view: usize,
    pending: [Option<MapArg>; 3],
    next_pending: usize,
    output: usize,
    outputs: usize,
    strided: bool,
    tail: u8,
}

impl<I: Iterator<Item = Pass>> Iterator for MapArgs<I> {
    type Item = MapArg;

    fn next(&mut self) -> Option<MapArg> {
        while self.next_pending < self.pending.len() {
            let a = self.pending[self.next_pending].take();
            self.next_pending += 1;
            if a.is_some() {
                return a;
            }
        }
        if let Some(pass) = self.params.next() {
            let param = self.param;
            self.param += 1;
            self.pending = match pass {
                Pass::Scalar => [Some(MapArg::Scalar { param }), None, None],
                Pass::Index => [None, None, None],
                Pass::Tensor => {
                    let view = self.view;
                    self.view += 1;
                    [
                        Some(MapArg::Buffer { param }),
                        Some(MapArg::Offset { param }),
                        self.strided.then_some(MapArg::Strides { param, view }),
                    ]
                }
            };
            self.next_pending = 0;
            return self.next();
        }
        if self.output < self.outputs {
            self.output += 1;
            return Some(MapArg::Output {
                output: self.output - 1,
            });
        }
        let tail: &[MapArg] = if self.strided {
            &[MapArg::Shape, MapArg::Ndim, MapArg::Len]
        } else {
            &[MapArg::Len]
        };
        let a = tail.get(usize::from(self.tail)).copied();
        if a.is_some() {
            self.tail += 1;
        }
        a
    }
}

/// How many lanes (work-items) fold one tile of a reduction's row, and so the
/// leaves of each tile's tree; also how many partial results one tree pass
/// combines. See [`reduce_args`] for the whole order.
pub const REDUCE_LANES: usize = 64;

/// How many elements each lane folds in one tile (the tile is
/// `REDUCE_LANES * REDUCE_DEPTH` consecutive elements of a row).
pub const REDUCE_DEPTH: usize = 64;

/// The elements of a row one tile covers.
pub const REDUCE_TILE: usize = REDUCE_LANES * REDUCE_DEPTH;

/// One argument of a reduction's first pass (`NAME_TYPE_reduce` and
/// `NAME_TYPE_reduce_strided`).
///
/// silt fixes the order in which a reduction combines the elements of a row
/// (the reduced elements of one output element, in row-major order), so that
/// every device gives the same bits: the row is cut into tiles of
/// [`REDUCE_TILE`] elements; in a tile, lane `j` folds elements `j`,
/// `j + REDUCE_LANES`, `j + 2 * REDUCE_LANES`, ... in that order, starting
/// from the first (`acc = map(first)`, then `acc = combine(acc, map(next))`);
/// the lanes that hold elements are the leaves of a pairwise tree (leaf `2k`
/// with `2k + 1`, an odd last leaf carried up, level by level), and so are the
/// tiles' results, `REDUCE_LANES` at a time, in later passes ([`tree_args`]),
/// until one value per row is left. `identity` is only the value of an empty
/// row. The first pass is final (applies `finish` and writes the outputs) when
/// a row has one tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReduceArg {
    /// A scalar parameter of `map` ([`arg_type`]).
    Scalar {
        /// Which parameter of `map`.
        param: usize,
    },
    /// A tensor parameter's buffer.
    Buffer {
        /// Which parameter of `map`.
        param: usize,
    },
    /// Where its view starts, in elements ([`COUNT_TYPE`]).
    Offset {
        /// Which parameter of `map`.
        param: usize,
    },
    /// Its strides over [`ReduceArg::Shape`] ([`DIMS_TYPE`]; strided entry only).
    Strides {
        /// Which parameter of `map`.
        param: usize,
        /// Which tensor parameter.
        view: usize,
    },
    /// A component of the accumulator: the buffer of the tiles' results,
    /// `rows * tiles` of them (written when the pass is not final).
    Acc {
        /// Which component of the accumulator.
        component: usize,
    },
    /// An output buffer, one value per row (written when the pass is final).
    Out {
        /// Which output of `finish`.
        output: usize,
    },
    /// The shape the inputs are viewed in: the kept dimensions, then the
    /// reduced ones ([`DIMS_TYPE`]; strided entry only).
    Shape,
    /// How many dimensions of the shape are used ([`NDIM_TYPE`]; strided only).
    Ndim,
    /// How many leading dimensions of the shape are kept ([`NDIM_TYPE`];
    /// strided only).
    Kept,
    /// The number of rows (output elements) ([`COUNT_TYPE`]).
    Rows,
    /// The number of elements in a row ([`COUNT_TYPE`]); in the contiguous
    /// entry, element `k` of row `r` of a view is at `offset + r * len + k`.
    Len,
    /// The number of tiles in a row, `max(1, ceil(len / REDUCE_TILE))`
    /// ([`COUNT_TYPE`]); work-group `g` takes tile `g % tiles` of row
    /// `g / tiles`.
    Tiles,
    /// Whether this pass is the last ([`NDIM_TYPE`], 0 or 1).
    Final,
}

/// The arguments of a reduction's first pass, in order: each parameter of
/// `map` as in [`map_args`], each accumulator component's buffer, each
/// output's buffer, then (when `strided`) the shape, the dimension count and
/// the kept count, then rows, len, tiles and final.
pub fn reduce_args<I>(
    params: I,
    accs: usize,
    outputs: usize,
    strided: bool,
) -> impl Iterator<Item = ReduceArg>
where
    I: IntoIterator<Item = Pass>,
{
    let params = map_args(params, 0, strided)
        .take_while(|a| !matches!(a, MapArg::Shape | MapArg::Len))
        .map(|a| match a {
            MapArg::Scalar { param } => ReduceArg::Scalar { param },
            MapArg::Buffer { param } => ReduceArg::Buffer { param },
            MapArg::Offset { param } => ReduceArg::Offset { param },
            MapArg::Strides { param, view } => ReduceArg::Strides { param, view },
            // `take_while` stops before the shape, and there are no outputs
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
            ReduceArg::Final,
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
    /// The number of rows ([`COUNT_TYPE`]).
    Rows,
    /// Partial results per row read ([`COUNT_TYPE`]).
    Parts,
    /// Blocks per row, `ceil(parts / REDUCE_LANES)` ([`COUNT_TYPE`]);
    /// work-group `g` takes block `g % blocks` of row `g / blocks`.
    Blocks,
    /// Whether this pass is the last ([`NDIM_TYPE`], 0 or 1).
    Final,
    /// The number of elements each row reduced, for `finish` ([`COUNT_TYPE`]).
    Count,
}

/// The arguments of a tree pass, in order: the accumulator's components read,
/// those written, the outputs, then rows, parts, blocks, final and count.
pub fn tree_args(accs: usize, outputs: usize) -> impl Iterator<Item = TreeArg> {
    (0..accs)
        .map(|component| TreeArg::Src { component })
        .chain((0..accs).map(|component| TreeArg::Dst { component }))
        .chain((0..outputs).map(|output| TreeArg::Out { output }))
        .chain([
            TreeArg::Rows,
            TreeArg::Parts,
            TreeArg::Blocks,
            TreeArg::Final,
            TreeArg::Count,
        ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_parameters_take_no_argument_but_keep_their_number() {
        let args: Vec<MapArg> =
            map_args([Pass::Index, Pass::Tensor, Pass::Scalar], 2, true).collect();
        assert_eq!(
            args,
            [
                MapArg::Buffer { param: 1 },
                MapArg::Offset { param: 1 },
                MapArg::Strides { param: 1, view: 0 },
                MapArg::Scalar { param: 2 },
                MapArg::Output { output: 0 },
                MapArg::Output { output: 1 },
                MapArg::Shape,
                MapArg::Ndim,
                MapArg::Len,
            ]
        );
    }

    #[test]
    fn reduction_arguments_follow_map_parameters() {
        let args: Vec<ReduceArg> =
            reduce_args([Pass::Tensor, Pass::Scalar, Pass::Index], 2, 1, true).collect();
        assert_eq!(
            args,
            [
                ReduceArg::Buffer { param: 0 },
                ReduceArg::Offset { param: 0 },
                ReduceArg::Strides { param: 0, view: 0 },
                ReduceArg::Scalar { param: 1 },
                ReduceArg::Acc { component: 0 },
                ReduceArg::Acc { component: 1 },
                ReduceArg::Out { output: 0 },
                ReduceArg::Shape,
                ReduceArg::Ndim,
                ReduceArg::Kept,
                ReduceArg::Rows,
                ReduceArg::Len,
                ReduceArg::Tiles,
                ReduceArg::Final,
            ]
        );
        let contiguous = reduce_args([Pass::Tensor], 1, 1, false).count();
        assert_eq!(contiguous, 2 + 1 + 1 + 4);
        assert_eq!(tree_args(2, 1).count(), 2 + 2 + 1 + 5);
    }

    #[test]
    fn the_iterator_ends_and_stays_ended() {
        let mut it = map_args([], 0, false);
        assert_eq!(it.next(), Some(MapArg::Len));
        assert_eq!(it.next(), None);
        assert_eq!(it.next(), None);
    }
}
