//! Waiting for every queue when a thread that enqueued kernels ends.
//!
//! Work queued and never waited for would otherwise still run in the driver's
//! threads while the process tears down: PoCL compiles a kernel's work-group
//! function when the kernel first runs, and a compile that meets LLVM's already
//! destroyed statics crashes the process or aborts it ("Failed to create kernel
//! compiler pass"), seen at the exit of a test binary that dropped its results
//! unread. An `atexit` handler cannot do this: LLVM creates statics during
//! those compiles, so their destructors are registered later and run earlier.
//! A thread-local guard runs in time, the main thread's too: glibc runs
//! thread-local destructors first in `exit`.
//!
//! Before the queues, such a thread waits for what `on_thread_exit` set: the
//! program binaries being saved in the background, so that no save is lost
//! and the saving thread is out of the driver before the process ends.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};

use opencl3::command_queue as cq;
use opencl3::types::cl_command_queue;

/// The command queue of a live [`Queue`](super::Queue).
struct LiveQueue(cl_command_queue);

// SAFETY: command queues are thread-safe OpenCL objects (OpenCL 1.2 appendix
// A.2); the handle is only passed to `clFinish`, while the list's lock is held,
// and a `Queue` takes its handle out of the list (under the lock) before
// releasing it.
unsafe impl Send for LiveQueue {}

/// Every command queue alive, in creation order.
static QUEUES: Mutex<Vec<LiveQueue>> = Mutex::new(Vec::new());

fn queues() -> MutexGuard<'static, Vec<LiveQueue>> {
    // the list stays consistent whatever panicked while it was held
    QUEUES.lock().unwrap_or_else(|e| e.into_inner())
}

pub(super) fn add_queue(queue: cl_command_queue) {
    queues().push(LiveQueue(queue));
}

pub(super) fn remove_queue(queue: cl_command_queue) {
    queues().retain(|q| q.0 != queue);
}

/// What a thread that launched kernels waits for as it ends, before the
/// queues (the program saver's `wait_for_saves`).
static EXIT_WAIT: OnceLock<fn()> = OnceLock::new();

/// Sets what threads that launched kernels wait for as they end, before they
/// wait for the queues (set once; later calls change nothing).
pub(crate) fn on_thread_exit(wait: fn()) {
    let _ = EXIT_WAIT.set(wait);
}

/// How many threads have waited for the queues as they ended.
static FINISHES: AtomicUsize = AtomicUsize::new(0);

/// Finishes the queues when the thread that holds it ends.
struct FinishAtThreadExit;

impl Drop for FinishAtThreadExit {
    fn drop(&mut self) {
        if let Some(wait) = EXIT_WAIT.get() {
            wait();
        }
        // errors are ignored: this runs at thread exit
        for q in queues().iter() {
            let _ = cq::finish(q.0);
        }
        FINISHES.fetch_add(1, Ordering::Relaxed);
    }
}

thread_local! {
    static LAUNCHED_HERE: FinishAtThreadExit = const { FinishAtThreadExit };
}

/// Notes that this thread enqueued a kernel: when the thread ends, it waits for
/// every OpenCL queue.
pub(super) fn note_launch() {
    LAUNCHED_HERE.with(|_| {});
}

/// How many threads that enqueued kernels have waited for every queue as they
/// ended.
pub(crate) fn thread_exit_finishes() -> usize {
    FINISHES.load(Ordering::Relaxed)
}
