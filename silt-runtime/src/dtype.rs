//! Element types: the runtime tag [`DType`], the static trait [`Element`], and
//! [`Scalar`], one value of any of them. `Element` and `Scalar` are defined in
//! terms of each other (`Element::into_scalar`, `Scalar::to::<T: Element>`).

use std::fmt;

use half::f16;

use crate::error::{host_oom, Error, Result};

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

    /// A vector of `len` elements whose bytes `fill` writes, every one of them:
    /// straight into the vector's own memory (freshly zeroed pages, which the
    /// system maps lazily), except for `bool`, whose bytes are normalised.
    #[doc(hidden)]
    fn vec_filled<F>(len: usize, fill: F) -> Result<Vec<Self>>
    where
        F: FnOnce(&mut [u8]) -> Result<()>;

    /// This value as a [`Scalar`](crate::Scalar).
    fn into_scalar(self) -> Scalar;

    /// The value of a [`Scalar`](crate::Scalar) of exactly this type.
    fn from_scalar(s: Scalar) -> Option<Self>;
}

macro_rules! pod_element {
    ($($t:ty => $d:ident),* $(,)?) => {$(
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const DTYPE: DType = DType::$d;
            #[inline]
            fn from_bytes_mut(bytes: &mut [u8]) -> Option<&mut [Self]> {
                if bytes.is_empty() {
                    // no element: whatever the (dangling) address of no bytes
                    return Some(&mut []);
                }
                bytemuck::try_cast_slice_mut(bytes).ok()
            }
            #[inline]
            fn from_bytes(bytes: &[u8]) -> Option<&[Self]> {
                if bytes.is_empty() {
                    return Some(&[]);
                }
                bytemuck::try_cast_slice(bytes).ok()
            }
            fn vec_from_bytes(bytes: &[u8]) -> Vec<Self> {
                bytemuck::pod_collect_to_vec(bytes)
            }
            fn vec_filled<F>(len: usize, fill: F) -> Result<Vec<Self>>
            where
                F: FnOnce(&mut [u8]) -> Result<()>,
            {
                let mut v: Vec<Self> = bytemuck::allocation::try_zeroed_vec(len)
                    .map_err(|()| host_oom(len.saturating_mul(Self::SIZE)))?;
                fill(bytemuck::cast_slice_mut(&mut v))?;
                Ok(v)
            }
            fn into_scalar(self) -> Scalar {
                Scalar::$d(self)
            }
            fn from_scalar(s: Scalar) -> Option<Self> {
                match s {
                    Scalar::$d(v) => Some(v),
                    _ => None,
                }
            }
        }
    )*};
}

pod_element!(
    u8 => U8, i8 => I8, u16 => U16, i16 => I16, u32 => U32, i32 => I32,
    u64 => U64, i64 => I64, f16 => F16, f32 => F32, f64 => F64,
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
    fn vec_filled<F>(len: usize, fill: F) -> Result<Vec<Self>>
    where
        F: FnOnce(&mut [u8]) -> Result<()>,
    {
        let mut bytes = Vec::new();
        bytes.try_reserve_exact(len).map_err(|_| host_oom(len))?;
        bytes.resize(len, 0);
        fill(&mut bytes)?;
        Ok(Self::vec_from_bytes(&bytes))
    }
    fn into_scalar(self) -> Scalar {
        Scalar::Bool(self)
    }
    fn from_scalar(s: Scalar) -> Option<Self> {
        match s {
            Scalar::Bool(v) => Some(v),
            _ => None,
        }
    }
}

/// One value of any element type: what `NAME::dispatch` takes for `#[scalar]`
/// parameters. Made with `From` (`Scalar::from(2.0f32)`, or `2.0f32.into()`).
///
/// ```
/// # use silt_runtime::{DType, Scalar};
/// let s: Scalar = 2.0f32.into();
/// assert_eq!(s, Scalar::F32(2.0));
/// assert_eq!(Scalar::from(true).dtype(), DType::Bool);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[allow(missing_docs)] // one variant per element type
pub enum Scalar {
    Bool(bool),
    U8(u8),
    I8(i8),
    U16(u16),
    I16(i16),
    U32(u32),
    I32(i32),
    U64(u64),
    I64(i64),
    F16(f16),
    F32(f32),
    F64(f64),
}

impl Scalar {
    /// The value's element type.
    ///
    /// ```
    /// # use silt_runtime::{DType, Scalar};
    /// assert_eq!(Scalar::from(7u16).dtype(), DType::U16);
    /// assert_eq!(Scalar::from(-1.5f64).dtype(), DType::F64);
    /// ```
    pub fn dtype(self) -> DType {
        match self {
            Scalar::Bool(_) => DType::Bool,
            Scalar::U8(_) => DType::U8,
            Scalar::I8(_) => DType::I8,
            Scalar::U16(_) => DType::U16,
            Scalar::I16(_) => DType::I16,
            Scalar::U32(_) => DType::U32,
            Scalar::I32(_) => DType::I32,
            Scalar::U64(_) => DType::U64,
            Scalar::I64(_) => DType::I64,
            Scalar::F16(_) => DType::F16,
            Scalar::F32(_) => DType::F32,
            Scalar::F64(_) => DType::F64,
        }
    }

