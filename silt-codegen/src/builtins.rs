//! The methods a kernel body may call, and their types.

use crate::ty::Ty;

/// A builtin method. The receiver is the first argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)] // one variant per method, named as in Rust
pub enum Builtin {
    // floats, one argument
    Sqrt,
    Exp,
    Exp2,
    ExpM1,
    Ln,
    Ln1p,
    Log2,
    Log10,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
    FAbs,
    Floor,
    Ceil,
    Round,
    Trunc,
    Fract,
    Recip,
    FSignum,
    Cbrt,
    ToDegrees,
    ToRadians,
    Erf,
    Erfc,
    RoundTiesEven,
    // floats, more arguments
    Atan2,
    Powf,
    Powi,
    FMin,
    FMax,
    Hypot,
    Copysign,
    MulAdd,
    FClamp,
    // float predicates and bits
    IsNan,
    IsFinite,
    IsInfinite,
    IsSignNegative,
    IsSignPositive,
    ToBits,
    // integers
    WrappingAdd,
    WrappingSub,
    WrappingMul,
    WrappingNeg,
    WrappingDiv,
    WrappingRem,
    WrappingShl,
    WrappingShr,
    WrappingAbs,
    CountOnes,
    CountZeros,
    LeadingZeros,
    TrailingZeros,
    RotateLeft,
    RotateRight,
    IAbs,
    ISignum,
    IMin,
    IMax,
    IClamp,
}

/// Which receivers a method is defined on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum On {
    /// `f16`, `f32` and `f64`.
    Float,
    /// Every integer type.
    Int,
    /// The signed integer types only.
    SignedInt,
}

impl On {
    /// Whether a receiver of type `t` has methods of this class (an unsigned
    /// receiver is in the [`On::Int`] class, and is refused by [`On::SignedInt`]
    /// methods with a message of their own).
    pub fn covers(self, t: Ty) -> bool {
        match self {
            On::Float => t.is_float(),
            On::Int => t.is_int(),
            On::SignedInt => t.is_signed_int(),
        }
    }
}

/// How a backend writes a builtin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// OpenCL C: this function applied to the receiver and the arguments,
    /// `name(x, a)`; Rust: this method, `x.name(a)`.
    Call(&'static str),
    /// The backend has code of its own for it (a polyfill, an operator, a
    /// runtime helper).
    Special,
}

/// One method of the kernel language: its name and types, how exact it is, and
/// how each backend writes it. [`TABLE`] lists them all; type checking, both
/// emitters and the random-kernel generators read it.
#[derive(Debug, Clone, Copy)]
pub struct Def {
    /// The builtin.
    pub builtin: Builtin,
    /// The method name, as in Rust.
    pub name: &'static str,
    /// The receivers it is defined on.
    pub on: On,
    /// The types of the arguments after the receiver.
    pub args: &'static [Rel],
    /// The result type.
    pub ret: Rel,
    /// Whether every backend gives the same bits (exactly specified or correctly
    /// rounded); the others are within their documented ULP bounds.
    pub exact: bool,
    /// Whether the result is one of its arguments, or another value that every
    /// `f16` input gives exactly in `f16`, so an `f16` result needs no rounding
    /// (`abs`, `floor`, `min`, `copysign`, ...).
    pub exact_on_f16: bool,
    /// How OpenCL C writes it.
    pub opencl: Form,
    /// How the host's Rust writes it.
    pub rust: Form,
}

