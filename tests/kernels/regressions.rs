//! Kernels that once computed something else on the device than on the host (or
//! did not build): each a regression test, checked on both backends and against
//! the value plain Rust gives.

use silt::prelude::*;

use crate::common;

fn col<T: Element>(dev: &Device, v: &[T]) -> TensorT<T> {
    TensorT::from_slice(dev, v, [v.len()]).unwrap()
}

/// A cast to the same type kept no parentheses: `(x + 1.0) as T * y`.
#[kernel(types = [f32, f64, i32])]
pub fn same_type_cast<T>(x: f32, y: T) -> T {
    (x + 1.0) as T * y
}

/// `(a | b) as T & 1` with `T` = the operands' type.
#[kernel(types = [u32, i32])]
pub fn same_type_cast_bits<T>(a: T, b: T) -> T {
    (a | b) as T & 1
}

/// `wrapping_*` on 32/64-bit unsigned types came out as a bare `a + b`.
#[kernel(types = [u32, u64, i32])]
pub fn wrapping_in_expr<T>(a: T, b: T) -> T {
    a.wrapping_add(b) * b + a.wrapping_sub(b) * 3
}

/// Receivers of `recip`, `to_degrees`, `to_radians` and integer `signum`.
#[kernel(types = [f32, f64])]
pub fn receivers<T>(a: T, b: T) -> (T, T, T) {
    ((a + b).recip(), (a + b).to_degrees(), (a - b).to_radians())
}

#[kernel(types = [i32, i64])]
pub fn signum_of_expr<T>(a: T, b: T) -> (T, T) {
    ((a & b).signum(), (a | b).rotate_left(3))
}

/// A tuple whose later value assigns what an earlier one read.
#[kernel]
pub fn tuple_order(a: i32) -> (i32, i32) {
    let mut x = a;
    (x + 0, {
        x = 7;
        x
    })
}

/// Rust evaluates the right side of `+=` first.
#[kernel]
pub fn compound_order(a: i32, y: &mut i32) -> i32 {
    let mut x = a;
    x += {
        x = 5;
        1
    };
    *y += {
        *y = 5;
        a
    };
    x
}

/// A parameter whose name looked like a renamed local on the host.
#[kernel]
pub fn local_names(x__0: i32) -> i32 {
    let x = 1;
    x + x__0
}

/// A kernel named after an OpenCL built-in.
#[kernel]
pub fn dot(a: f32, b: f32) -> f32 {
    a * b
}

/// Names that are OpenCL keywords, macros, types or built-ins, and collide once
/// escaped; a raw identifier.
#[kernel]
pub fn reserved(float: f32, float_: f32, r#type: f32, M_PI: f32) -> f32 {
    let erf = float.erf();
    let vec_step = float_ + 1.0;
    let r#match = r#type * 2.0;
    let FLT_MAX = M_PI;
    let silt_body_reserved_kernel = 1.0;
    erf + vec_step + r#match + FLT_MAX + silt_body_reserved_kernel
}

/// `break` inside a `let` in a loop: the loop can end, and the kernel still
/// returns a value.
#[kernel]
pub fn break_in_let(x: i32) -> i32 {
    let mut n = 0;
    loop {
        let v = if n > x { break } else { 1 };
        n += v;
    }
    n
}

/// A `let` without a value, assigned on every path.
#[kernel]
pub fn deferred_init(x: f32) -> f32 {
    let y: f32;
    if x > 0.0 {
        y = 1.0;
    } else {
        y = -1.0;
    }
    y * x
}

/// `bool as bool` is the identity; types written through `macro_rules!`.
macro_rules! typed_kernel {
    ($t:ty) => {
        #[kernel]
        pub fn through_macro(x: $t, b: bool) -> ($t, bool) {
            (x, b as bool)
        }
    };
}
typed_kernel!(f32);

