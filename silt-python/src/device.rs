//! `silt.Device`, `silt.devices()` and `silt.default_device()`.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use silt::{Device, DeviceKind};

use crate::error::Result;

/// A device: `Device("host")`, `Device("opencl")` (the first OpenCL device) or
/// `Device("opencl:N")`. Devices made from the same spec are the same device
/// (one context, one queue, one pool).
#[pyclass(name = "Device", module = "silt", frozen, eq, hash)]
#[derive(Clone, PartialEq)]
pub struct PyDevice {
    /// The device.
    pub device: Device,
}

impl std::hash::Hash for PyDevice {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.spec().hash(state);
    }
}

impl PyDevice {
    /// The spec that names this device: `host` or `opencl:N`.
    pub fn spec(&self) -> String {
        match self.device.opencl_index() {
            Some(i) => format!("opencl:{i}"),
            None => "host".into(),
        }
    }
}

impl From<Device> for PyDevice {
    fn from(device: Device) -> Self {
        PyDevice { device }
    }
}

#[pymethods]
impl PyDevice {
    /// `Device(spec)`: `"host"` (or PyTorch's `"cpu"`), `"opencl"` or
    /// `"opencl:N"`, or what `str(device)` gives (`"opencl:0 (NAME)"`: the
    /// name must be that device's).
    #[new]
    fn new(py: Python<'_>, spec: &str) -> Result<Self> {
        from_display(py, spec)
    }

    /// The spec: `"host"` or `"opencl:N"`.
    #[getter(spec)]
    fn get_spec(&self) -> String {
        self.spec()
    }

    /// The device's name (`"host"` for the host backend).
    #[getter]
    fn name(&self) -> String {
        self.device.info().name.clone()
    }

    /// `"host"`, `"cpu"`, `"gpu"` or `"accelerator"`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.device.info().kind {
            DeviceKind::Host => "host",
            DeviceKind::Cpu => "cpu",
            DeviceKind::Gpu => "gpu",
            _ => "accelerator",
        }
    }

    /// Whether this is silt's host backend.
    #[getter]
    fn is_host(&self) -> bool {
        self.device.is_host()
    }

    /// The OpenCL device's index (`None` for the host).
    #[getter]
    fn index(&self) -> Option<usize> {
        self.device.opencl_index()
    }

    /// The device's facts: name, vendor, versions, `fp64`, `fp16`, memory sizes,
    /// compute units, extensions.
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let i = self.device.info();
        let d = PyDict::new(py);
        d.set_item("name", &i.name)?;
        d.set_item("vendor", &i.vendor)?;
        d.set_item("kind", self.kind())?;
        d.set_item("version", &i.version)?;
        d.set_item("opencl_c_version", &i.opencl_c_version)?;
        d.set_item("driver_version", &i.driver_version)?;
        d.set_item("platform_name", &i.platform_name)?;
        d.set_item("fp64", i.fp64)?;
        d.set_item("fp16", i.fp16)?;
        d.set_item("max_alloc_bytes", i.max_alloc_bytes)?;
        d.set_item("global_mem_bytes", i.global_mem_bytes)?;
        d.set_item("compute_units", i.compute_units)?;
        d.set_item("extensions", i.extensions.clone())?;
        Ok(d)
    }

    /// The caching pool's counters: `allocated_bytes`, `requested_bytes`,
    /// `reserved_bytes`, `peak_bytes`, `peak_reserved_bytes`, `hits`, `misses`,
    /// `driver_allocs`, `driver_frees`, `live_buffers`, `cache_flushes`. Host
    /// tensors over NumPy memory are not counted.
    fn memory_stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.device.memory_stats();
        let d = PyDict::new(py);
        d.set_item("allocated_bytes", s.allocated_bytes)?;
        d.set_item("requested_bytes", s.requested_bytes)?;
        d.set_item("reserved_bytes", s.reserved_bytes)?;
        d.set_item("peak_bytes", s.peak_bytes)?;
        d.set_item("peak_reserved_bytes", s.peak_reserved_bytes)?;
        d.set_item("hits", s.hits)?;
        d.set_item("misses", s.misses)?;
        d.set_item("driver_allocs", s.driver_allocs)?;
        d.set_item("driver_frees", s.driver_frees)?;
        d.set_item("live_buffers", s.live_buffers)?;
        d.set_item("cache_flushes", s.cache_flushes)?;
        Ok(d)
    }

    /// Returns the pool's cached buffers to the driver.
    fn empty_cache(&self, py: Python<'_>) {
        py.allow_threads(|| self.device.empty_cache());
    }

    /// Waits until every operation queued on the device has finished.
    fn synchronize(&self, py: Python<'_>) -> Result<()> {
        Ok(py.allow_threads(|| self.device.synchronize())?)
    }

    fn __repr__(&self) -> String {
        format!("silt.Device('{}')", self.spec())
    }

    fn __str__(&self) -> String {
        self.device.to_string()
    }
}

/// The device named by a spec, or by its `Display` form (`opencl:0 (NAME)`,
/// as `str(device)` writes it), whose name is checked.
fn from_display(py: Python<'_>, text: &str) -> Result<PyDevice> {
    let given = text.split_once(" (").map_or(text, |(spec, _)| spec);
    // PyTorch's name for host memory
    let spec = if given.trim() == "cpu" { "host" } else { given }.to_owned();
    let device = py.allow_threads(|| Device::from_spec(&spec))?;
    if given != text && device.to_string() != text {
        return Err(crate::error::argument_error(
            py,
            format!("invalid device spec {text:?}: {spec} is {device}"),
        )
        .into());
    }
    Ok(device.into())
}

/// Every device: the OpenCL devices, then the host.
#[pyfunction]
pub fn devices(py: Python<'_>) -> Result<Vec<PyDevice>> {
    let all = py.allow_threads(Device::all)?;
    Ok(all.into_iter().map(PyDevice::from).collect())
}

/// The device silt uses when none is named: `SILT_DEVICE` (`host`, `opencl`,
/// `opencl:N`) if set, else the first OpenCL device, else the host.
#[pyfunction]
pub fn default_device(py: Python<'_>) -> Result<PyDevice> {
    Ok(py.allow_threads(Device::default)?.into())
}

/// A device from a `silt.Device`, a spec string (or `str(device)`), or
/// `None` (the default).
pub(crate) fn resolve(py: Python<'_>, device: Option<&Bound<'_, PyAny>>) -> Result<Device> {
    match device {
        None => Ok(py.allow_threads(Device::default)?),
        Some(d) if d.is_none() => Ok(py.allow_threads(Device::default)?),
        Some(d) => {
            if let Ok(d) = d.downcast::<PyDevice>() {
                return Ok(d.get().device.clone());
            }
            let spec: String = d.extract()?;
            Ok(from_display(py, &spec)?.device)
        }
    }
}
