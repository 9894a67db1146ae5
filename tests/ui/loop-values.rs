// `break value`: from a `while` or a `for` (only a `loop` has a value), and
// a `loop` whose breaks give a value and none.
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

fn main() {}
