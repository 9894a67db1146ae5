//! The indexing and counting operations (`index_select`, `gather`,
//! `scatter_add`, `take`, `bincount`, `histc`) against references written
//! here in plain Rust, on the host and on the OpenCL device: PyTorch's
//! results, edge cases and errors. Sizes stay small (the tests run under
//! Oclgrind too).
#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]

#[path = "../../tests/common/mod.rs"]
mod common;

use silt::prelude::*;
use silt::{f16, DeviceKind, Tensor};
use silt_kernels as k;

/// The position `[..]` of flat element `i` of `shape`.
fn unravel(mut i: usize, shape: &[usize]) -> Vec<usize> {
    let mut at = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        at[d] = i % shape[d];
        i /= shape[d];
    }
    at
}

fn offset(at: &[usize], shape: &[usize]) -> usize {
    // row-major, without a vector of strides (the references call this for
    // every element)
    at.iter().zip(shape).fold(0, |acc, (a, s)| acc * s + a)
}

/// Pseudo-random numbers in `0..m` from `seed`.
fn ints(n: usize, m: u64, seed: u64) -> Vec<i64> {
    let mut rng = common::Rng::seeded(seed);
    (0..n)
        .map(|_| {
            let s = rng.next_u64();
            (s % m.max(1)) as i64
        })
        .collect()
}

fn is_invalid(err: &Error, op: &str) -> bool {
    matches!(err, Error::InvalidArgument { op: o, .. } if *o == op)
}

/// An index of `op`'s index tensor out of range.
fn is_out_of_range(err: &Error, op: &str) -> bool {
    matches!(err, Error::IndexOutOfRange { op: o, .. } if *o == op)
}

// ---- index_select ----

fn ref_index_select(x: &[f32], shape: &[usize], dim: usize, idx: &[i64]) -> (Vec<f32>, Vec<usize>) {
    let mut os = shape.to_vec();
    os[dim] = idx.len();
    let n: usize = os.iter().product();
    let out = (0..n)
        .map(|e| {
            let mut at = unravel(e, &os);
            at[dim] = idx[at[dim]] as usize;
            x[offset(&at, shape)]
        })
        .collect();
    (out, os)
}

#[test]
fn index_select_matches_the_reference_along_every_dim() {
    let shape = [3usize, 4, 5];
    let x: Vec<f32> = (0..60).map(|v| v as f32 * 0.5 - 7.0).collect();
    for dev in common::devices() {
        let t = TensorT::from_slice(&dev, &x, shape).unwrap();
        for dim in 0..3 {
            let idx = ints(7, shape[dim] as u64, dim as u64 + 1); // repeats
            let (want, ws) = ref_index_select(&x, &shape, dim, &idx);
            let i = TensorT::from_slice(&dev, &idx, [7]).unwrap();
            for d in [dim as isize, dim as isize - 3] {
                let got = k::index_select::launch(&t, d, &i).unwrap();
                assert_eq!(got.shape(), ws.as_slice(), "{dev} dim {d}");
                assert_eq!(got.to_vec().unwrap(), want, "{dev} dim {d}");
            }
            // i32 indices, as PyTorch takes
            let i32s: Vec<i32> = idx.iter().map(|&v| v as i32).collect();
            let got = k::index_select::dispatch(
                t.as_tensor(),
                dim as isize,
                &Tensor::from_slice(&dev, &i32s, [7]).unwrap(),
            )
            .unwrap();
            assert_eq!(got.to_vec::<f32>().unwrap(), want, "{dev} i32 dim {dim}");
        }
        // a transposed view (read in place) and a strided index
        let tt = t.transpose(0, 2).unwrap(); // [5, 4, 3]
        let xt = tt.contiguous().unwrap().to_vec().unwrap();
        let idx = TensorT::from_slice(&dev, &[3i64, 0, 1, 1, 2, 0], [6]).unwrap();
        let every_other = idx
            .as_tensor()
            .as_strided([3], [2], 0)
            .unwrap()
            .typed::<i64>()
            .unwrap(); // [3, 1, 2]
        let got = k::index_select::launch(&tt, 1, &every_other).unwrap();
        let (want, _) = ref_index_select(&xt, &[5, 4, 3], 1, &[3, 1, 2]);
        assert_eq!(got.to_vec().unwrap(), want, "{dev} transposed");
    }
}

#[test]
fn index_select_edge_cases_and_errors() {
    for dev in common::devices() {
        let x = TensorT::from_slice(&dev, &[1i32, 2, 3, 4, 5, 6], [2, 3]).unwrap();
        let i = |v: &[i64]| TensorT::from_slice(&dev, v, [v.len()]).unwrap();
        // no indices: an empty result; a 0-d index
        let e = k::index_select::launch(&x, 1, &i(&[])).unwrap();
        assert_eq!(e.shape(), [2, 0]);
        let s = TensorT::from_slice(&dev, &[1i64], []).unwrap();
        let got = k::index_select::launch(&x, 0, &s).unwrap();
        assert_eq!(
            (got.shape(), got.to_vec().unwrap()),
            (&[1usize, 3][..], vec![4, 5, 6])
        );
        // a 0-d input takes one index and gives a 0-d result
        let z = TensorT::from_slice(&dev, &[7.5f64], []).unwrap();
        let got = k::index_select::launch(&z, 0, &i(&[0])).unwrap();
        assert_eq!((got.shape(), got.to_vec().unwrap()), (&[][..], vec![7.5]));
        let err = k::index_select::launch(&z, 0, &i(&[0, 0])).unwrap_err();
        assert!(is_invalid(&err, "index_select"), "{err:?}");
        // every dtype: bool and f16
        let b = TensorT::from_slice(&dev, &[true, false, true], [3]).unwrap();
        assert_eq!(
            k::index_select::launch(&b, 0, &i(&[1, 2]))
                .unwrap()
                .to_vec()
                .unwrap(),
            [false, true]
        );
        let h = TensorT::from_slice(&dev, &[f16::from_f32(0.5), f16::from_f32(-2.0)], [2]).unwrap();
        assert_eq!(
            k::index_select::launch(&h, 0, &i(&[1]))
                .unwrap()
                .to_vec()
                .unwrap(),
            [f16::from_f32(-2.0)]
        );
        // out of range, negative included (PyTorch rejects both): an error
        // naming the operation, the index and the size
        for bad in [&[0i64, 3][..], &[-1], &[2, 0, 1, 9]] {
            let err = k::index_select::launch(&x, 1, &i(bad)).unwrap_err();
            assert!(
                is_out_of_range(&err, "index_select"),
                "{dev} {bad:?}: {err:?}"
            );
            let msg = err.to_string();
            assert!(msg.contains("size 3"), "{msg}");
        }
        let msg = k::index_select::launch(&x, 1, &i(&[2, 0, 1, 9]))
            .unwrap_err()
            .to_string();
        assert!(msg.contains("index 9 (at [3]"), "{msg}");
        // checked even when nothing is read (an empty result)
        let empty = TensorT::<f32>::zeros(&dev, [0, 3]).unwrap();
        let err = k::index_select::launch(&empty, 1, &i(&[5])).unwrap_err();
        assert!(is_out_of_range(&err, "index_select"), "{err:?}");
        // a dimension of size 0 and a result that is not empty: every index
        // is out of range (the first one named)
        let none = TensorT::<f32>::zeros(&dev, [2, 0, 3]).unwrap();
        let err = k::index_select::launch(&none, 1, &i(&[0, 0])).unwrap_err();
        assert!(is_out_of_range(&err, "index_select"), "{err:?}");
        assert!(err.to_string().contains("index 0 (at [0]"), "{err}");
        // bad arguments
        let err = k::index_select::launch(&x, 2, &i(&[0])).unwrap_err();
        assert!(
            matches!(err, Error::AxisOutOfRange { axis: 2, ndim: 2 }),
            "{err:?}"
        );
        let two = TensorT::from_slice(&dev, &[0i64, 1], [1, 2]).unwrap();
        assert!(is_invalid(
            &k::index_select::launch(&x, 0, &two).unwrap_err(),
            "index_select"
        ));
        let f = Tensor::from_slice(&dev, &[0.0f32], [1]).unwrap();
        let err = k::index_select::dispatch(x.as_tensor(), 0, &f).unwrap_err();
        assert!(matches!(err, Error::DTypeMismatch { .. }), "{err:?}");
    }
}

// ---- gather ----

fn ref_gather(x: &[i64], xs: &[usize], dim: usize, idx: &[i64], is: &[usize]) -> Vec<i64> {
    (0..idx.len())
        .map(|e| {
            let mut at = unravel(e, is);
            at[dim] = idx[e] as usize;
            x[offset(&at, xs)]
        })
        .collect()
}

#[test]
fn gather_matches_the_reference_with_smaller_index_shapes() {
    let xs = [3usize, 4, 5];
    let x: Vec<i64> = (0..60).map(|v| v * 3 - 50).collect();
    for dev in common::devices() {
        let t = TensorT::from_slice(&dev, &x, xs).unwrap();
        for dim in 0..3 {
            // smaller than x apart from dim, larger along it
            let mut is = vec![2usize, 3, 4];
            is[dim] = 6;
            let n: usize = is.iter().product();
            let idx = ints(n, xs[dim] as u64, 10 + dim as u64);
            let want = ref_gather(&x, &xs, dim, &idx, &is);
            let i = TensorT::from_slice(&dev, &idx, &is).unwrap();
            let got = k::gather::launch(&t, dim as isize, &i).unwrap();
            assert_eq!(got.shape(), is.as_slice(), "{dev} dim {dim}");
            assert_eq!(got.to_vec().unwrap(), want, "{dev} dim {dim}");
        }
        // a 0-d input and index
        let z = TensorT::from_slice(&dev, &[4.0f32], []).unwrap();
        let zi = TensorT::from_slice(&dev, &[0i64], []).unwrap();
        let got = k::gather::launch(&z, 0, &zi).unwrap();
        assert_eq!((got.shape(), got.to_vec().unwrap()), (&[][..], vec![4.0]));
        // an empty index gives an empty result
        let e = TensorT::from_slice(&dev, &[], [2, 0, 5]).unwrap();
        assert_eq!(k::gather::launch(&t, 1, &e).unwrap().shape(), [2, 0, 5]);
    }
}

