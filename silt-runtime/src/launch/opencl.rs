//! The OpenCL backend of a launch: the instantiation's program on the plan's
//! device, its arguments set in the order of the launch ABI
//! ([`silt_abi::opencl::map_args`]), one enqueue.

use silt_abi::opencl::{map_args, MapArg, Pass};

use crate::cl::codes::OUT_OF_RESOURCES;
use crate::cl::{ClError, Kernel, Mem};
use crate::device::hooks::take_injected_enqueue_failure;
use crate::device::Device;
use crate::dtype::{DType, Element, Scalar};
use crate::error::{Error, Result};
use crate::layout::coalesce;
use crate::program::text::KernelInfo;
use crate::tensor::{Tensor, TensorT};

use super::plan::{tensor_args, Arg, Plan};

/// Builds the program of `info` on `device` without launching it (for tests that
/// check every emitted program compiles).
///
/// # Errors
/// [`Error::Build`] with the build log.
pub fn build(info: &'static KernelInfo, device: &Device) -> Result<()> {
    device.program(info).map(drop)
}

/// Runs an instantiation on the plan's OpenCL device and returns its new output
/// tensors (one per `outputs` dtype). Contiguous views (at any offset) use the
/// plain entry point; any other view, a broadcast included, the strided one, which
/// reads and writes it in place: nothing is copied. Asynchronous: results are
/// ready when read.
///
/// # Errors
/// Build, allocation and launch errors.
pub fn launch_opencl(
    info: &'static KernelInfo,
    plan: &Plan,
    args: &[Arg<'_>],
    outputs: &[DType],
) -> Result<Vec<Tensor>> {
    let device = plan.device;
    let outs = outputs
        .iter()
        .map(|&d| Tensor::uninit(device, d, &plan.shape))
        .collect::<Result<Vec<_>>>()?;
    if plan.len != 0 {
        run_opencl(info, plan, args, &outs)?;
    }
    Ok(outs)
}

/// Runs an instantiation on the plan's OpenCL device writing its results into
/// `outs`, tensors of the launch's shape that `prepare` accepted as written
/// arguments. The entry points write each output whole from its first element,
/// so an output that is contiguous from the start of its storage is written in
/// place; any other one (a view at an offset, a transpose) gets a fresh buffer
/// whose values are then copied into it on the device. Asynchronous.
///
/// # Errors
/// Build, allocation and launch errors.
pub fn launch_opencl_into(
    info: &'static KernelInfo,
    plan: &Plan,
    args: &[Arg<'_>],
    outs: &[&Tensor],
) -> Result<()> {
    if plan.len == 0 {
        return Ok(());
    }
    let direct = |t: &Tensor| t.is_contiguous() && t.offset() == 0;
    let written = outs
        .iter()
        .map(|&t| {
            if direct(t) {
                Ok(t.clone())
            } else {
                Tensor::uninit(plan.device, t.dtype(), &plan.shape)
            }
        })
        .collect::<Result<Vec<_>>>()?;
    run_opencl(info, plan, args, &written)?;
    for (&given, fresh) in outs.iter().zip(&written) {
        if !direct(given) {
            // a view of the caller's storage: the copy writes through it
            let mut view = given.clone();
            view.copy_from(fresh)?;
        }
    }
    Ok(())
}

/// Sets the arguments of the entry point the launch takes and enqueues it,
/// writing `outs` (contiguous from their storage's start, of the launch's
/// shape); `plan.len` is not 0.
fn run_opencl(
    info: &'static KernelInfo,
    plan: &Plan,
    args: &[Arg<'_>],
    outs: &[Tensor],
) -> Result<()> {
    let device = plan.device;
    let queue = device
        .queue()
        .ok_or_else(|| Error::internal("an OpenCL launch on a device without a queue"))?;
    let program = device.program(info)?;
    let (strided, (ndim, dims, strides)) = match strided_layout(plan, args) {
        Some(l) => (true, l),
        None => (false, (0, Vec::new(), Vec::new())),
    };
    // at most three coalesced dimensions: the entry whose index code has no
    // branch (`silt_abi::opencl::strided_indices_3d`)
    let entry = match info.opencl.strided3_entry {
        Some(e) if strided && ndim <= 3 => e,
        _ if strided => info.opencl.strided_entry,
        _ => info.opencl.entry,
    };
    tracing::trace!(target: "silt::launch", kernel = info.name, elements = plan.len, ?entry, "launch");
    let (mut kernel, limits) = program.kernel(entry, queue)?;
    let pass = args.iter().map(|a| match a {
        Arg::Scalar(_) => Pass::Scalar,
        Arg::In(_) | Arg::InOut(_) => Pass::Tensor,
    });
    // `map_args` numbers the parameters as `args` lists them: the kinds match
    let mismatch =
        || Error::internal("launch arguments out of step with the entry point's parameters");
    let tensor_at = |param: usize| match args.get(param) {
        Some(Arg::In(t) | Arg::InOut(t)) => Ok(*t),
        _ => Err(mismatch()),
    };
    for (i, a) in (0u32..).zip(map_args(pass, outs.len(), strided)) {
        match a {
            MapArg::Scalar { param } => match args.get(param) {
                Some(Arg::Scalar(s)) => set_scalar(&mut kernel, i, *s),
                _ => return Err(mismatch()),
            },
            MapArg::Buffer { param } => kernel.set_mem(i, mem_of(tensor_at(param)?)?),
            MapArg::Offset { param } => kernel.set_size(i, tensor_at(param)?.offset()),
            MapArg::Strides { view, .. } => {
                let st = strides.get(view).map_or(&[][..], Vec::as_slice);
                kernel.set_dims(i, st)
            }
            MapArg::Output { output } => {
                let o = outs.get(output).ok_or_else(mismatch)?;
                kernel.set_mem(i, mem_of(o)?)
            }
            MapArg::Shape => kernel.set_dims(i, &dims),
            MapArg::Ndim => kernel.set_value(i, u32::try_from(ndim).unwrap_or(u32::MAX)),
            MapArg::Len => kernel.set_size(i, plan.len),
        }?;
    }
    let overflow = || Error::SizeOverflow {
        shape: plan.shape.to_vec(),
        elem_size: 1,
    };
    if strided {
        let grid = device
            .strided_grid(limits, &dims, &strides)
            .ok_or_else(overflow)?;
        if take_injected_enqueue_failure() {
            return Err(Error::cl("clEnqueueNDRangeKernel", OUT_OF_RESOURCES));
        }
        program.enqueue_grid(queue, &kernel, &grid)?;
    } else {
        let local = device.local_size(plan.len, limits);
        let global = plan
            .len
            .div_ceil(local)
            .checked_mul(local)
            .ok_or_else(overflow)?;
        if take_injected_enqueue_failure() {
            return Err(Error::cl("clEnqueueNDRangeKernel", OUT_OF_RESOURCES));
        }
        program.enqueue(queue, &kernel, global, local)?;
    }
    program.put_back(entry, limits, kernel);
    program.save_after_first_launch(device, |d| d.synchronize().is_ok());
    Ok(())
}

/// A launch's coalesced layout where some tensor argument is not contiguous
/// (`None` where every one is: the contiguous entry's launch): the count of
/// coalesced dimensions, then the strided entry's vectors, which list
/// dimensions innermost first, with a size of 1 in lanes 1 and 2 past a
/// shorter shape (`silt_abi::opencl::strided_indices`): the sizes, and each
/// tensor argument's strides.
type StridedLayout = (usize, Vec<usize>, Vec<Vec<usize>>);

fn strided_layout(plan: &Plan<'_>, args: &[Arg<'_>]) -> Option<StridedLayout> {
    if tensor_args(args).all(|(_, t, _)| plan.view_of(t).is_contiguous()) {
        return None;
    }
    let views: Vec<_> = tensor_args(args).map(|(_, t, _)| plan.view_of(t)).collect();
    let all: Vec<&[usize]> = views.iter().map(|v| &*v.strides).collect();
    let (mut dims, mut strides) = coalesce(&plan.shape, &all);
    let ndim = dims.len();
    dims.reverse();
    strides.iter_mut().for_each(|s| s.reverse());
    if ndim < 3 {
        dims.resize(3, 1);
    }
    Some((ndim, dims, strides))
}

/// Which tensor arguments of a launch that takes the `_strided3` entry have
/// a stride of 0 along its innermost dimension (a broadcast along it); empty
/// for a launch that takes another entry, or where none has. A fused chain
/// composes its `_strided3` entry for these (see
/// `silt_abi::opencl::strided_indices_3d_flat`).
pub(crate) fn innermost_broadcasts(plan: &Plan<'_>, args: &[Arg<'_>]) -> Vec<bool> {
    match strided_layout(plan, args) {
        Some((ndim, _, strides)) if ndim <= 3 => {
            let flat: Vec<bool> = strides.iter().map(|s| s.first() == Some(&0)).collect();
            if flat.contains(&true) {
                flat
            } else {
                Vec::new()
            }
        }
        _ => Vec::new(),
    }
}

/// The buffer of a device tensor.
pub(crate) fn mem_of(t: &Tensor) -> Result<&Mem> {
    t.storage
        .block()
        .map(|b| &b.mem)
        .ok_or_else(|| Error::internal("a device tensor without its buffer"))
}

/// Sets a scalar argument, as [`silt_abi::opencl::storage_type`] of its dtype
/// (`bool` as a byte, `f16` as its bits).
pub(crate) fn set_scalar(kernel: &mut Kernel<'_>, i: u32, s: Scalar) -> Result<(), ClError> {
    match s {
        Scalar::Bool(v) => kernel.set_value(i, u8::from(v)),
        Scalar::U8(v) => kernel.set_value(i, v),
        Scalar::I8(v) => kernel.set_value(i, v),
        Scalar::U16(v) => kernel.set_value(i, v),
        Scalar::I16(v) => kernel.set_value(i, v),
        Scalar::U32(v) => kernel.set_value(i, v),
        Scalar::I32(v) => kernel.set_value(i, v),
        Scalar::U64(v) => kernel.set_value(i, v),
        Scalar::I64(v) => kernel.set_value(i, v),
        Scalar::F16(v) => kernel.set_value(i, v.to_bits()),
        Scalar::F32(v) => kernel.set_value(i, v),
        Scalar::F64(v) => kernel.set_value(i, v),
    }
}

/// The next output of a device launch ([`map_on_device`](crate::launch::map_on_device) and its kin), typed.
///
/// # Errors
/// [`Error::DTypeMismatch`] if generated code and runtime disagree (a bug).
pub fn next_output<T: Element>(outs: &mut impl Iterator<Item = Tensor>) -> Result<TensorT<T>> {
    match outs.next() {
        Some(t) => t.into_typed(),
        None => Err(Error::DataLength {
            shape: Vec::new(),
            expected: 1,
            len: 0,
        }),
    }
}
