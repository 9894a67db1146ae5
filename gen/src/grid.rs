//! Random `#[grid]` kernels that run: views read by indices in and out of
//! range, a written view, a `#[scalar]`, work-group arrays passed between
//! work-items across barriers in uniform loops, and integer atomics. Every
//! result is a function of the inputs alone (no work-item reads what another
//! writes without a barrier between, atomics only on integers), so the host
//! and every device give the same bits, and the same verdict on accesses out
//! of range.
//!
//! A kernel `gN` of element type `T` takes `x: View<T, R>`, `#[scalar] s: T`,
//! `y: ViewMut<T, R>` and `h: ViewMut<u32, 1>` (a histogram of [`HIST`]
//! bins); the tests launch it over `y`'s shape.

use std::fmt::Write;

use silt_abi::DType;

use crate::choose::Choose;

/// The bins of every grid kernel's histogram `h`.
pub const HIST: usize = 8;

/// A random grid kernel and how to launch it.
#[derive(Debug, Clone)]
pub struct GridKernel {
    /// Its name (`g3`).
    pub name: String,
    /// Its source: the `#[grid]` function.
    pub text: String,
    /// Its element type.
    pub ty: DType,
    /// The shape of `x`.
    pub x_shape: Vec<usize>,
    /// The shape of `y` (the grid).
    pub y_shape: Vec<usize>,
    /// The value of `s`, as a literal.
    pub scalar: String,
    /// Whether some access may fall out of range (the launch may then report
    /// `Error::IndexOutOfBounds`, on every backend alike).
    pub may_overrun: bool,
}

fn lit(t: DType, v: i64) -> String {
    match t {
        DType::F32 | DType::F64 => format!("{v}.0{}", t.name()),
        DType::U32 | DType::U64 => format!("{}{}", v.unsigned_abs(), t.name()),
        _ => format!("{v}{}", t.name()),
    }
}

/// A value expression of type `t` over `names` (values of `t`).
fn value(c: &mut dyn Choose, t: DType, names: &[&str], depth: usize) -> String {
    let leaf = |c: &mut dyn Choose| {
        if c.percent(75) {
            names[c.below(names.len())].to_owned()
        } else {
            lit(t, i64::try_from(c.below(7)).unwrap_or(0) - 3)
        }
    };
    if depth == 0 || c.percent(35) {
        return leaf(c);
    }
    let (l, r) = (value(c, t, names, depth - 1), value(c, t, names, depth - 1));
    match c.below(5) {
        0 => format!("({l} + {r})"),
        1 => format!("({l} - {r})"),
        2 => format!("({l} * {r})"),
        3 => format!("{l}.min({r})"),
        _ => format!("{l}.max({r})"),
    }
}

/// An index into dimension `d` of `x` from the work-item's `i` (a `u64`):
/// in range when `guarded`, else possibly past the end.
fn index(c: &mut dyn Choose, i: &str, d: usize, guarded: bool) -> String {
    let k = c.below(4);
    let raw = match c.below(4) {
        0 => i.to_owned(),
        1 => format!("{i} + {k}"),
        2 => format!("{i} * 2"),
        _ => format!("x.len({d}) - 1 - {i}.min(x.len({d}) - 1)"),
    };
    if guarded {
        format!("({raw}) % x.len({d})")
    } else {
        raw
    }
}

