//! The library's reductions and scans as operations: families of generated
//! reductions joined into one module (`sum` of `i8` accumulates in `i64`, of
//! `f16` in `f32`), and the operations made of a reduction and a kernel
//! (`var`, `softmax`, ...).

use silt::kernel;

/// What a family's `eval` gives for one row: a value for a reduction, the
/// row for a scan.
macro_rules! family_eval {
    (reduce, $out:ty) => {
        $out
    };
    (scan, $out:ty) => {
        Vec<$out>
    };
}

/// One operation over a family of generated reductions or scans: a module
/// with `launch` (typed), `dispatch`, `eval` (one row on the host: its
/// member's), `source`, `TYPES` and `NAME`, each element type going to its
/// member of the family.
macro_rules! family {
    (
        $(#[$doc:meta])*
        $name:ident($arg:ident: $argty:ty) via $form:ident {
            $($t:ty => $inner:ident: $out:ty),* $(,)?
        }
    ) => {
        $(#[$doc])*
        pub mod $name {
            use std::sync::OnceLock;

            #[allow(unused_imports)]
            use silt::f16;
            use silt::__private::KernelInfo;
            use silt::{DType, Element, Result, Tensor, TensorT};

            /// The operation's name.
            pub const NAME: &str = stringify!($name);
            /// The element types it takes.
            pub const TYPES: &[DType] = &[$(<$t as Element>::DTYPE),*];

            /// An element type the operation takes, and the element type of
            /// its result.
            pub trait Instance: Element {
                /// The result's element type.
                type Out: Element;
                #[doc(hidden)]
                fn __launch(x: &TensorT<Self>, $arg: $argty) -> Result<TensorT<Self::Out>>;
                #[doc(hidden)]
                fn __info() -> &'static KernelInfo;
                #[doc(hidden)]
                fn __source() -> Option<&'static str>;
                #[doc(hidden)]
                fn __eval(row: &[Self]) -> family_eval!($form, Self::Out);
            }
            $(
                impl Instance for $t {
                    type Out = $out;
                    fn __launch(x: &TensorT<Self>, $arg: $argty) -> Result<TensorT<$out>> {
                        crate::$form::$inner::launch(x, $arg)
                    }
                    fn __info() -> &'static KernelInfo {
                        <$t as crate::$form::$inner::Instance>::__info()
                    }
                    fn __source() -> Option<&'static str> {
                        crate::$form::$inner::source(<$t as Element>::DTYPE)
                    }
                    fn __eval(row: &[Self]) -> family_eval!($form, $out) {
                        crate::$form::$inner::eval(row)
                    }
                }
            )*

            /// Runs the operation on `x`, on its device; the result's element
            /// type is [`Instance::Out`].
            ///
            /// # Errors
            /// Those of the generated `launch` (axes out of range, an OpenCL
            /// failure, ...).
            pub fn launch<T: Instance>(x: &TensorT<T>, $arg: $argty) -> Result<TensorT<T::Out>> {
                T::__launch(x, $arg)
            }

            /// One row (`x` along the operation's axis) on the host, in
            /// the order a launch computes it: the reference device results
            /// are checked against (a value for a reduction, the row for a
            /// scan).
            pub fn eval<T: Instance>(row: &[T]) -> family_eval!($form, T::Out) {
                T::__eval(row)
            }

            /// [`launch`] on an untyped tensor.
            ///
            /// # Errors
            /// `Error::UnsupportedDType` outside [`TYPES`], and what [`launch`]
            /// reports.
            pub fn dispatch(x: &Tensor, $arg: $argty) -> Result<Tensor> {
                let dtype = x.dtype();
                $(
                    if dtype == <$t as Element>::DTYPE {
                        return launch::<$t>(&x.typed()?, $arg).map(Tensor::from);
                    }
                )*
                Err(silt::Error::UnsupportedDType {
                    kernel: NAME,
                    dtype,
                    supported: TYPES,
                })
            }

            /// The OpenCL C of the instantiation for `dtype`.
            pub fn source(dtype: DType) -> Option<&'static str> {
                $(
                    if dtype == <$t as Element>::DTYPE {
                        return <$t as Instance>::__source();
                    }
                )*
                None
            }

            /// Every instantiation's launch information, in the order of
            /// [`TYPES`] (for tests and tools).
            #[doc(hidden)]
            pub fn __infos() -> &'static [&'static KernelInfo] {
                static INFOS: OnceLock<Vec<&'static KernelInfo>> = OnceLock::new();
                INFOS.get_or_init(|| vec![$(<$t as Instance>::__info()),*])
            }
        }
    };
}

