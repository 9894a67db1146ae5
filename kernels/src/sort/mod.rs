//! `sort`: the elements of a tensor sorted along one dimension, and the
//! indices they came from, as PyTorch's `torch.sort`.
//!
//! `launch(x, dim, descending)` gives `(values, indices)`, both of `x`'s
//! shape, `indices` in `i64`: `values` along `dim` is each row of `x` in
//! order, `indices` where each value was in its row.
//!
//! - The order: ascending (or descending), NaN counting as larger than every
//!   number (last ascending, first descending), as PyTorch's; `-0.0` and
//!   `0.0` are equal.
//! - Stable: equal elements (NaNs among themselves, `-0.0` and `0.0`) keep
//!   their order, in both directions. PyTorch's `stable=True`; its default
//!   `stable=False` allows any order of equal elements, and silt always
//!   gives this one, so the result is one permutation, the same on every
//!   device and the host.
//! - Any dimension of any view; a 0-d tensor is one row of one element.
//!
//! Types: every element type (`bool` with `false` before `true`). Devices run
//! grid kernels (the order: `docs/semantics.md`, "Ordering"). GPUs (every
//! OpenCL device but a CPU) cut each row into blocks sorted in work-group
//! memory, then merge them, one launch per doubling. CPU devices sort rows
//! of up to 256 elements a work-item a row (an insertion sort of keys in
//! private arrays), and longer rows (below 2^32 elements) by a
//! least-significant-digit radix sort: one stable pass per byte of the
//! element, the passes carrying the elements and their indices, each row
//! cut into chunks of one work-item each (`docs/performance.md`,
//! "Ordering", has the times). The host sorts each row with Rust's sort
//! (rows in parallel), and a long row of elements of up to 32 bits by a
//! bucket sort on several threads. All give the same result.
//!
//! ```
//! use silt::prelude::*;
//! use silt_kernels as k;
//!
//! let dev = Device::default()?;
//! let x = TensorT::from_slice(&dev, &[3.0f32, f32::NAN, -1.0, 3.0, 0.5, 2.0], [2, 3])?;
//! let (values, indices) = k::sort::launch(&x, -1, false)?;
//! assert_eq!(values.to_vec()?[..2], [-1.0, 3.0]);
//! assert!(values.to_vec()?[2].is_nan()); // NaN last
//! assert_eq!(indices.to_vec()?, [2, 0, 1, 1, 2, 0]);
//! // down the columns, descending: NaN first, the tie of 3.0 kept in order
//! let (values, indices) = k::sort::launch(&x, 0, true)?;
//! assert_eq!(indices.to_vec()?, [0, 0, 1, 1, 1, 0]);
//! assert_eq!(values.to_vec()?[5], -1.0);
//! # Ok::<(), silt::Error>(())
//! ```

mod device;
mod host;
mod radix;

use silt::{f16, DType, DeviceKind, Element, Error, Grid, Result, Tensor, TensorT};

use crate::views::fold_range as fold;

/// The operation's name.
pub const NAME: &str = "sort";

/// The element types it takes: every one.
pub const TYPES: &[DType] = &DType::ALL;

/// An element type `sort`, `argsort` and `topk` take.
pub trait Sort: Element + host::HostSort {
    #[doc(hidden)]
    fn __block(
        grid: Grid,
        x: &TensorT<Self>,
        keys: &mut TensorT<Self>,
        idx: &mut TensorT<i64>,
        seg: u64,
        desc: u32,
    ) -> Result<()>;
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    fn __merge(
        grid: Grid,
        keys: &TensorT<Self>,
        idx: &TensorT<i64>,
        to_keys: &mut TensorT<Self>,
        to_idx: &mut TensorT<i64>,
        width: u64,
        desc: u32,
    ) -> Result<()>;
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    fn __keep(
        grid: Grid,
        keys: &TensorT<Self>,
        idx: &TensorT<i64>,
        to_keys: &mut TensorT<Self>,
        to_idx: &mut TensorT<i64>,
        width: u64,
        k: u64,
    ) -> Result<()>;
    /// Sorts the rows of `x` (`[outer, inner, n]`, `n` below 2^32) into
    /// `values` and `indices` as a CPU device does (`radix::sort_cpu`).
    #[doc(hidden)]
    fn __cpu_sort(
        x: &TensorT<Self>,
        values: TensorT<Self>,
        indices: TensorT<i64>,
        desc: bool,
    ) -> Result<()>;
}

