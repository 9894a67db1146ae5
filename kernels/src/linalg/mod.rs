//! The LU factorisation with partial pivoting and its solves, as LAPACK's
//! `getrf` and `getrs` (PyTorch's `torch.linalg.lu_factor` and
//! `lu_solve`), and the other factorisations, on grid kernels: a matrix
//! per work-item on CPU devices, per work-group on GPUs for `lu_factor`,
//! `eigh` and `svd`, the same steps as plain Rust on the host, every
//! matrix of a batch at once, one launch. `f32` and `f64`. The public
//! documentation is [`lu_factor`](crate::lu_factor)'s.

pub(crate) mod device;
mod host;

use silt::{DType, Error, Grid, Result, Tensor, TensorT};

pub use host::FactorFloat;

const FLOATS: &[DType] = &[DType::F32, DType::F64];

/// How the matrices are shared out, as suits the device (or the kind
/// `silt::testing::reduce_as` names).
#[derive(Clone, Copy)]
enum Form {
    Groups,
    Items,
    Host,
}

fn form(t: &Tensor) -> Form {
    match silt::__private::mapping_kind(t.device()) {
        silt::DeviceKind::Gpu | silt::DeviceKind::Accelerator => Form::Groups,
        silt::DeviceKind::Host => Form::Host,
        _ => Form::Items,
    }
}

fn supported(op: &'static str, dtype: DType) -> Result<()> {
    if FLOATS.contains(&dtype) {
        Ok(())
    } else {
        Err(Error::UnsupportedDType {
            kernel: op,
            dtype,
            supported: FLOATS,
        })
    }
}

fn invalid(op: &'static str, reason: String) -> Error {
    Error::InvalidArgument { op, reason }
}

/// `t` (not aliased by anything else afterwards) as a new contiguous
/// tensor of its shape.
fn fresh(t: &Tensor) -> Result<Tensor> {
    if t.is_contiguous() {
        t.deep_copy()
    } else {
        t.contiguous()
    }
}

/// `a`'s batch dimensions and matrices' rows and columns: `Err` for fewer
/// than 2 dimensions.
fn matrices<'a>(op: &'static str, a: &'a Tensor) -> Result<(&'a [usize], usize, usize)> {
    match a.shape() {
        [batch @ .., m, n] => Ok((batch, *m, *n)),
        _ => Err(invalid(
            op,
            format!(
                "the input must have at least 2 dimensions, not {}",
                a.ndim()
            ),
        )),
    }
}

/// The grid of the work-item kernels for `count` matrices (or columns).
/// The OpenCL C of an operation's two forms for `dtype` (the work-item
/// form's, then the work-group form's), made once into `cache`.
fn both_sources(
    cache: &'static std::sync::OnceLock<Vec<(DType, String)>>,
    dtype: DType,
    items: fn(DType) -> Option<&'static str>,
    groups: fn(DType) -> Option<&'static str>,
) -> Option<&'static str> {
    let all = cache.get_or_init(|| {
        FLOATS
            .iter()
            .filter_map(|&d| Some((d, format!("{}\n{}", items(d)?, groups(d)?))))
            .collect()
    });
    all.iter()
        .find(|(d, _)| *d == dtype)
        .map(|(_, s)| s.as_str())
}

/// The checks of a solve's operands (`factor` `[..., n, n]`, `pivots`
/// `i32` `[..., n]`, `b` `[..., n, k]` of the factor's dtype, all on one
/// device, the batches broadcast): `(batch, n, x)`, `x` a new contiguous
/// copy of `b` broadcast to the batch (`[..., n, k]`), to solve in place.
fn solve_operands(
    name: &'static str,
    what: &str,
    factor: &Tensor,
    pivots: &Tensor,
    b: &Tensor,
) -> Result<(Vec<usize>, usize, Tensor)> {
    for t in [pivots, b] {
        if t.device() != factor.device() {
            return Err(Error::DeviceMismatch {
                left: factor.device().to_string(),
                right: t.device().to_string(),
            });
        }
    }
    if pivots.dtype() != DType::I32 {
        return Err(Error::DTypeMismatch {
            expected: DType::I32,
            got: pivots.dtype(),
        });
    }
    if b.dtype() != factor.dtype() {
        return Err(Error::DTypeMismatch {
            expected: factor.dtype(),
            got: b.dtype(),
        });
    }
    let [fbatch @ .., m, n] = factor.shape() else {
        return Err(invalid(
            name,
            format!(
                "{what} must have at least 2 dimensions, not {}",
                factor.ndim()
            ),
        ));
    };
    let n = *n;
    if *m != n {
        return Err(invalid(
            name,
            format!("{what} must be square matrices, not {m} by {n}"),
        ));
    }
    if pivots.shape() != &factor.shape()[..factor.ndim() - 1] {
        return Err(invalid(
            name,
            format!(
                "pivots of shape {:?} do not fit {what} of shape {:?}",
                pivots.shape(),
                factor.shape()
            ),
        ));
    }
    let [bbatch @ .., rows, cols] = b.shape() else {
        return Err(invalid(
            name,
            format!("B must have at least 2 dimensions, not {}", b.ndim()),
        ));
    };
    if *rows != n {
        return Err(invalid(
            name,
            format!("B has {rows} rows, {what}'s matrices {n}"),
        ));
    }
    let batch = broadcast(fbatch, bbatch).ok_or_else(|| Error::Broadcast {
        from: b.shape().to_vec(),
        to: factor.shape().to_vec(),
    })?;
    let xshape: Vec<usize> = batch.iter().copied().chain([n, *cols]).collect();
    let x = fresh(&b.broadcast_to(&xshape)?)?;
    Ok((batch, n, x))
}

/// `t` broadcast to `batch` followed by `tail`, contiguous, its batch
/// flattened: `[count, ...tail]`.
fn batched(t: &Tensor, batch: &[usize], tail: &[usize]) -> Result<Tensor> {
    let shape: Vec<usize> = batch.iter().chain(tail).copied().collect();
    let t = t.broadcast_to(&shape)?;
    let t = if t.is_contiguous() {
        t
    } else {
        t.contiguous()?
    };
    let count = batch.iter().product::<usize>();
    let flat: Vec<usize> = [count].iter().chain(tail).copied().collect();
    t.reshape(flat)
}

fn items(count: usize) -> Grid {
    Grid::over([count.div_ceil(device::ITEMS) * device::ITEMS])
}

/// NumPy's broadcast of two batch shapes, or `None`.
fn broadcast(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let r = a.len().max(b.len());
    let dim = |s: &[usize], d: usize| {
        if d + s.len() < r {
            1
        } else {
            s[d + s.len() - r]
        }
    };
    (0..r)
        .map(|d| match (dim(a, d), dim(b, d)) {
            (x, y) if x == y || y == 1 => Some(x),
            (1, y) => Some(y),
            _ => None,
        })
        .collect()
}

