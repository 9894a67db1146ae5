//! Whole kernels: the signature, the `#[helper]`s they call, the body, and what
//! a test needs to run them (parameters, outputs, comparison bounds).

use std::fmt;

use silt_abi::DType;
use silt_codegen::builtins::{On, Rel, TABLE};

use crate::ast::{self, Blk, E, S};
use crate::choose::Choose;
use crate::gen::{Gen, Var};
use crate::names::{HELPER_STEMS, KERNEL_NAMES, NAMES, TYPE_PARAMS};

/// A type in generated code: an element type, or the type parameter.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ty {
    /// This element type.
    Elem(DType),
    /// The kernel's type parameter (`T`), one of its `types` per instantiation.
    Param,
}

impl Ty {
    /// The element type in the instantiation for `inst` (`None`: the kernel is
    /// not generic).
    pub fn at(self, inst: Option<DType>) -> DType {
        match self {
            Ty::Elem(t) => t,
            Ty::Param => inst.unwrap_or(DType::I32),
        }
    }
}

/// What a kernel parameter is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ParamKind {
    /// A tensor read element by element.
    Input,
    /// `#[scalar]`: one value for every element.
    Scalar,
    /// `&mut`: a tensor read and written in place.
    InOut,
    /// `#[index]`: the element's index, a `u64`.
    Index,
}

/// A parameter of a generated kernel.
#[derive(Clone, Debug)]
pub struct Param {
    /// Its name as written (`a0`, `r#const`, `float`, `café`).
    pub name: String,
    /// What it is.
    pub kind: ParamKind,
    /// Its type.
    pub ty: Ty,
    /// Declared `mut`.
    pub mutable: bool,
}

/// An output of a generated kernel and how closely backends must agree on it.
#[derive(Clone, Debug)]
pub struct Check {
    /// `return.0`, `return.1`, ... for results, `*name` for `&mut` parameters.
    pub output: String,
    /// Its type.
    pub ty: Ty,
    /// 0: bit for bit; else the ULP bound of the transcendental function the
    /// value ends in (the specification's bound plus one for the host).
    pub ulps: u32,
}

impl Check {
    /// The ULP bound in the instantiation for `t`: 0 (bit for bit) for exact
    /// values and every type but floats; 1 for `f16`, whose functions are the
    /// `f32` ones rounded to `f16` (the `f32` error shows only next to a
    /// rounding tie, as one `f16` ULP).
    pub fn ulps_for(&self, t: DType) -> u32 {
        match t {
            _ if self.ulps == 0 || !t.is_float() => 0,
            DType::F16 => 1,
            _ => self.ulps,
        }
    }
}

/// A `#[helper]` the kernel may call.
#[derive(Clone, Debug)]
pub struct Helper {
    /// Its name.
    pub name: String,
    /// The attribute's tokens (`types = [f32, i8]`, or nothing).
    pub attr: String,
    /// The `fn` item.
    pub item: String,
}

/// A generated kernel.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// Its name.
    pub name: String,
    /// The attribute's tokens (`types = [f32, i8]`, or nothing).
    pub attr: String,
    /// The `fn` item (with its doc comment and visibility).
    pub item: String,
    /// The helpers it may call, each defined before the ones that call it.
    pub helpers: Vec<Helper>,
    /// The kernels it may call (values and `#[scalar]`s in, one result out;
    /// they may call its helpers), each with empty `helpers`, `callees` and
    /// `checks`: they are not run by themselves.
    pub callees: Vec<Kernel>,
    /// The instantiation types (empty: not generic).
    pub types: Vec<DType>,
    /// Its parameters, in order.
    pub params: Vec<Param>,
    /// Its result types.
    pub outputs: Vec<Ty>,
    /// Its results, then its `&mut` parameters, with their comparison bounds.
    pub checks: Vec<Check>,
    /// Whether a deliberate mistake was made (the kernel may be rejected).
    pub mistake: bool,
}

impl fmt::Display for Kernel {
    /// The helpers and the kernel, as a Rust file would hold them (`#[helper]`
    /// and `#[kernel]` imported).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let attr = |a: &str| {
            if a.is_empty() {
                String::new()
            } else {
                format!("({a})")
            }
        };
        for h in &self.helpers {
            writeln!(f, "#[helper{}]\n{}\n", attr(&h.attr), h.item)?;
        }
        for k in &self.callees {
            writeln!(f, "#[kernel{}]\n{}\n", attr(&k.attr), k.item)?;
        }
        write!(f, "#[kernel{}]\n{}", attr(&self.attr), self.item)
    }
}

