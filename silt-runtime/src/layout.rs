//! Shape, strides and offset of a view over a storage, and their arithmetic.
//!
//! Strides and the offset count elements, not bytes. Strides are never negative; a
//! stride of 0 repeats an element (a broadcast). A layout is only ever built by the
//! functions here, which keep one invariant: every element it addresses lies inside
//! its storage, so offset computations cannot overflow.

use crate::error::{Error, Result};

pub use silt_abi::MAX_DIMS;

/// Up to [`MAX_DIMS`] sizes or strides, stored inline: views, clones and launches
/// never allocate for them. Reads as a `[usize]` slice.
#[derive(Clone, Copy)]
pub(crate) struct Dims {
    len: u8,
    d: [usize; MAX_DIMS],
}

impl Dims {
    /// `n` zeros.
    ///
    /// # Errors
    /// [`Error::TooManyDims`] above [`MAX_DIMS`].
    pub(crate) fn zeros(n: usize) -> Result<Dims> {
        check_dims(n)?;
        Ok(Dims {
            // at most MAX_DIMS (16), checked above
            len: u8::try_from(n).unwrap_or(u8::MAX),
            d: [0; MAX_DIMS],
        })
    }

    /// A copy of `s`.
    ///
    /// # Errors
    /// [`Error::TooManyDims`] above [`MAX_DIMS`].
    pub(crate) fn new(s: &[usize]) -> Result<Dims> {
        let mut out = Dims::zeros(s.len())?;
        out.copy_from_slice(s);
        Ok(out)
    }
}

impl std::ops::Deref for Dims {
    type Target = [usize];

    #[inline]
    fn deref(&self) -> &[usize] {
        &self.d[..usize::from(self.len)]
    }
}

impl std::ops::DerefMut for Dims {
    #[inline]
    fn deref_mut(&mut self) -> &mut [usize] {
        &mut self.d[..usize::from(self.len)]
    }
}

impl<'a> IntoIterator for &'a Dims {
    type Item = &'a usize;
    type IntoIter = std::slice::Iter<'a, usize>;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl PartialEq for Dims {
    fn eq(&self, other: &Dims) -> bool {
        **self == **other
    }
}

impl Eq for Dims {}

impl<const N: usize> PartialEq<[usize; N]> for Dims {
    fn eq(&self, other: &[usize; N]) -> bool {
        **self == *other
    }
}

impl std::fmt::Debug for Dims {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Layout {
    pub(crate) shape: Dims,
    pub(crate) strides: Dims,
    pub(crate) offset: usize,
}

/// An error for more than [`MAX_DIMS`] dimensions.
pub(crate) fn check_dims(ndim: usize) -> Result<()> {
    if ndim > MAX_DIMS {
        Err(Error::TooManyDims {
            ndim,
            max: MAX_DIMS,
        })
    } else {
        Ok(())
    }
}

/// The shape NumPy's rules broadcast `a` and `b` to, if they are compatible.
pub(crate) fn broadcast_shapes(a: &[usize], b: &[usize]) -> Option<Dims> {
    let n = a.len().max(b.len());
    let mut out = Dims::zeros(n).ok()?;
    for (i, o) in out.iter_mut().enumerate() {
        let da = if i + a.len() >= n {
            a[i + a.len() - n]
        } else {
            1
        };
        let db = if i + b.len() >= n {
            b[i + b.len() - n]
        } else {
            1
        };
        *o = match (da, db) {
            (x, y) if x == y => x,
            (1, y) => y,
            (x, 1) => x,
            _ => return None,
        };
    }
    Some(out)
}

/// Drops dimensions of size 1 and merges neighbours that are contiguous with each
/// other in every view, so that views that are contiguous together become one
/// dimension. Row-major order is kept, so element `i` of the result is element `i`
/// of the original shape. At least one dimension is returned.
pub(crate) fn coalesce(shape: &[usize], strides: &[&[usize]]) -> (Vec<usize>, Vec<Vec<usize>>) {
    let mut dims: Vec<usize> = Vec::new();
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); strides.len()];
    for (k, &d) in shape.iter().enumerate() {
        if d == 1 {
            continue;
        }
        let mergeable = !dims.is_empty()
            && strides
                .iter()
                .zip(&out)
                .all(|(s, o)| o.last().is_some_and(|&prev| prev == s[k] * d));
        if mergeable {
            if let Some(last) = dims.last_mut() {
                *last *= d;
            }
            for (o, s) in out.iter_mut().zip(strides) {
                if let Some(last) = o.last_mut() {
                    *last = s[k];
                }
            }
        } else {
            dims.push(d);
            for (o, s) in out.iter_mut().zip(strides) {
                o.push(s[k]);
            }
        }
    }
    if dims.is_empty() {
        dims.push(1);
        for o in &mut out {
            o.push(1);
        }
    }
    (dims, out)
}

