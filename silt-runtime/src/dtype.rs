//! Element types: the runtime tag [`DType`] and the static trait [`Element`].

use std::fmt;

pub use silt_abi::DType;

mod sealed {
    pub trait Sealed {}
}

/// A type that can be an element of a tensor.
///
/// Implemented for exactly the types of [`DType`] and sealed: user code cannot add
/// more, so every `TensorT<T>` has a matching OpenCL C type.
///
/// Generic code reads the type's facts from its constants and moves values to and
/// from [`Scalar`](crate::Scalar):
///
/// ```
/// # use silt_runtime::{DType, Element, Scalar};
/// fn describe<T: Element>() -> (DType, &'static str, usize) {
///     (T::DTYPE, T::CL_NAME, T::SIZE)
/// }
/// assert_eq!(describe::<i16>(), (DType::I16, "short", 2));
/// assert_eq!(3u8.into_scalar(), Scalar::U8(3));
/// assert_eq!(u8::from_scalar(Scalar::U8(3)), Some(3));
/// assert_eq!(u8::from_scalar(Scalar::I32(3)), None); // exactly this type only
/// ```
pub trait Element:
    sealed::Sealed
    + bytemuck::NoUninit
    + Copy
    + Default
    + PartialEq
    + fmt::Debug
    + Send
    + Sync
    + 'static
{
    /// The runtime tag of this type.
    const DTYPE: DType;
    /// The OpenCL C type that stores it.
    const CL_NAME: &'static str = Self::DTYPE.cl_name();
    /// Its size in bytes.
    const SIZE: usize = Self::DTYPE.size();

    /// Views initialised storage bytes as elements.
    ///
    /// Bytes that are not a valid value of the type (a `bool` byte other than 0 or 1,
    /// as a device kernel could write) are first normalised in place (`b != 0`), so
    /// this never fails for a slice whose length is a multiple of the size and whose
    /// address is aligned, which silt's storage guarantees.
    #[doc(hidden)]
    fn from_bytes_mut(bytes: &mut [u8]) -> Option<&mut [Self]>;

    /// Views storage bytes as elements, if they are aligned and all valid.
    #[doc(hidden)]
    fn from_bytes(bytes: &[u8]) -> Option<&[Self]>;

    /// Copies storage bytes (any alignment) into elements, normalising `bool`.
    #[doc(hidden)]
    fn vec_from_bytes(bytes: &[u8]) -> Vec<Self>;

    /// This value as a [`Scalar`](crate::Scalar).
    fn into_scalar(self) -> crate::Scalar;

    /// The value of a [`Scalar`](crate::Scalar) of exactly this type.
    fn from_scalar(s: crate::Scalar) -> Option<Self>;
}

macro_rules! pod_element {
    ($($t:ty => $d:ident),* $(,)?) => {$(
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const DTYPE: DType = DType::$d;
            fn from_bytes_mut(bytes: &mut [u8]) -> Option<&mut [Self]> {
                bytemuck::try_cast_slice_mut(bytes).ok()
            }
            fn from_bytes(bytes: &[u8]) -> Option<&[Self]> {
                bytemuck::try_cast_slice(bytes).ok()
            }
            fn vec_from_bytes(bytes: &[u8]) -> Vec<Self> {
                bytemuck::pod_collect_to_vec(bytes)
            }
            fn into_scalar(self) -> crate::Scalar {
                crate::Scalar::$d(self)
            }
            fn from_scalar(s: crate::Scalar) -> Option<Self> {
                match s {
                    crate::Scalar::$d(v) => Some(v),
                    _ => None,
                }
            }
        }
    )*};
}

pod_element!(
    u8 => U8, i8 => I8, u16 => U16, i16 => I16, u32 => U32, i32 => I32,
    u64 => U64, i64 => I64, half::f16 => F16, f32 => F32, f64 => F64,
);

