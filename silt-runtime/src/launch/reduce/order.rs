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
/// combined by the pairwise tree.
pub(crate) fn tile_result<A: Clone>(
    len: usize,
    tile: usize,
    map: &impl Fn(usize) -> A,
    combine: &impl Fn(A, A) -> A,
) -> A {
    let first = tile * REDUCE_TILE;
    let end = (first + REDUCE_TILE).min(len);
    // the lanes side by side, the tile read in order: 64 independent chains
    // of combines (which the compiler can interleave or vectorise) where one
    // lane at a time would wait on each combine
    let mut leaves: Vec<A> = (first..end.min(first + REDUCE_LANES)).map(map).collect();
    let mut base = first + REDUCE_LANES;
    while base < end {
        let m = REDUCE_LANES.min(end - base);
        for (j, acc) in leaves[..m].iter_mut().enumerate() {
            *acc = combine(acc.clone(), map(base + j));
        }
        base += REDUCE_LANES;
    }
    tree(&mut leaves, combine)
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
    let mut parts: Vec<A> = (0..tiles(len))
        .map(|t| tile_result(len, t, &map, &combine))
        .collect();
    tree(&mut parts, &combine)
}

/// One row of `len` elements scanned in silt's order (`silt_abi::opencl::
/// SCAN_CHUNK`): `out(i, value)` receives each element's running value, the
/// value before it when `exclusive` (`identity()` at the row's start).
pub(crate) fn scan_row<A: Clone>(
    len: usize,
    identity: impl Fn() -> A,
    map: impl Fn(usize) -> A,
    combine: impl Fn(A, A) -> A,
    exclusive: bool,
    mut out: impl FnMut(usize, A),
) {
    use silt_abi::opencl::SCAN_CHUNK;
    let chunks = len.div_ceil(SCAN_CHUNK);
    // the chunks' totals, folded left to right into prefixes
    let mut prefix: Option<A> = None;
    for c in 0..chunks {
        let (first, end) = (c * SCAN_CHUNK, ((c + 1) * SCAN_CHUNK).min(len));
        let mut local: Option<A> = None;
        for k in first..end {
            let m = map(k);
            let with_prefix = |l: &A| match &prefix {
                Some(p) => combine(p.clone(), l.clone()),
                None => l.clone(),
            };
            if exclusive {
                let before = match (&local, &prefix) {
                    (Some(l), _) => with_prefix(l),
                    (None, Some(p)) => p.clone(),
                    (None, None) => identity(),
                };
                out(k, before);
            }
            let l = match local.take() {
                Some(l) => combine(l, m),
                None => m,
            };
            if !exclusive {
                out(k, with_prefix(&l));
            }
            local = Some(l);
        }
        if let Some(total) = local {
            prefix = Some(match prefix.take() {
                Some(p) => combine(p, total),
                None => total,
            });
        }
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
        let long = scan(1026, false);
        // chunk 1: the prefix (chunk 0's total) with the chunk's running value
        assert!(long[1024].starts_with("((((") && long[1024].ends_with("+1023)+1024)"));
        assert!(long[1025].ends_with("+1023)+(1024+1025))"));
        let ex = scan(1026, true);
        assert_eq!(ex[1024], long[1023]);
        assert_eq!(ex[1025], long[1024]);
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