#[test]
fn lines_of_a_work_group_and_more_match_the_reference() {
    // a device lays its grid out by the length of the lines after `dim`:
    // one element, shorter than a work-group (one division), a work-group
    // or more (none; 300 and 260 pad the last group). Every layout gives
    // the reference, and a bad index's first position
    let xs = [2usize, 3, 300];
    let x: Vec<i64> = (0..1800).map(|v| v * 7 - 900).collect();
    for dev in common::devices() {
        let t = TensorT::from_slice(&dev, &x, xs).unwrap();
        let idx = ints(5, 3, 21);
        let (want, ws) = {
            let xf: Vec<f32> = x.iter().map(|&v| v as f32).collect();
            ref_index_select(&xf, &xs, 1, &idx)
        };
        let i = TensorT::from_slice(&dev, &idx, [5]).unwrap();
        let got = k::index_select::launch(&t, 1, &i).unwrap();
        assert_eq!(got.shape(), ws.as_slice(), "{dev}");
        let got: Vec<f32> = got.to_vec().unwrap().iter().map(|&v| v as f32).collect();
        assert_eq!(got, want, "{dev}");
        // lines of 300 (the lines' kernel): two bad indices, the error names
        // the first
        let i = TensorT::from_slice(&dev, &[1i64, 3, 0, -2, 2], [5]).unwrap();
        let err = k::index_select::launch(&t, 1, &i).unwrap_err();
        assert!(err.to_string().contains("index 3 (at [1]"), "{dev}: {err}");
        for (dim, is) in [
            (1usize, [2usize, 4, 260]),
            (0, [2, 3, 299]),
            (2, [1, 2, 301]),
        ] {
            let n: usize = is.iter().product();
            let idx = ints(n, xs[dim] as u64, 30 + dim as u64);
            let want = ref_gather(&x, &xs, dim, &idx, &is);
            let i = TensorT::from_slice(&dev, &idx, is).unwrap();
            let got = k::gather::launch(&t, dim as isize, &i).unwrap();
            assert_eq!(got.to_vec().unwrap(), want, "{dev} dim {dim}");
            // two bad indices: the error names the first
            let mut bad = idx.clone();
            let (first, later) = (n / 3 + 1, n / 2);
            bad[later] = -1;
            bad[first] = xs[dim] as i64;
            let i = TensorT::from_slice(&dev, &bad, is).unwrap();
            let err = k::gather::launch(&t, dim as isize, &i).unwrap_err();
            let at = unravel(first, &is);
            assert!(
                err.to_string()
                    .contains(&format!("index {} (at {at:?}", xs[dim])),
                "{dev} dim {dim}: {err}"
            );
        }
    }
}

#[test]
fn gather_errors() {
    for dev in common::devices() {
        let x = TensorT::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0], [2, 2]).unwrap();
        let i = |v: &[i64], s: &[usize]| TensorT::from_slice(&dev, v, s).unwrap();
        for bad in [-1i64, 2] {
            let err = k::gather::launch(&x, 1, &i(&[0, bad, 1, 1], &[2, 2])).unwrap_err();
            assert!(is_out_of_range(&err, "gather"), "{dev}: {err:?}");
            assert!(
                err.to_string().contains(&format!("index {bad} (at [0, 1]")),
                "{err}"
            );
        }
        // a dimension of size 0 and indices along it: every one out of range
        let none = TensorT::<f32>::zeros(&dev, [2, 0]).unwrap();
        let err = k::gather::launch(&none, 1, &i(&[0, 0], &[2, 1])).unwrap_err();
        assert!(
            err.to_string().contains("index 0 (at [0, 0]"),
            "{dev}: {err}"
        );
        // and `take` from an empty input
        let empty = TensorT::<f32>::zeros(&dev, [0]).unwrap();
        let err = k::take::launch(&empty, &i(&[0], &[1])).unwrap_err();
        assert!(is_out_of_range(&err, "take"), "{dev}: {err:?}");
        // more rows than x apart from dim; another dimension count
        let err = k::gather::launch(&x, 1, &i(&[0; 6], &[3, 2])).unwrap_err();
        assert!(is_invalid(&err, "gather"), "{err:?}");
        let err = k::gather::launch(&x, 1, &i(&[0; 2], &[2])).unwrap_err();
        assert!(is_invalid(&err, "gather"), "{err:?}");
        // i64 only
        let i32s = Tensor::from_slice(&dev, &[0i32; 4], [2, 2]).unwrap();
        let err = k::gather::dispatch(x.as_tensor(), 0, &i32s).unwrap_err();
        assert!(matches!(err, Error::DTypeMismatch { .. }), "{err:?}");
    }
}

// ---- scatter_add ----

/// `x` plus `src` added at `index` along `dim`, in order (wrapping or in
/// `f64`, exact for the values used here).
fn ref_scatter_add(
    x: &[f64],
    xs: &[usize],
    dim: usize,
    idx: &[i64],
    is: &[usize],
    src: &[f64],
    ss: &[usize],
) -> Vec<f64> {
    let mut out = x.to_vec();
    for (e, &v) in idx.iter().enumerate() {
        let at = unravel(e, is);
        let s = src[offset(&at, ss)];
        let mut to = at.clone();
        to[dim] = v as usize;
        out[offset(&to, xs)] += s;
    }
    out
}

#[test]
fn scatter_add_matches_the_reference_in_every_form() {
    // index smaller than src everywhere and than x apart from dim, in
    // several dimensions (the narrowed result goes through a copy); as a
    // CPU (a work-item a line) and as a GPU with few lines (atomics for
    // f32, i32, f64 and u64; a work-item per output element for f16, i16)
    let (xs, ss) = ([4usize, 3, 5], [5usize, 6, 6]);
    let x: Vec<f64> = (0..60).map(|v| (v % 7) as f64).collect();
    let src: Vec<f64> = (0..180).map(|v| (v % 5) as f64 - 2.0).collect();
    for (dev, kind) in common::devices()
        .into_iter()
        .flat_map(|d| [(d.clone(), None), (d, Some(DeviceKind::Gpu))])
    {
        silt::__testing::reduce_as(kind);
        for dim in 0..3 {
            let mut is = vec![3usize, 2, 4];
            is[dim] = 5;
            let n: usize = is.iter().product();
            let idx = ints(n, xs[dim] as u64, 20 + dim as u64);
            let want = ref_scatter_add(&x, &xs, dim, &idx, &is, &src, &ss);
            let it = TensorT::from_slice(&dev, &idx, &is).unwrap();
            // f32 and i32 by atomics, f16 and i16 in order
            let xf: Vec<f32> = x.iter().map(|&v| v as f32).collect();
            let sf: Vec<f32> = src.iter().map(|&v| v as f32).collect();
            let got = k::scatter_add::launch(
                &TensorT::from_slice(&dev, &xf, xs).unwrap(),
                dim as isize,
                &it,
                &TensorT::from_slice(&dev, &sf, ss).unwrap(),
            )
            .unwrap();
            let wf: Vec<f32> = want.iter().map(|&v| v as f32).collect();
            assert_eq!(got.to_vec().unwrap(), wf, "{dev} f32 dim {dim}");
            for dtype in [DType::I32, DType::I16, DType::F16, DType::F64, DType::U64] {
                let (xt, st) = typed_pair(&dev, dtype, &x, &xs, &src, &ss);
                let got = k::scatter_add::dispatch(&xt, dim as isize, it.as_tensor(), &st).unwrap();
                assert_eq!(got.dtype(), dtype);
                let got = k::to_f64::dispatch(&got).unwrap().to_vec::<f64>().unwrap();
                let want: Vec<f64> = want.iter().map(|&v| wrap(v, dtype)).collect();
                assert_eq!(got, want, "{dev} as {kind:?}: {dtype} dim {dim}");
            }
        }
    }
    silt::__testing::reduce_as(None);
}

/// `x` plus `src` added at `index` along dimension 0 of `[n, lines]`, each
/// output element in order of position, rounding in `f32` after each
/// addition (PyTorch's loop on the CPU).
fn ordered_f32(x: &[f32], idx: &[i64], src: &[f32], lines: usize) -> Vec<f32> {
    let mut out = x.to_vec();
    for (e, &v) in idx.iter().enumerate() {
        let (k, i) = (e / lines, e % lines);
        out[v as usize * lines + i] += src[k * lines + i];
    }
    out
}

