//! The host backend of grid kernels: the work-groups in order, the
//! work-items of each in order, each running the kernel's plain-Rust body
//! with its place in the grid ([`GridItem`]) and views of the tensors
//! ([`GridView`], [`GridViewMut`]). Every access is checked: one out of
//! range touches nothing, reads 0, and the launch reports the first.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use crate::dtype::Element;
use crate::error::{Error, Result};

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
    error: Rc<RefCell<Option<OutOfRange>>>,
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
        let mut first = self.error.borrow_mut();
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
/// array's (owned).
enum Cells<'a, T> {
    Borrowed(&'a [Cell<T>]),
    Owned(Vec<Cell<T>>),
}

/// A view a grid kernel reads and writes (`ViewMut<T, N>`), over a copy of
/// its elements in logical order that the launch stores back; also a
/// work-group array (`local!`), which owns its elements.
pub struct GridViewMut<'a, T> {
    data: Cells<'a, T>,
    shape: Vec<usize>,
    strides: Vec<usize>,
    param: usize,
}

impl<T> std::fmt::Debug for GridViewMut<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GridViewMut")
            .field("shape", &self.shape)
            .field("param", &self.param)
            .finish_non_exhaustive()
    }
}

impl<'a, T: Element> GridViewMut<'a, T> {
    /// The view of parameter `param` over `data`, the elements of a tensor
    /// of `shape` in logical order.
    pub fn new(data: &'a mut [T], shape: &[usize], param: usize) -> Self {
        GridViewMut {
            data: Cells::Borrowed(Cell::from_mut(data).as_slice_of_cells()),
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
            data: Cells::Owned((0..len).map(|_| Cell::new(T::default())).collect()),
            strides: contiguous_strides(shape),
            shape: shape.to_vec(),
            param,
        }
    }

    #[inline]
    fn cells(&self) -> &[Cell<T>] {
        match &self.data {
            Cells::Borrowed(c) => c,
            Cells::Owned(c) => c,
        }
    }

    /// `view[[..]]`: the element at `index`, or 0 (recorded) out of range.
    #[inline]
    pub fn get(&self, index: &[u64], item: &GridItem) -> T {
        match position(index, &self.shape, &self.strides).and_then(|at| self.cells().get(at)) {
            Some(v) => v.get(),
            None => {
                item.out_of_range(self.param, index, &self.shape);
                T::default()
            }
        }
    }

    /// `view[[..]] = value`: nothing (recorded) out of range.
    #[inline]
    pub fn set(&self, index: &[u64], value: T, item: &GridItem) {
        match position(index, &self.shape, &self.strides).and_then(|at| self.cells().get(at)) {
            Some(v) => v.set(value),
            None => item.out_of_range(self.param, index, &self.shape),
        }
    }

    /// `view.len(d)`.
    #[inline]
    pub fn len(&self, d: usize) -> u64 {
        self.shape.get(d).map_or(0, |&n| n as u64)
    }
}

/// Runs `body` for every work-item of the plan: the work-groups in order
/// (the first dimension fastest), the work-items of each in order.
///
/// # Errors
/// [`Error::IndexOutOfBounds`] for the first access out of its view's range
/// (every work-item has run).
pub fn run_grid_host(
    plan: &GridPlan<'_>,
    kernel: &'static str,
    mut body: impl FnMut(&GridItem),
) -> Result<()> {
    if plan.is_empty() {
        return Ok(());
    }
    let [gx, gy, gz] = plan.global;
    let [lx, ly, lz] = plan.group;
    let u = |n: usize| n as u64;
    let mut item = GridItem {
        global: [0; 3],
        local: [0; 3],
        group: [0; 3],
        groups: [u(gx / lx), u(gy / ly), u(gz / lz)],
        size: [u(gx), u(gy), u(gz)],
        error: Rc::new(RefCell::new(None)),
    };
    for bz in 0..gz / lz {
        for by in 0..gy / ly {
            for bx in 0..gx / lx {
                item.group = [u(bx), u(by), u(bz)];
                for z in 0..lz {
                    for y in 0..ly {
                        for x in 0..lx {
                            item.local = [u(x), u(y), u(z)];
                            item.global = [u(bx * lx + x), u(by * ly + y), u(bz * lz + z)];
                            body(&item);
                        }
                    }
                }
            }
        }
    }
    let first = item.error.borrow_mut().take();
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
    locals: impl Fn() -> G,
    body: impl Fn(GridItem, Rc<G>) -> WorkItem<'v>,
) -> Result<()> {
    if plan.is_empty() {
        return Ok(());
    }
    let [gx, gy, gz] = plan.global;
    let [lx, ly, lz] = plan.group;
    let u = |n: usize| n as u64;
    let error = Rc::new(RefCell::new(None));
    let mut cx = Context::from_waker(Waker::noop());
    for bz in 0..gz / lz {
        for by in 0..gy / ly {
            for bx in 0..gx / lx {
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
                                error: Rc::clone(&error),
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
                        break;
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
            }
        }
    }
    let first = error.borrow_mut().take();
    reported(plan, kernel, first)
}