/// The LU factorisation with partial pivoting of a batch of matrices, as
/// PyTorch's `torch.linalg.lu_factor` (LAPACK's `getrf`), and the solves
/// from it ([`lu_solve`](crate::lu_solve)), on grid kernels: a matrix per
/// work-item on CPU devices, per work-group on GPUs, the same steps as
/// plain Rust on the host, every matrix of a batch at once, one launch.
/// `f32` and `f64`.
///
/// - `lu_factor`: `(LU, pivots)` of `[..., m, n]`
///   matrices: `L` (unit diagonal, not stored) below `LU`'s diagonal, `U`
///   on and above it, `pivots` `i32` `[..., min(m, n)]` 1-based (row `k`
///   was swapped with row `pivots[k] - 1` at step `k`). The pivot of a
///   column is the first largest `|value|` at or below the diagonal (NaN
///   the largest); a zero pivot leaves its column as it is (as LAPACK's,
///   which reports it: `U[k, k] == 0`).
/// - [`lu_solve`](crate::lu_solve): `X` with `A X = B` (`A^T X = B` with
///   `adjoint`) from `A`'s `(LU, pivots)`, the batches of `LU` and `B`
///   broadcast; a zero on `U`'s diagonal gives infinities or NaN, as
///   LAPACK's.
///
/// Each element is computed by the same operations in the same order on
/// every device and on the host (`l = a / pivot`, `a - l * u` in the
/// factorisation; sums over increasing columns in the solves, the
/// division by `U`'s diagonal last), so the bits agree everywhere.
///
/// ```
/// use silt::prelude::*;
/// use silt_kernels as k;
///
/// let dev = Device::default()?;
/// let a = TensorT::from_slice(&dev, &[1.0f64, 2.0, 3.0, 4.0], [2, 2])?;
/// let (lu, pivots) = k::lu_factor::launch(&a)?;
/// assert_eq!(pivots.to_vec()?, [2, 2]); // row 0 swapped with row 1, then none
/// assert_eq!(lu.to_vec()?[0], 3.0);
/// let b = TensorT::from_slice(&dev, &[5.0f64, 11.0], [2, 1])?;
/// let x = k::lu_solve::launch(&lu, &pivots, &b, false)?.to_vec()?;
/// assert!((x[0] - 1.0).abs() < 1e-12 && (x[1] - 2.0).abs() < 1e-12);
/// # Ok::<(), silt::Error>(())
/// ```
pub mod lu_factor {
    use super::*;

    /// The operation's name.
    pub const NAME: &str = "lu_factor";
    /// The element types it takes.
    pub const TYPES: &[DType] = FLOATS;

    /// `lu_factor(a)` on typed tensors: `(LU, pivots)`.
    ///
    /// # Errors
    /// As [`dispatch`].
    pub fn launch<T: FactorFloat>(a: &TensorT<T>) -> Result<(TensorT<T>, TensorT<i32>)> {
        let (lu, piv) = dispatch(a.as_tensor())?;
        Ok((lu.typed()?, piv.typed()?))
    }

    /// `lu_factor(a)` on untyped tensors: `(LU, pivots)`, `LU` of `a`'s
    /// shape and dtype (contiguous), `pivots` `i32` of its batch and
    /// `min(m, n)`. A singular matrix factors without error (a zero on
    /// `U`'s diagonal).
    ///
    /// # Errors
    /// `Error::UnsupportedDType` for a dtype other than `f32` and `f64`,
    /// `Error::InvalidArgument` for fewer than 2 dimensions or a matrix of
    /// more than `i32::MAX` rows, and what the launch reports.
    pub fn dispatch(a: &Tensor) -> Result<(Tensor, Tensor)> {
        supported(NAME, a.dtype())?;
        let (batch, m, n) = matrices(NAME, a)?;
        if i32::try_from(m).is_err() {
            return Err(invalid(
                NAME,
                format!("{m} rows: at most {} are taken", i32::MAX),
            ));
        }
        let k = m.min(n);
        let pshape: Vec<usize> = batch.iter().copied().chain([k]).collect();
        let piv = silt::__private::untyped_output_for_overwrite(a.device(), DType::I32, &pshape)?;
        if a.is_empty() {
            return Ok((a.deep_copy()?, piv));
        }
        // not empty, so the batch's product fits
        let count = batch.iter().product::<usize>();
        let lu = fresh(a)?;
        let mut lv = lu.reshape([count, m, n])?;
        let mut pv = piv.reshape([count, k])?;
        if k == 0 {
            return Ok((lu, piv));
        }
        // SAFETY: a work-item (or work-group) reads and writes only its own
        // matrix (`b` below the batch's count), at rows and columns below
        // `m` and `n` and pivots below `k = min(m, n)`; the group form's
        // arrays are indexed below 64 (its work-items and a tree over halves)
        unsafe {
            match form(a) {
                Form::Groups => device::lu_factor_groups::dispatch(
                    Grid::over([count * device::GROUP]),
                    &mut lv,
                    &mut pv,
                )?,
                Form::Items => device::lu_factor_items::dispatch(items(count), &mut lv, &mut pv)?,
                Form::Host => match a.dtype() {
                    DType::F32 => host::lu_factor(&mut lv.typed::<f32>()?, &mut pv.typed()?)?,
                    _ => host::lu_factor(&mut lv.typed::<f64>()?, &mut pv.typed()?)?,
                },
            }
        }
        Ok((lu, piv))
    }

    /// The OpenCL C of the grid kernels for `dtype`: the work-item form's,
    /// then the work-group form's.
    pub fn source(dtype: DType) -> Option<&'static str> {
        static SOURCES: std::sync::OnceLock<Vec<(DType, String)>> = std::sync::OnceLock::new();
        both_sources(
            &SOURCES,
            dtype,
            device::lu_factor_items::source,
            device::lu_factor_groups::source,
        )
    }

    /// The launch information of every instantiation.
    #[doc(hidden)]
    pub fn __infos() -> &'static [&'static silt::__private::KernelInfo] {
        static INFOS: std::sync::OnceLock<Vec<&'static silt::__private::KernelInfo>> =
            std::sync::OnceLock::new();
        INFOS.get_or_init(|| {
            [
                device::lu_factor_items::__infos(),
                device::lu_factor_groups::__infos(),
            ]
            .concat()
        })
    }
}

/// The solution of `A X = B` from the LU factorisation of `A` (see
/// [`lu_factor`](crate::lu_factor)), as PyTorch's `torch.linalg.lu_solve`
/// (LAPACK's `getrs`).
pub mod lu_solve {
    use super::*;

    /// The operation's name.
    pub const NAME: &str = "lu_solve";
    /// The element types it takes.
    pub const TYPES: &[DType] = FLOATS;

    /// `lu_solve(lu, pivots, b, adjoint)` on typed tensors.
    ///
    /// # Errors
    /// As [`dispatch`].
    pub fn launch<T: FactorFloat>(
        lu: &TensorT<T>,
        pivots: &TensorT<i32>,
        b: &TensorT<T>,
        adjoint: bool,
    ) -> Result<TensorT<T>> {
        dispatch(lu.as_tensor(), pivots.as_tensor(), b.as_tensor(), adjoint)?.typed()
    }

