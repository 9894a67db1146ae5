//! The grid entry point's arguments: each parameter of a grid kernel in
//! order (a view's buffer, offset, strides and shape; a scalar's value),
//! then, unless the kernel is unchecked, the buffer its out-of-range
//! accesses are recorded in.
//!
//! A view of `N` dimensions indexes element `[i0, .., iN-1]` at
//! `offset + i0 * strides.s0 + .. + iN-1 * strides.sN-1` of its buffer: the
//! vectors list dimensions outermost first (lane `d` is dimension `d`, as
//! [`lane`] names it), unused lanes 0. An index is in range when every
//! `id < shape.sd`.

use super::types::Pass;

/// One argument of a grid entry point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GridArg {
    /// A scalar parameter's value ([`storage_type`](super::storage_type)).
    Scalar {
        /// Which parameter.
        param: usize,
    },
    /// A view's buffer (`__global T*`, `const` for a `View`).
    Buffer {
        /// Which parameter.
        param: usize,
    },
    /// Where the view starts in its buffer, in elements ([`COUNT_TYPE`](super::COUNT_TYPE)).
    Offset {
        /// Which parameter.
        param: usize,
    },
    /// The view's strides in elements, outermost dimension first
    /// ([`DIMS_TYPE`](super::DIMS_TYPE)).
    Strides {
        /// Which parameter.
        param: usize,
    },
    /// The view's shape, outermost dimension first ([`DIMS_TYPE`](super::DIMS_TYPE)).
    Shape {
        /// Which parameter.
        param: usize,
    },
    /// The record of the first out-of-range access (`__global uint*`,
    /// [`GRID_ERROR_WORDS`] of them, zeroed before the launch): word 0 is 1
    /// once an access was out of range, word 1 the view's parameter number,
    /// words 2 and 3 the dimensions of the index and of the view, then the
    /// index's components as pairs of words (low, high).
    Errors,
}

/// The words of [`GridArg::Errors`]: a flag, the parameter, the index's
/// length, the view's dimensions, and up to 16 components of two words.
pub const GRID_ERROR_WORDS: usize = 4 + 2 * crate::MAX_DIMS;

/// The arguments of a grid entry point, in order: per parameter a scalar's
/// value, or a view's buffer, offset, strides and shape (a parameter passed
/// as [`Pass::Index`] takes none); then, when `checked`, the error record.
pub fn grid_args(params: impl IntoIterator<Item = Pass>, checked: bool) -> Vec<GridArg> {
    let mut out = Vec::new();
    for (param, p) in params.into_iter().enumerate() {
        match p {
            Pass::Scalar => out.push(GridArg::Scalar { param }),
            Pass::Tensor => out.extend([
                GridArg::Buffer { param },
                GridArg::Offset { param },
                GridArg::Strides { param },
                GridArg::Shape { param },
            ]),
            Pass::Index => {}
        }
    }
    if checked {
        out.push(GridArg::Errors);
    }
    out
}

/// The component of a [`DIMS_TYPE`](super::DIMS_TYPE) vector that holds
/// dimension `d` (`s0` to `s9`, then `sa` to `sf`).
///
/// ```
/// assert_eq!(silt_abi::opencl::lane(0), "s0");
/// assert_eq!(silt_abi::opencl::lane(11), "sb");
/// ```
pub fn lane(d: usize) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    format!("s{}", char::from(DIGITS[d % 16]))
}
