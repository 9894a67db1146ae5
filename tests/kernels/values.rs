//! Edge values per element type (defined once, in `silt-kernel-gen`), and
//! comparison of results.

use silt::f16;
use silt::Element;
pub use silt_kernel_gen::values::Edges;

/// A type with interesting test values ([`Edges::edges`]: extremes, zeros, NaN
/// and infinities, subnormals, values near the integer ranges that casts
/// saturate at) and an exact comparison.
pub trait Edge: Element + Edges {
    /// A key equal for equal values, all NaNs alike, `0.0 != -0.0`.
    fn key(self) -> u64;
    /// ULP distance for floats (0 for equal keys, `u64::MAX` for a NaN against a
    /// number); for other types 0 or `u64::MAX`.
    fn ulps(self, other: Self) -> u64 {
        if self.key() == other.key() {
            0
        } else {
            u64::MAX
        }
    }
}

macro_rules! int_edges {
    ($($t:ty),*) => {$(
        impl Edge for $t {
            #[allow(clippy::cast_sign_loss)]
            fn key(self) -> u64 {
                self as u64
            }
        }
    )*};
}

int_edges!(u8, i8, u16, i16, u32, i32, u64, i64);

impl Edge for bool {
    fn key(self) -> u64 {
        u64::from(self)
    }
}

macro_rules! float_edges {
    ($t:ident, $bits:ty) => {
        impl Edge for $t {
            fn key(self) -> u64 {
                if self.is_nan() {
                    u64::MAX
                } else {
                    u64::from(self.to_bits())
                }
            }
            fn ulps(self, other: $t) -> u64 {
                if self.key() == other.key() {
                    return 0;
                }
                if self.is_nan() || other.is_nan() {
                    return u64::MAX;
                }
                // map the bits to a line where neighbouring floats differ by one
                fn line(x: $t) -> i128 {
                    let b = x.to_bits() as i128;
                    let sign = 1i128 << (<$bits>::BITS - 1);
                    if b & sign != 0 {
                        -(b & (sign - 1))
                    } else {
                        b
                    }
                }
                line(self)
                    .abs_diff(line(other))
                    .try_into()
                    .unwrap_or(u64::MAX)
            }
        }
    };
}

float_edges!(f32, u32);
float_edges!(f64, u64);

impl Edge for f16 {
    fn key(self) -> u64 {
        if self.is_nan() {
            u64::MAX
        } else {
            u64::from(self.to_bits())
        }
    }
    fn ulps(self, other: f16) -> u64 {
        if self.key() == other.key() {
            return 0;
        }
        if self.is_nan() || other.is_nan() {
            return u64::MAX;
        }
        // neighbouring f16 values differ by one on this line
        let line = |x: f16| {
            let b = i64::from(x.to_bits());
            if b & 0x8000 != 0 {
                -(b & 0x7fff)
            } else {
                b
            }
        };
        line(self).abs_diff(line(other))
    }
}

/// Every pair of edge values, as two columns.
pub fn pairs<T: Edge>() -> (Vec<T>, Vec<T>) {
    let e = T::edges();
    let mut a = Vec::new();
    let mut b = Vec::new();
    for &x in &e {
        for &y in &e {
            a.push(x);
            b.push(y);
        }
    }
    (a, b)
}

/// Asserts two result columns agree exactly (NaNs alike).
pub fn assert_exact<T: Edge>(
    what: &str,
    device: &[T],
    host: &[T],
    inputs: &dyn Fn(usize) -> String,
) {
    assert_eq!(device.len(), host.len(), "{what}: lengths");
    for (i, (d, h)) in device.iter().zip(host).enumerate() {
        assert!(
            d.key() == h.key(),
            "{what}: element {i} ({}): device {d:?}, host {h:?}",
            inputs(i)
        );
    }
}

/// Asserts two float columns agree within `max_ulps` (NaN and infinities exactly).
pub fn assert_ulps<T: Edge>(
    what: &str,
    device: &[T],
    host: &[T],
    max_ulps: u64,
    inputs: &dyn Fn(usize) -> String,
) -> u64 {
    assert_eq!(device.len(), host.len(), "{what}: lengths");
    let mut worst = 0;
    for (i, (d, h)) in device.iter().zip(host).enumerate() {
        let u = d.ulps(*h);
        assert!(
            u <= max_ulps,
            "{what}: element {i} ({}): device {d:?}, host {h:?}: {u} ulps > {max_ulps}",
            inputs(i)
        );
        worst = worst.max(u);
    }
    worst
}
