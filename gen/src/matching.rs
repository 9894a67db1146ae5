//! `match` expressions on integers and `bool`: literals (negative ones too),
//! ranges (`a..=b`, `a..b`, `a..`, `..=b`), `|`, `_`, names, `name @ pattern`
//! and guards, the last arm covering what is left.

use silt_abi::DType;

use crate::ast::{Arm, E};
use crate::gen::{Ex, Gen, Var};
use crate::kernel::Ty;
use crate::lits::fits;

/// Values patterns compare with: small ones, and the bounds of the integer
/// types (a pattern's literal must fit every type the scrutinee stands for).
const PATTERN_VALUES: &[i128] = &[
    -129,
    -128,
    -100,
    -7,
    -2,
    -1,
    0,
    1,
    2,
    3,
    5,
    7,
    10,
    42,
    100,
    127,
    128,
    200,
    255,
    256,
    1000,
    32767,
    65535,
    65536,
    2_147_483_647,
    4_294_967_295,
];

impl Gen<'_> {
    /// `match scrutinee { arms }` with a value of type `t`: the scrutinee an
    /// integer or a `bool`, the arms tried in order, the last one covering
    /// every value left (`_`, a name, or `true`/`false` between them).
    pub(crate) fn match_expr(&mut self, t: Ty, depth: usize, det: bool) -> Option<Ex> {
        let st = self.rand_tt(|d| d.is_int() || d == DType::Bool)?;
        let insts = self.insts(st);
        let is_bool = insts.iter().all(|d| *d == DType::Bool);
        if !is_bool && !insts.iter().all(|d| d.is_int()) {
            return None;
        }
        let values: Vec<i128> = PATTERN_VALUES
            .iter()
            .copied()
            .filter(|v| insts.iter().all(|d| fits(*d, *v)))
            .collect();
        // the scrutinee's type must be known without context
        let scrutinee = self.expr(st, depth - 1, true).e;
        // arms are shallower than an `if`'s branches: a `match` has more
        let n = self.range(1, 2);
        let arm_depth = if depth > 2 { depth - 2 } else { depth - 1 };
        let mut arms = Vec::new();
        let mut any_det = false;
        let mut bools_left = [true, true];
        for k in 0..=n {
            let last = k == n;
            // an arm with a guard covers nothing
            let guarded = !last && self.pct(20);
            let (pat, binds) = if is_bool {
                self.bool_pattern(last, guarded, &mut bools_left)
            } else {
                self.int_pattern(last, &values)
            };
            let arm = self.nested(|g| {
                if let Some(name) = &binds {
                    g.declare(Var::local(name.clone(), st, true, false));
                }
                let guard = guarded.then(|| g.expr(Ty::Elem(DType::Bool), arm_depth, false).e);
                let body = g.expr(t, arm_depth, det);
                any_det |= body.det;
                Arm {
                    pat,
                    guard,
                    body: body.e,
                }
            });
            arms.push(arm);
            if is_bool && bools_left == [false, false] {
                break;
            }
        }
        Some(Ex {
            e: E::Match(Box::new(scrutinee), arms),
            det: any_det,
        })
    }

    /// A pattern on a `bool`: `true` or `false` (covering it unless
    /// `guarded`); the last one (`last`) covers what `left` says is left
    /// (`left[0]`: `false`, `left[1]`: `true`).
    fn bool_pattern(
        &mut self,
        last: bool,
        guarded: bool,
        left: &mut [bool; 2],
    ) -> (String, Option<String>) {
        if last {
            return self.catch_all(left.iter().filter(|b| **b).count() == 1, left);
        }
        let b = self.c.bool();
        if !guarded {
            left[usize::from(b)] = false;
        }
        (b.to_string(), None)
    }

    /// The last arm: `_`, a name, `name @ _`, or the one `bool` value left.
    fn catch_all(&mut self, one_bool_left: bool, left: &mut [bool; 2]) -> (String, Option<String>) {
        if one_bool_left && self.c.bool() {
            let b = left[1];
            *left = [false, false];
            return (b.to_string(), None);
        }
        *left = [false, false];
        match self.below(3) {
            0 => ("_".into(), None),
            1 => {
                let n = self.fresh("m");
                (n.clone(), Some(n))
            }
            _ => {
                let n = self.fresh("m");
                (format!("{n} @ _"), Some(n))
            }
        }
    }

    /// A pattern on an integer: a literal, a range, an alternative of them,
    /// perhaps bound to a name; the last one catches every value.
    fn int_pattern(&mut self, last: bool, values: &[i128]) -> (String, Option<String>) {
        if last || values.is_empty() {
            return self.catch_all(false, &mut [false, false]);
        }
        let one = |g: &mut Self| -> String {
            let a = g.pick(values);
            let b = g.pick(values);
            let (lo, hi) = (a.min(b), a.max(b));
            match g.below(6) {
                0 if lo < hi => format!("{lo}..{hi}"),
                1 => format!("{lo}..={hi}"),
                2 => format!("{a}.."),
                3 => format!("..={a}"),
                _ => a.to_string(),
            }
        };
        let first = one(self);
        let pat = if self.pct(30) {
            let second = one(self);
            format!("{first} | {second}")
        } else {
            first
        };
        if self.pct(20) {
            let n = self.fresh("m");
            let pat = if pat.contains('|') {
                format!("{n} @ ({pat})")
            } else {
                format!("{n} @ {pat}")
            };
            return (pat, Some(n));
        }
        (pat, None)
    }
}
