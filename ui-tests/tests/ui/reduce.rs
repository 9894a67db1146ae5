// The mistakes a `#[reduce]` module can make, each spanned at its function.
use silt::prelude::*;

#[reduce(types = [f32])]
mod no_identity_nor_combine {
    fn map<T>(x: T) -> T {
        x
    }
}

#[reduce(types = [f32])]
mod combine_of_the_wrong_type {
    fn identity<T>() -> T {
        0.0
    }
    fn combine<T>(a: T, b: i32) -> T {
        a
    }
}

#[reduce(types = [f32])]
mod combine_of_three {
    fn identity<T>() -> (T, i64) {
        (0.0, 0)
    }
    fn map<T>(x: T) -> (T, i64) {
        (x, 1)
    }
    fn combine<T>(a: (T, i64), b: (T, i64), c: T) -> (T, i64) {
        a
    }
}

#[reduce(types = [f32])]
mod map_of_another_type {
    fn identity<T>() -> T {
        0.0
    }
    fn map<T>(x: T) -> i64 {
        1
    }
    fn combine<T>(a: T, b: T) -> T {
        a + b
    }
}

#[reduce(types = [f32])]
mod finish_without_count {
    fn identity<T>() -> T {
        0.0
    }
    fn combine<T>(a: T, b: T) -> T {
        a + b
    }
    fn finish<T>(acc: T) -> T {
        acc
    }
}

#[reduce(types = [f32])]
mod tuple_without_map {
    fn identity<T>() -> (T, T) {
        (0.0, 0.0)
    }
    fn combine<T>(a: (T, T), b: (T, T)) -> (T, T) {
        a
    }
}

#[reduce(types = [f32])]
mod stray_items {
    const K: f32 = 1.0;
    fn identity<T>() -> T {
        0.0
    }
    fn combine<T>(a: T, b: T) -> T {
        a + b
    }
    fn helper<T>(a: T) -> T {
        a
    }
}

#[reduce(types = [f32])]
mod fields_wrong {
    fn identity<T>() -> (T, i64) {
        (0.0, 0)
    }
    fn map<T>(x: T) -> (T, i64) {
        (x, 0)
    }
    fn combine<T>(a: (T, i64), b: (T, i64)) -> (T, i64) {
        (a.2, b)
    }
}

#[reduce(types = [f32], empty = never)]
mod bad_option {
    fn identity<T>() -> T {
        0.0
    }
    fn combine<T>(a: T, b: T) -> T {
        a + b
    }
}

#[reduce]
fn not_a_module() {}

fn main() {}
