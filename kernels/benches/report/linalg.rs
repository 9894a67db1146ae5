//! The `matmul` tables of the bench report: silt's grid kernel on the OpenCL
//! device against CLBlast's SGEMM on the same device (the tuned OpenCL BLAS,
//! loaded at run time from `libclblast.so.1`, Debian's `libclblast1`), and
//! silt's host `matmul` against NumPy's (OpenBLAS, through `python3`) on the
//! same machine, in one run.

use std::ffi::{c_void, CStr};
use std::process::Command;
use std::ptr;
use std::time::Duration;

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device as ClDevice, CL_DEVICE_TYPE_ALL};
use opencl3::memory::{Buffer, ClMem as _, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::types::{cl_float, CL_BLOCKING};
use silt::prelude::*;
use silt_kernels as k;

/// The square sizes of the tables.
const SIZES: [usize; 3] = [512, 1024, 2048];

/// `CLBlastSgemm`'s C signature (`clblast_c.h`).
type Sgemm = unsafe extern "C" fn(
    layout: i32,
    a_transpose: i32,
    b_transpose: i32,
    m: usize,
    n: usize,
    k: usize,
    alpha: f32,
    a: *mut c_void,
    a_offset: usize,
    a_ld: usize,
    b: *mut c_void,
    b_offset: usize,
    b_ld: usize,
    beta: f32,
    c: *mut c_void,
    c_offset: usize,
    c_ld: usize,
    queue: *mut *mut c_void,
    event: *mut *mut c_void,
) -> i32;

const ROW_MAJOR: i32 = 101;
const NO_TRANSPOSE: i32 = 111;

/// CLBlast's SGEMM on the first OpenCL device, with its own context and
/// queue, as a user of CLBlast sets it up.
struct ClBlast {
    sgemm: Sgemm,
    context: Context,
    queue: CommandQueue,
}

impl ClBlast {
    /// `None` (with the reason) without CLBlast or a device.
    fn new() -> Result<Self, String> {
        // SAFETY: a library name and a symbol name, both NUL-terminated; the
        // library stays loaded for the process (never closed)
        let sgemm = unsafe {
            let name = c"libclblast.so.1";
            let lib = libc::dlopen(name.as_ptr(), libc::RTLD_NOW);
            if lib.is_null() {
                let err = libc::dlerror();
                let why = if err.is_null() {
                    String::new()
                } else {
                    CStr::from_ptr(err).to_string_lossy().into_owned()
                };
                return Err(format!(
                    "CLBlast not found ({why}; Debian: apt-get install libclblast1)"
                ));
            }
            let f = libc::dlsym(lib, c"CLBlastSgemm".as_ptr());
            if f.is_null() {
                return Err("libclblast.so.1 has no CLBlastSgemm".into());
            }
            std::mem::transmute::<*mut c_void, Sgemm>(f)
        };
        let platform = get_platforms()
            .ok()
            .and_then(|p| p.into_iter().next())
            .ok_or("no OpenCL platform")?;
        let id = *platform
            .get_devices(CL_DEVICE_TYPE_ALL)
            .map_err(|e| e.to_string())?
            .first()
            .ok_or("no OpenCL device")?;
        let context = Context::from_device(&ClDevice::new(id)).map_err(|e| e.to_string())?;
        let queue = CommandQueue::create_default_with_properties(&context, 0, 0)
            .map_err(|e| e.to_string())?;
        Ok(Self {
            sgemm,
            context,
            queue,
        })
    }

    fn buffer(&self, values: &[f32]) -> Buffer<cl_float> {
        // SAFETY: no host pointer; the write is blocking
        unsafe {
            let mut b = Buffer::<cl_float>::create(
                &self.context,
                CL_MEM_READ_WRITE,
                values.len(),
                ptr::null_mut(),
            )
            .expect("CLBlast buffer");
            self.queue
                .enqueue_write_buffer(&mut b, CL_BLOCKING, 0, values, &[])
                .expect("CLBlast write");
            b
        }
    }

    /// `c = a b` for `n x n` row-major matrices, waited for.
    fn run(&self, n: usize, a: &Buffer<f32>, b: &Buffer<f32>, c: &mut Buffer<f32>) {
        let mut queue = self.queue.get();
        // SAFETY: the buffers hold n * n floats each and live through the
        // call, which is waited for before they can be dropped
        let status = unsafe {
            (self.sgemm)(
                ROW_MAJOR,
                NO_TRANSPOSE,
                NO_TRANSPOSE,
                n,
                n,
                n,
                1.0,
                a.get(),
                0,
                n,
                b.get(),
                0,
                n,
                0.0,
                c.get(),
                0,
                n,
                &mut queue,
                ptr::null_mut(),
            )
        };
        assert_eq!(status, 0, "CLBlastSgemm failed: status {status}");
        self.queue.finish().expect("CLBlast finish");
    }
}

fn values(n: usize, seed: usize) -> Vec<f32> {
    (0..n)
        .map(|i| ((i * 7 + seed * 13) % 31) as f32 * 0.25 - 3.0)
        .collect()
}

fn gflops(n: usize, t: Duration) -> f64 {
    2.0 * (n as f64).powi(3) / t.as_secs_f64() / 1e9
}

/// NumPy's `a @ b` for each size in GFLOP/s (the median of 9), or why not.
fn numpy(sizes: &[usize]) -> Result<Vec<f64>, String> {
    let python = std::env::var("SILT_BENCH_PYTHON").unwrap_or_else(|_| {
        let venv = "target/py-venv/bin/python";
        if std::path::Path::new(venv).exists() {
            venv.into()
        } else {
            "python3".into()
        }
    });
    let script = format!(
        "import numpy as np, time\n\
         for n in {sizes:?}:\n\
         \x20   a = np.random.rand(n, n).astype(np.float32); b = np.random.rand(n, n).astype(np.float32)\n\
         \x20   a @ b; ts = []\n\
         \x20   for _ in range(9):\n\
         \x20       t = time.perf_counter(); a @ b; ts.append(time.perf_counter() - t)\n\
         \x20   print(2 * n ** 3 / sorted(ts)[4] / 1e9)\n"
    );
    let out = Command::new(&python)
        .args(["-c", &script])
        .output()
        .map_err(|e| format!("{python}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{python}: {}",
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .last()
                .unwrap_or("failed")
        ));
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.trim().parse::<f64>().map_err(|e| e.to_string()))
        .collect()
}

