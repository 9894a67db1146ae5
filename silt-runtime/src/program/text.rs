//! The text of kernel programs as generated code registers it: [`ProgramText`]
//! (one kernel's instantiations of one precision, with the Rust lines its
//! statements come from), [`KernelInfo`] (one instantiation and its entry
//! points), and [`PROGRAMS`], every program linked into the binary.

use std::ffi::CStr;

use silt_abi::opencl::BodyParam;
use silt_abi::DType;

use crate::dtype::Scalar;

/// The OpenCL C of one kernel's instantiations of one precision, whole and as
/// named definitions. One `static` per kernel and precision, registered in
/// `PROGRAMS`: on the first launch of any kernel of a crate, the device builds
/// the definitions of all that crate's kernels of the same precision as one
/// program. Its address keys the per-device program cache.
#[derive(Debug)]
pub struct ProgramText {
    pub(super) source: &'static str,
    pub(crate) module: &'static str,
    pub(crate) fp64: bool,
    pub(crate) defs: &'static [(&'static str, &'static str)],
    /// The Rust file of the kernel.
    file: &'static str,
    /// (line of `source`, line of `file`) for the lines kernel statements were
    /// emitted to, in order.
    lines: &'static [(u32, u32)],
}

impl ProgramText {
    /// A kernel's program (called by generated code): its whole text, the module
    /// that defines it, whether it needs `cl_khr_fp64`, and its definitions as
    /// (name, text) in dependency order (operator helpers, `#[helper]`
    /// functions, then each instantiation's body and entry points).
    pub const fn new(
        source: &'static str,
        module: &'static str,
        fp64: bool,
        defs: &'static [(&'static str, &'static str)],
    ) -> Self {
        ProgramText {
            source,
            module,
            fp64,
            defs,
            file: "",
            lines: &[],
        }
    }

    /// The Rust file that defines the kernel, and which of its lines each line
    /// of `source` that holds a statement of a kernel body comes from, as
    /// (line of `source`, line of `file`), both 1-based, in order (called by
    /// generated code).
    #[must_use]
    pub const fn with_lines(mut self, file: &'static str, lines: &'static [(u32, u32)]) -> Self {
        self.file = file;
        self.lines = lines;
        self
    }

    /// `file:line` of the Rust statement that line `line` of `source` was
    /// emitted from, if it holds one.
    fn rust_location(&self, line: usize) -> Option<String> {
        let line = u32::try_from(line).ok()?;
        let i = self.lines.binary_search_by_key(&line, |&(at, _)| at).ok()?;
        Some(format!("{}:{}", self.file, self.lines[i].1))
    }

    /// A build log with each message about a line of the program followed by
    /// the Rust line it comes from (for kernel statements) and that line of C.
    pub(crate) fn map_log(&self, log: &str, built: &str) -> String {
        let mut out = String::with_capacity(log.len());
        for entry in log.lines() {
            out.push_str(entry);
            out.push('\n');
            let Some(line) = log_line_number(entry) else {
                continue;
            };
            let code = built.lines().nth(line.wrapping_sub(1)).unwrap_or("").trim();
            match self.rust_location(line) {
                Some(at) => {
                    out.push_str(&format!("  --> {at} (OpenCL line {line}: `{code}`)\n"));
                }
                None if !code.is_empty() => {
                    out.push_str(&format!(
                        "  --> generated code, OpenCL line {line}: `{code}`\n"
                    ));
                }
                None => {}
            }
        }
        out
    }

    /// The OpenCL C of this kernel alone.
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// How many instantiations the program holds.
    pub(super) fn instantiations(&self) -> usize {
        self.defs
            .iter()
            .filter(|(name, _)| name.ends_with(" (kernel)"))
            .count()
    }

    /// The crate that defines the kernel.
    pub(super) fn krate(&self) -> &'static str {
        self.module.split("::").next().unwrap_or(self.module)
    }
}

