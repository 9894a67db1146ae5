//! Chains of kernels fused at run time: [`Fusion`] records calls of existing
//! kernel instantiations (the library's and a user's alike) on tensors,
//! scalars and earlier results, and runs them as one generated kernel.
//!
//! The program is composed from the body functions the instantiations'
//! programs already hold (`NAME (body)` definitions) and one new entry point,
//! built once per chain structure and kept for the process (and on disk, by
//! its text, like every program). Each step keeps its own rounding, so results
//! have the bits of the launches it replaces; values the caller does not ask
//! for stay in registers.

mod graph;
mod host;
mod text;

use graph::Node;
pub use graph::{Fusion, Value};

use std::collections::HashMap;
use std::sync::Mutex;

use silt_abi::opencl::BodyParam;

use crate::dtype::{DType, Scalar};
use crate::error::{Error, Result};
use crate::launch::opencl::launch_opencl;
use crate::launch::plan::{prepare, Arg};
use crate::program::kernel_ref::KernelRef;
use crate::program::text::KernelInfo;
use crate::tensor::Tensor;

impl Fusion {
    /// An empty chain.
    pub fn new() -> Self {
        Fusion::default()
    }

    /// A tensor the chain reads (any view; inputs broadcast together).
    pub fn input(&mut self, t: &Tensor) -> Value {
        self.inputs.push(t.clone());
        self.push(Node::Input(self.inputs.len() - 1))
    }

    /// A scalar argument, for a kernel's `#[scalar]` parameter (of the same
    /// type).
    pub fn scalar(&mut self, s: Scalar) -> Value {
        self.push(Node::Scalar(s))
    }

    /// The element type of a value.
    pub fn dtype(&self, v: Value) -> Option<DType> {
        Some(match self.nodes.get(v.0)? {
            Node::Input(i) => self.inputs.get(*i)?.dtype(),
            Node::Scalar(s) => s.dtype(),
            Node::Call(info, _) => info.body?.output,
        })
    }

    /// Records a call of `kernel` on `args` (one per parameter, in order, the
    /// `#[index]` left out; tensors and results for its values, scalars for
    /// its `#[scalar]`s), of the instantiation whose types the arguments have.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the kernel has no instantiation for
    /// these arguments (their number, kinds or types), or cannot be fused
    /// (`&mut` parameters, several results, a reduction).
    pub fn call(&mut self, kernel: &KernelRef, args: &[Value]) -> Result<Value> {
        // each argument's kind (scalar or not) and type; None for an unknown value
        let kind = |v: &Value| {
            let scalar = matches!(self.nodes.get(v.0)?, Node::Scalar(_));
            Some((scalar, self.dtype(*v)?))
        };
        let fits = |info: &KernelInfo| {
            let Some(body) = info.body else {
                return false;
            };
            let mut given = args.iter();
            for p in body.params {
                let want = match p {
                    BodyParam::Index => continue,
                    BodyParam::Value(d) => (false, *d),
                    BodyParam::Scalar(d) => (true, *d),
                    BodyParam::InOut(_) => return false,
                };
                if given.next().map(kind) != Some(Some(want)) {
                    return false;
                }
            }
            given.next().is_none()
        };
        let Some(info) = kernel.infos().iter().copied().find(|i| fits(i)) else {
            let shown: Vec<String> = args
                .iter()
                .map(|v| match kind(v) {
                    Some((true, d)) => format!("scalar {d}"),
                    Some((false, d)) => format!("{d}"),
                    None => "an unknown value".into(),
                })
                .collect();
            let fusable = kernel.infos().iter().any(|i| i.body.is_some());
            return Err(Error::InvalidArgument {
                op: "Fusion::call",
                reason: if fusable {
                    format!(
                        "kernel `{}` has no instantiation for ({}): tensors and results for its values, scalars of the same type for its `#[scalar]`s",
                        kernel.name(),
                        shown.join(", ")
                    )
                } else {
                    format!(
                        "kernel `{}` cannot be fused: a chain calls map kernels of values and `#[scalar]`s with one result",
                        kernel.name()
                    )
                },
            });
        };
        Ok(self.push(Node::Call(info, args.to_vec())))
    }

    /// Runs the chain as one kernel and returns the values of `outputs` (call
    /// results), each a new contiguous tensor of the inputs' broadcast shape,
    /// on the inputs' device. Calls that no output depends on are not run.
    ///
    /// On an OpenCL device the chain is one launch of a program composed for
    /// it (built on its first run, then kept); on the host each element goes
    /// through the steps' host forms. Either way the results have the bits of
    /// the calls launched one by one.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an output that is not a call's result or
    /// a chain without tensor inputs; [`Error::DeviceMismatch`],
    /// [`Error::ShapeMismatch`]-like errors as for a launch; build and OpenCL
    /// errors.
    pub fn run(&self, outputs: &[Value]) -> Result<Vec<Tensor>> {
        let chain = text::Chain::new(self, outputs)?;
        let args: Vec<Arg<'_>> = chain
            .args
            .iter()
            .map(|a| match a {
                text::ChainArg::Input(i) => Arg::In(&self.inputs[*i]),
                text::ChainArg::Scalar(s) => Arg::Scalar(*s),
            })
            .collect();
        let Some(device) = chain.args.iter().find_map(|a| match a {
            text::ChainArg::Input(i) => Some(self.inputs[*i].device().clone()),
            text::ChainArg::Scalar(_) => None,
        }) else {
            return Err(Error::InvalidArgument {
                op: "Fusion::run",
                reason: "a chain needs a tensor input (its shape and device)".into(),
            });
        };
        if device.is_host() {
            return host::run(self, &chain, &args);
        }
        let info = fused_info(&chain, &self.inputs)?;
        let plan = prepare(info, &args)?;
        let out_dtypes: Vec<DType> = chain.outputs.iter().map(|(_, d)| *d).collect();
        launch_opencl(info, &plan, &args, &out_dtypes)
    }

    /// The OpenCL C program `run(outputs)` launches on an OpenCL device: the
    /// same text (the same object) for every chain of this structure, which is
    /// what the device builds once and the disk cache keeps.
    ///
    /// # Errors
    /// As [`Fusion::run`] before a launch.
    pub fn source(&self, outputs: &[Value]) -> Result<&'static str> {
        let chain = text::Chain::new(self, outputs)?;
        Ok(fused_info(&chain, &self.inputs)?.source())
    }

    fn push(&mut self, n: Node) -> Value {
        self.nodes.push(n);
        Value(self.nodes.len() - 1)
    }
}

/// The fused kernel of a chain's structure: composed and leaked once per
/// structure in the process (a bounded set: one per distinct chain).
fn fused_info(chain: &text::Chain, inputs: &[Tensor]) -> Result<&'static KernelInfo> {
    static FUSED: Mutex<Option<HashMap<Vec<usize>, &'static KernelInfo>>> = Mutex::new(None);
    let mut fused = FUSED.lock().unwrap_or_else(|e| e.into_inner());
    let map = fused.get_or_insert_with(HashMap::new);
    if let Some(info) = map.get(&chain.key) {
        return Ok(info);
    }
    let input_dtypes: Vec<DType> = inputs.iter().map(Tensor::dtype).collect();
    let info = text::compose(chain, &input_dtypes)?;
    map.insert(chain.key.clone(), info);
    Ok(info)
}
