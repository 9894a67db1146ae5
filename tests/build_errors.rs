//! When the OpenCL compiler rejects a generated program, the error names the
//! kernel, its type and the device, and maps each message back to the Rust line
//! of the kernel statement it is about. A test hook rewrites the emitted C to
//! force the failure.

mod common;

use silt::prelude::*;

/// The line of `fn scaled` below.
const KERNEL_LINE: u32 = line!() + 3;

#[kernel(types = [f32, i32])]
fn scaled<T>(x: T, #[scalar] k: T) -> T {
    let doubled = x * k;
    let shifted = doubled + x;
    shifted - k
}

/// Breaks the statement `let shifted = doubled + x;` in every program.
fn break_second_statement(source: &str) -> String {
    source.replace(
        "shifted = doubled + x;",
        "shifted = doubled + not_a_variable;",
    )
}

#[test]
fn build_errors_point_at_the_rust_line() {
    let Some(cl) = common::opencl() else { return };
    let x = TensorT::from_slice(&cl, &[1.0f32, 2.0], [2]).unwrap();
    silt::__testing::set_source_hook(Some(break_second_statement));
    let err = scaled::launch(&x, 3.0).unwrap_err();
    silt::__testing::set_source_hook(None);

    let msg = err.to_string();
    assert!(matches!(err, Error::Build { .. }), "{err:?}");
    assert!(msg.contains("kernel `scaled` for f32"), "{msg}");
    assert!(msg.contains(&cl.to_string()), "{msg}");
    assert!(
        msg.contains("not_a_variable"),
        "the compiler's message: {msg}"
    );
    let at = format!("--> tests/build_errors.rs:{} (OpenCL line", KERNEL_LINE + 2);
    assert!(msg.contains(&at), "expected `{at}` in:\n{msg}");
    assert!(
        msg.contains("`float shifted = doubled + not_a_variable;`"),
        "the C line: {msg}"
    );

    // without the hook, the same kernel builds and runs
    let y = scaled::launch(&x, 3.0).unwrap();
    assert_eq!(y.to_vec().unwrap(), [1.0, 5.0]);
    let i = TensorT::from_slice(&cl, &[4i32], [1]).unwrap();
    assert_eq!(scaled::launch(&i, 2).unwrap().to_vec().unwrap(), [10]);
}