/// The element count of `shape`, or `None` when it overflows.
pub(crate) fn numel(shape: &[usize]) -> Option<usize> {
    if shape.contains(&0) {
        // no element, in whatever order the other sizes come
        return Some(0);
    }
    shape.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d))
}

/// The byte count of `shape` with `elem_size`-byte elements, checked.
pub(crate) fn byte_len(shape: &[usize], elem_size: usize) -> Result<usize> {
    numel(shape)
        .and_then(|n| n.checked_mul(elem_size))
        .filter(|&b| b <= isize::MAX.unsigned_abs())
        .ok_or_else(|| Error::SizeOverflow {
            shape: shape.to_vec(),
            elem_size,
        })
}

impl Layout {
    /// A row-major layout of `shape` at offset 0. The caller has checked the size
    /// with [`byte_len`].
    pub(crate) fn contiguous(shape: &[usize]) -> Result<Layout> {
        Ok(Layout::contiguous_dims(&Dims::new(shape)?))
    }

    /// Row-major strides over `shape`, offset 0 (infallible: `shape` already
    /// holds at most [`MAX_DIMS`] dimensions).
    #[inline]
    pub(crate) fn contiguous_dims(shape: &Dims) -> Layout {
        // built where it is returned, from zeros (a few vector stores) and
        // one loop over the dimensions used, which copies the shape and writes
        // the strides: no copy of two whole 136-byte `Dims`
        let empty = Dims {
            len: shape.len,
            d: [0; MAX_DIMS],
        };
        let mut layout = Layout {
            shape: empty,
            strides: empty,
            offset: 0,
        };
        let mut acc = 1usize;
        for i in (0..usize::from(shape.len)).rev() {
            let d = shape.d[i];
            layout.shape.d[i] = d;
            layout.strides.d[i] = acc;
            acc = acc.saturating_mul(d);
        }
        layout
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        // Checked when the storage was made and in `broadcast_to`, the only view
        // that grows the count; a shape with a 0 anywhere holds nothing, whatever
        // the product of the other dimensions.
        if self.shape.contains(&0) {
            0
        } else {
            self.shape.iter().product()
        }
    }

    /// Row-major with no gaps (dimensions of size 1 may have any stride).
    #[inline]
    pub(crate) fn is_contiguous(&self) -> bool {
        // one pass: an empty view is contiguous whatever its strides
        let mut expected = 1usize;
        let mut contiguous = true;
        for (&d, &s) in self.shape.iter().zip(&self.strides).rev() {
            if d == 0 {
                return true;
            }
            contiguous &= d == 1 || s == expected;
            expected = expected.wrapping_mul(d);
        }
        contiguous
    }

    /// The storage elements the view touches: `start..end` (empty for an empty view).
    pub(crate) fn span(&self) -> std::ops::Range<usize> {
        if self.len() == 0 {
            return self.offset..self.offset;
        }
        let last: usize = self
            .shape
            .iter()
            .zip(&self.strides)
            .map(|(&d, &s)| (d - 1) * s)
            .sum();
        self.offset..self.offset + last + 1
    }

    fn check_axis(&self, axis: usize) -> Result<()> {
        if axis < self.shape.len() {
            Ok(())
        } else {
            Err(Error::InvalidAxis {
                axis,
                ndim: self.shape.len(),
            })
        }
    }

    pub(crate) fn narrow(&self, axis: usize, start: usize, len: usize) -> Result<Layout> {
        self.check_axis(axis)?;
        let size = self.shape[axis];
        if start.checked_add(len).is_none_or(|end| end > size) {
            return Err(Error::OutOfRange {
                axis,
                start,
                len,
                size,
            });
        }
        let mut out = self.clone();
        out.shape[axis] = len;
        if out.len() > 0 {
            // the first element of a non-empty view lies inside the storage
            out.offset += start * self.strides[axis];
        }
        Ok(out)
    }

