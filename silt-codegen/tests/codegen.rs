//! The code generator as a library: type inference, errors, and no panic on any
//! input.

use proc_macro2::TokenStream;
use quote::quote;
use silt_codegen::{compile, expand_kernel};

fn ok(attr: TokenStream, item: TokenStream) -> silt_codegen::Compiled {
    match compile(attr, item) {
        Ok(c) => c,
        Err((e, _)) => panic!("expected a valid kernel: {e}"),
    }
}

fn errors(attr: TokenStream, item: TokenStream) -> Vec<String> {
    match compile(attr, item) {
        Ok(_) => panic!("expected errors"),
        Err((e, _)) => e.into_iter().map(|e| e.to_string()).collect(),
    }
}

#[test]
fn untyped_literals_take_their_type_from_later_uses() {
    let c = ok(
        quote!(types = [f32, i64]),
        quote! {
            fn sum<T>(x: T, n: u8) -> T {
                let mut acc = 0;
                for i in 0..n {
                    acc += x;
                }
                acc * 2
            }
        },
    );
    let f32_src = &c.instances[0].opencl();
    assert!(f32_src.contains("float acc = 0.0f;"), "{f32_src}");
    assert!(f32_src.contains("acc * 2.0f"), "{f32_src}");
    let i64_src = &c.instances[1].opencl();
    assert!(i64_src.contains("long acc = 0L;"), "{i64_src}");
    assert!(
        i64_src.contains("for (uchar i = "),
        "the loop variable has the range's type: {i64_src}"
    );
}

#[test]
fn literals_default_like_rust() {
    let c = ok(
        quote!(),
        quote! { fn f(x: f32) -> f32 { let a = 3; let b = 1.5; x + (a as f32) * (b as f32) } },
    );
    let src = &c.instances[0].opencl();
    assert!(src.contains("int a = 3;"), "{src}");
    assert!(src.contains("double b = 1.5;"), "{src}");
    assert!(
        src.contains("cl_khr_fp64"),
        "a double local needs the extension: {src}"
    );
}

#[test]
fn every_listed_type_is_checked() {
    let e = errors(
        quote!(types = [f32, u32]),
        quote! { fn f<T>(x: T) -> T { -x * 0.5 } },
    );
    assert!(
        e.iter()
            .any(|m| m.contains("cannot negate a value of type `u32`")),
        "{e:?}"
    );
    assert!(
        e.iter().any(|m| m.contains("in the `u32` instantiation")),
        "{e:?}"
    );
    assert!(
        !e.iter().any(|m| m.contains("`f32` instantiation")),
        "f32 is fine: {e:?}"
    );
}

#[test]
fn all_errors_are_reported_at_once() {
    let e = errors(
        quote!(types = [f32]),
        quote! {
            fn f<T>(x: T) -> T {
                let a = |v| v;
                let b = x.foo();
                println!("{}", x);
                x[0]
            }
        },
    );
    // the syntax stage reports all its errors; type errors (`x.foo()`) come once
    // the syntax is right
    assert_eq!(e.len(), 3, "{e:?}");
}

#[test]
fn kernels_without_a_value_at_the_end_are_errors() {
    let e = errors(
        quote!(),
        quote! { fn f(x: f32) -> f32 { if x > 0.0 { return x; } } },
    );
    assert!(
        e.iter().any(|m| m.contains("does not end in a value")),
        "{e:?}"
    );
    // diverging in every branch is fine
    ok(
        quote!(),
        quote! { fn f(x: f32) -> f32 { if x > 0.0 { return x; } else { return -x; } } },
    );
    ok(
        quote!(),
        quote! { fn f(x: f32) -> f32 { loop { return x; } } },
    );
}

#[test]
fn break_outside_a_loop_and_unknown_names() {
    let e = errors(quote!(), quote! { fn f(x: f32) -> f32 { break; y } });
    assert!(e.iter().any(|m| m.contains("outside of a loop")), "{e:?}");
    assert!(
        e.iter().any(|m| m.contains("cannot find value `y`")),
        "{e:?}"
    );
}

#[test]
fn tuple_returns_need_every_value() {
    let e = errors(quote!(), quote! { fn f(x: f32) -> (f32, f32) { x } });
    assert!(
        e.iter().any(|m| m.contains("expected a tuple of 2 values")),
        "{e:?}"
    );
    let e = errors(
        quote!(),
        quote! { fn f(x: f32) -> (f32, f32) { (x, x, x) } },
    );
    assert!(e.iter().any(|m| m.contains("expected 2 values")), "{e:?}");
}

