//! The side-by-side performance report: silt's generated kernels against
//! hand-written OpenCL C through raw opencl3 (launched as a user would: the
//! driver's local size), the host backend against a plain loop and rayon, reductions against a raw two-stage sum, launch overhead, and
//! start-up with cold and warm caches. Prints Markdown tables and writes SVG
//! plots of bandwidth over size for `add` and for `sum` (beside the first,
//! with `_sum` added to its name).
//!
//! ```text
//! cargo run --release -p silt-kernels --example bench_report [-- --svg PATH]
//! cargo run --release -p silt-kernels --example bench_report -- --reductions   (that table only)
//! cargo run --release -p silt-kernels --example bench_report -- --sum          (the sum sweep only)
//! cargo run --release -p silt-kernels --example bench_report -- --ops          (add/axpy/gelu against raw, launch overhead)
//! cargo run --release -p silt-kernels --example bench_report -- --host         (the host backend against plain loops)
//! cargo run --release -p silt-kernels --example bench_report -- --geometry     (raw axpy at each local size)
//! cargo run --release -p silt-kernels --example bench_report -- --strided      (add on broadcast and transposed views against hand-written kernels)
//! cargo run --release -p silt-kernels --example bench_report -- --fusion       (the fusion tables only)
//! cargo run --release -p silt-kernels --example bench_report -- --matmul       (matmul against CLBlast on the device, NumPy on the host)
//! cargo run --release -p silt-kernels --example bench_report -- --rows         (one-pass softmax and norms against a copy)
//! cargo run --release -p silt-kernels --example bench_report -- --transpose    (contiguous() of transposes against a copy)
//! cargo run --release -p silt-kernels --example bench_report -- --transfers    (to() and to_vec() between the host and the device)
//! cargo run --release -p silt-kernels --example bench_report -- --sort [24 [3]] (sort of 2^24 f32 against numpy.sort)
//! cargo run --release -p silt-kernels --example bench_report -- --indexing [9]  (index_select, gather, take against a copy)
//! scripts/fusion-overhead     (a fused chain's per-launch cost over the composed kernel, in instructions)
//! ... -- --local 64     (silt's work-groups forced to 64 work-items, as before it chose per device)
//! ```
//!
//! Timings are medians of repeated runs within a time budget per cell; the
//! machine is shared, so read ratios, not absolute numbers.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use half::slice::HalfFloatSliceExt as _;
use rayon::prelude::*;
use silt::f16;
use silt::prelude::*;

#[path = "../benches/report/fusion.rs"]
mod fusion;
#[path = "../benches/report/indexing.rs"]
mod indexing;
#[path = "../benches/report/linalg.rs"]
mod linalg;
#[path = "../benches/report/ordering.rs"]
mod ordering;
#[path = "../benches/raw/mod.rs"]
mod raw;
use raw::{axpy_args, axpy_args_offsets, Raw};

/// Sizes of the bandwidth sweep (log2 of the element count).
const SIZES: [u32; 8] = [10, 12, 14, 16, 18, 20, 22, 24];

/// The median time of `f` over repeated runs within `budget` (at least 3 runs,
/// after one warm-up run).
fn median(budget: Duration, mut f: impl FnMut()) -> Duration {
    f();
    let mut times = Vec::new();
    let start = Instant::now();
    while times.len() < 3 || (start.elapsed() < budget && times.len() < 100_000) {
        let t = Instant::now();
        f();
        times.push(t.elapsed());
    }
    times.sort();
    times[times.len() / 2]
}

/// The median of each list of times.
fn medians(times: Vec<Vec<Duration>>) -> Vec<Duration> {
    times
        .into_iter()
        .map(|mut t| {
            t.sort();
            t[t.len() / 2]
        })
        .collect()
}

/// The median times of several functions run in turn (one run of each, then
/// the next round) within `budget`, after one warm-up round: on a shared,
/// noisy machine each sees the same conditions.
fn interleaved(budget: Duration, fs: &mut [&mut dyn FnMut()]) -> Vec<Duration> {
    for f in fs.iter_mut() {
        f();
    }
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); fs.len()];
    let start = Instant::now();
    while times[0].len() < 3 || (start.elapsed() < budget && times[0].len() < 100_000) {
        for (f, t) in fs.iter_mut().zip(&mut times) {
            let s = Instant::now();
            f();
            t.push(s.elapsed());
        }
    }
    medians(times)
}

/// The median time of one call of each of several functions, for calls too
/// short to time one by one (a timer read costs 20-40 ns): each is timed over
/// batches of calls (as many as take the first about 20 us in a second
/// warm-up round), one batch of each in turn. The order rotates every round, so
/// that none always runs right after another: a rayon loop leaves its pool's
/// threads spinning for a while after it returns, which slows whatever runs
/// next on a 2-core machine.
fn interleaved_batched(budget: Duration, fs: &mut [&mut dyn FnMut()]) -> Vec<Duration> {
    for f in fs.iter_mut() {
        f();
    }
    let warm = Instant::now();
    for f in fs.iter_mut() {
        f();
    }
    let first = warm.elapsed() / u32::try_from(fs.len()).unwrap_or(1);
    let calls = (Duration::from_micros(20).as_nanos() / first.as_nanos().max(1)).clamp(1, 10_000);
    let calls = u32::try_from(calls).unwrap_or(1);
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); fs.len()];
    let start = Instant::now();
    let mut round = 0;
    while times[0].len() < 5 || (start.elapsed() < budget && times[0].len() < 100_000) {
        for k in 0..fs.len() {
            let i = (k + round) % fs.len();
            let s = Instant::now();
            for _ in 0..calls {
                fs[i]();
            }
            times[i].push(s.elapsed() / calls);
        }
        round += 1;
    }
    medians(times)
}

/// GB/s (1e9 bytes) for `bytes` moved in `t`.
fn gbps(bytes: usize, t: Duration) -> f64 {
    bytes as f64 / t.as_secs_f64() / 1e9
}

fn values(n: usize) -> Vec<f32> {
    (0..n).map(|i| (i % 1000) as f32 / 100.0 - 5.0).collect()
}

/// One row of the `sum` sweep: GB/s read of silt's full sum on OpenCL, a raw
/// two-stage sum (the best of four chunk sizes), silt's sum on the host, and
/// a plain rayon sum.
fn sum_row(dev: &Device, raw: &Raw, n: usize) -> [f64; 4] {
    let budget = Duration::from_millis(300);
    let bytes = 4 * n;
    let v = values(n);
    let x = TensorT::from_slice(dev, &v, [n]).unwrap();
    let silt = median(budget, || {
        let out = silt_kernels::sum::launch(&x, Axes::all()).unwrap();
        dev.synchronize().unwrap();
        drop(out);
    });
    let rx = raw.buffer(&v);
    let (pa, pb) = (
        raw.buffer(&vec![0.0; n / 64 + 1]),
        raw.buffer(&vec![0.0; n / 64 + 1]),
    );
    let rawt = [64, 256, 1024, 4096]
        .into_iter()
        .map(|chunk| {
            median(budget / 4, || {
                raw.sum(&rx, n, chunk, &pa, &pb);
                raw.finish();
            })
        })
        .min()
        .unwrap_or(Duration::MAX);
    let host = Device::host();
    let hx = TensorT::from_slice(&host, &v, [n]).unwrap();
    let hostt = median(budget, || {
        drop(silt_kernels::sum::launch(&hx, Axes::all()).unwrap())
    });
    let plain = median(budget, || {
        std::hint::black_box(v.par_iter().sum::<f32>());
    });
    [
        gbps(bytes, silt),
        gbps(bytes, rawt),
        gbps(bytes, hostt),
        gbps(bytes, plain),
    ]
}

