// Launching a kernel with an element type outside its `types`.
use silt::prelude::*;

#[kernel(types = [f32, f64, i32])]
pub fn add<T>(a: T, b: T) -> T {
    a + b
}

fn main() {
    let dev = Device::host();
    let a = TensorT::<u8>::zeros(&dev, [3]).unwrap();
    let b = TensorT::<u8>::zeros(&dev, [3]).unwrap();
    let _ = add::launch(&a, &b);
}