/// Every method of the kernel language, floats first, in the order messages list
/// them.
pub const TABLE: &[Def] = {
    use Builtin as B;
    use Form::{Call, Special};
    use Rel::{Bits, Fixed, Same};
    // `Call` reads as a method for the Rust form
    #[allow(non_snake_case)]
    const fn Method(name: &'static str) -> Form {
        Call(name)
    }
    &[
        Def {
            builtin: B::Sqrt,
            name: "sqrt",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: true,
            exact_on_f16: false,
            opencl: Call("sqrt"),
            rust: Method("sqrt"),
        },
        Def {
            builtin: B::Exp,
            name: "exp",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("exp"),
            rust: Method("exp"),
        },
        Def {
            builtin: B::Exp2,
            name: "exp2",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("exp2"),
            rust: Method("exp2"),
        },
        Def {
            builtin: B::ExpM1,
            name: "exp_m1",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("expm1"),
            rust: Method("exp_m1"),
        },
        Def {
            builtin: B::Ln,
            name: "ln",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("log"),
            rust: Method("ln"),
        },
        Def {
            builtin: B::Ln1p,
            name: "ln_1p",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("log1p"),
            rust: Method("ln_1p"),
        },
        Def {
            builtin: B::Log2,
            name: "log2",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("log2"),
            rust: Method("log2"),
        },
        Def {
            builtin: B::Log10,
            name: "log10",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("log10"),
            rust: Method("log10"),
        },
        Def {
            builtin: B::Sin,
            name: "sin",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("sin"),
            rust: Method("sin"),
        },
        Def {
            builtin: B::Cos,
            name: "cos",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("cos"),
            rust: Method("cos"),
        },
        Def {
            builtin: B::Tan,
            name: "tan",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("tan"),
            rust: Method("tan"),
        },
        Def {
            builtin: B::Asin,
            name: "asin",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("asin"),
            rust: Method("asin"),
        },
        Def {
            builtin: B::Acos,
            name: "acos",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("acos"),
            rust: Method("acos"),
        },
        Def {
            builtin: B::Atan,
            name: "atan",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("atan"),
            rust: Method("atan"),
        },
        Def {
            builtin: B::Sinh,
            name: "sinh",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("sinh"),
            rust: Method("sinh"),
        },
        Def {
            builtin: B::Cosh,
            name: "cosh",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("cosh"),
            rust: Method("cosh"),
        },
        Def {
            builtin: B::Tanh,
            name: "tanh",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("tanh"),
            rust: Method("tanh"),
        },
        Def {
            builtin: B::Asinh,
            name: "asinh",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("asinh"),
            rust: Special,
        },
        Def {
            builtin: B::Acosh,
            name: "acosh",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("acosh"),
            rust: Special,
        },
        Def {
            builtin: B::Atanh,
            name: "atanh",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("atanh"),
            rust: Method("atanh"),
        },
        Def {
            builtin: B::FAbs,
            name: "abs",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: true,
            exact_on_f16: true,
            opencl: Call("fabs"),
            rust: Method("abs"),
        },
        Def {
            builtin: B::Floor,
            name: "floor",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: true,
            exact_on_f16: true,
            opencl: Call("floor"),
            rust: Method("floor"),
        },
        Def {
            builtin: B::Ceil,
            name: "ceil",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: true,
            exact_on_f16: true,
            opencl: Call("ceil"),
            rust: Method("ceil"),
        },
        Def {
            builtin: B::Round,
            name: "round",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: true,
            exact_on_f16: true,
            opencl: Call("round"),
            rust: Method("round"),
        },
        Def {
            builtin: B::RoundTiesEven,
            name: "round_ties_even",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: true,
            exact_on_f16: true,
            opencl: Call("rint"),
            rust: Method("round_ties_even"),
        },
        Def {
            builtin: B::Trunc,
            name: "trunc",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: true,
            exact_on_f16: true,
            opencl: Call("trunc"),
            rust: Method("trunc"),
        },
        Def {
            builtin: B::Fract,
            name: "fract",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: true,
            exact_on_f16: true,
            opencl: Special,
            rust: Method("fract"),
        },
        Def {
            builtin: B::Recip,
            name: "recip",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Method("recip"),
        },
        Def {
            builtin: B::FSignum,
            name: "signum",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: true,
            exact_on_f16: true,
            opencl: Special,
            rust: Method("signum"),
        },
        Def {
            builtin: B::Cbrt,
            name: "cbrt",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("cbrt"),
            rust: Method("cbrt"),
        },
        Def {
            builtin: B::ToDegrees,
            name: "to_degrees",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Method("to_degrees"),
        },
        Def {
            builtin: B::ToRadians,
            name: "to_radians",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Method("to_radians"),
        },
        Def {
            builtin: B::Erf,
            name: "erf",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("erf"),
            rust: Special,
        },
        Def {
            builtin: B::Erfc,
            name: "erfc",
            on: On::Float,
            args: &[],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("erfc"),
            rust: Special,
        },
        Def {
            builtin: B::Atan2,
            name: "atan2",
            on: On::Float,
            args: &[Same],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("atan2"),
            rust: Method("atan2"),
        },
        Def {
            builtin: B::Powf,
            name: "powf",
            on: On::Float,
            args: &[Same],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("pow"),
            rust: Method("powf"),
        },
        Def {
            builtin: B::Powi,
            name: "powi",
            on: On::Float,
            args: &[Fixed(Ty::I32)],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("pown"),
            rust: Method("powi"),
        },
        Def {
            builtin: B::FMin,
            name: "min",
            on: On::Float,
            args: &[Same],
            ret: Same,
            exact: true,
            exact_on_f16: true,
            opencl: Special,
            rust: Special,
        },
        Def {
            builtin: B::FMax,
            name: "max",
            on: On::Float,
            args: &[Same],
            ret: Same,
            exact: true,
            exact_on_f16: true,
            opencl: Special,
            rust: Special,
        },
        Def {
            builtin: B::Hypot,
            name: "hypot",
            on: On::Float,
            args: &[Same],
            ret: Same,
            exact: false,
            exact_on_f16: false,
            opencl: Call("hypot"),
            rust: Method("hypot"),
        },
        Def {
            builtin: B::Copysign,
            name: "copysign",
            on: On::Float,
            args: &[Same],
            ret: Same,
            exact: true,
            exact_on_f16: true,
            opencl: Call("copysign"),
            rust: Method("copysign"),
        },
        Def {
            builtin: B::MulAdd,
            name: "mul_add",
            on: On::Float,
            args: &[Same, Same],
            ret: Same,
            exact: true,
            exact_on_f16: false,
            opencl: Call("fma"),
            rust: Method("mul_add"),
        },
        Def {
            builtin: B::FClamp,
            name: "clamp",
            on: On::Float,
            args: &[Same, Same],
            ret: Same,
            exact: true,
            exact_on_f16: true,
            opencl: Special,
            rust: Special,
        },
        Def {
            builtin: B::IsNan,
            name: "is_nan",
            on: On::Float,
            args: &[],
            ret: Fixed(Ty::Bool),
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Method("is_nan"),
        },
        Def {
            builtin: B::IsFinite,
            name: "is_finite",
            on: On::Float,
            args: &[],
            ret: Fixed(Ty::Bool),
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Method("is_finite"),
        },
        Def {
            builtin: B::IsInfinite,
            name: "is_infinite",
            on: On::Float,
            args: &[],
            ret: Fixed(Ty::Bool),
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Method("is_infinite"),
        },
        Def {
            builtin: B::IsSignNegative,
            name: "is_sign_negative",
            on: On::Float,
            args: &[],
            ret: Fixed(Ty::Bool),
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Method("is_sign_negative"),
        },
        Def {
            builtin: B::IsSignPositive,
            name: "is_sign_positive",
            on: On::Float,
            args: &[],
            ret: Fixed(Ty::Bool),
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Method("is_sign_positive"),
        },
        Def {
            builtin: B::ToBits,
            name: "to_bits",
            on: On::Float,
            args: &[],
            ret: Bits,
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Method("to_bits"),
        },
        Def {
            builtin: B::WrappingAdd,
            name: "wrapping_add",
            on: On::Int,
            args: &[Same],
            ret: Same,
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Method("wrapping_add"),
        },
        Def {
            builtin: B::WrappingSub,
            name: "wrapping_sub",
            on: On::Int,
            args: &[Same],
            ret: Same,
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Method("wrapping_sub"),
        },
        Def {
            builtin: B::WrappingMul,
            name: "wrapping_mul",
            on: On::Int,
            args: &[Same],
            ret: Same,
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Method("wrapping_mul"),
        },
        Def {
            builtin: B::WrappingNeg,
            name: "wrapping_neg",
            on: On::Int,
            args: &[],
            ret: Same,
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Method("wrapping_neg"),
        },
        Def {
            builtin: B::WrappingDiv,
            name: "wrapping_div",
            on: On::Int,
            args: &[Same],
            ret: Same,
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Special,
        },
        Def {
            builtin: B::WrappingRem,
            name: "wrapping_rem",
            on: On::Int,
            args: &[Same],
            ret: Same,
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Special,
        },
        Def {
            builtin: B::WrappingShl,
            name: "wrapping_shl",
            on: On::Int,
            args: &[Fixed(Ty::U32)],
            ret: Same,
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Method("wrapping_shl"),
        },
        Def {
            builtin: B::WrappingShr,
            name: "wrapping_shr",
            on: On::Int,
            args: &[Fixed(Ty::U32)],
            ret: Same,
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Method("wrapping_shr"),
        },
        Def {
            builtin: B::WrappingAbs,
            name: "wrapping_abs",
            on: On::SignedInt,
            args: &[],
            ret: Same,
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Method("wrapping_abs"),
        },
        Def {
            builtin: B::CountOnes,
            name: "count_ones",
            on: On::Int,
            args: &[],
            ret: Fixed(Ty::U32),
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Method("count_ones"),
        },
        Def {
            builtin: B::CountZeros,
            name: "count_zeros",
            on: On::Int,
            args: &[],
            ret: Fixed(Ty::U32),
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Method("count_zeros"),
        },
        Def {
            builtin: B::LeadingZeros,
            name: "leading_zeros",
            on: On::Int,
            args: &[],
            ret: Fixed(Ty::U32),
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Method("leading_zeros"),
        },
        Def {
            builtin: B::TrailingZeros,
            name: "trailing_zeros",
            on: On::Int,
            args: &[],
            ret: Fixed(Ty::U32),
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Method("trailing_zeros"),
        },
        Def {
            builtin: B::RotateLeft,
            name: "rotate_left",
            on: On::Int,
            args: &[Fixed(Ty::U32)],
            ret: Same,
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Method("rotate_left"),
        },
        Def {
            builtin: B::RotateRight,
            name: "rotate_right",
            on: On::Int,
            args: &[Fixed(Ty::U32)],
            ret: Same,
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Method("rotate_right"),
        },
        Def {
            builtin: B::IAbs,
            name: "abs",
            on: On::SignedInt,
            args: &[],
            ret: Same,
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Method("wrapping_abs"),
        },
        Def {
            builtin: B::ISignum,
            name: "signum",
            on: On::SignedInt,
            args: &[],
            ret: Same,
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Method("signum"),
        },
        Def {
            builtin: B::IMin,
            name: "min",
            on: On::Int,
            args: &[Same],
            ret: Same,
            exact: true,
            exact_on_f16: false,
            opencl: Call("min"),
            rust: Special,
        },
        Def {
            builtin: B::IMax,
            name: "max",
            on: On::Int,
            args: &[Same],
            ret: Same,
            exact: true,
            exact_on_f16: false,
            opencl: Call("max"),
            rust: Special,
        },
        Def {
            builtin: B::IClamp,
            name: "clamp",
            on: On::Int,
            args: &[Same, Same],
            ret: Same,
            exact: true,
            exact_on_f16: false,
            opencl: Special,
            rust: Special,
        },
    ]
};

