//! The wrappers `tests/random.rs` runs a generated kernel through: for each
//! instantiation, its inputs (`_inputs`), a launch on a device, by `launch` or
//! `dispatch` (`_launch`), and `eval` element by element (`_eval`); and the
//! kernel's entry of `KERNELS`.
//!
//! The wrappers name arguments by position (`x0`, `x1`, ...), so that a
//! parameter may have any name the generator gives it.

use std::fmt::Write as _;

use silt_abi::DType;
use silt_kernel_gen::{Kernel, ParamKind, Ty};

/// Writes the wrappers of every instantiation of `k` to `out`; returns its
/// `crate::Kernel` entry.
pub fn write(k: &Kernel, out: &mut String) -> String {
    let insts: Vec<Option<DType>> = if k.types.is_empty() {
        vec![None]
    } else {
        k.types.iter().copied().map(Some).collect()
    };
    let mut inst_entries = Vec::new();
    for inst in insts {
        let f = instantiation(k, inst, out);
        let names: Vec<String> = k.checks.iter().map(|c| format!("{:?}", c.output)).collect();
        let classes: Vec<String> = k
            .checks
            .iter()
            .map(|c| match c.ulps_for(c.ty.at(inst)) {
                0 => "crate::Class::Exact".to_string(),
                u => format!("crate::Class::Ulps({u})"),
            })
            .collect();
        inst_entries.push(format!(
            "crate::Inst {{ ty: {:?}, outputs: &[{}], classes: &[{}], inputs: {f}_inputs, \
             launch: {f}_launch, eval: {f}_eval }}",
            inst.map_or("-", DType::name),
            names.join(", "),
            classes.join(", ")
        ));
    }
    format!(
        "crate::Kernel {{ name: {:?}, source: {:?}, insts: &[\n        {}\n    ] }}",
        k.name,
        k.to_string(),
        inst_entries.join(",\n        ")
    )
}

