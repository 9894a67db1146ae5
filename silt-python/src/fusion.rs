//! `silt.Fusion`: silt's run-time fusion ([`silt::Fusion`]) from Python. A
//! chain of elementwise operations, recorded by name (or by the `silt.ops`
//! function), runs as one kernel with the bits of the separate launches:
//!
//! ```python
//! f = silt.Fusion()
//! x, w, b = f.input(x), f.input(w), f.input(b)
//! y = f.call("relu", f.call("add", f.call("mul", x, w), b))
//! out = f.run(y)          # one launch; the products and sums never reach memory
//! ```
//!
//! The values' operators and methods (`python/silt/_fusion.py`) record calls
//! as well: `f.run(((x * w) + b).relu())`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString, PyTuple};
use silt::fusion::Value;
use silt::{select, DType, Fusion, KernelRef, Scalar, Tensor};
use silt_kernels as k;

use crate::args::{place, scalar, Input};
use crate::error::{argument_error, Result};
use crate::kernels as own;
use crate::tensor::PyTensor;

/// The kernel a chain may call by `name`: every elementwise operation of
/// silt-kernels with one result (and this module's `floor_divide`,
/// `remainder`, `pow_int`).
fn kernel(name: &str) -> Option<&'static KernelRef> {
    macro_rules! find {
        ($($op:ident),* $(,)?) => {
            $(if name == stringify!($op) { return Some(&k::$op::KERNEL); })*
        };
    }
    k::unary_operations!(find);
    k::binary_operations!(find);
    find!(clamp, lerp, addcmul, leaky_relu, elu, hardtanh);
    match name {
        "where" | "where_" => Some(&k::where_::KERNEL),
        "floor_divide" => Some(&own::floor_divide::KERNEL),
        "remainder" => Some(&own::remainder::KERNEL),
        "pow_int" => Some(&own::pow_int::KERNEL),
        _ => None,
    }
}

/// A value of a [`PyFusion`]: an input, a scalar or a call's result. Only
/// meaningful to the `Fusion` that made it.
#[pyclass(name = "FusionValue", module = "silt", frozen)]
pub struct PyValue {
    /// Which fusion made it (its id).
    owner: usize,
    /// Its index among that fusion's values.
    index: usize,
    /// The fusion that made it (for its operators, which record calls).
    fusion: Py<PyFusion>,
}

#[pymethods]
impl PyValue {
    /// The `Fusion` that made the value.
    #[getter]
    fn fusion(&self, py: Python<'_>) -> Py<PyFusion> {
        self.fusion.clone_ref(py)
    }

    /// The value's dtype (a NumPy dtype), or None for a number whose dtype
    /// the call that uses it fixes.
    #[getter]
    fn dtype<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        let f = self.fusion.get();
        let st = f.state(py);
        match st.slots.get(self.index)? {
            Slot::Value(v) => Some(crate::dtype::to_numpy(py, st.fusion.dtype(*v)?).into_any()),
            Slot::Number(_) => None,
        }
    }

    fn __repr__(&self) -> String {
        format!("silt.FusionValue({})", self.index)
    }
}

/// One recorded value: silt's, or a Python number whose dtype is fixed by the
/// call that uses it.
#[derive(Clone, Copy)]
enum Slot {
    Value(Value),
    Number(Scalar),
}

struct State {
    fusion: Fusion,
    slots: Vec<Slot>,
    /// The device of the first input: numbers used as tensors are placed there.
    device: Option<silt::Device>,
}

/// `silt.Fusion()`: a chain of elementwise operations recorded now and run
/// later as one kernel (silt's run-time fusion). `input(t)` records a tensor,
/// `scalar(x, dtype=None)` a number for an operation's scalar parameter
/// (`clamp`'s bounds, `leaky_relu`'s slope), `call(op, *args)` an operation of
/// `silt.ops` by name or function on earlier values and numbers, and
/// `run(*values)` runs the chain: the values as new tensors, with the bits of
/// the operations run one by one.
#[pyclass(name = "Fusion", module = "silt", frozen)]
pub struct PyFusion {
    state: Mutex<State>,
    /// A number no other `Fusion` of the process has: its values carry it.
    id: usize,
}

/// The id of the next `Fusion`.
static NEXT_ID: AtomicUsize = AtomicUsize::new(0);