/// The report's timer: the median times of functions run in turn.
pub type Interleaved = fn(Duration, &mut [&mut dyn FnMut()]) -> Vec<Duration>;

/// Prints both tables.
pub fn print(dev: &Device, interleaved: Interleaved) {
    let budget = Duration::from_secs(3);
    println!("## matmul, f32, n x n times n x n, GFLOP/s\n");
    let blast = ClBlast::new();
    if let Err(why) = &blast {
        println!("(CLBlast: {why})\n");
    }
    println!("| n | silt on {dev} | CLBlast SGEMM, same device | silt / CLBlast |");
    println!("|---|---|---|---|");
    for n in SIZES {
        let (xa, xb) = (values(n * n, 1), values(n * n, 2));
        let a = TensorT::from_slice(dev, &xa, [n, n]).expect("a");
        let b = TensorT::from_slice(dev, &xb, [n, n]).expect("b");
        let mut silt_run = || {
            let c = k::matmul::launch(&a, &b).expect("matmul");
            c.device().synchronize().expect("wait");
        };
        let times = match &blast {
            Ok(blast) => {
                let (ba, bb) = (blast.buffer(&xa), blast.buffer(&xb));
                let mut bc = blast.buffer(&vec![0.0; n * n]);
                let mut blast_run = || blast.run(n, &ba, &bb, &mut bc);
                interleaved(budget, &mut [&mut silt_run, &mut blast_run])
            }
            Err(_) => interleaved(budget, &mut [&mut silt_run]),
        };
        let s = gflops(n, times[0]);
        match times.get(1) {
            Some(&t) => {
                let c = gflops(n, t);
                println!("| {n} | {s:.1} | {c:.1} | {:.2}x |", s / c);
            }
            None => println!("| {n} | {s:.1} | - | - |"),
        }
    }
    println!();
    println!("## matmul on the host, f32, GFLOP/s (NumPy: OpenBLAS, its own threads)\n");
    let host = Device::host();
    println!("| n | silt host | NumPy | silt / NumPy |");
    println!("|---|---|---|---|");
    for n in SIZES {
        let a = TensorT::from_slice(&host, &values(n * n, 3), [n, n]).expect("a");
        let b = TensorT::from_slice(&host, &values(n * n, 4), [n, n]).expect("b");
        let mut run = || drop(k::matmul::launch(&a, &b).expect("matmul"));
        // NumPy right after silt, size by size: the same conditions
        let s = gflops(n, interleaved(budget, &mut [&mut run])[0]);
        match numpy(&[n]).map(|v| v.first().copied()) {
            Ok(Some(p)) => println!("| {n} | {s:.1} | {p:.1} | {:.2}x |", s / p),
            Ok(None) => println!("| {n} | {s:.1} | - | - |"),
            Err(why) => println!("| {n} | {s:.1} | ({why}) | - |"),
        }
    }
    println!();
}

