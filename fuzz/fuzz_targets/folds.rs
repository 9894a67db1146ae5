//! Generated `#[reduce]` and `#[scan]` modules (mostly valid, some with one
//! mistake): never a panic, errors at tokens, accepted modules carry their
//! programs.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = silt_codegen_fuzz::run_folds(data);
});
