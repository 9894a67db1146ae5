//! Element type conversions (`t.astype(dtype)`, `t.to(dtype=...)`): one
//! launch on the tensor's device, with silt's cast semantics (floats to
//! integers saturate and NaN becomes 0, integers to narrower integers wrap,
//! rounding to nearest into floats, `x != 0` into `bool`, `bool` into `0`
//! and `1`).

use silt::{select, DType, Device, Element, Tensor};
use silt_kernels as k;

use crate::kernels;

/// `t`'s elements as `to`, in a new tensor on `t`'s device (`t` itself when
/// it already has that dtype).
///
/// # Errors
/// Allocation and launch errors.
pub fn cast(t: &Tensor, to: DType) -> silt::Result<Tensor> {
    let from = t.dtype();
    if from == to {
        return Ok(t.clone());
    }
    if from == DType::Bool {
        // no cast kernel reads bool: choose between 1 and 0 of the new dtype
        let one = select!(to, T => one_of::<T>(t.device(), true), [bool, u8, i8, u16, i16, u32, i32, u64, i64, silt::f16, f32, f64])?;
        let zero = select!(to, T => one_of::<T>(t.device(), false), [bool, u8, i8, u16, i16, u32, i32, u64, i64, silt::f16, f32, f64])?;
        return k::where_::dispatch(t, &one, &zero);
    }
    match to {
        DType::Bool => k::to_bool::dispatch(t),
        DType::U8 => k::to_u8::dispatch(t),
        DType::I8 => kernels::to_i8::dispatch(t),
        DType::U16 => kernels::to_u16::dispatch(t),
        DType::I16 => kernels::to_i16::dispatch(t),
        DType::U32 => kernels::to_u32::dispatch(t),
        DType::I32 => k::to_i32::dispatch(t),
        DType::U64 => kernels::to_u64::dispatch(t),
        DType::I64 => k::to_i64::dispatch(t),
        DType::F16 => k::to_f16::dispatch(t),
        DType::F32 => k::to_f32::dispatch(t),
        DType::F64 => k::to_f64::dispatch(t),
    }
}

/// A 0-d tensor of `T` on `device`: one for `true`, zero for `false`.
fn one_of<T: Element>(device: &Device, one: bool) -> silt::Result<Tensor> {
    let s = silt::Scalar::U8(u8::from(one));
    let v = if T::DTYPE == DType::Bool {
        silt::Scalar::Bool(one).to::<T>()?
    } else {
        s.to::<T>()?
    };
    Tensor::from_slice(device, &[v], [])
}
