//! Arbitrary text as `#[kernel]`'s attribute and item: never a panic.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = silt_codegen_fuzz::run_tokens(data);
});
