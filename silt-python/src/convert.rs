//! NumPy arrays to tensors and back, without a copy on the host backend where
//! the memory order allows.
//!
//! An array becomes a host tensor **in place** when it is writeable, aligned,
//! in the machine's byte order and its strides are non-negative multiples of
//! its item size (any C or Fortran order, transposes, `a[::2]`, broadcast
//! arrays): the tensor is a view of the array's memory and keeps the array
//! alive. Otherwise it is copied once: read-only arrays, negative strides
//! (`a[::-1]`), unaligned or byte-swapped data; and always for an OpenCL device.
//!
//! A host tensor becomes an array **in place** through NumPy's array interface
//! (`__array_interface__`, any view: the strides are passed as they are); the
//! array keeps the tensor's storage alive. A tensor of an OpenCL device is read
//! into a new array.

use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use silt::{DType, Device, ForeignMemory, Tensor};

use crate::dtype;
use crate::error::Result;

/// A NumPy array's memory, kept alive by a reference to the array.
struct ArrayMemory {
    _array: Py<PyAny>,
    /// The lowest address the view reaches (all strides are non-negative).
    ptr: usize,
    len: usize,
}

// SAFETY: `ptr` is the data pointer of the array `_array` holds a reference
// to; NumPy never moves or frees an array's data while the array lives (an
// array that owns its data cannot be resized while another object refers to
// it), and `len` bytes from `ptr` are the elements its view reaches. The array
// is writeable (checked in `wrap`). Concurrent use from Python while a kernel
// runs is the caller's to avoid, as for any NumPy buffer shared with C code.
unsafe impl ForeignMemory for ArrayMemory {
    fn as_ptr(&self) -> *mut u8 {
        self.ptr as *mut u8
    }
    fn len(&self) -> usize {
        self.len
    }
}

/// `NPY_ARRAY_ALIGNED` and `NPY_ARRAY_WRITEABLE`.
const ALIGNED: i32 = 0x0100;
const WRITEABLE: i32 = 0x0400;

/// What [`wrap`] found.
#[allow(clippy::large_enum_variant)] // short-lived, returned once
enum Wrapped {
    /// A host tensor over the array's memory; `writeable` says whether kernels
    /// may write it (else it is only read, to be copied).
    InPlace { tensor: Tensor, writeable: bool },
    /// The memory order does not allow a view: copy first.
    NeedsCopy,
}

/// A host tensor over `array`'s memory, when its layout allows.
fn wrap(array: &Bound<'_, PyUntypedArray>, dtype: DType) -> Result<Wrapped> {
    let descr = array.dtype();
    let native = descr.is_native_byteorder().unwrap_or(true);
    // SAFETY: `as_array_ptr` points at the live array object (`array` holds a
    // reference and the GIL is held); reading its `flags` and `data` fields
    // does not write anything.
    let (flags, data) = unsafe {
        let raw = array.as_array_ptr();
        ((*raw).flags, (*raw).data as usize)
    };
    let size = dtype.size();
    let shape = array.shape().to_vec();
    let mut strides = Vec::with_capacity(shape.len());
    for &s in array.strides() {
        let ok = s >= 0 && usize::try_from(s).is_ok_and(|s| s % size == 0);
        if !ok || !native || flags & ALIGNED == 0 || shape.len() > silt::MAX_DIMS {
            return Ok(Wrapped::NeedsCopy);
        }
        strides.push(usize::try_from(s).unwrap_or(0) / size);
    }
    let len = if shape.contains(&0) {
        0
    } else {
        // the byte after the last element: inside the array's buffer
        let last: usize = shape.iter().zip(&strides).map(|(&d, &s)| (d - 1) * s).sum();
        (last + 1) * size
    };
    let memory = ArrayMemory {
        _array: array.clone().into_any().unbind(),
        ptr: data,
        len,
    };
    let tensor = Tensor::from_foreign(Box::new(memory), dtype, &shape, &strides, 0)?;
    Ok(Wrapped::InPlace {
        tensor,
        writeable: flags & WRITEABLE != 0,
    })
}

