//! Operations made of a reduction and a kernel: `var` and `std` (the sum of
//! squared deviations, divided by the count less the correction), `norm`,
//! `logsumexp`. Floats only; `f16` computes in
//! `f32` and rounds once.

use silt::__private::KernelInfo;
use silt::{f16, Axes, Element, Error, Result, TensorT};

use crate::reduce::{lse, lse_half, norm1, norm1_half, norm2, norm2_half, norm_inf};
use crate::reduce::{sq_dev, sq_dev_half};
use crate::{div_count, div_count_half, sqrt_div_count, sqrt_div_count_half, to_f16};

/// The float types the composite operations take.
pub(crate) const FLOATS: &[silt::DType] = &[silt::DType::F16, silt::DType::F32, silt::DType::F64];

/// How many elements each output element of a reduction of `x` over `axes`
/// combines.
fn reduced_count(shape: &[usize], axes: &Axes) -> Result<usize> {
    let reduced = axes.reduced(shape.len())?;
    let dims: Vec<usize> = shape
        .iter()
        .zip(reduced)
        .filter(|(_, r)| *r)
        .map(|(&d, _)| d)
        .collect();
    // 0 where one is 0; a product past `usize` only beside a kept axis of 0
    // (no result to divide), so any large count does
    Ok(if dims.contains(&0) {
        0
    } else {
        dims.iter()
            .try_fold(1usize, |n, &d| n.checked_mul(d))
            .unwrap_or(usize::MAX)
    })
}

/// `max(0, count - correction)`, the divisor of `var` (PyTorch's rule).
#[allow(clippy::cast_precision_loss)] // counts of tensors are far below 2^53
fn divisor(shape: &[usize], axes: &Axes, correction: f64) -> Result<f64> {
    Ok((reduced_count(shape, axes)? as f64 - correction).max(0.0))
}

/// A float type of the composite operations.
pub trait Float: Element {
    #[doc(hidden)]
    fn __var(x: &TensorT<Self>, correction: f64, axes: Axes, sqrt: bool) -> Result<TensorT<Self>>;
    #[doc(hidden)]
    fn __norm(x: &TensorT<Self>, p: f64, axes: Axes) -> Result<TensorT<Self>>;
    #[doc(hidden)]
    fn __logsumexp(x: &TensorT<Self>, axes: Axes) -> Result<TensorT<Self>>;
    #[doc(hidden)]
    fn __infos() -> Vec<&'static KernelInfo>;
}

fn bad_order(p: f64) -> Error {
    Error::InvalidArgument {
        op: "norm",
        reason: format!("order {p} is not supported: use 1, 2 or f64::INFINITY"),
    }
}

/// The infinity norm's error over no elements, named as the caller's `norm`.
fn as_norm(e: Error) -> Error {
    match e {
        Error::EmptyReduction { shape, .. } => Error::EmptyReduction { op: "norm", shape },
        e => e,
    }
}

macro_rules! float_impl {
    ($t:ty) => {
        impl Float for $t {
            #[allow(clippy::cast_possible_truncation)] // the divisor in the type
            fn __var(
                x: &TensorT<Self>,
                correction: f64,
                axes: Axes,
                sqrt: bool,
            ) -> Result<TensorT<Self>> {
                let d = divisor(x.shape(), &axes, correction)? as $t;
                let m2 = sq_dev::launch(x, axes)?;
                if sqrt {
                    sqrt_div_count::launch(&m2, d)
                } else {
                    div_count::launch(&m2, d)
                }
            }
            fn __norm(x: &TensorT<Self>, p: f64, axes: Axes) -> Result<TensorT<Self>> {
                match p {
                    1.0 => norm1::launch(x, axes),
                    2.0 => norm2::launch(x, axes),
                    f64::INFINITY => norm_inf::launch(x, axes).map_err(as_norm),
                    _ => Err(bad_order(p)),
                }
            }
            fn __logsumexp(x: &TensorT<Self>, axes: Axes) -> Result<TensorT<Self>> {
                lse::launch(x, axes)
            }
            fn __infos() -> Vec<&'static KernelInfo> {
                vec![
                    <$t as sq_dev::Instance>::__info(),
                    <$t as div_count::Instance>::__info(),
                    <$t as sqrt_div_count::Instance>::__info(),
                    <$t as norm1::Instance>::__info(),
                    <$t as norm2::Instance>::__info(),
                    <$t as norm_inf::Instance>::__info(),
                    <$t as lse::Instance>::__info(),
                ]
            }
        }
    };
}

float_impl!(f32);
float_impl!(f64);

