//! The fusion section of the bench report: chains of memory-bound operations
//! run as separate launches, as one kernel composed at compile time (a
//! `#[kernel]` calling library kernels), and fused at run time
//! ([`silt::Fusion`]); the build time of a new fused program, cold and warm;
//! a chain too wide for the device's argument cap, each way it can run; the
//! per-launch cost of a repeated fused chain over the composed kernel.

use std::process::Command;
use std::time::{Duration, Instant};

use silt::prelude::*;
use silt::Fusion;
use silt_kernels as k;

use super::median;

/// `neg`, `abs`, `relu` composed at compile time: one launch.
#[kernel(types = [f32])]
fn neg_abs_relu<T>(x: T) -> T {
    silt_kernels::relu(silt_kernels::abs(silt_kernels::neg(x)))
}

/// `relu(a * b + c)` composed at compile time: one launch.
#[kernel(types = [f32])]
fn mul_add_relu<T>(a: T, b: T, c: T) -> T {
    silt_kernels::relu(silt_kernels::add(silt_kernels::mul(a, b), c))
}

fn values(n: usize, seed: usize) -> Vec<f32> {
    (0..n)
        .map(|i| ((i * 7 + seed) % 1000) as f32 / 100.0 - 5.0)
        .collect()
}

/// `neg`, `abs`, `relu` recorded on `x`.
fn unary_chain(x: &Tensor) -> (Fusion, silt::fusion::Value) {
    let mut f = Fusion::new();
    let v = f.input(x);
    let a = f.call(&k::neg::KERNEL, &[v]).unwrap();
    let b = f.call(&k::abs::KERNEL, &[a]).unwrap();
    let c = f.call(&k::relu::KERNEL, &[b]).unwrap();
    (f, c)
}

/// `relu(a * b + c)` recorded.
fn ternary_chain(a: &Tensor, b: &Tensor, c: &Tensor) -> (Fusion, silt::fusion::Value) {
    let mut f = Fusion::new();
    let (av, bv, cv) = (f.input(a), f.input(b), f.input(c));
    let m = f.call(&k::mul::KERNEL, &[av, bv]).unwrap();
    let s = f.call(&k::add::KERNEL, &[m, cv]).unwrap();
    let r = f.call(&k::relu::KERNEL, &[s]).unwrap();
    (f, r)
}

