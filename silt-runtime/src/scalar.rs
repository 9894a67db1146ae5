//! [`Scalar`]: one value of any element type, for dtype-dispatching code.

use crate::dtype::{DType, Element};
use crate::error::{Error, Result};
use half::f16;

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
    /// to nearest); an integer to a float (rounded to nearest); an integer to
    /// another integer when the value fits.
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
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::ScalarConversion`] for anything that would lose the value silently:
    /// a float to an integer, an integer out of range, `bool` to or from a number.
    pub fn to<T: Element>(self) -> Result<T> {
        if let Some(v) = T::from_scalar(self) {
            return Ok(v);
        }
        let fail = || Error::ScalarConversion {
            value: format!("{self:?}"),
            to: T::DTYPE,
        };
        let converted = match (T::DTYPE.is_float(), self.as_f64(), self.as_i128()) {
            (true, Some(f), _) => float_scalar(T::DTYPE, f),
            #[allow(clippy::cast_precision_loss)] // rounding to nearest is the documented rule
            (true, None, Some(i)) => float_scalar(T::DTYPE, i as f64),
            (false, None, Some(i)) if T::DTYPE.is_int() => int_scalar(T::DTYPE, i),
            _ => None,
        };
        converted.and_then(T::from_scalar).ok_or_else(fail)
    }
}

#[allow(clippy::cast_possible_truncation)] // rounding to nearest is the documented rule
fn float_scalar(d: DType, v: f64) -> Option<Scalar> {
    match d {
        DType::F16 => Some(Scalar::F16(f16::from_f64(v))),
        DType::F32 => Some(Scalar::F32(v as f32)),
        DType::F64 => Some(Scalar::F64(v)),
        _ => None,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_and_lossless_conversions() {
        assert_eq!(Scalar::from(2.5f64).to::<f32>().unwrap(), 2.5f32);
        assert_eq!(Scalar::from(3i64).to::<u8>().unwrap(), 3u8);
        assert_eq!(Scalar::from(7u16).to::<f64>().unwrap(), 7.0);
        assert!(Scalar::from(true).to::<bool>().unwrap());
        assert_eq!(Scalar::from(0.1f64).to::<f32>().unwrap(), 0.1f32);
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
