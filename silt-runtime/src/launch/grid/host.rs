//! The host backend of grid kernels: the work-groups in parallel (rayon),
//! the work-items of each in order on one thread, each running the
//! kernel's plain-Rust body with its place in the grid ([`GridItem`]) and
//! views of the tensors ([`GridView`], and [`GridViewMut`] over elements
//! held in atomics, [`GridElem`]). Every access is checked: one out of range
//! touches nothing, reads 0, and the launch reports the first.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use rayon::prelude::*;

use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::tensor::TensorT;

use super::atoms::GridElem;
use super::GridPlan;

/// The first access out of range: the view's parameter, the index, the
/// view's shape.
type OutOfRange = (usize, Vec<u64>, Vec<usize>);

/// Where a work-item is in the grid, and the first out-of-range access of
/// the launch so far.
#[derive(Debug)]
pub struct GridItem {
    global: [u64; 3],
    local: [u64; 3],
    group: [u64; 3],
    groups: [u64; 3],
    size: [u64; 3],
    error: Arc<Mutex<Option<OutOfRange>>>,
}

impl GridItem {
    /// `global_id(d)`.
    #[inline]
    pub fn global_id(&self, d: usize) -> u64 {
        self.global.get(d).copied().unwrap_or(0)
    }

    /// `local_id(d)`.
    #[inline]
    pub fn local_id(&self, d: usize) -> u64 {
        self.local.get(d).copied().unwrap_or(0)
    }

    /// `group_id(d)`.
    #[inline]
    pub fn group_id(&self, d: usize) -> u64 {
        self.group.get(d).copied().unwrap_or(0)
    }

    /// `num_groups(d)`.
    #[inline]
    pub fn num_groups(&self, d: usize) -> u64 {
        self.groups.get(d).copied().unwrap_or(1)
    }

    /// `global_size(d)`.
    #[inline]
    pub fn global_size(&self, d: usize) -> u64 {
        self.size.get(d).copied().unwrap_or(1)
    }

    /// `barrier()`: the work-item waits here until every work-item of its
    /// group has come (the host runs a group's work-items in turn, each up to
    /// its next barrier).
    pub fn barrier(&self) -> Barrier {
        Barrier { waited: false }
    }

    /// Records an access of view `param` at `index`, out of `shape` (the
    /// launch keeps the first).
    #[cold]
    fn out_of_range(&self, param: usize, index: &[u64], shape: &[usize]) {
        let mut first = self.error.lock().unwrap_or_else(|e| e.into_inner());
        if first.is_none() {
            *first = Some((param, index.to_vec(), shape.to_vec()));
        }
    }
}

/// Where element `index` of a view of `shape` and `strides` is, or `None`
/// out of range.
#[inline]
fn position(index: &[u64], shape: &[usize], strides: &[usize]) -> Option<usize> {
    let mut at = 0usize;
    for ((&i, &n), &s) in index.iter().zip(shape).zip(strides) {
        let i = usize::try_from(i).ok().filter(|&i| i < n)?;
        at += i * s;
    }
    (index.len() == shape.len()).then_some(at)
}

/// Row-major strides of `shape`, in elements.
fn contiguous_strides(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![1; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * shape[d + 1];
    }
    strides
}

/// A view a grid kernel reads (`View<T, N>`), over its elements in logical
/// order.
#[derive(Debug)]
pub struct GridView<'a, T> {
    data: &'a [T],
    shape: Vec<usize>,
    strides: Vec<usize>,
    param: usize,
}

impl<'a, T: Element> GridView<'a, T> {
    /// The view of parameter `param` over `data`, the elements of a tensor of
    /// `shape` in logical order.
    pub fn new(data: &'a [T], shape: &[usize], param: usize) -> Self {
        GridView {
            data,
            strides: contiguous_strides(shape),
            shape: shape.to_vec(),
            param,
        }
    }

    /// `view[[..]]`: the element at `index`, or 0 (recorded) out of range.
    #[inline]
    pub fn get(&self, index: &[u64], item: &GridItem) -> T {
        match position(index, &self.shape, &self.strides).and_then(|at| self.data.get(at)) {
            Some(v) => *v,
            None => {
                item.out_of_range(self.param, index, &self.shape);
                T::default()
            }
        }
    }

    /// `view.len(d)`.
    #[inline]
    pub fn len(&self, d: usize) -> u64 {
        self.shape.get(d).map_or(0, |&n| n as u64)
    }
}

/// Elements a grid kernel writes: a tensor's (borrowed) or a work-group
/// array's (owned), each in an atomic.
enum Cells<'a, A> {
    Borrowed(&'a [A]),
    Owned(Vec<A>),
}

/// A view a grid kernel reads and writes (`ViewMut<T, N>`), over a copy of
/// its elements in logical order, in atomics, that the launch stores back;
/// also a work-group array (`local!`), which owns its elements.
pub struct GridViewMut<'a, T: GridElem> {
    data: Cells<'a, T::Atom>,
    shape: Vec<usize>,
    strides: Vec<usize>,
    param: usize,
}

