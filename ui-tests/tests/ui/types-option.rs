// The `types` option: missing, repeated, misplaced, and unknown option keys.
use silt::prelude::*;

#[kernel]
pub fn no_types<T>(a: T) -> T {
    a
}

#[kernel(types = [f32], types = [f64])]
pub fn types_twice<T>(a: T) -> T {
    a
}

#[kernel(types = [f32])]
pub fn not_generic(a: f32) -> f32 {
    a
}

#[kernel(types = [f32], fast_math = true)]
pub fn unknown_key<T>(a: T) -> T {
    a
}

#[kernel(typs = [f32])]
pub fn misspelled<T>(a: T) -> T {
    a
}

#[kernel(f32, f64)]
pub fn bare_list<T>(a: T) -> T {
    a
}

fn main() {}
