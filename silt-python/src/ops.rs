//! `silt.ops`: every operation of silt-kernels (and this module's
//! `floor_divide` and `remainder`), with PyTorch's argument names
//! (`input`, `other`, `dim`, `keepdim`), each running the operation's
//! generated `dispatch` (the instantiation chosen from the runtime dtype) with
//! the GIL released. Arguments are `silt.Tensor`s, NumPy arrays (placed as
//! `silt.tensor` places them) or Python numbers; results are `silt.Tensor`s on
//! the arguments' device.

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use silt::{DType, Scalar, Tensor};
use silt_kernels as k;

use crate::args::{place, run, Dim, Input, ScalarArg};
use crate::error::Result;
use crate::kernels as own;
use crate::tensor::PyTensor;

/// Elementwise operations of one tensor.
macro_rules! unary {
    ($($name:ident),* $(,)?) => {$(
        #[doc = concat!("`", stringify!($name), "(input)`: silt-kernels' `", stringify!($name), "`, elementwise.")]
        #[pyfunction]
        #[pyo3(signature = (input))]
        fn $name(py: Python<'_>, input: Input<'_>) -> Result<PyTensor> {
            let [x] = place(py, [input])?;
            run(py, || k::$name::dispatch(&x))
        }
    )*};
}

/// Elementwise operations of two tensors, broadcast.
macro_rules! binary {
    () => {};
    // PyTorch names `pow`'s second argument `exponent`: written out below
    (pow $(, $rest:ident)*) => { binary!($($rest),*); };
    ($name:ident $(, $rest:ident)*) => {
        #[doc = concat!("`", stringify!($name), "(input, other)`: silt-kernels' `", stringify!($name), "`, elementwise with broadcasting.")]
        #[pyfunction]
        #[pyo3(signature = (input, other))]
        fn $name(py: Python<'_>, input: Input<'_>, other: Input<'_>) -> Result<PyTensor> {
            let [a, b] = place(py, [input, other])?;
            run(py, || k::$name::dispatch(&a, &b))
        }
        binary!($($rest),*);
    };
}

/// Reductions over `dim`.
macro_rules! reduction {
    ($($name:ident),* $(,)?) => {$(
        #[doc = concat!("`", stringify!($name), "(input, dim=None, keepdim=False)`: silt-kernels' `", stringify!($name), "` over `dim` (an int, a sequence, or None for every axis).")]
        #[pyfunction]
        #[pyo3(signature = (input, dim=None, keepdim=false))]
        fn $name(py: Python<'_>, input: Input<'_>, dim: Option<Dim>, keepdim: bool) -> Result<PyTensor> {
            let [x] = place(py, [input])?;
            let axes = dim.unwrap_or(Dim(None)).axes(keepdim);
            run(py, || k::$name::dispatch(&x, axes))
        }
    )*};
}

/// Scans and normalisations along one `dim`.
macro_rules! along {
    ($($name:ident),* $(,)?) => {$(
        #[doc = concat!("`", stringify!($name), "(input, dim)`: silt-kernels' `", stringify!($name), "` along `dim`.")]
        #[pyfunction]
        #[pyo3(signature = (input, dim))]
        fn $name(py: Python<'_>, input: Input<'_>, dim: isize) -> Result<PyTensor> {
            let [x] = place(py, [input])?;
            run(py, || k::$name::dispatch(&x, dim))
        }
    )*};
}

/// Adds functions to the module (pyo3 lists each in its `__all__`).
macro_rules! add {
    ($m:expr, [$($name:ident),* $(,)?]) => {$(
        $m.add_function(wrap_pyfunction!($name, $m)?)?;
    )*};
}

k::unary_operations!(unary);

k::binary_operations!(binary);

k::reduction_operations!(reduction);

along!(softmax, log_softmax, cumsum, cumprod, logcumsumexp);

/// `matmul(input, other)`: silt-kernels' `matmul`, the matrix product with
/// PyTorch's shapes (1-d, 2-d, batched with broadcast batches).
#[pyfunction]
#[pyo3(signature = (input, other))]
fn matmul(py: Python<'_>, input: Input<'_>, other: Input<'_>) -> Result<PyTensor> {
    let [a, b] = place(py, [input, other])?;
    run(py, || k::matmul::dispatch(&a, &b))
}

/// An index (or weights) argument on `x`'s device, of its own dtype: a
/// `silt.Tensor` as it is, an array or list placed where `x` is, a Python
/// number as a 0-d `int64` (`float64` for a float).
fn beside_x(py: Python<'_>, arg: Input<'_>, x: &Tensor) -> Result<Tensor> {
    match arg {
        Input::Tensor(t) => Ok(t),
        Input::Number(s @ Scalar::F64(_)) => {
            Ok(Tensor::from_slice(x.device(), &[s.to::<f64>()?], [])?)
        }
        Input::Number(s) => Ok(Tensor::from_slice(x.device(), &[s.to::<i64>()?], [])?),
        other => {
            let [_, t] = place(py, [Input::Tensor(x.clone()), other])?;
            Ok(t)
        }
    }
}

