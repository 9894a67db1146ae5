//! `silt.Tensor` and `silt.tensor()`: a silt tensor (a view over a shared
//! storage) with NumPy's names for its facts, views and indexing.

use numpy::{PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyAttributeError, PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyEllipsis, PyInt, PyList, PySlice, PyTuple};
use std::sync::{PoisonError, RwLock};

use silt::{Device, Tensor};

use crate::convert::{self, Made};
use crate::device::{self, PyDevice};
use crate::dtype;
use crate::error::{argument_error, Result};

/// A tensor: a dtype, a shape and strides over storage on one device. Views
/// (`t.T`, `t[1:, ::2]`, `t.narrow(...)`) share the storage; writes through
/// one are seen by all, and by NumPy arrays made from them on the host.
///
/// The view itself may change in place (`t.unsqueeze_(0)`, `t.t_()`,
/// `t.as_strided_(...)`): the tensor behind a `silt.Tensor` is replaced by
/// another view of the same storage, never by another storage, so NumPy
/// arrays and DLPack capsules made from it stay valid.
#[pyclass(name = "Tensor", module = "silt", frozen)]
pub struct PyTensor {
    /// The view, replaced whole by the in-place view methods.
    tensor: RwLock<Tensor>,
}

impl Clone for PyTensor {
    fn clone(&self) -> Self {
        self.tensor().into()
    }
}

impl From<Tensor> for PyTensor {
    fn from(tensor: Tensor) -> Self {
        PyTensor {
            tensor: RwLock::new(tensor),
        }
    }
}

impl PyTensor {
    /// The tensor (a cheap clone: it shares the storage).
    pub fn tensor(&self) -> Tensor {
        self.tensor
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

/// An axis from Python: negative counts from the end.
pub(crate) fn axis(py: Python<'_>, ndim: usize, a: isize) -> PyResult<usize> {
    let n = isize::try_from(ndim).unwrap_or(isize::MAX);
    let i = if a < 0 { a + n } else { a };
    if (0..n).contains(&i) {
        Ok(usize::try_from(i).unwrap_or(0))
    } else {
        let expected = if ndim == 0 {
            "a 0-d tensor has none".to_string()
        } else {
            format!("expected in [-{ndim}, {}]", n - 1)
        };
        Err(crate::error::axis_error(
            py,
            format!("dimension {a} out of range for a tensor of {ndim} dimensions ({expected})"),
        ))
    }
}

#[pymethods]
impl PyTensor {
    /// The size of each dimension.
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.tensor().shape())
    }

