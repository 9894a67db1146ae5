//! Chains of kernels fused at run time: [`Fusion`] records calls of existing
//! kernel instantiations (the library's and a user's alike) on tensors,
//! scalars and earlier results, and runs them as one generated kernel.
//!
//! The program is composed from the body functions the instantiations'
//! programs already hold (their `Piece::Body` pieces) and one new entry point,
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

use crate::device::hooks::max_parameter_bytes;
use crate::dtype::{DType, Scalar};
use crate::error::{Error, Result};
use crate::launch::opencl::{innermost_broadcasts, launch_opencl};
use crate::launch::plan::{prepare, Arg};
use crate::layout::{broadcast_shapes, Dims};
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
            // the argument counts of its instantiations (the `#[index]` left out)
            let counts: Vec<usize> = kernel
                .infos()
                .iter()
                .filter_map(|i| i.body)
                .map(|b| {
                    b.params
                        .iter()
                        .filter(|p| !matches!(p, BodyParam::Index))
                        .count()
                })
                .collect();
            return Err(Error::InvalidArgument {
                op: "Fusion::call",
                reason: if fusable && !counts.contains(&args.len()) {
                    format!(
                        "kernel `{}` takes {} arguments (its values and `#[scalar]`s), not {}",
                        kernel.name(),
                        counts.first().copied().unwrap_or_default(),
                        args.len()
                    )
                } else if fusable {
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
    /// A device caps the bytes of arguments a kernel takes
    /// ([`DeviceInfo::max_parameter_bytes`](crate::DeviceInfo::max_parameter_bytes):
    /// 4,352 on NVIDIA, 1,024 reported by PoCL). The fused kernel's strided
    /// entry point takes 144 bytes an input, its contiguous one 16. A chain
    /// too wide for the strided entry (about 6 inputs on PoCL, 29 on NVIDIA)
    /// is composed without it and launched on contiguous copies of its view
    /// and broadcast inputs when that copies fewer tensors than the chain has
    /// intermediate values (a chain of contiguous tensors copies none), else
    /// runs as its separate launches, each over the chain's shape. The results
    /// are the same.
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
        let out_dtypes: Vec<DType> = chain.outputs.iter().map(|(_, d)| *d).collect();
        // a program with an entry point whose arguments the device would not
        // take does not build there
        let limit = max_parameter_bytes(&device);
        let strided_bytes = text::entry_bytes(&chain, true);
        if strided_bytes <= limit {
            let info = fused_info(&chain, &self.inputs, true, &[])?;
            let plan = prepare(info, &args)?;
            // inputs broadcast along the innermost dimension (one element, a
            // column) read by an entry that knows it: twice as fast on PoCL
            let flat = innermost_broadcasts(&plan, &args);
            let info = if flat.is_empty() {
                info
            } else {
                fused_info(&chain, &self.inputs, true, &flat)?
            };
            return launch_opencl(info, &plan, &args, &out_dtypes);
        }
        // the contiguous entry alone, on contiguous copies of the inputs that
        // are views or broadcasts, where the copies write fewer tensors than
        // the separate launches would (a copy writes and reads as much as an
        // intermediate value; on PoCL, copying 8 transposed 1024x1024 views
        // made the chain 2x slower than its separate launches)
        let shape = self.chain_shape(&chain)?;
        let direct = |t: &Tensor| t.is_contiguous() && t.shape() == &*shape;
        let to_copy = chain
            .args
            .iter()
            .filter(|a| matches!(a, text::ChainArg::Input(i) if !direct(&self.inputs[*i])))
            .count();
        let intermediates = chain.steps.len().saturating_sub(chain.outputs.len());
        let contiguous_bytes = text::entry_bytes(&chain, false);
        if contiguous_bytes > limit || to_copy >= intermediates.max(1) {
            tracing::debug!(target: "silt::fusion", strided_bytes, contiguous_bytes, limit,
                to_copy, intermediates, "a chain too wide for the device: its separate launches");
            return self.run_steps(&chain);
        }
        tracing::debug!(target: "silt::fusion", strided_bytes, limit, to_copy,
            "a chain too wide for the device's strided entry: the contiguous one on copies");
        let mut copies: Vec<Option<Tensor>> = Vec::with_capacity(chain.args.len());
        for a in &chain.args {
            copies.push(match a {
                text::ChainArg::Input(i) if !direct(&self.inputs[*i]) => {
                    Some(self.inputs[*i].broadcast_to(&*shape)?.contiguous()?)
                }
                _ => None,
            });
        }
        let args: Vec<Arg<'_>> = args
            .iter()
            .zip(&copies)
            .map(|(a, c)| c.as_ref().map_or_else(|| a.clone(), Arg::In))
            .collect();
        let info = fused_info(&chain, &self.inputs, false, &[])?;
        let plan = prepare(info, &args)?;
        launch_opencl(info, &plan, &args, &out_dtypes)
    }

    /// The shape of a chain's run: the broadcast of its inputs'.
    fn chain_shape(&self, chain: &text::Chain) -> Result<Dims> {
        let mut shape: Option<Dims> = None;
        for a in &chain.args {
            let text::ChainArg::Input(i) = a else {
                continue;
            };
            let t = &self.inputs[*i];
            shape = Some(match shape {
                None => Dims::new(t.shape())?,
                Some(s) => broadcast_shapes(&s, t.shape()).ok_or_else(|| Error::ShapeMismatch {
                    op: "fused chain",
                    left: s.to_vec(),
                    right: t.shape().to_vec(),
                })?,
            });
        }
        shape.ok_or_else(|| Error::InvalidArgument {
            op: "Fusion::run",
            reason: "a chain needs a tensor input (its shape and device)".into(),
        })
    }

    /// The chain as its separate launches, for a device that does not take as
    /// many bytes of kernel arguments as the fused kernel needs: each step
    /// launched over the chain's shape (its inputs broadcast to it), so that an
    /// `#[index]` counts the elements the fused kernel's would.
    fn run_steps(&self, chain: &text::Chain) -> Result<Vec<Tensor>> {
        let inconsistent = || Error::InvalidArgument {
            op: "Fusion::run",
            reason: "the chain refers to a value it does not compute".into(),
        };
        let shape = self.chain_shape(chain)?;
        let mut results: Vec<Option<Tensor>> = (0..chain.steps.len()).map(|_| None).collect();
        for (k, step) in chain.steps.iter().enumerate() {
            let body = step.info.body.ok_or_else(inconsistent)?;
            // the step's tensor inputs, broadcast to the chain's shape
            let mut views = Vec::new();
            for a in step.args.iter().flatten() {
                if let text::Source::Arg(i) = a {
                    if let Some(text::ChainArg::Input(j)) = chain.args.get(*i) {
                        let t = self.inputs.get(*j).ok_or_else(inconsistent)?;
                        views.push(t.broadcast_to(&*shape)?);
                    }
                }
            }
            let mut views = views.iter();
            let mut args = Vec::with_capacity(step.args.len());
            for a in step.args.iter().flatten() {
                args.push(match a {
                    text::Source::Arg(i) => match chain.args.get(*i) {
                        Some(text::ChainArg::Input(_)) => {
                            Arg::In(views.next().ok_or_else(inconsistent)?)
                        }
                        Some(text::ChainArg::Scalar(s)) => Arg::Scalar(*s),
                        None => return Err(inconsistent()),
                    },
                    text::Source::Step(j) => Arg::In(
                        results
                            .get(*j)
                            .and_then(Option::as_ref)
                            .ok_or_else(inconsistent)?,
                    ),
                });
            }
            let plan = prepare(step.info, &args)?;
            let out = launch_opencl(step.info, &plan, &args, &[body.output])?.pop();
            results[k] = Some(out.ok_or_else(inconsistent)?);
        }
        let mut outputs: Vec<Tensor> = Vec::with_capacity(chain.outputs.len());
        for (n, (k, _)) in chain.outputs.iter().enumerate() {
            let r = results
                .get(*k)
                .and_then(Option::as_ref)
                .ok_or_else(inconsistent)?;
            // an output asked for twice is two tensors, as from the fused kernel
            let again = chain.outputs[..n].iter().any(|(j, _)| j == k);
            outputs.push(if again { r.deep_copy()? } else { r.clone() });
        }
        Ok(outputs)
    }

    /// The OpenCL C program `run(outputs)` launches on an OpenCL device: the
    /// same text (the same object) for every chain of this structure, which is
    /// what the device builds once and the disk cache keeps. Where inputs are
    /// broadcast along the launch's innermost dimension (one element, a
    /// column) and the launch takes the `_strided3` entry, `run` launches a
    /// program of its own for them, whose `_strided3` entry leaves that
    /// dimension out of their indices (twice as fast on PoCL); this is the
    /// program for the other inputs.
    ///
    /// # Errors
    /// As [`Fusion::run`] before a launch.
    pub fn source(&self, outputs: &[Value]) -> Result<&'static str> {
        let chain = text::Chain::new(self, outputs)?;
        Ok(fused_info(&chain, &self.inputs, true, &[])?.source())
    }

    fn push(&mut self, n: Node) -> Value {
        self.nodes.push(n);
        Value(self.nodes.len() - 1)
    }
}

