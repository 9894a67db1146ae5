//! The argument orders, checked.

use super::*;

#[test]
fn index_parameters_take_no_argument_but_keep_their_number() {
    let args: Vec<MapArg> = map_args([Pass::Index, Pass::Tensor, Pass::Scalar], 2, true).collect();
    assert_eq!(
        args,
        [
            MapArg::Buffer { param: 1 },
            MapArg::Offset { param: 1 },
            MapArg::Strides { param: 1, view: 0 },
            MapArg::Scalar { param: 2 },
            MapArg::Output { output: 0 },
            MapArg::Output { output: 1 },
            MapArg::Shape,
            MapArg::Ndim,
            MapArg::Len,
        ]
    );
}

#[test]
fn reduction_arguments_follow_map_parameters() {
    let args: Vec<ReduceArg> =
        reduce_args([Pass::Tensor, Pass::Scalar, Pass::Index], 2, true).collect();
    assert_eq!(
        args,
        [
            ReduceArg::Buffer { param: 0 },
            ReduceArg::Offset { param: 0 },
            ReduceArg::Strides { param: 0, view: 0 },
            ReduceArg::Scalar { param: 1 },
            ReduceArg::Acc { component: 0 },
            ReduceArg::Acc { component: 1 },
            ReduceArg::Shape,
            ReduceArg::Ndim,
            ReduceArg::Kept,
            ReduceArg::Rows,
            ReduceArg::Len,
            ReduceArg::Tiles,
            ReduceArg::Mapping,
        ]
    );
    let contiguous = reduce_args([Pass::Tensor], 1, false).count();
    assert_eq!(contiguous, 2 + 1 + 4);
    assert_eq!(tree_args(2, 1).count(), 2 + 2 + 1 + 6);
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
