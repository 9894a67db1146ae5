//! The leaves of the IR: literal values, places, and references to locals,
//! parameters and helpers.

use silt_abi::DType;

/// Index of a [`Local`](super::Local).
pub type LocalId = usize;
/// Index of a [`Param`](super::Param).
pub type ParamId = usize;

/// A helper instantiation, as calls name it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HelperRef {
    /// The helper's name as written (without `r#`).
    pub name: String,
    /// The path it was reached by (`util::sq`), which tells apart helpers of
    /// one name in different modules.
    pub key: String,
    /// The instantiation type (`None` without a generic parameter).
    pub inst: Option<DType>,
}

impl HelperRef {
    /// A short hash of [`key`](Self::key), for backends that need one flat
    /// name per helper: FNV-1a, 16 bits.
    pub fn tag(&self) -> u16 {
        let hash = self.key.bytes().fold(0x811c_9dc5_u32, |h, b| {
            (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
        });
        // the low 16 bits
        (hash & 0xffff) as u16
    }
}

/// Where an assignment writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A `let mut` local.
    Local(LocalId),
    /// A `mut` by-value parameter.
    Param(ParamId),
    /// `*y` for a `&mut` parameter.
    Deref(ParamId),
}

/// A literal value, already of the expression's type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    /// `true` / `false`.
    Bool(bool),
    /// An integer (in range of the expression's type).
    Int(i128),
    /// An `f32` (also an `f16`, held exactly).
    F32(f32),
    /// An `f64`.
    F64(f64),
}
