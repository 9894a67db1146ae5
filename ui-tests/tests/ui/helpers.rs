// Helpers called for a type they lack, recursion, and a call of a plain function.
use silt::prelude::*;

#[helper(types = [f32])]
fn only_f32<T>(x: T) -> T {
    x * 2.0
}

#[kernel(types = [f32, f64])]
pub fn wrong_type<T>(x: T) -> T {
    only_f32(x)
}

#[helper(types = [f32])]
fn forever<T>(x: T) -> T {
    forever(x) + 1.0
}

#[kernel(types = [f32])]
pub fn recursive<T>(x: T) -> T {
    forever(x)
}

#[helper(types = [f32])]
fn by_ref<T>(x: &mut T) -> T {
    *x
}

fn not_a_helper(x: f32) -> f32 {
    x
}

#[kernel(types = [f32])]
pub fn plain_function<T>(x: T) -> T {
    not_a_helper(x)
}



#[helper]
fn maybe_unset(x: f32) -> f32 {
    let y: f32;
    if x > 0.0 {
        y = 1.0;
    }
    y
}
fn main() {}
