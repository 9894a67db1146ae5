//! The generator's state: where choices come from, what is in scope, and the
//! types of the code being written.

use std::collections::HashSet;

use silt_abi::DType;

use crate::ast::E;
use crate::choose::Choose;
use crate::kernel::Ty;
use crate::names::NAMES;

/// A variable in scope.
#[derive(Clone, Debug)]
pub(crate) struct Var {
    pub name: String,
    pub ty: Ty,
    /// Its type is fixed where it is declared (methods may be called on it).
    pub det: bool,
    /// Assignable (`let mut`, `mut` parameter, `&mut` parameter).
    pub assignable: bool,
    /// Read as `*name` (a `&mut` parameter).
    pub deref: bool,
    /// Holds an input exactly as it was given (a parameter neither `mut` nor
    /// `&mut`): an input NaN passed on keeps its sign and payload.
    pub pristine: bool,
}

impl Var {
    /// A local of type `ty`.
    pub fn local(name: String, ty: Ty, det: bool, assignable: bool) -> Var {
        Var {
            name,
            ty,
            det,
            assignable,
            deref: false,
            pristine: false,
        }
    }

    /// How it is read.
    pub fn read(&self) -> E {
        if self.deref {
            E::Deref(self.name.clone())
        } else {
            E::Path(self.name.clone())
        }
    }

    /// How it is assigned to.
    pub fn place(&self) -> String {
        if self.deref {
            format!("*{}", self.name)
        } else {
            self.name.clone()
        }
    }
}

/// A `#[helper]` bodies may call.
#[derive(Clone, Debug)]
pub(crate) struct HelperSig {
    pub name: String,
    /// Parameter types; [`Ty::Param`] is the helper's own type parameter.
    pub params: Vec<Ty>,
    /// The result types (several: called in a tuple `let` alone).
    pub rets: Vec<Ty>,
    /// The helper's `types` (empty when it is not generic).
    pub types: Vec<DType>,
}

/// An expression, and whether its type is fixed without context (a method
/// receiver, or a generic helper's first argument, must be).
pub(crate) struct Ex {
    pub e: E,
    pub det: bool,
}

impl Ex {
    pub fn det(e: E) -> Ex {
        Ex { e, det: true }
    }
}

pub(crate) struct Gen<'a> {
    pub c: &'a mut dyn Choose,
    /// The kernel will run on several backends and the results be compared.
    pub run: bool,
    /// The instantiation types of the type parameter here (narrowed inside
    /// `if T::IS_FLOAT` and friends; empty: there is none).
    pub gs: Vec<DType>,
    /// The type parameter's name.
    pub tparam: String,
    pub scopes: Vec<Vec<Var>>,
    /// The current function's parameter names.
    pub param_names: Vec<String>,
    /// The current function's result types.
    pub outputs: Vec<Ty>,
    /// Counter for fresh names.
    pub next: usize,
    pub loop_depth: usize,
    pub block_depth: usize,
    /// Nodes left to generate.
    pub budget: i64,
    /// Unsuffixed integer literals must fit `i32` (their type may default).
    pub small_lits: bool,
    pub used_names: HashSet<String>,
    pub helpers: Vec<HelperSig>,
    /// Deliberate mistakes left to make.
    pub mistakes: u32,
    /// Whether one was made.
    pub wild: bool,
}

impl<'a> Gen<'a> {
    pub fn new(c: &'a mut dyn Choose, run: bool) -> Self {
        Gen {
            c,
            run,
            gs: Vec::new(),
            tparam: "T".into(),
            scopes: vec![Vec::new()],
            param_names: Vec::new(),
            outputs: Vec::new(),
            next: 0,
            loop_depth: 0,
            block_depth: 0,
            budget: 70,
            small_lits: false,
            used_names: HashSet::new(),
            helpers: Vec::new(),
            mistakes: 0,
            wild: false,
        }
    }

    // ---- choices ----

    pub fn below(&mut self, n: usize) -> usize {
        self.c.below(n).min(n.saturating_sub(1))
    }

    pub fn pct(&mut self, p: u32) -> bool {
        self.c.percent(p)
    }

    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    // ---- types ----

    /// The element types `t` stands for here.
    pub fn insts(&self, t: Ty) -> Vec<DType> {
        match t {
            Ty::Elem(x) => vec![x],
            Ty::Param => self.gs.clone(),
        }
    }

    /// Whether `f` holds for every type `t` stands for (and there is one).
    pub fn all(&self, t: Ty, f: impl Fn(DType) -> bool) -> bool {
        let i = self.insts(t);
        !i.is_empty() && i.into_iter().all(f)
    }

    /// `t` as written.
    pub fn tname(&self, t: Ty) -> String {
        match t {
            Ty::Elem(x) => x.name().to_string(),
            Ty::Param => self.tparam.clone(),
        }
    }

    /// A random type (the type parameter among them) satisfying `f` for all its
    /// instantiations.
    pub fn rand_tt(&mut self, f: impl Fn(DType) -> bool) -> Option<Ty> {
        let mut c: Vec<Ty> = DType::ALL
            .iter()
            .filter(|t| f(**t))
            .map(|t| Ty::Elem(*t))
            .collect();
        if !self.gs.is_empty() && self.gs.iter().all(|t| f(*t)) {
            // the type parameter is the most interesting type: weight it
            c.extend([Ty::Param, Ty::Param, Ty::Param]);
        }
        if c.is_empty() {
            None
        } else {
            Some(self.pick(&c))
        }
    }

    pub fn any_tt(&mut self) -> Ty {
        self.rand_tt(|_| true).unwrap_or(Ty::Elem(DType::I32))
    }

    // ---- names and scopes ----

    /// A name not declared yet in this function: now and then one of the odd
    /// [`NAMES`], else `prefix` and a number.
    pub fn fresh(&mut self, prefix: &str) -> String {
        if self.pct(20) {
            let n = self.pick(NAMES);
            if !self.used_names.contains(n)
                && !self.param_names.iter().any(|p| p == n)
                && n != self.tparam
            {
                self.used_names.insert(n.to_string());
                return n.to_string();
            }
        }
        self.next += 1;
        let n = format!("{prefix}{}", self.next);
        self.used_names.insert(n.clone());
        n
    }

    /// The variables in scope, innermost first, shadowed ones left out.
    pub fn visible(&self) -> Vec<Var> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for s in self.scopes.iter().rev() {
            for v in s.iter().rev() {
                if seen.insert(v.name.clone()) {
                    out.push(v.clone());
                }
            }
        }
        out
    }

    pub fn declare(&mut self, v: Var) {
        if let Some(s) = self.scopes.last_mut() {
            s.push(v);
        }
    }

    /// Runs `f` in a new scope, one block deeper.
    pub fn nested<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        self.scopes.push(Vec::new());
        self.block_depth += 1;
        let r = f(self);
        self.block_depth -= 1;
        self.scopes.pop();
        r
    }

    /// Runs `f` with the type parameter standing for `gs`.
    pub fn narrowed<R>(&mut self, gs: Vec<DType>, f: impl FnOnce(&mut Self) -> R) -> R {
        let saved = std::mem::replace(&mut self.gs, gs);
        let r = f(self);
        self.gs = saved;
        r
    }

    /// Whether to make a deliberate mistake here (at most as many as allowed).
    pub fn mistake(&mut self) -> bool {
        if self.mistakes > 0 && self.pct(8) {
            self.mistakes -= 1;
            self.wild = true;
            return true;
        }
        false
    }
}