/// `index_select(input, dim, index)`: silt-kernels' `index_select`, the
/// slices of `input` along `dim` at the positions in `index` (1-d, int64
/// or int32; an index out of range raises).
#[pyfunction]
#[pyo3(signature = (input, dim, index))]
fn index_select(
    py: Python<'_>,
    input: Input<'_>,
    dim: isize,
    index: Input<'_>,
) -> Result<PyTensor> {
    let [x] = place(py, [input])?;
    let i = beside_x(py, index, &x)?;
    run(py, || k::index_select::dispatch(&x, dim, &i))
}

/// `gather(input, dim, index)`: silt-kernels' `gather`, the elements of
/// `input` along `dim` at the positions in `index` (int64, of `input`'s
/// dimension count); the result has `index`'s shape.
#[pyfunction]
#[pyo3(signature = (input, dim, index))]
fn gather(py: Python<'_>, input: Input<'_>, dim: isize, index: Input<'_>) -> Result<PyTensor> {
    let [x] = place(py, [input])?;
    let i = beside_x(py, index, &x)?;
    run(py, || k::gather::dispatch(&x, dim, &i))
}

/// `scatter_add(input, dim, index, src)`: silt-kernels' `scatter_add`, a
/// new tensor: `input` plus `src`'s elements added at the positions along
/// `dim` in `index` (int64).
#[pyfunction]
#[pyo3(signature = (input, dim, index, src))]
fn scatter_add(
    py: Python<'_>,
    input: Input<'_>,
    dim: isize,
    index: Input<'_>,
    src: Input<'_>,
) -> Result<PyTensor> {
    let [x, s] = place(py, [input, src])?;
    let i = beside_x(py, index, &x)?;
    run(py, || k::scatter_add::dispatch(&x, dim, &i, &s))
}

/// `scatter_reduce(input, dim, index, src, reduce, *, include_self=True)`:
/// silt-kernels' `scatter_reduce`, a new tensor: `input` with `src`'s
/// elements combined at the positions along `dim` in `index` (int64) by
/// `reduce`, one of `"sum"`, `"prod"`, `"mean"`, `"amax"`, `"amin"`.
#[pyfunction]
#[pyo3(signature = (input, dim, index, src, reduce, *, include_self=true))]
fn scatter_reduce(
    py: Python<'_>,
    input: Input<'_>,
    dim: isize,
    index: Input<'_>,
    src: Input<'_>,
    reduce: &str,
    include_self: bool,
) -> Result<PyTensor> {
    let [x, s] = place(py, [input, src])?;
    let i = beside_x(py, index, &x)?;
    let reduce = k::scatter_reduce::Reduce::from_name(reduce)?;
    run(py, || {
        k::scatter_reduce::dispatch(&x, dim, &i, &s, reduce, include_self)
    })
}

/// `take(input, index)`: silt-kernels' `take`, the elements of `input` as a
/// 1-d tensor at the positions in `index` (int64, any shape; negative ones
/// count from the end).
#[pyfunction]
#[pyo3(signature = (input, index))]
fn take(py: Python<'_>, input: Input<'_>, index: Input<'_>) -> Result<PyTensor> {
    let [x] = place(py, [input])?;
    let i = beside_x(py, index, &x)?;
    run(py, || k::take::dispatch(&x, &i))
}

/// `bincount(input, weights=None, minlength=0)`: silt-kernels' `bincount`,
/// the count of each non-negative integer of a 1-d tensor (int64), or the
/// sum of its weights (float32 for float32 weights, else float64).
#[pyfunction]
#[pyo3(signature = (input, weights=None, minlength=0))]
fn bincount(
    py: Python<'_>,
    input: Input<'_>,
    weights: Option<Input<'_>>,
    minlength: i64,
) -> Result<PyTensor> {
    let [x] = place(py, [input])?;
    let w = weights.map(|w| beside_x(py, w, &x)).transpose()?;
    let minlength = usize::try_from(minlength).map_err(|_| silt::Error::InvalidArgument {
        op: "bincount",
        reason: format!("`minlength` is {minlength}: it must be at least 0"),
    })?;
    run(py, || k::bincount::dispatch(&x, w.as_ref(), minlength))
}