#[test]
fn scatter_add_of_floats_adds_in_order_of_position() {
    // sums of floats whose bits depend on the order: the host, a CPU
    // device and a GPU with many lines (a work-item a line) all give the
    // bits of PyTorch's CPU loop, run after run
    let lines = k::scatter_add::GPU_LINES;
    let (n, m) = (3usize, 5usize);
    let mut rng = common::Rng::seeded(77);
    let mut float = || (rng.next_u64() % 2001) as f32 * 1.37e-3 - 1.0;
    let x: Vec<f32> = (0..n * lines).map(|_| float()).collect();
    let src: Vec<f32> = (0..m * lines).map(|_| float() * 1e3).collect();
    let idx = ints(m * lines, n as u64, 5);
    let want = ordered_f32(&x, &idx, &src, lines);
    let reversed = {
        // the same sums in the opposite order differ somewhere: the test
        // can tell an order from another
        let (mut r, ri, rs) = (x.clone(), idx.chunks(lines).rev(), src.chunks(lines).rev());
        for (ic, sc) in ri.zip(rs) {
            for (i, (&v, &s)) in ic.iter().zip(sc).enumerate() {
                r[v as usize * lines + i] += s;
            }
        }
        r
    };
    assert_ne!(reversed, want);
    for (dev, kind) in common::devices()
        .into_iter()
        .flat_map(|d| [(d.clone(), None), (d, Some(DeviceKind::Gpu))])
    {
        silt::__testing::reduce_as(kind);
        let xt = TensorT::from_slice(&dev, &x, [n, lines]).unwrap();
        let it = TensorT::from_slice(&dev, &idx, [m, lines]).unwrap();
        let st = TensorT::from_slice(&dev, &src, [m, lines]).unwrap();
        for _ in 0..2 {
            let got = k::scatter_add::launch(&xt, 0, &it, &st).unwrap();
            let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
            assert!(
                bits(&got.to_vec().unwrap()) == bits(&want),
                "{dev} as {kind:?}"
            );
        }
    }
    silt::__testing::reduce_as(None);
}

/// `v` as stored in `dtype` (unsigned types wrap).
fn wrap(v: f64, dtype: DType) -> f64 {
    match dtype {
        DType::U64 => (v as i64 as u64) as f64,
        DType::U8 => (v as i64 as u8) as f64,
        _ => v,
    }
}

/// `x` and `src` as tensors of `dtype`.
fn typed_pair(
    dev: &Device,
    dtype: DType,
    x: &[f64],
    xs: &[usize],
    src: &[f64],
    ss: &[usize],
) -> (Tensor, Tensor) {
    let t = |v: &[f64], s: &[usize]| -> Tensor {
        match dtype {
            DType::I32 => {
                Tensor::from_slice(dev, &v.iter().map(|&a| a as i32).collect::<Vec<_>>(), s)
            }
            DType::I16 => {
                Tensor::from_slice(dev, &v.iter().map(|&a| a as i16).collect::<Vec<_>>(), s)
            }
            DType::U8 => Tensor::from_slice(
                dev,
                &v.iter().map(|&a| a as i64 as u8).collect::<Vec<_>>(),
                s,
            ),
            DType::U64 => Tensor::from_slice(
                dev,
                &v.iter().map(|&a| a as i64 as u64).collect::<Vec<_>>(),
                s,
            ),
            DType::F16 => Tensor::from_slice(
                dev,
                &v.iter().map(|&a| f16::from_f64(a)).collect::<Vec<_>>(),
                s,
            ),
            _ => Tensor::from_slice(dev, v, s),
        }
        .unwrap()
    };
    (t(x, xs), t(src, ss))
}

#[test]
fn scatter_add_edge_cases_and_errors() {
    for dev in common::devices() {
        let x = TensorT::from_slice(&dev, &[1.0f32, 2.0, 3.0], [3]).unwrap();
        let i = |v: &[i64]| TensorT::from_slice(&dev, v, [v.len()]).unwrap();
        let s = TensorT::from_slice(&dev, &[10.0f32, 20.0, 30.0, 40.0], [4]).unwrap();
        // an empty index: a copy of x, not x itself
        let got = k::scatter_add::launch(&x, 0, &i(&[]), &s).unwrap();
        assert_eq!(got.to_vec().unwrap(), [1.0, 2.0, 3.0]);
        assert!(!got.as_tensor().shares_storage(x.as_tensor()));
        // u8 sums wrap
        let xu = TensorT::from_slice(&dev, &[250u8, 0], [2]).unwrap();
        let su = TensorT::from_slice(&dev, &[3u8, 4, 5], [3]).unwrap();
        let got = k::scatter_add::launch(&xu, 0, &i(&[0, 0, 1]), &su).unwrap();
        assert_eq!(got.to_vec().unwrap(), [1, 5]);
        // out of range (negative included): an error, x untouched
        for bad in [&[0i64, 3, 1][..], &[-1], &[0, 1, 2, -4]] {
            let err = k::scatter_add::launch(&x, 0, &i(bad), &s).unwrap_err();
            assert!(
                is_out_of_range(&err, "scatter_add"),
                "{dev} {bad:?}: {err:?}"
            );
        }
        let xh = TensorT::from_slice(&dev, &[f16::ONE; 3], [3]).unwrap();
        let sh = TensorT::from_slice(&dev, &[f16::ONE; 3], [3]).unwrap();
        let err = k::scatter_add::launch(&xh, 0, &i(&[0, 7, 1]), &sh).unwrap_err();
        assert!(is_out_of_range(&err, "scatter_add"), "{err:?}");
        assert!(err.to_string().contains("index 7 (at [1]"), "{err}");
        assert_eq!(x.to_vec().unwrap(), [1.0, 2.0, 3.0]);
        // index larger than src; dtypes
        let err = k::scatter_add::launch(&x, 0, &i(&[0; 5]), &s).unwrap_err();
        assert!(is_invalid(&err, "scatter_add"), "{err:?}");
        let sd = Tensor::from_slice(&dev, &[1.0f64; 4], [4]).unwrap();
        let err = k::scatter_add::dispatch(x.as_tensor(), 0, i(&[0]).as_tensor(), &sd).unwrap_err();
        assert!(matches!(err, Error::DTypeMismatch { .. }), "{err:?}");
        let b = Tensor::from_slice(&dev, &[true], [1]).unwrap();
        let err = k::scatter_add::dispatch(&b, 0, i(&[0]).as_tensor(), &b).unwrap_err();
        assert!(
            matches!(
                err,
                Error::UnsupportedDType {
                    kernel: "scatter_add",
                    ..
                }
            ),
            "{err:?}"
        );
    }
}

/// `scatter_add` of a 0-d and of a one-element input, as PyTorch's (a 0-d
/// tensor has the one index 0 along dimension 0 or -1): in each form a
/// device takes (a walk along the lines; a GPU's atomics, and its work-item
/// an output element), with the sum rounded once in `f32` and `f16`; an
/// index out of range, negative included, and a bad dimension are errors.
/// silt has no in-place `scatter_add_`: a failed launch returns no tensor,
/// so there is no destination to find untouched.
#[test]
fn scatter_add_of_0d_and_one_element_inputs() {
    for dev in common::devices() {
        let kinds = if dev.is_host() {
            vec![None]
        } else {
            vec![Some(DeviceKind::Cpu), Some(DeviceKind::Gpu)]
        };
        for kind in kinds {
            silt::__testing::reduce_as(kind);
            let what = format!("{dev} as {kind:?}");
            for shape in [&[][..], &[1][..], &[1, 1][..]] {
                // one f32 addition: the f64 sum of two f32s is exact, rounded once
                let (a, b) = (0.1f32, 0.2f32);
                let want = (f64::from(a) + f64::from(b)) as f32;
                let x = TensorT::from_slice(&dev, &[a], shape).unwrap();
                let s = TensorT::from_slice(&dev, &[b], shape).unwrap();
                let zero = TensorT::from_slice(&dev, &[0i64], shape).unwrap();
                for dim in [0isize, -1] {
                    let got = k::scatter_add::launch(&x, dim, &zero, &s).unwrap();
                    assert_eq!(got.shape(), shape, "{what}");
                    assert_eq!(
                        got.to_vec().unwrap()[0].to_bits(),
                        want.to_bits(),
                        "{what} {shape:?} along {dim}"
                    );
                }
                // f16 (a GPU's work-item an output element) and an integer
                let h = |v: f32| TensorT::from_slice(&dev, &[f16::from_f32(v)], shape).unwrap();
                let got =
                    k::scatter_add::launch(&h(1.0), 0, &zero, &h(f32::from(f16::EPSILON))).unwrap();
                let want = f16::from_f32(1.0 + f32::from(f16::EPSILON));
                assert_eq!(got.to_vec().unwrap(), [want], "{what} f16 {shape:?}");
                let xi = TensorT::from_slice(&dev, &[i32::MAX], shape).unwrap();
                let si = TensorT::from_slice(&dev, &[1i32], shape).unwrap();
                let got = k::scatter_add::launch(&xi, -1, &zero, &si).unwrap();
                assert_eq!(
                    got.to_vec().unwrap(),
                    [i32::MIN],
                    "{what} i32 wraps {shape:?}"
                );
                // an index of 1 or -1: out of range; an empty index: a copy
                for bad in [1i64, -1] {
                    let i = TensorT::from_slice(&dev, &[bad], shape).unwrap();
                    let err = k::scatter_add::launch(&x, 0, &i, &s).unwrap_err();
                    assert!(
                        is_out_of_range(&err, "scatter_add"),
                        "{what} {shape:?} {bad}: {err:?}"
                    );
                }
                if !shape.is_empty() {
                    let mut es = shape.to_vec();
                    es[0] = 0;
                    let i = TensorT::<i64>::zeros(&dev, es.as_slice()).unwrap();
                    let got = k::scatter_add::launch(&x, 0, &i, &s).unwrap();
                    assert_eq!(got.to_vec().unwrap(), [a], "{what} {shape:?} empty index");
                }
                // a dimension past the tensor's
                let nd = shape.len().max(1) as isize;
                for dim in [nd, -nd - 1] {
                    let err = k::scatter_add::launch(&x, dim, &zero, &s).unwrap_err();
                    assert!(
                        matches!(err, Error::AxisOutOfRange { .. }),
                        "{what} {shape:?} {dim}: {err:?}"
                    );
                }
            }
            silt::__testing::reduce_as(None);
        }
    }
}

