//! The front end: the attribute's options and the function, lowered from `syn`
//! into silt's own spanned syntax tree. Unsupported syntax is rejected here,
//! with a spanned error saying what to write instead; no types are decided yet.

pub mod attr;
mod body;
mod loops;
mod paths;
mod patterns;
pub mod reduce;
mod signature;
pub mod syntax;
mod tuples;
mod types;

pub use body::block;
pub(crate) use loops::LabelFlag;
pub use paths::{helper_calls, helper_path, ident_name, path_key};
pub use signature::{signature, signature_with};
pub use types::{supported_types, ty_ref, ungroup};