impl Builtin {
    /// Its row of [`TABLE`].
    pub fn def(self) -> &'static Def {
        // every variant has exactly one row (checked by a test)
        let mut i = 0;
        while TABLE[i].builtin as u8 != self as u8 {
            i += 1;
        }
        &TABLE[i]
    }

    /// See [`Def::exact_on_f16`].
    pub fn exact_on_f16(self) -> bool {
        self.def().exact_on_f16
    }
}

/// The type of an argument or result, relative to the receiver's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rel {
    /// The receiver's type.
    Same,
    /// A fixed type.
    Fixed(Ty),
    /// The unsigned integer type as wide as the receiver (`to_bits`).
    Bits,
}

/// A resolved method: what it is, its argument types and its result type.
#[derive(Debug, Clone)]
pub struct Signature {
    /// The builtin.
    pub builtin: Builtin,
    /// The types of the arguments after the receiver.
    pub args: Vec<Rel>,
    /// The result type.
    pub ret: Rel,
}

/// The names of the methods on floats (`float`) or on integers, space-separated,
/// for messages.
pub fn method_names(float: bool) -> String {
    let names: Vec<&str> = TABLE
        .iter()
        .filter(|d| (d.on == On::Float) == float)
        .map(|d| d.name)
        .collect();
    names.join(" ")
}

