//! What a [`Fusion`] records: its inputs and the values computed from them.

use crate::dtype::Scalar;
use crate::program::text::KernelInfo;
use crate::tensor::Tensor;

/// A value in a [`Fusion`]: an input tensor, a scalar, or a call's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Value(pub(super) usize);

/// What a value is.
#[derive(Debug, Clone)]
pub(super) enum Node {
    /// The `i`-th input tensor.
    Input(usize),
    /// A scalar argument.
    Scalar(Scalar),
    /// A call of an instantiation on earlier values (one per parameter that
    /// is not the `#[index]`).
    Call(&'static KernelInfo, Vec<Value>),
}

/// A chain of kernel calls recorded now and run later as one kernel.
///
/// Record inputs with [`Fusion::input`] (and [`Fusion::scalar`]), calls with
/// [`Fusion::call`] on a kernel's `KERNEL` handle (every `#[kernel]` module
/// has one), then [`Fusion::run`] with the values wanted: one launch. The
/// `silt` crate's documentation ("Fusing chains at run time") has a complete
/// example.
#[derive(Debug, Default)]
pub struct Fusion {
    pub(super) inputs: Vec<Tensor>,
    pub(super) nodes: Vec<Node>,
}