macro_rules! sort_impl {
    ($($t:ty),*) => {$(
        impl Sort for $t {
            fn __block(
                grid: Grid,
                x: &TensorT<Self>,
                keys: &mut TensorT<Self>,
                idx: &mut TensorT<i64>,
                seg: u64,
                desc: u32,
            ) -> Result<()> {
                // SAFETY: the kernel reads `x` and writes `keys` and `idx`
                // only at a row below the rows and a place below `n` (and
                // `x[0, 0, 0]`, of a tensor that is not empty), and indexes
                // its arrays of 256 with slots `h * 128 + l` and pairs
                // `i < i + j < 256` (`l < 128`, `j` a power of two at most
                // 128 and `i`'s bit `j` clear); the tests run it on Oclgrind
                unsafe { device::sort_block::launch(grid, x, keys, idx, seg, desc) }
            }
            fn __merge(
                grid: Grid,
                keys: &TensorT<Self>,
                idx: &TensorT<i64>,
                to_keys: &mut TensorT<Self>,
                to_idx: &mut TensorT<i64>,
                width: u64,
                desc: u32,
            ) -> Result<()> {
                // SAFETY: every place the kernel reads or writes is in its
                // row below `n`: the binary search reads `a` at `base + m`
                // (`m < la`) and `b` at `mid + d - m - 1` (`d - lb <= m <
                // d`), the merge reads `a`'s head while `i < la` and `b`'s
                // while `j < lb`, and writes places `q < end <= n`; the tests
                // run it on Oclgrind
                unsafe { device::sort_merge::launch(grid, keys, idx, to_keys, to_idx, width, desc) }
            }
            fn __keep(
                grid: Grid,
                keys: &TensorT<Self>,
                idx: &TensorT<i64>,
                to_keys: &mut TensorT<Self>,
                to_idx: &mut TensorT<i64>,
                width: u64,
                k: u64,
            ) -> Result<()> {
                // SAFETY: the kernel writes places `q < n` of the results'
                // rows and reads place `q / k * width + q % k` of the same
                // row, which `kept_len` keeps below the input's length (`k <=
                // width`; the last run keeps at most its own length); the
                // tests run it on Oclgrind
                unsafe { device::sort_keep::launch(grid, keys, idx, to_keys, to_idx, width, k) }
            }
            fn __cpu_sort(
                x: &TensorT<Self>,
                values: TensorT<Self>,
                indices: TensorT<i64>,
                desc: bool,
            ) -> Result<()> {
                radix::sort_cpu::<Self>(x, values, indices, desc)
            }
        }
    )*};
}

sort_impl!(bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64);

/// The elements of `x` sorted along `dim` (negative counts from the end),
/// ascending or `descending`, and their indices along `dim` (see the
/// [module](self)), on `x`'s device.
///
/// # Errors
/// `Error::AxisOutOfRange` for a `dim` outside `-ndim..ndim` (`-1..1` for a
/// 0-d tensor), and what the launches report.
pub fn launch<T: Sort>(
    x: &TensorT<T>,
    dim: isize,
    descending: bool,
) -> Result<(TensorT<T>, TensorT<i64>)> {
    sorted(x, dim, descending)
}

/// [`launch`] on an untyped tensor.
///
/// # Errors
/// As [`launch`].
pub fn dispatch(x: &Tensor, dim: isize, descending: bool) -> Result<(Tensor, Tensor)> {
    fn go<T: Sort>(x: &Tensor, dim: isize, descending: bool) -> Result<(Tensor, Tensor)> {
        let (v, i) = launch::<T>(&x.typed()?, dim, descending)?;
        Ok((v.into(), i.into()))
    }
    each_type!(x.dtype(), NAME, go(x, dim, descending))
}

/// Calls `$f::<T>($args)` for the element type `T` of `$dtype`.
macro_rules! each_type {
    ($dtype:expr, $name:expr, $f:ident($($arg:expr),*)) => {
        match $dtype {
            silt::DType::Bool => $f::<bool>($($arg),*),
            silt::DType::U8 => $f::<u8>($($arg),*),
            silt::DType::I8 => $f::<i8>($($arg),*),
            silt::DType::U16 => $f::<u16>($($arg),*),
            silt::DType::I16 => $f::<i16>($($arg),*),
            silt::DType::U32 => $f::<u32>($($arg),*),
            silt::DType::I32 => $f::<i32>($($arg),*),
            silt::DType::U64 => $f::<u64>($($arg),*),
            silt::DType::I64 => $f::<i64>($($arg),*),
            silt::DType::F16 => $f::<silt::f16>($($arg),*),
            silt::DType::F32 => $f::<f32>($($arg),*),
            silt::DType::F64 => $f::<f64>($($arg),*),
            #[allow(unreachable_patterns)]
            dtype => Err(silt::Error::UnsupportedDType {
                kernel: $name,
                dtype,
                supported: $crate::sort::TYPES,
            }),
        }
    };
}
pub(crate) use each_type;

