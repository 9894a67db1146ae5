//! What the generated reductions and scans run over: a [`Case`] is a shape, the
//! axes to reduce (or the axis to scan), and for each tensor input the view it
//! is given as (transposed, narrowed, broadcast, or of size 1 along an axis for
//! the launch to broadcast); its values come from [`Inputs`]. The host side
//! computes every input's values in the broadcast shape ([`Case::logical`]) and
//! the rows a reduction combines ([`Case::rows`]) or the lines a scan runs
//! along ([`Case::lines`]), for `eval`.

use silt::{Axes, Device, TensorT};

use crate::{Col, Elem, Inputs};

/// One generated reduction or scan.
#[derive(Debug)]
pub struct Fold {
    /// Its name (`rr3`, `rs5`).
    pub name: &'static str,
    /// Its source, as written in the generated file.
    pub source: &'static str,
    /// A `#[scan]` (else a `#[reduce]`).
    pub scan: bool,
    /// `empty = error`: a row of no elements is an error at launch.
    pub empty_is_error: bool,
    /// The positions of `map`'s tensor parameters among its parameters.
    pub inputs_at: &'static [usize],
    /// One entry per instantiation.
    pub insts: &'static [Inst],
}

/// How a case is launched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `launch` on typed tensors (a scan's inclusive one).
    Launch,
    /// `dispatch` on untyped tensors (a scan's inclusive one).
    Dispatch,
    /// A scan's `launch_exclusive`.
    Exclusive,
}

/// What a launch gives: the shape of the (first) result, and every result's
/// values.
pub type Launched = (Vec<usize>, Vec<Col>);

/// One instantiation of a generated reduction or scan.
#[derive(Debug)]
pub struct Inst {
    /// The instantiation type (`"-"` for a module without a type parameter).
    pub ty: &'static str,
    /// Launches it on a device over a case; returns the shape of the (first)
    /// result and every result's values.
    pub launch: fn(&Device, &Case, Mode) -> silt::Result<Launched>,
    /// `eval` on every row (line) of the case, gathered on the host: every
    /// result's values, in the order of a launch's.
    pub eval: fn(&Case, Mode) -> Vec<Col>,
}

/// How a tensor input is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// A contiguous tensor of the case's shape.
    Plain,
    /// A tensor with these axes swapped, transposed back.
    Transposed(usize, usize),
    /// A tensor `extra` longer along `axis`, narrowed from `start`.
    Narrowed {
        /// The narrowed axis.
        axis: usize,
        /// The first element taken along it.
        start: usize,
        /// Elements left out along it.
        extra: usize,
    },
    /// A tensor of size 1 along the axis, `broadcast_to` the case's shape.
    Broadcast(usize),
    /// A tensor of size 1 along the axis, which the launch broadcasts with the
    /// other inputs.
    Implicit(usize),
}

/// A shape, axes and views to launch a reduction or scan over.
#[derive(Debug, Clone)]
pub struct Case {
    /// Derives every value.
    pub seed: u64,
    /// The shape of the inputs broadcast together (of the result, for a scan).
    pub shape: Vec<usize>,
    /// The axes reduced (`None`: all), as written (negative ones count from the
    /// end), and whether they are kept.
    pub axes: Option<Vec<isize>>,
    /// `keepdim`.
    pub keepdim: bool,
    /// The axis a scan runs along, as written.
    pub axis: isize,
    /// The view of each tensor input, by its position among the parameters.
    pub views: Vec<(usize, View)>,
}

fn strides(shape: &[usize]) -> Vec<usize> {
    (0..shape.len())
        .map(|i| shape[i + 1..].iter().product())
        .collect()
}

