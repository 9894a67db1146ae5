//! The side-by-side performance report: silt's generated kernels against
//! hand-written OpenCL C through raw opencl3, the host backend against a plain
//! rayon loop, reductions against a raw two-stage sum, launch overhead, and
//! start-up with cold and warm caches. Prints Markdown tables and writes SVG
//! plots of bandwidth over size for `add` and for `sum` (beside the first,
//! with `_sum` added to its name).
//!
//! ```text
//! cargo run --release -p silt-kernels --example bench_report [-- --svg PATH]
//! cargo run --release -p silt-kernels --example bench_report -- --reductions   (that table only)
//! cargo run --release -p silt-kernels --example bench_report -- --sum          (the sum sweep only)
//! ```
//!
//! Timings are medians of repeated runs within a time budget per cell; the
//! machine is shared, so read ratios, not absolute numbers.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use silt::prelude::*;

#[path = "../benches/raw/mod.rs"]
mod raw;
use raw::{axpy_args, Raw};

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

/// GB/s (1e9 bytes) for `bytes` moved in `t`.
fn gbps(bytes: usize, t: Duration) -> f64 {
    bytes as f64 / t.as_secs_f64() / 1e9
}

fn values(n: usize) -> Vec<f32> {
    (0..n).map(|i| (i % 1000) as f32 / 100.0 - 5.0).collect()
}

