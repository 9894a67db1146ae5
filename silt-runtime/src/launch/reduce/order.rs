//! silt's order of combination, on the host: the same tiles, lanes and trees
//! as the device's passes (`silt_abi::opencl::ReduceArg` describes them), so
//! that a reduction gives the same bits on every backend.

use silt_abi::opencl::{REDUCE_LANES, REDUCE_TILE};

/// The number of tiles a row of `len` elements is cut into (at least one).
pub(crate) fn tiles(len: usize) -> usize {
    len.div_ceil(REDUCE_TILE).max(1)
}

/// The result of tile `tile` of a row of `len > tile * REDUCE_TILE` elements
/// (a tile is never empty):
/// lane `j` folds elements `j`, `j + LANES`, ... of the tile from its first
/// (`map(k)` is element `k` of the row, mapped), and the lanes' results are
/// combined by the pairwise tree. `leaves` is scratch space, kept by the
/// caller from tile to tile (an allocation a tile cost short rows more than
/// their fold).
pub(crate) fn tile_result<A: Clone>(
    len: usize,
    tile: usize,
    map: &impl Fn(usize) -> A,
    combine: &impl Fn(A, A) -> A,
    leaves: &mut Vec<A>,
) -> A {
    let first = tile * REDUCE_TILE;
    let end = (first + REDUCE_TILE).min(len);
    // the lanes side by side, the tile read in order: 64 independent chains
    // of combines (which the compiler can interleave or vectorise) where one
    // lane at a time would wait on each combine
    leaves.clear();
    leaves.extend((first..end.min(first + REDUCE_LANES)).map(map));
    let mut base = first + REDUCE_LANES;
    while base < end {
        let m = REDUCE_LANES.min(end - base);
        for (j, acc) in leaves[..m].iter_mut().enumerate() {
            *acc = combine(acc.clone(), map(base + j));
        }
        base += REDUCE_LANES;
    }
    tree(leaves, combine)
}

/// The pairwise tree over `leaves` (at least one), level by level: leaf `2k`
/// with leaf `2k + 1`, an odd last one carried up. Overwrites `leaves`.
pub(crate) fn tree<A: Clone>(leaves: &mut [A], combine: &impl Fn(A, A) -> A) -> A {
    let mut n = leaves.len();
    while n > 1 {
        let half = n.div_ceil(2);
        for i in 0..half {
            leaves[i] = if 2 * i + 1 < n {
                combine(leaves[2 * i].clone(), leaves[2 * i + 1].clone())
            } else {
                leaves[2 * i].clone()
            };
        }
        n = half;
    }
    leaves[0].clone()
}

/// One row of `len` elements folded in silt's order: `identity()` when it is
/// empty.
pub(crate) fn fold_row<A: Clone>(
    len: usize,
    identity: impl Fn() -> A,
    map: impl Fn(usize) -> A,
    combine: impl Fn(A, A) -> A,
) -> A {
    if len == 0 {
        return identity();
    }
    let mut leaves = Vec::new();
    let mut parts: Vec<A> = (0..tiles(len))
        .map(|t| tile_result(len, t, &map, &combine, &mut leaves))
        .collect();
    tree(&mut parts, &combine)
}

