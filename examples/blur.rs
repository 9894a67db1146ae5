//! An image blurred by a grid kernel: each work-item reads the 5 x 5
//! neighbourhood of its pixel (clamped at the edges) from a view of the
//! image, through a 16 x 16 work-group. The picture (rings and a checkerboard,
//! computed on the host) and its blur are written side by side as a PNG; the
//! blur is recomputed on the host backend and the example fails if a single
//! bit differs.
//!
//! Run with `cargo run --example blur [SIZE] [OUTPUT.png]` (default `512`,
//! `target/blur.png`).

#[path = "common/png.rs"]
mod png;

use png::encode_png;
use silt::prelude::*;
use std::path::PathBuf;

/// The mean of the `(2r + 1)^2` pixels around each pixel of `src` (an
/// image of `[height, width]` grey levels), the neighbours past an edge
/// taken from the edge.
#[grid(types = [f32], group = [16, 16])]
pub fn box_blur<T>(#[scalar] r: u64, src: View<T, 2>, dst: ViewMut<T, 2>) {
    let (y, x) = (global_id(0), global_id(1));
    let (h, w) = (src.len(0), src.len(1));
    if y < h && x < w {
        let mut sum: T = 0.0;
        for dy in 0..2 * r + 1 {
            // `y + dy - r`, clamped to the image
            let yy = if y + dy < r {
                0
            } else {
                (y + dy - r).min(h - 1)
            };
            for dx in 0..2 * r + 1 {
                let xx = if x + dx < r {
                    0
                } else {
                    (x + dx - r).min(w - 1)
                };
                sum = sum + src[[yy, xx]];
            }
        }
        let n = (2 * r + 1) * (2 * r + 1);
        dst[[y, x]] = sum / n as T;
    }
}

/// A level in `0..=1` as an 8-bit grey.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // rounded and clamped to 0..=255 first
fn grey(v: f32) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0).round() as u8
}

fn main() -> silt::Result<()> {
    let mut args = std::env::args().skip(1);
    let size: usize = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(512)
        .max(16);
    let out = args
        .next()
        .map_or_else(|| PathBuf::from("target/blur.png"), PathBuf::from);
    // rings and a checkerboard: sharp edges that show the blur
    let picture: Vec<f32> = (0..size * size)
        .map(|i| {
            let (y, x) = (i / size, i % size);
            let (dy, dx) = (y.abs_diff(size / 2), x.abs_diff(size / 2));
            let ring = if (dx * dx + dy * dy).isqrt() / 24 % 2 == 0 {
                1.0
            } else {
                0.2
            };
            let check = if (x / 64 + y / 64) % 2 == 0 { 1.0 } else { 0.6 };
            ring * check
        })
        .collect();

    let dev = Device::default()?;
    let src = TensorT::from_slice(&dev, &picture, [size, size])?;
    let mut dst = TensorT::<f32>::zeros(&dev, [size, size])?;
    let started = std::time::Instant::now();
    box_blur::launch(Grid::over([size, size]), 2, &src, &mut dst)?;
    let blurred = dst.to_vec()?;
    println!(
        "blurred {size}x{size} on {dev} in {:.1} ms",
        started.elapsed().as_secs_f64() * 1e3
    );

    // the same kernel on the host backend: the same bits
    let host = Device::host();
    let hsrc = TensorT::from_slice(&host, &picture, [size, size])?;
    let mut hdst = TensorT::<f32>::zeros(&host, [size, size])?;
    box_blur::launch(Grid::over([size, size]), 2, &hsrc, &mut hdst)?;
    let same = hdst
        .to_vec()?
        .iter()
        .zip(&blurred)
        .all(|(a, b)| a.to_bits() == b.to_bits());
    if !same {
        eprintln!("the host backend's blur differs from {dev}'s");
        std::process::exit(1);
    }
    println!("the host backend gives the same bits");

    // the picture and its blur side by side, in grey
    let mut rgb = Vec::with_capacity(size * size * 2 * 3);
    for y in 0..size {
        for half in [&picture, &blurred] {
            for x in 0..size {
                let v = grey(half[y * size + x]);
                rgb.extend_from_slice(&[v, v, v]);
            }
        }
    }
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir).ok();
    }
    std::fs::write(&out, encode_png(size * 2, size, &rgb)).map_err(|e| {
        silt::Error::InvalidArgument {
            op: "blur",
            reason: format!("cannot write {}: {e}", out.display()),
        }
    })?;
    println!("wrote {}", out.display());
    Ok(())
}
