//! The kernel programs one device has built: per program text, the program of
//! its crate group (from a saved binary, else compiled from source and saved
//! after its first launch), or its own when the group does not build here; and
//! per entry point, the kernel objects launches reuse.

use std::collections::HashMap;
use std::ffi::CStr;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use crate::cl::{
    error_name, BuildFailure, ClError, IdleKernel, Kernel, KernelLimits, Program, Queue,
};
use crate::error::{Error, Result};
use crate::program::grouping::crate_group;
use crate::program::text::KernelInfo;
use crate::program::{disk, saver};

use super::geometry::Grid;
use super::info::DeviceInfo;

/// A built program and whether its binary still has to be saved to disk.
#[derive(Debug)]
pub(crate) struct BuiltProgram {
    /// Per entry point launched so far: its work-group limits and idle kernel
    /// objects. A launch takes one (or makes one when none is idle) and puts it
    /// back after enqueuing, so no kernel object is used by two threads at once.
    entries: Mutex<AddressMap<EntryKernels>>,
    program: Program,
    /// Held (shared) by each enqueue of this program's kernels and
    /// (exclusively) by the save of its binary: PoCL 3.1 fetching a program's
    /// binary while kernels of that program are being enqueued failed an
    /// assertion (`pocl_release_dlhandle_cache`) in about one cold run of
    /// four of a multi-threaded test suite.
    gate: RwLock<()>,
    /// The disk cache key, for a program built from source.
    save: Option<disk::Key>,
    saved: AtomicBool,
    /// Whether the binary is saved on the launching thread, not the saving
    /// thread (see `Target::save_here`).
    save_here: bool,
}

/// Idle kernel objects kept per entry point and device.
const MAX_IDLE_KERNELS: usize = 16;

/// What a program keeps for one of its entry points (keyed by the address of
/// the entry point's name: names are `'static`).
#[derive(Debug)]
struct EntryKernels {
    /// What the device allows its work-groups (queried once).
    limits: KernelLimits,
    idle: Vec<IdleKernel>,
}

impl BuiltProgram {
    /// One of the runtime's own programs (the copy kernels), built from
    /// source on first use and never saved.
    pub(crate) fn runtime(program: Program) -> Self {
        BuiltProgram {
            entries: Mutex::default(),
            gate: RwLock::new(()),
            program,
            save: None,
            saved: AtomicBool::new(true),
            save_here: false,
        }
    }

    /// A kernel object for the entry point `entry` (an idle one, else a new
    /// one), and what `queue`'s device allows its work-groups.
    pub(crate) fn kernel<'a>(
        &self,
        entry: &'static CStr,
        queue: &Queue,
    ) -> std::result::Result<(Kernel<'a>, KernelLimits), ClError> {
        let (idle, known) = self
            .entries
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_mut(&address(entry))
            .map_or((None, None), |e| (e.idle.pop(), Some(e.limits)));
        let kernel = match idle {
            Some(k) => k.take(),
            None => self.program.kernel(entry)?,
        };
        let limits = known.unwrap_or_else(|| kernel.limits(queue));
        Ok((kernel, limits))
    }

    /// Keeps the kernel object of a launch of `entry` (enqueued, with the
    /// `limits` [`Self::kernel`] gave) for a later launch.
    pub(crate) fn put_back(&self, entry: &'static CStr, limits: KernelLimits, kernel: Kernel<'_>) {
        let parked = kernel.park();
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let slot = entries
            .entry(address(entry))
            .or_insert_with(|| EntryKernels {
                limits,
                idle: Vec::new(),
            });
        // as many as threads launch this entry point at once, within reason
        if slot.idle.len() < MAX_IDLE_KERNELS {
            slot.idle.push(parked);
        }
    }

    /// Saves the program's binary after its first launch (once per process;
    /// see the disk cache's notes on why this waits for the launch), on the
    /// saving thread: the launch returns at once (with `save_here`, on this
    /// thread, after the wait). `finish` waits there for the work queued on (a
    /// clone of) `device`, the first launch included, whose work-group code
    /// PoCL compiles as it runs.
    pub(crate) fn save_after_first_launch<D: Clone + Send + 'static>(
        self: &Arc<Self>,
        device: &D,
        finish: fn(&D) -> bool,
    ) {
        if self.save.is_some() && !self.saved.swap(true, Ordering::AcqRel) {
            let (program, device) = (Arc::clone(self), device.clone());
            let save = move || {
                let _gate = program.gate.write().unwrap_or_else(|e| e.into_inner());
                if finish(&device) {
                    program.save_now();
                }
            };
            if self.save_here {
                save();
            } else {
                saver::submit(Box::new(save));
            }
        }
    }

    /// Enqueues `kernel`, one of this program's, over `global` work-items in
    /// groups of `local` (see `gate`).
    pub(crate) fn enqueue(
        &self,
        queue: &Queue,
        kernel: &Kernel<'_>,
        global: usize,
        local: usize,
    ) -> std::result::Result<(), ClError> {
        let _gate = self.gate.read().unwrap_or_else(|e| e.into_inner());
        queue.launch(kernel, global, local)
    }

    /// Enqueues `kernel`, one of this program's, over a strided map launch's
    /// three-dimensional `grid`, in as many parts as its second and third
    /// dimensions need (see `gate`).
    pub(crate) fn enqueue_grid(
        &self,
        queue: &Queue,
        kernel: &Kernel<'_>,
        grid: &Grid,
    ) -> std::result::Result<(), ClError> {
        let _gate = self.gate.read().unwrap_or_else(|e| e.into_inner());
        grid.enqueue(queue, kernel)
    }

    /// Saves the binary (its launches have run).
    fn save_now(&self) {
        if let (Some(key), Ok(binary)) = (&self.save, self.program.binary()) {
            tracing::debug!(target: "silt::program", bytes = binary.len(), "program binary saved to the disk cache");
            disk::store(key, &binary);
        }
    }
}

