//! The row-wise operations, each one pass over its rows on grid kernels (on a
//! GPU a row per work-group, a row of up to 4,096 elements read from memory
//! once; on a CPU device a row per work-item, read front to back with the
//! same order of sums; on the host those steps as plain Rust):
//! `softmax` and `log_softmax` along an axis, `layer_norm` and `rms_norm`
//! over trailing dimensions, with PyTorch's arguments. Floats; `f16`
//! computes in `f32` and rounds once.
//!
//! - `softmax(x) = exp(x - max) / sum(exp(x - max))` and `log_softmax(x) =
//!   (x - max) - ln(sum(exp(x - max)))` along the axis, `max` the row's
//!   largest element (NaN if it has one): adding a constant to a row that
//!   leaves its elements exact changes no bit of the result.
//! - `layer_norm(x) = (x - mean) / sqrt(var + eps) * weight + bias` over the
//!   trailing `normalized_shape` (the variance biased, as PyTorch's).
//! - `rms_norm(x) = x / sqrt(mean(x^2) + eps) * weight` (`eps` by default the
//!   machine epsilon of the type the sums are kept in, `f32`'s for `f16`,
//!   as PyTorch's).
//!
//! Every sum is taken in a fixed order (`docs/semantics.md`, "Row-wise
//! operations"), the same on every device and the host; `exp`, `ln` and
//! `sqrt` are within their ULP bounds.
//!
//! ```
//! use silt::prelude::*;
//! use silt_kernels as k;
//!
//! let dev = Device::default()?;
//! let x = TensorT::from_slice(&dev, &[1.0f32, 2.0, 3.0, 1001.0, 1002.0, 1003.0], [2, 3])?;
//! let p = k::softmax::launch(&x, -1)?.to_vec()?;
//! assert_eq!(p[..3], p[3..]); // a row shifted by 1000: the same bits
//! let y = k::layer_norm::launch(&x, &[3], None, None, 1e-5)?;
//! assert!((y.to_vec()?[0] + 1.2247).abs() < 1e-3);
//! # Ok::<(), silt::Error>(())
//! ```

mod device;
mod host;

use std::sync::OnceLock;

use silt::{f16, DType, Element, Error, Grid, Result, Tensor, TensorT};

use crate::views::fold_range as fold;

pub(crate) const FLOATS: &[DType] = &[DType::F16, DType::F32, DType::F64];

/// A float type of the row-wise operations.
pub trait RowFloat: Element + host::HostRows {
    #[doc(hidden)]
    const EPSILON: f64;
    #[doc(hidden)]
    fn __softmax(rows: Rows, log: bool, x: &TensorT<Self>, y: &mut TensorT<Self>) -> Result<()>;
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    fn __norm(
        rows: Rows,
        rms: bool,
        eps: f64,
        x: &TensorT<Self>,
        w: &TensorT<Self>,
        b: &TensorT<Self>,
        y: &mut TensorT<Self>,
    ) -> Result<()>;
}

/// How the rows of a row-wise operation are shared out: a work-group of
/// [`device::LANES`] work-items per row (what suits a GPU), a row per
/// work-item (what suits a CPU: it reads each row front to back), or on the
/// host the latter's steps as plain Rust. All give the same bits.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub enum Rows {
    /// `n` rows, a work-group each.
    Groups(usize),
    /// `n` rows, a work-item each.
    Items(usize),
    /// On the host, as plain Rust (`host.rs`).
    Host,
}

impl Rows {
    /// `n` rows of `x`, shared out as suits `x`'s device (or the kind
    /// `silt::testing::reduce_as` names).
    fn of<T: Element>(x: &TensorT<T>, n: usize) -> Rows {
        match silt::__private::mapping_kind(x.device()) {
            silt::DeviceKind::Gpu | silt::DeviceKind::Accelerator => Rows::Groups(n),
            silt::DeviceKind::Host => Rows::Host,
            _ => Rows::Items(n),
        }
    }

