//! Fuzzing support for silt's code generator (`#[kernel]`, `#[reduce]`,
//! `#[scan]`): the fuzz targets' bodies, the generators they share with the
//! random-kernel tests, and the replay that checks emitted programs with an
//! OpenCL C compiler.

#![warn(missing_docs)]

pub mod check;
pub mod gen;

use std::sync::OnceLock;

use check::Expansion;

/// Splits raw fuzzer text into an attribute and an item at the first newline.
pub fn split_raw(text: &str) -> (&str, &str) {
    text.split_once('\n').unwrap_or(("", text))
}

/// The body of the `tokens` target: arbitrary text as the attribute's and the
/// item's tokens (both ways round), and as a helper. Nothing may panic, every
/// output must be valid Rust, and a kernel that parses as a function gets only
/// errors that point at its tokens. Returns the kernel's expansion when the text
/// lexes.
pub fn run_tokens(data: &[u8]) -> Option<Expansion> {
    // forget the previous input's source text (the span table grows per parse)
    proc_macro2::extra::invalidate_current_thread_spans();
    let text = std::str::from_utf8(data).ok()?;
    let (attr, item) = split_raw(text);
    // the other way round, and as a helper: no panic, valid Rust
    let _ = check::expand(item, attr, &[]);
    if let (Ok(a), Ok(i)) = (attr.parse(), item.parse()) {
        let out = silt_codegen::expand_helper(a, i);
        if let Err(e) = syn::parse2::<syn::File>(out.clone()) {
            panic!("the helper's expansion is not valid Rust: {e}\n{out}");
        }
    }
    if let Ok(ts) = text.parse() {
        // the chain's own macro, fed garbage
        let _ = silt_codegen::helper_chain(ts);
    }
    let e = check::expand(attr, item, &[])?;
    if syn::parse_str::<syn::ItemFn>(item).is_ok()
        && syn::parse_str::<proc_macro2::TokenStream>(attr).is_ok()
    {
        for (msg, span) in &e.errors {
            assert!(
                check::located(*span),
                "an error without a span (at the call site): {msg}\nattr: {attr}\nitem: {item}"
            );
        }
    }
    if e.accepted() {
        assert!(!e.programs.is_empty(), "accepted without a program: {text}");
    }
    Some(e)
}

/// Whether `SILT_FUZZ_STRICT` is set: a generated kernel without a deliberate
/// mistake must then be accepted (this finds false rejections, and generator bugs).
fn strict() -> bool {
    static STRICT: OnceLock<bool> = OnceLock::new();
    *STRICT.get_or_init(|| std::env::var_os("SILT_FUZZ_STRICT").is_some())
}

/// The body of the `kernels` target: a generated kernel (with helpers) expanded
/// the way rustc would. Nothing may panic, every output must be valid Rust, and
/// every error points at a token. Returns the case and its expansion.
pub fn run_kernels(data: &[u8]) -> Option<(gen::Case, Expansion)> {
    proc_macro2::extra::invalidate_current_thread_spans();
    let mut u = arbitrary::Unstructured::new(data);
    let case = gen::kernel(&mut u).ok()?;
    // the kernels it may call, each by itself (with the helpers beside it)
    for callee in case.helpers.iter().filter(|h| h.kernel) {
        let e = check::expand(&callee.attr, &callee.item, &case.helpers)
            .unwrap_or_else(|| panic!("a generated kernel does not lex:\n{case}"));
        for (msg, span) in &e.errors {
            assert!(
                check::located(*span),
                "an error without a span (at the call site): {msg}\n{case}"
            );
        }
        if strict() && !case.wild && !e.accepted() {
            let msgs: Vec<&str> = e.errors.iter().map(|(m, _)| m.as_str()).collect();
            panic!("a called kernel without mistakes was rejected: {msgs:#?}\n{case}");
        }
    }
    let e = check::expand(&case.attr, &case.item, &case.helpers)
        .unwrap_or_else(|| panic!("a generated kernel does not lex:\n{case}"));
    for (msg, span) in &e.errors {
        assert!(
            check::located(*span),
            "an error without a span (at the call site): {msg}\n{case}"
        );
    }
    if e.accepted() {
        assert!(
            !e.programs.is_empty(),
            "accepted without a program:\n{case}"
        );
    } else if strict() && !case.wild {
        let msgs: Vec<&str> = e.errors.iter().map(|(m, _)| m.as_str()).collect();
        panic!(
            "a kernel without mistakes was rejected: {msgs:#?} (unresolved: {}, chain: {:?})\n{case}",
            e.unresolved,
            e.next_helper.as_ref().map(|(p, _)| quote_path(p))
        );
    }
    Some((case, e))
}

fn quote_path(p: &syn::Path) -> String {
    let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
    segs.join("::")
}

/// The body of the `folds` target: a generated `#[reduce]` or `#[scan]`
/// module expanded. Nothing may panic, every output must be valid Rust, every
/// error points at a token, and an accepted module carries its programs.
/// Returns the case and its expansion.
pub fn run_folds(data: &[u8]) -> Option<(gen::FoldCase, Expansion)> {
    proc_macro2::extra::invalidate_current_thread_spans();
    let mut u = arbitrary::Unstructured::new(data);
    let case = gen::fold(&mut u).ok()?;
    let e = check::expand_fold(&case.attr, &case.item, case.scan)
        .unwrap_or_else(|| panic!("a generated module does not lex:\n{case}"));
    for (msg, span) in &e.errors {
        assert!(
            check::located(*span),
            "an error without a span (at the call site): {msg}\n{case}"
        );
    }
    if e.accepted() {
        assert!(
            !e.programs.is_empty(),
            "accepted without a program:\n{case}"
        );
    } else if strict() && !case.wild {
        let msgs: Vec<&str> = e.errors.iter().map(|(m, _)| m.as_str()).collect();
        panic!("a module without mistakes was rejected: {msgs:#?}\n{case}");
    }
    Some((case, e))
}