// ---- take ----

#[test]
fn take_reads_flat_positions_and_counts_negatives_from_the_end() {
    for dev in common::devices() {
        let base: Vec<f32> = (0..12).map(|v| v as f32).collect();
        let x = TensorT::from_slice(&dev, &base, [3, 4]).unwrap();
        let idx = [0i64, 11, -1, -12, 5, 5];
        let i = TensorT::from_slice(&dev, &idx, [2, 3]).unwrap();
        let got = k::take::launch(&x, &i).unwrap();
        assert_eq!(got.shape(), [2, 3]);
        assert_eq!(
            got.to_vec().unwrap(),
            [0.0, 11.0, 11.0, 0.0, 5.0, 5.0],
            "{dev}"
        );
        // a transposed input: its row-major order, not its storage's
        let t = x.transpose(0, 1).unwrap(); // [4, 3]
        let got =
            k::take::launch(&t, &TensorT::from_slice(&dev, &[1i64, 3], [2]).unwrap()).unwrap();
        assert_eq!(got.to_vec().unwrap(), [4.0, 1.0], "{dev}");
        // 0-d input and index; empty index
        let z = TensorT::from_slice(&dev, &[9i16], []).unwrap();
        let zi = TensorT::from_slice(&dev, &[-1i64], []).unwrap();
        let got = k::take::launch(&z, &zi).unwrap();
        assert_eq!((got.shape(), got.to_vec().unwrap()), (&[][..], vec![9]));
        let e = k::take::launch(&x, &TensorT::from_slice(&dev, &[], [0, 2]).unwrap()).unwrap();
        assert_eq!(e.shape(), [0, 2]);
        // out of range on both sides
        for bad in [12i64, -13] {
            let err = k::take::launch(&x, &TensorT::from_slice(&dev, &[0, bad], [2]).unwrap())
                .unwrap_err();
            assert!(is_out_of_range(&err, "take"), "{dev}: {err:?}");
            assert!(err.to_string().contains(&format!("index {bad}")), "{err}");
            assert!(
                err.to_string().contains("for an input of size 12;"),
                "{err}"
            );
        }
        let empty = TensorT::<f32>::zeros(&dev, [0]).unwrap();
        let err =
            k::take::launch(&empty, &TensorT::from_slice(&dev, &[0i64], [1]).unwrap()).unwrap_err();
        assert!(is_out_of_range(&err, "take"), "{err:?}");
    }
}

// ---- bincount ----

fn ref_bincount(x: &[i64], w: Option<&[f64]>, minlength: usize) -> Vec<f64> {
    let bins = x
        .iter()
        .map(|&v| v as usize + 1)
        .max()
        .unwrap_or(0)
        .max(minlength);
    let mut out = vec![0.0; bins];
    for (i, &v) in x.iter().enumerate() {
        out[v as usize] += w.map_or(1.0, |w| w[i]);
    }
    out
}

#[test]
fn bincount_counts_in_group_memory_and_past_it() {
    for dev in common::devices() {
        // 5,000 values below 50 (counted per work-group) and below 3,000
        // (past the 1,024 bins of a group's memory)
        for top in [50u64, 3000] {
            let x = ints(5000, top, top);
            let want: Vec<i64> = ref_bincount(&x, None, 0)
                .iter()
                .map(|&v| v as i64)
                .collect();
            let t = TensorT::from_slice(&dev, &x, [5000]).unwrap();
            let got = k::bincount::launch(&t, None, 0).unwrap();
            assert_eq!(got.dtype(), DType::I64);
            assert_eq!(got.to_vec::<i64>().unwrap(), want, "{dev} below {top}");
        }
        // u8 and i8 inputs; minlength past the largest value
        let x: Vec<u8> = (0..300).map(|v| (v * 7 % 251) as u8).collect();
        let xi: Vec<i64> = x.iter().map(|&v| i64::from(v)).collect();
        let got =
            k::bincount::launch(&TensorT::from_slice(&dev, &x, [300]).unwrap(), None, 260).unwrap();
        let want: Vec<i64> = ref_bincount(&xi, None, 260)
            .iter()
            .map(|&v| v as i64)
            .collect();
        assert_eq!(got.to_vec::<i64>().unwrap(), want, "{dev} u8");
        let x8 = TensorT::from_slice(&dev, &[3i8, 0, 3], [3]).unwrap();
        assert_eq!(
            k::bincount::launch(&x8, None, 0)
                .unwrap()
                .to_vec::<i64>()
                .unwrap(),
            [1, 0, 0, 2]
        );
    }
}

#[test]
fn bincount_with_weights_gives_pytorchs_dtypes() {
    // as a CPU (one line walked in order) and as a GPU (atomics)
    for (dev, kind) in common::devices()
        .into_iter()
        .flat_map(|d| [(d.clone(), None), (d, Some(DeviceKind::Gpu))])
    {
        silt::__testing::reduce_as(kind);
        let x = ints(700, 40, 3);
        // weights whose sums are exact in any order
        let w: Vec<f64> = (0..700).map(|i| f64::from(i % 9) * 0.5 - 2.0).collect();
        let want = ref_bincount(&x, Some(&w), 45);
        let t = TensorT::from_slice(&dev, &x, [700]).unwrap();
        let wf: Vec<f32> = w.iter().map(|&v| v as f32).collect();
        let got = k::bincount::launch(&t, Some(&Tensor::from_slice(&dev, &wf, [700]).unwrap()), 45)
            .unwrap();
        assert_eq!(got.dtype(), DType::F32);
        let wantf: Vec<f32> = want.iter().map(|&v| v as f32).collect();
        assert_eq!(got.to_vec::<f32>().unwrap(), wantf, "{dev} f32");
        let got = k::bincount::launch(&t, Some(&Tensor::from_slice(&dev, &w, [700]).unwrap()), 45)
            .unwrap();
        assert_eq!(
            (got.dtype(), got.to_vec::<f64>().unwrap()),
            (DType::F64, want.clone()),
            "{dev} f64"
        );
        // integer (and f16) weights sum in f64
        let wi: Vec<i32> = (0..700).map(|i| i % 9 - 4).collect();
        let wantf: Vec<f64> = ref_bincount(
            &x,
            Some(&wi.iter().map(|&v| f64::from(v)).collect::<Vec<_>>()),
            0,
        );
        let got = k::bincount::launch(&t, Some(&Tensor::from_slice(&dev, &wi, [700]).unwrap()), 0)
            .unwrap();
        assert_eq!(
            (got.dtype(), got.to_vec::<f64>().unwrap()),
            (DType::F64, wantf),
            "{dev} i32"
        );
        // bool weights: 1 where true, in f64
        let wb: Vec<bool> = (0..700).map(|i| i % 3 == 0).collect();
        let wantb = ref_bincount(
            &x,
            Some(
                &wb.iter()
                    .map(|&v| f64::from(u8::from(v)))
                    .collect::<Vec<_>>(),
            ),
            0,
        );
        let got = k::bincount::launch(&t, Some(&Tensor::from_slice(&dev, &wb, [700]).unwrap()), 0)
            .unwrap();
        assert_eq!(
            (got.dtype(), got.to_vec::<f64>().unwrap()),
            (DType::F64, wantb),
            "{dev} as {kind:?}: bool"
        );
    }
    silt::__testing::reduce_as(None);
}

#[test]
fn bincount_adds_float_weights_in_order_on_the_host_and_cpus() {
    // sums whose bits depend on the order: PyTorch's CPU loop, run after run
    let mut rng = common::Rng::seeded(91);
    let x: Vec<i32> = (0..5000).map(|_| (rng.next_u64() % 7) as i32).collect();
    let w: Vec<f32> = (0..5000)
        .map(|_| (rng.next_u64() % 100_001) as f32 * 3.3e-3 - 150.0)
        .collect();
    let mut want = vec![0.0f32; 7];
    for (&b, &v) in x.iter().zip(&w) {
        want[b as usize] += v;
    }
    let mut backwards = vec![0.0f32; 7];
    for (&b, &v) in x.iter().zip(&w).rev() {
        backwards[b as usize] += v;
    }
    // the test can tell one order from another
    assert_ne!(backwards, want);
    // the order is promised on the host and CPU devices (Oclgrind's device
    // is not a CPU device to silt: it adds by atomics there)
    for dev in common::devices()
        .into_iter()
        .filter(|d| matches!(d.info().kind, DeviceKind::Host | DeviceKind::Cpu))
    {
        let t = TensorT::from_slice(&dev, &x, [x.len()]).unwrap();
        let wt = Tensor::from_slice(&dev, &w, [w.len()]).unwrap();
        for _ in 0..2 {
            let got = k::bincount::launch(&t, Some(&wt), 0).unwrap();
            let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
            assert!(bits(&got.to_vec::<f32>().unwrap()) == bits(&want), "{dev}");
        }
    }
}

