//! What grid kernels' index checks cost: the same kernels checked (every
//! access tested, the first one out of range recorded and read back after
//! the launch) and `unchecked`, on the default device. A tiled transpose of
//! a [2048, 2048] `f32` through 16 x 16 work-group tiles and a 5 x 5 box blur
//! of a [1024, 1024] image; `contiguous()` of the transposed view (silt's own
//! strided copy, no checks) as the anchor. Medians of interleaved runs in one
//! process.
//!
//! `cargo run --release -p silt-kernels --example grid_checks`

use std::time::{Duration, Instant};

use silt::prelude::*;

macro_rules! transpose {
    ($name:ident, $($opt:tt)*) => {
        /// `y = x^T` through a 16 x 16 tile of work-group memory.
        #[grid(group = [16, 16] $($opt)*)]
        fn $name(x: View<f32, 2>, y: ViewMut<f32, 2>) {
            let (gi, gj) = (group_id(0) * 16, group_id(1) * 16);
            let (li, lj) = (local_id(0), local_id(1));
            let mut tile = local![f32; 16, 16];
            // read a tile of x by rows of x, write it by rows of y
            if gj + li < x.len(0) && gi + lj < x.len(1) {
                tile[[li, lj]] = x[[gj + li, gi + lj]];
            }
            barrier();
            if gi + li < y.len(0) && gj + lj < y.len(1) {
                y[[gi + li, gj + lj]] = tile[[lj, li]];
            }
        }
    };
}

macro_rules! blur {
    ($name:ident, $($opt:tt)*) => {
        /// The mean of the 5 x 5 pixels around each one, clamped at the edges.
        #[grid(group = [16, 16] $($opt)*)]
        fn $name(src: View<f32, 2>, dst: ViewMut<f32, 2>) {
            let (y, x) = (global_id(0), global_id(1));
            let (h, w) = (src.len(0), src.len(1));
            if y < h && x < w {
                let mut sum = 0.0f32;
                for dy in 0..5 {
                    let yy = if y + dy < 2 { 0 } else { (y + dy - 2).min(h - 1) };
                    for dx in 0..5 {
                        let xx = if x + dx < 2 { 0 } else { (x + dx - 2).min(w - 1) };
                        sum = sum + src[[yy, xx]];
                    }
                }
                dst[[y, x]] = sum / 25.0;
            }
        }
    };
}

transpose!(transpose_checked,);
transpose!(transpose_unchecked, , unchecked);
blur!(blur_checked,);
blur!(blur_unchecked, , unchecked);

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn time(dev: &Device, f: &mut dyn FnMut() -> silt::Result<()>) -> Duration {
    let start = Instant::now();
    f().unwrap();
    dev.synchronize().unwrap();
    start.elapsed()
}

fn main() -> silt::Result<()> {
    let dev = Device::default()?;
    let rounds = 15;
    let n = 2048;
    let xs: Vec<f32> = (0..n * n).map(|i| i as f32).collect();
    let x = TensorT::from_slice(&dev, &xs, [n, n])?;
    let mut y = TensorT::<f32>::zeros(&dev, [n, n])?;
    let m = 1024;
    let img = TensorT::from_slice(&dev, &xs[..m * m], [m, m])?;
    let mut out = TensorT::<f32>::zeros(&dev, [m, m])?;

    let (mut tc, mut tu, mut copy, mut bc, mut bu) = (vec![], vec![], vec![], vec![], vec![]);
    for round in 0..=rounds {
        let a = time(&dev, &mut || {
            transpose_checked::launch(Grid::over([n, n]), &x, &mut y)
        });
        // SAFETY: every index the kernels take is tested against the sizes
        let b = time(&dev, &mut || unsafe {
            transpose_unchecked::launch(Grid::over([n, n]), &x, &mut y)
        });
        let c = time(&dev, &mut || {
            x.transpose(0, 1).and_then(|t| t.contiguous()).map(drop)
        });
        let d = time(&dev, &mut || {
            blur_checked::launch(Grid::over([m, m]), &img, &mut out)
        });
        // SAFETY: the blur clamps every index to the image
        let e = time(&dev, &mut || unsafe {
            blur_unchecked::launch(Grid::over([m, m]), &img, &mut out)
        });
        if round > 0 {
            tc.push(a);
            tu.push(b);
            copy.push(c);
            bc.push(d);
            bu.push(e);
        }
    }
    assert_eq!(y.to_vec()?[1], xs[n], "the transpose is wrong");
    let bytes = (2 * n * n * 4) as f64;
    let gbs = |t: Duration| bytes / t.as_secs_f64() / 1e9;
    let ms = |t: Duration| t.as_secs_f64() * 1e3;
    println!("on {dev}, medians of {rounds} interleaved runs:");
    println!("| kernel | checked | unchecked | checked / unchecked |");
    println!("|---|---|---|---|");
    let (a, b) = (median(tc), median(tu));
    println!(
        "| tiled transpose [{n}, {n}] f32 | {:.2} ms ({:.1} GB/s) | {:.2} ms ({:.1} GB/s) | {:.2}x |",
        ms(a),
        gbs(a),
        ms(b),
        gbs(b),
        a.as_secs_f64() / b.as_secs_f64()
    );
    let (d, e) = (median(bc), median(bu));
    println!(
        "| 5x5 box blur [{m}, {m}] f32 | {:.2} ms | {:.2} ms | {:.2}x |",
        ms(d),
        ms(e),
        d.as_secs_f64() / e.as_secs_f64()
    );
    let c = median(copy);
    println!(
        "anchor: `contiguous()` of the transposed view: {:.2} ms ({:.1} GB/s)",
        ms(c),
        gbs(c)
    );
    Ok(())
}
