//! Whole `#[reduce]` and `#[scan]` modules: the accumulator, `identity`, the
//! optional `map` and `finish`, `combine`, and what a test needs to run them
//! (the parameters `launch` and `eval` take, the outputs).

use std::fmt;

use silt_abi::DType;

use crate::choose::Choose;
use crate::fold_parts::{FnSpec, PSpec};
use crate::gen::Gen;
use crate::kernel::{kernel_types, param_name, types_attr, Helper, Options, Param, ParamKind, Ty};
use crate::names::{FOLD_NAMES, TYPE_PARAMS};

/// Which attribute a generated module carries.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FoldKind {
    /// `#[reduce]`: one result per row of the reduced axes.
    Reduce,
    /// `#[scan]`: one result per element, along one axis.
    Scan,
}

impl FoldKind {
    /// The attribute's name (`reduce` or `scan`).
    pub fn attr_name(self) -> &'static str {
        match self {
            FoldKind::Reduce => "reduce",
            FoldKind::Scan => "scan",
        }
    }
}

/// A generated reduction or scan.
#[derive(Clone, Debug)]
pub struct Fold {
    /// The module's name.
    pub name: String,
    /// `#[reduce]` or `#[scan]`.
    pub kind: FoldKind,
    /// The attribute's tokens (`types = [f32, i8], empty = error`, or nothing).
    pub attr: String,
    /// The `mod` item (with its doc comment and visibility).
    pub item: String,
    /// The instantiation types (empty: not generic).
    pub types: Vec<DType>,
    /// The parameters of `map` in order, which `launch` and `eval` take (less
    /// the `#[index]`); without `map`, the one input `x` of the accumulator's
    /// type that silt writes `map` with.
    pub params: Vec<Param>,
    /// The accumulator's types (two for a tuple).
    pub acc: Vec<Ty>,
    /// The result types (`finish`'s, or the accumulator's without it).
    pub outputs: Vec<Ty>,
    /// `empty = error`: a row of no elements is an error at launch.
    pub empty_is_error: bool,
    /// Whether a deliberate mistake was made (the module may be rejected).
    pub mistake: bool,
    /// The `#[helper]`s its functions may call, defined beside it (each before
    /// the ones that call it).
    pub helpers: Vec<Helper>,
}

impl fmt::Display for Fold {
    /// The module as a Rust file would hold it (`#[reduce]` or `#[scan]`
    /// imported).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let attr = if self.attr.is_empty() {
            String::new()
        } else {
            format!("({})", self.attr)
        };
        for h in &self.helpers {
            if h.attr.is_empty() {
                writeln!(f, "#[helper]\n{}\n", h.item)?;
            } else {
                writeln!(f, "#[helper({})]\n{}\n", h.attr, h.item)?;
            }
        }
        write!(f, "#[{}{attr}]\n{}", self.kind.attr_name(), self.item)
    }
}

/// Module names the generator picks itself.
const MODULE_NAMES: &[&str] = &[
    "r", "sum", "int", "float", "kernel", "silt_r", "café", "map", "combine", "r#match",
];