    /// `lu_solve(lu, pivots, b, adjoint)` on untyped tensors: `X` with `A X
    /// = B` (`A^T X = B` where `adjoint`), `A = P L U` given by
    /// [`lu_factor`](crate::lu_factor)'s `(lu, pivots)` (`[..., n, n]` and
    /// `i32` `[..., n]`), `b` `[..., n, k]` of `lu`'s dtype, the batches
    /// broadcast; `X` is new and contiguous, of the broadcast batch.
    ///
    /// # Errors
    /// `Error::UnsupportedDType` for a dtype other than `f32` and `f64`,
    /// `Error::DTypeMismatch` for `pivots` other than `i32` or `b` of another
    /// dtype than `lu`, `Error::InvalidArgument` for shapes that do not fit
    /// (a non-square `lu`, `pivots` not of its batch and size, `b` not of
    /// `n` rows) or a pivot outside `1..=n`, `Error::Broadcast` for batches
    /// that do not broadcast, `Error::DeviceMismatch`, and what the launch
    /// reports.
    pub fn dispatch(lu: &Tensor, pivots: &Tensor, b: &Tensor, adjoint: bool) -> Result<Tensor> {
        supported(NAME, lu.dtype())?;
        let (batch, n, x) = solve_operands(NAME, "LU", lu, pivots, b)?;
        let cols = x.shape()[x.ndim() - 1];
        if x.is_empty() {
            return Ok(x);
        }
        if !pivots.is_empty() {
            let (lo, hi) = crate::counting::extremes(pivots)?;
            #[allow(clippy::cast_precision_loss)]
            if !(lo >= 1.0 && hi <= n as f64) {
                return Err(invalid(
                    NAME,
                    format!("the pivots must lie in 1..={n}, not {lo}..={hi} (the result of lu_factor?)"),
                ));
            }
        }
        let count = batch.iter().product::<usize>();
        let lv = batched(lu, &batch, &[n, n])?;
        let pv = batched(pivots, &batch, &[n])?;
        let mut xv = x.reshape([count, n, cols])?;
        // SAFETY: a work-item reads the matrix and pivots of its batch
        // element and writes only its own column of `x` (below the batch's
        // count times `cols`), at rows below `n`; the pivots were checked to
        // lie in `1..=n` above
        unsafe {
            match form(lu) {
                Form::Host => match lu.dtype() {
                    DType::F32 => host::lu_solve(
                        &lv.typed::<f32>()?,
                        &pv.typed()?,
                        &mut xv.typed()?,
                        adjoint,
                    )?,
                    _ => host::lu_solve(
                        &lv.typed::<f64>()?,
                        &pv.typed()?,
                        &mut xv.typed()?,
                        adjoint,
                    )?,
                },
                _ => device::lu_solve_items::dispatch(
                    Grid::over([(count * cols).div_ceil(device::ITEMS) * device::ITEMS]),
                    &lv,
                    &pv,
                    &mut xv,
                    u32::from(adjoint),
                )?,
            }
        }
        Ok(x)
    }

    /// The OpenCL C of the grid kernel for `dtype`.
    pub fn source(dtype: DType) -> Option<&'static str> {
        device::lu_solve_items::source(dtype)
    }

    /// The launch information of every instantiation.
    #[doc(hidden)]
    pub fn __infos() -> &'static [&'static silt::__private::KernelInfo] {
        device::lu_solve_items::__infos()
    }
}

/// The eigenvalues and eigenvectors of symmetric matrices by Jacobi's
/// method, as PyTorch's `torch.linalg.eigh` (its lower triangle read).
///
/// Each matrix is diagonalised by sweeps of plane rotations in the
/// round-robin order (every pair of rows and columns once a sweep, the
/// `n / 2` disjoint pairs of a round rotated together: their rows, then
/// their columns and the eigenvectors'), Rutishauser's rotations; the sweeps
/// stop when the largest element off the diagonal is at most `max(n, 2)`
/// times the dtype's epsilon times the largest on it (or after 30). The
/// eigenvalues come out ascending (NaN last), the eigenvectors in the
/// columns, each of unit length (any sign). Jacobi's method is accurate to
/// a few epsilons of the largest eigenvalue; the steps and their order are
/// the same on every device and the host (plain Rust there), so the bits
/// agree everywhere. A matrix a work-item on CPU devices, a work-group of
/// 64 on GPUs (a round's rotations, rows and columns shared out), one
/// launch.
///
/// ```
/// use silt::prelude::*;
/// use silt_kernels as k;
///
/// let dev = Device::default()?;
/// let a = TensorT::from_slice(&dev, &[2.0f64, 1.0, 1.0, 2.0], [2, 2])?;
/// let (w, v) = k::eigh::launch(&a)?;
/// let w = w.to_vec()?;
/// assert!((w[0] - 1.0).abs() < 1e-15 && (w[1] - 3.0).abs() < 1e-15);
/// let v = v.to_vec()?; // [1, -1] / sqrt(2) and [1, 1] / sqrt(2), up to their signs
/// assert!((v[0].abs() - 0.5f64.sqrt()).abs() < 1e-15);
/// # Ok::<(), silt::Error>(())
/// ```
pub mod eigh {
    use super::*;

    /// The operation's name.
    pub const NAME: &str = "eigh";
    /// The element types it takes.
    pub const TYPES: &[DType] = FLOATS;
    /// The most sweeps a matrix takes.
    pub const SWEEPS: u32 = 30;

    /// `eigh(a)` on typed tensors: `(eigenvalues, eigenvectors)`.
    ///
    /// # Errors
    /// As [`dispatch`].
    pub fn launch<T: FactorFloat>(a: &TensorT<T>) -> Result<(TensorT<T>, TensorT<T>)> {
        let (w, v) = dispatch(a.as_tensor())?;
        Ok((w.typed()?, v.typed()?))
    }

    /// `eigh(a)` on untyped tensors: the eigenvalues (`[..., n]`,
    /// ascending) and eigenvectors (`[..., n, n]`, in the columns) of the
    /// symmetric matrices `a` (`[..., n, n]`, only the lower triangle read).
    ///
    /// # Errors
    /// `Error::UnsupportedDType` for a dtype other than `f32` and `f64`,
    /// `Error::InvalidArgument` for fewer than 2 dimensions or matrices that
    /// are not square, and what the launch reports.
    pub fn dispatch(a: &Tensor) -> Result<(Tensor, Tensor)> {
        supported(NAME, a.dtype())?;
        let (batch, m, n) = matrices(NAME, a)?;
        if m != n {
            return Err(invalid(
                NAME,
                format!("the matrices must be square, not {m} by {n}"),
            ));
        }
        let wshape: Vec<usize> = batch.iter().copied().chain([n]).collect();
        let dev = a.device();
        let w = silt::__private::untyped_output_for_overwrite(dev, a.dtype(), &wshape)?;
        let v = silt::__private::untyped_output_for_overwrite(dev, a.dtype(), a.shape())?;
        if a.is_empty() {
            return Ok((w, v));
        }
        // not empty, so the batch's product fits
        let count = batch.iter().product::<usize>();
        let work = fresh(a)?;
        let mut av = work.reshape([count, n, n])?;
        let mut vv = v.reshape([count, n, n])?;
        let mut wv = w.reshape([count, n])?;
        let half = n.div_ceil(2);
        let mut rot =
            silt::__private::untyped_output_for_overwrite(dev, a.dtype(), &[count, half, 2])?;
        #[allow(clippy::cast_precision_loss)]
        let tol = n.max(2) as f64
            * if a.dtype() == DType::F32 {
                f64::from(f32::EPSILON)
            } else {
                f64::EPSILON
            };
        if let Form::Host = form(a) {
            #[allow(clippy::cast_possible_truncation)]
            return match a.dtype() {
                DType::F32 => host::eigh(
                    &mut av.typed::<f32>()?,
                    &mut vv.typed()?,
                    &mut wv.typed()?,
                    tol as f32,
                    SWEEPS,
                ),
                _ => host::eigh(
                    &mut av.typed::<f64>()?,
                    &mut vv.typed()?,
                    &mut wv.typed()?,
                    tol,
                    SWEEPS,
                ),
            }
            .map(|()| (w, v));
        }
        let groups = matches!(form(a), Form::Groups);
        let grid = if groups {
            Grid::over([count * device::GROUP])
        } else {
            items(count)
        };
        // SAFETY: a work-item (or work-group) reads and writes only its own
        // matrix, vectors, values and rotations (`b` below the batch's
        // count), at places below `n` (the pairs' places, below the padded
        // `n`, are tested against `n`) and pairs below `half`; the group
        // form's arrays are indexed below 64
        unsafe {
            match (a.dtype(), groups) {
                #[allow(clippy::cast_possible_truncation)]
                (DType::F32, false) => device::eigh_items::dispatch(
                    grid, &mut av, &mut vv, &mut wv, &mut rot, tol as f32, SWEEPS,
                )?,
                (_, false) => device::eigh_items::dispatch(
                    grid, &mut av, &mut vv, &mut wv, &mut rot, tol, SWEEPS,
                )?,
                #[allow(clippy::cast_possible_truncation)]
                (DType::F32, true) => device::eigh_groups::dispatch(
                    grid, &mut av, &mut vv, &mut wv, &mut rot, tol as f32, SWEEPS,
                )?,
                (_, true) => device::eigh_groups::dispatch(
                    grid, &mut av, &mut vv, &mut wv, &mut rot, tol, SWEEPS,
                )?,
            }
        }
        Ok((w, v))
    }

