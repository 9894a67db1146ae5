//! Zero-copy access to host tensors: `with_host_slice` reads and
//! `with_host_slice_mut` writes the storage itself, for contiguous views at any
//! offset; a view with gaps or a tensor of an OpenCL device is a typed error.

mod common;

use silt::prelude::*;

#[test]
fn host_slices_are_the_storage_itself() {
    let host = Device::host();
    let mut t = TensorT::<f32>::zeros(&host, [2, 4]).unwrap();
    t.with_host_slice_mut(|s| {
        for (i, v) in s.iter_mut().enumerate() {
            *v = i as f32;
        }
    })
    .unwrap();
    assert_eq!(
        t.to_vec().unwrap(),
        [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
    );

    // a row is a contiguous view at an offset: its slice starts there
    let mut row = t.narrow(0, 1, 1).unwrap();
    assert_eq!(
        row.with_host_slice(<[f32]>::to_vec).unwrap(),
        [4.0, 5.0, 6.0, 7.0]
    );
    row.with_host_slice_mut(|s| s[0] = -1.0).unwrap();
    // the write went to the shared storage: no copy was involved
    assert_eq!(t.to_vec().unwrap()[4], -1.0);
    let bits = t.with_host_slice(|s| s.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
    assert_eq!(bits.unwrap()[1], 1.0f32.to_bits());

    // a column has gaps
    let col = t.narrow(1, 0, 1).unwrap();
    let err = col.with_host_slice(|s| s.len()).unwrap_err();
    assert!(matches!(err, Error::NotContiguous { .. }), "{err}");
}

#[test]
fn device_tensors_are_not_host_slices() {
    let Some(cl) = common::opencl() else { return };
    let mut t = TensorT::from_slice(&cl, &[1i32, 2, 3], [3]).unwrap();
    let err = t.with_host_slice(|s| s.len()).unwrap_err();
    assert!(matches!(err, Error::NotOnHost { .. }), "{err}");
    assert!(err.to_string().contains("to_vec"), "{err}");
    let err = t.with_host_slice_mut(|s| s[0] = 9).unwrap_err();
    assert!(matches!(err, Error::NotOnHost { .. }), "{err}");
    assert_eq!(t.to_vec().unwrap(), [1, 2, 3]);
    // moved to the host, the same data is reachable in place
    let h = t.to(&Device::host()).unwrap();
    assert_eq!(h.with_host_slice(|s| s.iter().sum::<i32>()).unwrap(), 6);
}