#[test]
fn bincount_edge_cases_and_errors() {
    for dev in common::devices() {
        let empty = TensorT::<i64>::zeros(&dev, [0]).unwrap();
        let got = k::bincount::launch(&empty, None, 0).unwrap();
        assert_eq!(got.shape(), [0]);
        let got = k::bincount::launch(&empty, None, 3).unwrap();
        assert_eq!(got.to_vec::<i64>().unwrap(), [0, 0, 0]);
        let ew = Tensor::zeros(&dev, DType::F32, [0]).unwrap();
        // PyTorch's: i64 zeros for an empty input, weights or not
        let got = k::bincount::launch(&empty, Some(&ew), 2).unwrap();
        assert_eq!(
            (got.dtype(), got.to_vec::<i64>().unwrap()),
            (DType::I64, vec![0, 0])
        );
        let one = TensorT::from_slice(&dev, &[4i32], [1]).unwrap();
        assert_eq!(
            k::bincount::launch(&one, None, 0)
                .unwrap()
                .to_vec::<i64>()
                .unwrap(),
            [0, 0, 0, 0, 1]
        );
        // a negative value, a 2-d input, weights of another length, a float input
        let neg = TensorT::from_slice(&dev, &[1i64, -2, 3], [3]).unwrap();
        let err = k::bincount::launch(&neg, None, 0).unwrap_err();
        assert!(
            is_invalid(&err, "bincount") && err.to_string().contains("-2"),
            "{err:?}"
        );
        let m = TensorT::from_slice(&dev, &[1i64, 2], [1, 2]).unwrap();
        assert!(is_invalid(
            &k::bincount::launch(&m, None, 0).unwrap_err(),
            "bincount"
        ));
        let w = Tensor::from_slice(&dev, &[1.0f32; 2], [2]).unwrap();
        assert!(is_invalid(
            &k::bincount::launch(&neg, Some(&w), 0).unwrap_err(),
            "bincount"
        ));
        let f = Tensor::from_slice(&dev, &[1.0f32], [1]).unwrap();
        let err = k::bincount::dispatch(&f, None, 0).unwrap_err();
        assert!(
            matches!(
                err,
                Error::UnsupportedDType {
                    kernel: "bincount",
                    ..
                }
            ),
            "{err:?}"
        );
    }
}

// ---- histc ----

/// PyTorch's `histc` of `x` over `[lo, hi]` (already resolved), each bin
/// position computed by `pos` (in the element type).
fn ref_histc(x: &[f64], bins: usize, lo: f64, hi: f64, pos: impl Fn(f64) -> u64) -> Vec<f64> {
    let mut out = vec![0.0; bins];
    for &v in x {
        if v >= lo && v <= hi {
            out[(pos(v) as usize).min(bins - 1)] += 1.0;
        }
    }
    out
}

fn f32_pos(lo: f32, hi: f32, bins: usize) -> impl Fn(f64) -> u64 {
    move |v| ((v as f32 - lo) * bins as f32 / (hi - lo)) as u64
}

#[test]
fn histc_matches_pytorchs_bins() {
    for dev in common::devices() {
        // 6,000 values: several work-groups; edges hit exactly
        let x: Vec<f32> = ints(6000, 2001, 5)
            .iter()
            .map(|&v| v as f32 * 0.01 - 7.0)
            .collect();
        let xd: Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
        let t = TensorT::from_slice(&dev, &x, [60, 100]).unwrap();
        let (lo, hi) = (-7.0f32, 13.0f32);
        for bins in [1usize, 7, 100, 1500] {
            // the default range: the data's
            let want = ref_histc(
                &xd,
                bins,
                f64::from(lo),
                f64::from(hi),
                f32_pos(lo, hi, bins),
            );
            let got = k::histc::launch(&t, bins, 0.0, 0.0).unwrap();
            let got: Vec<f64> = got
                .to_vec()
                .unwrap()
                .iter()
                .map(|&v| f64::from(v))
                .collect();
            assert_eq!(got, want, "{dev} {bins} bins");
            assert_eq!(got.iter().sum::<f64>(), 6000.0);
        }
        // a given range: elements outside count nowhere, the top edge in
        // the last bin
        let want = ref_histc(&xd, 10, -1.0, 2.5, f32_pos(-1.0, 2.5, 10));
        let got = k::histc::launch(&t, 10, -1.0, 2.5).unwrap();
        let got: Vec<f64> = got
            .to_vec()
            .unwrap()
            .iter()
            .map(|&v| f64::from(v))
            .collect();
        assert_eq!(got, want, "{dev} range");
        // f64 and f16 compute in their own type
        let t64 = TensorT::from_slice(&dev, &xd, [6000]).unwrap();
        let pos64 = |v: f64| ((v + 7.0) * 30.0 / 20.0) as u64;
        let got = k::histc::launch(&t64, 30, 0.0, 0.0)
            .unwrap()
            .to_vec()
            .unwrap();
        let want = ref_histc(&xd, 30, -7.0, 13.0, pos64);
        assert_eq!(got, want, "{dev} f64");
        let xh: Vec<f16> = (0..500)
            .map(|i| f16::from_f32(i as f32 * 0.037 - 3.0))
            .collect();
        let xhd: Vec<f64> = xh.iter().map(|v| v.to_f64()).collect();
        let (hl, hh) = (f16::from_f64(-3.0), f16::from_f64(15.0));
        let posh =
            |v: f64| ((f16::from_f64(v) - hl) * f16::from_f64(13.0) / (hh - hl)).to_f64() as u64;
        let got = k::histc::launch(
            &TensorT::from_slice(&dev, &xh, [500]).unwrap(),
            13,
            -3.0,
            15.0,
        )
        .unwrap();
        let got: Vec<f64> = got.to_vec().unwrap().iter().map(|v| v.to_f64()).collect();
        assert_eq!(got, ref_histc(&xhd, 13, -3.0, 15.0, posh), "{dev} f16");
    }
}

#[test]
fn histc_edge_cases_and_errors() {
    for dev in common::devices() {
        let t = |v: &[f32]| TensorT::from_slice(&dev, v, [v.len()]).unwrap();
        // empty: zeros; one value (or all equal): the range [v - 1, v + 1]
        assert_eq!(
            k::histc::launch(&t(&[]), 3, 0.0, 0.0)
                .unwrap()
                .to_vec()
                .unwrap(),
            [0.0; 3]
        );
        assert_eq!(
            k::histc::launch(&t(&[2.0]), 4, 0.0, 0.0)
                .unwrap()
                .to_vec()
                .unwrap(),
            [0.0, 0.0, 1.0, 0.0]
        );
        assert_eq!(
            k::histc::launch(&t(&[5.0, 5.0]), 2, 5.0, 5.0)
                .unwrap()
                .to_vec()
                .unwrap(),
            [0.0, 2.0]
        );
        // min == max given and not 0 also takes the data's range
        assert_eq!(
            k::histc::launch(&t(&[1.0, 3.0]), 2, 7.0, 7.0)
                .unwrap()
                .to_vec()
                .unwrap(),
            [1.0, 1.0]
        );
        // NaN and infinities count nowhere in a given range
        let odd = t(&[f32::NAN, 0.5, f32::INFINITY, f32::NEG_INFINITY, 1.0]);
        assert_eq!(
            k::histc::launch(&odd, 2, 0.0, 1.0)
                .unwrap()
                .to_vec()
                .unwrap(),
            [0.0, 2.0]
        );
        // ... and make the data's range not finite: an error
        for bad in [&[1.0f32, f32::NAN][..], &[f32::INFINITY, 0.0]] {
            let err = k::histc::launch(&t(bad), 2, 0.0, 0.0).unwrap_err();
            assert!(is_invalid(&err, "histc"), "{dev}: {err:?}");
        }
        for (bins, lo, hi) in [
            (0usize, 0.0, 1.0),
            (3, 2.0, 1.0),
            (3, f64::NEG_INFINITY, 1.0),
        ] {
            let err = k::histc::launch(&t(&[1.0]), bins, lo, hi).unwrap_err();
            assert!(is_invalid(&err, "histc"), "{bins} {lo} {hi}: {err:?}");
        }
        // ranges whose width times the bins (or the width itself)
        // overflows the element type: the right bins still
        let big = t(&[-1e38, 0.0, 1e38, 1e36, 2e38]);
        assert_eq!(
            k::histc::launch(&big, 4, -3e38, 3e38)
                .unwrap()
                .to_vec()
                .unwrap(),
            [0.0, 1.0, 3.0, 1.0],
            "{dev}"
        );
        let wide = k::histc::launch(&t(&[1e36, 2e38]), 1024, 0.0, 3e38)
            .unwrap()
            .to_vec()
            .unwrap();
        let at: Vec<usize> = (0..1024).filter(|&b| wide[b] != 0.0).collect();
        assert_eq!(at, [3, 682], "{dev}");
        let h: Vec<f16> = [700.0f32, 100.0, 999.0]
            .iter()
            .map(|&v| f16::from_f32(v))
            .collect();
        let got = k::histc::launch(
            &TensorT::from_slice(&dev, &h, [3]).unwrap(),
            100,
            0.0,
            1000.0,
        )
        .unwrap()
        .to_vec()
        .unwrap();
        let at: Vec<usize> = (0..100).filter(|&b| got[b].to_f64() != 0.0).collect();
        assert_eq!(at, [10, 70, 99], "{dev} f16");
        let i = Tensor::from_slice(&dev, &[1i32], [1]).unwrap();
        let err = k::histc::dispatch(&i, 3, 0.0, 0.0).unwrap_err();
        assert!(
            matches!(
                err,
                Error::UnsupportedDType {
                    kernel: "histc",
                    ..
                }
            ),
            "{err:?}"
        );
    }
}