    /// The OpenCL C of the grid kernels for `dtype`: the work-item form's,
    /// then the work-group form's.
    pub fn source(dtype: DType) -> Option<&'static str> {
        static SOURCES: std::sync::OnceLock<Vec<(DType, String)>> = std::sync::OnceLock::new();
        both_sources(
            &SOURCES,
            dtype,
            device::eigh_items::source,
            device::eigh_groups::source,
        )
    }

    /// The launch information of every instantiation.
    #[doc(hidden)]
    pub fn __infos() -> &'static [&'static silt::__private::KernelInfo] {
        static INFOS: std::sync::OnceLock<Vec<&'static silt::__private::KernelInfo>> =
            std::sync::OnceLock::new();
        INFOS.get_or_init(|| {
            [
                device::eigh_items::__infos(),
                device::eigh_groups::__infos(),
            ]
            .concat()
        })
    }
}

/// The singular value decomposition by Hestenes' one-sided Jacobi method,
/// as PyTorch's `torch.linalg.svd(a, full_matrices=False)`: `(U, S, Vh)`
/// with `a = U diag(S) Vh`.
///
/// Each matrix (its transpose where it is wide) is divided by its largest
/// `|value|`, then its columns are made orthogonal by sweeps of plane
/// rotations in the round-robin order (a pair's rotation where the cosine
/// of their angle is above `sqrt(max(m, n))` times the dtype's epsilon, as
/// LAPACK's `xGESVJ`; a sweep
/// without one ends them, or 30), the right singular vectors accumulated
/// alike. The singular values are the columns' norms (times the scale),
/// descending (NaN first); `U`'s columns are the columns normalised, and
/// where a singular value is at most that tolerance times the largest
/// (rank deficiency), unit vectors orthogonal to the others (Gram-Schmidt
/// twice on `e_0, e_1, ...`), so that `U` has orthonormal columns. Jacobi's
/// method is accurate to a few epsilons of the largest singular value; the
/// steps and their order are the same on every device and the host (plain
/// Rust there), so the bits agree everywhere. A matrix a work-item on CPU
/// devices, a work-group of 64 on GPUs (a round's pairs shared out, each
/// pair's sums and rotation a work-item's), one launch.
///
/// ```
/// use silt::prelude::*;
/// use silt_kernels as k;
///
/// let dev = Device::default()?;
/// let a = TensorT::from_slice(&dev, &[3.0f64, 0.0, 0.0, -2.0, 0.0, 0.0], [3, 2])?;
/// let (u, s, vh) = k::svd::launch(&a)?;
/// assert_eq!(s.to_vec()?, [3.0, 2.0]);
/// assert_eq!((u.shape(), vh.shape()), (&[3usize, 2][..], &[2usize, 2][..]));
/// # Ok::<(), silt::Error>(())
/// ```
pub mod svd {
    use super::*;

    /// The operation's name.
    pub const NAME: &str = "svd";
    /// The element types it takes.
    pub const TYPES: &[DType] = FLOATS;
    /// The most sweeps a matrix takes.
    pub const SWEEPS: u32 = 30;

    /// `svd(a)` on typed tensors: `(U, S, Vh)`.
    ///
    /// # Errors
    /// As [`dispatch`].
    pub fn launch<T: FactorFloat>(a: &TensorT<T>) -> Result<(TensorT<T>, TensorT<T>, TensorT<T>)> {
        let (u, s, vh) = dispatch(a.as_tensor())?;
        Ok((u.typed()?, s.typed()?, vh.typed()?))
    }

    /// `svd(a)` on untyped tensors: `(U, S, Vh)` of the matrices `a`
    /// (`[..., m, n]`), `k = min(m, n)`: `U` `[..., m, k]` (orthonormal
    /// columns), `S` `[..., k]` (descending), `Vh` `[..., k, n]`
    /// (orthonormal rows), each new and contiguous.
    ///
    /// # Errors
    /// `Error::UnsupportedDType` for a dtype other than `f32` and `f64`,
    /// `Error::InvalidArgument` for fewer than 2 dimensions, and what the
    /// launch reports.
    pub fn dispatch(a: &Tensor) -> Result<(Tensor, Tensor, Tensor)> {
        supported(NAME, a.dtype())?;
        let (batch, m, n) = matrices(NAME, a)?;
        let k = m.min(n);
        let dev = a.device();
        let shape = |tail: &[usize]| -> Vec<usize> { batch.iter().chain(tail).copied().collect() };
        let out = |tail: &[usize]| {
            silt::__private::untyped_output_for_overwrite(dev, a.dtype(), &shape(tail))
        };
        if a.is_empty() {
            return Ok((out(&[m, k])?, out(&[k])?, out(&[k, n])?));
        }
        // a tall matrix: a wide one's transpose (A^T = U' S V'^T: U = V', Vh = U'^T)
        let wide = m < n;
        let (rows, cols) = if wide { (n, m) } else { (m, n) };
        let t = if wide {
            a.transpose(a.ndim() - 2, a.ndim() - 1)?
        } else {
            a.clone()
        };
        let count = batch.iter().product::<usize>();
        let x = fresh(&t)?;
        let v = out(&[cols, cols])?;
        let s = out(&[k])?;
        let mut xv = x.reshape([count, rows, cols])?;
        let mut vv = v.reshape([count, cols, cols])?;
        let mut sv = s.reshape([count, cols])?;
        // LAPACK's xGESVJ: sqrt(m) epsilons (m epsilons stopped a tall
        // float32 matrix's sweeps with its columns still 1e-4 apart from
        // orthogonal at 70,000 rows)
        #[allow(clippy::cast_precision_loss)]
        let tol = (rows as f64).sqrt()
            * if a.dtype() == DType::F32 {
                f64::from(f32::EPSILON)
            } else {
                f64::EPSILON
            };
        if let Form::Host = form(a) {
            #[allow(clippy::cast_possible_truncation)]
            match a.dtype() {
                DType::F32 => {
                    host::svd(
                        &mut xv.typed::<f32>()?,
                        &mut vv.typed()?,
                        &mut sv.typed()?,
                        tol as f32,
                        SWEEPS,
                    )?;
                }
                _ => host::svd(
                    &mut xv.typed::<f64>()?,
                    &mut vv.typed()?,
                    &mut sv.typed()?,
                    tol,
                    SWEEPS,
                )?,
            }
        } else {
            let groups = matches!(form(a), Form::Groups);
            // SAFETY: a work-item (or work-group) reads and writes only its
            // own matrix, vectors and values (`b` below the batch's count),
            // at rows below `m` and columns below `n` (the pairs' places,
            // below the padded `n`, are tested against `n`); the group
            // form's arrays are indexed below 64
            unsafe {
                match (a.dtype(), groups) {
                    #[allow(clippy::cast_possible_truncation)]
                    (DType::F32, false) => device::svd_items::dispatch(
                        items(count),
                        &mut xv,
                        &mut vv,
                        &mut sv,
                        tol as f32,
                        SWEEPS,
                    )?,
                    (_, false) => device::svd_items::dispatch(
                        items(count),
                        &mut xv,
                        &mut vv,
                        &mut sv,
                        tol,
                        SWEEPS,
                    )?,
                    #[allow(clippy::cast_possible_truncation)]
                    (DType::F32, true) => device::svd_groups::dispatch(
                        Grid::over([count * device::GROUP]),
                        &mut xv,
                        &mut vv,
                        &mut sv,
                        tol as f32,
                        SWEEPS,
                    )?,
                    (_, true) => device::svd_groups::dispatch(
                        Grid::over([count * device::GROUP]),
                        &mut xv,
                        &mut vv,
                        &mut sv,
                        tol,
                        SWEEPS,
                    )?,
                }
            }
        }
        let r = a.ndim();
        let transposed = |t: &Tensor| -> Result<Tensor> { t.transpose(r - 2, r - 1)?.contiguous() };
        if wide {
            // U = V' ([m, m]), Vh = U'^T ([m, n])
            Ok((v, s, transposed(&x)?))
        } else {
            Ok((x, s, transposed(&v)?))
        }
    }