/// The address of a `'static` value, as the launch path's maps key it.
fn address<T: ?Sized>(r: &'static T) -> usize {
    std::ptr::from_ref(r).cast::<()>() as usize
}

/// Hashes the addresses that key the launch path's maps (of `'static` program
/// texts and entry-point names) with one multiplication: they are distinct by
/// construction, so SipHash's protection buys nothing there.
#[derive(Debug, Default, Clone, Copy)]
struct AddressHasher(u64);

impl std::hash::Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    fn write_usize(&mut self, n: usize) {
        // the high bits pick the bucket: multiply, then fold them down
        let h = (n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = h ^ (h >> 29);
    }
}

/// A map keyed by `'static` addresses.
type AddressMap<V> = HashMap<usize, V, std::hash::BuildHasherDefault<AddressHasher>>;

/// The programs a device has built, by the address of each program text they
/// hold.
#[derive(Debug, Default)]
pub(crate) struct Programs {
    by_text: AddressMap<Arc<BuiltProgram>>,
    /// Crate programs that did not build here (their kernels build alone).
    failed_groups: Vec<String>,
    /// Programs built or loaded.
    pub(crate) built: usize,
}

impl Programs {
    /// The program of `info` on `target`: from this cache, else the program
    /// of all kernels of its crate and precision (from a saved binary, else
    /// compiled from source and saved after its first launch). Should that
    /// program not build, the kernel's own program is built instead, so that a
    /// build error names the kernel that caused it.
    pub(crate) fn get(
        &mut self,
        info: &'static KernelInfo,
        target: &Target<'_>,
    ) -> Result<Arc<BuiltProgram>> {
        let key = address(info.opencl.program);
        if let Some(p) = self.by_text.get(&key) {
            return Ok(Arc::clone(p));
        }
        if let Some(group) = crate_group(info.opencl.program) {
            if !self.failed_groups.contains(&group.name) {
                if let Ok(built) = target.load_or_build(&group.name, &hooked(&group.source)) {
                    let built = Arc::new(built);
                    for p in &group.members {
                        self.by_text.insert(address(*p), Arc::clone(&built));
                    }
                    self.built += 1;
                    return Ok(built);
                }
                tracing::warn!(target: "silt::program", program = %group.name, "building the kernels of this program one by one");
                self.failed_groups.push(group.name);
            }
        }
        let own = hooked(info.opencl.program.source());
        let built = target
            .load_or_build(&info.describe(), &own)
            .map_err(|f| Error::Build {
                what: info.describe(),
                device: target.device.to_string(),
                code: f.code,
                name: error_name(f.code),
                log: info.opencl.program.map_log(&f.log, &own),
            })?;
        let built = Arc::new(built);
        self.by_text.insert(key, Arc::clone(&built));
        self.built += 1;
        Ok(built)
    }
}