/// `histc(input, bins=100, min=0, max=0)`: silt-kernels' `histc`, the
/// histogram of a float tensor in `bins` equal bins over `[min, max]` (the
/// data's range when `min == max`), of `input`'s dtype.
#[pyfunction]
#[pyo3(signature = (input, bins=100, min=0.0, max=0.0))]
fn histc(py: Python<'_>, input: Input<'_>, bins: i64, min: f64, max: f64) -> Result<PyTensor> {
    let [x] = place(py, [input])?;
    let bins = usize::try_from(bins).map_err(|_| silt::Error::InvalidArgument {
        op: "histc",
        reason: format!("`bins` is {bins}: it must be at least 1"),
    })?;
    run(py, || k::histc::dispatch(&x, bins, min, max))
}

/// `lu_factor(A)`: silt-kernels' `lu_factor`, the LU factorisation with
/// partial pivoting of the float matrices `A` (`[..., m, n]`) as a tuple
/// `(LU, pivots)`: `L` (unit diagonal) below `LU`'s diagonal, `U` on and
/// above it, `pivots` int32 `[..., min(m, n)]`, 1-based, as LAPACK's. A
/// singular matrix factors without error (a zero on `U`'s diagonal).
#[pyfunction]
#[pyo3(signature = (A))]
#[allow(non_snake_case)]
fn lu_factor<'py>(py: Python<'py>, A: Input<'_>) -> Result<Bound<'py, PyTuple>> {
    let [a] = place(py, [A])?;
    let out = py.allow_threads(|| k::lu_factor::dispatch(&a))?;
    pair(py, out)
}

/// `eigh(A)`: silt-kernels' `eigh`, the eigenvalues (ascending) and
/// eigenvectors (in the columns) of the symmetric float matrices `A`
/// (`[..., n, n]`, only the lower triangle read) by Jacobi's method, as a
/// tuple `(eigenvalues, eigenvectors)`.
#[pyfunction]
#[pyo3(signature = (A))]
#[allow(non_snake_case)]
fn eigh<'py>(py: Python<'py>, A: Input<'_>) -> Result<Bound<'py, PyTuple>> {
    let [a] = place(py, [A])?;
    let out = py.allow_threads(|| k::eigh::dispatch(&a))?;
    pair(py, out)
}

/// `svd(A)`: silt-kernels' `svd`, the reduced singular value decomposition
/// of the float matrices `A` (`[..., m, n]`) by Hestenes' one-sided Jacobi
/// method, as a tuple `(U, S, Vh)` (`k = min(m, n)`: `U` `[..., m, k]`, `S`
/// `[..., k]` descending, `Vh` `[..., k, n]`).
#[pyfunction]
#[pyo3(signature = (A))]
#[allow(non_snake_case)]
fn svd<'py>(py: Python<'py>, A: Input<'_>) -> Result<Bound<'py, PyTuple>> {
    let [a] = place(py, [A])?;
    let (u, s, vh) = py.allow_threads(|| k::svd::dispatch(&a))?;
    Ok(PyTuple::new(
        py,
        [PyTensor::from(u), PyTensor::from(s), PyTensor::from(vh)],
    )?)
}

/// `geqrf(input)`: silt-kernels' `geqrf`, Householder QR of the float
/// matrices `input` (`[..., m, n]`) as LAPACK's, a tuple `(a, tau)`: `R` on
/// and above `a`'s diagonal, the reflectors below it, `tau` `[..., min(m,
/// n)]`.
#[pyfunction]
#[pyo3(signature = (input))]
fn geqrf<'py>(py: Python<'py>, input: Input<'_>) -> Result<Bound<'py, PyTuple>> {
    let [a] = place(py, [input])?;
    let out = py.allow_threads(|| k::geqrf::dispatch(&a))?;
    pair(py, out)
}

/// `householder_product(A, tau)`: silt-kernels' `householder_product`, the
/// first `n` columns of `Q` from `geqrf`'s reflectors (`A` `[..., m, n]`,
/// `m >= n >= k`, `tau` `[..., k]`), as LAPACK's `orgqr`.
#[pyfunction]
#[pyo3(signature = (A, tau))]
#[allow(non_snake_case)]
fn householder_product(py: Python<'_>, A: Input<'_>, tau: Input<'_>) -> Result<PyTensor> {
    let [a, t] = place(py, [A, tau])?;
    run(py, || k::householder_product::dispatch(&a, &t))
}

/// `cholesky_ex(A)`: silt-kernels' `cholesky_ex`, the Cholesky factors `L`
/// (`A = L L^T`, the lower triangle of the float matrices `A` read) and
/// LAPACK's `info` (int32 of the batch: 0, or the order of the first
/// leading minor that is not positive-definite), as a tuple `(L, info)`.
#[pyfunction]
#[pyo3(signature = (A))]
#[allow(non_snake_case)]
fn cholesky_ex<'py>(py: Python<'py>, A: Input<'_>) -> Result<Bound<'py, PyTuple>> {
    let [a] = place(py, [A])?;
    let out = py.allow_threads(|| k::cholesky_ex::dispatch(&a))?;
    pair(py, out)
}