    /// The element type, as a NumPy dtype (`t.dtype == numpy.float32`).
    #[getter]
    fn dtype<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        dtype::to_numpy(py, self.tensor().dtype()).into_any()
    }

    /// The device the storage is on.
    #[getter]
    fn device(&self) -> PyDevice {
        self.tensor().device().clone().into()
    }

    /// The number of dimensions.
    #[getter]
    fn ndim(&self) -> usize {
        self.tensor().ndim()
    }

    /// The number of elements.
    #[getter]
    fn size(&self) -> usize {
        self.tensor().len()
    }

    /// The bytes of one element.
    #[getter]
    fn itemsize(&self) -> usize {
        self.tensor().dtype().size()
    }

    /// The step between neighbours along each dimension, in elements (as
    /// PyTorch; NumPy's are in bytes).
    #[getter]
    fn strides<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.tensor().strides())
    }

    /// Where the view starts in its storage, in elements.
    #[getter]
    fn offset(&self) -> usize {
        self.tensor().offset()
    }

    /// Whether the elements are stored row-major without gaps.
    fn is_contiguous(&self) -> bool {
        self.tensor().is_contiguous()
    }

    /// Whether two tensors are views of one storage.
    fn shares_storage(&self, other: &PyTensor) -> bool {
        self.tensor().shares_storage(&other.tensor())
    }

    /// Makes this tensor the view `view`, which must be a view of the same
    /// storage with the same dtype: what the in-place view methods
    /// (`unsqueeze_`, `t_`, `as_strided_`, `resize_`, ...) are built on. A
    /// tensor of no elements may take another storage of its dtype and
    /// device (`resize_` of an empty tensor grows it, as PyTorch's).
    /// Returns this tensor.
    fn _set_view<'py>(slf: &Bound<'py, Self>, view: &PyTensor) -> Result<Bound<'py, Self>> {
        let new = view.tensor();
        let this = slf.get();
        let mut held = this.tensor.write().unwrap_or_else(PoisonError::into_inner);
        let fresh = held.is_empty() && held.device() == new.device();
        let wrong = if !held.shares_storage(&new) && !fresh {
            Some("a view of another storage".to_string())
        } else if held.dtype() != new.dtype() {
            Some(format!(
                "a view as {} (the tensor is {})",
                new.dtype(),
                held.dtype()
            ))
        } else {
            None
        };
        if let Some(wrong) = wrong {
            return Err(argument_error(
                slf.py(),
                format!(
                    "an in-place view views the tensor's own storage as its own dtype, not {wrong}"
                ),
            )
            .into());
        }
        *held = new;
        Ok(slf.clone())
    }

    /// The elements as a NumPy array: a view of the same memory for a host
    /// tensor (the array keeps the storage alive), a copy for a tensor of an
    /// OpenCL device.
    fn numpy<'py>(slf: &Bound<'py, Self>) -> Result<Bound<'py, PyAny>> {
        let py = slf.py();
        let np = py.import("numpy")?;
        let t = &slf.get().tensor();
        if t.device().is_host() {
            return Ok(np.getattr("asarray")?.call1((slf,))?);
        }
        let host = py.allow_threads(|| t.to(&Device::host()))?;
        let host = Bound::new(py, PyTensor::from(host))?;
        Ok(np.getattr("asarray")?.call1((host,))?)
    }

    /// The elements as nested Python lists (through `numpy()`).
    fn tolist<'py>(slf: &Bound<'py, Self>) -> Result<Bound<'py, PyAny>> {
        Ok(Self::numpy(slf)?.call_method0("tolist")?)
    }

    /// The one element of a tensor of one element, as a Python number.
    fn item<'py>(slf: &Bound<'py, Self>) -> Result<Bound<'py, PyAny>> {
        let py = slf.py();
        if slf.get().tensor().len() != 1 {
            let shape = slf.get().tensor().shape().to_vec();
            return Err(argument_error(
                py,
                format!("item() needs a tensor of one element, not of shape {shape:?}"),
            )
            .into());
        }
        Ok(Self::numpy(slf)?.call_method0("item")?)
    }

    /// NumPy's array interface (version 3), for a host tensor: `numpy.asarray(t)`
    /// is a view of the same memory. Absent on OpenCL devices (NumPy then
    /// copies through `__array__`).
    #[getter]
    fn __array_interface__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        if !self.tensor().device().is_host() {
            return Err(PyAttributeError::new_err(
                "__array_interface__: the tensor is on an OpenCL device",
            ));
        }
        Ok(convert::array_interface(py, &self.tensor())?)
    }

    /// `numpy.asarray(t)` for a tensor of an OpenCL device (a copy), and for a
    /// host tensor when NumPy asks this way. `copy=False` (NumPy 2's "never
    /// copy") is a `ValueError` where a copy is needed: a tensor of an OpenCL
    /// device, or another dtype.
    #[pyo3(signature = (dtype=None, copy=None))]
    fn __array__<'py>(
        slf: &Bound<'py, Self>,
        dtype: Option<&Bound<'py, PyAny>>,
        copy: Option<bool>,
    ) -> Result<Bound<'py, PyAny>> {
        let never = copy == Some(false);
        if never && !slf.get().tensor().device().is_host() {
            return Err(PyValueError::new_err(
                "a tensor of an OpenCL device becomes a NumPy array only by a copy (copy=False was given)",
            )
            .into());
        }
        let mut a = Self::numpy(slf)?;
        if let Some(d) = dtype {
            if !d.is_none() {
                let kwargs = PyDict::new(slf.py());
                kwargs.set_item("copy", false)?;
                let converted = a.call_method("astype", (d,), Some(&kwargs))?;
                if never && !converted.is(&a) {
                    return Err(PyValueError::new_err(
                        "the conversion to another dtype needs a copy (copy=False was given)",
                    )
                    .into());
                }
                a = converted;
            }
        }
        if copy == Some(true) {
            a = a.call_method0("copy")?;
        }
        Ok(a)
    }

    /// `to(device=None, dtype=None, *, copy=False)`: the tensor on `device` (a
    /// `silt.Device` or a spec string) with elements of `dtype` (anything
    /// `numpy.dtype` takes), converted on its device first (see `astype`),
    /// then copied over. The same tensor when nothing changes, unless `copy`.
    /// As in PyTorch, a dtype may come first: `t.to(numpy.float64)`.
    #[pyo3(signature = (device=None, dtype=None, *, copy=false))]
    fn to<'py>(
        slf: &Bound<'py, Self>,
        device: Option<&Bound<'py, PyAny>>,
        dtype: Option<&Bound<'py, PyAny>>,
        copy: bool,
    ) -> Result<Bound<'py, PyAny>> {
        let py = slf.py();
        let (device, dtype) = match device {
            Some(d) if dtype.is_none() && is_dtype_like(d) => (None, Some(d)),
            _ => (device, dtype),
        };
        let t = &slf.get().tensor();
        let target = match device {
            Some(d) if !d.is_none() => device::resolve(py, Some(d))?,
            _ => t.device().clone(),
        };
        let to = match dtype {
            Some(d) if !d.is_none() => dtype::parse(py, d)?,
            _ => t.dtype(),
        };
        if !copy && to == t.dtype() && target == *t.device() {
            return Ok(slf.clone().into_any());
        }
        let out = py.allow_threads(|| -> silt::Result<Tensor> {
            let c = crate::cast::cast(t, to)?;
            let moved = if *c.device() == target {
                c
            } else {
                c.to(&target)?
            };
            if copy && moved.shares_storage(t) {
                return moved.deep_copy();
            }
            Ok(moved)
        })?;
        Ok(Bound::new(py, PyTensor::from(out))?.into_any())
    }

    /// `astype(dtype, copy=True)`: the elements converted to `dtype` (a NumPy
    /// dtype, type or name) on the same device: floats to integers saturate
    /// (NaN to 0), integers to narrower integers wrap, into `bool` is
    /// `x != 0`. With `copy=False` the tensor itself when its dtype is
    /// already `dtype`.
    #[pyo3(signature = (dtype, copy=true))]
    fn astype<'py>(
        slf: &Bound<'py, Self>,
        dtype: &Bound<'py, PyAny>,
        copy: bool,
    ) -> Result<Bound<'py, PyAny>> {
        Self::to(slf, None, Some(dtype), copy)
    }

    /// A row-major copy (the same tensor when it already is one).
    fn contiguous(&self, py: Python<'_>) -> Result<PyTensor> {
        let t = &self.tensor();
        Ok(py.allow_threads(|| t.contiguous())?.into())
    }

    /// An independent copy, on the same device.
    #[pyo3(name = "clone")]
    fn deep_copy(&self, py: Python<'_>) -> Result<PyTensor> {
        let t = &self.tensor();
        Ok(py.allow_threads(|| t.deep_copy())?.into())
    }

    /// The view with the dimensions reversed (NumPy's `a.T`).
    #[getter(T)]
    fn t(&self) -> Result<PyTensor> {
        let perm: Vec<usize> = (0..self.tensor().ndim()).rev().collect();
        Ok(self.tensor().permute(&perm)?.into())
    }

    /// The view with dimensions `dim0` and `dim1` swapped.
    fn transpose(&self, py: Python<'_>, dim0: isize, dim1: isize) -> Result<PyTensor> {
        let n = self.tensor().ndim();
        if n == 0 && [dim0, dim1].iter().all(|d| (-1..=0).contains(d)) {
            // a scalar's only dimension, as PyTorch's: itself
            return Ok(self.tensor().into());
        }
        let (a, b) = (axis(py, n, dim0)?, axis(py, n, dim1)?);
        Ok(self.tensor().transpose(a, b)?.into())
    }

    /// The view with the dimensions in the order `dims`.
    #[pyo3(signature = (*dims))]
    fn permute(&self, py: Python<'_>, dims: Vec<isize>) -> Result<PyTensor> {
        let n = self.tensor().ndim();
        let perm = dims
            .iter()
            .map(|&d| axis(py, n, d))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(self.tensor().permute(&perm)?.into())
    }

    /// The view of `length` elements of `dim` from `start`.
    fn narrow(&self, py: Python<'_>, dim: isize, start: isize, length: i64) -> Result<PyTensor> {
        let a = axis(py, self.tensor().ndim(), dim)?;
        let length = usize::try_from(length)
            .map_err(|_| argument_error(py, format!("narrow: a length of {length}")))?;
        let size = self.tensor().shape()[a];
        let start = if start < 0 {
            start + isize::try_from(size).unwrap_or(isize::MAX)
        } else {
            start
        };
        let start = usize::try_from(start)
            .map_err(|_| argument_error(py, format!("narrow: start {start} before the axis")))?;
        Ok(self.tensor().narrow(a, start, length)?.into())
    }

    /// A tensor of another shape with the same elements in row-major order
    /// (one dimension may be -1): a view where `view` makes one, else a
    /// row-major copy (PyTorch's `reshape`).
    #[pyo3(signature = (*shape))]
    fn reshape(&self, py: Python<'_>, shape: &Bound<'_, PyTuple>) -> Result<PyTensor> {
        let out = self.shape_of(py, "reshape", shape)?;
        let t = &self.tensor();
        match self.view_as(&out)? {
            Some(v) => Ok(v.into()),
            None => Ok(py.allow_threads(|| t.contiguous()?.reshape(&out))?.into()),
        }
    }

    /// A view of another shape over the same elements in row-major order
    /// (one dimension may be -1), as PyTorch's `view`: it never copies, so
    /// each run of dimensions it splits or merges must be laid out as one
    /// (a row-major tensor always is; `t.T.view(-1)` raises).
    ///
    /// `view(dtype)` (a NumPy dtype, type or name) views the same bytes as
    /// elements of `dtype`, as PyTorch's: for another element size the last
    /// dimension (stride 1) grows or shrinks by the ratio of the sizes.
    /// Nothing is converted: `t.view(numpy.uint32)` of float32 gives the bits.
    #[pyo3(signature = (*shape, dtype=None))]
    fn view(
        &self,
        py: Python<'_>,
        shape: &Bound<'_, PyTuple>,
        dtype: Option<&Bound<'_, PyAny>>,
    ) -> Result<PyTensor> {
        let as_dtype = match (shape.len(), dtype) {
            (0, Some(d)) => Some(d.clone()),
            (_, Some(_)) => {
                return Err(PyTypeError::new_err("view: a shape or dtype=, not both").into())
            }
            (1, None) => {
                let arg = shape.get_item(0)?;
                let shape_like = arg.extract::<isize>().is_ok()
                    || arg.downcast::<PyTuple>().is_ok()
                    || arg.downcast::<PyList>().is_ok();
                (!shape_like).then_some(arg)
            }
            _ => None,
        };
        if let Some(d) = as_dtype {
            // numpy.dtype(None) is float64: PyTorch's view(None) is an error
            if d.is_none() {
                return Err(PyTypeError::new_err("view: a dtype or a shape, not None").into());
            }
            let to = dtype::parse(py, &d)?;
            return Ok(self.tensor().view_dtype(to)?.into());
        }
        let out = self.shape_of(py, "view", shape)?;
        self.view_as(&out)?.map(PyTensor::from).ok_or_else(|| {
            argument_error(
                py,
                format!(
                    "view: a tensor of shape {:?} and strides {:?} cannot be viewed as {out:?} \
                     without a copy (reshape copies)",
                    self.tensor().shape(),
                    self.tensor().strides()
                ),
            )
            .into()
        })
    }

    /// A view repeating dimensions of size 1 to `shape` (NumPy's
    /// broadcasting); -1 keeps the size of an existing dimension (counted
    /// from the last, as PyTorch's `expand`).
    #[pyo3(signature = (*shape))]
    fn broadcast_to(&self, py: Python<'_>, shape: &Bound<'_, PyTuple>) -> Result<PyTensor> {
        let dims = shape_arg(shape)?;
        let this = self.tensor();
        let have = this.shape();
        let new = dims.len().checked_sub(have.len()).ok_or_else(|| {
            argument_error(
                py,
                format!(
                    "broadcast_to: {dims:?} has fewer dimensions than the tensor's shape {have:?}"
                ),
            )
        })?;
        let mut out = Vec::with_capacity(dims.len());
        for (i, &d) in dims.iter().enumerate() {
            match (usize::try_from(d), i.checked_sub(new)) {
                (Ok(d), _) => out.push(d),
                (Err(_), Some(j)) if d == -1 => out.push(have[j]),
                _ => {
                    return Err(argument_error(
                        py,
                        format!(
                            "broadcast_to: size {d} at dimension {i} of {dims:?} (-1 only keeps an existing dimension's size)"
                        ),
                    )
                    .into())
                }
            }
        }
        Ok(self.tensor().broadcast_to(&out)?.into())
    }

    /// A view of the same storage with shape `size`, strides `stride` (in
    /// elements, non-negative) and `storage_offset` (in elements from the
    /// storage's start; the tensor's own offset when left out), as PyTorch's
    /// `as_strided`; every element must lie inside the storage.
    #[pyo3(signature = (size, stride, storage_offset=None))]
    fn as_strided(
        &self,
        py: Python<'_>,
        size: Vec<isize>,
        stride: Vec<isize>,
        storage_offset: Option<isize>,
    ) -> Result<PyTensor> {
        let size = sizes(py, "as_strided", "sizes", &size)?;
        let stride = sizes(py, "as_strided", "strides", &stride)?;
        let offset = match storage_offset {
            Some(o) => sizes(py, "as_strided", "storage offset", &[o])?[0],
            None => self.tensor().offset(),
        };
        Ok(self.tensor().as_strided(&size, &stride, offset)?.into())
    }

    /// Basic indexing: integers (removing the dimension), slices with positive
    /// steps, and `...`; a view sharing storage.
    fn __getitem__(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> Result<PyTensor> {
        let items: Vec<Bound<'_, PyAny>> = match key.downcast::<PyTuple>() {
            Ok(t) => t.iter().collect(),
            Err(_) => vec![key.clone()],
        };
        let ellipses = items.iter().filter(|i| i.is(PyEllipsis::get(py))).count();
        if ellipses > 1 {
            return Err(
                PyIndexError::new_err("an index can only have a single ellipsis ('...')").into(),
            );
        }
        let ndim = self.tensor().ndim();
        let given = items.len() - ellipses;
        if given > ndim {
            return Err(PyIndexError::new_err(format!(
                "too many indices: {given} for a tensor of {ndim} dimensions"
            ))
            .into());
        }
        let mut t = self.tensor();
        let mut dim = 0usize; // the dimension of `t` the next item applies to
        for item in &items {
            if item.is(PyEllipsis::get(py)) {
                dim += ndim - given;
                continue;
            }
            if let Ok(s) = item.downcast::<PySlice>() {
                let size = t.shape()[dim];
                let ind = s.indices(isize::try_from(size).unwrap_or(isize::MAX))?;
                if ind.step <= 0 {
                    return Err(argument_error(
                        py,
                        "slices with negative steps are not supported (silt views have \
                         non-negative strides); use numpy() and copy"
                            .into(),
                    )
                    .into());
                }
                let start = usize::try_from(ind.start).unwrap_or(0);
                let step = usize::try_from(ind.step).unwrap_or(1);
                t = t.slice(dim, start, ind.slicelength, step)?;
                dim += 1;
                continue;
            }
            if item.is_instance_of::<pyo3::types::PyBool>() {
                return Err(PyTypeError::new_err("boolean indices are not supported").into());
            }
            if let Ok(i) = item.extract::<isize>() {
                let size = t.shape()[dim];
                let n = isize::try_from(size).unwrap_or(isize::MAX);
                let j = if i < 0 { i + n } else { i };
                if !(0..n).contains(&j) {
                    return Err(PyIndexError::new_err(format!(
                        "index {i} is out of bounds for dimension {dim} of size {size}"
                    ))
                    .into());
                }
                t = t.select(dim, usize::try_from(j).unwrap_or(0))?;
                continue;
            }
            return Err(PyTypeError::new_err(format!(
                "only integers, slices and '...' are valid indices, not {}",
                item.get_type().name()?
            ))
            .into());
        }
        Ok(t.into())
    }

    fn __len__(&self) -> PyResult<usize> {
        self.tensor()
            .shape()
            .first()
            .copied()
            .ok_or_else(|| PyTypeError::new_err("len() of a 0-d tensor"))
    }

    fn __repr__(slf: &Bound<'_, Self>) -> Result<String> {
        let t = &slf.get().tensor();
        let values = Self::numpy(slf)?.repr()?.to_string();
        Ok(format!(
            "silt.Tensor({values}, device='{}')",
            PyDevice::from(t.device().clone()).spec()
        ))
    }
}

