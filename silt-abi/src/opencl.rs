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

use crate::DType;

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
        DType::Bool | DType::U8 => "uchar",
        DType::I8 => "char",
        DType::U16 | DType::F16 => "ushort",
        DType::I16 => "short",
        DType::U32 => "uint",
        DType::I32 => "int",
        DType::U64 => "ulong",
        DType::I64 => "long",
        DType::F32 => "float",
        DType::F64 => "double",
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
    fn the_iterator_ends_and_stays_ended() {
        let mut it = map_args([], 0, false);
        assert_eq!(it.next(), Some(MapArg::Len));
        assert_eq!(it.next(), None);
        assert_eq!(it.next(), None);
    }
}