#[test]
fn indexing_moves_every_bit_nan_payloads_and_signed_zeros_included() {
    let odd = [
        f32::from_bits(0x7fc0_1234),
        -0.0,
        f32::from_bits(0xffa0_0001),
        f32::INFINITY,
        f32::MIN_POSITIVE / 3.0,
    ];
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    for dev in common::devices() {
        let x = TensorT::from_slice(&dev, &odd, [5]).unwrap();
        let i = TensorT::from_slice(&dev, &[4i64, 2, 0, 1, 3, 0], [6]).unwrap();
        let want: Vec<f32> = [4, 2, 0, 1, 3, 0].iter().map(|&j| odd[j]).collect();
        let a = k::index_select::launch(&x, 0, &i)
            .unwrap()
            .to_vec()
            .unwrap();
        let b = k::gather::launch(&x, 0, &i).unwrap().to_vec().unwrap();
        let c = k::take::launch(&x, &i).unwrap().to_vec().unwrap();
        for got in [a, b, c] {
            assert_eq!(bits(&got), bits(&want), "{dev}");
        }
        // scatter_add of one element into 0 keeps a NaN a NaN
        let z = TensorT::<f32>::zeros(&dev, [2]).unwrap();
        let s = k::scatter_add::launch(
            &z,
            0,
            &TensorT::from_slice(&dev, &[1i64, 0], [2]).unwrap(),
            &x,
        )
        .unwrap()
        .to_vec()
        .unwrap();
        assert!(s[1].is_nan() && s[0] == 0.0, "{dev}: {s:?}");
        // bool bytes other than 0 and 1 (written through a u8 view) are
        // read as true and written as 1, on the host as on a device
        let b = Tensor::from_slice(&dev, &[true, false, true, false], [2, 2]).unwrap();
        let mut bytes = b.view_dtype(DType::U8).unwrap();
        bytes
            .copy_from(&Tensor::from_slice(&dev, &[1u8, 2, 0, 7], [2, 2]).unwrap())
            .unwrap();
        let idx = TensorT::from_slice(&dev, &[1i64, 0, 1], [3]).unwrap();
        let raw = |t: Tensor| t.view_dtype(DType::U8).unwrap().to_vec::<u8>().unwrap();
        let picked = k::index_select::dispatch(&b, 1, idx.as_tensor()).unwrap();
        assert_eq!(raw(picked), [1, 1, 1, 1, 0, 1], "{dev} index_select");
        let g = TensorT::from_slice(&dev, &[1i64, 1, 0, 1], [2, 2]).unwrap();
        let gathered = k::gather::dispatch(&b, 1, g.as_tensor()).unwrap();
        assert_eq!(raw(gathered), [1, 1, 0, 1], "{dev} gather");
        let taken = k::take::dispatch(&b, idx.as_tensor()).unwrap();
        assert_eq!(raw(taken), [1, 1, 1], "{dev} take");
    }
}

#[test]
fn the_hosts_parallel_forms_match_the_references_across_their_tasks() {
    // outputs of tens of thousands of elements: the host's loops split them
    // into tasks of rows, whose first rows start inside an outer block; a
    // scatter of long lines shares its columns out between threads
    let dev = Device::host();
    let xs = [3usize, 1001, 6];
    let n: usize = xs.iter().product();
    let x: Vec<i64> = (0..n as i64).map(|v| v * 7 - 3).collect();
    let t = TensorT::from_slice(&dev, &x, xs).unwrap();
    let xf: Vec<f64> = x.iter().map(|&v| v as f64).collect();
    for dim in 0..3 {
        let idx = ints(1001, xs[dim] as u64, 40 + dim as u64);
        let it = TensorT::from_slice(&dev, &idx, [idx.len()]).unwrap();
        let got = k::index_select::launch(&t, dim as isize, &it).unwrap();
        let as_f32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
        let (want, shape) = ref_index_select(&as_f32, &xs, dim, &idx);
        assert_eq!(got.shape(), shape.as_slice(), "index_select dim {dim}");
        let got: Vec<f32> = got.to_vec().unwrap().iter().map(|&v| v as f32).collect();
        assert_eq!(got, want, "index_select dim {dim}");

        let mut is = xs.to_vec();
        is[dim] = xs[dim] + 1;
        let m: usize = is.iter().product();
        let gi = ints(m, xs[dim] as u64, 50 + dim as u64);
        let git = TensorT::from_slice(&dev, &gi, &is).unwrap();
        let got = k::gather::launch(&t, dim as isize, &git).unwrap();
        assert_eq!(
            got.to_vec().unwrap(),
            ref_gather(&x, &xs, dim, &gi, &is),
            "gather dim {dim}"
        );

        let got = k::scatter_add::launch(
            &t,
            dim as isize,
            &git,
            &k::gather::launch(&t, dim as isize, &git).unwrap(),
        )
        .unwrap();
        let src: Vec<f64> = ref_gather(&x, &xs, dim, &gi, &is)
            .iter()
            .map(|&v| v as f64)
            .collect();
        let want = ref_scatter_add(&xf, &xs, dim, &gi, &is, &src, &is);
        let got: Vec<f64> = got.to_vec().unwrap().iter().map(|&v| v as f64).collect();
        assert_eq!(got, want, "scatter_add dim {dim}");
    }
    // one block of 700 columns (fewer blocks than threads): its columns
    // shared out between threads
    let wide = [1usize, 9, 700];
    let w: usize = wide.iter().product();
    let base: Vec<f32> = (0..w).map(|v| (v % 13) as f32).collect();
    let idx = ints(w * 2, 9, 61);
    let src: Vec<f32> = (0..w * 2).map(|v| (v % 7) as f32 - 3.0).collect();
    let got = k::scatter_add::launch(
        &TensorT::from_slice(&dev, &base, wide).unwrap(),
        1,
        &TensorT::from_slice(&dev, &idx, [1, 18, 700]).unwrap(),
        &TensorT::from_slice(&dev, &src, [1, 18, 700]).unwrap(),
    )
    .unwrap();
    let f = |v: &[f32]| v.iter().map(|&a| f64::from(a)).collect::<Vec<_>>();
    let want = ref_scatter_add(
        &f(&base),
        &wide,
        1,
        &idx,
        &[1, 18, 700],
        &f(&src),
        &[1, 18, 700],
    );
    assert_eq!(f(&got.to_vec().unwrap()), want);
    let flat = ints(20_001, n as u64, 71);
    let neg: Vec<i64> = flat
        .iter()
        .enumerate()
        .map(|(e, &v)| if e % 3 == 0 { v - n as i64 } else { v })
        .collect();
    let got = k::take::launch(&t, &TensorT::from_slice(&dev, &neg, [neg.len()]).unwrap()).unwrap();
    let want: Vec<i64> = flat.iter().map(|&v| x[v as usize]).collect();
    assert_eq!(got.to_vec().unwrap(), want);
}

#[test]
fn the_hosts_counts_in_parallel_match_the_references() {
    // more elements than a host task counts, into fewer bins than a task
    // keeps an array of and into more (one pass straight into the result)
    let dev = Device::host();
    let n = 150_001;
    for top in [900u64, 70_000] {
        let x = ints(n, top, 81 + top);
        let t = TensorT::from_slice(&dev, &x, [n]).unwrap();
        let got = k::bincount::launch(&t, None, 0).unwrap();
        let want: Vec<i64> = ref_bincount(&x, None, 0)
            .iter()
            .map(|&v| v as i64)
            .collect();
        assert_eq!(got.to_vec::<i64>().unwrap(), want, "{top}");
    }
    let x: Vec<f32> = ints(n, 4001, 83)
        .iter()
        .map(|&v| v as f32 * 0.005 - 10.0)
        .collect();
    let xd: Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
    let t = TensorT::from_slice(&dev, &x, [n]).unwrap();
    let (lo, hi) = (-9.0f32, 8.5f32);
    for bins in [13usize, 100_000] {
        let got = k::histc::launch(&t, bins, f64::from(lo), f64::from(hi)).unwrap();
        let want = ref_histc(
            &xd,
            bins,
            f64::from(lo),
            f64::from(hi),
            f32_pos(lo, hi, bins),
        );
        let got: Vec<f64> = got
            .to_vec()
            .unwrap()
            .iter()
            .map(|&v| f64::from(v))
            .collect();
        assert_eq!(got, want, "{bins} bins");
    }
}

// ---- scatter_reduce ----

/// An element type of the `scatter_reduce` reference: PyTorch's combining
/// steps in the type itself (rounding, wrapping) and its identities.
trait Reduced: Element + PartialOrd + std::fmt::Debug {
    fn combine(self, b: Self, op: k::scatter_reduce::Reduce) -> Self;
    fn identity(op: k::scatter_reduce::Reduce) -> Self;
    fn zero() -> Self;
    fn one() -> Self;
    /// The mean's division: floats divided, integers rounding down (a
    /// negative count too).
    fn divide(self, count: Self) -> Self;
    fn same(self, b: Self) -> bool;
}

/// `std::max` / `std::min` after PyTorch's NaN test.
fn pick<T: PartialOrd + Copy>(a: T, b: T, larger: bool) -> T {
    #[allow(clippy::eq_op)]
    if b != b {
        return b;
    }
    if (larger && a < b) || (!larger && b < a) {
        b
    } else {
        a
    }
}

macro_rules! reduced_int {
    ($($t:ty: $signed:literal),*) => {$(
        impl Reduced for $t {
            fn combine(self, b: Self, op: k::scatter_reduce::Reduce) -> Self {
                use k::scatter_reduce::Reduce as R;
                match op {
                    R::Prod => self.wrapping_mul(b),
                    R::Amax => pick(self, b, true),
                    R::Amin => pick(self, b, false),
                    _ => self.wrapping_add(b),
                }
            }
            fn identity(op: k::scatter_reduce::Reduce) -> Self {
                use k::scatter_reduce::Reduce as R;
                match op {
                    R::Prod => 1,
                    R::Amax => <$t>::MIN,
                    R::Amin => <$t>::MAX,
                    _ => 0,
                }
            }
            fn zero() -> Self { 0 }
            fn one() -> Self { 1 }
            #[allow(unused_comparisons, clippy::absurd_extreme_comparisons)]
            fn divide(self, count: Self) -> Self {
                let (q, r) = (self.wrapping_div(count), self.wrapping_rem(count));
                if $signed && r != 0 && ((r < 0) != (count < 0)) {
                    q.wrapping_sub(1)
                } else {
                    q
                }
            }
            fn same(self, b: Self) -> bool { self == b }
        }
    )*};
}
reduced_int!(u8: false, i8: true, i32: true, i64: true);

