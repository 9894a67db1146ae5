//! The mistakes users make, one of which goes into some of the kernels that are
//! only compiled, so that the error paths are exercised too.

use silt_abi::DType;
use silt_codegen::builtins::{On, TABLE};

use crate::ast::{self, E};
use crate::gen::{Ex, Gen};
use crate::kernel::Ty;

impl Gen<'_> {
    /// A mistake in place of an expression of type `t`.
    pub fn wrong_expr(&mut self, t: Ty, depth: usize) -> Ex {
        let d = depth - 1;
        let other = self.any_tt();
        let text = |g: &mut Self, t: Ty, det: bool| ast::expr(&g.expr(t, d, det).e, 0);
        let raw = match self.below(16) {
            0 => return self.expr(other, d, false),
            1 => format!("({}).frobnicate()", text(self, t, true)),
            2 => {
                // an `if` without `else` as a value
                let c = text(self, Ty::Elem(DType::Bool), false);
                format!("(if {c} {{ {} }})", text(self, t, false))
            }
            3 => "undefined_name".to_string(),
            4 => format!("(1.5 + {})", text(self, t, false)),
            5 => format!("(({}) as bool)", text(self, other, true)),
            6 => {
                // an untyped literal has no methods
                let lit = self
                    .lit(t, false)
                    .map_or_else(|| "2".to_string(), |x| ast::expr(&x.e, 0));
                format!("({lit}).sqrt()")
            }
            7 => "300".to_string(),
            8 => format!("[{}][0]", text(self, t, false)),
            9 => format!("undefined_helper({})", text(self, t, false)),
            10 => format!("(-({}))", text(self, t, false)),
            11 => format!("({}).min()", text(self, t, true)),
            12 => "1e400".to_string(),
            13 => format!("({}).abs({})", text(self, t, true), text(self, t, false)),
            14 => {
                // a method of the other class of receivers
                let float = self.all(t, DType::is_float);
                let names: Vec<&str> = TABLE
                    .iter()
                    .filter(|d| (d.on == On::Float) != float)
                    .map(|d| d.name)
                    .collect();
                let m = self.pick(&names);
                format!("({}).{m}()", text(self, t, true))
            }
            _ => format!("{}::NO_SUCH_CONSTANT", self.tname(t)),
        };
        Ex::det(E::Raw(raw))
    }
}