impl Float for f16 {
    #[allow(clippy::cast_possible_truncation)] // the divisor in f32
    fn __var(x: &TensorT<Self>, correction: f64, axes: Axes, sqrt: bool) -> Result<TensorT<Self>> {
        let d = divisor(x.shape(), &axes, correction)? as f32;
        let m2 = sq_dev_half::launch(x, axes)?;
        if sqrt {
            sqrt_div_count_half::launch(&m2, d)
        } else {
            div_count_half::launch(&m2, d)
        }
    }
    fn __norm(x: &TensorT<Self>, p: f64, axes: Axes) -> Result<TensorT<Self>> {
        match p {
            1.0 => norm1_half::launch(x, axes),
            2.0 => norm2_half::launch(x, axes),
            f64::INFINITY => norm_inf::launch(x, axes).map_err(as_norm),
            _ => Err(bad_order(p)),
        }
    }
    fn __logsumexp(x: &TensorT<Self>, axes: Axes) -> Result<TensorT<Self>> {
        to_f16::launch(&lse_half::launch(x, axes)?)
    }
    fn __infos() -> Vec<&'static KernelInfo> {
        vec![
            <f16 as sq_dev_half::Instance>::__info(),
            div_count_half::__infos()[0],
            sqrt_div_count_half::__infos()[0],
            <f16 as norm1_half::Instance>::__info(),
            <f16 as norm2_half::Instance>::__info(),
            <f16 as norm_inf::Instance>::__info(),
            <f16 as lse_half::Instance>::__info(),
            <f32 as to_f16::Instance>::__info(),
        ]
    }
}

/// Every float instantiation's launch information (all the parts).
pub(crate) fn infos() -> &'static [&'static KernelInfo] {
    static INFOS: ::std::sync::OnceLock<Vec<&'static KernelInfo>> = ::std::sync::OnceLock::new();
    INFOS.get_or_init(|| {
        let mut v = <f16 as Float>::__infos();
        v.extend(<f32 as Float>::__infos());
        v.extend(<f64 as Float>::__infos());
        v
    })
}

/// The source of an operation's first part for `dtype`.
pub(crate) fn first_source(
    dtype: silt::DType,
    of: fn(silt::DType) -> Option<&'static str>,
    half: fn(silt::DType) -> Option<&'static str>,
) -> Option<&'static str> {
    match dtype {
        silt::DType::F16 => half(dtype),
        silt::DType::F32 | silt::DType::F64 => of(dtype),
        _ => None,
    }
}

/// One composite operation's module: `launch`, `dispatch`, `source`, `TYPES`,
/// `NAME`.
macro_rules! composite {
    (
        $(#[$doc:meta])*
        $name:ident($($arg:ident: $argty:ty),*) => $call:ident($($pass:expr),*);
        source: $src:path, $src_half:path
    ) => {
        $(#[$doc])*
        pub mod $name {
            use silt::{DType, Result, Tensor, TensorT};

            use crate::composite::Float;

            /// The operation's name.
            pub const NAME: &str = stringify!($name);
            /// The element types it takes.
            pub const TYPES: &[DType] = crate::composite::FLOATS;

            /// Runs the operation on `x`, on its device.
            ///
            /// # Errors
            /// Axes out of range, an argument it does not take, and what the
            /// launches of its parts report.
            pub fn launch<T: Float>(x: &TensorT<T>, $($arg: $argty),*) -> Result<TensorT<T>> {
                T::$call(x, $($pass),*)
            }

            /// [`launch`] on an untyped tensor.
            ///
            /// # Errors
            /// `Error::UnsupportedDType` outside [`TYPES`], and what [`launch`]
            /// reports.
            pub fn dispatch(x: &Tensor, $($arg: $argty),*) -> Result<Tensor> {
                match x.dtype() {
                    DType::F16 => launch::<silt::f16>(&x.typed()?, $($arg),*).map(Tensor::from),
                    DType::F32 => launch::<f32>(&x.typed()?, $($arg),*).map(Tensor::from),
                    DType::F64 => launch::<f64>(&x.typed()?, $($arg),*).map(Tensor::from),
                    dtype => Err(silt::Error::UnsupportedDType {
                        kernel: NAME,
                        dtype,
                        supported: TYPES,
                    }),
                }
            }

            /// The OpenCL C of the reduction this operation starts with, for
            /// `dtype`.
            pub fn source(dtype: DType) -> Option<&'static str> {
                crate::composite::first_source(dtype, $src, $src_half)
            }

            /// The launch information of every part, every type.
            #[doc(hidden)]
            pub fn __infos() -> &'static [&'static silt::__private::KernelInfo] {
                crate::composite::infos()
            }
        }
    };
}

composite! {
    /// The variance over `axes`: the sum of squared deviations from the mean
    /// over `max(0, count - correction)` (PyTorch's `correction`, 1 for the
    /// sample variance), accumulated by Welford's method in silt's order.
    var(correction: f64, axes: silt::Axes) => __var(correction, axes, false);
    source: crate::reduce::sq_dev::source, crate::reduce::sq_dev_half::source
}

composite! {
    /// The standard deviation over `axes`, `sqrt(var)`.
    std(correction: f64, axes: silt::Axes) => __var(correction, axes, true);
    source: crate::reduce::sq_dev::source, crate::reduce::sq_dev_half::source
}

composite! {
    /// The vector norm over `axes` of order `p`: `1` (sum of `|x|`), `2`
    /// (Euclidean; no scaling, as PyTorch) or `f64::INFINITY` (largest `|x|`;
    /// NaN propagates; an error over no elements, as `amax`, since it has no
    /// identity). Another `p` is `Error::InvalidArgument`.
    norm(p: f64, axes: silt::Axes) => __norm(p, axes);
    source: crate::reduce::norm2::source, crate::reduce::norm2_half::source
}

composite! {
    /// `ln(sum(exp(x)))` over `axes`, without overflow for large inputs (the
    /// running maximum is factored out).
    logsumexp(axes: silt::Axes) => __logsumexp(axes);
    source: crate::reduce::lse::source, crate::reduce::lse_half::source
}