/// What a kernel is generated for.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The kernel will run on every backend and the results be compared
    /// (random-kernels): only exactly specified operations, but for one
    /// transcendental function at the end of a float output; no computed NaN
    /// reaches an operation that shows its sign; loops end. Otherwise it is
    /// only compiled (the fuzzer): any method anywhere, any loop.
    pub runnable: bool,
    /// Percent of kernels that get one deliberate mistake (not when
    /// `runnable`).
    pub mistakes: u32,
    /// The kernel's name, unique in the file it goes to; its helpers are named
    /// after it. `None`: the generator picks names, C keywords among them.
    pub name: Option<String>,
}

/// Generates a kernel, with the helpers it calls, from `c`'s choices.
pub fn generate(c: &mut dyn Choose, opts: &Options) -> Kernel {
    let mut g = Gen::new(c, opts.runnable);
    if !opts.runnable && g.pct(opts.mistakes) {
        g.mistakes = 1;
    }
    g.gs = kernel_types(&mut g);
    g.tparam = g.pick(TYPE_PARAMS).to_string();
    let kernel_gs = g.gs.clone();
    let kernel_tparam = g.tparam.clone();
    // ---- helpers it may call ----
    let mut helpers = Vec::new();
    if g.pct(40) {
        for j in 0..g.range(1, 2) {
            let name = match &opts.name {
                Some(k) => format!("{k}_h{j}"),
                None => format!("{}{j}", g.pick(HELPER_STEMS)),
            };
            helpers.push(crate::helper::helper(&mut g, name, &kernel_gs));
        }
    }
    // ---- a kernel it may call ----
    let mut callees = Vec::new();
    // (fewer when the kernel runs: each is built as a kernel of its own too)
    if g.pct(if opts.runnable { 12 } else { 30 }) {
        let name = match &opts.name {
            Some(k) => format!("{k}_k0"),
            None => format!("{}_c0", g.pick(KERNEL_NAMES)),
        };
        callees.push(crate::callee::callee(&mut g, name, &kernel_gs));
    }
    g.gs = kernel_gs;
    g.tparam = kernel_tparam;
    // ---- signature ----
    let params = signature(&mut g);
    let n_inout = params.iter().filter(|p| p.kind == ParamKind::InOut).count();
    let n_out = if n_inout == 0 {
        g.range(1, 3)
    } else {
        g.range(0, 2)
    };
    let outputs: Vec<Ty> = (0..n_out)
        .map(|_| {
            if !g.gs.is_empty() && g.c.bool() {
                Ty::Param
            } else {
                Ty::Elem(g.pick(&DType::ALL))
            }
        })
        .collect();
    g.outputs = outputs.clone();
    g.budget = if opts.runnable {
        70
    } else {
        i64::try_from(g.range(10, 120)).unwrap_or(70)
    };
    // ---- body ----
    let depth = 3;
    g.scopes.push(Vec::new());
    let n = g.range(2, 7);
    let mut stmts = crate::callee::first_calls(&mut g, &callees, depth);
    stmts.extend(g.stmts(n, depth));
    let mut checks = Vec::new();
    let mut tail_vals = Vec::new();
    for (i, t) in outputs.iter().enumerate() {
        let (e, ulps) = g.output_value(*t, depth);
        tail_vals.push(e);
        checks.push(Check {
            output: format!("return.{i}"),
            ty: *t,
            ulps,
        });
    }
    // `&mut` parameters get a last write (perhaps a transcendental one): what
    // runs after it (later writes, the results) may read it, so only the very
    // last one may be inexact
    let inouts: Vec<Param> = params
        .iter()
        .filter(|p| p.kind == ParamKind::InOut)
        .cloned()
        .collect();
    for (k, p) in inouts.iter().enumerate() {
        let mut ulps = 0;
        if g.pct(60) {
            let e = if outputs.is_empty() && k + 1 == inouts.len() {
                let (e, u) = g.output_value(p.ty, depth);
                ulps = u;
                e
            } else {
                g.expr(p.ty, depth, false).e
            };
            stmts.push(S::Assign(format!("*{}", p.name), None, e));
        }
        checks.push(Check {
            output: format!("*{}", p.name),
            ty: p.ty,
            ulps,
        });
    }
    let tail = match tail_vals.len() {
        0 => None,
        1 => tail_vals.pop(),
        _ => Some(E::Tuple(tail_vals)),
    };
    let tail = match tail {
        // `return (a, b);` as the last statement now and then
        Some(t) if g.pct(15) => {
            stmts.push(S::Return(Some(t)));
            None
        }
        t => t,
    };
    let body = Blk {
        stmts,
        tail: tail.map(Box::new),
    };
    // ---- text ----
    let name = match &opts.name {
        Some(n) => n.clone(),
        None => g.pick(KERNEL_NAMES).to_string(),
    };
    let params_text: Vec<String> = params
        .iter()
        .map(|q| {
            let tn = g.tname(q.ty);
            let m = if q.mutable { "mut " } else { "" };
            match q.kind {
                ParamKind::Input => format!("{m}{}: {tn}", q.name),
                ParamKind::Scalar => format!("#[scalar] {m}{}: {tn}", q.name),
                ParamKind::InOut => format!("{}: &mut {tn}", q.name),
                ParamKind::Index => format!("#[index] {}: u64", q.name),
            }
        })
        .collect();
    let ret = result_type(&g, &outputs);
    let generic = if g.gs.is_empty() {
        String::new()
    } else {
        format!("<{}>", g.tparam)
    };
    let doc = if g.pct(12) {
        "/// Docs with \"quotes\", a `*/` comment end and a \\ backslash.\n"
    } else {
        ""
    };
    let vis = g.pick(&["", "pub ", "pub ", "pub(crate) "]);
    let item = format!(
        "{doc}{vis}fn {name}{generic}({}){ret} {}",
        params_text.join(", "),
        ast::blk(&body, 0)
    );
    Kernel {
        name,
        attr: types_attr(&g.gs),
        item,
        helpers,
        callees,
        types: g.gs.clone(),
        params,
        outputs,
        checks,
        mistake: g.wild,
    }
}