/// `solve_triangular(A, B, upper, unitriangular=False)`: silt-kernels'
/// `solve_triangular`, `X` with `A X = B` for triangular `A` (its upper
/// triangle where `upper`, else its lower; the diagonal taken as ones with
/// `unitriangular`), the batches broadcast.
#[pyfunction]
#[pyo3(signature = (A, B, upper, unitriangular=false))]
#[allow(non_snake_case)]
fn solve_triangular(
    py: Python<'_>,
    A: Input<'_>,
    B: Input<'_>,
    upper: bool,
    unitriangular: bool,
) -> Result<PyTensor> {
    let [a, b] = place(py, [A, B])?;
    run(py, || {
        k::solve_triangular::dispatch(&a, &b, upper, unitriangular)
    })
}

/// `ldl_factor(A)`: silt-kernels' `ldl_factor`, the Bunch-Kaufman
/// factorisation `P A P^T = L D L^T` of the symmetric float matrices `A`
/// (their lower triangle read), as LAPACK's `sytrf`: a tuple `(LD, pivots,
/// info)`, `pivots` LAPACK's (int32, 1-based, negative for 2 x 2 blocks),
/// `info` (int32 of the batch) 0 or the first zero pivot's place.
#[pyfunction]
#[pyo3(signature = (A))]
#[allow(non_snake_case)]
fn ldl_factor<'py>(py: Python<'py>, A: Input<'_>) -> Result<Bound<'py, PyTuple>> {
    let [a] = place(py, [A])?;
    let (ld, piv, info) = py.allow_threads(|| k::ldl_factor::dispatch(&a))?;
    Ok(PyTuple::new(
        py,
        [
            PyTensor::from(ld),
            PyTensor::from(piv),
            PyTensor::from(info),
        ],
    )?)
}

/// `ldl_solve(LD, pivots, B)`: silt-kernels' `ldl_solve`, the solution `X`
/// of `A X = B` from `ldl_factor`'s `(LD, pivots)` of `A`, `B` matrices
/// `[..., n, k]` of `LD`'s dtype, the batches broadcast; pivots outside
/// `1..=n` in size raise.
#[pyfunction]
#[pyo3(signature = (LD, pivots, B))]
#[allow(non_snake_case)]
fn ldl_solve(py: Python<'_>, LD: Input<'_>, pivots: Input<'_>, B: Input<'_>) -> Result<PyTensor> {
    let [ld, p, b] = place(py, [LD, pivots, B])?;
    run(py, || k::ldl_solve::dispatch(&ld, &p, &b))
}

/// `lu_solve(LU, pivots, B, adjoint=False)`: silt-kernels' `lu_solve`, the
/// solution `X` of `A X = B` (`A^T X = B` with `adjoint`) from `lu_factor`'s
/// `(LU, pivots)` of `A`, `B` matrices `[..., n, k]` of `LU`'s dtype, the
/// batches broadcast; a pivot outside `1..=n` raises `silt.ArgumentError`.
#[pyfunction]
#[pyo3(signature = (LU, pivots, B, adjoint=false))]
#[allow(non_snake_case)]
fn lu_solve(
    py: Python<'_>,
    LU: Input<'_>,
    pivots: Input<'_>,
    B: Input<'_>,
    adjoint: bool,
) -> Result<PyTensor> {
    let [lu, p, b] = place(py, [LU, pivots, B])?;
    run(py, || k::lu_solve::dispatch(&lu, &p, &b, adjoint))
}

/// `searchsorted(sorted_sequence, input, right=False, sorter=None)`:
/// silt-kernels' `searchsorted`, the place (int64) of each value of `input`
/// in the sorted last dimension of `sorted_sequence` (1-d, or of `input`'s
/// sizes but the last), before equal elements or, with `right`, after
/// them; `sorter` (int64) gives the order of an unsorted sequence.
#[pyfunction]
#[pyo3(signature = (sorted_sequence, input, right=false, sorter=None))]
fn searchsorted(
    py: Python<'_>,
    sorted_sequence: Input<'_>,
    input: Input<'_>,
    right: bool,
    sorter: Option<Input<'_>>,
) -> Result<PyTensor> {
    let [s, v] = place(py, [sorted_sequence, input])?;
    let sorter = sorter.map(|t| beside_x(py, t, &s)).transpose()?;
    run(py, || {
        k::searchsorted::dispatch(&s, &v, right, sorter.as_ref())
    })
}

/// `pow(input, exponent)`: silt-kernels' `pow` for floats; for integers
/// this module's `pow_int` (repeated squaring, wrapping; a negative exponent
/// gives `1` for a base of 1, `±1` for -1, else 0, as PyTorch's); elementwise
/// with broadcasting.
#[pyfunction]
#[pyo3(signature = (input, exponent))]
fn pow(py: Python<'_>, input: Input<'_>, exponent: Input<'_>) -> Result<PyTensor> {
    let [a, b] = place(py, [input, exponent])?;
    if a.dtype().is_float() || a.dtype() == DType::Bool {
        run(py, || k::pow::dispatch(&a, &b))
    } else {
        run(py, || own::pow_int::dispatch(&a, &b))
    }
}

