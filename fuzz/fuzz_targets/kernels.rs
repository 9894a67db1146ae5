//! Generated kernels (mostly valid, some with one mistake): never a panic, errors
//! at tokens, accepted kernels carry their programs.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = silt_codegen_fuzz::run_kernels(data);
});