impl PyFusion {
    /// The fusion's state, locked. The GIL is released while another thread
    /// holds the lock (which it may hold while a run waits for the device
    /// with the GIL released): waiting with the GIL held could deadlock.
    fn state(&self, py: Python<'_>) -> std::sync::MutexGuard<'_, State> {
        loop {
            match self.state.try_lock() {
                Ok(guard) => return guard,
                Err(std::sync::TryLockError::Poisoned(e)) => return e.into_inner(),
                Err(std::sync::TryLockError::WouldBlock) => {
                    py.allow_threads(std::thread::yield_now)
                }
            }
        }
    }

    fn owner(&self) -> usize {
        self.id
    }

    fn value(slf: &Bound<'_, Self>, index: usize) -> PyValue {
        PyValue {
            owner: slf.get().owner(),
            index,
            fusion: slf.clone().unbind(),
        }
    }

    /// The slot of a value given back to this fusion.
    fn slot(&self, py: Python<'_>, state: &State, v: &PyValue) -> Result<Slot> {
        match state.slots.get(v.index) {
            Some(slot) if v.owner == self.owner() => Ok(*slot),
            _ => Err(argument_error(py, "a value of another silt.Fusion".into()).into()),
        }
    }
}

/// A call's argument as given: a value of the fusion, or a number.
enum Arg {
    Slot(Slot),
    Number(Scalar),
}

#[pymethods]
impl PyFusion {
    #[new]
    fn new() -> Self {
        PyFusion {
            state: Mutex::new(State {
                fusion: Fusion::new(),
                slots: Vec::new(),
                device: None,
            }),
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// `input(t)`: a tensor the chain reads (a `silt.Tensor` or an array,
    /// placed on the device of the first input; inputs broadcast together).
    fn input(slf: &Bound<'_, Self>, t: Input<'_>) -> Result<PyValue> {
        let (py, this) = (slf.py(), slf.get());
        let device = this.state(py).device.clone();
        let t = match (t, device) {
            (Input::Number(_), _) => {
                return Err(PyTypeError::new_err(
                    "Fusion.input takes a tensor or an array; numbers go straight to call() or scalar()",
                )
                .into())
            }
            (Input::Tensor(t), _) => t,
            (Input::Other(ob), Some(d)) => crate::tensor::tensor_on(py, &ob, &d, None)?.0,
            (other, None) => {
                let [t] = place(py, [other])?;
                t
            }
        };
        let mut s = this.state(py);
        if s.device.is_none() {
            s.device = Some(t.device().clone());
        }
        let v = s.fusion.input(&t);
        s.slots.push(Slot::Value(v));
        Ok(Self::value(slf, s.slots.len() - 1))
    }

    /// `scalar(value, dtype=None)`: a number for an operation's scalar
    /// parameter, of `dtype`; without one, of the dtype of the call's tensors.
    #[pyo3(signature = (value, dtype=None))]
    fn scalar(
        slf: &Bound<'_, Self>,
        value: &Bound<'_, PyAny>,
        dtype: Option<&Bound<'_, PyAny>>,
    ) -> Result<PyValue> {
        let py = slf.py();
        let s = scalar(value)?;
        let mut st = slf.get().state(py);
        let slot = match dtype.filter(|d| !d.is_none()) {
            Some(d) => Slot::Value(st.fusion.scalar(convert(s, crate::dtype::parse(py, d)?)?)),
            None => Slot::Number(s),
        };
        st.slots.push(slot);
        Ok(Self::value(slf, st.slots.len() - 1))
    }

    /// `call(op, *args)`: a call of `op` (a name, `"add"`, or a `silt.ops`
    /// function) on values of this fusion and numbers. Numbers take the
    /// dtype of the call's other arguments: scalars for an operation's scalar
    /// parameters, else 0-d tensors broadcast.
    #[pyo3(signature = (op, *args))]
    fn call(
        slf: &Bound<'_, Self>,
        op: &Bound<'_, PyAny>,
        args: &Bound<'_, PyTuple>,
    ) -> Result<PyValue> {
        let (py, this) = (slf.py(), slf.get());
        let name: String = if op.is_instance_of::<PyString>() {
            op.extract()?
        } else {
            op.getattr("__name__")
                .and_then(|n| n.extract())
                .map_err(|_| {
                    PyTypeError::new_err("Fusion.call: op is a name or a silt.ops function")
                })?
        };
        let unknown = || {
            argument_error(
                py,
                format!("Fusion.call: `{name}` is not an elementwise operation silt can fuse"),
            )
        };
        let mut kernel = kernel(&name).ok_or_else(unknown)?;
        let mut st = this.state(py);
        let mut given = Vec::with_capacity(args.len());
        for a in args.iter() {
            if let Ok(v) = a.downcast::<PyValue>() {
                given.push(Arg::Slot(this.slot(py, &st, v.get())?));
            } else if a.is_instance_of::<PyBool>()
                || a.is_instance_of::<PyInt>()
                || a.is_instance_of::<PyFloat>()
            {
                given.push(Arg::Number(scalar(&a)?));
            } else {
                return Err(PyTypeError::new_err(format!(
                    "Fusion.call: arguments are values of this Fusion or numbers, not {}",
                    a.get_type().name()?
                ))
                .into());
            }
        }
        // numbers take the dtype of the first value with one, a value that is
        // not bool first (`where(x > 0, x, 0.0)`: x's, not the condition's)
        let dtypes: Vec<silt::DType> = given
            .iter()
            .filter_map(|a| match a {
                Arg::Slot(Slot::Value(v)) => st.fusion.dtype(*v),
                _ => None,
            })
            .collect();
        let dtype = dtypes
            .iter()
            .find(|d| **d != silt::DType::Bool)
            .or(dtypes.first())
            .copied()
            .ok_or_else(|| {
                argument_error(
                    py,
                    format!("Fusion.call `{name}`: no argument is a tensor or a result"),
                )
            })?;
        if name == "pow" && dtype != silt::DType::Bool && !dtype.is_float() {
            // `silt.ops.pow` of integers is silt-kernels' `pow_int`
            kernel = self::kernel("pow_int").ok_or_else(unknown)?;
        }
        // numbers first as scalars, then as 0-d tensors
        let mut first_error = None;
        for as_tensors in [false, true] {
            let mut values = Vec::with_capacity(given.len());
            for a in &given {
                let number = match a {
                    Arg::Slot(Slot::Value(v)) => {
                        values.push(*v);
                        continue;
                    }
                    Arg::Slot(Slot::Number(s)) | Arg::Number(s) => convert(*s, dtype)?,
                };
                if as_tensors {
                    let device = st.device.clone().ok_or_else(|| {
                        argument_error(py, "Fusion.call: a number before any input".into())
                    })?;
                    let t = select!(dtype, T => Tensor::from_slice(&device, &[number.to::<T>()?], []), [bool, u8, i8, u16, i16, u32, i32, u64, i64, silt::f16, f32, f64])?;
                    values.push(st.fusion.input(&t));
                } else {
                    values.push(st.fusion.scalar(number));
                }
            }
            match st.fusion.call(kernel, &values) {
                Ok(v) => {
                    st.slots.push(Slot::Value(v));
                    return Ok(Self::value(slf, st.slots.len() - 1));
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                    if !given
                        .iter()
                        .any(|a| matches!(a, Arg::Number(_) | Arg::Slot(Slot::Number(_))))
                    {
                        break;
                    }
                }
            }
        }
        Err(first_error
            .map(Into::into)
            .unwrap_or_else(|| argument_error(py, "Fusion.call failed".into()).into()))
    }

    /// `run(*values)`: runs the chain as one kernel (on the inputs' device)
    /// and returns the values asked for, each a new tensor of the inputs'
    /// broadcast shape: a tensor for one value, a tuple for several.
    #[pyo3(signature = (*values))]
    fn run<'py>(&self, py: Python<'py>, values: &Bound<'py, PyTuple>) -> Result<Bound<'py, PyAny>> {
        let outputs = self.outputs(py, values)?;
        let out = {
            let st = self.state(py);
            py.allow_threads(|| st.fusion.run(&outputs))?
        };
        let mut tensors: Vec<PyTensor> = out.into_iter().map(PyTensor::from).collect();
        if tensors.len() == 1 {
            return Ok(Bound::new(py, tensors.remove(0))?.into_any());
        }
        Ok(PyTuple::new(py, tensors)?.into_any())
    }

    /// `source(*values)`: the OpenCL C program that `run(*values)` builds.
    #[pyo3(signature = (*values))]
    fn source(&self, py: Python<'_>, values: &Bound<'_, PyTuple>) -> Result<&'static str> {
        let outputs = self.outputs(py, values)?;
        Ok(self.state(py).fusion.source(&outputs)?)
    }
}

impl PyFusion {
    /// The silt values of `values`: this fusion's call results.
    fn outputs(&self, py: Python<'_>, values: &Bound<'_, PyTuple>) -> Result<Vec<Value>> {
        let st = self.state(py);
        let mut outputs = Vec::with_capacity(values.len());
        for v in values.iter() {
            let v = v
                .downcast::<PyValue>()
                .map_err(|_| PyTypeError::new_err("Fusion.run takes values of the Fusion"))?;
            match self.slot(py, &st, v.get())? {
                Slot::Value(v) => outputs.push(v),
                Slot::Number(_) => {
                    return Err(
                        argument_error(py, "Fusion.run: a number is not a result".into()).into(),
                    )
                }
            }
        }
        if outputs.is_empty() {
            return Err(argument_error(py, "Fusion.run: name at least one value".into()).into());
        }
        Ok(outputs)
    }
}

/// `s` as a scalar of `dtype` (Python numbers: an integer converts to any
/// dtype it fits, a float to float dtypes).
fn convert(s: Scalar, dtype: DType) -> silt::Result<Scalar> {
    select!(dtype, T => Ok(silt::Element::into_scalar(s.to::<T>()?)), [bool, u8, i8, u16, i16, u32, i32, u64, i64, silt::f16, f32, f64])
}