impl PyTensor {
    /// The shape `shape` asks of `op` for this tensor's elements: -1 (at
    /// most one) is the size that makes the element count, which the shape
    /// must have.
    fn shape_of(&self, py: Python<'_>, op: &str, shape: &Bound<'_, PyTuple>) -> Result<Vec<usize>> {
        let dims = shape_arg(shape)?;
        let len = self.tensor().len();
        let bad = |why: &str| -> crate::error::Error {
            argument_error(
                py,
                format!("{op}: shape {dims:?} is invalid for {len} elements ({why})"),
            )
            .into()
        };
        let known = dims
            .iter()
            .filter_map(|&d| usize::try_from(d).ok())
            .try_fold(1usize, usize::checked_mul)
            .ok_or_else(|| bad("too many elements"))?;
        let inferred = dims.iter().filter(|&&d| d < 0).count();
        let mut out = Vec::with_capacity(dims.len());
        for &d in &dims {
            match usize::try_from(d) {
                Ok(d) => out.push(d),
                Err(_) if d == -1 && inferred == 1 && known != 0 && len.is_multiple_of(known) => {
                    out.push(len / known);
                }
                Err(_) => return Err(bad("one -1 at most, a size that divides the count")),
            }
        }
        if inferred == 0 && known != len {
            return Err(bad("another element count"));
        }
        Ok(out)
    }

