//! The argument orders, checked.

use super::*;

#[test]
fn index_parameters_take_no_argument_but_keep_their_number() {
    let args: Vec<MapArg> = map_args([Pass::Index, Pass::Tensor, Pass::Scalar], 2, true).collect();
    assert_eq!(
        args,
        [
            MapArg::Strides { param: 1, view: 0 },
            MapArg::Shape,
            MapArg::Buffer { param: 1 },
            MapArg::Offset { param: 1 },
            MapArg::Scalar { param: 2 },
            MapArg::Output { output: 0 },
            MapArg::Output { output: 1 },
            MapArg::Ndim,
            MapArg::Len,
        ]
    );
}

#[test]
fn strided_vectors_come_first_so_nothing_is_padded() {
    let params = [Pass::Tensor, Pass::Scalar, Pass::Tensor, Pass::Tensor];
    let sizes = |strided| {
        map_args(params, 1, strided)
            .map(|a| a.bytes(|_| 4))
            .collect::<Vec<_>>()
    };
    let strided: Vec<MapArg> = map_args(params, 1, true).collect();
    assert_eq!(
        strided[..4],
        [
            MapArg::Strides { param: 0, view: 0 },
            MapArg::Strides { param: 2, view: 1 },
            MapArg::Strides { param: 3, view: 2 },
            MapArg::Shape,
        ]
    );
    // 4 vectors, 3 buffers and offsets, a float (padded to 8), an output,
    // the dimension count (padded to 8) and the count
    assert_eq!(args_bytes(sizes(true)), 4 * 128 + 3 * 16 + 8 + 8 + 8 + 8);
    assert_eq!(args_bytes(sizes(false)), 3 * 16 + 8 + 8 + 8);
    // each tensor's strides after its offset would pad 112 bytes each
    assert_eq!(args_bytes([8, 8, 128, 8, 8, 128]), 512);
}

#[test]
fn reduction_arguments_follow_map_parameters() {
    let args: Vec<ReduceArg> =
        reduce_args([Pass::Tensor, Pass::Scalar, Pass::Index], 2, 1, true).collect();
    assert_eq!(
        args,
        [
            ReduceArg::Buffer { param: 0 },
            ReduceArg::Offset { param: 0 },
            ReduceArg::Strides { param: 0, view: 0 },
            ReduceArg::Scalar { param: 1 },
            ReduceArg::Acc { component: 0 },
            ReduceArg::Acc { component: 1 },
            ReduceArg::Out { output: 0 },
            ReduceArg::Shape,
            ReduceArg::Ndim,
            ReduceArg::Kept,
            ReduceArg::Rows,
            ReduceArg::Len,
            ReduceArg::Tiles,
            ReduceArg::Mapping,
        ]
    );
    let contiguous = reduce_args([Pass::Tensor], 1, 2, false).count();
    assert_eq!(contiguous, 2 + 1 + 2 + 4);
    assert_eq!(tree_args(2, 1).count(), 2 + 2 + 1 + 7);
}

#[test]
fn scan_arguments() {
    let args: Vec<ScanArg> = scan_args([Pass::Tensor, Pass::Scalar], 1, 2).collect();
    assert_eq!(
        args,
        [
            ScanArg::Buffer { param: 0 },
            ScanArg::Offset { param: 0 },
            ScanArg::Strides { param: 0, view: 0 },
            ScanArg::Scalar { param: 1 },
            ScanArg::Acc { component: 0 },
            ScanArg::Out { output: 0 },
            ScanArg::Out { output: 1 },
            ScanArg::OutStrides,
            ScanArg::Shape,
            ScanArg::Ndim,
            ScanArg::Rows,
            ScanArg::Len,
            ScanArg::Chunks,
            ScanArg::Phase,
            ScanArg::Mapping,
        ]
    );
}

#[test]
fn the_iterator_ends_and_stays_ended() {
    let mut it = map_args([], 0, false);
    assert_eq!(it.next(), Some(MapArg::Len));
    assert_eq!(it.next(), None);
    assert_eq!(it.next(), None);
}

#[test]
fn a_flat_view_leaves_out_the_innermost_term_and_only_it() {
    let views = ["a0".to_owned(), "a1".to_owned()];
    let plain = strided_indices_3d(&views);
    let flat = strided_indices_3d_flat(&views, &[false, true]);
    assert!(plain.contains("silt_off_a1 + silt_x * silt_st_a1.s0 + silt_y * silt_st_a1.s1;"));
    assert!(flat.contains("ulong silt_i_a1 = silt_off_a1 + silt_y * silt_st_a1.s1;"));
    // the other view, and the outer dimensions, as before
    assert!(flat.contains("silt_off_a0 + silt_x * silt_st_a0.s0 + silt_y * silt_st_a0.s1;"));
    assert!(flat.contains("silt_i_a1 += silt_z * silt_st_a1.s2;"));
    assert_eq!(strided_indices_3d_flat(&views, &[]), plain);
    assert_eq!(flat.lines().count(), plain.lines().count());
}