/// The device programs are built for.
pub(crate) struct Target<'a> {
    /// Its queue.
    pub(crate) queue: &'a Queue,
    /// Its facts: build options and the disk cache's key depend on them.
    pub(crate) info: &'a DeviceInfo,
    /// The device as logs and errors name it.
    pub(crate) device: &'a dyn fmt::Display,
    /// Whether binaries are saved on the launching thread: Oclgrind's runtime
    /// is not thread-safe (the saving thread's wait and a launching thread's
    /// read both run queued kernels, and two at once fail its assertion
    /// `m_kernelInvocation == NULL`).
    pub(crate) save_here: bool,
}

impl Target<'_> {
    /// Build options: no warnings (`-w`), and correctly rounded `f32`
    /// division and `sqrt` where the device offers them.
    ///
    /// The driver's compiler prints its warnings to the process's stderr,
    /// where nobody can act on them: the C is generated, and silt's tests
    /// compile the emitted programs with clang (the grid programs and the
    /// fuzz corpus's with `-Werror`). (PoCL on
    /// a CPU without AVX-512 warns of a vector ABI for the `ulong16`
    /// arguments of every strided and grid entry.) Errors still fail the
    /// build, with their log.
    fn options(&self) -> &'static str {
        if self.info.correctly_rounded_divide_sqrt {
            "-w -cl-fp32-correctly-rounded-divide-sqrt"
        } else {
            "-w"
        }
    }

    /// A program from its saved binary, else built from `source`.
    fn load_or_build(
        &self,
        what: &str,
        source: &str,
    ) -> std::result::Result<BuiltProgram, BuildFailure> {
        let (queue, device, options) = (self.queue, self.device, self.options());
        let start = std::time::Instant::now();
        let disk_key = disk::Key::new(
            source,
            options,
            &self.info.platform_version,
            &self.info.name,
            &self.info.driver_version,
        );
        let from_disk =
            disk::load(&disk_key).and_then(|binary| match queue.build_binary(&binary, options) {
                Ok(p) => Some(p),
                Err(f) => {
                    tracing::warn!(target: "silt::program", program = what, code = f.code, "saved binary rejected: rebuilding from source");
                    disk::reject(&disk_key);
                    None
                }
            });
        let ms = || start.elapsed().as_secs_f64() * 1e3;
        Ok(match from_disk {
            Some(program) => {
                tracing::debug!(target: "silt::program", program = what, device = %device, ms = ms(), cache = "hit", "program loaded from the disk cache");
                BuiltProgram {
                    entries: Mutex::default(),
                    gate: RwLock::new(()),
                    program,
                    save: None,
                    saved: AtomicBool::new(true),
                    save_here: self.save_here,
                }
            }
            None => {
                disk::note_source_build();
                let program = queue.build(source, options).inspect_err(|f| {
                    tracing::warn!(target: "silt::program", program = what, device = %device, code = f.code, "program failed to build");
                })?;
                tracing::info!(target: "silt::program", program = what, device = %device, ms = ms(), cache = "miss", "program built from source");
                BuiltProgram {
                    entries: Mutex::default(),
                    gate: RwLock::new(()),
                    program,
                    // with the cache off nothing is saved, so the binary is not
                    // fetched either: PoCL compiles every kernel of a program
                    // to hand its binary out
                    save: disk::dir().map(|_| disk_key),
                    saved: AtomicBool::new(false),
                    save_here: self.save_here,
                }
            }
        })
    }
}

/// A function that rewrites every program's text before it is built (a test
/// hook: a way to make a generated program fail to build).
static SOURCE_HOOK: Mutex<Option<SourceHook>> = Mutex::new(None);

/// A rewrite of a program's text.
type SourceHook = fn(&str) -> String;

/// Sets (or, with `None`, removes) a function that rewrites the text of every
/// program before it is built, for tests of build failures.
pub(crate) fn set_source_hook(hook: Option<SourceHook>) {
    *SOURCE_HOOK.lock().unwrap_or_else(|e| e.into_inner()) = hook;
}

/// `source`, rewritten by the test hook if one is set.
fn hooked(source: &str) -> std::borrow::Cow<'_, str> {
    match *SOURCE_HOOK.lock().unwrap_or_else(|e| e.into_inner()) {
        Some(hook) => hook(source).into(),
        None => source.into(),
    }
}
