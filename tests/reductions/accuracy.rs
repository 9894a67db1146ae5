//! The fixed order keeps float sums near pairwise summation's error.

use silt::prelude::*;

use super::common::devices;
use super::defs::sum;

#[test]
fn a_sum_of_2_pow_24_tenths_is_close_to_exact() {
    let n = 1usize << 24;
    let exact = f64::from(0.1f32) * n as f64;
    let naive = (0..n).fold(0.0f32, |a, _| a + 0.1);
    let naive_err = (f64::from(naive) - exact).abs() / exact;
    for dev in devices() {
        let x = TensorT::full(&dev, 0.1f32, [n]).unwrap();
        let got = sum::launch(&x, Axes::all()).unwrap().to_vec().unwrap()[0];
        let err = (f64::from(got) - exact).abs() / exact;
        // the bound of docs/semantics.md: (64 + log2(n / 64)) eps for a sum of
        // positive values; measured far below it
        let bound = (64.0 + (n as f64 / 64.0).log2()) * f64::from(f32::EPSILON);
        assert!(
            err <= bound,
            "{dev}: relative error {err:e} above {bound:e}"
        );
        assert!(
            err * 1000.0 < naive_err,
            "{dev}: {err:e} vs naive {naive_err:e}"
        );
    }
}
