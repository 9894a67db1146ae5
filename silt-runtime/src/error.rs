//! The one error type of silt.

use silt_abi::DType;

use crate::cl::{error_name, ClError};

/// The result type of every fallible silt operation.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in silt, with the values involved.
///
/// Nothing in the runtime panics on bad input: a bad shape, a dtype that does not
/// match, a device that is absent or an allocation the driver refuses all come back
/// as one of these variants.
///
/// Match a variant to handle one failure and read the values involved:
///
/// ```
/// # use silt_runtime::{Device, Error, TensorT};
/// let t = TensorT::<f32>::zeros(&Device::host(), [2, 3])?;
/// match t.narrow(1, 2, 4) {
///     Err(Error::OutOfRange { axis, size, .. }) => assert_eq!((axis, size), (1, 3)),
///     other => panic!("expected OutOfRange, got {other:?}"),
/// }
/// // every error also reads as a sentence
/// let e = t.transpose(0, 5).unwrap_err();
/// assert_eq!(e.to_string(), "axis 5 out of range for a tensor of 2 dimensions");
/// # Ok::<(), silt_runtime::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A tensor had another element type than the one asked for.
    #[error("dtype mismatch: expected {expected}, got {got}")]
    DTypeMismatch {
        /// The dtype the operation needed.
        expected: DType,
        /// The dtype it was given.
        got: DType,
    },

    /// Two shapes that had to agree did not.
    #[error("shape mismatch in {op}: {left:?} vs {right:?}")]
    ShapeMismatch {
        /// The operation that compared them.
        op: &'static str,
        /// The first shape.
        left: Vec<usize>,
        /// The second shape.
        right: Vec<usize>,
    },

    /// The number of values given does not fill the shape.
    #[error("data of {len} elements does not fit shape {shape:?} ({expected} elements)")]
    DataLength {
        /// The requested shape.
        shape: Vec<usize>,
        /// The element count the shape needs.
        expected: usize,
        /// The element count given.
        len: usize,
    },

    /// Tensors on different devices met in one operation.
    #[error("device mismatch: {left} vs {right}")]
    DeviceMismatch {
        /// The first device.
        left: String,
        /// The second device.
        right: String,
    },

    /// A kernel was called for an element type outside its `types` list.
    #[error(
        "kernel `{kernel}` does not support dtype {dtype} (supported: {})",
        list(supported)
    )]
    UnsupportedDType {
        /// The kernel's name.
        kernel: &'static str,
        /// The dtype it was called with.
        dtype: DType,
        /// The dtypes it was instantiated for.
        supported: &'static [DType],
    },

    /// A shape, stride or byte count does not fit in `usize`.
    #[error("size overflow: shape {shape:?} of {elem_size}-byte elements does not fit in usize")]
    SizeOverflow {
        /// The shape asked for.
        shape: Vec<usize>,
        /// The element size in bytes.
        elem_size: usize,
    },

    /// A single allocation above the device's limit.
    #[error(
        "allocation of {requested} bytes exceeds the maximum single allocation of {max} bytes on {device}"
    )]
    AllocationTooLarge {
        /// Bytes asked for.
        requested: usize,
        /// The device's `CL_DEVICE_MAX_MEM_ALLOC_SIZE`.
        max: usize,
        /// The device.
        device: String,
    },

    /// The driver refused an allocation, even after the cache was emptied.
    #[error(
        "out of memory on {device}: allocating {requested} bytes (size class {class}) failed \
         ({code_name}), also after returning {freed_bytes} cached bytes to the driver; live \
         tensors hold {allocated_bytes} bytes"
    )]
    OutOfMemory {
        /// The device.
        device: String,
        /// Bytes asked for.
        requested: usize,
        /// The size class that was allocated for it.
        class: usize,
        /// Bytes held by live tensors when it failed.
        allocated_bytes: usize,
        /// Cached bytes released to the driver before the retry.
        freed_bytes: usize,
        /// The OpenCL error name.
        code_name: &'static str,
    },

    /// A scalar argument that does not convert to the kernel's type: a float
    /// to an integer type, an integer out of the type's range, a finite value
    /// that overflows a float type to infinity, a number to or from `bool`
    /// (into a float type a value rounds to nearest).
    #[error(
        "scalar {value} does not convert to {to} (a scalar converts where its value \
         survives, up to rounding into a float type: no float to an integer type, no \
         integer out of the type's range, no finite value past a float type's range, \
         no number to or from bool)"
    )]
    ScalarConversion {
        /// The value given.
        value: String,
        /// The type needed.
        to: DType,
    },

    /// A device lacks an extension a kernel needs (`cl_khr_fp64` for `f64`).
    #[error("kernel `{kernel}` needs {extension}, which {device} does not support")]
    MissingExtension {
        /// The kernel (and its type).
        kernel: String,
        /// The extension.
        extension: &'static str,
        /// The device.
        device: String,
    },

    /// An output that overlaps another argument without being the same elements.
    #[error(
        "kernel `{kernel}`: `&mut` argument {output} may overlap argument {other} in memory \
         without being the very same elements; pass a copy (`deep_copy()`)"
    )]
    Aliasing {
        /// The kernel.
        kernel: &'static str,
        /// The position of the `&mut` argument.
        output: usize,
        /// The position of the argument it overlaps.
        other: usize,
    },

    /// A `&mut` argument whose shape is not the broadcast shape of the arguments.
    #[error(
        "kernel `{kernel}`: a `&mut` argument of shape {output:?} cannot take results of the \
         broadcast shape {broadcast:?} (outputs are not broadcast)"
    )]
    OutputShape {
        /// The kernel.
        kernel: &'static str,
        /// The `&mut` argument's shape.
        output: Vec<usize>,
        /// The shape the arguments broadcast to.
        broadcast: Vec<usize>,
    },

    /// More dimensions than silt supports.
    #[error("{ndim} dimensions: silt supports at most {max}")]
    TooManyDims {
        /// The dimensions asked for.
        ndim: usize,
        /// [`MAX_DIMS`](crate::MAX_DIMS).
        max: usize,
    },

    /// No OpenCL platform or no such device.
    #[error("no device {requested}: {reason}")]
    NoDevice {
        /// What was asked for (`opencl:3`, ...).
        requested: String,
        /// Why it is not there.
        reason: String,
    },

    /// `SILT_DEVICE` (or a device string) could not be read.
    #[error("invalid device spec {spec:?}: expected `host`, `opencl` or `opencl:N`")]
    InvalidDeviceSpec {
        /// The text given.
        spec: String,
    },

    /// An OpenCL call failed.
    #[error("OpenCL error in {op}: {name} ({code})")]
    OpenCl {
        /// The call that failed (`clEnqueueReadBuffer`, ...).
        op: &'static str,
        /// The error code.
        code: i32,
        /// The error code's name.
        name: &'static str,
    },

    /// An OpenCL program did not build; `log` is the compiler's build log.
    #[error("OpenCL build of {what} failed on {device}: {name} ({code})\n{log}")]
    Build {
        /// What was being built (a kernel's name and type).
        what: String,
        /// The device.
        device: String,
        /// The error code of `clBuildProgram` (or of the call before it).
        code: i32,
        /// The error code's name.
        name: &'static str,
        /// The build log.
        log: String,
    },

    /// An axis outside `0..ndim`.
    #[error("axis {axis} out of range for a tensor of {ndim} dimensions")]
    InvalidAxis {
        /// The axis given.
        axis: usize,
        /// The number of dimensions.
        ndim: usize,
    },

    /// A reduction's axis outside `-ndim..ndim` (a 0-d tensor takes `-1..1`).
    #[error(
        "axis {axis} out of range for a tensor of {ndim} dimensions (expected in [-{span}, {last}])",
        span = .ndim.max(&1),
        last = .ndim.max(&1) - 1
    )]
    AxisOutOfRange {
        /// The axis given (negative counts from the end).
        axis: isize,
        /// The number of dimensions.
        ndim: usize,
    },

    /// A reduction's axis given twice.
    #[error("axis {axis} is given twice: each axis is reduced once")]
    RepeatedAxis {
        /// The axis given again.
        axis: isize,
    },

    /// A reduction without an identity (`amax`, `argmax`, ...) over no elements.
    #[error("{op} of no elements: the reduced axes of shape {shape:?} hold none, and `{op}` has no value for that")]
    EmptyReduction {
        /// The reduction.
        op: &'static str,
        /// The shape reduced (after broadcasting).
        shape: Vec<usize>,
    },

    /// An argument an operation does not take (a norm's order, ...).
    #[error("{op}: {reason}")]
    InvalidArgument {
        /// The operation.
        op: &'static str,
        /// What is wrong and what it takes instead.
        reason: String,
    },

    /// A grid kernel's access out of its view's range (the access touched
    /// nothing: a read gave 0, a write was dropped).
    #[error(
        "kernel `{kernel}`: index {index:?} is out of range for view `{view}` of shape {shape:?}"
    )]
    IndexOutOfBounds {
        /// The kernel.
        kernel: &'static str,
        /// The view's parameter name.
        view: &'static str,
        /// The index.
        index: Vec<u64>,
        /// The view's shape.
        shape: Vec<usize>,
    },

    /// An index read from an index tensor (`index_select`, `gather`,
    /// `scatter_add`, `take`) out of the range it indexes; the operation
    /// wrote nothing the caller can see.
    #[error(
        "{op}: index {value} (at {at:?} of `index`) is out of range for {what} of size {size}; \
         nothing was written"
    )]
    IndexOutOfRange {
        /// The operation.
        op: &'static str,
        /// The index, as text (`?` where it could not be read back).
        value: String,
        /// Its position in the index tensor.
        at: Vec<usize>,
        /// What it indexes (`dimension 1`, `an input`).
        what: String,
        /// The size it indexes.
        size: usize,
    },

    /// A `narrow` range past the end of an axis.
    #[error("range {start}..{start}+{len} out of bounds for axis {axis} of size {size}")]
    OutOfRange {
        /// The axis.
        axis: usize,
        /// The start of the range.
        start: usize,
        /// The length of the range.
        len: usize,
        /// The size of the axis.
        size: usize,
    },

    /// A permutation that is not one of `0..ndim`.
    #[error("invalid permutation {perm:?} for a tensor of {ndim} dimensions")]
    InvalidPermutation {
        /// The permutation given.
        perm: Vec<usize>,
        /// The number of dimensions.
        ndim: usize,
    },

    /// Shapes that NumPy's broadcasting rules cannot join.
    #[error("cannot broadcast shape {from:?} to {to:?}")]
    Broadcast {
        /// The source shape.
        from: Vec<usize>,
        /// The target shape.
        to: Vec<usize>,
    },

    /// An operation on host memory was given a tensor of an OpenCL device.
    #[error("{op} needs a tensor on the host backend, not on {device}; read it with to_vec() or move it with to(&Device::host())")]
    NotOnHost {
        /// The operation.
        op: &'static str,
        /// The tensor's device.
        device: String,
    },

    /// An operation that needs a contiguous tensor was given a view.
    #[error("{op} needs a contiguous tensor (shape {shape:?}, strides {strides:?}); call .contiguous() first")]
    NotContiguous {
        /// The operation.
        op: &'static str,
        /// The view's shape.
        shape: Vec<usize>,
        /// The view's strides.
        strides: Vec<usize>,
    },

    /// A broken invariant of silt's own (a bug, not a misuse): what was found
    /// where it should not be. Nothing was written.
    #[error("internal error in silt: {what} (a bug: please report it)")]
    Internal {
        /// What went wrong.
        what: &'static str,
    },

    /// A write through a view that covers some elements more than once.
    #[error(
        "cannot write through a view that overlaps itself (shape {shape:?}, strides {strides:?})"
    )]
    SelfOverlap {
        /// The view's shape.
        shape: Vec<usize>,
        /// The view's strides.
        strides: Vec<usize>,
    },
}

