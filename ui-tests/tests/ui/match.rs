// `match` and tuple `let`: what is not supported, with what to write instead.
use silt::prelude::*;

#[kernel(types = [i32])]
pub fn not_exhaustive<T>(a: T) -> T {
    match a {
        0 => 1,
        1..=5 => 2,
    }
}

#[kernel(types = [f32])]
pub fn float_pattern<T>(a: T) -> T {
    match a {
        1.5 => 0.0,
        _ => a,
    }
}

#[kernel(types = [i32])]
pub fn unreachable_arm<T>(a: T) -> T {
    match a {
        n => n,
        0 => 1,
    }
}

#[kernel(types = [i32])]
pub fn binding_in_or<T>(a: T) -> T {
    match a {
        n | n => n,
    }
}

#[kernel(types = [i32])]
pub fn tuple_pattern<T>(a: T, b: T) -> T {
    match (a, b) {
        (0, 0) => 1,
        _ => 2,
    }
}

#[kernel(types = [i32])]
pub fn guard_last<T>(a: T) -> T {
    match a {
        n if n > 0 => n,
    }
}

#[kernel(types = [f32])]
pub fn tuple_let_of_a_value<T>(a: T) -> T {
    let (x, y) = a;
    x + y
}

#[kernel(types = [f32])]
pub fn tuple_let_counts<T>(a: T) -> T {
    let (x, y) = (a, a, a);
    x + y
}

fn main() {}