/// Prints the transposing-copy table: `contiguous()` of a transposed
/// `[4096, 4096]` view of each element size against copies of the same bytes
/// (`deep_copy` of a contiguous tensor into a new tensor, as `contiguous()`
/// makes one: `clEnqueueCopyBuffer`, or the runtime's copy kernel on a CPU
/// device; and `k::copy` into a given one),
/// in GB/s of one read and one write.
pub fn print_transpose(dev: &Device, interleaved: Interleaved) {
    let budget = Duration::from_secs(3);
    let n = 4096;
    let x = TensorT::from_slice(dev, &values(n * n, 7), [n, n]).expect("x");
    let xt = x.transpose(0, 1).expect("transpose");
    let mut y = TensorT::<f32>::zeros(dev, [n, n]).expect("y");
    let sync = |t: &TensorT<f32>| t.device().synchronize().expect("wait");
    let h = TensorT::from_slice(dev, &vec![0x3c00u16; n * n], [n, n]).expect("h");
    let ht = h.transpose(0, 1).expect("transpose");
    let d = TensorT::from_slice(dev, &vec![1.5f64; n * n], [n, n]).expect("d");
    let dt = d.transpose(0, 1).expect("transpose");
    let times = interleaved(
        budget,
        &mut [
            &mut || sync(&x.deep_copy().expect("deep_copy")),
            &mut || {
                k::copy::launch(&x, &mut y).expect("copy");
                sync(&y);
            },
            &mut || sync(&xt.contiguous().expect("contiguous")),
            &mut || {
                ht.contiguous()
                    .expect("contiguous")
                    .device()
                    .synchronize()
                    .expect("wait")
            },
            &mut || {
                dt.contiguous()
                    .expect("contiguous")
                    .device()
                    .synchronize()
                    .expect("wait")
            },
        ],
    );
    let gb = |t: Duration, es: usize| (2 * n * n * es) as f64 / t.as_secs_f64() / 1e9;
    println!("## transposing copies, [{n}, {n}], GB/s (a read and a write)\n");
    println!("| case | GB/s | of the buffer copy | of the `copy` kernel |");
    println!("|---|---|---|---|");
    let rows = [
        ("buffer copy (`deep_copy`), f32", 4),
        ("`copy` kernel into a given tensor, f32", 4),
        ("`contiguous()` of the transpose, f32", 4),
        ("`contiguous()` of the transpose, u16", 2),
        ("`contiguous()` of the transpose, f64", 8),
    ];
    let (buffer, kernel) = (gb(times[0], 4), gb(times[1], 4));
    for ((name, es), &t) in rows.iter().zip(&times) {
        let g = gb(t, *es);
        println!(
            "| {name} | {g:.2} | {:.2}x | {:.2}x |",
            g / buffer,
            g / kernel
        );
    }
    println!();
}

