//! `silt_downstream`: the kernels of the downstream example crate (`ops`) as a
//! Python module, in a few lines per kernel through silt-python: each
//! `#[pyfunction]` places its tensors on one device and runs the kernel's
//! generated `dispatch`, which picks the instantiation from the runtime dtype
//! (a dtype outside the kernel's `types` raises `DTypeError`, a `TypeError`;
//! a grid kernel's access out of range, `IndexOutOfRangeError`, an
//! `IndexError`).

use pyo3::prelude::*;
use silt_downstream_example::ops;
use silt_python::{place, run, Input, PyTensor, Result, ScalarArg};

/// `bias_gelu(input, bias)`: `gelu(input + bias)` in one pass (float32, float64).
#[pyfunction]
fn bias_gelu(py: Python<'_>, input: Input<'_>, bias: Input<'_>) -> Result<PyTensor> {
    let [x, b] = place(py, [input, bias])?;
    run(py, || ops::bias_gelu::dispatch(&x, &b))
}

/// `bias_gelu_lib(input, bias)`: the same through silt-kernels' own `gelu`.
#[pyfunction]
fn bias_gelu_lib(py: Python<'_>, input: Input<'_>, bias: Input<'_>) -> Result<PyTensor> {
    let [x, b] = place(py, [input, bias])?;
    run(py, || ops::bias_gelu_lib::dispatch(&x, &b))
}

/// `softclip(input, limit)`: `limit * tanh(input / limit)`.
#[pyfunction]
fn softclip(py: Python<'_>, input: Input<'_>, limit: ScalarArg) -> Result<PyTensor> {
    let [x] = place(py, [input])?;
    run(py, || ops::softclip::dispatch(&x, limit))
}

/// `lookup(table, idx)`: the rows of a 2-d `table` (float32, float64) at the
/// int64 indices `idx`, through a checked grid kernel: an index out of range
/// raises `IndexError` (silt's `IndexOutOfRangeError`; the result is
/// dropped).
#[pyfunction]
fn lookup(py: Python<'_>, table: Input<'_>, idx: Input<'_>) -> Result<PyTensor> {
    let [t, i] = place(py, [table, idx])?;
    run(py, || {
        let shape = [
            i.shape().first().copied().unwrap_or(1),
            t.shape().get(1).copied().unwrap_or(1),
        ];
        let mut y = silt::Tensor::zeros(t.device(), t.dtype(), shape)?;
        ops::lookup::dispatch(silt::Grid::over(shape), &t, &i, &mut y)?;
        Ok(y)
    })
}

/// The module: silt's core (`Tensor`, `Device`, `tensor()`, the exceptions)
/// and this crate's kernels.
#[pymodule]
fn silt_downstream(m: &Bound<'_, PyModule>) -> PyResult<()> {
    silt_python::add_core(m)?;
    m.add_function(wrap_pyfunction!(bias_gelu, m)?)?;
    m.add_function(wrap_pyfunction!(bias_gelu_lib, m)?)?;
    m.add_function(wrap_pyfunction!(softclip, m)?)?;
    m.add_function(wrap_pyfunction!(lookup, m)?)?;
    Ok(())
}
