//! silt's errors as Python exceptions. `silt.Error` is the base of them all;
//! each kind also derives from the Python exception a caller would expect:
//!
//! | exception | also a | silt errors |
//! |---|---|---|
//! | `silt.DTypeError` | `TypeError` | a dtype outside a kernel's types, dtypes that disagree, a scalar that does not convert |
//! | `silt.ArgumentError` | `ValueError` | shapes, broadcasting, ranges, device specs, other argument values |
//! | `silt.AxisError` | `ArgumentError` and `IndexError` | a dimension out of range (NumPy's `AxisError`; PyTorch raises `IndexError`) |
//! | `silt.IndexOutOfRangeError` | `ArgumentError` and `IndexError` | an index read from an index tensor out of range (PyTorch raises `IndexError`); a grid kernel's access out of its view's range |
//! | `silt.OutOfMemoryError` | `MemoryError` | an allocation the device or the host refused |
//! | `silt.DeviceError` | `RuntimeError` | no such device, an OpenCL failure, a program that did not build, a missing extension |
//!
//! The message is silt's own (`Display` of [`silt::Error`]).

use pyo3::exceptions::{
    PyException, PyIndexError, PyMemoryError, PyRuntimeError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyTuple, PyType};

/// The error of this crate's functions: a silt error, or a Python exception
/// already made. Both convert into a Python exception, so a `#[pyfunction]`
/// may return [`Result`] and use `?` on silt's and on pyo3's results alike.
#[derive(Debug)]
pub enum Error {
    /// A silt error, raised as the exception of its kind (see the module docs).
    Silt(silt::Error),
    /// A Python exception, raised as it is.
    Py(PyErr),
}

/// The result type of this crate's functions (see [`Error`]).
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl From<silt::Error> for Error {
    fn from(e: silt::Error) -> Self {
        Error::Silt(e)
    }
}

impl From<PyErr> for Error {
    fn from(e: PyErr) -> Self {
        Error::Py(e)
    }
}

impl From<Error> for PyErr {
    fn from(e: Error) -> Self {
        match e {
            Error::Py(e) => e,
            Error::Silt(e) => Python::with_gil(|py| raise(py, &e)),
        }
    }
}

/// The kinds of exception, one class each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `silt.Error` itself.
    Base,
    /// `silt.DTypeError`, a `TypeError`.
    DType,
    /// `silt.ArgumentError`, a `ValueError`.
    Argument,
    /// `silt.AxisError`, an `ArgumentError` and an `IndexError`.
    Axis,
    /// `silt.IndexOutOfRangeError`, an `ArgumentError` and an `IndexError`.
    Index,
    /// `silt.OutOfMemoryError`, a `MemoryError`.
    OutOfMemory,
    /// `silt.DeviceError`, a `RuntimeError`.
    Device,
}

impl Kind {
    /// The kind of exception `e` is raised as.
    pub fn of(e: &silt::Error) -> Kind {
        use silt::Error as E;
        match e {
            E::DTypeMismatch { .. } | E::UnsupportedDType { .. } | E::ScalarConversion { .. } => {
                Kind::DType
            }
            E::OutOfMemory { .. } | E::AllocationTooLarge { .. } => Kind::OutOfMemory,
            E::NoDevice { .. }
            | E::OpenCl { .. }
            | E::Build { .. }
            | E::MissingExtension { .. } => Kind::Device,
            E::ShapeMismatch { .. }
            | E::DataLength { .. }
            | E::DeviceMismatch { .. }
            | E::SizeOverflow { .. }
            | E::Aliasing { .. }
            | E::OutputShape { .. }
            | E::TooManyDims { .. }
            | E::InvalidDeviceSpec { .. }
            | E::RepeatedAxis { .. }
            | E::EmptyReduction { .. }
            | E::InvalidArgument { .. }
            | E::OutOfRange { .. }
            | E::InvalidPermutation { .. }
            | E::Broadcast { .. }
            | E::NotOnHost { .. }
            | E::NotContiguous { .. }
            | E::SelfOverlap { .. } => Kind::Argument,
            E::InvalidAxis { .. } | E::AxisOutOfRange { .. } => Kind::Axis,
            E::IndexOutOfRange { .. } | E::IndexOutOfBounds { .. } => Kind::Index,
            _ => Kind::Base,
        }
    }

    const ALL: [Kind; 7] = [
        Kind::Base,
        Kind::DType,
        Kind::Argument,
        Kind::Axis,
        Kind::Index,
        Kind::OutOfMemory,
        Kind::Device,
    ];

