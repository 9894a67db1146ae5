// `break value`: from a `while` or a `for` (only a `loop` has a value), and
// a `loop` whose breaks give a value and none; labels: one no loop has, a
// value given to an outer loop, a valued `loop` left for an outer one.
use silt::prelude::*;

#[kernel(types = [i32])]
pub fn from_a_while<T>(x: T) -> T {
    let mut i = 0;
    while i < x {
        i += 1;
        if i == 3 {
            break i;
        }
    }
    i
}

#[kernel(types = [i32])]
pub fn from_a_for<T>(x: T) -> T {
    for i in 0..x {
        break i;
    }
    x
}

#[kernel(types = [i32])]
pub fn with_and_without<T>(x: T) -> T {
    let mut i = 0;
    let v = loop {
        i += 1;
        if i > x {
            break;
        }
        if i == 7 {
            break i;
        }
    };
    v
}

#[kernel(types = [i32])]
pub fn unknown_label<T>(x: T) -> T {
    'a: for i in 0..4 {
        if i > x {
            break 'b;
        }
    }
    x
}

#[kernel(types = [i32])]
pub fn value_to_an_outer_loop<T>(x: T) -> T {
    let v = 'a: loop {
        for i in 0..4 {
            if i > x {
                break 'a i;
            }
        }
    };
    v
}

#[kernel(types = [i32])]
pub fn valued_loop_left_for_an_outer_one<T>(x: T) -> T {
    'a: for i in 0..4 {
        let v = loop {
            if i > x {
                break 'a;
            }
            break i;
        };
        if v > 2 {
            break;
        }
    }
    x
}

fn main() {}