    /// The grid of the kernels.
    fn grid(self) -> Grid {
        match self {
            Rows::Groups(n) => Grid::over([n * device::LANES]),
            Rows::Items(n) => Grid::over([n.div_ceil(device::ROW_GROUP) * device::ROW_GROUP]),
            Rows::Host => Grid::over([0]),
        }
    }
}

macro_rules! row_float {
    (
        $t:ty, $eps:expr, $acc:ty,
        [$sm:ident, $lsm:ident, $ln:ident, $rms:ident],
        [$smi:ident, $lsmi:ident, $lni:ident, $rmsi:ident]
    ) => {
        impl RowFloat for $t {
            const EPSILON: f64 = $eps;
            fn __softmax(
                rows: Rows,
                log: bool,
                x: &TensorT<Self>,
                y: &mut TensorT<Self>,
            ) -> Result<()> {
                let grid = rows.grid();
                // SAFETY: every work-item reads and writes the elements of
                // its own row, below the row's length (`x` and `y` of one
                // shape: `y` is made for `x`), in a grid of one work-group a
                // row or one work-item a row (those past the rows do
                // nothing); its arrays are indexed below their sizes (loops
                // of 32 or 128, work-items or lanes of 128, a tree over
                // halves)
                unsafe {
                    match (rows, log) {
                        (Rows::Groups(_), false) => device::$sm::launch(grid, x, y),
                        (Rows::Groups(_), true) => device::$lsm::launch(grid, x, y),
                        (Rows::Items(_), false) => device::$smi::launch(grid, x, y),
                        (Rows::Items(_), true) => device::$lsmi::launch(grid, x, y),
                        (Rows::Host, log) => host::softmax(x, y, log),
                    }
                }
            }
            #[allow(clippy::cast_possible_truncation)] // eps in the sums' type
            fn __norm(
                rows: Rows,
                rms: bool,
                eps: f64,
                x: &TensorT<Self>,
                w: &TensorT<Self>,
                b: &TensorT<Self>,
                y: &mut TensorT<Self>,
            ) -> Result<()> {
                let (grid, e) = (rows.grid(), eps as $acc);
                // SAFETY: as for softmax; `w` and `b` are read below the row's
                // length, which the kernels check they have
                unsafe {
                    match (rows, rms) {
                        (Rows::Groups(_), false) => device::$ln::launch(grid, e, x, w, b, y),
                        (Rows::Groups(_), true) => device::$rms::launch(grid, e, x, w, b, y),
                        (Rows::Items(_), false) => device::$lni::launch(grid, e, x, w, b, y),
                        (Rows::Items(_), true) => device::$rmsi::launch(grid, e, x, w, b, y),
                        (Rows::Host, rms) => host::norm(x, w, b, y, rms, eps),
                    }
                }
            }
        }
    };
}

row_float!(
    f32,
    f32::EPSILON as f64,
    f32,
    [
        softmax_rows,
        log_softmax_rows,
        layer_norm_rows,
        rms_norm_rows
    ],
    [
        softmax_row_items,
        log_softmax_row_items,
        layer_norm_row_items,
        rms_norm_row_items
    ]
);
row_float!(
    f64,
    f64::EPSILON,
    f64,
    [
        softmax_rows,
        log_softmax_rows,
        layer_norm_rows,
        rms_norm_rows
    ],
    [
        softmax_row_items,
        log_softmax_row_items,
        layer_norm_row_items,
        rms_norm_row_items
    ]
);
row_float!(
    f16,
    f32::EPSILON as f64,
    f32,
    [
        softmax_rows_half,
        log_softmax_rows_half,
        layer_norm_rows_half,
        rms_norm_rows_half
    ],
    [
        softmax_row_items_half,
        log_softmax_row_items_half,
        layer_norm_row_items_half,
        rms_norm_row_items_half
    ]
);

