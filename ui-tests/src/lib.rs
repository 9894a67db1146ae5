//! Compile-fail tests of silt's macros: `tests/ui/*.rs`, each with the
//! compiler output it must produce in a `.stderr` file beside it, checked by
//! `tests/ui.rs` with trybuild. The crate has no code of its own.