fn list(dtypes: &[DType]) -> String {
    dtypes
        .iter()
        .map(|d| d.name())
        .collect::<Vec<_>>()
        .join(", ")
}

impl Error {
    /// [`Error::Internal`]: `what` went wrong inside silt.
    pub(crate) fn internal(what: &'static str) -> Self {
        Error::Internal { what }
    }

    /// [`Error::OpenCl`] for `op` (an OpenCL call) failing with `code`.
    pub(crate) fn cl(op: &'static str, code: i32) -> Self {
        Error::OpenCl {
            op,
            code,
            name: error_name(code),
        }
    }
}

impl From<ClError> for Error {
    fn from(e: ClError) -> Self {
        Error::cl(e.call, e.code)
    }
}

/// The error for a host allocation of `len` bytes that failed.
pub(crate) fn host_oom(len: usize) -> Error {
    Error::OutOfMemory {
        device: "host".into(),
        requested: len,
        class: len,
        allocated_bytes: 0,
        freed_bytes: 0,
        code_name: "host allocation failed",
    }
}

#[cfg(test)]
mod tests {
    use super::Error;

    #[test]
    fn an_internal_error_says_it_is_a_bug_and_names_no_opencl_code() {
        let e = Error::internal("a device tensor without its buffer");
        let text = e.to_string();
        assert_eq!(
            text,
            "internal error in silt: a device tensor without its buffer (a bug: please report it)"
        );
        assert!(!text.contains("CL_"), "{text}");
    }
}
