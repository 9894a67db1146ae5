//! Random `#[kernel]` functions in silt's kernel language, from one generator for
//! every user, and the edge values tests feed kernels.
//!
//! [`generate`] writes one kernel (with the `#[helper]`s and the kernels it
//! calls: [`Kernel::callees`]) from a source
//! of choices, [`Choose`]: a seeded [`SplitMix64`] for `silt-random-kernels`,
//! whose build script writes a corpus of kernels that its tests run on the OpenCL
//! device and on the host, or the fuzzer's bytes for the `kernels` target in
//! `fuzz/`. The generator knows the language's typing rules (docs/kernel.md):
//! every expression is generated at a type, for every type the kernel is
//! instantiated for, so the kernels it writes are valid. Which methods exist, on
//! which receivers, with which argument and result types, and whether every
//! backend gives the same bits, it reads from `silt_codegen::builtins::TABLE`;
//! the element types from [`silt_abi::DType::ALL`].
//!
//! [`Options`] says what the kernel is for:
//! - `runnable` (random-kernels): its results must agree between backends, so
//!   it uses only the exactly specified operations, except that a float output
//!   may end in one transcendental function of exact arguments (its
//!   [`Check`] gives the ULP bound), no computed NaN reaches an operation that
//!   shows its sign, and every loop ends;
//! - otherwise (the fuzzer) it only has to compile: every method anywhere, any
//!   loop, and with [`Options::mistakes`] one deliberate mistake in some kernels
//!   (a wrong type, a missing `else`, an unknown method, ...) to reach the error
//!   paths.
//!
//! [`values`] holds the edge values per element type that the random kernels
//! and the differential tests run on.

#[cfg(feature = "generate")]
mod ast;
#[cfg(feature = "generate")]
mod callee;
#[cfg(feature = "generate")]
mod choose;
#[cfg(feature = "generate")]
mod expr;
#[cfg(feature = "generate")]
mod fold;
#[cfg(feature = "generate")]
mod fold_parts;
#[cfg(feature = "generate")]
mod gen;
#[cfg(feature = "generate")]
mod grid;
#[cfg(feature = "generate")]
mod helper;
#[cfg(feature = "generate")]
mod kernel;
#[cfg(feature = "generate")]
mod lits;
#[cfg(feature = "generate")]
mod matching;
#[cfg(feature = "generate")]
mod mistakes;
#[cfg(feature = "generate")]
mod names;
#[cfg(feature = "generate")]
mod stmt;
#[cfg(feature = "values")]
pub mod values;

#[cfg(feature = "generate")]
pub use choose::{Choose, SplitMix64};
#[cfg(feature = "generate")]
pub use fold::{generate_fold, Fold, FoldKind};
#[cfg(feature = "generate")]
pub use grid::{generate_grid, GridKernel, HIST};
#[cfg(feature = "generate")]
pub use kernel::{generate, Check, Helper, Kernel, Options, Param, ParamKind, Ty};
