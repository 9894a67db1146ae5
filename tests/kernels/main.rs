//! `#[kernel]` end to end: every emitted program is snapshotted, syntax-checked by
//! clang and built by the OpenCL device; device results equal the host's `eval`;
//! launches validate their arguments.

#![allow(clippy::cast_possible_truncation, clippy::type_complexity)] // test data

#[path = "../common/mod.rs"]
mod common;

mod calls;
mod defs;
mod differential;
mod euclid;
mod half;
mod helpers;
mod launch;
mod launch_into;
mod loops;
mod matching;
mod regressions;
mod source;
mod strided;
mod tuples;
mod values;
