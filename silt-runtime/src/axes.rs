//! [`Axes`]: which axes a reduction reduces.

use crate::error::{Error, Result};
use crate::layout::MAX_DIMS;

/// The axes a reduction reduces, and whether they are kept (as size 1).
///
/// ```
/// use silt_runtime::Axes;
///
/// let all = Axes::all(); // a 0-d result
/// let last = Axes::of([-1]); // negative axes count from the end
/// let kept = Axes::of([0, 2]).keepdim(); // reduced axes stay, of size 1
/// assert_eq!(kept.reduced(3).unwrap(), [true, false, true]);
/// assert_eq!(last.reduced(2).unwrap(), [false, true]);
/// assert!(Axes::of([0, 0]).reduced(2).is_err()); // repeated
/// assert!(Axes::of([3]).reduced(3).is_err()); // out of range
/// assert!(all.reduced(4).unwrap().iter().all(|&r| r));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Axes {
    /// `None`: every axis.
    list: Option<([isize; MAX_DIMS], usize)>,
    /// The first axis given past the `MAX_DIMS` a tensor can have (so one
    /// of them is repeated or out of range, whatever the tensor).
    extra: Option<isize>,
    keepdim: bool,
}

impl Axes {
    /// Every axis: a full reduction, whose result has shape `[]` (or all ones
    /// with [`keepdim`](Self::keepdim)).
    pub fn all() -> Axes {
        Axes {
            list: None,
            extra: None,
            keepdim: false,
        }
    }

    /// These axes; a negative axis counts from the end (`-1` is the last). An
    /// empty list reduces nothing (every output element is one element).
    pub fn of<I: IntoIterator<Item = isize>>(axes: I) -> Axes {
        let mut list = [0isize; MAX_DIMS];
        let mut n = 0;
        let mut extra = None;
        for a in axes {
            if n < MAX_DIMS {
                list[n] = a;
                n += 1;
            } else if extra.is_none() {
                extra = Some(a);
            }
        }
        Axes {
            list: Some((list, n)),
            extra,
            keepdim: false,
        }
    }

    /// The same axes, kept in the result as axes of size 1 (PyTorch's
    /// `keepdim=True`), so that it broadcasts against the input.
    #[must_use]
    pub fn keepdim(self) -> Axes {
        Axes {
            keepdim: true,
            ..self
        }
    }

    /// Whether reduced axes are kept as size 1.
    pub fn keeps_dims(&self) -> bool {
        self.keepdim
    }

    /// For a tensor of `ndim` dimensions, whether each axis is reduced. A 0-d
    /// tensor takes axis `0` or `-1` as its one (empty) axis, as PyTorch does.
    ///
    /// # Errors
    /// [`Error::TooManyDims`] for an `ndim` past the most a tensor can have,
    /// [`Error::AxisOutOfRange`] for an axis out of `-ndim..ndim`,
    /// [`Error::RepeatedAxis`] for an axis given twice.
    pub fn reduced(&self, ndim: usize) -> Result<Vec<bool>> {
        crate::layout::check_dims(ndim)?;
        let mut out = vec![self.list.is_none(); ndim];
        let Some((list, n)) = &self.list else {
            return Ok(out);
        };
        let signed = isize::try_from(ndim).unwrap_or(isize::MAX);
        // a 0-d tensor's one axis (0 or -1) may be named once, as any other
        let mut scalar_axis = false;
        for &a in list[..*n].iter().chain(&self.extra) {
            let span = signed.max(1);
            if a >= span || a < -span {
                return Err(Error::AxisOutOfRange { axis: a, ndim });
            }
            if ndim == 0 {
                if scalar_axis {
                    return Err(Error::RepeatedAxis { axis: a });
                }
                scalar_axis = true;
                continue;
            }
            let i = usize::try_from(if a < 0 { a + signed } else { a }).unwrap_or(0);
            if out[i] {
                return Err(Error::RepeatedAxis { axis: a });
            }
            out[i] = true;
        }
        if let Some(axis) = self.extra {
            // never reached: more than `MAX_DIMS` axes within range repeat one
            return Err(Error::RepeatedAxis { axis });
        }
        Ok(out)
    }
}
