//! silt: author OpenCL kernels as Rust-like elementwise functions.
//!
//! This facade re-exports the runtime ([`Device`], [`Tensor`], [`TensorT`], the
//! caching pool's [`MemoryStats`]) and, as it lands, the `#[kernel]` attribute.
//! `use silt::prelude::*;` brings in what a typical program needs.
//!
//! ```
//! use silt::prelude::*;
//!
//! let dev = Device::default()?; // SILT_DEVICE, else the first OpenCL device, else the host
//! let x = TensorT::from_slice(&dev, &[1.0f32, 2.0, 3.0], [3])?;
//! assert_eq!(x.to(&Device::host())?.to_vec()?, [1.0, 2.0, 3.0]);
//! # Ok::<(), silt::Error>(())
//! ```

pub use silt_runtime::*;

#[doc = include_str!("../docs/kernel.md")]
#[doc(inline)]
pub use silt_macros::kernel;

/// The names most programs use: `use silt::prelude::*;`.
pub mod prelude {
    pub use silt_macros::kernel;
    pub use silt_runtime::{
        select, DType, Device, Element, Error, Result, Scalar, Tensor, TensorT,
    };
}