/// One row of `len` elements scanned in silt's order (`silt_abi::opencl::
/// SCAN_CHUNK` states it): segments of `SCAN_SEGMENT` elements folded in
/// order, their totals folded left to right in each chunk of `SCAN_CHUNK`,
/// the chunks' totals left to right in the row. `out(i, value)` receives each
/// element's running value, the value before it when `exclusive`
/// (`identity()` at the row's start).
pub(crate) fn scan_row<A: Clone>(
    len: usize,
    identity: impl Fn() -> A,
    map: impl Fn(usize) -> A,
    combine: impl Fn(A, A) -> A,
    exclusive: bool,
    mut out: impl FnMut(usize, A),
) {
    use silt_abi::opencl::{SCAN_CHUNK, SCAN_SEGMENT};
    // `a` then `b`, either possibly absent
    let join = |a: Option<&A>, b: Option<&A>| match (a, b) {
        (Some(a), Some(b)) => Some(combine(a.clone(), b.clone())),
        (Some(v), None) | (None, Some(v)) => Some(v.clone()),
        (None, None) => None,
    };
    // P_c: the chunks before this one
    let mut prefix: Option<A> = None;
    for first in (0..len).step_by(SCAN_CHUNK) {
        let end = (first + SCAN_CHUNK).min(len);
        // Q_s: the chunk's segments before this one
        let mut q: Option<A> = None;
        for seg in (first..end).step_by(SCAN_SEGMENT) {
            // the segment's prefix B
            let b = join(prefix.as_ref(), q.as_ref());
            let mut local: Option<A> = None;
            for k in seg..(seg + SCAN_SEGMENT).min(end) {
                let m = map(k);
                if exclusive {
                    let before = match (&local, &b) {
                        (Some(l), _) => join(b.as_ref(), Some(l)),
                        (None, b) => b.clone(),
                    };
                    out(k, before.unwrap_or_else(&identity));
                }
                let l = match local.take() {
                    Some(l) => combine(l, m),
                    None => m,
                };
                if !exclusive {
                    if let Some(v) = join(b.as_ref(), Some(&l)) {
                        out(k, v);
                    }
                }
                local = Some(l);
            }
            q = join(q.as_ref(), local.as_ref());
        }
        prefix = join(prefix.as_ref(), q.as_ref());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The combination as text, to see the order.
    fn shape(len: usize) -> String {
        fold_row(
            len,
            || "e".to_string(),
            |k| k.to_string(),
            |a: String, b: String| format!("({a}+{b})"),
        )
    }

    #[test]
    fn scans_prefix_chunks_left_to_right() {
        let scan = |len: usize, exclusive: bool| {
            let mut out = vec![String::new(); len];
            scan_row(
                len,
                || "e".to_string(),
                |k| k.to_string(),
                |a: String, b: String| format!("({a}+{b})"),
                exclusive,
                |k, v| out[k] = v,
            );
            out
        };
        assert_eq!(scan(3, false), ["0", "(0+1)", "((0+1)+2)"]);
        assert_eq!(scan(3, true), ["e", "0", "(0+1)"]);
        // the fold of elements a..b in order
        let run =
            |a: usize, b: usize| (a + 1..b).fold(a.to_string(), |acc, k| format!("({acc}+{k})"));
        let long = scan(1100, false);
        let ex = scan(1100, true);
        // segment 0 has no prefix; segment 1 of chunk 0 has Q_1 = t_0
        assert_eq!(long[15], run(0, 16));
        assert_eq!(long[17], format!("({}+{})", run(0, 16), run(16, 18)));
        // segment 2: Q_2 = (t_0+t_1)
        let q2 = format!("({}+{})", run(0, 16), run(16, 32));
        assert_eq!(long[32], format!("({q2}+32)"));
        // chunk 1: P_1, chunk 0's 64 segment totals folded left to right
        let p1 = (1..64).fold(run(0, 16), |acc, s| {
            format!("({acc}+{})", run(16 * s, 16 * s + 16))
        });
        assert_eq!(long[1025], format!("({p1}+{})", run(1024, 1026)));
        // segment 1 of chunk 1: (P_1+Q_1)
        let b = format!("({p1}+{})", run(1024, 1040));
        assert_eq!(long[1041], format!("({b}+{})", run(1040, 1042)));
        // exclusive: within a segment the inclusive one shifted, at a
        // segment's start its prefix
        assert_eq!(ex[0], "e");
        assert_eq!(ex[15], long[14]);
        assert_eq!(ex[16], run(0, 16));
        assert_eq!(ex[32], q2);
        assert_eq!(ex[1024], p1);
        assert_eq!(ex[1040], b);
        assert_eq!(ex[1041], long[1040]);
    }

    #[test]
    fn lanes_fold_strided_elements_and_trees_pair_neighbours() {
        assert_eq!(shape(0), "e");
        assert_eq!(shape(1), "0");
        assert_eq!(shape(3), "((0+1)+2)");
        // lane 0 holds 0 and 64; lane 1 holds 1
        // the lanes' 64 leaves make a 6-level tree
        assert!(shape(65).starts_with("(((((((0+64)+1)"), "{}", shape(65));
        assert!(shape(65).ends_with("(62+63))))))"), "{}", shape(65));
    }
}
