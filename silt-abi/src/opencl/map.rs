//! The map entry points' arguments.

use super::types::Pass;

/// One argument of a map entry point.
///
/// `param` counts the parameters given to [`map_args`] (those passed as
/// [`Pass::Index`] included), `view` counts the tensor parameters only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapArg {
    /// A scalar parameter's value ([`storage_type`](super::storage_type)).
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
    /// The view's strides in elements, in the launch's coalesced dimensions,
    /// innermost first, 0 past them ([`DIMS_TYPE`](super::DIMS_TYPE); strided
    /// entry only; see [`strided_indices`]).
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
    /// The launch's coalesced shape, innermost first, 1 in lanes 0 to 2 past
    /// it ([`DIMS_TYPE`](super::DIMS_TYPE); strided entry only; see
    /// [`strided_indices`]).
    Shape,
    /// How many dimensions of [`MapArg::Shape`] are used ([`NDIM_TYPE`](super::NDIM_TYPE);
    /// strided entry only).
    Ndim,
    /// The number of elements ([`COUNT_TYPE`](super::COUNT_TYPE)); work-items at or past it return.
    Len,
}

impl MapArg {
    /// The bytes this argument takes on a device with 64-bit pointers, given
    /// the size of each scalar parameter's [`storage_type`](super::storage_type) by
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

/// The work-groups a strided map launch may have in its second and third
/// dimensions, per enqueue: the least any driver is known to take (CUDA's grid,
/// under NVIDIA's OpenCL, stops at 65,535 blocks in y and z). A launch with more
/// is enqueued in parts, each at a global offset.
pub const STRIDED_MAX_GROUPS_YZ: usize = 65_535;

/// The entry points of a map kernel's instantiation (and of a fused chain),
/// in the order the program lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapEntry {
    /// Contiguous views, each at an offset: a one-dimensional launch.
    Contiguous,
    /// Any views over at most three coalesced dimensions: the strided
    /// arguments, index code with no branch ([`strided_indices_3d`]).
    Strided3,
    /// Any views ([`strided_indices`]).
    Strided,
}

impl MapEntry {
    /// Every entry point, in program order.
    pub const ALL: [MapEntry; 3] = [MapEntry::Contiguous, MapEntry::Strided3, MapEntry::Strided];

    /// What the entry's name adds to the contiguous entry's: `""`,
    /// `"_strided3"`, `"_strided"`.
    pub fn suffix(self) -> &'static str {
        match self {
            MapEntry::Contiguous => "",
            MapEntry::Strided3 => "_strided3",
            MapEntry::Strided => "_strided",
        }
    }

    /// Whether it takes the strided arguments (`strided` of [`map_args`]).
    pub fn strided(self) -> bool {
        self != MapEntry::Contiguous
    }

    /// The start of the entry's body: the work-item's element `silt_gid` and
    /// its return past the launch, then for the strided entries each view's
    /// index `silt_i_VIEW` ([`strided_indices_3d`], [`strided_indices`]), for
    /// the contiguous one each view's pointer moved to its first element
    /// (indexing with `offset + gid` instead measured 5-10% slower on PoCL).
    pub fn prologue(self, views: &[String]) -> String {
        use std::fmt::Write;
        match self {
            MapEntry::Contiguous => {
                let mut s = format!(
                    "    ulong silt_gid = get_global_id(0);\n    if (!({}) && silt_gid >= silt_n) return;\n",
                    group_within(0, "silt_n")
                );
                for v in views {
                    let _ = writeln!(s, "    {v} += silt_off_{v};");
                }
                s
            }
            MapEntry::Strided3 => strided_indices_3d(views),
            MapEntry::Strided => strided_indices(views),
        }
    }
}