family! {
    /// The sum of the elements over `axes`, as PyTorch's `sum`: integers and
    /// `bool` accumulate in `i64` (`u64` for `u32` and `u64`) and return that
    /// type (wrapping), `f16` accumulates in `f32` and is rounded once.
    sum(axes: silt::Axes) via reduce {
        f32 => sum_float: f32, f64 => sum_float: f64, f16 => sum_half: f16,
        bool => sum_int: i64, i8 => sum_int: i64, i16 => sum_int: i64, i32 => sum_int: i64,
        i64 => sum_int: i64, u8 => sum_int: i64, u16 => sum_int: i64,
        u32 => sum_uint: u64, u64 => sum_uint: u64,
    }
}

family! {
    /// The product of the elements over `axes`, with `sum`'s types.
    prod(axes: silt::Axes) via reduce {
        f32 => prod_float: f32, f64 => prod_float: f64, f16 => prod_half: f16,
        bool => prod_int: i64, i8 => prod_int: i64, i16 => prod_int: i64, i32 => prod_int: i64,
        i64 => prod_int: i64, u8 => prod_int: i64, u16 => prod_int: i64,
        u32 => prod_uint: u64, u64 => prod_uint: u64,
    }
}

family! {
    /// The mean over `axes` (NaN over no elements); floats, `f16` in `f32`.
    mean(axes: silt::Axes) via reduce {
        f32 => mean_float: f32, f64 => mean_float: f64, f16 => mean_half: f16,
    }
}

family! {
    /// The running sum along `axis`, with `sum`'s types.
    cumsum(axis: isize) via scan {
        f32 => cumsum_float: f32, f64 => cumsum_float: f64, f16 => cumsum_half: f16,
        bool => cumsum_int: i64, i8 => cumsum_int: i64, i16 => cumsum_int: i64,
        i32 => cumsum_int: i64, i64 => cumsum_int: i64, u8 => cumsum_int: i64,
        u16 => cumsum_int: i64, u32 => cumsum_uint: u64, u64 => cumsum_uint: u64,
    }
}

family! {
    /// The running product along `axis`, with `sum`'s types.
    cumprod(axis: isize) via scan {
        f32 => cumprod_float: f32, f64 => cumprod_float: f64, f16 => cumprod_half: f16,
        bool => cumprod_int: i64, i8 => cumprod_int: i64, i16 => cumprod_int: i64,
        i32 => cumprod_int: i64, i64 => cumprod_int: i64, u8 => cumprod_int: i64,
        u16 => cumprod_int: i64, u32 => cumprod_uint: u64, u64 => cumprod_uint: u64,
    }
}

family! {
    /// The running `ln(sum(exp(x)))` along `axis`, as PyTorch's
    /// `logcumsumexp`: each step `max + ln_1p(exp(-|a - b|))` (no overflow),
    /// NaN propagating; floats, `f16` in `f32`.
    logcumsumexp(axis: isize) via scan {
        f32 => logcumsumexp_float: f32, f64 => logcumsumexp_float: f64,
        f16 => logcumsumexp_half: f16,
    }
}

// ---- the kernels that finish composite operations ----

#[doc(hidden)]
#[kernel(types = [f32, f64])]
pub fn div_count<T>(m2: T, #[scalar] d: T) -> T {
    m2 / d
}

#[doc(hidden)]
#[kernel(types = [f32, f64])]
pub fn sqrt_div_count<T>(m2: T, #[scalar] d: T) -> T {
    (m2 / d).sqrt()
}

#[doc(hidden)]
#[kernel]
pub fn div_count_half(m2: f32, #[scalar] d: f32) -> f16 {
    (m2 / d) as f16
}

#[doc(hidden)]
#[kernel]
pub fn sqrt_div_count_half(m2: f32, #[scalar] d: f32) -> f16 {
    (m2 / d).sqrt() as f16
}