    /// The class's name in the module.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Base => "Error",
            Kind::DType => "DTypeError",
            Kind::Argument => "ArgumentError",
            Kind::Axis => "AxisError",
            Kind::Index => "IndexOutOfRangeError",
            Kind::OutOfMemory => "OutOfMemoryError",
            Kind::Device => "DeviceError",
        }
    }

    fn doc(self) -> &'static str {
        match self {
            Kind::Base => "The base of every exception silt raises.",
            Kind::DType => {
                "A dtype outside an operation's types, tensors whose dtypes disagree, or a \
                 scalar that does not convert to the dtype without loss (also a TypeError)."
            }
            Kind::Argument => {
                "Shapes that do not agree or broadcast, an axis or range out of bounds, or \
                 another argument value silt does not take (also a ValueError)."
            }
            Kind::Axis => {
                "A dimension out of range for the tensor (also an ArgumentError and an \
                 IndexError, as NumPy's AxisError)."
            }
            Kind::Index => {
                "An index read from an index tensor (index_select, gather, scatter_add, \
                 take, ...) out of the range it indexes, nothing written; or a grid \
                 kernel's access out of its view's range, reported after the launch \
                 (also an ArgumentError and an IndexError, as PyTorch raises)."
            }
            Kind::OutOfMemory => {
                "An allocation the device or the host refused, after silt emptied its cache \
                 and retried (also a MemoryError)."
            }
            Kind::Device => {
                "No such device, an OpenCL call that failed, a program that did not build, \
                 or an extension the device lacks (also a RuntimeError)."
            }
        }
    }

    /// The exception class of this kind (made once per process).
    pub fn class(self, py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
        static CLASSES: [GILOnceCell<Py<PyType>>; 7] = [
            GILOnceCell::new(),
            GILOnceCell::new(),
            GILOnceCell::new(),
            GILOnceCell::new(),
            GILOnceCell::new(),
            GILOnceCell::new(),
            GILOnceCell::new(),
        ];
        let index = Kind::ALL.iter().position(|&k| k == self).unwrap_or(0);
        let class = CLASSES[index].get_or_try_init(py, || -> PyResult<Py<PyType>> {
            let base = match self {
                Kind::Base => py.get_type::<PyException>(),
                Kind::Axis | Kind::Index => Kind::Argument.class(py)?.clone(),
                _ => Kind::Base.class(py)?.clone(),
            };
            let python_base = match self {
                Kind::Base => None,
                Kind::DType => Some(py.get_type::<PyTypeError>()),
                Kind::Argument => Some(py.get_type::<PyValueError>()),
                Kind::Axis | Kind::Index => Some(py.get_type::<PyIndexError>()),
                Kind::OutOfMemory => Some(py.get_type::<PyMemoryError>()),
                Kind::Device => Some(py.get_type::<PyRuntimeError>()),
            };
            let bases = match python_base {
                Some(b) => PyTuple::new(py, [base, b])?,
                None => PyTuple::new(py, [base])?,
            };
            let dict = PyDict::new(py);
            dict.set_item("__module__", "silt")?;
            dict.set_item("__doc__", self.doc())?;
            let made = py
                .get_type::<PyType>()
                .call1((self.name(), bases, dict))?
                .downcast_into::<PyType>()?;
            Ok(made.unbind())
        })?;
        Ok(class.bind(py))
    }

    /// Every class, for a module to add.
    pub(crate) fn all() -> [Kind; 7] {
        Kind::ALL
    }
}

/// The Python exception for `e`: its kind's class, with silt's message.
pub fn raise(py: Python<'_>, e: &silt::Error) -> PyErr {
    match Kind::of(e).class(py) {
        Ok(class) => PyErr::from_type(class.clone(), e.to_string()),
        Err(made) => made,
    }
}

/// A `silt.DTypeError` with `message`, for conversions of this crate.
pub(crate) fn dtype_error(py: Python<'_>, message: String) -> PyErr {
    match Kind::DType.class(py) {
        Ok(class) => PyErr::from_type(class.clone(), message),
        Err(made) => made,
    }
}

/// A `silt.AxisError` with `message`, for this crate's checks of dimensions.
pub(crate) fn axis_error(py: Python<'_>, message: String) -> PyErr {
    match Kind::Axis.class(py) {
        Ok(class) => PyErr::from_type(class.clone(), message),
        Err(made) => made,
    }
}

/// A `silt.ArgumentError` with `message`, for checks of this crate.
pub(crate) fn argument_error(py: Python<'_>, message: String) -> PyErr {
    match Kind::Argument.class(py) {
        Ok(class) => PyErr::from_type(class.clone(), message),
        Err(made) => made,
    }
}
