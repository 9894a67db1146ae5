//! Compile-fail UI tests of `#[kernel]`: one file per error family under `tests/ui/`,
//! each with the compiler output it must produce in a `.stderr` file next to it.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