pub(crate) fn types_attr(types: &[DType]) -> String {
    if types.is_empty() {
        return String::new();
    }
    let v: Vec<&str> = types.iter().map(|t| t.name()).collect();
    format!("types = [{}]", v.join(", "))
}

fn result_type(g: &Gen, outputs: &[Ty]) -> String {
    match outputs {
        [] => String::new(),
        [one] => format!(" -> {}", g.tname(*one)),
        _ => {
            let v: Vec<String> = outputs.iter().map(|t| g.tname(*t)).collect();
            format!(" -> ({})", v.join(", "))
        }
    }
}

/// The kernel's `types`: none three times in ten, else a random non-empty
/// subset of a family of types (`f16` less often: its instantiations are the
/// slowest to test).
pub(crate) fn kernel_types(g: &mut Gen) -> Vec<DType> {
    use DType::*;
    if g.pct(30) {
        return Vec::new();
    }
    let ints: Vec<DType> = DType::ALL.into_iter().filter(|t| t.is_int()).collect();
    let pool: Vec<DType> = match g.below(7) {
        0 | 1 => ints,
        2 => vec![F16, F32, F64],
        3 => vec![U8, I16, U32, I64, F16, F32, F64],
        4 => vec![I8, I16, I32, I64, F16, F32, F64],
        5 => vec![Bool, U8, I8, U64, I32],
        _ => DType::ALL.to_vec(),
    };
    for _ in 0..4 {
        let chosen: Vec<DType> = pool
            .iter()
            .copied()
            .filter(|t| g.pct(if *t == F16 { 30 } else { 45 }))
            .collect();
        if !chosen.is_empty() {
            return chosen;
        }
    }
    vec![pool[0]]
}

/// A parameter name: `prefix` and its position, or now and then an odd one
/// not taken yet (never `__`-prefixed, which silt keeps for itself).
pub(crate) fn param_name(g: &mut Gen, prefix: &str, i: usize) -> String {
    if g.pct(25) {
        let n = g.pick(NAMES);
        if !n.starts_with("__") && !g.used_names.contains(n) && n != g.tparam {
            return n.to_string();
        }
    }
    format!("{prefix}{i}")
}