#[test]
fn inout_parameters_are_read_through_deref() {
    let e = errors(quote!(), quote! { fn f(y: &mut f32) { y = 1.0; } });
    assert!(e.iter().any(|m| m.contains("assign through `*y`")), "{e:?}");
    let e = errors(
        quote!(),
        quote! { fn f(x: f32, y: &mut f32) { *y = y + x; } },
    );
    assert!(
        e.iter().any(|m| m.contains("read its value with `*y`")),
        "{e:?}"
    );
    let e = errors(
        quote!(),
        quote! { fn f(x: f32, y: &mut f32) { *x = 1.0; *y = 2.0; } },
    );
    assert!(
        e.iter()
            .any(|m| m.contains("only `&mut` parameters can be dereferenced")),
        "{e:?}"
    );
}

#[test]
fn the_expansion_names_the_crate_path() {
    let out = expand_kernel(
        quote!(types = [f32], crate = ::my::silt),
        quote! { pub fn f<T>(x: T) -> T { x } },
    )
    .to_string();
    assert!(out.contains("use :: my :: silt as __silt"), "{out}");
    let out = expand_kernel(
        quote!(types = [f32]),
        quote! { pub fn f<T>(x: T) -> T { x } },
    )
    .to_string();
    assert!(out.contains("use :: silt as __silt"), "{out}");
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

#[allow(clippy::cast_possible_truncation)]
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const SEEDS: &[&str] = &[
    "fn add < T > ( a : T , b : T ) -> T { a + b }",
    "fn axpy < T > ( # [ scalar ] alpha : T , x : T , y : & mut T ) { * y = alpha * x + * y ; }",
    "fn m < T > ( cr : T , ci : T , # [ scalar ] n : u32 ) -> u32 { let mut zr = 0.0 ; let mut i = 0 ; \
     while i < n && zr * zr <= 4.0 { zr = zr * zr + cr - ci ; i += 1 ; } i }",
    "fn c < T > ( x : T , n : i32 ) -> ( T , bool ) { let mut a = x ; for i in 0 ..= n { if i % 2 == 0 { continue ; } \
     a = a + x ; } loop { break ; } let y = if a > x { a } else { { x } } ; ( y + n as T , x > a ) }",
    "fn s < T > ( x : T ) -> T { if x > 0 { 1 } else if x < 0 { - 1 } else { T :: MAX . min ( x ) } }",
    "fn b ( x : u8 , y : i64 ) -> ( u8 , i64 , f32 ) { ( x << 3 , y / ( y % 7 ) , x as f32 * 0.5 ) }",
];

const TOKENS: &[&str] = &[
    "+",
    "-",
    "*",
    "/",
    "%",
    "<<",
    ">>",
    "&",
    "|",
    "^",
    "!",
    "==",
    "<",
    "&&",
    "||",
    "=",
    "+=",
    "as",
    "T",
    "f32",
    "u8",
    "bool",
    "x",
    "a",
    "y",
    "*y",
    "0",
    "1.5",
    "-1",
    "300u8",
    "(",
    ")",
    "{",
    "}",
    ";",
    ",",
    "if",
    "else",
    "while",
    "loop",
    "break",
    "continue",
    "return",
    "let",
    "mut",
    "for",
    "in",
    "..",
    "..=",
    ".sqrt()",
    ".min(x)",
    ".powi(2)",
    ".to_bits()",
    "T::MAX",
    "T::NAN",
    "core::f64::consts::PI",
    "|v| v",
    "&x",
    "x[0]",
    "match x { _ => x }",
    "unsafe { x }",
    "println!()",
    "(x, x)",
    "true",
    "i32::MIN",
    "'a",
    "#[scalar]",
];

/// Replacements that keep an expression an expression.
const VALUES: &[&str] = &[
    "x",
    "a",
    "0",
    "1",
    "2.5",
    "( - 1 )",
    "T :: MAX",
    "T :: EPSILON",
    "( x . sqrt ( ) )",
    "( a . min ( x ) )",
    "( x as f32 )",
    "( x as u8 )",
    "true",
    "( 7 / 0 )",
    "( x * 2 )",
    "300u8",
    "( x . powi ( 3 ) )",
    "n",
    "i",
];

/// Random edits of valid kernels: the macro answers each with an expansion or with
/// errors, never with a panic, and every accepted kernel emits non-empty C.
#[test]
fn mutated_kernels_never_panic() {
    let attrs = [
        "types = [f32, f64, i32]",
        "types = [u8, i64, bool]",
        "",
        "types = [f32], crate = ::silt",
        "types =",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut accepted = 0;
    let mut rejected = 0;
    for round in 0..3000 {
        let seed = SEEDS[round % SEEDS.len()];
        let mut toks: Vec<String> = seed.split_whitespace().map(str::to_string).collect();
        let body = toks.iter().position(|t| t == "{").unwrap_or(0);
        for _ in 0..1 + rng.below(2) {
            // mostly inside the body, sometimes in the signature
            let at = if rng.below(5) == 0 || body + 1 >= toks.len() {
                rng.below(toks.len())
            } else {
                body + 1 + rng.below(toks.len() - body - 1)
            };
            match rng.below(5) {
                0 => {
                    toks.remove(at);
                }
                1 => toks.insert(at, TOKENS[rng.below(TOKENS.len())].to_string()),
                2 => toks[at] = TOKENS[rng.below(TOKENS.len())].to_string(),
                _ => {
                    // an identifier or literal replaced by another value
                    if toks[at].chars().next().is_some_and(|c| c.is_alphanumeric()) {
                        toks[at] = VALUES[rng.below(VALUES.len())].to_string();
                    }
                }
            }
            if toks.is_empty() {
                toks.push("fn".into());
            }
        }
        let text = toks.join(" ");
        let Ok(item) = text.parse::<TokenStream>() else {
            continue;
        };
        // the attribute that fits the seed, most of the time
        let fitting = if seed.contains('<') {
            "types = [f32, f64, i32]"
        } else {
            ""
        };
        let attr_text = if rng.below(4) == 0 {
            attrs[rng.below(attrs.len())]
        } else {
            fitting
        };
        let attr: TokenStream = attr_text.parse().unwrap_or_default();
        let result =
            std::panic::catch_unwind(|| compile(attr.clone(), item.clone()).map(|c| c.instances));
        match result {
            Ok(Ok(instances)) => {
                accepted += 1;
                assert!(
                    instances
                        .iter()
                        .all(|i| i.opencl().contains("__kernel void")),
                    "{text}"
                );
            }
            Ok(Err(_)) => rejected += 1,
            Err(_) => panic!("the code generator panicked on `#[kernel({attr})] {text}`"),
        }
        let expanded = std::panic::catch_unwind(|| expand_kernel(attr.clone(), item.clone()));
        assert!(
            expanded.is_ok(),
            "expand_kernel panicked on `#[kernel({attr})] {text}`"
        );
    }
    eprintln!("mutated kernels: {accepted} accepted, {rejected} rejected");
    assert!(
        accepted > 200 && rejected > 200,
        "accepted {accepted}, rejected {rejected}"
    );
}

#[test]
fn definite_assignment_is_checked() {
    let e = errors(
        quote!(),
        quote! { fn f(x: f32) -> f32 { let mut y: f32; if x > 0.0 { y = 1.0; } y + x } },
    );
    assert!(
        e.iter()
            .any(|m| m.contains("`y` may be read before it is assigned")),
        "{e:?}"
    );
    let e = errors(
        quote!(),
        quote! { fn f(x: f32) -> f32 { let y: f32; y = 1.0; y = 2.0; y + x } },
    );
    assert!(e.iter().any(|m| m.contains("cannot assign twice")), "{e:?}");
    let e = errors(
        quote!(),
        quote! { fn f(x: i32) -> i32 { let y: i32; for i in 0..x { y = i; } 0 } },
    );
    assert!(
        e.iter().any(|m| m.contains("cannot assign twice")),
        "in a loop: {e:?}"
    );
    // a second time round: back from the body's end, a `continue`, or an
    // outer loop
    for body in [
        quote! { let y: i32; loop { if x > 0 { y = 1; break; } y = 2; } 0 },
        quote! { let y: i32; for i in 0..x { y = i; continue; } 0 },
        quote! { let y: i32; for i in 0..x { loop { y = i; break; } } 0 },
        quote! { let y: i32; while x > 0 { if x > 1 { continue; } y = x; } 0 },
        quote! { let y: i32; 'a: for i in 0..x { loop { y = i; continue 'a; } } 0 },
    ] {
        let e = errors(quote!(), quote! { fn f(x: i32) -> i32 { #body } });
        assert!(
            e.iter().any(|m| m.contains("cannot assign twice")),
            "{body}: {e:?}"
        );
    }
    // once: control cannot come back round after the assignment (rustc
    // accepts each)
    for body in [
        quote! { let y: i32; loop { y = x; break; } y },
        quote! { let y: i32; while x > 0 { y = x; break; } 0 },
        quote! { let y: i32; for i in 0..x { if i > 3 { y = i; return y; } } 0 },
        quote! { let y: i32; 'a: loop { loop { y = x; break 'a; } } y },
        quote! { let y: i32; 'a: loop { loop { if x > 0 { y = x; break 'a; } break; } } 0 },
        quote! { let y: i32; 'a: loop { for i in 0..x { while x > i { y = i; break 'a; } } } 0 },
        quote! { let y: i32; for i in 0..x { let z: i32; z = i; if z > 1 { y = z; break; } } 0 },
    ] {
        ok(quote!(), quote! { fn f(x: i32) -> i32 { #body } });
    }
    // assigned on every path, or after diverging paths: fine
    ok(
        quote!(),
        quote! { fn f(x: f32) -> f32 { let y; if x > 0.0 { y = 1.0; } else { return x; } y } },
    );
    ok(
        quote!(),
        quote! { fn f(x: f32) -> f32 { let y: f32; y = x; y } },
    );
}

#[test]
fn break_in_a_loop_condition_is_an_error() {
    let e = errors(
        quote!(),
        quote! { fn f(x: i32) -> i32 { loop { while { break; } {} } x } },
    );
    assert!(e.iter().any(|m| m.contains("outside of a loop")), "{e:?}");
}

#[test]
fn raw_identifiers_and_reserved_parameter_names() {
    let c = ok(
        quote!(),
        quote! { fn r#loop(r#type: f32) -> f32 { let r#match = r#type; r#match } },
    );
    assert!(
        c.instances[0].opencl().contains("loop_kernel"),
        "{}",
        c.instances[0].opencl()
    );
    let out = expand_kernel(quote!(), quote! { fn raw(r#type: f32) -> f32 { r#type } }).to_string();
    assert!(out.contains("r#type"), "{out}");
    let e = errors(quote!(), quote! { fn f(NAME: f32) -> f32 { NAME } });
    assert!(
        e.iter()
            .any(|m| m.contains("constant of the generated module")),
        "{e:?}"
    );
}

#[test]
fn float_literals_that_overflow_are_errors() {
    // as rustc's `overflowing_literals`: a literal that rounds to infinity
    let e = errors(
        quote!(types = [f16, f32]),
        quote! { fn big<T>(x: T) -> T { x + 70000.0 } },
    );
    assert_eq!(
        e,
        ["literal out of range for `f16` (in the `f16` instantiation)"]
    );
    let e = errors(quote!(), quote! { fn big(x: f32) -> f32 { x * 1e39 } });
    assert_eq!(e, ["literal out of range for `f32`"]);
    let e = errors(quote!(), quote! { fn big(x: f16) -> f16 { x - 65520 } });
    assert_eq!(e, ["literal out of range for `f16`"]);
    // the largest finite ones are fine, and so is infinity by name
    let c = ok(
        quote!(),
        quote! { fn edge(x: f16) -> f16 { x + 65519.0 - 65504 + f16::INFINITY } },
    );
    let src = &c.instances[0].opencl();
    assert!(src.contains("65504.0f"), "{src}");
    assert!(src.contains("INFINITY"), "{src}");
}

#[test]
fn a_dropped_if_still_has_one_type() {
    // rustc rejects both: the branches of an `if` have one type even when its
    // value is dropped
    let e = errors(
        quote!(),
        quote! {
            fn k(x: f32, y: &mut f32) {
                let _ = if x > 0.0 { 1u8 } else { 300 };
                *y = x;
            }
        },
    );
    assert!(
        e.iter().any(|m| m.contains("out of range for `u8`")),
        "{e:?}"
    );
    let e = errors(
        quote!(),
        quote! {
            fn k(x: f32, y: &mut f32) {
                if x > 0.0 { 1.5f64 } else { 3u8 };
                *y = x;
            }
        },
    );
    assert!(e.iter().any(|m| m.contains("mismatched types")), "{e:?}");
}

#[test]
fn a_scan_module_says_it_is_a_scan() {
    let item = quote! {
        pub mod running {
            pub fn identity<T>() -> T { 0.0 }
            pub fn combine<T>(a: T, b: T) -> T { a + b }
        }
    };
    let scan = silt_codegen::expand_scan(quote!(types = [f32]), item.clone()).to_string();
    assert!(
        scan.contains("The scan `running`, generated by `#[scan]`"),
        "{scan}"
    );
    assert!(scan.contains("launch_exclusive"), "{scan}");
    assert!(
        scan.contains("scan `running` is not instantiated for"),
        "the trait's message: {scan}"
    );
    let reduce = silt_codegen::expand_reduce(quote!(types = [f32]), item).to_string();
    assert!(
        reduce.contains("The reduction `running`, generated by `#[reduce]`")
            && reduce.contains("reduction `running` is not instantiated for"),
        "{reduce}"
    );
}

#[test]
fn a_failed_method_call_in_a_condition_reports_one_error() {
    // the call's placeholder takes the condition's `bool`; it once added
    // "literal out of range for `bool`"
    let e = errors(
        quote!(types = [i32]),
        quote! {
            fn f<U>(a: U) -> U {
                if (if U::IS_FLOAT { 2f32.powf(0.5) } else { 1.0 }).is_sign_positive() { a } else { a }
            }
        },
    );
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].contains("ambiguous number"), "{e:?}");
    let e = errors(
        quote!(),
        quote! { fn f(x: i32) -> i32 { let b: bool = 0; x } },
    );
    assert!(e.iter().any(|m| m.contains("expected `bool`")), "{e:?}");
}