/// Every instantiation's launch information.
pub(crate) fn infos() -> &'static [&'static silt::__private::KernelInfo] {
    static INFOS: std::sync::OnceLock<Vec<&'static silt::__private::KernelInfo>> =
        std::sync::OnceLock::new();
    INFOS.get_or_init(|| {
        [
            device::softmax_rows::__infos(),
            device::softmax_rows_half::__infos(),
            device::log_softmax_rows::__infos(),
            device::log_softmax_rows_half::__infos(),
            device::layer_norm_rows::__infos(),
            device::layer_norm_rows_half::__infos(),
            device::rms_norm_rows::__infos(),
            device::rms_norm_rows_half::__infos(),
            device::softmax_row_items::__infos(),
            device::softmax_row_items_half::__infos(),
            device::log_softmax_row_items::__infos(),
            device::log_softmax_row_items_half::__infos(),
            device::layer_norm_row_items::__infos(),
            device::layer_norm_row_items_half::__infos(),
            device::rms_norm_row_items::__infos(),
            device::rms_norm_row_items_half::__infos(),
        ]
        .concat()
    })
}

/// The dimensions of `shape` before `from`, from `from` to `to`, and from
/// `to` on, each multiplied out: a row-wise operation's `[A, n, B]`.
fn split(shape: &[usize], from: usize, to: usize) -> [usize; 3] {
    let p = |s: &[usize]| s.iter().product::<usize>();
    [p(&shape[..from]), p(&shape[from..to]), p(&shape[to..])]
}

/// `t` as the 3-d view `[A, B, n]` of its dimensions before `from`, from
/// `to` on, and from `from` to `to` (the row): in place where the strides
/// allow, else a contiguous copy.
fn as_rows<T: Element>(t: &TensorT<T>, from: usize, to: usize) -> Result<TensorT<T>> {
    let r = t.ndim();
    let view = |t: &Tensor| -> Option<Result<Tensor>> {
        let (a, b, c) = (fold(t, 0..from)?, fold(t, from..to)?, fold(t, to..r)?);
        // the kernels' `[A, B, n]`: the row's elements last
        Some(t.as_strided([a.0, c.0, b.0], [a.1, c.1, b.1], t.offset()))
    };
    match view(t.as_tensor()) {
        Some(v) => v?.typed(),
        None => {
            let c = t.contiguous()?;
            view(c.as_tensor())
                .ok_or(Error::Internal {
                    what: "a contiguous tensor that does not fold",
                })??
                .typed()
        }
    }
}

/// `softmax` or `log_softmax` of `x` along `axis`.
fn softmax_along<T: RowFloat>(x: &TensorT<T>, axis: isize, log: bool) -> Result<TensorT<T>> {
    let op = if log { "log_softmax" } else { "softmax" };
    let r = x.ndim();
    // a 0-d tensor is one row of one element, along its axis 0 or -1
    let d = if r == 0 {
        silt::Axes::of([axis]).reduced(0)?;
        0
    } else {
        silt::Axes::of([axis])
            .reduced(r)?
            .iter()
            .position(|&b| b)
            .ok_or(Error::InvalidArgument {
                op,
                reason: format!("no axis {axis}"),
            })?
    };
    // every element is written below: no fill first
    let out = silt::__private::output_for_overwrite::<T>(x.device(), x.shape())?;
    if x.is_empty() {
        return Ok(out);
    }
    let (xs, to) = if r == 0 {
        (x.reshape([1])?, 1)
    } else {
        (x.clone(), d + 1)
    };
    let [a, _, b] = split(xs.shape(), d, to);
    let xv = as_rows(&xs, d, to)?;
    let mut yv = as_rows(&out.reshape(xs.shape())?, d, to)?;
    T::__softmax(Rows::of(x, a * b), log, &xv, &mut yv)?;
    Ok(out)
}

