//! Conversions between tensors and [`ndarray`] arrays (feature `ndarray`).

use ndarray::{ArrayBase, ArrayD, ArrayViewD, Dimension, IxDyn, ShapeBuilder};

use crate::device::Device;
use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::storage::read_lock;

use super::TensorT;

impl<T: Element> TensorT<T> {
    /// A tensor on `device` holding the elements of `a`, of its shape. `a` may
    /// have any memory order; a standard-layout array is copied in one piece.
    ///
    /// ```
    /// # use silt_runtime::{Device, TensorT};
    /// let a = ndarray::arr2(&[[1.0f32, 2.0], [3.0, 4.0]]);
    /// let t = TensorT::from_ndarray(&Device::host(), &a.t())?; // a transposed view
    /// assert_eq!(t.shape(), [2, 2]);
    /// assert_eq!(t.to_vec()?, [1.0, 3.0, 2.0, 4.0]);
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// Allocation and transfer errors; [`Error::TooManyDims`] above 16
    /// dimensions.
    pub fn from_ndarray<S, D>(device: &Device, a: &ArrayBase<S, D>) -> Result<Self>
    where
        S: ndarray::Data<Elem = T>,
        D: Dimension,
    {
        match a.as_slice() {
            Some(s) => TensorT::from_slice(device, s, a.shape()),
            None => {
                let v: Vec<T> = a.iter().copied().collect();
                TensorT::from_slice(device, &v, a.shape())
            }
        }
    }

    /// The elements as an `ndarray` array of the tensor's shape (a copy, from
    /// any device; waits for the queued work that writes them).
    ///
    /// # Errors
    /// Transfer errors; [`Error::InvalidArgument`] for a shape `ndarray`
    /// cannot describe (sizes other than 0 whose product is past
    /// `isize::MAX`, as `[0, usize::MAX]`).
    pub fn to_ndarray(&self) -> Result<ArrayD<T>> {
        let v = self.to_vec()?;
        ArrayD::from_shape_vec(IxDyn(self.shape()), v)
            .map_err(|e| self.no_ndarray("to_ndarray", &e))
    }

    /// The error for a tensor whose layout `ndarray` refuses (`e`).
    fn no_ndarray(&self, op: &'static str, e: &ndarray::ShapeError) -> Error {
        Error::InvalidArgument {
            op,
            reason: format!(
                "ndarray cannot describe shape {:?} with strides {:?}: {e}",
                self.shape(),
                self.strides()
            ),
        }
    }

    /// Calls `f` with an `ndarray` view of this host tensor where it is stored:
    /// no copy, any strides (a transposed or narrowed view stays one).
    ///
    /// ```
    /// # use silt_runtime::{Device, TensorT};
    /// let t = TensorT::from_slice(&Device::host(), &[1, 2, 3, 4, 5, 6], [2, 3])?;
    /// let col_sums = t.transpose(0, 1)?.with_ndarray_view(|v| v.sum_axis(ndarray::Axis(1)))?;
    /// assert_eq!(col_sums.as_slice().unwrap(), [5, 7, 9]);
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::NotOnHost`] for a tensor of an OpenCL device (use
    /// [`to_ndarray`](Self::to_ndarray)). Broadcast views come out with stride
    /// 0, as `ndarray` allows for read-only views. [`Error::InvalidArgument`]
    /// for a layout `ndarray` cannot describe, and for `bool`s stored as
    /// bytes other than 0 and 1 (written through a view of another dtype).
    pub fn with_ndarray_view<R>(&self, f: impl FnOnce(ArrayViewD<'_, T>) -> R) -> Result<R> {
        const OP: &str = "with_ndarray_view";
        let t = self.as_tensor();
        let lock = t.storage.host().ok_or_else(|| Error::NotOnHost {
            op: OP,
            device: self.device().to_string(),
        })?;
        let bytes = read_lock(lock)?;
        let span = t.layout.span();
        let raw = bytes
            .as_bytes()
            .get(span.start * T::SIZE..span.end * T::SIZE)
            .ok_or_else(|| Error::internal("a host view past the end of its storage"))?;
        let elems = T::from_bytes(raw).ok_or_else(|| Error::InvalidArgument {
            op: OP,
            reason: format!(
                "the bytes are not {} values in place (a bool other than 0 or 1?); read them with to_ndarray",
                T::DTYPE
            ),
        })?;
        let shape = IxDyn(self.shape()).strides(IxDyn(self.strides()));
        let view = ArrayViewD::from_shape(shape, elems).map_err(|e| self.no_ndarray(OP, &e))?;
        Ok(f(view))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrays_round_trip_through_every_device() {
        let a = ndarray::Array::from_shape_fn((3, 4), |(i, j)| (i * 10 + j) as i64);
        let mut devices = vec![Device::host()];
        devices.extend(Device::opencl(0).ok());
        for dev in devices {
            let t = TensorT::from_ndarray(&dev, &a).unwrap();
            assert_eq!(t.to_ndarray().unwrap(), a.clone().into_dyn(), "on {dev}");
            // a strided source (every other column, transposed)
            let view = a.slice(ndarray::s![.., ..;2]).reversed_axes();
            let t = TensorT::from_ndarray(&dev, &view).unwrap();
            assert_eq!(t.shape(), [2, 3]);
            assert_eq!(t.to_vec().unwrap(), [0, 10, 20, 2, 12, 22], "on {dev}");
            if dev.is_host() {
                let narrowed = t.narrow(1, 1, 2).unwrap();
                let seen = narrowed.with_ndarray_view(|v| v.to_owned()).unwrap();
                assert_eq!(seen, ndarray::arr2(&[[10, 20], [12, 22]]).into_dyn());
            } else {
                let err = t.with_ndarray_view(|v| v.len()).unwrap_err();
                assert!(matches!(err, Error::NotOnHost { .. }), "{err}");
            }
        }
    }

    #[test]
    fn layouts_ndarray_refuses_are_clear_errors() {
        let host = Device::host();
        let e = TensorT::<f32>::zeros(&host, [0, usize::MAX]).unwrap();
        for err in [
            e.to_ndarray().unwrap_err(),
            e.with_ndarray_view(|v| v.len()).unwrap_err(),
        ] {
            assert!(
                matches!(&err, Error::InvalidArgument { reason, .. } if reason.contains("ndarray cannot describe")),
                "{err:?}"
            );
        }
        // a bool stored as the byte 2 (written as bytes)
        let mut t = crate::Tensor::zeros(&host, crate::DType::Bool, [2]).unwrap();
        t.with_host_bytes_mut(|b| b[0] = 2).unwrap();
        let b = t.typed::<bool>().unwrap();
        let err = b.with_ndarray_view(|v| v.len()).unwrap_err();
        assert!(matches!(err, Error::InvalidArgument { .. }), "{err:?}");
        assert_eq!(
            b.to_ndarray().unwrap(),
            ndarray::arr1(&[true, false]).into_dyn()
        );
    }

    #[test]
    fn broadcast_views_are_read_only_ndarray_views() {
        let t = TensorT::from_slice(&Device::host(), &[1u8, 2], [2]).unwrap();
        let b = t.broadcast_to([3, 2]).unwrap();
        let seen = b
            .with_ndarray_view(|v| (v.strides().to_vec(), v.to_owned()))
            .unwrap();
        assert_eq!(seen.0, [0, 1]);
        assert_eq!(seen.1, ndarray::arr2(&[[1, 2], [1, 2], [1, 2]]).into_dyn());
        assert_eq!(b.to_ndarray().unwrap(), seen.1);
    }
}