/// One row of the `add` sweep: GB/s of silt on OpenCL, raw opencl3, silt on the
/// host, plain rayon.
fn add_row(dev: &Device, raw: &Raw, n: usize) -> [f64; 4] {
    let budget = Duration::from_millis(300);
    let bytes = 12 * n;
    let (av, bv) = (values(n), values(n));
    let a = TensorT::from_slice(dev, &av, [n]).unwrap();
    let b = TensorT::from_slice(dev, &bv, [n]).unwrap();
    let silt = median(budget, || {
        let out = silt_kernels::add::launch(&a, &b).unwrap();
        dev.synchronize().unwrap();
        drop(out);
    });
    let (ra, rb, rc, rn) = (
        raw.buffer(&av),
        raw.buffer(&bv),
        raw.buffer(&vec![0.0; n]),
        n as u64,
    );
    let rawt = median(budget, || {
        raw.launch(&raw.add, n, |e| {
            // SAFETY: the argument types match the kernel's parameters.
            unsafe {
                e.set_arg(&ra).set_arg(&rb).set_arg(&rc).set_arg(&rn);
            }
        });
        raw.finish();
    });
    let host = Device::host();
    let (ha, hb) = (
        TensorT::from_slice(&host, &av, [n]).unwrap(),
        TensorT::from_slice(&host, &bv, [n]).unwrap(),
    );
    let hostt = median(budget, || {
        drop(silt_kernels::add::launch(&ha, &hb).unwrap())
    });
    let plain = median(budget, || {
        let mut out = vec![0.0f32; n];
        let chunk = 16 * 1024;
        out.par_chunks_mut(chunk)
            .zip(av.par_chunks(chunk).zip(bv.par_chunks(chunk)))
            .for_each(|(o, (x, y))| {
                for ((o, x), y) in o.iter_mut().zip(x).zip(y) {
                    *o = x + y;
                }
            });
        drop(out);
    });
    [
        gbps(bytes, silt),
        gbps(bytes, rawt),
        gbps(bytes, hostt),
        gbps(bytes, plain),
    ]
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

/// `axpy` and `gelu` over 2^24 elements: (op, silt GB/s, raw GB/s).
fn ops_at_2_24(dev: &Device, raw: &Raw) -> Vec<(&'static str, f64, f64)> {
    let n = 1 << 24;
    let budget = Duration::from_secs(2);
    let v = values(n);
    let x = TensorT::from_slice(dev, &v, [n]).unwrap();
    let mut y = TensorT::<f32>::zeros(dev, [n]).unwrap();
    let (rx, ry, rn) = (raw.buffer(&v), raw.buffer(&vec![0.0; n]), n as u64);
    let silt_axpy = median(budget, || {
        silt_kernels::axpy::launch(1e-3, &x, &mut y).unwrap();
        dev.synchronize().unwrap();
    });
    let raw_axpy = median(budget, || {
        raw.launch(&raw.axpy, n, axpy_args(&1e-3, &rx, &ry, &rn));
        raw.finish();
    });
    let raw_exact = median(budget, || {
        raw.launch(&raw.axpy_exact, n, axpy_args(&1e-3, &rx, &ry, &rn));
        raw.finish();
    });
    let silt_gelu = median(budget, || {
        let out = silt_kernels::gelu::launch(&x).unwrap();
        dev.synchronize().unwrap();
        drop(out);
    });
    let raw_gelu = median(budget, || {
        raw.launch(&raw.gelu, n, |e| {
            // SAFETY: the argument types match the kernel's parameters.
            unsafe {
                e.set_arg(&rx).set_arg(&ry).set_arg(&rn);
            }
        });
        raw.finish();
    });
    vec![
        ("axpy", gbps(12 * n, silt_axpy), gbps(12 * n, raw_axpy)),
        (
            "axpy, raw without FMA contraction (silt's rounding)",
            gbps(12 * n, silt_axpy),
            gbps(12 * n, raw_exact),
        ),
        ("gelu", gbps(8 * n, silt_gelu), gbps(8 * n, raw_gelu)),
    ]
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
        raw.launch_any(&raw.copy, n, |e| {
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
            raw.launch_any(kernel, 4096, |e| {
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

/// Launch overhead in µs: (tiny launch + wait, per launch of 1,000 back to
/// back) for silt and for raw opencl3.
fn launch_overhead(dev: &Device, raw: &Raw) -> [(f64, f64); 2] {
    let n = 64;
    let budget = Duration::from_secs(1);
    let x = TensorT::full(dev, 1.0f32, [n]).unwrap();
    let mut y = TensorT::<f32>::zeros(dev, [n]).unwrap();
    let (rx, ry, rn) = (raw.buffer(&[1.0; 64]), raw.buffer(&[0.0; 64]), n as u64);
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let silt_one = median(budget, || {
        silt_kernels::axpy::launch(1.0, &x, &mut y).unwrap();
        dev.synchronize().unwrap();
    });
    let raw_one = median(budget, || {
        raw.launch(&raw.axpy, n, axpy_args(&1.0, &rx, &ry, &rn));
        raw.finish();
    });
    let silt_many = median(budget, || {
        for _ in 0..1000 {
            silt_kernels::axpy::launch(1.0, &x, &mut y).unwrap();
        }
        dev.synchronize().unwrap();
    });
    let raw_many = median(budget, || {
        for _ in 0..1000 {
            raw.launch(&raw.axpy, n, axpy_args(&1.0, &rx, &ry, &rn));
        }
        raw.finish();
    });
    [
        (us(silt_one), us(raw_one)),
        (us(silt_many) / 1000.0, us(raw_many) / 1000.0),
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
fn svg(title: &str, rows: &[(u32, [f64; 4])], names: &[&str; 4]) -> String {
    let (w, h, left, right, top, bottom) = (760.0, 440.0, 60.0, 220.0, 30.0, 50.0);
    let (pw, ph) = (w - left - right, h - top - bottom);
    let ymax = rows
        .iter()
        .flat_map(|(_, v)| v.iter().copied())
        .fold(1.0f64, f64::max)
        * 1.1;
    let (x0, x1) = (f64::from(SIZES[0]), f64::from(SIZES[SIZES.len() - 1]));
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
    for &l in &SIZES {
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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--startup-child") {
        startup_child();
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
    println!("# silt performance report on {dev}\n");
    if args.iter().any(|a| a == "--reductions") {
        print_reductions(&dev, &raw);
        return;
    }
    if args.iter().any(|a| a == "--sum") {
        sweep("## sum, f32, GB/s read\n", &SUM_NAMES, |n| {
            sum_row(&dev, &raw, n)
        });
        return;
    }
    let names = ["silt (OpenCL)", "raw opencl3", "silt (host)", "plain rayon"];
    let rows = sweep("## add, f32, GB/s (12 bytes per element)\n", &names, |n| {
        add_row(&dev, &raw, n)
    });
    println!("\n## axpy and gelu, 2^24 f32, GB/s\n");
    println!("| op | silt | raw opencl3 | silt / raw |");
    println!("|---|---|---|---|");
    for (op, s, r) in ops_at_2_24(&dev, &raw) {
        println!("| {op} | {s:.2} | {r:.2} | {:.2}x |", s / r);
    }
    print_reductions(&dev, &raw);
    let sums = sweep(
        "\n## sum (all elements), f32, GB/s read (4 bytes per element)\n",
        &SUM_NAMES,
        |n| sum_row(&dev, &raw, n),
    );
    println!("\n## Launch overhead, 64-element axpy, µs\n");
    println!("| case | silt | raw opencl3 | difference |");
    println!("|---|---|---|---|");
    let [one, many] = launch_overhead(&dev, &raw);
    for (case, (s, r)) in [
        ("launch + synchronize", one),
        ("each of 1,000 back to back", many),
    ] {
        println!("| {case} | {s:.2} | {r:.2} | {:+.2} |", s - r);
    }
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
    for (path, title, rows, names) in [
        (&svg_path, "add, f32: GB/s over elements", &rows, names),
        (
            &sum_path,
            "sum, f32: GB/s read over elements",
            &sums,
            SUM_NAMES,
        ),
    ] {
        match std::fs::write(path, svg(title, rows, &names)) {
            Ok(()) => println!("\nplot: {}", path.display()),
            Err(e) => eprintln!("could not write {}: {e}", path.display()),
        }
    }
}
