//! The runtime of silt: devices, a caching buffer pool, tensors and views.
//!
//! Most users reach this crate through the `silt` facade and its prelude.
//!
//! ```
//! use silt_runtime::{Device, TensorT};
//!
//! let dev = Device::host();
//! let x = TensorT::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], [2, 3])?;
//! let t = x.transpose(0, 1)?; // a view: no copy
//! assert_eq!(t.shape(), [3, 2]);
//! assert_eq!(t.to_vec()?, [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
//! # Ok::<(), silt_runtime::Error>(())
//! ```

mod cl;
mod copy;
mod device;
mod dtype;
mod error;
mod layout;
mod pool;
mod storage;
mod tensor;

pub use cl::{buffer_counts, BufferCounts};
pub use device::{Device, DeviceInfo, DeviceKind, DEVICE_ENV};
pub use dtype::{DType, Element};
pub use error::{Error, Result};
pub use half::f16;
pub use layout::MAX_DIMS;
pub use pool::MemoryStats;
pub use tensor::{Tensor, TensorT};