/// The start of the body of a strided map entry for launches of at most
/// three coalesced dimensions (the `_strided3` entry): like
/// [`strided_indices`], but each view's index is
/// `silt_off_{view} + x * stride0 + y * stride1 + z * stride2` with no branch at
/// all (the runtime takes this entry only when `silt_ndim <= 3`), and `z` past
/// the shape is `z` past lane 2 (a test a work-group's loops can hoist out of
/// their innermost one, where the element's place would be tested in every
/// work-item).
///
/// A branch-free body is what PoCL vectorizes best: the same sum behind a
/// uniform `if (silt_ndim <= 3u)`, with the general decomposition in its
/// `else`, ran a broadcast `add` at half the speed (docs/performance.md,
/// "Strided launches", has the figures).
pub fn strided_indices_3d(views: &[String]) -> String {
    strided_indices_3d_flat(views, &[])
}

/// [`strided_indices_3d`] where each view `views[i]` with `flat[i]` set has a
/// stride of 0 along the launch's innermost dimension (a broadcast along it:
/// one element, or a column): its index leaves out that dimension's term, so
/// that the compiler sees the same element read by neighbouring work-items.
/// PoCL versions a loop for unit strides it cannot see; a view with a stride
/// of 0 there failed that test for every view, and a fused chain with a
/// one-element input ran at half the speed of one with a full input
/// (docs/performance.md, "Fusion"). A view past the end of `flat` is not flat.
pub fn strided_indices_3d_flat(views: &[String], flat: &[bool]) -> String {
    use std::fmt::Write;
    let mut s = strided_prologue(views, "silt_z >= silt_shape.s2", flat);
    for v in views {
        let _ = writeln!(s, "    silt_i_{v} += silt_z * silt_st_{v}.s2;");
    }
    s
}

/// A condition, the same for every work-item of a work-group, that holds
/// where the group's ids along dimension `dim` all lie below `end` (its last
/// id plus one, the launch's global offset included, is at most `end`).
///
/// The early return past a launch's end tests it first: a group that lies
/// inside skips the per-item test. PoCL runs a work-group as a loop over its
/// work-items and vectorizes it; behind a per-item test alone every load and
/// store of the body becomes a masked one, and a contiguous `copy` of 2^24
/// `f32` ran at 0.4x the speed of the same kernel behind this test on an
/// AMD EPYC (AVX2: its masked stores are slow). With the uniform test
/// first, the loop is split on it and the inside groups' copy has no mask
/// (docs/performance.md, "The early return").
pub fn group_within(dim: u8, end: &str) -> String {
    format!(
        "(ulong)get_global_offset({dim}) + ((ulong)get_group_id({dim}) + 1UL) * (ulong)get_local_size({dim}) <= {end}"
    )
}

/// The work-item's coordinates, the early return past the shape (`y` past
/// lane 1, `z` past the rest: `past_z`, a test free of `x`, so that `z` may
/// be padded too; then `x` past lane 0 behind a [`group_within`] test), its
/// element `silt_gid`, and each view's index from `x` and `y`. PoCL's loop
/// over a work-group's items runs `x` innermost: the tests of `y` and `z`
/// are hoisted out of it, and a group within lane 0 leaves it no test at
/// all. Testing whole groups in all three dimensions first was slower (a
/// broadcast `add` of a column, 6.7-10.8 ms against 5.5-6.3 for the
/// per-item tests alone) than this (a row 5.3-5.4 ms against 10.3-11.1, a
/// column the same).
fn strided_prologue(views: &[String], past_z: &str, flat: &[bool]) -> String {
    use std::fmt::Write;
    let mut s = format!(
        "    ulong silt_x = get_global_id(0), silt_y = get_global_id(1), silt_z = get_global_id(2);\n    \
         if (silt_y >= silt_shape.s1 || {past_z}\n        \
         || (!({}) && silt_x >= silt_shape.s0)) return;\n    \
         ulong silt_gid = (silt_z * silt_shape.s1 + silt_y) * silt_shape.s0 + silt_x;\n",
        group_within(0, "silt_shape.s0"),
    );
    for (i, v) in views.iter().enumerate() {
        let x = if flat.get(i).copied().unwrap_or(false) {
            String::new()
        } else {
            format!(" + silt_x * silt_st_{v}.s0")
        };
        let _ = writeln!(
            s,
            "    ulong silt_i_{v} = silt_off_{v}{x} + silt_y * silt_st_{v}.s1;"
        );
    }
    s
}