    /// This tensor viewed as `shape` (of the same element count) without a
    /// copy, or `None` where its strides do not allow it.
    fn view_as(&self, shape: &[usize]) -> Result<Option<Tensor>> {
        let t = &self.tensor();
        if t.is_contiguous() {
            return Ok(Some(t.reshape(shape)?));
        }
        Ok(match view_strides(t.shape(), t.strides(), shape) {
            Some(strides) => Some(t.as_strided(shape, &strides, t.offset())?),
            None => None,
        })
    }
}

/// The strides that view the elements of a layout (`shape`, `strides`), in
/// row-major order, as `new` (of the same element count), as PyTorch's
/// `view` finds them: the old dimensions fall into runs laid out as one
/// (each stride the next one's times its size; dimensions of size 1 join
/// any run), and each run is split into new dimensions whose sizes
/// multiply to its count. `None` when a new dimension would straddle two
/// runs.
fn view_strides(shape: &[usize], strides: &[usize], new: &[usize]) -> Option<Vec<usize>> {
    let mut out = vec![0usize; new.len()];
    if shape.iter().product::<usize>() <= 1 {
        // no element or one: any strides do; row-major ones
        let mut s = 1usize;
        for (o, &n) in out.iter_mut().zip(new).rev() {
            *o = s;
            s = s.saturating_mul(n.max(1));
        }
        return Some(out);
    }
    // new dimensions `..left` have no stride yet
    let mut left = new.len();
    let mut base = *strides.last()?;
    let (mut run, mut taken) = (1usize, 1usize);
    for d in (0..shape.len()).rev() {
        run *= shape[d];
        let ends = d == 0 || (shape[d - 1] != 1 && run.checked_mul(base) != Some(strides[d - 1]));
        if ends {
            while left > 0 && (taken < run || new[left - 1] == 1) {
                out[left - 1] = taken.checked_mul(base)?;
                taken *= new[left - 1];
                left -= 1;
            }
            if taken != run {
                return None;
            }
            if d > 0 {
                (base, run, taken) = (strides[d - 1], 1, 1);
            }
        }
    }
    (left == 0).then_some(out)
}

