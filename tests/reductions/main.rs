//! `#[reduce]` end to end: the device, the host backend and `eval` give the same
//! bits for every shape, axis list, view and dtype; bad launches are errors; the
//! fixed order keeps sums accurate.

#![allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)] // test data

#[path = "../common/mod.rs"]
mod common;

mod accuracy;
mod defs;
mod errors;
mod geometry;
mod helpers;
mod order;
mod scans;
mod source;