/// The OpenCL C of the grid kernels for `dtype`: the block sort's program,
/// the merge's, the cut of sorted runs `topk` uses, then the radix sort's
/// (the passes' count, offsets, scatter and one-launch pass),
/// and the short rows' sort of CPU devices.
pub fn source(dtype: DType) -> Option<&'static str> {
    static SOURCES: std::sync::OnceLock<Vec<(DType, String)>> = std::sync::OnceLock::new();
    let all = SOURCES.get_or_init(|| {
        TYPES
            .iter()
            .filter_map(|&d| {
                let block = device::sort_block::source(d)?;
                let merge = device::sort_merge::source(d)?;
                let keep = device::sort_keep::source(d)?;
                let count = radix::device::radix_count::source(d)?;
                let offsets = radix::device::radix_offsets::source(DType::U32)?;
                let scatter = radix::device::radix_scatter::source(d)?;
                let pass = radix::device::radix_pass::source(d)?;
                let short = radix::device::sort_short::source(d)?;
                let short_256 = radix::device::sort_short_256::source(d)?;
                Some((
                    d,
                    [
                        block, merge, keep, count, offsets, scatter, pass, short, short_256,
                    ]
                    .join("\n"),
                ))
            })
            .collect()
    });
    all.iter()
        .find(|(d, _)| *d == dtype)
        .map(|(_, s)| s.as_str())
}

/// The launch information of every instantiation.
#[doc(hidden)]
pub fn __infos() -> &'static [&'static silt::__private::KernelInfo] {
    static INFOS: std::sync::OnceLock<Vec<&'static silt::__private::KernelInfo>> =
        std::sync::OnceLock::new();
    INFOS.get_or_init(|| {
        let mut v = device::sort_block::__infos().to_vec();
        v.extend(device::sort_merge::__infos());
        v.extend(device::sort_keep::__infos());
        v.extend(radix::device::radix_count::__infos());
        v.extend(radix::device::radix_offsets::__infos());
        v.extend(radix::device::radix_scatter::__infos());
        v.extend(radix::device::radix_pass::__infos());
        v.extend(radix::device::sort_short::__infos());
        v.extend(radix::device::sort_short_256::__infos());
        v
    })
}

/// `dim` of a tensor of `ndim` dimensions (0-d: one of 1) as an index.
pub(crate) fn axis(dim: isize, ndim: usize) -> Result<usize> {
    let n = isize::try_from(ndim.max(1)).unwrap_or(isize::MAX);
    if dim >= n || dim < -n {
        return Err(Error::AxisOutOfRange { axis: dim, ndim });
    }
    usize::try_from(if dim < 0 { dim + n } else { dim }).map_err(|_| Error::Internal {
        what: "sort: an axis out of range",
    })
}

/// The values and indices of [`launch`].
pub(crate) fn sorted<T: Sort>(
    x: &TensorT<T>,
    dim: isize,
    desc: bool,
) -> Result<(TensorT<T>, TensorT<i64>)> {
    let d = axis(dim, x.ndim())?;
    let dev = x.device();
    // every element is written below, on the host too: no fill first
    let mut values = silt::__private::scratch_for_overwrite::<T>(dev, x.shape())?;
    let mut indices = silt::__private::scratch_for_overwrite::<i64>(dev, x.shape())?;
    if values.is_empty() {
        return Ok((values, indices));
    }
    let full: Vec<usize> = if x.ndim() == 0 {
        vec![1]
    } else {
        x.shape().to_vec()
    };
    let x3 = rows_of(x.as_tensor(), &full, d)?;
    let v3 = rows_of(values.as_tensor(), &full, d)?;
    let i3 = rows_of(indices.as_tensor(), &full, d)?;
    if dev.is_host() {
        T::host_sort(&x3, desc, &mut values, &mut indices)?;
    } else if by_cpu(dev, full[d]) {
        T::__cpu_sort(&x3, v3, i3, desc)?;
    } else {
        on_device(&x3, v3, i3, desc)?;
    }
    Ok((values, indices))
}

