//! Views of the library's operands as the few dimensions their grid kernels
//! index: dimensions folded into one where the strides allow.

use silt::Tensor;

/// The size and stride of the dimensions `sh` (strides `st`) folded into one
/// (dimensions of size 1 take no part; an empty one makes the fold empty),
/// or `None` when no single stride reaches them all in order.
pub(crate) fn fold_dims(sh: &[usize], st: &[usize]) -> Option<(usize, usize)> {
    if sh.contains(&0) {
        return Some((0, 0));
    }
    let (mut size, mut stride) = (1usize, 0usize);
    for (&s, &t) in sh.iter().zip(st).rev() {
        match s {
            1 => {}
            _ if size == 1 => (size, stride) = (s, t),
            _ if stride.checked_mul(size) == Some(t) => size *= s,
            _ => return None,
        }
    }
    Some((size, stride))
}

/// The dimensions `range` of `t` folded into one, as [`fold_dims`].
pub(crate) fn fold_range(t: &Tensor, range: std::ops::Range<usize>) -> Option<(usize, usize)> {
    fold_dims(&t.shape()[range.clone()], &t.strides()[range])
}
