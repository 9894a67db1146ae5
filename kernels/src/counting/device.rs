//! The grid kernels of the counting operations. Each work-item counts
//! every `global_size`-th element from its own; where the bins fit in
//! work-group memory (1,024 of them), a work-group counts in its own
//! array first and adds its non-zero counts to the result once, else each
//! element's count goes straight to the result. Counts are integers, so the
//! order of the atomic additions changes nothing.
//!
//! The kernels are `unchecked`: every access is in range by construction
//! (the launching functions say why); the tests run them on Oclgrind too.

use silt::{grid, helper};

/// The elements each work-item counts (about).
pub(crate) const PER_ITEM: usize = 16;

/// `out[v] += 1` for each element `v` of `x` below `out.len(0)` (the
/// caller has checked that none is negative).
#[grid(types = [u8, i8, i16, i32, i64], group = [256], unchecked)]
pub fn bincount_count<T>(x: View<T, 1>, out: ViewMut<i64, 1>) {
    let l = local_id(0);
    let (n, bins, stride) = (x.len(0), out.len(0), global_size(0));
    let mut counts = local![u32; 1024];
    if bins <= 1024 {
        let mut b = l;
        while b < 1024 {
            counts[[b]] = 0;
            b = b + 256;
        }
        barrier();
        let mut e = global_id(0);
        while e < n {
            let v = x[[e]] as u64;
            if v < bins {
                counts.atomic_add([v], 1);
            }
            e = e + stride;
        }
        barrier();
        let mut b = l;
        while b < bins {
            let c = counts[[b]];
            if c > 0 {
                out.atomic_add([b], c as i64);
            }
            b = b + 256;
        }
    } else {
        let mut e = global_id(0);
        while e < n {
            let v = x[[e]] as u64;
            if v < bins {
                out.atomic_add([v], 1);
            }
            e = e + stride;
        }
    }
}

/// `out[v] += w` for each element `v` of `x` and its weight `w` (`f32`),
/// by atomic additions in an unspecified order.
#[grid(types = [u8, i8, i16, i32, i64], group = [256], unchecked)]
pub fn bincount_f32<T>(x: View<T, 1>, w: View<f32, 1>, out: ViewMut<f32, 1>) {
    let i = global_id(0);
    if i < x.len(0) {
        let v = x[[i]] as u64;
        if v < out.len(0) {
            out.atomic_add([v], w[[i]]);
        }
    }
}

/// `out[v] += w` for each element `v` of `x` and its weight `w` (`f64`),
/// by atomic additions in an unspecified order.
#[grid(types = [u8, i8, i16, i32, i64], group = [256], unchecked)]
pub fn bincount_f64<T>(x: View<T, 1>, w: View<f64, 1>, out: ViewMut<f64, 1>) {
    let i = global_id(0);
    if i < x.len(0) {
        let v = x[[i]] as u64;
        if v < out.len(0) {
            out.atomic_add([v], w[[i]]);
        }
    }
}

/// The bin of `v` (`lo <= v <= hi`) among `bins` (`scale`, as `T`):
/// `(v - lo) * scale / (hi - lo)`, computed in `T` and truncated, as
/// PyTorch's, where `(hi - lo) * scale` is finite; else, so that nothing
/// overflows, `(v - lo) / (hi - lo) * scale`, or with every term halved
/// where `hi - lo` itself overflows. The last bin at most (the top edge's).
#[helper(types = [f16, f32, f64])]
fn histc_bin<T>(v: T, lo: T, hi: T, scale: T, bins: u64) -> u64 {
    let span = hi - lo;
    let whole = span * scale;
    let pos = if whole - whole == 0.0 {
        (v - lo) * scale / span
    } else if span - span == 0.0 {
        (v - lo) / span * scale
    } else {
        (v * 0.5 - lo * 0.5) / (hi * 0.5 - lo * 0.5) * scale
    };
    if pos >= scale {
        bins - 1
    } else if pos > 0.0 {
        pos as u64
    } else {
        0
    }
}

/// The histogram of `x` over `[lo, hi]` in `out.len(0)` equal bins: an
/// element `v` with `lo <= v <= hi` counts in bin `histc_bin(v, ...)`, the
/// top edge in the last bin; elements outside and NaN count nowhere.
#[grid(types = [f16, f32, f64], group = [256], unchecked)]
pub fn histc_count<T>(x: View<T, 1>, #[scalar] lo: T, #[scalar] hi: T, out: ViewMut<i64, 1>) {
    let l = local_id(0);
    let (n, bins, stride) = (x.len(0), out.len(0), global_size(0));
    let scale = bins as T;
    let mut counts = local![u32; 1024];
    if bins <= 1024 {
        let mut b = l;
        while b < 1024 {
            counts[[b]] = 0;
            b = b + 256;
        }
        barrier();
        let mut e = global_id(0);
        while e < n {
            let v = x[[e]];
            if v >= lo && v <= hi {
                let at = histc_bin(v, lo, hi, scale, bins);
                counts.atomic_add([at], 1);
            }
            e = e + stride;
        }
        barrier();
        let mut b = l;
        while b < bins {
            let c = counts[[b]];
            if c > 0 {
                out.atomic_add([b], c as i64);
            }
            b = b + 256;
        }
    } else {
        let mut e = global_id(0);
        while e < n {
            let v = x[[e]];
            if v >= lo && v <= hi {
                let at = histc_bin(v, lo, hi, scale, bins);
                out.atomic_add([at], 1);
            }
            e = e + stride;
        }
    }
}