    fn as_f64(self) -> Option<f64> {
        Some(match self {
            Scalar::F16(v) => v.to_f64(),
            Scalar::F32(v) => f64::from(v),
            Scalar::F64(v) => v,
            _ => return None,
        })
    }

    fn as_i128(self) -> Option<i128> {
        Some(match self {
            Scalar::U8(v) => v.into(),
            Scalar::I8(v) => v.into(),
            Scalar::U16(v) => v.into(),
            Scalar::I16(v) => v.into(),
            Scalar::U32(v) => v.into(),
            Scalar::I32(v) => v.into(),
            Scalar::U64(v) => v.into(),
            Scalar::I64(v) => v.into(),
            _ => return None,
        })
    }

    /// The value as a `T`: the same type as is; a float to another float (rounded
    /// to nearest); an integer to a float (rounded to nearest: `16777217i64` is
    /// `16777216.0f32`); an integer to another integer when the value fits.
    ///
    /// ```
    /// # use silt_runtime::{DType, Error, Scalar};
    /// assert_eq!(Scalar::from(2.5f64).to::<f32>()?, 2.5); // float to float
    /// assert_eq!(Scalar::from(300i64).to::<u16>()?, 300); // it fits
    /// assert_eq!(Scalar::from(3u8).to::<f64>()?, 3.0); // integer to float
    /// assert!(matches!(
    ///     Scalar::from(2.5f32).to::<i32>(), // would drop the fraction
    ///     Err(Error::ScalarConversion { to: DType::I32, .. })
    /// ));
    /// assert!(Scalar::from(-1i32).to::<u32>().is_err()); // out of range
    /// assert!(Scalar::from(1u8).to::<bool>().is_err());
    /// assert!(Scalar::from(1e300f64).to::<f32>().is_err()); // would be inf
    /// assert!(Scalar::from(70000i32).to::<silt_runtime::f16>().is_err());
    /// assert!(Scalar::from(f64::INFINITY).to::<f32>()?.is_infinite()); // inf stays inf
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::ScalarConversion`] for anything that would lose the value silently:
    /// a float to an integer, an integer out of range, a finite value that
    /// overflows the float type to infinity, `bool` to or from a number.
    pub fn to<T: Element>(self) -> Result<T> {
        if let Some(v) = T::from_scalar(self) {
            return Ok(v);
        }
        let fail = || Error::ScalarConversion {
            value: self.to_string(),
            to: T::DTYPE,
        };
        let converted = match (T::DTYPE.is_float(), self.as_f64(), self.as_i128()) {
            (true, Some(f), _) => float_scalar(T::DTYPE, f),
            // rounded to nearest once: through f64 an integer past 2^53 would
            // round twice (`(1 << 60) + (1 << 36) + 1` to the f32 below)
            #[allow(clippy::cast_precision_loss)] // rounding to nearest is the documented rule
            (true, None, Some(i)) if T::DTYPE == DType::F32 => Some(Scalar::F32(i as f32)),
            // f16 holds no integer past 65504, so through f64 (exact below
            // 2^53) rounds once where the result is finite
            #[allow(clippy::cast_precision_loss)]
            (true, None, Some(i)) => float_scalar(T::DTYPE, i as f64),
            (false, None, Some(i)) if T::DTYPE.is_int() => int_scalar(T::DTYPE, i),
            _ => None,
        };
        converted.and_then(T::from_scalar).ok_or_else(fail)
    }
}

/// The value and its type: `0.5 (f64)`, `true (bool)`.
///
/// ```
/// # use silt_runtime::Scalar;
/// assert_eq!(Scalar::from(0.5f64).to_string(), "0.5 (f64)");
/// assert_eq!(Scalar::from(-3i8).to_string(), "-3 (i8)");
/// ```
impl std::fmt::Display for Scalar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Scalar::Bool(v) => write!(f, "{v}"),
            Scalar::U8(v) => write!(f, "{v}"),
            Scalar::I8(v) => write!(f, "{v}"),
            Scalar::U16(v) => write!(f, "{v}"),
            Scalar::I16(v) => write!(f, "{v}"),
            Scalar::U32(v) => write!(f, "{v}"),
            Scalar::I32(v) => write!(f, "{v}"),
            Scalar::U64(v) => write!(f, "{v}"),
            Scalar::I64(v) => write!(f, "{v}"),
            Scalar::F16(v) => write!(f, "{}", v.to_f32()),
            Scalar::F32(v) => write!(f, "{v}"),
            Scalar::F64(v) => write!(f, "{v}"),
        }?;
        write!(f, " ({})", self.dtype())
    }
}

