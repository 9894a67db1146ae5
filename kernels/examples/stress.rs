//! A stress run: 8 threads x 2,000 launches of four kernels, three reductions
//! and a scan with mixed sizes, dtypes, axes and views on one OpenCL device, then the pool is emptied and every
//! buffer must be released: `cargo run --release -p silt-kernels --example stress`.

use silt::prelude::*;
use silt_kernels as k;

fn main() -> silt::Result<()> {
    let cl = Device::opencl(0)?;
    let t0 = std::time::Instant::now();
    std::thread::scope(|s| {
        for t in 0..8u32 {
            let cl = cl.clone();
            s.spawn(move || {
                for i in 0..2000u32 {
                    let n = 1 + ((i * 7919 + t * 104729) % 3000) as usize;
                    match i % 8 {
                        0 => {
                            let a: Vec<f32> = (0..n).map(|j| j as f32).collect();
                            let x = TensorT::from_slice(&cl, &a, [n]).unwrap();
                            let y = k::add::launch(&x, &x).unwrap();
                            if i % 100 == 0 {
                                assert_eq!(y.to_vec().unwrap()[n - 1], 2.0 * (n - 1) as f32);
                            }
                        }
                        1 => {
                            let a: Vec<i64> = (0..n as i64).collect();
                            let x = TensorT::from_slice(&cl, &a, [n]).unwrap();
                            let y = k::mul::launch(&x, &x).unwrap();
                            if i % 100 == 1 {
                                assert_eq!(y.to_vec().unwrap()[n - 1], ((n - 1) * (n - 1)) as i64);
                            }
                        }
                        2 => {
                            let x = TensorT::<f64>::full(&cl, 0.5, [n]).unwrap();
                            let mut y = TensorT::<f64>::zeros(&cl, [n]).unwrap();
                            k::axpy::launch(2.0, &x, &mut y).unwrap();
                            drop(x);
                            if i % 100 == 2 {
                                assert_eq!(y.to_vec().unwrap()[0], 1.0);
                            }
                        }
                        3 => {
                            let x = TensorT::<u8>::full(&cl, 3, [n, 1])
                                .unwrap()
                                .broadcast_to([n, 4])
                                .unwrap();
                            let y = k::to_f32::launch(&x).unwrap();
                            if i % 100 == 3 {
                                assert_eq!(y.to_vec().unwrap()[4 * n - 1], 3.0);
                            }
                        }
                        // reductions and a scan: every result checked
                        4 => {
                            let x = TensorT::<f32>::full(&cl, 1.0, [n]).unwrap();
                            let s = k::sum::launch(&x, Axes::all()).unwrap();
                            assert_eq!(s.to_vec().unwrap(), [n as f32]);
                        }
                        5 => {
                            // the largest of each column of an [n, 3] matrix is in row n - 1
                            let a: Vec<i32> =
                                (0..3 * n).map(|v| i32::try_from(v).unwrap()).collect();
                            let x = TensorT::from_slice(&cl, &a, [n, 3]).unwrap();
                            let m = k::argmax::launch(&x, Axes::of([0])).unwrap();
                            assert_eq!(m.to_vec().unwrap(), [n as i64 - 1; 3]);
                        }
                        6 => {
                            let x = TensorT::<f64>::full(&cl, 2.0, [3, n])
                                .unwrap()
                                .transpose(0, 1)
                                .unwrap();
                            let v = k::mean::launch(&x, Axes::of([-1]).keepdim()).unwrap();
                            assert_eq!(v.shape(), [n, 1]);
                            assert_eq!(v.to_vec().unwrap()[n - 1], 2.0);
                        }
                        _ => {
                            let x = TensorT::<i64>::full(&cl, 1, [n]).unwrap();
                            let c = k::cumsum::launch(&x, 0).unwrap();
                            assert_eq!(c.to_vec().unwrap()[n - 1], n as i64);
                        }
                    }
                }
            });
        }
    });
    cl.synchronize()?;
    let el = t0.elapsed();
    let s = cl.memory_stats();
    cl.empty_cache();
    println!("16000 operations in {:.2} s; pool {:?}; after empty_cache reserved={} live_buffers={}; buffer_counts={:?}",
        el.as_secs_f64(), s, cl.memory_stats().reserved_bytes, cl.memory_stats().live_buffers, silt::diagnostics::buffer_counts());
    Ok(())
}
