// Grid kernels used wrongly: a write to a `View`, the wrong number of
// indices, an index that is not a `u64`, a dimension that is not a literal or
// out of range, a view used as a value, grid built-ins in a `#[kernel]`, views
// in a `#[kernel]`, element parameters and results in a `#[grid]`, and the
// `group` option missing, too large or given to a `#[kernel]`.
use silt::prelude::*;

#[grid(group = [64])]
fn writes_a_view(x: View<f32, 1>) {
    x[[global_id(0)]] = 1.0;
}

#[grid(group = [8, 8])]
fn wrong_index_count(x: View<f32, 2>, y: ViewMut<f32, 2>) {
    y[[global_id(0)]] = x[[0, 1, 2]];
}

#[grid(group = [64])]
fn signed_index(x: View<f32, 1>, y: ViewMut<f32, 1>) {
    let i: i32 = 3;
    y[[0]] = x[[i]];
}

#[grid(group = [64])]
fn bad_dimensions(x: View<f32, 2>, y: ViewMut<f32, 1>) {
    let d = 0;
    y[[global_id(d)]] = x[[0, 0]];
    y[[global_id(3)]] = x[[x.len(2), 0]];
}

#[grid(group = [64])]
fn view_as_value(x: View<f32, 1>, y: ViewMut<f32, 1>) {
    y[[0]] = x + 1.0;
}

#[kernel]
fn builtin_in_kernel(x: f32) -> f32 {
    x + global_id(0) as f32
}

#[kernel]
fn view_in_kernel(x: View<f32, 1>) -> f32 {
    1.0
}

#[grid(group = [64])]
fn elements_in_grid(x: f32, y: &mut f32) -> f32 {
    x
}

#[grid]
fn no_group(y: ViewMut<f32, 1>) {
    y[[0]] = 1.0;
}

#[grid(group = [64, 64])]
fn group_too_large(y: ViewMut<f32, 1>) {
    y[[0]] = 1.0;
}

#[kernel(group = [64])]
fn group_on_kernel(x: f32) -> f32 {
    x
}

#[grid(group = [4])]
fn rank_zero(x: View<f32, 0>, y: ViewMut<f32, 1>) {
    y[[0]] = 1.0;
}

#[grid(group = [64])]
fn divergent_barriers(x: View<f32, 1>, y: ViewMut<f32, 1>) {
    let i = global_id(0);
    if i < 10 {
        barrier();
    }
    let mut n = x[[0]] as u64;
    while n > 0 {
        barrier();
        n = n - 1;
    }
    for k in 0..local_id(0) {
        barrier();
    }
    if x.len(0) > 3 {
        barrier(); // uniform: fine
    }
    if i >= y.len(0) {
        return;
    }
    barrier();
}

#[kernel]
fn barrier_in_kernel(x: f32) -> f32 {
    barrier();
    x
}

#[grid(group = [64])]
fn bad_local_arrays(y: ViewMut<f32, 1>) {
    let n = 4;
    let mut a = local![f32; n];
    let b = 1.0 + local![f32; 4];
    y[[0]] = 1.0;
}

#[grid(group = [64])]
fn bad_atomics(x: View<i32, 1>, y: ViewMut<i32, 1>, h: ViewMut<f16, 1>, f: ViewMut<f32, 1>) {
    x.atomic_add([0], 1);
    h.atomic_add([0], h[[0]]);
    f.atomic_max([0], 1.0);
    y.atomic_compare_exchange([0], 1);
    y.atomic_increment([0], 1);
}

#[grid(group = [64])]
fn bad_private_arrays(y: ViewMut<i32, 1>) {
    let i = global_id(0);
    if i < 4 {
        let mut nested = private![i32; 4];
    }
    let mut acc = private![i32; 4];
    acc.atomic_add([0], 1);
    let v = 2 * private![i32; 2];
    y[[i]] = acc[[0]];
}

#[kernel]
fn private_in_kernel(x: f32) -> f32 {
    let mut a = private![f32; 4];
    x
}

fn main() {}
