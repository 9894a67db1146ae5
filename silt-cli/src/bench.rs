//! `silt bench`: a quick measurement of silt's `add` kernel, beside the same
//! kernel hand-written and launched through opencl3 with the driver's local
//! size (on OpenCL devices).

use std::io::Write;
use std::time::{Duration, Instant};

use silt::{Device, TensorT};
use silt_kernels::add;

use crate::raw::RawAdd;
use crate::Failure;

/// Bytes moved per element of `c = a + b` on f32: two reads and a write.
const BYTES_PER_ELEMENT: usize = 12;

/// Measures the default device (or `spec`) and the host.
pub fn run(quick: bool, spec: Option<&str>) -> Result<(), Failure> {
    let device = match spec {
        Some(s) => Device::from_spec(s),
        None => Device::default(),
    }
    .map_err(|e| Failure::runtime(format!("no device to measure: {e}")))?;
    say(&format!(
        "silt bench: the `add` kernel of silt-kernels on f32 tensors (c = a + b, {BYTES_PER_ELEMENT} \
         bytes read and written per element){}\n",
        if cfg!(debug_assertions) {
            "\nnote: a debug build; the host backend is many times slower than with --release"
        } else {
            ""
        }
    ));
    let mut devices = vec![device.clone()];
    if !device.is_host() {
        devices.push(Device::host());
    }
    for d in &devices {
        measure(d, quick).map_err(|e| Failure::runtime(format!("measuring on {d}: {e}")))?;
    }
    say(
        "These are silt's own numbers. For the full side-by-side report (silt next to \
         hand-written OpenCL C, more sizes, start-up with cold and warm caches), run:\n  \
         cargo run --release -p silt-kernels --example bench_report\n",
    );
    Ok(())
}

/// Prints now (the measurements take a while).
fn say(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

fn measure(dev: &Device, quick: bool) -> Result<(), Box<dyn std::error::Error>> {
    let default = Device::default().is_ok_and(|d| &d == dev);
    say(&format!(
        "{dev}{}\n",
        if default { " (the default device)" } else { "" }
    ));

    // the first launch builds the program, or loads it from the program cache
    let before = silt::program_cache::stats();
    let one = TensorT::full(dev, 1.0f32, [1])?;
    let start = Instant::now();
    let c = add::launch(&one, &one)?;
    dev.synchronize()?;
    let first = start.elapsed();
    if c.to_vec()? != [2.0] {
        return Err(format!("1 + 1 gave {:?}", c.to_vec()?).into());
    }
    let after = silt::program_cache::stats();
    let how = if dev.is_host() {
        "no program to build on the host"
    } else if after.disk_hits > before.disk_hits {
        "program loaded from silt's program cache"
    } else if after.source_builds > before.source_builds {
        "program compiled from source, then saved to the program cache"
    } else {
        "program already built in this process"
    };
    say(&format!(
        "  first launch:         {} ({how})\n",
        time(first)
    ));

    // the baseline: the same `add` hand-written, launched through opencl3 with
    // the driver's local size
    let raw = if dev.is_host() {
        None
    } else {
        match RawAdd::new(&dev.info().name) {
            Ok(r) => Some(r),
            Err(e) => {
                say(&format!("  (no raw OpenCL baseline: {e})\n"));
                None
            }
        }
    };

    // launch + synchronize on one element: the fixed cost of a launch
    let rounds = if quick { 20 } else { 300 };
    let raw_one = raw.as_ref().map(|r| r.buffers(1, 1.0)).transpose()?;
    let mut samples = Vec::with_capacity(rounds);
    let mut raw_samples = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let start = Instant::now();
        let c = add::launch(&one, &one)?;
        dev.synchronize()?;
        samples.push(start.elapsed());
        drop(c);
        if let (Some(r), Some(b)) = (&raw, &raw_one) {
            let start = Instant::now();
            r.launch(b)?;
            r.finish()?;
            raw_samples.push(start.elapsed());
        }
    }
    samples.sort();
    raw_samples.sort();
    let raw_note = raw_samples
        .get(rounds / 2)
        .map_or_else(String::new, |&t| format!("; raw OpenCL: {}", time(t)));
    say(&format!(
        "  launch + synchronize: {} (median of {rounds}, 1 element{raw_note})\n",
        time(samples[rounds / 2])
    ));

    let sizes: &[usize] = if quick {
        &[1 << 10, 1 << 16]
    } else {
        &[1 << 12, 1 << 16, 1 << 20, 1 << 24]
    };
    let budget = Duration::from_millis(if quick { 20 } else { 300 });
    if raw.is_some() {
        say("  elements   per launch   bandwidth   raw OpenCL   silt / raw\n");
    } else {
        say("  elements   per launch   bandwidth\n");
    }
    for &n in sizes {
        let a = TensorT::full(dev, 1.5f32, [n])?;
        let b = TensorT::full(dev, 2.0f32, [n])?;
        drop(add::launch(&a, &b)?); // warm the pool for this size
        dev.synchronize()?;
        let bufs = raw.as_ref().map(|r| r.buffers(n, 1.5)).transpose()?;
        // silt and raw in turn, 16 launches at a time, until the budget is spent
        let (mut silt_time, mut raw_time) = (Duration::ZERO, Duration::ZERO);
        let mut launches = 0u32;
        while launches < 16 || silt_time + raw_time < budget {
            let start = Instant::now();
            for _ in 0..16 {
                drop(add::launch(&a, &b)?);
            }
            dev.synchronize()?;
            silt_time += start.elapsed();
            if let (Some(r), Some(bufs)) = (&raw, &bufs) {
                let start = Instant::now();
                for _ in 0..16 {
                    r.launch(bufs)?;
                }
                r.finish()?;
                raw_time += start.elapsed();
            }
            launches += 16;
        }
        let per = silt_time / launches;
        let gbs = |t: Duration| (n * BYTES_PER_ELEMENT) as f64 / t.as_secs_f64() / 1e9;
        let raw_col = if raw.is_some() {
            let raw_per = raw_time / launches;
            format!(
                "  {:<11}  {:.2}x",
                format!("{:.1} GB/s", gbs(raw_per)),
                raw_per.as_secs_f64() / per.as_secs_f64()
            )
        } else {
            String::new()
        };
        say(&format!(
            "  {:<9}  {:<11}  {:<10}{raw_col}\n",
            pow2(n),
            time(per),
            format!("{:.1} GB/s", gbs(per)),
        ));
    }
    say("\n");
    Ok(())
}

/// `2^20` for powers of two.
fn pow2(n: usize) -> String {
    if n.is_power_of_two() {
        format!("2^{}", n.trailing_zeros())
    } else {
        n.to_string()
    }
}

/// A duration in the unit that reads best.
fn time(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{:.1} µs", s * 1e6)
    }
}