/// Prints the transfers between the host and `dev`: `to` each way and
/// `to_vec` of 2^24 `f32` (64 MiB), in GB/s of the bytes moved, against a
/// `memcpy` of the same bytes between two host buffers (the bound on a CPU
/// device, whose buffers are host memory); `to_vec` beside a host slice's
/// `to_vec`, whose fresh `Vec` costs its page faults too.
pub fn print_transfers(dev: &Device, interleaved: Interleaved) {
    let budget = Duration::from_secs(3);
    let n = 1 << 24;
    let host = Device::host();
    let src = values(n, 3);
    let h = TensorT::from_slice(&host, &src, [n]).expect("h");
    let d = h.to(dev).expect("to");
    let mut buf = vec![0.0f32; n];
    let times = interleaved(
        budget,
        &mut [
            &mut || buf.copy_from_slice(&src),
            &mut || h.to(dev).expect("to").device().synchronize().expect("wait"),
            &mut || drop(d.to(&host).expect("to")),
            &mut || drop(d.to_vec().expect("to_vec")),
            &mut || drop(std::hint::black_box(src.to_vec())),
        ],
    );
    let gb = |t: Duration| (4 * n) as f64 / t.as_secs_f64() / 1e9;
    println!("## transfers of 2^24 f32 (64 MiB), GB/s\n");
    println!("| case | GB/s | of a `memcpy` |");
    println!("|---|---|---|");
    let names = [
        "`memcpy` between host buffers",
        "host to device (`to`)",
        "device to host (`to`)",
        "device to a `Vec` (`to_vec`)",
        "a host slice to a fresh `Vec` (`<[f32]>::to_vec`)",
    ];
    let anchor = gb(times[0]);
    for (name, &t) in names.iter().zip(&times) {
        println!("| {name} | {:.2} | {:.2}x |", gb(t), gb(t) / anchor);
    }
    println!();
}

/// Prints the row-wise table: one-pass `softmax`, `log_softmax`,
/// `layer_norm` and `rms_norm` of `[4096, 4096]` f32 rows against a copy of
/// the same tensor, in GB/s of one read and one write. The anchor is a raw
/// copy kernel launched with the driver's local size (what a user writes);
/// silt's own `k::copy` is shown beside it.
pub fn print_rows(dev: &Device, raw: &crate::Raw, interleaved: Interleaved) {
    use silt::__testing::reduce_as;
    use silt::DeviceKind;
    let budget = Duration::from_secs(3);
    let (rows, n) = (4096, 4096);
    let x = TensorT::from_slice(dev, &values(rows * n, 5), [rows, n]).expect("x");
    let mut y = TensorT::<f32>::zeros(dev, [rows, n]).expect("y");
    let sync = |t: &TensorT<f32>| t.device().synchronize().expect("wait");
    let (rx, ry) = (
        raw.buffer(&values(rows * n, 5)),
        raw.buffer(&vec![0.0; rows * n]),
    );
    let rn = (rows * n) as u64;
    let mut raw_copy = || {
        raw.launch(&raw.copy, rows * n, |e| {
            // SAFETY: the argument types match the kernel's parameters.
            unsafe {
                e.set_arg(&rx).set_arg(&ry).set_arg(&rn);
            }
        });
        raw.finish();
    };
    let mut copy = || {
        k::copy::launch(&x, &mut y).expect("copy");
        sync(&y);
    };
    // each operation as the device's own kind shares out rows, and as the
    // other form: a work-group a row (a GPU's) or a work-item a row (a CPU's)
    let forms = [DeviceKind::Gpu, DeviceKind::Cpu];
    let op = |i: usize, kind: DeviceKind| {
        reduce_as(Some(kind));
        let y = match i {
            0 => k::softmax::launch(&x, -1).expect("softmax"),
            1 => k::log_softmax::launch(&x, -1).expect("log_softmax"),
            2 => k::layer_norm::launch(&x, &[n], None, None, 1e-5).expect("layer_norm"),
            _ => k::rms_norm::launch(&x, &[n], None, None).expect("rms_norm"),
        };
        reduce_as(None);
        sync(&y);
    };
    let mut runs: Vec<Box<dyn FnMut() + '_>> = vec![Box::new(&mut raw_copy), Box::new(&mut copy)];
    for i in 0..4 {
        for kind in forms {
            runs.push(Box::new(move || op(i, kind)));
        }
    }
    let mut refs: Vec<&mut dyn FnMut()> = runs
        .iter_mut()
        .map(|r| &mut **r as &mut dyn FnMut())
        .collect();
    let times = interleaved(budget, &mut refs);
    let bytes = 2 * rows * n * 4;
    let gb = |t: Duration| bytes as f64 / t.as_secs_f64() / 1e9;
    let of_copy = |t: Duration| times[0].as_secs_f64() / t.as_secs_f64();
    println!("## row-wise operations, [{rows}, {n}] f32 rows, GB/s (a read and a write)\n");
    println!(
        "copy: {:.2} GB/s (a raw kernel, the driver's local size; silt's `copy` {:.2}). The device's own form is a work-group a row on a GPU, a work-item a row on a CPU.\n",
        gb(times[0]),
        gb(times[1])
    );
    println!("| operation | a work-group a row | of a copy | a work-item a row | of a copy |");
    println!("|---|---|---|---|---|");
    let names = ["softmax", "log_softmax", "layer_norm", "rms_norm"];
    for (i, name) in names.iter().enumerate() {
        let (g, c) = (times[2 + 2 * i], times[3 + 2 * i]);
        println!(
            "| {name} | {:.2} | {:.2}x | {:.2} | {:.2}x |",
            gb(g),
            of_copy(g),
            gb(c),
            of_copy(c)
        );
    }
    println!();
    print_short_rows(dev, interleaved);
}