/// `floor_divide(input, other)`: Python's `//` (PyTorch's `floor_divide`),
/// elementwise with broadcasting: the quotient rounded down (`-7 // 2 ==
/// -4`); integer division by zero gives 0 (silt's rule), float division by
/// zero infinity or NaN.
#[pyfunction]
#[pyo3(signature = (input, other))]
fn floor_divide(py: Python<'_>, input: Input<'_>, other: Input<'_>) -> Result<PyTensor> {
    let [a, b] = place(py, [input, other])?;
    run(py, || own::floor_divide::dispatch(&a, &b))
}

/// `remainder(input, other)`: Python's `%` (PyTorch's `remainder`), with
/// the sign of `other` (`-7 % 2 == 1`; silt-kernels' `rem` has the sign of
/// `input`); integer remainder by zero gives 0, float NaN.
#[pyfunction]
#[pyo3(signature = (input, other))]
fn remainder(py: Python<'_>, input: Input<'_>, other: Input<'_>) -> Result<PyTensor> {
    let [a, b] = place(py, [input, other])?;
    run(py, || own::remainder::dispatch(&a, &b))
}

/// `where_(condition, input, other)`: `input` where `condition` (a bool
/// tensor) holds, else `other`, with broadcasting. Also `silt.ops.where`.
#[pyfunction]
#[pyo3(signature = (condition, input, other))]
fn where_(
    py: Python<'_>,
    condition: Input<'_>,
    input: Input<'_>,
    other: Input<'_>,
) -> Result<PyTensor> {
    // numbers take the dtype of `input` or `other`, not of the condition
    let [a, b] = place(py, [input, other])?;
    let [c] = place(py, [condition])?;
    run(py, || k::where_::dispatch(&c, &a, &b))
}

/// The least and greatest values of `dtype`, for a bound left out.
fn extremes(dtype: DType) -> (Scalar, Scalar) {
    match dtype {
        DType::U8 => (Scalar::U8(u8::MIN), Scalar::U8(u8::MAX)),
        DType::I8 => (Scalar::I8(i8::MIN), Scalar::I8(i8::MAX)),
        DType::U16 => (Scalar::U16(u16::MIN), Scalar::U16(u16::MAX)),
        DType::I16 => (Scalar::I16(i16::MIN), Scalar::I16(i16::MAX)),
        DType::U32 => (Scalar::U32(u32::MIN), Scalar::U32(u32::MAX)),
        DType::I32 => (Scalar::I32(i32::MIN), Scalar::I32(i32::MAX)),
        DType::U64 => (Scalar::U64(u64::MIN), Scalar::U64(u64::MAX)),
        DType::I64 => (Scalar::I64(i64::MIN), Scalar::I64(i64::MAX)),
        DType::Bool => (Scalar::Bool(false), Scalar::Bool(true)),
        _ => (Scalar::F64(f64::NEG_INFINITY), Scalar::F64(f64::INFINITY)),
    }
}

/// `clamp(input, min=None, max=None)`: each element limited to `[min, max]`
/// (a bound left out does not limit).
#[pyfunction]
#[pyo3(signature = (input, min=None, max=None))]
fn clamp(
    py: Python<'_>,
    input: Input<'_>,
    min: Option<ScalarArg>,
    max: Option<ScalarArg>,
) -> Result<PyTensor> {
    let [x] = place(py, [input])?;
    let (lo, hi) = extremes(x.dtype());
    let lo = min.map_or(lo, Scalar::from);
    let hi = max.map_or(hi, Scalar::from);
    run(py, || k::clamp::dispatch(&x, lo, hi))
}

/// `lerp(input, end, weight)`: `input + weight * (end - input)`, with a
/// scalar `weight`.
#[pyfunction]
#[pyo3(signature = (input, end, weight))]
fn lerp(py: Python<'_>, input: Input<'_>, end: Input<'_>, weight: ScalarArg) -> Result<PyTensor> {
    let [a, b] = place(py, [input, end])?;
    run(py, || k::lerp::dispatch(&a, &b, weight))
}

/// `addcmul(input, tensor1, tensor2, value=1)`: `input + value * tensor1 *
/// tensor2`.
#[pyfunction]
#[pyo3(signature = (input, tensor1, tensor2, value=None))]
fn addcmul(
    py: Python<'_>,
    input: Input<'_>,
    tensor1: Input<'_>,
    tensor2: Input<'_>,
    value: Option<ScalarArg>,
) -> Result<PyTensor> {
    let [a, b, c] = place(py, [input, tensor1, tensor2])?;
    // an integer converts to any float or integer dtype
    let v = value.map_or(Scalar::I64(1), Scalar::from);
    run(py, || k::addcmul::dispatch(&a, &b, &c, v))
}