/// The sizes of a `(*shape)` argument: integers, or one tuple or list of them.
/// Sizes (or strides, an offset) from Python, each at least 0: a negative
/// one is `silt.ArgumentError` (not Python's `OverflowError`).
fn sizes(py: Python<'_>, op: &str, what: &str, given: &[isize]) -> Result<Vec<usize>> {
    given
        .iter()
        .map(|&d| {
            usize::try_from(d).map_err(|_| {
                argument_error(
                    py,
                    format!("{op}: {what} must be at least 0, not {given:?}"),
                )
                .into()
            })
        })
        .collect()
}

fn shape_arg(shape: &Bound<'_, PyTuple>) -> PyResult<Vec<isize>> {
    if shape.len() == 1 {
        let first = shape.get_item(0)?;
        if let Ok(dims) = first.extract::<Vec<isize>>() {
            return Ok(dims);
        }
    }
    shape.extract()
}

/// `silt.zeros(*shape, dtype=numpy.float32, device=None)`: a new tensor of
/// zeros on `device` (default: `silt.default_device()`), filled there (no
/// upload from the host). `shape` may also be one sequence.
#[pyfunction]
#[pyo3(signature = (*shape, dtype=None, device=None))]
pub fn zeros(
    py: Python<'_>,
    shape: &Bound<'_, PyTuple>,
    dtype: Option<&Bound<'_, PyAny>>,
    device: Option<&Bound<'_, PyAny>>,
) -> Result<PyTensor> {
    let given: Vec<isize> = if shape.len() == 1 && !shape.get_item(0)?.is_instance_of::<PyInt>() {
        shape.get_item(0)?.extract()?
    } else {
        shape.extract()?
    };
    let dims = sizes(py, "zeros", "sizes", &given)?;
    let dtype = match dtype.filter(|d| !d.is_none()) {
        Some(d) => dtype::parse(py, d)?,
        None => silt::DType::F32,
    };
    let device = device::resolve(py, device)?;
    Ok(py
        .allow_threads(|| Tensor::zeros(&device, dtype, &dims))?
        .into())
}

