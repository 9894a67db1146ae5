// Bodies that do not type-check for one of the listed types.
use silt::prelude::*;

#[kernel(types = [f32, i32])]
pub fn float_literal<T>(a: T) -> T {
    a * 2.5
}

#[kernel(types = [f32, i32])]
pub fn sqrt_on_int<T>(a: T) -> T {
    a.sqrt()
}

#[kernel(types = [f32])]
pub fn immutable_let<T>(a: T) -> T {
    let b = a;
    b = a + a;
    b
}

#[kernel(types = [i32, u32])]
pub fn negate_unsigned<T>(a: T) -> T {
    -a
}

#[kernel(types = [u8])]
pub fn literal_out_of_range<T>(a: T) -> T {
    a + 300
}

#[kernel(types = [f32])]
pub fn wrong_return<T>(a: T) -> T {
    a > a
}

#[kernel(types = [f32, f64])]
pub fn fixed_mix<T>(a: T, b: f32) -> T {
    a + b
}

fn main() {}