    /// The OpenCL C of the grid kernels for `dtype`: the work-item form's,
    /// then the work-group form's.
    pub fn source(dtype: DType) -> Option<&'static str> {
        static SOURCES: std::sync::OnceLock<Vec<(DType, String)>> = std::sync::OnceLock::new();
        both_sources(
            &SOURCES,
            dtype,
            device::svd_items::source,
            device::svd_groups::source,
        )
    }

    /// The launch information of every instantiation.
    #[doc(hidden)]
    pub fn __infos() -> &'static [&'static silt::__private::KernelInfo] {
        static INFOS: std::sync::OnceLock<Vec<&'static silt::__private::KernelInfo>> =
            std::sync::OnceLock::new();
        INFOS.get_or_init(|| [device::svd_items::__infos(), device::svd_groups::__infos()].concat())
    }
}

/// Householder QR as LAPACK's `geqrf` (PyTorch's `torch.geqrf`): `(a, tau)`
/// with `R` on and above `a`'s diagonal and the reflectors' vectors below
/// it, `Q = H_0 ... H_{k-1}`, `H_j = I - tau_j v_j v_j^T` (`v_j`'s leading
/// 1 not stored); [`householder_product`](crate::householder_product)
/// forms `Q`.
///
/// LAPACK's conventions: `R`'s diagonal is `-sign(α) |column|` (`sign(0) =
/// +`), a column already 0 below the diagonal gets `tau = 0` (and is left
/// as it is), so `R` and `Q` have LAPACK's signs, as PyTorch's and
/// NumPy's. Each column's norm is taken of the column divided by its
/// largest `|value|` (no overflow nor underflow). A matrix a work-item,
/// one launch; plain Rust on the host, the same bits.
///
/// ```
/// use silt::prelude::*;
/// use silt_kernels as k;
///
/// let dev = Device::default()?;
/// let a = TensorT::from_slice(&dev, &[0.0f64, 2.0, 4.0, 1.0], [2, 2])?;
/// let (r, tau) = k::geqrf::launch(&a)?;
/// assert_eq!(r.to_vec()?[0], -4.0); // LAPACK's sign
/// let q = k::householder_product::launch(&r, &tau)?.to_vec()?;
/// assert_eq!(q, [0.0, -1.0, -1.0, 0.0]);
/// # Ok::<(), silt::Error>(())
/// ```
pub mod geqrf {
    use super::*;

    /// The operation's name.
    pub const NAME: &str = "geqrf";
    /// The element types it takes.
    pub const TYPES: &[DType] = FLOATS;

    /// `geqrf(a)` on typed tensors: `(a, tau)`.
    ///
    /// # Errors
    /// As [`dispatch`].
    pub fn launch<T: FactorFloat>(a: &TensorT<T>) -> Result<(TensorT<T>, TensorT<T>)> {
        let (r, tau) = dispatch(a.as_tensor())?;
        Ok((r.typed()?, tau.typed()?))
    }

    /// `geqrf(a)` on untyped tensors: `(a, tau)` of the matrices `a`
    /// (`[..., m, n]`): a new contiguous `[..., m, n]` and `tau` `[...,
    /// min(m, n)]`.
    ///
    /// # Errors
    /// `Error::UnsupportedDType` for a dtype other than `f32` and `f64`,
    /// `Error::InvalidArgument` for fewer than 2 dimensions, and what the
    /// launch reports.
    pub fn dispatch(a: &Tensor) -> Result<(Tensor, Tensor)> {
        supported(NAME, a.dtype())?;
        let (batch, m, n) = matrices(NAME, a)?;
        let k = m.min(n);
        let tshape: Vec<usize> = batch.iter().copied().chain([k]).collect();
        let tau = silt::__private::untyped_output_for_overwrite(a.device(), a.dtype(), &tshape)?;
        if a.is_empty() {
            return Ok((a.deep_copy()?, tau));
        }
        let r = fresh(a)?;
        if k == 0 {
            return Ok((r, tau));
        }
        let count = batch.iter().product::<usize>();
        let mut rv = r.reshape([count, m, n])?;
        let mut tv = tau.reshape([count, k])?;
        if let Form::Host = form(a) {
            match a.dtype() {
                DType::F32 => host::geqrf(&mut rv.typed::<f32>()?, &mut tv.typed()?)?,
                _ => host::geqrf(&mut rv.typed::<f64>()?, &mut tv.typed()?)?,
            }
        } else {
            // SAFETY: a work-item reads and writes only its own matrix and
            // `tau` (`b` below the batch's count), at rows below `m`, columns
            // below `n` and reflectors below `min(m, n)`
            unsafe {
                device::geqrf_items::dispatch(items(count), &mut rv, &mut tv)?;
            }
        }
        Ok((r, tau))
    }

    /// The OpenCL C of the grid kernel for `dtype`.
    pub fn source(dtype: DType) -> Option<&'static str> {
        device::geqrf_items::source(dtype)
    }

    /// The launch information of every instantiation.
    #[doc(hidden)]
    pub fn __infos() -> &'static [&'static silt::__private::KernelInfo] {
        device::geqrf_items::__infos()
    }
}

/// The first `n` columns of `Q = H_0 ... H_{k-1}` from
/// [`geqrf`](crate::geqrf)'s reflectors, as LAPACK's `orgqr` (PyTorch's
/// `torch.linalg.householder_product`): the identity's columns with the
/// reflectors applied backward. A matrix a work-item, one launch; plain
/// Rust on the host, the same bits.
pub mod householder_product {
    use super::*;

    /// The operation's name.
    pub const NAME: &str = "householder_product";
    /// The element types it takes.
    pub const TYPES: &[DType] = FLOATS;

    /// `householder_product(a, tau)` on typed tensors.
    ///
    /// # Errors
    /// As [`dispatch`].
    pub fn launch<T: FactorFloat>(a: &TensorT<T>, tau: &TensorT<T>) -> Result<TensorT<T>> {
        dispatch(a.as_tensor(), tau.as_tensor())?.typed()
    }

