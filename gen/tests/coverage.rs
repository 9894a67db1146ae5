//! What the generator covers, over a few thousand kernels of each purpose:
//! every element type, every method of the builtin table (the exact ones in
//! kernels that run, and the others at their outputs), every literal form and
//! statement, helpers, and mistakes only where they are asked for.

use silt_abi::DType;
use silt_codegen::builtins::TABLE;
use silt_kernel_gen::{generate, Kernel, Options, ParamKind, SplitMix64, Ty};

fn corpus(runnable: bool, n: u64) -> Vec<Kernel> {
    (0..n)
        .map(|seed| {
            let opts = Options {
                runnable,
                mistakes: if runnable { 0 } else { 17 },
                name: runnable.then(|| format!("rk{seed}")),
            };
            generate(&mut SplitMix64::new(seed), &opts)
        })
        .collect()
}

fn text(ks: &[Kernel]) -> String {
    ks.iter().map(|k| format!("{k}\n")).collect()
}

fn assert_covers(what: &str, ks: &[Kernel], all: &str) {
    for d in DType::ALL {
        let listed = ks.iter().any(|k| k.types.contains(&d));
        let param = ks
            .iter()
            .any(|k| k.params.iter().any(|p| p.ty == Ty::Elem(d)));
        assert!(listed && param, "{what}: {d} never generated");
    }
    for kind in [
        ParamKind::Input,
        ParamKind::Scalar,
        ParamKind::InOut,
        ParamKind::Index,
    ] {
        assert!(ks.iter().any(|k| k.params.iter().any(|p| p.kind == kind)));
    }
    for form in [
        "0x",
        "0o",
        "0b",
        "_0",
        "e-",
        "f16",
        "as T",
        "::MAX",
        "::consts::",
        "::IS_FLOAT",
        "::BITS",
        "loop {",
        "while ",
        "for ",
        "..=",
        "break;",
        "continue;",
        "return",
        "} else if ",
        "let _ = ",
        "let mut ",
        "#[scalar] mut ",
        "&mut ",
        "{\n        let ",
        "r#",
        "é",
        "<U>",
        "wrapping_",
        "to_bits()",
        "is_nan()",
    ] {
        assert!(all.contains(form), "{what}: `{form}` never generated");
    }
    assert!(ks
        .iter()
        .any(|k| k.helpers.iter().any(|h| h.attr.contains("types"))));
    assert!(ks
        .iter()
        .any(|k| k.helpers.iter().any(|h| h.attr.is_empty())));
    // helpers with several results, destructured (flat, nested, all dropped)
    assert!(ks
        .iter()
        .any(|k| k.helpers.iter().any(|h| h.item.contains(") -> ("))));
    for form in ["let (t", "let (mut t", "let ((", "let (_, t"] {
        assert!(all.contains(form), "{what}: `{form}` never generated");
    }
}

#[test]
fn kernels_that_only_compile_cover_every_method_and_some_mistakes() {
    let ks = corpus(false, 3000);
    let all = text(&ks);
    assert_covers("compiled", &ks, &all);
    for d in TABLE {
        assert!(
            all.contains(&format!(".{}(", d.name)),
            "`{}` never called",
            d.name
        );
    }
    let wild = ks.iter().filter(|k| k.mistake).count();
    assert!((150..700).contains(&wild), "{wild} kernels with a mistake");
}

#[test]
fn kernels_that_run_cover_every_method_and_no_mistake() {
    let ks = corpus(true, 3000);
    let all = text(&ks);
    assert_covers("runnable", &ks, &all);
    // `lgamma`'s relative error is unbounded near its roots, so kernels that
    // run do not end in it (the compiled ones call it)
    for d in TABLE.iter().filter(|d| d.name != "lgamma") {
        assert!(
            all.contains(&format!(".{}(", d.name)),
            "`{}` never called",
            d.name
        );
    }
    assert!(ks.iter().all(|k| !k.mistake));
    // inexact methods only at the end of outputs, which say how far off they may be
    let inexact = ks
        .iter()
        .filter(|k| k.checks.iter().any(|c| c.ulps > 0))
        .count();
    assert!(inexact > 100, "{inexact}");
    for k in &ks {
        for c in &k.checks {
            assert!(c.ulps == 0 || c.ulps >= 3, "{k}");
        }
    }
}
