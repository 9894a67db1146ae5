//! Generated reductions and scans through silt's code generator: every one
//! without a deliberate mistake is accepted (for every instantiation), those
//! with one are mostly rejected, and together they cover the forms of the
//! attribute (tuples, `map`, `finish`, `#[scalar]`, `#[index]`, `empty`, every
//! element type).

use silt_abi::DType;
use silt_kernel_gen::{generate_fold, Fold, FoldKind, Options, ParamKind, SplitMix64, Ty};

fn corpus(runnable: bool, n: u64) -> Vec<Fold> {
    (0..n)
        .map(|seed| {
            let opts = Options {
                runnable,
                mistakes: if runnable { 0 } else { 20 },
                name: runnable.then(|| format!("rr{seed}")),
            };
            let kind = if seed % 3 == 2 {
                FoldKind::Scan
            } else {
                FoldKind::Reduce
            };
            generate_fold(&mut SplitMix64::new(seed ^ 0xf01d), &opts, kind)
        })
        .collect()
}

/// Expands `f` with silt-codegen: the errors' messages (empty when accepted).
fn compile(f: &Fold) -> Vec<String> {
    let attr: proc_macro2::TokenStream = f.attr.parse().expect("the attribute lexes");
    let item: proc_macro2::TokenStream = f.item.parse().expect("the module lexes");
    // the helpers beside it, as its chain would collect them
    let helpers: Vec<_> = f
        .helpers
        .iter()
        .map(|h| {
            (
                h.attr.parse().expect("the helper's attribute lexes"),
                h.item.parse().expect("the helper lexes"),
            )
        })
        .collect();
    let defs = match silt_codegen::helper::sibling_defs(&helpers) {
        Ok(d) => d,
        Err(e) => return e.into_iter().map(|e| e.to_string()).collect(),
    };
    let scan = f.kind == FoldKind::Scan;
    let r = silt_codegen::compile_module_with(attr, item, scan, &defs);
    match r {
        Ok(c) => {
            let want = f.types.len().max(1);
            assert_eq!(c.instances.len(), want, "{f}");
            Vec::new()
        }
        Err((e, _)) => e.into_iter().map(|e| e.to_string()).collect(),
    }
}

#[test]
fn folds_that_run_are_accepted_and_cover_the_forms() {
    let fs = corpus(true, 600);
    for f in &fs {
        let errors = compile(f);
        assert!(errors.is_empty(), "rejected: {errors:#?}\n{f}");
    }
    let all: String = fs.iter().map(|f| format!("{f}\n")).collect();
    for form in [
        "#[reduce(",
        "#[scan(",
        "#[reduce]",
        "empty = error",
        "fn map",
        "fn finish",
        "#[scalar] ",
        "#[index] ",
        ".0",
        ".1",
        "return ",
        "<U>",
        "for ",
        "while ",
        "0 as T",
    ] {
        assert!(all.contains(form), "`{form}` never generated");
    }
    for d in DType::ALL {
        assert!(fs.iter().any(|f| f.types.contains(&d)), "{d} never listed");
        assert!(
            fs.iter().any(|f| f.acc.contains(&Ty::Elem(d))),
            "{d} never an accumulator"
        );
    }
    assert!(fs.iter().any(|f| f.acc.len() == 2));
    assert!(fs.iter().any(|f| f.outputs.len() == 2));
    assert!(fs.iter().any(|f| f.types.is_empty()));
    assert!(fs.iter().any(|f| f
        .params
        .iter()
        .filter(|p| p.kind == ParamKind::Input)
        .count()
        == 3));
    // helpers beside the module, called from its functions, some with
    // several results destructured
    let with_helpers: Vec<&Fold> = fs.iter().filter(|f| !f.helpers.is_empty()).collect();
    assert!(
        with_helpers.len() > 100,
        "{} with helpers",
        with_helpers.len()
    );
    assert!(with_helpers.iter().any(|f| f
        .helpers
        .iter()
        .any(|h| f.item.contains(&format!("{}(", h.name)))));
    assert!(with_helpers.iter().any(|f| f.item.contains("let (")));
    // a whole accumulator returned
    assert!(fs
        .iter()
        .any(|f| f.acc.len() == 2 && f.item.contains("{\n            a")));
}

#[test]
fn folds_with_mistakes_are_mostly_rejected_and_others_accepted() {
    let fs = corpus(false, 600);
    let (mut wild, mut rejected_wild) = (0, 0);
    for f in &fs {
        let errors = compile(f);
        if f.mistake {
            wild += 1;
            rejected_wild += usize::from(!errors.is_empty());
        } else {
            assert!(
                errors.is_empty(),
                "rejected without a mistake: {errors:#?}\n{f}"
            );
        }
    }
    assert!((60..250).contains(&wild), "{wild} with a mistake");
    assert!(
        rejected_wild * 10 >= wild * 7,
        "{rejected_wild} of {wild} rejected"
    );
}