/// Whether `ob` names a dtype rather than a device: not a `silt.Device`, and
/// not a string that starts as a device spec does.
fn is_dtype_like(ob: &Bound<'_, PyAny>) -> bool {
    if ob.is_none() || ob.downcast::<PyDevice>().is_ok() {
        return false;
    }
    match ob.extract::<String>() {
        Ok(s) => !(s.starts_with("host") || s.starts_with("opencl") || s.trim() == "cpu"),
        Err(_) => true,
    }
}

/// `silt.tensor(data, device=None, dtype=None)`: a tensor with the elements of
/// `data` (a NumPy array, or anything `numpy.asarray` takes) on `device`
/// (default: `silt.default_device()`), converted to `dtype` if given as
/// `astype` converts (floats to integers saturate, NaN to 0); Python
/// integers out of an integer `dtype`'s range raise, as PyTorch's. On the
/// host backend a writeable, aligned array with non-negative strides is
/// used in place (no copy; the tensor keeps the array alive); anything else
/// is copied. A `silt.Tensor` is copied (as PyTorch's), converted to
/// `dtype` on its device and copied to `device` (as `t.to(device, dtype,
/// copy=True)`); one-element tensors in lists are their numbers.
#[pyfunction]
#[pyo3(signature = (data, device=None, dtype=None))]
pub fn tensor(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    device: Option<&Bound<'_, PyAny>>,
    dtype: Option<&Bound<'_, PyAny>>,
) -> Result<PyTensor> {
    let dtype = dtype.filter(|d| !d.is_none());
    if let Ok(t) = data.downcast::<PyTensor>() {
        // a copy (as PyTorch's), on its own device unless one is named;
        // converted on the device
        let device = device.filter(|d| !d.is_none());
        let out = PyTensor::to(t, device, dtype, true)?;
        return Ok(out
            .downcast::<PyTensor>()
            .map_err(PyErr::from)?
            .get()
            .clone());
    }
    let device = device::resolve(py, device)?;
    let scalars = tensors_as_scalars(py, data)?;
    let mut data = scalars.unwrap_or_else(|| data.clone());
    if let Some(to) = dtype {
        if let Some(array) = checked_integers(py, &data, dtype::parse(py, to)?)? {
            data = array;
        }
    }
    let (t, _) = tensor_on(py, &data, &device, dtype)?;
    Ok(t.into())
}

