// Tuples from branches and destructuring assignment: an `if` without an
// `else`, a branch that gives one value, or the wrong number, a block that
// gives nothing, a value that is no tuple, places that cannot be assigned.
use silt::prelude::*;

#[kernel(types = [f32])]
pub fn if_without_else<T>(x: T) -> T {
    let (a, b) = if x > 0.0 { (x, x) };
    a + b
}

#[kernel(types = [f32])]
pub fn a_branch_of_one_value<T>(x: T) -> T {
    let (a, b) = if x > 0.0 { (x, x) } else { x };
    a + b
}

#[kernel(types = [f32])]
pub fn a_branch_of_three<T>(x: T) -> T {
    let (a, b) = match x > 0.0 {
        true => (x, x),
        false => (x, x, x),
    };
    a + b
}

#[kernel(types = [f32])]
pub fn a_block_without_a_tuple<T>(x: T) -> T {
    let (a, b) = {
        let c = x;
    };
    a + b
}

#[kernel(types = [f32])]
pub fn assign_a_value<T>(x: T) -> T {
    let (mut a, mut b) = (x, x);
    (a, b) = x;
    a + b
}

#[kernel(types = [f32])]
pub fn assign_three_to_two<T>(x: T) -> T {
    let (mut a, mut b) = (x, x);
    (a, b) = (x, x, x);
    a + b
}

#[kernel(types = [f32])]
pub fn assign_to_a_sum<T>(x: T) -> T {
    let mut b = x;
    (x + 1.0, b) = (x, x);
    b
}

#[kernel(types = [f32])]
pub fn assign_to_an_immutable<T>(x: T) -> T {
    let a = x;
    (a, _) = (x, x);
    a
}

fn main() {}