/// Sizes of the sweep against raw kernels (log2 of the element count).
const OP_SIZES: [u32; 9] = [10, 12, 14, 16, 18, 20, 22, 24, 26];

/// One cell of the sweep against raw kernels: GB/s of silt, of the raw kernel
/// with the driver's local size and, for `axpy`, of the raw kernel compiled
/// with contraction (an FMA where the device has one; silt keeps the
/// uncontracted rounding, so the first raw column is its like).
struct OpRow {
    op: &'static str,
    silt: f64,
    raw: f64,
    /// The raw kernel's faster variant of different rounding: axpy
    /// contracted (FMA), gelu by the textbook `1 + erf`.
    variant: Option<f64>,
}

/// `add`, `axpy` and `gelu` over `n` f32 elements, silt against raw, each
/// side with buffers of its own, timed in turn.
fn op_rows(dev: &Device, raw: &Raw, n: usize) -> Vec<OpRow> {
    let budget = Duration::from_millis(if n >= 1 << 24 { 900 } else { 400 });
    let v = values(n);
    let rn = n as u64;
    let sync = || dev.synchronize().unwrap();
    let mut rows = Vec::new();
    {
        let a = TensorT::from_slice(dev, &v, [n]).unwrap();
        let b = TensorT::from_slice(dev, &v, [n]).unwrap();
        let (ra, rb, rc) = (raw.buffer(&v), raw.buffer(&v), raw.buffer(&v));
        let t = interleaved(
            budget,
            &mut [
                &mut || {
                    let out = silt_kernels::add::launch(&a, &b).unwrap();
                    sync();
                    drop(out);
                },
                &mut || {
                    raw.launch(&raw.add, n, |e| {
                        // SAFETY: the argument types match the kernel's parameters.
                        unsafe {
                            e.set_arg(&ra).set_arg(&rb).set_arg(&rc).set_arg(&rn);
                        }
                    });
                    raw.finish();
                },
            ],
        );
        rows.push(OpRow {
            op: "add",
            silt: gbps(12 * n, t[0]),
            raw: gbps(12 * n, t[1]),
            variant: None,
        });
    }
    {
        let x = TensorT::from_slice(dev, &v, [n]).unwrap();
        let mut y = TensorT::from_slice(dev, &v, [n]).unwrap();
        let (rx, ry) = (raw.buffer(&v), raw.buffer(&v));
        let (fx, fy) = (raw.buffer(&v), raw.buffer(&v));
        let t = interleaved(
            budget,
            &mut [
                &mut || {
                    silt_kernels::axpy::launch(1e-3, &x, &mut y).unwrap();
                    sync();
                },
                &mut || {
                    raw.launch(&raw.axpy_exact, n, axpy_args(&1e-3, &rx, &ry, &rn));
                    raw.finish();
                },
                &mut || {
                    raw.launch(&raw.axpy, n, axpy_args(&1e-3, &fx, &fy, &rn));
                    raw.finish();
                },
            ],
        );
        rows.push(OpRow {
            op: "axpy",
            silt: gbps(12 * n, t[0]),
            raw: gbps(12 * n, t[1]),
            variant: Some(gbps(12 * n, t[2])),
        });
    }
    {
        let x = TensorT::from_slice(dev, &v, [n]).unwrap();
        let (rx, ry) = (raw.buffer(&v), raw.buffer(&v));
        let t = interleaved(
            budget,
            &mut [
                &mut || {
                    let out = silt_kernels::gelu::launch(&x).unwrap();
                    sync();
                    drop(out);
                },
                &mut || {
                    raw.launch(&raw.gelu, n, |e| {
                        // SAFETY: the argument types match the kernel's parameters.
                        unsafe {
                            e.set_arg(&rx).set_arg(&ry).set_arg(&rn);
                        }
                    });
                    raw.finish();
                },
                &mut || {
                    raw.launch(&raw.gelu_erf, n, |e| {
                        // SAFETY: the argument types match the kernel's parameters.
                        unsafe {
                            e.set_arg(&rx).set_arg(&ry).set_arg(&rn);
                        }
                    });
                    raw.finish();
                },
            ],
        );
        rows.push(OpRow {
            op: "gelu",
            silt: gbps(8 * n, t[0]),
            raw: gbps(8 * n, t[1]),
            variant: Some(gbps(8 * n, t[2])),
        });
    }
    rows
}

/// Prints the sweep against raw kernels and returns the `add` rows for the
/// plot (silt, raw).
fn print_ops(dev: &Device, raw: &Raw) -> Vec<(u32, [f64; 2])> {
    println!("## add, axpy, gelu against raw OpenCL C, f32, GB/s\n");
    println!(
        "Raw: the same computation hand-written, launched through opencl3 with the driver's \
         local size (`None`). `silt / raw` compares like with like; \"variant\" is the raw \
         kernel a user might write instead, faster with other results: axpy contracted to an \
         FMA (what OpenCL compiles by default; silt keeps the uncontracted rounding), gelu by \
         the textbook `0.5 x (1 + erf(x / sqrt(2)))` (silt and raw compute \
         `0.5 x erfc(-x / sqrt(2))`: `1 + erf` cancels for negative x, 2,371 ULPs off at -4, \
         -0 below -6). Goal from 2^16 up: silt / raw >= 0.95x.\n"
    );
    println!("| op | elements | silt | raw | silt / raw | raw variant | silt / variant |");
    println!("|---|---|---|---|---|---|---|");
    let mut plot = Vec::new();
    for &l in &OP_SIZES {
        for r in op_rows(dev, raw, 1 << l) {
            let fma = r.variant.map_or_else(
                || "- | -".to_string(),
                |f| format!("{f:.2} | {:.2}x", r.silt / f),
            );
            println!(
                "| {} | 2^{l} | {:.2} | {:.2} | {:.2}x | {fma} |",
                r.op,
                r.silt,
                r.raw,
                r.silt / r.raw
            );
            if r.op == "add" {
                plot.push((l, [r.silt, r.raw]));
            }
        }
    }
    plot
}

/// Sizes of the host sweep (log2 of the element count).
const HOST_SIZES: [u32; 11] = [4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24];