/// The trailing `shape` of `x` as rows, and `weight`/`bias` (given, or
/// a row of `fill`) as 1-d views of the row's length.
fn norm<T: RowFloat>(
    op: &'static str,
    x: &TensorT<T>,
    shape: &[usize],
    weight: Option<&TensorT<T>>,
    bias: Option<&TensorT<T>>,
    eps: f64,
    rms: bool,
) -> Result<TensorT<T>> {
    let r = x.ndim();
    if shape.is_empty() || shape.len() > r || x.shape()[r - shape.len()..] != *shape {
        return Err(Error::InvalidArgument {
            op,
            reason: format!(
                "normalized_shape {shape:?} is not the trailing dimensions of an input of shape {:?}",
                x.shape()
            ),
        });
    }
    for (name, t) in [("weight", weight), ("bias", bias)] {
        if let Some(t) = t {
            if t.shape() != shape {
                return Err(Error::InvalidArgument {
                    op,
                    reason: format!(
                        "{name} has shape {:?}, not normalized_shape {shape:?}",
                        t.shape()
                    ),
                });
            }
            if t.device() != x.device() {
                return Err(Error::DeviceMismatch {
                    left: x.device().to_string(),
                    right: t.device().to_string(),
                });
            }
        }
    }
    if !eps.is_finite() || eps < 0.0 {
        return Err(Error::InvalidArgument {
            op,
            reason: format!("eps must be a finite number >= 0, not {eps}"),
        });
    }
    // every element is written below: no fill first
    let out = silt::__private::output_for_overwrite::<T>(x.device(), x.shape())?;
    if x.is_empty() {
        return Ok(out);
    }
    let from = r - shape.len();
    let [rows, n, _] = split(x.shape(), from, r);
    let line = |t: Option<&TensorT<T>>, fill: f64| -> Result<TensorT<T>> {
        match t {
            // its elements as one line `[n]`, in place where they fold
            // into one (strided or broadcast), else copied
            Some(t) => {
                let v = as_rows(t, 0, t.ndim())?;
                v.as_tensor()
                    .as_strided([n], [v.strides()[2]], v.offset())?
                    .typed()
            }
            // a row of `fill`, not one element broadcast: the kernels'
            // loops take the vector path only where every stride is 1 (a
            // stride of 0 made layer_norm on PoCL a third slower)
            None => TensorT::full(x.device(), silt::Scalar::F64(fill).to::<T>()?, [n]),
        }
    };
    let (w, b) = (line(weight, 1.0)?, line(bias, 0.0)?);
    let xv = as_rows(x, from, r)?;
    let mut yv = as_rows(&out, from, r)?;
    T::__norm(Rows::of(x, rows), rms, eps, &xv, &w, &b, &mut yv)?;
    Ok(out)
}

/// The operations' untyped forms: the typed call for `x`'s dtype.
macro_rules! by_dtype {
    ($name:expr, $x:expr, |$t:ident| $call:expr) => {
        match $x.dtype() {
            DType::F16 => {
                type $t = f16;
                $call.map(Tensor::from)
            }
            DType::F32 => {
                type $t = f32;
                $call.map(Tensor::from)
            }
            DType::F64 => {
                type $t = f64;
                $call.map(Tensor::from)
            }
            dtype => Err(Error::UnsupportedDType {
                kernel: $name,
                dtype,
                supported: FLOATS,
            }),
        }
    };
}

/// A kernel's `source`.
type Source = fn(DType) -> Option<&'static str>;

/// The OpenCL C of an operation's kernels for `dtype`: the program of its
/// work-group-a-row kernel, then that of its work-item-a-row one, each the
/// `f32`/`f64` kernel's or the `f16` one's (`(float, half)` pairs).
fn source_of(
    cache: &'static OnceLock<Vec<(DType, String)>>,
    dtype: DType,
    groups: (Source, Source),
    items: (Source, Source),
) -> Option<&'static str> {
    let all = cache.get_or_init(|| {
        FLOATS
            .iter()
            .filter_map(|&d| {
                let pick = |(float, half): (Source, Source)| {
                    if d == DType::F16 {
                        half(d)
                    } else {
                        float(d)
                    }
                };
                Some((d, format!("{}\n{}", pick(groups)?, pick(items)?)))
            })
            .collect()
    });
    all.iter()
        .find(|(d, _)| *d == dtype)
        .map(|(_, s)| s.as_str())
}