impl<T: GridElem> std::fmt::Debug for GridViewMut<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GridViewMut")
            .field("shape", &self.shape)
            .field("param", &self.param)
            .finish_non_exhaustive()
    }
}

impl<'a, T: GridElem> GridViewMut<'a, T> {
    /// The view of parameter `param` over `data`, the elements of a tensor
    /// of `shape` in logical order ([`grid_cells`]).
    pub fn new(data: &'a [T::Atom], shape: &[usize], param: usize) -> Self {
        GridViewMut {
            data: Cells::Borrowed(data),
            strides: contiguous_strides(shape),
            shape: shape.to_vec(),
            param,
        }
    }

    /// A work-group array of `shape`, zeroed, reported as parameter `param`
    /// (after the kernel's parameters).
    pub fn local(shape: &[usize], param: usize) -> GridViewMut<'static, T> {
        let len = shape.iter().product();
        GridViewMut {
            data: Cells::Owned((0..len).map(|_| T::atom(T::default())).collect()),
            strides: contiguous_strides(shape),
            shape: shape.to_vec(),
            param,
        }
    }

    #[inline]
    fn cell(&self, index: &[u64], item: &GridItem) -> Option<&T::Atom> {
        let cells: &[T::Atom] = match &self.data {
            Cells::Borrowed(c) => c,
            Cells::Owned(c) => c,
        };
        let found = position(index, &self.shape, &self.strides).and_then(|at| cells.get(at));
        if found.is_none() {
            item.out_of_range(self.param, index, &self.shape);
        }
        found
    }

    /// `view[[..]]`: the element at `index`, or 0 (recorded) out of range.
    #[inline]
    pub fn get(&self, index: &[u64], item: &GridItem) -> T {
        self.cell(index, item).map_or_else(T::default, T::load)
    }

    /// `view[[..]] = value`: nothing (recorded) out of range.
    #[inline]
    pub fn set(&self, index: &[u64], value: T, item: &GridItem) {
        if let Some(c) = self.cell(index, item) {
            T::store(c, value);
        }
    }

    /// An atomic on the element at `index`: replaces `old` by `f(old)` in
    /// one step and gives `old`; out of range nothing (recorded) and 0.
    #[inline]
    pub fn update(&self, index: &[u64], f: impl Fn(T) -> T, item: &GridItem) -> T {
        self.cell(index, item)
            .map_or_else(T::default, |c| T::update(c, f))
    }

    /// `view.len(d)`.
    #[inline]
    pub fn len(&self, d: usize) -> u64 {
        self.shape.get(d).map_or(0, |&n| n as u64)
    }
}

/// A written view's elements in logical order, in atomics, for
/// [`GridViewMut::new`] (a copy; [`grid_store`] stores it back).
///
/// # Errors
/// Copy errors.
pub fn grid_cells<T: GridElem>(t: &TensorT<T>) -> Result<Vec<T::Atom>> {
    Ok(t.to_vec()?.into_iter().map(T::atom).collect())
}

/// Stores the elements of [`grid_cells`] back into `t`.
///
/// # Errors
/// Copy errors.
pub fn grid_store<T: GridElem>(t: &mut TensorT<T>, cells: &[T::Atom]) -> Result<()> {
    let values: Vec<T> = cells.iter().map(T::load).collect();
    crate::launch::host::store_host(t, &values)
}

/// The work-groups of a plan: how many, and the coordinates of each by
/// number, the first dimension fastest.
/// The number of work-groups and the coordinates of the `k`-th.
fn groups(plan: &GridPlan<'_>) -> (usize, impl Fn(usize) -> [usize; 3] + Sync) {
    let [gx, gy, gz] = plan.global;
    let [lx, ly, lz] = plan.group;
    let (nx, ny, nz) = (gx / lx, gy / ly, gz / lz);
    // the plan checked that the work-items, and so the groups, fit a usize
    (nx * ny * nz, move |k: usize| {
        [k % nx, k / nx % ny, k / nx / ny]
    })
}

/// Work-groups run on the calling thread below this many work-items in all
/// (handing groups to rayon's threads costs more than it saves).
const SERIAL_ITEMS: usize = 1 << 14;

