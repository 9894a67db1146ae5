//! The grid kernels of the row-wise operations: for GPUs one row per
//! work-group of 128 work-items, for CPUs one row per work-item (below, the
//! `_row_items` kernels, the same sums in the same order). A row is `x[[a, b, 0..n]]` of a 3-d view `[A, B, n]`
//! (`group_id(0) = a * B + b`; the row's elements last, so that a
//! contiguous row has a last stride of 1). Work-item `l` takes the elements `l`, `l +
//! 128`, ... in order and keeps the first 32 of them in a `private!` array
//! (a row of up to 4,096 elements is read from memory once); the work-items'
//! partial results are then combined in a fixed tree in work-group memory
//! (`l += l + h` for `h` = 64, 32, .., 1). Every sum is that order, on every
//! device and on the host (which runs these kernels).

use silt::grid;

/// The work-items of a row.
pub(crate) const LANES: usize = 128;

/// `softmax` (`$log` false) or `log_softmax` over rows, sums in `$acc`.
macro_rules! softmax_kernel {
    (
        $(#[$doc:meta])*
        $name:ident<$t:ident> types = [$($ty:ty),*], acc = $acc:ident, log = $log:literal,
        load = |$lv:ident| $load:expr, store = |$ov:ident| $store:expr
    ) => {
        $(#[$doc])*
        #[grid(types = [$($ty),*], group = [128], unchecked)]
        pub fn $name<$t>(x: View<$t, 3>, y: ViewMut<$t, 3>) {
            let (g, l) = (group_id(0), local_id(0));
            let (n, inner) = (x.len(2), x.len(1));
            let (a, b) = (g / inner, g % inner);
            let rows = x.len(0) * inner;
            let mut kept = private![$acc; 32];
            let mut part = local![$acc; 128];
            // this work-item's elements and their maximum (NaN wins); a loop
            // of constant length over the kept ones, a second past them
            let mut m = $acc::NEG_INFINITY;
            for r in 0..32 {
                let i = l + r * 128;
                if g < rows && i < n {
                    let $lv = x[[a, b, i]];
                    let e = $load;
                    kept[[r]] = e;
                    if m == m && (e != e || e > m) {
                        m = e;
                    }
                }
            }
            let mut i = l + 4096;
            while g < rows && i < n {
                let $lv = x[[a, b, i]];
                let e = $load;
                if m == m && (e != e || e > m) {
                    m = e;
                }
                i += 128;
            }
            part[[l]] = m;
            barrier();
            let mut h: u64 = 64;
            while h > 0 {
                if l < h {
                    let (p, q) = (part[[l]], part[[l + h]]);
                    if p == p && (q != q || q > p) {
                        part[[l]] = q;
                    }
                }
                barrier();
                h = h / 2;
            }
            let top = part[[0]];
            barrier();
            // the sum of exp(x - max), in order per work-item, then the tree
            let mut s: $acc = 0.0;
            for r in 0..32 {
                let i = l + r * 128;
                if i < n {
                    let e = kept[[r]];
                    let ex = (e - top).exp();
                    if !$log {
                        kept[[r]] = ex;
                    }
                    s = s + ex;
                }
            }
            i = l + 4096;
            while g < rows && i < n {
                let $lv = x[[a, b, i]];
                let e = $load;
                s = s + (e - top).exp();
                i += 128;
            }
            part[[l]] = s;
            barrier();
            h = 64;
            while h > 0 {
                if l < h {
                    part[[l]] = part[[l]] + part[[l + h]];
                }
                barrier();
                h = h / 2;
            }
            let total = part[[0]];
            let lt = total.ln();
            for r in 0..32 {
                let i = l + r * 128;
                if g < rows && i < n {
                    let $ov = if $log {
                        (kept[[r]] - top) - lt
                    } else {
                        kept[[r]] / total
                    };
                    y[[a, b, i]] = $store;
                }
            }
            i = l + 4096;
            while g < rows && i < n {
                let $lv = x[[a, b, i]];
                let e = $load;
                let $ov = if $log {
                    (e - top) - lt
                } else {
                    (e - top).exp() / total
                };
                y[[a, b, i]] = $store;
                i += 128;
            }
        }
    };
}

softmax_kernel! {
    /// `softmax` of `f32` and `f64` rows.
    softmax_rows<T> types = [f32, f64], acc = T, log = false,
    load = |v| v, store = |v| v
}

softmax_kernel! {
    /// `softmax` of `f16` rows, in `f32`, rounded once.
    softmax_rows_half<T> types = [f16], acc = f32, log = false,
    load = |v| v as f32, store = |v| v as T
}

softmax_kernel! {
    /// `log_softmax` of `f32` and `f64` rows.
    log_softmax_rows<T> types = [f32, f64], acc = T, log = true,
    load = |v| v, store = |v| v
}

softmax_kernel! {
    /// `log_softmax` of `f16` rows, in `f32`, rounded once.
    log_softmax_rows_half<T> types = [f16], acc = f32, log = true,
    load = |v| v as f32, store = |v| v as T
}

/// `layer_norm` (`$rms` false: `(x - mean) / sqrt(var + eps) * w + b`) or
/// `rms_norm` (`x / sqrt(mean(x^2) + eps) * w`) over rows.
macro_rules! norm_kernel {
    (
        $(#[$doc:meta])*
        $name:ident<$t:ident> types = [$($ty:ty),*], acc = $acc:ident, rms = $rms:literal,
        load = |$lv:ident| $load:expr, store = |$ov:ident| $store:expr
    ) => {
        $(#[$doc])*
        #[grid(types = [$($ty),*], group = [128], unchecked)]
        pub fn $name<$t>(
            #[scalar] eps: $acc,
            x: View<$t, 3>,
            w: View<$t, 1>,
            bias: View<$t, 1>,
            y: ViewMut<$t, 3>,
        ) {
            let (g, l) = (group_id(0), local_id(0));
            let (n, inner) = (x.len(2), x.len(1));
            let (a, b) = (g / inner, g % inner);
            let rows = x.len(0) * inner;
            let ok = g < rows && w.len(0) == n && bias.len(0) == n;
            let mut kept = private![$acc; 32];
            let mut part = local![$acc; 128];
            // the mean (layer_norm) or nothing (rms_norm)
            let mut s: $acc = 0.0;
            for r in 0..32 {
                let i = l + r * 128;
                if ok && i < n {
                    let $lv = x[[a, b, i]];
                    let e = $load;
                    kept[[r]] = e;
                    s = s + e;
                }
            }
            let mut i = l + 4096;
            while ok && i < n {
                let $lv = x[[a, b, i]];
                s = s + $load;
                i += 128;
            }
            if $rms {
                s = 0.0;
            }
            part[[l]] = s;
            barrier();
            let mut h: u64 = 64;
            while h > 0 {
                if l < h {
                    part[[l]] = part[[l]] + part[[l + h]];
                }
                barrier();
                h = h / 2;
            }
            let mean = part[[0]] / (n as $acc);
            barrier();
            // the mean of the squares of x - mean (x for rms_norm)
            s = 0.0;
            for r in 0..32 {
                let i = l + r * 128;
                if i < n {
                    let d = kept[[r]] - mean;
                    s = s + d * d;
                }
            }
            i = l + 4096;
            while ok && i < n {
                let $lv = x[[a, b, i]];
                let d = $load - mean;
                s = s + d * d;
                i += 128;
            }
            part[[l]] = s;
            barrier();
            h = 64;
            while h > 0 {
                if l < h {
                    part[[l]] = part[[l]] + part[[l + h]];
                }
                barrier();
                h = h / 2;
            }
            let scale = 1.0 / (part[[0]] / (n as $acc) + eps).sqrt();
            i = l;
            let mut r: u64 = 0;
            while ok && i < n {
                let e = if r < 32 {
                    kept[[r]]
                } else {
                    let $lv = x[[a, b, i]];
                    $load
                };
                let $lv = w[[i]];
                let wi = $load;
                // rms_norm adds no bias (so that -0 stays -0)
                let $ov = if $rms {
                    (e - mean) * scale * wi
                } else {
                    let $lv = bias[[i]];
                    (e - mean) * scale * wi + $load
                };
                y[[a, b, i]] = $store;
                i += 128;
                r += 1;
            }
        }
    };
}

norm_kernel! {
    /// `layer_norm` of `f32` and `f64` rows.
    layer_norm_rows<T> types = [f32, f64], acc = T, rms = false,
    load = |v| v, store = |v| v
}

norm_kernel! {
    /// `layer_norm` of `f16` rows, in `f32`, rounded once.
    layer_norm_rows_half<T> types = [f16], acc = f32, rms = false,
    load = |v| v as f32, store = |v| v as T
}

norm_kernel! {
    /// `rms_norm` of `f32` and `f64` rows (`bias` is 0).
    rms_norm_rows<T> types = [f32, f64], acc = T, rms = true,
    load = |v| v, store = |v| v
}

norm_kernel! {
    /// `rms_norm` of `f16` rows, in `f32`, rounded once (`bias` is 0).
    rms_norm_rows_half<T> types = [f16], acc = f32, rms = true,
    load = |v| v as f32, store = |v| v as T
}

// The same operations with a row per work-item, for CPUs (and the host): a
// work-item walks its row in order, keeping the 128 lanes' partial results
// of the work-group kernels above side by side in a `private!` array
// (element `i` goes to lane `i % 128`, each lane's elements in order), then
// takes the same tree over them. Every value is the work-group kernels' bit
// for bit; what changes is that a CPU reads each row front to back, and
// PoCL vectorizes the loops over the lanes (a work-group kernel's barrier
// regions it does not: docs/performance.md, "Row-wise operations").

/// The work-items of a group of the row-per-work-item kernels.
pub(crate) const ROW_GROUP: usize = 64;

/// `softmax` (`$log` false) or `log_softmax` with a row per work-item, sums
/// in `$acc`; `$keep`: whether `softmax` keeps each `exp` in `y` until it
/// divides it (only where `y` holds `$acc` exactly).
macro_rules! softmax_row_kernel {
    (
        $(#[$doc:meta])*
        $name:ident<$t:ident> types = [$($ty:ty),*], acc = $acc:ident, log = $log:literal,
        keep = $keep:literal, load = |$lv:ident| $load:expr, store = |$ov:ident| $store:expr
    ) => {
        $(#[$doc])*
        #[grid(types = [$($ty),*], group = [64], unchecked)]
        pub fn $name<$t>(x: View<$t, 3>, y: ViewMut<$t, 3>) {
            let g = global_id(0);
            let (n, inner) = (x.len(2), x.len(1));
            let (a, b) = (g / inner, g % inner);
            let mut part = private![$acc; 128];
            // the lanes that hold elements: the others are never set or
            // read, a combination with one being skipped (maxima: the
            // identity) or adding 0 (sums)
            let w = if n < 128 { n } else { 128 };
            if g < x.len(0) * inner {
                // each lane's maximum (NaN wins), in order, then the tree
                let mut l: u64 = 0;
                while l < w {
                    part[[l]] = $acc::NEG_INFINITY;
                    l += 1;
                }
                let mut base: u64 = 0;
                while base < n {
                    let m = if n - base < 128 { n - base } else { 128 };
                    l = 0;
                    while l < m {
                        let $lv = x[[a, b, base + l]];
                        let e = $load;
                        let p = part[[l]];
                        if p == p && (e != e || e > p) {
                            part[[l]] = e;
                        }
                        l += 1;
                    }
                    base += 128;
                }
                let mut h: u64 = 64;
                while h > 0 {
                    l = 0;
                    while l < h && l + h < w {
                        let (p, q) = (part[[l]], part[[l + h]]);
                        if p == p && (q != q || q > p) {
                            part[[l]] = q;
                        }
                        l += 1;
                    }
                    h = h / 2;
                }
                let top = part[[0]];
                // each lane's sum of exp(x - max), in order, then the tree
                l = 0;
                while l < w {
                    part[[l]] = 0.0;
                    l += 1;
                }
                base = 0;
                while base < n {
                    let m = if n - base < 128 { n - base } else { 128 };
                    l = 0;
                    while l < m {
                        let $lv = x[[a, b, base + l]];
                        let ex = ($load - top).exp();
                        if $keep && !$log {
                            let $ov = ex;
                            y[[a, b, base + l]] = $store;
                        }
                        part[[l]] = part[[l]] + ex;
                        l += 1;
                    }
                    base += 128;
                }
                h = 64;
                while h > 0 {
                    l = 0;
                    while l < h && l < w {
                        let q = if l + h < w { part[[l + h]] } else { 0.0 };
                        part[[l]] = part[[l]] + q;
                        l += 1;
                    }
                    h = h / 2;
                }
                let total = part[[0]];
                let lt = total.ln();
                let mut i: u64 = 0;
                while i < n {
                    let $ov = if $log {
                        let $lv = x[[a, b, i]];
                        ($load - top) - lt
                    } else if $keep {
                        let $lv = y[[a, b, i]];
                        $load / total
                    } else {
                        let $lv = x[[a, b, i]];
                        ($load - top).exp() / total
                    };
                    y[[a, b, i]] = $store;
                    i += 1;
                }
            }
        }
    };
}

softmax_row_kernel! {
    /// `softmax` of `f32` and `f64` rows, a row per work-item.
    softmax_row_items<T> types = [f32, f64], acc = T, log = false, keep = true,
    load = |v| v, store = |v| v
}

softmax_row_kernel! {
    /// `softmax` of `f16` rows, in `f32`, rounded once, a row per work-item.
    softmax_row_items_half<T> types = [f16], acc = f32, log = false, keep = false,
    load = |v| v as f32, store = |v| v as T
}

softmax_row_kernel! {
    /// `log_softmax` of `f32` and `f64` rows, a row per work-item.
    log_softmax_row_items<T> types = [f32, f64], acc = T, log = true, keep = false,
    load = |v| v, store = |v| v
}

softmax_row_kernel! {
    /// `log_softmax` of `f16` rows, in `f32`, rounded once, a row per
    /// work-item.
    log_softmax_row_items_half<T> types = [f16], acc = f32, log = true, keep = false,
    load = |v| v as f32, store = |v| v as T
}

/// `layer_norm` (`$rms` false) or `rms_norm` with a row per work-item.
macro_rules! norm_row_kernel {
    (
        $(#[$doc:meta])*
        $name:ident<$t:ident> types = [$($ty:ty),*], acc = $acc:ident, rms = $rms:literal,
        load = |$lv:ident| $load:expr, store = |$ov:ident| $store:expr
    ) => {
        $(#[$doc])*
        #[grid(types = [$($ty),*], group = [64], unchecked)]
        pub fn $name<$t>(
            #[scalar] eps: $acc,
            x: View<$t, 3>,
            w: View<$t, 1>,
            bias: View<$t, 1>,
            y: ViewMut<$t, 3>,
        ) {
            let g = global_id(0);
            let (n, inner) = (x.len(2), x.len(1));
            let (a, b) = (g / inner, g % inner);
            let mut part = private![$acc; 128];
            // the lanes that hold elements: the others stay 0, so a
            // combination with one adds 0
            let lanes = if n < 128 { n } else { 128 };
            if g < x.len(0) * inner && w.len(0) == n && bias.len(0) == n {
                // each lane's sum, in order, then the tree: the mean
                // (layer_norm) or 0 (rms_norm; `part` starts zeroed)
                let mut l: u64 = 0;
                let mut base: u64 = 0;
                while !$rms && base < n {
                    let m = if n - base < 128 { n - base } else { 128 };
                    l = 0;
                    while l < m {
                        let $lv = x[[a, b, base + l]];
                        part[[l]] = part[[l]] + $load;
                        l += 1;
                    }
                    base += 128;
                }
                let mut h: u64 = 64;
                while h > 0 {
                    l = 0;
                    while l < h && l < lanes {
                        let q = if l + h < lanes { part[[l + h]] } else { 0.0 };
                        part[[l]] = part[[l]] + q;
                        l += 1;
                    }
                    h = h / 2;
                }
                let mean = part[[0]] / (n as $acc);
                // the same of the squares of x - mean
                l = 0;
                while l < lanes {
                    part[[l]] = 0.0;
                    l += 1;
                }
                base = 0;
                while base < n {
                    let m = if n - base < 128 { n - base } else { 128 };
                    l = 0;
                    while l < m {
                        let $lv = x[[a, b, base + l]];
                        let d = $load - mean;
                        part[[l]] = part[[l]] + d * d;
                        l += 1;
                    }
                    base += 128;
                }
                h = 64;
                while h > 0 {
                    l = 0;
                    while l < h && l < lanes {
                        let q = if l + h < lanes { part[[l + h]] } else { 0.0 };
                        part[[l]] = part[[l]] + q;
                        l += 1;
                    }
                    h = h / 2;
                }
                let scale = 1.0 / (part[[0]] / (n as $acc) + eps).sqrt();
                let mut i: u64 = 0;
                while i < n {
                    let $lv = x[[a, b, i]];
                    let e = $load;
                    let $lv = w[[i]];
                    let wi = $load;
                    // rms_norm adds no bias (so that -0 stays -0)
                    let $ov = if $rms {
                        (e - mean) * scale * wi
                    } else {
                        let $lv = bias[[i]];
                        (e - mean) * scale * wi + $load
                    };
                    y[[a, b, i]] = $store;
                    i += 1;
                }
            }
        }
    };
}

norm_row_kernel! {
    /// `layer_norm` of `f32` and `f64` rows, a row per work-item.
    layer_norm_row_items<T> types = [f32, f64], acc = T, rms = false,
    load = |v| v, store = |v| v
}

norm_row_kernel! {
    /// `layer_norm` of `f16` rows, in `f32`, rounded once, a row per
    /// work-item.
    layer_norm_row_items_half<T> types = [f16], acc = f32, rms = false,
    load = |v| v as f32, store = |v| v as T
}

norm_row_kernel! {
    /// `rms_norm` of `f32` and `f64` rows (`bias` is 0), a row per work-item.
    rms_norm_row_items<T> types = [f32, f64], acc = T, rms = true,
    load = |v| v, store = |v| v
}

norm_row_kernel! {
    /// `rms_norm` of `f16` rows, in `f32`, rounded once (`bias` is 0), a row
    /// per work-item.
    rms_norm_row_items_half<T> types = [f16], acc = f32, rms = true,
    load = |v| v as f32, store = |v| v as T
}
