//! A fused chain on the host: each element of the broadcast shape goes
//! through the steps' host forms (`Body::eval`, the kernels' own `eval`), in
//! parallel chunks; intermediate values stay on the stack.

use rayon::prelude::*;

use crate::dtype::{DType, Scalar};
use crate::error::{Error, Result};
use crate::f16;
use crate::launch::host::HOST_CHUNK;
use crate::launch::plan::{prepare, Arg};
use crate::tensor::Tensor;

use super::text::{Chain, ChainArg, Source};
use super::Fusion;

/// One input on the host: its elements' bytes in logical order, the strides
/// by which an element of the broadcast shape finds its own, its dtype.
type HostInput = (Vec<u8>, Vec<usize>, DType);

/// Runs `chain` on the host.
pub(super) fn run(f: &Fusion, chain: &Chain, args: &[Arg<'_>]) -> Result<Vec<Tensor>> {
    let Some(first) = chain.steps.first() else {
        return Ok(Vec::new());
    };
    let plan = prepare(first.info, args)?;
    let shape = plan.shape().to_vec();
    let len = plan.len();
    // each input's elements in logical order, and how an element of the
    // broadcast shape finds its own
    let mut inputs: Vec<Option<HostInput>> = Vec::new();
    for a in &chain.args {
        inputs.push(match a {
            ChainArg::Input(i) => {
                let t = &f.inputs[*i];
                Some((
                    t.to_bytes()?,
                    broadcast_strides(t.shape(), &shape),
                    t.dtype(),
                ))
            }
            ChainArg::Scalar(_) => None,
        });
    }
    let outs: Vec<Vec<Vec<u8>>> = (0..len.div_ceil(HOST_CHUNK))
        .into_par_iter()
        .map(|c| {
            let range = c * HOST_CHUNK..((c + 1) * HOST_CHUNK).min(len);
            let mut bytes: Vec<Vec<u8>> = chain
                .outputs
                .iter()
                .map(|(_, d)| Vec::with_capacity(range.len() * d.size()))
                .collect();
            let mut argv: Vec<Scalar> = Vec::with_capacity(chain.args.len());
            let mut results: Vec<Scalar> = Vec::with_capacity(chain.steps.len());
            let mut call: Vec<Scalar> = Vec::new();
            for idx in range {
                argv.clear();
                for (a, input) in chain.args.iter().zip(&inputs) {
                    argv.push(match (a, input) {
                        (ChainArg::Scalar(s), _) => *s,
                        (ChainArg::Input(_), Some((data, strides, d))) => {
                            let k = element_of(idx, &shape, strides);
                            read(*d, &data[k * d.size()..(k + 1) * d.size()])
                        }
                        (ChainArg::Input(_), None) => Scalar::Bool(false),
                    });
                }
                results.clear();
                for step in &chain.steps {
                    let body = step.info.body.ok_or_else(unfusable)?;
                    call.clear();
                    call.extend(step.args.iter().map(|a| match a {
                        None => Scalar::U64(idx as u64),
                        Some(Source::Arg(i)) => argv[*i],
                        Some(Source::Step(j)) => results[*j],
                    }));
                    results.push((body.eval)(&call).ok_or_else(unfusable)?);
                }
                for ((k, _), out) in chain.outputs.iter().zip(&mut bytes) {
                    write(results[*k], out);
                }
            }
            Ok(bytes)
        })
        .collect::<Result<_>>()?;
    chain
        .outputs
        .iter()
        .enumerate()
        .map(|(o, (_, d))| {
            let data: Vec<u8> = outs.iter().flat_map(|c| c[o].iter().copied()).collect();
            let mut t = Tensor::zeros(&plan_device(args), *d, &shape)?;
            t.with_host_bytes_mut(|b| b.copy_from_slice(&data))?;
            Ok(t)
        })
        .collect()
}

fn unfusable() -> Error {
    Error::InvalidArgument {
        op: "Fusion::run",
        reason: "a step's host form refused its arguments".into(),
    }
}

/// The device of the first tensor argument.
fn plan_device(args: &[Arg<'_>]) -> crate::device::Device {
    args.iter()
        .find_map(|a| match a {
            Arg::In(t) | Arg::InOut(t) => Some(t.device().clone()),
            Arg::Scalar(_) => None,
        })
        .unwrap_or_else(crate::device::Device::host)
}

/// Per dimension of `to` (a broadcast of `from`), the step in `from`'s
/// logical order: 0 where `from` is broadcast.
fn broadcast_strides(from: &[usize], to: &[usize]) -> Vec<usize> {
    let mut strides = vec![0; to.len()];
    let mut step = 1;
    for (k, &n) in from.iter().enumerate().rev() {
        let d = to.len() - (from.len() - k);
        strides[d] = if n == 1 { 0 } else { step };
        step *= n;
    }
    strides
}

/// The logical index in an input of element `idx` of the broadcast shape.
fn element_of(mut idx: usize, shape: &[usize], strides: &[usize]) -> usize {
    let mut k = 0;
    for (d, &n) in shape.iter().enumerate().rev() {
        k += (idx % n) * strides[d];
        idx /= n;
    }
    k
}

/// An element of type `d` from its bytes.
fn read(d: DType, b: &[u8]) -> Scalar {
    let arr = |n: usize| -> [u8; 8] {
        let mut a = [0; 8];
        a[..n].copy_from_slice(&b[..n]);
        a
    };
    let a = arr(d.size());
    match d {
        DType::Bool => Scalar::Bool(a[0] != 0),
        DType::U8 => Scalar::U8(a[0]),
        DType::I8 => Scalar::I8(i8::from_ne_bytes([a[0]])),
        DType::U16 => Scalar::U16(u16::from_ne_bytes([a[0], a[1]])),
        DType::I16 => Scalar::I16(i16::from_ne_bytes([a[0], a[1]])),
        DType::F16 => Scalar::F16(f16::from_ne_bytes([a[0], a[1]])),
        DType::U32 => Scalar::U32(u32::from_ne_bytes([a[0], a[1], a[2], a[3]])),
        DType::I32 => Scalar::I32(i32::from_ne_bytes([a[0], a[1], a[2], a[3]])),
        DType::F32 => Scalar::F32(f32::from_ne_bytes([a[0], a[1], a[2], a[3]])),
        DType::U64 => Scalar::U64(u64::from_ne_bytes(a)),
        DType::I64 => Scalar::I64(i64::from_ne_bytes(a)),
        DType::F64 => Scalar::F64(f64::from_ne_bytes(a)),
    }
}

/// Appends a value's bytes.
fn write(s: Scalar, out: &mut Vec<u8>) {
    match s {
        Scalar::Bool(v) => out.push(u8::from(v)),
        Scalar::U8(v) => out.push(v),
        Scalar::I8(v) => out.extend(v.to_ne_bytes()),
        Scalar::U16(v) => out.extend(v.to_ne_bytes()),
        Scalar::I16(v) => out.extend(v.to_ne_bytes()),
        Scalar::F16(v) => out.extend(v.to_ne_bytes()),
        Scalar::U32(v) => out.extend(v.to_ne_bytes()),
        Scalar::I32(v) => out.extend(v.to_ne_bytes()),
        Scalar::F32(v) => out.extend(v.to_ne_bytes()),
        Scalar::U64(v) => out.extend(v.to_ne_bytes()),
        Scalar::I64(v) => out.extend(v.to_ne_bytes()),
        Scalar::F64(v) => out.extend(v.to_ne_bytes()),
    }
}
