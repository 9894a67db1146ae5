//! What generated code registers about its kernels: [`ProgramText`] (one
//! kernel's instantiations of one precision as named pieces of OpenCL C, with
//! the Rust lines its statements come from), [`KernelInfo`] (one
//! instantiation, described whatever runs it, with its [`OpenClKernel`]), and
//! [`PROGRAMS`], every program linked into the binary.

use std::ffi::CStr;
use std::sync::OnceLock;

use silt_abi::opencl::{assemble, BodyParam, Def};
use silt_abi::DType;

use crate::dtype::Scalar;

/// The OpenCL C of one kernel's instantiations of one precision, as named
/// pieces. One `static` per kernel and precision, registered in `PROGRAMS`:
/// on the first launch of any kernel of a crate, the device builds the pieces
/// of all that crate's kernels of the same precision as one program. Its
/// address keys the per-device program cache.
#[derive(Debug)]
pub struct ProgramText {
    /// The first comment line of the program.
    title: &'static str,
    pub(crate) module: &'static str,
    pub(crate) fp64: bool,
    pub(crate) defs: &'static [Def<'static>],
    /// The whole program, laid out from `defs` on first use (or given, for a
    /// program composed at run time).
    source: OnceLock<String>,
    /// The Rust file of the kernel.
    file: &'static str,
    /// (line of `source`, line of `file`) for the lines kernel statements were
    /// emitted to, in order.
    lines: &'static [(u32, u32)],
}

impl ProgramText {
    /// A kernel's program (called by generated code): its title, the module
    /// that defines it, whether it needs `cl_khr_fp64`, and its pieces in
    /// order, each after those it uses (operator helpers, `#[helper]`
    /// functions, then each instantiation's body and entry points).
    pub const fn new(
        title: &'static str,
        module: &'static str,
        fp64: bool,
        defs: &'static [Def<'static>],
    ) -> Self {
        ProgramText {
            title,
            module,
            fp64,
            defs,
            source: OnceLock::new(),
            file: "",
            lines: &[],
        }
    }

    /// A program composed at run time, whole.
    pub(crate) fn composed(source: String, module: &'static str, fp64: bool) -> Self {
        let text = ProgramText::new("", module, fp64, &[]);
        let _ = text.source.set(source);
        text
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

    /// The whole program: its pieces laid out by
    /// [`assemble`](silt_abi::opencl::assemble), as the code generator laid
    /// them out to map its lines.
    pub fn source(&'static self) -> &'static str {
        self.source
            .get_or_init(|| assemble(self.title, self.fp64, self.defs).0)
    }

    /// The title that orders programs (it names the kernel and its types).
    pub(super) fn title(&self) -> &'static str {
        self.title
    }

    /// How many instantiations the program holds.
    pub(super) fn instantiations(&self) -> usize {
        self.defs
            .iter()
            .filter(|d| d.piece == silt_abi::opencl::Piece::Entries)
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

/// What a kernel instantiation computes, whatever runs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// An elementwise map (`#[kernel]`).
    Map,
    /// A reduction along axes (`#[reduce]`).
    Reduce {
        /// Whether a reduction over no elements is an error (`empty = error`).
        empty_is_error: bool,
    },
    /// A scan along an axis (`#[scan]`).
    Scan,
    /// A grid of work-items that index whole views (`#[grid]`).
    Grid,
}

/// An instantiation's OpenCL C: the program it is built in (shared with the
/// kernel's other instantiations of its precision, and merged with the
/// crate's other kernels), the pieces of that program that make its own
/// program, and its entry points by form: a map's contiguous, strided and
/// (over at most three coalesced dimensions) `strided3` entries; a
/// reduction's first passes and tree pass; a scan's entry and its entry for
/// blocks of rows (`silt_abi::opencl::SCAN_ROW_BLOCKS`).
#[derive(Debug)]
pub struct OpenClKernel {
    pub(crate) program: &'static ProgramText,
    /// The first comment line of its own program.
    title: &'static str,
    /// Which of `program`'s pieces its own program holds, in order.
    pieces: &'static [u16],
    /// Its own program, laid out on first use (or given).
    source: OnceLock<String>,
    /// The OpenCL extensions of 64-bit atomics its own program enables,
    /// found on first use.
    atomics64: OnceLock<&'static [&'static str]>,
    /// The entry point for contiguous views.
    pub(crate) entry: &'static CStr,
    /// The entry point for any other views.
    pub(crate) strided_entry: &'static CStr,
    /// A map's entry point for views over at most three coalesced
    /// dimensions, whose index code is free of branches
    /// ([`silt_abi::opencl::strided_indices_3d`]); without one, every strided
    /// launch takes `strided_entry`.
    pub(crate) strided3_entry: Option<&'static CStr>,
    /// A reduction's tree pass.
    pub(crate) tree_entry: Option<&'static CStr>,
}

