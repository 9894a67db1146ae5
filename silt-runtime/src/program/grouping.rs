//! Crate groups: the kernels of one crate and precision built as one program,
//! in parts of up to [`GROUP_INSTANTIATIONS`] instantiations (PoCL pays about
//! 22 ms per program and process, and almost nothing per extra kernel in one).

use std::collections::HashMap;

use silt_abi::opencl::assemble;

use super::text::{ProgramText, PROGRAMS};

/// The most instantiations a program of a crate's kernels holds. PoCL's costs
/// grow with the kernels in a program: loading its binary (it carries code for
/// every kernel), and saving it (which compiles a generic version of every
/// kernel). Parts of this size keep a cached first launch near the cost of a
/// lone kernel while a crate like `silt-kernels` needs tens of programs, not
/// hundreds.
const GROUP_INSTANTIATIONS: usize = 12;

/// Kernels of one crate and precision, as one program.
pub(crate) struct Group {
    /// `crate (part N)` or `crate (part N, f64)`.
    pub(crate) name: String,
    /// The kernels' program texts.
    pub(crate) members: Vec<&'static ProgramText>,
    /// The whole program.
    pub(crate) source: String,
}

/// The program that holds `of` together with the other kernels of its crate
/// and precision, or `None` when it has no such neighbours. The text does not
/// depend on link order. A kernel whose definitions clash with another's of the
/// same name (two modules defining kernels of one name) is left out, to be
/// built alone.
pub(crate) fn crate_group(of: &'static ProgramText) -> Option<Group> {
    let krate = of.krate();
    let mut candidates: Vec<&'static ProgramText> = PROGRAMS
        .iter()
        .copied()
        .filter(|p| p.fp64 == of.fp64 && p.krate() == krate)
        .collect();
    candidates.sort_by_key(|p| (p.title(), p.module));
    candidates.dedup_by_key(|p| std::ptr::from_ref(*p));
    if candidates.len() < 2 {
        return None;
    }
    // kernels whose definitions clash with an earlier one's are left out
    let mut defined: HashMap<&str, &str> = HashMap::new();
    let mut kept = Vec::new();
    for p in candidates {
        let clash = p
            .defs
            .iter()
            .any(|d| defined.get(d.name).is_some_and(|t| *t != d.text));
        if !clash {
            defined.extend(p.defs.iter().map(|d| (d.name, d.text)));
            kept.push(p);
        }
    }
    // consecutive parts of at most GROUP_INSTANTIATIONS instantiations
    let mut part = 0;
    let mut in_part = 0;
    let mut members: Vec<&'static ProgramText> = Vec::new();
    for p in kept {
        let n = p.instantiations().max(1);
        if in_part > 0 && in_part + n > GROUP_INSTANTIATIONS {
            if members.iter().any(|m| std::ptr::eq(*m, of)) {
                break;
            }
            members.clear();
            part += 1;
            in_part = 0;
        }
        members.push(p);
        in_part += n;
    }
    if members.len() < 2 || !members.iter().any(|p| std::ptr::eq(*p, of)) {
        return None;
    }
    // each piece once: pieces of one name are one definition
    let mut seen: HashMap<&str, ()> = HashMap::new();
    let pieces = members
        .iter()
        .flat_map(|p| p.defs)
        .filter(|d| seen.insert(d.name, ()).is_none());
    let precision = if of.fp64 { ", f64" } else { "" };
    let name = format!("{krate} (part {}{precision})", part + 1);
    let title = format!(
        "silt: {} kernels of `{name}`, generated from their Rust bodies; do not edit.",
        members.len()
    );
    let (source, _) = assemble(&title, of.fp64, pieces);
    Some(Group {
        name,
        members,
        source,
    })
}