/// A view of a host tensor's storage, when `array`'s base (through NumPy's
/// chain of views) is that `silt.Tensor` (the arrays `numpy()` makes, and
/// NumPy's views of them); the address is checked to lie in the storage: the
/// same storage in the array's layout, so that silt's aliasing checks see one
/// storage. `None` when the layout is not one silt has (negative strides).
fn view_of_base(array: &Bound<'_, PyUntypedArray>, dtype: DType) -> Option<Tensor> {
    // NumPy's views of views keep the chain of arrays: walk it to the tensor
    let mut base = array.getattr("base").ok()?;
    for _ in 0..64 {
        if base.downcast::<PyUntypedArray>().is_err() {
            break;
        }
        base = base.getattr("base").ok()?;
    }
    let t = base
        .downcast::<crate::tensor::PyTensor>()
        .ok()?
        .get()
        .tensor();
    if t.dtype() != dtype {
        return None;
    }
    // SAFETY: as in `wrap`: reading the live array object's data pointer.
    let data = unsafe { (*array.as_array_ptr()).data as usize };
    let size = dtype.size();
    let start = (t.host_ptr().ok()? as usize).checked_sub(t.offset() * size)?;
    let bytes = data.checked_sub(start)?;
    let strides = array
        .strides()
        .iter()
        .map(|&b| {
            usize::try_from(b)
                .ok()
                .filter(|b| b % size == 0)
                .map(|b| b / size)
        })
        .collect::<Option<Vec<usize>>>()?;
    if bytes % size != 0 {
        return None;
    }
    t.as_strided(array.shape(), strides, bytes / size).ok()
}

/// How [`from_array`] made the tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Made {
    /// A view of the array's memory (host only).
    InPlace,
    /// A copy.
    Copied,
}

/// A tensor on `device` with the elements of `array`: in place on the host
/// backend where the module docs say so, else a copy.
///
/// # Errors
/// `silt.DTypeError` for a dtype silt does not have; allocation errors.
pub fn from_array(
    py: Python<'_>,
    array: &Bound<'_, PyUntypedArray>,
    device: &Device,
) -> Result<(Tensor, Made)> {
    let descr = array.dtype();
    let dtype = dtype::from_numpy(&descr).ok_or_else(|| dtype::unsupported(py, descr.as_any()))?;
    if array.ndim() > silt::MAX_DIMS {
        return Err(silt::Error::TooManyDims {
            ndim: array.ndim(),
            max: silt::MAX_DIMS,
        }
        .into());
    }
    if device.is_host() {
        if let Some(t) = view_of_base(array, dtype) {
            return Ok((t, Made::InPlace));
        }
    }
    let wrapped = match wrap(array, dtype)? {
        Wrapped::NeedsCopy => {
            // a C-ordered, aligned copy in the machine's byte order, then a view
            let np = py.import("numpy")?;
            let kwargs = PyDict::new(py);
            kwargs.set_item("dtype", dtype::to_numpy(py, dtype))?;
            kwargs.set_item("order", "C")?;
            kwargs.set_item("copy", true)?;
            let copy = np.getattr("array")?.call((array,), Some(&kwargs))?;
            let copy = copy.downcast::<PyUntypedArray>().map_err(PyErr::from)?;
            match wrap(copy, dtype)? {
                Wrapped::InPlace { tensor, .. } if device.is_host() => {
                    // the copy is this tensor's own: nothing else refers to it
                    return Ok((tensor, Made::Copied));
                }
                other => other,
            }
        }
        other => other,
    };
    let Wrapped::InPlace { tensor, writeable } = wrapped else {
        return Err(crate::error::argument_error(
            py,
            "the array's memory could not be read by silt".into(),
        )
        .into());
    };
    if device.is_host() {
        if writeable {
            return Ok((tensor, Made::InPlace));
        }
        return Ok((py.allow_threads(|| tensor.deep_copy())?, Made::Copied));
    }
    Ok((py.allow_threads(|| tensor.to(device))?, Made::Copied))
}

/// NumPy's `__array_interface__` for a host tensor: its address, shape,
/// strides in bytes and type string (version 3).
///
/// # Errors
/// `silt.ArgumentError` (a `ValueError`) for a tensor of an OpenCL device.
pub fn array_interface<'py>(py: Python<'py>, t: &Tensor) -> Result<Bound<'py, PyDict>> {
    let ptr = t.host_ptr()? as usize;
    let size = t.dtype().size();
    let d = PyDict::new(py);
    d.set_item("version", 3)?;
    d.set_item("shape", PyTuple::new(py, t.shape())?)?;
    d.set_item("typestr", dtype::typestr(t.dtype()))?;
    d.set_item("data", (ptr, false))?;
    let strides: Vec<usize> = t.strides().iter().map(|s| s * size).collect();
    d.set_item("strides", PyTuple::new(py, strides)?)?;
    Ok(d)
}
