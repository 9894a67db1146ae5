//! The methods a kernel body may call, and their types.

use silt_abi::DType;

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
    LGamma,
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
    FRemEuclid,
    FDivEuclid,
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
    IRemEuclid,
    IDivEuclid,
    SaturatingAdd,
    SaturatingSub,
    SaturatingMul,
    AbsDiff,
    WrappingPow,
    ReverseBits,
    SwapBytes,
    IPow,
    UnsignedAbs,
    LeadingOnes,
    TrailingOnes,
    IsPositive,
    IsNegative,
    DivCeil,
    IsPowerOfTwo,
    NextPowerOfTwo,
    Isqrt,
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
    /// The unsigned integer types only.
    UnsignedInt,
}

impl On {
    /// Whether a receiver of type `t` has methods of this class (an integer
    /// receiver is in the [`On::Int`] class, and is refused by the
    /// [`On::SignedInt`] and [`On::UnsignedInt`] methods of the other kind with
    /// a message of their own).
    pub fn covers(self, t: DType) -> bool {
        match self {
            On::Float => t.is_float(),
            On::Int => t.is_int(),
            On::SignedInt => t.is_signed_int(),
            On::UnsignedInt => t.is_int() && !t.is_signed_int(),
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
#[rustfmt::skip]
pub const TABLE: &[Def] = {
    use Builtin as B;
    use Form::{Call, Special};
    use On::{Float, Int, SignedInt, UnsignedInt};
    use Rel::{Bits, Fixed, Same};
    // `Call` reads as a method for the Rust form
    #[allow(non_snake_case)]
    const fn Method(name: &'static str) -> Form {
        Call(name)
    }
    #[allow(clippy::too_many_arguments)]
    const fn row(
        builtin: Builtin, name: &'static str, on: On, args: &'static [Rel], ret: Rel,
        exact: bool, exact_on_f16: bool, opencl: Form, rust: Form,
    ) -> Def {
        Def { builtin, name, on, args, ret, exact, exact_on_f16, opencl, rust }
    }
    &[
        // builtin, method, receivers, arguments, result, exact, exact on f16, OpenCL C, Rust
        row(B::Sqrt, "sqrt", Float, &[], Same, true, false, Call("sqrt"), Method("sqrt")),
        row(B::Exp, "exp", Float, &[], Same, false, false, Call("exp"), Method("exp")),
        row(B::Exp2, "exp2", Float, &[], Same, false, false, Call("exp2"), Method("exp2")),
        row(B::ExpM1, "exp_m1", Float, &[], Same, false, false, Call("expm1"), Method("exp_m1")),
        row(B::Ln, "ln", Float, &[], Same, false, false, Call("log"), Method("ln")),
        row(B::Ln1p, "ln_1p", Float, &[], Same, false, false, Call("log1p"), Method("ln_1p")),
        row(B::Log2, "log2", Float, &[], Same, false, false, Call("log2"), Method("log2")),
        row(B::Log10, "log10", Float, &[], Same, false, false, Call("log10"), Method("log10")),
        row(B::Sin, "sin", Float, &[], Same, false, false, Call("sin"), Method("sin")),
        row(B::Cos, "cos", Float, &[], Same, false, false, Call("cos"), Method("cos")),
        row(B::Tan, "tan", Float, &[], Same, false, false, Call("tan"), Method("tan")),
        row(B::Asin, "asin", Float, &[], Same, false, false, Call("asin"), Method("asin")),
        row(B::Acos, "acos", Float, &[], Same, false, false, Call("acos"), Method("acos")),
        row(B::Atan, "atan", Float, &[], Same, false, false, Call("atan"), Method("atan")),
        row(B::Sinh, "sinh", Float, &[], Same, false, false, Call("sinh"), Method("sinh")),
        row(B::Cosh, "cosh", Float, &[], Same, false, false, Call("cosh"), Method("cosh")),
        row(B::Tanh, "tanh", Float, &[], Same, false, false, Special, Method("tanh")),
        row(B::Asinh, "asinh", Float, &[], Same, false, false, Call("asinh"), Special),
        row(B::Acosh, "acosh", Float, &[], Same, false, false, Call("acosh"), Special),
        row(B::Atanh, "atanh", Float, &[], Same, false, false, Call("atanh"), Special),
        row(B::FAbs, "abs", Float, &[], Same, true, true, Call("fabs"), Method("abs")),
        row(B::Floor, "floor", Float, &[], Same, true, true, Call("floor"), Method("floor")),
        row(B::Ceil, "ceil", Float, &[], Same, true, true, Call("ceil"), Method("ceil")),
        row(B::Round, "round", Float, &[], Same, true, true, Call("round"), Method("round")),
        row(B::RoundTiesEven, "round_ties_even", Float, &[], Same, true, true, Call("rint"), Method("round_ties_even")),
        row(B::Trunc, "trunc", Float, &[], Same, true, true, Call("trunc"), Method("trunc")),
        row(B::Fract, "fract", Float, &[], Same, true, true, Special, Method("fract")),
        row(B::Recip, "recip", Float, &[], Same, true, false, Special, Method("recip")),
        row(B::FSignum, "signum", Float, &[], Same, true, true, Special, Method("signum")),
        row(B::Cbrt, "cbrt", Float, &[], Same, false, false, Call("cbrt"), Method("cbrt")),
        row(B::ToDegrees, "to_degrees", Float, &[], Same, true, false, Special, Method("to_degrees")),
        row(B::ToRadians, "to_radians", Float, &[], Same, true, false, Special, Method("to_radians")),
        row(B::Erf, "erf", Float, &[], Same, false, false, Call("erf"), Special),
        row(B::Erfc, "erfc", Float, &[], Same, false, false, Call("erfc"), Special),
        row(B::LGamma, "lgamma", Float, &[], Same, false, false, Call("lgamma"), Special),
        row(B::Atan2, "atan2", Float, &[Same], Same, false, false, Call("atan2"), Method("atan2")),
        row(B::Powf, "powf", Float, &[Same], Same, false, false, Call("pow"), Special),
        row(B::Powi, "powi", Float, &[Fixed(DType::I32)], Same, false, false, Call("pown"), Special),
        row(B::FMin, "min", Float, &[Same], Same, true, true, Special, Special),
        row(B::FMax, "max", Float, &[Same], Same, true, true, Special, Special),
        row(B::Hypot, "hypot", Float, &[Same], Same, false, false, Call("hypot"), Special),
        row(B::Copysign, "copysign", Float, &[Same], Same, true, true, Call("copysign"), Method("copysign")),
        row(B::MulAdd, "mul_add", Float, &[Same, Same], Same, true, false, Call("fma"), Method("mul_add")),
        row(B::FClamp, "clamp", Float, &[Same, Same], Same, true, true, Special, Special),
        row(B::FRemEuclid, "rem_euclid", Float, &[Same], Same, true, false, Special, Method("rem_euclid")),
        row(B::FDivEuclid, "div_euclid", Float, &[Same], Same, true, false, Special, Method("div_euclid")),
        row(B::IsNan, "is_nan", Float, &[], Fixed(DType::Bool), true, false, Special, Method("is_nan")),
        row(B::IsFinite, "is_finite", Float, &[], Fixed(DType::Bool), true, false, Special, Method("is_finite")),
        row(B::IsInfinite, "is_infinite", Float, &[], Fixed(DType::Bool), true, false, Special, Method("is_infinite")),
        row(B::IsSignNegative, "is_sign_negative", Float, &[], Fixed(DType::Bool), true, false, Special, Method("is_sign_negative")),
        row(B::IsSignPositive, "is_sign_positive", Float, &[], Fixed(DType::Bool), true, false, Special, Method("is_sign_positive")),
        row(B::ToBits, "to_bits", Float, &[], Bits, true, false, Special, Method("to_bits")),
        row(B::WrappingAdd, "wrapping_add", Int, &[Same], Same, true, false, Special, Method("wrapping_add")),
        row(B::WrappingSub, "wrapping_sub", Int, &[Same], Same, true, false, Special, Method("wrapping_sub")),
        row(B::WrappingMul, "wrapping_mul", Int, &[Same], Same, true, false, Special, Method("wrapping_mul")),
        row(B::WrappingNeg, "wrapping_neg", Int, &[], Same, true, false, Special, Method("wrapping_neg")),
        row(B::WrappingDiv, "wrapping_div", Int, &[Same], Same, true, false, Special, Special),
        row(B::WrappingRem, "wrapping_rem", Int, &[Same], Same, true, false, Special, Special),
        row(B::WrappingShl, "wrapping_shl", Int, &[Fixed(DType::U32)], Same, true, false, Special, Method("wrapping_shl")),
        row(B::WrappingShr, "wrapping_shr", Int, &[Fixed(DType::U32)], Same, true, false, Special, Method("wrapping_shr")),
        row(B::WrappingAbs, "wrapping_abs", SignedInt, &[], Same, true, false, Special, Method("wrapping_abs")),
        row(B::CountOnes, "count_ones", Int, &[], Fixed(DType::U32), true, false, Special, Method("count_ones")),
        row(B::CountZeros, "count_zeros", Int, &[], Fixed(DType::U32), true, false, Special, Method("count_zeros")),
        row(B::LeadingZeros, "leading_zeros", Int, &[], Fixed(DType::U32), true, false, Special, Method("leading_zeros")),
        row(B::TrailingZeros, "trailing_zeros", Int, &[], Fixed(DType::U32), true, false, Special, Method("trailing_zeros")),
        row(B::RotateLeft, "rotate_left", Int, &[Fixed(DType::U32)], Same, true, false, Special, Method("rotate_left")),
        row(B::RotateRight, "rotate_right", Int, &[Fixed(DType::U32)], Same, true, false, Special, Method("rotate_right")),
        row(B::IAbs, "abs", SignedInt, &[], Same, true, false, Special, Method("wrapping_abs")),
        row(B::ISignum, "signum", SignedInt, &[], Same, true, false, Special, Method("signum")),
        row(B::IMin, "min", Int, &[Same], Same, true, false, Call("min"), Special),
        row(B::IMax, "max", Int, &[Same], Same, true, false, Call("max"), Special),
        row(B::IClamp, "clamp", Int, &[Same, Same], Same, true, false, Special, Special),
        row(B::IRemEuclid, "rem_euclid", Int, &[Same], Same, true, false, Special, Special),
        row(B::IDivEuclid, "div_euclid", Int, &[Same], Same, true, false, Special, Special),
        row(B::SaturatingAdd, "saturating_add", Int, &[Same], Same, true, false, Special, Method("saturating_add")),
        row(B::SaturatingSub, "saturating_sub", Int, &[Same], Same, true, false, Special, Method("saturating_sub")),
        row(B::SaturatingMul, "saturating_mul", Int, &[Same], Same, true, false, Special, Method("saturating_mul")),
        row(B::AbsDiff, "abs_diff", Int, &[Same], Bits, true, false, Special, Method("abs_diff")),
        row(B::WrappingPow, "wrapping_pow", Int, &[Fixed(DType::U32)], Same, true, false, Special, Method("wrapping_pow")),
        row(B::ReverseBits, "reverse_bits", Int, &[], Same, true, false, Special, Method("reverse_bits")),
        row(B::SwapBytes, "swap_bytes", Int, &[], Same, true, false, Special, Method("swap_bytes")),
        // wrapping, as every integer operation of silt (Rust's `pow` panics
        // on overflow in debug builds)
        row(B::IPow, "pow", Int, &[Fixed(DType::U32)], Same, true, false, Special, Method("wrapping_pow")),
        row(B::UnsignedAbs, "unsigned_abs", SignedInt, &[], Bits, true, false, Special, Method("unsigned_abs")),
        row(B::LeadingOnes, "leading_ones", Int, &[], Fixed(DType::U32), true, false, Special, Method("leading_ones")),
        row(B::TrailingOnes, "trailing_ones", Int, &[], Fixed(DType::U32), true, false, Special, Method("trailing_ones")),
        row(B::IsPositive, "is_positive", SignedInt, &[], Fixed(DType::Bool), true, false, Special, Method("is_positive")),
        row(B::IsNegative, "is_negative", SignedInt, &[], Fixed(DType::Bool), true, false, Special, Method("is_negative")),
        // rounded up; 0 for a zero divisor, wrapping for `MIN.div_ceil(-1)`,
        // as silt's `/` (Rust's panics; its signed `div_ceil` is unstable)
        row(B::DivCeil, "div_ceil", Int, &[Same], Same, true, false, Special, Special),
        row(B::IsPowerOfTwo, "is_power_of_two", UnsignedInt, &[], Fixed(DType::Bool), true, false, Special, Method("is_power_of_two")),
        // 0 where the power does not fit (Rust's release builds; its debug
        // builds panic)
        row(B::NextPowerOfTwo, "next_power_of_two", UnsignedInt, &[], Same, true, false, Special, Special),
        row(B::Isqrt, "isqrt", UnsignedInt, &[], Same, true, false, Special, Method("isqrt")),
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

    /// The most a result may be from the correctly rounded one, in ULPs, by the
    /// OpenCL 1.2 specification (section 7.4, tables 7.1 and 7.2, the same for
    /// `float` and `double` for these methods): 0 for the [`exact`](Def::exact)
    /// ones. Tests allow one ULP more for the host's own error (docs/semantics.md).
    pub fn ulps(self) -> u32 {
        use Builtin as B;
        match self {
            B::Exp | B::Exp2 | B::ExpM1 | B::Ln | B::Log2 | B::Log10 => 3,
            B::Ln1p | B::Cbrt => 2,
            B::Sin | B::Cos | B::Asin | B::Acos | B::Sinh | B::Cosh => 4,
            B::Asinh | B::Acosh | B::Hypot => 4,
            B::Tan | B::Atan | B::Tanh | B::Atanh => 5,
            B::Atan2 => 6,
            B::Powf | B::Powi | B::Erf | B::Erfc => 16,
            // the specification leaves `lgamma`'s error undefined; PoCL's is
            // within 7 of glibc's away from the roots (docs/kernel.md)
            B::LGamma => 16,
            _ => 0,
        }
    }

    /// The operand (0: the receiver, 1: the first argument) whose sign the
    /// result shows even when it is a NaN (`is_sign_*`, `to_bits`, `copysign`'s
    /// sign). IEEE 754 leaves the sign and payload of a NaN that arithmetic
    /// produced unspecified, so such a result may differ between backends unless
    /// that operand is a number or an input NaN passed on unchanged.
    pub fn nan_sign_operand(self) -> Option<usize> {
        match self {
            Builtin::IsSignNegative | Builtin::IsSignPositive | Builtin::ToBits => Some(0),
            Builtin::Copysign => Some(1),
            _ => None,
        }
    }
}

/// The type of an argument or result, relative to the receiver's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rel {
    /// The receiver's type.
    Same,
    /// A fixed type.
    Fixed(DType),
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
pub fn resolve(name: &str, recv: DType) -> Result<Signature, String> {
    let found = TABLE.iter().find(|d| {
        d.name == name
            && (d.on.covers(recv)
                || (matches!(d.on, On::SignedInt | On::UnsignedInt) && recv.is_int()))
    });
    match found {
        Some(d) if d.on.covers(recv) => Ok(Signature {
            builtin: d.builtin,
            args: d.args.to_vec(),
            ret: d.ret,
        }),
        Some(d) => Err(format!(
            "`{name}` is only defined on {} integers, not `{recv}`",
            if d.on == On::SignedInt {
                "signed"
            } else {
                "unsigned"
            }
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
    pub fn apply(self, recv: DType) -> DType {
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
        assert_eq!(TABLE.len(), Builtin::Isqrt as usize + 1);
    }

    #[test]
    fn only_inexact_methods_have_ulp_bounds() {
        for d in TABLE {
            assert_eq!(d.exact, d.builtin.ulps() == 0, "`{}`", d.name);
            if let Some(k) = d.builtin.nan_sign_operand() {
                assert!(d.on == On::Float && d.exact && k <= d.args.len());
            }
        }
    }

    #[test]
    fn methods_resolve_by_receiver() {
        assert_eq!(resolve("abs", DType::F32).unwrap().builtin, Builtin::FAbs);
        assert_eq!(resolve("abs", DType::I8).unwrap().builtin, Builtin::IAbs);
        assert!(resolve("abs", DType::U8)
            .unwrap_err()
            .contains("only defined on signed"));
        assert!(resolve("isqrt", DType::I32)
            .unwrap_err()
            .contains("only defined on unsigned integers, not `i32`"));
        assert_eq!(
            resolve("isqrt", DType::U16).unwrap().builtin,
            Builtin::Isqrt
        );
        assert_eq!(
            resolve("div_ceil", DType::I8).unwrap().builtin,
            Builtin::DivCeil
        );
        assert!(resolve("sqrt", DType::I32)
            .unwrap_err()
            .contains("wrapping_add"));
        assert!(resolve("frob", DType::F16).unwrap_err().contains("to_bits"));
        assert_eq!(
            resolve("to_bits", DType::F64)
                .unwrap()
                .ret
                .apply(DType::F64),
            DType::U64
        );
        assert!(resolve("min", DType::Bool).is_err());
    }
}
