//! The element types.

use std::fmt;

/// The element type of a tensor, as a runtime tag.
///
/// The same twelve types, in the same order, are what a kernel's `types` may
/// list, what the code generator instantiates, and what tensors hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    /// `bool`, stored as one byte (0 or 1).
    Bool,
    /// `u8`.
    U8,
    /// `i8`.
    I8,
    /// `u16`.
    U16,
    /// `i16`.
    I16,
    /// `u32`.
    U32,
    /// `i32`.
    I32,
    /// `u64`.
    U64,
    /// `i64`.
    I64,
    /// IEEE half precision (`half::f16`, re-exported as `silt::f16`). In kernels
    /// its values are computed in `f32` and rounded to `f16` after every
    /// operation ([`round_f16`](crate::round_f16)).
    F16,
    /// `f32`.
    F32,
    /// `f64`.
    F64,
}

impl DType {
    /// Every dtype, in declaration order.
    pub const ALL: [DType; 12] = [
        DType::Bool,
        DType::U8,
        DType::I8,
        DType::U16,
        DType::I16,
        DType::U32,
        DType::I32,
        DType::U64,
        DType::I64,
        DType::F16,
        DType::F32,
        DType::F64,
    ];

    /// The Rust name of the type (`"f32"`, `"bool"`, ...).
    ///
    /// The example also shows [`from_name`](Self::from_name), `Display` and
    /// [`ALL`](Self::ALL):
    ///
    /// ```
    /// # use silt_abi::DType;
    /// assert_eq!(DType::F32.name(), "f32");
    /// assert_eq!(DType::Bool.to_string(), "bool");
    /// assert_eq!(DType::from_name("i64"), Some(DType::I64));
    /// assert_eq!(DType::from_name("float"), None); // Rust names only
    /// assert!(DType::ALL.iter().all(|&d| DType::from_name(d.name()) == Some(d)));
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::U8 => "u8",
            DType::I8 => "i8",
            DType::U16 => "u16",
            DType::I16 => "i16",
            DType::U32 => "u32",
            DType::I32 => "i32",
            DType::U64 => "u64",
            DType::I64 => "i64",
            DType::F16 => "f16",
            DType::F32 => "f32",
            DType::F64 => "f64",
        }
    }

    /// The name of this variant (`"F32"`), as generated code spells `DType::F32`.
    ///
    /// ```
    /// # use silt_abi::DType;
    /// assert_eq!(DType::F16.variant_name(), "F16");
    /// assert_eq!(format!("{:?}", DType::Bool), DType::Bool.variant_name());
    /// ```
    pub const fn variant_name(self) -> &'static str {
        match self {
            DType::Bool => "Bool",
            DType::U8 => "U8",
            DType::I8 => "I8",
            DType::U16 => "U16",
            DType::I16 => "I16",
            DType::U32 => "U32",
            DType::I32 => "I32",
            DType::U64 => "U64",
            DType::I64 => "I64",
            DType::F16 => "F16",
            DType::F32 => "F32",
            DType::F64 => "F64",
        }
    }

    /// The OpenCL C type that stores one element (`bool` is stored as `uchar`,
    /// `f16` as `half`). Generated entry points pass `f16` as its bits
    /// ([`opencl::storage_type`](crate::opencl::storage_type)).
    ///
    /// ```
    /// # use silt_abi::DType;
    /// assert_eq!(DType::F32.cl_name(), "float");
    /// assert_eq!(DType::I64.cl_name(), "long");
    /// assert_eq!(DType::Bool.cl_name(), DType::U8.cl_name()); // both `uchar`
    /// ```
    pub const fn cl_name(self) -> &'static str {
        match self {
            DType::Bool | DType::U8 => "uchar",
            DType::I8 => "char",
            DType::U16 => "ushort",
            DType::I16 => "short",
            DType::U32 => "uint",
            DType::I32 => "int",
            DType::U64 => "ulong",
            DType::I64 => "long",
            DType::F16 => "half",
            DType::F32 => "float",
            DType::F64 => "double",
        }
    }

    /// The size of one element in bytes.
    ///
    /// ```
    /// # use silt_abi::DType;
    /// assert_eq!(DType::Bool.size(), 1);
    /// assert_eq!(DType::F16.size(), 2);
    /// assert_eq!(DType::U64.size(), 8);
    /// ```
    pub const fn size(self) -> usize {
        match self {
            DType::Bool | DType::U8 | DType::I8 => 1,
            DType::U16 | DType::I16 | DType::F16 => 2,
            DType::U32 | DType::I32 | DType::F32 => 4,
            DType::U64 | DType::I64 | DType::F64 => 8,
        }
    }

    /// The width in bits (8 for `bool`).
    pub const fn bits(self) -> u32 {
        match self.size() {
            1 => 8,
            2 => 16,
            4 => 32,
            _ => 64,
        }
    }

    /// The range of an integer type, `[min, max]` as `i128` (which holds
    /// every integer type's); `None` for `bool` and the floats.
    ///
    /// ```
    /// # use silt_abi::DType;
    /// assert_eq!(DType::U8.int_range(), Some((0, 255)));
    /// assert_eq!(DType::I64.int_range(), Some((i64::MIN.into(), i64::MAX.into())));
    /// assert_eq!(DType::F32.int_range(), None);
    /// ```
    pub const fn int_range(self) -> Option<(i128, i128)> {
        Some(match self {
            DType::U8 => (0, u8::MAX as i128),
            DType::I8 => (i8::MIN as i128, i8::MAX as i128),
            DType::U16 => (0, u16::MAX as i128),
            DType::I16 => (i16::MIN as i128, i16::MAX as i128),
            DType::U32 => (0, u32::MAX as i128),
            DType::I32 => (i32::MIN as i128, i32::MAX as i128),
            DType::U64 => (0, u64::MAX as i128),
            DType::I64 => (i64::MIN as i128, i64::MAX as i128),
            DType::Bool | DType::F16 | DType::F32 | DType::F64 => return None,
        })
    }

    /// Whether this is a floating-point type.
    ///
    /// The example also shows [`is_int`](Self::is_int) and
    /// [`is_signed_int`](Self::is_signed_int):
    ///
    /// ```
    /// # use silt_abi::DType;
    /// assert!(DType::F16.is_float() && !DType::I32.is_float());
    /// assert!(DType::U8.is_int() && DType::I8.is_int());
    /// assert!(!DType::Bool.is_int() && !DType::Bool.is_float());
    /// assert!(DType::I8.is_signed_int() && !DType::U8.is_signed_int());
    /// ```
    pub const fn is_float(self) -> bool {
        matches!(self, DType::F16 | DType::F32 | DType::F64)
    }

    /// Whether this is a signed or unsigned integer type (not `bool`).
    pub const fn is_int(self) -> bool {
        !self.is_float() && !matches!(self, DType::Bool)
    }

    /// Whether this is a signed integer type.
    pub const fn is_signed_int(self) -> bool {
        matches!(self, DType::I8 | DType::I16 | DType::I32 | DType::I64)
    }

    /// Whether this is a number (an integer or a float, not `bool`).
    pub const fn is_numeric(self) -> bool {
        !matches!(self, DType::Bool)
    }

    /// The type arithmetic of this type is computed in: `f32` for `f16` (whose
    /// results are then rounded to `f16`), the type itself otherwise.
    pub const fn compute(self) -> DType {
        match self {
            DType::F16 => DType::F32,
            other => other,
        }
    }

    /// The unsigned integer type of the same width (`u32` for `f32` and `i32`).
    pub const fn unsigned(self) -> DType {
        match self.size() {
            1 => DType::U8,
            2 => DType::U16,
            4 => DType::U32,
            _ => DType::U64,
        }
    }

    /// Reads a dtype from its Rust name (`"f32"`), as [`DType::name`] writes it.
    pub fn from_name(name: &str) -> Option<DType> {
        DType::ALL.into_iter().find(|d| d.name() == name)
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_agree_with_each_other() {
        for d in DType::ALL {
            assert_eq!(DType::from_name(d.name()), Some(d));
            assert_eq!(format!("{d:?}"), d.variant_name());
            assert_eq!(d.bits() as usize, d.size() * 8);
            assert_eq!(d.unsigned().size(), d.size());
            assert!(d.unsigned().is_int() && !d.unsigned().is_signed_int());
            assert_eq!(d.is_numeric(), d.is_int() || d.is_float());
            assert!(d.compute().size() >= d.size());
        }
        let mut sorted = DType::ALL;
        sorted.sort();
        assert_eq!(sorted, DType::ALL, "ALL is in declaration order");
    }
}