/// The start of a strided map entry's body: it finds the work-item's element
/// `silt_gid` (row-major in the launch's shape) and, for each name in `views`,
/// `ulong silt_i_{view}`, that element's index in the view's buffer
/// (`silt_off_{view}` plus the element's coordinates times the view's strides
/// `silt_st_{view}`); work-items outside the shape return.
///
/// The launch is three-dimensional. The vectors list dimensions innermost
/// first: lane 0 of `silt_shape` and of each `silt_st_{view}` is the launch's
/// innermost dimension, lane 1 the next; lanes at and past `silt_ndim` hold a
/// size of 1 (lanes 0 to 2) and strides of 0. Work-item `(x, y, z)` takes
/// coordinate `x` in lane 0 and `y` in lane 1, and `z` counts the rest of the
/// dimensions (the grid is padded to whole work-groups in all three: items
/// past the shape return; past the rest of the dimensions is where the
/// element would lie at or past the count `silt_n`, and, with three
/// dimensions or fewer, past lane 2): with three or fewer, `z` is lane 2's
/// coordinate and no index is divided; with more it is split into lanes 2
/// and up (unrolled, each step taken only below `silt_ndim`; the outermost
/// coordinate is what remains, with no division; 32-bit divisions when
/// `silt_n` allows).
///
/// Each view's index is then a sum of the work-item's ids times uniform
/// strides: a broadcast `add` over 4096x4096 ran 3-4 times as fast as the
/// one-dimensional launch that divided every element's index into
/// coordinates. This is the body of the `_strided` entry, which takes any
/// dimension count; launches of three coalesced dimensions or fewer take the
/// `_strided3` entry ([`strided_indices_3d`]), whose body has no branch.
pub fn strided_indices(views: &[String]) -> String {
    use std::fmt::Write;
    // the lanes of a `ulong16`, one per dimension
    const LANES: &[u8; crate::MAX_DIMS] = b"0123456789abcdef";
    // `z` counts lanes 2 and up: within them while the element lies within
    // the count (`y` within lane 1; the count is a multiple of lane 0's
    // size, so any `x` within it lies within the count where `x` = 0 does)
    let past_z = "(silt_z * silt_shape.s1 + silt_y) * silt_shape.s0 >= silt_n";
    let mut s = strided_prologue(views, past_z, &[]);
    s.push_str("    if (silt_ndim <= 3u) {\n");
    for v in views {
        let _ = writeln!(s, "        silt_i_{v} += silt_z * silt_st_{v}.s2;");
    }
    for (int, cond) in [("uint", "silt_n <= 0xFFFFFFFFUL"), ("ulong", "")] {
        if cond.is_empty() {
            s.push_str("    } else {\n");
        } else {
            let _ = writeln!(s, "    }} else if ({cond}) {{");
        }
        let _ = writeln!(s, "        {int} silt_rest = ({int})silt_z;");
        for (k, &lane) in LANES.iter().enumerate().skip(2) {
            let lane = char::from(lane);
            let _ = write!(
                s,
                "        if ({k}u < silt_ndim) {{ {int} silt_c = silt_rest;"
            );
            if k + 1 < crate::MAX_DIMS {
                let _ = write!(
                    s,
                    " if ({}u < silt_ndim) {{ {int} silt_d = ({int})silt_shape.s{lane}; {int} silt_q = silt_rest / silt_d; silt_c = silt_rest - silt_q * silt_d; silt_rest = silt_q; }}",
                    k + 1
                );
            }
            for v in views {
                let _ = write!(s, " silt_i_{v} += (ulong)silt_c * silt_st_{v}.s{lane};");
            }
            s.push_str(" }\n");
        }
    }
    s.push_str("    }\n");
    s
}