#[test]
fn regressions_agree_with_plain_rust() {
    for dev in common::devices() {
        let x = col(&dev, &[1.0f32, 2.0]);
        let out = same_type_cast::launch(&x, &x).unwrap().to_vec().unwrap();
        assert_eq!(out, [2.0, 6.0], "(x + 1) * y on {dev}");
        let a = col(&dev, &[2u32, 4]);
        let b = col(&dev, &[0u32, 1]);
        assert_eq!(
            same_type_cast_bits::launch(&a, &b)
                .unwrap()
                .to_vec()
                .unwrap(),
            [0, 1],
            "on {dev}"
        );
        let a = col(&dev, &[1u32, 5]);
        let b = col(&dev, &[2u32, 3]);
        let want: Vec<u32> = [(1u32, 2u32), (5, 3)]
            .iter()
            .map(|&(a, b)| {
                a.wrapping_add(b)
                    .wrapping_mul(b)
                    .wrapping_add(a.wrapping_sub(b).wrapping_mul(3))
            })
            .collect();
        assert_eq!(
            wrapping_in_expr::launch(&a, &b).unwrap().to_vec().unwrap(),
            want,
            "on {dev}"
        );
        let (r, d, rad) =
            receivers::launch(&col(&dev, &[1.0f64, 2.0]), &col(&dev, &[1.0, 2.0])).unwrap();
        assert_eq!(r.to_vec().unwrap(), [0.5, 0.25], "on {dev}");
        assert_eq!(
            d.to_vec().unwrap(),
            [2.0f64.to_degrees(), 4.0f64.to_degrees()]
        );
        assert_eq!(rad.to_vec().unwrap(), [0.0, 0.0]);
        let (s, rot) =
            signum_of_expr::launch(&col(&dev, &[2i32, -4]), &col(&dev, &[3, -1])).unwrap();
        assert_eq!(s.to_vec().unwrap(), [1, -1], "on {dev}");
        assert_eq!(
            rot.to_vec().unwrap(),
            [3i32.rotate_left(3), (-1i32).rotate_left(3)]
        );
        let (t0, t1) = tuple_order::launch(&col(&dev, &[3])).unwrap();
        assert_eq!(
            (t0.to_vec().unwrap(), t1.to_vec().unwrap()),
            (vec![3], vec![7]),
            "on {dev}"
        );
        let mut y = col(&dev, &[10]);
        let x = compound_order::launch(&col(&dev, &[3]), &mut y).unwrap();
        assert_eq!(
            (x.to_vec().unwrap(), y.to_vec().unwrap()),
            (vec![6], vec![8]),
            "on {dev}"
        );
        assert_eq!(
            local_names::launch(&col(&dev, &[41]))
                .unwrap()
                .to_vec()
                .unwrap(),
            [42]
        );
        assert_eq!(
            dot::launch(&col(&dev, &[3.0]), &col(&dev, &[4.0]))
                .unwrap()
                .to_vec()
                .unwrap(),
            [12.0]
        );
        let v = col(&dev, &[0.0f32, 1.0]);
        let got = reserved::launch(&v, &v, &v, &v).unwrap().to_vec().unwrap();
        let want: Vec<f32> = [0.0f32, 1.0]
            .iter()
            .map(|&f| reserved::eval(f, f, f, f))
            .collect();
        assert_eq!(got, want, "on {dev}");
        assert_eq!(
            reserved::eval(1.0, 1.0, 1.0, 1.0),
            0.842_700_8 + 2.0 + 2.0 + 1.0 + 1.0
        );
        assert_eq!(
            break_in_let::launch(&col(&dev, &[-1, 4]))
                .unwrap()
                .to_vec()
                .unwrap(),
            [0, 5]
        );
        assert_eq!(
            deferred_init::launch(&col(&dev, &[2.0, -3.0]))
                .unwrap()
                .to_vec()
                .unwrap(),
            [2.0, 3.0]
        );
        let (tx, tb) = through_macro::launch(&col(&dev, &[1.5f32]), &col(&dev, &[true])).unwrap();
        assert_eq!(
            (tx.to_vec().unwrap(), tb.to_vec().unwrap()),
            (vec![1.5], vec![true])
        );
    }
}