macro_rules! along_module {
    (
        $(#[$doc:meta])* $name:ident, $log:literal,
        $float:ident, $half:ident, $float_items:ident, $half_items:ident
    ) => {
        $(#[$doc])*
        pub mod $name {
            use super::*;

            /// The operation's name.
            pub const NAME: &str = stringify!($name);
            /// The element types it takes.
            pub const TYPES: &[DType] = FLOATS;

            /// Runs the operation on `x` along `axis` (negative counts from
            /// the end), on its device.
            ///
            /// # Errors
            /// An axis out of range, and what the launch reports.
            pub fn launch<T: RowFloat>(x: &TensorT<T>, axis: isize) -> Result<TensorT<T>> {
                softmax_along(x, axis, $log)
            }

            /// [`launch`] on an untyped tensor.
            ///
            /// # Errors
            /// `Error::UnsupportedDType` outside [`TYPES`], and what
            /// [`launch`] reports.
            pub fn dispatch(x: &Tensor, axis: isize) -> Result<Tensor> {
                by_dtype!(NAME, x, |F| launch::<F>(&x.typed()?, axis))
            }

            /// The OpenCL C of the grid kernels for `dtype`: a work-group a
            /// row, then a work-item a row.
            pub fn source(dtype: DType) -> Option<&'static str> {
                static SOURCES: OnceLock<Vec<(DType, String)>> = OnceLock::new();
                source_of(
                    &SOURCES,
                    dtype,
                    (device::$float::source, device::$half::source),
                    (device::$float_items::source, device::$half_items::source),
                )
            }

            /// The launch information of every instantiation.
            #[doc(hidden)]
            pub fn __infos() -> &'static [&'static silt::__private::KernelInfo] {
                infos()
            }
        }
    };
}

along_module! {
    /// `exp(x - max) / sum(exp(x - max))` along an axis, one pass over each
    /// row (one work-group a row; `docs/semantics.md`, "Row-wise
    /// operations").
    softmax, false, softmax_rows, softmax_rows_half, softmax_row_items, softmax_row_items_half
}

along_module! {
    /// `(x - max) - ln(sum(exp(x - max)))` along an axis, one pass over each
    /// row.
    log_softmax, true, log_softmax_rows, log_softmax_rows_half, log_softmax_row_items,
    log_softmax_row_items_half
}

/// `(x - mean) / sqrt(var + eps) * weight + bias` over the trailing
/// `normalized_shape`, as PyTorch's `layer_norm`.
pub mod layer_norm {
    use super::*;

    /// The operation's name.
    pub const NAME: &str = "layer_norm";
    /// The element types it takes.
    pub const TYPES: &[DType] = FLOATS;

    /// Normalises each row of `x`'s trailing `normalized_shape` (weight and
    /// bias of that shape, or 1 and 0), on its device.
    ///
    /// # Errors
    /// `Error::InvalidArgument` for a `normalized_shape` that is not `x`'s
    /// trailing dimensions, a weight or bias of another shape, or an `eps`
    /// that is negative or not finite; `Error::DeviceMismatch`; and what the
    /// launch reports.
    pub fn launch<T: RowFloat>(
        x: &TensorT<T>,
        normalized_shape: &[usize],
        weight: Option<&TensorT<T>>,
        bias: Option<&TensorT<T>>,
        eps: f64,
    ) -> Result<TensorT<T>> {
        norm(NAME, x, normalized_shape, weight, bias, eps, false)
    }