/// `leaky_relu(input, negative_slope=0.01)`.
#[pyfunction]
#[pyo3(signature = (input, negative_slope=0.01))]
fn leaky_relu(py: Python<'_>, input: Input<'_>, negative_slope: f64) -> Result<PyTensor> {
    let [x] = place(py, [input])?;
    run(py, || k::leaky_relu::dispatch(&x, negative_slope))
}

/// `elu(input, alpha=1.0)`.
#[pyfunction]
#[pyo3(signature = (input, alpha=1.0))]
fn elu(py: Python<'_>, input: Input<'_>, alpha: f64) -> Result<PyTensor> {
    let [x] = place(py, [input])?;
    run(py, || k::elu::dispatch(&x, alpha))
}

/// `hardtanh(input, min_val=-1.0, max_val=1.0)`.
#[pyfunction]
#[pyo3(signature = (input, min_val=-1.0, max_val=1.0))]
fn hardtanh(py: Python<'_>, input: Input<'_>, min_val: f64, max_val: f64) -> Result<PyTensor> {
    let [x] = place(py, [input])?;
    run(py, || k::hardtanh::dispatch(&x, min_val, max_val))
}

/// `var(input, dim=None, *, correction=1, keepdim=False)`: the variance over
/// `dim`, divided by `count - correction`.
#[pyfunction]
#[pyo3(signature = (input, dim=None, *, correction=1.0, keepdim=false))]
fn var(
    py: Python<'_>,
    input: Input<'_>,
    dim: Option<Dim>,
    correction: f64,
    keepdim: bool,
) -> Result<PyTensor> {
    let [x] = place(py, [input])?;
    let axes = dim.unwrap_or(Dim(None)).axes(keepdim);
    run(py, || k::var::dispatch(&x, correction, axes))
}

/// `std(input, dim=None, *, correction=1, keepdim=False)`: `sqrt(var)`.
#[pyfunction]
#[pyo3(name = "std", signature = (input, dim=None, *, correction=1.0, keepdim=false))]
fn std_dev(
    py: Python<'_>,
    input: Input<'_>,
    dim: Option<Dim>,
    correction: f64,
    keepdim: bool,
) -> Result<PyTensor> {
    let [x] = place(py, [input])?;
    let axes = dim.unwrap_or(Dim(None)).axes(keepdim);
    run(py, || k::std::dispatch(&x, correction, axes))
}

/// `norm(input, p=2, dim=None, keepdim=False)`: the vector norm of order `p`
/// (1, 2 or `inf`) over `dim`.
#[pyfunction]
#[pyo3(signature = (input, p=2.0, dim=None, keepdim=false))]
fn norm(
    py: Python<'_>,
    input: Input<'_>,
    p: f64,
    dim: Option<Dim>,
    keepdim: bool,
) -> Result<PyTensor> {
    let [x] = place(py, [input])?;
    let axes = dim.unwrap_or(Dim(None)).axes(keepdim);
    run(py, || k::norm::dispatch(&x, p, axes))
}

/// `input`'s optional companion `t`, placed on `x`'s device.
fn companion(py: Python<'_>, x: &Tensor, t: Option<Input<'_>>) -> Result<Option<Tensor>> {
    t.map(|t| place(py, [Input::Tensor(x.clone()), t]).map(|[_, t]| t))
        .transpose()
}

/// `layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5)`:
/// silt-kernels' `layer_norm`, `(x - mean) / sqrt(var + eps) * weight + bias`
/// over the trailing `normalized_shape`, one pass over each row.
#[pyfunction]
#[pyo3(signature = (input, normalized_shape, weight=None, bias=None, eps=1e-5))]
fn layer_norm(
    py: Python<'_>,
    input: Input<'_>,
    normalized_shape: Vec<usize>,
    weight: Option<Input<'_>>,
    bias: Option<Input<'_>>,
    eps: f64,
) -> Result<PyTensor> {
    let [x] = place(py, [input])?;
    let (w, b) = (companion(py, &x, weight)?, companion(py, &x, bias)?);
    run(py, || {
        k::layer_norm::dispatch(&x, &normalized_shape, w.as_ref(), b.as_ref(), eps)
    })
}

