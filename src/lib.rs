//! silt: author OpenCL kernels as Rust-like elementwise functions.
//!
//! This facade re-exports the runtime ([`Device`], [`Tensor`], [`TensorT`], the
//! caching pool's [`MemoryStats`]) and the [`kernel`], [`helper`], [`reduce`]
//! and [`scan`] attributes.
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
//!
//! # Fusing chains at run time
//!
//! A chain of kernel calls decided at run time (a framework's `mul`, then
//! `add_relu`) runs as one launch through a [`Fusion`]: record the inputs and
//! calls, then run it for the values wanted. The program is built once per
//! chain structure (kernels, dtypes, which inputs broadcast) and cached;
//! results have the bits of the separate launches, and values not asked for
//! are never written to memory.
//!
//! ```
//! use silt::prelude::*;
//! use silt::Fusion;
//!
//! #[kernel(types = [f32, f64])]
//! fn mul<T>(a: T, b: T) -> T {
//!     a * b
//! }
//!
//! #[kernel(types = [f32, f64])]
//! fn add_relu<T>(a: T, b: T) -> T {
//!     let s = a + b;
//!     if s > 0.0 { s } else { 0.0 }
//! }
//!
//! let dev = Device::default()?;
//! let x = TensorT::from_slice(&dev, &[1.0f32, -2.0, 3.0], [3])?;
//! let w = TensorT::from_slice(&dev, &[2.0f32, 2.0, -1.0], [3])?;
//! let b = TensorT::from_slice(&dev, &[0.5f32], [1])?; // broadcast
//!
//! let mut f = Fusion::new();
//! let (xv, wv, bv) = (f.input(x.as_tensor()), f.input(w.as_tensor()), f.input(b.as_tensor()));
//! let h = f.call(&mul::KERNEL, &[xv, wv])?;
//! let y = f.call(&add_relu::KERNEL, &[h, bv])?;
//! let out = f.run(&[y])?; // one launch; `h` is never stored
//! assert_eq!(out[0].to_vec::<f32>()?, [2.5, 0.0, 0.0]);
//! # Ok::<(), silt::Error>(())
//! ```

pub use silt_runtime::*;

#[doc = include_str!("../docs/kernel.md")]
#[doc(inline)]
pub use silt_macros::kernel;

/// Makes a Rust-like function callable from `#[kernel]` bodies (and from other
/// helpers): `#[helper(types = [f32, f64])] fn sq<T>(x: T) -> T { x * x }`.
///
/// A helper takes plain values and returns one, or a tuple of them
/// (`-> (T, T)`), which a caller destructures (`let (a, b) = split(x);`); its
/// body uses the kernel subset. Kernels, helpers and the functions of
/// `#[reduce]` and `#[scan]` modules may call helpers.
/// Each kernel that calls it gets the helper's OpenCL C for the types it needs
/// (once per program) and its host form for `eval`. A call for a type outside the
/// helper's `types`, and recursion, are compile errors pointing at the call. A call
/// names the helper by a path resolved where the call is written (in a kernel's
/// module, or in the module of the helper that calls it); a kernel that reaches
/// more than about 50 helpers needs a higher `#![recursion_limit]`.
///
/// A `#[kernel]` with values and `#[scalar]`s for parameters (and one result or
/// several) is
/// callable the same way (its `#[scalar]`s are plain values in a call), and so
/// is any `pub` kernel or helper of another crate, by a path that starts with
/// that crate's name (`silt_kernels::gelu(x + b)`): its body is inlined for the
/// caller's type, so a chain written this way is one launch with the bits of
/// the launches it replaces. A crate exports its `pub` kernels and helpers by
/// name, so two `pub` ones of one crate may not share a name (make one
/// `pub(crate)`); a `pub` helper carries the private helpers it calls.
///
/// ```
/// use silt::prelude::*;
///
/// #[helper(types = [f32, f64])]
/// fn square<T>(x: T) -> T {
///     x * x
/// }
///
/// #[kernel(types = [f32])]
/// fn norm2<T>(a: T, b: T) -> T {
///     (square(a) + square(b)).sqrt()
/// }
///
/// let dev = Device::default()?;
/// let a = TensorT::from_slice(&dev, &[3.0f32], [1])?;
/// let b = TensorT::from_slice(&dev, &[4.0f32], [1])?;
/// assert_eq!(norm2::launch(&a, &b)?.to_vec()?, [5.0]);
/// # Ok::<(), silt::Error>(())
/// ```
///
/// Several results, destructured by the caller, and a helper in a reduction:
///
/// ```
/// use silt::prelude::*;
///
/// #[helper(types = [f32, f64])]
/// fn split<T>(x: T) -> (T, T) {
///     let whole = x.floor();
///     (whole, x - whole)
/// }
///
/// #[kernel(types = [f32, f64])]
/// fn recombine<T>(x: T) -> T {
///     let (whole, part) = split(x);
///     whole * 2.0 + part
/// }
///
/// #[reduce(types = [f32])]
/// mod sum_of_parts {
///     fn identity<T>() -> T {
///         0.0
///     }
///     fn map<T>(x: T) -> T {
///         let (_, part) = split(x);
///         part
///     }
///     fn combine<T>(a: T, b: T) -> T {
///         a + b
///     }
/// }
///
/// let dev = Device::default()?;
/// let x = TensorT::from_slice(&dev, &[2.75f32, -1.25], [2])?;
/// assert_eq!(recombine::launch(&x)?.to_vec()?, [4.75, -3.25]);
/// assert_eq!(sum_of_parts::launch(&x, Axes::all())?.to_vec()?, [1.5]);
/// # Ok::<(), silt::Error>(())
/// ```
#[doc(inline)]
pub use silt_macros::helper;

#[doc = include_str!("../docs/grid.md")]
#[doc(inline)]
pub use silt_macros::grid;

#[doc = include_str!("../docs/reduce.md")]
#[doc(inline)]
pub use silt_macros::reduce;

#[doc = include_str!("../docs/scan.md")]
#[doc(inline)]
pub use silt_macros::scan;

#[doc(hidden)]
pub use silt_macros::__kernel_chain;

/// The names most programs use: `use silt::prelude::*;`.
pub mod prelude {
    pub use silt_macros::{grid, helper, kernel, reduce, scan};
    pub use silt_runtime::{
        select, Axes, DType, Device, Element, Error, Grid, Result, Scalar, Tensor, TensorT,
    };
}
