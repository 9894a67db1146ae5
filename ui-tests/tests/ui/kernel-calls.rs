// Kernels called from kernels: types outside the callee's, `&mut` and
// `#[index]` parameters, two results, a wrong number of arguments.
use silt::prelude::*;

#[kernel(types = [f32, f64])]
pub fn halve<T>(x: T, #[scalar] k: T) -> T {
    x * k * 0.5
}

#[kernel(types = [f32, i32])]
pub fn wider<T>(x: T) -> T {
    halve(x, x)
}

#[kernel(types = [f32])]
pub fn accumulate<T>(x: T, acc: &mut T) -> T {
    *acc = *acc + x;
    x
}

#[kernel(types = [f32])]
pub fn calls_mut<T>(x: T) -> T {
    accumulate(x, x)
}

#[kernel]
pub fn ramp(x: f32, #[index] i: u64) -> f32 {
    x + i as f32
}

#[kernel]
pub fn calls_index(x: f32) -> f32 {
    ramp(x, 3)
}

#[kernel]
pub fn two(x: f32) -> (f32, f32) {
    (x, -x)
}

#[kernel]
pub fn calls_two(x: f32) -> f32 {
    two(x)
}

#[kernel(types = [f32])]
pub fn arity<T>(x: T) -> T {
    halve(x)
}

fn main() {}