/// Generates a reduction (`FoldKind::Reduce`) or a scan from `c`'s choices.
///
/// When `opts.runnable`, every body uses only exactly specified operations (no
/// transcendental function anywhere: an accumulator is combined further), no
/// computed NaN reaches an operation that shows its sign, loops end, and a
/// generic module's `map` takes a tensor of the type parameter (so that
/// `launch` and `dispatch` infer it). `combine` need not be associative: silt
/// fixes the order.
pub fn generate_fold(c: &mut dyn Choose, opts: &Options, kind: FoldKind) -> Fold {
    let mut g = Gen::new(c, opts.runnable);
    if !opts.runnable && g.pct(opts.mistakes) {
        g.mistakes = 1;
    }
    let mut types = kernel_types(&mut g);
    // a reduction's instantiation is a large program (every pass, every way
    // of sharing out the work): ones that run keep two types at most
    while opts.runnable && types.len() > 2 {
        let i = g.below(types.len());
        types.remove(i);
    }
    g.tparam = g.pick(TYPE_PARAMS).to_string();
    g.gs.clone_from(&types);
    let generic = !types.is_empty();
    let elem = |g: &mut Gen| {
        if generic && g.pct(55) {
            Ty::Param
        } else {
            Ty::Elem(g.pick(&DType::ALL))
        }
    };
    // ---- the accumulator ----
    let acc: Vec<Ty> = if g.pct(30) {
        vec![elem(&mut g), elem(&mut g)]
    } else {
        vec![elem(&mut g)]
    };
    // without `map` the input is the accumulator: a generic module that runs
    // needs an input of the type parameter
    let has_map = acc.len() > 1 || g.pct(60) || (opts.runnable && generic && acc[0] != Ty::Param);
    let params = if has_map {
        map_params(&mut g, opts.runnable)
    } else {
        vec![Param {
            name: "x".into(),
            kind: ParamKind::Input,
            ty: acc[0],
            mutable: false,
        }]
    };
    let has_finish = g.pct(55);
    // `finish` may return the accumulator (a tuple whole)
    let outputs: Vec<Ty> = if !has_finish || (acc.len() > 1 && g.pct(30)) {
        acc.clone()
    } else {
        let n = if g.pct(25) { 2 } else { 1 };
        (0..n).map(|_| elem(&mut g)).collect()
    };
    // ---- which functions are generic ----
    let uses_t = |tys: &[Ty]| tys.contains(&Ty::Param);
    let gen_flag = |g: &mut Gen, tys: &[Ty]| generic && (uses_t(tys) || g.pct(25));
    let param_tys: Vec<Ty> = params.iter().map(|p| p.ty).collect();
    let mut flags = [
        gen_flag(&mut g, &acc),
        has_map && gen_flag(&mut g, &[param_tys.clone(), acc.clone()].concat()),
        gen_flag(&mut g, &acc),
        has_finish && gen_flag(&mut g, &[acc.clone(), outputs.clone()].concat()),
    ];
    if generic && !flags.contains(&true) {
        flags[0] = true;
    }
    // ---- the functions ----
    let tuple = |name: String| {
        if acc.len() > 1 {
            PSpec::Tuple(name, acc.clone())
        } else {
            PSpec::Plain(Param {
                name,
                kind: ParamKind::Input,
                ty: acc[0],
                mutable: false,
            })
        }
    };
    let mut specs = vec![FnSpec {
        name: "identity",
        generic: flags[0],
        params: Vec::new(),
        outputs: acc.clone(),
        whole: Vec::new(),
    }];
    if has_map {
        specs.push(FnSpec {
            name: "map",
            generic: flags[1],
            params: params.iter().cloned().map(PSpec::Plain).collect(),
            outputs: acc.clone(),
            whole: Vec::new(),
        });
    }
    let (a, b) = (fold_name(&mut g, "a", 0), fold_name(&mut g, "b", 1));
    specs.push(FnSpec {
        name: "combine",
        generic: flags[2],
        params: vec![tuple(a.clone()), tuple(b.clone())],
        outputs: acc.clone(),
        whole: if acc.len() > 1 {
            vec![a, b]
        } else {
            Vec::new()
        },
    });
    if has_finish {
        let acc_name = fold_name(&mut g, "acc", 0);
        let count = fold_name(&mut g, "count", 1);
        specs.push(FnSpec {
            name: "finish",
            generic: flags[3],
            params: vec![
                tuple(acc_name.clone()),
                PSpec::Plain(Param {
                    name: count,
                    kind: ParamKind::Input,
                    ty: Ty::Elem(DType::U64),
                    mutable: false,
                }),
            ],
            outputs: outputs.clone(),
            whole: if acc.len() > 1 && outputs == acc {
                vec![acc_name]
            } else {
                Vec::new()
            },
        });
    }
    // ---- helpers its functions may call (in modules that run: the fuzzer's
    // expansion of a module follows no chain of helper macros) ----
    let mut helpers = Vec::new();
    if opts.runnable && g.pct(40) {
        for j in 0..g.range(1, 2) {
            let name = match &opts.name {
                Some(m) => format!("{m}_h{j}"),
                None => format!("h{j}"),
            };
            helpers.push(crate::helper::helper(&mut g, name, &types));
        }
    }
    let mut fns: Vec<String> = specs
        .iter()
        .map(|s| crate::fold_parts::function(&mut g, s, &types))
        .collect();
    // ---- the attribute ----
    let empty_is_error = kind == FoldKind::Reduce && g.pct(15);
    let mut attr_parts = Vec::new();
    if generic {
        attr_parts.push(types_attr(&types));
    }
    if empty_is_error {
        attr_parts.push("empty = error".to_string());
    } else if kind == FoldKind::Reduce && g.pct(5) {
        attr_parts.push("empty = identity".to_string());
    }
    if attr_parts.len() > 1 && g.pct(30) {
        attr_parts.reverse();
    }
    let mut attr = attr_parts.join(", ");
    // ---- a deliberate mistake in the module's structure ----
    if g.mistakes > 0 && g.c.bool() {
        g.mistakes -= 1;
        g.wild = true;
        crate::fold_parts::structural_mistake(&mut g, kind, &acc, &mut fns, &mut attr);
    }
    // the functions in any order when only compiled
    if !opts.runnable && g.pct(20) {
        for i in (1..fns.len()).rev() {
            let j = g.below(i + 1);
            fns.swap(i, j);
        }
    }
    // ---- text ----
    let name = match &opts.name {
        Some(n) => n.clone(),
        None => g.pick(MODULE_NAMES).to_string(),
    };
    let doc = if g.pct(12) {
        "/// Docs with \"quotes\", a `*/` comment end and a \\ backslash.\n"
    } else {
        ""
    };
    let vis = g.pick(&["", "pub ", "pub ", "pub(crate) "]);
    let item = format!("{doc}{vis}mod {name} {{\n{}\n}}", fns.join("\n\n"));
    Fold {
        name,
        kind,
        attr,
        item,
        types,
        params,
        acc,
        outputs,
        empty_is_error,
        mistake: g.wild,
        helpers,
    }
}

