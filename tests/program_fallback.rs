//! The kernels of a crate are built as one program; when that program does not
//! build on a device, each kernel is built alone, so the kernels that compile
//! still run and the error names the kernel that does not.

mod common;

use silt::__private::{Def, Form, KernelInfo, OpenClKernel, Piece, ProgramText};
use silt::prelude::*;

#[kernel(types = [f32])]
fn twice<T>(x: T) -> T {
    x + x
}

#[kernel(types = [f32, i32])]
fn negate<T>(x: T) -> T {
    -x
}

const BROKEN_SOURCE: &str =
    "__kernel void broken_f32(__global float* x) { x[0] = not_defined_anywhere; }\n";

/// A kernel of this crate whose OpenCL C does not compile, registered like the
/// ones `#[kernel]` generates, so the crate's program fails to build.
static BROKEN: ProgramText = ProgramText::new(
    "broken",
    module_path!(),
    false,
    &[Def::new(Piece::Entries, "broken_f32", BROKEN_SOURCE)],
);

#[silt::__private::linkme::distributed_slice(silt::__private::PROGRAMS)]
#[linkme(crate = silt::__private::linkme)]
static REGISTERED: &ProgramText = &BROKEN;

static BROKEN_INFO: KernelInfo = KernelInfo::new(
    "broken",
    Some(DType::F32),
    Form::Map,
    OpenClKernel::new(
        &BROKEN,
        "broken",
        &[0],
        c"broken_f32",
        c"broken_f32_strided",
    ),
);

#[test]
fn a_kernel_that_does_not_build_leaves_the_others_working() {
    let Some(cl) = common::opencl() else { return };
    let before = cl.programs_built();
    let x = TensorT::from_slice(&cl, &[1.0f32, -2.5], [2]).unwrap();
    assert_eq!(twice::launch(&x).unwrap().to_vec().unwrap(), [2.0, -5.0]);
    assert_eq!(negate::launch(&x).unwrap().to_vec().unwrap(), [-1.0, 2.5]);
    let i = TensorT::from_slice(&cl, &[7i32, i32::MIN], [2]).unwrap();
    assert_eq!(
        negate::launch(&i).unwrap().to_vec().unwrap(),
        [-7, i32::MIN]
    );
    // the crate's program failed once; each kernel then built its own
    assert_eq!(cl.programs_built() - before, 2);

    let err = silt::__private::build(&BROKEN_INFO, &cl).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, Error::Build { .. }), "{err:?}");
    assert!(msg.contains("kernel `broken` for f32"), "{msg}");
    assert!(msg.contains("not_defined_anywhere"), "{msg}");
}
