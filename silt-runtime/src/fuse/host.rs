//! A fused chain on the host: the elements of the broadcast shape go through
//! the steps' host forms (the kernels' own `eval`) a block at a time, in
//! parallel chunks; inputs are read where they are stored, intermediate
//! values stay in a block's buffers (in the cache), never in a tensor.

use std::sync::Arc;

use rayon::prelude::*;

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::launch::host::HOST_CHUNK;
use crate::launch::plan::{prepare, Arg};
use crate::layout::byte_len;
use crate::program::text::ChunkArg;
use crate::storage::{read_lock, ReadGuard, Storage};
use crate::tensor::Tensor;

use super::graph::Fusion;
use super::text::{Chain, ChainArg, Source};

/// One input on the host: its storage's bytes (read in place), the strides by
/// which an element of the broadcast shape finds its own (0 where broadcast),
/// its dtype.
type HostInput<'a> = (&'a [u8], Vec<usize>, DType);

/// Elements per block: each step runs over a block of values that stays in
/// the cache.
const BLOCK: usize = 1024;

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
    let mut guards: Vec<(*const Storage, ReadGuard<'_>)> = Vec::new();
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
                        guards.push((key, read_lock(lock)?));
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
    // the outputs first (their size checked and their storage allocated
    // before anything is computed), each chunk writing its part in place
    let device = plan_device(args);
    let mut made: Vec<Tensor> = chain
        .outputs
        .iter()
        .map(|(_, d)| {
            crate::layout::check_dims(shape.len())?;
            let storage = Storage::for_overwrite(&device, byte_len(&shape, d.size())?)?;
            Tensor::new(storage, &shape, *d)
        })
        .collect::<Result<_>>()?;
    let mut parts: Vec<std::slice::ChunksMut<'_, u8>> = Vec::with_capacity(made.len());
    for (t, (_, d)) in made.iter_mut().zip(&chain.outputs) {
        let bytes = Arc::get_mut(&mut t.storage)
            .and_then(Storage::host_mut)
            .ok_or_else(|| Error::internal("a fresh host output shared or not on the host"))?;
        parts.push(bytes.as_bytes_mut().chunks_mut(HOST_CHUNK * d.size()));
    }
    let chunks: Vec<Vec<&mut [u8]>> = (0..len.div_ceil(HOST_CHUNK))
        .map(|_| {
            parts
                .iter_mut()
                .map(|p| p.next().unwrap_or_default())
                .collect()
        })
        .collect();
    chunks
        .into_par_iter()
        .enumerate()
        .try_for_each(|(c, mut bytes)| -> Result<()> {
            let range = c * HOST_CHUNK..((c + 1) * HOST_CHUNK).min(len);
            // a block's input values and step results, 8-byte aligned
            let block = |size: usize| vec![0u64; (BLOCK * size).div_ceil(8)];
            let mut ins: Vec<Vec<u64>> = inputs
                .iter()
                .map(|i| {
                    i.as_ref()
                        .map_or_else(Vec::new, |(_, _, d)| block(d.size()))
                })
                .collect();
            let mut results: Vec<Vec<u64>> =
                bodies.iter().map(|b| block(b.output.size())).collect();
            // the element's coordinates and each input's position, stepped
            // from one element to the next (no division per element)
            let mut coord = coordinates(range.start, &shape);
            let mut pos: Vec<usize> = inputs
                .iter()
                .zip(&offsets)
                .map(|(i, o)| i.as_ref().map_or(0, |(_, st, _)| o + dot(&coord, st)))
                .collect();
            let mut start = range.start;
            while start < range.end {
                let m = BLOCK.min(range.end - start);
                // gathered a run along the last axis at a time: a copy where
                // the input is contiguous there, a repeat where broadcast
                let mut e = 0;
                while e < m {
                    let run = shape
                        .last()
                        .map_or(1, |&n| (n - coord[shape.len() - 1]).min(m - e));
                    for ((input, buf), &k) in inputs.iter().zip(&mut ins).zip(&pos) {
                        if let Some((data, st, d)) = input {
                            let size = d.size();
                            let dst = &mut bytemuck::cast_slice_mut::<u64, u8>(buf)
                                [e * size..(e + run) * size];
                            match st.last() {
                                Some(1) => {
                                    dst.copy_from_slice(&data[k * size..(k + run) * size]);
                                }
                                Some(0) => {
                                    let v = &data[k * size..(k + 1) * size];
                                    for c in dst.chunks_exact_mut(size) {
                                        c.copy_from_slice(v);
                                    }
                                }
                                step => {
                                    let step = step.copied().unwrap_or(0);
                                    for (j, c) in dst.chunks_exact_mut(size).enumerate() {
                                        let at = k + j * step;
                                        c.copy_from_slice(&data[at * size..(at + 1) * size]);
                                    }
                                }
                            }
                            if *d == DType::Bool {
                                for b in dst.iter_mut() {
                                    *b = u8::from(*b != 0);
                                }
                            }
                        }
                    }
                    // to the run's last element, then one step on
                    if let Some(last) = shape.len().checked_sub(1) {
                        coord[last] += run - 1;
                        for (p, i) in pos.iter_mut().zip(&inputs) {
                            if let Some((_, st, _)) = i {
                                *p += (run - 1) * st[last];
                            }
                        }
                    }
                    step_on(&mut coord, &mut pos, &shape, &inputs);
                    e += run;
                }
                for (k, (step, body)) in chain.steps.iter().zip(&bodies).enumerate() {
                    let (done, rest) = results.split_at_mut(k);
                    let args: Vec<ChunkArg<'_>> = step
                        .args
                        .iter()
                        .map(|a| match a {
                            None => ChunkArg::Index(start as u64),
                            Some(Source::Arg(i)) => match (&chain.args[*i], &inputs[*i]) {
                                (ChainArg::Input(_), Some((_, _, d))) => ChunkArg::Values(
                                    &bytemuck::cast_slice::<u64, u8>(&ins[*i])[..m * d.size()],
                                ),
                                (ChainArg::Scalar(s), _) => ChunkArg::Scalar(*s),
                                (ChainArg::Input(_), None) => ChunkArg::Index(0),
                            },
                            Some(Source::Step(j)) => ChunkArg::Values(
                                &bytemuck::cast_slice::<u64, u8>(&done[*j])
                                    [..m * bodies[*j].output.size()],
                            ),
                        })
                        .collect();
                    let out = &mut bytemuck::cast_slice_mut::<u64, u8>(&mut rest[0])
                        [..m * body.output.size()];
                    (body.chunk)(&args, out).ok_or_else(unfusable)?;
                }
                let at = start - range.start;
                for ((k, d), out) in chain.outputs.iter().zip(bytes.iter_mut()) {
                    let size = d.size();
                    out[at * size..(at + m) * size].copy_from_slice(
                        &bytemuck::cast_slice::<u64, u8>(&results[*k])[..m * size],
                    );
                }
                start += m;
            }
            Ok(())
        })?;
    Ok(made)
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
