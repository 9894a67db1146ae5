//! Strided copies between views on one OpenCL device, done on the device.
//!
//! One small program per device (built on first use) holds a copy kernel per element
//! size; a copy of any view into any other view of the same shape is one launch,
//! with no host round trip and no read-modify-write of neighbouring elements.

use std::ffi::CStr;

use silt_abi::opencl::{entry_head, header, MapEntry, COUNT_TYPE, DIMS_TYPE, NDIM_TYPE};

use crate::cl::{error_name, ClError, Mem, Program, Queue};
use crate::error::{Error, Result};
use crate::layout::{coalesce, Layout};

use super::Device;

/// The runtime's own OpenCL C: two strided copies per element size
/// (`silt_copy_{size}` and `silt_copy_{size}_strided3`, for at most three
/// coalesced dimensions), each a three-dimensional launch that finds its
/// element in both views as strided map entries do
/// ([`silt_abi::opencl::MapEntry`]; the vectors first, innermost dimension in
/// lane 0).
fn source() -> String {
    let views = ["src".to_owned(), "dst".to_owned()];
    let mut s = header(
        "silt runtime: strided copies between views (one work-item per element).",
        false,
    );
    for (size, ty) in [(1, "uchar"), (2, "ushort"), (4, "uint"), (8, "ulong")] {
        for form in [MapEntry::Strided, MapEntry::Strided3] {
            let suffix = if form == MapEntry::Strided3 {
                form.suffix()
            } else {
                ""
            };
            let params = [
                format!("{DIMS_TYPE} silt_shape, {DIMS_TYPE} silt_st_src, {DIMS_TYPE} silt_st_dst"),
                format!(
                    "__global const {ty}* src, {COUNT_TYPE} silt_off_src, __global {ty}* dst, {COUNT_TYPE} silt_off_dst"
                ),
                format!("{NDIM_TYPE} silt_ndim, {COUNT_TYPE} silt_n"),
            ];
            s.push_str(&entry_head(
                &format!("silt_copy_{size}{suffix}"),
                &params,
                None,
            ));
            s.push_str(&form.prologue(&views));
            s.push_str("    dst[silt_i_dst] = src[silt_i_src];\n}\n");
        }
    }
    s
}

/// The copy kernel for `elem_size`-byte elements over `ndim` coalesced
/// dimensions.
fn kernel_name(elem_size: usize, ndim: usize) -> Option<&'static CStr> {
    let three = ndim <= 3;
    match elem_size {
        1 if three => Some(c"silt_copy_1_strided3"),
        1 => Some(c"silt_copy_1"),
        2 if three => Some(c"silt_copy_2_strided3"),
        2 => Some(c"silt_copy_2"),
        4 if three => Some(c"silt_copy_4_strided3"),
        4 => Some(c"silt_copy_4"),
        8 if three => Some(c"silt_copy_8_strided3"),
        8 => Some(c"silt_copy_8"),
        _ => None,
    }
}

/// The device's copy program, built on first use.
fn program(device: &Device) -> Result<&Program> {
    let queue = device
        .queue()
        .ok_or_else(|| Error::internal("a copy program for a device without a queue"))?;
    device
        .inner
        .copy_program
        .get_or_init(|| {
            queue.build(&source(), "").map_err(|f| Error::Build {
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
    let ndim = shape.len();
    let name = kernel_name(elem_size, ndim)
        .ok_or_else(|| Error::internal("a strided copy of elements of no dtype's size"))?;
    let mut kernel = program(device)?.kernel(name)?;
    // the vectors innermost first, lanes 1 and 2 of the shape 1 past a
    // shorter one
    let mut shape = shape;
    shape.reverse();
    shape.resize(shape.len().max(3), 1);
    let (ss, ds): (Vec<usize>, Vec<usize>) = (
        ss.into_iter().rev().collect(),
        ds.into_iter().rev().collect(),
    );
    let launch_err = |e: ClError| Error::cl("strided copy launch", e.code);
    kernel.set_dims(0, &shape).map_err(launch_err)?;
    kernel.set_dims(1, &ss).map_err(launch_err)?;
    kernel.set_dims(2, &ds).map_err(launch_err)?;
    kernel.set_mem(3, src).map_err(launch_err)?;
    kernel.set_size(4, from.offset).map_err(launch_err)?;
    kernel.set_mem(5, dst).map_err(launch_err)?;
    kernel.set_size(6, to.offset).map_err(launch_err)?;
    kernel
        .set_value(7, u32::try_from(ndim).unwrap_or(u32::MAX))
        .map_err(launch_err)?;
    kernel.set_size(8, n).map_err(launch_err)?;
    let grid = device
        .strided_grid(kernel.limits(queue), &shape, &[&ss, &ds])
        .ok_or_else(|| Error::SizeOverflow {
            shape: to.shape.to_vec(),
            elem_size,
        })?;
    Ok(grid.enqueue(queue, &kernel)?)
}