/// Whether rows of `n` elements on OpenCL device `dev` take a CPU's sorts
/// (`radix::sort_cpu`): on a CPU device (the kind the test hook
/// `reduce_as` may set instead), rows shorter than 2^32.
fn by_cpu(dev: &silt::Device, n: usize) -> bool {
    silt::__private::mapping_kind(dev) == DeviceKind::Cpu && radix::takes(n)
}

/// Sorts the rows of `x` (`[outer, inner, n]`) into `values` and `indices`
/// (views of the same shape) on a device: blocks, then merge passes
/// alternating between the results and a second pair of tensors, ending in
/// the results.
fn on_device<T: Sort>(
    x: &TensorT<T>,
    values: TensorT<T>,
    indices: TensorT<i64>,
    desc: bool,
) -> Result<()> {
    let [outer, inner, n] = [x.shape()[0], x.shape()[1], x.shape()[2]];
    let rows = outer * inner;
    let desc = u32::from(desc);
    let seg = if n > device::TILE {
        device::TILE
    } else {
        n.next_power_of_two()
    };
    let mut passes = 0usize;
    let mut width = seg;
    while width < n {
        width *= 2;
        passes += 1;
    }
    let mut bufs = vec![(values, indices)];
    if passes > 0 {
        bufs.push((
            silt::__private::output_for_overwrite::<T>(x.device(), &[outer, inner, n])?,
            silt::__private::output_for_overwrite::<i64>(x.device(), &[outer, inner, n])?,
        ));
    }
    // the buffer the blocks go to: the results after an even number of passes
    let mut at = passes % 2;
    let segments = rows * n.div_ceil(seg);
    let groups = segments.div_ceil(device::TILE / seg);
    let to_u64 = |v: usize| {
        u64::try_from(v).map_err(|_| Error::Internal {
            what: "sort: a size past u64",
        })
    };
    {
        let (keys, idx) = &mut bufs[at];
        T::__block(
            Grid::over([groups * device::GROUP]),
            x,
            keys,
            idx,
            to_u64(seg)?,
            desc,
        )?;
    }
    let mut width = seg;
    // a work-item per 8 places of a row
    let items = rows * n.div_ceil(8);
    for _ in 0..passes {
        let (from_keys, from_idx) = bufs[at].clone();
        let (to_keys, to_idx) = &mut bufs[1 - at];
        T::__merge(
            Grid::over([items.div_ceil(device::MERGE_GROUP) * device::MERGE_GROUP]),
            &from_keys,
            &from_idx,
            to_keys,
            to_idx,
            to_u64(width)?,
            desc,
        )?;
        at = 1 - at;
        width *= 2;
    }
    Ok(())
}

/// The length of a row of `n` elements in sorted runs of `width` once each
/// run is cut to its first `k` (`k <= width`).
fn kept_len(n: usize, width: usize, k: usize) -> usize {
    let runs = n.div_ceil(width);
    if runs == 0 {
        return 0;
    }
    (runs - 1) * k + k.min(n - (runs - 1) * width)
}

/// The first `k` (at most [`device::TILE`]) of each row of `x` (`[outer,
/// inner, n]`, `n` past one block) sorted, on a device, as `[outer, inner,
/// k]` tensors of values and indices: the blocks sorted, each cut to its
/// first `k`, then merges of neighbouring runs each cut to `k` again, until
/// one run is left. The same elements in the same order as the first `k` of
/// a whole sort (a run's first `k` hold its part of the row's first `k`, and
/// a merge keeps the left run first on ties), in about `n * k / 128`
/// elements of merging after the blocks, not `n` a doubling.
fn top_on_device<T: Sort>(
    x: &TensorT<T>,
    k: usize,
    desc: u32,
) -> Result<(TensorT<T>, TensorT<i64>)> {
    let [outer, inner, n] = [x.shape()[0], x.shape()[1], x.shape()[2]];
    let rows = outer * inner;
    let dev = x.device();
    let to_u64 = |v: usize| {
        u64::try_from(v).map_err(|_| Error::Internal {
            what: "topk: a size past u64",
        })
    };
    let pair = |len: usize| -> Result<(TensorT<T>, TensorT<i64>)> {
        Ok((
            silt::__private::output_for_overwrite::<T>(dev, &[outer, inner, len])?,
            silt::__private::output_for_overwrite::<i64>(dev, &[outer, inner, len])?,
        ))
    };
    let seg = device::TILE;
    let (mut keys, mut idx) = pair(n)?;
    let groups = rows * n.div_ceil(seg);
    T::__block(
        Grid::over([groups * device::GROUP]),
        x,
        &mut keys,
        &mut idx,
        to_u64(seg)?,
        desc,
    )?;
    // runs cut to `k` rounded up to a multiple of 4, so that merged runs
    // are whole chunks of the merge's 8 places a work-item
    let cut = k.next_multiple_of(4).min(seg);
    let (mut len, mut width) = (n, seg);
    loop {
        let kept = kept_len(len, width, cut);
        if kept < len {
            let (mut to_keys, mut to_idx) = pair(kept)?;
            let items = rows * kept;
            T::__keep(
                Grid::over([items.div_ceil(256) * 256]),
                &keys,
                &idx,
                &mut to_keys,
                &mut to_idx,
                to_u64(width)?,
                to_u64(cut)?,
            )?;
            (keys, idx, len, width) = (to_keys, to_idx, kept, cut);
        }
        if len <= width {
            break;
        }
        let (mut to_keys, mut to_idx) = pair(len)?;
        let items = rows * len.div_ceil(8);
        T::__merge(
            Grid::over([items.div_ceil(device::MERGE_GROUP) * device::MERGE_GROUP]),
            &keys,
            &idx,
            &mut to_keys,
            &mut to_idx,
            to_u64(width)?,
            desc,
        )?;
        (keys, idx, width) = (to_keys, to_idx, width * 2);
    }
    Ok((keys.narrow(2, 0, k)?, idx.narrow(2, 0, k)?))
}

