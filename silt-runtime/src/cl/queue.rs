//! A context on one device together with its in-order command queue.

use std::ptr;

use opencl3::command_queue as cq;
use opencl3::context::context as ctx;
use opencl3::types::{cl_command_queue, cl_context, cl_device_id};

use super::error::ClError;
use super::platform::DeviceId;
use super::thread_exit;

/// An OpenCL context on one device together with its in-order command queue.
#[derive(Debug)]
pub(crate) struct Queue {
    pub(super) context: cl_context,
    pub(super) queue: cl_command_queue,
    pub(super) device: cl_device_id,
}

// SAFETY: OpenCL contexts and command queues are thread-safe objects (OpenCL 1.2
// spec, appendix A.2): every API call taking them may be made from any thread. This
// type only ever passes them to such calls.
unsafe impl Send for Queue {}
// SAFETY: as above; `Queue` exposes no interior state beyond the handles.
unsafe impl Sync for Queue {}

impl Queue {
    /// Creates a context for `id` and an in-order queue on it.
    pub(crate) fn new(id: DeviceId) -> Result<Self, ClError> {
        let context = ctx::create_context(&[id.device], ptr::null(), None, ptr::null_mut())
            .map_err(|c| ClError::new("clCreateContext", c))?;
        // SAFETY: `context` was just created for `id.device`; properties 0 asks for
        // a plain in-order queue.
        #[allow(deprecated)]
        let queue = unsafe { cq::create_command_queue(context, id.device, 0) };
        match queue {
            Ok(queue) => {
                thread_exit::add_queue(queue);
                Ok(Queue {
                    context,
                    queue,
                    device: id.device,
                })
            }
            Err(code) => {
                // SAFETY: the context was created above and is released once here.
                let _ = unsafe { ctx::release_context(context) };
                Err(ClError::new("clCreateCommandQueue", code))
            }
        }
    }

    /// Waits until everything queued has run.
    pub(crate) fn finish(&self) -> Result<(), ClError> {
        cq::finish(self.queue).map_err(|c| ClError::new("clFinish", c))
    }
}

impl Drop for Queue {
    fn drop(&mut self) {
        // Out of the list first: a thread ending meanwhile no longer waits for it.
        thread_exit::remove_queue(self.queue);
        // Errors are ignored: there is nothing a destructor can do about them.
        let _ = cq::finish(self.queue);
        // SAFETY: both handles were created in `new` and are released exactly once.
        unsafe {
            let _ = cq::release_command_queue(self.queue);
            let _ = ctx::release_context(self.context);
        }
    }
}
