//! A chain's structure, and the program composed for it: the body functions
//! of its steps (and what they use) from their instantiations' programs, and
//! an entry point by the map launch ABI that loads each input once, calls the
//! steps in order and stores the asked-for results.

use std::collections::HashMap;
use std::ffi::CString;
use std::fmt::Write;

use silt_abi::opencl::{
    args_bytes, assemble, declare_map, entry_head, load, map_args, store, strided_indices_3d_flat,
    value_type, BodyParam, Def, MapEntry, Pass, Piece, Signature, View,
};

use crate::dtype::{DType, Scalar};
use crate::error::{Error, Result};
use crate::program::text::{Form, KernelInfo, OpenClKernel, ProgramText};

use super::graph::{Fusion, Node, Value};

/// An argument of the fused kernel.
#[derive(Debug, Clone)]
pub(super) enum ChainArg {
    /// The fusion's `i`-th input tensor.
    Input(usize),
    /// A scalar.
    Scalar(Scalar),
}

/// One call of the chain, on earlier values.
#[derive(Debug)]
pub(super) struct Step {
    pub(super) info: &'static KernelInfo,
    /// Per body parameter: the value it takes (`None` for the `#[index]`).
    pub(super) args: Vec<Option<Source>>,
}

/// Where a step's argument comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Source {
    /// The fused kernel's `i`-th argument.
    Arg(usize),
    /// The `i`-th step's result.
    Step(usize),
}

/// What a run needs: the arguments, the steps, the outputs and the key of
/// the structure (the kernels, the types and how values flow; not the
/// shapes, which the launch handles).
#[derive(Debug)]
pub(super) struct Chain {
    pub(super) args: Vec<ChainArg>,
    pub(super) steps: Vec<Step>,
    /// Each output: the step whose result it is, and its type.
    pub(super) outputs: Vec<(usize, DType)>,
    /// The structure, as numbers: per argument its kind and type, per step
    /// its instantiation (the address of its static description) and where
    /// each of its arguments comes from, per output its step.
    pub(super) key: Vec<usize>,
}

/// `key` tags.
const KEY_INPUT: usize = 0;
const KEY_SCALAR: usize = 1;
const KEY_STEP: usize = 2;
const KEY_OUTPUT: usize = 3;
/// "Not (yet) a value of the chain", in `arg_of`/`step_of`.
const NONE: usize = usize::MAX;

impl Chain {
    pub(super) fn new(f: &Fusion, outputs: &[Value]) -> Result<Chain> {
        let bad = |reason: String| Error::InvalidArgument {
            op: "Fusion::run",
            reason,
        };
        if outputs.is_empty() {
            return Err(bad("name at least one output".into()));
        }
        // the calls the outputs depend on, in recording order
        let mut needed = vec![false; f.nodes.len()];
        let mut stack: Vec<usize> = Vec::new();
        for o in outputs {
            match f.nodes.get(o.0) {
                Some(Node::Call(..)) => stack.push(o.0),
                Some(_) => {
                    return Err(bad(
                        "an output is a call's result (inputs and scalars are already known)"
                            .into(),
                    ))
                }
                None => return Err(bad("an output is not a value of this fusion".into())),
            }
        }
        while let Some(n) = stack.pop() {
            if std::mem::replace(&mut needed[n], true) {
                continue;
            }
            if let Some(Node::Call(_, args)) = f.nodes.get(n) {
                stack.extend(args.iter().map(|a| a.0));
            }
        }
        let mut args = Vec::new();
        // per node: its argument or step number, else NONE
        let mut arg_of = vec![NONE; f.nodes.len()];
        let mut step_of = vec![NONE; f.nodes.len()];
        let mut steps = Vec::new();
        let mut key = Vec::with_capacity(4 * f.nodes.len());
        for (n, node) in f.nodes.iter().enumerate() {
            if !needed[n] {
                continue;
            }
            match node {
                Node::Input(i) => {
                    arg_of[n] = args.len();
                    key.extend([KEY_INPUT, f.inputs[*i].dtype() as usize]);
                    args.push(ChainArg::Input(*i));
                }
                Node::Scalar(s) => {
                    arg_of[n] = args.len();
                    key.extend([KEY_SCALAR, s.dtype() as usize]);
                    args.push(ChainArg::Scalar(*s));
                }
                Node::Call(info, values) => {
                    let Some(body) = info.body else {
                        return Err(bad(format!("{} cannot be fused", info.describe())));
                    };
                    let mut given = values.iter();
                    let mut sources = Vec::new();
                    for p in body.params {
                        if *p == BodyParam::Index {
                            sources.push(None);
                            continue;
                        }
                        let v = given.next().map(|v| v.0).unwrap_or(usize::MAX);
                        let src = match (arg_of.get(v), step_of.get(v)) {
                            (Some(&a), _) if a != NONE => Source::Arg(a),
                            (_, Some(&s)) if s != NONE => Source::Step(s),
                            _ => {
                                return Err(bad("a call's argument is not an earlier value".into()))
                            }
                        };
                        sources.push(Some(src));
                    }
                    // one description per instantiation in the process
                    key.extend([KEY_STEP, std::ptr::from_ref(*info) as usize, sources.len()]);
                    key.extend(sources.iter().map(|s| match s {
                        None => NONE,
                        Some(Source::Arg(a)) => 2 * a,
                        Some(Source::Step(s)) => 2 * s + 1,
                    }));
                    step_of[n] = steps.len();
                    steps.push(Step {
                        info,
                        args: sources,
                    });
                }
            }
        }
        let outputs: Vec<(usize, DType)> = outputs
            .iter()
            .filter_map(|o| {
                let s = *step_of.get(o.0).filter(|&&s| s != NONE)?;
                Some((s, steps[s].info.body?.output))
            })
            .collect();
        for (s, _) in &outputs {
            key.extend([KEY_OUTPUT, *s]);
        }
        Ok(Chain {
            args,
            steps,
            outputs,
            key,
        })
    }

