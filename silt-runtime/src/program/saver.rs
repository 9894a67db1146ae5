//! Program binaries saved in the background: the first launch of a program
//! built from source hands its save (wait for that launch, fetch the binary,
//! write it to disk: up to a second on PoCL when cold) to one background
//! thread and returns. On Oclgrind, whose runtime is not thread-safe, it saves
//! on the launching thread instead (`Device::is_oclgrind`).
//!
//! No save is lost at exit: a thread that launched kernels waits, as it ends,
//! for the saves in flight before it waits for the queues (`cl::thread_exit`),
//! the main thread too, so the saving thread is never inside the driver while
//! the process tears it down. [`wait_for_saves`] waits on demand.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, Once};

/// One save: the work of the background thread.
type Job = Box<dyn FnOnce() + Send>;

/// The saves waiting or running.
struct Queue {
    jobs: VecDeque<Job>,
    /// Saves handed over and not finished (waiting or running).
    pending: usize,
}

static QUEUE: Mutex<Queue> = Mutex::new(Queue {
    jobs: VecDeque::new(),
    pending: 0,
});
/// Signalled when a job is added (for the saving thread) and when one ends
/// (for waiters).
static CHANGED: Condvar = Condvar::new();
static START: Once = Once::new();

fn queue() -> MutexGuard<'static, Queue> {
    QUEUE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Whether the saving thread is running.
static SPAWNED: AtomicBool = AtomicBool::new(false);

/// Runs `job` on the saving thread (started on first use). Should the thread
/// not start, runs it here.
pub(crate) fn submit(job: Job) {
    START.call_once(|| {
        let spawned = std::thread::Builder::new()
            .name("silt-save".into())
            .spawn(run)
            .is_ok();
        if spawned {
            crate::cl::on_thread_exit(wait_for_saves);
        }
        SPAWNED.store(spawned, Ordering::Release);
    });
    if !SPAWNED.load(Ordering::Acquire) {
        job();
        return;
    }
    let mut q = queue();
    q.jobs.push_back(job);
    q.pending += 1;
    drop(q);
    CHANGED.notify_all();
}

/// The saving thread: runs jobs in order, forever.
fn run() {
    loop {
        let job = {
            let mut q = queue();
            loop {
                if let Some(j) = q.jobs.pop_front() {
                    break j;
                }
                q = CHANGED.wait(q).unwrap_or_else(|e| e.into_inner());
            }
        };
        // a failed save only loses the cached binary
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
        queue().pending -= 1;
        CHANGED.notify_all();
    }
}

/// Waits until the program binaries being saved in the background are on
/// disk. silt saves a program's binary after its first launch, on a thread
/// of its own; a thread that launched kernels waits for those saves as it
/// ends, so nothing is lost at exit. Call this to see a save in
/// [`stats`](crate::program_cache::stats) or on disk sooner.
///
/// ```
/// # use silt_runtime::program_cache;
/// program_cache::wait_for_saves(); // nothing launched here: returns at once
/// assert_eq!(program_cache::stats().disk_stores, 0);
/// ```
pub fn wait_for_saves() {
    let mut q = queue();
    while q.pending > 0 {
        q = CHANGED.wait(q).unwrap_or_else(|e| e.into_inner());
    }
}
