//! Strided copies between views on one OpenCL device, done on the device.
//!
//! One small program per device (built on first use) holds a copy kernel per element
//! size; a copy of any view into any other view of the same shape is one launch,
//! with no host round trip and no read-modify-write of neighbouring elements.

use std::ffi::CStr;

use crate::cl::codes::{INVALID_DEVICE, INVALID_VALUE};
use crate::cl::{error_name, ClError, Mem, Program, Queue};
use crate::error::{Error, Result};
use crate::layout::{coalesce, Layout};

use super::Device;

/// The runtime's own OpenCL C: one strided copy per element size.
const SOURCE: &str = r"// silt runtime: strided copies between views (one work-item per element).
// shape, src_strides and dst_strides hold ndim <= 16 entries each, passed by value.
#define SILT_STRIDED_COPY(NAME, T)                                      \
__kernel void NAME(__global const T* src, ulong src_offset,             \
                   __global T* dst, ulong dst_offset,                   \
                   ulong16 shape, ulong16 src_strides,                  \
                   ulong16 dst_strides, uint ndim, ulong n) {           \
    ulong i = get_global_id(0);                                         \
    if (i >= n) return;                                                 \
    ulong sh[16], ss[16], ds[16];                                       \
    vstore16(shape, 0, sh);                                             \
    vstore16(src_strides, 0, ss);                                       \
    vstore16(dst_strides, 0, ds);                                       \
    ulong s = src_offset;                                               \
    ulong d = dst_offset;                                               \
    for (uint k = ndim; k-- > 0;) {                                     \
        ulong c = i % sh[k];                                            \
        i /= sh[k];                                                     \
        s += c * ss[k];                                                 \
        d += c * ds[k];                                                 \
    }                                                                   \
    dst[d] = src[s];                                                    \
}
SILT_STRIDED_COPY(silt_copy_1, uchar)
SILT_STRIDED_COPY(silt_copy_2, ushort)
SILT_STRIDED_COPY(silt_copy_4, uint)
SILT_STRIDED_COPY(silt_copy_8, ulong)
";

fn kernel_name(elem_size: usize) -> Option<&'static CStr> {
    match elem_size {
        1 => Some(c"silt_copy_1"),
        2 => Some(c"silt_copy_2"),
        4 => Some(c"silt_copy_4"),
        8 => Some(c"silt_copy_8"),
        _ => None,
    }
}

/// The device's copy program, built on first use.
fn program(device: &Device) -> Result<&Program> {
    let queue = device
        .queue()
        .ok_or_else(|| Error::cl("copy program", INVALID_DEVICE))?;
    device
        .inner
        .copy_program
        .get_or_init(|| {
            queue.build(SOURCE, "").map_err(|f| Error::Build {
                what: "the runtime's copy kernels".into(),
                device: device.to_string(),
                code: f.code,
                name: error_name(f.code),
                log: f.log,
            })
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Copies the elements of `src` (viewed through `from`) into `dst` (viewed
/// through `to`); both layouts have the same shape and the caller has ruled out
/// overlap between them. Asynchronous, in queue order.
pub(crate) fn strided_copy(
    device: &Device,
    queue: &Queue,
    (src, from): (&Mem, &Layout),
    (dst, to): (&Mem, &Layout),
    elem_size: usize,
) -> Result<()> {
    let n = to.len();
    if n == 0 {
        return Ok(());
    }
    let (shape, mut st) = coalesce(&to.shape, &[&from.strides, &to.strides]);
    let (ds, ss) = (st.pop().unwrap_or_default(), st.pop().unwrap_or_default());
    if shape.len() == 1 && ss[0] == 1 && ds[0] == 1 {
        return Ok(queue.copy(
            src,
            from.offset * elem_size,
            dst,
            to.offset * elem_size,
            n * elem_size,
        )?);
    }
    let name = kernel_name(elem_size).ok_or_else(|| Error::cl("strided copy", INVALID_VALUE))?;
    let mut kernel = program(device)?.kernel(name)?;
    // at most MAX_DIMS (16) dimensions, each array passed by value as a ulong16
    let launch_err = |e: ClError| Error::cl("strided copy launch", e.code);
    kernel.set_mem(0, src).map_err(launch_err)?;
    kernel.set_size(1, from.offset).map_err(launch_err)?;
    kernel.set_mem(2, dst).map_err(launch_err)?;
    kernel.set_size(3, to.offset).map_err(launch_err)?;
    kernel.set_dims(4, &shape).map_err(launch_err)?;
    kernel.set_dims(5, &ss).map_err(launch_err)?;
    kernel.set_dims(6, &ds).map_err(launch_err)?;
    kernel
        .set_value(7, u32::try_from(shape.len()).unwrap_or(u32::MAX))
        .map_err(launch_err)?;
    kernel.set_size(8, n).map_err(launch_err)?;
    let local = device.local_size(n, kernel.limits(queue));
    let global = n
        .div_ceil(local)
        .checked_mul(local)
        .ok_or_else(|| Error::SizeOverflow {
            shape: to.shape.to_vec(),
            elem_size,
        })?;
    Ok(queue.launch(&kernel, global, local)?)
}
