//! `scatter_add`: `input` plus the elements of `src` added at the positions
//! along `dim` in `index`, as PyTorch's `torch.scatter_add(input, dim,
//! index, src)` (out of place: a new tensor):
//! `out[index[i][j][k]][j][k] += src[i][j][k]` for `dim = 0`, and so on.
//!
//! - `input`, `index` and `src` have as many dimensions; `index` holds `i64`
//!   and is no larger than `src` in any dimension, nor than `input` apart
//!   from `dim`; only `src`'s elements at `index`'s positions are added.
//! - Each index must lie in `0..input.shape()[dim]`: a negative index is out
//!   of range, as in PyTorch. One out of range is `Error::IndexOutOfRange`.
//! - The order of the additions: each output element adds its elements in
//!   order of their position along `dim` (PyTorch's order on the CPU),
//!   rounding after each addition, so the host and every CPU device give
//!   the same bits, run after run. A work-item walks each line along `dim`
//!   (the lines are independent: an element of a line lands in the same
//!   line of the output). A GPU, which needs more work-items than there
//!   are lines when they are few (fewer than [`GPU_LINES`]), adds there by
//!   atomic additions the 32- and 64-bit types, in an order that is not
//!   specified (a sum of several floats may differ in its last bits from
//!   run to run, as PyTorch's on CUDA), and the others by a work-item per
//!   output element that reads its whole line of `index` (in order).
//!   Integers are exact in any order (wrapping).
//!
//! ```
//! use silt::prelude::*;
//! use silt_kernels as k;
//!
//! let dev = Device::default()?;
//! let x = TensorT::from_slice(&dev, &[10.0f32, 20.0, 30.0], [3])?;
//! let i = TensorT::from_slice(&dev, &[0i64, 2, 0, 0], [4])?;
//! let s = TensorT::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0], [4])?;
//! assert_eq!(k::scatter_add::launch(&x, 0, &i, &s)?.to_vec()?, [18.0, 20.0, 32.0]);
//! # Ok::<(), silt::Error>(())
//! ```

use silt::{DType, DeviceKind, Element, Error, Grid, Result, Tensor, TensorT};

use super::gather::check_shapes;
use super::{at_least_1d, axis, device, host, lines, out_of_range, same_device, supported, Record};

/// The operation's name.
pub const NAME: &str = "scatter_add";

/// The element types it takes: the numbers (not `bool`).
pub const TYPES: &[DType] = &[
    DType::U8,
    DType::I8,
    DType::U16,
    DType::I16,
    DType::U32,
    DType::I32,
    DType::U64,
    DType::I64,
    DType::F16,
    DType::F32,
    DType::F64,
];

/// The fewest lines along `dim` that a GPU walks a work-item each (fewer
/// leave most of it idle: it adds by atomics or a work-item per output
/// element instead). CPU devices and the host always walk the lines.
pub const GPU_LINES: usize = 16_384;

/// The types a GPU adds by atomics when the lines are few (the others in
/// order, per output element).
const ATOMIC: &[DType] = &[
    DType::U32,
    DType::I32,
    DType::U64,
    DType::I64,
    DType::F32,
    DType::F64,
];

/// `scatter_add(input, dim, index, src)` on typed tensors (see the
/// [module](self)).
///
/// # Errors
/// As [`dispatch`].
pub fn launch<T: Element>(
    input: &TensorT<T>,
    dim: isize,
    index: &TensorT<i64>,
    src: &TensorT<T>,
) -> Result<TensorT<T>> {
    dispatch(input.as_tensor(), dim, index.as_tensor(), src.as_tensor())?.typed()
}

/// `scatter_add(input, dim, index, src)` on untyped tensors (see the
/// [module](self)).
///
/// # Errors
/// `Error::AxisOutOfRange` for `dim`, `Error::InvalidArgument` for shapes
/// outside the rules above, `Error::IndexOutOfRange` for an index out of
/// range,
/// `Error::DTypeMismatch` for an `index` of another dtype than `i64` or a
/// `src` of another dtype than `input`, `Error::UnsupportedDType`,
/// `Error::DeviceMismatch`, and what the launches report.
pub fn dispatch(input: &Tensor, dim: isize, index: &Tensor, src: &Tensor) -> Result<Tensor> {
    supported(NAME, TYPES, input.dtype())?;
    let mut l = match prepare(NAME, input, dim, index, src)? {
        Ok(l) => l,
        Err(out) => return Ok(out),
    };
    if input.device().is_host() {
        // every index checked first (the first bad one named), then plain
        // Rust in the lines' order
        let at = match host::places(&l.idx3, l.n, false)? {
            Ok(at) => at,
            Err(pos) => return Err(l.out_of_range(pos)),
        };
        host::scatter_add(&mut l.o3, &at, &l.s3)?;
        return l.finish();
    }
    let bad = Record::new(input.device())?;
    let mut rec = Tensor::from(bad.0.clone());
    let lines_count = l.idx3.shape()[0] * l.idx3.shape()[2];
    let walk = !matches!(
        silt::__private::mapping_kind(input.device()),
        DeviceKind::Gpu | DeviceKind::Accelerator
    ) || lines_count >= GPU_LINES;
    let (idx3, s3) = (&l.idx3, &l.s3);
    // SAFETY: `idx3`, `s3` and `o3` share their outer and inner sizes
    // (`src` and the result narrowed to `index`'s), and `s3` is `idx3`'s
    // shape, so each work-item's position (an element, or a line `(o, i)`
    // of `outer * inner`) is in range where it reads and writes; `o3` is
    // written along `dim` only at an index the kernel tested against its
    // length; `rec` has its one element
    unsafe {
        if walk {
            device::scatter_add_lines::dispatch(
                Grid::over([lines_count]),
                idx3,
                s3,
                &mut l.o3,
                &mut rec,
            )?;
        } else if ATOMIC.contains(&input.dtype()) {
            device::scatter_add_atomic::dispatch(
                Grid::over([l.idx.len()]),
                idx3,
                s3,
                &mut l.o3,
                &mut rec,
            )?;
        } else {
            device::scatter_add_ordered::dispatch(
                Grid::over([l.o3.len()]),
                idx3,
                s3,
                &mut l.o3,
                &mut rec,
            )?;
        }
    }
    if let Some(pos) = bad.position()? {
        return Err(l.out_of_range(pos));
    }
    l.finish()
}

