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

#[test]
fn untyped_host_bytes_in_place() {
    let host = Device::host();
    let mut t: Tensor = TensorT::from_slice(&host, &[1.0f32, 2.0, 3.0], [3])
        .unwrap()
        .into();
    // the second element's bytes, in place, through a narrowed view
    let mut second = t.narrow(0, 1, 1).unwrap();
    let bytes = second.with_host_bytes(<[u8]>::to_vec).unwrap();
    assert_eq!(bytes, 2.0f32.to_ne_bytes());
    second
        .with_host_bytes_mut(|b| b.copy_from_slice(&(-8.5f32).to_ne_bytes()))
        .unwrap();
    assert_eq!(t.to_vec::<f32>().unwrap(), [1.0, -8.5, 3.0]);
    let n = t.with_host_bytes_mut(|b| b.len()).unwrap();
    assert_eq!(n, 12);

    // a bool byte other than 0 or 1 reads back as true
    let mut flags = Tensor::zeros(&host, DType::Bool, [2]).unwrap();
    flags.with_host_bytes_mut(|b| b[1] = 2).unwrap();
    assert_eq!(flags.to_vec::<bool>().unwrap(), [false, true]);

    let strided = t.reshape([3, 1]).unwrap().broadcast_to([3, 2]).unwrap();
    let err = strided.with_host_bytes(|b| b.len()).unwrap_err();
    assert!(matches!(err, Error::NotContiguous { .. }), "{err}");
}

/// Inside a closure over a host storage, an access to the same storage that
/// could never be granted (a write while the closure reads it, anything
/// while it writes it) is an error, not a wait for good; reads inside a
/// read are fine.
#[test]
fn a_storage_taken_again_inside_its_own_closure_is_an_error() {
    let host = Device::host();
    let t = TensorT::from_slice(&host, &[1.0f32, 2.0, 3.0, 4.0], [4]).unwrap();
    let src = TensorT::from_slice(&host, &[9.0f32; 4], [4]).unwrap();
    // a read inside a read
    let (c, mut alias) = (t.clone(), t.clone());
    let inner = t.with_host_slice(|_| c.to_vec()).unwrap();
    assert_eq!(inner.unwrap(), [1.0, 2.0, 3.0, 4.0]);
    // a write inside a read
    let err = t
        .with_host_slice(|_| alias.copy_from(&src))
        .unwrap()
        .unwrap_err();
    assert!(
        matches!(&err, Error::InvalidArgument { reason, .. } if reason.contains("already holds")),
        "{err:?}"
    );
    // a read and a write inside a write
    let (mut w, c, mut alias) = (t.clone(), t.clone(), t.clone());
    let (read, write) = w
        .with_host_slice_mut(|_| (c.to_vec(), alias.copy_from(&src)))
        .unwrap();
    assert!(
        matches!(read, Err(Error::InvalidArgument { .. })),
        "{read:?}"
    );
    assert!(
        matches!(write, Err(Error::InvalidArgument { .. })),
        "{write:?}"
    );
    // a launch reading it inside a write: its copy path says so too
    let (mut w, c) = (t.clone(), t.clone());
    let sum = w.with_host_slice_mut(|_| c.deep_copy()).unwrap();
    assert!(matches!(sum, Err(Error::InvalidArgument { .. })), "{sum:?}");
    // nothing written, and the storage free again
    assert_eq!(t.to_vec().unwrap(), [1.0, 2.0, 3.0, 4.0]);
    alias.copy_from(&src).unwrap();
    assert_eq!(t.to_vec().unwrap(), [9.0; 4]);
}
