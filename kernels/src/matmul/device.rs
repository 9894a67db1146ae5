//! The grid kernels of `matmul`: one program per element type, each output
//! the sum over `k` in order, `acc = a[i, k] * b[k, j] + acc` from `acc = 0`
//! (`mul_add`, one rounding per step, for floats; wrapping for integers).
//!
//! A work-group of 2 x 8 work-items computes a 64 x 64 block of the output
//! of one batch: each work-item 8 rows of 32 neighbouring columns, held in a
//! `private!` array, with 16 columns of `a` and 16 rows of `b` at a time in
//! work-group memory. The tiles past the matrices' edges are read as 0 and
//! the last tile of `k` stops at `k`'s end, so that every output is the same
//! sequence of steps as the host's.

use silt::grid;

/// The output rows and columns of one work-item (a work-group of 2 x 8
/// work-items: a block of 64 x 64).
pub(crate) const ITEM: [usize; 2] = [8, 32];

/// The work-items of a work-group along the grid's second dimension (the
/// kernels' `group = [2, 8, 1]`): its blocks of `ITEM[0]` rows.
pub(crate) const GROUP_ROWS: usize = 8;

/// One grid kernel of the matmul family: `$acc` is the type sums are kept
/// in, `$step(a, b, acc)` one step of a sum, `$out(acc)` the stored value.
macro_rules! matmul_kernel {
    (
        $(#[$doc:meta])*
        $name:ident<$t:ident> types = [$($ty:ty),*], acc = $acc:ty,
        load = |$lv:ident| $load:expr,
        step = |$sa:ident, $sb:ident, $sacc:ident| $step:expr,
        store = |$ov:ident| $store:expr
    ) => {
        $(#[$doc])*
        #[grid(types = [$($ty),*], group = [2, 8, 1], unchecked)]
        pub fn $name<$t>(a: View<$t, 3>, b: View<$t, 3>, c: ViewMut<$t, 3>) {
            let (lj, li) = (local_id(0), local_id(1));
            let (j0, i0, z) = (group_id(0) * 64, group_id(1) * 64, global_id(2));
            let (m, n, depth) = (c.len(1), c.len(2), a.len(2));
            let lin = li * 2 + lj;
            // `a`'s block stored by k then row, `b`'s by k then column
            let mut ta = local![$acc; 16, 64];
            let mut tb = local![$acc; 16, 64];
            let mut acc = private![$acc; 8, 32];
            let mut av = private![$acc; 8];
            let mut bv = private![$acc; 32];
            let mut t: u64 = 0;
            while t < depth {
                // 1,024 elements of each block, 64 per work-item; past the
                // edges, 0
                for e in 0..64 {
                    let (r, q) = (e, lin);
                    let $lv = if z < c.len(0) && i0 + r < m && t + q < depth {
                        a[[z, i0 + r, t + q]]
                    } else {
                        0 as $t
                    };
                    ta[[q, r]] = $load;
                    let (q2, s) = (e / 4, (e % 4) * 16 + lin);
                    let $lv = if z < c.len(0) && t + q2 < depth && j0 + s < n {
                        b[[z, t + q2, j0 + s]]
                    } else {
                        0 as $t
                    };
                    tb[[q2, s]] = $load;
                }
                barrier();
                // the steps of this block of k, in order: 16 but at the end
                let steps = if depth - t < 16 { depth - t } else { 16 };
                for q in 0..steps {
                    for r in 0..8 {
                        av[[r]] = ta[[q, li * 8 + r]];
                    }
                    for s in 0..32 {
                        bv[[s]] = tb[[q, lj * 32 + s]];
                    }
                    for r in 0..8 {
                        for s in 0..32 {
                            let ($sa, $sb, $sacc) = (av[[r]], bv[[s]], acc[[r, s]]);
                            acc[[r, s]] = $step;
                        }
                    }
                }
                barrier();
                t = t + 16;
            }
            if z < c.len(0) {
                for r in 0..8 {
                    for s in 0..32 {
                        let (i, j) = (i0 + li * 8 + r, j0 + lj * 32 + s);
                        if i < m && j < n {
                            let $ov = acc[[r, s]];
                            c[[z, i, j]] = $store;
                        }
                    }
                }
            }
        }
    };
}

matmul_kernel! {
    /// `c[z] = a[z] b[z]` for `f32` and `f64`, each step a `mul_add`.
    matmul_float<T> types = [f32, f64], acc = T,
    load = |v| v,
    step = |x, y, sum| x.mul_add(y, sum),
    store = |v| v
}

matmul_kernel! {
    /// `c[z] = a[z] b[z]` for `f16`: sums kept in `f32` (`mul_add`), rounded
    /// to `f16` once.
    matmul_half<T> types = [f16], acc = f32,
    load = |v| v as f32,
    step = |x, y, sum| x.mul_add(y, sum),
    store = |v| v as T
}

matmul_kernel! {
    /// `c[z] = a[z] b[z]` for integers, wrapping.
    matmul_int<T> types = [i8, i16, i32, i64, u8, u16, u32, u64], acc = T,
    load = |v| v,
    step = |x, y, sum| x * y + sum,
    store = |v| v
}