macro_rules! reduced_float {
    ($($t:ty),*) => {$(
        impl Reduced for $t {
            fn combine(self, b: Self, op: k::scatter_reduce::Reduce) -> Self {
                use k::scatter_reduce::Reduce as R;
                match op {
                    R::Prod => self * b,
                    R::Amax => pick(self, b, true),
                    R::Amin => pick(self, b, false),
                    _ => self + b,
                }
            }
            fn identity(op: k::scatter_reduce::Reduce) -> Self {
                use k::scatter_reduce::Reduce as R;
                match op {
                    R::Prod => 1.0,
                    R::Amax => <$t>::NEG_INFINITY,
                    R::Amin => <$t>::INFINITY,
                    _ => 0.0,
                }
            }
            fn zero() -> Self { 0.0 }
            fn one() -> Self { 1.0 }
            fn divide(self, count: Self) -> Self { self / count }
            fn same(self, b: Self) -> bool { self.to_bits() == b.to_bits() || (self.is_nan() && b.is_nan()) }
        }
    )*};
}
reduced_float!(f32, f64);

impl Reduced for f16 {
    // silt's f16 arithmetic: in f32, rounded once
    fn combine(self, b: Self, op: k::scatter_reduce::Reduce) -> Self {
        use k::scatter_reduce::Reduce as R;
        match op {
            R::Prod => f16::from_f32(self.to_f32() * b.to_f32()),
            R::Amax => pick(self, b, true),
            R::Amin => pick(self, b, false),
            _ => f16::from_f32(self.to_f32() + b.to_f32()),
        }
    }
    fn identity(op: k::scatter_reduce::Reduce) -> Self {
        f16::from_f32(<f32 as Reduced>::identity(op))
    }
    fn zero() -> Self {
        f16::ZERO
    }
    fn one() -> Self {
        f16::ONE
    }
    fn divide(self, count: Self) -> Self {
        f16::from_f32(self.to_f32() / count.to_f32())
    }
    fn same(self, b: Self) -> bool {
        self.to_bits() == b.to_bits() || (self.is_nan() && b.is_nan())
    }
}

/// PyTorch's `scatter_reduce` in plain Rust: the identity at every place
/// reached (without `include_self`), each `src` element combined in the
/// index's row-major order (so each place's in order along `dim`), then the
/// mean's count and division.
fn ref_scatter_reduce<T: Reduced>(
    (x, xs): (&[T], &[usize]),
    dim: usize,
    (idx, is): (&[i64], &[usize]),
    (src, ss): (&[T], &[usize]),
    op: k::scatter_reduce::Reduce,
    include_self: bool,
) -> Vec<T> {
    let mut out = x.to_vec();
    // the mean's count in the element type, wrapping (or rounding) as it does
    let start = if include_self { T::one() } else { T::zero() };
    let mut count = vec![start; x.len()];
    let places: Vec<(usize, usize)> = (0..idx.len())
        .map(|e| {
            let at = unravel(e, is);
            let from = offset(&at, ss);
            let mut to = at;
            to[dim] = idx[e] as usize;
            (offset(&to, xs), from)
        })
        .collect();
    if !include_self {
        for &(to, _) in &places {
            out[to] = T::identity(op);
        }
    }
    for &(to, from) in &places {
        out[to] = out[to].combine(src[from], op);
        count[to] = count[to].combine(T::one(), k::scatter_reduce::Reduce::Sum);
    }
    if op == k::scatter_reduce::Reduce::Mean {
        // PyTorch's `masked_fill_(count == 0, 1)`
        for (o, &c) in out.iter_mut().zip(&count) {
            *o = o.divide(if c == T::zero() { T::one() } else { c });
        }
    }
    out
}

/// `scatter_reduce` of every reduction against the reference on every
/// device, as a CPU and as a GPU with few lines (`Sum` and `Mean` through
/// `scatter_add`'s atomics: the data's sums are exact in any order).
fn check_scatter_reduce<T: Reduced>(make: impl Fn(i64) -> T) {
    use k::scatter_reduce::Reduce as R;
    let xs = [4usize, 5, 3];
    let x: Vec<T> = ints(60, 23, 1).into_iter().map(&make).collect();
    for (dev, kind) in common::devices()
        .into_iter()
        .flat_map(|d| [(d.clone(), None), (d, Some(DeviceKind::Gpu))])
    {
        silt::__testing::reduce_as(kind);
        let t = TensorT::from_slice(&dev, &x, xs).unwrap();
        for dim in 0..3 {
            // an index smaller than src, src larger than the index along
            // every dimension; repeats
            let mut is = [3usize, 4, 2];
            is[dim] = 6;
            let ss = [is[0] + 1, is[1] + 1, is[2]];
            let n_i: usize = is.iter().product();
            let n_s: usize = ss.iter().product();
            let idx = ints(n_i, xs[dim] as u64, dim as u64 + 7);
            let src: Vec<T> = ints(n_s, 23, dim as u64 + 3)
                .into_iter()
                .map(&make)
                .collect();
            let it = TensorT::from_slice(&dev, &idx, is).unwrap();
            let st = TensorT::from_slice(&dev, &src, ss).unwrap();
            for op in [R::Sum, R::Prod, R::Mean, R::Amax, R::Amin] {
                for include_self in [true, false] {
                    let want = ref_scatter_reduce(
                        (&x, &xs),
                        dim,
                        (&idx, &is),
                        (&src, &ss),
                        op,
                        include_self,
                    );
                    let got =
                        k::scatter_reduce::launch(&t, dim as isize, &it, &st, op, include_self)
                            .unwrap()
                            .to_vec()
                            .unwrap();
                    assert_eq!(got.len(), want.len());
                    assert!(
                        got.iter().zip(&want).all(|(g, w)| g.same(*w)),
                        "{dev} as {kind:?} {:?} dim {dim} {op:?} include_self {include_self}:\n{got:?}\n{want:?}",
                        T::DTYPE
                    );
                }
            }
        }
    }
    silt::__testing::reduce_as(None);
}

#[test]
fn scatter_reduce_matches_pytorchs_steps_for_every_reduction() {
    // floats with NaN and both zeros among them
    let special = |v: i64| match v {
        0 => f32::NAN,
        1 => -0.0,
        2 => 0.0,
        v => (v - 11) as f32 * 0.375,
    };
    check_scatter_reduce(special);
    check_scatter_reduce(|v| f64::from(special(v)) * 1.1);
    check_scatter_reduce(|v| f16::from_f32(special(v)));
    // negative sums not multiples of their counts (the mean rounds down),
    // products that wrap
    check_scatter_reduce(|v| (v - 11) as i32 * 1000);
    check_scatter_reduce(|v| v - 11);
    check_scatter_reduce(|v| v as u8 * 11);
    check_scatter_reduce(|v| (v - 11) as i8);
}

/// `scatter_reduce` of `src` into `x` (`[2]`) at the places `idx` along
/// dimension 0, against the reference.
fn one_place<T: Reduced>(
    dev: &Device,
    x: [T; 2],
    idx: &[i64],
    src: &[T],
    op: k::scatter_reduce::Reduce,
    include_self: bool,
    case: &str,
) {
    let n = idx.len();
    let got = k::scatter_reduce::launch(
        &TensorT::from_slice(dev, &x, [2]).unwrap(),
        0,
        &TensorT::from_slice(dev, idx, [n]).unwrap(),
        &TensorT::from_slice(dev, src, [n]).unwrap(),
        op,
        include_self,
    )
    .unwrap()
    .to_vec()
    .unwrap();
    let want = ref_scatter_reduce((&x, &[2]), 0, (idx, &[n]), (src, &[n]), op, include_self);
    assert!(
        got.len() == want.len() && got.iter().zip(&want).all(|(g, w)| g.same(*w)),
        "{case}: {got:?} {want:?}"
    );
}

#[test]
fn scatter_reduce_counts_wrap_in_narrow_types_as_pytorchs() {
    // 256 hits on a u8 place (its count wraps to 0, then 1), 128 and 255 on
    // an i8 place (to -128, -1): the sums and means of PyTorch's steps, on
    // every device, as a CPU and as a GPU with few lines
    use k::scatter_reduce::Reduce as R;
    for (dev, kind) in common::devices()
        .into_iter()
        .flat_map(|d| [(d.clone(), None), (d, Some(DeviceKind::Gpu))])
    {
        silt::__testing::reduce_as(kind);
        for hits in [128usize, 255, 256] {
            let idx = vec![0i64; hits];
            for include_self in [true, false] {
                for op in [R::Sum, R::Mean] {
                    let case = |what: &str| {
                        format!("{dev} as {kind:?} {what} {hits} {op:?} {include_self}")
                    };
                    let u8s: Vec<u8> = (0..hits).map(|i| (i % 3) as u8 + 1).collect();
                    one_place(&dev, [5u8, 7], &idx, &u8s, op, include_self, &case("u8"));
                    let i8s: Vec<i8> = (0..hits).map(|i| (i % 3) as i8 - 1).collect();
                    one_place(&dev, [5i8, 7], &idx, &i8s, op, include_self, &case("i8"));
                }
            }
        }
    }
    silt::__testing::reduce_as(None);
}