/// The fused kernel of a chain's structure: composed and leaked once per
/// structure in the process (a bounded set: one per distinct chain).
/// `strided`: with the strided entry point, `flat`: the inputs its
/// `_strided3` entry reads as broadcast along the innermost dimension (see
/// [`text::compose`]).
fn fused_info(
    chain: &text::Chain,
    inputs: &[Tensor],
    strided: bool,
    flat: &[bool],
) -> Result<&'static KernelInfo> {
    type Composed = Option<HashMap<Vec<usize>, &'static KernelInfo>>;
    // [without the strided entry, with it, with it and flat inputs]
    static FUSED: Mutex<[Composed; 3]> = Mutex::new([None, None, None]);
    let mut fused = FUSED.lock().unwrap_or_else(|e| e.into_inner());
    let which = if flat.is_empty() {
        usize::from(strided)
    } else {
        2
    };
    let map = fused[which].get_or_insert_with(HashMap::new);
    // the flat inputs' set after the structure (a separator no structure
    // holds, then a bit each)
    let key = |k: &[usize]| -> Vec<usize> {
        let mut k = k.to_vec();
        if !flat.is_empty() {
            k.push(usize::MAX);
            k.extend(flat.iter().map(|&f| usize::from(f)));
        }
        k
    };
    if flat.is_empty() {
        if let Some(info) = map.get(&chain.key) {
            return Ok(info);
        }
    } else if let Some(info) = map.get(&key(&chain.key)) {
        return Ok(info);
    }
    let input_dtypes: Vec<DType> = inputs.iter().map(Tensor::dtype).collect();
    let info = text::compose(chain, &input_dtypes, strided, flat)?;
    map.insert(key(&chain.key), info);
    Ok(info)
}