impl Case {
    /// The number of elements of the broadcast shape.
    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }

    /// The axes to reduce.
    pub fn axes(&self) -> Axes {
        let a = match &self.axes {
            None => Axes::all(),
            Some(v) => Axes::of(v.iter().copied()),
        };
        if self.keepdim {
            a.keepdim()
        } else {
            a
        }
    }

    /// The axis to scan along.
    pub fn axis(&self) -> isize {
        self.axis
    }

    fn view(&self, k: usize) -> View {
        self.views
            .iter()
            .find(|(at, _)| *at == k)
            .map_or(View::Plain, |(_, v)| *v)
    }

    /// The shape of the tensor a view is made from, and, per axis of the case's
    /// shape, the stride of its elements in that tensor, and the offset of the
    /// first.
    fn layout(&self, v: View) -> (Vec<usize>, Vec<usize>, usize) {
        let mut base = self.shape.clone();
        match v {
            View::Plain => {
                let s = strides(&base);
                (base, s, 0)
            }
            View::Transposed(a, b) => {
                base.swap(a, b);
                let mut s = strides(&base);
                s.swap(a, b);
                (base, s, 0)
            }
            View::Narrowed { axis, start, extra } => {
                base[axis] += extra;
                let s = strides(&base);
                let off = start * s[axis];
                (base, s, off)
            }
            View::Broadcast(axis) | View::Implicit(axis) => {
                base[axis] = 1;
                let mut s = strides(&base);
                s[axis] = 0;
                (base, s, 0)
            }
        }
    }

    fn inputs(&self, len: usize) -> Inputs {
        Inputs {
            seed: self.seed,
            len,
        }
    }

    /// Tensor input `k` on `dev`, in its view.
    ///
    /// # Errors
    /// Whatever making the tensor and its view reports.
    pub fn tensor<T: Elem>(&self, dev: &Device, k: usize) -> silt::Result<TensorT<T>> {
        let v = self.view(k);
        let (base, _, _) = self.layout(v);
        let data: Vec<T> = self.inputs(base.iter().product()).col(k);
        let t = TensorT::from_slice(dev, &data, &*base)?;
        match v {
            View::Plain | View::Implicit(_) => Ok(t),
            View::Transposed(a, b) => t.transpose(a, b),
            View::Narrowed { axis, start, .. } => t.narrow(axis, start, self.shape[axis]),
            View::Broadcast(_) => t.broadcast_to(&*self.shape),
        }
    }

    /// Tensor input `k`'s values at every index of the case's shape, row-major
    /// (what the launch reads, its view and broadcasting applied).
    pub fn logical<T: Elem>(&self, k: usize) -> Vec<T> {
        let v = self.view(k);
        let (base, st, off) = self.layout(v);
        let data: Vec<T> = self.inputs(base.iter().product()).col(k);
        (0..self.numel())
            .map(|mut i| {
                let mut at = off;
                for d in (0..self.shape.len()).rev() {
                    at += (i % self.shape[d]) * st[d];
                    i /= self.shape[d];
                }
                data[at]
            })
            .collect()
    }

    /// Scalar parameter `k`'s value.
    pub fn scalar<T: Elem>(&self, k: usize) -> T {
        self.inputs(1).scalar(k)
    }

    /// Which axes are reduced.
    ///
    /// # Panics
    /// When the axes are not valid for the shape (cases are made valid).
    pub fn reduced(&self) -> Vec<bool> {
        self.axes().reduced(self.shape.len()).expect("valid axes")
    }

    /// The shape of a reduction's result.
    pub fn out_shape(&self) -> Vec<usize> {
        let r = self.reduced();
        self.shape
            .iter()
            .zip(&r)
            .filter_map(|(&d, &red)| match (red, self.keepdim) {
                (false, _) => Some(d),
                (true, true) => Some(1),
                (true, false) => None,
            })
            .collect()
    }

    /// The number of elements of each row, and the number of rows.
    pub fn row_counts(&self) -> (usize, usize) {
        let r = self.reduced();
        let part = |want: bool| {
            self.shape
                .iter()
                .zip(&r)
                .filter(|(_, &x)| x == want)
                .map(|(&d, _)| d)
                .product::<usize>()
        };
        (part(true), part(false))
    }

    /// The rows of a reduction, in the order of its results (row-major over the
    /// kept axes), each as the indices of its elements (row-major over the
    /// reduced axes) in the case's shape.
    pub fn rows(&self) -> Vec<Vec<usize>> {
        let reduced = self.reduced();
        let st = strides(&self.shape);
        let kept: Vec<usize> = (0..self.shape.len()).filter(|&i| !reduced[i]).collect();
        let red: Vec<usize> = (0..self.shape.len()).filter(|&i| reduced[i]).collect();
        let count = |axes: &[usize]| axes.iter().map(|&a| self.shape[a]).product::<usize>();
        let offset = |mut i: usize, axes: &[usize]| {
            let mut off = 0;
            for &a in axes.iter().rev() {
                off += (i % self.shape[a]) * st[a];
                i /= self.shape[a];
            }
            off
        };
        (0..count(&kept))
            .map(|r| {
                let base = offset(r, &kept);
                (0..count(&red)).map(|k| base + offset(k, &red)).collect()
            })
            .collect()
    }

    /// The lines a scan runs along, each as the indices of its elements in
    /// the case's shape (a 0-d shape is one line of one element).
    pub fn lines(&self) -> Vec<Vec<usize>> {
        let nd = self.shape.len();
        if nd == 0 {
            return vec![vec![0]];
        }
        let nd_i = isize::try_from(nd).unwrap_or(isize::MAX);
        let axis = usize::try_from(if self.axis < 0 {
            self.axis + nd_i
        } else {
            self.axis
        })
        .expect("a valid axis");
        let stride: usize = self.shape[axis + 1..].iter().product();
        let len = self.shape[axis];
        (0..self.numel())
            .filter(|i| len > 0 && (i / stride).is_multiple_of(len))
            .map(|start| (0..len).map(|k| start + k * stride).collect())
            .collect()
    }
}
