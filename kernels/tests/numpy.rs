//! The intended differences from NumPy (docs/semantics.md, "silt-kernels and
//! NumPy"): every example of that table, on the host and on the device.

mod harness;

use harness::column;
use silt::prelude::*;
use silt_kernels as k;

#[test]
fn the_documented_differences_from_numpy_hold_on_every_device() {
    for dev in harness::common::devices() {
        let i = |v: &[i32]| column(&dev, v);
        let u = |v: &[u8]| column(&dev, v);
        let f = |v: &[f64]| column(&dev, v);
        let bits = |t: TensorT<f64>| -> Vec<u64> {
            t.to_vec().unwrap().iter().map(|v| v.to_bits()).collect()
        };

        // integer div truncates toward zero, and x / 0 is 0
        let q = k::div::launch(&i(&[-7, 7]), &i(&[2, 0])).unwrap();
        assert_eq!(q.to_vec().unwrap(), [-3, 0], "{dev}: div");
        // rem takes the dividend's sign
        let r = k::rem::launch(&i(&[-7, 7]), &i(&[2, -2])).unwrap();
        assert_eq!(r.to_vec().unwrap(), [-1, 1], "{dev}: rem");
        // shift counts are masked by the width
        let s = k::shl::launch(&u(&[1, 1]), &u(&[9, 8])).unwrap();
        assert_eq!(s.to_vec().unwrap(), [2, 1], "{dev}: shl");
        // float to integer casts saturate, NaN to 0
        let c = k::to_u8::launch(&f(&[300.0, -5.0, f64::NAN])).unwrap();
        assert_eq!(c.to_vec().unwrap(), [255, 0, 0], "{dev}: to_u8");
        let c = k::to_i32::launch(&f(&[f64::NAN, 1e10, -1e10])).unwrap();
        assert_eq!(
            c.to_vec().unwrap(),
            [0, i32::MAX, i32::MIN],
            "{dev}: to_i32"
        );
        // -0.0 below +0.0, in either order
        let (pz, nz) = (0.0f64.to_bits(), (-0.0f64).to_bits());
        let m = k::maximum::launch(&f(&[0.0, -0.0]), &f(&[-0.0, 0.0])).unwrap();
        assert_eq!(bits(m), [pz, pz], "{dev}: maximum");
        let m = k::minimum::launch(&f(&[0.0, -0.0]), &f(&[-0.0, 0.0])).unwrap();
        assert_eq!(bits(m), [nz, nz], "{dev}: minimum");
        // sign(NaN) = 0
        let g = k::sign::launch(&f(&[f64::NAN, -3.0])).unwrap();
        assert_eq!(g.to_vec().unwrap(), [0.0, -1.0], "{dev}: sign");
        // a NaN bound is ignored
        let c = k::clamp::launch(&f(&[2.0, -1.0]), f64::NAN, 1.0).unwrap();
        assert_eq!(c.to_vec().unwrap(), [1.0, -1.0], "{dev}: clamp, lo NaN");
        let c = k::clamp::launch(&f(&[2.0, -1.0]), 0.0, f64::NAN).unwrap();
        assert_eq!(c.to_vec().unwrap(), [2.0, 0.0], "{dev}: clamp, hi NaN");
        // frac(±∞) is NaN (x - trunc(x)); NumPy's modf gives ±0
        let fr = k::frac::launch(&f(&[f64::INFINITY, f64::NEG_INFINITY, -1.5])).unwrap();
        let fr = fr.to_vec().unwrap();
        assert!(fr[0].is_nan() && fr[1].is_nan(), "{dev}: frac {fr:?}");
        assert_eq!(fr[2], -0.5, "{dev}: frac");
    }
}