    /// [`launch`] on untyped tensors.
    ///
    /// # Errors
    /// `Error::UnsupportedDType` outside [`TYPES`], `Error::DTypeMismatch`
    /// for a weight or bias of another dtype, and what [`launch`] reports.
    pub fn dispatch(
        x: &Tensor,
        normalized_shape: &[usize],
        weight: Option<&Tensor>,
        bias: Option<&Tensor>,
        eps: f64,
    ) -> Result<Tensor> {
        by_dtype!(NAME, x, |F| {
            let w = weight.map(Tensor::typed::<F>).transpose()?;
            let b = bias.map(Tensor::typed::<F>).transpose()?;
            launch::<F>(&x.typed()?, normalized_shape, w.as_ref(), b.as_ref(), eps)
        })
    }

    /// The OpenCL C of the grid kernels for `dtype`: a work-group a row,
    /// then a work-item a row.
    pub fn source(dtype: DType) -> Option<&'static str> {
        static SOURCES: OnceLock<Vec<(DType, String)>> = OnceLock::new();
        source_of(
            &SOURCES,
            dtype,
            (
                device::layer_norm_rows::source,
                device::layer_norm_rows_half::source,
            ),
            (
                device::layer_norm_row_items::source,
                device::layer_norm_row_items_half::source,
            ),
        )
    }

    /// The launch information of every instantiation.
    #[doc(hidden)]
    pub fn __infos() -> &'static [&'static silt::__private::KernelInfo] {
        infos()
    }
}

/// `x / sqrt(mean(x^2) + eps) * weight` over the trailing
/// `normalized_shape`, as PyTorch's `rms_norm`.
pub mod rms_norm {
    use super::*;

    /// The operation's name.
    pub const NAME: &str = "rms_norm";
    /// The element types it takes.
    pub const TYPES: &[DType] = FLOATS;

    /// Normalises each row of `x`'s trailing `normalized_shape` (a weight of
    /// that shape, or 1; `eps` by default the machine epsilon of the type
    /// the sums are kept in, `f32`'s for `f16`, as PyTorch's), on
    /// its device.
    ///
    /// # Errors
    /// As [`layer_norm::launch`](super::layer_norm::launch).
    pub fn launch<T: RowFloat>(
        x: &TensorT<T>,
        normalized_shape: &[usize],
        weight: Option<&TensorT<T>>,
        eps: Option<f64>,
    ) -> Result<TensorT<T>> {
        norm(
            NAME,
            x,
            normalized_shape,
            weight,
            None,
            eps.unwrap_or(T::EPSILON),
            true,
        )
    }

    /// [`launch`] on untyped tensors.
    ///
    /// # Errors
    /// `Error::UnsupportedDType` outside [`TYPES`], `Error::DTypeMismatch`
    /// for a weight of another dtype, and what [`launch`] reports.
    pub fn dispatch(
        x: &Tensor,
        normalized_shape: &[usize],
        weight: Option<&Tensor>,
        eps: Option<f64>,
    ) -> Result<Tensor> {
        by_dtype!(NAME, x, |F| {
            let w = weight.map(Tensor::typed::<F>).transpose()?;
            launch::<F>(&x.typed()?, normalized_shape, w.as_ref(), eps)
        })
    }

    /// The OpenCL C of the grid kernels for `dtype`: a work-group a row,
    /// then a work-item a row.
    pub fn source(dtype: DType) -> Option<&'static str> {
        static SOURCES: OnceLock<Vec<(DType, String)>> = OnceLock::new();
        source_of(
            &SOURCES,
            dtype,
            (
                device::rms_norm_rows::source,
                device::rms_norm_rows_half::source,
            ),
            (
                device::rms_norm_row_items::source,
                device::rms_norm_row_items_half::source,
            ),
        )
    }

    /// The launch information of every instantiation.
    #[doc(hidden)]
    pub fn __infos() -> &'static [&'static silt::__private::KernelInfo] {
        infos()
    }
}