/// Resolves `recv.name(..)` for a receiver of type `recv`.
///
/// # Errors
/// A message naming the supported methods when `recv` has no such method.
pub fn resolve(name: &str, recv: Ty) -> Result<Signature, String> {
    let found = TABLE.iter().find(|d| {
        d.name == name && (d.on.covers(recv) || (d.on == On::SignedInt && recv.is_int()))
    });
    match found {
        Some(d) if d.on.covers(recv) => Ok(Signature {
            builtin: d.builtin,
            args: d.args.to_vec(),
            ret: d.ret,
        }),
        Some(_) => Err(format!(
            "`{name}` is only defined on signed integers, not `{recv}`"
        )),
        None if recv.is_float() => Err(format!(
            "no method `{name}` on `{recv}` in kernels; supported float methods: {}",
            method_names(true)
        )),
        None if recv.is_int() => Err(format!(
            "no method `{name}` on `{recv}` in kernels; supported integer methods: {}",
            method_names(false)
        )),
        None => Err(format!("no method `{name}` on `bool` in kernels")),
    }
}

impl Rel {
    /// The concrete type for a receiver of type `recv`.
    pub fn apply(self, recv: Ty) -> Ty {
        match self {
            Rel::Same => recv,
            Rel::Fixed(t) => t,
            Rel::Bits => recv.unsigned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_has_one_row_and_names_are_unique_per_class() {
        for (i, d) in TABLE.iter().enumerate() {
            assert_eq!(d.builtin.def().name, d.name, "row {i}");
            let same = TABLE
                .iter()
                .filter(|e| e.name == d.name && (e.on == On::Float) == (d.on == On::Float))
                .count();
            assert_eq!(same, 1, "`{}` twice", d.name);
            assert!(!d.exact_on_f16 || d.on == On::Float);
        }
        // one row per variant: the last variant's discriminant + 1
        assert_eq!(TABLE.len(), Builtin::IClamp as usize + 1);
    }

    #[test]
    fn methods_resolve_by_receiver() {
        assert_eq!(resolve("abs", Ty::F32).unwrap().builtin, Builtin::FAbs);
        assert_eq!(resolve("abs", Ty::I8).unwrap().builtin, Builtin::IAbs);
        assert!(resolve("abs", Ty::U8)
            .unwrap_err()
            .contains("only defined on signed"));
        assert!(resolve("sqrt", Ty::I32)
            .unwrap_err()
            .contains("wrapping_add"));
        assert!(resolve("frob", Ty::F16).unwrap_err().contains("to_bits"));
        assert_eq!(
            resolve("to_bits", Ty::F64).unwrap().ret.apply(Ty::F64),
            Ty::U64
        );
        assert!(resolve("min", Ty::Bool).is_err());
    }
}