impl sealed::Sealed for bool {}
impl Element for bool {
    const DTYPE: DType = DType::Bool;
    fn from_bytes_mut(bytes: &mut [u8]) -> Option<&mut [Self]> {
        for b in bytes.iter_mut() {
            *b = u8::from(*b != 0);
        }
        bytemuck::checked::try_cast_slice_mut(bytes).ok()
    }
    fn from_bytes(bytes: &[u8]) -> Option<&[Self]> {
        bytemuck::checked::try_cast_slice(bytes).ok()
    }
    fn vec_from_bytes(bytes: &[u8]) -> Vec<Self> {
        bytes.iter().map(|&b| b != 0).collect()
    }
    fn into_scalar(self) -> crate::Scalar {
        crate::Scalar::Bool(self)
    }
    fn from_scalar(s: crate::Scalar) -> Option<Self> {
        match s {
            crate::Scalar::Bool(v) => Some(v),
            _ => None,
        }
    }
}

/// Turns a runtime [`DType`] into a static element type, the way C++ code switches
/// on a tag to call a template instantiation.
///
/// `select!(dtype, T => expr, [f32, f64, i32])` evaluates `expr` with the type alias
/// `T` bound to the Rust type of `dtype`, for the listed types only; for any other
/// dtype it evaluates to `Err(Error::UnsupportedDType { .. })` with `kernel` set to
/// the optional name given first (`select!("my_op", dtype, ...)`), else `"select"`.
/// The expression must itself be a `Result<_, Error>`.
///
/// ```
/// use silt_runtime::{select, DType, Element, Result};
///
/// fn size_of_dtype(dtype: DType) -> Result<usize> {
///     select!(dtype, T => Ok(std::mem::size_of::<T>()), [f32, f64, i32])
/// }
/// assert_eq!(size_of_dtype(DType::F64).unwrap(), 8);
/// assert!(size_of_dtype(DType::U8).is_err());
/// ```
#[macro_export]
macro_rules! select {
    ($dtype:expr, $T:ident => $body:expr, [$($ty:ty),+ $(,)?]) => {
        $crate::select!("select", $dtype, $T => $body, [$($ty),+])
    };
    ($name:literal, $dtype:expr, $T:ident => $body:expr, [$($ty:ty),+ $(,)?]) => {{
        let __silt_dtype: $crate::DType = $dtype;
        const __SILT_SUPPORTED: &[$crate::DType] =
            &[$(<$ty as $crate::Element>::DTYPE),+];
        'select: {
            $(
                if __silt_dtype == <$ty as $crate::Element>::DTYPE {
                    #[allow(dead_code)]
                    type $T = $ty;
                    break 'select $body;
                }
            )+
            ::core::result::Result::Err($crate::Error::UnsupportedDType {
                kernel: $name,
                dtype: __silt_dtype,
                supported: __SILT_SUPPORTED,
            })
        }
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for d in DType::ALL {
            assert_eq!(DType::from_name(d.name()), Some(d));
        }
        assert_eq!(DType::from_name("f128"), None);
    }

    #[test]
    fn sizes_match_rust() {
        assert_eq!(<bool as Element>::SIZE, std::mem::size_of::<bool>());
        assert_eq!(<half::f16 as Element>::SIZE, 2);
        assert_eq!(<f64 as Element>::SIZE, 8);
        assert_eq!(<i16 as Element>::CL_NAME, "short");
    }

    #[test]
    fn bool_bytes_are_normalised() {
        let mut bytes = [0u8, 1, 2, 255];
        let b = bool::from_bytes_mut(&mut bytes).unwrap();
        assert_eq!(b, &[false, true, true, true]);
        assert!(bool::from_bytes(&[0, 7]).is_none());
    }

    #[test]
    fn select_picks_the_type_or_errors() {
        fn name(d: DType) -> crate::Result<&'static str> {
            select!("probe", d, T => Ok(T::DTYPE.name()), [f32, i64])
        }
        assert_eq!(name(DType::I64).unwrap(), "i64");
        let err = name(DType::U8).unwrap_err();
        assert_eq!(
            err,
            crate::Error::UnsupportedDType {
                kernel: "probe",
                dtype: DType::U8,
                supported: &[DType::F32, DType::I64],
            }
        );
    }
}
