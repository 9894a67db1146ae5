//! Elements as the host's grid kernels write them: each in a std atomic of
//! its size, so that work-groups running on several threads may write any
//! element (a race on a device is a race here too, but never undefined
//! behaviour) and atomics are real read-modify-write steps.

use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};

use crate::dtype::Element;

/// An element type held in an atomic of its size on the host (every
/// element type is one; generated code names the bound).
pub trait GridElem: Element {
    /// The atomic that holds one element.
    type Atom: Send + Sync;

    /// An atomic holding `v`.
    fn atom(v: Self) -> Self::Atom;

    /// The value it holds.
    fn load(a: &Self::Atom) -> Self;

    /// Stores `v`.
    fn store(a: &Self::Atom, v: Self);

    /// Replaces the value `old` by `f(old)` in one step; gives `old`.
    fn update(a: &Self::Atom, f: impl Fn(Self) -> Self) -> Self;
}

macro_rules! grid_elem {
    ($($t:ty => $atom:ty, $bits:ty, |$v:ident| $to:expr, |$b:ident| $from:expr;)*) => {$(
        impl GridElem for $t {
            type Atom = $atom;

            #[inline]
            fn atom($v: Self) -> $atom {
                <$atom>::new($to)
            }

            #[inline]
            fn load(a: &$atom) -> Self {
                let $b: $bits = a.load(Relaxed);
                $from
            }

            #[inline]
            fn store(a: &$atom, $v: Self) {
                a.store($to, Relaxed);
            }

            #[inline]
            fn update(a: &$atom, f: impl Fn(Self) -> Self) -> Self {
                let step = |$b: $bits| {
                    let $v = f($from);
                    Some($to)
                };
                let $b = match a.fetch_update(Relaxed, Relaxed, step) {
                    Ok(b) | Err(b) => b,
                };
                $from
            }
        }
    )*};
}

grid_elem! {
    bool => AtomicU8, u8, |v| u8::from(v), |b| b != 0;
    u8 => AtomicU8, u8, |v| v, |b| b;
    i8 => AtomicU8, u8, |v| v.to_ne_bytes()[0], |b| i8::from_ne_bytes([b]);
    u16 => AtomicU16, u16, |v| v, |b| b;
    i16 => AtomicU16, u16, |v| u16::from_ne_bytes(v.to_ne_bytes()), |b| i16::from_ne_bytes(b.to_ne_bytes());
    half::f16 => AtomicU16, u16, |v| v.to_bits(), |b| half::f16::from_bits(b);
    u32 => AtomicU32, u32, |v| v, |b| b;
    i32 => AtomicU32, u32, |v| u32::from_ne_bytes(v.to_ne_bytes()), |b| i32::from_ne_bytes(b.to_ne_bytes());
    f32 => AtomicU32, u32, |v| v.to_bits(), |b| f32::from_bits(b);
    u64 => AtomicU64, u64, |v| v, |b| b;
    i64 => AtomicU64, u64, |v| u64::from_ne_bytes(v.to_ne_bytes()), |b| i64::from_ne_bytes(b.to_ne_bytes());
    f64 => AtomicU64, u64, |v| v.to_bits(), |b| f64::from_bits(b);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_element_round_trips_and_updates_in_one_step() {
        fn check<T: GridElem + std::fmt::Debug>(a: T, b: T, f: impl Fn(T) -> T) {
            let cell = T::atom(a);
            assert_eq!(T::load(&cell), a);
            T::store(&cell, b);
            assert_eq!(T::load(&cell), b);
            let old = T::update(&cell, &f);
            assert_eq!(old, b);
            assert_eq!(T::load(&cell), f(b));
        }
        check(true, false, |v| !v);
        check(-3i8, 127, |v| v.wrapping_add(1));
        check(-300i16, 5, |v| v * 2);
        check(half::f16::from_f32(1.5), half::f16::from_f32(-0.25), |v| -v);
        check(-7i32, i32::MIN, |v| v.wrapping_sub(1));
        check(2.5f32, -0.0, |v| v + 1.0);
        check(u64::MAX, 3, |v| v << 60);
        check(-1.0e300f64, 2.0, |v| v * 0.5);
    }
}
