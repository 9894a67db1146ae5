//! One code path for tensors whose element type is known only at run time: the
//! functions below take untyped `Tensor`s of any numeric dtype. Kernels run through
//! `NAME::dispatch` (the dtype picks the instantiation), and `silt::select!` turns
//! the dtype into a Rust type where host code needs one (converting bounds, finding
//! the range, checking against `eval`).
//!
//! Run with `cargo run --example dispatch`.

use silt::prelude::*;

/// `x` limited to `[lo, hi]`.
#[kernel(types = [u8, i8, i16, u32, i32, i64, f32, f64])]
pub fn clip<T>(x: T, #[scalar] lo: T, #[scalar] hi: T) -> T {
    x.clamp(lo, hi)
}

/// `(x - lo) * scale` as `f32`: with `scale = 1 / (hi - lo)`, maps `[lo, hi]` onto
/// `[0, 1]`.
#[kernel(types = [u8, i8, i16, u32, i32, i64, f32, f64])]
pub fn rescale<T>(x: T, #[scalar] lo: T, #[scalar] scale: f32) -> f32 {
    (x as f32 - lo as f32) * scale
}

/// A 1-D tensor of `dtype` on `dev` holding `values` converted with `as`
/// (saturating for integers: `-3.5` becomes `0u8`).
#[allow(clippy::cast_possible_truncation)] // saturating `as` is what we want
fn tensor_of(dev: &Device, dtype: DType, values: &[f64]) -> Result<Tensor> {
    select!("tensor_of", dtype, T => {
        let data: Vec<T> = values.iter().map(|&v| v as T).collect();
        Tensor::from_slice(dev, &data, [data.len()])
    }, [u8, i8, i16, u32, i32, i64, f32, f64])
}

/// `t` clamped to `[lo, hi]`, the bounds converted to `t`'s type first.
#[allow(clippy::cast_possible_truncation)] // saturating `as` is what we want
fn clamp_any(t: &Tensor, lo: f64, hi: f64) -> Result<Tensor> {
    let (lo, hi): (Scalar, Scalar) = select!("clamp_any", t.dtype(), T => {
        Ok(((lo as T).into(), (hi as T).into()))
    }, [u8, i8, i16, u32, i32, i64, f32, f64])?;
    clip::dispatch(t, lo, hi)
}

/// `t` mapped onto `[0, 1]` as `f32` (all zeros when its elements are all equal):
/// the range is found on the host (silt-kernels has no reductions), the mapping
/// runs on `t`'s device, and each element is checked against the kernel's `eval`.
fn normalise(t: &Tensor) -> Result<Tensor> {
    select!("normalise", t.dtype(), T => {
        let values = t.to_vec::<T>()?;
        let first = values.first().copied().unwrap_or_default();
        let lo = values.iter().copied().fold(first, |m, x| if x < m { x } else { m });
        let hi = values.iter().copied().fold(first, |m, x| if x > m { x } else { m });
        let span = rescale::eval(hi, lo, 1.0); // hi - lo in f32, as the kernel sees it
        let scale = if span > 0.0 { 1.0 / span } else { 0.0 };
        let out = rescale::dispatch(t, lo, scale)?;
        for (x, y) in values.iter().zip(out.to_vec::<f32>()?) {
            assert_eq!(rescale::eval(*x, lo, scale), y, "{x:?} on {}", t.device());
        }
        Ok(out)
    }, [u8, i8, i16, u32, i32, i64, f32, f64])
}

/// The elements of a tensor of any dtype, printed.
fn show(t: &Tensor) -> Result<String> {
    select!("show", t.dtype(), T => Ok(format!("{:?}", t.to_vec::<T>()?)), [
        bool, u8, i8, u16, i16, u32, i32, u64, i64, f32, f64
    ])
}

fn main() -> Result<()> {
    let dev = Device::default()?;
    println!("on {dev}");
    let values = [-3.5, -1.0, 0.0, 2.0, 7.25, 100.0];
    for dtype in [
        DType::F32,
        DType::F64,
        DType::I32,
        DType::I64,
        DType::I16,
        DType::I8,
        DType::U8,
        DType::U32,
    ] {
        if !dev.supports(dtype) {
            println!("{dtype}: not supported by {dev}, skipped");
            continue;
        }
        let t = tensor_of(&dev, dtype, &values)?;
        let clamped = clamp_any(&t, -2.0, 10.0)?;
        let unit = normalise(&clamped)?;
        assert_eq!(clamped.dtype(), dtype);
        assert_eq!(unit.dtype(), DType::F32);
        println!("{dtype}:");
        println!("  input          {}", show(&t)?);
        println!("  clamp to -2,10 {}", show(&clamped)?);
        println!("  normalised     {}", show(&unit)?);
    }

    // any view goes through the same path: a transposed 2-D i32 tensor
    let m = tensor_of(&dev, DType::I32, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])?
        .reshape([2, 3])?
        .transpose(0, 1)?;
    println!("i32 [3, 2] view, normalised: {}", show(&normalise(&m)?)?);

    // a dtype outside the list is an error, not a panic
    let f = Tensor::zeros(&dev, DType::Bool, [2])?;
    println!("bool: {}", clamp_any(&f, 0.0, 1.0).unwrap_err());
    Ok(())
}