    /// The types of the arguments (inputs' element types, scalars' types).
    fn arg_dtypes(&self, f_inputs: &[DType]) -> Vec<DType> {
        self.args
            .iter()
            .map(|a| match a {
                ChainArg::Input(i) => f_inputs[*i],
                ChainArg::Scalar(s) => s.dtype(),
            })
            .collect()
    }
}

/// The bytes of arguments the chain's entry point takes (without allocating:
/// `Fusion::run` asks on every run).
pub(super) fn entry_bytes(chain: &Chain, strided: bool) -> usize {
    let pass = chain.args.iter().map(|a| match a {
        ChainArg::Input(_) => Pass::Tensor,
        ChainArg::Scalar(_) => Pass::Scalar,
    });
    let scalar = |param: usize| match chain.args.get(param) {
        Some(ChainArg::Scalar(s)) => s.dtype().size(),
        _ => 8,
    };
    args_bytes(map_args(pass, chain.outputs.len(), strided).map(|a| a.bytes(scalar)))
}

/// The program and the description of a chain's fused kernel, leaked: there
/// is one per chain structure in the process, and one more where the strided
/// entry point is left out (`strided` false: for a device that would not take
/// its arguments; the launch then has contiguous inputs only). `flat`: which
/// inputs (in order) the `_strided3` entry reads as broadcast along the
/// launch's innermost dimension (`strided_indices_3d_flat`), a program for
/// each such set that runs.
pub(super) fn compose(
    chain: &Chain,
    input_dtypes: &[DType],
    strided: bool,
    flat: &[bool],
) -> Result<&'static KernelInfo> {
    // every piece but entry points, of every step's program, once
    let mut defined: HashMap<&str, &str> = HashMap::new();
    let mut pieces: Vec<Def<'_>> = Vec::new();
    let mut fp64 = false;
    let mut programs: Vec<&'static ProgramText> = Vec::new();
    for s in &chain.steps {
        let p = s.info.opencl.program;
        if !programs.iter().any(|q| std::ptr::eq(*q, p)) {
            programs.push(p);
        }
    }
    for p in &programs {
        fp64 |= p.fp64;
        for d in p.defs.iter().filter(|d| d.piece != Piece::Entries) {
            match defined.get(d.name) {
                Some(t) if *t == d.text => {}
                Some(_) => {
                    return Err(Error::InvalidArgument {
                        op: "Fusion::run",
                        reason: format!(
                            "two kernels of the chain define `{}` differently (kernels of one name from two modules): call one of them alone",
                            d.name
                        ),
                    })
                }
                None => {
                    defined.insert(d.name, d.text);
                    pieces.push(*d);
                }
            }
        }
    }
    let dtypes = chain.arg_dtypes(input_dtypes);
    let entries: Vec<String> = MapEntry::ALL
        .iter()
        .filter(|form| strided || !form.strided())
        .map(|&form| entry(chain, &dtypes, form, flat))
        .collect();
    let entries = entries.join("\n");
    pieces.push(Def::new(Piece::Entries, "silt_fused", &entries));
    let (source, _) = assemble(
        "silt: a chain of kernels fused at run time; generated, do not edit.",
        fp64,
        &pieces,
    );
    let program: &'static ProgramText =
        Box::leak(Box::new(ProgramText::composed(source, "silt-fused", fp64)));
    let name = |s: &str| -> &'static std::ffi::CStr {
        Box::leak(CString::new(s).unwrap_or_default().into_boxed_c_str())
    };
    let opencl = OpenClKernel::composed(program, name("silt_fused"), name("silt_fused_strided"));
    let opencl = if strided {
        opencl.with_strided3(name("silt_fused_strided3"))
    } else {
        opencl
    };
    let info = KernelInfo::new("fused chain", None, Form::Map, opencl);
    Ok(Box::leak(Box::new(info)))
}