/// The kernel's parameters, declared in scope.
fn signature(g: &mut Gen) -> Vec<Param> {
    let n_in = g.range(1, 3);
    let n_scalar = if g.c.bool() { g.range(0, 2) } else { 0 };
    let n_inout = if g.pct(35) { g.range(1, 2) } else { 0 };
    let mut kinds: Vec<ParamKind> = Vec::new();
    kinds.extend(std::iter::repeat_n(ParamKind::Input, n_in));
    kinds.extend(std::iter::repeat_n(ParamKind::Scalar, n_scalar));
    kinds.extend(std::iter::repeat_n(ParamKind::InOut, n_inout));
    if g.pct(20) {
        kinds.push(ParamKind::Index);
    }
    // shuffle
    for i in (1..kinds.len()).rev() {
        let j = g.below(i + 1);
        kinds.swap(i, j);
    }
    let mut params = Vec::new();
    for (i, k) in kinds.into_iter().enumerate() {
        let ty = match k {
            ParamKind::Index => Ty::Elem(DType::U64),
            _ if !g.gs.is_empty() && g.pct(55) => Ty::Param,
            _ => Ty::Elem(g.pick(&DType::ALL)),
        };
        let prefix = match k {
            ParamKind::Input => "a",
            ParamKind::Scalar => "s",
            ParamKind::InOut => "o",
            ParamKind::Index => "idx",
        };
        let name = param_name(g, prefix, i);
        g.used_names.insert(name.clone());
        let mutable = matches!(k, ParamKind::Input | ParamKind::Scalar) && g.pct(20);
        params.push(Param {
            name,
            kind: k,
            ty,
            mutable,
        });
    }
    // `dispatch` takes the dtype from a `T` argument: when the kernel runs, it
    // has one (with none, `dispatch` takes the dtype as an argument, which the
    // generated code names inconsistently: `__dtype_arg` is not in scope)
    let has_t = params
        .iter()
        .any(|p| p.ty == Ty::Param && p.kind != ParamKind::Index);
    if g.run && !g.gs.is_empty() && !has_t {
        if let Some(p) = params.iter_mut().find(|p| p.kind == ParamKind::Input) {
            p.ty = Ty::Param;
        }
    }
    g.param_names = params.iter().map(|p| p.name.clone()).collect();
    for p in &params {
        g.scopes[0].push(Var {
            name: p.name.clone(),
            ty: p.ty,
            det: true,
            assignable: p.mutable || p.kind == ParamKind::InOut,
            deref: p.kind == ParamKind::InOut,
            pristine: !p.mutable && p.kind != ParamKind::InOut,
        });
    }
    params
}

impl Gen<'_> {
    /// The value of an output of type `t` and its ULP bound: when the kernel
    /// runs, a float output may end in one transcendental function of exact
    /// arguments.
    fn output_value(&mut self, t: Ty, depth: usize) -> (E, u32) {
        if self.run && self.all(t, DType::is_float) && self.pct(35) {
            let fs: Vec<_> = TABLE
                .iter()
                // `lgamma`'s relative error is unbounded near its zeros (1, 2 and
                // one between each two negative integers)
                .filter(|d| {
                    !d.exact && d.on == On::Float && d.ret == Rel::Same && d.name != "lgamma"
                })
                .collect();
            let def = self.pick(&fs);
            let recv = self.expr(t, depth, true).e;
            let args = def
                .args
                .iter()
                .map(|a| match a {
                    // small exponents: `powi`'s error grows with them
                    Rel::Fixed(_) => {
                        let n: i128 = self.pick(&[-3, -2, -1, 0, 1, 2, 3, 4, 5, 7]);
                        E::Lit(n.to_string(), Some(n))
                    }
                    _ => self.expr(t, depth, false).e,
                })
                .collect();
            return (
                E::Call(Box::new(recv), def.name, args),
                def.builtin.ulps() + 1,
            );
        }
        (self.expr(t, depth, false).e, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::choose::SplitMix64;

    #[test]
    fn kernels_are_reproducible_and_well_formed() {
        for seed in 0..200 {
            let opts = Options {
                runnable: seed % 2 == 0,
                mistakes: 20,
                name: (seed % 3 == 0).then(|| format!("rk{seed}")),
            };
            let a = generate(&mut SplitMix64::new(seed), &opts);
            let b = generate(&mut SplitMix64::new(seed), &opts);
            assert_eq!(a.to_string(), b.to_string());
            assert!(!a.checks.is_empty(), "{a}");
            assert!(a
                .params
                .iter()
                .any(|p| matches!(p.kind, ParamKind::Input | ParamKind::InOut)));
            assert!(!opts.runnable || !a.mistake);
            let open = a.item.matches('{').count();
            assert_eq!(open, a.item.matches('}').count(), "{a}");
        }
    }

    /// A source that has run dry answers 0: the generator still ends.
    #[test]
    fn a_dry_source_gives_a_small_kernel() {
        struct Dry;
        impl Choose for Dry {
            fn below(&mut self, _: usize) -> usize {
                0
            }
        }
        let k = generate(&mut Dry, &Options::default());
        assert!(k.item.len() < 2000, "{k}");
    }
}
