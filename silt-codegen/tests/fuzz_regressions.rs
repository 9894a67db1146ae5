//! Inputs the fuzz targets in `fuzz/` found, one test each: the macro reports a
//! spanned error (or accepts the kernel) instead of panicking, and what it emits
//! is OpenCL C that clang accepts.
//!
//! Tokens are parsed from text (not `quote!`) so that spans carry locations and
//! an error can be checked to point at the offending token. The OpenCL C check
//! runs `clang-15` (or `$SILT_CLANG`); without it the check is skipped with a
//! message, except under `CI=true`, where that is a failure.

use std::io::Write;
use std::process::{Command, Stdio};

use proc_macro2::TokenStream;
use silt_codegen::compile;

fn tokens(text: &str) -> TokenStream {
    text.parse().expect("the test's text lexes")
}

/// The errors of a rejected kernel, with the source text each points at.
fn errors(attr: &str, item: &str) -> Vec<(String, Option<String>)> {
    match compile(tokens(attr), tokens(item)) {
        Ok(_) => panic!("expected errors for {item}"),
        Err((e, _)) => e
            .into_iter()
            .map(|e| (e.to_string(), e.span().source_text()))
            .collect(),
    }
}

/// The OpenCL C programs of an accepted kernel.
fn programs(attr: &str, item: &str) -> Vec<String> {
    match compile(tokens(attr), tokens(item)) {
        Ok(c) => c.instances.into_iter().map(|i| i.opencl()).collect(),
        Err((e, _)) => panic!("expected a valid kernel: {e}\n{item}"),
    }
}

/// Checks a program with clang's OpenCL C 1.2 front end.
fn assert_clang_accepts(program: &str) {
    let clang = std::env::var("SILT_CLANG").unwrap_or_else(|_| "clang-15".into());
    let child = Command::new(&clang)
        .args([
            "-x",
            "cl",
            "-cl-std=CL1.2",
            "-fsyntax-only",
            "-Xclang",
            "-finclude-default-header",
            "-Xclang",
            "-cl-ext=-cl_khr_fp16",
            "-",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "`{clang}` is needed under CI=true to check the emitted OpenCL C: {e}"
            );
            eprintln!("skipping the OpenCL C check: `{clang}` does not run ({e})");
            return;
        }
    };
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(program.as_bytes())
        .expect("clang reads the program");
    let out = child.wait_with_output().expect("clang finishes");
    assert!(
        out.status.success(),
        "clang rejects the program:\n{program}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn an_attribute_that_ends_early_is_blamed_on_its_last_token() {
    // was: syn's "expected `=`" at the call site (the whole attribute)
    let item = "fn k(x: f32) -> f32 { x }";
    for (attr, at) in [
        ("ZZZZZZZZ", "ZZZZZZZZ"),
        ("types", "types"),
        ("types = [f32] extra", "extra"),
        ("types =", "="),
        ("crate = a +", "+"),
        ("types = [f32], crate", "crate"),
    ] {
        let e = errors(attr, item);
        assert_eq!(e.len(), 1, "{attr}: {e:?}");
        assert!(e[0].0.contains("expected"), "{attr}: {e:?}");
        // the end of that token (proc-macro2 gives the last character)
        let text = e[0].1.clone().unwrap_or_default();
        assert!(!text.is_empty() && at.ends_with(&text), "{attr}: {e:?}");
    }
}

#[test]
fn stray_semicolons_are_empty_statements() {
    // was: "unsupported syntax in a kernel body" at the call site
    for p in programs(
        "",
        "fn k(x: &mut i16, y: f32) -> f32 { ; *x = 1;;;; let z = y;; if true { ; } z }",
    ) {
        assert_clang_accepts(&p);
    }
}

#[test]
fn calls_of_self_and_misplaced_path_keywords_are_not_helper_calls() {
    // was: `#[helper]` re-exported the callee as `use super::Self as ...`, which
    // is not Rust; now they are calls of functions that are not helpers
    for call in [
        "Self(x)",
        "self(x)",
        "a::super::f(x)",
        "a::self::f(x)",
        "::super::f(x)",
    ] {
        let item = format!("fn h(x: f32) -> f32 {{ {call} }}");
        let out = silt_codegen::expand_helper(tokens(""), tokens(&item));
        let out = out.to_string();
        assert!(
            syn::parse_str::<syn::File>(&out).is_ok(),
            "{call}: not Rust: {out}"
        );
        assert!(!out.contains("__silt_dep_0"), "{call}: {out}");
        assert!(
            out.contains("function calls are not supported"),
            "{call}: {out}"
        );
        let e = errors("", &format!("fn k(x: f32) -> f32 {{ {call} }}"));
        assert!(
            e.iter()
                .any(|(m, at)| m.contains("function calls are not supported")
                    && at.as_deref() == Some(call)),
            "{call}: {e:?}"
        );
    }
    // paths that lead with them are still helper paths
    for call in [
        "self::sq(x)",
        "super::sq(x)",
        "crate::util::sq(x)",
        "super::super::sq(x)",
    ] {
        let e = errors("", &format!("fn k(x: f32) -> f32 {{ {call} }}"));
        assert!(
            e.iter().any(|(m, _)| m.contains("is not a `#[helper]`")),
            "{call}: {e:?}"
        );
    }
}

#[test]
fn non_ascii_identifiers_are_escaped_in_opencl_c() {
    // was: `let mut reoݗfty` was emitted as it is, and clang rejects U+0757 in
    // an identifier (Rust accepts every XID character)
    let item = "pub fn float<T>(ctz: &mut i64, popcount: f32, #[scalar] intptr_t: T) { \
                if ((1 as f32).is_infinite() as bool) { } else { \
                let mut reo\u{757}fty: T = (intptr_t as T); let r#enum: T = 42; } \
                let case: T = (1*5 + intptr_t); *ctz = i64::MAX; }";
    for p in programs("types = [u8]", item) {
        assert!(p.contains("uchar silt_x_reo_757_fty = intptr_t_;"), "{p}");
        assert_clang_accepts(&p);
    }
    // names of kernels and parameters too, and an ASCII name spelled like an
    // escaped one keeps its own
    let item = "fn d\u{e9}j\u{e0}_vu(\u{3bb}: f32, silt_x_u_3bb_: f32) -> f32 { \
                let \u{3bc} = \u{3bb} * silt_x_u_3bb_; \u{3bc} }";
    for p in programs("", item) {
        assert!(
            p.contains("__kernel void silt_x_d_e9_j_e0___vu_kernel("),
            "{p}"
        );
        assert!(
            p.contains("float silt_x__3bb_, float silt_x_u_3bb__"),
            "{p}"
        );
        assert!(p.contains("float silt_x__3bc_ = "), "{p}");
        let code: String = p.lines().filter(|l| !l.starts_with("//")).collect();
        assert!(code.is_ascii(), "{p}");
        assert_clang_accepts(&p);
    }
}