#[test]
fn scatter_reduce_edge_cases_and_errors() {
    use k::scatter_reduce::Reduce as R;
    for dev in common::devices() {
        // of two zeros, the earlier stays (std::max's `a < b ? b : a`)
        let z = TensorT::from_slice(&dev, &[-0.0f32, 0.0], [2]).unwrap();
        let zs = TensorT::from_slice(&dev, &[0.0f32, -0.0, 0.0, -0.0], [4]).unwrap();
        let zi = TensorT::from_slice(&dev, &[0i64, 1, 1, 0], [4]).unwrap();
        for op in [R::Amax, R::Amin] {
            for (include_self, want) in [(true, [-0.0f32, 0.0]), (false, [0.0, -0.0])] {
                let got = k::scatter_reduce::launch(&z, 0, &zi, &zs, op, include_self).unwrap();
                let bits = |v: Vec<f32>| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(
                    bits(got.to_vec().unwrap()),
                    bits(want.to_vec()),
                    "{dev} {op:?} {include_self}"
                );
            }
        }
        let x = TensorT::from_slice(&dev, &[1.0f32, 2.0, 3.0], [3]).unwrap();
        let s = TensorT::from_slice(&dev, &[5.0f32, 6.0], [2]).unwrap();
        // an empty index leaves the input as it was
        let none = TensorT::from_slice(&dev, &[] as &[i64], [0]).unwrap();
        let got = k::scatter_reduce::launch(&x, 0, &none, &s, R::Prod, false).unwrap();
        assert_eq!(got.to_vec().unwrap(), [1.0, 2.0, 3.0], "{dev}");
        // an index out of range: an error naming it
        let bad = TensorT::from_slice(&dev, &[1i64, 3], [2]).unwrap();
        let err = k::scatter_reduce::launch(&x, 0, &bad, &s, R::Amax, true).unwrap_err();
        assert!(
            matches!(&err, Error::IndexOutOfRange { op: "scatter_reduce", value, at, size: 3, .. }
                if value == "3" && at == &[1]),
            "{dev}: {err:?}"
        );
        let neg = TensorT::from_slice(&dev, &[-1i64, 0], [2]).unwrap();
        let err = k::scatter_reduce::launch(&x, 0, &neg, &s, R::Sum, true).unwrap_err();
        assert!(is_out_of_range(&err, "scatter_reduce"), "{dev}: {err:?}");
        // the same through a GPU's forms of Sum and Mean (scatter_add's)
        silt::__testing::reduce_as(Some(DeviceKind::Gpu));
        for (op, include_self) in [(R::Sum, true), (R::Mean, false)] {
            let err = k::scatter_reduce::launch(&x, 0, &bad, &s, op, include_self).unwrap_err();
            assert!(
                matches!(&err, Error::IndexOutOfRange { op: "scatter_reduce", value, .. } if value == "3"),
                "{dev} as a GPU: {err:?}"
            );
            let big = TensorT::from_slice(&dev, &[0i64; 4], [4]).unwrap();
            let err = k::scatter_reduce::launch(&x, 0, &big, &s, op, include_self).unwrap_err();
            assert!(
                is_invalid(&err, "scatter_reduce"),
                "{dev} as a GPU: {err:?}"
            );
        }
        silt::__testing::reduce_as(None);
        // src of another dtype, bool, shapes
        let i = TensorT::from_slice(&dev, &[0i64, 0], [2]).unwrap();
        let s64 = Tensor::from_slice(&dev, &[1.0f64, 2.0], [2]).unwrap();
        let err = k::scatter_reduce::dispatch(x.as_tensor(), 0, i.as_tensor(), &s64, R::Sum, true)
            .unwrap_err();
        assert!(matches!(err, Error::DTypeMismatch { .. }), "{err:?}");
        let b = Tensor::from_slice(&dev, &[true, false], [2]).unwrap();
        let err = k::scatter_reduce::dispatch(&b, 0, i.as_tensor(), &b, R::Amax, true).unwrap_err();
        assert!(
            matches!(
                err,
                Error::UnsupportedDType {
                    kernel: "scatter_reduce",
                    ..
                }
            ),
            "{err:?}"
        );
        let big = TensorT::from_slice(&dev, &[0i64; 4], [4]).unwrap();
        let err = k::scatter_reduce::launch(&x, 0, &big, &s, R::Sum, true).unwrap_err();
        assert!(is_invalid(&err, "scatter_reduce"), "{dev}: {err:?}");
        let err = k::scatter_reduce::launch(&x, 1, &i, &s, R::Sum, true).unwrap_err();
        assert!(matches!(err, Error::AxisOutOfRange { .. }), "{err:?}");
    }
    assert!(matches!(
        k::scatter_reduce::Reduce::from_name("max"),
        Err(Error::InvalidArgument {
            op: "scatter_reduce",
            ..
        })
    ));
    assert_eq!(
        k::scatter_reduce::Reduce::from_name("amin").unwrap(),
        R::Amin
    );
}

#[test]
fn the_hosts_scatter_reduce_matches_the_reference_with_columns_shared_out() {
    // one outer block of 300 columns: the host shares its columns out
    // between threads (and a block a task past that)
    use k::scatter_reduce::Reduce as R;
    let dev = Device::host();
    for (xs, dim) in [
        ([1usize, 40, 300], 1usize),
        ([6, 40, 2], 1),
        ([30, 1, 1], 0),
    ] {
        let mut is = xs;
        is[dim] = 70;
        let n_x: usize = xs.iter().product();
        let n_i: usize = is.iter().product();
        let x: Vec<f32> = ints(n_x, 50, 3)
            .into_iter()
            .map(|v| (v - 25) as f32 * 0.3)
            .collect();
        let src: Vec<f32> = ints(n_i, 50, 4)
            .into_iter()
            .map(|v| (v - 25) as f32 * 0.7)
            .collect();
        let idx = ints(n_i, xs[dim] as u64, 5);
        let t = TensorT::from_slice(&dev, &x, xs).unwrap();
        let it = TensorT::from_slice(&dev, &idx, is).unwrap();
        let st = TensorT::from_slice(&dev, &src, is).unwrap();
        for op in [R::Sum, R::Prod, R::Mean, R::Amax, R::Amin] {
            for include_self in [true, false] {
                let want =
                    ref_scatter_reduce((&x, &xs), dim, (&idx, &is), (&src, &is), op, include_self);
                let got = k::scatter_reduce::launch(&t, dim as isize, &it, &st, op, include_self)
                    .unwrap()
                    .to_vec()
                    .unwrap();
                assert_eq!(got.len(), want.len());
                assert!(
                    got.iter().zip(&want).all(|(g, w)| g.same(*w)),
                    "{xs:?} {op:?} include_self {include_self}"
                );
            }
        }
    }
}

/// `f16` past 65504 bins (their count is no finite `f16`): the bins told in
/// `f32`, where every position went to the last bin.
#[test]
fn histc_of_f16_in_more_bins_than_f16_counts() {
    for dev in common::devices() {
        let h = |v: f32| f16::from_f32(v);
        let x = TensorT::from_slice(&dev, &[h(0.0), h(0.5), h(1.0), h(0.25)], [4]).unwrap();
        let counts = k::histc::launch(&x, 100_000, 0.0, 1.0)
            .unwrap()
            .to_vec()
            .unwrap();
        let at: Vec<(usize, f32)> = counts
            .iter()
            .enumerate()
            .filter(|(_, c)| c.to_f32() != 0.0)
            .map(|(i, c)| (i, c.to_f32()))
            .collect();
        assert_eq!(
            at,
            [(0, 1.0), (25_000, 1.0), (50_000, 1.0), (99_999, 1.0)],
            "on {dev}"
        );
    }
}

/// Empty tensors whose other sizes multiply past `usize` give empty
/// results, and a 0-d tensor's softmax takes its axis 0 or -1 alone.
#[test]
fn library_operations_of_empty_tensors_with_huge_sizes() {
    const M: usize = usize::MAX;
    for dev in common::devices() {
        let x = TensorT::<f32>::zeros(&dev, [M, 0, 2]).unwrap();
        let v = k::var::launch(&x, 1.0, Axes::of([0, 2])).unwrap();
        assert_eq!(v.shape(), [0], "on {dev}");
        assert_eq!(
            k::std::launch(&x, 1.0, Axes::of([0, 2])).unwrap().shape(),
            [0]
        );
        let s = TensorT::<f32>::zeros(&dev, [M, 2, 0]).unwrap();
        assert_eq!(
            k::searchsorted::launch(&s, &s, false, None)
                .unwrap()
                .shape(),
            [M, 2, 0]
        );
        let a = TensorT::<f32>::zeros(&dev, [M, 2, 0, 0]).unwrap();
        let (lu, piv) = k::lu_factor::launch(&a).unwrap();
        assert_eq!(
            (lu.shape(), piv.shape()),
            (&[M, 2, 0, 0][..], &[M, 2, 0][..])
        );
        let (w, vecs) = k::eigh::launch(&a).unwrap();
        assert_eq!(
            (w.shape(), vecs.shape()),
            (&[M, 2, 0][..], &[M, 2, 0, 0][..])
        );
        let one = TensorT::from_slice(&dev, &[3.0f32], []).unwrap();
        for axis in [0, -1] {
            assert_eq!(
                k::softmax::launch(&one, axis).unwrap().to_vec().unwrap(),
                [1.0]
            );
        }
        for axis in [1, 5, -2, isize::MIN] {
            assert!(matches!(
                k::softmax::launch(&one, axis),
                Err(silt::Error::AxisOutOfRange { .. })
            ));
            assert!(k::log_softmax::launch(&one, axis).is_err());
        }
    }
}
