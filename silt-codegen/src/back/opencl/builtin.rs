//! Builtin methods as C: a call from the table, or code of their own.

use super::function::Emitter;
use super::literal::literal;
use super::polyfill::Polyfill;
use super::types::ClType;
use crate::builtins::{Builtin, Form};
use crate::ir::{BinOp, Value};
use silt_abi::DType;

impl Emitter<'_> {
    /// `b` applied to the argument texts `a` (the receiver first), for a
    /// receiver of type `t` and a result of type `ret`.
    pub(super) fn builtin(&mut self, b: Builtin, t: DType, ret: DType, a: &[String]) -> String {
        use Builtin as B;
        if b == B::ToBits && t == DType::F16 {
            return self.call_polyfill(Polyfill::F16Bits, a);
        }
        if b == B::FDivEuclid && t == DType::F16 {
            // the quotient rounded to f16 before `trunc`, as f16 division
            // rounds it; the polyfill calls `silt_f16_round`
            self.polyfills.insert(Polyfill::F16Round);
            let v = self.call_polyfill(Polyfill::DivEuclid(t), a);
            return self.call_polyfill(Polyfill::F16Round, &[v]);
        }
        if t == DType::F16 || ret == DType::F16 {
            // computed in float, then rounded
            let v = self.builtin(b, t.compute(), ret.compute(), a);
            return if ret == DType::F16 && !b.exact_on_f16() {
                self.call_polyfill(Polyfill::F16Round, &[v])
            } else {
                v
            };
        }
        let f = |name: &str| format!("{name}({})", a.join(", "));
        let x = &a[0];
        // arguments used as operands are parenthesised: they may be any expression
        let xp = format!("({x})");
        let a1 = a.get(1).map(|v| format!("({v})")).unwrap_or_default();
        let one = if t == DType::F32 { "1.0f" } else { "1.0" };
        if let Form::Call(name) = b.def().opencl {
            return f(name);
        }
        match b {
            B::Tanh => self.tanh(t, a),
            B::Fract => self.call_polyfill(Polyfill::Fract(t), a),
            B::Recip => format!("({one} / {xp})"),
            B::FSignum => self.call_polyfill(Polyfill::FSignum(t), a),
            // the default rounding mode of OpenCL is to nearest even
            B::ToDegrees => {
                // the same constant Rust multiplies by
                let k = if t == DType::F32 {
                    literal(t, Value::F32(to_f32(180.0f64 / std::f64::consts::PI)))
                } else {
                    literal(t, Value::F64(180.0f64 / std::f64::consts::PI))
                };
                format!("({xp} * {k})")
            }
            B::ToRadians => {
                let k = if t == DType::F32 {
                    literal(t, Value::F32(std::f32::consts::PI / 180.0))
                } else {
                    literal(t, Value::F64(std::f64::consts::PI / 180.0))
                };
                format!("({xp} * {k})")
            }
            B::FMin => self.call_polyfill(Polyfill::FMin(t), a),
            B::FMax => self.call_polyfill(Polyfill::FMax(t), a),
            B::FClamp => self.call_polyfill(Polyfill::FClamp(t), a),
            B::IsNan => format!("(isnan({x}) != 0)"),
            B::IsFinite => format!("(isfinite({x}) != 0)"),
            B::IsInfinite => format!("(isinf({x}) != 0)"),
            B::IsSignNegative => format!("(signbit({x}) != 0)"),
            B::IsSignPositive => format!("(signbit({x}) == 0)"),
            B::ToBits => format!("as_{}({x})", ret.value_type()),
            B::WrappingAdd | B::WrappingSub | B::WrappingMul | B::WrappingDiv | B::WrappingRem => {
                let op = match b {
                    B::WrappingAdd => BinOp::Add,
                    B::WrappingSub => BinOp::Sub,
                    B::WrappingMul => BinOp::Mul,
                    B::WrappingDiv => BinOp::Div,
                    _ => BinOp::Rem,
                };
                format!("({})", self.binary_text(op, t, t, (x, 0), (&a[1], 0)).0)
            }
            B::WrappingShl => {
                self.binary_text(BinOp::Shl, t, DType::U32, (x, 0), (&a[1], 0))
                    .0
            }
            B::WrappingShr => {
                self.binary_text(BinOp::Shr, t, DType::U32, (x, 0), (&a[1], 0))
                    .0
            }
            B::WrappingNeg => self.call_polyfill(Polyfill::Neg(t), std::slice::from_ref(x)),
            B::WrappingAbs | B::IAbs => {
                self.call_polyfill(Polyfill::Abs(t), std::slice::from_ref(x))
            }
            B::CountOnes => format!("((uint)popcount({x}))"),
            B::CountZeros => format!("((uint)({} - popcount({x})))", t.bits()),
            B::LeadingZeros => format!("((uint)clz({x}))"),
            B::TrailingZeros => self.call_polyfill(Polyfill::Ctz(t), std::slice::from_ref(x)),
            B::RotateLeft | B::RotateRight => {
                let m = t.bits() - 1;
                let n = if b == B::RotateLeft {
                    format!("({a1} & {m}u)")
                } else {
                    format!("(({}u - ({a1} & {m}u)) & {m}u)", t.bits())
                };
                format!("rotate({x}, ({})({n}))", t.value_type())
            }
            B::ISignum => format!(
                "(({c})(({xp} > ({c})0) - ({xp} < ({c})0)))",
                c = t.value_type()
            ),
            B::IClamp => self.call_polyfill(Polyfill::IClamp(t), a),
            B::FRemEuclid | B::IRemEuclid => self.call_polyfill(Polyfill::RemEuclid(t), a),
            B::FDivEuclid | B::IDivEuclid => self.call_polyfill(Polyfill::DivEuclid(t), a),
            // OpenCL's own, its operands of the receiver's type (a literal
            // would otherwise pick another overload)
            B::AbsDiff => self.call_polyfill(Polyfill::AbsDiff(t), a),
            B::SaturatingAdd | B::SaturatingSub => {
                let name = if b == B::SaturatingAdd {
                    "add_sat"
                } else {
                    "sub_sat"
                };
                let c = t.value_type();
                format!("{name}(({c}){xp}, ({c}){a1})")
            }
            B::SaturatingMul => self.call_polyfill(Polyfill::SatMul(t), a),
            B::WrappingPow | B::IPow => self.call_polyfill(Polyfill::Pow(t), a),
            // negated as unsigned, as `abs` (OpenCL's leaves MIN undefined)
            B::UnsignedAbs => {
                let (c, u) = (t.value_type(), t.unsigned().value_type());
                format!("(({u})({xp} < ({c})0 ? ({u})0 - ({u}){xp} : ({u}){xp}))")
            }
            // the complement in the receiver's type (`~` widens to `int`)
            B::LeadingOnes => format!("((uint)clz(({})(~{xp})))", t.value_type()),
            B::TrailingOnes => {
                let flipped = format!("({})(~{xp})", t.value_type());
                self.call_polyfill(Polyfill::Ctz(t), &[flipped])
            }
            B::IsPositive => format!("({xp} > ({})0)", t.value_type()),
            B::IsNegative => format!("({xp} < ({})0)", t.value_type()),
            B::DivCeil => self.call_polyfill(Polyfill::DivCeil(t), a),
            B::NextPowerOfTwo => self.call_polyfill(Polyfill::NextPow2(t), a),
            B::Isqrt => self.call_polyfill(Polyfill::Isqrt(t), a),
            B::IsPowerOfTwo => format!(
                "({xp} != ({c})0 && ({c})({xp} & ({c})({xp} - ({c})1)) == ({c})0)",
                c = t.value_type()
            ),
            B::ReverseBits => self.call_polyfill(Polyfill::ReverseBits(t), a),
            B::SwapBytes => self.call_polyfill(Polyfill::SwapBytes(t), a),
            // the table gives the others as calls
            _ => f(b.def().name),
        }
    }
}

impl Emitter<'_> {
    /// `tanh`, guarded where the device's built-in misses the table: PoCL's
    /// `float` `tanh` never reaches ±1 (`tanh(±inf)` is `±0.99999994`, where C99
    /// Annex F and the OpenCL C specification say `±1`, and correct rounding
    /// gives `±1` from `|x| = 9.01` on). Its `double` one is right.
    fn tanh(&mut self, t: DType, a: &[String]) -> String {
        if t == DType::F32 {
            self.call_polyfill(Polyfill::Tanh(t), a)
        } else {
            format!("tanh({})", a.join(", "))
        }
    }
}

/// The `f32` nearest to `x` (Rust's `as`, which rounds to nearest).
#[allow(clippy::cast_possible_truncation)]
fn to_f32(x: f64) -> f32 {
    x as f32
}