/// The wrappers of one instantiation; returns their common name stem.
fn instantiation(k: &Kernel, inst: Option<DType>, out: &mut String) -> String {
    let stem = format!("{}_{}", k.name, inst.map_or("kernel", DType::name));
    let turbofish = inst.map_or(String::new(), |t| format!("::<{}>", t.name()));
    let ty = |t: Ty| t.at(inst).name();
    let x = |i: usize| format!("x{i}");
    let inouts = || {
        k.params
            .iter()
            .enumerate()
            .filter(|(_, p)| p.kind == ParamKind::InOut)
    };

    // inputs, by parameter name
    let _ = writeln!(
        out,
        "fn {stem}_inputs(inp: &crate::Inputs) -> Vec<(&'static str, crate::Col)> {{\n    vec!["
    );
    for (i, p) in k.params.iter().enumerate() {
        let t = ty(p.ty);
        match p.kind {
            ParamKind::Input | ParamKind::InOut => {
                let _ = writeln!(
                    out,
                    "        ({:?}, crate::Elem::col(inp.col::<{t}>({i}))),",
                    p.name
                );
            }
            ParamKind::Scalar => {
                let _ = writeln!(
                    out,
                    "        ({:?}, crate::one(inp.scalar::<{t}>({i}))),",
                    p.name
                );
            }
            ParamKind::Index => {}
        }
    }
    let _ = writeln!(out, "    ]\n}}");

    // launch, typed or through `dispatch` on untyped tensors
    let _ = writeln!(
        out,
        "fn {stem}_launch(dev: &::silt::Device, inp: &crate::Inputs, via_dispatch: bool) \
         -> ::silt::Result<Vec<crate::Col>> {{"
    );
    let (mut args, mut dargs) = (Vec::new(), Vec::new());
    for (i, p) in k.params.iter().enumerate() {
        let (t, v) = (ty(p.ty), x(i));
        match p.kind {
            ParamKind::Input => {
                let _ = writeln!(
                    out,
                    "    let {v} = crate::tensor(dev, &inp.col::<{t}>({i}))?;"
                );
                args.push(format!("&{v}"));
                dargs.push(format!("&::silt::Tensor::from({v}.clone())"));
            }
            ParamKind::InOut => {
                let _ = writeln!(
                    out,
                    "    let mut {v} = crate::tensor(dev, &inp.col::<{t}>({i}))?;"
                );
                args.push(format!("&mut {v}"));
                dargs.push(format!("&mut d_{v}"));
            }
            ParamKind::Scalar => {
                let _ = writeln!(out, "    let {v} = inp.scalar::<{t}>({i});");
                args.push(v.clone());
                dargs.push(v);
            }
            ParamKind::Index => {}
        }
    }
    let _ = writeln!(out, "    if via_dispatch {{");
    for (i, _) in inouts() {
        let v = x(i);
        let _ = writeln!(
            out,
            "        let mut d_{v}: ::silt::Tensor = {v}.clone().into();"
        );
    }
    let _ = writeln!(
        out,
        "        let r = {}::dispatch({})?;",
        k.name,
        dargs.join(", ")
    );
    let mut dcols = Vec::new();
    match k.outputs.as_slice() {
        [] => {
            let _ = writeln!(out, "        let () = r;");
        }
        [t] => dcols.push(format!("crate::out_any::<{}>(&r)?", ty(*t))),
        many => {
            for (i, t) in many.iter().enumerate() {
                dcols.push(format!("crate::out_any::<{}>(&r.{i})?", ty(*t)));
            }
        }
    }
    for (i, p) in inouts() {
        dcols.push(format!("crate::out_any::<{}>(&d_{})?", ty(p.ty), x(i)));
    }
    let _ = writeln!(
        out,
        "        return Ok(vec![{}]);\n    }}",
        dcols.join(", ")
    );
    let _ = writeln!(
        out,
        "    let r = {}::launch{turbofish}({})?;",
        k.name,
        args.join(", ")
    );
    let mut cols = Vec::new();
    match k.outputs.len() {
        0 => {
            let _ = writeln!(out, "    let () = r;");
        }
        1 => cols.push("crate::out(&r)?".to_string()),
        n => cols.extend((0..n).map(|i| format!("crate::out(&r.{i})?"))),
    }
    for (i, _) in inouts() {
        cols.push(format!("crate::out(&{})?", x(i)));
    }
    let _ = writeln!(out, "    Ok(vec![{}])\n}}", cols.join(", "));

    // eval on the first `n` elements
    let _ = writeln!(
        out,
        "fn {stem}_eval(inp: &crate::Inputs, n: usize) -> Vec<crate::Col> {{"
    );
    let mut eargs = Vec::new();
    for (i, p) in k.params.iter().enumerate() {
        let (t, v) = (ty(p.ty), x(i));
        match p.kind {
            ParamKind::Input => {
                let _ = writeln!(out, "    let {v} = inp.col::<{t}>({i});");
                eargs.push(format!("{v}[i]"));
            }
            ParamKind::InOut => {
                let _ = writeln!(
                    out,
                    "    let mut {v} = inp.col::<{t}>({i}); {v}.truncate(n);"
                );
                eargs.push(format!("&mut {v}[i]"));
            }
            ParamKind::Scalar => {
                let _ = writeln!(out, "    let {v} = inp.scalar::<{t}>({i});");
                eargs.push(v);
            }
            ParamKind::Index => eargs.push("i as u64".into()),
        }
    }
    for (i, t) in k.outputs.iter().enumerate() {
        let _ = writeln!(out, "    let mut e{i}: Vec<{}> = Vec::new();", ty(*t));
    }
    let _ = writeln!(out, "    for i in 0..n {{");
    let call = format!("{}::eval{turbofish}({})", k.name, eargs.join(", "));
    match k.outputs.len() {
        0 => {
            let _ = writeln!(out, "        {call};");
        }
        1 => {
            let _ = writeln!(out, "        e0.push({call});");
        }
        n => {
            let _ = writeln!(out, "        let r = {call};");
            for i in 0..n {
                let _ = writeln!(out, "        e{i}.push(r.{i});");
            }
        }
    }
    let _ = writeln!(out, "    }}");
    let mut ecols: Vec<String> = (0..k.outputs.len())
        .map(|i| format!("crate::Elem::col(e{i})"))
        .collect();
    for (i, _) in inouts() {
        ecols.push(format!("crate::Elem::col({})", x(i)));
    }
    let _ = writeln!(out, "    vec![{}]\n}}", ecols.join(", "));
    stem
}