/// `data` (nested lists or tuples) with each `silt.Tensor` in it replaced
/// by its one element as a Python number, as PyTorch's `tensor` reads them
/// (`None` where there is none); a tensor of another size is an error.
fn tensors_as_scalars<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
) -> Result<Option<Bound<'py, PyAny>>> {
    if let Ok(t) = data.downcast::<PyTensor>() {
        let n = t.get().tensor().len();
        if n != 1 {
            return Err(argument_error(
                py,
                format!("tensor: only one-element tensors are numbers in a list, not one of {n} elements"),
            )
            .into());
        }
        return Ok(Some(data.call_method0("item")?));
    }
    let items: Vec<Bound<'py, PyAny>> = if let Ok(l) = data.downcast::<PyList>() {
        l.iter().collect()
    } else if let Ok(t) = data.downcast::<PyTuple>() {
        t.iter().collect()
    } else {
        return Ok(None);
    };
    let mut changed = false;
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        match tensors_as_scalars(py, &item)? {
            Some(v) => {
                changed = true;
                out.push(v);
            }
            None => out.push(item),
        }
    }
    Ok(if changed {
        Some(PyList::new(py, out)?.into_any())
    } else {
        None
    })
}

/// PyTorch's check of Python integers given with an integer `dtype`: each
/// must lie in the dtype's range (NumPy 2's too); arrays convert as
/// `astype` does, and are not checked. The data as the NumPy array it was
/// read into, if it was.
fn checked_integers<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    to: silt::DType,
) -> Result<Option<Bound<'py, PyAny>>> {
    let Some((lo, hi)) = to.int_range() else {
        return Ok(None);
    };
    if data.downcast::<PyUntypedArray>().is_ok() {
        return Ok(None);
    }
    let np = py.import("numpy")?;
    let a = np.getattr("asarray")?.call1((data,))?;
    let kind: String = a.getattr("dtype")?.getattr("kind")?.extract()?;
    if !(kind == "i" || kind == "u") || a.getattr("size")?.extract::<usize>()? == 0 {
        return Ok(Some(a));
    }
    let least: i128 = a.call_method0("min")?.extract()?;
    let most: i128 = a.call_method0("max")?.extract()?;
    if least < lo || most > hi {
        let bad = if least < lo { least } else { most };
        return Err(argument_error(
            py,
            format!("tensor: {bad} is out of {to}'s range [{lo}, {hi}]"),
        )
        .into());
    }
    Ok(Some(a))
}