/// The first `k` along `dim` of [`sorted`]'s values and indices (`k` at
/// most the length of `dim`, checked by the caller), as contiguous tensors
/// of `x`'s shape with `k` along `dim`. On a device, a row longer than a
/// block with `k` at most a block's length goes through [`top_on_device`]
/// (no whole sort), except where the radix sort takes the row (on CPU
/// devices it sorts faster than `top_on_device` cuts); otherwise the whole
/// sort is cut.
pub(crate) fn top<T: Sort>(
    x: &TensorT<T>,
    dim: isize,
    k: usize,
    desc: bool,
) -> Result<(TensorT<T>, TensorT<i64>)> {
    let d = axis(dim, x.ndim())?;
    let len = if x.ndim() == 0 { 1 } else { x.shape()[d] };
    let dev = x.device();
    if dev.is_host() || len <= device::TILE || k > device::TILE || k == 0 || by_cpu(dev, len) {
        let (values, indices) = sorted(x, dim, desc)?;
        if x.ndim() == 0 || k == len {
            return Ok((values, indices));
        }
        return Ok((
            values.narrow(d, 0, k)?.contiguous()?,
            indices.narrow(d, 0, k)?.contiguous()?,
        ));
    }
    let mut shape = x.shape().to_vec();
    shape[d] = k;
    let values = silt::__private::output_for_overwrite::<T>(dev, &shape[..])?;
    let indices = silt::__private::output_for_overwrite::<i64>(dev, &shape[..])?;
    let x3 = rows_of::<T>(x.as_tensor(), x.shape(), d)?;
    let (v, i) = top_on_device(&x3, k, u32::from(desc))?;
    rows_of::<T>(values.as_tensor(), &shape, d)?.copy_from(&v)?;
    rows_of::<i64>(indices.as_tensor(), &shape, d)?.copy_from(&i)?;
    Ok((values, indices))
}

/// `t` (of shape `full`) as the 3-d view `[outer, inner, n]` of its rows
/// along `d`: the dimensions before `d`, those after it, and `d`; a copy
/// when the dimensions on either side do not fold into one stride.
fn rows_of<T: Element>(t: &Tensor, full: &[usize], d: usize) -> Result<TensorT<T>> {
    let t = if t.ndim() == 0 {
        t.as_strided([1], [1], t.offset())?
    } else {
        t.clone()
    };
    let (before, after, st) = match (fold(&t, 0..d), fold(&t, d + 1..full.len())) {
        (Some(b), Some(a)) => (b, a, t.strides()[d]),
        _ => {
            let c = t.contiguous()?;
            let folded = (fold(&c, 0..d), fold(&c, d + 1..full.len()));
            let (Some(b), Some(a)) = folded else {
                return Err(Error::Internal {
                    what: "sort: a contiguous tensor that does not fold",
                });
            };
            return c
                .as_strided([b.0, a.0, full[d]], [b.1, a.1, c.strides()[d]], c.offset())?
                .typed();
        }
    };
    t.as_strided(
        [before.0, after.0, full[d]],
        [before.1, after.1, st],
        t.offset(),
    )?
    .typed()
}
