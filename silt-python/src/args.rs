//! Arguments of operations from Python: tensors (a `silt.Tensor`, a NumPy
//! array, anything NumPy takes, or a Python number), scalars, and PyTorch's
//! `dim`. The helpers a module binding its own kernels uses.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyTuple};
use silt::{select, Axes, DType, Device, Element, Scalar, Tensor};

use crate::device;
use crate::error::{argument_error, Result};
use crate::tensor::{tensor_on, PyTensor};

/// A tensor argument as given: a `silt.Tensor`, a Python number (a 0-d
/// tensor of the other arguments' dtype, broadcast), or anything else
/// `numpy.asarray` takes. [`place`] turns the arguments of one call into
/// tensors on one device.
#[allow(clippy::large_enum_variant)] // short-lived: one call's arguments, on its stack
pub enum Input<'py> {
    /// A `silt.Tensor`.
    Tensor(Tensor),
    /// A Python `bool`, `int` or `float`.
    Number(Scalar),
    /// Anything else (NumPy arrays, lists, NumPy scalars).
    Other(Bound<'py, PyAny>),
}

impl<'py> FromPyObject<'py> for Input<'py> {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        if let Ok(t) = ob.downcast::<PyTensor>() {
            return Ok(Input::Tensor(t.get().tensor()));
        }
        if ob.is_instance_of::<PyBool>()
            || ob.is_instance_of::<PyInt>()
            || ob.is_instance_of::<PyFloat>()
        {
            return Ok(Input::Number(scalar(ob)?));
        }
        Ok(Input::Other(ob.clone()))
    }
}

/// A Python `bool`, `int` or `float` (or NumPy scalar) as a silt [`Scalar`]:
/// `bool` as `Bool`, `int` as `I64` (`U64` above `i64::MAX`; beyond both a
/// `silt.DTypeError`, not Python's `OverflowError`), anything else with
/// `__float__` as `F64`.
pub fn scalar(ob: &Bound<'_, PyAny>) -> PyResult<Scalar> {
    if ob.is_instance_of::<PyBool>() {
        return Ok(Scalar::Bool(ob.extract()?));
    }
    if ob.is_instance_of::<PyInt>() {
        if let Ok(v) = ob.extract::<i64>() {
            return Ok(Scalar::I64(v));
        }
        return ob.extract().map(Scalar::U64).map_err(|_| {
            crate::error::dtype_error(
                ob.py(),
                format!(
                    "scalar {ob} does not convert to any dtype: integers lie in \
                     [-2**63, 2**64 - 1] (i64 and u64)"
                ),
            )
        });
    }
    if ob.is_instance_of::<PyFloat>() {
        return Ok(Scalar::F64(ob.extract()?));
    }
    // a NumPy bool or a 0-d bool tensor (`silt.tensor(True)`, `mask.any()`):
    // a bool, where `__index__` or `__float__` would make it a number
    let kind = ob.getattr("dtype").and_then(|d| d.getattr("kind"));
    if kind.is_ok_and(|k| k.extract::<char>().is_ok_and(|k| k == 'b')) {
        return Ok(Scalar::Bool(ob.is_truthy()?));
    }
    // NumPy integers have `__index__`, NumPy floats only `__float__`
    if let Ok(v) = ob.extract::<i64>() {
        return Ok(Scalar::I64(v));
    }
    Ok(Scalar::F64(ob.extract()?))
}

/// A scalar argument (`#[scalar]` in a kernel): a Python number.
pub struct ScalarArg(pub Scalar);

impl<'py> FromPyObject<'py> for ScalarArg {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        scalar(ob).map(ScalarArg)
    }
}

impl From<ScalarArg> for Scalar {
    fn from(s: ScalarArg) -> Scalar {
        s.0
    }
}

/// The tensors of one call, on one device: that of the first `silt.Tensor`
/// among them, else `silt.default_device()`. Arrays are placed as
/// `silt.tensor` places them (in place on the host where the memory order
/// allows); numbers become 0-d tensors of the first tensor's or array's dtype.
///
/// # Errors
/// NumPy's conversion errors, a dtype silt does not have, a number that does
/// not convert to the dtype, allocation errors.
pub fn place<const N: usize>(py: Python<'_>, inputs: [Input<'_>; N]) -> Result<[Tensor; N]> {
    let device = match inputs.iter().find_map(|i| match i {
        Input::Tensor(t) => Some(t.device().clone()),
        _ => None,
    }) {
        Some(d) => d,
        None => device::resolve(py, None)?,
    };
    let mut placed: [Option<Tensor>; N] = std::array::from_fn(|_| None);
    for (slot, input) in placed.iter_mut().zip(&inputs) {
        match input {
            Input::Tensor(t) => *slot = Some(t.clone()),
            Input::Other(ob) => *slot = Some(tensor_on(py, ob, &device, None)?.0),
            Input::Number(_) => {}
        }
    }
    let dtype = placed.iter().flatten().map(Tensor::dtype).next();
    let mut out = Vec::with_capacity(N);
    for (slot, input) in placed.into_iter().zip(inputs) {
        match (slot, input) {
            (Some(t), _) => out.push(t),
            (None, Input::Number(s)) => {
                let d = dtype.unwrap_or_else(|| s.dtype());
                out.push(number(&device, s, d)?);
            }
            (None, _) => unreachable_input(py)?,
        }
    }
    out.try_into()
        .map_err(|_| argument_error(py, "internal: argument count".into()).into())
}

fn unreachable_input(py: Python<'_>) -> Result<()> {
    Err(argument_error(py, "internal: an argument was not placed".into()).into())
}

/// A 0-d tensor on `device` holding `s` as `dtype`.
fn number(device: &Device, s: Scalar, dtype: DType) -> Result<Tensor> {
    Ok(
        select!(dtype, T => number_as::<T>(device, s), [bool, u8, i8, u16, i16, u32, i32, u64, i64, silt::f16, f32, f64])?,
    )
}

fn number_as<T: Element>(device: &Device, s: Scalar) -> silt::Result<Tensor> {
    Tensor::from_slice(device, &[s.to::<T>()?], [])
}

/// PyTorch's `dim`: `None` (every axis), an `int`, or a sequence of `int`s.
pub struct Dim(pub Option<Vec<isize>>);

impl<'py> FromPyObject<'py> for Dim {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        if ob.is_none() {
            return Ok(Dim(None));
        }
        if let Ok(d) = ob.extract::<isize>() {
            return Ok(Dim(Some(vec![d])));
        }
        if let Ok(t) = ob.downcast::<PyTuple>() {
            return Ok(Dim(Some(t.extract()?)));
        }
        Ok(Dim(Some(ob.extract()?)))
    }
}

impl Dim {
    /// The reduction's [`Axes`], kept as size 1 with `keepdim`.
    pub fn axes(&self, keepdim: bool) -> Axes {
        let axes = match &self.0 {
            None => Axes::all(),
            Some(list) => Axes::of(list.iter().copied()),
        };
        if keepdim {
            axes.keepdim()
        } else {
            axes
        }
    }
}

/// Runs `f` with the GIL released and wraps its tensor as a `silt.Tensor`.
///
/// # Errors
/// What `f` returns.
pub fn run<F>(py: Python<'_>, f: F) -> Result<PyTensor>
where
    F: FnOnce() -> silt::Result<Tensor> + Send,
{
    Ok(py.allow_threads(f)?.into())
}