impl OpenClKernel {
    /// Describes an instantiation's OpenCL C (called by generated code).
    pub const fn new(
        program: &'static ProgramText,
        title: &'static str,
        pieces: &'static [u16],
        entry: &'static CStr,
        strided_entry: &'static CStr,
    ) -> Self {
        OpenClKernel {
            program,
            title,
            pieces,
            source: OnceLock::new(),
            atomics64: OnceLock::new(),
            entry,
            strided_entry,
            strided3_entry: None,
            tree_entry: None,
        }
    }

    /// A program composed at run time, whose entries are all its own.
    pub(crate) fn composed(
        program: &'static ProgramText,
        entry: &'static CStr,
        strided_entry: &'static CStr,
    ) -> Self {
        let k = OpenClKernel::new(program, "", &[], entry, strided_entry);
        let _ = k.source.set(program.source().to_owned());
        k
    }

    /// Names a map's entry point for views over at most three coalesced
    /// dimensions (called by generated code).
    #[must_use]
    pub const fn with_strided3(mut self, entry: &'static CStr) -> Self {
        self.strided3_entry = Some(entry);
        self
    }

    /// Names a reduction's tree pass (called by generated code).
    #[must_use]
    pub const fn with_tree(mut self, entry: &'static CStr) -> Self {
        self.tree_entry = Some(entry);
        self
    }

    /// The extensions of 64-bit atomics that its own program enables (the
    /// pragmas before a function with an atomic on a 64-bit element):
    /// none, the base ones, or the base and the extended ones.
    pub(crate) fn atomics64(&'static self) -> &'static [&'static str] {
        const BASE: &str = "cl_khr_int64_base_atomics";
        const EXTENDED: &str = "cl_khr_int64_extended_atomics";
        self.atomics64.get_or_init(|| {
            let text = self.source();
            match (text.contains(BASE), text.contains(EXTENDED)) {
                (_, true) => &[BASE, EXTENDED],
                (true, false) => &[BASE],
                (false, false) => &[],
            }
        })
    }

    /// The instantiation's own program (its pieces of `program` alone).
    pub fn source(&'static self) -> &'static str {
        self.source.get_or_init(|| {
            let defs = self.program.defs;
            let own = self.pieces.iter().filter_map(|&i| defs.get(usize::from(i)));
            assemble(self.title, self.program.fp64, own).0
        })
    }
}

/// What the runtime needs to know about one kernel instantiation: its name,
/// type and form, the body a fused chain calls, and its OpenCL C.
#[derive(Debug)]
pub struct KernelInfo {
    pub(crate) name: &'static str,
    dtype: Option<DType>,
    pub(crate) form: Form,
    /// A map kernel's body function, when a fused chain can call it.
    pub(crate) body: Option<Body>,
    /// How OpenCL devices run it.
    pub(crate) opencl: OpenClKernel,
}

impl KernelInfo {
    /// Describes an instantiation (called by generated code).
    pub const fn new(
        name: &'static str,
        dtype: Option<DType>,
        form: Form,
        opencl: OpenClKernel,
    ) -> Self {
        KernelInfo {
            name,
            dtype,
            form,
            body: None,
            opencl,
        }
    }

    /// Describes the instantiation's body function (called by generated code),
    /// which makes it callable in a [`Fusion`](crate::Fusion).
    #[must_use]
    pub const fn with_body(mut self, body: Body) -> Self {
        self.body = Some(body);
        self
    }

    /// The kernel's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The OpenCL C program of this instantiation alone.
    pub fn source(&'static self) -> &'static str {
        self.opencl.source()
    }

    /// Whether it computes in `f64` (an OpenCL device needs `cl_khr_fp64`).
    pub(crate) fn fp64(&self) -> bool {
        self.opencl.program.fp64
    }

    /// Whether it is a reduction over no elements of which is an error.
    pub(crate) fn empty_is_error(&self) -> bool {
        matches!(
            self.form,
            Form::Reduce {
                empty_is_error: true
            }
        )
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
            ProgramText::new("k", "k::m", false, &[]).with_lines("src/k.rs", &[(2, 40)]);
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
