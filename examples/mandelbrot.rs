//! The Mandelbrot set as a PNG: a kernel computes each pixel's escape count from its
//! element index (`#[index]`) and a few scalars, the host colours the counts and
//! writes the image with a small PNG encoder (stored deflate blocks, no compression
//! library). A sample of pixels is recomputed with `eval` and the whole image on the
//! host backend, and the example fails if either differs from the device.
//!
//! Run with `cargo run --example mandelbrot [WIDTHxHEIGHT] [OUTPUT.png]`
//! (default `1200x800`, `target/mandelbrot.png`).

#[path = "common/png.rs"]
mod png;

use png::encode_png;
use silt::prelude::*;
use std::path::PathBuf;
use std::time::Instant;

/// Iterations after which a point counts as inside the set.
const MAX_ITER: u32 = 256;

/// Escape count of pixel `i` of a `width x height` image centred on
/// `cx + i cy`, `step` apart: the iterations of `z = z^2 + c` before `|z| > 2`,
/// `max_iter` for points that never escape.
#[kernel(types = [f32])]
pub fn escape_count<T>(
    #[index] i: u64,
    #[scalar] width: u64,
    #[scalar] height: u64,
    #[scalar] cx: T,
    #[scalar] cy: T,
    #[scalar] step: T,
    #[scalar] max_iter: u32,
    count: &mut u32,
) {
    let col = (i % width) as T;
    let row = (i / width) as T;
    // pixel centres around (cx, cy); rows go down, the imaginary axis up
    let cr = cx + (col - (width - 1) as T * 0.5) * step;
    let ci = cy - (row - (height - 1) as T * 0.5) * step;
    let mut zr = 0.0;
    let mut zi = 0.0;
    let mut n = 0u32;
    for _k in 0..max_iter {
        if zr * zr + zi * zi > 4.0 {
            break;
        }
        let t = zr * zr - zi * zi + cr;
        zi = 2.0 * zr * zi + ci;
        zr = t;
        n += 1;
    }
    *count = n;
}

/// The view: centre and the distance between pixel centres for a given width.
struct View {
    width: usize,
    height: usize,
    cx: f32,
    cy: f32,
    step: f32,
}

impl View {
    /// The whole set, `[-2.5, 1.0]` wide, at `width x height`.
    fn whole(width: usize, height: usize) -> View {
        let step = (3.5 / width as f32).max(2.4 / height as f32);
        View {
            width,
            height,
            cx: -0.75,
            cy: 0.0,
            step,
        }
    }

    /// Runs `escape_count` on `dev`: one count per pixel, row by row.
    fn render(&self, dev: &Device) -> silt::Result<Vec<u32>> {
        let mut counts = TensorT::<u32>::zeros(dev, [self.height, self.width])?;
        escape_count::launch(
            self.width as u64,
            self.height as u64,
            self.cx,
            self.cy,
            self.step,
            MAX_ITER,
            &mut counts,
        )?;
        counts.to_vec()
    }

    /// One pixel's count through `eval`, the kernel body as plain Rust.
    fn eval(&self, i: usize) -> u32 {
        let mut count = 0;
        escape_count::eval(
            i as u64,
            self.width as u64,
            self.height as u64,
            self.cx,
            self.cy,
            self.step,
            MAX_ITER,
            &mut count,
        );
        count
    }
}

/// A colour for an escape count: black inside the set, else a gradient on a log
/// scale from deep blue (escapes at once) through white to orange (escapes late,
/// next to the set).
#[allow(clippy::cast_possible_truncation)] // rounded and clamped to 0..=255 first
fn colour(n: u32) -> [u8; 3] {
    if n >= MAX_ITER {
        return [0, 0, 0];
    }
    const STOPS: [(f64, [f64; 3]); 5] = [
        (0.0, [0.0, 7.0, 40.0]),
        (0.3, [32.0, 107.0, 203.0]),
        (0.6, [237.0, 255.0, 255.0]),
        (0.85, [255.0, 170.0, 0.0]),
        (1.0, [120.0, 30.0, 0.0]),
    ];
    let t = (f64::from(n) + 1.0).ln() / (f64::from(MAX_ITER) + 1.0).ln();
    let k = STOPS.iter().rposition(|s| s.0 <= t).unwrap_or(0).min(3);
    let (t0, c0) = STOPS[k];
    let (t1, c1) = STOPS[k + 1];
    let f = (t - t0) / (t1 - t0);
    let mix = |a: f64, b: f64| (a + (b - a) * f).round().clamp(0.0, 255.0) as u8;
    [mix(c0[0], c1[0]), mix(c0[1], c1[1]), mix(c0[2], c1[2])]
}

/// `WIDTHxHEIGHT`, both at least 2.
fn parse_size(arg: &str) -> Option<(usize, usize)> {
    let (w, h) = arg.split_once(['x', 'X'])?;
    let (w, h) = (w.parse().ok()?, h.parse().ok()?);
    (w >= 2 && h >= 2).then_some((w, h))
}

fn main() -> silt::Result<()> {
    let mut args = std::env::args().skip(1);
    let (width, height) = match args.next() {
        Some(arg) => parse_size(&arg).unwrap_or_else(|| {
            eprintln!("usage: mandelbrot [WIDTHxHEIGHT] [OUTPUT.png]  (got size `{arg}`)");
            std::process::exit(2)
        }),
        None => (1200, 800),
    };
    let out = args
        .next()
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/mandelbrot.png"));

    let dev = Device::default()?;
    let view = View::whole(width, height);
    let started = Instant::now();
    let counts = view.render(&dev)?;
    let first = started.elapsed();
    let started = Instant::now();
    let again = view.render(&dev)?;
    let second = started.elapsed();
    assert!(again == counts, "two runs on {dev} differ");
    println!(
        "{width}x{height} escape counts (at most {MAX_ITER} iterations) on {dev}: \
         {:.1} ms (first launch, with the program build or load), {:.1} ms again",
        first.as_secs_f64() * 1e3,
        second.as_secs_f64() * 1e3
    );

    // the device agrees with the kernel's body run as plain Rust ...
    let sample: Vec<usize> = (0..counts.len()).step_by(97).collect();
    for &i in &sample {
        assert_eq!(counts[i], view.eval(i), "pixel {i}: device and eval differ");
    }
    // ... and with the host backend, pixel for pixel
    if !dev.is_host() {
        let started = Instant::now();
        let host = view.render(&Device::host())?;
        assert!(host == counts, "the host backend's image differs");
        println!(
            "same counts from eval ({} pixels) and the host backend ({:.1} ms)",
            sample.len(),
            started.elapsed().as_secs_f64() * 1e3
        );
    } else {
        println!("same counts from eval ({} pixels)", sample.len());
    }
    let inside = counts.iter().filter(|&&n| n >= MAX_ITER).count();
    println!(
        "{inside} of {} pixels inside the set ({:.1}%)",
        counts.len(),
        100.0 * inside as f64 / counts.len() as f64
    );

    let rgb: Vec<u8> = counts.iter().flat_map(|&n| colour(n)).collect();
    let png = encode_png(width, height, &rgb);
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).expect("create the output folder");
    }
    std::fs::write(&out, &png).expect("write the PNG");
    println!("wrote {} ({} bytes)", out.display(), png.len());
    Ok(())
}
