//! silt's OpenCL target, defined once: the launch ABI (how the runtime
//! passes a launch to a generated entry point) and the writer of OpenCL text
//! that generated and composed programs share (the program header and
//! layout, [`assemble`]; entry-point declarations, [`Declare`]; the index
//! code of strided entries).
//!
//! The code generator declares every entry point's arguments by
//! [`map_args`], and the runtime sets them by the same function, so the order
//! lives here alone. For the elementwise map form, a kernel
//! `fn k(#[scalar] a: T, x: T, y: &mut T) -> T` has three entry points
//! ([`MapEntry`]): the contiguous one and two strided ones (any views,
//! broadcasts included: one for at most three coalesced dimensions, one for
//! any number), which take the same arguments.
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
//! // the vectors first (each tensor's strides, the shape), then as above
//! // with the dimension count before the element count
//! let strided: Vec<MapArg> = map_args(params, 1, true).collect();
//! assert_eq!(strided.len(), contiguous.len() + 4);
//! assert_eq!(strided[0], MapArg::Strides { param: 1, view: 0 });
//! assert_eq!(strided[2], MapArg::Shape);
//! assert_eq!(strided[3..8], contiguous[..5]);
//! ```

mod decl;
mod grid;
mod map;
mod program;
mod reduce;
mod scan;
mod types;
mod values;

pub use decl::{declare, declare_map, entry_head, Declare, Signature, View};
pub use grid::{grid_args, lane, GridArg, GRID_ERROR_WORDS};
pub use map::{
    args_bytes, group_within, map_args, strided_indices, strided_indices_3d,
    strided_indices_3d_flat, MapArg, MapArgs, MapEntry, STRIDED_MAX_GROUPS_YZ,
};
pub use program::{assemble, header, int64_atomics, Def, Piece, CONTRACT_OFF, FP64_ON};
pub use reduce::{
    reduce_args, tree_args, FoldEntry, ReduceArg, TreeArg, REDUCE_DEPTH, REDUCE_LANES, REDUCE_TILE,
    ROWS_FASTEST, ROW_BLOCK, ROW_BLOCKS, TILE_BLOCK, TILE_BLOCKS, WHOLE_ROWS, WHOLE_TILES,
};
pub use scan::{
    scan_args, scan_phase, ScanArg, SCAN_CHUNK, SCAN_ROWS_FASTEST, SCAN_ROW_BLOCK, SCAN_ROW_BLOCKS,
    SCAN_SEGMENT, SCAN_SEGMENTS, SCAN_SEGMENTS_PER_CHUNK,
};
pub use types::{storage_type, Pass, COUNT_TYPE, DIMS_TYPE, NDIM_TYPE};
pub use values::{load, store, value_type, BodyParam, F16_BITS, F16_LOAD};

#[cfg(test)]
mod tests;