/// `data` as a tensor on `device`, converted to `dtype` if given, and how it
/// was made. Data whose NumPy array has one of silt's dtypes is converted by
/// silt, on the host, with `astype`'s rules (Rust's `as`: floats to integers
/// saturate, NaN to 0), so that `silt.tensor(a, dtype=d)` is
/// `silt.tensor(a).astype(d)` and a device without `f64` still takes `f64`
/// data as `f32`; other data (of a dtype silt lacks) by NumPy.
pub(crate) fn tensor_on(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    device: &Device,
    dtype: Option<&Bound<'_, PyAny>>,
) -> Result<(Tensor, Made)> {
    if let Some(d) = dtype {
        let to = dtype::parse(py, d)?;
        let np = py.import("numpy")?;
        let a = match data.downcast::<PyUntypedArray>() {
            Ok(a) => a.clone(),
            Err(_) => np
                .getattr("asarray")?
                .call1((data,))?
                .downcast_into::<PyUntypedArray>()
                .map_err(PyErr::from)?,
        };
        if numpy::PyArrayDescrMethods::kind(&a.dtype()) == b'O' {
            // None and other objects would become NaN through NumPy's cast
            return Err(PyTypeError::new_err(
                "tensor: the data must be numbers (or bools), not None or other objects",
            )
            .into());
        }
        match dtype::from_numpy(&a.dtype()) {
            Some(from) if from == to => return convert::from_array(py, &a, device),
            Some(_) => {
                let (t, _) = convert::from_array(py, &a, &Device::host())?;
                let c = py.allow_threads(|| {
                    let c = crate::cast::cast(&t, to)?;
                    if device.is_host() {
                        Ok::<_, silt::Error>(c)
                    } else {
                        c.to(device)
                    }
                })?;
                return Ok((c, Made::Copied));
            }
            None => {}
        }
    }
    let array = match (data.downcast::<PyUntypedArray>(), dtype) {
        (Ok(a), None) => a.clone(),
        _ => {
            let np = py.import("numpy")?;
            let a = match dtype {
                Some(d) => np.getattr("asarray")?.call1((data, d))?,
                None => np.getattr("asarray")?.call1((data,))?,
            };
            a.downcast_into::<PyUntypedArray>().map_err(PyErr::from)?
        }
    };
    convert::from_array(py, &array, device)
}