/// What `scatter_add` and `scatter_reduce` share once their arguments are
/// checked: the result (a copy of `input`) and the `[outer, *, inner]`
/// views of the indices, `src` and the part of the result they reach.
pub(super) struct Lines {
    /// The operation, for its errors.
    name: &'static str,
    /// The result.
    out: Tensor,
    /// The result narrowed to `index`'s sizes apart from `dim`.
    o: Tensor,
    /// `o` as `[outer, n, inner]`: the result's storage, or a contiguous
    /// copy of it (`copied`) where `o` does not fold in place.
    pub(super) o3: Tensor,
    /// `src`, narrowed to `index`'s sizes, as `[outer, m, inner]`.
    pub(super) s3: Tensor,
    /// The indices (`i64`), as given.
    pub(super) idx: Tensor,
    /// The indices as `[outer, m, inner]`.
    pub(super) idx3: Tensor,
    /// The dimension scattered along.
    d: usize,
    /// `input`'s length along it.
    pub(super) n: usize,
    /// Whether `o3` is a copy, written back by [`finish`](Self::finish).
    copied: bool,
}

impl Lines {
    /// `Error::IndexOutOfRange` for the index at `pos` (row-major).
    pub(super) fn out_of_range(&self, pos: usize) -> Error {
        out_of_range(
            self.name,
            &self.idx,
            pos,
            &format!("dimension {}", self.d),
            self.n,
        )
    }

    /// The result, with `o3` written back where it is a copy.
    pub(super) fn finish(self) -> Result<Tensor> {
        if self.copied {
            let mut o = self.o;
            o.copy_from(&self.o3.reshape(o.shape())?)?;
        }
        Ok(self.out)
    }
}

/// The checks and views of a scatter of `src` into a copy of `input` (see
/// the [module](self)): the [`Lines`], or the result itself when `index`
/// is empty (nothing to scatter).
pub(super) fn prepare(
    name: &'static str,
    input: &Tensor,
    dim: isize,
    index: &Tensor,
    src: &Tensor,
) -> Result<std::result::Result<Lines, Tensor>> {
    same_device(input, &[index, src])?;
    if src.dtype() != input.dtype() {
        return Err(Error::DTypeMismatch {
            expected: input.dtype(),
            got: src.dtype(),
        });
    }
    let d = axis(dim, input.ndim())?;
    let idx = super::index_of(index, false)?;
    let (xs, is, ss) = (
        at_least_1d(input.shape()),
        at_least_1d(index.shape()),
        at_least_1d(src.shape()),
    );
    check_shapes(name, &xs, &is, d, "input")?;
    check_shapes(name, &ss, &is, d, "src")?;
    let mut out = Tensor::zeros(input.device(), input.dtype(), input.shape())?;
    out.copy_from(input)?;
    if index.is_empty() {
        return Ok(Err(out));
    }
    if xs[d] == 0 {
        // no index is in range
        return Err(out_of_range(name, &idx, 0, &format!("dimension {d}"), 0));
    }
    // `src` and `out` narrowed to `index`'s sizes (`out` apart from `dim`):
    // the same `[outer, *, inner]` positions in all three
    let mut s = if src.ndim() == 0 {
        src.reshape([1])?
    } else {
        src.clone()
    };
    let mut o = if out.ndim() == 0 {
        out.reshape([1])?
    } else {
        out.clone()
    };
    for (a, &si) in is.iter().enumerate() {
        if si < ss[a] {
            s = s.narrow(a, 0, si)?;
        }
        if a != d && si < xs[a] {
            o = o.narrow(a, 0, si)?;
        }
    }
    let s3 = lines(&s, d)?;
    let idx3 = lines(&idx, d)?;
    // `o` folds in place unless it was narrowed in several dimensions:
    // then the sums go to a contiguous copy, copied back
    let o3 = lines(&o, d)?;
    let copied = !o3.shares_storage(&out);
    Ok(Ok(Lines {
        name,
        out,
        o,
        o3,
        s3,
        idx,
        idx3,
        d,
        n: xs[d],
        copied,
    }))
}

/// The OpenCL C of the grid kernels for `dtype`: the one a line (CPU
/// devices, and GPUs with many lines), then a GPU's for few lines (atomics
/// or a work-item per output element).
pub fn source(dtype: DType) -> Option<&'static str> {
    static TEXTS: std::sync::OnceLock<Vec<(DType, String)>> = std::sync::OnceLock::new();
    let all = TEXTS.get_or_init(|| {
        TYPES
            .iter()
            .filter_map(|&d| {
                let few = if ATOMIC.contains(&d) {
                    device::scatter_add_atomic::source(d)
                } else {
                    device::scatter_add_ordered::source(d)
                }?;
                Some((
                    d,
                    format!("{}\n{few}", device::scatter_add_lines::source(d)?),
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
        let mut v = device::scatter_add_lines::__infos().to_vec();
        v.extend(device::scatter_add_atomic::__infos());
        v.extend(device::scatter_add_ordered::__infos());
        v
    })
}