/// `add` on the host, GB/s: silt's `launch`, a plain loop and rayon (each
/// making a new output, as `launch` does), then silt's `launch_into` and a
/// plain loop writing into an existing `Vec` (each writing the same output
/// every call), all timed in turn.
fn host_row(n: usize) -> [f64; 5] {
    let budget = Duration::from_millis(if n <= 1 << 16 { 150 } else { 400 });
    let (av, bv) = (values(n), values(n));
    let host = Device::host();
    let (ha, hb) = (
        TensorT::from_slice(&host, &av, [n]).unwrap(),
        TensorT::from_slice(&host, &bv, [n]).unwrap(),
    );
    let mut into = TensorT::<f32>::zeros(&host, [n]).unwrap();
    let mut into_vec = vec![0.0f32; n];
    let t = interleaved_batched(
        budget,
        &mut [
            &mut || {
                drop(std::hint::black_box(
                    silt_kernels::add::launch(&ha, &hb).unwrap(),
                ))
            },
            &mut || {
                let out: Vec<f32> = av.iter().zip(&bv).map(|(x, y)| x + y).collect();
                drop(std::hint::black_box(out));
            },
            &mut || {
                let mut out = vec![0.0f32; n];
                let chunk = 16 * 1024;
                out.par_chunks_mut(chunk)
                    .zip(av.par_chunks(chunk).zip(bv.par_chunks(chunk)))
                    .for_each(|(o, (x, y))| {
                        for ((o, x), y) in o.iter_mut().zip(x).zip(y) {
                            *o = x + y;
                        }
                    });
                drop(std::hint::black_box(out));
            },
            &mut || {
                silt_kernels::add::launch_into(&ha, &hb, std::hint::black_box(&mut into)).unwrap();
            },
            &mut || {
                let out = std::hint::black_box(&mut into_vec);
                for ((o, x), y) in out.iter_mut().zip(&av).zip(&bv) {
                    *o = x + y;
                }
            },
        ],
    );
    [
        gbps(12 * n, t[0]),
        gbps(12 * n, t[1]),
        gbps(12 * n, t[2]),
        gbps(12 * n, t[3]),
        gbps(12 * n, t[4]),
    ]
}

/// `n` host `add`s of `elements` `f32`s, by silt making its output
/// (`which == "silt"`), silt writing into one tensor (`"into"`), a plain loop
/// making its output (`"loop"`) or a plain loop writing into one `Vec`
/// (`"loop-into"`).
fn host_calls(which: &str, elements: usize, n: usize) {
    let (av, bv) = (values(elements), values(elements));
    let host = Device::host();
    let (a, b) = (
        TensorT::from_slice(&host, &av, [elements]).unwrap(),
        TensorT::from_slice(&host, &bv, [elements]).unwrap(),
    );
    let mut out = TensorT::<f32>::zeros(&host, [elements]).unwrap();
    let mut out_vec = vec![0.0f32; elements];
    for _ in 0..n {
        match which {
            "silt" => drop(std::hint::black_box(
                silt_kernels::add::launch(&a, &b).unwrap(),
            )),
            "into" => {
                silt_kernels::add::launch_into(&a, &b, std::hint::black_box(&mut out)).unwrap();
            }
            "loop-into" => {
                let o = std::hint::black_box(&mut out_vec);
                for ((o, x), y) in o.iter_mut().zip(&av).zip(&bv) {
                    *o = x + y;
                }
            }
            _ => {
                let out: Vec<f32> = av.iter().zip(&bv).map(|(x, y)| x + y).collect();
                drop(std::hint::black_box(out));
            }
        }
    }
}

