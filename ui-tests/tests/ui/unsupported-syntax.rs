// Syntax outside the kernel subset.
use silt::prelude::*;

#[kernel(types = [f32])]
pub fn closure<T>(a: T) -> T {
    let f = |v: T| v + v;
    f
}

#[kernel(types = [f32])]
pub fn unknown_method<T>(a: T) -> T {
    a.foo()
}

#[kernel(types = [i32])]
pub fn float_method_on_int<T>(a: T) -> T {
    a.sin()
}

#[kernel(types = [f32])]
pub fn reference<T>(a: T) -> T {
    let r = &a;
    a
}

#[kernel(types = [f32])]
pub fn bounds<T: Copy>(a: T) -> T {
    a
}

#[kernel(types = [f32])]
pub fn unsafe_block<T>(a: T) -> T {
    unsafe { a }
}

#[kernel(types = [f32])]
pub fn macro_stmt<T>(a: T) -> T {
    println!("{}", a);
    a
}

#[kernel(types = [f32])]
pub fn macro_expr<T>(a: T) -> T {
    let b = dbg!(a);
    b
}

#[kernel(types = [f32])]
pub fn indexing<T>(a: T) -> T {
    a[0]
}

#[kernel(types = [f32])]
pub fn call<T>(a: T) -> T {
    f32::sqrt(a)
}

#[kernel(types = [f32])]
pub fn free_call<T>(a: T) -> T {
    helper(a)
}

// A kernel with errors still defines its module, so uses of it must not add
// errors of their own.
fn uses_a_broken_kernel() {
    let dev = Device::host();
    let x = TensorT::<f32>::zeros(&dev, [3]).unwrap();
    let _ = closure::launch(&x);
}

fn helper(a: f32) -> f32 {
    a
}

fn main() {
    uses_a_broken_kernel();
}

#[kernel(types = [f32])]
pub fn array_literal<T>(a: T) -> T {
    let z = [a, a];
    a
}

// a call rustc cannot resolve does not hide the body's other errors
#[kernel(types = [f32])]
pub fn closure_and_call<T>(x: T) -> T {
    let f = |v: T| v * 2.0;
    let z = [x];
    bar(x)
}

// the standard library's functions name no helper: the method hint, not
// rustc's "cannot find"
#[kernel(types = [i32])]
pub fn std_call<T>(a: T, b: T) -> T {
    std::cmp::max(a, b) + ::core::cmp::min(a, b)
}