/// `v` rounded to nearest in the float type `d`, or None where a finite value
/// would become infinite (an overflow loses the value).
#[allow(clippy::cast_possible_truncation)] // rounding to nearest is the documented rule
fn float_scalar(d: DType, v: f64) -> Option<Scalar> {
    let (s, finite) = match d {
        DType::F16 => {
            let h = f16::from_f64(v);
            (Scalar::F16(h), h.is_finite())
        }
        DType::F32 => {
            let f = v as f32;
            (Scalar::F32(f), f.is_finite())
        }
        DType::F64 => (Scalar::F64(v), true),
        _ => return None,
    };
    (finite || !v.is_finite()).then_some(s)
}

fn int_scalar(d: DType, v: i128) -> Option<Scalar> {
    Some(match d {
        DType::U8 => Scalar::U8(v.try_into().ok()?),
        DType::I8 => Scalar::I8(v.try_into().ok()?),
        DType::U16 => Scalar::U16(v.try_into().ok()?),
        DType::I16 => Scalar::I16(v.try_into().ok()?),
        DType::U32 => Scalar::U32(v.try_into().ok()?),
        DType::I32 => Scalar::I32(v.try_into().ok()?),
        DType::U64 => Scalar::U64(v.try_into().ok()?),
        DType::I64 => Scalar::I64(v.try_into().ok()?),
        _ => return None,
    })
}

macro_rules! from_impls {
    ($($t:ty => $v:ident),*) => {$(
        impl From<$t> for Scalar {
            fn from(v: $t) -> Scalar {
                Scalar::$v(v)
            }
        }
    )*};
}

from_impls!(bool => Bool, u8 => U8, i8 => I8, u16 => U16, i16 => I16, u32 => U32, i32 => I32,
    u64 => U64, i64 => I64, f16 => F16, f32 => F32, f64 => F64);

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
        fn name(d: DType) -> Result<&'static str> {
            select!("probe", d, T => Ok(T::DTYPE.name()), [f32, i64])
        }
        assert_eq!(name(DType::I64).unwrap(), "i64");
        let err = name(DType::U8).unwrap_err();
        assert_eq!(
            err,
            Error::UnsupportedDType {
                kernel: "probe",
                dtype: DType::U8,
                supported: &[DType::F32, DType::I64],
            }
        );
    }

    #[test]
    fn exact_and_lossless_conversions() {
        assert_eq!(Scalar::from(2.5f64).to::<f32>().unwrap(), 2.5f32);
        assert_eq!(Scalar::from(3i64).to::<u8>().unwrap(), 3u8);
        assert_eq!(Scalar::from(7u16).to::<f64>().unwrap(), 7.0);
        assert!(Scalar::from(true).to::<bool>().unwrap());
        assert_eq!(Scalar::from(0.1f64).to::<f32>().unwrap(), 0.1f32);
    }

    #[test]
    #[allow(clippy::cast_precision_loss)]
    fn integers_round_to_the_nearest_float_once() {
        // through f64 these round down twice; once, they round up
        let i = (1i64 << 60) + (1 << 36) + 1;
        assert_eq!(
            Scalar::I64(i).to::<f32>().unwrap().to_bits(),
            (i as f32).to_bits()
        );
        assert_eq!((i as f32).to_bits(), 0x5D80_0001);
        let u = (1u64 << 63) + (1 << 39) + 1;
        assert_eq!(
            Scalar::U64(u).to::<f32>().unwrap().to_bits(),
            (u as f32).to_bits()
        );
        assert_eq!(Scalar::I64(-i).to::<f32>().unwrap(), -(i as f32));
        assert_eq!(Scalar::I64(i).to::<f64>().unwrap(), i as f64);
        assert_eq!(
            Scalar::I32(65519).to::<half::f16>().unwrap(),
            half::f16::from_f32(65504.0)
        );
        assert!(Scalar::I32(65520).to::<half::f16>().is_err());
    }

    #[test]
    fn lossy_conversions_are_errors() {
        assert!(Scalar::from(2.5f32).to::<i32>().is_err());
        assert!(Scalar::from(300i32).to::<u8>().is_err());
        assert!(Scalar::from(-1i32).to::<u32>().is_err());
        assert!(Scalar::from(true).to::<u8>().is_err());
        assert!(Scalar::from(1u8).to::<bool>().is_err());
        let e = Scalar::from(2.5f32).to::<i32>().unwrap_err();
        assert!(e.to_string().contains("i32"), "{e}");
    }
}
