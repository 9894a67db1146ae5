//! Run-time fusion under a lazy tensor type, as a framework on top of silt
//! would write it: `(x * w + b).relu()` builds an expression, `eval` records it
//! in a [`silt::Fusion`] and runs it as one launch. The result is checked bit
//! for bit against the three separate launches, on the host and on the OpenCL
//! device, and both are timed.
//!
//! `cargo run --release -p silt-kernels --example fusion`

use std::ops::{Add, Mul};
use std::rc::Rc;
use std::time::Instant;

use silt::fusion::{Fusion, Value};
use silt::prelude::*;
use silt::KernelRef;
use silt_kernels as k;

/// A tensor expression, evaluated on demand.
#[derive(Clone)]
struct Lazy(Rc<Node>);

enum Node {
    Leaf(Box<Tensor>),
    Call(&'static KernelRef, Vec<Lazy>),
}

impl Lazy {
    fn new(t: &Tensor) -> Self {
        Lazy(Rc::new(Node::Leaf(Box::new(t.clone()))))
    }

    fn call(kernel: &'static KernelRef, args: Vec<Lazy>) -> Self {
        Lazy(Rc::new(Node::Call(kernel, args)))
    }

    fn relu(&self) -> Self {
        Lazy::call(&k::relu::KERNEL, vec![self.clone()])
    }

    /// Records the expression (each shared node once) and runs it.
    fn eval(&self) -> silt::Result<Tensor> {
        fn record(
            e: &Lazy,
            f: &mut Fusion,
            seen: &mut Vec<(*const Node, Value)>,
        ) -> silt::Result<Value> {
            let key = Rc::as_ptr(&e.0);
            if let Some(&(_, v)) = seen.iter().find(|(p, _)| *p == key) {
                return Ok(v);
            }
            let v = match &*e.0 {
                Node::Leaf(t) => f.input(t),
                Node::Call(kernel, args) => {
                    let args = args
                        .iter()
                        .map(|a| record(a, f, seen))
                        .collect::<silt::Result<Vec<_>>>()?;
                    f.call(kernel, &args)?
                }
            };
            seen.push((key, v));
            Ok(v)
        }
        let mut f = Fusion::new();
        let out = record(self, &mut f, &mut Vec::new())?;
        Ok(f.run(&[out])?.remove(0))
    }
}

impl Mul for &Lazy {
    type Output = Lazy;
    fn mul(self, rhs: &Lazy) -> Lazy {
        Lazy::call(&k::mul::KERNEL, vec![self.clone(), rhs.clone()])
    }
}

impl Add for Lazy {
    type Output = Lazy;
    fn add(self, rhs: Lazy) -> Lazy {
        Lazy::call(&k::add::KERNEL, vec![self, rhs])
    }
}

fn bits(t: &Tensor) -> silt::Result<Vec<u32>> {
    Ok(t.to_vec::<f32>()?.iter().map(|v| v.to_bits()).collect())
}

fn main() -> silt::Result<()> {
    let (rows, cols) = (2048, 2048);
    let data = |seed: usize, n: usize| -> Vec<f32> {
        (0..n)
            .map(|i| ((i * 7919 + seed) % 2000) as f32 / 100.0 - 10.0)
            .collect()
    };
    let mut devices = vec![Device::host()];
    devices.extend(Device::opencl(0));
    for dev in &devices {
        let x = TensorT::from_slice(dev, &data(1, rows * cols), [rows, cols])?;
        let w = TensorT::from_slice(dev, &data(2, rows * cols), [rows, cols])?;
        let b = TensorT::from_slice(dev, &data(3, cols), [cols])?; // a broadcast row

        let expr = (&Lazy::new(x.as_tensor()) * &Lazy::new(w.as_tensor())
            + Lazy::new(b.as_tensor()))
        .relu();
        let fused = expr.eval()?; // compose and build once
        let separate = k::relu::launch(&k::add::launch(&k::mul::launch(&x, &w)?, &b)?)?;
        assert_eq!(bits(&fused)?, bits(separate.as_tensor())?);

        let time = |f: &mut dyn FnMut() -> silt::Result<()>| -> silt::Result<f64> {
            let mut best = f64::INFINITY;
            for _ in 0..5 {
                let t = Instant::now();
                f()?;
                dev.synchronize()?;
                best = best.min(t.elapsed().as_secs_f64() * 1e3);
            }
            Ok(best)
        };
        let one = time(&mut || expr.eval().map(drop))?;
        let three = time(&mut || {
            let m = k::mul::launch(&x, &w)?;
            let s = k::add::launch(&m, &b)?;
            k::relu::launch(&s).map(drop)
        })?;
        println!(
            "{dev}: relu(x * w + b) over [{rows}, {cols}] f32: fused {one:.2} ms, \
             three launches {three:.2} ms ({:.2}x), same bits",
            three / one
        );
    }
    Ok(())
}