/// `f16` and `f32` `add` on the host at 2^20: GB/s of silt, of a plain loop
/// converting each value through `f32` (as silt's `f16` arithmetic does), and
/// of the fastest plain code: whole slices converted by `half` (F16C where the
/// CPU has it), added in `f32`, converted back.
fn host_f16() -> [(&'static str, f64, f64, f64); 2] {
    let n = 1 << 20;
    let budget = Duration::from_millis(600);
    let v = values(n);
    let h: Vec<f16> = v.iter().map(|&x| f16::from_f32(x)).collect();
    let host = Device::host();
    let (a, b) = (
        TensorT::from_slice(&host, &v, [n]).unwrap(),
        TensorT::from_slice(&host, &v, [n]).unwrap(),
    );
    let (ha, hb) = (
        TensorT::from_slice(&host, &h, [n]).unwrap(),
        TensorT::from_slice(&host, &h, [n]).unwrap(),
    );
    let t = interleaved(
        budget,
        &mut [
            &mut || {
                drop(std::hint::black_box(
                    silt_kernels::add::launch(&a, &b).unwrap(),
                ))
            },
            &mut || {
                drop(std::hint::black_box(
                    silt_kernels::add::launch(&ha, &hb).unwrap(),
                ))
            },
            &mut || {
                let out: Vec<f16> = h
                    .iter()
                    .zip(&h)
                    .map(|(x, y)| f16::from_f32(x.to_f32() + y.to_f32()))
                    .collect();
                drop(std::hint::black_box(out));
            },
            &mut || {
                let mut out = vec![f16::ZERO; n];
                let (mut x, mut y) = ([0.0f32; 1024], [0.0f32; 1024]);
                for ((o, a), b) in out.chunks_mut(1024).zip(h.chunks(1024)).zip(h.chunks(1024)) {
                    let (x, y) = (&mut x[..a.len()], &mut y[..a.len()]);
                    a.convert_to_f32_slice(x);
                    b.convert_to_f32_slice(y);
                    for (x, y) in x.iter_mut().zip(&*y) {
                        *x += y;
                    }
                    o.convert_from_f32_slice(x);
                }
                drop(std::hint::black_box(out));
            },
        ],
    );
    [
        ("f32", gbps(12 * n, t[0]), f64::NAN, f64::NAN),
        (
            "f16",
            gbps(6 * n, t[1]),
            gbps(6 * n, t[2]),
            gbps(6 * n, t[3]),
        ),
    ]
}

fn print_host() {
    println!("\n## The host backend: add, f32, GB/s\n");
    println!(
        "`launch` and its anchors make a new output each call; `launch_into` and its anchor \
         write one existing output. Goal: >= 0.8x of the anchor from 2^10 up.\n"
    );
    println!(
        "| elements | silt `launch` | plain loop | rayon | `launch` / better | \
         silt `launch_into` | plain loop into a Vec | `launch_into` / loop |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for &l in &HOST_SIZES {
        let [s, p, r, i, pi] = host_row(1 << l);
        println!(
            "| 2^{l} | {s:.2} | {p:.2} | {r:.2} | {:.2}x | {i:.2} | {pi:.2} | {:.2}x |",
            s / p.max(r),
            i / pi
        );
    }
    println!(
        "\n| add on the host, 2^20 | silt GB/s | plain loop, each value through f32 | \
         slices converted by half |"
    );
    println!("|---|---|---|---|");
    let cell = |v: f64| {
        if v.is_nan() {
            "-".to_string()
        } else {
            format!("{v:.2}")
        }
    };
    for (ty, s, p, c) in host_f16() {
        println!("| {ty} | {s:.2} | {} | {} |", cell(p), cell(c));
    }
}

/// Launch overhead in µs: (1-element launch + wait, per launch of 1,000 back
/// to back), each as (silt, raw opencl3, raw with silt's six arguments), timed
/// in turn.
fn launch_overhead(dev: &Device, raw: &Raw) -> [[f64; 3]; 2] {
    let n = 1;
    let budget = Duration::from_secs(3);
    let x = TensorT::full(dev, 1.0f32, [n]).unwrap();
    let mut y = TensorT::<f32>::zeros(dev, [n]).unwrap();
    let (rx, ry, rn) = (raw.buffer(&[1.0]), raw.buffer(&[0.0]), n as u64);
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let raw_offsets = || {
        raw.launch(
            &raw.axpy_offsets,
            n,
            axpy_args_offsets(&1.0, &rx, &ry, &rn, true),
        );
    };
    let one = interleaved(
        budget,
        &mut [
            &mut || {
                silt_kernels::axpy::launch(1.0, &x, &mut y).unwrap();
                dev.synchronize().unwrap();
            },
            &mut || {
                raw.launch(&raw.axpy_exact, n, axpy_args(&1.0, &rx, &ry, &rn));
                raw.finish();
            },
            &mut || {
                raw_offsets();
                raw.finish();
            },
        ],
    );
    let many = interleaved(
        budget,
        &mut [
            &mut || {
                for _ in 0..1000 {
                    silt_kernels::axpy::launch(1.0, &x, &mut y).unwrap();
                }
                dev.synchronize().unwrap();
            },
            &mut || {
                for _ in 0..1000 {
                    raw.launch(&raw.axpy_exact, n, axpy_args(&1.0, &rx, &ry, &rn));
                }
                raw.finish();
            },
            &mut || {
                for _ in 0..1000 {
                    raw_offsets();
                }
                raw.finish();
            },
        ],
    );
    [
        [us(one[0]), us(one[1]), us(one[2])],
        [
            us(many[0]) / 1000.0,
            us(many[1]) / 1000.0,
            us(many[2]) / 1000.0,
        ],
    ]
}

/// `n` back-to-back 1-element axpy launches and one wait: silt's
/// (`which == "silt"`), the raw kernel with 4 arguments (`"raw"`) or with
/// silt's 6 (`"raw6"`), after 100 uncounted ones.
fn launch_calls(which: &str, n: usize) {
    let (Ok(dev), Some(raw)) = (Device::opencl(0), Raw::new()) else {
        eprintln!("--launch-calls needs an OpenCL device");
        std::process::exit(1);
    };
    let x = TensorT::full(&dev, 1.0f32, [1]).unwrap();
    let mut y = TensorT::<f32>::zeros(&dev, [1]).unwrap();
    let (rx, ry, rn) = (raw.buffer(&[1.0]), raw.buffer(&[0.0]), 1u64);
    let mut one = || match which {
        "silt" => silt_kernels::axpy::launch(1.0, &x, &mut y).unwrap(),
        "raw" => raw.launch(&raw.axpy_exact, 1, axpy_args(&1.0, &rx, &ry, &rn)),
        _ => raw.launch(
            &raw.axpy_offsets,
            1,
            axpy_args_offsets(&1.0, &rx, &ry, &rn, true),
        ),
    };
    // warm: the program built or loaded, the kernel objects made, every
    // first-time path of silt and the driver taken
    for _ in 0..100 {
        one();
    }
    dev.synchronize().unwrap();
    raw.finish();
    counted_launches(n, &mut one);
    dev.synchronize().unwrap();
    raw.finish();
}

/// `n` calls of `one`: what `scripts/launch-overhead` counts (callgrind's
/// `--toggle-collect`), the launches alone.
#[inline(never)]
fn counted_launches(n: usize, one: &mut dyn FnMut()) {
    for _ in 0..n {
        one();
    }
}

fn print_overhead(dev: &Device, raw: &Raw) {
    println!("\n## Launch overhead, 1-element axpy, µs\n");
    println!(
        "Raw: 4 arguments, the driver's local size. \"raw, 6 args\": the same kernel with an \
         offset per buffer, as silt's entry points take them (PoCL copies every argument of \
         every command).\n"
    );
    println!(
        "| case | silt | raw opencl3 | silt - raw | goal | raw, 6 args | silt - raw, 6 args |"
    );
    println!("|---|---|---|---|---|---|---|");
    let [one, many] = launch_overhead(dev, raw);
    for (case, [s, r, o], goal) in [
        ("launch + synchronize", one, "<= +2.00"),
        ("each of 1,000 back to back", many, "<= +0.50"),
    ] {
        println!(
            "| {case} | {s:.2} | {r:.2} | {:+.2} | {goal} | {o:.2} | {:+.2} |",
            s - r,
            s - o
        );
    }
}

/// Reductions against raw opencl3 written as a user would (driver's local
/// size; for the full sum, the best of four chunk sizes of a two-stage sum):
/// rows of (case, silt GB/s, raw GB/s), bytes read per second.
fn reductions(dev: &Device, raw: &Raw) -> Vec<(String, f64, f64)> {
    let n = 1usize << 24;
    let budget = Duration::from_secs(2);
    let v = values(n);
    let x = TensorT::from_slice(dev, &v, [n]).unwrap();
    let (rx, ry, rn) = (raw.buffer(&v), raw.buffer(&vec![0.0; n]), n as u64);
    let (pa, pb) = (
        raw.buffer(&vec![0.0; n / 64 + 1]),
        raw.buffer(&vec![0.0; n / 64 + 1]),
    );
    let sync = |t: TensorT<f32>| {
        dev.synchronize().unwrap();
        drop(t);
    };
    let silt_sum = median(budget, || {
        sync(silt_kernels::sum::launch(&x, Axes::all()).unwrap())
    });
    let raw_sum = [64, 256, 1024, 4096]
        .into_iter()
        .map(|chunk| {
            median(budget, || {
                raw.sum(&rx, n, chunk, &pa, &pb);
                raw.finish();
            })
        })
        .min()
        .unwrap_or(Duration::MAX);
    let copy = median(budget, || {
        raw.launch(&raw.copy, n, |e| {
            // SAFETY: the argument types match the kernel's parameters.
            unsafe {
                e.set_arg(&rx).set_arg(&ry).set_arg(&rn);
            }
        });
        raw.finish();
    });
    let m = TensorT::from_slice(dev, &v, [4096, 4096]).unwrap();
    let silt_rows = median(budget, || {
        sync(silt_kernels::sum::launch(&m, Axes::of([-1])).unwrap())
    });
    let silt_cols = median(budget, || {
        sync(silt_kernels::sum::launch(&m, Axes::of([0])).unwrap())
    });
    let (r, c) = (4096u64, 4096u64);
    let raw_axis = |kernel: &opencl3::kernel::Kernel| {
        median(budget, || {
            raw.launch(kernel, 4096, |e| {
                // SAFETY: the argument types match the kernel's parameters.
                unsafe {
                    e.set_arg(&rx).set_arg(&pa).set_arg(&r).set_arg(&c);
                }
            });
            raw.finish();
        })
    };
    let raw_rows = raw_axis(&raw.sum_rows);
    let raw_cols = raw_axis(&raw.sum_cols);
    // the same sums read through a transposed view: the last axis of the
    // transpose is the first of the stored matrix, and the other way round
    let mt = m.transpose(0, 1).unwrap();
    let silt_t_rows = median(budget, || {
        sync(silt_kernels::sum::launch(&mt, Axes::of([-1])).unwrap())
    });
    let silt_t_cols = median(budget, || {
        sync(silt_kernels::sum::launch(&mt, Axes::of([0])).unwrap())
    });
    let silt_t_all = median(budget, || {
        sync(silt_kernels::sum::launch(&mt, Axes::all()).unwrap())
    });
    // a transpose whose rows (4,000) are no power of two: whole tiles
    let mt_odd = m.narrow(0, 0, 4000).unwrap().transpose(0, 1).unwrap();
    let silt_t_odd = median(budget, || {
        sync(silt_kernels::sum::launch(&mt_odd, Axes::all()).unwrap())
    });
    // a narrowed view, and the axes a batch norm reduces (all but the middle)
    let narrow = m.narrow(1, 0, 4000).unwrap();
    let silt_narrow = median(budget, || {
        sync(silt_kernels::sum::launch(&narrow, Axes::all()).unwrap())
    });
    let m3 = TensorT::from_slice(dev, &v, [64, 256, 1024]).unwrap();
    let silt_outer = median(budget, || {
        sync(silt_kernels::sum::launch(&m3, Axes::of([0, 2])).unwrap())
    });
    let softmax = median(budget, || {
        sync(silt_kernels::softmax::launch(&m, -1).unwrap())
    });
    let lse = median(budget, || {
        sync(silt_kernels::logsumexp::launch(&m, Axes::of([-1])).unwrap())
    });
    let exp = median(budget, || sync(silt_kernels::exp::launch(&m).unwrap()));
    let col = TensorT::full(dev, 1.0f32, [4096, 1]).unwrap();
    let add_col = median(budget, || {
        sync(silt_kernels::add::launch(&m, &col).unwrap())
    });
    let cumsum = median(budget, || {
        sync(silt_kernels::cumsum::launch(&x, 0).unwrap())
    });
    let cumsum_rows = median(budget, || {
        sync(silt_kernels::cumsum::launch(&m, -1).unwrap())
    });
    let cumsum_cols = median(budget, || {
        sync(silt_kernels::cumsum::launch(&m, 0).unwrap())
    });
    let add = median(budget, || sync(silt_kernels::add::launch(&x, &x).unwrap()));
    let read = 4 * n;
    vec![
        (
            "full sum, 2^24 f32".into(),
            gbps(read, silt_sum),
            gbps(read, raw_sum),
        ),
        (
            "(raw copy's read half, 2^24 f32)".into(),
            f64::NAN,
            gbps(read, copy),
        ),
        (
            "sum over the last axis, [4096, 4096]".into(),
            gbps(read, silt_rows),
            gbps(read, raw_rows),
        ),
        (
            "sum over the first axis, [4096, 4096]".into(),
            gbps(read, silt_cols),
            gbps(read, raw_cols),
        ),
        (
            "sum over the first axis, [4096, 4096] (the raw column here: silt's full sum; goal 0.8x)".into(),
            gbps(read, silt_cols),
            gbps(read, silt_sum),
        ),
        (
            "sum over the last axis of a transposed [4096, 4096] (raw: the first axis)".into(),
            gbps(read, silt_t_rows),
            gbps(read, raw_cols),
        ),
        (
            "sum over the first axis of a transposed [4096, 4096] (raw: the last axis)".into(),
            gbps(read, silt_t_cols),
            gbps(read, raw_rows),
        ),
        (
            "full sum of a transposed [4096, 4096] (raw: of 2^24)".into(),
            gbps(read, silt_t_all),
            gbps(read, raw_sum),
        ),
        (
            "full sum of [4000, 4096] transposed, rows of 4,000 (raw: of 2^24)".into(),
            gbps(4 * 4096 * 4000, silt_t_odd),
            gbps(read, raw_sum),
        ),
        (
            "full sum of [4096, 4096] narrowed to [4096, 4000] (raw: of 2^24)".into(),
            gbps(4 * 4096 * 4000, silt_narrow),
            gbps(read, raw_sum),
        ),
        (
            "sum over axes 0 and 2 of [64, 256, 1024]".into(),
            gbps(read, silt_outer),
            f64::NAN,
        ),
        (
            "softmax over rows, [4096, 4096] (reads x twice, writes once)".into(),
            gbps(3 * read, softmax),
            f64::NAN,
        ),
        (
            "(its first step: logsumexp over rows, [4096, 4096])".into(),
            gbps(read, lse),
            f64::NAN,
        ),
        (
            "(its second step's cost: exp of [4096, 4096], reads and writes)".into(),
            gbps(2 * read, exp),
            f64::NAN,
        ),
        (
            "cumsum, 2^24 f32 (GB/s read)".into(),
            gbps(read, cumsum),
            f64::NAN,
        ),
        (
            "cumsum over the last axis, [4096, 4096] (GB/s read)".into(),
            gbps(read, cumsum_rows),
            f64::NAN,
        ),
        (
            "cumsum over the first axis, [4096, 4096] (GB/s read)".into(),
            gbps(read, cumsum_cols),
            f64::NAN,
        ),
        (
            "(add of a broadcast column, [4096, 4096] + [4096, 1])".into(),
            gbps(2 * read, add_col),
            f64::NAN,
        ),
        (
            "(silt add, 2^24 f32, for comparison)".into(),
            gbps(3 * read, add),
            f64::NAN,
        ),
    ]
}

/// Run as a child process: opens the device, launches `add` once, then 20
/// other f32 operations once each, printing `open_us add_us twenty_us programs`.
fn startup_child() {
    use silt_kernels as k;
    let t = Instant::now();
    let dev = Device::opencl(0).expect("an OpenCL device");
    let open = t.elapsed();
    let x = TensorT::full(&dev, 0.5f32, [1024]).unwrap();
    let t = Instant::now();
    let y = k::add::launch(&x, &x).unwrap();
    dev.synchronize().unwrap();
    let first = t.elapsed();
    assert_eq!(y.to_vec().unwrap()[0], 1.0);
    let t = Instant::now();
    let unary = [
        k::neg::launch,
        k::abs::launch,
        k::sqrt::launch,
        k::exp::launch,
        k::log::launch,
        k::tanh::launch,
        k::sigmoid::launch,
        k::gelu::launch,
        k::relu::launch,
        k::square::launch,
        k::sin::launch,
        k::floor::launch,
    ];
    for f in unary {
        drop(f(&x).unwrap());
    }
    let binary = [
        k::sub::launch,
        k::mul::launch,
        k::div::launch,
        k::minimum::launch,
        k::maximum::launch,
        k::pow::launch,
        k::atan2::launch,
        k::hypot::launch,
    ];
    for f in binary {
        drop(f(&x, &y).unwrap());
    }
    dev.synchronize().unwrap();
    let twenty = t.elapsed();
    println!(
        "{} {} {} {}",
        open.as_secs_f64() * 1e6,
        first.as_secs_f64() * 1e6,
        twenty.as_secs_f64() * 1e6,
        dev.programs_built()
    );
}

/// Start-up in child processes: (case, device open ms, first launch ms, first
/// launches of 20 more operations ms, programs built).
fn startup() -> Vec<(&'static str, f64, f64, f64, f64)> {
    let dir = std::env::temp_dir().join(format!("silt-report-{}", std::process::id()));
    let (pocl, silt_dir) = (dir.join("pocl"), dir.join("silt"));
    let exe = std::env::current_exe().expect("the example's path");
    let run = |silt_cache: &std::ffi::OsStr| -> Option<(f64, f64, f64, f64)> {
        let out = Command::new(&exe)
            .arg("--startup-child")
            .env("POCL_CACHE_DIR", &pocl)
            .env("SILT_CACHE_DIR", silt_cache)
            .output()
            .ok()?;
        let text = String::from_utf8_lossy(&out.stdout);
        let mut it = text.split_whitespace().map(|w| w.parse::<f64>().ok());
        Some((
            it.next()?? / 1e3,
            it.next()?? / 1e3,
            it.next()?? / 1e3,
            it.next()??,
        ))
    };
    let _ = std::fs::create_dir_all(&pocl);
    let cases = [
        ("cold (empty PoCL and silt caches)", silt_dir.as_os_str()),
        ("warm silt cache", silt_dir.as_os_str()),
        ("PoCL's cache only (SILT_CACHE_DIR=off)", "off".as_ref()),
    ];
    let rows = cases
        .iter()
        .filter_map(|&(case, cache)| run(cache).map(|(o, f, t, p)| (case, o, f, t, p)))
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    rows
}

/// A line chart of a sweep titled `title`: GB/s over log2(elements), one line
/// per column.
fn svg<const N: usize>(title: &str, rows: &[(u32, [f64; N])], names: &[&str; N]) -> String {
    let (w, h, left, right, top, bottom) = (760.0, 440.0, 60.0, 220.0, 30.0, 50.0);
    let (pw, ph) = (w - left - right, h - top - bottom);
    let ymax = rows
        .iter()
        .flat_map(|(_, v)| v.iter().copied())
        .fold(1.0f64, f64::max)
        * 1.1;
    let sizes: Vec<u32> = rows.iter().map(|r| r.0).collect();
    let (x0, x1) = (
        f64::from(sizes.first().copied().unwrap_or(0)),
        f64::from(sizes.last().copied().unwrap_or(1))
            .max(f64::from(sizes.first().copied().unwrap_or(0)) + 1.0),
    );
    let px = |l: u32| left + (f64::from(l) - x0) / (x1 - x0) * pw;
    let py = |g: f64| top + ph - g / ymax * ph;
    let colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{left}" y="18" font-size="14">{title}</text>"#
    );
    for i in 0..=5 {
        let g = ymax * f64::from(i) / 5.0;
        let y = py(g);
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{g:.1}</text>"##,
            left + pw,
            left - 6.0,
            y + 4.0
        );
    }
    for &l in &sizes {
        let x = px(l);
        let _ = writeln!(
            s,
            r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">2^{l}</text>"#,
            top + ph + 18.0
        );
    }
    let _ = writeln!(
        s,
        r#"<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="black"/>"#
    );
    for (k, (name, color)) in names.iter().zip(colors).enumerate() {
        let points: Vec<String> = rows
            .iter()
            .map(|(l, v)| format!("{:.1},{:.1}", px(*l), py(v[k])))
            .collect();
        let _ = writeln!(
            s,
            r#"<polyline fill="none" stroke="{color}" stroke-width="2" points="{}"/>"#,
            points.join(" ")
        );
        let ly = top + 20.0 + 20.0 * k as f64;
        let lx = left + pw + 15.0;
        let _ = writeln!(
            s,
            r#"<line x1="{lx}" y1="{ly}" x2="{:.1}" y2="{ly}" stroke="{color}" stroke-width="2"/><text x="{:.1}" y="{:.1}">{name}</text>"#,
            lx + 20.0,
            lx + 26.0,
            ly + 4.0
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The columns of the `sum` sweep.
const SUM_NAMES: [&str; 4] = [
    "silt (OpenCL)",
    "raw opencl3, two-stage",
    "silt (host)",
    "plain rayon",
];

/// Prints a sweep over [`SIZES`] under `heading`: the four columns of `row`
/// and the ratios of the first to the second and the third to the fourth.
fn sweep(
    heading: &str,
    names: &[&str; 4],
    mut row: impl FnMut(usize) -> [f64; 4],
) -> Vec<(u32, [f64; 4])> {
    println!("{heading}");
    println!(
        "| elements | {} | {} / {} | {} / {} |",
        names.join(" | "),
        names[0],
        names[1],
        names[2],
        names[3]
    );
    println!("|---|---|---|---|---|---|---|");
    let mut rows = Vec::new();
    for &l in &SIZES {
        let r = row(1 << l);
        println!(
            "| 2^{l} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2}x | {:.2}x |",
            r[0],
            r[1],
            r[2],
            r[3],
            r[0] / r[1],
            r[2] / r[3]
        );
        rows.push((l, r));
    }
    rows
}

fn print_reductions(dev: &Device, raw: &Raw) {
    println!("\n## Reductions, f32, GB/s read\n");
    println!("| case | silt | raw opencl3 | silt / raw |");
    println!("|---|---|---|---|");
    for (case, s, r) in reductions(dev, raw) {
        let show = |v: f64| {
            if v.is_nan() {
                "-".to_string()
            } else {
                format!("{v:.2}")
            }
        };
        let ratio = if s.is_nan() || r.is_nan() {
            "-".to_string()
        } else {
            format!("{:.2}x", s / r)
        };
        println!("| {case} | {} | {} | {ratio} |", show(s), show(r));
    }
}

/// Broadcast and transposed `add`s, f32, against the kernel a user writes for
/// that one case (its indices in the launch's dimensions, the driver's local
/// size), with the contiguous `add` of the same size beside them; the results
/// are compared first.
fn print_strided(dev: &Device, raw: &Raw) {
    println!("\n## Strided launches: add on views, f32, ms (median of interleaved runs)\n");
    println!("| case | silt | hand-written kernel for the case | silt / hand-written | contiguous silt add, same size |");
    println!("|---|---|---|---|---|");
    let (r, c) = (4096usize, 4096usize);
    let n = r * c;
    let v = values(n);
    let w = values(n + 1)[1..].to_vec();
    let x = TensorT::from_slice(dev, &v, [r, c]).unwrap();
    let y = TensorT::from_slice(dev, &w, [r, c]).unwrap();
    let (rx, ry, out) = (raw.buffer(&v), raw.buffer(&w), raw.buffer(&vec![0.0; n]));
    let case = StridedCase {
        dev,
        raw,
        out: &out,
        contiguous: contiguous_add(dev, &x, &y),
    };
    let (col, row) = (&v[..r], &w[..c]);
    let (tcol, trow) = (
        TensorT::from_slice(dev, col, [r, 1]).unwrap(),
        TensorT::from_slice(dev, row, [c]).unwrap(),
    );
    let (rcol, rrow) = (raw.buffer(col), raw.buffer(row));
    let xt = x.transpose(0, 1).unwrap();
    let (cols, rows) = (c as u64, r as u64);
    type Case<'a> = (
        &'static str,
        &'a TensorT<f32>,
        &'a TensorT<f32>,
        &'a opencl3::kernel::Kernel,
        &'a opencl3::memory::Buffer<f32>,
        &'a opencl3::memory::Buffer<f32>,
    );
    let cases: [Case<'_>; 3] = [
        (
            "[4096, 4096] + a column [4096, 1]",
            &x,
            &tcol,
            &raw.add_col,
            &rx,
            &rcol,
        ),
        (
            "[4096, 4096] + a row [4096]",
            &x,
            &trow,
            &raw.add_row,
            &rx,
            &rrow,
        ),
        (
            "a transposed [4096, 4096] + [4096, 4096]",
            &xt,
            &y,
            &raw.add_transposed,
            &rx,
            &ry,
        ),
    ];
    for (name, a, b, kernel, ra, rb) in cases {
        let transposed = std::ptr::eq(kernel, &raw.add_transposed);
        case.run(
            name,
            &mut || silt_kernels::add::launch(a, b).unwrap(),
            &mut || {
                raw.launch_grid(kernel, &[c, r], |e| {
                    // SAFETY: the argument types match the kernel's parameters.
                    unsafe {
                        e.set_arg(ra).set_arg(rb).set_arg(&out);
                        if transposed {
                            e.set_arg(&rows);
                        }
                        e.set_arg(&cols);
                    }
                });
            },
        );
    }
    // three dimensions, the middle one broadcast
    let (n0, n1, n2) = (64usize, 256usize, 1024usize);
    let b3 = &w[..n0 * n2];
    let a3 = TensorT::from_slice(dev, &v, [n0, n1, n2]).unwrap();
    let t3 = TensorT::from_slice(dev, b3, [n0, 1, n2]).unwrap();
    let rb3 = raw.buffer(b3);
    let (m1, m2) = (n1 as u64, n2 as u64);
    case.run(
        "[64, 256, 1024] + [64, 1, 1024]",
        &mut || silt_kernels::add::launch(&a3, &t3).unwrap(),
        &mut || {
            raw.launch_grid(&raw.add_mid, &[n2, n1, n0], |e| {
                // SAFETY: the argument types match the kernel's parameters.
                unsafe {
                    e.set_arg(&rx)
                        .set_arg(&rb3)
                        .set_arg(&out)
                        .set_arg(&m1)
                        .set_arg(&m2);
                }
            });
        },
    );
    // a copy of a transposed view into a new tensor (`contiguous`)
    case.run(
        "`contiguous()` of a transposed [4096, 4096]",
        &mut || xt.contiguous().unwrap(),
        &mut || {
            raw.launch_grid(&raw.copy_transposed, &[c, r], |e| {
                // SAFETY: the argument types match the kernel's parameters.
                unsafe {
                    e.set_arg(&rx).set_arg(&out).set_arg(&rows).set_arg(&cols);
                }
            });
        },
    );
    print_batch_transposes(dev, raw, &v, &w);
}

/// `add` and `contiguous()` of a batch of 2^20 transposed [3, 3] matrices
/// (two narrow inner dimensions, 9 * 2^20 elements, short of the other
/// rows' 2^24, so the last column is a contiguous `add` of the batch's size),
/// against the hand-written three-dimensional kernels.
fn print_batch_transposes(dev: &Device, raw: &Raw, v: &[f32], w: &[f32]) {
    let (batch, side) = (1usize << 20, 3usize);
    let n = batch * side * side;
    let x = TensorT::from_slice(dev, &v[..n], [batch, side, side]).unwrap();
    let y = TensorT::from_slice(dev, &w[..n], [batch, side, side]).unwrap();
    let xt = x.transpose(1, 2).unwrap();
    let (rx, ry, out) = (
        raw.buffer(&v[..n]),
        raw.buffer(&w[..n]),
        raw.buffer(&vec![0.0; n]),
    );
    let case = StridedCase {
        dev,
        raw,
        out: &out,
        contiguous: contiguous_add(dev, &x, &y),
    };
    let s = side as u64;
    let grid = [side, side, batch];
    case.run(
        "[2^20, 3, 3] transposed in each matrix + [2^20, 3, 3]",
        &mut || silt_kernels::add::launch(&xt, &y).unwrap(),
        &mut || {
            raw.launch_grid(&raw.add_batch_transposed, &grid, |e| {
                // SAFETY: the argument types match the kernel's parameters.
                unsafe {
                    e.set_arg(&rx)
                        .set_arg(&ry)
                        .set_arg(&out)
                        .set_arg(&s)
                        .set_arg(&s);
                }
            });
        },
    );
    case.run(
        "`contiguous()` of [2^20, 3, 3] transposed in each matrix",
        &mut || xt.contiguous().unwrap(),
        &mut || {
            raw.launch_grid(&raw.copy_batch_transposed, &grid, |e| {
                // SAFETY: the argument types match the kernel's parameters.
                unsafe {
                    e.set_arg(&rx).set_arg(&out).set_arg(&s).set_arg(&s);
                }
            });
        },
    );
}

/// The time of a contiguous `add` of `x` and `y` (the last column of the
/// strided table).
fn contiguous_add(dev: &Device, x: &TensorT<f32>, y: &TensorT<f32>) -> Duration {
    interleaved(
        Duration::from_secs(3),
        &mut [&mut || {
            let t = silt_kernels::add::launch(x, y).unwrap();
            dev.synchronize().unwrap();
            drop(t);
        }],
    )[0]
}

/// What the rows of the strided table share: the device, the raw kernels,
/// the hand-written kernels' output buffer and the contiguous `add`'s time.
struct StridedCase<'a> {
    dev: &'a Device,
    raw: &'a Raw,
    out: &'a opencl3::memory::Buffer<f32>,
    contiguous: Duration,
}

