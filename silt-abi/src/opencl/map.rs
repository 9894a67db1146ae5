//! The map entry points' arguments.

use super::types::Pass;

/// One argument of a map entry point.
///
/// `param` counts the parameters given to [`map_args`] (those passed as
/// [`Pass::Index`] included), `view` counts the tensor parameters only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapArg {
    /// A scalar parameter's value ([`arg_type`](super::arg_type)).
    Scalar {
        /// Which parameter.
        param: usize,
    },
    /// A tensor parameter's buffer (`__global T*`).
    Buffer {
        /// Which parameter.
        param: usize,
    },
    /// Where the view starts in its buffer, in elements ([`COUNT_TYPE`](super::COUNT_TYPE)).
    Offset {
        /// Which parameter.
        param: usize,
    },
    /// The view's strides in elements, in the launch's coalesced dimensions
    /// ([`DIMS_TYPE`](super::DIMS_TYPE); strided entry only).
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
    /// The launch's coalesced shape ([`DIMS_TYPE`](super::DIMS_TYPE); strided entry only).
    Shape,
    /// How many dimensions of [`MapArg::Shape`] are used ([`NDIM_TYPE`](super::NDIM_TYPE);
    /// strided entry only).
    Ndim,
    /// The number of elements ([`COUNT_TYPE`](super::COUNT_TYPE)); work-items at or past it return.
    Len,
}

impl MapArg {
    /// The bytes this argument takes on a device with 64-bit pointers, given
    /// the size of each scalar parameter's [`arg_type`](super::arg_type) by
    /// parameter number.
    pub fn bytes(self, scalar: impl Fn(usize) -> usize) -> usize {
        match self {
            MapArg::Scalar { param } => scalar(param),
            MapArg::Buffer { .. } | MapArg::Output { .. } | MapArg::Offset { .. } | MapArg::Len => {
                8
            }
            MapArg::Strides { .. } | MapArg::Shape => 8 * crate::MAX_DIMS,
            MapArg::Ndim => 4,
        }
    }
}

/// The bytes of a kernel's arguments of these sizes, in order, as OpenCL C
/// lays them out: each at a multiple of its size (the alignment of OpenCL C's
/// scalars, pointers and 2-, 4-, 8- and 16-lane vectors). What a driver
/// compares with `CL_DEVICE_MAX_PARAMETER_SIZE`.
///
/// ```
/// # use silt_abi::opencl::args_bytes;
/// // a `uint`, then a `ulong16` at byte 128
/// assert_eq!(args_bytes([4, 128]), 256);
/// assert_eq!(args_bytes([128, 4]), 132);
/// ```
pub fn args_bytes(sizes: impl IntoIterator<Item = usize>) -> usize {
    sizes
        .into_iter()
        .fold(0, |at, size| at.next_multiple_of(size.max(1)) + size)
}

/// The arguments of a map entry point, in order. Contiguous: each parameter's
/// (a scalar's value; a tensor's buffer and offset), then each output's
/// buffer, then the element count. Strided: first the vectors (each tensor
/// parameter's strides, then the shape), then the same as the contiguous
/// entry with the dimension count before the element count. The vectors come
/// first because OpenCL C aligns a `ulong16` to its 128 bytes: between a
/// tensor's offset and its strides the driver would pad 112 bytes, and
/// drivers cap the total (`CL_DEVICE_MAX_PARAMETER_SIZE`, 4,352 bytes on
/// NVIDIA, whose compiler rejects more). Allocation-free, for the launch path.
pub fn map_args<I>(params: I, outputs: usize, strided: bool) -> MapArgs<I::IntoIter>
where
    I: IntoIterator<Item = Pass>,
    I::IntoIter: Clone,
{
    let params = params.into_iter();
    MapArgs {
        vectors: strided.then(|| (params.clone(), 0, 0)),
        params: ParamArgs::new(params, false),
        output: 0,
        outputs,
        strided,
        tail: 0,
    }
}

/// The iterator of [`map_args`].
#[derive(Debug, Clone)]
pub struct MapArgs<I> {
    /// Strided entry: the parameters still to give strides for, the next
    /// parameter's number and the next view's; `None` once the shape is given.
    vectors: Option<(I, usize, usize)>,
    params: ParamArgs<I>,
    output: usize,
    outputs: usize,
    strided: bool,
    tail: u8,
}

