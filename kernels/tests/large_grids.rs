//! Launches past GPUs' 65,535 work-groups along a grid's dimensions 1 and 2
//! (silt keeps that limit on every device): the indexing copies cut their
//! lines and indices into pieces within it and give the reference. Not run
//! under Oclgrind (the sizes are the point).
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss
)]

#[path = "../../tests/common/mod.rs"]
mod common;

use silt::prelude::*;
use silt_kernels as k;

#[test]
fn index_select_and_gather_over_more_lines_than_a_grid_dimension_takes() {
    for dev in common::devices() {
        // 70,000 lines of 3 along the last dimension: the grid [m, outer]
        let outer = 70_000;
        let x: Vec<i32> = (0..outer as i32 * 3).collect();
        let t = TensorT::from_slice(&dev, &x, [outer, 3]).unwrap();
        let idx = TensorT::from_slice(&dev, &[2i64, 0], [2]).unwrap();
        let got = k::index_select::launch(&t, 1, &idx)
            .unwrap()
            .to_vec()
            .unwrap();
        let want: Vec<i32> = (0..outer as i32).flat_map(|r| [3 * r + 2, 3 * r]).collect();
        assert_eq!(got, want, "{dev}");
        // lines of 2 (one division a work-item): the grid [m * inner, outer]
        let t3 = TensorT::from_slice(&dev, &x[..outer * 2], [outer, 1, 2]).unwrap();
        let one = TensorT::from_slice(&dev, &[0i64, 0, 0], [3]).unwrap();
        let got = k::index_select::launch(&t3, 1, &one)
            .unwrap()
            .to_vec()
            .unwrap();
        let want: Vec<i32> = (0..outer as i32)
            .flat_map(|r| [2 * r, 2 * r + 1].repeat(3))
            .collect();
        assert_eq!(got, want, "{dev}");
        // 65,537 indices of lines of 256 bytes: the grid [inner, m, outer]
        let m = 65_537;
        let rows: Vec<u8> = (0..512).map(|v| (v % 251) as u8).collect();
        let r = TensorT::from_slice(&dev, &rows, [2, 256]).unwrap();
        let picks: Vec<i64> = (0..m as i64).map(|j| (j * 7 + j / 3) % 2).collect();
        let p = TensorT::from_slice(&dev, &picks, [m]).unwrap();
        let got = k::index_select::launch(&r, 0, &p)
            .unwrap()
            .to_vec()
            .unwrap();
        let want: Vec<u8> = picks
            .iter()
            .flat_map(|&j| rows[j as usize * 256..(j as usize + 1) * 256].to_vec())
            .collect();
        assert_eq!(got, want, "{dev}");
        // gather along the last dimension of 70,000 lines, and a bad index
        // in the second piece named at its place
        let g: Vec<i64> = (0..outer as i64 * 2).map(|v| (v * 5) % 3).collect();
        let gi = TensorT::from_slice(&dev, &g, [outer, 2]).unwrap();
        let got = k::gather::launch(&t, 1, &gi).unwrap().to_vec().unwrap();
        let want: Vec<i32> = (0..outer)
            .flat_map(|r| [0, 1].map(|c| x[r * 3 + g[r * 2 + c] as usize]))
            .collect();
        assert_eq!(got, want, "{dev}");
        let mut bad = g.clone();
        bad[2 * 66_000 + 1] = 3;
        let gi = TensorT::from_slice(&dev, &bad, [outer, 2]).unwrap();
        let err = k::gather::launch(&t, 1, &gi).unwrap_err();
        assert!(
            err.to_string().contains("index 3 (at [66000, 1]"),
            "{dev}: {err}"
        );
    }
}

#[test]
fn matmul_of_more_matrices_than_a_grid_dimension_takes() {
    for dev in common::devices() {
        let batch = 70_000;
        let a: Vec<f32> = (0..batch * 6).map(|v| (v % 7) as f32 - 3.0).collect();
        let b: Vec<f32> = (0..batch * 6).map(|v| (v % 5) as f32 * 0.5).collect();
        let ta = TensorT::from_slice(&dev, &a, [batch, 2, 3]).unwrap();
        let tb = TensorT::from_slice(&dev, &b, [batch, 3, 2]).unwrap();
        let got = k::matmul::launch(&ta, &tb).unwrap().to_vec().unwrap();
        let want: Vec<f32> = (0..batch)
            .flat_map(|n| {
                let (a, b) = (&a[n * 6..n * 6 + 6], &b[n * 6..n * 6 + 6]);
                (0..4).map(move |e| {
                    let (i, j) = (e / 2, e % 2);
                    (0..3).fold(0.0f32, |s, q| s + a[i * 3 + q] * b[q * 2 + j])
                })
            })
            .collect();
        assert_eq!(got, want, "{dev}");
    }
}

#[test]
fn matmul_of_more_rows_than_a_grid_dimension_takes() {
    // 65,535 work-groups of 64 rows are 4,194,240 rows: one more block
    let (m, k) = (4_194_240 + 70, 2);
    for dev in common::devices() {
        let a: Vec<f32> = (0..m * k).map(|v| (v % 9) as f32 - 4.0).collect();
        let ta = TensorT::from_slice(&dev, &a, [m, k]).unwrap();
        let tb = TensorT::from_slice(&dev, &[1.0f32, 2.0, -1.0, 0.5], [k, 2]).unwrap();
        let got = k::matmul::launch(&ta, &tb).unwrap().to_vec().unwrap();
        for i in [0, 1, m - 71, m - 70, m - 1] {
            let (x, y) = (a[i * 2], a[i * 2 + 1]);
            assert_eq!(
                [got[i * 2], got[i * 2 + 1]],
                [x - y, 2.0 * x + 0.5 * y],
                "{dev} row {i}"
            );
        }
    }
}