impl StridedCase<'_> {
    /// Runs the hand-written kernel once (`hand` enqueues it, writing
    /// `out`), compares its output with silt's, then times both interleaved
    /// and prints the row.
    fn run(&self, name: &str, silt: &mut dyn FnMut() -> TensorT<f32>, hand: &mut dyn FnMut()) {
        let mut hand = || {
            hand();
            self.raw.finish();
        };
        hand();
        let want = silt().to_vec().unwrap();
        assert!(
            self.raw.read(self.out, want.len()) == want,
            "{name}: silt and the hand-written kernel differ"
        );
        let t = interleaved(
            Duration::from_secs(3),
            &mut [
                &mut || {
                    let t = silt();
                    self.dev.synchronize().unwrap();
                    drop(t);
                },
                &mut hand,
            ],
        );
        print_strided_row(name, t[0], t[1], self.contiguous);
    }
}

fn print_strided_row(name: &str, silt: Duration, hand: Duration, contiguous: Duration) {
    let ms = |t: Duration| t.as_secs_f64() * 1e3;
    println!(
        "| {name} | {:.2} | {:.2} | {:.2}x | {:.2} |",
        ms(silt),
        ms(hand),
        hand.as_secs_f64() / silt.as_secs_f64(),
        ms(contiguous)
    );
}