impl<I: Iterator<Item = Pass>> Iterator for MapArgs<I> {
    type Item = MapArg;

    fn next(&mut self) -> Option<MapArg> {
        if let Some((rest, param, view)) = &mut self.vectors {
            for pass in rest.by_ref() {
                *param += 1;
                if pass == Pass::Tensor {
                    *view += 1;
                    return Some(MapArg::Strides {
                        param: *param - 1,
                        view: *view - 1,
                    });
                }
            }
            self.vectors = None;
            return Some(MapArg::Shape);
        }
        if let Some(a) = self.params.next() {
            return Some(a);
        }
        if self.output < self.outputs {
            self.output += 1;
            return Some(MapArg::Output {
                output: self.output - 1,
            });
        }
        let tail: &[MapArg] = if self.strided {
            &[MapArg::Ndim, MapArg::Len]
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

/// Each parameter's arguments, in order: a scalar's value; a tensor's buffer,
/// offset and, when `strided`, strides; none for an `#[index]`. The start of
/// the reduction and scan entry points' arguments.
#[derive(Debug, Clone)]
pub(super) struct ParamArgs<I> {
    params: I,
    param: usize,
    view: usize,
    pending: [Option<MapArg>; 3],
    next_pending: usize,
    strided: bool,
}

impl<I> ParamArgs<I> {
    pub(super) fn new(params: I, strided: bool) -> Self {
        ParamArgs {
            params,
            param: 0,
            view: 0,
            pending: [None; 3],
            next_pending: 3,
            strided,
        }
    }
}

impl<I: Iterator<Item = Pass>> Iterator for ParamArgs<I> {
    type Item = MapArg;

    fn next(&mut self) -> Option<MapArg> {
        loop {
            while self.next_pending < self.pending.len() {
                let a = self.pending[self.next_pending].take();
                self.next_pending += 1;
                if a.is_some() {
                    return a;
                }
            }
            let pass = self.params.next()?;
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
        }
    }
}

/// The statements of a strided map entry that find each view's element for
/// work-item `silt_gid`: `ulong silt_i_{view} = silt_off_{view}` plus the
/// element's coordinates in the `silt_ndim` dimensions of `silt_shape` times
/// the view's strides (`silt_st_{view}`), for each name in `views`.
///
/// The dimensions are unrolled (`MAX_DIMS` steps, each taken only below
/// `silt_ndim`) and read as the `ulong16`'s lanes, so no private array is made;
/// the outermost coordinate is what remains, with no division; and the
/// divisions are 32-bit when `silt_n` allows. On PoCL this ran a broadcast
/// `add` over 2048x2048 three times as fast as a loop over private copies of
/// the shape and strides.
pub fn strided_indices(views: &[String]) -> String {
    use std::fmt::Write;
    // the lanes of a `ulong16`, one per dimension
    const LANES: &[u8; crate::MAX_DIMS] = b"0123456789abcdef";
    let mut s = String::new();
    for v in views {
        let _ = writeln!(s, "    ulong silt_i_{v} = silt_off_{v};");
    }
    for (int, cond) in [("uint", "silt_n <= 0xFFFFFFFFUL"), ("ulong", "")] {
        if cond.is_empty() {
            s.push_str("    } else {\n");
        } else {
            let _ = writeln!(s, "    if ({cond}) {{");
        }
        let _ = writeln!(s, "        {int} silt_rest = ({int})silt_gid;");
        for k in (1..crate::MAX_DIMS).rev() {
            let lane = char::from(LANES[k]);
            let _ = write!(
                s,
                "        if ({k}u < silt_ndim) {{ {int} silt_d = ({int})silt_shape.s{lane}; {int} silt_q = silt_rest / silt_d; ulong silt_c = silt_rest - silt_q * silt_d; silt_rest = silt_q;"
            );
            for v in views {
                let _ = write!(s, " silt_i_{v} += silt_c * silt_st_{v}.s{lane};");
            }
            s.push_str(" }\n");
        }
        for v in views {
            let _ = writeln!(
                s,
                "        silt_i_{v} += (ulong)silt_rest * silt_st_{v}.s0;"
            );
        }
    }
    s.push_str("    }\n");
    s
}