/// `softmax` of 2^22 `f32` as rows of 2 to 128 in both forms, against
/// silt's `copy` of the same bytes: which form suits short rows on the
/// device (a work-group of 128 a row leaves most of its lanes idle).
fn print_short_rows(dev: &Device, interleaved: Interleaved) {
    use silt::__testing::reduce_as;
    use silt::DeviceKind;
    let budget = Duration::from_secs(2);
    let total = 1 << 22;
    println!("## softmax of short rows, 2^22 f32 as [2^22 / n, n], ms\n");
    println!("| n | copy | a work-group a row | a work-item a row |");
    println!("|---|---|---|---|");
    for n in [2, 8, 32, 128] {
        let x = TensorT::from_slice(dev, &values(total, 7), [total / n, n]).expect("x");
        let mut y = TensorT::<f32>::zeros(dev, [total / n, n]).expect("y");
        let sync = |t: &TensorT<f32>| t.device().synchronize().expect("wait");
        let mut copy = || {
            k::copy::launch(&x, &mut y).expect("copy");
            sync(&y);
        };
        let form = |kind: DeviceKind| {
            reduce_as(Some(kind));
            let y = k::softmax::launch(&x, -1).expect("softmax");
            reduce_as(None);
            sync(&y);
        };
        let mut groups = || form(DeviceKind::Gpu);
        let mut items = || form(DeviceKind::Cpu);
        let ms = |t: Duration| format!("{:.2}", t.as_secs_f64() * 1e3);
        // a CPU device runs a work-group as a loop over its work-items, and
        // takes seconds a run for rows of 2 and 8 (PoCL: 32.9 s and 5.7 s)
        if n < 32 && dev.info().kind == DeviceKind::Cpu {
            let times = interleaved(budget, &mut [&mut copy, &mut items]);
            println!("| {n} | {} | (left out) | {} |", ms(times[0]), ms(times[1]));
        } else {
            let times = interleaved(budget, &mut [&mut copy, &mut groups, &mut items]);
            println!(
                "| {n} | {} | {} | {} |",
                ms(times[0]),
                ms(times[1]),
                ms(times[2])
            );
        }
    }
    println!();
}
