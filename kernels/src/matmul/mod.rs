//! `matmul`: the matrix product of two tensors, as PyTorch's `torch.matmul`.
//!
//! - Two 1-d tensors give their dot product (a 0-d tensor); a 1-d first
//!   argument is a row (`[k]` as `[1, k]`) and a 1-d second argument a column
//!   (`[k]` as `[k, 1]`), the added dimension removed from the result.
//! - Two 2-d tensors `[m, k]` and `[k, n]` give `[m, n]`.
//! - More dimensions are batches of matrices, broadcast against each other
//!   (`[2, 1, m, k]` with `[3, k, n]` gives `[2, 3, m, n]`).
//! - Any views are read in place: transposed, narrowed, broadcast operands
//!   are not copied on a device.
//!
//! Types: `f16`, `f32`, `f64` and the integers; both arguments of one type.
//! Each output is a sum over `k` in order, from 0:
//! `acc = a[i, k] * b[k, j] + acc`, each step one fused multiply-add (one
//! rounding) for floats, wrapping for integers; `f16` sums in `f32` and
//! rounds once at the end. Every device and the host take the same steps, so
//! they give the same bits (`docs/semantics.md`, "matmul").
//!
//! ```
//! use silt::prelude::*;
//! use silt_kernels as k;
//!
//! let dev = Device::default()?;
//! let a = TensorT::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], [2, 3])?;
//! let b = TensorT::from_slice(&dev, &[1.0f32, 0.0, 0.0, 1.0, 1.0, 1.0], [3, 2])?;
//! let c = k::matmul::launch(&a, &b)?;
//! assert_eq!(c.shape(), [2, 2]);
//! assert_eq!(c.to_vec()?, [4.0, 5.0, 10.0, 11.0]);
//! // a transposed view, read in place
//! let at = k::matmul::launch(&a.transpose(0, 1)?, &a)?; // [3, 3]
//! assert_eq!(at.to_vec()?[0], 17.0);
//! # Ok::<(), silt::Error>(())
//! ```

mod device;
mod host;

use silt::{f16, DType, Element, Error, Grid, Result, Tensor, TensorT};

use crate::views::fold_range;

/// The operation's name.
pub const NAME: &str = "matmul";

/// The element types it takes.
pub const TYPES: &[DType] = &[
    DType::F16,
    DType::F32,
    DType::F64,
    DType::I8,
    DType::I16,
    DType::I32,
    DType::I64,
    DType::U8,
    DType::U16,
    DType::U32,
    DType::U64,
];

/// An element type `matmul` takes.
pub trait Matmul: Element + host::HostMatmul {
    #[doc(hidden)]
    fn __grid(
        grid: Grid,
        a: &TensorT<Self>,
        b: &TensorT<Self>,
        c: &mut TensorT<Self>,
    ) -> Result<()>;
    #[doc(hidden)]
    fn __source() -> Option<&'static str>;
}

macro_rules! matmul_impl {
    ($kernel:ident: $($t:ty),*) => {$(
        impl Matmul for $t {
            fn __grid(
                grid: Grid,
                a: &TensorT<Self>,
                b: &TensorT<Self>,
                c: &mut TensorT<Self>,
            ) -> Result<()> {
                // SAFETY: the kernel tests every read of `a` and `b` and every
                // write of `c` against their lengths before it makes it, and
                // indexes its arrays with numbers bounded by their sizes (work-
                // items of 2 x 8, loops of 64, 16, 8 and 32); the tests run
                // it on Oclgrind, which reports any access out of range
                unsafe { device::$kernel::launch(grid, a, b, c) }
            }
            fn __source() -> Option<&'static str> {
                device::$kernel::source(<$t as Element>::DTYPE)
            }
        }
    )*};
}

matmul_impl!(matmul_float: f32, f64);
matmul_impl!(matmul_half: f16);
matmul_impl!(matmul_int: i8, i16, i32, i64, u8, u16, u32, u64);

