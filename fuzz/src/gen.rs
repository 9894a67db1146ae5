//! The `kernels` target's kernels and the `folds` target's reductions and
//! scans: `silt-kernel-gen`'s generators (the ones the random-kernel tests
//! use), their choices read from the fuzzer's bytes.
//!
//! Every choice reads bytes from an [`Unstructured`], so the fuzzer's mutations
//! become changes to the program. The generator tracks the type of every
//! expression for every listed instantiation (narrowing inside `if T::IS_FLOAT`
//! and friends), so most kernels it writes are valid; about one kernel in six
//! gets one of the mistakes users make instead (a wrong type, a missing `else`,
//! an unknown method, ...) to exercise the error paths.

use arbitrary::{Result, Unstructured};
use silt_kernel_gen::{generate, generate_fold, Choose, FoldKind, Options};

use crate::check::HelperSrc;

/// A generated kernel: the attribute's tokens, the item, and the helpers beside it.
#[derive(Debug, Clone)]
pub struct Case {
    /// What goes in `#[kernel(...)]`.
    pub attr: String,
    /// The `fn` item.
    pub item: String,
    /// The `#[helper]` functions, and the kernels, the kernel may call.
    pub helpers: Vec<HelperSrc>,
    /// Whether a deliberate mistake was made (the kernel may be rejected).
    pub wild: bool,
}

impl std::fmt::Display for Case {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for h in &self.helpers {
            let what = if h.kernel { "kernel" } else { "helper" };
            writeln!(f, "#[{what}({})]\n{}\n", h.attr, h.item)?;
        }
        write!(f, "#[kernel({})]\n{}", self.attr, self.item)
    }
}

/// The fuzzer's bytes as the generator's choices: each choice below 256 reads
/// one byte; once they run out every choice is 0.
pub struct Bytes<'a, 'b>(pub &'a mut Unstructured<'b>);

impl Choose for Bytes<'_, '_> {
    fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        self.0.int_in_range(0..=n - 1).unwrap_or(0)
    }
}

/// Percent of kernels with a deliberate mistake.
const MISTAKES: u32 = 17;

/// Generates a kernel (with helpers) from the fuzzer's bytes.
///
/// # Errors
/// Never in practice: running out of bytes makes every later choice the first one.
pub fn kernel(u: &mut Unstructured) -> Result<Case> {
    let opts = Options {
        runnable: false,
        mistakes: MISTAKES,
        name: None,
    };
    let k = generate(&mut Bytes(u), &opts);
    Ok(Case {
        attr: k.attr,
        item: k.item,
        helpers: k
            .helpers
            .into_iter()
            .map(|h| HelperSrc {
                name: h.name,
                attr: h.attr,
                item: h.item,
                kernel: false,
            })
            .chain(k.callees.into_iter().map(|c| HelperSrc {
                name: c.name,
                attr: c.attr,
                item: c.item,
                kernel: true,
            }))
            .collect(),
        wild: k.mistake,
    })
}

/// A generated reduction or scan: the attribute's tokens and the module.
#[derive(Debug, Clone)]
pub struct FoldCase {
    /// `#[scan]` (else `#[reduce]`).
    pub scan: bool,
    /// What goes in `#[reduce(...)]`.
    pub attr: String,
    /// The `mod` item.
    pub item: String,
    /// Whether a deliberate mistake was made (the module may be rejected).
    pub wild: bool,
}

impl std::fmt::Display for FoldCase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = if self.scan { "scan" } else { "reduce" };
        write!(f, "#[{what}({})]\n{}", self.attr, self.item)
    }
}

/// Generates a reduction (two times in three) or a scan from the fuzzer's bytes.
///
/// # Errors
/// Never in practice: running out of bytes makes every later choice the first one.
pub fn fold(u: &mut Unstructured) -> Result<FoldCase> {
    let opts = Options {
        runnable: false,
        mistakes: MISTAKES,
        name: None,
    };
    let mut bytes = Bytes(u);
    let kind = if bytes.below(3) == 2 {
        FoldKind::Scan
    } else {
        FoldKind::Reduce
    };
    let f = generate_fold(&mut bytes, &opts, kind);
    Ok(FoldCase {
        scan: kind == FoldKind::Scan,
        attr: f.attr,
        item: f.item,
        wild: f.mistake,
    })
}
