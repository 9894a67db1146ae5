//! silt from Python: the `silt` package's extension module (`silt._silt`),
//! and what a crate with its own kernels needs to make a Python module of
//! them.
//!
//! The module has `silt.Tensor` (views, indexing, `numpy()`), `silt.Device`
//! (`memory_stats()`, `empty_cache()`, `synchronize()`), `silt.tensor()`,
//! `silt.devices()`, `silt.default_device()`, the exceptions (`silt.Error` and
//! its kinds, see [`error`]) and `silt.ops` (every silt-kernels operation,
//! see [`ops`]; with this crate's own [`kernels`] for floor division,
//! remainder, integer powers and casts), `silt.Fusion` ([`fusion`]). Host tensors and NumPy arrays share memory where the memory
//! order allows ([`convert`]).
//!
//! # A module of your own kernels
//!
//! A crate that writes its own `#[kernel]`s makes them callable from Python
//! with a `#[pyfunction]` per kernel over the generated `dispatch` (the
//! instantiation chosen from the runtime dtype, `silt::select!` underneath),
//! with this crate's [`Input`] (a `silt.Tensor`, a NumPy array or a number),
//! [`place`] (the call's tensors on one device) and [`run`] (the launch with the
//! GIL released, the result as a `silt.Tensor`); [`Result`] turns silt's
//! errors into the exceptions of `silt`. A dtype outside the kernel's `types`
//! raises `DTypeError` (a `TypeError`):
//!
//! ```ignore
//! use pyo3::prelude::*;
//! use silt_python::{place, run, Input, PyTensor, Result, ScalarArg};
//!
//! /// `softclip(input, limit)`: `limit * tanh(input / limit)`.
//! #[pyfunction]
//! fn softclip(py: Python<'_>, input: Input<'_>, limit: ScalarArg) -> Result<PyTensor> {
//!     let [x] = place(py, [input])?;
//!     run(py, || my_kernels::softclip::dispatch(&x, limit))
//! }
//!
//! #[pymodule]
//! fn my_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
//!     silt_python::add_core(m)?; // Tensor, Device, tensor(), the exceptions
//!     m.add_function(wrap_pyfunction!(softclip, m)?)?;
//!     Ok(())
//! }
//! ```
//!
//! Such a module links its own copy of silt's runtime, as every Rust
//! extension module does: its tensors are its own `Tensor` class, on its own
//! devices. Tensors of `silt` (or of another such module) given to it pass
//! through NumPy's array interface: in place for host tensors, a copy for
//! those of OpenCL devices. `examples/downstream/python` is such a module.

pub mod args;
pub mod cast;
pub mod convert;
pub mod device;
pub mod dtype;
pub mod error;
pub mod fusion;
pub mod kernels;
pub mod ops;
pub mod tensor;

use pyo3::prelude::*;

pub use args::{place, run, scalar, Dim, Input, ScalarArg};
pub use device::PyDevice;
pub use error::{Error, Result};
pub use tensor::PyTensor;

/// Adds silt's core to `m`: `Tensor`, `Device`, `tensor()`, `devices()`,
/// `default_device()`, `Error` and its kinds. What a module of one's own
/// kernels needs before adding them.
///
/// # Errors
/// A Python error adding a name.
pub fn add_core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<PyTensor>()?;
    m.add_class::<PyDevice>()?;
    m.add_function(wrap_pyfunction!(tensor::tensor, m)?)?;
    m.add_function(wrap_pyfunction!(device::devices, m)?)?;
    m.add_function(wrap_pyfunction!(device::default_device, m)?)?;
    for kind in error::Kind::all() {
        m.add(kind.name(), kind.class(py)?)?;
    }
    Ok(())
}

/// The `silt._silt` extension module: [`add_core`], the `ops` submodule and
/// `Fusion` ([`fusion`]).
#[pymodule]
#[pyo3(name = "_silt")]
fn silt_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    add_core(m)?;
    let ops = PyModule::new(m.py(), "ops")?;
    ops::add_ops(&ops)?;
    m.add_submodule(&ops)?;
    m.add_function(wrap_pyfunction!(ops::catalog, m)?)?;
    m.add_function(wrap_pyfunction!(tensor::zeros, m)?)?;
    m.add_class::<fusion::PyFusion>()?;
    m.add_class::<fusion::PyValue>()?;
    Ok(())
}
