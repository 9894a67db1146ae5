//! Launch geometry: the work-group size of each launch, chosen per kind of
//! device, within what the kernel allows.
//!
//! No result depends on it: a map entry point is one work-item per element
//! (guarded by the element count), a reduction's first pass one work-item per
//! lane or tile (its tree passes keep their own fixed groups), a scan one
//! work-item per chunk.
//!
//! - **CPU (PoCL):** [`CPU_LOCAL`] for every launch. PoCL compiles a kernel's
//!   work-group function once per local size (31-45 ms cold), so silt uses one
//!   size, whatever the number of elements: one compiled variant per entry
//!   point, no recompile for a new tensor size. On PoCL 3.1 on a 2-core machine
//!   (raw `axpy`, `bench_report --geometry`): 64 reaches 0.8-0.9x of the
//!   bandwidth of PoCL's own choice (4096 from 2^14 elements up), 256 to 4096
//!   all reach it, and 256 is the best of them at 2^14. A 1-element launch
//!   with a 256-wide group costs no more than with a 16-wide one: the
//!   work-items past the count return at their first test.
//! - **GPU and others:** [`GPU_LOCAL`] work-items, rounded down to a multiple
//!   of the kernel's preferred multiple (the warp or wavefront); a launch of
//!   fewer items takes the fewest whole multiples that cover them, so a tiny
//!   launch runs one warp, not a block of eight. GPU drivers do not compile
//!   per local size, so these few sizes (at most `GPU_LOCAL / multiple`) cost
//!   no compile.

use std::cell::Cell;

use crate::cl::KernelLimits;

use super::info::{DeviceInfo, DeviceKind};

/// The work-group size of every launch on a CPU device.
pub(crate) const CPU_LOCAL: usize = 256;

/// The work-group size of a full launch on a GPU (before rounding down to the
/// kernel's preferred multiple).
pub(crate) const GPU_LOCAL: usize = 256;

thread_local! {
    /// A work-group size this thread's launches use instead (a test and
    /// benchmark hook).
    pub(super) static LOCAL_OVERRIDE: Cell<Option<usize>> = const { Cell::new(None) };
}

/// The work-group size for a launch of `items` work-items of a kernel with
/// `limits` on the device `info` describes: at least 1, at most what the
/// kernel and the device allow.
pub(crate) fn local_size(info: &DeviceInfo, items: usize, limits: KernelLimits) -> usize {
    let max = limits.max.min(info.max_work_group_size).max(1);
    let want = LOCAL_OVERRIDE
        .with(Cell::get)
        .unwrap_or_else(|| match info.kind {
            DeviceKind::Cpu | DeviceKind::Host => CPU_LOCAL,
            DeviceKind::Gpu | DeviceKind::Accelerator => {
                let m = limits.multiple.max(1);
                let full = (GPU_LOCAL / m).max(1) * m;
                if items < full {
                    items.div_ceil(m).max(1) * m
                } else {
                    full
                }
            }
        });
    want.clamp(1, max)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(kind: DeviceKind, max: usize) -> DeviceInfo {
        let mut i = DeviceInfo::host();
        i.kind = kind;
        i.max_work_group_size = max;
        i
    }

    const WIDE: KernelLimits = KernelLimits {
        max: 4096,
        multiple: 32,
    };

    #[test]
    fn a_cpu_uses_one_size_within_the_limits() {
        let cpu = info(DeviceKind::Cpu, 4096);
        for items in [1, 255, 256, 1 << 20] {
            assert_eq!(local_size(&cpu, items, WIDE), CPU_LOCAL);
        }
        // a kernel (or device) that allows less gets what it allows
        let narrow = KernelLimits {
            max: 100,
            multiple: 1,
        };
        assert_eq!(local_size(&cpu, 1 << 20, narrow), 100);
        assert_eq!(local_size(&info(DeviceKind::Cpu, 16), 1 << 20, WIDE), 16);
    }

    #[test]
    fn a_gpu_uses_whole_warps_and_few_for_tiny_launches() {
        let gpu = info(DeviceKind::Gpu, 1024);
        assert_eq!(local_size(&gpu, 1 << 20, WIDE), 256);
        assert_eq!(local_size(&gpu, 1, WIDE), 32);
        assert_eq!(local_size(&gpu, 33, WIDE), 64);
        assert_eq!(local_size(&gpu, 255, WIDE), 256);
        // a wavefront of 64
        let amd = KernelLimits {
            max: 256,
            multiple: 64,
        };
        assert_eq!(local_size(&gpu, 100, amd), 128);
        assert_eq!(local_size(&gpu, 1 << 20, amd), 256);
        // a multiple above the full size: one multiple, within the limits
        let odd = KernelLimits {
            max: 1024,
            multiple: 384,
        };
        assert_eq!(local_size(&gpu, 1 << 20, odd), 384);
        for items in [1usize, 7, 31, 32, 200, 1 << 30] {
            let l = local_size(&gpu, items, WIDE);
            assert!(l % 32 == 0 && l <= 256, "{items}: {l}");
        }
    }

    #[test]
    fn the_override_wins_within_the_limits() {
        let cpu = info(DeviceKind::Cpu, 4096);
        LOCAL_OVERRIDE.with(|o| o.set(Some(7)));
        assert_eq!(local_size(&cpu, 1 << 20, WIDE), 7);
        LOCAL_OVERRIDE.with(|o| o.set(Some(1 << 20)));
        assert_eq!(local_size(&cpu, 1 << 20, WIDE), 4096);
        LOCAL_OVERRIDE.with(|o| o.set(None));
        assert_eq!(local_size(&cpu, 1 << 20, WIDE), CPU_LOCAL);
    }
}