/// `rms_norm(input, normalized_shape, weight=None, eps=None)`: silt-kernels'
/// `rms_norm`, `x / sqrt(mean(x^2) + eps) * weight` over the trailing
/// `normalized_shape` (`eps` by default the machine epsilon of the type the
/// sums are kept in: float32's for float16, as PyTorch's).
#[pyfunction]
#[pyo3(signature = (input, normalized_shape, weight=None, eps=None))]
fn rms_norm(
    py: Python<'_>,
    input: Input<'_>,
    normalized_shape: Vec<usize>,
    weight: Option<Input<'_>>,
    eps: Option<f64>,
) -> Result<PyTensor> {
    let [x] = place(py, [input])?;
    let w = companion(py, &x, weight)?;
    run(py, || {
        k::rms_norm::dispatch(&x, &normalized_shape, w.as_ref(), eps)
    })
}

/// A pair of tensors as a Python tuple.
fn pair(py: Python<'_>, (a, b): (Tensor, Tensor)) -> Result<Bound<'_, PyTuple>> {
    Ok(PyTuple::new(py, [PyTensor::from(a), PyTensor::from(b)])?)
}

/// `cummax(input, dim)`: the running maximum along `dim` and its indices
/// (int64), as a tuple `(values, indices)`.
#[pyfunction]
#[pyo3(signature = (input, dim))]
fn cummax<'py>(py: Python<'py>, input: Input<'_>, dim: isize) -> Result<Bound<'py, PyTuple>> {
    let [x] = place(py, [input])?;
    let out = py.allow_threads(|| k::cummax::dispatch(&x, dim))?;
    pair(py, out)
}

/// `cummin(input, dim)`: the running minimum along `dim` and its indices.
#[pyfunction]
#[pyo3(signature = (input, dim))]
fn cummin<'py>(py: Python<'py>, input: Input<'_>, dim: isize) -> Result<Bound<'py, PyTuple>> {
    let [x] = place(py, [input])?;
    let out = py.allow_threads(|| k::cummin::dispatch(&x, dim))?;
    pair(py, out)
}

/// `sort(input, dim=-1, descending=False, *, stable=True)`: the elements
/// sorted along `dim` and their indices (int64), as a tuple `(values,
/// indices)`; NaN counts as larger than every number. Always stable (equal
/// elements keep their order): `stable=False` allows any order, and this one
/// is one of them.
#[pyfunction]
#[pyo3(signature = (input, dim=-1, descending=false, *, stable=true))]
fn sort<'py>(
    py: Python<'py>,
    input: Input<'_>,
    dim: isize,
    descending: bool,
    stable: bool,
) -> Result<Bound<'py, PyTuple>> {
    let _ = stable;
    let [x] = place(py, [input])?;
    let out = py.allow_threads(|| k::sort::dispatch(&x, dim, descending))?;
    pair(py, out)
}

/// `argsort(input, dim=-1, descending=False, *, stable=True)`: the indices
/// (int64) that sort `input` along `dim`, those of `sort`.
#[pyfunction]
#[pyo3(signature = (input, dim=-1, descending=false, *, stable=true))]
fn argsort(
    py: Python<'_>,
    input: Input<'_>,
    dim: isize,
    descending: bool,
    stable: bool,
) -> Result<PyTensor> {
    let _ = stable;
    let [x] = place(py, [input])?;
    run(py, || k::argsort::dispatch(&x, dim, descending))
}

/// `topk(input, k, dim=-1, largest=True, sorted=True)`: the `k` largest (or
/// smallest) elements along `dim` and their indices (int64), as a tuple
/// `(values, indices)`, in order, ties by index; NaN counts as the largest.
#[pyfunction]
#[pyo3(signature = (input, k, dim=-1, largest=true, sorted=true))]
fn topk<'py>(
    py: Python<'py>,
    input: Input<'_>,
    k: i64,
    dim: isize,
    largest: bool,
    sorted: bool,
) -> Result<Bound<'py, PyTuple>> {
    let k = usize::try_from(k)
        .map_err(|_| crate::error::argument_error(py, format!("topk: k = {k} is negative")))?;
    let [x] = place(py, [input])?;
    let out = py.allow_threads(|| k::topk::dispatch(&x, k, dim, largest, sorted))?;
    pair(py, out)
}

/// The tensor an in-place operation writes: a `silt.Tensor`, or a NumPy
/// array that a host tensor uses in place (else an error: the writes would be
/// lost in a copy).
fn target(py: Python<'_>, ob: &Bound<'_, PyAny>, name: &str) -> Result<Tensor> {
    if let Ok(t) = ob.downcast::<PyTensor>() {
        return Ok(t.get().tensor());
    }
    let device = crate::device::resolve(py, None)?;
    let (t, made) = crate::tensor::tensor_on(py, ob, &device, None)?;
    if made == crate::convert::Made::InPlace {
        return Ok(t);
    }
    Err(crate::error::argument_error(
        py,
        format!(
            "`{name}` is written in place: pass a silt.Tensor, or a writeable, aligned NumPy \
             array with non-negative strides while the default device is the host"
        ),
    )
    .into())
}