    /// `householder_product(a, tau)` on untyped tensors: `Q`'s first `n`
    /// columns (`[..., m, n]`, new) of the reflectors below the diagonal
    /// of `a` (`[..., m, n]`, `m >= n`) and `tau` (`[..., k]`, `k <= n`, of
    /// `a`'s batch and dtype).
    ///
    /// # Errors
    /// `Error::UnsupportedDType` for a dtype other than `f32` and `f64`,
    /// `Error::DTypeMismatch` for `tau` of another dtype,
    /// `Error::InvalidArgument` for shapes that do not fit (fewer than 2
    /// dimensions, `m < n`, `k > n`, `tau` not of `a`'s batch),
    /// `Error::DeviceMismatch`, and what the launch reports.
    pub fn dispatch(a: &Tensor, tau: &Tensor) -> Result<Tensor> {
        supported(NAME, a.dtype())?;
        if tau.device() != a.device() {
            return Err(Error::DeviceMismatch {
                left: a.device().to_string(),
                right: tau.device().to_string(),
            });
        }
        if tau.dtype() != a.dtype() {
            return Err(Error::DTypeMismatch {
                expected: a.dtype(),
                got: tau.dtype(),
            });
        }
        let (batch, m, n) = matrices(NAME, a)?;
        let [tbatch @ .., k] = tau.shape() else {
            return Err(invalid(
                NAME,
                "tau must have at least 1 dimension".to_string(),
            ));
        };
        let k = *k;
        if m < n || k > n || tbatch != batch {
            return Err(invalid(
                NAME,
                format!(
                    "a of shape {:?} and tau of shape {:?}: a's matrices need m >= n >= k and tau a's batch",
                    a.shape(),
                    tau.shape()
                ),
            ));
        }
        let q = silt::__private::untyped_output_for_overwrite(a.device(), a.dtype(), a.shape())?;
        if q.is_empty() {
            return Ok(q);
        }
        let count = batch.iter().product::<usize>();
        let av = fresh(a)?.reshape([count, m, n])?;
        let tv = fresh(tau)?.reshape([count, k])?;
        let mut qv = q.reshape([count, m, n])?;
        if let Form::Host = form(a) {
            match a.dtype() {
                DType::F32 => {
                    host::householder_product(&av.typed::<f32>()?, &tv.typed()?, &mut qv.typed()?)?
                }
                _ => {
                    host::householder_product(&av.typed::<f64>()?, &tv.typed()?, &mut qv.typed()?)?
                }
            }
        } else {
            // SAFETY: a work-item reads its own reflectors and `tau` and
            // writes only its own `q` (`b` below the batch's count), at rows
            // below `m`, columns below `n` and reflectors below `k <= n`
            unsafe {
                device::householder_product_items::dispatch(items(count), &av, &tv, &mut qv)?;
            }
        }
        Ok(q)
    }

    /// The OpenCL C of the grid kernel for `dtype`.
    pub fn source(dtype: DType) -> Option<&'static str> {
        device::householder_product_items::source(dtype)
    }

    /// The launch information of every instantiation.
    #[doc(hidden)]
    pub fn __infos() -> &'static [&'static silt::__private::KernelInfo] {
        device::householder_product_items::__infos()
    }
}

/// The Cholesky factorisation of symmetric positive-definite matrices, as
/// PyTorch's `torch.linalg.cholesky_ex`: `(L, info)` with `A = L L^T`, `L`
/// lower triangular, `info` LAPACK's (0, or the order of the first leading
/// minor that is not positive-definite), computed on the device without an
/// error or a read-back.
///
/// Only the lower triangle of `A` is read. `L` is built column after
/// column: `d = a_jj - Σ l_jk²`, `l_jj = sqrt(d)`, `l_ij = (a_ij - Σ l_ik
/// l_jk) / l_jj`, the sums over `k < j` in order; where `d` is not above 0
/// (or NaN) `info` is set and the columns from there on are not
/// meaningful (NaN or infinities). A matrix a work-item, one launch; plain
/// Rust on the host, the same bits.
///
/// ```
/// use silt::prelude::*;
/// use silt_kernels as k;
///
/// let dev = Device::default()?;
/// let a = TensorT::from_slice(&dev, &[4.0f64, 2.0, 2.0, 5.0], [2, 2])?;
/// let (l, info) = k::cholesky_ex::launch(&a)?;
/// assert_eq!((l.to_vec()?, info.to_vec()?), (vec![2.0, 0.0, 1.0, 2.0], vec![0]));
/// # Ok::<(), silt::Error>(())
/// ```
pub mod cholesky_ex {
    use super::*;

    /// The operation's name.
    pub const NAME: &str = "cholesky_ex";
    /// The element types it takes.
    pub const TYPES: &[DType] = FLOATS;

    /// `cholesky_ex(a)` on typed tensors: `(L, info)`.
    ///
    /// # Errors
    /// As [`dispatch`].
    pub fn launch<T: FactorFloat>(a: &TensorT<T>) -> Result<(TensorT<T>, TensorT<i32>)> {
        let (l, info) = dispatch(a.as_tensor())?;
        Ok((l.typed()?, info.typed()?))
    }

    /// `cholesky_ex(a)` on untyped tensors: `L` (`[..., n, n]`, new) and
    /// `info` (`i32`, `a`'s batch dimensions).
    ///
    /// # Errors
    /// `Error::UnsupportedDType` for a dtype other than `f32` and `f64`,
    /// `Error::InvalidArgument` for fewer than 2 dimensions, matrices that
    /// are not square or of more than `i32::MAX` rows, and what the launch
    /// reports.
    pub fn dispatch(a: &Tensor) -> Result<(Tensor, Tensor)> {
        supported(NAME, a.dtype())?;
        let (batch, m, n) = matrices(NAME, a)?;
        if m != n || i32::try_from(n).is_err() {
            return Err(invalid(
                NAME,
                format!(
                    "the matrices must be square (and of at most 2^31 - 1 rows), not {m} by {n}"
                ),
            ));
        }
        let dev = a.device();
        let l = silt::__private::untyped_output_for_overwrite(dev, a.dtype(), a.shape())?;
        let info = silt::__private::untyped_output_for_overwrite(dev, DType::I32, batch)?;
        if a.is_empty() {
            return Ok((l, Tensor::zeros(dev, DType::I32, batch)?));
        }
        let count = batch.iter().product::<usize>();
        let av = fresh(a)?.reshape([count, n, n])?;
        let mut lv = l.reshape([count, n, n])?;
        let mut iv = info.reshape([count])?;
        if let Form::Host = form(a) {
            match a.dtype() {
                DType::F32 => {
                    host::cholesky(&av.typed::<f32>()?, &mut lv.typed()?, &mut iv.typed()?)?
                }
                _ => host::cholesky(&av.typed::<f64>()?, &mut lv.typed()?, &mut iv.typed()?)?,
            }
        } else {
            // SAFETY: a work-item reads its own matrix and writes only its
            // own factor and `info` (`b` below the batch's count), at rows
            // and columns below `n`
            unsafe { device::cholesky_items::dispatch(items(count), &av, &mut lv, &mut iv)? };
        }
        Ok((l, info))
    }

    /// The OpenCL C of the grid kernel for `dtype`.
    pub fn source(dtype: DType) -> Option<&'static str> {
        device::cholesky_items::source(dtype)
    }

    /// The launch information of every instantiation.
    #[doc(hidden)]
    pub fn __infos() -> &'static [&'static silt::__private::KernelInfo] {
        device::cholesky_items::__infos()
    }
}

/// The solution `X` of `A X = B` for triangular `A`, as PyTorch's
/// `torch.linalg.solve_triangular(A, B, upper=upper, unitriangular=unit)`:
/// back substitution for an upper `A` (only its upper triangle read),
/// forward for a lower one, the diagonal taken as ones where `unit`; the
/// batches of `A` and `B` broadcast. Each row's sum runs over the columns
/// in order, the division by the diagonal last; a zero on the diagonal
/// gives infinities or NaN, as LAPACK's. A column of `B` a work-item, one
/// launch; plain Rust on the host, the same bits.
///
/// ```
/// use silt::prelude::*;
/// use silt_kernels as k;
///
/// let dev = Device::default()?;
/// let a = TensorT::from_slice(&dev, &[2.0f64, 1.0, 0.0, 4.0], [2, 2])?;
/// let b = TensorT::from_slice(&dev, &[1.0f64, 1.0], [2, 1])?;
/// let x = k::solve_triangular::launch(&a, &b, true, false)?.to_vec()?;
/// assert_eq!(x, [0.375, 0.25]);
/// # Ok::<(), silt::Error>(())
/// ```
pub mod solve_triangular {
    use super::*;