    pub(crate) fn permute(&self, perm: &[usize]) -> Result<Layout> {
        let ndim = self.shape.len();
        let mut seen = vec![false; ndim];
        let valid = perm.len() == ndim
            && perm
                .iter()
                .all(|&p| p < ndim && !std::mem::replace(&mut seen[p], true));
        if !valid {
            return Err(Error::InvalidPermutation {
                perm: perm.to_vec(),
                ndim,
            });
        }
        let (mut shape, mut strides) = (self.shape, self.strides);
        for (k, &p) in perm.iter().enumerate() {
            shape[k] = self.shape[p];
            strides[k] = self.strides[p];
        }
        Ok(Layout {
            shape,
            strides,
            offset: self.offset,
        })
    }

    pub(crate) fn transpose(&self, a: usize, b: usize) -> Result<Layout> {
        self.check_axis(a)?;
        self.check_axis(b)?;
        let mut out = self.clone();
        out.shape.swap(a, b);
        out.strides.swap(a, b);
        Ok(out)
    }

    /// NumPy broadcasting of this view to `shape` (no copy: repeated dims get stride 0).
    pub(crate) fn broadcast_to(&self, shape: &[usize]) -> Result<Layout> {
        let err = || Error::Broadcast {
            from: self.shape.to_vec(),
            to: shape.to_vec(),
        };
        if shape.len() < self.shape.len() || numel(shape).is_none() {
            return Err(err());
        }
        let lead = shape.len() - self.shape.len();
        let mut strides = Dims::zeros(shape.len())?;
        for (i, &target) in shape.iter().enumerate().skip(lead) {
            let (d, s) = (self.shape[i - lead], self.strides[i - lead]);
            strides[i] = if d == target {
                s
            } else if d == 1 {
                0
            } else {
                return Err(err());
            };
        }
        Ok(Layout {
            shape: Dims::new(shape)?,
            strides,
            offset: self.offset,
        })
    }

    pub(crate) fn reshape(&self, shape: &[usize]) -> Result<Layout> {
        if numel(shape) != Some(self.len()) {
            return Err(Error::ShapeMismatch {
                op: "reshape",
                left: self.shape.to_vec(),
                right: shape.to_vec(),
            });
        }
        if !self.is_contiguous() {
            return Err(Error::NotContiguous {
                op: "reshape",
                shape: self.shape.to_vec(),
                strides: self.strides.to_vec(),
            });
        }
        let mut out = Layout::contiguous(shape)?;
        out.offset = self.offset;
        Ok(out)
    }

    /// Whether two layouts address the same elements in the same order (strides of
    /// dimensions of size 1 do not matter).
    pub(crate) fn same_elements(&self, other: &Layout) -> bool {
        if self.shape != other.shape {
            return false;
        }
        if self.len() == 0 {
            return true;
        }
        self.offset == other.offset
            && self
                .shape
                .iter()
                .zip(self.strides.iter().zip(&other.strides))
                .all(|(&d, (a, b))| d == 1 || a == b)
    }

    /// Whether two different logical indices address one storage element.
    pub(crate) fn has_self_overlap(&self) -> bool {
        if self.len() <= 1 {
            return false;
        }
        let mut all = [(0usize, 0usize); MAX_DIMS];
        let mut n = 0;
        for (&d, &s) in self.shape.iter().zip(&self.strides) {
            if d > 1 {
                all[n] = (s, d);
                n += 1;
            }
        }
        let dims = &mut all[..n];
        dims.sort_unstable();
        // Sorted by stride, each stride must step past everything the smaller ones
        // reach; otherwise two indices meet.
        let mut reach = 0usize; // max offset reachable by the smaller dims
        for &mut (s, d) in dims {
            if s == 0 {
                return true;
            }
            if s <= reach {
                // the test above is sufficient, not necessary: strides that
                // interleave (`as_strided` of [3, 2] by [2, 3]) may still
                // address each element once; told exactly for a view of up
                // to `EXACT_OVERLAP` elements, taken to overlap past that
                return self.len() > EXACT_OVERLAP || self.offsets_repeat();
            }
            reach += (d - 1) * s;
        }
        false
    }

