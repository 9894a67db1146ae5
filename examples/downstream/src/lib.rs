//! A crate downstream of silt: its own kernels ([`ops`]), used by this crate's
//! program (`src/main.rs`) and by its Python module (`python/`).

pub mod ops;
