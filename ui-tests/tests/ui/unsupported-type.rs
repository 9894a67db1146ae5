// Element types outside the supported list, and malformed `types` lists.
use silt::prelude::*;

#[kernel(types = [f32, usize])]
pub fn pointer_sized<T>(a: T, b: T) -> T {
    a + b
}

#[kernel(types = [String])]
pub fn string<T>(a: T) -> T {
    a
}

#[kernel(types = [f128, f32])]
pub fn quad<T>(a: T) -> T {
    a
}

#[kernel(types = [f32, f64, f32])]
pub fn duplicated<T>(a: T) -> T {
    a
}

#[kernel(types = [])]
pub fn empty<T>(a: T) -> T {
    a
}

#[kernel(types = [Vec<f32>])]
pub fn generic_type<T>(a: T) -> T {
    a
}

#[kernel(types = f32)]
pub fn not_a_list<T>(a: T) -> T {
    a
}

#[kernel]
pub fn fixed_usize(a: usize) -> usize {
    a
}

fn main() {}