/// `input` placed for an in-place operation that writes `target` (the tensor
/// of `target_ob`): the very same tensor when it is the same Python object, so
/// that silt sees one storage and not two over the same memory.
fn beside(
    py: Python<'_>,
    input: Input<'_>,
    target_ob: &Bound<'_, PyAny>,
    target: &Tensor,
) -> Result<Tensor> {
    match input {
        Input::Other(ob) if ob.is(target_ob) => Ok(target.clone()),
        Input::Tensor(t) => Ok(t),
        // arrays and numbers go where the target is, with its dtype
        other => {
            let [_, x] = place(py, [Input::Tensor(target.clone()), other])?;
            Ok(x)
        }
    }
}

/// `set(value, out)`: every element of `out` set to `value`; returns `out`.
#[pyfunction]
#[pyo3(signature = (value, out))]
fn set<'py>(
    py: Python<'py>,
    value: ScalarArg,
    out: Bound<'py, PyAny>,
) -> Result<Bound<'py, PyAny>> {
    let mut o = target(py, &out, "out")?;
    py.allow_threads(|| k::set::dispatch(value, &mut o))?;
    Ok(out)
}

/// `copy(x, out)`: the elements of `x` (broadcast) copied into `out`; returns
/// `out`.
#[pyfunction]
#[pyo3(signature = (x, out))]
fn copy<'py>(py: Python<'py>, x: Input<'_>, out: Bound<'py, PyAny>) -> Result<Bound<'py, PyAny>> {
    let mut o = target(py, &out, "out")?;
    let x = beside(py, x, &out, &o)?;
    py.allow_threads(|| k::copy::dispatch(&x, &mut o))?;
    Ok(out)
}

/// `axpy(a, x, y)`: `y += a * x`, in place; returns `y`.
#[pyfunction]
#[pyo3(signature = (a, x, y))]
fn axpy<'py>(
    py: Python<'py>,
    a: ScalarArg,
    x: Input<'_>,
    y: Bound<'py, PyAny>,
) -> Result<Bound<'py, PyAny>> {
    let mut t = target(py, &y, "y")?;
    let x = beside(py, x, &y, &t)?;
    py.allow_threads(|| k::axpy::dispatch(a, &x, &mut t))?;
    Ok(y)
}

/// `scale_(a, x)`: `x *= a`, in place; returns `x`.
#[pyfunction]
#[pyo3(signature = (a, x))]
fn scale_<'py>(py: Python<'py>, a: ScalarArg, x: Bound<'py, PyAny>) -> Result<Bound<'py, PyAny>> {
    let mut t = target(py, &x, "x")?;
    py.allow_threads(|| k::scale_::dispatch(a, &mut t))?;
    Ok(x)
}

/// `add_(x, y)`: `x += y`, in place; returns `x`.
#[pyfunction]
#[pyo3(signature = (x, y))]
fn add_<'py>(py: Python<'py>, x: Bound<'py, PyAny>, y: Input<'_>) -> Result<Bound<'py, PyAny>> {
    let mut t = target(py, &x, "x")?;
    let y = beside(py, y, &x, &t)?;
    py.allow_threads(|| k::add_::dispatch(&mut t, &y))?;
    Ok(x)
}

/// The names of silt-kernels' operations, from its catalog (for tests).
#[pyfunction]
#[pyo3(name = "_catalog")]
pub fn catalog() -> Vec<&'static str> {
    k::catalog::OPERATIONS.iter().map(|op| op.name).collect()
}

/// `silt.ops`, filled: every operation, and `where` (an alias of `where_`).
pub fn add_ops(m: &Bound<'_, PyModule>) -> PyResult<()> {
    add!(m, [set, copy, floor_divide, remainder]);
    // every operation of the three list macros' forms
    macro_rules! each {
        ($($name:ident),*) => {
            add!(m, [$($name),*]);
        };
    }
    k::unary_operations!(each);
    k::binary_operations!(each);
    k::reduction_operations!(each);
    add!(m, [where_, clamp, lerp, addcmul, leaky_relu, elu, hardtanh]);
    add!(m, [axpy, scale_, add_, var, std_dev, norm]);
    add!(
        m,
        [
            softmax,
            log_softmax,
            cumsum,
            cumprod,
            cummax,
            cummin,
            logcumsumexp
        ]
    );
    add!(m, [matmul, layer_norm, rms_norm]);
    add!(m, [sort, argsort, topk, searchsorted]);
    add!(
        m,
        [
            index_select,
            gather,
            scatter_add,
            scatter_reduce,
            take,
            bincount,
            histc
        ]
    );
    add!(
        m,
        [
            lu_factor,
            lu_solve,
            eigh,
            svd,
            geqrf,
            householder_product,
            cholesky_ex,
            solve_triangular,
            ldl_factor,
            ldl_solve
        ]
    );
    m.add("where", m.getattr("where_")?)?;
    Ok(())
}
