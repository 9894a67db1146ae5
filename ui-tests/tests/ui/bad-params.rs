// Signatures that are not elementwise.
use silt::prelude::*;

#[kernel(types = [f32])]
pub fn shared_ref<T>(a: &T) -> T {
    *a
}

#[kernel(types = [f32])]
pub fn double_ref<T>(y: &mut &mut T) {
    **y = 1.0;
}

#[kernel(types = [f32])]
pub fn scalar_ref<T>(#[scalar] alpha: &mut T, x: T) -> T {
    x
}

#[kernel(types = [f32])]
pub fn unknown_attr<T>(#[uniform] alpha: T, x: T) -> T {
    alpha * x
}

#[kernel(types = [f32])]
pub fn only_scalars<T>(#[scalar] a: T, #[scalar] b: T) -> T {
    a + b
}

#[kernel(types = [f32])]
pub fn no_effect<T>(a: T) {
    let b = a;
}

#[kernel(types = [f32])]
pub fn slice_param<T>(a: &[T]) -> T {
    a
}

#[kernel(types = [f32])]
pub fn pattern_param<T>((a, b): (T, T)) -> T {
    a
}

fn main() {}