/// A parameter name of a reduction's function: `prefix` (and `i`), or now
/// and then one of the names its generated module uses itself.
/// The name is taken from then on.
fn fold_name(g: &mut Gen, prefix: &str, i: usize) -> String {
    let odd = g.pick(FOLD_NAMES);
    let n = if g.pct(10) && !g.used_names.contains(odd) {
        odd.to_string()
    } else {
        let n = param_name(g, prefix, i);
        if g.used_names.contains(&n) {
            format!("{prefix}{i}_{}", g.used_names.len())
        } else {
            n
        }
    };
    g.used_names.insert(n.clone());
    n
}

/// `map`'s parameters: one to three tensor elements, maybe `#[scalar]`s, maybe
/// an `#[index]`; in a generic module that runs, a tensor of the type
/// parameter among them.
fn map_params(g: &mut Gen, runnable: bool) -> Vec<Param> {
    let n_in = g.range(1, 3);
    let n_scalar = if g.c.bool() { g.range(0, 2) } else { 0 };
    let mut kinds: Vec<ParamKind> = Vec::new();
    kinds.extend(std::iter::repeat_n(ParamKind::Input, n_in));
    kinds.extend(std::iter::repeat_n(ParamKind::Scalar, n_scalar));
    if g.pct(25) {
        kinds.push(ParamKind::Index);
    }
    for i in (1..kinds.len()).rev() {
        let j = g.below(i + 1);
        kinds.swap(i, j);
    }
    let mut params: Vec<Param> = Vec::new();
    for (i, k) in kinds.into_iter().enumerate() {
        let ty = match k {
            ParamKind::Index => Ty::Elem(DType::U64),
            _ if !g.gs.is_empty() && g.pct(55) => Ty::Param,
            _ => Ty::Elem(g.pick(&DType::ALL)),
        };
        let prefix = match k {
            ParamKind::Scalar => "s",
            ParamKind::Index => "idx",
            _ => "x",
        };
        let name = fold_name(g, prefix, i);
        let mutable = k != ParamKind::Index && g.pct(15);
        params.push(Param {
            name,
            kind: k,
            ty,
            mutable,
        });
    }
    let has_t = params
        .iter()
        .any(|p| p.ty == Ty::Param && p.kind == ParamKind::Input);
    if runnable && !g.gs.is_empty() && !has_t {
        if let Some(p) = params.iter_mut().find(|p| p.kind == ParamKind::Input) {
            p.ty = Ty::Param;
        }
    }
    params
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::choose::SplitMix64;

    #[test]
    fn folds_are_reproducible_and_well_formed() {
        for seed in 0..300 {
            let kind = if seed % 3 == 0 {
                FoldKind::Scan
            } else {
                FoldKind::Reduce
            };
            let opts = Options {
                runnable: seed % 2 == 0,
                mistakes: 30,
                name: (seed % 4 == 0).then(|| format!("rr{seed}")),
            };
            let a = generate_fold(&mut SplitMix64::new(seed), &opts, kind);
            let b = generate_fold(&mut SplitMix64::new(seed), &opts, kind);
            assert_eq!(a.to_string(), b.to_string());
            assert!(!a.outputs.is_empty() && !a.acc.is_empty(), "{a}");
            assert!(a.params.iter().any(|p| p.kind == ParamKind::Input), "{a}");
            assert!(!opts.runnable || !a.mistake);
            assert!(!a.empty_is_error || kind == FoldKind::Reduce);
            assert_eq!(
                a.item.matches('{').count(),
                a.item.matches('}').count(),
                "{a}"
            );
            if opts.runnable {
                for f in ["fn identity", "fn combine"] {
                    assert!(a.item.contains(f), "{a}");
                }
                if !a.types.is_empty() {
                    assert!(
                        a.params
                            .iter()
                            .any(|p| p.kind == ParamKind::Input && p.ty == Ty::Param),
                        "{a}"
                    );
                }
            }
        }
    }

    /// A source that has run dry answers 0: the generator still ends.
    #[test]
    fn a_dry_source_gives_a_small_module() {
        struct Dry;
        impl Choose for Dry {
            fn below(&mut self, _: usize) -> usize {
                0
            }
        }
        for kind in [FoldKind::Reduce, FoldKind::Scan] {
            let f = generate_fold(&mut Dry, &Options::default(), kind);
            assert!(f.item.len() < 3000, "{f}");
        }
    }
}
