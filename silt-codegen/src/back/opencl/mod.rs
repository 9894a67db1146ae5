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
mod literal;
mod names;
mod polyfill;
mod types;

use std::collections::BTreeSet;
use std::fmt::Write;

use crate::ir::{Entry, Kernel};
use crate::ty::Ty;
use function::Emitter;
use polyfill::Polyfill;

pub use names::{
    ascii_name, body_name, entry_name, fold_entry_name, strided3_entry_name, strided_entry_name,
    FoldEntry,
};
pub use types::ClType;

/// Where a kernel came from, for the program's header.
#[derive(Debug, Clone, Default)]
pub struct Origin {
    /// The Rust file (as `file!()` would give it), if known.
    pub file: Option<String>,
    /// The line of the kernel's `fn` in that file, if known.
    pub line: Option<usize>,
}

/// What one instantiation contributes to a program.
struct Parts {
    polyfills: BTreeSet<Polyfill>,
    /// `#[helper]` functions, by name, callees first.
    helper_fns: Vec<(String, String)>,
    body: String,
    /// (line of `body`, Rust line) of the body's statements.
    body_lines: Vec<(usize, usize)>,
    entries: String,
    uses_f64: bool,
}

fn parts(k: &Kernel) -> Parts {
    let mut e = Emitter::new(&k.func, names::body_name(&k.func));
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
    };
    Parts {
        polyfills: e.polyfills,
        helper_fns,
        body,
        body_lines,
        entries,
        uses_f64: k.uses(Ty::F64),
    }
}

/// Pragmas, then operator helpers and `#[helper]` functions once each, then every
/// instantiation's body and entry points.
fn assemble(header: &str, all: &[Parts]) -> String {
    assemble_with_lines(header, all).0
}

/// [`assemble`], with the Rust line of each program line that a statement of a
/// kernel body was emitted to: (1-based program line, Rust line).
fn assemble_with_lines(header: &str, all: &[Parts]) -> (String, Vec<(usize, usize)>) {
    let mut lines = Vec::new();
    let mut out = String::new();
    out.push_str(header);
    out.push_str("#pragma OPENCL FP_CONTRACT OFF\n");
    if all.iter().any(|p| p.uses_f64) {
        out.push_str("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    }
    let polyfills: BTreeSet<Polyfill> = all
        .iter()
        .flat_map(|p| p.polyfills.iter().copied())
        .collect();
    for h in &polyfills {
        out.push('\n');
        out.push_str(&polyfill::source(*h));
    }
    out.push('\n');
    let mut seen: Vec<&str> = Vec::new();
    for (name, text) in all.iter().flat_map(|p| &p.helper_fns) {
        if !seen.contains(&name.as_str()) {
            seen.push(name);
            out.push_str(text);
            out.push('\n');
        }
    }
    for (i, p) in all.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let first = out.matches('\n').count() + 1;
        lines.extend(p.body_lines.iter().map(|&(at, rust)| (first + at, rust)));
        out.push_str(&p.body);
        out.push('\n');
        out.push_str(&p.entries);
    }
    (out, lines)
}

/// The OpenCL C program of one kernel instantiation.
pub fn emit(k: &Kernel, origin: &Origin) -> String {
    let f = &k.func;
    let what = match f.inst {
        Some(t) => format!("`{}` for `{t}`", f.name),
        None => format!("`{}`", f.name),
    };
    let mut header = format!("// silt kernel {what}: generated from its Rust body, do not edit.\n");
    if let Some(file) = &origin.file {
        let _ = writeln!(
            header,
            "// source: {file}{}",
            origin.line.map(|l| format!(":{l}")).unwrap_or_default()
        );
    }
    assemble(&header, &[parts(k)])
}

/// One program holding several instantiations of a kernel (the device builds it
/// once for all of them; PoCL's cost is per program, not per kernel), with the
/// Rust line of each program line a statement of a kernel body was emitted to,
/// as (1-based program line, Rust line): what maps a compiler's message back to
/// the kernel's source.
pub fn emit_group_with_lines(ks: &[&Kernel]) -> (String, Vec<(usize, usize)>) {
    let name = ks.first().map_or("", |k| k.func.name.as_str());
    let types: Vec<String> = ks
        .iter()
        .filter_map(|k| k.func.inst.map(|t| t.name().to_string()))
        .collect();
    let header = if types.is_empty() {
        format!("// silt kernel `{name}`: generated from its Rust body, do not edit.\n")
    } else {
        format!(
            "// silt kernel `{name}` for {}: generated from its Rust body, do not edit.\n",
            types.join(", ")
        )
    };
    let all: Vec<Parts> = ks.iter().map(|k| parts(k)).collect();
    assemble_with_lines(&header, &all)
}

/// The definitions of [`emit_group_with_lines`]'s program, each with a name, in an order
/// where every definition follows those it uses: operator helpers, `#[helper]`
/// functions, then each instantiation's body (`NAME (body)`) and its entry
/// points (`NAME (kernel)`; a program composed at run time takes the rest). The runtime
/// merges the definitions of a crate's kernels into one program, emitting each
/// name once; two definitions of one name with different texts keep a kernel
/// out of that program.
pub fn group_defs(ks: &[&Kernel]) -> Vec<(String, String)> {
    let all: Vec<Parts> = ks.iter().map(|k| parts(k)).collect();
    let polyfills: BTreeSet<Polyfill> = all
        .iter()
        .flat_map(|p| p.polyfills.iter().copied())
        .collect();
    let mut defs: Vec<(String, String)> = polyfills
        .iter()
        .map(|&h| (polyfill::name(h), polyfill::source(h)))
        .collect();
    for (name, text) in all.iter().flat_map(|p| &p.helper_fns) {
        if !defs.iter().any(|(n, _)| n == name) {
            defs.push((name.clone(), text.clone()));
        }
    }
    for (k, p) in ks.iter().zip(&all) {
        defs.push((format!("{} (body)", body_name(&k.func)), p.body.clone()));
        defs.push((
            format!("{} (kernel)", entry_name(&k.func)),
            p.entries.clone(),
        ));
    }
    defs
}

#[cfg(test)]
mod tests;