    /// The operation's name.
    pub const NAME: &str = "solve_triangular";
    /// The element types it takes.
    pub const TYPES: &[DType] = FLOATS;

    /// `solve_triangular(a, b, upper, unit)` on typed tensors.
    ///
    /// # Errors
    /// As [`dispatch`].
    pub fn launch<T: FactorFloat>(
        a: &TensorT<T>,
        b: &TensorT<T>,
        upper: bool,
        unit: bool,
    ) -> Result<TensorT<T>> {
        dispatch(a.as_tensor(), b.as_tensor(), upper, unit)?.typed()
    }

    /// `solve_triangular(a, b, upper, unit)` on untyped tensors: `X`
    /// (new, contiguous, of the broadcast batch) for `a` `[..., n, n]` and
    /// `b` `[..., n, k]` of `a`'s dtype.
    ///
    /// # Errors
    /// `Error::UnsupportedDType` for a dtype other than `f32` and `f64`,
    /// `Error::DTypeMismatch` for `b` of another dtype,
    /// `Error::InvalidArgument` for shapes that do not fit,
    /// `Error::Broadcast` for batches that do not broadcast,
    /// `Error::DeviceMismatch`, and what the launch reports.
    pub fn dispatch(a: &Tensor, b: &Tensor, upper: bool, unit: bool) -> Result<Tensor> {
        supported(NAME, a.dtype())?;
        if b.device() != a.device() {
            return Err(Error::DeviceMismatch {
                left: a.device().to_string(),
                right: b.device().to_string(),
            });
        }
        if b.dtype() != a.dtype() {
            return Err(Error::DTypeMismatch {
                expected: a.dtype(),
                got: b.dtype(),
            });
        }
        let (abatch, m, n) = matrices(NAME, a)?;
        if m != n {
            return Err(invalid(
                NAME,
                format!("A must be square matrices, not {m} by {n}"),
            ));
        }
        let (bbatch, rows, cols) = matrices(NAME, b)?;
        if rows != n {
            return Err(invalid(
                NAME,
                format!("B has {rows} rows, A's matrices {n}"),
            ));
        }
        let batch = broadcast(abatch, bbatch).ok_or_else(|| Error::Broadcast {
            from: b.shape().to_vec(),
            to: a.shape().to_vec(),
        })?;
        let xshape: Vec<usize> = batch.iter().copied().chain([n, cols]).collect();
        let x = fresh(&b.broadcast_to(&xshape)?)?;
        if x.is_empty() {
            return Ok(x);
        }
        let count = batch.iter().product::<usize>();
        let ashape: Vec<usize> = batch.iter().copied().chain([n, n]).collect();
        let av = fresh(&a.broadcast_to(&ashape)?)?.reshape([count, n, n])?;
        let mut xv = x.reshape([count, n, cols])?;
        if let Form::Host = form(a) {
            match a.dtype() {
                DType::F32 => {
                    host::solve_triangular(&av.typed::<f32>()?, &mut xv.typed()?, upper, unit)?
                }
                _ => host::solve_triangular(&av.typed::<f64>()?, &mut xv.typed()?, upper, unit)?,
            }
        } else {
            // SAFETY: a work-item reads its matrix and writes only its own
            // column of `x` (below the batch's count times `cols`), at rows
            // and columns below `n`
            unsafe {
                device::solve_triangular_items::dispatch(
                    items(count * cols),
                    &av,
                    &mut xv,
                    u32::from(upper),
                    u32::from(unit),
                )?;
            }
        }
        Ok(x)
    }

    /// The OpenCL C of the grid kernel for `dtype`.
    pub fn source(dtype: DType) -> Option<&'static str> {
        device::solve_triangular_items::source(dtype)
    }

    /// The launch information of every instantiation.
    #[doc(hidden)]
    pub fn __infos() -> &'static [&'static silt::__private::KernelInfo] {
        device::solve_triangular_items::__infos()
    }
}

/// The Bunch-Kaufman factorisation of symmetric (possibly indefinite)
/// matrices, as LAPACK's `sytrf` (its unblocked `sytf2`, `uplo = 'L'`) and
/// PyTorch's `torch.linalg.ldl_factor_ex`: `(LD, pivots, info)` with `P A
/// P^T = L D L^T`, `L` unit lower triangular (below `LD`'s diagonal), `D`
/// block diagonal with blocks of 1 x 1 and 2 x 2 (on `LD`'s diagonal and
/// first subdiagonal), `LD`'s upper triangle zero.
///
/// Only the lower triangle of each matrix is read. Each column's pivot is
/// chosen as LAPACK's (`α = (1 + √17) / 8`: the diagonal where `|a_kk| >=
/// α` times the largest `|value|` below it, else the row of that largest
/// value alone or with the column as a 2 x 2 block); `pivots` (`i32`,
/// 1-based) are LAPACK's: the row swapped with, negative for both columns
/// of a 2 x 2 block. A column that is zero (or a NaN on the diagonal) is
/// left as it is, and `info` (`i32`, the batch's shape) holds the first such
/// column's place (1-based; 0 where there is none), as LAPACK's: `D` is
/// then singular. The steps and their order are the same on every device
/// and the host (plain Rust there), so the bits agree everywhere. A matrix
/// a work-item, one launch.
///
/// ```
/// use silt::prelude::*;
/// use silt_kernels as k;
///
/// let dev = Device::default()?;
/// // an indefinite matrix: a 2 x 2 pivot block
/// let a = TensorT::from_slice(&dev, &[0.0f64, 1.0, 1.0, 0.0], [2, 2])?;
/// let (ld, pivots, info) = k::ldl_factor::launch(&a)?;
/// assert_eq!(ld.to_vec()?, [0.0, 0.0, 1.0, 0.0]);
/// assert_eq!(pivots.to_vec()?, [-2, -2]);
/// assert_eq!(info.to_vec()?, [0]);
/// # Ok::<(), silt::Error>(())
/// ```
pub mod ldl_factor {
    use super::*;

    /// The operation's name.
    pub const NAME: &str = "ldl_factor";
    /// The element types it takes.
    pub const TYPES: &[DType] = FLOATS;
    /// LAPACK's `α`, `(1 + √17) / 8`: the growth bound of the pivots.
    pub const ALPHA: f64 = 0.640_388_203_202_207_6;

    /// `ldl_factor(a)` on typed tensors: `(LD, pivots, info)`.
    ///
    /// # Errors
    /// As [`dispatch`].
    #[allow(clippy::type_complexity)]
    pub fn launch<T: FactorFloat>(
        a: &TensorT<T>,
    ) -> Result<(TensorT<T>, TensorT<i32>, TensorT<i32>)> {
        let (ld, pivots, info) = dispatch(a.as_tensor())?;
        Ok((ld.typed()?, pivots.typed()?, info.typed()?))
    }