/// The local sizes the geometry table tries besides the driver's choice.
const LOCALS: [usize; 6] = [16, 64, 256, 1024, 2048, 4096];

/// Raw `axpy` (uncontracted) at each local size of [`LOCALS`] and with the
/// driver's choice, against silt's, over sizes: GB/s, and the local size the
/// driver picks.
fn print_geometry(dev: &Device, raw: &Raw) {
    println!("\n## Local size: raw axpy (uncontracted) at fixed local sizes, f32, GB/s\n");
    let max = dev.info().max_work_group_size;
    let locals: Vec<usize> = LOCALS.into_iter().filter(|&l| l <= max).collect();
    print!("| elements | driver's local | driver (None) |");
    for l in &locals {
        print!(" {l} |");
    }
    println!(" silt |");
    println!("|---|---|---|{}---|", "---|".repeat(locals.len()));
    // the raw variants share their buffers, so each finds the caches as the
    // one before left them: with a buffer each, a variant found its data
    // evicted by the others' at sizes between L2 and L3, and the spread hid a
    // 5-15% loss of 256-wide groups
    for l in (10..=24).step_by(2) {
        let n = 1usize << l;
        let v = values(n);
        let x = TensorT::from_slice(dev, &v, [n]).unwrap();
        let mut y = TensorT::<f32>::zeros(dev, [n]).unwrap();
        let times = geometry_times(dev, raw, &locals, &v, (&x, &mut y));
        print!("| 2^{l} | {} |", raw.driver_local_size(n));
        for t in times {
            print!(" {:.2} |", gbps(12 * n, t));
        }
        println!();
    }
    let x = TensorT::from_slice(dev, &[1.0f32], [1]).unwrap();
    let mut y = TensorT::<f32>::zeros(dev, [1]).unwrap();
    let times = geometry_times(dev, raw, &locals, &[1.0], (&x, &mut y));
    print!(
        "| 1 (µs per launch + wait) | {} |",
        raw.driver_local_size(1)
    );
    for t in times {
        print!(" {:.1} |", t.as_secs_f64() * 1e6);
    }
    println!();
}

