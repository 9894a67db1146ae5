//! A fused chain on the host: each element of the broadcast shape goes
//! through the steps' host forms (`Body::eval`, the kernels' own `eval`), in
//! parallel chunks; inputs are read where they are stored, intermediate
//! values stay on the stack.

use std::sync::{Arc, RwLockReadGuard};

use half::f16;
use rayon::prelude::*;

use crate::dtype::{DType, Scalar};
use crate::error::{Error, Result};
use crate::launch::host::HOST_CHUNK;
use crate::launch::plan::{prepare, Arg};
use crate::storage::{read_lock, HostBytes, Storage};
use crate::tensor::Tensor;

use super::graph::Fusion;
use super::text::{Chain, ChainArg, Source};

/// One input on the host: its storage's bytes (read in place), the strides by
/// which an element of the broadcast shape finds its own (0 where broadcast),
/// its dtype.
type HostInput<'a> = (&'a [u8], Vec<usize>, DType);

/// Runs `chain` on the host.
pub(super) fn run(f: &Fusion, chain: &Chain, args: &[Arg<'_>]) -> Result<Vec<Tensor>> {
    let Some(first) = chain.steps.first() else {
        return Ok(Vec::new());
    };
    let plan = prepare(first.info, args)?;
    let shape = plan.shape().to_vec();
    let len = plan.len();
    // each storage read-locked once for the run (an input given twice, or
    // two views of one storage, share the lock)
    let mut guards: Vec<(*const Storage, RwLockReadGuard<'_, HostBytes>)> = Vec::new();
    let mut views: Vec<Option<(usize, Tensor)>> = Vec::new();
    for a in &chain.args {
        views.push(match a {
            ChainArg::Input(i) => {
                let t = &f.inputs[*i];
                let key = Arc::as_ptr(&t.storage);
                let g = match guards.iter().position(|(k, _)| *k == key) {
                    Some(g) => g,
                    None => {
                        let lock = t.storage.host().ok_or_else(|| Error::NotOnHost {
                            op: "Fusion::run",
                            device: t.device().to_string(),
                        })?;
                        guards.push((key, read_lock(lock)));
                        guards.len() - 1
                    }
                };
                Some((g, t.broadcast_to(&shape)?))
            }
            ChainArg::Scalar(_) => None,
        });
    }
    let inputs: Vec<Option<HostInput<'_>>> = views
        .iter()
        .map(|v| {
            v.as_ref()
                .map(|(g, t)| (guards[*g].1.as_bytes(), t.strides().to_vec(), t.dtype()))
        })
        .collect();
    let offsets: Vec<usize> = views
        .iter()
        .map(|v| v.as_ref().map_or(0, |(_, t)| t.offset()))
        .collect();
    let bodies = chain
        .steps
        .iter()
        .map(|s| s.info.body.ok_or_else(unfusable))
        .collect::<Result<Vec<_>>>()?;
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
            // the element's coordinates and each input's position, stepped
            // from one element to the next (no division per element)
            let mut coord = coordinates(range.start, &shape);
            let mut pos: Vec<usize> = inputs
                .iter()
                .zip(&offsets)
                .map(|(i, o)| i.as_ref().map_or(0, |(_, st, _)| o + dot(&coord, st)))
                .collect();
            for idx in range {
                argv.clear();
                for ((a, input), &k) in chain.args.iter().zip(&inputs).zip(&pos) {
                    argv.push(match (a, input) {
                        (ChainArg::Scalar(s), _) => *s,
                        (ChainArg::Input(_), Some((data, _, d))) => {
                            read(*d, &data[k * d.size()..(k + 1) * d.size()])
                        }
                        (ChainArg::Input(_), None) => Scalar::Bool(false),
                    });
                }
                step_on(&mut coord, &mut pos, &shape, &inputs);
                results.clear();
                for (step, body) in chain.steps.iter().zip(&bodies) {
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
            let mut data: Vec<u8> = Vec::with_capacity(len * d.size());
            for c in &outs {
                data.extend_from_slice(&c[o]);
            }
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

/// The coordinates of element `idx` of `shape` (row-major).
fn coordinates(mut idx: usize, shape: &[usize]) -> Vec<usize> {
    let mut c = vec![0; shape.len()];
    for (d, &n) in shape.iter().enumerate().rev() {
        c[d] = idx % n;
        idx /= n;
    }
    c
}

fn dot(coord: &[usize], strides: &[usize]) -> usize {
    coord.iter().zip(strides).map(|(c, s)| c * s).sum()
}

/// Moves `coord` to the next element of `shape`, and each input's position
/// in `pos` with it.
fn step_on(coord: &mut [usize], pos: &mut [usize], shape: &[usize], inputs: &[Option<HostInput>]) {
    for d in (0..shape.len()).rev() {
        coord[d] += 1;
        let wrap = coord[d] == shape[d];
        for (p, i) in pos.iter_mut().zip(inputs) {
            if let Some((_, st, _)) = i {
                if wrap {
                    *p -= (shape[d] - 1) * st[d];
                } else {
                    *p += st[d];
                }
            }
        }
        if !wrap {
            return;
        }
        coord[d] = 0;
    }
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