/// The line number of a compiler message such as `file.cl:12:5: error: ...`
/// (the first `:LINE:COLUMN:` in it).
fn log_line_number(entry: &str) -> Option<usize> {
    let mut rest = entry;
    while let Some(i) = rest.find(':') {
        rest = &rest[i + 1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let after = &rest[digits..];
        let Some(col) = after.strip_prefix(':') else {
            continue;
        };
        let col_digits = col.bytes().take_while(u8::is_ascii_digit).count();
        let end = &col[col_digits..];
        if digits > 0 && col_digits > 0 && (end.starts_with(':') || end.starts_with(' ')) {
            return rest[..digits].parse().ok();
        }
    }
    None
}

/// Every kernel program linked into the binary (filled in by `#[kernel]`).
#[linkme::distributed_slice]
pub static PROGRAMS: [&'static ProgramText];

/// The body function of a map kernel's instantiation with values,
/// `#[scalar]`s and an `#[index]` for parameters and one result: its C name
/// and signature, and its evaluation over blocks of elements (called by generated
/// code; see [`Fusion`](crate::Fusion)).
#[derive(Debug, Clone, Copy)]
pub struct Body {
    pub(crate) name: &'static str,
    pub(crate) params: &'static [BodyParam],
    pub(crate) output: DType,
    pub(crate) chunk: ChunkFn,
}

/// Runs a body over a block of elements: one [`ChunkArg`] per parameter, the
/// results written to the output bytes (as many elements as each `Values`
/// slice holds); `None` when the arguments do not fit.
pub type ChunkFn = fn(&[ChunkArg<'_>], &mut [u8]) -> Option<()>;

/// An argument of a body run over a block of elements (see [`ChunkFn`]).
#[derive(Debug, Clone, Copy)]
pub enum ChunkArg<'a> {
    /// The parameter's values for the block, as bytes of its type (aligned,
    /// `bool`s as 0 or 1).
    Values(&'a [u8]),
    /// A `#[scalar]`'s value.
    Scalar(Scalar),
    /// The index of the block's first element (for the `#[index]`).
    Index(u64),
}

impl Body {
    /// Describes a body function: its C name, parameters and result type, and
    /// `chunk`, which runs it over a block of elements (the host's way to
    /// run a fused chain).
    pub const fn new(
        name: &'static str,
        params: &'static [BodyParam],
        output: DType,
        chunk: ChunkFn,
    ) -> Self {
        Body {
            name,
            params,
            output,
            chunk,
        }
    }
}

/// What the runtime needs to know about one kernel instantiation.
#[derive(Debug)]
pub struct KernelInfo {
    pub(crate) name: &'static str,
    dtype: Option<DType>,
    source: &'static str,
    pub(crate) program: &'static ProgramText,
    /// The entry point for contiguous views.
    pub(crate) entry: &'static CStr,
    /// The entry point for any other views (a scan's: for blocks of rows,
    /// `silt_abi::opencl::SCAN_ROW_BLOCKS`).
    pub(crate) strided_entry: &'static CStr,
    /// The entry point for any other views over at most three coalesced
    /// dimensions, when the program has one (map kernels and fused chains).
    pub(crate) strided3_entry: Option<&'static CStr>,
    /// Whether it needs `cl_khr_fp64`.
    pub(crate) fp64: bool,
    /// A reduction's tree pass (`None` for a map kernel).
    pub(crate) tree_entry: Option<&'static CStr>,
    /// Whether a reduction over no elements is an error (`empty = error`).
    pub(crate) empty_is_error: bool,
    /// A map kernel's body function, when a fused chain can call it.
    pub(crate) body: Option<Body>,
}

impl KernelInfo {
    /// Describes an instantiation (called by generated code): its own program
    /// text (what `NAME::source` shows), the program it is built in (shared with
    /// the kernel's other instantiations), and its two entry points.
    pub const fn new(
        name: &'static str,
        dtype: Option<DType>,
        source: &'static str,
        program: &'static ProgramText,
        entry: &'static CStr,
        strided_entry: &'static CStr,
        fp64: bool,
    ) -> Self {
        KernelInfo {
            name,
            dtype,
            source,
            program,
            entry,
            strided_entry,
            strided3_entry: None,
            fp64,
            tree_entry: None,
            empty_is_error: false,
            body: None,
        }
    }

    /// Names the entry point for views over at most three coalesced
    /// dimensions (called by generated code; `strided_entry`'s arguments, its
    /// index code free of branches: [`silt_abi::opencl::strided_indices_3d`]).
    /// Without one, every strided launch takes `strided_entry`.
    #[must_use]
    pub const fn with_strided3(mut self, entry: &'static CStr) -> Self {
        self.strided3_entry = Some(entry);
        self
    }

    /// Describes the instantiation's body function (called by generated code),
    /// which makes it callable in a [`Fusion`](crate::Fusion).
    #[must_use]
    pub const fn with_body(mut self, body: Body) -> Self {
        self.body = Some(body);
        self
    }

    /// Makes this a reduction's description (called by generated code): `entry`
    /// and `strided_entry` are its first passes, `tree` its tree pass.
    #[must_use]
    pub const fn reduction(mut self, tree: &'static CStr, empty_is_error: bool) -> Self {
        self.tree_entry = Some(tree);
        self.empty_is_error = empty_is_error;
        self
    }

    /// The kernel's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The OpenCL C program of this instantiation alone.
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// The program text of the kernel's instantiations of this precision (the
    /// device builds it with the other kernels of the crate).
    pub fn program(&self) -> &'static ProgramText {
        self.program
    }

    /// `kernel `add` for f32`.
    pub(crate) fn describe(&self) -> String {
        match self.dtype {
            Some(d) => format!("kernel `{}` for {d}", self.name),
            None => format!("kernel `{}`", self.name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_logs_point_at_rust_lines() {
        assert_eq!(
            log_line_number("error: /tmp/x.cl:12:5: use of undeclared"),
            Some(12)
        );
        assert_eq!(log_line_number("<kernel>:3:17: error: bad"), Some(3));
        assert_eq!(log_line_number("C:7: no column"), None);
        assert_eq!(
            log_line_number("x.cl:21:12 <Spelling=a.h:535:20>: bad"),
            Some(21)
        );
        assert_eq!(log_line_number("1 error generated."), None);
        static P: ProgramText =
            ProgramText::new("line one\n    float y = bad;\n}\n", "k::m", false, &[])
                .with_lines("src/k.rs", &[(2, 40)]);
        let built = "line one\n    float y = bad;\n}\n";
        let log = P.map_log(
            "error: a.cl:2:15: undeclared 'bad'\nerror: a.cl:3:1: oops\ndone",
            built,
        );
        assert_eq!(
            log,
            "error: a.cl:2:15: undeclared 'bad'\n  --> src/k.rs:40 (OpenCL line 2: `float y = bad;`)\n\
             error: a.cl:3:1: oops\n  --> generated code, OpenCL line 3: `}`\ndone\n"
        );
        assert_eq!(P.krate(), "k");
    }
}