/// The matrix product of `a` and `b` (see the [module](self)), on their
/// device.
///
/// # Errors
/// `Error::InvalidArgument` for a 0-d argument or when `a`'s last dimension
/// is not `b`'s second to last (its only one, for a 1-d `b`),
/// `Error::ShapeMismatch` when the batch dimensions do not broadcast,
/// `Error::DeviceMismatch`
/// for tensors on two devices, and what the launch reports.
pub fn launch<T: Matmul>(a: &TensorT<T>, b: &TensorT<T>) -> Result<TensorT<T>> {
    if a.device() != b.device() {
        return Err(Error::DeviceMismatch {
            left: a.device().to_string(),
            right: b.device().to_string(),
        });
    }
    let p = Plan::new(a.shape(), b.shape())?;
    if p.depth == 0 {
        // each output a sum of nothing
        return TensorT::<T>::zeros(a.device(), &p.out);
    }
    // every element is written below: no fill first
    let out = silt::__private::output_for_overwrite::<T>(a.device(), &p.out)?;
    if out.is_empty() {
        return Ok(out);
    }
    // both operands as batches of matrices, the batches broadcast
    let a = as_matrices(a.as_tensor(), &p.a3())?.broadcast_to(p.full(p.m, p.depth))?;
    let b = as_matrices(b.as_tensor(), &p.b3())?.broadcast_to(p.full(p.depth, p.n))?;
    let c = out.as_tensor().reshape(p.full(p.m, p.n))?;
    for (a, b, mut c) in batches::<T>(&a, &b, &c)? {
        if c.device().is_host() {
            T::host_matmul(&a, &b, &mut c)?;
        } else {
            // the matrices along the grid's third dimension and blocks of
            // rows along its second, in launches of at most
            // `Grid::MAX_GROUPS_YZ` work-groups along each (a work-group:
            // one matrix, `GROUP_ROWS` blocks of rows)
            let (count, rows) = (
                c.shape()[0],
                Grid::MAX_GROUPS_YZ * device::GROUP_ROWS * device::ITEM[0],
            );
            for start in (0..count).step_by(Grid::MAX_GROUPS_YZ) {
                let len = Grid::MAX_GROUPS_YZ.min(count - start);
                for top in (0..p.m).step_by(rows) {
                    let m = rows.min(p.m - top);
                    let a = a.narrow(0, start, len)?.narrow(1, top, m)?;
                    let b = b.narrow(0, start, len)?;
                    let mut c = c.narrow(0, start, len)?.narrow(1, top, m)?;
                    let grid = Grid::over([
                        p.n.div_ceil(device::ITEM[1]),
                        m.div_ceil(device::ITEM[0]),
                        len,
                    ]);
                    T::__grid(grid, &a, &b, &mut c)?;
                }
            }
        }
    }
    Ok(out)
}

/// [`launch`] on untyped tensors.
///
/// # Errors
/// `Error::DTypeMismatch` when `a` and `b` differ in dtype,
/// `Error::UnsupportedDType` outside [`TYPES`], and what [`launch`] reports.
pub fn dispatch(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    if a.dtype() != b.dtype() {
        return Err(Error::DTypeMismatch {
            expected: a.dtype(),
            got: b.dtype(),
        });
    }
    fn go<T: Matmul>(a: &Tensor, b: &Tensor) -> Result<Tensor> {
        launch::<T>(&a.typed()?, &b.typed()?).map(Tensor::from)
    }
    match a.dtype() {
        DType::F16 => go::<f16>(a, b),
        DType::F32 => go::<f32>(a, b),
        DType::F64 => go::<f64>(a, b),
        DType::I8 => go::<i8>(a, b),
        DType::I16 => go::<i16>(a, b),
        DType::I32 => go::<i32>(a, b),
        DType::I64 => go::<i64>(a, b),
        DType::U8 => go::<u8>(a, b),
        DType::U16 => go::<u16>(a, b),
        DType::U32 => go::<u32>(a, b),
        DType::U64 => go::<u64>(a, b),
        dtype => Err(Error::UnsupportedDType {
            kernel: NAME,
            dtype,
            supported: TYPES,
        }),
    }
}

/// The OpenCL C of the grid kernel for `dtype`.
pub fn source(dtype: DType) -> Option<&'static str> {
    match dtype {
        DType::F32 | DType::F64 => device::matmul_float::source(dtype),
        DType::F16 => device::matmul_half::source(dtype),
        _ if TYPES.contains(&dtype) => device::matmul_int::source(dtype),
        _ => None,
    }
}

/// The launch information of every instantiation.
#[doc(hidden)]
pub fn __infos() -> &'static [&'static silt::__private::KernelInfo] {
    static INFOS: std::sync::OnceLock<Vec<&'static silt::__private::KernelInfo>> =
        std::sync::OnceLock::new();
    INFOS.get_or_init(|| {
        let mut v = device::matmul_float::__infos().to_vec();
        v.extend(device::matmul_half::__infos());
        v.extend(device::matmul_int::__infos());
        v
    })
}

/// The shapes of one `matmul`: the operands' matrices, the broadcast batch
/// and the result.
struct Plan {
    /// The batch dimensions, broadcast.
    batch: Vec<usize>,
    /// The operands' own batch dimensions.
    a_batch: Vec<usize>,
    b_batch: Vec<usize>,
    m: usize,
    n: usize,
    depth: usize,
    /// The result's shape (without the dimensions of 1-d operands).
    out: Vec<usize>,
}