    /// Whether two elements share an offset, by sorting every offset.
    fn offsets_repeat(&self) -> bool {
        let mut all: Vec<usize> = self.offsets().collect();
        all.sort_unstable();
        all.windows(2).any(|w| w[0] == w[1])
    }

    /// The storage offset of every element, in logical (row-major) order.
    pub(crate) fn offsets(&self) -> Offsets<'_> {
        Offsets {
            layout: self,
            index: [0; MAX_DIMS],
            next: self.offset,
            left: self.len(),
        }
    }
}

/// The most elements of a view whose overlap with itself is told exactly
/// where the strides interleave (8 MiB of offsets to sort).
const EXACT_OVERLAP: usize = 1 << 20;

/// An odometer over a layout's elements.
pub(crate) struct Offsets<'a> {
    layout: &'a Layout,
    index: [usize; MAX_DIMS],
    next: usize,
    left: usize,
}

impl Iterator for Offsets<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let current = self.next;
        for axis in (0..self.layout.shape.len()).rev() {
            self.index[axis] += 1;
            self.next += self.layout.strides[axis];
            if self.index[axis] < self.layout.shape[axis] {
                break;
            }
            self.next -= self.index[axis] * self.layout.strides[axis];
            self.index[axis] = 0;
        }
        Some(current)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lay(shape: &[usize]) -> Layout {
        Layout::contiguous(shape).unwrap()
    }

    #[test]
    fn contiguous_strides_are_row_major() {
        let l = lay(&[2, 3, 4]);
        assert_eq!(l.strides, [12, 4, 1]);
        assert!(l.is_contiguous());
        assert_eq!(l.span(), 0..24);
        assert_eq!(l.offsets().collect::<Vec<_>>(), (0..24).collect::<Vec<_>>());
    }

    #[test]
    fn transpose_walks_columns() {
        let t = lay(&[2, 3]).transpose(0, 1).unwrap();
        assert_eq!(t.shape, [3, 2]);
        assert!(!t.is_contiguous());
        assert_eq!(t.offsets().collect::<Vec<_>>(), [0, 3, 1, 4, 2, 5]);
    }

    #[test]
    fn narrow_offsets_and_span() {
        let n = lay(&[4, 5]).narrow(1, 1, 3).unwrap();
        assert_eq!(n.offset, 1);
        assert_eq!(
            n.offsets().collect::<Vec<_>>(),
            [1, 2, 3, 6, 7, 8, 11, 12, 13, 16, 17, 18]
        );
        assert!(lay(&[4, 5]).narrow(0, 1, 2).unwrap().is_contiguous());
        assert!(matches!(
            lay(&[4]).narrow(0, 3, 2),
            Err(Error::OutOfRange { .. })
        ));
        assert!(matches!(
            lay(&[4]).narrow(0, usize::MAX, 2),
            Err(Error::OutOfRange { .. })
        ));
        assert!(matches!(
            lay(&[4]).narrow(1, 0, 1),
            Err(Error::InvalidAxis { axis: 1, ndim: 1 })
        ));
    }

    #[test]
    fn broadcast_follows_numpy() {
        let b = lay(&[3, 1]).broadcast_to(&[2, 3, 4]).unwrap();
        assert_eq!(b.strides, [0, 1, 0]);
        assert_eq!(b.offsets().take(6).collect::<Vec<_>>(), [0, 0, 0, 0, 1, 1]);
        assert!(b.has_self_overlap());
        assert!(lay(&[3]).broadcast_to(&[4]).is_err());
        assert!(lay(&[2, 3]).broadcast_to(&[3]).is_err());
        assert!(lay(&[1]).broadcast_to(&[usize::MAX, 2]).is_err());
    }

    #[test]
    fn permutations_are_checked() {
        let l = lay(&[2, 3, 4]);
        assert_eq!(l.permute(&[2, 0, 1]).unwrap().shape, [4, 2, 3]);
        for bad in [&[0, 0, 1][..], &[0, 1], &[0, 1, 3]] {
            assert!(matches!(
                l.permute(bad),
                Err(Error::InvalidPermutation { .. })
            ));
        }
    }

    #[test]
    fn reshape_needs_contiguity_and_equal_count() {
        let l = lay(&[2, 6]);
        assert_eq!(l.reshape(&[3, 4]).unwrap().strides, [4, 1]);
        assert!(matches!(l.reshape(&[5]), Err(Error::ShapeMismatch { .. })));
        let t = l.transpose(0, 1).unwrap();
        assert!(matches!(t.reshape(&[12]), Err(Error::NotContiguous { .. })));
    }

    #[test]
    fn self_overlap_detection() {
        assert!(!lay(&[3, 4]).has_self_overlap());
        assert!(!lay(&[3, 4]).transpose(0, 1).unwrap().has_self_overlap());
        let odd = Layout {
            shape: Dims::new(&[3, 3]).unwrap(),
            strides: Dims::new(&[2, 1]).unwrap(),
            offset: 0,
        };
        assert!(odd.has_self_overlap());
        // strides that interleave without meeting: offsets 0, 3, 2, 5, 4, 7
        let strided = |shape: &[usize], strides: &[usize]| Layout {
            shape: Dims::new(shape).unwrap(),
            strides: Dims::new(strides).unwrap(),
            offset: 0,
        };
        assert!(!strided(&[3, 2], &[2, 3]).has_self_overlap());
        assert!(!strided(&[5, 2], &[2, 3]).has_self_overlap());
        // ... and that do meet: 0, 1, 2, 3 then 3, 4, 5, 6
        assert!(strided(&[4, 2], &[1, 3]).has_self_overlap());
        assert!(!strided(&[2, 3, 2], &[1, 4, 6]).has_self_overlap()); // 0..12 once each
        assert!(!lay(&[0, 5])
            .broadcast_to(&[0, 5])
            .unwrap()
            .has_self_overlap());
    }

    #[test]
    fn empty_tensors() {
        let l = lay(&[0, 3]);
        assert_eq!(l.len(), 0);
        assert!(l.is_contiguous());
        assert_eq!(l.offsets().count(), 0);
    }

    #[test]
    fn empty_views_never_move_the_offset() {
        let l = lay(&[0, 1000, 1000]);
        let n = l.narrow(1, 999, 1).unwrap();
        assert_eq!((n.offset, n.len()), (0, 0));
        let big = lay(&[0, usize::MAX, 2]);
        let n = big.narrow(1, usize::MAX - 1, 1).unwrap();
        assert_eq!(n.offset, 0);
        assert_eq!(big.permute(&[1, 2, 0]).unwrap().len(), 0);
        assert!(matches!(
            Layout::contiguous(&[1; MAX_DIMS + 1]),
            Err(Error::TooManyDims {
                ndim: 17,
                max: MAX_DIMS
            })
        ));
    }

    #[test]
    fn broadcasting_shapes() {
        let b = |x: &[usize], y: &[usize]| broadcast_shapes(x, y).map(|d| d.to_vec());
        assert_eq!(b(&[3, 1], &[4]), Some(vec![3, 4]));
        assert_eq!(b(&[], &[2, 2]), Some(vec![2, 2]));
        assert_eq!(b(&[0], &[1]), Some(vec![0]));
        assert_eq!(broadcast_shapes(&[3], &[4]), None);
    }

    #[test]
    fn coalescing_keeps_row_major_order() {
        assert_eq!(
            coalesce(&[2, 3, 4], &[&[12, 4, 1], &[12, 4, 1]]),
            (vec![24], vec![vec![1], vec![1]])
        );
        assert_eq!(coalesce(&[1, 1], &[&[5, 9]]), (vec![1], vec![vec![1]]));
        // a transpose against a contiguous output
        assert_eq!(
            coalesce(&[3, 2], &[&[1, 3], &[2, 1]]),
            (vec![3, 2], vec![vec![1, 3], vec![2, 1]])
        );
        // a broadcast row: stays two dimensions for it, although the other merges
        assert_eq!(
            coalesce(&[4, 3], &[&[0, 1], &[3, 1]]),
            (vec![4, 3], vec![vec![0, 1], vec![3, 1]])
        );
    }

    #[test]
    fn sizes_are_checked() {
        assert!(byte_len(&[usize::MAX, 2], 1).is_err());
        assert!(byte_len(&[usize::MAX / 4], 8).is_err());
        assert_eq!(byte_len(&[3, 4], 8).unwrap(), 96);
        assert_eq!(byte_len(&[], 4).unwrap(), 4);
    }
}
