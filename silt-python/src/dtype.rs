//! silt's element types and NumPy's dtypes: `float16` is `DType::F16`,
//! `bool` is `DType::Bool`, and so on for all twelve.

use numpy::{PyArrayDescr, PyArrayDescrMethods};
use pyo3::prelude::*;
use silt::{f16, DType};

use crate::error::dtype_error;

/// NumPy's name of `dtype` (`"float32"`, `"bool"`).
pub fn numpy_name(dtype: DType) -> &'static str {
    match dtype {
        DType::Bool => "bool",
        DType::U8 => "uint8",
        DType::I8 => "int8",
        DType::U16 => "uint16",
        DType::I16 => "int16",
        DType::U32 => "uint32",
        DType::I32 => "int32",
        DType::U64 => "uint64",
        DType::I64 => "int64",
        DType::F16 => "float16",
        DType::F32 => "float32",
        DType::F64 => "float64",
    }
}

/// The NumPy dtype of `dtype`.
pub fn to_numpy(py: Python<'_>, d: DType) -> Bound<'_, PyArrayDescr> {
    use numpy::dtype;
    match d {
        DType::Bool => dtype::<bool>(py),
        DType::U8 => dtype::<u8>(py),
        DType::I8 => dtype::<i8>(py),
        DType::U16 => dtype::<u16>(py),
        DType::I16 => dtype::<i16>(py),
        DType::U32 => dtype::<u32>(py),
        DType::I32 => dtype::<i32>(py),
        DType::U64 => dtype::<u64>(py),
        DType::I64 => dtype::<i64>(py),
        DType::F16 => dtype::<f16>(py),
        DType::F32 => dtype::<f32>(py),
        DType::F64 => dtype::<f64>(py),
    }
}

/// The silt dtype of a NumPy dtype, whatever its byte order (`None` for one
/// silt does not have: complex, strings, objects, ...).
pub fn from_numpy(descr: &Bound<'_, PyArrayDescr>) -> Option<DType> {
    let size = descr.itemsize();
    Some(match (descr.kind(), size) {
        (b'b', 1) => DType::Bool,
        (b'u', 1) => DType::U8,
        (b'i', 1) => DType::I8,
        (b'u', 2) => DType::U16,
        (b'i', 2) => DType::I16,
        (b'u', 4) => DType::U32,
        (b'i', 4) => DType::I32,
        (b'u', 8) => DType::U64,
        (b'i', 8) => DType::I64,
        (b'f', 2) => DType::F16,
        (b'f', 4) => DType::F32,
        (b'f', 8) => DType::F64,
        _ => return None,
    })
}

/// The silt dtype named by a Python object: a NumPy dtype, a NumPy scalar
/// type (`numpy.float32`), a name (`"float32"`, `"f4"`), or Python's `bool`,
/// `int` (int64) or `float` (float64).
pub fn parse(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<DType> {
    let np = py.import("numpy")?;
    let descr = np.getattr("dtype")?.call1((obj,))?;
    let descr = descr.downcast::<PyArrayDescr>()?;
    from_numpy(descr).ok_or_else(|| unsupported(py, descr))
}

/// The error for a NumPy dtype silt does not have.
pub(crate) fn unsupported(py: Python<'_>, descr: &Bound<'_, PyAny>) -> PyErr {
    let names: Vec<&str> = DType::ALL.iter().map(|&d| numpy_name(d)).collect();
    dtype_error(
        py,
        format!(
            "NumPy dtype {descr} has no silt dtype (silt has: {})",
            names.join(", ")
        ),
    )
}

/// The array-interface type string of `dtype` (`"<f4"`, `"|b1"`), in the
/// machine's byte order.
pub fn typestr(dtype: DType) -> String {
    let kind = if dtype == DType::Bool {
        'b'
    } else if dtype.is_float() {
        'f'
    } else if matches!(dtype, DType::U8 | DType::U16 | DType::U32 | DType::U64) {
        'u'
    } else {
        'i'
    };
    let order = if dtype.size() == 1 {
        '|'
    } else if cfg!(target_endian = "little") {
        '<'
    } else {
        '>'
    };
    format!("{order}{kind}{}", dtype.size())
}