/// The interleaved medians of raw `axpy` over `v` with the driver's local size
/// and each of `locals`, then of silt's `axpy` on `xy`.
fn geometry_times(
    dev: &Device,
    raw: &Raw,
    locals: &[usize],
    v: &[f32],
    xy: (&TensorT<f32>, &mut TensorT<f32>),
) -> Vec<Duration> {
    let n = v.len();
    let budget = Duration::from_millis(150 * (locals.len() as u64 + 2));
    let rn = n as u64;
    let (rx, ry) = (&raw.buffer(v), &raw.buffer(&vec![0.0; n]));
    let mut runs: Vec<Box<dyn FnMut() + '_>> = Vec::new();
    for local in std::iter::once(None).chain(locals.iter().map(|&l| Some(l))) {
        let rn = &rn;
        runs.push(Box::new(move || {
            // the unchecked kernel where no work-item lies past `n`
            let kernel = match local {
                Some(l) if !n.is_multiple_of(l) => &raw.axpy_checked,
                _ => &raw.axpy_exact,
            };
            raw.launch_local(kernel, n, local, axpy_args(&1e-3, rx, ry, rn));
            raw.finish();
        }));
    }
    let (x, y) = xy;
    runs.push(Box::new(move || {
        silt_kernels::axpy::launch(1e-3, x, y).unwrap();
        dev.synchronize().unwrap();
    }));
    let mut refs: Vec<&mut dyn FnMut()> = runs.iter_mut().map(|b| &mut **b as _).collect();
    interleaved(budget, &mut refs)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--startup-child") {
        startup_child();
        return;
    }
    if args.iter().any(|a| a == "--fusion-child") {
        fusion::child();
        return;
    }
    // `--host-calls silt|into|loop|loop-into ELEMENTS N`: N host `add`s of ELEMENTS f32 only,
    // for instruction counts under callgrind (`scripts/host-overhead`)
    if let Some(i) = args.iter().position(|a| a == "--host-calls") {
        let arg = |k: usize, default: usize| {
            args.get(i + k)
                .and_then(|n| n.parse().ok())
                .unwrap_or(default)
        };
        host_calls(
            args.get(i + 1).map_or("silt", String::as_str),
            arg(2, 16),
            arg(3, 1000),
        );
        return;
    }
    // `--launch-calls silt|raw|raw6 N`: N back-to-back 1-element axpy launches
    // and one wait, for instruction counts under callgrind
    // (`scripts/launch-overhead`)
    if let Some(i) = args.iter().position(|a| a == "--launch-calls") {
        let n = args.get(i + 2).and_then(|n| n.parse().ok()).unwrap_or(1000);
        launch_calls(args.get(i + 1).map_or("silt", String::as_str), n);
        return;
    }
    // `--fusion-calls composed|fused N`: N repeated launches only, for
    // instruction counts under callgrind (`scripts/fusion-overhead`)
    if let Some(i) = args.iter().position(|a| a == "--fusion-calls") {
        let n = args.get(i + 2).and_then(|n| n.parse().ok()).unwrap_or(1000);
        fusion::calls(args.get(i + 1).map_or("fused", String::as_str), n);
        return;
    }
    let svg_path = args
        .iter()
        .position(|a| a == "--svg")
        .and_then(|i| args.get(i + 1))
        .map_or_else(|| PathBuf::from("target/bench_report.svg"), PathBuf::from);
    let (Ok(dev), Some(raw)) = (Device::opencl(0), Raw::new()) else {
        eprintln!("bench_report needs an OpenCL device (see scripts/install-opencl)");
        std::process::exit(1);
    };
    // `--local N`: silt launches with work-groups of N (64 was its fixed size
    // before it chose per device), to compare
    if let Some(n) = args
        .iter()
        .position(|a| a == "--local")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
    {
        silt::__testing::local_size(Some(n));
        println!("(silt's work-groups forced to {n} work-items)\n");
    }
    println!("# silt performance report on {dev}\n");
    if args.iter().any(|a| a == "--geometry") {
        print_geometry(&dev, &raw);
        return;
    }
    if args.iter().any(|a| a == "--reductions") {
        print_reductions(&dev, &raw);
        return;
    }
    if args.iter().any(|a| a == "--strided") {
        print_strided(&dev, &raw);
        return;
    }
    if args.iter().any(|a| a == "--fusion") {
        fusion::print(&dev);
        return;
    }
    if args.iter().any(|a| a == "--matmul") {
        linalg::print(&dev, interleaved);
        return;
    }
    if args.iter().any(|a| a == "--rows") {
        linalg::print_rows(&dev, &raw, interleaved);
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--sort") {
        let num = |j: usize| args.get(i + j).and_then(|a| a.parse().ok());
        let (log2, reps) = (num(1).unwrap_or(24), num(2).unwrap_or(3) as usize);
        if let Err(e) = ordering::print(log2, reps) {
            eprintln!("sort table: {e}");
            std::process::exit(1);
        }
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--indexing") {
        let reps = args.get(i + 1).and_then(|a| a.parse().ok()).unwrap_or(9);
        if let Err(e) = indexing::print(reps) {
            eprintln!("indexing table: {e}");
            std::process::exit(1);
        }
        return;
    }
    if args.iter().any(|a| a == "--transfers") {
        linalg::print_transfers(&dev, interleaved);
        return;
    }
    if args.iter().any(|a| a == "--transpose") {
        linalg::print_transpose(&dev, interleaved);
        return;
    }
    if args.iter().any(|a| a == "--sum") {
        sweep("## sum, f32, GB/s read\n", &SUM_NAMES, |n| {
            sum_row(&dev, &raw, n)
        });
        return;
    }
    if args.iter().any(|a| a == "--ops") {
        print_ops(&dev, &raw);
        print_overhead(&dev, &raw);
        return;
    }
    if args.iter().any(|a| a == "--overhead") {
        print_overhead(&dev, &raw);
        return;
    }
    if args.iter().any(|a| a == "--host") {
        print_host();
        return;
    }
    let rows = print_ops(&dev, &raw);
    print_overhead(&dev, &raw);
    print_host();
    print_reductions(&dev, &raw);
    print_strided(&dev, &raw);
    let sums = sweep(
        "\n## sum (all elements), f32, GB/s read (4 bytes per element)\n",
        &SUM_NAMES,
        |n| sum_row(&dev, &raw, n),
    );
    fusion::print(&dev);
    println!("\n## Start-up in a new process, ms\n");
    println!(
        "| caches | open device | first launch of `add` | then 20 other operations | programs built |"
    );
    println!("|---|---|---|---|---|");
    for (case, open, first, twenty, programs) in startup() {
        println!("| {case} | {open:.2} | {first:.2} | {twenty:.2} | {programs} |");
    }
    let sum_path = svg_path.with_file_name(format!(
        "{}_sum.svg",
        svg_path
            .file_stem()
            .map_or("bench_report".into(), |s| s.to_string_lossy())
    ));
    for (path, text) in [
        (
            &svg_path,
            svg(
                "add, f32: GB/s over elements",
                &rows,
                &["silt (OpenCL)", "raw opencl3 (driver's local size)"],
            ),
        ),
        (
            &sum_path,
            svg("sum, f32: GB/s read over elements", &sums, &SUM_NAMES),
        ),
    ] {
        match std::fs::write(path, text) {
            Ok(()) => println!("\nplot: {}", path.display()),
            Err(e) => eprintln!("could not write {}: {e}", path.display()),
        }
    }
}
