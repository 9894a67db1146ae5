//! Findings of the random reductions and scans (`silt-random-kernels`), one
//! test each: what the macro accepts it expands to valid code, and what it
//! cannot expand it rejects with a spanned error.

use proc_macro2::TokenStream;
use silt_codegen::{compile, compile_reduce, compile_scan, expand_reduce, expand_scan};

fn tokens(text: &str) -> TokenStream {
    text.parse().expect("the test's text lexes")
}

/// The parameter names of every `fn` called `name` in an expansion.
fn params_of(out: &TokenStream, name: &str) -> Vec<Vec<String>> {
    let file: syn::File = syn::parse2(out.clone()).expect("the expansion is Rust");
    let mut found = Vec::new();
    let mut stack: Vec<&syn::Item> = file.items.iter().collect();
    while let Some(item) = stack.pop() {
        match item {
            syn::Item::Mod(m) => stack.extend(m.content.iter().flat_map(|(_, i)| i)),
            syn::Item::Fn(f) if f.sig.ident == name => found.push(
                f.sig
                    .inputs
                    .iter()
                    .filter_map(|a| match a {
                        syn::FnArg::Typed(pt) => match &*pt.pat {
                            syn::Pat::Ident(pi) => Some(pi.ident.to_string()),
                            _ => None,
                        },
                        syn::FnArg::Receiver(_) => None,
                    })
                    .collect(),
            ),
            _ => {}
        }
    }
    found
}

fn assert_unique(lists: &[Vec<String>]) {
    assert!(!lists.is_empty());
    for l in lists {
        let mut s = l.clone();
        s.sort();
        s.dedup();
        assert_eq!(s.len(), l.len(), "a name taken twice: {l:?}");
    }
}

/// `map`'s parameters become `launch`'s: one named `axes` (or `axis`,
/// `exclusive` for a scan) took the name of `launch`'s own last parameter.
#[test]
fn map_parameters_may_take_the_names_of_launch_parameters() {
    let item = "mod r { fn identity() -> f32 { 0.0 } \
                fn map(axes: f32, axis: f32, exclusive: f32) -> f32 { axes + axis + exclusive } \
                fn combine(a: f32, b: f32) -> f32 { a + b } }";
    let out = expand_reduce(TokenStream::new(), tokens(item));
    for f in ["launch", "dispatch"] {
        assert_unique(&params_of(&out, f));
    }
    let out = expand_scan(TokenStream::new(), tokens(item));
    for f in ["launch", "launch_exclusive", "__scan", "dispatch"] {
        assert_unique(&params_of(&out, f));
    }
}

/// Parameter names the generated module uses itself are errors, as a
/// kernel's are, at the parameter.
#[test]
fn reserved_parameter_names_are_errors_at_the_parameter() {
    for (func, bad) in [
        ("fn map(__k: f32) -> f32 { __k }", "__k"),
        ("fn map(NAME: f32) -> f32 { NAME }", "NAME"),
        ("fn map(x: f32, x: f32) -> f32 { x }", "x"),
        (
            "fn finish(TYPES: f32, count: u64) -> f32 { TYPES }",
            "TYPES",
        ),
    ] {
        let item = format!(
            "mod r {{ fn identity() -> f32 {{ 0.0 }} {func} \
             fn combine(a: f32, b: f32) -> f32 {{ a + b }} }}"
        );
        for scan in [false, true] {
            let r = if scan {
                compile_scan(TokenStream::new(), tokens(&item))
            } else {
                compile_reduce(TokenStream::new(), tokens(&item))
            };
            let Err((e, _)) = r else {
                panic!("accepted: {item}");
            };
            let at: Vec<Option<String>> = e.into_iter().map(|e| e.span().source_text()).collect();
            assert!(at.contains(&Some(bad.to_string())), "{at:?} for {item}");
        }
    }
    // a tuple parameter is checked by its name
    let item = "mod r { fn identity() -> (f32, i64) { (0.0, 0) } \
                fn map(x: f32) -> (f32, i64) { (x, 1) } \
                fn combine(__a: (f32, i64), b: (f32, i64)) -> (f32, i64) { b } }";
    assert!(compile_reduce(TokenStream::new(), tokens(item)).is_err());
}

/// `return if c { a } else { b };` of a tuple (a whole tuple parameter, or
/// tuples) was "expected a tuple of 2 values", though the same `if` as the
/// tail was accepted.
#[test]
fn returning_an_if_of_tuples_is_returning_each_branch() {
    let item = "mod r { fn identity() -> (f32, i64) { (0.0, 0) } \
                fn map(x: f32, #[index] i: u64) -> (f32, i64) { (x, i as i64) } \
                fn combine(a: (f32, i64), b: (f32, i64)) -> (f32, i64) { \
                    if a.0 != a.0 { return a; } \
                    return if b.0 > a.0 { b } else { a }; } }";
    let c = compile_reduce(TokenStream::new(), tokens(item)).expect("accepted");
    assert_eq!(c.instances.len(), 1);
    let kernel = "fn k(x: f32) -> (f32, i32) { \
                  return if x > 0.0 { (x, 1) } else { let y = -x; (y, 2) }; }";
    let c = compile(TokenStream::new(), tokens(kernel)).expect("accepted");
    let src = &c.instances[0].opencl();
    for each in [
        "*silt_ret1 = 1;\n        return;",
        "*silt_ret1 = 2;\n        return;",
    ] {
        assert!(src.contains(each), "{src}");
    }
    // one value is still an error of the tuple's length
    let bad = "fn k(x: f32) -> (f32, i32) { return if x > 0.0 { (x, 1) } else { (x, 2, 3) }; }";
    assert!(compile(TokenStream::new(), tokens(bad)).is_err());
}