impl Plan {
    fn new(a: &[usize], b: &[usize]) -> Result<Plan> {
        if a.is_empty() || b.is_empty() {
            return Err(Error::InvalidArgument {
                op: NAME,
                reason: format!(
                    "both arguments need at least one dimension (shapes {a:?} and {b:?})"
                ),
            });
        }
        let mismatch = || Error::ShapeMismatch {
            op: NAME,
            left: a.to_vec(),
            right: b.to_vec(),
        };
        let (a_batch, m, ka) = match a {
            [k] => (&[][..], 1, *k),
            [batch @ .., m, k] => (batch, *m, *k),
            [] => unreachable!("checked above"),
        };
        let (b_batch, kb, n) = match b {
            [k] => (&[][..], *k, 1),
            [batch @ .., k, n] => (batch, *k, *n),
            [] => unreachable!("checked above"),
        };
        if ka != kb {
            // the shapes alone ([2, 3] and [2, 3]) do not say which dimensions differ
            return Err(Error::InvalidArgument {
                op: NAME,
                reason: format!(
                    "the inner dimensions differ: {a:?} has {ka} columns and {b:?} has {kb} rows"
                ),
            });
        }
        let rank = a_batch.len().max(b_batch.len());
        let dim = |s: &[usize], d: usize| (d + s.len()).checked_sub(rank).map_or(1, |i| s[i]);
        let mut batch = Vec::with_capacity(rank);
        for d in 0..rank {
            let (x, y) = (dim(a_batch, d), dim(b_batch, d));
            batch.push(match (x, y) {
                _ if x == y => x,
                (1, y) => y,
                (x, 1) => x,
                _ => return Err(mismatch()),
            });
        }
        let mut out = batch.clone();
        if a.len() > 1 {
            out.push(m);
        }
        if b.len() > 1 {
            out.push(n);
        }
        Ok(Plan {
            batch,
            a_batch: a_batch.to_vec(),
            b_batch: b_batch.to_vec(),
            m,
            n,
            depth: ka,
            out,
        })
    }

    /// `a` as a batch of `[m, k]` matrices (its own batch dimensions).
    fn a3(&self) -> Vec<usize> {
        [&self.a_batch[..], &[self.m, self.depth]].concat()
    }

    /// `b` as a batch of `[k, n]` matrices.
    fn b3(&self) -> Vec<usize> {
        [&self.b_batch[..], &[self.depth, self.n]].concat()
    }

    /// The broadcast batch dimensions, then `rows` and `cols`.
    fn full(&self, rows: usize, cols: usize) -> Vec<usize> {
        [&self.batch[..], &[rows, cols]].concat()
    }
}

/// `t` (`[.., rows, cols]`) with its batch dimensions from `from` on folded
/// into one: the folded size and stride, or `None`.
fn fold(t: &Tensor, from: usize) -> Option<(usize, usize)> {
    fold_range(t, from..t.ndim() - 2)
}

/// Views of `a`, `b` and `c` (batches of matrices of one batch shape) as
/// 3-d views `[batch, rows, cols]`: the batch dimensions that fold into one
/// stride in all three together, each one before them taken one index at a
/// time.
#[allow(clippy::type_complexity)]
fn batches<T: Element>(
    a: &Tensor,
    b: &Tensor,
    c: &Tensor,
) -> Result<Vec<(TensorT<T>, TensorT<T>, TensorT<T>)>> {
    let rank = c.ndim() - 2;
    let mut split = rank;
    while split > 0 && [a, b, c].iter().all(|t| fold(t, split - 1).is_some()) {
        split -= 1;
    }
    let outer: usize = c.shape()[..split].iter().product();
    let mut out = Vec::with_capacity(outer);
    for index in 0..outer {
        let mut views = [a.clone(), b.clone(), c.clone()];
        let mut rest = index;
        for d in (0..split).rev() {
            let size = c.shape()[d];
            for v in &mut views {
                *v = v.narrow(d, rest % size, 1)?;
            }
            rest /= size;
        }
        let [a, b, c] = views.map(|v| fold3(&v, split));
        out.push((a?, b?, c?));
    }
    Ok(out)
}

/// `t` (`[.., rows, cols]`, its dimensions before `from` of size 1) as the
/// 3-d view `[batch, rows, cols]` of its dimensions from `from` on.
fn fold3<T: Element>(t: &Tensor, from: usize) -> Result<TensorT<T>> {
    let (sh, st) = (t.shape(), t.strides());
    let r = sh.len();
    let (batch, stride) = fold(t, from).ok_or(Error::Internal {
        what: "matmul: a batch that does not fold",
    })?;
    t.as_strided(
        [batch, sh[r - 2], sh[r - 1]],
        [stride, st[r - 2], st[r - 1]],
        t.offset(),
    )?
    .typed()
}

/// `t` viewed as `shape` (`t`'s own dimensions, a 1-d `t` as a row or a
/// column: the added dimension of size 1), in place.
fn as_matrices(t: &Tensor, shape: &[usize]) -> Result<Tensor> {
    if t.ndim() > 1 {
        return Ok(t.clone());
    }
    let s = t.strides()[0];
    t.as_strided(shape, [s, s], t.offset())
}
