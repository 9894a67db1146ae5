//! The OpenCL C backend: one complete program per instantiation, or one for a
//! group of them, from the typed IR.
//!
//! The semantics follow silt's table (`docs/semantics.md`): integer arithmetic
//! wraps (done in unsigned types, since signed overflow is undefined in C),
//! division by zero gives 0, shift counts are masked, float-to-integer casts
//! saturate, and contraction of `a * b + c` into fma is off.
//!
//! A kernel's body is a C function of its own (`function.rs`, `expr.rs`,
//! `builtin.rs`); the entry template of its [`Entry`] form wraps it in
//! `__kernel` entry points (`entry/`), by the launch ABI of
//! `silt_abi::opencl`.

mod builtin;
mod c;
mod consts;
mod entry;
mod expr;
mod function;
mod int_polyfill;
mod literal;
mod names;
mod polyfill;
mod types;

use std::collections::BTreeSet;

use silt_abi::opencl::{assemble, Def, Piece};

use crate::ir::{Entry, Kernel};
use function::Emitter;
use polyfill::Polyfill;
use silt_abi::DType;

pub use names::{
    ascii_name, body_name, entry_name, fold_entry_name, strided3_entry_name, strided_entry_name,
};
pub use types::ClType;

/// What one instantiation contributes to a program.
struct Parts {
    polyfills: BTreeSet<Polyfill>,
    /// `#[helper]` functions, by name, callees first.
    helper_fns: Vec<(String, String)>,
    body: String,
    /// (line of `body`, Rust line) of the body's statements.
    body_lines: Vec<(usize, usize)>,
    entries: String,
}

fn parts(k: &Kernel) -> Parts {
    let mut e = Emitter::new(&k.func, names::body_name(&k.func));
    e.checked = matches!(&k.entry, Entry::Grid(g) if !g.unchecked);
    let mut helper_fns = Vec::new();
    for h in &k.helpers {
        let name = names::helper_fn_name(&h.id);
        let mut he = Emitter::new(&h.func, name.clone());
        helper_fns.push((name, he.body_function()));
        e.polyfills.extend(he.polyfills);
    }
    let body = e.body_function();
    let body_lines = std::mem::take(&mut e.line_map);
    let entries = match &k.entry {
        Entry::Map => entry::map::entry_points(&mut e),
        Entry::Reduce(r) => entry::reduce::entry_points(&mut e, r),
        Entry::Scan(r) => entry::scan::entry_points(&mut e, r),
        Entry::Grid(g) => entry::grid::entry_points(&mut e, g),
    };
    Parts {
        polyfills: e.polyfills,
        helper_fns,
        body,
        body_lines,
        entries,
    }
}

/// A program of one or more instantiations as named pieces, in the order
/// [`assemble`] lays them out (every polyfill once, every `#[helper]` function
/// once, then each instantiation's body and entry points), with what each
/// instantiation's own program holds.
#[derive(Debug)]
pub struct Program {
    /// The pieces, each after those it uses.
    pub defs: Vec<(Piece, String, String)>,
    /// Per instantiation: the pieces its own program holds, in order.
    pub own: Vec<Vec<usize>>,
    /// Per instantiation: its body's piece, and (line of the body, Rust line)
    /// for each line a statement was emitted to (lines counted from 0).
    bodies: Vec<(usize, Vec<(usize, usize)>)>,
}

impl Program {
    /// The program of the instantiations `ks`.
    pub fn new(ks: &[&Kernel]) -> Program {
        let all: Vec<Parts> = ks.iter().map(|k| parts(k)).collect();
        let polyfills: BTreeSet<Polyfill> = all
            .iter()
            .flat_map(|p| p.polyfills.iter().copied())
            .collect();
        let mut defs: Vec<(Piece, String, String)> = polyfills
            .iter()
            .map(|&h| (Piece::Polyfill, polyfill::name(h), polyfill::source(h)))
            .collect();
        let index = |defs: &[(Piece, String, String)], name: &str| {
            defs.iter().position(|(_, n, _)| n == name)
        };
        for (name, text) in all.iter().flat_map(|p| &p.helper_fns) {
            if index(&defs, name).is_none() {
                defs.push((Piece::Helper, name.clone(), text.clone()));
            }
        }
        let mut own = Vec::new();
        let mut bodies = Vec::new();
        for (k, p) in ks.iter().zip(all) {
            let mut mine: Vec<usize> = p
                .polyfills
                .iter()
                .filter_map(|&h| index(&defs, &polyfill::name(h)))
                .collect();
            mine.extend(p.helper_fns.iter().filter_map(|(n, _)| index(&defs, n)));
            let body = defs.len();
            defs.push((Piece::Body, body_name(&k.func), p.body));
            defs.push((Piece::Entries, entry_name(&k.func), p.entries));
            mine.extend([body, body + 1]);
            own.push(mine);
            bodies.push((body, p.body_lines));
        }
        Program { defs, own, bodies }
    }

    /// The pieces as the writer takes them.
    pub fn pieces(&self) -> Vec<Def<'_>> {
        self.defs
            .iter()
            .map(|(piece, name, text)| Def::new(*piece, name, text))
            .collect()
    }

    /// The whole program, titled `title`, with the Rust line of each program
    /// line a statement of a kernel body was emitted to, as (1-based program
    /// line, Rust line): what maps a compiler's message back to the kernel's
    /// source.
    pub fn text_with_lines(&self, title: &str, fp64: bool) -> (String, Vec<(usize, usize)>) {
        let (text, starts) = assemble(title, fp64, &self.pieces());
        let lines = self
            .bodies
            .iter()
            .flat_map(|(body, lines)| lines.iter().map(|&(at, rust)| (starts[*body] + at, rust)))
            .collect();
        (text, lines)
    }

    /// The program of the `i`-th instantiation alone, titled `title`.
    pub fn own_text(&self, i: usize, title: &str, fp64: bool) -> String {
        let pieces = self.pieces();
        assemble(title, fp64, self.own[i].iter().map(|&j| &pieces[j])).0
    }
}

/// The title of one instantiation's program (`silt kernel `k` for `f32`: ...`).
pub fn instance_title(k: &Kernel) -> String {
    let f = &k.func;
    match f.inst {
        Some(t) => format!(
            "silt kernel `{}` for `{t}`: generated from its Rust body, do not edit.",
            f.name
        ),
        None => format!(
            "silt kernel `{}`: generated from its Rust body, do not edit.",
            f.name
        ),
    }
}

/// The title of the program of several instantiations of a kernel.
pub fn program_title(ks: &[&Kernel]) -> String {
    let name = ks.first().map_or("", |k| k.func.name.as_str());
    let types: Vec<&str> = ks
        .iter()
        .filter_map(|k| k.func.inst.map(|t| t.name()))
        .collect();
    if types.is_empty() {
        format!("silt kernel `{name}`: generated from its Rust body, do not edit.")
    } else {
        format!(
            "silt kernel `{name}` for {}: generated from its Rust body, do not edit.",
            types.join(", ")
        )
    }
}

/// The OpenCL C program of one kernel instantiation.
pub fn emit(k: &Kernel) -> String {
    Program::new(&[k]).own_text(0, &instance_title(k), k.uses(DType::F64))
}

#[cfg(test)]
mod tests;