    /// `ldl_factor(a)` on untyped tensors: `LD` (`[..., n, n]`, new),
    /// `pivots` (`i32`, `[..., n]`) and `info` (`i32`, `a`'s batch
    /// dimensions).
    ///
    /// # Errors
    /// `Error::UnsupportedDType` for a dtype other than `f32` and `f64`,
    /// `Error::InvalidArgument` for fewer than 2 dimensions, matrices that
    /// are not square or of more than `i32::MAX` rows, and what the launch
    /// reports.
    pub fn dispatch(a: &Tensor) -> Result<(Tensor, Tensor, Tensor)> {
        supported(NAME, a.dtype())?;
        let (batch, m, n) = matrices(NAME, a)?;
        if m != n || i32::try_from(n).is_err() {
            return Err(invalid(
                NAME,
                format!(
                    "the matrices must be square (and of at most 2^31 - 1 rows), not {m} by {n}"
                ),
            ));
        }
        let dev = a.device();
        let pshape: Vec<usize> = batch.iter().copied().chain([n]).collect();
        let pivots = silt::__private::untyped_output_for_overwrite(dev, DType::I32, &pshape)?;
        let info = silt::__private::untyped_output_for_overwrite(dev, DType::I32, batch)?;
        if a.is_empty() {
            return Ok((
                a.deep_copy()?,
                pivots,
                Tensor::zeros(dev, DType::I32, batch)?,
            ));
        }
        let ld = fresh(a)?;
        let count = batch.iter().product::<usize>();
        let mut lv = ld.reshape([count, n, n])?;
        let mut pv = pivots.reshape([count, n])?;
        let mut iv = info.reshape([count])?;
        if let Form::Host = form(a) {
            #[allow(clippy::cast_possible_truncation)]
            match a.dtype() {
                DType::F32 => host::ldl_factor(
                    &mut lv.typed::<f32>()?,
                    &mut pv.typed()?,
                    &mut iv.typed()?,
                    ALPHA as f32,
                )?,
                _ => host::ldl_factor(
                    &mut lv.typed::<f64>()?,
                    &mut pv.typed()?,
                    &mut iv.typed()?,
                    ALPHA,
                )?,
            }
        } else {
            // SAFETY: a work-item reads and writes only its own matrix,
            // pivots and `info` (`b` below the batch's count), at rows and
            // columns below `n` (`imax` and the pivots below `n`; a 2 x 2
            // block's second column `k + 1` below `n`: it is chosen only
            // where a row below `k` exists)
            unsafe {
                match a.dtype() {
                    #[allow(clippy::cast_possible_truncation)]
                    DType::F32 => device::ldl_factor_items::dispatch(
                        items(count),
                        &mut lv,
                        &mut pv,
                        &mut iv,
                        ALPHA as f32,
                    )?,
                    _ => device::ldl_factor_items::dispatch(
                        items(count),
                        &mut lv,
                        &mut pv,
                        &mut iv,
                        ALPHA,
                    )?,
                }
            }
        }
        Ok((ld, pivots, info))
    }

    /// The OpenCL C of the grid kernel for `dtype`.
    pub fn source(dtype: DType) -> Option<&'static str> {
        device::ldl_factor_items::source(dtype)
    }

    /// The launch information of every instantiation.
    #[doc(hidden)]
    pub fn __infos() -> &'static [&'static silt::__private::KernelInfo] {
        device::ldl_factor_items::__infos()
    }
}

/// The solution of `A X = B` from the Bunch-Kaufman factorisation of `A`
/// (see [`ldl_factor`](crate::ldl_factor)), as LAPACK's `sytrs` (`uplo =
/// 'L'`) and PyTorch's `torch.linalg.ldl_solve`: `L D` forward (each
/// pivot's swap, the multiples of its column, the inverse of its 1 x 1 or
/// 2 x 2 block), then `L^T` backward (each row's sum over the rows below,
/// in order, then the swap). The batches of `LD` and `B` broadcast. The
/// pivots are checked to lie in `1..=n` in size (their extremes are read
/// back). A column of `B` a work-item, one launch; plain Rust on the host,
/// the same bits.
///
/// ```
/// use silt::prelude::*;
/// use silt_kernels as k;
///
/// let dev = Device::default()?;
/// let a = TensorT::from_slice(&dev, &[0.0f64, 1.0, 1.0, 0.0], [2, 2])?;
/// let (ld, pivots, _) = k::ldl_factor::launch(&a)?;
/// let b = TensorT::from_slice(&dev, &[2.0f64, 3.0], [2, 1])?;
/// assert_eq!(k::ldl_solve::launch(&ld, &pivots, &b)?.to_vec()?, [3.0, 2.0]);
/// # Ok::<(), silt::Error>(())
/// ```
pub mod ldl_solve {
    use super::*;

    /// The operation's name.
    pub const NAME: &str = "ldl_solve";
    /// The element types it takes.
    pub const TYPES: &[DType] = FLOATS;

    /// `ldl_solve(ld, pivots, b)` on typed tensors.
    ///
    /// # Errors
    /// As [`dispatch`].
    pub fn launch<T: FactorFloat>(
        ld: &TensorT<T>,
        pivots: &TensorT<i32>,
        b: &TensorT<T>,
    ) -> Result<TensorT<T>> {
        dispatch(ld.as_tensor(), pivots.as_tensor(), b.as_tensor())?.typed()
    }

    /// `ldl_solve(ld, pivots, b)` on untyped tensors: `X` with `A X = B`,
    /// `A` given by [`ldl_factor`](crate::ldl_factor)'s `(ld, pivots)`
    /// (`[..., n, n]` and `i32` `[..., n]`), `b` `[..., n, k]` of `ld`'s
    /// dtype, the batches broadcast; `X` is new and contiguous, of the
    /// broadcast batch.
    ///
    /// # Errors
    /// `Error::UnsupportedDType` for a dtype other than `f32` and `f64`,
    /// `Error::DTypeMismatch` for `pivots` other than `i32` or `b` of another
    /// dtype than `ld`, `Error::InvalidArgument` for shapes that do not fit
    /// or a pivot outside `1..=n` in size, `Error::Broadcast` for batches
    /// that do not broadcast, `Error::DeviceMismatch`, and what the launch
    /// reports.
    pub fn dispatch(ld: &Tensor, pivots: &Tensor, b: &Tensor) -> Result<Tensor> {
        supported(NAME, ld.dtype())?;
        let (batch, n, x) = solve_operands(NAME, "LD", ld, pivots, b)?;
        if x.is_empty() {
            return Ok(x);
        }
        if !pivots.is_empty() {
            let (lo, hi) = crate::counting::extremes(&crate::abs::dispatch(pivots)?)?;
            #[allow(clippy::cast_precision_loss)]
            if !(lo >= 1.0 && hi <= n as f64) {
                return Err(invalid(
                    NAME,
                    format!(
                        "the pivots must lie in 1..={n} in size, not {lo}..={hi} (the result of ldl_factor?)"
                    ),
                ));
            }
        }
        let count = batch.iter().product::<usize>();
        let lv = batched(ld, &batch, &[n, n])?;
        let pv = batched(pivots, &batch, &[n])?;
        let cols = x.shape()[x.ndim() - 1];
        let mut xv = x.reshape([count, n, cols])?;
        if let Form::Host = form(ld) {
            match ld.dtype() {
                DType::F32 => host::ldl_solve(&lv.typed::<f32>()?, &pv.typed()?, &mut xv.typed()?)?,
                _ => host::ldl_solve(&lv.typed::<f64>()?, &pv.typed()?, &mut xv.typed()?)?,
            }
        } else {
            // SAFETY: a work-item reads the matrix and pivots of its batch
            // element and writes only its own column of `x` (below the
            // batch's count times `cols`), at rows below `n`: the pivots were
            // checked to lie in 1..=n in size, and a 2 x 2 block's second row
            // is taken only where it exists
            unsafe {
                device::ldl_solve_items::dispatch(
                    Grid::over([(count * cols).div_ceil(device::ITEMS) * device::ITEMS]),
                    &lv,
                    &pv,
                    &mut xv,
                )?;
            }
        }
        Ok(x)
    }

    /// The OpenCL C of the grid kernel for `dtype`.
    pub fn source(dtype: DType) -> Option<&'static str> {
        device::ldl_solve_items::source(dtype)
    }

    /// The launch information of every instantiation.
    #[doc(hidden)]
    pub fn __infos() -> &'static [&'static silt::__private::KernelInfo] {
        device::ldl_solve_items::__infos()
    }
}
