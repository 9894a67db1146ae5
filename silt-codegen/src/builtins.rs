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

impl Builtin {
    /// Whether the result of this float builtin is one of its arguments, or
    /// another value that every `f16` input gives exactly in `f16` (so an `f16`
    /// result needs no rounding): `abs`, `floor`, `min`, `copysign`, ...
    pub fn exact_on_f16(self) -> bool {
        use Builtin as B;
        matches!(
            self,
            B::FAbs
                | B::Floor
                | B::Ceil
                | B::Round
                | B::Trunc
                | B::RoundTiesEven
                | B::Fract
                | B::FSignum
                | B::FMin
                | B::FMax
                | B::FClamp
                | B::Copysign
        )
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

/// The float methods, for messages.
pub const FLOAT_METHODS: &str =
    "sqrt exp exp2 exp_m1 ln ln_1p log2 log10 sin cos tan asin acos atan \
     sinh cosh tanh asinh acosh atanh abs floor ceil round round_ties_even trunc fract recip signum cbrt \
     to_degrees to_radians erf erfc atan2 powf powi min max hypot copysign mul_add clamp is_nan \
     is_finite is_infinite is_sign_negative is_sign_positive to_bits";

/// The integer methods, for messages.
pub const INT_METHODS: &str = "wrapping_add wrapping_sub wrapping_mul wrapping_neg wrapping_div \
     wrapping_rem wrapping_shl wrapping_shr wrapping_abs count_ones count_zeros leading_zeros \
     trailing_zeros rotate_left rotate_right abs signum min max clamp";

/// Resolves `recv.name(..)` for a receiver of type `recv`.
pub fn resolve(name: &str, recv: Ty) -> Result<Signature, String> {
    use Builtin as B;
    use Rel::{Fixed, Same};
    let sig = |builtin, args: &[Rel], ret| Signature {
        builtin,
        args: args.to_vec(),
        ret,
    };
    if recv.is_float() {
        let unary = match name {
            "sqrt" => Some(B::Sqrt),
            "exp" => Some(B::Exp),
            "exp2" => Some(B::Exp2),
            "exp_m1" => Some(B::ExpM1),
            "ln" => Some(B::Ln),
            "ln_1p" => Some(B::Ln1p),
            "log2" => Some(B::Log2),
            "log10" => Some(B::Log10),
            "sin" => Some(B::Sin),
            "cos" => Some(B::Cos),
            "tan" => Some(B::Tan),
            "asin" => Some(B::Asin),
            "acos" => Some(B::Acos),
            "atan" => Some(B::Atan),
            "sinh" => Some(B::Sinh),
            "cosh" => Some(B::Cosh),
            "tanh" => Some(B::Tanh),
            "asinh" => Some(B::Asinh),
            "acosh" => Some(B::Acosh),
            "atanh" => Some(B::Atanh),
            "abs" => Some(B::FAbs),
            "floor" => Some(B::Floor),
            "ceil" => Some(B::Ceil),
            "round" => Some(B::Round),
            "trunc" => Some(B::Trunc),
            "fract" => Some(B::Fract),
            "recip" => Some(B::Recip),
            "signum" => Some(B::FSignum),
            "cbrt" => Some(B::Cbrt),
            "to_degrees" => Some(B::ToDegrees),
            "to_radians" => Some(B::ToRadians),
            "erf" => Some(B::Erf),
            "erfc" => Some(B::Erfc),
            "round_ties_even" => Some(B::RoundTiesEven),
            _ => None,
        };
        if let Some(b) = unary {
            return Ok(sig(b, &[], Same));
        }
        return Ok(match name {
            "atan2" => sig(B::Atan2, &[Same], Same),
            "powf" => sig(B::Powf, &[Same], Same),
            "powi" => sig(B::Powi, &[Fixed(Ty::I32)], Same),
            "min" => sig(B::FMin, &[Same], Same),
            "max" => sig(B::FMax, &[Same], Same),
            "hypot" => sig(B::Hypot, &[Same], Same),
            "copysign" => sig(B::Copysign, &[Same], Same),
            "mul_add" => sig(B::MulAdd, &[Same, Same], Same),
            "clamp" => sig(B::FClamp, &[Same, Same], Same),
            "is_nan" => sig(B::IsNan, &[], Fixed(Ty::Bool)),
            "is_finite" => sig(B::IsFinite, &[], Fixed(Ty::Bool)),
            "is_infinite" => sig(B::IsInfinite, &[], Fixed(Ty::Bool)),
            "is_sign_negative" => sig(B::IsSignNegative, &[], Fixed(Ty::Bool)),
            "is_sign_positive" => sig(B::IsSignPositive, &[], Fixed(Ty::Bool)),
            "to_bits" => sig(B::ToBits, &[], Rel::Bits),
            _ => {
                return Err(format!(
                    "no method `{name}` on `{recv}` in kernels; supported float methods: {FLOAT_METHODS}"
                ))
            }
        });
    }
    if recv.is_int() {
        let signed_only = |b| {
            if recv.is_signed_int() {
                Ok(sig(b, &[], Same))
            } else {
                Err(format!(
                    "`{name}` is only defined on signed integers, not `{recv}`"
                ))
            }
        };
        return Ok(match name {
            "wrapping_add" => sig(B::WrappingAdd, &[Same], Same),
            "wrapping_sub" => sig(B::WrappingSub, &[Same], Same),
            "wrapping_mul" => sig(B::WrappingMul, &[Same], Same),
            "wrapping_neg" => sig(B::WrappingNeg, &[], Same),
            "wrapping_div" => sig(B::WrappingDiv, &[Same], Same),
            "wrapping_rem" => sig(B::WrappingRem, &[Same], Same),
            "wrapping_shl" => sig(B::WrappingShl, &[Fixed(Ty::U32)], Same),
            "wrapping_shr" => sig(B::WrappingShr, &[Fixed(Ty::U32)], Same),
            "wrapping_abs" => return signed_only(B::WrappingAbs),
            "count_ones" => sig(B::CountOnes, &[], Fixed(Ty::U32)),
            "count_zeros" => sig(B::CountZeros, &[], Fixed(Ty::U32)),
            "leading_zeros" => sig(B::LeadingZeros, &[], Fixed(Ty::U32)),
            "trailing_zeros" => sig(B::TrailingZeros, &[], Fixed(Ty::U32)),
            "rotate_left" => sig(B::RotateLeft, &[Fixed(Ty::U32)], Same),
            "rotate_right" => sig(B::RotateRight, &[Fixed(Ty::U32)], Same),
            "abs" => return signed_only(B::IAbs),
            "signum" => return signed_only(B::ISignum),
            "min" => sig(B::IMin, &[Same], Same),
            "max" => sig(B::IMax, &[Same], Same),
            "clamp" => sig(B::IClamp, &[Same, Same], Same),
            _ => {
                return Err(format!(
                    "no method `{name}` on `{recv}` in kernels; supported integer methods: {INT_METHODS}"
                ))
            }
        });
    }
    Err(format!("no method `{name}` on `bool` in kernels"))
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