/// Milliseconds of (separate launches, composed kernel, run-time fused) for
/// both chains on 2^24 `f32`, after checking that the three agree bit for bit.
fn chains(dev: &Device) -> [(&'static str, [f64; 3]); 2] {
    let n = 1 << 24;
    let budget = Duration::from_millis(600);
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let x = TensorT::from_slice(dev, &values(n, 1), [n]).unwrap();
    let (f, c) = unary_chain(x.as_tensor());
    let bits = |t: &Tensor| -> Vec<u32> {
        t.to_vec::<f32>()
            .unwrap()
            .iter()
            .map(|v| v.to_bits())
            .collect()
    };
    let three = k::relu::launch(&k::abs::launch(&k::neg::launch(&x).unwrap()).unwrap()).unwrap();
    assert_eq!(bits(three.as_tensor()), bits(&f.run(&[c]).unwrap()[0]));
    assert_eq!(
        bits(three.as_tensor()),
        bits(neg_abs_relu::launch(&x).unwrap().as_tensor())
    );
    let sep = median(budget, || {
        let a = k::neg::launch(&x).unwrap();
        let b = k::abs::launch(&a).unwrap();
        drop(k::relu::launch(&b).unwrap());
        dev.synchronize().unwrap();
    });
    let composed = median(budget, || {
        drop(neg_abs_relu::launch(&x).unwrap());
        dev.synchronize().unwrap();
    });
    let fused = median(budget, || {
        drop(f.run(&[c]).unwrap());
        dev.synchronize().unwrap();
    });
    let unary = [ms(sep), ms(composed), ms(fused)];

    let (a, b, cc) = (
        TensorT::from_slice(dev, &values(n, 2), [n]).unwrap(),
        TensorT::from_slice(dev, &values(n, 3), [n]).unwrap(),
        TensorT::from_slice(dev, &values(n, 4), [n]).unwrap(),
    );
    let (g, r) = ternary_chain(a.as_tensor(), b.as_tensor(), cc.as_tensor());
    let unfused =
        k::relu::launch(&k::add::launch(&k::mul::launch(&a, &b).unwrap(), &cc).unwrap()).unwrap();
    assert_eq!(bits(unfused.as_tensor()), bits(&g.run(&[r]).unwrap()[0]));
    assert_eq!(
        bits(unfused.as_tensor()),
        bits(mul_add_relu::launch(&a, &b, &cc).unwrap().as_tensor())
    );
    let sep = median(budget, || {
        let m = k::mul::launch(&a, &b).unwrap();
        let s = k::add::launch(&m, &cc).unwrap();
        drop(k::relu::launch(&s).unwrap());
        dev.synchronize().unwrap();
    });
    let composed = median(budget, || {
        drop(mul_add_relu::launch(&a, &b, &cc).unwrap());
        dev.synchronize().unwrap();
    });
    let fused = median(budget, || {
        drop(g.run(&[r]).unwrap());
        dev.synchronize().unwrap();
    });
    [
        ("neg, abs, relu (traffic limit 3x)", unary),
        (
            "mul, add, relu over three inputs (limit 2x)",
            [ms(sep), ms(composed), ms(fused)],
        ),
    ]
}

/// `relu(x * w + b)` over 2^24 `f32` with `b` a full tensor, one element
/// (`[1]`) and a row bias (`x` `[4096, 4096]`, `b` `[4096]`): milliseconds
/// of (three launches, the chain fused), timed in turns, after checking that
/// both give the same bits.
fn broadcast_chains(dev: &Device) -> Vec<(&'static str, [f64; 2])> {
    let n = 1 << 24;
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let x = TensorT::from_slice(dev, &values(n, 5), [n]).unwrap();
    let w = TensorT::from_slice(dev, &values(n, 6), [n]).unwrap();
    let cases: [(&str, Vec<usize>, Vec<usize>); 3] = [
        ("`b` a full tensor", vec![n], vec![n]),
        ("`b` of shape [1]", vec![n], vec![1]),
        (
            "`x` [4096, 4096], `b` [4096] (a row bias)",
            vec![4096, 4096],
            vec![4096],
        ),
    ];
    let mut rows = Vec::new();
    for (name, xs, bs) in cases {
        let (x, w) = (x.reshape(&xs[..]).unwrap(), w.reshape(&xs[..]).unwrap());
        let b = TensorT::from_slice(dev, &values(bs.iter().product(), 7), &bs[..]).unwrap();
        let (g, r) = ternary_chain(x.as_tensor(), w.as_tensor(), b.as_tensor());
        let three = || {
            k::relu::launch(&k::add::launch(&k::mul::launch(&x, &w).unwrap(), &b).unwrap()).unwrap()
        };
        let want: Vec<u32> = three()
            .to_vec()
            .unwrap()
            .iter()
            .map(|v| v.to_bits())
            .collect();
        let got: Vec<u32> = g.run(&[r]).unwrap()[0]
            .to_vec::<f32>()
            .unwrap()
            .iter()
            .map(|v| v.to_bits())
            .collect();
        assert!(want == got, "{name}: fused and separate launches differ");
        let t = super::interleaved(
            Duration::from_secs(2),
            &mut [
                &mut || {
                    drop(three());
                    dev.synchronize().unwrap();
                },
                &mut || {
                    drop(g.run(&[r]).unwrap());
                    dev.synchronize().unwrap();
                },
            ],
        );
        rows.push((name, [ms(t[0]), ms(t[1])]));
    }
    rows
}

/// µs of a 64-element chain's launch + synchronize: (composed kernel, the
/// same chain recorded and run through `Fusion` each time), medians of runs
/// taken in turns so that both see the same machine.
fn per_launch(dev: &Device) -> (f64, f64) {
    let x = TensorT::from_slice(dev, &values(64, 5), [64]).unwrap();
    let composed = || launch_once(dev, &x, false);
    let fused = || launch_once(dev, &x, true);
    composed();
    fused();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let start = Instant::now();
    while a.len() < 100 || (start.elapsed() < Duration::from_secs(2) && a.len() < 100_000) {
        let t = Instant::now();
        composed();
        a.push(t.elapsed());
        let t = Instant::now();
        fused();
        b.push(t.elapsed());
    }
    let med = |v: &mut Vec<Duration>| {
        v.sort();
        v[v.len() / 2].as_secs_f64() * 1e6
    };
    (med(&mut a), med(&mut b))
}

/// `--fusion-calls WHICH N`: `N` launches + synchronize of the 64-element
/// chain, `composed` (the compile-time composed kernel) or `fused` (recorded
/// and run through `Fusion` each time), after one of each to build both; for
/// `scripts/fusion-overhead`, which counts instructions under callgrind.
pub fn calls(which: &str, n: usize) {
    let dev = Device::opencl(0).expect("an OpenCL device");
    let x = TensorT::from_slice(&dev, &values(64, 5), [64]).unwrap();
    launch_once(&dev, &x, false);
    launch_once(&dev, &x, true);
    for _ in 0..n {
        launch_once(&dev, &x, which != "composed");
    }
}

/// One launch + synchronize of the unary chain on `x`: the composed kernel, or
/// the chain recorded and run through `Fusion` (`fused`).
fn launch_once(dev: &Device, x: &TensorT<f32>, fused: bool) {
    if fused {
        let (f, c) = unary_chain(x.as_tensor());
        drop(f.run(&[c]).unwrap());
    } else {
        drop(neg_abs_relu::launch(x).unwrap());
    }
    dev.synchronize().unwrap();
}

/// Run as a child process (`--fusion-child`): opens the device, launches
/// `neg` (so the library's program is built), then runs a fused chain of a
/// structure new to the process, printing its first-run and second-run times
/// in µs and the programs built by the first run.
pub fn child() {
    let dev = Device::opencl(0).expect("an OpenCL device");
    let x = TensorT::from_slice(&dev, &values(1024, 6), [1024]).unwrap();
    drop(k::neg::launch(&x).unwrap());
    dev.synchronize().unwrap();
    let before = dev.programs_built();
    let t = Instant::now();
    let (f, c) = unary_chain(x.as_tensor());
    drop(f.run(&[c]).unwrap());
    dev.synchronize().unwrap();
    let first = t.elapsed();
    let built = dev.programs_built() - before;
    let t = Instant::now();
    let (f, c) = unary_chain(x.as_tensor());
    drop(f.run(&[c]).unwrap());
    dev.synchronize().unwrap();
    let second = t.elapsed();
    println!(
        "{} {} {built}",
        first.as_secs_f64() * 1e6,
        second.as_secs_f64() * 1e6
    );
}

/// First and second run of a new fused chain in child processes: (case, first
/// ms, second ms, programs built by the first).
fn build_times() -> Vec<(&'static str, f64, f64, f64)> {
    let dir = std::env::temp_dir().join(format!("silt-fusion-report-{}", std::process::id()));
    let (pocl, silt_dir) = (dir.join("pocl"), dir.join("silt"));
    let exe = std::env::current_exe().expect("the example's path");
    let run = || -> Option<(f64, f64, f64)> {
        let out = Command::new(&exe)
            .arg("--fusion-child")
            .env("POCL_CACHE_DIR", &pocl)
            .env("SILT_CACHE_DIR", &silt_dir)
            .output()
            .ok()?;
        let text = String::from_utf8_lossy(&out.stdout);
        let mut it = text.split_whitespace().map(|w| w.parse::<f64>().ok());
        Some((it.next()?? / 1e3, it.next()?? / 1e3, it.next()??))
    };
    let _ = std::fs::create_dir_all(&pocl);
    let rows = [
        "cold (empty PoCL and silt caches)",
        "warm (a later process)",
    ]
    .into_iter()
    .filter_map(|case| run().map(|(a, b, p)| (case, a, b, p)))
    .collect();
    let _ = std::fs::remove_dir_all(&dir);
    rows
}

/// Inputs of the wide chain.
const WIDE_INPUTS: usize = 8;

/// Milliseconds of a sum of [`WIDE_INPUTS`] 1024x1024 `f32` inputs
/// (transposed views, or contiguous tensors but for one broadcast row): the
/// separate launches, then the chain through `Fusion` with the device taken
/// to accept any argument bytes (one kernel on the inputs as they are), 1,024
/// (what PoCL reports: the contiguous entry only, so copies of the views or
/// the separate launches, whichever writes fewer tensors) and 50 (the
/// separate launches over the chain's shape), after checking the bits.
fn wide(dev: &Device, transposed: bool) -> [f64; 4] {
    let budget = Duration::from_millis(600);
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let ins: Vec<TensorT<f32>> = (0..WIDE_INPUTS)
        .map(|i| {
            if transposed {
                TensorT::from_slice(dev, &values(1 << 20, 10 + i), [1024, 1024])
                    .unwrap()
                    .transpose(0, 1)
                    .unwrap()
            } else if i == 1 {
                TensorT::from_slice(dev, &values(1024, 10 + i), [1024]).unwrap()
            } else {
                TensorT::from_slice(dev, &values(1 << 20, 10 + i), [1024, 1024]).unwrap()
            }
        })
        .collect();
    let separate = || {
        let mut acc = k::add::launch(&ins[0], &ins[1]).unwrap();
        for t in &ins[2..] {
            acc = k::add::launch(&acc, t).unwrap();
        }
        acc
    };
    let fused = |limit: usize| {
        silt::__testing::max_parameter_bytes(Some(limit));
        let mut f = Fusion::new();
        let vals: Vec<silt::fusion::Value> = ins.iter().map(|t| f.input(t.as_tensor())).collect();
        let mut acc = vals[0];
        for v in &vals[1..] {
            acc = f.call(&k::add::KERNEL, &[acc, *v]).unwrap();
        }
        let out = f.run(&[acc]).unwrap().remove(0);
        silt::__testing::max_parameter_bytes(None);
        out
    };
    let want: Vec<f32> = separate().to_vec().unwrap();
    let limits = [usize::MAX, 1024, 50];
    for limit in limits {
        assert_eq!(fused(limit).to_vec::<f32>().unwrap(), want, "{limit}");
    }
    let t = |f: &dyn Fn()| {
        ms(median(budget, || {
            f();
            dev.synchronize().unwrap();
        }))
    };
    [
        t(&|| drop(separate())),
        t(&|| drop(fused(limits[0]))),
        t(&|| drop(fused(limits[1]))),
        t(&|| drop(fused(limits[2]))),
    ]
}

/// Prints the fusion tables.
pub fn print(dev: &Device) {
    println!("\n## Fusion, 2^24 f32, ms per chain (speed-up over separate launches)\n");
    println!("| chain | three launches | composed kernel | run-time fused |");
    println!("|---|---|---|---|");
    for (case, [sep, composed, fused]) in chains(dev) {
        println!(
            "| {case} | {sep:.2} | {composed:.2} ({:.2}x) | {fused:.2} ({:.2}x) |",
            sep / composed,
            sep / fused
        );
    }
    println!("\n## Fusion with broadcast inputs: relu(x * w + b), 2^24 f32, ms\n");
    println!("| case | three launches | fused | speed-up |");
    println!("|---|---|---|---|");
    for (case, [sep, fused]) in broadcast_chains(dev) {
        println!("| {case} | {sep:.2} | {fused:.2} | {:.2}x |", sep / fused);
    }
    println!("\n## A new fused program (neg, abs, relu on 1,024 f32), ms\n");
    println!("| caches | first run (compose + build + launch) | second run | programs built |");
    println!("|---|---|---|---|");
    for (case, first, second, built) in build_times() {
        println!("| {case} | {first:.2} | {second:.3} | {built} |");
    }
    println!(
        "\n## A chain too wide for the device's argument cap: a sum of {WIDE_INPUTS} 1024x1024 \
         f32 inputs, ms, by the argument bytes the device is taken to accept\n"
    );
    println!("| inputs | separate launches | any (one kernel) | 1,024 (PoCL's report) | 50 |");
    println!("|---|---|---|---|---|");
    for (case, transposed) in [
        ("transposed views", true),
        ("contiguous, one a broadcast row", false),
    ] {
        let [sep, any, pocl, tiny] = wide(dev, transposed);
        println!("| {case} | {sep:.2} | {any:.2} | {pocl:.2} | {tiny:.2} |");
    }
    let (composed, fused) = per_launch(dev);
    println!("\n## A repeated chain, 64 elements, launch + synchronize, µs\n");
    println!("| composed kernel | recorded and run through Fusion | difference |");
    println!("|---|---|---|");
    println!("| {composed:.2} | {fused:.2} | {:+.2} |", fused - composed);
}