/// The very same elements through strides that differ only on a dimension of
/// size 1: equal aliasing, allowed.
#[test]
fn equal_elements_through_other_strides_are_not_aliasing() {
    for dev in common::devices() {
        let base = TensorT::from_slice(&dev, &[1.0f32, 2.0, 3.0], [1, 3]).unwrap();
        let mut y = base.transpose(0, 1).unwrap(); // [3, 1], strides [1, 3]
        let x = base.reshape([3, 1]).unwrap(); // [3, 1], strides [1, 1]
        assert_ne!(x.strides(), y.strides());
        double_add::launch(&x, &mut y).unwrap();
        assert_eq!(base.to_vec().unwrap(), [3.0, 6.0, 9.0], "on {dev}");
    }
}

#[kernel]
pub fn double_add(x: f32, y: &mut f32) {
    *y += 2.0 * x;
}

/// `abs` of MIN was OpenCL's `abs`, undefined there: PoCL's optimiser assumed a
/// result that is never negative (`MIN.abs() < 0` was false, `(MIN.abs() | 1)
/// .abs()` positive), where silt's wrapping `abs` gives MIN.
#[kernel(types = [i8, i16, i32, i64])]
pub fn abs_of_min<T>(x: T) -> (T, bool, T) {
    let a = x.wrapping_abs();
    (a, x.abs() < 0, (a | 1).wrapping_abs())
}

#[test]
fn abs_of_min_wraps_on_every_device() {
    fn check<T>(dev: &Device, values: &[T])
    where
        T: Element + abs_of_min::Instance + PartialEq + std::fmt::Debug,
    {
        let (a, neg, b) = abs_of_min::launch(&col(dev, values)).unwrap();
        let want: Vec<(T, bool, T)> = values.iter().map(|&v| abs_of_min::eval(v)).collect();
        let got: Vec<(T, bool, T)> = a
            .to_vec()
            .unwrap()
            .into_iter()
            .zip(neg.to_vec().unwrap())
            .zip(b.to_vec().unwrap())
            .map(|((a, n), b)| (a, n, b))
            .collect();
        assert_eq!(got, want, "on {dev}");
    }
    for dev in common::devices() {
        check(&dev, &[i8::MIN, -3, 0, 5, i8::MAX]);
        check(&dev, &[i16::MIN, -3, 0, 5, i16::MAX]);
        check(&dev, &[i32::MIN, -3, 0, 5, i32::MAX]);
        check(&dev, &[i64::MIN, -3, 0, 5, i64::MAX]);
    }
    // plain Rust's meaning, for the record
    assert_eq!(abs_of_min::eval(i32::MIN), (i32::MIN, true, i32::MAX));
}

/// Builtins of compile-time constants: PoCL folded `exp(NAN)`, `floor(NAN)` and
/// `rint` of values beyond 2^31 into garbage (every output of such a kernel came
/// out 0); arguments known at compile time now reach them through a value the
/// compiler cannot see.
#[kernel(types = [f32, f64])]
pub fn builtins_of_constants<T>(x: T) -> (T, T, T, T) {
    let big: T = 3.0e38;
    let huge = big * 2.0;
    (
        x + T::NAN.exp(),
        x + big.round_ties_even(),
        x + T::NAN.floor() + (-3e9 as T).round_ties_even(),
        x + huge.round(),
    )
}

#[test]
fn builtins_of_constants_match_the_host() {
    fn check<T>(dev: &Device, values: &[T])
    where
        T: Element + builtins_of_constants::Instance + std::fmt::Debug + Copy,
        T: Into<f64>,
    {
        let (a, b, c, d) = builtins_of_constants::launch(&col(dev, values)).unwrap();
        let got = [a, b, c, d].map(|t| t.to_vec().unwrap());
        for (i, &v) in values.iter().enumerate() {
            let (wa, wb, wc, wd) = builtins_of_constants::eval(v);
            let want: [f64; 4] = [wa.into(), wb.into(), wc.into(), wd.into()];
            for (k, w) in want.iter().enumerate() {
                let g: f64 = got[k][i].into();
                assert!(
                    g == *w || (g.is_nan() && w.is_nan()),
                    "output {k} of element {i} on {dev}: {g} vs {w}"
                );
            }
        }
    }
    for dev in common::devices() {
        check(&dev, &[0.0f32, 1.5, -2.0]);
        check(&dev, &[0.0f64, 1.5, -2.0]);
    }
}