/// One of the entry points (`flat`: as for [`compose`]).
fn entry(chain: &Chain, dtypes: &[DType], form: MapEntry, flat: &[bool]) -> String {
    let strided = form.strided();
    let pass = chain.args.iter().map(|a| match a {
        ChainArg::Input(_) => Pass::Tensor,
        ChainArg::Scalar(_) => Pass::Scalar,
    });
    let names: Vec<String> = (0..chain.args.len()).map(|i| format!("a{i}")).collect();
    let params: Vec<View<'_>> = names
        .iter()
        .zip(dtypes)
        .map(|(n, d)| View::new(n, *d, false))
        .collect();
    let outputs: Vec<DType> = chain.outputs.iter().map(|(_, d)| *d).collect();
    let sig = Signature {
        params: &params,
        acc: &[],
        outputs: &outputs,
    };
    let lines = declare_map(map_args(pass, chain.outputs.len(), strided), &sig);
    let mut s = entry_head(&format!("silt_fused{}", form.suffix()), &lines, None);
    let views: Vec<String> = chain
        .args
        .iter()
        .enumerate()
        .filter(|(_, a)| matches!(a, ChainArg::Input(_)))
        .map(|(i, _)| format!("a{i}"))
        .collect();
    if form == MapEntry::Strided3 {
        s.push_str(&strided_indices_3d_flat(&views, flat));
    } else {
        s.push_str(&form.prologue(&views));
    }
    // each argument read once
    for (i, d) in dtypes.iter().enumerate() {
        let raw = match &chain.args[i] {
            ChainArg::Input(_) if strided => format!("a{i}[silt_i_a{i}]"),
            ChainArg::Input(_) => format!("a{i}[silt_gid]"),
            ChainArg::Scalar(_) => format!("a{i}"),
        };
        let _ = writeln!(s, "    {} silt_v{i} = {};", value_type(*d), load(*d, &raw));
    }
    for (k, step) in chain.steps.iter().enumerate() {
        let Some(body) = step.info.body else { continue };
        let args: Vec<String> = step
            .args
            .iter()
            .map(|a| match a {
                None => "silt_gid".to_owned(),
                Some(Source::Arg(i)) => format!("silt_v{i}"),
                Some(Source::Step(j)) => format!("silt_t{j}"),
            })
            .collect();
        let _ = writeln!(
            s,
            "    {} silt_t{k} = {}({});",
            value_type(body.output),
            body.name,
            args.join(", ")
        );
    }
    for (o, (k, d)) in chain.outputs.iter().enumerate() {
        let _ = writeln!(
            s,
            "    silt_out{o}[silt_gid] = {};",
            store(*d, &format!("silt_t{k}"))
        );
    }
    s.push_str("}\n");
    s
}
