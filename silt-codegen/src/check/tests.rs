//! Unit tests of the checker: the IR it produces for small bodies.

use quote::quote;

use crate::ir::{ExprKind, Kernel, Stmt, Value};
use silt_abi::DType;

/// The IR of the `f32` (or only) instantiation of a kernel.
fn ir(attr: proc_macro2::TokenStream, item: proc_macro2::TokenStream) -> Kernel {
    match crate::compile(attr, item) {
        Ok(c) => c.instances.into_iter().next().map(|i| i.kernel).unwrap(),
        Err((e, _)) => panic!("rejected: {e}"),
    }
}

#[test]
fn literals_take_their_types_from_context_or_rusts_defaults() {
    let k = ir(
        quote!(types = [f32]),
        quote! {
            fn k<T>(x: T) -> T {
                let a = 2;
                let b = 1.5;
                let c = b * 2.0;
                x * 2 + (a as T) + (c as T)
            }
        },
    );
    let tys: Vec<DType> = k.func.locals.iter().map(|l| l.ty).collect();
    assert_eq!(tys, [DType::I32, DType::F64, DType::F64]);
    // `x * 2`: the integer literal became an f32 value
    let Some(Stmt::Return(vs)) = k.func.body.stmts.last() else {
        panic!("the body ends in a return: {:?}", k.func.body.stmts.last());
    };
    let mut lits = Vec::new();
    crate::ir::walk_exprs(
        &crate::ir::Block {
            stmts: vec![Stmt::Expr(vs[0].clone())],
            tail: None,
        },
        &mut |e| {
            if let ExprKind::Lit(v) = e.kind {
                lits.push((v, e.ty));
            }
        },
    );
    assert_eq!(lits, [(Value::F32(2.0), DType::F32)]);
}

#[test]
fn float_literals_are_values_of_their_final_type() {
    let k = ir(
        quote!(types = [f16]),
        quote! {
            fn k<T>(x: T) -> T {
                x + 0.1
            }
        },
    );
    let mut lits = Vec::new();
    crate::ir::walk_exprs(&k.func.body, &mut |e| {
        if let ExprKind::Lit(v) = e.kind {
            lits.push(v);
        }
    });
    // 0.1 rounded to the nearest f16 at compile time
    assert_eq!(lits, [Value::F32(0.099_975_586)]);
}

#[test]
fn a_static_branch_keeps_only_the_taken_side() {
    let item = quote! {
        fn k<T>(x: T) -> T {
            if T::IS_FLOAT { x * x } else { x + x }
        }
    };
    for (t, op) in [
        ("f32", crate::ir::BinOp::Mul),
        ("i32", crate::ir::BinOp::Add),
    ] {
        let t: proc_macro2::TokenStream = t.parse().unwrap();
        let k = ir(quote!(types = [#t]), item.clone());
        let mut ops = Vec::new();
        let mut ifs = 0;
        crate::ir::walk_exprs(&k.func.body, &mut |e| match &e.kind {
            ExprKind::Binary(op, ..) => ops.push(*op),
            ExprKind::If(..) => ifs += 1,
            _ => {}
        });
        crate::ir::walk_stmts(&k.func.body, &mut |s| {
            if matches!(s, Stmt::If(..)) {
                ifs += 1;
            }
        });
        assert_eq!((ops, ifs), (vec![op], 0));
    }
}

#[test]
fn a_static_branch_may_compare_the_bit_width() {
    // `T::BITS == 16` picks the f16 branch only; `x as f32` would not type-check
    // as the value of an f64 instantiation, so that side must not be checked
    let item = quote! {
        fn k<T>(x: T) -> T {
            if T::IS_FLOAT && T::BITS == 16 { ((x as f32) * 2.0) as T } else if 32 < T::BITS { x - x } else { x + x }
        }
    };
    for (t, op) in [
        ("f16", crate::ir::BinOp::Mul),
        ("i16", crate::ir::BinOp::Add),
        ("f32", crate::ir::BinOp::Add),
        ("f64", crate::ir::BinOp::Sub),
    ] {
        let t: proc_macro2::TokenStream = t.parse().unwrap();
        let k = ir(quote!(types = [#t]), item.clone());
        let mut ops = Vec::new();
        crate::ir::walk_exprs(&k.func.body, &mut |e| {
            if let ExprKind::Binary(op, ..) = &e.kind {
                ops.push(*op);
            }
        });
        assert_eq!(ops, vec![op], "{t}");
    }
}

#[test]
fn uses_sees_f64_anywhere_in_the_kernel() {
    let with = |body: proc_macro2::TokenStream| {
        ir(quote!(types = [f32]), quote!(fn k<T>(x: T) -> T { #body }))
    };
    assert!(!with(quote!(x + x)).uses(DType::F64));
    // an unsuffixed float literal alone defaults to f64
    assert!(with(quote!(let a = 0.5; x)).uses(DType::F64));
    assert!(with(quote!(((x as f64) * 2.0) as T)).uses(DType::F64));
    assert!(!with(quote!(let a = 0.5f32; x + a)).uses(DType::F64));
}
