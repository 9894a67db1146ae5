//! Element types as the code generator sees them.

use std::fmt;

/// A scalar element type of a kernel body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ty {
    /// `bool` (a `uchar` in buffers, `bool` in OpenCL C code).
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
    /// `f32`.
    F32,
    /// `f64`.
    F64,
}

impl Ty {
    /// Every type a kernel may use, in a fixed order.
    pub const ALL: [Ty; 11] = [
        Ty::Bool,
        Ty::U8,
        Ty::I8,
        Ty::U16,
        Ty::I16,
        Ty::U32,
        Ty::I32,
        Ty::U64,
        Ty::I64,
        Ty::F32,
        Ty::F64,
    ];

    /// The Rust name (`f32`).
    pub fn rust(self) -> &'static str {
        match self {
            Ty::Bool => "bool",
            Ty::U8 => "u8",
            Ty::I8 => "i8",
            Ty::U16 => "u16",
            Ty::I16 => "i16",
            Ty::U32 => "u32",
            Ty::I32 => "i32",
            Ty::U64 => "u64",
            Ty::I64 => "i64",
            Ty::F32 => "f32",
            Ty::F64 => "f64",
        }
    }

    /// The Rust name of the `silt::DType` variant (`F32`).
    pub fn dtype_variant(self) -> &'static str {
        match self {
            Ty::Bool => "Bool",
            Ty::U8 => "U8",
            Ty::I8 => "I8",
            Ty::U16 => "U16",
            Ty::I16 => "I16",
            Ty::U32 => "U32",
            Ty::I32 => "I32",
            Ty::U64 => "U64",
            Ty::I64 => "I64",
            Ty::F32 => "F32",
            Ty::F64 => "F64",
        }
    }

    /// Reads a Rust type name.
    pub fn from_rust(name: &str) -> Option<Ty> {
        Ty::ALL.into_iter().find(|t| t.rust() == name)
    }

    /// The OpenCL C type of a value in code.
    pub fn cl(self) -> &'static str {
        match self {
            Ty::Bool => "bool",
            other => other.cl_storage(),
        }
    }

    /// The OpenCL C type of an element in a buffer or a kernel argument.
    pub fn cl_storage(self) -> &'static str {
        match self {
            Ty::Bool | Ty::U8 => "uchar",
            Ty::I8 => "char",
            Ty::U16 => "ushort",
            Ty::I16 => "short",
            Ty::U32 => "uint",
            Ty::I32 => "int",
            Ty::U64 => "ulong",
            Ty::I64 => "long",
            Ty::F32 => "float",
            Ty::F64 => "double",
        }
    }

    /// Whether this is `f32` or `f64`.
    pub fn is_float(self) -> bool {
        matches!(self, Ty::F32 | Ty::F64)
    }

    /// Whether this is an integer type (not `bool`).
    pub fn is_int(self) -> bool {
        !self.is_float() && self != Ty::Bool
    }

    /// Whether this is a signed integer type.
    pub fn is_signed_int(self) -> bool {
        matches!(self, Ty::I8 | Ty::I16 | Ty::I32 | Ty::I64)
    }

    /// Whether this is a number (integer or float).
    pub fn is_numeric(self) -> bool {
        self != Ty::Bool
    }

    /// The width in bits.
    pub fn bits(self) -> u32 {
        match self {
            Ty::Bool | Ty::U8 | Ty::I8 => 8,
            Ty::U16 | Ty::I16 => 16,
            Ty::U32 | Ty::I32 | Ty::F32 => 32,
            Ty::U64 | Ty::I64 | Ty::F64 => 64,
        }
    }

    /// The unsigned integer type of the same width (for integers).
    pub fn unsigned(self) -> Ty {
        match self.bits() {
            8 => Ty::U8,
            16 => Ty::U16,
            32 => Ty::U32,
            _ => Ty::U64,
        }
    }

    /// The OpenCL type that integer arithmetic of this type is done in: unsigned
    /// (so that overflow wraps instead of being undefined) and at least 32 bits (so
    /// that C's promotion to `int` cannot overflow).
    pub fn cl_wide_unsigned(self) -> &'static str {
        if self.bits() == 64 {
            "ulong"
        } else {
            "uint"
        }
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.rust())
    }
}
