// A `pub` helper whose body calls a private helper of its module, called from
// another module: it compiles; wrong calls of it are errors at the call.
use silt::prelude::*;

mod act {
    use silt::prelude::*;

    #[helper(types = [f32])]
    fn half<T>(x: T) -> T {
        x * 0.5
    }

    #[helper(types = [f32])]
    pub fn scaled<T>(x: T, k: T) -> T {
        half(x) * k
    }
}

#[kernel(types = [f32])]
pub fn fine<T>(x: T) -> T {
    act::scaled(x, 2.0)
}

#[kernel(types = [f32])]
pub fn arity<T>(x: T) -> T {
    act::scaled(x)
}

#[kernel(types = [f32, f64])]
pub fn wider<T>(x: T) -> T {
    act::scaled(x, x)
}

fn main() {}
