//! The wrappers `tests/folds.rs` runs a generated reduction or scan through:
//! for each instantiation, a launch on a device over a case's inputs, views
//! and axes (by `launch`, `launch_exclusive` or `dispatch`; `_launch`), and
//! `eval` on the case's rows gathered on the host (`_eval`); and the module's
//! entry of `FOLDS`.
//!
//! Arguments are named by position (`x0`, `x1`, ...), so that a parameter may
//! have any name the generator gives it.

use std::fmt::Write as _;

use silt_abi::DType;
use silt_kernel_gen::{Fold, FoldKind, ParamKind, Ty};

/// Writes the wrappers of every instantiation of `f` to `out`; returns its
/// `crate::fold::Fold` entry.
pub fn write(f: &Fold, out: &mut String) -> String {
    let insts: Vec<Option<DType>> = if f.types.is_empty() {
        vec![None]
    } else {
        f.types.iter().copied().map(Some).collect()
    };
    let inputs_at: Vec<String> = f
        .params
        .iter()
        .enumerate()
        .filter(|(_, p)| p.kind == ParamKind::Input)
        .map(|(i, _)| i.to_string())
        .collect();
    let mut entries = Vec::new();
    for inst in insts {
        let stem = instantiation(f, inst, out);
        entries.push(format!(
            "crate::fold::Inst {{ ty: {:?}, launch: {stem}_launch, eval: {stem}_eval }}",
            inst.map_or("-", DType::name),
        ));
    }
    format!(
        "crate::fold::Fold {{ name: {:?}, source: {:?}, scan: {}, empty_is_error: {}, \
         inputs_at: &[{}], insts: &[\n        {}\n    ] }}",
        f.name,
        f.to_string(),
        f.kind == FoldKind::Scan,
        f.empty_is_error,
        inputs_at.join(", "),
        entries.join(",\n        ")
    )
}