/// Runs `body` for every work-item of the plan: the work-groups in
/// parallel, the work-items of each in order.
///
/// # Errors
/// [`Error::IndexOutOfBounds`] for the first access out of range (every
/// work-item has run).
pub fn run_grid_host(
    plan: &GridPlan<'_>,
    kernel: &'static str,
    body: impl Fn(&GridItem) + Sync,
) -> Result<()> {
    if plan.is_empty() {
        return Ok(());
    }
    let error = Arc::new(Mutex::new(None));
    let run_group = |&[bx, by, bz]: &[usize; 3]| {
        let [gx, gy, gz] = plan.global;
        let [lx, ly, lz] = plan.group;
        let u = |n: usize| n as u64;
        let mut item = GridItem {
            global: [0; 3],
            local: [0; 3],
            group: [u(bx), u(by), u(bz)],
            groups: [u(gx / lx), u(gy / ly), u(gz / lz)],
            size: [u(gx), u(gy), u(gz)],
            error: Arc::clone(&error),
        };
        for z in 0..lz {
            for y in 0..ly {
                for x in 0..lx {
                    item.local = [u(x), u(y), u(z)];
                    item.global = [u(bx * lx + x), u(by * ly + y), u(bz * lz + z)];
                    body(&item);
                }
            }
        }
    };
    let (count, at) = groups(plan);
    if plan.global.iter().product::<usize>() < SERIAL_ITEMS {
        (0..count).for_each(|k| run_group(&at(k)));
    } else {
        (0..count).into_par_iter().for_each(|k| run_group(&at(k)));
    }
    let first = error.lock().unwrap_or_else(|e| e.into_inner()).take();
    reported(plan, kernel, first)
}

/// The launch's result from its first access out of range.
fn reported(plan: &GridPlan<'_>, kernel: &'static str, first: Option<OutOfRange>) -> Result<()> {
    match first {
        None => Ok(()),
        Some((param, index, shape)) => Err(Error::IndexOutOfBounds {
            kernel,
            view: plan.names.get(param).copied().unwrap_or(""),
            index,
            shape,
        }),
    }
}

/// The future of [`GridItem::barrier`]: pending once, then ready.
#[derive(Debug)]
pub struct Barrier {
    waited: bool,
}

impl Future for Barrier {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
        if self.waited {
            Poll::Ready(())
        } else {
            self.waited = true;
            Poll::Pending
        }
    }
}

/// A work-item's run of a kernel that meets its group at barriers.
pub type WorkItem<'v> = Pin<Box<dyn Future<Output = ()> + 'v>>;

/// Runs a kernel with barriers or work-group arrays: per work-group, its
/// arrays made by `locals`, then every work-item's `body` (a future that
/// waits at each barrier) polled in turn, round after round, so that each
/// round takes every work-item to its next barrier.
///
/// # Errors
/// [`Error::IndexOutOfBounds`] for the first access out of range (every
/// work-item has run); [`Error::InvalidArgument`] when some work-items of a
/// group finished while others waited at a barrier (the checker refuses
/// barriers under work-item conditions, so only a kernel that loops a
/// different number of times past it could).
pub fn run_grid_host_async<'v, G>(
    plan: &GridPlan<'_>,
    kernel: &'static str,
    locals: impl Fn() -> G + Sync,
    body: impl Fn(GridItem, Rc<G>) -> WorkItem<'v> + Sync,
) -> Result<()> {
    if plan.is_empty() {
        return Ok(());
    }
    let error = Arc::new(Mutex::new(None));
    let run_group = |&[bx, by, bz]: &[usize; 3]| -> Result<()> {
        let [gx, gy, gz] = plan.global;
        let [lx, ly, lz] = plan.group;
        let u = |n: usize| n as u64;
        let mut cx = Context::from_waker(Waker::noop());
        let group = Rc::new(locals());
        let mut items = Vec::with_capacity(lx * ly * lz);
        for z in 0..lz {
            for y in 0..ly {
                for x in 0..lx {
                    let item = GridItem {
                        global: [u(bx * lx + x), u(by * ly + y), u(bz * lz + z)],
                        local: [u(x), u(y), u(z)],
                        group: [u(bx), u(by), u(bz)],
                        groups: [u(gx / lx), u(gy / ly), u(gz / lz)],
                        size: [u(gx), u(gy), u(gz)],
                        error: Arc::clone(&error),
                    };
                    items.push(Some(body(item, Rc::clone(&group))));
                }
            }
        }
        loop {
            let (mut done, mut waiting) = (0usize, 0usize);
            for slot in &mut items {
                if let Some(f) = slot {
                    if f.as_mut().poll(&mut cx).is_ready() {
                        *slot = None;
                        done += 1;
                    } else {
                        waiting += 1;
                    }
                }
            }
            if waiting == 0 {
                return Ok(());
            }
            if done > 0 {
                return Err(Error::InvalidArgument {
                    op: kernel,
                    reason: format!(
                        "in work-group [{bx}, {by}, {bz}], {done} work-item(s) finished while {waiting} waited at a barrier: every work-item must reach each barrier"
                    ),
                });
            }
        }
    };
    let (count, at) = groups(plan);
    if plan.global.iter().product::<usize>() < SERIAL_ITEMS {
        (0..count).try_for_each(|k| run_group(&at(k)))?;
    } else {
        (0..count)
            .into_par_iter()
            .try_for_each(|k| run_group(&at(k)))?;
    }
    let first = error.lock().unwrap_or_else(|e| e.into_inner()).take();
    reported(plan, kernel, first)
}
