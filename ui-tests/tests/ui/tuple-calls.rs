// Calls with several results: used where one value is needed, bound to a
// pattern of the wrong size or shape, called with the wrong number of
// arguments; a helper that returns nothing.
use silt::prelude::*;

#[helper(types = [f32])]
pub fn split<T>(x: T) -> (T, T) {
    (x.floor(), x - x.floor())
}

#[helper]
pub fn nothing(x: f32) {
    let _ = x;
}

#[kernel(types = [f32])]
pub fn as_a_value<T>(x: T) -> T {
    split(x) + x
}

#[kernel(types = [f32])]
pub fn let_one<T>(x: T) -> T {
    let v = split(x);
    v
}

#[kernel(types = [f32])]
pub fn too_many_names<T>(x: T) -> T {
    let (a, b, c) = split(x);
    a + b + c
}

#[kernel(types = [f32])]
pub fn too_few_names<T>(x: T) -> T {
    let (a,) = split(x);
    a
}

#[kernel(types = [f32])]
pub fn nested_in_a_call<T>(x: T) -> T {
    let ((a, b), c) = split(x);
    a + b + c
}

#[kernel(types = [f32])]
pub fn arity<T>(x: T) -> T {
    let (a, b) = split(x, x);
    a + b
}

fn main() {}