/// The wrappers of one instantiation; returns their common name stem.
fn instantiation(f: &Fold, inst: Option<DType>, out: &mut String) -> String {
    let stem = format!("{}_{}", f.name, inst.map_or("fold", DType::name));
    let turbofish = inst.map_or(String::new(), |t| format!("::<{}>", t.name()));
    let ty = |t: Ty| t.at(inst).name();
    let scan = f.kind == FoldKind::Scan;
    let name = &f.name;
    let n_out = f.outputs.len();
    let n_in = f
        .params
        .iter()
        .filter(|p| p.kind == ParamKind::Input)
        .count();
    let out_tys: Vec<&str> = f.outputs.iter().map(|t| ty(*t)).collect();

    // ---- launch ----
    let _ = writeln!(
        out,
        "fn {stem}_launch(dev: &::silt::Device, c: &crate::fold::Case, mode: crate::fold::Mode) \
         -> ::silt::Result<(Vec<usize>, Vec<crate::Col>)> {{"
    );
    let (mut args, mut dargs) = (Vec::new(), Vec::new());
    for (i, p) in f.params.iter().enumerate() {
        let t = ty(p.ty);
        match p.kind {
            ParamKind::Input => {
                let _ = writeln!(out, "    let x{i} = c.tensor::<{t}>(dev, {i})?;");
                args.push(format!("&x{i}"));
                dargs.push(format!("&::silt::Tensor::from(x{i}.clone())"));
            }
            ParamKind::Scalar => {
                let _ = writeln!(out, "    let x{i} = c.scalar::<{t}>({i});");
                args.push(format!("x{i}"));
                dargs.push(format!("x{i}"));
            }
            _ => {}
        }
    }
    let where_ = if scan { "c.axis()" } else { "c.axes()" };
    args.push(where_.into());
    dargs.push(where_.into());
    let cols = |typed: bool| -> (String, String) {
        let col = |r: &str, t: &str| {
            if typed {
                format!("crate::out(&{r})?")
            } else {
                format!("crate::out_any::<{t}>(&{r})?")
            }
        };
        if n_out == 1 {
            ("r.shape().to_vec()".into(), col("r", out_tys[0]))
        } else {
            let v: Vec<String> = (0..n_out)
                .map(|i| col(&format!("r.{i}"), out_tys[i]))
                .collect();
            ("r.0.shape().to_vec()".into(), v.join(", "))
        }
    };
    let (dshape, dcols) = cols(false);
    let _ = writeln!(
        out,
        "    if mode == crate::fold::Mode::Dispatch {{\n        let r = {name}::dispatch({})?;\n        \
         return Ok(({dshape}, vec![{dcols}]));\n    }}",
        dargs.join(", ")
    );
    let (shape, tcols) = cols(true);
    if scan {
        let _ = writeln!(
            out,
            "    let r = if mode == crate::fold::Mode::Exclusive {{\n        \
             {name}::launch_exclusive{turbofish}({a})?\n    }} else {{\n        \
             {name}::launch{turbofish}({a})?\n    }};",
            a = args.join(", ")
        );
    } else {
        let _ = writeln!(
            out,
            "    let r = {name}::launch{turbofish}({})?;",
            args.join(", ")
        );
    }
    let _ = writeln!(out, "    Ok(({shape}, vec![{tcols}]))\n}}");

    // ---- eval on the host's rows (lines, for a scan) ----
    let _ = writeln!(
        out,
        "fn {stem}_eval(c: &crate::fold::Case, mode: crate::fold::Mode) -> Vec<crate::Col> {{"
    );
    let mut eargs = Vec::new();
    for (i, p) in f.params.iter().enumerate() {
        let t = ty(p.ty);
        match p.kind {
            ParamKind::Input => {
                let _ = writeln!(out, "    let x{i} = c.logical::<{t}>({i});");
                eargs.push(format!("&r{i}"));
            }
            ParamKind::Scalar => {
                let _ = writeln!(out, "    let x{i} = c.scalar::<{t}>({i});");
                eargs.push(format!("x{i}"));
            }
            _ => {}
        }
    }
    let gather: String = f
        .params
        .iter()
        .enumerate()
        .filter(|(_, p)| p.kind == ParamKind::Input)
        .map(|(i, p)| {
            format!(
                "        let r{i}: Vec<{}> = row.iter().map(|&i| x{i}[i]).collect();\n",
                ty(p.ty)
            )
        })
        .collect();
    let checked = if n_in > 1 {
        ".expect(\"rows of one length\")"
    } else {
        ""
    };
    let eargs = eargs.join(", ");
    if scan {
        for (o, t) in out_tys.iter().enumerate() {
            let _ = writeln!(
                out,
                "    let mut e{o}: Vec<Option<{t}>> = vec![None; c.numel()];"
            );
        }
        let _ = writeln!(
            out,
            "    for row in c.lines() {{\n{gather}        let r = if mode == crate::fold::Mode::Exclusive {{\n            \
             {name}::eval_exclusive{turbofish}({eargs}){checked}\n        }} else {{\n            \
             {name}::eval{turbofish}({eargs}){checked}\n        }};\n        \
             for (&i, v) in row.iter().zip(r) {{"
        );
        if n_out == 1 {
            let _ = writeln!(out, "            e0[i] = Some(v);");
        } else {
            for o in 0..n_out {
                let _ = writeln!(out, "            e{o}[i] = Some(v.{o});");
            }
        }
        let _ = writeln!(out, "        }}\n    }}");
        let v: Vec<String> = (0..n_out)
            .map(|o| {
                format!(
                    "crate::Elem::col(e{o}.into_iter().map(|v| v.expect(\"every element on a line\")).collect())"
                )
            })
            .collect();
        let _ = writeln!(out, "    vec![{}]\n}}", v.join(", "));
    } else {
        for (o, t) in out_tys.iter().enumerate() {
            let _ = writeln!(out, "    let mut e{o}: Vec<{t}> = Vec::new();");
        }
        let _ = writeln!(
            out,
            "    for row in c.rows() {{\n{gather}        let r = {name}::eval{turbofish}({eargs}){checked};"
        );
        if n_out == 1 {
            let _ = writeln!(out, "        e0.push(r);");
        } else {
            for o in 0..n_out {
                let _ = writeln!(out, "        e{o}.push(r.{o});");
            }
        }
        let v: Vec<String> = (0..n_out)
            .map(|o| format!("crate::Elem::col(e{o})"))
            .collect();
        let _ = writeln!(out, "    }}\n    vec![{}]\n}}", v.join(", "));
    }
    stem
}
