//! Whole programs: the header every OpenCL program of silt starts with, the
//! named pieces programs are made of, and how pieces are laid out into one
//! program.
//!
//! A kernel's program is made at compile time, a crate's programs are merged
//! and a fused chain's program is composed at run time; all three are laid out
//! by [`assemble`], so a program has the same text wherever it is made and
//! nothing parses program text back.
//!
//! ```
//! use silt_abi::opencl::{assemble, Def, Piece};
//!
//! let defs = [
//!     Def::new(Piece::Body, "silt_body_k_f32", "static float silt_body_k_f32(float x) {\n    return x;\n}\n"),
//!     Def::new(Piece::Entries, "k_f32", "__kernel void k_f32(...) { ... }\n"),
//! ];
//! let (text, starts) = assemble("silt kernel `k`", false, &defs);
//! assert!(text.starts_with("// silt kernel `k`\n#pragma OPENCL FP_CONTRACT OFF\n"));
//! // the line each piece starts on, 1-based
//! assert_eq!(text.lines().nth(starts[1] - 1), Some("__kernel void k_f32(...) { ... }"));
//! ```

use std::fmt::Write;

/// The pragma every program starts with: silt's results have the bits of
/// separate operations, so `a * b + c` is never contracted into a fused
/// multiply-add.
pub const CONTRACT_OFF: &str = "#pragma OPENCL FP_CONTRACT OFF";

/// The pragma of a program that computes in `f64`.
pub const FP64_ON: &str = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable";

/// The pragmas before a function that uses 64-bit atomics: the base ones
/// (`atom_add`, `atom_xchg`, `atom_cmpxchg`, ...) and, with `extended`, the
/// others (`atom_min`, `atom_max`, `atom_and`, `atom_or`, `atom_xor`).
pub fn int64_atomics(extended: bool) -> String {
    let mut s = String::from("#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n");
    if extended {
        s.push_str("#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n");
    }
    s
}

/// What a piece of a program is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Piece {
    /// A function silt's operators or loads use (`silt_f16_load`,
    /// `silt_rem_euclid_uchar`).
    Polyfill,
    /// A `#[helper]` function, or a kernel called from another.
    Helper,
    /// An instantiation's body function: the kernel's body as a C function
    /// of values (a fused chain calls it).
    Body,
    /// An instantiation's `__kernel` entry points.
    Entries,
}

/// A named piece of a program. Two pieces of one name are one definition:
/// a merged program holds each name once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Def<'a> {
    /// What it is.
    pub piece: Piece,
    /// Its name (the C function it defines, or for [`Piece::Entries`] the
    /// instantiation's entry name).
    pub name: &'a str,
    /// Its text, ending in a newline.
    pub text: &'a str,
}

impl<'a> Def<'a> {
    /// A piece of a program.
    pub const fn new(piece: Piece, name: &'a str, text: &'a str) -> Self {
        Def { piece, name, text }
    }
}

/// The first lines of a program: `title`'s lines as comments, then the
/// pragmas ([`CONTRACT_OFF`], and [`FP64_ON`] when `fp64`).
///
/// ```
/// use silt_abi::opencl::header;
/// assert_eq!(
///     header("a\nb", true),
///     "// a\n// b\n#pragma OPENCL FP_CONTRACT OFF\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
/// );
/// ```
pub fn header(title: &str, fp64: bool) -> String {
    let mut out = String::new();
    for line in title.lines() {
        let _ = writeln!(out, "// {line}");
    }
    out.push_str(CONTRACT_OFF);
    out.push('\n');
    if fp64 {
        out.push_str(FP64_ON);
        out.push('\n');
    }
    out
}

/// A program: the [`header`], then the pieces in the order given (each
/// after those it uses), with the 1-based line each piece starts on.
///
/// Polyfills come first, each after a blank line; a blank line separates
/// them from the rest; helpers follow one another; each instantiation's
/// body and entry points follow a blank line, entry points right after
/// their body's blank line.
pub fn assemble<'a, 'b: 'a>(
    title: &str,
    fp64: bool,
    defs: impl IntoIterator<Item = &'a Def<'b>>,
) -> (String, Vec<usize>) {
    let mut out = header(title, fp64);
    let mut line = 1 + out.matches('\n').count();
    let mut starts = Vec::new();
    let mut past_polyfills = false;
    let mut bodies = 0usize;
    let push = |out: &mut String, line: &mut usize, text: &str| {
        out.push_str(text);
        *line += text.matches('\n').count();
    };
    for d in defs {
        if d.piece == Piece::Polyfill {
            push(&mut out, &mut line, "\n");
            starts.push(line);
            push(&mut out, &mut line, d.text);
            continue;
        }
        if !past_polyfills {
            push(&mut out, &mut line, "\n");
            past_polyfills = true;
        }
        match d.piece {
            Piece::Helper => {
                starts.push(line);
                push(&mut out, &mut line, d.text);
                push(&mut out, &mut line, "\n");
            }
            Piece::Body => {
                if bodies > 0 {
                    push(&mut out, &mut line, "\n");
                }
                bodies += 1;
                starts.push(line);
                push(&mut out, &mut line, d.text);
                push(&mut out, &mut line, "\n");
            }
            Piece::Entries | Piece::Polyfill => {
                starts.push(line);
                push(&mut out, &mut line, d.text);
            }
        }
    }
    (out, starts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_are_laid_out_with_their_lines() {
        let defs = [
            Def::new(Piece::Polyfill, "p", "int p() {\n}\n"),
            Def::new(Piece::Helper, "h", "int h() {\n}\n"),
            Def::new(Piece::Body, "b1", "int b1() {\n}\n"),
            Def::new(Piece::Entries, "e1", "kernel e1\n"),
            Def::new(Piece::Body, "b2", "int b2() {\n}\n"),
            Def::new(Piece::Entries, "e2", "kernel e2\n"),
        ];
        let (text, starts) = assemble("t", false, &defs);
        assert_eq!(
            text,
            "// t\n#pragma OPENCL FP_CONTRACT OFF\n\nint p() {\n}\n\nint h() {\n}\n\n\
             int b1() {\n}\n\nkernel e1\n\nint b2() {\n}\n\nkernel e2\n"
        );
        let lines: Vec<&str> = text.lines().collect();
        for (d, &at) in defs.iter().zip(&starts) {
            assert_eq!(lines[at - 1], d.text.lines().next().unwrap(), "{}", d.name);
        }
    }
}