/// Unicode identifiers (which Rust accepts and OpenCL C compilers reject) reached
/// the emitted C as they were: found by the `tokens` fuzz target. The kernel, its
/// helper, a parameter and locals are named outside ASCII, next to an ASCII local
/// spelled like the escaped form of one of them.
pub mod unicode_names {
    use silt::prelude::*;
    #[helper(types = [f32, i32])]
    fn größe<T>(ä: T) -> T {
        ä * ä
    }
    #[kernel(types = [f32, i32])]
    pub fn σ_sum<T>(λ: T, μ: &mut T) -> T {
        let ü = größe(λ) + *μ;
        let silt_x_u_fc_: T = λ;
        let ζ = ü - silt_x_u_fc_;
        *μ = ζ;
        ü
    }
}

#[test]
fn unicode_identifiers_run_on_every_device() {
    use unicode_names::σ_sum;
    for dev in common::devices() {
        let a = col(&dev, &[3.0f32, -0.5, 2.0]);
        let mut b = col(&dev, &[1.0f32, 4.0, -8.0]);
        let s = σ_sum::launch(&a, &mut b).unwrap().to_vec().unwrap();
        let want: Vec<(f32, f32)> = [(3.0f32, 1.0f32), (-0.5, 4.0), (2.0, -8.0)]
            .iter()
            .map(|&(x, mut y)| (σ_sum::eval(x, &mut y), y))
            .collect();
        assert_eq!(s, want.iter().map(|w| w.0).collect::<Vec<_>>(), "on {dev}");
        assert_eq!(
            b.to_vec().unwrap(),
            want.iter().map(|w| w.1).collect::<Vec<_>>(),
            "on {dev}"
        );
        assert_eq!(s, [10.0, 4.25, -4.0]);
        let ai = col(&dev, &[7i32, -2]);
        let mut bi = col(&dev, &[1i32, 1]);
        assert_eq!(
            σ_sum::launch(&ai, &mut bi).unwrap().to_vec().unwrap(),
            [50, 5]
        );
        assert_eq!(bi.to_vec().unwrap(), [43, 7]);
    }
    let source = σ_sum::source(DType::F32).unwrap();
    let code: String = source
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect();
    assert!(code.is_ascii(), "{source}");
}

/// `#[scalar]`s named as the module's own functions: `dispatch` took them as
/// parameters of those names and then called `launch(..)`, which the
/// parameter hid (found by the random kernels, in a `#[reduce]`).
#[kernel(types = [f32, f64])]
pub fn named_like_its_functions<T>(
    x: T,
    #[scalar] launch: T,
    #[scalar] eval: T,
    #[scalar] source: T,
) -> T {
    x * launch + eval - source
}

/// The same in place: `dispatch_into` called `launch_into(..)`.
#[kernel]
pub fn named_like_launch_into(x: f32, #[scalar] launch_into: f32) -> f32 {
    x + launch_into
}

#[test]
fn scalars_named_as_the_generated_functions() {
    for dev in common::devices() {
        let x: Tensor = col(&dev, &[1.0f32, 2.0]).into();
        let y = named_like_its_functions::dispatch(&x, 3.0, 0.5, 0.25).unwrap();
        assert_eq!(
            y.typed::<f32>().unwrap().to_vec().unwrap(),
            [3.25, 6.25],
            "{dev}"
        );
        let mut out: Tensor = col(&dev, &[0.0f32, 0.0]).into();
        named_like_launch_into::dispatch_into(&x, 1.5, &mut out).unwrap();
        assert_eq!(
            out.typed::<f32>().unwrap().to_vec().unwrap(),
            [2.5, 3.5],
            "{dev}"
        );
    }
}