/// A random grid kernel named `name`.
pub fn generate_grid(c: &mut dyn Choose, name: &str) -> GridKernel {
    let ty = [DType::I32, DType::U32, DType::I64, DType::F32, DType::F64][c.below(5)];
    let t = ty.name();
    let rank = 1 + c.below(2);
    let group: Vec<usize> = if rank == 1 {
        vec![[1, 4, 8, 16, 64][c.below(5)]]
    } else {
        vec![[1, 2, 4, 8][c.below(4)], [1, 2, 4][c.below(3)]]
    };
    let y_shape: Vec<usize> = (0..rank).map(|_| 1 + c.below(37)).collect();
    let x_shape: Vec<usize> = y_shape
        .iter()
        .map(|&n| (n + c.below(5)).max(1) - c.below(2).min(n - 1))
        .collect();
    let guarded = c.percent(60);
    let guard_writes = c.percent(80);
    let ids: Vec<&str> = ["i", "j"][..rank].to_vec();
    let mut body = String::new();
    let _ = writeln!(body, "    let i = global_id(0);");
    if rank == 2 {
        let _ = writeln!(body, "    let j = global_id(1);");
    }
    let in_x: Vec<String> = ids
        .iter()
        .enumerate()
        .map(|(d, v)| format!("{v} < x.len({d})"))
        .collect();
    let in_y: Vec<String> = ids
        .iter()
        .enumerate()
        .map(|(d, v)| format!("{v} < y.len({d})"))
        .collect();
    // a value every work-item has: the element of x at a random index
    let ix: Vec<String> = ids
        .iter()
        .enumerate()
        .map(|(d, v)| index(c, v, d, guarded))
        .collect();
    let zero = lit(ty, 0);
    let _ = writeln!(
        body,
        "    let a: {t} = if {} {{ x[[{}]] }} else {{ {zero} }};",
        in_x.join(" && "),
        ix.join(", ")
    );
    let mut vars = vec!["a", "s"];
    // work-group memory: each work-item writes its own cell, then reads a
    // neighbour's after a barrier, in a loop of uniform length
    if c.percent(60) {
        let dims: Vec<String> = group.iter().map(ToString::to_string).collect();
        let _ = writeln!(body, "    let mut tile = local![{t}; {}];", dims.join(", "));
        let l: Vec<String> = (0..rank).map(|d| format!("local_id({d})")).collect();
        let nb: Vec<String> = (0..rank)
            .map(|d| format!("(local_id({d}) + 1) % {}", group[d]))
            .collect();
        let rounds = 1 + c.below(3);
        let _ = writeln!(body, "    let mut b: {t} = a;");
        let _ = writeln!(body, "    for r in 0..{rounds} {{");
        let _ = writeln!(
            body,
            "        tile[[{}]] = {};",
            l.join(", "),
            value(c, ty, &["a", "b", "s"], 2)
        );
        let _ = writeln!(body, "        barrier();");
        let _ = writeln!(body, "        b = tile[[{}]];", nb.join(", "));
        let _ = writeln!(body, "        barrier();");
        let _ = writeln!(body, "    }}");
        vars.push("b");
    }
    // a histogram of the work-items that reach it, by atomics
    if c.percent(50) {
        let _ = writeln!(
            body,
            "    if {} {{\n        h.atomic_add([(i + {}) % {HIST}], 1);\n    }}",
            in_y.join(" && "),
            c.below(HIST)
        );
    }
    let result = value(c, ty, &vars, 3);
    let yi = ids.join(", ");
    if guard_writes {
        let _ = writeln!(
            body,
            "    if {} {{\n        y[[{yi}]] = {result};\n    }}",
            in_y.join(" && ")
        );
    } else {
        // the work-items past y (whole groups) write out of range
        let _ = writeln!(body, "    y[[{yi}]] = {result};");
    }
    let groups: Vec<String> = group.iter().map(ToString::to_string).collect();
    let text = format!(
        "#[grid(group = [{}])]\npub fn {name}(x: View<{t}, {rank}>, #[scalar] s: {t}, y: ViewMut<{t}, {rank}>, h: ViewMut<u32, 1>) {{\n{body}}}\n",
        groups.join(", ")
    );
    let padded = y_shape.iter().zip(&group).any(|(&n, &g)| n % g != 0);
    GridKernel {
        name: name.to_owned(),
        text,
        ty,
        x_shape,
        y_shape,
        scalar: lit(ty, i64::try_from(c.below(5)).unwrap_or(0) - 2),
        may_overrun: !guarded || (!guard_writes && padded),
    }
}
